#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""End-to-end figure: Debian's dpdk-testpmd txonly, 64-byte frames, one Tx
queue, on mlx5-tm over the device model (real-time clock) and on net_null,
measured one after the other in the same run.

Usage: testpmd_txonly.py BUILD_DIR [--seconds S] [--json FILE]

Method: testpmd (-l 0-1: main lcore 0, one forwarding lcore 1, --no-huge)
forwards txonly on port 0 (--rxq=0 --txq=1, txpkts 64, burst 32); after
WARM_UP seconds, TX-packets of "show port stats 0" is read twice, S seconds
of wall time apart: Mpps = difference / elapsed. On mlx5-tm TX-packets are
the packets its burst accepted; the device model's wire counter
(xstat tx_q0_wire_packets) over the same window is printed beside it with
the model's worst lag, the CPU time its device thread (mlx5-emu) used per
frame (/proc utime + stime over the window: 1000 / that is what the model
could carry on a core of its own, an upper bound on its cost since it
includes polling while it waits for the sender), and how often the
PMD's burst met a full ring (xstat tx_q0_ring_full) per 32 frames sent:
0 when the sender (testpmd and the PMD) is the limit, 1 or more when the
model holds it back (txonly offers its burst again and again). The device
thread runs on CPU 0 beside the idle main lcore (the PMD keeps it off the
worker lcores by default) and shares it with anything else running: on a
loaded machine the Mpps figures fall, the CPU time per frame much less.
Reference, measured just before and just after the mlx5-tm run: the time
one cache line takes from CPU 0 to CPU 1 (BUILD/test/bench/
cpu-line-transfer), which the sender pays on the lines it shares with the
device thread (each frame's first line, the eMPW data segments); on a
virtual machine it changes with where the host puts the vCPUs.
A benchmark: nothing is asserted.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

import pexpect

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "pmd"))
from testpmd_smoke import EMU_SO, PROMPT, TESTPMD  # noqa: E402
from private_dir import NoPrivateDir, suite_private_dir  # noqa: E402
from eal_runtime import remove_runtime_dir  # noqa: E402

WARM_UP = 1.0   # s of txonly before the window opens
SECONDS = 3.0   # s of wall time measured, by default
PKT_LEN = 64


def cmd(child, line):
    child.sendline(line)
    child.expect_exact(PROMPT, timeout=60)
    return child.before


def counter(out, name):
    m = re.search(r"%s:\s+(\d+)" % name, out)
    return int(m.group(1)) if m else 0


def thread_cpu_s(pid, name):
    """CPU seconds (user + system) used so far by @pid's threads @name."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        if comm == name:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def line_transfer_ns(build):
    """CPU 0 to CPU 1 cache-line transfer time in ns, None if unknown."""
    prog = os.path.join(build, "test", "bench", "cpu-line-transfer")
    try:
        out = subprocess.run([prog, "0", "1"], capture_output=True,
                             text=True, timeout=60).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return float(out[3]) if len(out) == 4 else None


def measure(vdev, pmd, seconds, wire):
    """One testpmd run; returns {"mpps"} and, with @wire, "wire_mpps",
    "max_lag_ns" and "model_ns_per_frame"."""
    args = ["--no-huge", "--no-pci", "-m", "512", "-l", "0-1",
            "--no-shconf", "--file-prefix", "txonly%d" % os.getpid(),
            "--log-level", "lib.eal:error", "--vdev", vdev]
    if pmd is not None:
        args = ["-d", pmd] + args
    args += ["--", "-i", "--rxq=0", "--txq=1", "--burst=32",
             "--total-num-mbufs=16384"]
    child = pexpect.spawn(TESTPMD, args, encoding="utf-8", timeout=60)
    try:
        child.expect_exact(PROMPT)
        cmd(child, "set fwd txonly")
        cmd(child, "set txpkts %d" % PKT_LEN)
        cmd(child, "start")
        time.sleep(WARM_UP)
        if wire:
            cmd(child, "clear port xstats 0")
            cpu0 = thread_cpu_s(child.pid, "mlx5-emu")
        t0 = time.monotonic()
        p0 = counter(cmd(child, "show port stats 0"), "TX-packets")
        time.sleep(seconds)
        p1 = counter(cmd(child, "show port stats 0"), "TX-packets")
        t1 = time.monotonic()
        res = {"mpps": (p1 - p0) / (t1 - t0) / 1e6}
        if wire:
            out = cmd(child, "show port xstats 0")
            cpu = thread_cpu_s(child.pid, "mlx5-emu") - cpu0
            t2 = time.monotonic()
            frames = counter(out, "tx_q0_wire_packets")
            res["wire_mpps"] = frames / (t2 - t0) / 1e6
            res["max_lag_ns"] = counter(out, "emu_max_lag_ns")
            res["model_ns_per_frame"] = cpu * 1e9 / frames if frames else 0
            res["ring_full_bursts"] = counter(out, "tx_q0_ring_full")
        cmd(child, "stop")
        child.sendline("quit")
        child.expect(pexpect.EOF, timeout=60)
        return res
    finally:
        if child.isalive():
            child.terminate(force=True)
        remove_runtime_dir("txonly%d" % os.getpid())


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__)
        return 2
    build = os.path.abspath(args[0])
    seconds, json_path = SECONDS, None
    i = 1
    while i < len(args):
        if args[i] == "--seconds" and i + 1 < len(args):
            seconds = float(args[i + 1])
        elif args[i] == "--json" and i + 1 < len(args):
            json_path = args[i + 1]
        else:
            print("unknown option %s" % args[i])
            return 2
        i += 2
    so = os.path.join(build, "drivers", "librte_net_mlx5_tm.so")
    if not os.path.exists(TESTPMD) or not os.path.exists(so):
        print("testpmd txonly: %s or %s missing: skipped" % (TESTPMD, so))
        return 0
    try:
        work = suite_private_dir(build, "mlx5-tm-txonly-")
    except NoPrivateDir as e:
        print("testpmd txonly: skipped: %s" % e)
        return 0
    try:
        pmd = os.path.join(work, os.path.basename(so))
        shutil.copy(so, pmd)
        shutil.copy(os.path.join(os.path.dirname(so), EMU_SO),
                    os.path.join(work, EMU_SO))
        line_before = line_transfer_ns(build)
        ours = measure("net_mlx5_tm0,emu=cx6dx", pmd, seconds, True)
        line_after = line_transfer_ns(build)
        null = measure("net_null0", None, seconds, False)
    except pexpect.ExceptionPexpect as e:
        print("testpmd txonly: testpmd session failed: %s" % e)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("testpmd txonly, %d B, 1 queue, burst 32, %.1f s window after "
          "%.1f s warm-up (TX-packets delta / wall time):"
          % (PKT_LEN, seconds, WARM_UP))
    print("  mlx5-tm (emu=cx6dx, realtime)  %7.2f Mpps  (wire %.2f Mpps, "
          "model max lag %.2f ms)" % (ours["mpps"], ours["wire_mpps"],
                                      ours["max_lag_ns"] / 1e6))
    ns = ours["model_ns_per_frame"]
    print("  device model thread            %7.1f ns CPU per frame "
          "(%.1f Mpps on a core of its own)" % (ns, 1e3 / ns if ns else 0))
    sent = ours["wire_mpps"] * 1e6 * seconds / 32
    print("  full-ring tx_burst calls       %7.2f per 32 frames sent (0: the "
          "sender was the limit)" %
          (ours["ring_full_bursts"] / sent if sent else 0))
    if line_before is not None and line_after is not None:
        print("  cache line CPU 0 -> CPU 1      %7.0f ns before, %.0f ns "
              "after the mlx5-tm run" % (line_before, line_after))
    print("  net_null                       %7.2f Mpps" % null["mpps"])
    print("  mlx5-tm / net_null             %7.2f" %
          (ours["mpps"] / null["mpps"] if null["mpps"] else 0.0))
    if json_path:
        with open(json_path, "w") as f:
            json.dump({"pkt_len": PKT_LEN, "seconds": seconds,
                       "warm_up": WARM_UP, "mlx5_tm": ours,
                       "cpu_line_transfer_ns": [line_before, line_after],
                       "net_null": null}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
