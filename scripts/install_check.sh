#!/bin/bash
# Install check (not part of make test, which must not change the system):
#   1. make install;
#   2. Debian's dpdk-testpmd drives net_mlx5_tm0,emu=cx6dx with no -d (the
#      EAL loads the driver from its plugin directory, the driver loads
#      the device model);
#   3. a tiny application built with pkg-config libdpdk-mlx5-tm calls
#      rte_pmd_mlx5_tm_*();
#   4. make uninstall, and nothing is left: the directories the install
#      touches list exactly what they listed before.
# Prints "N passed, N failed". Needs root (or sudo) for the install.
#
# Usage: scripts/install_check.sh [build dir]   (default: build)
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
cd "$ROOT" || exit 2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

pass=0
fail=0
check() {
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok   $2"
	else
		fail=$((fail + 1))
		echo "FAIL $2"
	fi
}

make -s build BUILD="$BUILD" >/dev/null || {
	echo "FAIL make build"
	echo "0 passed, 1 failed"
	exit 1
}

# Where the install goes (the system DPDK's directories, meson's prefix).
libdir=$(pkg-config --variable=libdir libdpdk)
incdir=$(pkg-config --variable=includedir libdpdk)
opts=$(meson introspect "$BUILD" --buildoptions)
opt() {
	python3 -c 'import json,sys; print({o["name"]: o["value"] for o in json.load(sys.stdin)}[sys.argv[1]])' "$1" <<< "$opts"
}
prefix=$(opt prefix)
pmddir=$(opt pmd_dir)
# The plugin directory the installed EAL was built with (as meson.build).
[ -n "$pmddir" ] || pmddir=$(echo '#include <rte_build_config.h>' |
	cpp $(pkg-config --cflags libdpdk) -dM 2>/dev/null |
	sed -n 's/^#define RTE_EAL_PMD_PATH "\(.*\)"$/\1/p')
bindir=$prefix/$(opt bindir)
docdir=$prefix/$(opt datadir)/doc

# Our names in the directories an install touches (other developers'
# package installs elsewhere in them do not matter).
snapshot() {
	local d
	for d in "$libdir" "$pmddir" "$libdir/pkgconfig" "$incdir" "$bindir" \
		"$docdir"; do
		[ -d "$d" ] && echo "directory $d"
		[ -d "$d" ] && find "$d" -maxdepth 1 2>/dev/null |
			grep -E 'mlx5[_-]tm|mlx5_emu|tm-pace'
	done | sort
}

work=$(mktemp -d "${HOME:-/root}/.mlx5-tm-install-check.XXXXXX") || exit 2
chmod 700 "$work"
before=$work/before.txt
snapshot > "$before"

installed=0
# shellcheck source=scripts/eal_runtime.sh
. "$(dirname "$0")/eal_runtime.sh"
cleanup() {
	if [ "$installed" = 1 ]; then
		make -s uninstall BUILD="$BUILD" >/dev/null 2>&1
	fi
	rm -rf "$work"
	eal_runtime_remove "instcheck$$" "instapp$$"
}
trap cleanup EXIT

# 1. Install.
make -s install BUILD="$BUILD" > "$work/install.log" 2>&1
rc=$?
installed=1
check $rc "make install"
[ -L "$pmddir/librte_net_mlx5_tm.so" ] && [ -e "$pmddir/librte_net_mlx5_tm.so" ]
check $? "driver linked into the plugin directory $pmddir"
[ -f "$libdir/librte_net_mlx5_tm.so" ] && [ -f "$libdir/librte_net_mlx5_tm_emu.so" ]
check $? "driver and device model in $libdir"
[ ! -e "$pmddir/librte_net_mlx5_tm_emu.so" ]
check $? "device model not in the plugin directory (the EAL does not load it)"
[ -f "$incdir/rte_pmd_mlx5_tm.h" ] && [ -f "$incdir/mlx5_emu.h" ]
check $? "headers in $incdir"
pkg-config --exists libdpdk-mlx5-tm libdpdk-mlx5-tm-emu
check $? "pkg-config finds libdpdk-mlx5-tm and libdpdk-mlx5-tm-emu"
[ "$(pkg-config --variable=pmdsdir libdpdk-mlx5-tm)" = "$pmddir" ]
check $? "libdpdk-mlx5-tm.pc names the plugin directory"
! ldd "$libdir/librte_net_mlx5_tm.so" | grep -q pcap
check $? "installed driver needs no libpcap"

# 2. Debian's testpmd, no -d. Its default mbuf pool (155,456 mbufs, for 32
# ports) does not fit in -m 512 without hugepages, whatever the port (even
# net_null): --total-num-mbufs sizes it for one.
out=$(printf 'show port info 0\nshow port tm cap 0\nquit\n' |
	timeout 120 dpdk-testpmd --no-pci --no-huge -m 512 --no-shconf \
		--file-prefix "instcheck$$" --log-level lib.eal:error \
		--vdev net_mlx5_tm0,emu=cx6dx -- -i --total-num-mbufs=8192 2>&1)
grep -q "Driver name: net_mlx5_tm" <<< "$out"
check $? "dpdk-testpmd without -d: port 0 is net_mlx5_tm"
grep -q "cap.n_nodes_max" <<< "$out"
check $? "dpdk-testpmd without -d: show port tm cap answers"
grep -q "Driver name: net_mlx5_tm" <<< "$out" &&
	! grep -qiE "needs the device model|failed to initialize" <<< "$out"
check $? "dpdk-testpmd without -d: the device model loads"

# 3. A tiny application through pkg-config.
cat > "$work/app.c" <<'APP'
#include <stdio.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_pmd_mlx5_tm.h>

int
main(int argc, char **argv)
{
	uint16_t port;
	uint32_t sqn;
	int ret;

	if (rte_eal_init(argc, argv) < 0)
		return 2;
	if (rte_eth_dev_get_port_by_name("net_mlx5_tm0", &port) != 0)
		return 3;
	/* Not configured: no Tx queue 0 (-EINVAL). */
	ret = rte_pmd_mlx5_tm_txq_sqn(port, 0, &sqn);
	printf("rte_pmd_mlx5_tm_txq_sqn: %d\n", ret);
	printf("rte_pmd_mlx5_tm_emu: %s\n",
	       rte_pmd_mlx5_tm_emu(port) != NULL ? "model" : "none");
	rte_eal_cleanup();
	return 0;
}
APP
# shellcheck disable=SC2046 # pkg-config output is a list of words
cc -o "$work/app" "$work/app.c" $(pkg-config --cflags --libs libdpdk-mlx5-tm) \
	> "$work/cc.log" 2>&1
check $? "application builds with pkg-config --cflags --libs libdpdk-mlx5-tm"
linked=$(ldd "$work/app" 2>/dev/null |
	sed -n 's/^[[:space:]]*librte_net_mlx5_tm\.so => \([^ ]*\) .*/\1/p')
[ -n "$linked" ] &&
	[ "$(realpath "$linked")" = "$(realpath "$libdir/librte_net_mlx5_tm.so")" ]
check $? "application links the installed driver (${linked:-not found})"
out=$(timeout 60 "$work/app" --no-pci --no-huge -m 256 --no-shconf \
	--file-prefix "instapp$$" --log-level lib.eal:error \
	--vdev net_mlx5_tm0,emu=cx6dx 2>&1)
grep -q "rte_pmd_mlx5_tm_txq_sqn: -22" <<< "$out" &&
	grep -q "rte_pmd_mlx5_tm_emu: model" <<< "$out"
check $? "application calls rte_pmd_mlx5_tm_txq_sqn() and rte_pmd_mlx5_tm_emu()"

# 4. Uninstall: nothing left.
make -s uninstall BUILD="$BUILD" > "$work/uninstall.log" 2>&1
check $? "make uninstall"
installed=0
snapshot > "$work/after.txt"
left=$(diff "$before" "$work/after.txt")
[ -z "$left" ]
check $? "nothing left after uninstall${left:+: $left}"

if [ "$fail" != 0 ]; then
	for f in install cc uninstall; do
		[ -s "$work/$f.log" ] && { echo "--- $f.log"; tail -n 20 "$work/$f.log"; }
	done
	[ -n "${out:-}" ] && { echo "--- last output"; tail -n 30 <<< "$out"; }
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
