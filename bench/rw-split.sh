#!/usr/bin/env bash
# bench/rw-split.sh: read scaling through READWRITE_SPLITTING with 0, 1 and 2 replicas (--overhead: a replica read
# against HAProxy); the benchmark is bench/rw_split.py.
STRATA_BENCH_ARGV0=$0 exec python3 "$(dirname "${BASH_SOURCE[0]}")/rw_split.py" "$@"
