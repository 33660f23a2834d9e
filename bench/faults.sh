#!/usr/bin/env bash
#
# bench/faults.sh: Strata under load while things break, and what the clients saw.
#
#   --backend-kills N   64 sessions of reads and short write transactions (plus idle sessions) run while the
#                       backend MariaDB is killed with SIGKILL N times and restarted 2 s later; reports each
#                       outage (how long until Strata served again once MariaDB was back) and what the clients
#                       saw: errors by code, how many named the data source, connections lost, the slowest answer
#   --strata-kills N    a ledger load (BEGIN; INSERT ledger_a; INSERT ledger_b; COMMIT with unique ids) while
#                       Strata is killed with SIGKILL N times and restarted; then, on MariaDB itself, every
#                       acknowledged commit must be there and no transaction half-applied
#   --stops N           the same ledger load (with a SELECT SLEEP(0.1) inside each transaction) and a sysbench
#                       oltp_read_write run while Strata is stopped with bin/stop.sh N times and restarted;
#                       no error may hit a transaction after its BEGIN, no acknowledged commit may be lost
#
# The set-up is bench/run.sh's (a private MariaDB with one sysbench table and Strata from the distribution
# tarball on its start.sh defaults), kept running with --keep and stopped after. The clients are
# bench/FaultClients.java on the JDK that runs Strata, with the distribution's MariaDB Connector/J.
# Exits non-zero if a promise failed (a lost or half-applied commit, a transaction cut by a graceful stop,
# a connection closed under an idle session, an outage Strata took more than 5 s to get over).

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$SCRIPT_DIR/common.sh"

BACKEND_KILLS=0
STRATA_KILLS=0
STOPS=0
SESSIONS=64
IDLE_SESSIONS=64
BASE_PORT=13606
STRATA_DIST=""

usage() {
    cat <<EOF
Usage: bench/faults.sh [--backend-kills N] [--strata-kills N] [--stops N]
                       [--sessions N] [--idle-sessions N] [--strata-dist PATH] [--base-port N]

  --backend-kills N   SIGKILL the backend N times under load (issue 31: 20)
  --strata-kills N    SIGKILL Strata N times under a ledger load (issue 31: 20)
  --stops N           bin/stop.sh N times under a ledger load and sysbench (issue 31's graceful stop)
  --sessions N        busy sessions of the backend-kill load and ledger sessions (default $SESSIONS)
  --idle-sessions N   sessions of the backend-kill load that run a read every 5-15 s (default $IDLE_SESSIONS)
  --strata-dist P     the distribution tarball (default: the newest of distribution/target)
  --base-port N       MariaDB on N, Strata on N+2 (default $BASE_PORT)

Example (the figures in docs/reliability.md):
  bench/faults.sh --backend-kills 20 --strata-kills 20 --stops 5
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --backend-kills) need_value "$@"; BACKEND_KILLS=$2; shift ;;
        --strata-kills) need_value "$@"; STRATA_KILLS=$2; shift ;;
        --stops) need_value "$@"; STOPS=$2; shift ;;
        --sessions) need_value "$@"; SESSIONS=$2; shift ;;
        --idle-sessions) need_value "$@"; IDLE_SESSIONS=$2; shift ;;
        --strata-dist) need_value "$@"; STRATA_DIST=$2; shift ;;
        --base-port) need_value "$@"; BASE_PORT=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done
for n in "$BACKEND_KILLS" "$STRATA_KILLS" "$STOPS" "$SESSIONS" "$IDLE_SESSIONS" "$BASE_PORT"; do
    [[ "$n" =~ ^[0-9]+$ ]] || die "expected a whole number, got '$n'"
done
[ $((BACKEND_KILLS + STRATA_KILLS + STOPS)) -gt 0 ] || { usage; exit 2; }

kept_setup faults 1 "$BASE_PORT" "$STRATA_DIST"
DB_PORT=$BASE_PORT
CLIENT_PID=""
SYSBENCH_PID=""
FAILED=0

cleanup() {
    [ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2>/dev/null || true
    [ -n "$SYSBENCH_PID" ] && kill "$SYSBENCH_PID" 2>/dev/null || true
    stop_pid Strata "$STRATA_PID" 30
    stop_pid MariaDB "$MARIADB_PID" 60
    [ -n "$WORK_DIR" ] && [ -d "$WORK_DIR" ] && rm -rf "$WORK_DIR"
}
trap cleanup EXIT

JAVA_BIN=$(readlink -f "/proc/$STRATA_PID/exe")
STRATA_HOME=$(find "$WORK_DIR/strata-dist" -mindepth 1 -maxdepth 3 -type f -path '*/bin/start.sh' | head -n 1)
STRATA_HOME=${STRATA_HOME%/bin/start.sh}
CONNECTOR=$(ls "$STRATA_HOME"/lib/mariadb-java-client-*.jar | head -n 1)
MARIADB=$(find_bin mariadb) || die "mariadb client not found"
MARIADB_ADMIN=$(find_bin mariadb-admin) || die "mariadb-admin not found"
SOCKET=$WORK_DIR/mariadb/mariadb.sock
# MariaDB's command line as bench/run.sh started it, to start it again the same way after a kill
mapfile -d '' MARIADB_CMD < "/proc/$MARIADB_PID/cmdline"
STRATA_URL="jdbc:mariadb://127.0.0.1:$STRATA_PORT/sbtest?user=sbtest&password=sbtest&connectTimeout=5000&socketTimeout=60000"
DB_URL="jdbc:mariadb://127.0.0.1:$DB_PORT/sbtest?user=sbtest&password=sbtest"

db_root() { "$MARIADB" --no-defaults --socket="$SOCKET" -uroot sbtest -e "$1"; }
now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
random_sleep() { sleep "$(awk -v lo="$1" -v hi="$2" 'BEGIN { srand(); printf "%.2f", lo + rand() * (hi - lo) }')"; }
through_strata() {
    "$MARIADB" --no-defaults --protocol=TCP -h127.0.0.1 -P"$STRATA_PORT" -usbtest -psbtest sbtest -N -e "$1"
}

start_clients() {
    local log=$1
    shift
    rm -f "$WORK_DIR/stop-clients"
    "$JAVA_BIN" -cp "$CONNECTOR" "$SCRIPT_DIR/FaultClients.java" "$@" > "$log" 2>&1 &
    CLIENT_PID=$!
    # the source launcher compiles first: the faults start once every session is connected
    wait_until 120 "$CLIENT_PID" grep -q '^ready' "$log" || { cat "$log" >&2; die "the clients did not start"; }
}

stop_clients() {
    touch "$WORK_DIR/stop-clients"
    wait "$CLIENT_PID" || true
    CLIENT_PID=""
}

restart_mariadb() {
    "${MARIADB_CMD[@]}" >> "$WORK_DIR/mariadb/restarts.log" 2>&1 < /dev/null &
    MARIADB_PID=$!
    wait_until 120 "$MARIADB_PID" "$MARIADB_ADMIN" --no-defaults --socket="$SOCKET" -uroot ping \
        || die "MariaDB did not come back (log: $WORK_DIR/mariadb/error.log)"
}

restart_strata() {
    "$STRATA_HOME/bin/start.sh" -c "$WORK_DIR/strata-conf" -p "$STRATA_PORT" >> "$WORK_DIR/strata-restarts.log" 2>&1 \
        || { tail -n 20 "$WORK_DIR/strata-restarts.log" >&2; die "Strata did not start again"; }
    STRATA_PID=$(tr -d '[:space:]' < "$STRATA_HOME/logs/strata.pid")
    wait_until 60 "$STRATA_PID" through_strata "SELECT 1" || die "Strata does not answer after its restart"
}

reset_ledger() {
    db_root "DROP TABLE IF EXISTS ledger_a, ledger_b;
        CREATE TABLE ledger_a (id BIGINT PRIMARY KEY, at TIMESTAMP(6) DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB;
        CREATE TABLE ledger_b (id BIGINT PRIMARY KEY, at TIMESTAMP(6) DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB;"
}

check_ledger() {
    local acked=$1 out
    if out=$("$JAVA_BIN" -cp "$CONNECTOR" "$SCRIPT_DIR/FaultClients.java" check "$DB_URL" "$acked" 2>&1); then
        echo "    on MariaDB: $out"
    else
        echo "    on MariaDB: $out   <-- FAILED"
        FAILED=1
    fi
}

say "Strata pid $STRATA_PID on port $STRATA_PORT, MariaDB pid $MARIADB_PID on port $DB_PORT ($("$JAVA_BIN" -version 2>&1 | head -n 1))"

if [ "$BACKEND_KILLS" -gt 0 ]; then
    db_root "CREATE TABLE IF NOT EXISTS fault_mixed (id BIGINT PRIMARY KEY) ENGINE=InnoDB"
    say "Backend kills: $SESSIONS busy and $IDLE_SESSIONS idle sessions; MariaDB killed (SIGKILL) $BACKEND_KILLS times"
    LOG=$WORK_DIR/mixed.log
    start_clients "$LOG" mixed "$STRATA_URL" "$WORK_DIR/stop-clients" "$SESSIONS" "$IDLE_SESSIONS"
    sleep 10
    worst=0
    for ((i = 1; i <= BACKEND_KILLS; i++)); do
        random_sleep 3 6
        kill -KILL "$MARIADB_PID"
        wait "$MARIADB_PID" 2>/dev/null || true
        killed=$(now)
        sleep 2
        restart_mariadb
        up=$(now)
        until through_strata "SELECT c FROM sbtest1 WHERE id = 1" > /dev/null 2>&1; do
            sleep 0.05
        done
        serving=$(seconds_since "$up")
        printf '    kill %2d: MariaDB back %5.2f s after the kill; Strata serving %4.2f s after that\n' "$i" \
            "$(awk -v a="$killed" -v b="$up" 'BEGIN { print b - a }')" "$serving"
        worst=$(awk -v a="$worst" -v b="$serving" 'BEGIN { print (b > a ? b : a) }')
    done
    sleep 5
    stop_clients
    grep -v '^ready' "$LOG" | sed 's/^/    clients: /'
    echo "    slowest return to service after MariaDB was back: $worst s"
    awk -v w="$worst" 'BEGIN { exit !(w > 5) }' && { echo "    <-- FAILED: more than 5 s"; FAILED=1; }
    grep -q 'idle sessions: errors [0-9]*, connections closed 0 ' "$LOG" || { echo "    <-- FAILED: an idle session lost its connection"; FAILED=1; }
fi

if [ "$STRATA_KILLS" -gt 0 ]; then
    reset_ledger
    say "Strata kills: $SESSIONS ledger sessions; Strata killed (SIGKILL) $STRATA_KILLS times and restarted"
    LOG=$WORK_DIR/ledger-kills.log
    start_clients "$LOG" ledger "$STRATA_URL" "$WORK_DIR/stop-clients" "$SESSIONS" 0 "$WORK_DIR/acked-kills"
    sleep 5
    for ((i = 1; i <= STRATA_KILLS; i++)); do
        random_sleep 1 4
        kill -KILL "$STRATA_PID"
        wait "$STRATA_PID" 2>/dev/null || true
        started=$(now)
        restart_strata
        printf '    kill %2d: Strata answering again %.2f s after the kill\n' "$i" "$(seconds_since "$started")"
    done
    sleep 5
    stop_clients
    grep -v '^ready' "$LOG" | sed 's/^/    clients: /'
    check_ledger "$WORK_DIR/acked-kills"
fi

if [ "$STOPS" -gt 0 ]; then
    reset_ledger
    SYSBENCH=$(find_bin sysbench) || die "sysbench not found"
    say "Graceful stops: $SESSIONS ledger sessions (0.1 s inside each transaction) and sysbench oltp_read_write" \
        "(16 threads); bin/stop.sh $STOPS times, then start.sh"
    LOG=$WORK_DIR/ledger-stops.log
    start_clients "$LOG" ledger "$STRATA_URL" "$WORK_DIR/stop-clients" "$SESSIONS" 100 "$WORK_DIR/acked-stops"
    for ((i = 1; i <= STOPS; i++)); do
        SB_LOG=$WORK_DIR/sysbench-stop-$i.log
        "$SYSBENCH" oltp_read_write --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$STRATA_PORT" \
            --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest --tables=1 --table-size=10000 \
            --threads=16 --time=600 --db-ps-mode=disable run > "$SB_LOG" 2>&1 &
        SYSBENCH_PID=$!
        sleep 5
        started=$(now)
        "$STRATA_HOME/bin/stop.sh" > "$WORK_DIR/stop-$i.log" 2>&1 || { cat "$WORK_DIR/stop-$i.log" >&2; die "stop.sh failed"; }
        took=$(seconds_since "$started")
        wait "$SYSBENCH_PID" 2>/dev/null || true
        SYSBENCH_PID=""
        # what sysbench's threads saw: the error, and the statement it hit
        seen=$(grep -oE "error [0-9]+ \([^)]*\) for query '[A-Z]+[^']{0,20}" "$SB_LOG" | sed -E "s/ for query '([A-Z]+).*/ at \1/" \
            | sort | uniq -c | awk '{ c = $1; $1 = ""; printf "%s%s x%s", (n++ ? ", " : ""), substr($0, 2), c }')
        restart_strata
        printf '    stop %d: stop.sh took %.2f s; sysbench saw: %s\n' "$i" "$took" "${seen:-nothing}"
        if grep -oE "for query '[A-Z]+" "$SB_LOG" | grep -qvE "'(BEGIN|START)"; then
            echo "    <-- FAILED: sysbench saw an error inside a transaction ($SB_LOG)"; FAILED=1
            cp "$SB_LOG" /tmp/
        fi
    done
    sleep 5
    stop_clients
    grep -v '^ready' "$LOG" | sed 's/^/    clients: /'
    grep -q 'inside a transaction (after its BEGIN was answered) 0$' "$LOG" \
        || { echo "    <-- FAILED: a graceful stop cut a transaction"; FAILED=1; }
    check_ledger "$WORK_DIR/acked-stops"
fi

[ "$FAILED" -eq 0 ] && say "Every promise held" || say "A promise failed (see <-- FAILED above)"
exit "$FAILED"
