#!/usr/bin/env bash
# bench/sharding/run.sh: Strata's SHARDING rule against ShardingSphere-Proxy; the benchmark is bench/sharding/sharding.py.
STRATA_BENCH_ARGV0=$0 exec python3 "$(dirname "${BASH_SOURCE[0]}")/sharding.py" "$@"
