#!/bin/bash
# make coverage: the suites of make test (their plain-build runs) in a
# build directory of its own compiled with -Db_coverage=true (BUILD_COV,
# default build-cov), then one line per product source file (drivers/,
# lib/, app/) with its line coverage, "<path> <covered>/<lines> <percent>%"
# (scripts/coverage_report.py, over gcov's JSON output).
#
#   bash scripts/coverage.sh [BUILD_COV]
#
# COVERAGE_SUITES="standin pmd_netdev" runs only the suites named (names
# of test/*/suites.txt lines); the counts of an earlier run are cleared
# first, so the figures are those of this run alone. A suite that fails
# is reported and the report still printed; the exit status is then 1.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build-cov}
cd "$ROOT"
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD" -Db_coverage=true || exit 1
fi
ninja -C "$BUILD" || exit 1
BUILD=$(cd "$BUILD" && pwd)
find "$BUILD" -name '*.gcda' -delete

status=0
for list in "$ROOT"/test/*/suites.txt; do
	while read -r name variant cmd; do
		case "$name" in ''|'#'*) continue ;; esac
		case "$variant" in plain|both) ;; *) continue ;; esac
		if [ -n "${COVERAGE_SUITES:-}" ] &&
		   ! [[ " $COVERAGE_SUITES " == *" $name "* ]]; then
			continue
		fi
		cmd=${cmd//\{build\}/$BUILD}
		cmd=${cmd//\{src\}/$ROOT}
		log="$BUILD/coverage-$name.log"
		if timeout -k 10 "${SUITE_TIMEOUT:-900}" bash -c "$cmd" \
			> "$log" 2>&1 < /dev/null; then
			echo "suite $name: $(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)"
		else
			echo "suite $name: FAILED (log $log)"
			status=1
		fi
	done < "$list"
done
python3 "$ROOT/scripts/coverage_report.py" "$BUILD" "$ROOT" || status=1
exit $status
