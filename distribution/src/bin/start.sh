#!/usr/bin/env bash
#
# Starts the Strata proxy.
#
# Layout (relative to this script):  ../conf  ../lib  ../logs
# By default the proxy runs in the background (setsid); the pid goes to
# logs/strata.pid and stdout/stderr to logs/stdout.log. Use -f to run it in
# the foreground instead (e.g. under systemd or in a container).
#
# Environment:
#   JAVA_HOME          JDK to use (must be >= 21; otherwise the newest JDK >= 21
#                      under /usr/lib/jvm is used)
#   STRATA_JAVA_OPTS   JVM options, replacing the default (see default_java_opts below:
#                      a heap of a quarter of the memory, 256 MiB to 2 GiB; the JVM's own collector choice)

set -u

MAIN_CLASS="io.strata.bootstrap.Main"
MIN_JAVA=21
# Netty's per-access buffer checks (reference count, bounds) and its sampling leak detector (a stack trace per
# sampled buffer: about 1% of CPU under sysbench) cost CPU on the hot path; the test suites run with them on, a
# production proxy without.
NETTY_OPTS="-Dio.netty.buffer.checkAccessible=false -Dio.netty.buffer.checkBounds=false -Dio.netty.leakDetection.level=disabled"
DEFAULT_PORT=3307
JVM_DIR="/usr/lib/jvm"

BIN_DIR=$(cd "$(dirname "$0")" && pwd) || exit 1
BASE_DIR=$(cd "$BIN_DIR/.." && pwd) || exit 1
LIB_DIR="$BASE_DIR/lib"
LOGS_DIR="$BASE_DIR/logs"
PID_FILE="$LOGS_DIR/strata.pid"
STDOUT_LOG="$LOGS_DIR/stdout.log"

usage() {
    cat <<EOF
Usage: $(basename "$0") [-f] [-c CONF_DIR] [-p PORT] [-h]

Starts the Strata proxy.

Options:
  -f           run in the foreground (default: background, pid in logs/strata.pid,
               output in logs/stdout.log)
  -c CONF_DIR  configuration folder (default: $BASE_DIR/conf)
  -p PORT      port to listen on (default: server.port from server.yaml)
  -h           show this help

Environment:
  JAVA_HOME         JDK to use; must be Java $MIN_JAVA or newer
  STRATA_JAVA_OPTS  JVM options (default here: $(default_java_opts))
EOF
}

die() {
    echo "ERROR: $*" >&2
    exit 1
}

# MiB of memory this process may use: the cgroup's limit when there is one, else the machine's.
memory_mib() {
    local limit total
    limit=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null)
    total=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo 2>/dev/null)
    case "$limit" in
        ''|max|*[!0-9]*) echo "${total:-4096}" ;;
        *) limit=$((limit / 1048576))
           if [ -n "$total" ] && [ "$limit" -gt "$total" ]; then echo "$total"; else echo "$limit"; fi ;;
    esac
}

# The JVM options Strata starts with when STRATA_JAVA_OPTS is not set, from the memory found. The heap holds only
# short-lived per-statement objects and the configuration (packets live in Netty's pooled direct buffers): a quarter
# of the memory, at least 256 MiB and at most 2 GiB, is plenty. The collector and the JIT's compiler threads are the
# JVM's own choice for the CPUs it finds: G1 from 2 CPUs and 1792 MiB on (measured on 2 cores against the serial
# collector: queries per CPU-second 0.85-1.08 of G1's, mean 0.96, so G1 stays), the serial collector below that,
# and CICompilerCount growing with the log of the CPUs (2 on 2 CPUs). Event loops: server.workerThreads, one per CPU
# by default.
default_java_opts() {
    local mib heap start
    mib=$(memory_mib)
    heap=$((mib / 4))
    [ "$heap" -lt 256 ] && heap=256
    [ "$heap" -gt 2048 ] && heap=2048
    start=$((heap < 512 ? heap : 512))
    echo "-Xms${start}m -Xmx${heap}m $NETTY_OPTS"
}

# Prints the major version of the given java executable (8 for "1.8.0_x",
# 21 for "21.0.2", 25 for "25-ea"), or 0 when it cannot be determined.
java_major() {
    local v
    v=$("$1" -version 2>&1 | awk -F'"' '/version/ { print $2; exit }')
    case "$v" in
        1.*) v=${v#1.} ;;
    esac
    v=${v%%[!0-9]*}
    echo "${v:-0}"
}

# Prints the java executable of the newest JDK >= MIN_JAVA under JVM_DIR.
newest_jdk_java() {
    local best="" best_major=0 candidate major
    for candidate in "$JVM_DIR"/*/bin/java; do
        [ -x "$candidate" ] || continue
        major=$(java_major "$candidate")
        if [ "$major" -ge "$MIN_JAVA" ] && [ "$major" -gt "$best_major" ]; then
            best="$candidate"
            best_major=$major
        fi
    done
    [ -n "$best" ] && echo "$best"
}

# Sets JAVA to a java executable of version >= MIN_JAVA, or exits.
select_java() {
    local java major
    if [ -n "${JAVA_HOME:-}" ]; then
        java="$JAVA_HOME/bin/java"
    else
        java=$(command -v java 2>/dev/null || true)
    fi
    if [ -n "$java" ] && [ -x "$java" ]; then
        major=$(java_major "$java")
        if [ "$major" -ge "$MIN_JAVA" ]; then
            JAVA="$java"
            return
        fi
        echo "Java at $java is version $major; Strata needs Java $MIN_JAVA or newer, looking in $JVM_DIR ..." >&2
    fi
    JAVA=$(newest_jdk_java) || true
    if [ -z "$JAVA" ]; then
        die "no Java $MIN_JAVA+ found (checked JAVA_HOME, PATH and $JVM_DIR/*). Install a JDK >= $MIN_JAVA or set JAVA_HOME to one."
    fi
    echo "Using $JAVA (Java $(java_major "$JAVA"))" >&2
}

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

# ---- arguments ------------------------------------------------------------

FOREGROUND=0
CONF_DIR="$BASE_DIR/conf"
PORT=""

while getopts ":fc:p:h" opt; do
    case "$opt" in
        f) FOREGROUND=1 ;;
        c) CONF_DIR=$OPTARG ;;
        p) PORT=$OPTARG ;;
        h) usage; exit 0 ;;
        :) usage >&2; die "option -$OPTARG needs an argument" ;;
        *) usage >&2; die "unknown option -$OPTARG" ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { usage >&2; die "unexpected argument: $1"; }

[ -d "$CONF_DIR" ] || die "configuration folder not found: $CONF_DIR"
CONF_DIR=$(cd "$CONF_DIR" && pwd)
[ -f "$CONF_DIR/server.yaml" ] || echo "WARNING: $CONF_DIR/server.yaml not found" >&2

if [ -n "$PORT" ]; then
    case "$PORT" in ''|*[!0-9]*) die "port must be a number: $PORT" ;; esac
    { [ "$PORT" -ge 1 ] && [ "$PORT" -le 65535 ]; } || die "port out of range (1-65535): $PORT"
    SHOWN_PORT=$PORT
else
    # For the message only: first "port: N" in server.yaml, else the default.
    SHOWN_PORT=$(grep -v '^[[:space:]]*#' "$CONF_DIR/server.yaml" 2>/dev/null \
        | grep -oE 'port:[[:space:]]*[0-9]+' | head -n 1 | grep -oE '[0-9]+')
    SHOWN_PORT=${SHOWN_PORT:-$DEFAULT_PORT}
fi

# ---- command line -----------------------------------------------------------

select_java

# What the JDK itself needs so that a clean start prints no warning (always passed, whatever STRATA_JAVA_OPTS says):
# from JDK 24 on, Netty's native transport loads its library through a restricted method (--enable-native-access),
# and Netty 4.1's pooled buffers use sun.misc.Unsafe's memory access, which the JDK then warns of unless allowed.
jdk_opts() {
    local major
    major=$(java_major "$JAVA")
    if [ "$major" -ge 24 ]; then
        echo "--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
    fi
}

if [ -n "${STRATA_JAVA_OPTS:-}" ]; then
    JAVA_OPTS=$STRATA_JAVA_OPTS
else
    JAVA_OPTS=$(default_java_opts)
fi

mkdir -p "$LOGS_DIR" || die "cannot create $LOGS_DIR"
if ! ls "$LIB_DIR"/*.jar >/dev/null 2>&1; then
    echo "WARNING: no jars in $LIB_DIR" >&2
fi

# JAVA_OPTS is split on whitespace on purpose.
# shellcheck disable=SC2206
CMD=("$JAVA" $(jdk_opts) $JAVA_OPTS
    "-Dlogback.configurationFile=$CONF_DIR/logback.xml"
    "-Dstrata.logs=$LOGS_DIR"
    -cp "$CONF_DIR:$LIB_DIR/*"
    "$MAIN_CLASS" -c "$CONF_DIR")
[ -n "$PORT" ] && CMD+=(-p "$PORT")

# ---- refuse to start twice --------------------------------------------------

if [ -f "$PID_FILE" ]; then
    OLD_PID=$(tr -d '[:space:]' < "$PID_FILE")
    if is_strata_running "$OLD_PID"; then
        die "Strata is already running (pid $OLD_PID, pid file $PID_FILE). Stop it first with $BIN_DIR/stop.sh"
    fi
    echo "Removing stale pid file $PID_FILE (pid ${OLD_PID:-?} is not a running Strata process)"
    rm -f "$PID_FILE"
fi

# ---- start ------------------------------------------------------------------

# Relative paths in server.yaml (the slow log's file) are the distribution's: logs/slow.log lands in logs/.
cd "$BASE_DIR" || die "cannot enter $BASE_DIR"

if [ "$FOREGROUND" -eq 1 ]; then
    echo "Starting Strata in the foreground on port $SHOWN_PORT (conf: $CONF_DIR)"
    exec "${CMD[@]}"
fi

echo "Starting Strata on port $SHOWN_PORT (conf: $CONF_DIR) ..."
{
    echo "---- $(date '+%Y-%m-%d %H:%M:%S') starting: ${CMD[*]}"
} >> "$STDOUT_LOG"
# A session of its own (setsid) rather than nohup: away from the terminal, so closing it sends no hang-up, while
# SIGHUP stays Strata's reload signal (bin/reload.sh). A JVM started under nohup has SIGHUP ignored and cannot take
# it back. In a script, a background job is no process group leader, so setsid runs it in place: $! is Strata's pid.
if command -v setsid >/dev/null 2>&1; then
    setsid "${CMD[@]}" >> "$STDOUT_LOG" 2>&1 < /dev/null &
else
    echo "WARNING: setsid not found; starting under nohup, where bin/reload.sh (SIGHUP) cannot reach Strata" \
         "(use RELOAD STRATA CONFIG or server.watchConfig)" >&2
    nohup "${CMD[@]}" >> "$STDOUT_LOG" 2>&1 < /dev/null &
fi
PID=$!
echo "$PID" > "$PID_FILE"

sleep 2
if ! kill -0 "$PID" 2>/dev/null; then
    rm -f "$PID_FILE"
    echo "ERROR: Strata (pid $PID) exited during startup. Last lines of $STDOUT_LOG:" >&2
    tail -n 30 "$STDOUT_LOG" >&2
    exit 1
fi

echo "Strata started: pid $PID, port $SHOWN_PORT"
echo "  pid file: $PID_FILE"
echo "  output:   $STDOUT_LOG"
echo "  log:      $LOGS_DIR/strata.log"
echo "Stop it with $BIN_DIR/stop.sh"
