#!/bin/bash
# Idempotent set-up on a Debian bookworm machine: installs the packages the
# build and the tests need (skipping those present), then extracts from the
# Debian source package of exactly the installed libdpdk-dev version into
# deps/ (never committed): DPDK's driver-SDK headers, and upstream net/mlx5's
# Tx burst (mlx5_tx.h, mlx5_tx.c and the headers they include), which
# test/upstream compiles at build time as the datapath reference; the same
# common/mlx5 headers let test/conform call upstream's command builders in
# Debian's librte_common_mlx5 (package librte-common-mlx5-23). With the
# argument deb (make deb), also the Debian packaging tools.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SDK_DIR="$ROOT/deps/dpdk-sdk"
UPSTREAM_DIR="$ROOT/deps/dpdk-mlx5"
# What upstream's Tx burst templates include beyond the installed headers,
# and the rdma-core probes test/upstream turns into mlx5_autoconf.h.
UPSTREAM_FILES="drivers/net/mlx5/mlx5_tx.h drivers/net/mlx5/mlx5_tx.c
drivers/net/mlx5/mlx5.h drivers/net/mlx5/mlx5_defs.h drivers/net/mlx5/mlx5_rx.h
drivers/net/mlx5/mlx5_rxtx.h drivers/net/mlx5/mlx5_utils.h
drivers/net/mlx5/rte_pmd_mlx5.h drivers/net/mlx5/linux/mlx5_os.h
drivers/net/mlx5/hws/mlx5dr.h drivers/common/mlx5/mlx5_common.h
drivers/common/mlx5/mlx5_common_defs.h drivers/common/mlx5/mlx5_common_devx.h
drivers/common/mlx5/mlx5_common_mp.h drivers/common/mlx5/mlx5_common_mr.h
drivers/common/mlx5/mlx5_common_utils.h drivers/common/mlx5/mlx5_devx_cmds.h
drivers/common/mlx5/mlx5_malloc.h drivers/common/mlx5/mlx5_prm.h
drivers/common/mlx5/linux/mlx5_common_os.h drivers/common/mlx5/linux/mlx5_glue.h
drivers/common/mlx5/linux/meson.build drivers/bus/pci/bus_pci_driver.h
drivers/bus/pci/rte_bus_pci.h lib/eal/linux/include/rte_os_shim.h"
SDK_HEADERS="lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_vdev.h
drivers/bus/vdev/bus_vdev_driver.h lib/eal/include/bus_driver.h
lib/eal/include/dev_driver.h"
PACKAGES="build-essential pkg-config meson ninja-build libdpdk-dev dpdk dpdk-dev
libibverbs-dev ibverbs-providers libpcap-dev python3 python3-pexpect
dpkg-dev xz-utils gnuplot-nox valgrind librte-common-mlx5-23"
# make deb: Debian packaging tools (setup.sh deb).
if [ "${1:-}" = deb ]; then
	PACKAGES="$PACKAGES debhelper fakeroot lintian"
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
fi

missing=""
for p in $PACKAGES; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
apt_updated=0
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	$SUDO apt-get update -q
	apt_updated=1
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi

# rdma-core's mlx5 layouts (providers/mlx5/mlx5_ifc.h) of the installed
# libibverbs, for test/conform's scheduling-element comparisons: from
# Debian's rdma-core source package. Where the archive no longer has that
# version's source, the comparisons are skipped (counted) and this says
# so; nothing else depends on it.
fetch_rdma_core() {
	local rdma_dir="$ROOT/deps/rdma-core" rv rwork orig rtop
	rv=$(dpkg-query -W -f='${source:Version}' libibverbs-dev)
	if [ -f "$rdma_dir/.version" ] &&
			[ "$(cat "$rdma_dir/.version")" = "$rv" ]; then
		return 0
	fi
	rwork=$(mktemp -d)
	if ! (cd "$rwork" && chmod 755 . && apt-get source \
			-o APT::Sandbox::User=root --download-only -q \
			"rdma-core=$rv" >/dev/null 2>&1); then
		echo "setup: rdma-core $rv source package not available:" \
			"test/conform's scheduling-element comparisons" \
			"with rdma-core's layouts will be skipped"
		rm -rf "$rwork"
		return 0
	fi
	orig=$(set +o pipefail; ls "$rwork"/rdma-core_*.orig.tar.* | head -n 1)
	rtop=$(set +o pipefail; tar tf "$orig" | head -n 1 | cut -d/ -f1)
	tar xf "$orig" -C "$rwork" "$rtop/providers/mlx5/mlx5_ifc.h"
	rm -rf "$rdma_dir"
	mkdir -p "$rdma_dir/providers/mlx5"
	cp "$rwork/$rtop/providers/mlx5/mlx5_ifc.h" "$rdma_dir/providers/mlx5/"
	echo "$rv" > "$rdma_dir/.version"
	rm -rf "$rwork"
	echo "setup: rdma-core $rv mlx5_ifc.h in $rdma_dir"
}

version=$(dpkg-query -W -f='${Version}' libdpdk-dev)
stamp="$SDK_DIR/.version"
upstream_stamp="$UPSTREAM_DIR/.version"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ] &&
		[ -f "$upstream_stamp" ] &&
		[ "$(cat "$upstream_stamp")" = "$version" ]; then
	fetch_rdma_core
	exit 0
fi

# A deb-src entry mirroring the binary sources, so apt-get source works.
src_list=/etc/apt/sources.list.d/mlx5-tm-deb-src.sources
if ! apt-get source --print-uris "dpdk=$version" >/dev/null 2>&1; then
	if [ ! -f "$src_list" ]; then
		echo "setup: adding deb-src entry $src_list"
		tmp=$(mktemp)
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			[ "$f" = "$src_list" ] && continue
			sed -n '/^Types:.*deb/,/^$/p' "$f" |
				sed 's/^Types:.*/Types: deb-src/'
			echo
		done > "$tmp"
		if [ -f /etc/apt/sources.list ]; then
			grep -E '^deb ' /etc/apt/sources.list |
				sed 's/^deb /deb-src /' > "$tmp.list" || true
			[ -s "$tmp.list" ] && $SUDO cp "$tmp.list" \
				/etc/apt/sources.list.d/mlx5-tm-deb-src.list
			rm -f "$tmp.list"
		fi
		[ -s "$tmp" ] && $SUDO cp "$tmp" "$src_list"
		rm -f "$tmp"
	fi
	$SUDO apt-get update -q
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "setup: fetching DPDK $version source package (driver-SDK headers," \
	"upstream net/mlx5 Tx burst)"
(cd "$work" && chmod 755 . && apt-get source -o APT::Sandbox::User=root --download-only -q "dpdk=$version" >/dev/null)
orig=$(set +o pipefail; ls "$work"/dpdk_*.orig.tar.* | head -n 1)
top=$(set +o pipefail; tar tf "$orig" | head -n 1 | cut -d/ -f1)
members=""
for h in $SDK_HEADERS $UPSTREAM_FILES; do
	members="$members $top/$h"
done
tar xf "$orig" -C "$work" $members
rm -rf "$SDK_DIR"
mkdir -p "$SDK_DIR/include"
for h in $SDK_HEADERS; do
	cp "$work/$top/$h" "$SDK_DIR/include/"
done
echo "$version" > "$stamp"
echo "setup: driver-SDK headers of DPDK $version in $SDK_DIR/include"
rm -rf "$UPSTREAM_DIR"
for f in $UPSTREAM_FILES; do
	mkdir -p "$UPSTREAM_DIR/$(dirname "$f")"
	cp "$work/$top/$f" "$UPSTREAM_DIR/$f"
done
echo "$version" > "$upstream_stamp"
echo "setup: upstream net/mlx5 Tx burst of DPDK $version in $UPSTREAM_DIR"
fetch_rdma_core
