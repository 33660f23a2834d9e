#!/usr/bin/env bash
# bench/cluster.sh: three Strata members in cluster mode (Debian's ZooKeeper) behind HAProxy, against one standalone
# Strata and one member alone, then the same three under load while the configuration changes and a member is killed;
# the benchmark is bench/cluster.py.
STRATA_BENCH_ARGV0=$0 exec python3 "$(dirname "${BASH_SOURCE[0]}")/cluster.py" "$@"
