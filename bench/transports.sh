#!/usr/bin/env bash
# bench/transports.sh: sysbench through Strata over TCP, over its Unix domain socket and over TCP with the compressed
# protocol, in one interleaved run; the benchmark is bench/transports.py.
STRATA_BENCH_ARGV0=$0 exec python3 "$(dirname "${BASH_SOURCE[0]}")/transports.py" "$@"
