#!/usr/bin/env bash
#
# bench/trace-statement.sh: which Strata types and methods run for one statement, traced with JDK Flight Recorder's
# method tracing (JEP 520, JDK 25+), so that a restructuring can be compared before and after.
#
# It starts a private MariaDB (schemas trace, shop_0, shop_1), then for each case a Strata from the distribution
# tarball with the configuration of that case (the empty rule chain, or a table sharded by id % 2 over two data
# sources), warms it up with the statement (--warmup executions on one connection), starts a JFR recording in it with
# jcmd (jdk.MethodTrace with a filter naming every class of Strata's jars), runs the statement once per traced run
# with quiet pauses around it, stops the recording, and counts the Strata types and methods that ran for the first
# traced run, the entries into Strata (Netty handlers, tasks), the deepest stack and the callback nesting
# (bench/TraceStatement.java does the client part and the counting). Prints the report and writes it to
# bench/results/trace-<timestamp>.txt, the recordings to bench/results/trace-<timestamp>/.
#
# On a machine shared with benchmarks, run it under their lock: flock /tmp/strata-heavy.lock bench/trace-statement.sh

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$SCRIPT_DIR/common.sh"
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
RESULTS_DIR="$SCRIPT_DIR/results"

# JFR method tracing (jdk.MethodTrace) came with JDK 25.
MIN_JAVA=25
JVM_DIR=/usr/lib/jvm
ALL_CASES="plain select1 sharded"

DIST=""
BASE_PORT=23306
WARMUP=500
RUNS=2
CASES=$ALL_CASES
PLAIN_SQL="SELECT id, k, c FROM t WHERE id = 7"
SELECT1_SQL="SELECT 1"
SHARDED_SQL="SELECT id, k, c FROM t_order ORDER BY id"
STACK_DEPTH=2048
KEEP=0

usage() {
    cat <<EOF
Usage: bench/trace-statement.sh [options]

Traces one execution of a statement through Strata with JFR method tracing (JDK $MIN_JAVA+) and
counts the Strata types (classes of io.strata..) and methods that ran, the entries into Strata,
the deepest stack and the callback nesting. On a machine shared with benchmarks, run it under
their lock: flock /tmp/strata-heavy.lock bench/trace-statement.sh

Cases (each with its own Strata, in front of one private MariaDB):
  plain     the empty rule chain (rules: []): $PLAIN_SQL
            (table t of 100 rows in schema trace)
  select1   the same Strata: $SELECT1_SQL
  sharded   SHARDING of t_order by id % 2 (MOD, sharding-count 2) over ds_0 and ds_1 (schemas
            shop_0 and shop_1, 5 rows each): $SHARDED_SQL

Options:
  --dist FILE          Strata distribution tarball (.tar.gz) or unpacked folder; default: the
                       newest distribution/target/strata-proxy-*-bin.tar.gz, built with
                       ./mvnw -B -q package -DskipTests -pl distribution -am when there is none
  --cases LIST         of: $ALL_CASES (default: all)
  --plain-sql SQL      the statement of case plain
  --select1-sql SQL    the statement of case select1
  --sharded-sql SQL    the statement of case sharded
  --warmup N           executions before the recording starts (default $WARMUP)
  --runs N             traced executions (default $RUNS): the report counts the first; the
                       others only show whether the same methods ran again
  --base-port N        MariaDB on N, Strata on N+1 (default $BASE_PORT)
  --stack-depth N      JFR's stack depth (-XX:FlightRecorderOptions:stackdepth, default $STACK_DEPTH)
  --keep               keep the temp folder (configurations, logs)
  -h, --help           this text

Re-read a kept recording: java bench/TraceStatement.java analyze CASE "SQL" bench/results/trace-<timestamp>
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --dist) need_value "$@"; DIST=$2; shift ;;
        --cases) need_value "$@"; CASES=$(split_list "$2"); shift ;;
        --plain-sql) need_value "$@"; PLAIN_SQL=$2; shift ;;
        --select1-sql) need_value "$@"; SELECT1_SQL=$2; shift ;;
        --sharded-sql) need_value "$@"; SHARDED_SQL=$2; shift ;;
        --warmup) need_value "$@"; WARMUP=$2; shift ;;
        --runs) need_value "$@"; RUNS=$2; shift ;;
        --base-port) need_value "$@"; BASE_PORT=$2; shift ;;
        --stack-depth) need_value "$@"; STACK_DEPTH=$2; shift ;;
        --keep) KEEP=1 ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done
for c in $CASES; do
    case " $ALL_CASES " in *" $c "*) ;; *) die "unknown case $c (of: $ALL_CASES)" ;; esac
done
for v in WARMUP RUNS BASE_PORT STACK_DEPTH; do
    [[ "${!v}" =~ ^[0-9]+$ ]] || die "${v,,} needs a whole number, not ${!v}"
done
[ "$RUNS" -ge 1 ] || die "--runs must be 1 or more"
DB_PORT=$BASE_PORT
STRATA_PORT=$((BASE_PORT + 1))

# ---- tools --------------------------------------------------------------------------------------------------------

select_java
JAVA_BIN=$(readlink -f "$JAVA_BIN")
JDK_HOME=$(dirname "$(dirname "$JAVA_BIN")")
JCMD=$(dirname "$JAVA_BIN")/jcmd
JAR=$(dirname "$JAVA_BIN")/jar
[ -x "$JCMD" ] && [ -x "$JAR" ] || die "$JAVA_BIN has no jcmd or jar beside it: a full JDK $MIN_JAVA+ is needed"

missing=()
{ find_bin mariadbd >/dev/null && find_bin mariadb-install-db >/dev/null; } || missing+=(mariadb-server)
{ find_bin mariadb >/dev/null && find_bin mariadb-admin >/dev/null; } || missing+=(mariadb-client)
if [ ${#missing[@]} -gt 0 ]; then
    command -v apt-get >/dev/null 2>&1 || die "missing: ${missing[*]}, and there is no apt-get here"
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "missing: ${missing[*]}. Run as root, or: apt-get install ${missing[*]}"
        sudo=(sudo)
    fi
    say "Installing the missing packages with apt-get: ${missing[*]} (a system MariaDB service the package may"
    say "start is neither used nor touched)"
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
MARIADBD=$(find_bin mariadbd)
INSTALL_DB=$(find_bin mariadb-install-db)
MARIADB=$(find_bin mariadb)
MARIADB_ADMIN=$(find_bin mariadb-admin)

for p in "$DB_PORT" "$STRATA_PORT"; do
    port_in_use "$p" && die "port $p is in use (see --base-port)"
done

# ---- the distribution ---------------------------------------------------------------------------------------------

if [ -z "$DIST" ]; then
    DIST=$(ls -t "$REPO_DIR"/distribution/target/strata-proxy-*-bin.tar.gz 2>/dev/null | head -n 1 || true)
    if [ -z "$DIST" ]; then
        say "No distribution tarball in distribution/target: building it (./mvnw -B -q package -DskipTests -pl distribution -am)"
        (cd "$REPO_DIR" && JAVA_HOME=$JDK_HOME ./mvnw -B -q package -DskipTests -pl distribution -am) || die "the build failed"
        DIST=$(ls -t "$REPO_DIR"/distribution/target/strata-proxy-*-bin.tar.gz | head -n 1)
    fi
fi
[ -e "$DIST" ] || die "no such distribution: $DIST"
DIST=$(cd "$(dirname "$DIST")" && pwd)/$(basename "$DIST")

# ---- processes we start -------------------------------------------------------------------------------------------

WORK_DIR=""
TEE_PID=""
MARIADB_PID=""
STRATA_PID=""

cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    [ -n "$STRATA_PID" ] && stop_pid Strata "$STRATA_PID" 30
    [ -n "$MARIADB_PID" ] && stop_pid MariaDB "$MARIADB_PID" 60
    if [ -n "$WORK_DIR" ] && [ -d "$WORK_DIR" ]; then
        if [ "$KEEP" -eq 1 ] || { [ "$rc" -ne 0 ] && [ "$rc" -ne 130 ] && [ "$rc" -ne 143 ]; }; then
            rm -rf "$WORK_DIR/mariadb/data"
            echo "    temp folder kept: $WORK_DIR (remove it when done)"
        else
            rm -rf "$WORK_DIR"
        fi
    fi
    if [ -n "$TEE_PID" ]; then
        # let tee write the last lines before the script ends
        exec >&- 2>&-
        wait "$TEE_PID" 2>/dev/null || true
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

WORK_DIR=$(mktemp -d /tmp/strata-trace.XXXXXX)
TS=$(date +%Y%m%d-%H%M%S)
mkdir -p "$RESULTS_DIR"
OUT_FILE="$RESULTS_DIR/trace-$TS.txt"
REC_DIR="$RESULTS_DIR/trace-$TS"
mkdir -p "$REC_DIR"

# Everything from here on goes to the screen and to the report.
exec > >(tee "$OUT_FILE") 2>&1
TEE_PID=$!

db_root() {
    "$MARIADB" --no-defaults --socket="$WORK_DIR/mariadb/mariadb.sock" -uroot "$@"
}

start_mariadb() {
    local dir=$WORK_DIR/mariadb as_root=() skip_test_db=()
    mkdir -p "$dir/data"
    [ "$(id -u)" -eq 0 ] && as_root=(--user=root)
    case "$("$INSTALL_DB" --help 2>/dev/null || true)" in *--skip-test-db*) skip_test_db=(--skip-test-db) ;; esac
    "$INSTALL_DB" --no-defaults --datadir="$dir/data" "${as_root[@]}" "${skip_test_db[@]}" \
        --auth-root-authentication-method=normal > "$dir/install-db.log" 2>&1 \
        || { tail -n 20 "$dir/install-db.log"; die "mariadb-install-db failed"; }
    say "Starting MariaDB on 127.0.0.1:$DB_PORT"
    "$MARIADBD" --no-defaults "${as_root[@]}" \
        --datadir="$dir/data" --socket="$dir/mariadb.sock" --pid-file="$dir/mariadb.pid" \
        --port="$DB_PORT" --bind-address=127.0.0.1 --log-error="$dir/error.log" \
        --skip-name-resolve --skip-log-bin --performance-schema=OFF --innodb-buffer-pool-size=64M \
        > "$dir/stdout.log" 2>&1 < /dev/null &
    MARIADB_PID=$!
    wait_until 60 "$MARIADB_PID" "$MARIADB_ADMIN" --no-defaults --socket="$dir/mariadb.sock" -uroot ping \
        || { tail -n 30 "$dir/error.log" || true; die "MariaDB did not start"; }

    local drops rows="" shard0="" shard1="" i
    for ((i = 1; i <= 100; i++)); do rows+="${rows:+,}($i, $((i * 7 % 100)), 'row-$i')"; done
    for ((i = 1; i <= 10; i++)); do
        if ((i % 2 == 0)); then shard0+="${shard0:+,}($i, $((i * 7 % 10)), 'row-$i')"
        else shard1+="${shard1:+,}($i, $((i * 7 % 10)), 'row-$i')"; fi
    done
    drops=$(db_root -N -e "SELECT CONCAT('DROP USER ''''@''', host, ''';') FROM mysql.user WHERE user = ''")
    db_root -e "$drops
        CREATE DATABASE trace; CREATE DATABASE shop_0; CREATE DATABASE shop_1;
        CREATE USER 'trace'@'%' IDENTIFIED BY 'trace';
        GRANT ALL ON trace.* TO 'trace'@'%'; GRANT ALL ON shop_0.* TO 'trace'@'%'; GRANT ALL ON shop_1.* TO 'trace'@'%';
        CREATE TABLE trace.t (id INT PRIMARY KEY, k INT NOT NULL, c VARCHAR(60) NOT NULL);
        INSERT INTO trace.t VALUES $rows;
        CREATE TABLE shop_0.t_order (id INT PRIMARY KEY, k INT NOT NULL, c VARCHAR(60) NOT NULL);
        CREATE TABLE shop_1.t_order LIKE shop_0.t_order;
        INSERT INTO shop_0.t_order VALUES $shard0;
        INSERT INTO shop_1.t_order VALUES $shard1;" || die "could not create the schemas"
}

# The Strata of a configuration ("plain" or "sharded"): its own conf folder, bin/start.sh of the unpacked
# distribution, with the JVM options start.sh uses by default plus JFR's stack depth.
start_strata() {
    local config=$1 conf=$WORK_DIR/conf-$1 opts
    mkdir -p "$conf"
    [ -f "$STRATA_HOME/conf/logback.xml" ] && cp "$STRATA_HOME/conf/logback.xml" "$conf/"
    cat > "$conf/server.yaml" <<EOF
# Written by bench/trace-statement.sh.
server:
  host: 127.0.0.1
  port: $STRATA_PORT
users:
  - { name: trace, password: trace, databases: ["*"], admin: true }
EOF
    if [ "$config" = plain ]; then
        cat > "$conf/config-trace.yaml" <<EOF
# Written by bench/trace-statement.sh: the empty rule chain.
databaseName: trace
dataSources:
  ds_0:
    url: "jdbc:mariadb://127.0.0.1:$DB_PORT/trace"
    username: trace
    password: trace
    maximumPoolSize: 8
rules: []
EOF
    else
        cat > "$conf/config-shop.yaml" <<EOF
# Written by bench/trace-statement.sh: t_order sharded by id % 2 over two data sources.
databaseName: shop
dataSources:
  ds_0:
    url: "jdbc:mariadb://127.0.0.1:$DB_PORT/shop_0"
    username: trace
    password: trace
    maximumPoolSize: 8
  ds_1:
    url: "jdbc:mariadb://127.0.0.1:$DB_PORT/shop_1"
    username: trace
    password: trace
    maximumPoolSize: 8
rules:
  - type: SHARDING
    tables:
      t_order:
        actualDataNodes: ds_\${0..1}.t_order
        databaseStrategy: { standard: { shardingColumn: id, shardingAlgorithmName: id_mod_2 } }
    shardingAlgorithms:
      id_mod_2: { type: MOD, props: { sharding-count: 2 } }
EOF
    fi
    # start.sh -h prints the JVM options it uses when STRATA_JAVA_OPTS is not set.
    opts=$("$STRATA_HOME/bin/start.sh" -h | sed -n 's/.*(default here: \(.*\))$/\1/p')
    opts="$opts -XX:FlightRecorderOptions:stackdepth=$STACK_DEPTH"
    say "Starting Strata ($config) on 127.0.0.1:$STRATA_PORT, STRATA_JAVA_OPTS=$opts"
    rm -f "$STRATA_HOME/logs/strata.pid"
    STRATA_JAVA_OPTS=$opts JAVA_HOME=$JDK_HOME \
        "$STRATA_HOME/bin/start.sh" -c "$conf" -p "$STRATA_PORT" > "$WORK_DIR/start-$config.log" 2>&1 \
        || { cat "$WORK_DIR/start-$config.log"; die "Strata did not start"; }
    STRATA_PID=$(tr -d '[:space:]' < "$STRATA_HOME/logs/strata.pid")
    wait_until 60 "$STRATA_PID" "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$STRATA_PORT" \
        -utrace -ptrace -e "SELECT 1" \
        || { tail -n 30 "$STRATA_HOME/logs/stdout.log" || true; die "Strata does not answer on $STRATA_PORT"; }
}

stop_strata() {
    [ -n "$STRATA_PID" ] && stop_pid Strata "$STRATA_PID" 30
    STRATA_PID=""
}

# ---- run ----------------------------------------------------------------------------------------------------------

say "Unpacking $DIST"
if [ -d "$DIST" ]; then
    cp -a "$DIST" "$WORK_DIR/dist"
    STRATA_HOME=$WORK_DIR/dist
else
    mkdir -p "$WORK_DIR/dist"
    tar -xzf "$DIST" -C "$WORK_DIR/dist" || die "cannot unpack $DIST"
    STRATA_HOME=$(find "$WORK_DIR/dist" -mindepth 1 -maxdepth 3 -type f -path '*/bin/start.sh' | head -n 1)
    STRATA_HOME=${STRATA_HOME%/bin/start.sh}
fi
[ -n "$STRATA_HOME" ] && [ -x "$STRATA_HOME/bin/start.sh" ] || die "$DIST holds no bin/start.sh"
rm -f "$STRATA_HOME/logs/strata.pid"
CONNECTOR=$(ls "$STRATA_HOME"/lib/mariadb-java-client-*.jar | head -n 1)

# The method-trace filter: every class of the jars that hold io/strata classes (a filter names a class exactly, or
# a class's method as Class::method, or an annotation as @Type; ";" between them; no packages or wildcards). Nested
# and anonymous classes are classes of their own and are listed too; a lambda's hidden class cannot be instrumented.
STRATA_JARS=()
for jar in "$STRATA_HOME"/lib/*.jar; do
    "$JAR" tf "$jar" | grep -q '^io/strata/.*\.class$' && STRATA_JARS+=("$jar")
done
[ ${#STRATA_JARS[@]} -gt 0 ] || die "no jar in $STRATA_HOME/lib holds io/strata classes"
for jar in "${STRATA_JARS[@]}"; do "$JAR" tf "$jar"; done \
    | grep '^io/strata/.*\.class$' | grep -v -e 'module-info' -e 'package-info' \
    | sed -e 's/\.class$//' -e 's#/#.#g' | sort -u > "$WORK_DIR/classes.txt"
FILTER=$(paste -sd';' "$WORK_DIR/classes.txt")
JFC=$WORK_DIR/method-trace.jfc
cat > "$JFC" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by bench/trace-statement.sh: jdk.MethodTrace on every class of Strata's jars, nothing else. -->
<configuration version="2.0" label="Strata method trace">
  <event name="jdk.MethodTrace">
    <setting name="enabled">true</setting>
    <setting name="filter">$FILTER</setting>
    <setting name="threshold">0 ms</setting>
    <setting name="stackTrace">true</setting>
  </event>
</configuration>
EOF

echo "bench/trace-statement.sh, $(date '+%Y-%m-%d %H:%M:%S')"
echo "repository:   $REPO_DIR at $(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$REPO_DIR" diff --quiet HEAD -- 2>/dev/null || echo ' (with local changes)')"
echo "distribution: $DIST ($(date -r "$DIST" '+built %Y-%m-%d %H:%M:%S'))"
echo "Java:         $JAVA_BIN ($("$JAVA_BIN" -version 2>&1 | head -n 1))"
echo "MariaDB:      $("$MARIADBD" --version 2>/dev/null | head -n 1)"
echo "filter:       jdk.MethodTrace on $(wc -l < "$WORK_DIR/classes.txt") classes of $(basename -a "${STRATA_JARS[@]}" | paste -sd' ')"
echo "method:       $WARMUP warm-up executions, then a recording of a 1 s quiet window and $RUNS traced execution(s),"
echo "              500 ms apart; figures of the first; events whose entry into Strata is periodic background work"
echo "              (seen in the quiet window, or listed in bench/TraceStatement.java) left out"
echo "recordings:   $REC_DIR"
echo

start_mariadb

sql_of() {
    case "$1" in
        plain) echo "$PLAIN_SQL" ;;
        select1) echo "$SELECT1_SQL" ;;
        sharded) echo "$SHARDED_SQL" ;;
    esac
}

config_of() {
    case "$1" in
        plain|select1) echo plain ;;
        sharded) echo sharded ;;
    esac
}

running=""
for c in $CASES; do
    config=$(config_of "$c")
    if [ "$running" != "$config" ]; then
        stop_strata
        start_strata "$config"
        running=$config
    fi
    db=trace
    [ "$config" = sharded ] && db=shop
    say "Case $c: $(sql_of "$c")"
    "$JAVA_BIN" -cp "$CONNECTOR" "$SCRIPT_DIR/TraceStatement.java" trace "$c" \
        "jdbc:mariadb://127.0.0.1:$STRATA_PORT/$db?user=trace&password=trace" "$(sql_of "$c")" "$STRATA_PID" \
        "$JCMD" "$JFC" "$REC_DIR" "$WARMUP" "$RUNS" | tee "$WORK_DIR/report-$c.txt" \
        || die "the trace of case $c failed"
done
stop_strata

echo
echo "==== Summary (first traced run of each case)"
printf '%-9s %6s %9s %8s %7s %6s %8s %10s %9s %8s %9s %5s\n' case types top-level methods lambdas calls entries \
    strata-depth callbacks cf-stages segments agree
for c in $CASES; do
    line=$(grep '^SUMMARY ' "$WORK_DIR/report-$c.txt" || true)
    [ -n "$line" ] || continue
    get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
    printf '%-9s %6s %9s %8s %7s %6s %8s %10s %9s %8s %9s %5s\n' "$c" "$(get types)" "$(get top_level_types)" \
        "$(get methods)" "$(get lambda_bodies)" "$(get calls)" "$(get entries)" "$(get max_strata_depth)" \
        "$(get max_callback_nesting)" "$(get max_future_stages)" "$(get max_strata_segments)" "$(get runs_agree)"
done
cat <<EOF

types: classes of io.strata.. that ran (nested and anonymous classes count apart; top-level: folded into the class
of their source file). methods: distinct methods (with descriptor), lambda bodies included. calls: traced calls.
entries: entries into Strata from outside (a Netty handler call, a task an event loop or executor runs).
strata-depth: most Strata frames in one stack. callbacks: most lambda bodies and anonymous-class methods in one stack.
cf-stages: most CompletableFuture tryFire frames in one stack. segments: most runs of Strata frames in one stack that
library code separates (Strata calls a library, which calls Strata back). agree: the other traced runs ran the same
methods.
Report: $OUT_FILE
EOF
