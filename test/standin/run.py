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
import re
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
HW_CHECK = os.path.join(BUILD, "app", "hw-check", "dpdk-mlx5-tm-check")
TIMEOUT = 180
PREFIX = "standin%d" % os.getpid()
PCI = "0000:08:00.0"
# standin_probe links the driver: no -d.
PROBE_PMD = None

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


def asan_runtime():
    """The ASan runtime the build's programs link (an ASan/UBSan build),
    else None: it must come first in LD_PRELOAD, before the stand-in."""
    proc = subprocess.run(["ldd", TOOL], capture_output=True, text=True)
    m = re.search(r"\s(\S*/libasan\.so\S*)\s", proc.stdout)
    return m.group(1) if m else None


ASAN_RUNTIME = asan_runtime() if os.path.exists(TOOL) else None


def standin_env(sysfs, emu="cx6dx", devlink="legacy", counts=None):
    env = dict(os.environ)
    env["LD_PRELOAD"] = STANDIN if ASAN_RUNTIME is None else \
        "%s %s" % (ASAN_RUNTIME, STANDIN)
    env["MLX5_TM_STANDIN_SYSFS"] = sysfs
    env["MLX5_TM_STANDIN_EMU"] = emu
    env["MLX5_TM_STANDIN_DEVLINK"] = devlink
    if counts:
        env["MLX5_TM_STANDIN_COUNTS"] = counts
    return env


def eal(pmd, vdev="net_mlx5_tm0,dev=mlx5_0"):
    return ["--no-huge", "--no-pci", "-m", "512", "-l", "0",
            "--no-telemetry", "--log-level=lib.eal:error",
            "--file-prefix", PREFIX] + (["-d", pmd] if pmd else []) + \
        ["--vdev", vdev]


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


def test_hw_check_eswitch(work, pmd):
    """dpdk-mlx5-tm-check's eswitch step on the stand-in (real time, the
    verdicts of the other steps not asserted): skipped, saying devlink
    needs CAP_NET_ADMIN, while devlink refuses (the mode unknown); passed
    where devlink says legacy."""
    for devlink, want in (("eperm", "skip"), ("legacy", "pass")):
        sysfs = make_sysfs(os.path.join(work, "sysfs-hc-" + devlink))
        report = os.path.join(work, "hc-%s.json" % devlink)
        rc, out, err = run([HW_CHECK] + eal(pmd) + [
            "--", "--quick", "--window-ms", "20", "--json", report],
            standin_env(sysfs, "cx6dx", devlink))
        if not os.path.exists(report):
            check("hw-check, devlink %s: report written" % devlink, False,
                  "rc=%d %s" % (rc, err[-2000:]))
            continue
        with open(report) as f:
            rep = json.load(f)
        step = next((st for st in rep["steps"] if st["name"] == "eswitch"),
                    {})
        check("hw-check, devlink %s: eswitch %s" % (devlink, want),
              step.get("verdict") == want and
              (want != "skip" or
               step.get("reason", "").startswith("mode unknown: devlink "
                                                 "needs CAP_NET_ADMIN")),
              step)



def test_hw_check_recovery(work, pmd):
    """dpdk-mlx5-tm-check's recovery step through the rdma glue: the PMD
    registers and deregisters memory (ibv_reg_mr, ibv_dereg_mr of the
    stand-in), its WQE naming the dead key completes in error, and the
    SQ comes back with its pacing index and queue group (the step's
    evidence; its rate is real time and not asserted)."""
    sysfs = make_sysfs(os.path.join(work, "sysfs-hc-recovery"))
    report = os.path.join(work, "hc-recovery.json")
    rc, out, err = run([HW_CHECK] + eal(pmd) + [
        "--", "--quick", "--window-ms", "20", "--json", report],
        standin_env(sysfs, "cx6dx"))
    if not os.path.exists(report):
        check("hw-check: report written", False,
              "rc=%d %s" % (rc, err[-2000:]))
        return
    with open(report) as f:
        rep = json.load(f)
    step = next((st for st in rep["steps"] if st["name"] == "recovery"),
                {})
    ev = step.get("evidence", {})
    check("hw-check on the stand-in: an error CQE, a recovery, pacing "
          "index and queue group kept",
          ev.get("error_cqes", 0) >= 1 and ev.get("recoveries", 0) >= 1
          and ev.get("pp_after") == ev.get("pp_before") != 0 and
          ev.get("group_after") == ev.get("group_before") != 0, step)



def probe(work, name, mode=(), devlink="legacy", emu="cx6dx",
          vdev="net_mlx5_tm0,dev=mlx5_0", **tree):
    """standin_probe on a sysfs tree of its own (make_sysfs(**tree))."""
    sysfs = make_sysfs(os.path.join(work, "sysfs-" + name), **tree)
    env = standin_env(sysfs, emu, devlink)
    return run([PROBE] + eal(PROBE_PMD, vdev) + ["--"] + list(mode), env)


def representor_first(work, name):
    """netdevs for an uplink beside two VF representors, named so that
    the directory lists a representor first: the first entry is never
    the uplink, whatever the file system's order."""
    for uplink in ("eth0", "enp8s0f0np0", "ens1f0", "uplink0", "p0net"):
        reps = [("%srep0" % uplink, "pf0vf0", 0),
                ("%srep1" % uplink, "pf0vf1", 0)]
        netdevs = tuple(reps + [(uplink, "p0", 0)])
        root = make_sysfs(os.path.join(work, "order-%s" % uplink),
                          netdevs=netdevs)
        first = os.listdir(os.path.join(root, "devices", "pci0000:00",
                                        PCI, "net"))[0]
        shutil.rmtree(root)
        if first != uplink:
            return uplink, netdevs
    return None, None


def test_devlink_eperm(work):
    """devlink refuses (no CAP_NET_ADMIN): a WARNING naming it, and the
    role taken from the IB ports and netdevs (one port, no
    representor: legacy, the port probes)."""
    rc, out, err = probe(work, "eperm", devlink="eperm")
    check("devlink EPERM: the port probes (legacy from 1 IB port)",
          rc == 0 and "ports 1" in out, out + err[-2000:])
    check("devlink EPERM: a WARNING names the missing CAP_NET_ADMIN",
          "CAP_NET_ADMIN" in err and "taken as legacy from 1 IB port"
          in err, err[-2000:])


def test_ib_ports(work):
    """Two IB ports on the device (the kernel's representor ports beside
    the uplink's): switchdev without devlink's word, refused."""
    rc, out, err = probe(work, "ports", devlink="eperm", ports=2)
    check("2 IB ports, devlink EPERM: switchdev, probe refused",
          "ports 0" in out and "switchdev mode" in err and
          "taken as switchdev from 2 IB ports" in err, out + err[-2000:])


def test_uplink_by_port_name(work):
    """VF representors beside the uplink in the PCI function's net/:
    the uplink is the netdev named p0, not the first entry; the
    e-switch is switchdev (devlink agrees), the refusal names it."""
    uplink, netdevs = representor_first(work, "reps")
    if uplink is None:
        print("SKIP uplink by phys_port_name: no name put a representor "
              "first in this file system's directory order")
        return
    rc, out, err = probe(work, "reps", devlink="switchdev",
                         netdevs=netdevs)
    check("representors listed first: the uplink %s is examined" % uplink,
          "ports 0" in out and "netdev %s is in switchdev mode" % uplink
          in err and "E-Switch representor" not in err, out + err[-2000:])
    rc, out, err = probe(work, "reps-eperm", devlink="eperm",
                         netdevs=netdevs)
    check("representors beside the uplink, devlink EPERM: switchdev",
          "ports 0" in out and "netdev %s is in switchdev mode" % uplink
          in err and "2 representor netdevs" in err, out + err[-2000:])


def test_link_get(work):
    """rte_eth_link_get() on a started port makes no netlink call (no
    devlink query: the role was read at probe); its cost is printed."""
    rc, out, err = probe(work, "link", mode=("link", "2000"))
    print(out)
    m = re.search(r"netlink_sockets (\d+) devlink_queries (\d+) "
                  r"inet_sockets (\d+) ioctls (\d+)", out)
    check("link_get x2000: no netlink socket, no devlink query",
          rc == 0 and m is not None and m.group(1) == "0" and
          m.group(2) == "0", out + err[-2000:])
    # The link alone: SIOCGIFFLAGS and ETHTOOL_GLINKSETTINGS (twice: the
    # mask-size handshake) per call; no MTU, no MAC.
    check("link_get x2000: 3 ioctls a call (flags, ethtool x2)",
          m is not None and m.group(4) == str(3 * 2000), out)


def test_dev_names(work):
    """dev= by ibdev name, by PCI address, by PCI address without its
    domain; a name that matches nothing is refused listing the devices
    present with their PCI addresses."""
    for dev in ("0000:08:00.0", "08:00.0"):
        rc, out, err = probe(work, "name-" + dev.replace(":", "_"),
                             vdev="net_mlx5_tm0,dev=" + dev)
        check("dev=%s: the port probes" % dev, rc == 0 and "ports 1" in out,
              out + err[-1500:])
    rc, out, err = probe(work, "name-none", vdev="net_mlx5_tm0,dev=mlx5_9")
    check("dev=mlx5_9: refused, naming mlx5_0 (%s)" % PCI,
          "ports 0" in out and "devices present: mlx5_0 (%s)" % PCI in err,
          out + err[-1500:])


def test_mtu(work):
    """rte_eth_dev_set_mtu() reaches the netdev (SIOCSIFMTU) and the
    MTU read back is the device's."""
    rc, out, err = probe(work, "mtu", mode=("mtu", "9000"))
    check("set_mtu 9000 through the netdev", rc == 0 and
          "set_mtu 9000: 0, mtu 9000" in out, out + err[-1500:])


def test_firmware_refusal(work):
    """A command the firmware refuses (the model's fault_cmd) fails the
    start cleanly through the glue's EREMOTEIO path: CREATE_SQ (an
    object create) and MODIFY_SQ (a command on an object)."""
    for op in ("CREATE_SQ", "MODIFY_SQ"):
        rc, out, err = probe(work, "fw-" + op, mode=("link", "1"),
                             emu="cx6dx,fault_cmd=%s:1:0x3" % op)
        check("%s refused by firmware: start fails, no crash" % op,
              rc == 1 and "cannot start" in out, out + err[-1500:])


def test_pp_alloc_refused(work, pmd):
    """mlx5dv_pp_alloc() failing (the model's fault_pp_alloc: the rate
    table full, ENOSPC) through the glue's failure path: tm-pace's
    commit is refused with the driver's message (the rate table full),
    exit 3, nothing measured."""
    sysfs = make_sysfs(os.path.join(work, "sysfs-pp-alloc"))
    rc, out, err = run([TOOL] + eal(pmd) + [
        "--", "--queue", "0:peak=100M", "--duration", "200ms",
        "--quiet"], standin_env(sysfs, "cx6dx,fault_pp_alloc=1:ENOSPC"))
    text = out + err
    check("pacing entry refused (ENOSPC): commit refused, exit 3, the "
          "reason given", rc == 3 and "refused: No space left on device" in
          text and "rate table is full" in text,
          "rc=%d %s" % (rc, text[-2000:]))


def test_no_netdev(work):
    """A PCI function without a netdev: the probe warns and goes on with
    MTU 1500, link unknown."""
    rc, out, err = probe(work, "nonet", netdevs=())
    check("no netdev: probes with a warning", rc == 0 and "ports 1" in out
          and "cannot read the netdev of mlx5_0" in err, out + err[-1500:])


def test_devlink_absent(work):
    """No devlink family in generic netlink (an old kernel): a warning
    with the error, no privilege named, the role from the IB ports."""
    rc, out, err = probe(work, "absent", devlink="absent")
    check("devlink absent: probes, warns, names no privilege",
          rc == 0 and "ports 1" in out and "devlink cannot say" in err and
          "CAP_NET_ADMIN" not in err, out + err[-1500:])


def main():
    for path in (STANDIN, PMD, TOOL, PROBE, HW_CHECK):
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
        CASES.run("eswitch_devlink_eperm", test_devlink_eperm, work)
        CASES.run("hw_check_eswitch_unknown", test_hw_check_eswitch, work,
                  pmd)
        CASES.run("hw_check_recovery_bad_lkey", test_hw_check_recovery,
                  work, pmd)
        CASES.run("eswitch_ib_ports", test_ib_ports, work)
        CASES.run("eswitch_uplink_by_port_name", test_uplink_by_port_name,
                  work)
        CASES.run("link_get_no_netlink", test_link_get, work)
        CASES.run("dev_names", test_dev_names, work)
        CASES.run("mtu_set", test_mtu, work)
        CASES.run("firmware_refusal", test_firmware_refusal, work)
        CASES.run("pp_alloc_refused", test_pp_alloc_refused, work, pmd)
        CASES.run("no_netdev", test_no_netdev, work)
        CASES.run("devlink_absent", test_devlink_absent, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return CASES.report()


if __name__ == "__main__":
    sys.exit(main())
