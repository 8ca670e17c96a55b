#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Suite pkg-deb-tools: make deb removes the packaging tools it installed,
checked without running apt for real.

Usage: deb_tools.py SOURCE_DIR

scripts/deb.sh runs in a scratch copy of the scripts and debian/changelog
with fake apt-get, dpkg-query, dpkg-buildpackage and lintian first in
PATH: the fake package database starts with the packages scripts/setup.sh
needs for a build; "apt-get install" adds each package it is given and one
dependency of it ("<name>-dep"), "apt-get purge" removes what it is given,
and every call is logged. Cases: the tools installed for the build and
their dependencies are purged at the end, and nothing else; the same after
a failed build; DEB_KEEP_TOOLS=1 keeps them; a bad DEB_KEEP_TOOLS is
refused before anything is installed.
Prints "N passed, N failed".
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
from cases import Cases  # noqa: E402 pylint: disable=wrong-import-position

SRC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
CASES = Cases()
check = CASES.check
DPDK_VERSION = "22.11.99-1"   # what the fake says libdpdk-dev is
RDMA_VERSION = "44.99-1"      # and libibverbs-dev's source package
TOOLS = ["debhelper", "fakeroot", "lintian"]

# The fakes, in sh (they run dozens of times a build): the database is
# $FAKE_STATE/installed, one package a line; apt.log records the calls.
FAKE_DPKG_QUERY = r"""#!/bin/sh
db=$FAKE_STATE/installed
fmt=""
for a in "$@"; do
	case $a in
	-f=*) fmt=${a#-f=} ;;
	-*) ;;
	*) name=$a ;;
	esac
done
case $fmt in
'${Version}') printf '%s' "$FAKE_DPDK_VERSION" ;;
'${source:Version}') printf '%s' "$FAKE_RDMA_VERSION" ;;
'${Status}') grep -qx "$name" "$db" || exit 1
	printf 'install ok installed' ;;
'${db:Status-Abbrev}'*) sed 's/^/ii  /' "$db" ;;
*) echo "fake dpkg-query: format $fmt" >&2; exit 2 ;;
esac
"""

FAKE_APT_GET = r"""#!/bin/sh
db=$FAKE_STATE/installed
echo "$*" >> "$FAKE_STATE/apt.log"
verb=""
for a in "$@"; do
	case $a in
	-*) continue ;;
	esac
	if [ -z "$verb" ]; then
		verb=$a
		continue
	fi
	case $verb in
	install)
		for q in "$a" "$a-dep"; do
			grep -qx "$q" "$db" || echo "$q" >> "$db"
		done ;;
	purge|remove)
		grep -vx "$a" "$db" > "$db.new"; mv "$db.new" "$db" ;;
	esac
done
"""

# A build that writes the three files dpkg-buildpackage leaves beside the
# source directory; FAKE_BUILD_FAIL=1 fails instead.
FAKE_BUILDPACKAGE = r'''#!/bin/sh
[ "${FAKE_BUILD_FAIL:-0}" = 1 ] && { echo "fake build failed"; exit 2; }
touch ../mlx5-tm_1_amd64.deb ../mlx5-tm_1_amd64.changes \
	../mlx5-tm_1_amd64.buildinfo
'''

FAKE_LINTIAN = "#!/bin/sh\nexit 0\n"
FAKE_SUDO = '#!/bin/sh\nexec "$@"\n'


def setup_packages():
    """The packages scripts/setup.sh installs for a build (not deb)."""
    text = open(os.path.join(SRC, "scripts", "setup.sh")).read()
    m = re.search(r'^PACKAGES="([^"]*)"', text, re.M)
    return m.group(1).split() if m else []


def scratch(tmp, installed):
    """A scratch root with the scripts, the changelog, stamped deps/, and
    a fake bin directory; the fake database holds @installed."""
    root = os.path.join(tmp, "root")
    os.makedirs(os.path.join(root, "debian"))
    shutil.copytree(os.path.join(SRC, "scripts"),
                    os.path.join(root, "scripts"))
    shutil.copy(os.path.join(SRC, "debian", "changelog"),
                os.path.join(root, "debian"))
    for d in ("dpdk-sdk", "dpdk-mlx5"):
        os.makedirs(os.path.join(root, "deps", d, "include"))
        with open(os.path.join(root, "deps", d, ".version"), "w") as f:
            f.write(DPDK_VERSION + "\n")
    open(os.path.join(root, "deps", "dpdk-sdk", "include",
                      "ethdev_driver.h"), "w").close()
    os.makedirs(os.path.join(root, "deps", "rdma-core"))
    with open(os.path.join(root, "deps", "rdma-core", ".version"), "w") as f:
        f.write(RDMA_VERSION + "\n")
    fake = os.path.join(tmp, "bin")
    os.makedirs(fake)
    for name, text in (("dpkg-query", FAKE_DPKG_QUERY),
                       ("apt-get", FAKE_APT_GET),
                       ("dpkg-buildpackage", FAKE_BUILDPACKAGE),
                       ("lintian", FAKE_LINTIAN), ("sudo", FAKE_SUDO)):
        path = os.path.join(fake, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
    state = os.path.join(tmp, "state")
    os.makedirs(state)
    with open(os.path.join(state, "installed"), "w") as f:
        f.write("\n".join(installed) + "\n")
    open(os.path.join(state, "apt.log"), "w").close()
    return root, fake, state


def make_deb(installed, **env_extra):
    """scripts/deb.sh on the fakes: (exit status, output, packages after,
    apt-get calls)."""
    tmp = tempfile.mkdtemp(prefix="deb-tools-test.")
    try:
        root, fake, state = scratch(tmp, installed)
        env = dict(os.environ, PATH=fake + ":" + os.environ["PATH"],
                   FAKE_STATE=state, FAKE_DPDK_VERSION=DPDK_VERSION,
                   FAKE_RDMA_VERSION=RDMA_VERSION)
        env.update(env_extra)
        proc = subprocess.run(["bash", os.path.join(root, "scripts",
                                                    "deb.sh"),
                               os.path.join(tmp, "out")],
                              capture_output=True, text=True, env=env,
                              timeout=120)
        after = open(os.path.join(state, "installed")).read().split()
        calls = open(os.path.join(state, "apt.log")).read().splitlines()
        return proc.returncode, proc.stdout + proc.stderr, after, calls
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def purged(calls):
    """The package names of the apt-get purge calls."""
    out = []
    for c in calls:
        words = c.split()
        if "purge" in words:
            out += [w for w in words[words.index("purge") + 1:]
                    if not w.startswith("-")]
    return sorted(out)


def installs(calls):
    return [c for c in calls if " install " in " %s " % c]


BASE = setup_packages()
# Tools the build needs, and what they pull in, per the fakes.
ADDED = sorted(TOOLS + [t + "-dep" for t in TOOLS])


def test_tools_removed_after_the_build():
    rc, out, after, calls = make_deb(BASE)
    check("the build succeeds", rc == 0, out[-600:])
    check("the tools are installed for the build",
          any(all(t in c.split() for t in TOOLS) for c in installs(calls)),
          calls)
    check("exactly the packages installed for the build are purged",
          purged(calls) == ADDED, "purged %s, installed %s"
          % (purged(calls), ADDED))
    check("the package set is as before", sorted(after) == sorted(BASE),
          "left %s" % sorted(set(after) ^ set(BASE)))
    check("the output says what was removed and how to keep it",
          "removing the 6 packages installed for the build "
          "(DEB_KEEP_TOOLS=1 keeps them)" in out, out[-600:])


def test_removed_after_a_failed_build():
    rc, out, after, calls = make_deb(BASE, FAKE_BUILD_FAIL="1")
    check("a failed build fails make deb", rc != 0, out[-600:])
    check("the tools are purged all the same", purged(calls) == ADDED,
          calls)
    check("the package set is as before", sorted(after) == sorted(BASE),
          sorted(set(after) ^ set(BASE)))


def test_keep_tools():
    rc, out, after, calls = make_deb(BASE, DEB_KEEP_TOOLS="1")
    check("DEB_KEEP_TOOLS=1: the build succeeds", rc == 0, out[-600:])
    check("DEB_KEEP_TOOLS=1: nothing purged", purged(calls) == [], calls)
    check("DEB_KEEP_TOOLS=1: the tools stay",
          set(ADDED) <= set(after), sorted(after))
    check("DEB_KEEP_TOOLS=1: the output names them",
          "kept the 6 packages" in out and "lintian-dep" in out,
          out[-600:])


def test_bad_keep_value():
    rc, out, after, calls = make_deb(BASE, DEB_KEEP_TOOLS="yes")
    check("DEB_KEEP_TOOLS=yes refused, exit 2, the values allowed",
          rc == 2 and "DEB_KEEP_TOOLS=yes: allowed 0" in out, out)
    check("DEB_KEEP_TOOLS=yes: apt-get not called", calls == [], calls)


def main():
    if not BASE:
        check("scripts/setup.sh names its packages", False)
        return CASES.report()
    for fn in (test_tools_removed_after_the_build,
               test_removed_after_a_failed_build, test_keep_tools,
               test_bad_keep_value):
        CASES.run(fn.__name__, fn)
    return CASES.report()


if __name__ == "__main__":
    sys.exit(main())
