# bench/common.sh: shell functions the bash scripts of bench/ share (load.sh, faults.sh, profile.sh, fuzz.sh,
# sharding/bulk-insert.sh). Sourced, not run. They read the calling script's settings (MIN_JAVA, JVM_DIR...) when
# called. The benchmarks themselves (run.sh, rw-split.sh, sharding/run.sh) are Python, on bench/harness/.

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

# MariaDB with sysbench's tables and Strata from the distribution, set up by bench/run.sh --keep and left
# running (it reads the pids and the temp folder from the lines bench/empty_rules.py prints with --keep), for scripts that then load or break them (bench/load.sh, bench/faults.sh). Arguments: a name for the
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
