#!/usr/bin/env bash
# bench/reload.sh: sysbench oltp_read_write through Strata while its configuration is reloaded every few seconds,
# against the same load without reloads; the benchmark is bench/reload.py.
STRATA_BENCH_ARGV0=$0 exec python3 "$(dirname "${BASH_SOURCE[0]}")/reload.py" "$@"
