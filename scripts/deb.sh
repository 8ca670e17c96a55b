#!/bin/bash
# make deb: the Debian binary packages of mlx5-tm (debian/), built with
# dpkg-buildpackage from a copy of the working tree (so that nothing is
# written beside the checkout), then checked with lintian: any error fails.
#
# Usage: scripts/deb.sh <output dir>   (the .deb files end up there)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:?usage: deb.sh <output dir>}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
src=$OUT/src/mlx5-tm-$version

if [ ! -f "$ROOT/deps/dpdk-sdk/include/ethdev_driver.h" ]; then
	echo "deb: DPDK driver-SDK headers missing; run scripts/setup.sh" >&2
	exit 2
fi
rm -rf "$OUT/src" "$OUT"/*.deb "$OUT"/*.buildinfo "$OUT"/*.changes
mkdir -p "$src"
# The working tree as it is (committed or not), without build directories.
(cd "$ROOT" && tar -cf - --exclude=./.git --exclude='./build*' \
	--exclude=./debian/.debhelper --exclude='*.pcap' .) |
	tar -xf - -C "$src"
echo "deb: building in $src"
(cd "$src" && DEB_BUILD_OPTIONS="parallel=$(nproc)" \
	dpkg-buildpackage -b -uc -us) > "$OUT/build.log" 2>&1 || {
	tail -n 40 "$OUT/build.log"
	echo "deb: dpkg-buildpackage failed; log $OUT/build.log" >&2
	exit 1
}
mv "$OUT"/src/*.deb "$OUT"/src/*.changes "$OUT"/src/*.buildinfo "$OUT/"
rm -rf "$OUT/src"
echo "deb: packages in $OUT:"
ls -1 "$OUT"/*.deb
changes=$(ls "$OUT"/*.changes)
if ! lintian --fail-on error "$changes"; then
	echo "deb: lintian reports errors" >&2
	exit 1
fi
echo "deb: lintian reports no error"
