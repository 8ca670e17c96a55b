#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Suite pkg: the Debian packages' contents, and the driver loading from an
unpacked package, without installing anything system-wide.

Usage: check_packages.py BUILD_DIR SOURCE_DIR

Building the packages (make deb, about a minute of compiling) is not part
of make test. This suite checks what the packages are made of:

- the staged install tree (meson install --destdir into a private
  directory, the build's prefix read as /usr as debhelper configures it),
  split into packages by debian/*.install exactly as dh_install does: every
  pattern matches, every installed file goes to exactly one package;
- when make deb has left packages of this version in BUILD_DIR/deb, those
  packages too, unpacked with dpkg-deb -x.

On each set of package trees: what each package holds, the driver needing
no libpcap, and Debian's dpdk-testpmd loading the driver from the unpacked
trees with -d: with the device model package beside it emu= gives a
net_mlx5_tm port; with the driver package alone emu= is refused with a
message naming the device-model library. Each check is one case; prints
"N passed, N failed".
"""

import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import sys

TESTPMD = "/usr/bin/dpdk-testpmd"
DRIVER = "librte_net_mlx5_tm.so"
MODEL = "librte_net_mlx5_tm_emu.so"


# The case counter is the PMD smoke test's (which puts test/ on the path
# for the private directory of EAL -d, test/private_dir.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "pmd"))
from testpmd_smoke import Checks  # noqa: E402
from private_dir import NoPrivateDir, suite_private_dir  # noqa: E402
from eal_runtime import remove_runtime_dir  # noqa: E402


def packages_of_control(src):
    with open(os.path.join(src, "debian", "control")) as f:
        return re.findall(r"^Package:\s*(\S+)", f.read(), re.M)


def tree_files(root):
    """Relative paths of the files and symbolic links under root."""
    out = []
    for d, dirs, files in os.walk(root):
        for name in files + [x for x in dirs
                             if os.path.islink(os.path.join(d, x))]:
            out.append(os.path.relpath(os.path.join(d, name), root))
    return sorted(out)


def copy_entry(src_root, rel, dst_root):
    src = os.path.join(src_root, rel)
    dst = os.path.join(dst_root, rel)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.islink(src):
        os.symlink(os.readlink(src), dst)
    else:
        shutil.copy2(src, dst)


def stage(checks, build, work):
    """meson install --destdir, the prefix moved to /usr as in the .deb."""
    staged = os.path.join(work, "stage")
    r = subprocess.run(["meson", "install", "-C", build, "--no-rebuild",
                        "--quiet", "--destdir", staged],
                       capture_output=True, text=True)
    checks.check("meson install --destdir into a private directory",
                 r.returncode == 0, r.stderr[-2000:])
    opts = json.loads(subprocess.run(
        ["meson", "introspect", build, "--buildoptions"],
        capture_output=True, text=True, check=True).stdout)
    prefix = {o["name"]: o["value"] for o in opts}["prefix"].strip("/")
    if prefix != "usr" and os.path.isdir(os.path.join(staged, prefix)):
        # debhelper configures --prefix=/usr: read the prefix as /usr.
        moved = os.path.join(work, "stage-usr")
        for rel in tree_files(staged):
            dst = rel
            if rel.startswith(prefix + "/"):
                dst = "usr/" + rel[len(prefix) + 1:]
            os.makedirs(os.path.dirname(os.path.join(moved, dst)),
                        exist_ok=True)
            os.rename(os.path.join(staged, rel), os.path.join(moved, dst))
        staged = moved
    return staged


def matches(path, pattern):
    """dh_install's shell glob: '*' stays within one path component; a
    pattern naming a directory takes everything under it."""
    pc = pattern.split("/")
    xc = path.split("/")
    return len(pc) <= len(xc) and all(fnmatch.fnmatchcase(x, p)
                                      for x, p in zip(xc, pc))


def split_by_install(checks, src, staged, work):
    """Package trees from the staged tree and debian/*.install."""
    files = tree_files(staged)
    owner = {f: [] for f in files}
    trees = {}
    for inst in sorted(glob.glob(os.path.join(src, "debian", "*.install"))):
        pkg = os.path.basename(inst)[:-len(".install")]
        root = os.path.join(work, "split", pkg)
        os.makedirs(root)
        trees[pkg] = root
        with open(inst) as f:
            patterns = [p.strip() for p in f if p.strip() and
                        not p.startswith("#")]
        idle = []
        for pat in patterns:
            hit = [x for x in files if matches(x, pat)]
            if not hit:
                idle.append(pat)
            for x in hit:
                owner[x].append(pkg)
                copy_entry(staged, x, root)
        checks.check("%s: every pattern of %s.install installs something"
                     % (pkg, pkg), not idle, "installing nothing: %s"
                     % ", ".join(idle))
    stray = [f for f, o in owner.items() if len(o) != 1]
    checks.check("every installed file goes to exactly one package",
                 not stray, "; ".join("%s: %s" % (f, owner[f] or "none")
                                      for f in stray))
    checks.check("debian/control lists the packages of debian/*.install",
                 sorted(packages_of_control(src)) == sorted(trees),
                 "%s vs %s" % (packages_of_control(src), sorted(trees)))
    return trees


def find(tree, pattern):
    return [x for x in tree_files(tree) if matches(x, pattern) and
            len(x.split("/")) == len(pattern.split("/"))]


def contents(checks, tag, trees):
    """What each package holds; returns the driver's plugin link path."""
    drv = trees.get("librte-net-mlx5-tm")
    emu = trees.get("librte-net-mlx5-tm-emu")
    dev = trees.get("librte-net-mlx5-tm-dev")
    tools = trees.get("mlx5-tm-tools")
    doc = trees.get("mlx5-tm-doc")
    if None in (drv, emu, dev, tools, doc):
        checks.check("%s: the five packages" % tag, False, sorted(trees))
        return None
    link = find(drv, "usr/lib/*/dpdk/pmds-*/" + DRIVER)
    lib = find(drv, "usr/lib/*/" + DRIVER)
    checks.check("%s: driver package: the driver, linked from the DPDK "
                 "plugin directory" % tag,
                 len(link) == 1 and len(lib) == 1 and
                 os.path.islink(os.path.join(drv, link[0])) and
                 os.path.realpath(os.path.join(drv, link[0])) ==
                 os.path.realpath(os.path.join(drv, lib[0])),
                 "%s %s" % (link, lib))
    checks.check("%s: driver package: no device model" % tag,
                 not find(drv, "*" + MODEL + "*"))
    model = find(emu, "usr/lib/*/" + MODEL)
    checks.check("%s: device-model package: the model, outside the plugin "
                 "directory" % tag,
                 len(model) == 1 and not find(emu, "*pmds-*"), model)
    checks.check("%s: tools package: dpdk-tm-pace" % tag,
                 bool(find(tools, "usr/bin/dpdk-tm-pace")))
    checks.check("%s: tools package: dpdk-mlx5-tm-check" % tag,
                 bool(find(tools, "usr/bin/dpdk-mlx5-tm-check")))
    headers = find(dev, "usr/include/dpdk/*.h")
    pcs = find(dev, "usr/lib/*/pkgconfig/*.pc")
    checks.check("%s: -dev package: headers and pkg-config files" % tag,
                 sorted(os.path.basename(h) for h in headers) ==
                 ["mlx5_emu.h", "rte_pmd_mlx5_tm.h"] and
                 sorted(os.path.basename(p) for p in pcs) ==
                 ["libdpdk-mlx5-tm-emu.pc", "libdpdk-mlx5-tm.pc"],
                 "%s %s" % (headers, pcs))
    pmdsdir = ""
    for p in pcs:
        if p.endswith("/libdpdk-mlx5-tm.pc"):
            with open(os.path.join(dev, p)) as f:
                m = re.search(r"^pmdsdir=(.*)$", f.read(), re.M)
            pmdsdir = m.group(1) if m else ""
    checks.check("%s: libdpdk-mlx5-tm.pc names the plugin directory of the "
                 "driver package" % tag,
                 bool(link) and pmdsdir.lstrip("/") ==
                 os.path.dirname(link[0]), "pmdsdir=%s" % pmdsdir)
    guides = [g for g in tree_files(doc)
              if g.startswith("usr/share/doc/mlx5-tm/guides/")]
    checks.check("%s: doc package: the guides" % tag,
                 any(g.endswith("nics/mlx5_tm.rst") for g in guides) and
                 any(g.endswith("device_model.rst") for g in guides),
                 guides)
    if lib:
        r = subprocess.run(["readelf", "-d", os.path.join(drv, lib[0])],
                           capture_output=True, text=True)
        needed = re.findall(r"\(NEEDED\).*\[(.*)\]", r.stdout)
        checks.check("%s: the driver needs no libpcap" % tag,
                     needed and not any("pcap" in n for n in needed),
                     needed)
    return link[0] if link else None


def testpmd(pmd, vdev, work, tag):
    prefix = "pkg%d%s" % (os.getpid(), tag)
    args = [TESTPMD, "-d", pmd, "--no-huge", "--no-pci", "-m", "512",
            "-l", "0-1", "--no-shconf", "--file-prefix", prefix,
            "--log-level", "lib.eal:error",
            "--vdev", vdev, "--", "-i", "--total-num-mbufs=8192"]
    r = subprocess.run(args, input="show port info 0\nshow port tm cap 0\n"
                       "quit\n", capture_output=True, text=True,
                       timeout=120, cwd=work)
    remove_runtime_dir(prefix)
    return r.stdout + r.stderr


def loads(checks, tag, trees, link, work):
    """testpmd -d on the unpacked driver: with the model, then alone."""
    both = os.path.join(work, "unpacked-" + tag)
    for pkg in ("librte-net-mlx5-tm", "librte-net-mlx5-tm-emu"):
        for rel in tree_files(trees[pkg]):
            copy_entry(trees[pkg], rel, both)
    out = testpmd(os.path.join(both, link), "net_mlx5_tm0,emu=cx6dx,"
                  "clock=virtual", work, tag + "a")
    checks.check("%s: testpmd -d <unpacked plugin link>, emu=cx6dx: a "
                 "net_mlx5_tm port" % tag,
                 "Driver name: net_mlx5_tm" in out and
                 "cap.n_nodes_max" in out, out[-1500:])
    alone = os.path.join(work, "alone-" + tag)
    for rel in tree_files(trees["librte-net-mlx5-tm"]):
        copy_entry(trees["librte-net-mlx5-tm"], rel, alone)
    out = testpmd(os.path.join(alone, link), "net_mlx5_tm0,emu=cx6dx,"
                  "clock=virtual", work, tag + "b")
    if "Driver name: net_mlx5_tm" in out:
        # Found elsewhere: a device model is installed on this machine.
        print("skip %s: driver package alone: a device model is installed "
              "system-wide" % tag)
    else:
        checks.check("%s: driver package alone: emu= refused, naming the "
                     "device-model library" % tag,
                     "needs the device model " + MODEL in out, out[-1500:])


def debs(build, src):
    """Packages of this version left by make deb, {package: .deb path}."""
    with open(os.path.join(src, "VERSION")) as f:
        version = f.read().strip()
    out = {}
    for deb in glob.glob(os.path.join(build, "deb", "*.deb")):
        fields = subprocess.run(["dpkg-deb", "-f", deb, "Package",
                                 "Version"], capture_output=True,
                                text=True).stdout
        pkg = re.search(r"^Package: (\S+)", fields, re.M)
        ver = re.search(r"^Version: (\S+)", fields, re.M)
        if pkg and ver and ver.group(1) == version and \
                not pkg.group(1).endswith("-dbgsym"):
            out[pkg.group(1)] = deb
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        print("0 passed, 1 failed")
        return 1
    build = os.path.abspath(sys.argv[1])
    src = os.path.abspath(sys.argv[2])
    checks = Checks()
    try:
        work = suite_private_dir(build, "mlx5-tm-pkg-")
    except NoPrivateDir as e:
        checks.skip("packages (the whole suite)", str(e))
        return checks.report()
    try:
        staged = stage(checks, build, work)
        trees = split_by_install(checks, src, staged, work)
        link = contents(checks, "staged", trees)
        if link:
            loads(checks, "staged", trees, link, work)
        found = debs(build, src)
        if not found:
            print("note: no packages of this version in %s/deb (make deb): "
                  "checked the staged install tree" % build)
        else:
            trees = {}
            for pkg, deb in sorted(found.items()):
                trees[pkg] = os.path.join(work, "deb", pkg)
                os.makedirs(trees[pkg])
                r = subprocess.run(["dpkg-deb", "-x", deb, trees[pkg]],
                                   capture_output=True, text=True)
                checks.check("deb: dpkg-deb -x %s" % os.path.basename(deb),
                             r.returncode == 0, r.stderr)
            link = contents(checks, "deb", trees)
            if link:
                loads(checks, "deb", trees, link, work)
            dep = subprocess.run(["dpkg-deb", "-f", found.get(
                "mlx5-tm-tools", "/nonexistent"), "Depends"],
                capture_output=True, text=True).stdout
            checks.check("deb: the tools depend on the driver and the model",
                         re.search(r"librte-net-mlx5-tm \(", dep) and
                         re.search(r"librte-net-mlx5-tm-emu \(", dep), dep)
    except (OSError, RuntimeError, subprocess.SubprocessError) as e:
        checks.check("set-up", False, str(e))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return checks.report()


if __name__ == "__main__":
    sys.exit(main())
