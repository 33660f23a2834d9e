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
#
# --overhead measures something else instead: what a read routed to a replica by the rule
# costs against an L4 proxy. It starts the primary and replica_0 only, HAProxy (TCP mode)
# in front of replica_0, and Strata with the rule (every read to replica_0), and runs the
# standard sysbench oltp_point_select and oltp_read_only (--skip_trx=on, no SLEEP) for each
# ps mode and thread count against the three targets back to back: replica-direct,
# haproxy, strata-rw. It reports QPS, p95, the proxy's CPU seconds, queries per proxy
# CPU-second, Strata/HAProxy for both, and where the reads went, and writes
# bench/results/rw-split-overhead-<timestamp>.csv (and .txt).
#
# Everything it starts is stopped at the end (by pid), and its temp folder is removed,
# unless --keep. bench/README.md explains the method and how to read the results.

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Helpers both benchmark scripts share (messages, tools, JDK choice, processes, waiting).
. "$SCRIPT_DIR/common.sh"
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

# scaling: the read scaling cells (the default); overhead: --overhead.
MODE=scaling
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
# The defaults of --overhead where they differ (its --threads and --ps-mode take lists).
OH_DEF_THREADS="4 16"
OH_DEF_PS_MODES="auto disable"
OH_DEF_POOL=64
OH_DEF_WARMUP=5
OH_ALL_WORKLOADS="oltp_point_select oltp_read_only"
WORKLOADS=$OH_ALL_WORKLOADS
# The options given on the command line (the two modes have different defaults).
declare -A GIVEN=()

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

Overhead mode (instead of the cells above):
  --overhead           what a read that the rule routes to a replica costs against an L4
                       proxy. Starts the primary and replica_0 only, HAProxy (mode tcp,
                       nbthread = CPUs) on $((BASE_PORT + 4)) in front of replica_0, and Strata on $((BASE_PORT + 3))
                       with READWRITE_SPLITTING (readDataSources [replica_0],
                       primaryTakesReads false, readYourWrites false); runs standard sysbench
                       workloads (no SLEEP) per ps mode and thread count against
                       replica-direct, haproxy and strata-rw back to back, and reports QPS,
                       p95, proxy CPU-s, queries per proxy CPU-second and Strata/HAProxy.
                       oltp_read_only runs with --skip_trx=on (BEGIN would pin the session
                       to the primary). Needs haproxy (installed with apt-get if missing).
  --workloads LIST     of: $OH_ALL_WORKLOADS (default: both)
  --threads LIST       sysbench thread counts (default "$OH_DEF_THREADS")
  --ps-mode LIST       of: auto disable (default "$OH_DEF_PS_MODES")
  --time, --warmup     as above; --warmup is per target and ps mode (default $OH_DEF_WARMUP)
  --pool N             maximumPoolSize of both Strata data sources (default $OH_DEF_POOL)
  --table-size, --strata-dist, --base-port, --keep: as above.
  Not with --overhead: --replicas, --sleep-ms, --direct-only.

Environment:
  STRATA_JAVA_OPTS     JVM options for Strata (passed to bin/start.sh)
  STRATA_WORKER_THREADS  --overhead only: Strata's server.workerThreads (default: Strata's,
                       2 x CPUs)
  JAVA_HOME            JDK for Strata; when it (or the default java) is older than Java $MIN_JAVA,
                       the newest JDK >= $MIN_JAVA under $JVM_DIR is used

Output: a table on the terminal, and bench/results/rw-split-<timestamp>.csv and .txt
(--overhead: rw-split-overhead-<timestamp>.csv and .txt).
EOF
}

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --time) need_value "$@"; CELL_TIME=$2; shift ;;
            --warmup) need_value "$@"; WARMUP=$2; GIVEN[warmup]=1; shift ;;
            --threads) need_value "$@"; THREADS=$(split_list "$2"); GIVEN[threads]=1; shift ;;
            --pool) need_value "$@"; POOL=$2; GIVEN[pool]=1; shift ;;
            --sleep-ms) need_value "$@"; SLEEP_MS=$2; GIVEN[sleep]=1; shift ;;
            --table-size) need_value "$@"; TABLE_SIZE=$2; shift ;;
            --replicas) need_value "$@"; REPLICA_COUNTS=$(split_list "$2"); GIVEN[replicas]=1; shift ;;
            --ps-mode) need_value "$@"; PS_MODE=$(split_list "$2"); GIVEN[ps]=1; shift ;;
            --workloads) need_value "$@"; WORKLOADS=$(split_list "$2"); GIVEN[workloads]=1; shift ;;
            --overhead) MODE=overhead ;;
            --direct-only) DIRECT_ONLY=1 ;;
            --strata-dist) need_value "$@"; STRATA_DIST=$2; shift ;;
            --base-port) need_value "$@"; BASE_PORT=$2; shift ;;
            --keep) KEEP=1 ;;
            -h|--help) usage; exit 0 ;;
            *) die "unknown option: $1 (see --help)" ;;
        esac
        shift
    done

    if [ "$MODE" = overhead ]; then
        parse_overhead_args
        return
    fi
    [ -z "${GIVEN[workloads]:-}" ] || die "--workloads only applies with --overhead"
    case "$THREADS" in *" "*) die "--threads takes one number (a list only with --overhead)" ;; esac
    case "$PS_MODE" in *" "*) die "--ps-mode takes one mode (a list only with --overhead)" ;; esac

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

# --overhead: its own defaults and checks. It needs the primary (the rule's
# writeDataSource) and replica_0 only; HAProxy listens on base port + 4.
parse_overhead_args() {
    [ "$DIRECT_ONLY" -eq 0 ] || die "--direct-only does not apply with --overhead"
    [ -z "${GIVEN[replicas]:-}" ] || die "--replicas does not apply with --overhead (it uses the primary and replica_0)"
    [ -z "${GIVEN[sleep]:-}" ] || die "--sleep-ms does not apply with --overhead (its reads do not sleep)"
    [ -n "${GIVEN[threads]:-}" ] || THREADS=$OH_DEF_THREADS
    [ -n "${GIVEN[ps]:-}" ] || PS_MODE=$OH_DEF_PS_MODES
    [ -n "${GIVEN[pool]:-}" ] || POOL=$OH_DEF_POOL
    [ -n "${GIVEN[warmup]:-}" ] || WARMUP=$OH_DEF_WARMUP
    OH_THREADS=$THREADS
    OH_PS_MODES=$PS_MODE

    local n
    for n in "$CELL_TIME" "$WARMUP" "$POOL" "$TABLE_SIZE" "$BASE_PORT" $OH_THREADS; do
        case "$n" in ''|*[!0-9]*) die "expected a whole number, got '$n'" ;; esac
    done
    [ "$CELL_TIME" -ge 1 ] || die "--time must be at least 1"
    [ "$POOL" -ge 1 ] && [ "$TABLE_SIZE" -ge 1 ] || die "--pool and --table-size must be at least 1"
    for n in $OH_THREADS; do [ "$n" -ge 1 ] || die "thread counts must be at least 1"; done
    [ "$BASE_PORT" -ge 1024 ] && [ "$BASE_PORT" -le 65531 ] || die "--base-port must be in 1024..65531"
    [ -n "$OH_THREADS" ] && [ -n "$OH_PS_MODES" ] && [ -n "$WORKLOADS" ] \
        || die "--threads, --ps-mode and --workloads may not be empty"
    for n in $OH_PS_MODES; do
        case "$n" in auto|disable) ;; *) die "--ps-mode: '$n' is not auto or disable" ;; esac
    done
    # Reads only: the haproxy and replica-direct targets reach nothing but the read-only
    # replica, and a write through Strata would go to the primary.
    for n in $WORKLOADS; do
        case " $OH_ALL_WORKLOADS " in
            *" $n "*) ;;
            *) die "--workloads: '$n' is not one of: $OH_ALL_WORKLOADS (read-only workloads only)" ;;
        esac
    done
    MAX_REPLICAS=1
    N_SERVERS=2
    STRATA_PORT=$((BASE_PORT + 3))
    HAPROXY_PORT=$((BASE_PORT + 4))
}

port_of_node() {
    echo $((BASE_PORT + $1))
}

# ---- tools ----------------------------------------------------------------------------

locate_tools() {
    SYSBENCH=$(find_bin sysbench) || die "sysbench not found"
    MARIADBD=$(find_bin mariadbd) || die "mariadbd not found (package mariadb-server)"
    INSTALL_DB=$(find_bin mariadb-install-db) || die "mariadb-install-db not found (package mariadb-server)"
    MARIADB=$(find_bin mariadb) || die "mariadb client not found (package mariadb-client)"
    MARIADB_ADMIN=$(find_bin mariadb-admin) || die "mariadb-admin not found (package mariadb-client)"
    if [ "$MODE" = overhead ]; then
        HAPROXY=$(find_bin haproxy) || die "haproxy not found (package haproxy)"
        local w
        for w in $WORKLOADS; do
            if [ -d /usr/share/sysbench ] && [ ! -f "/usr/share/sysbench/$w.lua" ]; then
                die "sysbench's $w.lua is not in /usr/share/sysbench"
            fi
        done
    else
        [ -f "$LUA_SCRIPT" ] || die "the workload script $LUA_SCRIPT is missing"
    fi
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
    if [ "$BUSY_AT_START" -ge 25 ] && [ "$MODE" = overhead ]; then
        echo "WARNING: the CPUs are ${BUSY_AT_START}% busy before the benchmark starts. The --overhead cells are"
        echo "         CPU-bound: the QPS will be noisy (queries per proxy CPU-second suffers less)."
        echo "         Busiest processes (CPU% over their lifetime):"
        ps -eo pid=,pcpu=,comm= --sort=-pcpu 2>/dev/null | head -n 5 | sed 's/^/           /' || true
    elif [ "$BUSY_AT_START" -ge 25 ]; then
        echo "WARNING: the CPUs are ${BUSY_AT_START}% busy before the benchmark starts. The cells are bounded by"
        echo "         SLEEP() and the pool, not by CPU, so they suffer less than CPU-bound ones; still, check"
        echo "         the cpu_busy column. Busiest processes (CPU% over their lifetime):"
        ps -eo pid=,pcpu=,comm= --sort=-pcpu 2>/dev/null | head -n 5 | sed 's/^/           /' || true
    fi
    return 0
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
    if [ "$MODE" = overhead ]; then
        port_in_use "$HAPROXY_PORT" && die "port $HAPROXY_PORT is in use; pick other ports with --base-port N (--overhead uses N, N+1, N+3, N+4)"
    fi
    return 0
}

# ---- processes we start ----------------------------------------------------------------

WORK_DIR=""
DB_PIDS=()
STRATA_PID=""
HAPROXY_PID=""
STRATA_HOME=""
LOAD_AT_START="?"
BUSY_AT_START="?"
INSTALLED_PACKAGES=""

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
        [ -n "$HAPROXY_PID" ] && is_alive "$HAPROXY_PID" && echo "    HAProxy   pid $HAPROXY_PID 127.0.0.1:$HAPROXY_PORT"
        echo "    connect: $MARIADB -h127.0.0.1 -P$BASE_PORT -usbtest -psbtest sbtest"
        local pids
        pids=$(echo $STRATA_PID $HAPROXY_PID "${DB_PIDS[@]}")
        echo "    stop:    kill $pids; sleep 10; rm -rf $WORK_DIR"
        exit "$rc"
    fi
    if [ -n "$STRATA_PID$HAPROXY_PID" ] || [ ${#DB_PIDS[@]} -gt 0 ]; then
        say "Stopping what this run started"
    fi
    [ -n "$STRATA_PID" ] && stop_pid Strata "$STRATA_PID" 30
    [ -n "$HAPROXY_PID" ] && stop_pid HAProxy "$HAPROXY_PID" 10
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
    admin: true
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

# --overhead's configuration: the primary and replica_0 with --pool connections each,
# and the rule sending every read to replica_0 (no reads on the primary, no
# read-your-writes). Prints the conf folder.
write_overhead_conf() {
    local conf=$WORK_DIR/strata-overhead/conf node
    mkdir -p "$conf"
    [ -f "$STRATA_HOME/conf/logback.xml" ] && cp "$STRATA_HOME/conf/logback.xml" "$conf/"
    {
        echo "# Written by bench/rw-split.sh --overhead."
        echo "server:"
        echo "  host: 127.0.0.1"
        echo "  port: $STRATA_PORT"
        [ -n "${STRATA_WORKER_THREADS:-}" ] && echo "  workerThreads: $STRATA_WORKER_THREADS"
        cat <<EOF
users:
  - name: root
    password: root
    databases: ["*"]
    admin: true
  - name: sbtest
    password: sbtest
    databases: [sbtest]
EOF
    } > "$conf/server.yaml"
    {
        echo "# Written by bench/rw-split.sh --overhead: every read to replica_0, pool $POOL per data source."
        echo "databaseName: sbtest"
        echo "dataSources:"
        for node in 0 1; do
            cat <<EOF
  ${NODE_NAMES[$node]}:
    url: "jdbc:mariadb://127.0.0.1:$(port_of_node "$node")/sbtest"
    username: sbtest
    password: sbtest
    maximumPoolSize: $POOL
EOF
        done
        cat <<EOF
rules:
  - type: READWRITE_SPLITTING
    groups:
      - name: rw
        writeDataSource: primary
        readDataSources: [replica_0]
        loadBalancer: ROUND_ROBIN
        primaryTakesReads: false
        readYourWrites: false
    healthCheck:
      username: monitor
      password: monitor
      interval: 1000          # ms between checks
      maxReplicationLag: 10   # seconds
EOF
    } > "$conf/config-sbtest.yaml"
    echo "$conf"
}

# Starts Strata for $1 replicas (or "overhead": --overhead's configuration) in the
# foreground mode of start.sh, as our own child (start.sh execs java, so $! is the JVM).
# Returns non-zero, with STRATA_FAILURE set, when it does not come up: the run goes on
# with the next configuration.
start_strata() {
    local replicas=$1 conf log
    if [ "$replicas" = overhead ]; then
        conf=$(write_overhead_conf)
    else
        conf=$(write_strata_conf "$replicas")
    fi
    log=$WORK_DIR/strata-$replicas/stdout.log
    STRATA_FAILURE=""
    if [ "$replicas" = overhead ]; then
        say "Starting Strata on 127.0.0.1:$STRATA_PORT with READWRITE_SPLITTING, reads to replica_0 (pool $POOL, conf $conf)"
    else
        say "Starting Strata on 127.0.0.1:$STRATA_PORT with $replicas replica(s) (conf $conf)"
    fi
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

# R_SPLIT: how many SELECTs each server ran between two com_selects readings.
selects_between() {
    local -a before after
    local i
    read -r -a before <<< "$1"
    read -r -a after <<< "$2"
    R_SPLIT=()
    for ((i = 0; i < N_SERVERS; i++)); do
        R_SPLIT[$i]=$(( ${after[$i]:-0} - ${before[$i]:-0} ))
    done
}

# Runs one measured cell and sets R_* to its results. Never exits on a failed sysbench.
run_cell() {
    local name=$1 port=$2 threads=$3 log="$WORK_DIR/cells/$1.log"
    local rc=0 c0 c1 s0 s1
    R_STATUS=ok R_NOTE="" R_QPS=0 R_P95="" R_BUSY="" R_SPLIT=()

    s0=$(cpu_snapshot); c0=$(com_selects)
    run_sysbench "$port" "$threads" "$CELL_TIME" "$log" || rc=$?
    exit_if_interrupted "$rc"
    s1=$(cpu_snapshot); c1=$(com_selects)
    R_BUSY=$(cpu_busy_between "$s0" "$s1")
    selects_between "$c0" "$c1"
    judge_sysbench_log "$log" "$rc" "$PS_MODE" "$CELL_TIME" || true
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
    if [ "$MODE" = overhead ]; then
        echo "HAProxy:   $("$HAPROXY" -v 2>/dev/null | head -n 1) (mode tcp, nbthread $(nproc), server replica_0)"
        echo "Rule:      READWRITE_SPLITTING, write primary, read [replica_0], primaryTakesReads false, readYourWrites"
        echo "           false, ROUND_ROBIN; maximumPoolSize $POOL per data source; workerThreads ${STRATA_WORKER_THREADS:-<default>}"
        echo "Workload:  sysbench $WORKLOADS (oltp_read_only with --skip_trx=on), 1 table x $TABLE_SIZE rows,"
        echo "           ps modes $OH_PS_MODES, threads $OH_THREADS; ${CELL_TIME} s per cell, ${WARMUP} s warm-up per target and ps mode"
        return 0
    fi
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

# ---- --overhead: a replica read through the rule against HAProxy -------------------------

# HAProxy as the L4 baseline for replica reads, modelled on bench/run.sh: mode tcp, one
# server (replica_0), nbthread = CPUs (the same room as Strata, whose Netty uses every core).
start_haproxy() {
    start_haproxy_tcp "$WORK_DIR/haproxy" replica_0 "$(port_of_node 1)" "bench/rw-split.sh --overhead (reads only)"
}

# SHOW STRATA DATA SOURCES, tab-separated, without the header.
strata_sources() {
    "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$STRATA_PORT" -uroot -proot sbtest \
        -N -B -e "SHOW STRATA DATA SOURCES" 2>/dev/null
}

# The rule reads only from a replica in rotation, else from the primary (whenNoReplica:
# PRIMARY). A replica starts in rotation as "not checked yet": wait until a health check
# has found replica_0 in rotation and replicating, so no cell depends on the first check.
wait_replica_in_rotation() {
    local i line rot status
    for ((i = 0; i < 120; i++)); do
        line=$(strata_sources | awk -F'\t' '$1 == "replica_0"' || true)
        rot=$(echo "$line" | awk -F'\t' '{ print $4 }')
        status=$(echo "$line" | awk -F'\t' '{ print $5 }')
        case "$rot|$status" in
            "yes|replicating"*) echo "    replica_0 is in Strata's rotation: $status"; return 0 ;;
        esac
        sleep 0.25
    done
    die "replica_0 is not in Strata's rotation, replicating, after 30 s (SHOW STRATA DATA SOURCES: ${line:-no row})"
}

oh_port() {
    case "$1" in
        replica-direct) port_of_node 1 ;;
        haproxy) echo "$HAPROXY_PORT" ;;
        strata-rw) echo "$STRATA_PORT" ;;
    esac
}

# The process whose CPU a cell reports: the proxy, or replica_0's mariadbd for direct.
oh_cpu_pid() {
    case "$1" in
        replica-direct) echo "${DB_PIDS[1]}" ;;
        haproxy) echo "$HAPROXY_PID" ;;
        strata-rw) echo "$STRATA_PID" ;;
    esac
}

oh_cpu_name() {
    case "$1" in
        replica-direct) echo mariadbd ;;
        haproxy) echo haproxy ;;
        strata-rw) echo strata ;;
    esac
}

# Runs sysbench workload $1, ps mode $2, $3 threads, $4 seconds against port $5 into log $6.
# oltp_read_only wraps each event in BEGIN/COMMIT, which makes the session
# in-transaction, and the rule sends transactions to the primary: --skip_trx=on keeps its
# reads autocommit, so they may go to the replica. No --mysql-ignore-errors: these are
# reads only, any error fails the cell.
run_oh_sysbench() {
    local w=$1 ps=$2 threads=$3 secs=$4 port=$5 log=$6 rc=0 extra=()
    [ "$w" = oltp_read_only ] && extra=(--skip_trx=on)
    # --verbosity=4 makes sysbench say when the server refused a prepared statement and it
    # fell back to client-side emulation. timeout: a stuck proxy fails the cell, not the run.
    timeout --foreground -k 10 $((secs + 60)) "$SYSBENCH" "$w" --db-driver=mysql \
        --mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=sbtest --mysql-password=sbtest \
        --mysql-db=sbtest --tables=1 --table-size="$TABLE_SIZE" "${extra[@]}" --db-ps-mode="$ps" \
        --threads="$threads" --time="$secs" --report-interval=0 --percentile=95 --verbosity=4 \
        run > "$log" 2>&1 || rc=$?
    return "$rc"
}

# JIT, the pools and the buffer pool make the first seconds through a target slower than
# the rest: an unrecorded oltp_read_only (point and range selects) through each target in
# each ps mode first.
oh_warm_up() {
    [ "$WARMUP" -gt 0 ] || return 0
    local target ps rc
    for target in replica-direct haproxy strata-rw; do
        say "Warm-up (not recorded): oltp_read_only --skip_trx=on, 8 threads, ${WARMUP} s per ps mode ($OH_PS_MODES) through $target"
        for ps in $OH_PS_MODES; do
            rc=0
            run_oh_sysbench oltp_read_only "$ps" 8 "$WARMUP" "$(oh_port "$target")" \
                "$WORK_DIR/cells/warmup-$target-$ps.log" || rc=$?
            exit_if_interrupted "$rc"
            [ "$rc" -eq 0 ] || echo "    warm-up through $target ($ps) failed (exit code $rc); the cells will show it"
        done
    done
}

# Runs one --overhead cell and sets R_* to its results. Never exits on a failed sysbench.
run_oh_cell() {
    local w=$1 ps=$2 threads=$3 target=$4
    local log="$WORK_DIR/cells/$w-$ps-$threads-$target.log"
    local pid p0 p1 db0 db1 s0 s1 c0 c1 rc=0
    pid=$(oh_cpu_pid "$target")
    R_STATUS=ok R_NOTE="" R_QPS=0 R_QUERIES=0 R_P95="" R_CPU="" R_DBCPU="" R_QPC="" R_BUSY="" R_SPLIT=()

    if ! is_alive "$pid"; then
        R_STATUS=FAILED R_NOTE="$(oh_cpu_name "$target") process (pid $pid) is gone"
        return
    fi
    c0=$(com_selects); s0=$(cpu_snapshot)
    p0=$(cpu_ticks "$pid"); db0=$(cpu_ticks "${DB_PIDS[1]}")
    run_oh_sysbench "$w" "$ps" "$threads" "$CELL_TIME" "$(oh_port "$target")" "$log" || rc=$?
    p1=$(cpu_ticks "$pid"); db1=$(cpu_ticks "${DB_PIDS[1]}")
    s1=$(cpu_snapshot); c1=$(com_selects)
    exit_if_interrupted "$rc"

    R_CPU=$(cpu_seconds_between "$p0" "$p1")
    R_DBCPU=$(cpu_seconds_between "$db0" "$db1")
    R_BUSY=$(cpu_busy_between "$s0" "$s1")
    selects_between "$c0" "$c1"
    judge_sysbench_log "$log" "$rc" "$ps" "$CELL_TIME" || return 0
    R_QPC=$(awk -v q="$R_QUERIES" -v c="$R_CPU" 'BEGIN { if (c > 0) printf "%.0f", q / c }')
}

declare -A OH_QPS OH_QUERIES OH_P95 OH_CPU OH_DBCPU OH_QPC OH_BUSY OH_SPLIT OH_STATUS OH_NOTE
OH_CELLS=()

ratio3() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && a > 0 && b > 0) printf "%.3f", a / b }'
}

# The three ratios of a strata-rw cell, "s/haproxy-qps s/haproxy-q-per-cpu s/direct-qps"
# (empty fields as "-"); nothing for the other targets.
oh_ratios() {
    local key=$1 w ps t target base rh rc rd
    IFS='|' read -r w ps t target <<< "$key"
    [ "$target" = strata-rw ] || return 0
    base="$w|$ps|$t"
    rh=$(ratio3 "${OH_QPS[$key]}" "${OH_QPS[$base|haproxy]:-}")
    rc=$(ratio3 "${OH_QPC[$key]}" "${OH_QPC[$base|haproxy]:-}")
    rd=$(ratio3 "${OH_QPS[$key]}" "${OH_QPS[$base|replica-direct]:-}")
    echo "${rh:--} ${rc:--} ${rd:--}"
}

# The share of the cell's queries that replica_0 counted as SELECTs (Com_select over
# sysbench's queries): about 1.00 when every read landed on replica_0.
oh_on_replica() {
    local key=$1
    local -a s
    read -r -a s <<< "${OH_SPLIT[$key]}"
    awk -v r="${s[1]:-}" -v q="${OH_QUERIES[$key]}" 'BEGIN { if (r != "" && q > 0) printf "%.2f", r / q }'
}

run_overhead() {
    unpack_strata
    start_haproxy
    start_strata overhead || die "$STRATA_FAILURE (log: $WORK_DIR/strata-overhead/stdout.log)"
    wait_replica_in_rotation
    oh_warm_up

    local n_w n_p n_t total i=0 w ps t target key
    n_w=$(wc -w <<< "$WORKLOADS"); n_p=$(wc -w <<< "$OH_PS_MODES"); n_t=$(wc -w <<< "$OH_THREADS")
    total=$((n_w * n_p * n_t * 3))
    say "Running $total cells of ${CELL_TIME} s (about $(( total * (CELL_TIME + 2) / 60 + 1 )) min): replica-direct, haproxy, strata-rw back to back"
    for w in $WORKLOADS; do
        for ps in $OH_PS_MODES; do
            for t in $OH_THREADS; do
                for target in replica-direct haproxy strata-rw; do
                    i=$((i + 1))
                    key="$w|$ps|$t|$target"
                    run_oh_cell "$w" "$ps" "$t" "$target"
                    OH_CELLS+=("$key")
                    OH_QPS[$key]=$R_QPS OH_QUERIES[$key]=$R_QUERIES OH_P95[$key]=$R_P95
                    OH_CPU[$key]=$R_CPU OH_DBCPU[$key]=$R_DBCPU OH_QPC[$key]=$R_QPC OH_BUSY[$key]=$R_BUSY
                    OH_SPLIT[$key]="${R_SPLIT[*]}" OH_STATUS[$key]=$R_STATUS OH_NOTE[$key]=$R_NOTE
                    printf '  [%2d/%d] %-17s %-7s %3s thr %-14s qps %9s  p95 %6s ms  cpu %6s s  reads: %s  %s\n' \
                        "$i" "$total" "$w" "$ps" "$t" "$target" "$R_QPS" "${R_P95:--}" "${R_CPU:--}" \
                        "$(split_text "${R_SPLIT[*]}")" "$R_STATUS${R_NOTE:+: $R_NOTE}"
                done
            done
        done
    done
    # Strata's own view after the matrix: where it routed (reads, writes) and the health.
    OH_SOURCES=$("$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$STRATA_PORT" -uroot -proot sbtest \
        -t -e "SHOW STRATA DATA SOURCES" 2>&1 || true)
}

print_oh_table() {
    local key w ps t target cpu rh rc rd
    printf '%-17s %-7s %3s %-14s %9s %7s %15s %8s %7s %9s %8s %4s %5s  %-24s %s\n' \
        workload ps thr target qps p95_ms proxy_cpu_s "q/cpu_s" "s/haprx" "s/h q/cpu" "s/direct" "cpu%" "on_r0" \
        "reads (Com_select)" status
    for key in "${OH_CELLS[@]}"; do
        IFS='|' read -r w ps t target <<< "$key"
        cpu=${OH_CPU[$key]}
        [ -n "$cpu" ] && [ "$target" = replica-direct ] && cpu="$cpu (mariadbd)"
        read -r rh rc rd <<< "$(oh_ratios "$key")"
        printf '%-17s %-7s %3s %-14s %9s %7s %15s %8s %7s %9s %8s %4s %5s  %-24s %s\n' \
            "$w" "$ps" "$t" "$target" "${OH_QPS[$key]}" "${OH_P95[$key]:--}" "${cpu:--}" "${OH_QPC[$key]:--}" \
            "${rh:-}" "${rc:-}" "${rd:-}" "${OH_BUSY[$key]:--}" "$(oh_on_replica "$key")" \
            "$(split_text "${OH_SPLIT[$key]}")" "${OH_STATUS[$key]}"
    done
}

# The goal's check over the strata-rw cells: Strata/HAProxy QPS >= 1.0 and queries per
# proxy CPU-second >= 0.8 of HAProxy's, with the minimum and the geometric mean.
print_oh_summary() {
    local key rh rc rd list_h="" list_c=""
    for key in "${OH_CELLS[@]}"; do
        case "$key" in *"|strata-rw") ;; *) continue ;; esac
        read -r rh rc rd <<< "$(oh_ratios "$key")"
        [ "$rh" != - ] && list_h="$list_h $rh"
        [ "$rc" != - ] && list_c="$list_c $rc"
    done
    echo "Goal, over the strata-rw cells of this run (a failed cell has no ratio):"
    awk -v h="$list_h" -v c="$list_c" 'function line(name, target, list,   n, v, i, ok, min, lg) {
            n = split(list, v, " "); ok = 0; lg = 0; min = ""
            for (i = 1; i <= n; i++) { if (v[i] + 0 >= target) ok++; if (min == "" || v[i] + 0 < min) min = v[i] + 0; lg += log(v[i]) }
            if (n == 0) { printf "  %-38s target >= %.1f: no cell\n", name, target; return }
            printf "  %-38s target >= %.1f: %d of %d cells; min %.3f, geometric mean %.3f\n", name, target, ok, n, min, exp(lg / n) }
        BEGIN { line("Strata/HAProxy QPS (s/haprx)", 1.0, h); line("Strata/HAProxy q per CPU-s (s/h q/cpu)", 0.8, c) }'
}

# Cells where replica_0 did not count (about) every query as a SELECT: reads went elsewhere.
print_oh_misrouted() {
    local key r any=0
    for key in "${OH_CELLS[@]}"; do
        [ "${OH_STATUS[$key]}" = ok ] || continue
        r=$(oh_on_replica "$key")
        if [ -z "$r" ] || awk -v r="$r" 'BEGIN { exit !(r < 0.99) }'; then
            [ $any -eq 0 ] && { echo; echo "Reads not (all) on replica_0:"; any=1; }
            echo "  ${key//|/ }: replica_0 counted ${r:-?} SELECTs per query; $(split_text "${OH_SPLIT[$key]}")"
        fi
    done
    return 0
}

save_oh_failure_logs() {
    local dir=$1 key w ps t target strata_failed=0 haproxy_failed=0
    for key in "${OH_CELLS[@]}"; do
        [ "${OH_STATUS[$key]}" = ok ] && continue
        IFS='|' read -r w ps t target <<< "$key"
        mkdir -p "$dir"
        [ -f "$WORK_DIR/cells/$w-$ps-$t-$target.log" ] && cp "$WORK_DIR/cells/$w-$ps-$t-$target.log" "$dir/"
        [ "$target" = strata-rw ] && strata_failed=1
        [ "$target" = haproxy ] && haproxy_failed=1
    done
    if [ "$strata_failed" -eq 1 ]; then
        cp "$WORK_DIR/strata-overhead/stdout.log" "$dir/strata-stdout.log" 2>/dev/null || true
        cp "$WORK_DIR/strata-overhead/conf/config-sbtest.yaml" "$dir/strata-config-sbtest.yaml" 2>/dev/null || true
    fi
    if [ "$haproxy_failed" -eq 1 ]; then
        cp "$WORK_DIR/haproxy/haproxy.log" "$WORK_DIR/haproxy/haproxy.cfg" "$dir/" 2>/dev/null || true
    fi
    [ -d "$dir" ] && echo "Logs of the failed cells: $dir"
    return 0
}

write_oh_csv() {
    local file=$1 key w ps t target rh rc rd
    local -a s
    {
        echo "workload,ps_mode,threads,target,qps,queries,p95_ms,proxy_cpu_s,qps_per_proxy_cpu_s,strata_over_haproxy_qps,strata_over_haproxy_qps_per_proxy_cpu_s,strata_over_direct_qps,cpu_busy_percent,replica_0_selects_per_query,reads_primary,reads_replica_0,cpu_process,replica_0_db_cpu_s,pool,status,note"
        for key in "${OH_CELLS[@]}"; do
            IFS='|' read -r w ps t target <<< "$key"
            rh="" rc="" rd=""
            [ "$target" = strata-rw ] && read -r rh rc rd <<< "$(oh_ratios "$key")"
            [ "$rh" = - ] && rh=""
            [ "$rc" = - ] && rc=""
            [ "$rd" = - ] && rd=""
            read -r -a s <<< "${OH_SPLIT[$key]}"
            echo "$w,$ps,$t,$target,${OH_QPS[$key]},${OH_QUERIES[$key]},${OH_P95[$key]},${OH_CPU[$key]},${OH_QPC[$key]},$rh,$rc,$rd,${OH_BUSY[$key]},$(oh_on_replica "$key"),${s[0]:-},${s[1]:-},$(oh_cpu_name "$target"),${OH_DBCPU[$key]},$POOL,${OH_STATUS[$key]},$(csv_field "${OH_NOTE[$key]}")"
        done
    } > "$file"
}

oh_report() {
    mkdir -p "$RESULTS_DIR"
    local stamp csv txt
    stamp=$(date +%Y%m%d-%H%M%S)
    csv="$RESULTS_DIR/rw-split-overhead-$stamp.csv"
    txt="$RESULTS_DIR/rw-split-overhead-$stamp.txt"
    write_oh_csv "$csv"
    {
        echo
        machine_info
        echo
        print_oh_table
        print_failed_cells OH_CELLS OH_STATUS OH_NOTE
        print_oh_misrouted
        save_oh_failure_logs "$RESULTS_DIR/rw-split-overhead-$stamp-failed"
        echo
        print_oh_summary
        echo
        echo "Strata's counters after the cells (SHOW STRATA DATA SOURCES; reads/writes it routed, warm-up included):"
        echo "${OH_SOURCES:-?}"
        echo
        echo "replica-direct: sysbench straight to replica_0; haproxy: HAProxy (mode tcp) in front of replica_0;"
        echo "strata-rw: Strata with READWRITE_SPLITTING, every read to replica_0. proxy_cpu_s: CPU seconds"
        echo "(user+system) of the proxy process during the cell; for replica-direct, of replica_0's mariadbd."
        echo "q/cpu_s: queries per proxy CPU-second. s/haprx: Strata's QPS over HAProxy's (goal >= 1.0);"
        echo "s/h q/cpu: Strata's queries per CPU-second over HAProxy's (goal >= 0.8); s/direct: Strata's QPS"
        echo "over replica-direct's. cpu%: how busy the machine's CPUs were. on_r0: replica_0's Com_select delta"
        echo "over sysbench's queries (1.00: every read ran on replica_0). reads: each server's share of the"
        echo "SELECTs (Com_select); Strata's health checks add about one per second on each."
    } | tee "$txt"
    echo
    say "Results: $csv"
    say "Report:  $txt"
}

# ---- main -----------------------------------------------------------------------------

main() {
    parse_args "$@"
    if [ "$MODE" = overhead ]; then install_missing haproxy; else install_missing; fi
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

    if [ "$MODE" = overhead ]; then
        run_overhead
        oh_report
        return 0
    fi

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
        print_failed_cells CELLS RES_STATUS RES_NOTE
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
