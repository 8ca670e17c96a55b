#!/bin/bash
# make deb: the Debian binary packages of mlx5-tm (debian/), built with
# dpkg-buildpackage from a copy of the working tree (so that nothing is
# written beside the checkout), then checked with lintian: any error fails.
#
# The packaging tools (debhelper, fakeroot, lintian: scripts/setup.sh deb)
# and whatever they pull in are installed first when missing, and removed
# again at the end, failed or not: exactly the packages that were not
# installed before. DEB_KEEP_TOOLS=1 keeps them (make deb DEB_KEEP_TOOLS=1).
#
# Usage: scripts/deb.sh <output dir>   (the .deb files end up there)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:?usage: deb.sh <output dir>}
KEEP=${DEB_KEEP_TOOLS:-0}
case $KEEP in
0|1) ;;
*) echo "deb: DEB_KEEP_TOOLS=$KEEP: allowed 0 (remove the packaging" \
	"tools installed for the build, default) or 1 (keep them)" >&2
   exit 2 ;;
esac
SUDO=""
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# The installed packages, one name a line.
installed_packages() {
	dpkg-query -W -f='${db:Status-Abbrev} ${binary:Package}\n' |
		awk '$1 == "ii" { print $2 }' | sort
}

before=$(mktemp)
added=$(mktemp)
installed_packages > "$before"
# shellcheck disable=SC2317 # called by the EXIT trap
remove_tools() {
	installed_packages | comm -13 "$before" - > "$added" || true
	if [ -s "$added" ] && [ "$KEEP" = 0 ]; then
		echo "deb: removing the $(wc -l < "$added") packages installed" \
			"for the build (DEB_KEEP_TOOLS=1 keeps them)"
		# shellcheck disable=SC2046 # one package name a word
		DEBIAN_FRONTEND=noninteractive $SUDO apt-get purge -y -q \
			$(cat "$added") > "$OUT/remove.log" 2>&1 ||
			echo "deb: apt-get purge failed; log $OUT/remove.log" >&2
	elif [ -s "$added" ]; then
		echo "deb: kept the $(wc -l < "$added") packages installed for" \
			"the build (DEB_KEEP_TOOLS=1): $(tr '\n' ' ' < "$added")"
	fi
	rm -f "$before" "$added"
}
trap remove_tools EXIT
bash "$ROOT/scripts/setup.sh" deb

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
