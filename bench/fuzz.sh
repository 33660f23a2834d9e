#!/usr/bin/env bash
#
# bench/fuzz.sh: the protocol fuzz test (proxy-backend ProtocolFuzzTest) with many inputs: the frame decoder,
# the handshake response, every command and an execute's values, each fed mutated and random bytes. CI runs
# 20,000 inputs per parser; this runs ten million by default. A failure prints the input (hex) that found it;
# keep it as a regression test.
#
#   bench/fuzz.sh [INPUTS [SEED]]

set -euo pipefail
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$SCRIPT_DIR/common.sh"
cd "$SCRIPT_DIR/.."
INPUTS=${1:-10000000}
SEED=${2:-31}
[[ "$INPUTS" =~ ^[0-9]+$ && "$SEED" =~ ^[0-9]+$ ]] || die "usage: bench/fuzz.sh [INPUTS [SEED]]"
MIN_JAVA=21
JVM_DIR=/usr/lib/jvm
select_java
say "ProtocolFuzzTest: $INPUTS inputs per parser, seed $SEED ($JAVA_BIN)"
start=$(date +%s)
# -am builds the modules it needs; their own tests are skipped by the -Dtest filter
./mvnw -B -q -pl proxy-backend -am test -Dtest=ProtocolFuzzTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dstrata.fuzz.inputs="$INPUTS" -Dstrata.fuzz.seed="$SEED"
say "Passed in $(( $(date +%s) - start )) s"
