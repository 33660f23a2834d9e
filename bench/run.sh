#!/usr/bin/env bash
# bench/run.sh: Strata with the empty rule chain against MariaDB direct and HAProxy; the benchmark is bench/empty_rules.py.
STRATA_BENCH_ARGV0=$0 exec python3 "$(dirname "${BASH_SOURCE[0]}")/empty_rules.py" "$@"
