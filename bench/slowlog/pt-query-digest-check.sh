#!/usr/bin/env bash
#
# bench/slowlog/pt-query-digest-check.sh: checks that Percona's pt-query-digest reads the slow query log
# Strata writes (io.strata.frontend.slowlog.SlowLog) as it reads mysqld's.
#
# It installs percona-toolkit (Debian's package) when pt-query-digest is not on the PATH, and says so,
# then runs the test class SlowLogPtQueryDigestTest with Maven. That class is skipped by a plain build
# where the tool is missing, so this script fails when it ran no test rather than passing on a skip.
#
#   bench/slowlog/pt-query-digest-check.sh            from anywhere in the repository
#   MVN_ARGS=-o bench/slowlog/pt-query-digest-check.sh  Maven offline (dependencies already in ~/.m2)
#
# Builds take the lock file $STRATA_BUILD_LOCK (default /tmp/strata-build.lock) when flock exists, so that
# the check waits for another build on the same machine instead of racing it.

set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/../.." && pwd)
TEST_CLASS=SlowLogPtQueryDigestTest
REPORT="$REPO_DIR/proxy-frontend/target/surefire-reports/TEST-io.strata.frontend.slowlog.$TEST_CLASS.xml"

die() {
    echo "ERROR: $*" >&2
    exit 1
}

say() {
    echo "==> $*"
}

if command -v pt-query-digest >/dev/null 2>&1; then
    say "pt-query-digest found: $(command -v pt-query-digest) ($(pt-query-digest --version 2>/dev/null | head -1))"
else
    say "pt-query-digest is not on the PATH: installing Debian's percona-toolkit package"
    SUDO=
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "not root and no sudo: install percona-toolkit by hand"
        SUDO=sudo
    fi
    command -v apt-get >/dev/null 2>&1 || die "no apt-get: install percona-toolkit by hand"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q percona-toolkit
    command -v pt-query-digest >/dev/null 2>&1 || die "percona-toolkit installed, but pt-query-digest is not on the PATH"
    say "installed: $(pt-query-digest --version 2>/dev/null | head -1)"
fi

LOCK=()
if command -v flock >/dev/null 2>&1; then
    LOCK=(flock "${STRATA_BUILD_LOCK:-/tmp/strata-build.lock}")
fi

cd "$REPO_DIR"
rm -f "$REPORT"
say "running $TEST_CLASS (proxy-frontend and the modules it needs)"
# shellcheck disable=SC2086 # MVN_ARGS is a list of options
"${LOCK[@]}" ./mvnw -B -q ${MVN_ARGS:-} -pl proxy-frontend -am test -Dtest="$TEST_CLASS" \
    -Dsurefire.failIfNoSpecifiedTests=false

[ -f "$REPORT" ] || die "no test report at $REPORT: the test class did not run"
tests=$(sed -n 's/.*<testsuite [^>]*tests="\([0-9]*\)".*/\1/p' "$REPORT" | head -1)
skipped=$(sed -n 's/.*<testsuite [^>]*skipped="\([0-9]*\)".*/\1/p' "$REPORT" | head -1)
[ "${tests:-0}" -gt 0 ] || die "$TEST_CLASS ran no test"
[ "${skipped:-0}" -eq 0 ] || die "$TEST_CLASS skipped $skipped of $tests tests (is pt-query-digest on the PATH Maven sees?)"
say "pt-query-digest read Strata's slow log: $tests tests passed"
