#!/usr/bin/env bash
#
# bench/sharding/run.sh: Strata's SHARDING rule against Apache ShardingSphere-Proxy, with sysbench,
# on the same sharded layout.
#
# On one machine it starts a private MariaDB with three schemas: sbtest (sysbench prepare: all rows)
# and sbtest_0, sbtest_1 (the rows with id % 2 = 0 and = 1, copied from sbtest with INSERT ... SELECT,
# so that both proxies see the same data). Then it starts, each on its own port:
#
#   shardingsphere  ShardingSphere-Proxy (from Maven Central, see shardingsphere-pom.xml) with a
#                   SHARDING rule: every sbtest table on ds_0 = sbtest_0 and ds_1 = sbtest_1, the data
#                   source chosen by id with the MOD algorithm (sharding-count 2), no table strategy
#   strata          Strata (from the distribution tarball) with the same rule, written as Strata
#                   reads ShardingSphere's YAML ("- type: SHARDING" for "- !SHARDING")
#   strata_empty    Strata with the empty rule chain in front of the one unsharded schema sbtest:
#                   the yardstick of what sharding costs Strata
#
# and runs the sysbench matrix workload x ps-mode x threads with the targets back to back in every
# cell (the order rotated per round), as bench/run.sh does. It prints a table and writes
# bench/results/sharding-<timestamp>.csv (and .txt).
#
# A Strata build without the SHARDING rule refuses the configuration ("rules[0].type: expected one
# of [...]"): the script says so, skips target strata and runs the others.
#
# Everything it starts is stopped at the end (by pid), and its temp folder is removed, unless
# --keep. Run `bench/sharding/run.sh --help` for the options.

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
# Helpers the benchmark scripts share (messages, tools, JDK choice, processes, waiting, sysbench logs).
. "$BENCH_DIR/common.sh"
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
RESULTS_DIR="$BENCH_DIR/results"
ORIG_COMMAND=$(printf '%q ' "$0" "$@")
ORIG_COMMAND=${ORIG_COMMAND% }

MIN_JAVA=21
JVM_DIR=/usr/lib/jvm
ALL_TARGETS="shardingsphere strata strata_empty strata_b"
ALL_WORKLOADS="oltp_point_select oltp_read_only oltp_read_write"
ALL_PS_MODES="auto disable"
# The errors sysbench itself tolerates in its OLTP scripts (deadlock, lock wait timeout, record
# changed): counted as "ignored errors", and shown.
IGNORE_ERRORS="1213,1205,1020"
# The newest shardingsphere-proxy-bootstrap on Maven Central (it holds 5.0.0 and 5.1.0 only; later
# proxies are published as binary distributions, not to Central), and its dependencies resolve.
SS_DEFAULT_VERSION=5.1.0
# The two shards: data source ds_k is schema sbtest_k.
SHARDS=2

# ---- options --------------------------------------------------------------------------

CELL_TIME=10
ROUNDS=1
WARMUP=60
TARGETS="shardingsphere strata strata_empty"
WORKLOADS=$ALL_WORKLOADS
PS_MODES=$ALL_PS_MODES
THREADS="4 64"
TABLES=4
TABLE_SIZE=100000
STRATA_DIST=""
STRATA_DIST_B=""
STRATA_POOL=64
SS_VERSION=$SS_DEFAULT_VERSION
SS_LIB=""
SS_JAVA_HOME=${SS_JAVA_HOME:-}
BASE_PORT=13406
KEEP=0

usage() {
    cat <<EOF
Usage: bench/sharding/run.sh [options]

Compares Strata's SHARDING rule with Apache ShardingSphere-Proxy on the same sharded layout:
sysbench's sbtest tables sharded by id over two data sources (MOD, sharding-count 2), two
schemas of one private MariaDB. Installs sysbench, mariadb-server and mariadb-client with
apt-get when they are missing; fetches ShardingSphere-Proxy from Maven Central with ./mvnw
the first time (into ~/.cache/strata-bench/shardingsphere-<version>/lib).

Targets (every cell runs through each, back to back, the order rotated per round):
  shardingsphere       ShardingSphere-Proxy $SS_DEFAULT_VERSION with the SHARDING rule
  strata               Strata from --strata-dist with the same SHARDING rule (skipped, with a
                       message, when that build has no SHARDING rule)
  strata_empty         Strata with the empty rule chain in front of ONE unsharded schema that
                       holds all rows: Strata's own cost without sharding
  strata_b             a second Strata build (--strata-dist-b) with the same SHARDING rule, for
                       an A/B of two builds in one run (added by --strata-dist-b)

Matrix (comma- or space-separated lists):
  --time SECONDS       seconds per cell (default $CELL_TIME)
  --rounds N           run every cell N times, the targets in a rotated order each round;
                       QPS and CPU are the rounds' means, p95 their median (default $ROUNDS)
  --warmup SECONDS     unrecorded run of every workload through each target before the
                       matrix (8 threads; the seconds split over workloads and ps modes), plus
                       oltp_point_select at the largest thread count when it is above 8
                       (default $WARMUP; 0 = none)
  --targets LIST       of: $ALL_TARGETS (default: all but strata_b)
  --workloads LIST     sysbench scripts (default: $ALL_WORKLOADS)
  --threads LIST       sysbench thread counts (default: $THREADS)
  --ps-modes LIST      sysbench --db-ps-mode values, of: $ALL_PS_MODES (default: both)
  --tables N           number of sbtest tables (default $TABLES)
  --table-size N       rows per table (default $TABLE_SIZE)

Setup:
  --strata-dist PATH   Strata distribution tarball (.tar.gz) or unpacked folder; default: the
                       newest distribution/target/strata-proxy-*-bin.tar.gz of this repo
  --strata-dist-b PATH another build as target strata_b (port N+4); the report adds its QPS and
                       queries per CPU-second over strata's, cell by cell
  --strata-pool N      maximumPoolSize per data source of both Strata targets, and maxPoolSize
                       per data source of ShardingSphere (default $STRATA_POOL)
  --shardingsphere-version V
                       shardingsphere-proxy-bootstrap version from Maven Central (default
                       $SS_DEFAULT_VERSION, the newest there; the configuration written is 5.1's)
  --shardingsphere-lib DIR
                       a folder of ShardingSphere-Proxy jars to use instead of fetching them
  --base-port N        MariaDB on N, ShardingSphere on N+1, Strata on N+2, strata_empty on N+3
                       (default $BASE_PORT)
  --keep               leave everything running at the end and keep the temp folder
  -h, --help           this help

Environment:
  JAVA_HOME            JDK for Strata (>= $MIN_JAVA; else the newest JDK >= $MIN_JAVA under $JVM_DIR)
  SS_JAVA_HOME         JDK for ShardingSphere-Proxy (default: the same as Strata's)
  SS_JAVA_OPTS         JVM options for ShardingSphere-Proxy (default: those of its own bin/start.sh)
  STRATA_JAVA_OPTS     JVM options for Strata (default: those of its bin/start.sh)

Output: a table on the terminal, and bench/results/sharding-<timestamp>.csv and .txt.
EOF
}

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --time) need_value "$@"; CELL_TIME=$2; shift ;;
            --rounds) need_value "$@"; ROUNDS=$2; shift ;;
            --warmup) need_value "$@"; WARMUP=$2; shift ;;
            --targets) need_value "$@"; TARGETS=$(split_list "$2"); shift ;;
            --workloads) need_value "$@"; WORKLOADS=$(split_list "$2"); shift ;;
            --threads) need_value "$@"; THREADS=$(split_list "$2"); shift ;;
            --ps-modes) need_value "$@"; PS_MODES=$(split_list "$2"); shift ;;
            --tables) need_value "$@"; TABLES=$2; shift ;;
            --table-size) need_value "$@"; TABLE_SIZE=$2; shift ;;
            --strata-dist) need_value "$@"; STRATA_DIST=$2; shift ;;
            --strata-dist-b) need_value "$@"; STRATA_DIST_B=$2; shift ;;
            --strata-pool) need_value "$@"; STRATA_POOL=$2; shift ;;
            --shardingsphere-version) need_value "$@"; SS_VERSION=$2; shift ;;
            --shardingsphere-lib) need_value "$@"; SS_LIB=$2; shift ;;
            --base-port) need_value "$@"; BASE_PORT=$2; shift ;;
            --keep) KEEP=1 ;;
            -h|--help) usage; exit 0 ;;
            *) die "unknown option: $1 (see --help)" ;;
        esac
        shift
    done

    local n t
    if [ -n "$STRATA_DIST_B" ]; then
        [ -e "$STRATA_DIST_B" ] || die "--strata-dist-b: $STRATA_DIST_B does not exist"
        STRATA_DIST_B=$(cd "$(dirname "$STRATA_DIST_B")" && pwd)/$(basename "$STRATA_DIST_B")
        has_target strata_b || TARGETS="$TARGETS strata_b"
    fi
    has_target strata_b && [ -z "$STRATA_DIST_B" ] && die "target strata_b needs --strata-dist-b"
    for n in "$CELL_TIME" "$WARMUP" "$TABLES" "$TABLE_SIZE" "$STRATA_POOL" "$BASE_PORT" "$ROUNDS" $THREADS; do
        case "$n" in ''|*[!0-9]*) die "expected a whole number, got '$n'" ;; esac
    done
    [ "$CELL_TIME" -ge 1 ] || die "--time must be at least 1"
    [ "$ROUNDS" -ge 1 ] || die "--rounds must be at least 1"
    [ "$TABLES" -ge 1 ] && [ "$TABLE_SIZE" -ge 1 ] || die "--tables and --table-size must be at least 1"
    [ "$BASE_PORT" -ge 1024 ] && [ "$BASE_PORT" -le 65532 ] || die "--base-port must be in 1024..65532"
    for t in $THREADS; do [ "$t" -ge 1 ] || die "thread counts must be at least 1"; done
    for t in $TARGETS; do
        case " $ALL_TARGETS " in *" $t "*) ;; *) die "unknown target '$t' (known: $ALL_TARGETS)" ;; esac
    done
    for t in $PS_MODES; do
        case " $ALL_PS_MODES " in *" $t "*) ;; *) die "unknown ps-mode '$t' (known: $ALL_PS_MODES)" ;; esac
    done
    [ -n "$TARGETS" ] && [ -n "$WORKLOADS" ] && [ -n "$PS_MODES" ] && [ -n "$THREADS" ] \
        || die "--targets, --workloads, --threads and --ps-modes may not be empty"
    case "$SS_VERSION" in *[!0-9A-Za-z.-]*|'') die "--shardingsphere-version: not a version: '$SS_VERSION'" ;; esac

    # Every read from memory: about 250 bytes a row with its index entries, three copies of the
    # data set (sbtest, and sbtest_0 + sbtest_1), 4x headroom, at least 256M.
    local need_mb=$(( 3 * TABLES * TABLE_SIZE * 1000 / 1048576 + 1 ))
    [ "$need_mb" -lt 256 ] && need_mb=256
    BUFFER_POOL="${need_mb}M"

    DB_PORT=$BASE_PORT
    SS_PORT=$((BASE_PORT + 1))
    STRATA_PORT=$((BASE_PORT + 2))
    EMPTY_PORT=$((BASE_PORT + 3))
    STRATA_B_PORT=$((BASE_PORT + 4))
}

has_target() {
    case " $TARGETS " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

# ---- tools ----------------------------------------------------------------------------

locate_tools() {
    SYSBENCH=$(find_bin sysbench) || die "sysbench not found"
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

locate_strata_dist() {
    if [ -z "$STRATA_DIST" ]; then
        STRATA_DIST=$(ls -t "$REPO_DIR"/distribution/target/strata-proxy-*-bin.tar.gz 2>/dev/null | head -n 1 || true)
        [ -n "$STRATA_DIST" ] || die "no Strata distribution in $REPO_DIR/distribution/target; build it with
       ./mvnw -DskipTests install    or pass --strata-dist PATH"
    fi
    [ -e "$STRATA_DIST" ] || die "--strata-dist: $STRATA_DIST does not exist"
    STRATA_DIST=$(cd "$(dirname "$STRATA_DIST")" && pwd)/$(basename "$STRATA_DIST")
}

# The JDK of ShardingSphere-Proxy: SS_JAVA_HOME, else Strata's (select_java ran before), so that
# both proxies run on the same JIT and GC. 5.1.0 (built for Java 8) starts and serves every workload
# of this benchmark on Temurin 25; its start script knows Java 8, 11 and 17 and adds options for
# those only (SS_JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 gets its Java 17 options).
select_ss_java() {
    if [ -n "$SS_JAVA_HOME" ]; then
        [ -x "$SS_JAVA_HOME/bin/java" ] || die "SS_JAVA_HOME=$SS_JAVA_HOME has no bin/java"
        SS_JAVA=$SS_JAVA_HOME/bin/java
    else
        SS_JAVA=$JAVA_BIN
    fi
    SS_JAVA_MAJOR=$(java_major "$SS_JAVA")
}

# The JVM options of ShardingSphere-Proxy's own bin/start.sh (5.x): a 2 GB heap with a 1 GB young
# generation, and for Java 17 (and 11) the options it adds for that version. No tuning of ours.
ss_default_java_opts() {
    local opts="-Djava.awt.headless=true -server -Xmx2g -Xms2g -Xmn1g -Xss1m -XX:AutoBoxCacheMax=4096 -XX:+UseNUMA"
    opts="$opts -XX:+DisableExplicitGC -XX:LargePageSizeInBytes=128m -Dio.netty.leakDetection.level=DISABLED"
    case "$SS_JAVA_MAJOR" in
        8) opts="$opts -XX:+UseConcMarkSweepGC -XX:+UseCMSInitiatingOccupancyOnly -XX:CMSInitiatingOccupancyFraction=70" ;;
        11|17) opts="$opts -XX:+SegmentedCodeCache -XX:+AggressiveHeap" ;;
    esac
    echo "$opts"
}

# ShardingSphere-Proxy's jars: --shardingsphere-lib, or ~/.cache/strata-bench/shardingsphere-<v>/lib,
# fetched from Maven Central with the repo's ./mvnw and shardingsphere-pom.xml when missing.
ensure_shardingsphere() {
    if [ -n "$SS_LIB" ]; then
        [ -d "$SS_LIB" ] || die "--shardingsphere-lib: no folder $SS_LIB"
        SS_LIB=$(cd "$SS_LIB" && pwd)
    else
        local cache=${XDG_CACHE_HOME:-$HOME/.cache}/strata-bench/shardingsphere-$SS_VERSION
        SS_LIB=$cache/lib
        if ! ls "$SS_LIB"/shardingsphere-proxy-bootstrap-*.jar >/dev/null 2>&1; then
            say "Fetching ShardingSphere-Proxy $SS_VERSION from Maven Central into $SS_LIB (once; ./mvnw dependency:copy-dependencies)"
            mkdir -p "$cache"
            rm -rf "$cache/lib.partial"
            local rc=0
            (cd "$REPO_DIR" && JAVA_HOME=${JAVA_BIN%/bin/java} ./mvnw -B -q -f "$SCRIPT_DIR/shardingsphere-pom.xml" \
                -Dshardingsphere.version="$SS_VERSION" -Dlib.dir="$cache/lib.partial" \
                dependency:copy-dependencies) > "$cache/fetch.log" 2>&1 || rc=$?
            if [ "$rc" -ne 0 ]; then
                grep -E 'ERROR' "$cache/fetch.log" | head -n 5 >&2 || true
                die "could not fetch shardingsphere-proxy-bootstrap $SS_VERSION and its dependencies from Maven Central (log: $cache/fetch.log)"
            fi
            mv "$cache/lib.partial" "$SS_LIB"
        fi
    fi
    ls "$SS_LIB"/shardingsphere-proxy-bootstrap-*.jar >/dev/null 2>&1 \
        || die "$SS_LIB holds no shardingsphere-proxy-bootstrap jar"
    SS_JAR_VERSION=$(basename "$(ls "$SS_LIB"/shardingsphere-proxy-bootstrap-*.jar | head -n 1)" .jar)
    SS_JAR_VERSION=${SS_JAR_VERSION#shardingsphere-proxy-bootstrap-}
}

cpu_busy_percent() {
    local a b
    a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6; exit }' /proc/stat)
    sleep 1
    b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6; exit }' /proc/stat)
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ");
        busy = y[1] - x[1]; idle = y[2] - x[2];
        printf "%d", (busy + idle > 0) ? 100 * busy / (busy + idle) : 0 }'
}

check_idle() {
    LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
    BUSY_AT_START=$(cpu_busy_percent 2>/dev/null || echo "?")
    if [ "$BUSY_AT_START" != "?" ] && [ "$BUSY_AT_START" -ge 25 ]; then
        echo "WARNING: the CPUs are ${BUSY_AT_START}% busy before the benchmark starts; results will be noisy."
        ps -eo pid=,pcpu=,comm= --sort=-pcpu 2>/dev/null | head -n 5 | sed 's/^/           /' || true
    fi
    return 0
}

check_ports() {
    local p t
    for p in "$DB_PORT" $(for t in $TARGETS; do port_of "$t"; done); do
        port_in_use "$p" && die "port $p is in use; pick other ports with --base-port N (uses N..N+4)"
    done
    return 0
}

# ---- processes we start ------------------------------------------------------------------

WORK_DIR=""
MARIADB_PID=""
SS_PID=""
STRATA_PID=""
EMPTY_PID=""
STRATA_B_PID=""
STRATA_HOME=""
STRATA_B_HOME=""
EMPTY_HOME=""
STRATA_SKIPPED=""
LOAD_AT_START="?"
BUSY_AT_START="?"
INSTALLED_PACKAGES=""

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [ "$KEEP" -eq 1 ] && [ -n "$WORK_DIR" ]; then
        echo
        say "--keep: left running (temp folder $WORK_DIR):"
        [ -n "$MARIADB_PID" ] && is_alive "$MARIADB_PID" && echo "    MariaDB         pid $MARIADB_PID  127.0.0.1:$DB_PORT"
        [ -n "$SS_PID" ] && is_alive "$SS_PID" && echo "    ShardingSphere  pid $SS_PID  127.0.0.1:$SS_PORT"
        [ -n "$STRATA_PID" ] && is_alive "$STRATA_PID" && echo "    Strata          pid $STRATA_PID  127.0.0.1:$STRATA_PORT"
        [ -n "$EMPTY_PID" ] && is_alive "$EMPTY_PID" && echo "    Strata (empty)  pid $EMPTY_PID  127.0.0.1:$EMPTY_PORT"
        [ -n "$STRATA_B_PID" ] && is_alive "$STRATA_B_PID" && echo "    Strata B        pid $STRATA_B_PID  127.0.0.1:$STRATA_B_PORT"
        echo "    connect: $MARIADB -h127.0.0.1 -P<port> -usbtest -psbtest sbtest"
        echo "    stop:    kill $(echo $STRATA_B_PID $EMPTY_PID $STRATA_PID $SS_PID $MARIADB_PID); sleep 10; rm -rf $WORK_DIR"
        exit "$rc"
    fi
    if [ -n "$STRATA_B_PID$EMPTY_PID$STRATA_PID$SS_PID$MARIADB_PID" ]; then
        say "Stopping what this run started"
    fi
    [ -n "$STRATA_B_PID" ] && stop_pid "Strata B" "$STRATA_B_PID" 30
    [ -n "$EMPTY_PID" ] && stop_pid "Strata (empty rules)" "$EMPTY_PID" 30
    [ -n "$STRATA_PID" ] && stop_pid Strata "$STRATA_PID" 30
    [ -n "$SS_PID" ] && stop_pid ShardingSphere-Proxy "$SS_PID" 30
    [ -n "$MARIADB_PID" ] && stop_pid MariaDB "$MARIADB_PID" 60
    if [ -n "$WORK_DIR" ] && [ -d "$WORK_DIR" ]; then
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 130 ] && [ "$rc" -ne 143 ]; then
            rm -rf "$WORK_DIR/mariadb/data"
            echo "    logs kept in $WORK_DIR (remove it when done)"
        else
            rm -rf "$WORK_DIR"
        fi
    fi
    exit "$rc"
}

# Runs a command (exec) with no open file descriptors but 0-2, in the subshell it is called in:
# a server must not inherit what this script had open, such as the lock of
# `flock LOCK bench/sharding/run.sh`, which a server left running by --keep would hold on to.
exec_without_extra_fds() {
    local fd
    for fd in /proc/"$BASHPID"/fd/*; do
        fd=${fd##*/}
        case "$fd" in 0|1|2) ;; *) eval "exec $fd>&-" 2>/dev/null || true ;; esac
    done
    exec "$@"
}

db_root() {
    "$MARIADB" --no-defaults --socket="$WORK_DIR/mariadb/mariadb.sock" -uroot "$@"
}

# A private MariaDB in its own data folder (as bench/run.sh starts it), with the schemas sbtest,
# sbtest_0 and sbtest_1 and the user sbtest on all three.
start_mariadb() {
    local dir=$WORK_DIR/mariadb as_root=() skip_test_db=() help k
    mkdir -p "$dir/data"
    [ "$(id -u)" -eq 0 ] && as_root=(--user=root)

    say "Creating a MariaDB data folder in $dir/data"
    help=$("$INSTALL_DB" --help 2>/dev/null || true)
    case "$help" in *--skip-test-db*) skip_test_db=(--skip-test-db) ;; esac
    if ! "$INSTALL_DB" --no-defaults --datadir="$dir/data" "${as_root[@]}" "${skip_test_db[@]}" \
            --auth-root-authentication-method=normal > "$dir/install-db.log" 2>&1; then
        tail -n 20 "$dir/install-db.log" >&2
        die "mariadb-install-db failed (log: $dir/install-db.log)"
    fi

    say "Starting MariaDB on 127.0.0.1:$DB_PORT (buffer pool $BUFFER_POOL)"
    (exec_without_extra_fds "$MARIADBD" --no-defaults "${as_root[@]}" \
        --datadir="$dir/data" --socket="$dir/mariadb.sock" --pid-file="$dir/mariadb.pid" \
        --port="$DB_PORT" --bind-address=127.0.0.1 --log-error="$dir/error.log" \
        --skip-name-resolve --skip-log-bin --performance-schema=OFF \
        --max-connections=2000 --innodb-buffer-pool-size="$BUFFER_POOL" \
        --innodb-log-file-size=256M --innodb-flush-log-at-trx-commit=2) \
        > "$dir/stdout.log" 2>&1 < /dev/null &
    MARIADB_PID=$!
    if ! wait_until 60 "$MARIADB_PID" "$MARIADB_ADMIN" --no-defaults --socket="$dir/mariadb.sock" -uroot ping; then
        tail -n 30 "$dir/error.log" >&2 || true
        die "MariaDB did not start (log: $dir/error.log)"
    fi

    # PROCESS: Strata reads the server's lock waits with it, to break deadlocks across the shards
    local drops sql="CREATE DATABASE sbtest; CREATE USER 'sbtest'@'%' IDENTIFIED BY 'sbtest';
        GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'%'; GRANT PROCESS ON *.* TO 'sbtest'@'%';"
    for ((k = 0; k < SHARDS; k++)); do
        sql="$sql CREATE DATABASE sbtest_$k; GRANT ALL PRIVILEGES ON sbtest_$k.* TO 'sbtest'@'%';"
    done
    drops=$(db_root -N -e "SELECT CONCAT('DROP USER ''''@''', host, ''';') FROM mysql.user WHERE user = ''")
    db_root -e "$drops $sql" || die "could not create the sbtest databases and user"
}

# Options every sysbench call shares (the data set, the account, the tolerated errors). The
# logical database is sbtest through every target.
SB_COMMON=()
set_sysbench_common() {
    SB_COMMON=(--db-driver=mysql --mysql-host=127.0.0.1 --mysql-user=sbtest --mysql-password=sbtest
        --mysql-db=sbtest --tables="$TABLES" --table-size="$TABLE_SIZE"
        --mysql-ignore-errors="$IGNORE_ERRORS")
}

# sysbench prepare into sbtest (direct), then the shards: sbtest_k.sbtestN gets the rows of
# sbtest.sbtestN with id % 2 = k, in a table of the same definition. Deterministic: both sharded
# targets read the same rows, and strata_empty all of them in one schema.
prepare_data() {
    say "Loading the data set: $TABLES tables x $TABLE_SIZE rows (sysbench prepare into sbtest, direct)"
    local rc=0 i k sql="" total parts
    "$SYSBENCH" oltp_read_write "${SB_COMMON[@]}" --mysql-port="$DB_PORT" \
        --threads="$(( TABLES < 4 ? TABLES : 4 ))" prepare > "$WORK_DIR/prepare.log" 2>&1 || rc=$?
    exit_if_interrupted "$rc"
    if [ "$rc" -ne 0 ]; then
        tail -n 20 "$WORK_DIR/prepare.log" >&2
        die "sysbench prepare failed (log: $WORK_DIR/prepare.log)"
    fi
    say "Sharding it: sbtest_k.sbtestN = the rows of sbtest.sbtestN with id % $SHARDS = k (INSERT ... SELECT)"
    for ((i = 1; i <= TABLES; i++)); do
        for ((k = 0; k < SHARDS; k++)); do
            sql="$sql CREATE TABLE sbtest_$k.sbtest$i LIKE sbtest.sbtest$i;
                INSERT INTO sbtest_$k.sbtest$i SELECT * FROM sbtest.sbtest$i WHERE id % $SHARDS = $k;"
        done
    done
    db_root -e "$sql" || die "could not copy the rows into the shards"
    for ((i = 1; i <= TABLES; i++)); do
        total=$(db_root -N -e "SELECT COUNT(*) FROM sbtest.sbtest$i")
        parts=$(db_root -N -e "SELECT (SELECT COUNT(*) FROM sbtest_0.sbtest$i WHERE id % 2 = 0)
            + (SELECT COUNT(*) FROM sbtest_1.sbtest$i WHERE id % 2 = 1)")
        [ "$total" = "$TABLE_SIZE" ] && [ "$parts" = "$total" ] \
            || die "sbtest$i: $total rows in sbtest, $parts in the shards (expected $TABLE_SIZE)"
    done
    db_root -e "ANALYZE TABLE $(for ((i = 1; i <= TABLES; i++)); do
        printf '%s' "sbtest.sbtest$i, sbtest_0.sbtest$i, sbtest_1.sbtest$i"; [ "$i" -lt "$TABLES" ] && printf ', '; done)" > /dev/null
}

# The SHARDING rule's body, the same for both proxies (the first line, "- !SHARDING" or
# "- type: SHARDING", is the caller's): each sbtest table on ds_0 and ds_1 under its own name, the
# data source chosen by id with MOD (id % 2 = k goes to ds_k, the data source whose name ends in k),
# no table strategy. $1: indentation of the rule's keys.
sharding_rule_body() {
    local ind=$1 i
    echo "${ind}tables:"
    for ((i = 1; i <= TABLES; i++)); do
        cat <<EOF
${ind}  sbtest$i:
${ind}    actualDataNodes: ds_\${0..$((SHARDS - 1))}.sbtest$i
${ind}    databaseStrategy:
${ind}      standard:
${ind}        shardingColumn: id
${ind}        shardingAlgorithmName: sbtest_mod
EOF
    done
    cat <<EOF
${ind}shardingAlgorithms:
${ind}  sbtest_mod:
${ind}    type: MOD
${ind}    props:
${ind}      sharding-count: $SHARDS
EOF
}

# ShardingSphere-Proxy 5.1: server.yaml (mode, users) and config-sbtest.yaml (data sources, rule) in
# <home>/conf, started as its bin/start.sh does (Bootstrap <port> <conf path on the class path>),
# with the proxy as this script's child so that its pid is the JVM's.
start_shardingsphere() {
    local home=$WORK_DIR/shardingsphere k opts
    mkdir -p "$home/conf" "$home/logs"
    # What is set, and why:
    # - mode Standalone with the File repository in the temp folder, overwrite: true: the
    #   configuration comes from these files, and nothing is left in ~/.shardingsphere (the
    #   repository's default path). The repository is read at start only.
    # - the AUTHORITY rule: the user sbtest/sbtest, any host, all privileges (the 5.1 sample's
    #   provider). Its default would be root/root.
    # - props: none; every property keeps its default (sql-show false, proxy-frontend-flush-
    #   threshold 128, max-connections-size-per-query 1, LOCAL transactions, the JDBC backend).
    cat > "$home/conf/server.yaml" <<EOF
# Written by bench/sharding/run.sh for ShardingSphere-Proxy $SS_JAR_VERSION.
mode:
  type: Standalone
  repository:
    type: File
    props:
      path: $home/repository
  overwrite: true

rules:
  - !AUTHORITY
    users:
      - sbtest@%:sbtest
    provider:
      type: ALL_PRIVILEGES_PERMITTED
EOF
    # Data sources: the JDBC URL of the 5.1 sample (serverTimezone=UTC&useSSL=false: this MariaDB
    # has no TLS), the pool as large as Strata's (maxPoolSize; its default is 50 in the sample),
    # every other pool setting its default.
    {
        echo "# Written by bench/sharding/run.sh: sysbench's tables sharded by id over two data sources."
        echo "schemaName: sbtest"
        echo "dataSources:"
        for ((k = 0; k < SHARDS; k++)); do
            cat <<EOF
  ds_$k:
    url: jdbc:mysql://127.0.0.1:$DB_PORT/sbtest_$k?serverTimezone=UTC&useSSL=false
    username: sbtest
    password: sbtest
    maxPoolSize: $STRATA_POOL
EOF
        done
        echo "rules:"
        echo "- !SHARDING"
        sharding_rule_body "  "
    } > "$home/conf/config-sbtest.yaml"
    cat > "$home/conf/logback.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by bench/sharding/run.sh: INFO to the console (stdout.log), as the distribution's. -->
<configuration>
    <appender name="console" class="ch.qos.logback.core.ConsoleAppender">
        <encoder>
            <pattern>[%-5level] %d{yyyy-MM-dd HH:mm:ss.SSS} [%thread] %logger{36} - %msg%n</pattern>
        </encoder>
    </appender>
    <root level="INFO">
        <appender-ref ref="console" />
    </root>
</configuration>
EOF

    opts=${SS_JAVA_OPTS:-$(ss_default_java_opts)}
    SS_OPTS_SHOWN=$opts
    say "Starting ShardingSphere-Proxy $SS_JAR_VERSION on 127.0.0.1:$SS_PORT (Java $SS_JAVA_MAJOR, maxPoolSize $STRATA_POOL)"
    # The class path as its start.sh builds it: the home (for "/conf/") and the conf folder, then lib/*.
    # shellcheck disable=SC2086
    (cd "$home" && exec_without_extra_fds "$SS_JAVA" $opts -classpath "$home/conf:$home:$SS_LIB/*" \
        org.apache.shardingsphere.proxy.Bootstrap "$SS_PORT" /conf/) \
        > "$home/logs/stdout.log" 2>&1 < /dev/null &
    SS_PID=$!
    if ! wait_until 180 "$SS_PID" "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$SS_PORT" \
            -usbtest -psbtest sbtest -e "SELECT 1"; then
        tail -n 40 "$home/logs/stdout.log" >&2 || true
        die "ShardingSphere-Proxy does not answer on port $SS_PORT (log: $home/logs/stdout.log)"
    fi
    routing_check "$SS_PORT" \
        || die "ShardingSphere-Proxy does not serve the sharded sbtest1 as expected ($ROUTING_GOT; log: $home/logs/stdout.log)"
}

# The layout, checked once through a proxy on port $1: a point select finds its one row, and a
# COUNT(*) over both shards finds all rows of sbtest1. Sets ROUTING_GOT.
routing_check() {
    local one all
    one=$("$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$1" -usbtest -psbtest sbtest -N \
        -e "SELECT COUNT(*) FROM sbtest1 WHERE id = 7" 2>&1 || true)
    all=$("$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$1" -usbtest -psbtest sbtest -N \
        -e "SELECT COUNT(*) FROM sbtest1" 2>&1 || true)
    ROUTING_GOT="rows with id = 7: $one, rows of sbtest1: $all; expected 1 and $TABLE_SIZE"
    [ "$one" = 1 ] && [ "$all" = "$TABLE_SIZE" ]
}

# Unpacks (or copies) the Strata distribution into $WORK_DIR/<prefix>-dist, writes server.yaml and
# the logical database's configuration (its rules from $6: "sharding" or "empty") and starts it with
# bin/start.sh. Arguments: label, port, prefix, the names of the variables for the pid and the home,
# rules. Returns 2 when this build refuses the SHARDING rule's type (no SHARDING rule yet), and dies
# on any other failure.
start_strata_as() {
    local label=$1 port=$2 prefix=$3 pid_var=$4 home_var=$5 rules=$6 dist=${7:-$STRATA_DIST} home conf pid k out
    if [ -d "$dist" ]; then
        cp -a "$dist" "$WORK_DIR/$prefix-dist"
        home=$WORK_DIR/$prefix-dist
        rm -f "$home/logs/strata.pid"
    else
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
# Written by bench/sharding/run.sh.
server:
  host: 127.0.0.1
  port: $port
  workerThreads: ${STRATA_WORKER_THREADS:-0}
users:
  - { name: sbtest, password: sbtest, databases: [sbtest] }
EOF
    {
        if [ "$rules" = sharding ]; then
            echo "# Written by bench/sharding/run.sh: ShardingSphere's SHARDING rule as written, \"- type: SHARDING\" for \"- !SHARDING\"."
            echo "databaseName: sbtest"
            echo "dataSources:"
            for ((k = 0; k < SHARDS; k++)); do
                cat <<EOF
  ds_$k:
    url: "jdbc:mariadb://127.0.0.1:$DB_PORT/sbtest_$k"
    username: sbtest
    password: sbtest
    maximumPoolSize: $STRATA_POOL
EOF
            done
            echo "rules:"
            echo "  - type: SHARDING"
            sharding_rule_body "    "
        else
            cat <<EOF
# Written by bench/sharding/run.sh: the empty rule chain in front of the one unsharded schema.
databaseName: sbtest
dataSources:
  ds_0:
    url: "jdbc:mariadb://127.0.0.1:$DB_PORT/sbtest"
    username: sbtest
    password: sbtest
    maximumPoolSize: $STRATA_POOL
rules: []
EOF
        fi
    } > "$conf/config-sbtest.yaml"

    say "Starting $label on 127.0.0.1:$port (pool $STRATA_POOL, STRATA_JAVA_OPTS=${STRATA_JAVA_OPTS:-<start.sh default>})"
    local started=1
    (exec_without_extra_fds "$home/bin/start.sh" -c "$conf" -p "$port") > "$WORK_DIR/$prefix-start.log" 2>&1 || started=0
    if [ "$started" -eq 1 ]; then
        pid=$(tr -d '[:space:]' < "$home/logs/strata.pid")
        printf -v "$pid_var" '%s' "$pid"
        if wait_until 60 "$pid" "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$port" \
                -usbtest -psbtest sbtest -e "SELECT 1"; then
            return 0
        fi
        is_alive "$pid" || printf -v "$pid_var" '%s' ""
    fi
    # Why it did not start: a build without the SHARDING rule names the types it knows.
    out=$(cat "$WORK_DIR/$prefix-start.log" "$home/logs/stdout.log" 2>/dev/null || true)
    if [ "$rules" = sharding ] && grep -qE "rules\[[0-9]+\]\.type: expected one of .*got 'SHARDING'" <<< "$out"; then
        STRATA_SKIPPED=$(grep -m 1 -oE "rules\[[0-9]+\]\.type: expected one of .*got 'SHARDING'" <<< "$out")
        pid=${!pid_var}
        [ -n "$pid" ] && stop_pid "$label" "$pid" 30
        printf -v "$pid_var" '%s' ""
        return 2
    fi
    tail -n 30 "$home/logs/stdout.log" >&2 2>/dev/null || cat "$WORK_DIR/$prefix-start.log" >&2
    die "$label did not start or does not answer on port $port (log: $home/logs/stdout.log)"
}

start_strata() {
    local rc=0
    start_strata_as "Strata (SHARDING rule)" "$STRATA_PORT" strata STRATA_PID STRATA_HOME sharding || rc=$?
    if [ "$rc" -eq 2 ]; then
        echo "    this Strata build has no SHARDING rule yet; target strata skipped"
        echo "    (Strata said: $STRATA_SKIPPED)"
        TARGETS=$(for t in $TARGETS; do [ "$t" != strata ] && echo "$t"; done | xargs)
        [ -n "$TARGETS" ] || die "no target left to run"
        return 0
    fi
    # The routing, checked once, as for ShardingSphere; a wrong answer is reported, and the cells run.
    routing_check "$STRATA_PORT" || echo "    WARNING: Strata with the SHARDING rule: $ROUTING_GOT"
    return 0
}

# The second build of an A/B run (--strata-dist-b): the same SHARDING rule, its own port.
start_strata_b() {
    start_strata_as "Strata B (SHARDING rule)" "$STRATA_B_PORT" strata-b STRATA_B_PID STRATA_B_HOME sharding \
        "$STRATA_DIST_B" || die "Strata B ($STRATA_DIST_B) refused the SHARDING rule"
    routing_check "$STRATA_B_PORT" || echo "    WARNING: Strata B with the SHARDING rule: $ROUTING_GOT"
}

start_strata_empty() {
    start_strata_as "Strata (empty rules, unsharded sbtest)" "$EMPTY_PORT" strata-empty EMPTY_PID EMPTY_HOME empty
}

port_of() {
    case "$1" in
        shardingsphere) echo "$SS_PORT" ;;
        strata) echo "$STRATA_PORT" ;;
        strata_empty) echo "$EMPTY_PORT" ;;
        strata_b) echo "$STRATA_B_PORT" ;;
    esac
}

cpu_pid_of() {
    case "$1" in
        shardingsphere) echo "$SS_PID" ;;
        strata) echo "$STRATA_PID" ;;
        strata_empty) echo "$EMPTY_PID" ;;
        strata_b) echo "$STRATA_B_PID" ;;
    esac
}

cpu_name_of() {
    case "$1" in
        shardingsphere) echo "shardingsphere-proxy" ;;
        strata) echo "strata (SHARDING)" ;;
        strata_empty) echo "strata (empty rules)" ;;
        strata_b) echo "strata B (SHARDING)" ;;
    esac
}

# ---- sysbench -----------------------------------------------------------------------------

# An unrecorded run of every workload of the matrix through each target, in each ps mode, at 8
# threads, and oltp_point_select at the largest thread count when it is above 8 (as bench/run.sh
# warms), so that neither the JIT nor the buffer pool is measured in the first cells. Every workload,
# not only oltp_read_write as bench/run.sh does: ShardingSphere-Proxy has far more code to compile
# (its C2 compiler thread used about 28 CPU-seconds before point selects ran at a steady rate), and
# the range queries of oltp_read_only take the merge paths (ORDER BY, DISTINCT, SUM over both shards)
# that point selects never reach.
warm_up() {
    [ "$WARMUP" -gt 0 ] || return 0
    local target n_ps n_w secs max_threads w
    n_ps=$(wc -w <<< "$PS_MODES")
    n_w=$(wc -w <<< "$WORKLOADS")
    secs=$(( (WARMUP + n_ps * n_w - 1) / (n_ps * n_w) ))
    [ "$secs" -lt 2 ] && secs=2
    max_threads=$(tr ' ' '\n' <<< "$THREADS" | sort -n | tail -n 1)
    for target in $TARGETS; do
        for w in $WORKLOADS; do
            say "Warm-up (not recorded): $w, 8 threads, ${secs} s per ps mode ($PS_MODES) through $target"
            warm_up_with "$target" "$w" 8 "$secs"
        done
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
        if [ "$rc" -ne 0 ]; then
            echo "    warm-up through $target ($workload, $ps) failed (exit code $rc); the matrix will show it; its log ends:"
            grep -v '^$' "$WORK_DIR/warmup-$target-$workload-$ps.log" | tail -n 5 | sed 's/^/      /'
        fi
    done
}

# Runs one cell and sets R_* to its results (bench/run.sh's run_cell). Never exits on a failed sysbench.
run_cell() {
    local workload=$1 ps=$2 threads=$3 target=$4 round=$5
    local log="$WORK_DIR/cells/$workload-$ps-$threads-$target.log"
    [ "$ROUNDS" -gt 1 ] && log="${log%.log}-r$round.log"
    local pid db0 db1 p0 p1 j0 j1 rc=0
    pid=$(cpu_pid_of "$target")
    R_STATUS=ok R_NOTE="" R_QPS=0 R_P95="" R_ERRORS=0 R_CPU="" R_DBCPU="" R_JIT="" R_QUERIES=0

    if ! is_alive "$pid"; then
        R_STATUS=FAILED R_NOTE="$(cpu_name_of "$target") process (pid $pid) is gone"
        return
    fi
    p0=$(cpu_ticks "$pid"); db0=$(cpu_ticks "$MARIADB_PID"); j0=$(jit_ticks "$pid")
    # --verbosity=4: sysbench says when the server refused a prepared statement and it fell back to
    # client-side emulation (an "auto" cell on the text protocol counts as failed).
    timeout --foreground -k 10 $((CELL_TIME + 60)) "$SYSBENCH" "$workload" "${SB_COMMON[@]}" \
        --mysql-port="$(port_of "$target")" --db-ps-mode="$ps" --threads="$threads" \
        --time="$CELL_TIME" --report-interval=0 --percentile=95 --verbosity=4 \
        run > "$log" 2>&1 || rc=$?
    exit_if_interrupted "$rc"
    p1=$(cpu_ticks "$pid"); db1=$(cpu_ticks "$MARIADB_PID"); j1=$(jit_ticks "$pid")

    R_CPU=$(cpu_seconds_between "$p0" "$p1")
    R_DBCPU=$(cpu_seconds_between "$db0" "$db1")
    R_JIT=$(cpu_seconds_between "$j0" "$j1")

    local ign rec
    ign=$(awk '/ignored errors:/ { print $3; exit }' "$log")
    rec=$(awk '/reconnects:/ { print $2; exit }' "$log")
    R_ERRORS=$(( ${ign:-0} + ${rec:-0} ))
    judge_sysbench_log "$log" "$rc" "$ps" "$CELL_TIME" && return 0
    # ShardingSphere-Proxy 5.1 refuses to prepare BEGIN (error 1295, "not supported in the prepared
    # statement protocol yet"); sysbench then sends that one statement as text and every other one
    # prepared (its fallback is per statement). Such a cell counts, with a note; a refusal of any
    # other statement still fails it, as in bench/run.sh.
    if [ "$ps" = auto ] && [ "$rc" -eq 0 ] && only_begin_refused "$log"; then
        R_QPS=$(grep -m 1 -E '^[[:space:]]+queries:' "$log" | sed -E 's/.*\(([0-9.]+) per sec.*/\1/')
        R_P95=$(awk '/95th percentile:/ { print $3; exit }' "$log")
        R_STATUS=ok R_NOTE="BEGIN sent as text (the proxy refused to prepare it: error 1295); all other statements prepared"
    fi
    return 0
}

# True when the only statement the server refused to prepare was BEGIN, and the run was otherwise
# sound (a result, no FATAL or ALERT).
only_begin_refused() {
    local refused
    grep -qE 'FATAL|ALERT' "$1" && return 1
    grep -qE '^[[:space:]]+queries:' "$1" || return 1
    refused=$(grep 'using emulation' "$1" | sed -nE 's/.*Failed to prepare query "([^"]*)".*/\1/p' | sort -u)
    [ "$refused" = BEGIN ]
}

# The targets, turned left by $1 places (round r starts with the r-th target).
rotated() {
    local by=$1 n j
    shift
    local list=("$@")
    n=${#list[@]}
    for ((j = 0; j < n; j++)); do
        echo "${list[$(((j + by) % n))]}"
    done
}

median() {
    printf '%s\n' "$@" | awk 'NF' | sort -g | awk '{ v[++n] = $1 } END {
        if (n == 0) exit
        if (n % 2) printf "%s", v[(n + 1) / 2]; else printf "%.2f", (v[n / 2] + v[n / 2 + 1]) / 2 }'
}

# One cell (workload, ps mode, threads) through every target, ROUNDS times: per target the rounds'
# mean QPS and CPU seconds, the median p95, all errors, and queries per CPU-second over all rounds.
run_rounds() {
    local w=$1 ps=$2 t=$3 r target key
    local -A qps queries cpu dbcpu jit errors p95s status note
    for target in $TARGETS; do
        qps[$target]=0 queries[$target]=0 cpu[$target]=0 dbcpu[$target]=0 jit[$target]=0 errors[$target]=0
        p95s[$target]="" status[$target]=ok note[$target]=""
    done
    for ((r = 1; r <= ROUNDS; r++)); do
        for target in $(rotated $((r - 1)) $TARGETS); do
            RUN_NO=$((RUN_NO + 1))
            run_cell "$w" "$ps" "$t" "$target" "$r"
            printf '  [%2d/%d] %-18s %-7s %3s thr %-14s%s qps %10s  p95 %7s ms  errors %4s  cpu %6s s (jit %5s)  %s\n' \
                "$RUN_NO" "$RUN_TOTAL" "$w" "$ps" "$t" "$target" "$([ "$ROUNDS" -gt 1 ] && echo " r$r")" \
                "$R_QPS" "${R_P95:--}" "$R_ERRORS" "${R_CPU:--}" "${R_JIT:--}" "$R_STATUS${R_NOTE:+: $R_NOTE}"
            if [ "$R_STATUS" != ok ] && [ "${status[$target]}" = ok ]; then
                status[$target]=$R_STATUS
                note[$target]=$R_NOTE
                [ "$ROUNDS" -gt 1 ] && note[$target]="round $r: $R_NOTE"
            elif [ -n "$R_NOTE" ] && [ -z "${note[$target]}" ]; then
                note[$target]=$R_NOTE
            fi
            qps[$target]=$(awk -v a="${qps[$target]}" -v b="$R_QPS" 'BEGIN { print a + b }')
            queries[$target]=$(( ${queries[$target]} + ${R_QUERIES:-0} ))
            cpu[$target]=$(awk -v a="${cpu[$target]}" -v b="${R_CPU:-0}" 'BEGIN { print a + b }')
            dbcpu[$target]=$(awk -v a="${dbcpu[$target]}" -v b="${R_DBCPU:-0}" 'BEGIN { print a + b }')
            jit[$target]=$(awk -v a="${jit[$target]}" -v b="${R_JIT:-0}" 'BEGIN { print a + b }')
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

# ---- report -------------------------------------------------------------------------------

declare -A RES_QPS RES_P95 RES_ERR RES_CPU RES_DBCPU RES_JIT RES_QPC RES_STATUS RES_NOTE
CELLS=()

ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && a > 0 && b > 0) printf "%.3f", a / b }'
}

# The ratios of a row, blank where they do not apply: on strata's row its QPS and queries per
# CPU-second over shardingsphere's (RT_S, RT_SC) and its QPS over strata_empty's (RT_E); on
# shardingsphere's row its QPS over strata_empty's (RT_SE).
ratios_of() {
    local key=$1 w ps t target cell
    IFS='|' read -r w ps t target <<< "$key"
    cell="$w|$ps|$t"
    RT_S="" RT_SC="" RT_E="" RT_SE=""
    case "$target" in
        strata|strata_b)
            RT_S=$(ratio "${RES_QPS[$key]}" "${RES_QPS[$cell|shardingsphere]:-}")
            RT_SC=$(ratio "${RES_QPC[$key]}" "${RES_QPC[$cell|shardingsphere]:-}")
            RT_E=$(ratio "${RES_QPS[$key]}" "${RES_QPS[$cell|strata_empty]:-}")
            ;;
        shardingsphere)
            RT_SE=$(ratio "${RES_QPS[$key]}" "${RES_QPS[$cell|strata_empty]:-}")
            ;;
    esac
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
    echo "sysbench:  $("$SYSBENCH" --version 2>/dev/null | head -n 1)"
    [ -n "$STRATA_DIST_B" ] && echo "Strata B:  $STRATA_DIST_B (target strata_b, the same SHARDING rule and options)"
    echo "Strata:    $STRATA_DIST (pool $STRATA_POOL per data source; $("$JAVA_BIN" -version 2>&1 | head -n 1), $JAVA_BIN; STRATA_JAVA_OPTS=${STRATA_JAVA_OPTS:-<start.sh default>})"
    [ -n "$STRATA_SKIPPED" ] && echo "           target strata skipped: this Strata build has no SHARDING rule yet ($STRATA_SKIPPED)"
    if [ -n "$SS_PID" ]; then
        echo "ShardingSphere-Proxy: $SS_JAR_VERSION from Maven Central, jars in $SS_LIB (maxPoolSize $STRATA_POOL per data source, props all default)"
        echo "           $("$SS_JAVA" -version 2>&1 | head -n 1), $SS_JAVA; options: $SS_OPTS_SHOWN"
    fi
    echo "Before:    CPUs ${BUSY_AT_START}% busy in the second before start; load average $LOAD_AT_START"
    [ -n "$INSTALLED_PACKAGES" ] && echo "Installed: $INSTALLED_PACKAGES (apt-get, by this run)"
    echo "Layout:    $TABLES tables x $TABLE_SIZE rows sharded by id % $SHARDS over ds_0 = sbtest_0, ds_1 = sbtest_1 (MOD, no table strategy); strata_empty: all rows in sbtest"
    echo "Data set:  MariaDB buffer pool $BUFFER_POOL; ${CELL_TIME} s per cell, ${WARMUP} s warm-up per target$([ "$ROUNDS" -gt 1 ] && echo "; $ROUNDS rounds per cell, targets rotated (QPS, CPU: means; p95: median)")"
}

table_row() {
    printf '%-18s %-7s %4s %-14s %10s %8s %6s %11s %7s %9s %7s %10s %8s %8s %8s  %s\n' "$@"
}

print_table() {
    local key w ps t target dbq
    table_row workload ps thr target qps p95_ms errors proxy_cpu_s jit_s "q/cpu_s" "s/ss" "s/ss q/cpu" "s/empty" \
        "ss/empty" "db_us/q" status
    for key in "${CELLS[@]}"; do
        IFS='|' read -r w ps t target <<< "$key"
        dbq=$(awk -v c="${RES_DBCPU[$key]}" -v q="${RES_QPS[$key]}" -v t="$CELL_TIME" \
            'BEGIN { if (c != "" && q > 0) printf "%.1f", c * 1000000 / (q * t) }')
        ratios_of "$key"
        table_row "$w" "$ps" "$t" "$target" "${RES_QPS[$key]}" "${RES_P95[$key]:--}" "${RES_ERR[$key]}" \
            "${RES_CPU[$key]:--}" "${RES_JIT[$key]:--}" "${RES_QPC[$key]:--}" "${RT_S:--}" "${RT_SC:--}" "${RT_E:--}" "${RT_SE:--}" \
            "${dbq:--}" "${RES_STATUS[$key]}$([ "${RES_STATUS[$key]}" = ok ] && [ -n "${RES_NOTE[$key]}" ] && echo '*')"
    done
}

write_csv() {
    local file=$1 key w ps t target
    {
        echo "workload,ps_mode,threads,target,qps,p95_ms,errors,proxy_cpu_s,qps_per_proxy_cpu_s,strata_over_shardingsphere_qps,strata_over_shardingsphere_qps_per_proxy_cpu_s,strata_over_strata_empty_qps,shardingsphere_over_strata_empty_qps,status,cpu_process,db_cpu_s,jit_cpu_s,note"
        for key in "${CELLS[@]}"; do
            IFS='|' read -r w ps t target <<< "$key"
            ratios_of "$key"
            echo "$w,$ps,$t,$target,${RES_QPS[$key]},${RES_P95[$key]},${RES_ERR[$key]},${RES_CPU[$key]},${RES_QPC[$key]},$RT_S,$RT_SC,$RT_E,$RT_SE,${RES_STATUS[$key]},$(csv_field "$(cpu_name_of "$target")"),${RES_DBCPU[$key]},${RES_JIT[$key]},$(csv_field "${RES_NOTE[$key]}")"
        done
    } > "$file"
}

# An A/B run: strata_b's QPS and queries per CPU-second over strata's, cell by cell.
print_b_over_a() {
    local key w ps t target
    echo
    echo "B over A (strata_b = $STRATA_DIST_B over strata = $STRATA_DIST): QPS, queries per proxy CPU-second"
    for key in "${CELLS[@]}"; do
        IFS='|' read -r w ps t target <<< "$key"
        [ "$target" = strata_b ] || continue
        printf '  %-18s %-7s %4s   %6s   %6s\n' "$w" "$ps" "$t" \
            "$(ratio "${RES_QPS[$key]}" "${RES_QPS[$w|$ps|$t|strata]:-}")" \
            "$(ratio "${RES_QPC[$key]}" "${RES_QPC[$w|$ps|$t|strata]:-}")"
    done
    return 0
}

# The cells that count but carry a note (status "ok*").
print_noted_cells() {
    local key any=0
    for key in "${CELLS[@]}"; do
        [ "${RES_STATUS[$key]}" = ok ] && [ -n "${RES_NOTE[$key]}" ] || continue
        [ $any -eq 0 ] && { echo; echo "Notes (status ok*):"; any=1; }
        echo "  ${key//|/ }: ${RES_NOTE[$key]}"
    done
    return 0
}

# The sysbench output of every failed cell, and the logs of a proxy that failed one, next to the results.
save_failure_logs() {
    local dir=$1 key w ps t target log f
    local -A failed=()
    for key in "${CELLS[@]}"; do
        [ "${RES_STATUS[$key]}" = ok ] && continue
        IFS='|' read -r w ps t target <<< "$key"
        mkdir -p "$dir"
        for log in "$WORK_DIR/cells/$w-$ps-$t-$target".log "$WORK_DIR/cells/$w-$ps-$t-$target"-r*.log; do
            [ -f "$log" ] && cp "$log" "$dir/"
        done
        failed[$target]=1
    done
    if [ -n "${failed[shardingsphere]:-}" ]; then
        cp "$WORK_DIR/shardingsphere/logs/stdout.log" "$dir/shardingsphere-stdout.log" 2>/dev/null || true
    fi
    if [ -n "${failed[strata]:-}" ] && [ -n "$STRATA_HOME" ]; then
        for f in "$STRATA_HOME"/logs/*.log; do [ -f "$f" ] && cp "$f" "$dir/strata-$(basename "$f")"; done
    fi
    if [ -n "${failed[strata_empty]:-}" ] && [ -n "$EMPTY_HOME" ]; then
        for f in "$EMPTY_HOME"/logs/*.log; do [ -f "$f" ] && cp "$f" "$dir/strata_empty-$(basename "$f")"; done
    fi
    [ -d "$dir" ] && echo "Logs of the failed cells: $dir"
    return 0
}

# ---- main ---------------------------------------------------------------------------------

main() {
    parse_args "$@"
    set_sysbench_common
    install_missing
    locate_tools
    select_java
    if has_target strata || has_target strata_empty || has_target strata_b; then locate_strata_dist; fi
    if has_target shardingsphere; then
        select_ss_java
        ensure_shardingsphere
    fi
    check_ports
    check_idle

    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    WORK_DIR=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench-sharding.XXXXXX")
    mkdir -p "$WORK_DIR/cells"
    say "Temp folder: $WORK_DIR"

    start_mariadb
    # The proxies read the tables' definitions at start: the data goes in first.
    prepare_data
    has_target shardingsphere && start_shardingsphere
    has_target strata && start_strata
    has_target strata_empty && start_strata_empty
    has_target strata_b && start_strata_b
    warm_up

    local n_w n_p n_t n_g w ps t
    n_w=$(wc -w <<< "$WORKLOADS"); n_p=$(wc -w <<< "$PS_MODES")
    n_t=$(wc -w <<< "$THREADS"); n_g=$(wc -w <<< "$TARGETS")
    RUN_TOTAL=$((n_w * n_p * n_t * n_g * ROUNDS)) RUN_NO=0
    say "Running $RUN_TOTAL cells of ${CELL_TIME} s (about $(( RUN_TOTAL * (CELL_TIME + 1) / 60 + 1 )) min): $TARGETS"
    for w in $WORKLOADS; do
        for ps in $PS_MODES; do
            for t in $THREADS; do
                run_rounds "$w" "$ps" "$t"
            done
        done
    done

    mkdir -p "$RESULTS_DIR"
    local stamp csv txt
    stamp=sharding-$(date +%Y%m%d-%H%M%S)
    csv="$RESULTS_DIR/$stamp.csv"
    txt="$RESULTS_DIR/$stamp.txt"
    write_csv "$csv"
    {
        echo
        machine_info
        echo
        print_table
        print_failed_cells CELLS RES_STATUS RES_NOTE
        print_noted_cells
        has_target strata_b && has_target strata && print_b_over_a
        save_failure_logs "$RESULTS_DIR/$stamp-failed"
        echo
        echo "proxy_cpu_s: CPU seconds (user+system, /proc/<pid>/stat) of the target's proxy process during the"
        echo "cell. q/cpu_s: queries per proxy CPU-second. s/ss, s/ss q/cpu: strata's QPS and queries per"
        echo "CPU-second over shardingsphere's (both with the SHARDING rule). s/empty: strata's QPS over"
        echo "strata_empty's (what the SHARDING rule costs Strata; on point selects, one shard per query)."
        echo "ss/empty: shardingsphere's QPS over strata_empty's. db_us/q: mariadbd's CPU microseconds per query."
        echo "jit_s: of proxy_cpu_s, the CPU seconds of the proxy's JIT compiler threads (C1, C2): well above"
        echo "zero, the cell measured compilation too (a longer --warmup helps)."
        if [ -n "$STRATA_SKIPPED" ]; then
            echo "Target strata was skipped: this Strata build has no SHARDING rule yet."
        fi
    } | tee "$txt"
    echo
    say "Results: $csv"
    say "Report:  $txt"
}

main "$@"
