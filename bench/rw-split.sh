#!/usr/bin/env bash
#
# bench/rw-split.sh: how read QPS through Strata grows with 0, 1 and 2 MariaDB replicas
# behind the READWRITE_SPLITTING rule.
#
# On one machine it starts a private MariaDB primary and two replicas (GTID replication),
# loads sbtest1 on the primary, and then, for each replica count, starts Strata (from the
# distribution tarball) with a read/write-splitting configuration and runs a read-only
# sysbench workload through it.
#
# The whole machine shares its cores, so CPU cannot be the bottleneck that replicas
# relieve. Instead every read holds its backend connection for a fixed wall-clock time
# without using CPU (SELECT c, SLEEP(0.005) FROM sbtest1 WHERE id = ?, see
# bench/rw-split/read_sleep.lua), and Strata's pool per data source has a fixed size
# (maximumPoolSize), so each backend serves at most pool / sleep reads per second. With
# more client threads than backend connections the backends saturate, and the read QPS
# should be 1x, 2x and 3x that with 0, 1 and 2 replicas (the primary takes reads too).
#
# It prints a table and writes bench/results/rw-split-<timestamp>.csv (and .txt).
# Everything it starts is stopped at the end (by pid), and its temp folder is removed,
# unless --keep. bench/README.md explains the method and how to read the results.

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
RESULTS_DIR="$SCRIPT_DIR/results"
LUA_SCRIPT="$SCRIPT_DIR/rw-split/read_sleep.lua"
ORIG_COMMAND=$(printf '%q ' "$0" "$@")
ORIG_COMMAND=${ORIG_COMMAND% }

MIN_JAVA=21
JVM_DIR=/usr/lib/jvm
# Names of the backends; replica i of the configuration is REPLICA_NAMES[i].
NODE_NAMES=(primary replica_0 replica_1)

# ---- options ------------------------------------------------------------------------

CELL_TIME=10
WARMUP=3
THREADS=32
POOL=4
SLEEP_MS=5
TABLE_SIZE=10000
REPLICA_COUNTS="0 1 2"
PS_MODE=auto
STRATA_DIST=""
BASE_PORT=13316
DIRECT_ONLY=0
KEEP=0

usage() {
    cat <<EOF
Usage: bench/rw-split.sh [options]

Read QPS through Strata's READWRITE_SPLITTING rule with 0, 1 and 2 replicas, on this
machine. Starts its own MariaDB primary and replicas on ports ${BASE_PORT}..$((BASE_PORT + 2)) and Strata
on $((BASE_PORT + 3)); installs sysbench, mariadb-server and mariadb-client with apt-get when
they are missing (the system MariaDB service, if any, is neither used nor touched).

Every read holds its backend connection for --sleep-ms (SLEEP() in the server, no CPU),
and Strata's pool per data source has --pool connections, so a backend serves at most
pool x 1000 / sleep-ms reads per second (default: 4 x 1000 / 5 = 800) independent of
the CPU. Expected: 0 replicas 1x, 1 replica 2x, 2 replicas 3x.

Options:
  --time SECONDS       measured seconds per cell (default $CELL_TIME)
  --warmup SECONDS     unrecorded run through each Strata configuration before its cell
                       (default $WARMUP; 0 = none)
  --threads N          sysbench threads (client connections) for the Strata cells and the
                       direct sanity cell; must exceed the backend connections,
                       3 x --pool, so the backends saturate (default $THREADS)
  --pool N             maximumPoolSize of every Strata data source (default $POOL)
  --sleep-ms N         milliseconds each read holds its connection (default $SLEEP_MS)
  --table-size N       rows in sbtest1 (default $TABLE_SIZE)
  --replicas LIST      replica counts to run through Strata, of 0 1 2 (default "$REPLICA_COUNTS")
  --ps-mode MODE       sysbench --db-ps-mode: auto = server-side prepared statements
                       (binary protocol), disable = text protocol (default $PS_MODE)
  --direct-only        only the direct cells (no Strata): checks the servers, the
                       replication and the per-backend ceiling without a Strata build
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default:
                       the newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --base-port N        primary on N, replicas on N+1 and N+2, Strata on N+3 (default $BASE_PORT)
  --keep               leave the servers running at the end and keep the temp folder;
                       prints how to stop them
  -h, --help           this help

Environment:
  STRATA_JAVA_OPTS     JVM options for Strata (passed to bin/start.sh)
  JAVA_HOME            JDK for Strata; when it (or the default java) is older than Java $MIN_JAVA,
                       the newest JDK >= $MIN_JAVA under $JVM_DIR is used

Output: a table on the terminal, and bench/results/rw-split-<timestamp>.csv and .txt.
EOF
}

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

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --time) need_value "$@"; CELL_TIME=$2; shift ;;
            --warmup) need_value "$@"; WARMUP=$2; shift ;;
            --threads) need_value "$@"; THREADS=$2; shift ;;
            --pool) need_value "$@"; POOL=$2; shift ;;
            --sleep-ms) need_value "$@"; SLEEP_MS=$2; shift ;;
            --table-size) need_value "$@"; TABLE_SIZE=$2; shift ;;
            --replicas) need_value "$@"; REPLICA_COUNTS=$(split_list "$2"); shift ;;
            --ps-mode) need_value "$@"; PS_MODE=$2; shift ;;
            --direct-only) DIRECT_ONLY=1 ;;
            --strata-dist) need_value "$@"; STRATA_DIST=$2; shift ;;
            --base-port) need_value "$@"; BASE_PORT=$2; shift ;;
            --keep) KEEP=1 ;;
            -h|--help) usage; exit 0 ;;
            *) die "unknown option: $1 (see --help)" ;;
        esac
        shift
    done

    local n
    for n in "$CELL_TIME" "$WARMUP" "$THREADS" "$POOL" "$SLEEP_MS" "$TABLE_SIZE" "$BASE_PORT"; do
        case "$n" in ''|*[!0-9]*) die "expected a whole number, got '$n'" ;; esac
    done
    [ "$CELL_TIME" -ge 1 ] || die "--time must be at least 1"
    [ "$THREADS" -ge 1 ] && [ "$POOL" -ge 1 ] && [ "$SLEEP_MS" -ge 1 ] && [ "$TABLE_SIZE" -ge 1 ] \
        || die "--threads, --pool, --sleep-ms and --table-size must be at least 1"
    [ "$BASE_PORT" -ge 1024 ] && [ "$BASE_PORT" -le 65532 ] || die "--base-port must be in 1024..65532"
    case "$PS_MODE" in auto|disable) ;; *) die "--ps-mode must be auto or disable" ;; esac
    [ -n "$REPLICA_COUNTS" ] || die "--replicas may not be empty"
    MAX_REPLICAS=0
    for n in $REPLICA_COUNTS; do
        case "$n" in 0|1|2) ;; *) die "--replicas: '$n' is not one of 0 1 2" ;; esac
        [ "$n" -gt "$MAX_REPLICAS" ] && MAX_REPLICAS=$n
    done
    # The direct cells look at every server, so start as many replicas as the largest
    # configuration needs (all of them for --direct-only).
    [ "$DIRECT_ONLY" -eq 1 ] && MAX_REPLICAS=2
    N_SERVERS=$((MAX_REPLICAS + 1))

    if [ "$DIRECT_ONLY" -eq 0 ] && [ "$THREADS" -le $((POOL * N_SERVERS)) ]; then
        echo "WARNING: --threads $THREADS is not more than the $((POOL * N_SERVERS)) backend connections of the largest"
        echo "         configuration; the backends will not saturate and the scaling will look worse than it is."
    fi

    STRATA_PORT=$((BASE_PORT + 3))
    # The most reads per second one backend can serve through a pool of POOL connections.
    CEILING=$(awk -v p="$POOL" -v s="$SLEEP_MS" 'BEGIN { printf "%.0f", p * 1000 / s }')
}

port_of_node() {
    echo $((BASE_PORT + $1))
}

# ---- tools ----------------------------------------------------------------------------

# Prints the path of the first of the given programs found on the PATH or in the sbin
# folders (mariadbd lives in /usr/sbin, which is not on a normal user's PATH).
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

# Installs the missing packages with apt-get. It never starts, stops or reconfigures a
# service itself; the Debian mariadb-server package may start its own (port 3306): this
# benchmark does not use it and leaves it alone.
install_missing() {
    local missing=()
    find_bin sysbench >/dev/null || missing+=(sysbench)
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
        *" mariadb-server "*)
            echo "    Note: the package may have started its own MariaDB service on port 3306."
            echo "    This benchmark does not use it and leaves it as it is."
            ;;
    esac
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

locate_tools() {
    SYSBENCH=$(find_bin sysbench) || die "sysbench not found"
    MARIADBD=$(find_bin mariadbd) || die "mariadbd not found (package mariadb-server)"
    INSTALL_DB=$(find_bin mariadb-install-db) || die "mariadb-install-db not found (package mariadb-server)"
    MARIADB=$(find_bin mariadb) || die "mariadb client not found (package mariadb-client)"
    MARIADB_ADMIN=$(find_bin mariadb-admin) || die "mariadb-admin not found (package mariadb-client)"
    [ -f "$LUA_SCRIPT" ] || die "the workload script $LUA_SCRIPT is missing"
}

# The newest distribution tarball of this repo, unless --strata-dist says otherwise.
locate_strata_dist() {
    if [ -z "$STRATA_DIST" ]; then
        STRATA_DIST=$(ls -t "$REPO_DIR"/distribution/target/strata-proxy-*-bin.tar.gz 2>/dev/null | head -n 1 || true)
        [ -n "$STRATA_DIST" ] || die "no Strata distribution in $REPO_DIR/distribution/target; build it with
       ./mvnw -DskipTests install    or pass --strata-dist PATH (or run --direct-only)"
    fi
    [ -e "$STRATA_DIST" ] || die "--strata-dist: $STRATA_DIST does not exist"
    STRATA_DIST=$(cd "$(dirname "$STRATA_DIST")" && pwd)/$(basename "$STRATA_DIST")
}

# Snapshot of the machine's CPU counters: "busy idle" in clock ticks (from /proc/stat).
cpu_snapshot() {
    awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6; exit }' /proc/stat
}

# Percent of the machine's CPU time that was busy between two snapshots.
cpu_busy_between() {
    awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " ");
        busy = y[1] - x[1]; idle = y[2] - x[2];
        printf "%d", (busy + idle > 0) ? 100 * busy / (busy + idle) : 0 }'
}

# On a small machine any other busy process skews the numbers: say so up front.
check_idle() {
    local a b
    LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
    a=$(cpu_snapshot); sleep 1; b=$(cpu_snapshot)
    BUSY_AT_START=$(cpu_busy_between "$a" "$b")
    if [ "$BUSY_AT_START" -ge 25 ]; then
        echo "WARNING: the CPUs are ${BUSY_AT_START}% busy before the benchmark starts. The cells are bounded by"
        echo "         SLEEP() and the pool, not by CPU, so they suffer less than CPU-bound ones; still, check"
        echo "         the cpu_busy column. Busiest processes (CPU% over their lifetime):"
        ps -eo pid=,pcpu=,comm= --sort=-pcpu 2>/dev/null | head -n 5 | sed 's/^/           /' || true
    fi
    return 0
}

port_in_use() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

check_ports() {
    local p i
    for ((i = 0; i < N_SERVERS; i++)); do
        p=$(port_of_node "$i")
        port_in_use "$p" && die "port $p is in use; pick other ports with --base-port N (uses N..N+3)"
    done
    if [ "$DIRECT_ONLY" -eq 0 ]; then
        port_in_use "$STRATA_PORT" && die "port $STRATA_PORT is in use; pick other ports with --base-port N (uses N..N+3)"
    fi
    return 0
}

# ---- processes we start ----------------------------------------------------------------

WORK_DIR=""
DB_PIDS=()
STRATA_PID=""
STRATA_HOME=""
LOAD_AT_START="?"
BUSY_AT_START="?"
INSTALLED_PACKAGES=""

# True while the pid runs (a zombie, i.e. an exited child not yet reaped, does not count).
is_alive() {
    local stat
    [ -n "$1" ] && stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# TERM, wait up to $3 seconds, then KILL: one pid, one we started.
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

cleanup() {
    local rc=$? i
    trap - EXIT INT TERM
    if [ "$KEEP" -eq 1 ] && [ -n "$WORK_DIR" ]; then
        echo
        say "--keep: left running (temp folder $WORK_DIR):"
        for i in "${!DB_PIDS[@]}"; do
            is_alive "${DB_PIDS[$i]}" && printf '    %-9s pid %-7s 127.0.0.1:%s  (socket %s)\n' \
                "${NODE_NAMES[$i]}" "${DB_PIDS[$i]}" "$(port_of_node "$i")" "$(node_dir "$i")/mariadb.sock"
        done
        [ -n "$STRATA_PID" ] && is_alive "$STRATA_PID" && echo "    Strata    pid $STRATA_PID 127.0.0.1:$STRATA_PORT"
        echo "    connect: $MARIADB -h127.0.0.1 -P$BASE_PORT -usbtest -psbtest sbtest"
        local pids
        pids=$(echo $STRATA_PID "${DB_PIDS[@]}")
        echo "    stop:    kill $pids; sleep 10; rm -rf $WORK_DIR"
        exit "$rc"
    fi
    if [ -n "$STRATA_PID" ] || [ ${#DB_PIDS[@]} -gt 0 ]; then
        say "Stopping what this run started"
    fi
    [ -n "$STRATA_PID" ] && stop_pid Strata "$STRATA_PID" 30
    # Replicas first, so their I/O threads do not log the primary going away.
    for ((i = ${#DB_PIDS[@]} - 1; i >= 0; i--)); do
        stop_pid "MariaDB ${NODE_NAMES[$i]}" "${DB_PIDS[$i]}" 60
    done
    if [ -n "$WORK_DIR" ] && [ -d "$WORK_DIR" ]; then
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 130 ] && [ "$rc" -ne 143 ]; then
            # A failed run: the messages above point into the temp folder, so keep its
            # logs (not the MariaDB data).
            rm -rf "$WORK_DIR"/node*/data "$WORK_DIR/strata-dist/lib"
            echo "    logs kept in $WORK_DIR (remove it when done)"
        else
            rm -rf "$WORK_DIR"
        fi
    fi
    exit "$rc"
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

node_dir() {
    echo "$WORK_DIR/node$1"
}

# SQL as root over node $1's socket (root@localhost has no password in these servers).
db_root() {
    local node=$1
    shift
    "$MARIADB" --no-defaults --socket="$(node_dir "$node")/mariadb.sock" -uroot "$@"
}

# One value from node $1, e.g. db_value 0 "SELECT @@gtid_binlog_pos".
db_value() {
    db_root "$1" -N -B -e "$2"
}

# A private MariaDB in its own data folder. Node 0 is the primary (binary log, ROW
# format, strict GTID); nodes 1 and 2 are read-only replicas (read_only does not stop
# the replication SQL thread, only clients without the privilege to write anyway).
start_mariadb() {
    local node=$1 dir as_root=() port role_opts=()
    dir=$(node_dir "$node")
    port=$(port_of_node "$node")
    mkdir -p "$dir/data"
    [ "$(id -u)" -eq 0 ] && as_root=(--user=root)

    local skip_test_db=() help
    help=$("$INSTALL_DB" --help 2>/dev/null || true)
    case "$help" in *--skip-test-db*) skip_test_db=(--skip-test-db) ;; esac
    # --auth-root-authentication-method=normal: root@localhost without a password, so the
    # socket login works whoever runs the script (not only the OS user root).
    if ! "$INSTALL_DB" --no-defaults --datadir="$dir/data" "${as_root[@]}" "${skip_test_db[@]}" \
            --auth-root-authentication-method=normal > "$dir/install-db.log" 2>&1; then
        tail -n 20 "$dir/install-db.log" >&2
        die "mariadb-install-db failed for ${NODE_NAMES[$node]} (log: $dir/install-db.log)"
    fi

    if [ "$node" -eq 0 ]; then
        role_opts=(--log-bin="$dir/data/primary-bin" --binlog-format=ROW --sync-binlog=0)
    else
        # No binary log: nothing replicates from a replica here.
        role_opts=(--skip-log-bin --relay-log="$dir/data/relay-bin" --read-only=1)
    fi
    say "Starting MariaDB ${NODE_NAMES[$node]} on 127.0.0.1:$port (server-id $((node + 1)))"
    # --no-defaults: the system's /etc/mysql settings must not leak in. The data set is
    # small and the log is not synced at commit: the subject is the pool, not the disk.
    "$MARIADBD" --no-defaults "${as_root[@]}" \
        --datadir="$dir/data" --socket="$dir/mariadb.sock" --pid-file="$dir/mariadb.pid" \
        --port="$port" --bind-address=127.0.0.1 --log-error="$dir/error.log" \
        --server-id=$((node + 1)) --gtid-strict-mode=1 "${role_opts[@]}" \
        --skip-name-resolve --performance-schema=OFF --max-connections=1000 \
        --innodb-buffer-pool-size=128M --innodb-flush-log-at-trx-commit=2 \
        > "$dir/stdout.log" 2>&1 < /dev/null &
    DB_PIDS[$node]=$!
    if ! wait_until 60 "${DB_PIDS[$node]}" "$MARIADB_ADMIN" --no-defaults --socket="$dir/mariadb.sock" -uroot ping; then
        tail -n 30 "$dir/error.log" >&2 || true
        die "MariaDB ${NODE_NAMES[$node]} did not start (log: $dir/error.log)"
    fi
}

# The accounts, created on the primary only: the replicas replay them from the binary log
# (they start from an empty gtid_slave_pos, i.e. the primary's first binlog event), so all
# three servers end up with the same users and nothing has to be done on a replica by hand.
create_accounts() {
    # The anonymous users ''@'localhost' / ''@'<host>' would shadow the '%' accounts for
    # local logins, so they go first (IF EXISTS: the statements replay on the replicas).
    local drops
    drops=$(db_value 0 "SELECT CONCAT('DROP USER IF EXISTS ''''@''', host, ''';') FROM mysql.user WHERE user = ''")
    db_root 0 -e "$drops
        CREATE USER 'repl'@'%' IDENTIFIED BY 'repl';
        GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';
        CREATE DATABASE sbtest;
        CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest';
        GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%';
        CREATE USER 'monitor'@'%' IDENTIFIED BY 'monitor';" \
        || die "could not create the accounts on the primary"
    # Strata's health check reads the replication state (SHOW SLAVE STATUS needs SLAVE
    # MONITOR since MariaDB 10.5.9; REPLICATION CLIENT, an alias of BINLOG MONITOR there,
    # covers SHOW MASTER STATUS, and is what MySQL and older MariaDB need for both). Grant
    # what this server knows. SELECT on sbtest: a health check that connects with the data
    # source's URL (which names the sbtest schema) must be allowed to use that schema.
    if db_root 0 -e "GRANT REPLICATION CLIENT, SLAVE MONITOR ON *.* TO 'monitor'@'%'" 2>/dev/null; then
        MONITOR_GRANT="REPLICATION CLIENT, SLAVE MONITOR"
    else
        db_root 0 -e "GRANT REPLICATION CLIENT ON *.* TO 'monitor'@'%'" \
            || die "could not grant REPLICATION CLIENT to monitor"
        MONITOR_GRANT="REPLICATION CLIENT"
    fi
    db_root 0 -e "GRANT SELECT ON sbtest.* TO 'monitor'@'%'" || die "could not grant SELECT on sbtest to monitor"
    MONITOR_GRANT="$MONITOR_GRANT, SELECT ON sbtest.*"
}

start_replication() {
    local node=$1 primary_port
    primary_port=$(port_of_node 0)
    say "Replicating ${NODE_NAMES[$node]} from the primary (GTID, slave_pos)"
    # MASTER_CONNECT_RETRY=1: if the I/O thread ever loses the primary, it retries within
    # a second instead of the default minute.
    db_root "$node" -e "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$primary_port,
            MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos,
            MASTER_CONNECT_RETRY=1;
        START SLAVE;" || die "CHANGE MASTER / START SLAVE failed on ${NODE_NAMES[$node]}"
}

# Slave_IO_Running and Slave_SQL_Running of node $1, as "Yes Yes" when all is well.
slave_running() {
    db_root "$1" -e "SHOW SLAVE STATUS\G" 2>/dev/null \
        | awk '/^ *Slave_IO_Running:/ { io = $2 } /^ *Slave_SQL_Running:/ { sql = $2 } END { print io, sql }'
}

slave_errors() {
    db_root "$1" -e "SHOW SLAVE STATUS\G" 2>/dev/null \
        | grep -E '^ *(Slave_IO_Running|Slave_SQL_Running|Last_IO_Error|Last_SQL_Error|Gtid_IO_Pos):' || true
}

# Waits until every replica's threads run and it has applied all the primary has written
# (@@gtid_slave_pos equal to the primary's @@gtid_binlog_pos).
wait_replicas_caught_up() {
    local what=$1 node i target pos state
    target=$(db_value 0 "SELECT @@gtid_binlog_pos")
    for ((node = 1; node < N_SERVERS; node++)); do
        for ((i = 0; ; i++)); do
            state=$(slave_running "$node")
            pos=$(db_value "$node" "SELECT @@gtid_slave_pos" 2>/dev/null || true)
            [ "$state" = "Yes Yes" ] && [ "$pos" = "$target" ] && break
            if [ "$i" -ge 240 ]; then
                slave_errors "$node" >&2
                die "${NODE_NAMES[$node]} did not catch up with the primary ($what): threads '$state', at '$pos', primary at '$target'"
            fi
            sleep 0.25
        done
    done
    [ "$N_SERVERS" -gt 1 ] && echo "    replicas at the primary's GTID position $target ($what)"
    return 0
}

# Loads sbtest1 on the primary with sysbench's own prepare, waits for the replicas, and
# checks that every server holds all the rows: proof that the replication carries data.
prepare_data() {
    say "Loading sbtest1 with $TABLE_SIZE rows on the primary (sysbench oltp_read_write prepare)"
    local rc=0 node count
    "$SYSBENCH" oltp_read_write --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$(port_of_node 0)" \
        --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest \
        --tables=1 --table-size="$TABLE_SIZE" prepare > "$WORK_DIR/prepare.log" 2>&1 || rc=$?
    exit_if_interrupted "$rc"
    if [ "$rc" -ne 0 ]; then
        tail -n 20 "$WORK_DIR/prepare.log" >&2
        die "sysbench prepare failed (log: $WORK_DIR/prepare.log)"
    fi
    wait_replicas_caught_up "after loading sbtest1"
    for ((node = 0; node < N_SERVERS; node++)); do
        count=$(db_value "$node" "SELECT COUNT(*) FROM sbtest.sbtest1")
        [ "$count" = "$TABLE_SIZE" ] || die "${NODE_NAMES[$node]} holds $count rows of sbtest1, expected $TABLE_SIZE"
    done
    echo "    sbtest1 has $TABLE_SIZE rows on each of: ${NODE_NAMES[*]:0:$N_SERVERS}"
    # The accounts replicated too: the monitor user logs in on every server over TCP.
    for ((node = 0; node < N_SERVERS; node++)); do
        "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$(port_of_node "$node")" -umonitor -pmonitor \
            -e "SELECT 1" > /dev/null 2>&1 || die "the monitor user cannot log in on ${NODE_NAMES[$node]}"
    done
    # The replica's SHOW SLAVE STATUS is what a health check reads; make sure monitor may.
    if [ "$N_SERVERS" -gt 1 ]; then
        "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$(port_of_node 1)" -umonitor -pmonitor \
            -e "SHOW SLAVE STATUS\G" 2>&1 | grep -q 'Seconds_Behind_Master' \
            || die "the monitor user cannot run SHOW SLAVE STATUS on ${NODE_NAMES[1]}"
        echo "    monitor/monitor ($MONITOR_GRANT) can log in everywhere and read SHOW SLAVE STATUS"
    fi
}

# ---- Strata ---------------------------------------------------------------------------

# Unpacks (or copies) the distribution once; each configuration gets its own conf folder.
unpack_strata() {
    local home
    if [ -d "$STRATA_DIST" ]; then
        cp -a "$STRATA_DIST" "$WORK_DIR/strata-dist"
        home=$WORK_DIR/strata-dist
        # A pid file copied along would make start.sh think this copy is already running.
        rm -f "$home/logs/strata.pid"
    else
        mkdir -p "$WORK_DIR/strata-dist"
        tar -xzf "$STRATA_DIST" -C "$WORK_DIR/strata-dist" || die "cannot unpack $STRATA_DIST"
        home=$(find "$WORK_DIR/strata-dist" -mindepth 1 -maxdepth 3 -type f -path '*/bin/start.sh' | head -n 1)
        home=${home%/bin/start.sh}
    fi
    [ -n "$home" ] && [ -x "$home/bin/start.sh" ] || die "$STRATA_DIST holds no bin/start.sh"
    STRATA_HOME=$home
}

# Writes the conf folder for $1 replicas and prints its path. The data source block is
# the same for every backend; only the rule differs.
write_strata_conf() {
    local replicas=$1 conf node reads=""
    conf=$WORK_DIR/strata-$replicas/conf
    mkdir -p "$conf"
    [ -f "$STRATA_HOME/conf/logback.xml" ] && cp "$STRATA_HOME/conf/logback.xml" "$conf/"
    cat > "$conf/server.yaml" <<EOF
# Written by bench/rw-split.sh (the shape of conf/server.yaml).
server:
  host: 127.0.0.1
  port: $STRATA_PORT
users:
  - name: root
    password: root
    databases: ["*"]
  - name: sbtest
    password: sbtest
    databases: [sbtest]
EOF
    {
        echo "# Written by bench/rw-split.sh: $replicas replica(s), pool $POOL per data source."
        echo "databaseName: sbtest"
        echo "dataSources:"
        for ((node = 0; node <= replicas; node++)); do
            cat <<EOF
  ${NODE_NAMES[$node]}:
    url: "jdbc:mariadb://127.0.0.1:$(port_of_node "$node")/sbtest"
    username: sbtest
    password: sbtest
    maximumPoolSize: $POOL
EOF
        done
        if [ "$replicas" -eq 0 ]; then
            # No replica, no rule: the empty chain sends everything to the one data source.
            echo "rules: []"
        else
            for ((node = 1; node <= replicas; node++)); do
                reads="$reads${reads:+, }${NODE_NAMES[$node]}"
            done
            cat <<EOF
rules:
  - type: READWRITE_SPLITTING
    groups:
      - name: rw
        writeDataSource: primary
        readDataSources: [$reads]
        loadBalancer: ROUND_ROBIN
        primaryTakesReads: true
    healthCheck:
      username: monitor
      password: monitor
      interval: 1000          # ms between checks
      maxReplicationLag: 10   # seconds
EOF
        fi
    } > "$conf/config-sbtest.yaml"
    echo "$conf"
}

# Starts Strata for $1 replicas in the foreground mode of start.sh, as our own child
# (start.sh execs java, so $! is the JVM). Returns non-zero, with STRATA_FAILURE set,
# when it does not come up: the run goes on with the next configuration.
start_strata() {
    local replicas=$1 conf log
    conf=$(write_strata_conf "$replicas")
    log=$WORK_DIR/strata-$replicas/stdout.log
    STRATA_FAILURE=""
    say "Starting Strata on 127.0.0.1:$STRATA_PORT with $replicas replica(s) (conf $conf)"
    "$STRATA_HOME/bin/start.sh" -f -c "$conf" -p "$STRATA_PORT" > "$log" 2>&1 < /dev/null &
    STRATA_PID=$!
    if ! wait_until 60 "$STRATA_PID" "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$STRATA_PORT" \
            -usbtest -psbtest sbtest -e "SELECT id FROM sbtest1 WHERE id = 1"; then
        STRATA_FAILURE=$(grep -m 1 -E 'ERROR|Exception|rror:' "$log" | cut -c1-200 || true)
        [ -n "$STRATA_FAILURE" ] || STRATA_FAILURE="Strata did not answer on port $STRATA_PORT within 60 s"
        STRATA_FAILURE="Strata did not start: $STRATA_FAILURE"
        echo "    $STRATA_FAILURE"
        echo "    (log: $log)"
        stop_pid Strata "$STRATA_PID" 30
        STRATA_PID=""
        return 1
    fi
}

stop_strata() {
    [ -n "$STRATA_PID" ] && stop_pid Strata "$STRATA_PID" 30
    STRATA_PID=""
    # The next configuration must find the port free (the JVM may take a moment).
    local i
    for ((i = 0; i < 40; i++)); do port_in_use "$STRATA_PORT" || return 0; sleep 0.25; done
    die "port $STRATA_PORT is still in use after Strata stopped"
}

# ---- sysbench -------------------------------------------------------------------------

# sysbench catches Ctrl-C and exits 130 by itself, so bash never sees the signal and
# would go on with the next cell: pass it on.
exit_if_interrupted() {
    case "$1" in
        130|143) echo; say "Interrupted"; exit "$1" ;;
    esac
}

# Runs the read workload against port $1 with $2 threads for $3 seconds into log $4.
run_sysbench() {
    local port=$1 threads=$2 secs=$3 log=$4 rc=0
    # --verbosity=4 makes sysbench say when the server refused a prepared statement and it
    # fell back to client-side emulation. timeout: a stuck proxy fails the cell, not the run.
    timeout --foreground -k 10 $((secs + 60)) "$SYSBENCH" "$LUA_SCRIPT" --db-driver=mysql \
        --mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=sbtest --mysql-password=sbtest \
        --mysql-db=sbtest --db-ps-mode="$PS_MODE" --table-size="$TABLE_SIZE" --sleep-ms="$SLEEP_MS" \
        --threads="$threads" --time="$secs" --report-interval=0 --percentile=95 --verbosity=4 \
        run > "$log" 2>&1 || rc=$?
    return "$rc"
}

# Com_select of every running server, space-separated: it counts the SELECTs each one
# ran, prepared or not, and so shows where the reads went.
com_selects() {
    local node out=""
    for ((node = 0; node < N_SERVERS; node++)); do
        out="$out $(db_value "$node" "SHOW GLOBAL STATUS LIKE 'Com_select'" | awk '{ print $2 }')"
    done
    echo "$out"
}

# Runs one measured cell and sets R_* to its results. Never exits on a failed sysbench.
run_cell() {
    local name=$1 port=$2 threads=$3 log="$WORK_DIR/cells/$1.log"
    local rc=0 c0 c1 s0 s1 i
    R_STATUS=ok R_NOTE="" R_QPS=0 R_P95="" R_BUSY="" R_SPLIT=()

    s0=$(cpu_snapshot); c0=$(com_selects)
    run_sysbench "$port" "$threads" "$CELL_TIME" "$log" || rc=$?
    exit_if_interrupted "$rc"
    s1=$(cpu_snapshot); c1=$(com_selects)
    R_BUSY=$(cpu_busy_between "$s0" "$s1")
    read -r -a c0 <<< "$c0"
    read -r -a c1 <<< "$c1"
    for ((i = 0; i < N_SERVERS; i++)); do
        R_SPLIT[$i]=$(( ${c1[$i]:-0} - ${c0[$i]:-0} ))
    done

    local qline fatal fallback
    qline=$(grep -E '^[[:space:]]+queries:' "$log" | head -n 1 || true)
    [ -n "$qline" ] && R_QPS=$(echo "$qline" | sed -E 's/.*\(([0-9.]+) per sec.*/\1/')
    R_P95=$(awk '/95th percentile:/ { print $3; exit }' "$log")
    fatal=$(grep -m 1 -E 'FATAL|ALERT' "$log" || true)
    fallback=$(grep -m 1 'using emulation' "$log" || true)
    if [ "$rc" -ne 0 ] || [ -n "$fatal" ] || [ -z "$qline" ]; then
        R_STATUS=FAILED
        if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
            R_NOTE="sysbench did not finish within $((CELL_TIME + 60)) s"
        elif [ -n "$fatal" ]; then
            R_NOTE=$(echo "$fatal" | sed -E 's/^[[:space:]]+//' | cut -c1-160)
        else
            R_NOTE="sysbench exit code $rc: $(tail -n 1 "$log" | cut -c1-120)"
        fi
        R_QPS=0
    elif [ -n "$fallback" ] && [ "$PS_MODE" = auto ]; then
        # The cell ran, but not with prepared statements, so it is not the cell asked for.
        R_STATUS=FAILED
        R_NOTE="server refused COM_STMT_PREPARE; sysbench fell back to the text protocol: $R_QPS qps (not counted)"
        R_QPS=0
    fi
}

# ---- report ---------------------------------------------------------------------------

# Per cell, by name: kind (direct|strata), description, backends, threads, results.
declare -A RES_KIND RES_DESC RES_NODES RES_THREADS RES_QPS RES_P95 RES_BUSY RES_SPLIT RES_STATUS RES_NOTE
CELLS=()

record_cell() {
    local name=$1 kind=$2 desc=$3 nodes=$4 threads=$5
    CELLS+=("$name")
    RES_KIND[$name]=$kind RES_DESC[$name]=$desc RES_NODES[$name]=$nodes RES_THREADS[$name]=$threads
    RES_QPS[$name]=$R_QPS RES_P95[$name]=$R_P95 RES_BUSY[$name]=$R_BUSY
    RES_SPLIT[$name]="${R_SPLIT[*]}" RES_STATUS[$name]=$R_STATUS RES_NOTE[$name]=$R_NOTE
    printf '    %-18s qps %9s  p95 %7s ms  cpu busy %3s%%  reads per backend: %s  %s\n' \
        "$name" "$R_QPS" "${R_P95:--}" "$R_BUSY" "$(split_text "${R_SPLIT[*]}")" \
        "$R_STATUS${R_NOTE:+: $R_NOTE}"
}

# "1200 1190 1210" -> "primary 33% replica_0 33% replica_1 34%" (shares of the SELECTs).
split_text() {
    local -a c
    read -r -a c <<< "$1"
    awk -v list="${c[*]}" -v names="${NODE_NAMES[*]}" 'BEGIN {
        n = split(list, v, " "); split(names, nm, " "); t = 0
        for (i = 1; i <= n; i++) t += v[i]
        if (t == 0) { printf "-"; exit }
        for (i = 1; i <= n; i++) printf "%s%s %d%%", (i > 1 ? " " : ""), nm[i], 100 * v[i] / t + 0.5 }'
}

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && a > 0 && b > 0) printf "%.2f", a / b }'
}

# QPS of the 0-replica Strata cell: the base of the scaling ratios.
base_qps() {
    [ "${RES_STATUS[strata-0]:-}" = ok ] && echo "${RES_QPS[strata-0]}"
    return 0
}

# The ideal of a cell: every backend connection busy all the time with SLEEP().
ideal_qps() {
    local name=$1
    case "${RES_KIND[$name]}" in
        strata) echo $(( CEILING * RES_NODES[$name] )) ;;
        ceiling) echo "$CEILING" ;;
        *) awk -v t="${RES_THREADS[$name]}" -v s="$SLEEP_MS" 'BEGIN { printf "%.0f", t * 1000 / s }' ;;
    esac
}

machine_info() {
    local cpu mem
    cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)
    echo "Command:   $ORIG_COMMAND"
    echo "Machine:   $(nproc) CPUs, ${cpu:-unknown CPU}, $mem, kernel $(uname -r)"
    [ -r /etc/os-release ] && echo "OS:        $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "MariaDB:   $("$MARIADBD" --version 2>/dev/null | head -n 1)"
    echo "sysbench:  $("$SYSBENCH" --version 2>/dev/null | head -n 1)"
    if [ "$DIRECT_ONLY" -eq 0 ]; then
        echo "Java:      $("$JAVA_BIN" -version 2>&1 | head -n 1) ($JAVA_BIN)"
        # The tarball is rebuilt in place: its time says which build a report measured.
        echo "Strata:    $STRATA_DIST (built $(date -r "$STRATA_DIST" '+%Y-%m-%d %H:%M:%S'), STRATA_JAVA_OPTS=${STRATA_JAVA_OPTS:-<start.sh default>})"
    fi
    echo "Before:    CPUs ${BUSY_AT_START}% busy in the second before start; load average $LOAD_AT_START"
    [ -n "$INSTALLED_PACKAGES" ] && echo "Installed: $INSTALLED_PACKAGES (apt-get, by this run)"
    echo "Workload:  SELECT c, SLEEP($(awk -v s="$SLEEP_MS" 'BEGIN { printf "%.3f", s / 1000 }')) FROM sbtest1 WHERE id = ? (uniform id in 1..$TABLE_SIZE),"
    echo "           --db-ps-mode=$PS_MODE, ${CELL_TIME} s per cell, ${WARMUP} s warm-up before each Strata cell"
    echo "Bound:     pool $POOL per data source / ${SLEEP_MS} ms per read = $CEILING reads/s per backend"
}

print_table() {
    local name base rel lin
    base=$(base_qps)
    printf '%-18s %-44s %5s %4s %9s %7s %8s %6s %6s %5s  %-40s %s\n' \
        cell "what" nodes thr qps ideal p95_ms x_0rep linear "cpu%" "reads per backend (Com_select)" status
    for name in "${CELLS[@]}"; do
        rel="" lin=""
        if [ "${RES_KIND[$name]}" = strata ] && [ "${RES_STATUS[$name]}" = ok ]; then
            rel=$(ratio "${RES_QPS[$name]}" "$base")
            lin=$(ratio "${RES_QPS[$name]}" "$(awk -v b="$base" -v n="${RES_NODES[$name]}" 'BEGIN { if (b != "") print b * n }')")
        fi
        printf '%-18s %-44s %5s %4s %9s %7s %8s %6s %6s %5s  %-40s %s\n' \
            "$name" "${RES_DESC[$name]}" "${RES_NODES[$name]}" "${RES_THREADS[$name]}" "${RES_QPS[$name]}" \
            "$(ideal_qps "$name")" "${RES_P95[$name]:--}" "${rel:--}" "${lin:--}" "${RES_BUSY[$name]:--}" \
            "$(split_text "${RES_SPLIT[$name]}")" "${RES_STATUS[$name]}"
    done
}

print_failures() {
    local name any=0
    for name in "${CELLS[@]}"; do
        [ "${RES_STATUS[$name]}" = ok ] && continue
        [ $any -eq 0 ] && { echo; echo "Failed cells:"; any=1; }
        echo "  $name: ${RES_NOTE[$name]}"
    done
    return 0
}

# The temp folder goes away at the end: keep the sysbench output and Strata's output of
# every failed cell, and each configuration's config-sbtest.yaml, next to the results.
save_failure_logs() {
    local dir=$1 name
    for name in "${CELLS[@]}"; do
        [ "${RES_STATUS[$name]}" = ok ] && continue
        mkdir -p "$dir"
        [ -f "$WORK_DIR/cells/$name.log" ] && cp "$WORK_DIR/cells/$name.log" "$dir/"
        if [ "${RES_KIND[$name]}" = strata ]; then
            local n=${name#strata-}
            [ -f "$WORK_DIR/strata-$n/stdout.log" ] && cp "$WORK_DIR/strata-$n/stdout.log" "$dir/strata-$n-stdout.log"
            [ -f "$WORK_DIR/strata-$n/conf/config-sbtest.yaml" ] \
                && cp "$WORK_DIR/strata-$n/conf/config-sbtest.yaml" "$dir/strata-$n-config-sbtest.yaml"
        fi
    done
    [ -d "$dir" ] && echo "Logs of the failed cells: $dir"
    return 0
}

csv_field() {
    local v=$1
    case "$v" in
        *[,\"]*) v=${v//\"/\"\"}; echo "\"$v\"" ;;
        *) echo "$v" ;;
    esac
}

write_csv() {
    local file=$1 name base rel lin
    local -a s
    base=$(base_qps)
    {
        echo "cell,kind,what,backends,threads,pool,sleep_ms,ps_mode,qps,ideal_qps,p95_ms,qps_over_0_replicas,linearity,cpu_busy_percent,reads_primary,reads_replica_0,reads_replica_1,status,note"
        for name in "${CELLS[@]}"; do
            rel="" lin=""
            if [ "${RES_KIND[$name]}" = strata ] && [ "${RES_STATUS[$name]}" = ok ]; then
                rel=$(ratio "${RES_QPS[$name]}" "$base")
                lin=$(ratio "${RES_QPS[$name]}" "$(awk -v b="$base" -v n="${RES_NODES[$name]}" 'BEGIN { if (b != "") print b * n }')")
            fi
            read -r -a s <<< "${RES_SPLIT[$name]}"
            echo "$name,${RES_KIND[$name]},$(csv_field "${RES_DESC[$name]}"),${RES_NODES[$name]},${RES_THREADS[$name]},$POOL,$SLEEP_MS,$PS_MODE,${RES_QPS[$name]},$(ideal_qps "$name"),${RES_P95[$name]},$rel,$lin,${RES_BUSY[$name]},${s[0]:-},${s[1]:-},${s[2]:-},${RES_STATUS[$name]},$(csv_field "${RES_NOTE[$name]}")"
        done
    } > "$file"
}

# ---- main -----------------------------------------------------------------------------

main() {
    parse_args "$@"
    install_missing
    locate_tools
    if [ "$DIRECT_ONLY" -eq 0 ]; then
        select_java
        locate_strata_dist
    fi
    check_ports
    check_idle

    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    WORK_DIR=$(mktemp -d "${TMPDIR:-/tmp}/strata-rw-split.XXXXXX")
    mkdir -p "$WORK_DIR/cells"
    say "Temp folder: $WORK_DIR"

    local node
    for ((node = 0; node < N_SERVERS; node++)); do
        start_mariadb "$node"
    done
    create_accounts
    for ((node = 1; node < N_SERVERS; node++)); do
        start_replication "$node"
    done
    wait_replicas_caught_up "accounts"
    prepare_data

    # The direct cells: no Strata, no pool.
    #  - sanity: the primary with the Strata cells' thread count. Every thread has its own
    #    server connection, so the bound is threads / sleep, far above the pooled cells:
    #    when it gets near that, the server is not what limits the Strata cells.
    #  - ceiling-<node>: each server with exactly --pool threads, i.e. what one backend
    #    gives behind a full pool of --pool connections: about pool / sleep.
    say "Direct cells (sysbench straight to MariaDB, ${CELL_TIME} s each)"
    run_cell direct-primary "$(port_of_node 0)" "$THREADS"
    record_cell direct-primary direct "primary direct, $THREADS connections (no pool)" 1 "$THREADS"
    for ((node = 0; node < N_SERVERS; node++)); do
        run_cell "ceiling-${NODE_NAMES[$node]}" "$(port_of_node "$node")" "$POOL"
        record_cell "ceiling-${NODE_NAMES[$node]}" ceiling "${NODE_NAMES[$node]} direct, $POOL connections (= pool)" 1 "$POOL"
    done

    if [ "$DIRECT_ONLY" -eq 0 ]; then
        unpack_strata
        local n name desc rc
        for n in $REPLICA_COUNTS; do
            name=strata-$n
            if [ "$n" -eq 0 ]; then
                desc="Strata, primary only, rules: []"
            else
                desc="Strata, primary + $n replica(s), RW splitting"
            fi
            if ! start_strata "$n"; then
                R_STATUS=FAILED R_NOTE=$STRATA_FAILURE R_QPS=0 R_P95="" R_BUSY="" R_SPLIT=()
                record_cell "$name" strata "$desc" $((n + 1)) "$THREADS"
                continue
            fi
            if [ "$WARMUP" -gt 0 ]; then
                # Unrecorded: JIT, the pools' connections and (with replicas) a few health
                # checks, so the measured seconds see a settled proxy.
                rc=0
                run_sysbench "$STRATA_PORT" "$THREADS" "$WARMUP" "$WORK_DIR/cells/$name-warmup.log" || rc=$?
                exit_if_interrupted "$rc"
            fi
            run_cell "$name" "$STRATA_PORT" "$THREADS"
            record_cell "$name" strata "$desc" $((n + 1)) "$THREADS"
            stop_strata
        done
    fi

    mkdir -p "$RESULTS_DIR"
    local stamp csv txt
    stamp=$(date +%Y%m%d-%H%M%S)
    csv="$RESULTS_DIR/rw-split-$stamp.csv"
    txt="$RESULTS_DIR/rw-split-$stamp.txt"
    write_csv "$csv"
    {
        echo
        machine_info
        echo
        print_table
        print_failures
        save_failure_logs "$RESULTS_DIR/rw-split-$stamp-failed"
        echo
        echo "nodes: backends that serve reads (primary + replicas). ideal: nodes x pool / sleep for the"
        echo "Strata cells (and pool / sleep for a ceiling cell, threads / sleep for direct-primary): the"
        echo "QPS if every backend connection were always busy with SLEEP(). x_0rep: QPS over the 0-replica"
        echo "Strata cell's. linear: QPS / (nodes x the 0-replica QPS); 1.00 is perfectly linear. cpu%: how"
        echo "busy the machine's CPUs were during the cell; near 100 the cell was CPU-bound after all."
        echo "reads per backend: each server's share of the SELECTs (Com_select) during the cell."
    } | tee "$txt"
    echo
    say "Results: $csv"
    say "Report:  $txt"
}

main "$@"
