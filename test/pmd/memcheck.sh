#!/bin/bash
# Suite pmd_memcheck: one port's life cycle (test_pmd_lifecycle) under
# valgrind memcheck. Passes when the program passes and memcheck reports
# no error (invalid read/write, uninitialised use, bad free) and no leak
# (definitely, indirectly or possibly lost). test/pmd/valgrind.supp holds
# the few DPDK EAL / libc internals that are suppressed.
#
# Usage: memcheck.sh <build dir> <source dir>
set -u

build=$1
src=$2
prog=$build/test/pmd/test_pmd_lifecycle
log=$(mktemp)
trap 'rm -f "$log"' EXIT

. "$src/test/pmd/check.sh"

if ! command -v valgrind >/dev/null; then
	echo "FAIL: valgrind is not installed (scripts/setup.sh installs it)"
	echo "0 passed, 1 failed"
	exit 1
fi

valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible \
	--errors-for-leak-kinds=definite,indirect,possible \
	--error-exitcode=99 --num-callers=30 \
	--suppressions="$src/test/pmd/valgrind.supp" \
	"$prog" > "$log" 2>&1
rc=$?
cat "$log"

# The program's own checks.
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
check "$([ -n "$line" ] && [ "${line#* passed, }" = "0 failed" ]; echo $?)" \
	"test_pmd_lifecycle: ${line:-no closing line}"
# Memcheck's verdict, from its summary and its exit code.
check "$(grep -qE '^==[0-9]+== ERROR SUMMARY: 0 errors' "$log"; echo $?)" \
	"memcheck reported errors"
check "$(grep -qE '^==[0-9]+== +(definitely lost: 0 bytes|All heap blocks were freed)' "$log"; echo $?)" \
	"memory definitely lost"
check "$(grep -qE '^==[0-9]+== +(indirectly lost: 0 bytes|All heap blocks were freed)' "$log"; echo $?)" \
	"memory indirectly lost"
check "$([ "$rc" = 0 ]; echo $?)" "exit code $rc"

report
