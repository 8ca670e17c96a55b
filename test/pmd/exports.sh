#!/bin/bash
# Suite pmd_exports: librte_net_mlx5_tm.so exports exactly its public API,
# the functions and variables declared in rte_pmd_mlx5_tm.h and mlx5_emu.h
# plus the emulated device's glue table (version.map), and nothing else.
#
# Usage: exports.sh <build dir> <source dir>
set -u

so=$1/drivers/librte_net_mlx5_tm.so
src=$2
pass=0
fail=0

# Names declared by the public headers: identifiers followed by '(' or
# ending a declaration, with the public prefixes.
declared=$(cat "$src/drivers/net/mlx5_tm/rte_pmd_mlx5_tm.h" \
	"$src/drivers/emu/mlx5_emu.h" |
	sed -e 's|/\*.*\*/||g' -e '/^[[:space:]]*\*/d' -e '/^[[:space:]]*\/\*/d' |
	grep -oE '\b(rte_pmd_mlx5_tm|mlx5_emu)_[a-z0-9_]+(\(|\[\];)' |
	sed -E 's/(\(|\[\];)$//' | sort -u)
declared=$(printf '%s\nmlx5_tm_glue_emu\n' "$declared" | sort -u)
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDRB]$/ {print $3}' |
	sort -u)

if [ -z "$exported" ]; then
	echo "FAIL: no symbol read from $so"
	echo "0 passed, 1 failed"
	exit 1
fi
for s in $exported; do
	if grep -qx "$s" <<< "$declared"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $s exported but not in the public headers"
	fi
done
for s in $declared; do
	if ! grep -qx "$s" <<< "$exported"; then
		fail=$((fail + 1))
		echo "FAIL: $s declared public but not exported"
	fi
done
echo "$(wc -w <<< "$exported") symbols exported"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
