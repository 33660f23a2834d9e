#!/usr/bin/env bash
#
# Reloads the configuration of the Strata proxy started by start.sh (background mode).
#
# Sends HUP to the pid in ../logs/strata.pid. Strata reads its conf folder again, validates it
# whole and swaps it in between statements: no client connection is closed. A configuration
# with a mistake is refused and the running one stays; either way logs/strata.log says what
# happened (and SHOW STRATA CONFIG, as an administrator, tells the version now running).

set -u

MAIN_CLASS="io.strata.bootstrap.Main"
BIN_DIR=$(cd "$(dirname "$0")" && pwd) || exit 1
BASE_DIR=$(cd "$BIN_DIR/.." && pwd) || exit 1
PID_FILE="$BASE_DIR/logs/strata.pid"

case "${1:-}" in
    '') ;;
    -h|--help) echo "Usage: $(basename "$0") [-h]"; echo; echo "Sends HUP to the Strata in $PID_FILE: it reloads its configuration."; exit 0 ;;
    *) echo "ERROR: unexpected argument: $1 (usage: $(basename "$0") [-h])" >&2; exit 1 ;;
esac

if [ ! -f "$PID_FILE" ]; then
    echo "ERROR: Strata is not running (no pid file $PID_FILE)." >&2
    exit 1
fi
PID=$(tr -d '[:space:]' < "$PID_FILE")
case "$PID" in ''|*[!0-9]*) echo "ERROR: $PID_FILE holds no pid." >&2; exit 1 ;; esac
if ! kill -0 "$PID" 2>/dev/null || { command -v ps >/dev/null 2>&1 && ! ps -p "$PID" -o args= | grep -q "$MAIN_CLASS"; }; then
    echo "ERROR: pid $PID from $PID_FILE is not a running Strata process." >&2
    exit 1
fi
kill -HUP "$PID"
echo "Sent HUP to Strata (pid $PID): it reloads its configuration; see logs/strata.log for the outcome."
