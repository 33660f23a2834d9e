#!/usr/bin/env bash
#
# bench/sharding/bulk-insert.sh: how long a multi-row INSERT into a sharded table takes through Strata,
# against the same INSERT into one plain MariaDB schema, with the mariadb command-line client.
#
# It starts a private MariaDB (schemas plain, shop_0, shop_1) and Strata from the distribution tarball
# with a SHARDING rule: t_order split by user_id (MOD 2, the data sources shop_0 and shop_1) and by
# order_id (INLINE, t_order_0 and t_order_1 on each). Then it runs, in one client session each, the same
# statements against Strata and against the plain schema, one after the other in every round: one
# INSERT of --rows rows (new order ids each round), timed by the client. Round 1 is Strata's first such
# statement after its start (a cold JIT); the rest show the steady state. It prints each round's
# milliseconds and their ratio.
#
# Missing packages (mariadb-server, mariadb-client) are installed with apt-get, saying so. Everything it
# starts is stopped at the end, its temp folder removed.
#
#   bench/sharding/bulk-insert.sh [--rows N] [--rounds N] [--dist path/to/strata-proxy-*-bin.tar.gz]

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
. "$BENCH_DIR/common.sh"
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)

MIN_JAVA=21
JVM_DIR=/usr/lib/jvm
ROWS=300
ROUNDS=10
DIST=""
DB_PORT=33406
STRATA_PORT=33407

while [ $# -gt 0 ]; do
    case "$1" in
        --rows) need_value "$@"; ROWS=$2; shift 2 ;;
        --rounds) need_value "$@"; ROUNDS=$2; shift 2 ;;
        --dist) need_value "$@"; DIST=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
done

[ -n "$DIST" ] || DIST=$(ls "$REPO_DIR"/distribution/target/strata-proxy-*-bin.tar.gz 2>/dev/null | head -n 1 || true)
[ -f "$DIST" ] || die "no distribution tarball: build it with ./mvnw -q -DskipTests install, or give --dist"

install_missing
MARIADBD=$(find_bin mariadbd) || die "mariadbd not found (package mariadb-server)"
INSTALL_DB=$(find_bin mariadb-install-db) || die "mariadb-install-db not found (package mariadb-server)"
MARIADB=$(find_bin mariadb) || die "mariadb client not found (package mariadb-client)"
MARIADB_ADMIN=$(find_bin mariadb-admin) || die "mariadb-admin not found (package mariadb-client)"
select_java
port_in_use "$DB_PORT" && die "port $DB_PORT is in use"
port_in_use "$STRATA_PORT" && die "port $STRATA_PORT is in use"

WORK_DIR=$(mktemp -d)
MARIADB_PID=""
STRATA_HOME=""
cleanup() {
    [ -n "$STRATA_HOME" ] && "$STRATA_HOME/bin/stop.sh" >/dev/null 2>&1 || true
    [ -n "$MARIADB_PID" ] && stop_pid MariaDB "$MARIADB_PID"
    rm -rf "$WORK_DIR"
}
trap cleanup EXIT

db_root() {
    "$MARIADB" --no-defaults --socket="$WORK_DIR/mariadb.sock" -uroot "$@"
}

say "Starting MariaDB on 127.0.0.1:$DB_PORT"
as_root=()
[ "$(id -u)" -eq 0 ] && as_root=(--user=root)
"$INSTALL_DB" --no-defaults --datadir="$WORK_DIR/data" "${as_root[@]}" --auth-root-authentication-method=normal \
    > "$WORK_DIR/install-db.log" 2>&1 || die "mariadb-install-db failed (log: $WORK_DIR/install-db.log)"
"$MARIADBD" --no-defaults "${as_root[@]}" --datadir="$WORK_DIR/data" --socket="$WORK_DIR/mariadb.sock" \
    --port="$DB_PORT" --bind-address=127.0.0.1 --log-error="$WORK_DIR/error.log" --skip-name-resolve \
    --skip-log-bin --innodb-flush-log-at-trx-commit=2 > /dev/null 2>&1 < /dev/null &
MARIADB_PID=$!
wait_until 60 "$MARIADB_PID" "$MARIADB_ADMIN" --no-defaults --socket="$WORK_DIR/mariadb.sock" -uroot ping \
    || die "MariaDB did not start (log: $WORK_DIR/error.log)"
db_root -e "CREATE DATABASE plain; CREATE DATABASE shop_0; CREATE DATABASE shop_1;
    CREATE USER 'app'@'%' IDENTIFIED BY 'app'; GRANT ALL PRIVILEGES ON *.* TO 'app'@'%';"

say "Starting Strata from $(basename "$DIST") on 127.0.0.1:$STRATA_PORT"
tar xzf "$DIST" -C "$WORK_DIR"
STRATA_HOME=$(echo "$WORK_DIR"/strata-proxy-*)
rm -f "$STRATA_HOME"/conf/config-*.yaml
cat > "$STRATA_HOME/conf/config-shop.yaml" <<EOF
databaseName: shop
dataSources:
  ds_0: { url: "jdbc:mariadb://127.0.0.1:$DB_PORT/shop_0", username: app, password: app }
  ds_1: { url: "jdbc:mariadb://127.0.0.1:$DB_PORT/shop_1", username: app, password: app }
rules:
  - type: SHARDING
    tables:
      t_order:
        actualDataNodes: ds_\${0..1}.t_order_\${0..1}
        databaseStrategy: { standard: { shardingColumn: user_id, shardingAlgorithmName: database_mod } }
        tableStrategy: { standard: { shardingColumn: order_id, shardingAlgorithmName: t_order_inline } }
    shardingAlgorithms:
      database_mod: { type: MOD, props: { sharding-count: 2 } }
      t_order_inline: { type: INLINE, props: { algorithm-expression: "t_order_\${order_id % 2}" } }
EOF
"$STRATA_HOME/bin/start.sh" -p "$STRATA_PORT" > /dev/null

CREATE="CREATE TABLE t_order (order_id BIGINT PRIMARY KEY, user_id INT NOT NULL, status VARCHAR(10), amount DECIMAL(10,2))"
strata() { "$MARIADB" --no-defaults -h127.0.0.1 -P"$STRATA_PORT" -uroot -proot --skip-ssl shop "$@"; }
plain() { "$MARIADB" --no-defaults -h127.0.0.1 -P"$DB_PORT" -uapp -papp --skip-ssl plain "$@"; }
strata -e "$CREATE"
plain -e "$CREATE"

# One INSERT of ROWS rows, order ids from $1 on.
insert_of() {
    local from=$1 i sql="INSERT INTO t_order (order_id, user_id, status, amount) VALUES "
    for ((i = 0; i < ROWS; i++)); do
        [ "$i" -gt 0 ] && sql+=", "
        sql+="($((from + i)), $(((from + i) * 7 % 13)), 'new', $((i % 100)).50)"
    done
    echo "$sql;"
}

# The client's own timing of the statement, in ms: run with --verbose --verbose --verbose it prints
# "N rows affected (X.YYY sec)".
timed_ms() {
    local target=$1 file=$2 out
    out=$("$target" -vvv < "$file" | grep -Eo '\([0-9.]+ sec\)' | tail -n 1 | tr -d '()sec ')
    awk -v s="$out" 'BEGIN { printf "%.0f", s * 1000 }'
}

say "$ROUNDS rounds of one $ROWS-row INSERT, Strata then plain MariaDB in each"
printf '%-6s %10s %10s %8s\n' round strata_ms plain_ms ratio
for ((r = 1; r <= ROUNDS; r++)); do
    insert_of $((r * 100000)) > "$WORK_DIR/insert.sql"
    s=$(timed_ms strata "$WORK_DIR/insert.sql")
    p=$(timed_ms plain "$WORK_DIR/insert.sql")
    printf '%-6s %10s %10s %8s\n' "$r" "$s" "$p" "$(awk -v a="$s" -v b="$p" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
done
rows=$(( $("$MARIADB" --no-defaults -N -h127.0.0.1 -P"$DB_PORT" -uapp -papp --skip-ssl -e \
    "SELECT (SELECT COUNT(*) FROM shop_0.t_order_0) + (SELECT COUNT(*) FROM shop_0.t_order_1)
          + (SELECT COUNT(*) FROM shop_1.t_order_0) + (SELECT COUNT(*) FROM shop_1.t_order_1)") ))
say "rows on the shards: $rows (expected $((ROWS * ROUNDS)))"
[ "$rows" -eq $((ROWS * ROUNDS)) ] || die "the shards hold $rows rows"
