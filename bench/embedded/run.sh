#!/usr/bin/env bash
# The embedded driver against HikariCP + Connector/J and against ShardingSphere-JDBC (bench/embedded/run.py).
exec python3 "$(dirname "$0")/run.py" "$@"
