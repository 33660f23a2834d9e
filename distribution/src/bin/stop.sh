#!/usr/bin/env bash
#
# Stops the Strata proxy started by start.sh (background mode).
#
# Reads the pid from ../logs/strata.pid, sends TERM, waits up to STRATA_STOP_TIMEOUT
# seconds (default 45) for a graceful shutdown, then sends KILL. On TERM, Strata takes
# no new connections and lets running statements and open transactions finish for up
# to server.shutdownTimeout (30 s by default), so the wait here is longer. Exits 0 when
# Strata was stopped or was not running.

set -u

MAIN_CLASS="io.strata.bootstrap.Main"
TIMEOUT=${STRATA_STOP_TIMEOUT:-45}

BIN_DIR=$(cd "$(dirname "$0")" && pwd) || exit 1
BASE_DIR=$(cd "$BIN_DIR/.." && pwd) || exit 1
PID_FILE="$BASE_DIR/logs/strata.pid"

usage() {
    cat <<EOF
Usage: $(basename "$0") [-h]

Stops the Strata proxy whose pid is in $PID_FILE:
sends TERM, waits up to $TIMEOUT seconds, then sends KILL.

Options:
  -h  show this help
EOF
}

case "${1:-}" in
    '') ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; echo "ERROR: unexpected argument: $1" >&2; exit 1 ;;
esac

# True when the pid is a live Strata process (falls back to a bare liveness
# check when ps is not available).
is_strata_running() {
    local pid=$1
    case "$pid" in ''|*[!0-9]*) return 1 ;; esac
    kill -0 "$pid" 2>/dev/null || return 1
    if command -v ps >/dev/null 2>&1; then
        ps -p "$pid" -o args= 2>/dev/null | grep -q "$MAIN_CLASS"
    fi
}

# True while the pid exists and is not a zombie (an exited process whose parent
# has not collected it yet).
is_alive() {
    kill -0 "$1" 2>/dev/null || return 1
    if command -v ps >/dev/null 2>&1; then
        case "$(ps -p "$1" -o stat= 2>/dev/null)" in
            Z*|'') return 1 ;;
        esac
    fi
    return 0
}

if [ ! -f "$PID_FILE" ]; then
    echo "Strata is not running (no pid file $PID_FILE)."
    exit 0
fi

PID=$(tr -d '[:space:]' < "$PID_FILE")
if ! is_strata_running "$PID"; then
    echo "Strata is not running (pid ${PID:-?} from $PID_FILE is not a running Strata process); removing the stale pid file."
    rm -f "$PID_FILE"
    exit 0
fi

printf 'Stopping Strata (pid %s) ' "$PID"
kill -TERM "$PID" 2>/dev/null

waited=0
while is_alive "$PID" && [ "$waited" -lt "$TIMEOUT" ]; do
    printf '.'
    sleep 1
    waited=$((waited + 1))
done
echo

if is_alive "$PID"; then
    echo "Strata did not stop within $TIMEOUT s; sending KILL to pid $PID."
    kill -KILL "$PID" 2>/dev/null
    waited=0
    while is_alive "$PID" && [ "$waited" -lt 5 ]; do
        sleep 1
        waited=$((waited + 1))
    done
    if is_alive "$PID"; then
        echo "ERROR: pid $PID is still alive after KILL; pid file kept." >&2
        exit 1
    fi
    echo "Strata killed."
else
    echo "Strata stopped."
fi
rm -f "$PID_FILE"
