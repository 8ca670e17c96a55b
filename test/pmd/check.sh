# The case counting of the shell suites of test/pmd (sourced): check
# counts a case, report prints the closing line and is the exit status.

pass=0
fail=0

# check <status> <why>: a case, passed when <status> is 0, else failed
# saying <why>.
check() {
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $2"
	fi
}

report() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
