#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Secondary processes: Debian's dpdk-testpmd sends on net_mlx5_tm0 (the
device model) as the primary process; Debian's dpdk-proc-info attaches as
a secondary and prints the port (--show-port: device, link, MTU, MAC, Tx
queues), its statistics and extended statistics, and its traffic-manager
page (refused); test_pmd_secondary then calls, once the primary has
stopped forwarding, each operation a secondary can reach (one case each);
the primary's telemetry answers while they are attached.

Usage: secondary.py BUILD_DIR

Secondary processes need shared hugepage memory: the suite reserves 2 MB
hugepages (vm.nr_hugepages) and mounts a hugetlbfs of its own for the run,
and puts both back as they were after. Where that is not possible (not
root, no hugetlbfs, pages not free, no private directory for the
driver: test/private_dir.py) it prints "SKIP: <why>" and
"0 passed, 0 failed, 1 skipped" (the suite, whose cases never ran): a
skip is never a pass. Otherwise one line per check
and "N passed, N failed".
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
# pylint: disable=wrong-import-position
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from private_dir import NoPrivateDir, suite_private_dir  # noqa: E402

TESTPMD = "/usr/bin/dpdk-testpmd"
PROC_INFO = "/usr/bin/dpdk-proc-info"
PROMPT = "testpmd> "
NR_HUGEPAGES = "/proc/sys/vm/nr_hugepages"
PAGES = 160          # 2 MB pages reserved for the run (320 MB)
PRIMARY_MB = 256     # what the primary takes of them
SECONDARY_CASES = 20 # cases test_pmd_secondary runs

passed = 0
failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok: %s" % what)
    else:
        failed += 1
        print("FAIL: %s%s" % (what, (": " + detail) if detail else ""))
    sys.stdout.flush()


def skip(why):
    print("SKIP: secondary processes not tested: %s" % why)
    print("0 passed, 0 failed, 1 skipped")
    sys.exit(0)


def meminfo(key):
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


class Hugepages:
    """Reserve and mount 2 MB hugepages; put everything back on exit."""

    def __init__(self):
        self.prev = None
        self.mnt = None
        self.mounted = False

    def setup(self):
        if os.geteuid() != 0:
            return "not root: cannot reserve hugepages"
        if meminfo("Hugepagesize") != 2048:
            return "hugepage size is not 2 MB"
        try:
            with open(NR_HUGEPAGES) as f:
                self.prev = int(f.read())
            free_before = meminfo("HugePages_Free")
            with open(NR_HUGEPAGES, "w") as f:
                f.write(str(self.prev + PAGES))
        except OSError as exc:
            self.prev = None
            return "cannot reserve hugepages (%s)" % exc
        if meminfo("HugePages_Free") < free_before + PAGES:
            return "only %d of %d hugepages could be reserved" % (
                meminfo("HugePages_Free") - free_before, PAGES)
        self.mnt = tempfile.mkdtemp(prefix="mlx5-tm-huge-")
        rc = subprocess.call(["mount", "-t", "hugetlbfs", "-o",
                              "pagesize=2M", "nodev", self.mnt],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        if rc != 0:
            return "cannot mount hugetlbfs"
        self.mounted = True
        return None

    def restore(self):
        if self.mounted:
            subprocess.call(["umount", self.mnt])
        if self.mnt is not None:
            try:
                os.rmdir(self.mnt)
            except OSError:
                pass
        if self.prev is not None:
            with open(NR_HUGEPAGES, "w") as f:
                f.write(str(self.prev))


def runtime_dir(prefix):
    return os.path.join("/var/run/dpdk", prefix)


def telemetry(prefix, cmd):
    """One command on the primary's telemetry socket: the JSON answer."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        s.connect(os.path.join(runtime_dir(prefix), "dpdk_telemetry.v2"))
        s.recv(16384)
        s.send(cmd.encode())
        return json.loads(s.recv(65536).decode())
    finally:
        s.close()


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    so = os.path.join(build, "drivers", "librte_net_mlx5_tm.so")
    secondary = os.path.join(build, "test", "pmd", "test_pmd_secondary")
    for prog in (TESTPMD, PROC_INFO):
        if not os.access(prog, os.X_OK):
            check(False, "%s present (Debian package dpdk)" % prog)
            print("%d passed, %d failed" % (passed, failed))
            return 1
    try:
        pdir = suite_private_dir(build, "mlx5-tm-secondary-")
    except NoPrivateDir as e:
        skip(str(e))
    huge = Hugepages()
    why = huge.setup()
    if why is not None:
        huge.restore()
        shutil.rmtree(pdir, ignore_errors=True)
        skip(why)
    pmd_so = os.path.join(pdir, "librte_net_mlx5_tm.so")
    shutil.copyfile(so, pmd_so)
    # emu= loads the device model from beside the driver.
    shutil.copyfile(os.path.join(build, "drivers", "librte_net_mlx5_tm_emu.so"),
                    os.path.join(pdir, "librte_net_mlx5_tm_emu.so"))
    prefix = "mlx5tm_sec%d" % os.getpid()
    eal = ["--file-prefix", prefix, "-d", pmd_so, "--no-pci"]
    primary = None
    try:
        primary = pexpect.spawn(
            TESTPMD, ["-l", "0-1", "-m", str(PRIMARY_MB), "--huge-dir",
                      huge.mnt] + eal +
            ["--vdev", "net_mlx5_tm0,emu=cx6dx", "--", "-i", "--rxq=2",
             "--txq=2", "--total-num-mbufs=4096", "--nb-cores=1"],
            encoding="utf-8", codec_errors="replace", timeout=60,
            echo=False)
        # No prompt raises: the failure is "primary testpmd session".
        primary.expect_exact(PROMPT)
        for cmd in ("set fwd txonly", "set txpkts 1000", "start",
                    "set port 0 queue 1 rate 100"):
            primary.sendline(cmd)
            primary.expect_exact(PROMPT)
        # Completions and a wire rate on queue 1 before the secondaries
        # look: awaited, not timed (a loaded machine makes them later).
        for _ in range(120):
            primary.sendline("show port xstats 0")
            primary.expect_exact(PROMPT)
            if re.search(r"tx_q1_completions:\s+[1-9]", primary.before) \
                    and re.search(r"tx_q1_wire_rate_bps:\s+[1-9]",
                                  primary.before):
                break
            time.sleep(0.5)

        out = subprocess.run([PROC_INFO] + eal +
                             ["--", "--show-port", "--stats", "--xstats"],
                             capture_output=True, text=True, timeout=60)
        text = out.stdout + out.stderr
        tx = re.search(r"TX-packets:\s+(\d+)", out.stdout)
        check(out.returncode == 0, "dpdk-proc-info --show-port --stats "
              "--xstats exits 0 (status %d)" % out.returncode, text[-800:])
        check("driver net_mlx5_tm device net_mlx5_tm0" in out.stdout and
              re.search(r"Link up at 100 Gbps", out.stdout) is not None and
              "-- mac 02:6D:6C:35:00:00" in out.stdout and
              "-- mtu (1500)" in out.stdout and
              re.search(r"-- 1 descriptors \d+", out.stdout) is not None,
              "dpdk-proc-info --show-port: driver, link, MAC, MTU, Tx "
              "queues", text[-1500:])
        check(tx is not None and int(tx.group(1)) > 0,
              "dpdk-proc-info --stats: the primary's packets", text[-600:])
        # With --stats, dpdk-proc-info 22.11 prints no xstats: on its own.
        out = subprocess.run([PROC_INFO] + eal + ["--", "--xstats"],
                             capture_output=True, text=True, timeout=60)
        cq = re.search(r"tx_q1_completions:\s+(\d+)", out.stdout)
        check(out.returncode == 0 and cq is not None and
              int(cq.group(1)) > 0,
              "dpdk-proc-info --xstats: the queue counters",
              (out.stdout + out.stderr)[-600:])
        out = subprocess.run([PROC_INFO] + eal + ["--", "--show-tm"],
                             capture_output=True, text=True, timeout=60)
        check(out.returncode == 0 and "driver name net_mlx5_tm" in
              out.stdout and "traffic management (rte_tm) from a "
              "secondary process is not supported" in out.stdout +
              out.stderr, "dpdk-proc-info --show-tm: rte_tm refused with "
              "a message", (out.stdout + out.stderr)[-800:])

        # Counters that hold still, the port still started.
        primary.sendline("stop")
        primary.expect_exact(PROMPT)
        out = subprocess.run([secondary, "--proc-type=secondary",
                              "--no-telemetry", "-l", "1"] + eal,
                             capture_output=True, text=True, timeout=60)
        text = out.stdout + out.stderr
        m = re.search(r"^(\d+) passed, (\d+) failed", out.stdout, re.M)
        for line in out.stdout.splitlines():
            if line.startswith("ok: "):
                check(True, "secondary: " + line[4:])
            elif line.startswith("FAIL: "):
                check(False, "secondary: " + line[6:])
        check(out.returncode == 0 and m is not None and
              int(m.group(1)) + int(m.group(2)) == SECONDARY_CASES,
              "test_pmd_secondary ran its %d cases to the end" %
              SECONDARY_CASES, text[-1500:])

        tel = telemetry(prefix, "/ethdev/mlx5_tm/pacing,0")
        page = tel.get("/ethdev/mlx5_tm/pacing") or {}
        check(page.get("queue_rate_source") == ["none", "queue_rate_limit"]
              and page.get("in_use") == 1,
              "primary telemetry: the pacing entry of queue 1", str(tel))
        tel = telemetry(prefix, "/ethdev/xstats,0")
        xs = tel.get("/ethdev/xstats") or {}
        check(xs.get("tx_q1_wire_rate_bps", 0) > 0,
              "primary telemetry: xstats with the wire rate", str(tel)[:400])

        primary.sendline("quit")
        primary.expect(pexpect.EOF, timeout=60)
        primary.close()
        check(primary.exitstatus == 0, "primary quits cleanly",
              str(primary.exitstatus))
        primary = None
    except (pexpect.EOF, pexpect.TIMEOUT) as exc:
        check(False, "primary testpmd session",
              "%s: %s" % (type(exc).__name__,
                          (primary.before or "")[-800:] if primary else ""))
    finally:
        if primary is not None and primary.isalive():
            primary.terminate(force=True)
        shutil.rmtree(pdir, ignore_errors=True)
        shutil.rmtree(runtime_dir(prefix), ignore_errors=True)
        huge.restore()
    check(int(open(NR_HUGEPAGES).read()) == huge.prev,
          "vm.nr_hugepages restored to %d" % huge.prev)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
