# bench/common.sh: shell functions the bench/ scripts share (run.sh, rw-split.sh, load.sh, faults.sh...). Sourced, not run.
# They read the calling script's settings (MIN_JAVA, JVM_DIR, INTERRUPTED...) when called.

die() {
    echo "ERROR: $*" >&2
    exit 1
}

say() {
    echo "==> $*"
}

need_value() {
    [ $# -ge 2 ] && [ -n "$2" ] || die "option $1 needs a value (see --help)"
}

# Turns "a,b c" into "a b c".
split_list() {
    echo "$1" | tr ',' ' ' | xargs
}

# Prints the path of the first of the given programs found on the PATH or in the sbin
# folders (mariadbd and haproxy live in /usr/sbin, which is not on a normal user's PATH).
find_bin() {
    local name dir
    for name in "$@"; do
        if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
        for dir in /usr/sbin /usr/local/sbin /sbin /usr/libexec; do
            [ -x "$dir/$name" ] && { echo "$dir/$name"; return 0; }
        done
    done
    return 1
}

# Prints the major version of a java executable (17 for "17.0.15", 25 for "25-ea").
java_major() {
    local v
    v=$("$1" -version 2>&1 | awk -F'"' '/version/ { print $2; exit }')
    case "$v" in 1.*) v=${v#1.} ;; esac
    v=${v%%[!0-9]*}
    echo "${v:-0}"
}

# Same rule as Strata's bin/start.sh: keep JAVA_HOME (or the java on the PATH) when it is
# Java 21+, else export JAVA_HOME as the newest JDK >= 21 under /usr/lib/jvm.
select_java() {
    local java="" best="" best_major=0 candidate major
    if [ -n "${JAVA_HOME:-}" ]; then
        java="$JAVA_HOME/bin/java"
    else
        java=$(command -v java 2>/dev/null || true)
    fi
    if [ -n "$java" ] && [ -x "$java" ] && [ "$(java_major "$java")" -ge "$MIN_JAVA" ]; then
        JAVA_BIN=$java
        return
    fi
    for candidate in "$JVM_DIR"/*/bin/java; do
        [ -x "$candidate" ] || continue
        major=$(java_major "$candidate")
        if [ "$major" -ge "$MIN_JAVA" ] && [ "$major" -gt "$best_major" ]; then
            best=$candidate
            best_major=$major
        fi
    done
    [ -n "$best" ] || die "Strata needs Java $MIN_JAVA+; none found (JAVA_HOME, PATH, $JVM_DIR/*). Install a JDK >= $MIN_JAVA."
    export JAVA_HOME=${best%/bin/java}
    JAVA_BIN=$best
    say "${java:-java} is older than Java $MIN_JAVA; using JAVA_HOME=$JAVA_HOME"
}

port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True while the pid runs (a zombie, i.e. an exited child not yet reaped, does not count).
is_alive() {
    local stat
    [ -n "$1" ] && stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# Runs a command until it succeeds, for up to $1 seconds, while the pid $2 lives.
wait_until() {
    local timeout=$1 pid=$2 i
    shift 2
    for ((i = 0; i < timeout * 4; i++)); do
        "$@" >/dev/null 2>&1 && return 0
        is_alive "$pid" || return 1
        sleep 0.25
    done
    return 1
}

# utime + stime of a whole process (all its threads), in clock ticks; /proc/PID/stat
# fields 14 and 15, counted after the ")" that closes the command name.
cpu_ticks() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
    stat=${stat##*) }
    # shellcheck disable=SC2086
    set -- $stat
    echo $(( ${12} + ${13} ))
}

# utime and stime of a whole process, in clock ticks, apart: "user system".
cpu_ticks_split() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo "0 0"; return; }
    stat=${stat##*) }
    # shellcheck disable=SC2086
    set -- $stat
    echo "${12} ${13}"
}

# CPU seconds (user + system, in clock ticks) of the JIT compiler threads of a JVM: a cell in which
# they are busy measures compilation, not the proxy.
jit_ticks() {
    local t stat sum=0
    for t in /proc/"$1"/task/*; do
        case "$(cat "$t/comm" 2>/dev/null)" in
            C1\ Compiler*|C2\ Compiler*)
                stat=$(cat "$t/stat" 2>/dev/null) || continue
                stat=${stat##*) }
                # shellcheck disable=SC2086
                set -- $stat
                sum=$((sum + ${12} + ${13})) ;;
        esac
    done
    echo "$sum"
}

# sysbench catches Ctrl-C and exits 130 by itself, so bash never sees the signal and
# would go on with the next cell: pass it on.
exit_if_interrupted() {
    case "$1" in
        130|143) echo; say "Interrupted"; exit "$1" ;;
    esac
}

csv_field() {
    local v=$1
    case "$v" in
        *[,\"]*) v=${v//\"/\"\"}; echo "\"$v\"" ;;
        *) echo "$v" ;;
    esac
}

# Installs the missing packages with apt-get; HAProxy only with the argument "haproxy". It
# never starts, stops or reconfigures a service itself; the Debian packages may start their
# own (mariadb.service on 3306, haproxy.service): the benchmarks do not use them and leave
# them alone.
install_missing() {
    local missing=()
    find_bin sysbench >/dev/null || missing+=(sysbench)
    if [ "${1:-}" = haproxy ]; then find_bin haproxy >/dev/null || missing+=(haproxy); fi
    { find_bin mariadbd >/dev/null && find_bin mariadb-install-db >/dev/null; } || missing+=(mariadb-server)
    { find_bin mariadb >/dev/null && find_bin mariadb-admin >/dev/null; } || missing+=(mariadb-client)
    [ ${#missing[@]} -eq 0 ] && return 0

    command -v apt-get >/dev/null 2>&1 \
        || die "missing: ${missing[*]}, and there is no apt-get here. Install them and run again."
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 \
            || die "missing: ${missing[*]}. Run as root, or install them: apt-get install ${missing[*]}"
        sudo=(sudo)
    fi
    say "Installing missing packages with apt-get: ${missing[*]}"
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
    INSTALLED_PACKAGES="${missing[*]}"
    case " ${missing[*]} " in
        *" mariadb-server "*|*" haproxy "*)
            echo "    Note: the packages may have started their own system services (mariadb on port 3306,"
            echo "    haproxy). This benchmark does not use them and leaves them as they are."
            ;;
    esac
}

# stop_pid NAME PID [TIMEOUT]: TERM, wait up to TIMEOUT seconds (default 30), then KILL; the
# process is reaped when it is the script's child.
stop_pid() {
    local name=$1 pid=$2 timeout=${3:-30} i
    is_alive "$pid" || { wait "$pid" 2>/dev/null || true; return 0; }
    echo "    stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < timeout * 10; i++)); do
        is_alive "$pid" || { wait "$pid" 2>/dev/null || true; return 0; }
        sleep 0.1
    done
    echo "    $name (pid $pid) did not stop in ${timeout} s; sending KILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# Lists the failed cells: print_failed_cells CELLS STATUS NOTE, the names of the calling
# script's array of cell keys and its associative arrays of status and note by key
# (a key's "|" separators print as spaces).
print_failed_cells() {
    local -n cells=$1 status=$2 note=$3
    local key any=0
    for key in "${cells[@]}"; do
        [ "${status[$key]}" = ok ] && continue
        [ $any -eq 0 ] && { echo; echo "Failed cells:"; any=1; }
        echo "  ${key//|/ }: ${note[$key]}"
    done
    return 0
}

# CPU seconds between two cpu_ticks readings.
cpu_seconds_between() {
    awk -v a="$1" -v b="$2" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / t }'
}

# Starts HAProxy in TCP mode on 127.0.0.1:$HAPROXY_PORT in front of one server, with every
# core (the same room as Strata: Netty runs 2 x cores event loops, and HAProxy 2.x one thread
# per core; "nbthread 1" would cap it at one core while Strata may use all of them). Sets
# HAPROXY_PID. Arguments: folder, server name, server port, what the config is for.
start_haproxy_tcp() {
    start_haproxy_tcp_at HAPROXY_PID "$HAPROXY_PORT" "$(nproc)" "$@"
}

# The same with the listening port and the thread count given, for a second HAProxy beside
# the first (bench/run.sh's haproxy1 runs "nbthread 1": the cheapest HAProxy on a small
# machine). Arguments: the name of the variable that gets the pid (set as soon as the
# process is forked, so that the caller's cleanup stops it even when the start fails),
# listening port, nbthread, then those of start_haproxy_tcp.
start_haproxy_tcp_at() {
    local pid_var=$1 listen=$2 threads=$3 dir=$4 name=$5 port=$6 purpose=$7 pid
    mkdir -p "$dir"
    cat > "$dir/haproxy.cfg" <<CFG
# Written by $purpose.
global
    nbthread $threads
    # Far above the most sysbench threads used, so HAProxy never queues a connection.
    maxconn 4096

defaults
    mode tcp
    timeout connect 5s
    timeout client 1h
    timeout server 1h

listen $name
    bind 127.0.0.1:$listen
    balance roundrobin
    server $name 127.0.0.1:$port
CFG
    say "Starting HAProxy on 127.0.0.1:$listen (mode tcp, nbthread $threads) in front of $name"
    "$HAPROXY" -c -q -f "$dir/haproxy.cfg" > "$dir/check.log" 2>&1 \
        || { cat "$dir/check.log" >&2; die "HAProxy rejected $dir/haproxy.cfg"; }
    # -db: foreground, no master process, so $! is the process that does the work.
    "$HAPROXY" -db -f "$dir/haproxy.cfg" > "$dir/haproxy.log" 2>&1 < /dev/null &
    pid=$!
    printf -v "$pid_var" '%s' "$pid"
    if ! wait_until 20 "$pid" port_in_use "$listen"; then
        cat "$dir/haproxy.log" >&2
        die "HAProxy did not start (log: $dir/haproxy.log)"
    fi
}

# Reads a sysbench log: sets R_QUERIES, R_QPS and R_P95, and R_STATUS/R_NOTE when the cell
# failed (sysbench exit code, a FATAL/ALERT line, no result) or, in ps mode "auto", ran on
# the text protocol because the server refused prepared statements (sysbench, run with
# --verbosity=4, then says "using emulation"): comparing that with the other targets'
# binary-protocol cells would be wrong, so it counts as failed. A failed cell has QPS 0 and
# no p95. Returns 1 when it failed. Arguments: log, sysbench's exit code, ps mode, seconds
# the cell was given.
judge_sysbench_log() {
    local log=$1 rc=$2 ps=$3 secs=$4 qline fatal fallback code
    R_QUERIES=0 R_QPS=0
    qline=$(grep -E '^[[:space:]]+queries:' "$log" | head -n 1 || true)
    if [ -n "$qline" ]; then
        R_QUERIES=$(echo "$qline" | awk '{ print $2 }')
        R_QPS=$(echo "$qline" | sed -E 's/.*\(([0-9.]+) per sec.*/\1/')
    fi
    R_P95=$(awk '/95th percentile:/ { print $3; exit }' "$log")
    fatal=$(grep -m 1 -E 'FATAL|ALERT' "$log" || true)
    fallback=$(grep -m 1 'using emulation' "$log" || true)
    if [ "$rc" -ne 0 ] || [ -n "$fatal" ] || [ -z "$qline" ]; then
        R_STATUS=FAILED
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            R_NOTE="sysbench did not finish within $((secs + 60)) s"
        elif [ -n "$fatal" ]; then
            R_NOTE=$(echo "$fatal" | sed -E 's/^[[:space:]]+//' | cut -c1-160)
        else
            R_NOTE="sysbench exit code $rc: $(tail -n 1 "$log" | cut -c1-120)"
        fi
        [ -n "$fallback" ] && R_NOTE="$R_NOTE; also: prepared statements refused"
        R_QPS=0 R_P95=""
        return 1
    fi
    if [ -n "$fallback" ] && [ "$ps" = auto ]; then
        R_STATUS=FAILED
        code=$(echo "$fallback" | sed -E 's/.*\(([0-9]+): .*/\1/')
        R_NOTE="server refused COM_STMT_PREPARE (error $code); sysbench fell back to the text protocol: $R_QPS qps, p95 $R_P95 ms (not counted)"
        R_QPS=0 R_P95=""
        return 1
    fi
    return 0
}

# MariaDB with sysbench's tables and Strata from the distribution, set up by bench/run.sh --keep and left
# running, for scripts that then load or break them (bench/load.sh, bench/faults.sh). Arguments: a name for the
# log, the number of 10,000-row tables, the base port (MariaDB on it, Strata on it + 2) and the distribution
# (empty: run.sh's default). Sets MARIADB_PID, STRATA_PID, STRATA_PORT and WORK_DIR (run.sh's temp folder).
kept_setup() {
    local name=$1 tables=$2 base_port=$3 dist=$4 log
    log=$(mktemp "/tmp/strata-$name-setup.XXXXXX")
    say "Setting up MariaDB and Strata with bench/run.sh --keep (log: $log)"
    local setup=(--keep --targets strata --workloads oltp_point_select --ps-modes disable --threads 4 --time 2
        --rounds 1 --warmup 0 --many-clients 0 --tables "$tables" --table-size 10000 --base-port "$base_port")
    [ -n "$dist" ] && setup+=(--strata-dist "$dist")
    "$(dirname "${BASH_SOURCE[0]}")/run.sh" "${setup[@]}" > "$log" 2>&1 || { tail -n 30 "$log" >&2; die "set-up failed"; }
    MARIADB_PID=$(awk '/MariaDB  pid/ { print $3; exit }' "$log")
    STRATA_PID=$(awk '/Strata   pid/ { print $3; exit }' "$log")
    STRATA_PORT=$((base_port + 2))
    WORK_DIR=$(awk '/--keep: left running/ { sub(/.*temp folder /, ""); sub(/\):$/, ""); print; exit }' "$log")
    [ -n "$MARIADB_PID" ] && [ -n "$STRATA_PID" ] || die "could not read the pids from $log"
}
