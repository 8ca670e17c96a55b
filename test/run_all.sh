#!/bin/bash
# Runs every suite listed in test/*/suites.txt and prints one closing line,
# "N passed, N failed, N skipped (cases; plain and ASan/UBSan builds)".
#
# A suites.txt line is:   <name> <variant> <command ...>
#   variant: "plain" (normal build), "san" (ASan/UBSan build) or "both";
#   {build} in the command is replaced by the build directory, {src} by
#   the source root. Each suite prints its own "N passed, N failed" line,
#   counting test cases (a named behaviour checked, whatever the number of
#   assertions in it), not assertions; ", N skipped" follows when cases
#   could not run here (a skip is never a pass).
#
# A suite run under both builds runs the same cases twice: the closing
# line counts each case once, failed if it failed in either build (per
# suite: the larger of the two failure counts), and skipped only if it
# was skipped in both; the line above it gives the ASan/UBSan runs on
# their own.
#
# Progress: while a suite runs, every line of its output of the form
# "<suite>/<case>: PASSED|FAILED ..." (one per test case, as the DTS runner
# prints them) is shown as it comes, so that a long suite is not silent;
# so is every "SKIP: ..." line (a check that could not run: not a pass).
#
# A suite counts as failed when its closing line is missing, when it
# exits non-zero (a crash, a sanitizer report, a leak found at exit), or
# when it outlives SUITE_TIMEOUT seconds (default 900): a hung suite must
# not eat the CI's time.
#
# Usage: test/run_all.sh [BUILD_DIR [SAN_BUILD_DIR]] (default: build
# build-san, as make test gives them). A directory that is not a meson
# build directory (no build.ninja in it), an option or a third argument
# is refused with the usage line and exit status 2 before anything is
# written (--help: the usage line, exit status 0).
set -u

USAGE="usage: test/run_all.sh [BUILD_DIR [SAN_BUILD_DIR]] (default: build build-san; each a meson build directory)"
case "${1:-}" in
-h|--help) echo "$USAGE"; exit 0 ;;
esac
for arg in "$@"; do
	case "$arg" in
	-*) echo "run_all.sh: unknown option '$arg'" >&2
	    echo "$USAGE" >&2
	    exit 2 ;;
	esac
done
if [ $# -gt 2 ]; then
	echo "run_all.sh: $# arguments, at most 2 build directories" >&2
	echo "$USAGE" >&2
	exit 2
fi
for dir in "${1:-build}" "${2:-build-san}"; do
	if [ ! -f "$dir/build.ninja" ]; then
		echo "run_all.sh: '$dir' is not a meson build directory (no build.ninja in it)" >&2
		echo "$USAGE" >&2
		exit 2
	fi
done

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PLAIN=$(cd "${1:-build}" && pwd) || exit 2
SAN=$(cd "${2:-build-san}" && pwd) || exit 2
LOGDIR="$PLAIN/test-logs"
SUITE_TIMEOUT=${SUITE_TIMEOUT:-900}
PROGRESS_RE='^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+: (PASSED|FAILED)|^SKIP'
mkdir -p "$LOGDIR"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:detect_odr_violation=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/test/lsan.supp:print_suppressions=0}"

total_cases=0
total_fail=0
total_skip=0
plain_pass=0
plain_fail=0
plain_skip=0
san_pass=0
san_fail=0
san_skip=0
broken=0
# The last run_suite's counts.
r_pass=0
r_fail=0
r_skip=0

run_suite() {
	local name=$1 dir=$2 tag=$3
	shift 3
	local cmd="$*"
	cmd=${cmd//\{build\}/$dir}
	cmd=${cmd//\{src\}/$ROOT}
	local log="$LOGDIR/$name.$tag.log"
	local start=$SECONDS
	: > "$log"
	(cd "$ROOT" && timeout -k 10 "$SUITE_TIMEOUT" bash -c "$cmd") \
		> "$log" 2>&1 < /dev/null &
	local pid=$!
	tail -s 0.2 -n +1 -f --pid="$pid" "$log" 2>/dev/null |
		grep --line-buffered -E "$PROGRESS_RE" |
		sed -u "s|^|  [$tag] |" &
	local shower=$!
	wait "$pid"
	local rc=$?
	wait "$shower"
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "TIMEOUT: killed after ${SUITE_TIMEOUT}s" >> "$log"
	fi
	local line
	line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	local p f k
	p=$(echo "$line" | sed -nE 's/^([A-Za-z]+: )?([0-9]+) passed.*/\2/p')
	f=$(echo "$line" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
	k=$(echo "$line" | sed -nE 's/.* failed, ([0-9]+) skipped.*/\1/p')
	k=${k:-0}
	if [ -z "$p" ]; then
		p=0
		f=1
		echo "  [$tag] $name: no closing line (exit $rc); log $log"
		broken=$((broken + 1))
	elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1
		echo "  [$tag] $name: exit $rc despite '$line'; log $log"
		broken=$((broken + 1))
	fi
	printf '%-28s %-5s %5s passed %4s failed' "$name" "$tag" "$p" "$f"
	[ "$k" = 0 ] || printf ' %4s skipped' "$k"
	printf '  (%ds)\n' $((SECONDS - start))
	if [ "$f" != 0 ]; then
		echo "----- $log (last 60 lines) -----"
		tail -n 60 "$log"
		echo "-----"
	fi
	r_pass=$p
	r_fail=$f
	r_skip=$k
}

# Count the cases of a suite run once, in build @1 (plain|san).
count_once() {
	total_cases=$((total_cases + r_pass + r_fail))
	total_fail=$((total_fail + r_fail))
	total_skip=$((total_skip + r_skip))
	if [ "$1" = plain ]; then
		plain_pass=$((plain_pass + r_pass))
		plain_fail=$((plain_fail + r_fail))
		plain_skip=$((plain_skip + r_skip))
	else
		san_pass=$((san_pass + r_pass))
		san_fail=$((san_fail + r_fail))
		san_skip=$((san_skip + r_skip))
	fi
}

max() { echo $(($1 > $2 ? $1 : $2)); }
min() { echo $(($1 < $2 ? $1 : $2)); }

for list in "$ROOT"/test/*/suites.txt; do
	[ -f "$list" ] || continue
	while read -r name variant cmd; do
		case "$name" in ''|'#'*) continue ;; esac
		case "$variant" in
		plain)
			run_suite "$name" "$PLAIN" plain $cmd
			count_once plain
			;;
		san)
			run_suite "$name" "$SAN" san $cmd
			count_once san
			;;
		both)
			run_suite "$name" "$PLAIN" plain $cmd
			plain_run_pass=$r_pass
			plain_run_fail=$r_fail
			plain_run_skip=$r_skip
			plain_pass=$((plain_pass + r_pass))
			plain_fail=$((plain_fail + r_fail))
			plain_skip=$((plain_skip + r_skip))
			run_suite "$name" "$SAN" san $cmd
			san_pass=$((san_pass + r_pass))
			san_fail=$((san_fail + r_fail))
			san_skip=$((san_skip + r_skip))
			total_cases=$((total_cases + \
				$(max $((plain_run_pass + plain_run_fail)) $((r_pass + r_fail)))))
			total_fail=$((total_fail + $(max "$plain_run_fail" "$r_fail")))
			total_skip=$((total_skip + $(min "$plain_run_skip" "$r_skip")))
			;;
		*) echo "bad variant '$variant' in $list"; broken=$((broken + 1)) ;;
		esac
	done < "$list"
done

echo "plain build: $plain_pass passed, $plain_fail failed," \
	"$plain_skip skipped (cases)"
echo "ASan/UBSan build: $san_pass passed, $san_fail failed, $san_skip" \
	"skipped (cases, the same programs again)"
echo "$((total_cases - total_fail)) passed, $total_fail failed," \
	"$total_skip skipped (cases; plain and ASan/UBSan builds)"
[ "$total_fail" = 0 ] && [ "$broken" = 0 ]
