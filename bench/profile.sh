#!/usr/bin/env bash
#
# bench/profile.sh: async-profiler on a running Strata for some seconds, while you drive the
# load (sysbench, bench/run.sh --keep...). Writes a flame graph (.html) or collapsed stacks
# (.collapsed, one line per stack: frames;frames count) and, for the latter, prints the
# frames that took the most samples themselves.
#
# async-profiler comes from Maven Central (tools.profiler:async-profiler) through the Maven
# wrapper; it names inlined Java frames, which perf with the JIT's perf map does not.

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$SCRIPT_DIR/common.sh"
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)

MIN_JAVA=21
JVM_DIR=/usr/lib/jvm
AP_VERSION=4.1
EVENT=cpu
DURATION=30
INTERVAL=""
OUT=""
TARGET=""

usage() {
    cat <<EOF
Usage: bench/profile.sh [options] PID|:PORT

Profiles the Strata process PID, or the one listening on PORT, for a while.

  --event E        cpu (default: CPU time, kernel included), wall, alloc or lock
  --seconds N      how long to profile (default $DURATION)
  --interval I     sampling interval, async-profiler's syntax (e.g. 100us, 1ms; cpu default 10ms)
  --out FILE       .html (flame graph) or .collapsed (stacks with counts); default
                   bench/results/profile-<event>-<timestamp>.collapsed
  -h, --help       this text

Example, with a Strata from bench/run.sh --keep on port 13308:
  bench/profile.sh --seconds 15 --interval 100us :13308 &
  sysbench oltp_point_select --mysql-host=127.0.0.1 --mysql-port=13308 ... --time=15 run
EOF
}

while [ $# -gt 0 ]; do
    case "$1" in
        --event) need_value "$@"; EVENT=$2; shift ;;
        --seconds) need_value "$@"; DURATION=$2; shift ;;
        --interval) need_value "$@"; INTERVAL=$2; shift ;;
        --out) need_value "$@"; OUT=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) [ -z "$TARGET" ] || die "one PID or :PORT only"; TARGET=$1 ;;
    esac
    shift
done
[ -n "$TARGET" ] || { usage; exit 2; }
case "$EVENT" in cpu|wall|alloc|lock) ;; *) die "--event: cpu, wall, alloc or lock, not $EVENT" ;; esac
[[ "$DURATION" =~ ^[0-9]+$ ]] || die "--seconds needs a whole number, not $DURATION"

if [[ "$TARGET" == :* ]]; then
    PID=$(ss -ltnpH "sport = ${TARGET}" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2 || true)
    [ -n "$PID" ] || die "no process listens on port ${TARGET#:} (or ss cannot see it: run as its user)"
else
    PID=$TARGET
fi
is_alive "$PID" || die "no process $PID"

case "$(uname -m)" in
    x86_64) PLATFORM=linux-x64 ;;
    aarch64) PLATFORM=linux-arm64 ;;
    *) die "async-profiler has no library for $(uname -m) in its Maven jar" ;;
esac

select_java
JAR="$HOME/.m2/repository/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION.jar"
if [ ! -f "$JAR" ]; then
    say "Fetching async-profiler $AP_VERSION from Maven Central"
    "$REPO_DIR/mvnw" -B -q dependency:get -Dartifact="tools.profiler:async-profiler:$AP_VERSION" >/dev/null
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/strata-profile.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
(cd "$WORK" && "$JAVA_HOME/bin/jar" xf "$JAR" "$PLATFORM/libasyncProfiler.so")
LIB="$WORK/$PLATFORM/libasyncProfiler.so"
[ -f "$LIB" ] || die "$JAR holds no $PLATFORM/libasyncProfiler.so"

if [ -z "$OUT" ]; then
    mkdir -p "$SCRIPT_DIR/results"
    OUT="$SCRIPT_DIR/results/profile-$EVENT-$(date +%Y%m%d-%H%M%S).collapsed"
fi
OUT=$(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT")
case "$OUT" in
    *.html) FORMAT="" ;;
    *.collapsed) FORMAT=",collapsed" ;;
    *) die "--out: a .html or .collapsed file, not $OUT" ;;
esac

attach() {
    "$JAVA_BIN" "$SCRIPT_DIR/AsyncProfilerAttach.java" "$PID" "$LIB" "$1"
}

say "Profiling pid $PID ($EVENT${INTERVAL:+, every $INTERVAL}) for $DURATION s"
attach "start,event=$EVENT${INTERVAL:+,interval=$INTERVAL}"
# Stops the profiler even when interrupted (Ctrl-C, kill): a running one would keep sampling
# the proxy. The sleep runs in the background so that a signal ends the wait at once.
trap 'attach "stop,file=$OUT$FORMAT" || true; rm -rf "$WORK"' EXIT
trap 'say "Interrupted: stopping the profiler"; exit 130' INT TERM
sleep "$DURATION" &
wait $!
trap - INT TERM
attach "stop,file=$OUT$FORMAT"
trap 'rm -rf "$WORK"' EXIT
say "Written: $OUT"

if [ -n "$FORMAT" ]; then
    echo "Frames with the most samples of their own (kernel frames end in _[k]):"
    awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); self[f[k]] += n; total += n }
         END { for (s in self) printf "%6.2f%%  %s\n", 100 * self[s] / total, s }' "$OUT" | sort -rn | head -25
fi
