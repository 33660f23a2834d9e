#!/usr/bin/env bash
#
# bench/run.sh: sysbench through Strata, compared with MariaDB direct and with HAProxy.
#
# On one machine it starts a private MariaDB, two HAProxies (TCP mode; nbthread = cores and
# nbthread 1) in front of it and Strata (from the distribution tarball) in front of it, with
# --strata-dist-b a second Strata build for an A/B run, then runs the sysbench matrix
# workload x ps-mode x threads x target with the targets back to back in every cell, so
# that drift (thermal, noisy neighbours, InnoDB state) hits them alike.
# It prints a table and writes bench/results/<timestamp>.csv (and .txt).
#
# Everything it starts is stopped at the end (by pid), and its temp folder is removed,
# unless --keep. Run `bench/run.sh --help` for the options; bench/README.md explains
# how to read the results.

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Helpers both benchmark scripts share (messages, tools, JDK choice, processes, waiting).
. "$SCRIPT_DIR/common.sh"
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
RESULTS_DIR="$SCRIPT_DIR/results"
ORIG_COMMAND=$(printf '%q ' "$0" "$@")
ORIG_COMMAND=${ORIG_COMMAND% }

MIN_JAVA=21
JVM_DIR=/usr/lib/jvm
# The default targets; strata_b (a second Strata build) joins them with --strata-dist-b.
ALL_TARGETS="direct haproxy haproxy1 strata"
KNOWN_TARGETS="$ALL_TARGETS strata_b"
ALL_WORKLOADS="oltp_point_select oltp_read_only oltp_read_write"
ALL_PS_MODES="auto disable"
# The errors sysbench itself tolerates in its OLTP scripts (deadlock, lock wait timeout,
# record changed): they are counted as "ignored errors", and we show that count.
IGNORE_ERRORS="1213,1205,1020"

# ---- options ------------------------------------------------------------------------

MODE=quick
OPT_TIME=""
ROUNDS=1
OPT_WARMUP=""
OPT_TARGETS=""
OPT_WORKLOADS=""
OPT_THREADS=""
OPT_PS_MODES=""
OPT_TABLES=""
OPT_TABLE_SIZE=""
STRATA_DIST=""
STRATA_DIST_B=""
STRATA_RULES_B=""
STRATA_SERVER_B=""
STRATA_JAVA_OPTS_B=""
STRATA_POOL=64
OPT_MANY_CLIENTS=""
THINK_MS=10
BASE_PORT=13306
KEEP=0

usage() {
    cat <<EOF
Usage: bench/run.sh [options]

Benchmarks Strata against MariaDB direct and HAProxy (TCP mode) with sysbench, on this
machine. Installs sysbench, haproxy, mariadb-server and mariadb-client with apt-get when
they are missing. Starts its own MariaDB and the targets chosen on ports ${BASE_PORT}..$((BASE_PORT + 4))
(see --base-port; the system MariaDB service, if any, is neither used nor touched).

Targets (every cell runs through each, back to back):
  direct               MariaDB itself
  haproxy              HAProxy, mode tcp, nbthread = CPUs ($(nproc) here)
  haproxy1             a second HAProxy, mode tcp, nbthread 1: the cheapest HAProxy on a
                       small machine
  strata               Strata from --strata-dist
  strata_b             only with --strata-dist-b: a second Strata build, same configuration,
                       for an A/B run (added to the targets by that option)

Profiles (with the four default targets):
  --quick              (default) 4 tables x 10,000 rows, threads 4 and 16, 3 s per cell:
                       48 matrix cells and 16 many-clients cells, about 6 minutes with
                       start-up (add a quarter for strata_b)
  --full               8 tables x 100,000 rows, threads 1, 4, 16 and 64, 10 s per cell:
                       96 matrix cells and 16 many-clients cells, about 25 minutes

Narrowing or changing the matrix (comma- or space-separated lists):
  --time SECONDS       seconds per cell (sysbench --time)
  --rounds N           run every cell N times, the targets back to back in a rotated
                       order each round (each target first once in N = targets rounds);
                       QPS and CPU are the rounds' means, p95 their median (default 1)
  --warmup SECONDS     unrecorded oltp_read_write run through each target before the
                       matrix (split over the ps modes), so the JIT and the buffer pool
                       are warm (quick 6, full 20; 0 = none)
  --targets LIST       of: $KNOWN_TARGETS
                       (default: $ALL_TARGETS; strata_b comes with --strata-dist-b)
  --workloads LIST     sysbench scripts, default: $ALL_WORKLOADS
  --threads LIST       sysbench thread counts (client connections)
  --ps-modes LIST      sysbench --db-ps-mode values, of: $ALL_PS_MODES
  --many-clients N     after the matrix, the many-clients cells: N clients running short
                       transactions with --think-ms between them, autocommit on (BEGIN ...
                       COMMIT) and off (SET AUTOCOMMIT = 0 at connect, as PyMySQL does),
                       reported beside each other (bench/autocommit/transactions.lua;
                       quick 200, full 500; 0 = none)
  --think-ms N         pause of each many-clients client between transactions (default $THINK_MS)
  --tables N           number of sbtest tables
  --table-size N       rows per table

Setup:
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default:
                       the newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --strata-dist-b PATH a second Strata distribution (tarball or folder), started beside the
                       first with the same configuration as target strata_b: an A/B run
                       of two builds, interleaved and rotated with the other targets in
                       every cell, so that drift hits both alike. The table adds b/a and
                       b/a q/cpu (strata_b's QPS and queries per CPU-second over strata's)
  --strata-rules-b FILE
                       rules for strata_b (the YAML of a rules: section, e.g. bench/rules/
                       shadow.yaml): an A/B run of one build with and without a rule, whose
                       b/a columns are the rule's cost. strata_b's configuration then also
                       has a data source ds_shadow (the same server) for rules to name;
                       --strata-dist-b defaults to --strata-dist
  --strata-server-b YAML
                       extra settings of strata_b's server: section, one flow mapping per
                       line, e.g. "digests: { enabled: false }": an A/B run of one build
                       with a server setting changed (--strata-dist-b defaults to --strata-dist)
  --strata-java-opts-b OPTS
                       JVM options of strata_b (its STRATA_JAVA_OPTS), e.g. "-XX:+UseSerialGC":
                       an A/B run of one build under other JVM options (--strata-dist-b
                       defaults to --strata-dist)
  --strata-pool N      maximumPoolSize of Strata's backend pool (default $STRATA_POOL; both builds)
  --base-port N        MariaDB on N, HAProxy on N+1, Strata on N+2, Strata B on N+3,
                       HAProxy nbthread 1 on N+4 (default $BASE_PORT)
  --keep               leave MariaDB, the proxies and Strata running at the end and keep
                       the temp folder; prints how to stop them
  -h, --help           this help

A/B of two commits (the build overwrites distribution/target, so copy the first aside):
  git checkout A && ./mvnw -DskipTests install
  cp distribution/target/strata-proxy-*-bin.tar.gz /tmp/strata-a.tar.gz
  git checkout B && ./mvnw -DskipTests install
  cp distribution/target/strata-proxy-*-bin.tar.gz /tmp/strata-b.tar.gz
  bench/run.sh --strata-dist /tmp/strata-a.tar.gz --strata-dist-b /tmp/strata-b.tar.gz \\
      --targets haproxy,strata --workloads oltp_point_select,oltp_read_only --rounds 3 --time 10
  (targets haproxy strata strata_b; rounds = targets, so each goes first once). A worktree
  per commit, or two unpacked distributions, do as well. Read the b/a columns: queries per
  CPU-second is the steady one; QPS moves with the machine.

Environment (for both Strata builds):
  STRATA_WORKER_THREADS  Strata's server.workerThreads (event loops; default: unset, the
                       build's own default)
  STRATA_JAVA_OPTS     JVM options for Strata (passed to bin/start.sh; default: that
                       script's, from the memory found, e.g. "-Xms512m -Xmx2048m ..." with 8 GiB or more)
  JAVA_HOME            JDK for Strata; when it (or the default java) is older than Java $MIN_JAVA,
                       the newest JDK >= $MIN_JAVA under $JVM_DIR is used

Output: a table on the terminal, and bench/results/<timestamp>.csv and .txt.
EOF
}

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --quick) MODE=quick ;;
            --full) MODE=full ;;
            --time) need_value "$@"; OPT_TIME=$2; shift ;;
            --rounds) need_value "$@"; ROUNDS=$2; shift ;;
            --warmup) need_value "$@"; OPT_WARMUP=$2; shift ;;
            --targets) need_value "$@"; OPT_TARGETS=$(split_list "$2"); shift ;;
            --workloads) need_value "$@"; OPT_WORKLOADS=$(split_list "$2"); shift ;;
            --threads) need_value "$@"; OPT_THREADS=$(split_list "$2"); shift ;;
            --ps-modes) need_value "$@"; OPT_PS_MODES=$(split_list "$2"); shift ;;
            --tables) need_value "$@"; OPT_TABLES=$2; shift ;;
            --table-size) need_value "$@"; OPT_TABLE_SIZE=$2; shift ;;
            --strata-dist) need_value "$@"; STRATA_DIST=$2; shift ;;
            --strata-dist-b) need_value "$@"; STRATA_DIST_B=$2; shift ;;
            --strata-rules-b) need_value "$@"; STRATA_RULES_B=$2; shift ;;
            --strata-server-b) need_value "$@"; STRATA_SERVER_B=$2; shift ;;
            --strata-java-opts-b) need_value "$@"; STRATA_JAVA_OPTS_B=$2; shift ;;
            --strata-pool) need_value "$@"; STRATA_POOL=$2; shift ;;
            --many-clients) need_value "$@"; OPT_MANY_CLIENTS=$2; shift ;;
            --think-ms) need_value "$@"; THINK_MS=$2; shift ;;
            --base-port) need_value "$@"; BASE_PORT=$2; shift ;;
            --keep) KEEP=1 ;;
            -h|--help) usage; exit 0 ;;
            *) die "unknown option: $1 (see --help)" ;;
        esac
        shift
    done

    # The profile gives the defaults; explicit options win whatever their order.
    if [ "$MODE" = full ]; then
        TABLES=8; TABLE_SIZE=100000; THREADS="1 4 16 64"; CELL_TIME=10; WARMUP=20
        BUFFER_POOL=1G; MANY_CLIENTS=500
    else
        TABLES=4; TABLE_SIZE=10000; THREADS="4 16"; CELL_TIME=3; WARMUP=6
        BUFFER_POOL=256M; MANY_CLIENTS=200
    fi
    MANY_CLIENTS=${OPT_MANY_CLIENTS:-$MANY_CLIENTS}
    TARGETS=${OPT_TARGETS:-$ALL_TARGETS}
    WORKLOADS=${OPT_WORKLOADS:-$ALL_WORKLOADS}
    PS_MODES=${OPT_PS_MODES:-$ALL_PS_MODES}
    THREADS=${OPT_THREADS:-$THREADS}
    CELL_TIME=${OPT_TIME:-$CELL_TIME}
    WARMUP=${OPT_WARMUP:-$WARMUP}
    TABLES=${OPT_TABLES:-$TABLES}
    TABLE_SIZE=${OPT_TABLE_SIZE:-$TABLE_SIZE}

    local n t
    for n in "$CELL_TIME" "$WARMUP" "$TABLES" "$TABLE_SIZE" "$STRATA_POOL" "$BASE_PORT" "$ROUNDS" "$MANY_CLIENTS" \
            "$THINK_MS" $THREADS; do
        case "$n" in ''|*[!0-9]*) die "expected a whole number, got '$n'" ;; esac
    done
    [ "$CELL_TIME" -ge 1 ] || die "--time must be at least 1"
    [ "$ROUNDS" -ge 1 ] || die "--rounds must be at least 1"
    [ "$TABLES" -ge 1 ] && [ "$TABLE_SIZE" -ge 1 ] || die "--tables and --table-size must be at least 1"
    [ "$BASE_PORT" -ge 1024 ] && [ "$BASE_PORT" -le 65531 ] || die "--base-port must be in 1024..65531"
    for t in $THREADS; do [ "$t" -ge 1 ] || die "thread counts must be at least 1"; done
    for t in $TARGETS; do
        case " $KNOWN_TARGETS " in *" $t "*) ;; *) die "unknown target '$t' (known: $KNOWN_TARGETS)" ;; esac
    done
    # A second build is a target of its own, in every cell: --strata-dist-b adds it to the
    # targets, given or default, and it needs that option.
    if [ -n "$STRATA_RULES_B" ]; then
        [ -f "$STRATA_RULES_B" ] || die "--strata-rules-b: no file $STRATA_RULES_B"
        STRATA_RULES_B=$(cd "$(dirname "$STRATA_RULES_B")" && pwd)/$(basename "$STRATA_RULES_B")
        [ -n "$STRATA_DIST_B" ] || STRATA_DIST_B=same
    fi
    if [ -n "$STRATA_SERVER_B$STRATA_JAVA_OPTS_B" ] && [ -z "$STRATA_DIST_B" ]; then
        STRATA_DIST_B=same
    fi
    if [ -n "$STRATA_DIST_B" ]; then
        has_target strata_b || TARGETS="$TARGETS strata_b"
    elif has_target strata_b; then
        die "target strata_b needs --strata-dist-b PATH (the second Strata build)"
    fi
    for t in $PS_MODES; do
        case " $ALL_PS_MODES " in *" $t "*) ;; *) die "unknown ps-mode '$t' (known: $ALL_PS_MODES)" ;; esac
    done
    [ -n "$TARGETS" ] && [ -n "$WORKLOADS" ] && [ -n "$PS_MODES" ] && [ -n "$THREADS" ] \
        || die "--targets, --workloads, --threads and --ps-modes may not be empty"

    # Scale the buffer pool with the data set: sysbench rows take about 250 bytes with
    # their index entries; keep 4x that, at least the profile's size, so every read is
    # served from memory, as in the ShardingSphere and TiProxy methodology.
    local need_mb=$(( TABLES * TABLE_SIZE * 1000 / 1048576 + 1 ))
    local profile_mb=${BUFFER_POOL%[MG]}
    [ "${BUFFER_POOL: -1}" = G ] && profile_mb=$((profile_mb * 1024))
    if [ "$need_mb" -gt "$profile_mb" ]; then
        BUFFER_POOL="${need_mb}M"
    fi

    # The port plan (README and --help say the same): N+3 and N+4 came later, so the first
    # three stay where scripts and notes expect them (Strata on 13308 for bench/profile.sh).
    DB_PORT=$BASE_PORT
    HAPROXY_PORT=$((BASE_PORT + 1))
    STRATA_PORT=$((BASE_PORT + 2))
    STRATA_B_PORT=$((BASE_PORT + 3))
    HAPROXY1_PORT=$((BASE_PORT + 4))
}

has_target() {
    case " $TARGETS " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# ---- tools ----------------------------------------------------------------------------

locate_tools() {
    SYSBENCH=$(find_bin sysbench) || die "sysbench not found"
    HAPROXY=$(find_bin haproxy) || die "haproxy not found"
    MARIADBD=$(find_bin mariadbd) || die "mariadbd not found (package mariadb-server)"
    INSTALL_DB=$(find_bin mariadb-install-db) || die "mariadb-install-db not found (package mariadb-server)"
    MARIADB=$(find_bin mariadb) || die "mariadb client not found (package mariadb-client)"
    MARIADB_ADMIN=$(find_bin mariadb-admin) || die "mariadb-admin not found (package mariadb-client)"
    local w
    for w in $WORKLOADS; do
        if [ -d /usr/share/sysbench ] && [ ! -f "/usr/share/sysbench/$w.lua" ] && [ ! -f "$w" ]; then
            die "unknown sysbench workload '$w' (see /usr/share/sysbench/*.lua)"
        fi
    done
}

# The newest distribution tarball of this repo, unless --strata-dist says otherwise.
locate_strata_dist() {
    if [ -z "$STRATA_DIST" ]; then
        STRATA_DIST=$(ls -t "$REPO_DIR"/distribution/target/strata-proxy-*-bin.tar.gz 2>/dev/null | head -n 1 || true)
        [ -n "$STRATA_DIST" ] || die "no Strata distribution in $REPO_DIR/distribution/target; build it with
       ./mvnw -DskipTests install    or pass --strata-dist PATH"
    fi
    [ -e "$STRATA_DIST" ] || die "--strata-dist: $STRATA_DIST does not exist"
    STRATA_DIST=$(cd "$(dirname "$STRATA_DIST")" && pwd)/$(basename "$STRATA_DIST")
    if [ "$STRATA_DIST_B" = same ]; then
        STRATA_DIST_B=$STRATA_DIST
    elif [ -n "$STRATA_DIST_B" ]; then
        [ -e "$STRATA_DIST_B" ] || die "--strata-dist-b: $STRATA_DIST_B does not exist"
        STRATA_DIST_B=$(cd "$(dirname "$STRATA_DIST_B")" && pwd)/$(basename "$STRATA_DIST_B")
    fi
}

# Prints how busy the CPUs are, in percent, over one second (from /proc/stat).
cpu_busy_percent() {
    local a b
    a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6; exit }' /proc/stat)
    sleep 1
    b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6; exit }' /proc/stat)
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ");
        busy = y[1] - x[1]; idle = y[2] - x[2];
        printf "%d", (busy + idle > 0) ? 100 * busy / (busy + idle) : 0 }'
}

# On a small machine any other busy process skews the numbers: say so up front.
check_idle() {
    LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
    BUSY_AT_START=$(cpu_busy_percent 2>/dev/null || echo "?")
    if [ "$BUSY_AT_START" != "?" ] && [ "$BUSY_AT_START" -ge 25 ]; then
        echo "WARNING: the CPUs are ${BUSY_AT_START}% busy before the benchmark starts; results will be noisy."
        echo "         Busiest processes (CPU% over their lifetime):"
        ps -eo pid=,pcpu=,comm= --sort=-pcpu 2>/dev/null | head -n 5 | sed 's/^/           /' || true
    fi
    return 0
}

# MariaDB's port and those of the targets chosen.
check_ports() {
    local p t
    for p in "$DB_PORT" $(for t in $TARGETS; do port_of "$t"; done); do
        port_in_use "$p" && die "port $p is in use; pick other ports with --base-port N (uses N..N+4)"
    done
    return 0
}

# ---- processes we start ----------------------------------------------------------------

WORK_DIR=""
MARIADB_PID=""
LOAD_AT_START="?"
BUSY_AT_START="?"
HAPROXY_PID=""
HAPROXY1_PID=""
STRATA_PID=""
STRATA_B_PID=""
INSTALLED_PACKAGES=""

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [ "$KEEP" -eq 1 ] && [ -n "$WORK_DIR" ]; then
        echo
        say "--keep: left running (temp folder $WORK_DIR):"
        [ -n "$MARIADB_PID" ] && is_alive "$MARIADB_PID" && echo "    MariaDB  pid $MARIADB_PID  127.0.0.1:$DB_PORT  (socket $WORK_DIR/mariadb/mariadb.sock)"
        [ -n "$HAPROXY_PID" ] && is_alive "$HAPROXY_PID" && echo "    HAProxy  pid $HAPROXY_PID  127.0.0.1:$HAPROXY_PORT"
        [ -n "$HAPROXY1_PID" ] && is_alive "$HAPROXY1_PID" && echo "    HAProxy1 pid $HAPROXY1_PID  127.0.0.1:$HAPROXY1_PORT  (nbthread 1)"
        [ -n "$STRATA_PID" ] && is_alive "$STRATA_PID" && echo "    Strata   pid $STRATA_PID  127.0.0.1:$STRATA_PORT"
        [ -n "$STRATA_B_PID" ] && is_alive "$STRATA_B_PID" && echo "    Strata B pid $STRATA_B_PID  127.0.0.1:$STRATA_B_PORT  ($STRATA_DIST_B)"
        has_target strata && echo "    connect: $MARIADB -h127.0.0.1 -P$STRATA_PORT -usbtest -psbtest sbtest"
        local pids
        pids=$(echo $STRATA_B_PID $STRATA_PID $HAPROXY1_PID $HAPROXY_PID $MARIADB_PID)
        echo "    stop:    kill $pids; sleep 10; rm -rf $WORK_DIR"
        exit "$rc"
    fi
    if [ -n "$STRATA_B_PID$STRATA_PID$HAPROXY1_PID$HAPROXY_PID$MARIADB_PID" ]; then
        say "Stopping what this run started"
    fi
    [ -n "$STRATA_B_PID" ] && stop_pid "Strata B" "$STRATA_B_PID" 30
    [ -n "$STRATA_PID" ] && stop_pid Strata "$STRATA_PID" 30
    [ -n "$HAPROXY1_PID" ] && stop_pid "HAProxy (nbthread 1)" "$HAPROXY1_PID" 10
    [ -n "$HAPROXY_PID" ] && stop_pid HAProxy "$HAPROXY_PID" 10
    [ -n "$MARIADB_PID" ] && stop_pid MariaDB "$MARIADB_PID" 60
    if [ -n "$WORK_DIR" ] && [ -d "$WORK_DIR" ]; then
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 130 ] && [ "$rc" -ne 143 ]; then
            # A failed start: the messages above point into the temp folder, so keep its
            # logs (not the MariaDB data).
            rm -rf "$WORK_DIR/mariadb/data"
            echo "    logs kept in $WORK_DIR (remove it when done)"
        else
            rm -rf "$WORK_DIR"
        fi
    fi
    exit "$rc"
}

db_root() {
    "$MARIADB" --no-defaults --socket="$WORK_DIR/mariadb/mariadb.sock" -uroot "$@"
}

# A private MariaDB in its own data folder, sized to serve the data set from memory:
# the point is to measure the proxies, not the disk.
start_mariadb() {
    local dir=$WORK_DIR/mariadb as_root=()
    mkdir -p "$dir/data"
    [ "$(id -u)" -eq 0 ] && as_root=(--user=root)

    say "Creating a MariaDB data folder in $dir/data"
    local skip_test_db=() help
    help=$("$INSTALL_DB" --help 2>/dev/null || true)
    case "$help" in *--skip-test-db*) skip_test_db=(--skip-test-db) ;; esac
    # --auth-root-authentication-method=normal: root@localhost without a password, so the
    # socket login below works whoever runs the script (not only the OS user root).
    if ! "$INSTALL_DB" --no-defaults --datadir="$dir/data" "${as_root[@]}" "${skip_test_db[@]}" \
            --auth-root-authentication-method=normal > "$dir/install-db.log" 2>&1; then
        tail -n 20 "$dir/install-db.log" >&2
        die "mariadb-install-db failed (log: $dir/install-db.log)"
    fi

    say "Starting MariaDB on 127.0.0.1:$DB_PORT (buffer pool $BUFFER_POOL)"
    # --no-defaults: the system's /etc/mysql settings must not leak in.
    "$MARIADBD" --no-defaults "${as_root[@]}" \
        --datadir="$dir/data" --socket="$dir/mariadb.sock" --pid-file="$dir/mariadb.pid" \
        --port="$DB_PORT" --bind-address=127.0.0.1 --log-error="$dir/error.log" \
        --skip-name-resolve --skip-log-bin --performance-schema=OFF \
        --max-connections=2000 --innodb-buffer-pool-size="$BUFFER_POOL" \
        --innodb-log-file-size=256M --innodb-flush-log-at-trx-commit=2 \
        > "$dir/stdout.log" 2>&1 < /dev/null &
    MARIADB_PID=$!
    if ! wait_until 60 "$MARIADB_PID" "$MARIADB_ADMIN" --no-defaults --socket="$dir/mariadb.sock" -uroot ping; then
        tail -n 30 "$dir/error.log" >&2 || true
        die "MariaDB did not start (log: $dir/error.log)"
    fi

    # The anonymous users ''@'localhost' / ''@'<host>' would shadow sbtest@'%' for local
    # logins, so they go first.
    local drops
    drops=$(db_root -N -e "SELECT CONCAT('DROP USER ''''@''', host, ''';') FROM mysql.user WHERE user = ''")
    db_root -e "$drops
        CREATE DATABASE sbtest;
        CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest';
        GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%';" \
        || die "could not create the sbtest database and user"
}

# HAProxy as the reference of a proxy that only moves bytes: one TCP listener, one server.
start_haproxy() {
    start_haproxy_tcp "$WORK_DIR/haproxy" mariadb "$DB_PORT" bench/run.sh
}

# The same HAProxy held to one thread, on its own port: on a small machine the cheapest
# HAProxy there is, the other yardstick for Strata's CPU per query.
start_haproxy1() {
    start_haproxy_tcp_at HAPROXY1_PID "$HAPROXY1_PORT" 1 "$WORK_DIR/haproxy1" mariadb "$DB_PORT" \
        "bench/run.sh (haproxy1)"
}

# Strata from the distribution, with a configuration folder of our own.
start_strata() {
    start_strata_from Strata "$STRATA_DIST" "$STRATA_PORT" strata STRATA_PID STRATA_HOME
}

# The second build of an A/B run: its own copy, its own port, the same configuration.
start_strata_b() {
    start_strata_from "Strata B" "$STRATA_DIST_B" "$STRATA_B_PORT" strata-b STRATA_B_PID STRATA_B_HOME "$STRATA_RULES_B" \
        "$STRATA_SERVER_B" "$STRATA_JAVA_OPTS_B"
}

# Unpacks (or copies) a distribution into $WORK_DIR/<prefix>-dist, writes its configuration
# into $WORK_DIR/<prefix>-conf and starts it with bin/start.sh. Arguments: the name in the
# messages, distribution, port, folder prefix, and the names of the variables that get the
# pid (set as soon as start.sh wrote it, so that cleanup stops it whatever follows) and the
# Strata home; optionally a file with the rules: section (else the empty rule chain), lines
# for the server: section and JVM options (else STRATA_JAVA_OPTS).
start_strata_from() {
    local label=$1 dist=$2 port=$3 prefix=$4 pid_var=$5 home_var=$6 rules=${7:-} server_extra=${8:-} \
        java_opts=${9:-${STRATA_JAVA_OPTS:-}} home conf pid
    if [ -d "$dist" ]; then
        say "Copying the $label distribution $dist"
        cp -a "$dist" "$WORK_DIR/$prefix-dist"
        home=$WORK_DIR/$prefix-dist
        # A pid file copied along would make start.sh think this copy is already running.
        rm -f "$home/logs/strata.pid"
    else
        say "Unpacking $dist"
        mkdir -p "$WORK_DIR/$prefix-dist"
        tar -xzf "$dist" -C "$WORK_DIR/$prefix-dist" || die "cannot unpack $dist"
        home=$(find "$WORK_DIR/$prefix-dist" -mindepth 1 -maxdepth 3 -type f -path '*/bin/start.sh' | head -n 1)
        home=${home%/bin/start.sh}
    fi
    [ -n "$home" ] && [ -x "$home/bin/start.sh" ] || die "$dist holds no bin/start.sh"
    printf -v "$home_var" '%s' "$home"

    conf=$WORK_DIR/$prefix-conf
    mkdir -p "$conf"
    [ -f "$home/conf/logback.xml" ] && cp "$home/conf/logback.xml" "$conf/"
    cat > "$conf/server.yaml" <<EOF
# Written by bench/run.sh.
server:
  host: 127.0.0.1
  port: $port
$([ -n "${STRATA_WORKER_THREADS:-}" ] && echo "  workerThreads: $STRATA_WORKER_THREADS")
$(printf '%s\n' "$server_extra" | sed -e '/^$/d' -e 's/^/  /')
users:
  - { name: sbtest, password: sbtest, databases: [sbtest], admin: true }
EOF
    cat > "$conf/config-sbtest.yaml" <<EOF
# Written by bench/run.sh: the empty rule chain, i.e. a pass-through proxy.
databaseName: sbtest
dataSources:
  ds_0:
    url: "jdbc:mariadb://127.0.0.1:$DB_PORT/sbtest"
    username: sbtest
    password: sbtest
    maximumPoolSize: $STRATA_POOL
EOF
    if [ -n "$rules" ]; then
        # a data source for the rules to name; the same server, so nothing else differs
        cat >> "$conf/config-sbtest.yaml" <<EOF
  ds_shadow:
    url: "jdbc:mariadb://127.0.0.1:$DB_PORT/sbtest"
    username: sbtest
    password: sbtest
    maximumPoolSize: 4
EOF
        cat "$rules" >> "$conf/config-sbtest.yaml"
    else
        echo "rules: []" >> "$conf/config-sbtest.yaml"
    fi

    say "Starting $label on 127.0.0.1:$port (pool $STRATA_POOL, STRATA_JAVA_OPTS=${java_opts:-<start.sh default>})"
    if ! STRATA_JAVA_OPTS=$java_opts "$home/bin/start.sh" -c "$conf" -p "$port" > "$WORK_DIR/$prefix-start.log" 2>&1; then
        cat "$WORK_DIR/$prefix-start.log" >&2
        die "$label did not start"
    fi
    pid=$(tr -d '[:space:]' < "$home/logs/strata.pid")
    printf -v "$pid_var" '%s' "$pid"
    if ! wait_until 60 "$pid" "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$port" \
            -usbtest -psbtest sbtest -e "SELECT 1"; then
        tail -n 30 "$home/logs/stdout.log" >&2 || true
        die "$label does not answer on port $port (log: $home/logs/stdout.log)"
    fi
}

port_of() {
    case "$1" in
        direct) echo "$DB_PORT" ;;
        haproxy) echo "$HAPROXY_PORT" ;;
        haproxy1) echo "$HAPROXY1_PORT" ;;
        strata) echo "$STRATA_PORT" ;;
        strata_b) echo "$STRATA_B_PORT" ;;
    esac
}

# The process whose CPU a cell reports: the proxy, or MariaDB itself for direct.
cpu_pid_of() {
    case "$1" in
        direct) echo "$MARIADB_PID" ;;
        haproxy) echo "$HAPROXY_PID" ;;
        haproxy1) echo "$HAPROXY1_PID" ;;
        strata) echo "$STRATA_PID" ;;
        strata_b) echo "$STRATA_B_PID" ;;
    esac
}

cpu_name_of() {
    case "$1" in
        direct) echo mariadbd ;;
        haproxy) echo haproxy ;;
        haproxy1) echo "haproxy (nbthread 1)" ;;
        strata) echo strata ;;
        strata_b) echo "strata (B)" ;;
    esac
}

# ---- sysbench -------------------------------------------------------------------------

# Options every sysbench call shares (the data set, the account, the tolerated errors).
SB_COMMON=()
set_sysbench_common() {
    SB_COMMON=(--db-driver=mysql --mysql-host=127.0.0.1 --mysql-user=sbtest --mysql-password=sbtest
        --mysql-db=sbtest --tables="$TABLES" --table-size="$TABLE_SIZE"
        --mysql-ignore-errors="$IGNORE_ERRORS")
}

prepare_data() {
    say "Loading the data set: $TABLES tables x $TABLE_SIZE rows (sysbench prepare, direct)"
    local rc=0
    "$SYSBENCH" oltp_read_write "${SB_COMMON[@]}" --mysql-port="$DB_PORT" \
        --threads="$(( TABLES < 4 ? TABLES : 4 ))" prepare > "$WORK_DIR/prepare.log" 2>&1 || rc=$?
    exit_if_interrupted "$rc"
    if [ "$rc" -ne 0 ]; then
        tail -n 20 "$WORK_DIR/prepare.log" >&2
        die "sysbench prepare failed (log: $WORK_DIR/prepare.log)"
    fi
}

# JIT compilation and the buffer pool make the first seconds through a target slower
# than the rest; an unrecorded oltp_read_write (every kind of statement the workloads
# send) through each target, in each ps mode, keeps that out of the first cells. A
# matrix with more threads than that warm-up's 8 also warms each target at its largest
# thread count (oltp_point_select): many clients take code paths a few never reach (a
# pool grown to its maximum lends another event loop's connections; hundreds of clients
# wait for one), and the first cell at that count would otherwise measure the JIT at
# work rather than the proxy. (Without it, Strata's JIT compiler threads used 0.85
# CPU-seconds during the first 64-thread cell of --full, 0.07 during the next one, and
# that cell cost 46 us of Strata CPU per query against 37.)
warm_up() {
    [ "$WARMUP" -gt 0 ] || return 0
    local target n_ps secs max_threads
    n_ps=$(wc -w <<< "$PS_MODES")
    secs=$(( (WARMUP + n_ps - 1) / n_ps ))
    max_threads=$(tr ' ' '\n' <<< "$THREADS" | sort -n | tail -n 1)
    for target in $TARGETS; do
        say "Warm-up (not recorded): oltp_read_write, 8 threads, ${secs} s per ps mode ($PS_MODES) through $target"
        warm_up_with "$target" oltp_read_write 8 "$secs"
        if [ "$max_threads" -gt 8 ]; then
            say "Warm-up (not recorded): oltp_point_select, $max_threads threads, ${secs} s per ps mode through $target"
            warm_up_with "$target" oltp_point_select "$max_threads" "$secs"
        fi
    done
}

warm_up_with() {
    local target=$1 workload=$2 threads=$3 secs=$4 ps rc
    for ps in $PS_MODES; do
        rc=0
        timeout --foreground -k 10 $((secs + 60)) "$SYSBENCH" "$workload" "${SB_COMMON[@]}" \
            --mysql-port="$(port_of "$target")" --db-ps-mode="$ps" --threads="$threads" --time="$secs" \
            run > "$WORK_DIR/warmup-$target-$workload-$ps.log" 2>&1 || rc=$?
        exit_if_interrupted "$rc"
        [ "$rc" -eq 0 ] || echo "    warm-up through $target ($workload, $ps) failed (exit code $rc); the matrix will show it"
    done
}

# What sysbench runs for a workload: its own OLTP scripts by name, and the many-clients
# workloads as bench/autocommit/transactions.lua with their mode.
workload_args() {
    case "$1" in
        autocommit_on|autocommit_off)
            echo "$SCRIPT_DIR/autocommit/transactions.lua --autocommit=${1#autocommit_} --think-ms=$THINK_MS" ;;
        *) echo "$1" ;;
    esac
}

# Runs one cell and sets R_* to its results. Never exits on a failed sysbench.
run_cell() {
    local workload=$1 ps=$2 threads=$3 target=$4 round=$5
    local log="$WORK_DIR/cells/$workload-$ps-$threads-$target.log"
    [ "$ROUNDS" -gt 1 ] && log="${log%.log}-r$round.log"
    local pid db0 db1 p0 p1 s0 s1 j0 j1 rc=0
    pid=$(cpu_pid_of "$target")
    R_STATUS=ok R_NOTE="" R_QPS=0 R_P95="" R_ERRORS=0 R_CPU="" R_DBCPU="" R_QUERIES=0
    R_SYS="" R_JIT=""

    if ! is_alive "$pid"; then
        R_STATUS=FAILED R_NOTE="$(cpu_name_of "$target") process (pid $pid) is gone"
        return
    fi
    p0=$(cpu_ticks "$pid"); db0=$(cpu_ticks "$MARIADB_PID"); s0=$(cpu_ticks_split "$pid"); j0=$(jit_ticks "$pid")
    # --verbosity=4 makes sysbench say when the server refused a prepared statement and it
    # fell back to client-side emulation (which would silently turn an "auto" cell into a
    # text-protocol one). timeout: a stuck proxy fails the cell instead of the whole run.
    timeout --foreground -k 10 $((CELL_TIME + 60)) "$SYSBENCH" $(workload_args "$workload") "${SB_COMMON[@]}" \
        --mysql-port="$(port_of "$target")" --db-ps-mode="$ps" --threads="$threads" \
        --time="$CELL_TIME" --report-interval=0 --percentile=95 --verbosity=4 \
        run > "$log" 2>&1 || rc=$?
    exit_if_interrupted "$rc"
    p1=$(cpu_ticks "$pid"); db1=$(cpu_ticks "$MARIADB_PID"); s1=$(cpu_ticks_split "$pid"); j1=$(jit_ticks "$pid")

    R_CPU=$(cpu_seconds_between "$p0" "$p1")
    # of it, kernel time and (for a JVM) the JIT compiler threads' time
    R_SYS=$(cpu_seconds_between "${s0#* }" "${s1#* }")
    R_JIT=$(cpu_seconds_between "$j0" "$j1")
    R_DBCPU=$(cpu_seconds_between "$db0" "$db1")

    local ign rec
    ign=$(awk '/ignored errors:/ { print $3; exit }' "$log")
    rec=$(awk '/reconnects:/ { print $2; exit }' "$log")
    R_ERRORS=$(( ${ign:-0} + ${rec:-0} ))
    judge_sysbench_log "$log" "$rc" "$ps" "$CELL_TIME" || return 0
}

# The targets, turned left by $1 places: round r of a cell starts with the r-th target, so
# that over as many rounds as targets none always runs right after the same other one.
rotated() {
    local by=$1 n j
    shift
    local list=("$@")
    n=${#list[@]}
    for ((j = 0; j < n; j++)); do
        echo "${list[$(((j + by) % n))]}"
    done
}

# The median of the numbers given (blank ones skipped); blank when none.
median() {
    printf '%s\n' "$@" | awk 'NF' | sort -g | awk '{ v[++n] = $1 } END {
        if (n == 0) exit
        if (n % 2) printf "%s", v[(n + 1) / 2]; else printf "%.2f", (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# Runs one cell (workload, ps mode, threads) through every target, ROUNDS times, and records
# per target the rounds' mean QPS and CPU seconds, the median p95, all errors, and queries
# per CPU-second over all rounds. A round that fails fails the target's cell.
run_rounds() {
    local w=$1 ps=$2 t=$3 r target key
    local -A qps queries cpu sys jit dbcpu errors p95s status note
    for target in $TARGETS; do
        qps[$target]=0 queries[$target]=0 cpu[$target]=0 sys[$target]=0 jit[$target]=0 dbcpu[$target]=0 errors[$target]=0
        p95s[$target]="" status[$target]=ok note[$target]=""
    done
    for ((r = 1; r <= ROUNDS; r++)); do
        for target in $(rotated $((r - 1)) $TARGETS); do
            RUN_NO=$((RUN_NO + 1))
            run_cell "$w" "$ps" "$t" "$target" "$r"
            printf '  [%2d/%d] %-18s %-7s %3s thr %-8s%s qps %10s  p95 %7s ms  errors %4s  cpu %6s s (sys %5s, jit %5s)  %s\n' \
                "$RUN_NO" "$RUN_TOTAL" "$w" "$ps" "$t" "$target" "$([ "$ROUNDS" -gt 1 ] && echo " r$r")" \
                "$R_QPS" "${R_P95:--}" "$R_ERRORS" "${R_CPU:--}" "${R_SYS:--}" "${R_JIT:--}" \
                "$R_STATUS${R_NOTE:+: $R_NOTE}"
            if [ "$R_STATUS" != ok ] && [ "${status[$target]}" = ok ]; then
                status[$target]=$R_STATUS
                note[$target]=$R_NOTE
                [ "$ROUNDS" -gt 1 ] && note[$target]="round $r: $R_NOTE"
            fi
            qps[$target]=$(awk -v a="${qps[$target]}" -v b="$R_QPS" 'BEGIN { print a + b }')
            queries[$target]=$(( ${queries[$target]} + ${R_QUERIES:-0} ))
            cpu[$target]=$(awk -v a="${cpu[$target]}" -v b="${R_CPU:-0}" 'BEGIN { print a + b }')
            sys[$target]=$(awk -v a="${sys[$target]}" -v b="${R_SYS:-0}" 'BEGIN { print a + b }')
            jit[$target]=$(awk -v a="${jit[$target]}" -v b="${R_JIT:-0}" 'BEGIN { print a + b }')
            dbcpu[$target]=$(awk -v a="${dbcpu[$target]}" -v b="${R_DBCPU:-0}" 'BEGIN { print a + b }')
            errors[$target]=$(( ${errors[$target]} + R_ERRORS ))
            p95s[$target]="${p95s[$target]} $R_P95"
        done
    done
    for target in $TARGETS; do
        key="$w|$ps|$t|$target"
        CELLS+=("$key")
        RES_STATUS[$key]=${status[$target]} RES_NOTE[$key]=${note[$target]} RES_ERR[$key]=${errors[$target]}
        RES_CPU[$key]=$(awk -v c="${cpu[$target]}" -v n="$ROUNDS" 'BEGIN { printf "%.2f", c / n }')
        RES_DBCPU[$key]=$(awk -v c="${dbcpu[$target]}" -v n="$ROUNDS" 'BEGIN { printf "%.2f", c / n }')
        RES_JIT[$key]=$(awk -v c="${jit[$target]}" -v n="$ROUNDS" 'BEGIN { printf "%.2f", c / n }')
        # user and kernel CPU microseconds per query: where an L4 proxy and Strata differ
        RES_USRQ[$key]=$(awk -v c="${cpu[$target]}" -v s="${sys[$target]}" -v q="${queries[$target]}" \
            'BEGIN { if (q > 0) printf "%.1f", (c - s) * 1000000 / q }')
        RES_SYSQ[$key]=$(awk -v s="${sys[$target]}" -v q="${queries[$target]}" \
            'BEGIN { if (q > 0) printf "%.1f", s * 1000000 / q }')
        if [ "${status[$target]}" = ok ]; then
            RES_QPS[$key]=$(awk -v q="${qps[$target]}" -v n="$ROUNDS" 'BEGIN { printf "%.2f", q / n }')
            RES_P95[$key]=$(median ${p95s[$target]})
            RES_QPC[$key]=$(awk -v q="${queries[$target]}" -v c="${cpu[$target]}" \
                'BEGIN { if (c > 0) printf "%.0f", q / c }')
        else
            RES_QPS[$key]=0 RES_P95[$key]="" RES_QPC[$key]=""
        fi
    done
}

# ---- report ---------------------------------------------------------------------------

declare -A RES_QPS RES_P95 RES_ERR RES_CPU RES_DBCPU RES_QPC RES_STATUS RES_NOTE RES_JIT RES_USRQ RES_SYSQ
CELLS=()

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && a > 0 && b > 0) printf "%.3f", a / b }'
}

# The ratios of a cell's row, blank where they do not apply: on the rows of both Strata
# builds, their QPS over direct's, QPS and queries per CPU-second over haproxy's (RT_H,
# RT_HC) and haproxy1's (RT_H1, RT_H1C); on strata_b's rows also QPS and queries per
# CPU-second over strata's, i.e. B over A (RT_B, RT_BC).
ratios_of() {
    local key=$1 w ps t target cell
    IFS='|' read -r w ps t target <<< "$key"
    cell="$w|$ps|$t"
    RT_D="" RT_H="" RT_HC="" RT_H1="" RT_H1C="" RT_B="" RT_BC=""
    case "$target" in strata|strata_b) ;; *) return 0 ;; esac
    RT_D=$(ratio "${RES_QPS[$key]}" "${RES_QPS[$cell|direct]:-}")
    RT_H=$(ratio "${RES_QPS[$key]}" "${RES_QPS[$cell|haproxy]:-}")
    RT_HC=$(ratio "${RES_QPC[$key]}" "${RES_QPC[$cell|haproxy]:-}")
    RT_H1=$(ratio "${RES_QPS[$key]}" "${RES_QPS[$cell|haproxy1]:-}")
    RT_H1C=$(ratio "${RES_QPC[$key]}" "${RES_QPC[$cell|haproxy1]:-}")
    if [ "$target" = strata_b ]; then
        RT_B=$(ratio "${RES_QPS[$key]}" "${RES_QPS[$cell|strata]:-}")
        RT_BC=$(ratio "${RES_QPC[$key]}" "${RES_QPC[$cell|strata]:-}")
    fi
    return 0
}

machine_info() {
    local cpu mem
    cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)
    echo "Command:   $ORIG_COMMAND"
    echo "Machine:   $(nproc) CPUs, ${cpu:-unknown CPU}, $mem, kernel $(uname -r)"
    [ -r /etc/os-release ] && echo "OS:        $(. /etc/os-release && echo "$PRETTY_NAME")"
    echo "MariaDB:   $("$MARIADBD" --version 2>/dev/null | head -n 1)"
    echo "HAProxy:   $("$HAPROXY" -v 2>/dev/null | head -n 1); haproxy: nbthread $(nproc), haproxy1: nbthread 1"
    echo "sysbench:  $("$SYSBENCH" --version 2>/dev/null | head -n 1)"
    echo "Java:      $("$JAVA_BIN" -version 2>&1 | head -n 1) ($JAVA_BIN)"
    echo "Strata:    $STRATA_DIST (pool $STRATA_POOL, STRATA_JAVA_OPTS=${STRATA_JAVA_OPTS:-<start.sh default>})"
    if [ -n "$STRATA_RULES_B" ]; then
        echo "Strata B:  $STRATA_DIST_B (target strata_b, with the rules of $STRATA_RULES_B)"
    elif [ -n "$STRATA_DIST_B" ]; then
        echo "Strata B:  $STRATA_DIST_B (target strata_b, the same configuration and options)"
    fi
    [ -n "$STRATA_SERVER_B" ] && echo "Strata B server: $(printf '%s' "$STRATA_SERVER_B" | tr '\n' ' ')"
    [ -n "$STRATA_JAVA_OPTS_B" ] && echo "Strata B JVM options: $STRATA_JAVA_OPTS_B"

    echo "Before:    CPUs ${BUSY_AT_START}% busy in the second before start; load average $LOAD_AT_START"
    [ -n "$INSTALLED_PACKAGES" ] && echo "Installed: $INSTALLED_PACKAGES (apt-get, by this run)"
    echo "Data set:  $TABLES tables x $TABLE_SIZE rows, MariaDB buffer pool $BUFFER_POOL; ${CELL_TIME} s per cell, ${WARMUP} s warm-up per target$([ "$ROUNDS" -gt 1 ] && echo "; $ROUNDS rounds per cell, targets rotated (QPS, CPU: means; p95: median)")"
}

# The ratio columns against haproxy1 show when it is a target, and the A/B ones when
# strata_b is: a run without them prints the table as before.
print_table() {
    local key w ps t target cpu dbq show_h1=0 show_b=0
    has_target haproxy1 && show_h1=1
    has_target strata_b && show_b=1
    table_row workload ps thr target qps p95_ms errors "proxy_cpu_s" "q/cpu_s" "s/direct" "s/haprx" "s/h q/cpu" \
        "s/haprx1" "s/h1 q/cpu" "b/a" "b/a q/cpu" "db_us/q" "usr_us/q" "sys_us/q" "jit_s" status
    for key in "${CELLS[@]}"; do
        IFS='|' read -r w ps t target <<< "$key"
        cpu=${RES_CPU[$key]}
        [ -n "$cpu" ] && [ "$target" = direct ] && cpu="$cpu (mariadbd)"
        # mariadbd's CPU per query through this target: what multiplexing saves the server shows here
        dbq=$(awk -v c="${RES_DBCPU[$key]}" -v q="${RES_QPS[$key]}" -v t="$CELL_TIME" \
            'BEGIN { if (c != "" && q > 0) printf "%.1f", c * 1000000 / (q * t) }')
        ratios_of "$key"
        table_row "$w" "$ps" "$t" "$target" "${RES_QPS[$key]}" "${RES_P95[$key]:--}" "${RES_ERR[$key]}" \
            "${cpu:--}" "${RES_QPC[$key]:--}" "${RT_D:--}" "${RT_H:--}" "${RT_HC:--}" \
            "${RT_H1:--}" "${RT_H1C:--}" "${RT_B:--}" "${RT_BC:--}" "${dbq:--}" "${RES_USRQ[$key]:--}" \
            "${RES_SYSQ[$key]:--}" "${RES_JIT[$key]:--}" "${RES_STATUS[$key]}"
    done
}

# One line of the table: the 21 columns of print_table, less those it leaves out
# (show_h1, show_b of the caller).
table_row() {
    printf '%-18s %-7s %4s %-8s %10s %8s %6s %16s %10s %8s %8s %9s' "${@:1:12}"
    [ "$show_h1" -eq 1 ] && printf ' %8s %10s' "${13}" "${14}"
    [ "$show_b" -eq 1 ] && printf ' %8s %9s' "${15}" "${16}"
    printf ' %8s %8s %8s %6s  %s\n' "${17}" "${18}" "${19}" "${20}" "${21}"
}

# The temp folder goes away at the end: keep the sysbench output of every failed cell,
# and Strata's logs when a Strata cell failed, next to the results.
save_failure_logs() {
    local dir=$1 key w ps t target log f strata_failed=0 strata_b_failed=0
    for key in "${CELLS[@]}"; do
        [ "${RES_STATUS[$key]}" = ok ] && continue
        IFS='|' read -r w ps t target <<< "$key"
        mkdir -p "$dir"
        for log in "$WORK_DIR/cells/$w-$ps-$t-$target".log "$WORK_DIR/cells/$w-$ps-$t-$target"-r*.log; do
            [ -f "$log" ] && cp "$log" "$dir/"
        done
        [ "$target" = strata ] && strata_failed=1
        [ "$target" = strata_b ] && strata_b_failed=1
    done
    if [ "$strata_failed" -eq 1 ] && [ -n "${STRATA_HOME:-}" ]; then
        cp "$STRATA_HOME"/logs/*.log "$dir/" 2>/dev/null || true
    fi
    # Build B's logs have the same names: they go in as strata_b-<name>.
    if [ "$strata_b_failed" -eq 1 ] && [ -n "${STRATA_B_HOME:-}" ]; then
        for f in "$STRATA_B_HOME"/logs/*.log; do
            [ -f "$f" ] && cp "$f" "$dir/strata_b-$(basename "$f")"
        done
    fi
    [ -d "$dir" ] && echo "Logs of the failed cells: $dir"
    return 0
}

# The columns of the runs before haproxy1 and strata_b keep their places; the ratios against
# haproxy1 and strata_b's over strata come after the note (always, blank when not measured).
write_csv() {
    local file=$1 key w ps t target
    {
        echo "workload,ps_mode,threads,target,qps,p95_ms,errors,proxy_cpu_s,qps_per_proxy_cpu_s,strata_over_direct_qps,strata_over_haproxy_qps,strata_over_haproxy_qps_per_proxy_cpu_s,status,cpu_process,db_cpu_s,note,strata_over_haproxy1_qps,strata_over_haproxy1_qps_per_proxy_cpu_s,strata_b_over_strata_qps,strata_b_over_strata_qps_per_proxy_cpu_s,user_us_per_query,system_us_per_query,jit_cpu_s"
        for key in "${CELLS[@]}"; do
            IFS='|' read -r w ps t target <<< "$key"
            ratios_of "$key"
            echo "$w,$ps,$t,$target,${RES_QPS[$key]},${RES_P95[$key]},${RES_ERR[$key]},${RES_CPU[$key]},${RES_QPC[$key]},$RT_D,$RT_H,$RT_HC,${RES_STATUS[$key]},$(cpu_name_of "$target"),${RES_DBCPU[$key]},$(csv_field "${RES_NOTE[$key]}"),$RT_H1,$RT_H1C,$RT_B,$RT_BC,${RES_USRQ[$key]},${RES_SYSQ[$key]},${RES_JIT[$key]}"
        done
    } > "$file"
}

# ---- main -----------------------------------------------------------------------------

main() {
    parse_args "$@"
    set_sysbench_common
    install_missing haproxy
    locate_tools
    select_java
    locate_strata_dist
    check_ports
    check_idle

    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    WORK_DIR=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench.XXXXXX")
    mkdir -p "$WORK_DIR/cells"
    say "Temp folder: $WORK_DIR"

    start_mariadb
    has_target haproxy && start_haproxy
    has_target haproxy1 && start_haproxy1
    has_target strata && start_strata
    has_target strata_b && start_strata_b
    prepare_data
    warm_up

    local n_w n_p n_t n_g w ps t
    n_w=$(wc -w <<< "$WORKLOADS"); n_p=$(wc -w <<< "$PS_MODES")
    n_t=$(wc -w <<< "$THREADS"); n_g=$(wc -w <<< "$TARGETS")
    RUN_TOTAL=$((n_w * n_p * n_t * n_g * ROUNDS)) RUN_NO=0
    [ "$MANY_CLIENTS" -gt 0 ] && RUN_TOTAL=$((RUN_TOTAL + 2 * n_p * n_g * ROUNDS))
    say "Running $RUN_TOTAL cells of ${CELL_TIME} s (about $(( RUN_TOTAL * (CELL_TIME + 1) / 60 + 1 )) min)"
    for w in $WORKLOADS; do
        for ps in $PS_MODES; do
            for t in $THREADS; do
                run_rounds "$w" "$ps" "$t"
            done
        done
    done
    # The many-clients cells, autocommit on and off side by side: a session with autocommit
    # off must share the pool between its transactions as one with it on does.
    if [ "$MANY_CLIENTS" -gt 0 ]; then
        for ps in $PS_MODES; do
            for w in autocommit_on autocommit_off; do
                run_rounds "$w" "$ps" "$MANY_CLIENTS"
            done
        done
    fi

    mkdir -p "$RESULTS_DIR"
    local stamp csv txt
    stamp=$(date +%Y%m%d-%H%M%S)
    csv="$RESULTS_DIR/$stamp.csv"
    txt="$RESULTS_DIR/$stamp.txt"
    write_csv "$csv"
    {
        echo
        machine_info
        echo
        print_table
        print_failed_cells CELLS RES_STATUS RES_NOTE
        save_failure_logs "$RESULTS_DIR/$stamp-failed"
        echo
        echo "proxy_cpu_s: CPU seconds (user+system) of the proxy process during the cell; for direct,"
        echo "of mariadbd. q/cpu_s: queries per proxy CPU-second. s/direct, s/haprx: Strata's QPS over"
        echo "direct's and HAProxy's (nbthread $(nproc)); s/h q/cpu: Strata's queries per CPU-second over HAProxy's."
        if has_target haproxy1; then
            echo "s/haprx1, s/h1 q/cpu: the same against haproxy1, HAProxy with nbthread 1 (on a small"
            echo "machine the cheapest HAProxy per query)."
        fi
        if has_target strata_b; then
            echo "strata_b: the second build (--strata-dist-b); its rows carry its own ratios, and"
            echo "b/a, b/a q/cpu: its QPS and queries per CPU-second over strata's in the same cell (B over A;"
            echo "q/cpu is the steadier of the two)."
        fi
        echo "db_us/q: mariadbd's CPU microseconds per query through the target (multiplexing lowers it)."
        echo "usr_us/q, sys_us/q: the proxy's user and kernel CPU microseconds per query (an L4 proxy's"
        echo "are mostly kernel: the same sends and receives). jit_s: of proxy_cpu_s, the CPU seconds of"
        echo "a JVM's JIT compiler threads (well above 0: the cell measured compilation too)."
        if [ "$MANY_CLIENTS" -gt 0 ]; then
            echo "autocommit_on / autocommit_off: $MANY_CLIENTS clients, ${THINK_MS} ms between transactions; a transaction"
            echo "is 4 statements with autocommit on (BEGIN) and 3 with it off: at equal transactions per"
            echo "second, autocommit_off shows 3/4 of autocommit_on's QPS."
        fi
    } | tee "$txt"
    echo
    say "Results: $csv"
    say "Report:  $txt"
}

main "$@"
