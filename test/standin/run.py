#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""The hardware path in make test: the driver with dev= (the rdma-core
glue, drivers/common/mlx5_tm/mlx5_tm_glue_rdma.c and mlx5_tm_netdev.c) on
the stand-in for libibverbs/libmlx5 and the kernel (test/standin/standin.c,
LD_PRELOAD), backed by the device model, on sysfs trees laid out here.

usage: run.py BUILD_DIR
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
# pylint: disable=wrong-import-position
from cases import Cases  # noqa: E402
from eal_runtime import remove_runtime_dir  # noqa: E402
from private_dir import private_dir  # noqa: E402

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
STANDIN = os.path.join(BUILD, "test", "standin", "libmlx5_tm_standin.so")
PMD = os.path.join(BUILD, "drivers", "librte_net_mlx5_tm.so")
TOOL = os.path.join(BUILD, "app", "tm-pace", "dpdk-tm-pace")
PROBE = os.path.join(BUILD, "test", "standin", "standin_probe")
TIMEOUT = 180
PREFIX = "standin%d" % os.getpid()
PCI = "0000:08:00.0"

CASES = Cases()
check = CASES.check


def make_sysfs(root, ports=1, netdevs=(("eth0", "p0", 0),),
               device_id="0x101d"):
    """A sysfs tree as the kernel shows one mlx5 PCI function: its IB
    device mlx5_0 with @ports IB ports, and @netdevs (name,
    phys_port_name or None, dev_port) under the function, in that
    directory order as far as the file system keeps it."""
    pci = os.path.join(root, "devices", "pci0000:00", PCI)
    os.makedirs(os.path.join(pci, "net"))
    with open(os.path.join(pci, "device"), "w") as f:
        f.write(device_id + "\n")
    ib = os.path.join(root, "class", "infiniband", "mlx5_0")
    os.makedirs(ib)
    os.symlink(pci, os.path.join(ib, "device"))
    for p in range(1, ports + 1):
        os.makedirs(os.path.join(ib, "ports", str(p)))
    os.makedirs(os.path.join(root, "class", "net"))
    for name, port_name, dev_port in netdevs:
        d = os.path.join(pci, "net", name)
        os.makedirs(d)
        os.symlink(pci, os.path.join(d, "device"))
        if port_name is not None:
            with open(os.path.join(d, "phys_port_name"), "w") as f:
                f.write(port_name + "\n")
            with open(os.path.join(d, "phys_switch_id"), "w") as f:
                f.write("b8cef60300a1b2c3\n")
        with open(os.path.join(d, "dev_port"), "w") as f:
            f.write("%d\n" % dev_port)
        os.symlink(d, os.path.join(root, "class", "net", name))
    return root


def standin_env(sysfs, emu="cx6dx", devlink="legacy", counts=None):
    env = dict(os.environ)
    preload = [STANDIN]
    asan = os.environ.get("MLX5_TM_STANDIN_ASAN")
    if asan:
        preload.insert(0, asan)
    env["LD_PRELOAD"] = " ".join(preload)
    env["MLX5_TM_STANDIN_SYSFS"] = sysfs
    env["MLX5_TM_STANDIN_EMU"] = emu
    env["MLX5_TM_STANDIN_DEVLINK"] = devlink
    if counts:
        env["MLX5_TM_STANDIN_COUNTS"] = counts
    return env


def eal(pmd, vdev="net_mlx5_tm0,dev=mlx5_0"):
    return ["--no-huge", "--no-pci", "-m", "512", "-l", "0",
            "--no-telemetry", "--log-level=lib.eal:error",
            "--file-prefix", PREFIX, "-d", pmd, "--vdev", vdev]


def run(cmd, env, timeout=TIMEOUT):
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                          timeout=timeout)
    remove_runtime_dir(PREFIX)
    return proc.returncode, proc.stdout, proc.stderr


def read_counts(path):
    counts = {}
    with open(path) as f:
        for line in f:
            key, val = line.split()
            counts[key] = int(val)
    return counts


def test_tm_pace(work, pmd):
    """dpdk-tm-pace with dev=mlx5_0 on the stand-in: the hierarchy
    committed through the rdma glue, traffic on every queue, a live
    change applied, and queue recovery after an error completion (the
    model's fault_wqe=200: the 200th WQE completes with a local
    protection error). Real time: no rate is asserted."""
    sysfs = make_sysfs(os.path.join(work, "sysfs-pace"))
    report = os.path.join(work, "pace.json")
    counts = os.path.join(work, "pace.counts")
    env = standin_env(sysfs, "cx6dx,fault_wqe=200", counts=counts)
    rc, out, err = run([TOOL] + eal(pmd) + [
        "--", "--group", "g:peak=400M", "--queue", "0:group=g,peak=100M",
        "--queue", "1:group=g", "--queue", "2:peak=50M",
        "--at", "500ms:queue 2:peak=80M", "--duration", "1500ms",
        "--interval", "250ms", "--pkt-size", "1000", "--quiet",
        "--tolerance", "99", "--json", report], env)
    check("tm-pace on the stand-in: the plan was carried out (exit 0 or "
          "1, not a refusal)", rc in (0, 1),
          "rc=%d\n%s\n%s" % (rc, out[-3000:], err[-3000:]))
    if not os.path.exists(report):
        check("tm-pace wrote its report", False, err[-2000:])
        return
    with open(report) as f:
        rep = json.load(f)
    check("tm-pace: the port is the rdma-core device, not the model",
          not rep["port"]["emulated"], rep["port"])
    sent = {q["queue"]: q["samples"][-1]["sent_packets"]
            for q in rep["queues"]}
    check("tm-pace: traffic on every queue", len(sent) == 3 and
          all(v > 0 for v in sent.values()), sent)
    ch = rep["changes"]
    check("tm-pace: the live change was applied through rte_tm",
          len(ch) == 1 and ch[0]["applied"] and ch[0]["queue"] == 2, ch)
    phs = [ph for q in rep["queues"] for ph in q["phases"]]
    errors = sum(ph["errors"] for ph in phs)
    rec = sum(ph["recoveries"] for ph in phs)
    check("tm-pace: a queue recovered from its error completion",
          errors >= 1 and rec >= 1, "errors %d recoveries %d" % (errors, rec))
    c = read_counts(counts)
    check("tm-pace: the netdev was read through the stand-in's ioctls",
          c["ioctls"] > 0, c)


def main():
    for path in (STANDIN, PMD, TOOL):
        if not os.path.exists(path):
            check("%s exists" % path, False)
            return CASES.report()
    work = private_dir([os.environ.get("XDG_RUNTIME_DIR", ""),
                        os.path.expanduser("~/.cache"), BUILD],
                       "mlx5-tm-standin-")
    try:
        pmd = os.path.join(work, os.path.basename(PMD))
        shutil.copy(PMD, pmd)
        CASES.run("tm_pace_dev_standin", test_tm_pace, work, pmd)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return CASES.report()


if __name__ == "__main__":
    sys.exit(main())
