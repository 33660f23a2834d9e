#!/usr/bin/env bash
#
# bench/load.sh: many clients at once through Strata, and what they cost it.
#
#   --idle N       N client connections log in, run SELECT 1 and then sit idle; reports Strata's heap after a
#                  full GC, its resident memory and its threads, with no client and with the N
#   --sysbench N   N sysbench oltp_read_write connections for --time seconds through Strata's 64-connection
#                  pool; reports QPS, errors (deadlocks apart: the database's own) and Strata's peak heap
#                  (sampled every second) and peak resident memory
#
# The set-up is bench/run.sh's (a private MariaDB with the sysbench tables and Strata from the
# distribution tarball, its start.sh defaults), kept running for the load with --keep and stopped after.
# Needs what bench/run.sh needs; the idle clients are bench/IdleClients.java on the JDK that runs Strata,
# with the distribution's MariaDB Connector/J.

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$SCRIPT_DIR/common.sh"
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)

IDLE=0
SYSBENCH_CLIENTS=0
TIME=300
TABLES=8
PS_MODE=disable
BASE_PORT=13506
STRATA_DIST=""

usage() {
    cat <<EOF
Usage: bench/load.sh [--idle N] [--sysbench N] [--time SECONDS] [--tables N]
                     [--strata-dist PATH] [--base-port N]

  --idle N          N idle client connections (issue 31: 10000)
  --sysbench N      N sysbench oltp_read_write connections (issue 31: 2000)
  --time SECONDS    length of the sysbench run (default $TIME)
  --tables N        sysbench tables of 10,000 rows (default $TABLES: more tables, fewer deadlocks)
  --ps-mode M       sysbench --db-ps-mode (default $PS_MODE: with auto each of 2,000 threads prepares
                    its statements for every table before sysbench's 30 s start-up limit)
  --strata-dist P   the distribution tarball (default: the newest of distribution/target)
  --base-port N     MariaDB on N, Strata on N+2 (default $BASE_PORT)

Example (the figures in docs/reliability.md):
  bench/load.sh --idle 10000 --sysbench 2000 --time 300
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --idle) need_value "$@"; IDLE=$2; shift ;;
        --sysbench) need_value "$@"; SYSBENCH_CLIENTS=$2; shift ;;
        --time) need_value "$@"; TIME=$2; shift ;;
        --tables) need_value "$@"; TABLES=$2; shift ;;
        --ps-mode) need_value "$@"; PS_MODE=$2; shift ;;
        --strata-dist) need_value "$@"; STRATA_DIST=$2; shift ;;
        --base-port) need_value "$@"; BASE_PORT=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done
for n in "$IDLE" "$SYSBENCH_CLIENTS" "$TIME" "$TABLES" "$BASE_PORT"; do
    [[ "$n" =~ ^[0-9]+$ ]] || die "expected a whole number, got '$n'"
done
[ "$IDLE" -gt 0 ] || [ "$SYSBENCH_CLIENTS" -gt 0 ] || { usage; exit 2; }

kept_setup load "$TABLES" "$BASE_PORT" "$STRATA_DIST"
CLIENT_PID=""

cleanup() {
    [ -n "$CLIENT_PID" ] && kill "$CLIENT_PID" 2>/dev/null || true
    [ -n "${JSTAT_PID:-}" ] && kill "$JSTAT_PID" 2>/dev/null || true
    stop_pid Strata "$STRATA_PID" 30
    stop_pid MariaDB "$MARIADB_PID" 60
    [ -n "$WORK_DIR" ] && [ -d "$WORK_DIR" ] && rm -rf "$WORK_DIR"
}
trap cleanup EXIT

JAVA_BIN=$(readlink -f "/proc/$STRATA_PID/exe")
JAVA_DIR=$(dirname "$JAVA_BIN")
STRATA_HOME=$(find "$WORK_DIR/strata-dist" -mindepth 1 -maxdepth 3 -type f -path '*/bin/start.sh' | head -n 1)
STRATA_HOME=${STRATA_HOME%/bin/start.sh}
CONNECTOR=$(ls "$STRATA_HOME"/lib/mariadb-java-client-*.jar | head -n 1)

status_kib() { awk -v k="$2:" '$1 == k { print $2; exit }' "/proc/$1/status"; }

# Heap in use after a full collection, in MiB (what the live objects take).
heap_after_gc_mib() {
    "$JAVA_DIR/jcmd" "$STRATA_PID" GC.run > /dev/null
    "$JAVA_DIR/jcmd" "$STRATA_PID" GC.heap_info | awk '/ heap +total/ || /garbage-first heap/ {
        for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K,?/, "", v); printf "%.1f", v / 1024; exit } }'
}

report_state() {
    printf '    %-28s heap after GC %7s MiB   RSS %7.1f MiB   threads %4s   open files %s\n' "$1" "$(heap_after_gc_mib)" \
        "$(awk -v k="$(status_kib "$STRATA_PID" VmRSS)" 'BEGIN { print k / 1024 }')" \
        "$(status_kib "$STRATA_PID" Threads)" \
        "$(ls /proc/"$STRATA_PID"/fd | wc -l)"
}

say "Strata pid $STRATA_PID on port $STRATA_PORT ($(tr '\0' ' ' < /proc/"$STRATA_PID"/cmdline | grep -oE -- '-Xm[sx][0-9]+[mg]' | tr '\n' ' '))"

if [ "$IDLE" -gt 0 ]; then
    say "Idle clients: $IDLE connections, each logged in and idle"
    report_state "no client"
    CLIENT_LOG=$(mktemp /tmp/strata-load-idle.XXXXXX)
    "$JAVA_BIN" -Xss256k -cp "$CONNECTOR" "$SCRIPT_DIR/IdleClients.java" "$STRATA_PORT" sbtest sbtest sbtest "$IDLE" \
        > "$CLIENT_LOG" 2>&1 &
    CLIENT_PID=$!
    for ((i = 0; i < 600; i++)); do
        grep -q '^ready' "$CLIENT_LOG" && break
        is_alive "$CLIENT_PID" || { cat "$CLIENT_LOG" >&2; die "the idle clients stopped"; }
        sleep 1
    done
    grep '^ready' "$CLIENT_LOG" | sed 's/^/    clients: /'
    report_state "$IDLE idle clients"
    kill "$CLIENT_PID" 2>/dev/null || true
    wait "$CLIENT_PID" 2>/dev/null || true
    CLIENT_PID=""
    sleep 3
    report_state "after they left"
fi

if [ "$SYSBENCH_CLIENTS" -gt 0 ]; then
    SYSBENCH=$(find_bin sysbench) || die "sysbench not found"
    say "sysbench: $SYSBENCH_CLIENTS oltp_read_write connections for $TIME s, --db-ps-mode=$PS_MODE (Strata's pool: 64 connections)"
    JSTAT_LOG=$(mktemp /tmp/strata-load-jstat.XXXXXX)
    "$JAVA_DIR/jstat" -gc "$STRATA_PID" 1000 > "$JSTAT_LOG" 2>&1 &
    JSTAT_PID=$!
    SB_LOG=$(mktemp /tmp/strata-load-sysbench.XXXXXX)
    rc=0
    "$SYSBENCH" oltp_read_write --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$STRATA_PORT" \
        --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest --tables="$TABLES" --table-size=10000 \
        --threads="$SYSBENCH_CLIENTS" --time="$TIME" --db-ps-mode="$PS_MODE" --report-interval=30 --mysql-ignore-errors=1213,1205,1020 \
        run > "$SB_LOG" 2>&1 || rc=$?
    kill "$JSTAT_PID" 2>/dev/null || true
    wait "$JSTAT_PID" 2>/dev/null || true
    JSTAT_PID=""
    grep -E '^\[ *[0-9]+s \]' "$SB_LOG" | sed 's/^/    /' || true
    # peak of S0U + S1U + EU + OU, columns found by name
    PEAK_HEAP=$(awk 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $1 ~ /^[0-9.]+$/ { u = $c["S0U"] + $c["S1U"] + $c["EU"] + $c["OU"]; if (u > m) m = u }
        END { printf "%.1f", m / 1024 }' "$JSTAT_LOG")
    [ "$rc" -eq 0 ] || { tail -n 5 "$SB_LOG" | sed 's/^/    sysbench: /'; }
    echo "    sysbench exit code $rc; queries $(awk '/queries:/ { print $2, $3; exit }' "$SB_LOG")," \
        "transactions $(awk '/transactions:/ { print $2, $3; exit }' "$SB_LOG")"
    echo "    ignored errors (deadlocks, lock waits) $(awk '/ignored errors:/ { print $3; exit }' "$SB_LOG")," \
        "reconnects $(awk '/reconnects:/ { print $2; exit }' "$SB_LOG")," \
        "other errors $(grep -c -E 'FATAL|ALERT' "$SB_LOG" || true)"
    echo "    Strata peak heap in use $PEAK_HEAP MiB (jstat, every second), peak RSS" \
        "$(awk -v k="$(status_kib "$STRATA_PID" VmHWM)" 'BEGIN { printf "%.1f", k / 1024 }') MiB (VmHWM)"
    report_state "after the run"
fi
