#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Smoke test: Debian's dpdk-testpmd loads the PMD with -d and sends.

Usage: testpmd_smoke.py BUILD_DIR

Runs testpmd on the device model (realtime clock), txonly on 4 queues,
checks the port counts packets, that a queue rate limit is accepted, and
that the wire's per-queue figures are in the xstats. A case is one
testpmd session; prints "N passed, N failed" (cases).
"""

import os
import re
import shutil
import sys
import time

import pexpect

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
# pylint: disable=wrong-import-position
from cases import Cases as Checks  # noqa: E402
from private_dir import NoPrivateDir, suite_private_dir  # noqa: E402
from eal_runtime import remove_runtime_dir  # noqa: E402

TESTPMD = "/usr/bin/dpdk-testpmd"
PROMPT = "testpmd> "
# The device model: a library of its own, loaded by the PMD for emu=.
EMU_SO = "librte_net_mlx5_tm_emu.so"


def cmd(child, line, timeout=30):
    child.sendline(line)
    child.expect_exact(PROMPT, timeout=timeout)
    return child.before


def wait_for(child, line, pred, tries=60, pause=0.5):
    """Send @line every @pause s until its answer satisfies @pred, at most
    @tries times (an event awaited, not a time measured: a loaded machine
    makes it come later); the last answer."""
    out = cmd(child, line)
    for _ in range(tries):
        if pred(out):
            break
        time.sleep(pause)
        out = cmd(child, line)
    return out


def cpu_list(text):
    """The CPUs of a kernel CPU list such as "0,2-3"."""
    cpus = set()
    for part in text.strip().split(","):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def device_thread_cpus(pid):
    """The CPUs the device model's thread (mlx5-emu) of @pid may use."""
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/status" % (pid, tid)) as f:
                status = f.read()
        except OSError:
            continue
        if re.search(r"^Name:\s+mlx5-emu$", status, re.M):
            m = re.search(r"^Cpus_allowed_list:\s+(\S+)$", status, re.M)
            return cpu_list(m.group(1)) if m else None
    return None


def session(checks, pmd, rxq, txq, rates):
    """One testpmd run: txonly for a second, counters, quit."""
    tag = "--rxq=%d --txq=%d" % (rxq, txq)
    args = ["-d", pmd, "--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
            "--no-shconf", "--file-prefix", "smoke%d" % os.getpid(),
            "--log-level", "lib.eal:error",
            "--vdev", "net_mlx5_tm0,emu=cx6dx",
            "--", "-i", "--rxq=%d" % rxq, "--txq=%d" % txq,
            "--total-num-mbufs=8192"]
    child = pexpect.spawn(TESTPMD, args, encoding="utf-8", timeout=60)
    child.logfile_read = sys.stdout
    try:
        idx = child.expect_exact([PROMPT, pexpect.EOF, pexpect.TIMEOUT])
        checks.check("%s: testpmd starts with the PMD" % tag, idx == 0)
        if idx != 0:
            return
        out = cmd(child, "show port info 0")
        checks.check("%s: port 0 is net_mlx5_tm" % tag, "net_mlx5_tm" in out)
        # -l 0-1: the worker lcore is CPU 1, which the model's thread
        # keeps off by default; of the CPUs online, those this process
        # may use (a container's cpuset keeps the others from it).
        with open("/sys/devices/system/cpu/online") as f:
            want = (cpu_list(f.read()) & os.sched_getaffinity(0)) - {1}
        got = device_thread_cpus(child.pid)
        checks.check("%s: device thread off the worker lcore's CPU" % tag,
                     got == want, "on CPUs %s, want %s" % (got, want))
        cmd(child, "set fwd txonly")
        cmd(child, "start")
        out = wait_for(child, "show port stats 0",
                       lambda o: re.search(r"TX-packets:\s+[1-9]", o))
        m = re.search(r"TX-packets:\s+(\d+)", out)
        sent = int(m.group(1)) if m else 0
        checks.check("%s: packets sent" % tag, sent > 0,
                     "TX-packets %d" % sent)
        if rates:
            out = cmd(child, "set port 0 queue 1 rate 100")
            checks.check("%s: queue rate limit accepted" % tag,
                         "fail" not in out.lower() and
                         "error" not in out.lower(), out.strip())
            # Let the frames posted before the limit leave, then measure
            # from a clean start (xstats reset restarts the wire figures).
            time.sleep(0.5)
            cmd(child, "clear port xstats 0")

            def on_wire(o):
                return [q for q in range(txq)
                        if re.search(r"tx_q%d_wire_packets:\s+[1-9]" % q, o)]
            out = wait_for(child, "show port xstats 0",
                           lambda o: len(on_wire(o)) == txq and re.search(
                               r"tx_q1_wire_rate_bps:\s+[1-9]", o))
            busy = on_wire(out)
            checks.check("%s: every Tx queue on the wire" % tag,
                         len(busy) == txq and
                         "tx_q1_wire_rate_bps" in out,
                         "queues with wire packets: %s" % busy)
            # The limit is a ceiling the device model keeps exactly, even
            # when it runs late: queue 1 never exceeds 100 Mbit/s (frame
            # bytes). No lower bound: in real time that depends on the
            # machine's speed.
            m = re.search(r"tx_q1_wire_rate_bps:\s+(\d+)", out)
            rate = int(m.group(1)) if m else -1
            checks.check("%s: queue 1 paced at 100 Mbit/s at most" % tag,
                         0 < rate <= 100500000, "tx_q1_wire_rate_bps %d"
                         % rate)
        cmd(child, "stop")
        child.sendline("quit")
        idx = child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=60)
        child.close()
        checks.check("%s: testpmd quits cleanly" % tag,
                     idx == 0 and child.exitstatus == 0,
                     "exit %s" % child.exitstatus)
    except pexpect.ExceptionPexpect as e:
        checks.check("%s: testpmd session" % tag, False, str(e))
    finally:
        if child.isalive():
            child.terminate(force=True)
        remove_runtime_dir("smoke%d" % os.getpid())


def model_missing(checks, pmd_alone):
    """The PMD without its device model: emu= fails with a message naming
    the library and where it was looked for."""
    tag = "driver without the device model"
    args = ["-d", pmd_alone, "--no-huge", "--no-pci", "-m", "512",
            "-l", "0", "--no-shconf", "--file-prefix",
            "smokenomodel%d" % os.getpid(), "--log-level", "lib.eal:error",
            "--vdev", "net_mlx5_tm0,emu=cx6dx", "--", "-i"]
    child = pexpect.spawn(TESTPMD, args, encoding="utf-8", timeout=60)
    child.logfile_read = sys.stdout
    try:
        idx = child.expect([r"emu= needs the device model " + EMU_SO +
                            r".*not in " + re.escape(
                                os.path.dirname(pmd_alone)) +
                            r" \(next to the driver\)",
                            PROMPT, pexpect.EOF, pexpect.TIMEOUT])
        if idx == 1:
            # Found elsewhere: a device model is installed system-wide.
            print("skip %s: a device model is installed on this machine"
                  % tag)
        else:
            checks.check("%s: emu= refused, naming the library and the "
                         "places looked at" % tag, idx == 0)
    except pexpect.ExceptionPexpect as e:
        checks.check("%s: testpmd session" % tag, False, str(e))
    finally:
        if child.isalive():
            child.terminate(force=True)
        remove_runtime_dir("smokenomodel%d" % os.getpid())


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        print("0 passed, 1 failed")
        return 1
    build = os.path.abspath(sys.argv[1])
    so = os.path.join(build, "drivers", "librte_net_mlx5_tm.so")
    checks = Checks()
    if not os.path.exists(TESTPMD) or not os.path.exists(so):
        checks.check("testpmd and the PMD exist",
                     False, "%s / %s missing" % (TESTPMD, so))
        return checks.report()
    names = ("testpmd --rxq=0 --txq=4: sends",
             "testpmd --rxq=4 --txq=4: sends on every queue, paced",
             "driver without the device model: emu= refused")
    try:
        work = suite_private_dir(build, "mlx5-tm-smoke-")
    except NoPrivateDir as e:
        for name in names:
            checks.skip(name, str(e))
        return checks.report()
    try:
        pmd = os.path.join(work, os.path.basename(so))
        shutil.copy(so, pmd)
        os.chmod(pmd, 0o700)
        # The device model, which the PMD loads from beside itself.
        emu = os.path.join(work, EMU_SO)
        shutil.copy(os.path.join(os.path.dirname(so), EMU_SO), emu)
        os.chmod(emu, 0o700)
        # As the guide shows it: no Rx queue, one forwarding stream.
        checks.run(names[0], session, checks, pmd, 0, 4, False)
        # Rx queues too: testpmd then sends on all 4 Tx queues.
        checks.run(names[1], session, checks, pmd, 4, 4, True)
        # Without the model beside it (and none installed), emu= fails.
        alone = os.path.join(work, "alone")
        os.mkdir(alone, 0o700)
        shutil.copy(so, alone)
        checks.run(names[2], model_missing, checks,
                   os.path.join(alone, os.path.basename(so)))
    except (OSError, RuntimeError) as e:
        checks.check("set-up", False, str(e))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return checks.report()


if __name__ == "__main__":
    sys.exit(main())
