#!/bin/bash
# Suite pmd_exports: the exported symbols and the dependencies of the two
# shared objects; each check is one case.
# - librte_net_mlx5_tm.so (the driver) exports exactly the functions of
#   rte_pmd_mlx5_tm.h: no device-model symbol; it needs no libpcap.
# - librte_net_mlx5_tm_emu.so (the device model) exports exactly the
#   functions and variables of mlx5_emu.h plus its glue table
#   mlx5_tm_glue_emu.
#
# Usage: exports.sh <build dir> <source dir>
set -u

build=$1
src=$2
. "$src/test/pmd/check.sh"

# Names declared by public headers: identifiers followed by '(' or ending
# a declaration, with prefix $1.
declared() {
	local prefix=$1
	shift
	cat "$@" |
		sed -e 's|/\*.*\*/||g' -e '/^[[:space:]]*\*/d' \
			-e '/^[[:space:]]*\/\*/d' |
		grep -oE "\\b${prefix}_[a-z0-9_]+(\\(|\\[\\];)" |
		sed -E 's/(\(|\[\];)$//' | sort -u
}

# One case: the exported symbols of $1 are the list $2, each exported one
# declared, each declared one exported (every difference printed).
exports_match() {
	local so=$1 want=$2 exported s bad=0
	exported=$(nm -D --defined-only "$so" |
		awk '$2 ~ /^[TDRB]$/ {print $3}' | sort -u)
	if [ -z "$exported" ]; then
		check 1 "no symbol read from $so"
		return
	fi
	for s in $exported; do
		if ! grep -qx "$s" <<< "$want"; then
			echo "  $(basename "$so"): $s exported but not in its public headers"
			bad=1
		fi
	done
	for s in $want; do
		if ! grep -qx "$s" <<< "$exported"; then
			echo "  $(basename "$so"): $s declared public but not exported"
			bad=1
		fi
	done
	echo "$(basename "$so"): $(wc -w <<< "$exported") symbols exported"
	check $bad "$(basename "$so") exports other symbols than its public headers declare"
}

pmd=$build/drivers/librte_net_mlx5_tm.so
emu=$build/drivers/librte_net_mlx5_tm_emu.so

exports_match "$pmd" "$(declared rte_pmd_mlx5_tm \
	"$src/drivers/net/mlx5_tm/rte_pmd_mlx5_tm.h")"
exports_match "$emu" "$( (declared mlx5_emu "$src/drivers/emu/mlx5_emu.h";
	echo mlx5_tm_glue_emu) | sort -u)"

# The production driver carries no emulator: no libpcap, no model symbol.
needed=$(readelf -d "$pmd" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
! grep -q pcap <<< "$needed"
check $? "driver needs libpcap: $(tr '\n' ' ' <<< "$needed")"
! grep -q mlx5_tm_emu <<< "$needed"
check $? "driver links the device model: $(tr '\n' ' ' <<< "$needed")"
! nm -D "$pmd" | grep -qE ' (mlx5_emu_|emu_|mlx5_tm_glue_emu$)'
check $? "driver references device-model symbols"
grep -q pcap <<< "$(readelf -d "$emu")"
check $? "device model does not link libpcap"

report
