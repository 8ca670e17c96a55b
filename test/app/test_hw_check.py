#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Functional tests of dpdk-mlx5-tm-check, the hardware self-check: it runs
end to end on the emulated ConnectX-5, -6 Dx and -7 (virtual time), every
step passes and the JSON report is complete; its capability step suggests
the devargs of the device it ran on; with dev= and no NIC it says what it
needs and exits 2.

A step may be skipped only as "not supported by this driver build" (a
feature the PMD lacks, such as mtu_set); such skips are listed.

usage: test_hw_check.py BUILD_DIR
"""

import fcntl
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
# pylint: disable=wrong-import-position
from cases import Cases  # noqa: E402
from eal_runtime import remove_runtime_dir, runtime_dir  # noqa: E402

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
TOOL = os.path.join(BUILD, "app", "hw-check", "dpdk-mlx5-tm-check")
TIMEOUT = 300
WORK = tempfile.mkdtemp(prefix="hw-check-test.", dir=BUILD)
os.chmod(WORK, 0o700)

# Every step a report must hold (pacing.<rate>.<size> come on top).
STEPS = [
    "environment", "mtu", "eswitch", "capabilities", "objects.setup",
    "objects.start", "objects.modify_pp", "objects.create_pp",
    "objects.stop", "smoke.one_frame", "ring.wrap", "mtu.oversize",
    "ratetable.capacity", "ratetable.sharing", "ratetable.dedicated",
    "ratetable.range", "packet_mode", "live_change", "mixed_queues",
    "sched.objects", "sched.pp_and_group", "sched.ceiling",
    "sched.paced_sibling", "sched.packet_mode", "sched.shares",
    "sched.reparent", "recovery", "commit_link_down",
]
BUILD_SKIP = "not supported by this driver build"
# The steps of the NIC scheduling hierarchy, skipped (said so) on a
# device without it: ConnectX-5.
SCHED_STEPS = [n for n in STEPS if n.startswith("sched.")]
NO_HIERARCHY = "the device has no NIC scheduling hierarchy"

# Each step's guard: the device-model knob reproducing the defect it
# guards, under which it must fail (doc/guides/hw_check.rst).
GUARDS = [
    ("mtu_set=ignore", ["mtu"]),
    ("sched_modify_sq_group=ignore", ["sched.objects", "sched.ceiling",
                                      "sched.shares", "sched.reparent"]),
    ("sched_sq_pp_and_group=0", ["sched.pp_and_group",
                                 "sched.paced_sibling",
                                 "sched.packet_mode"]),
    ("sched_sq_pp_and_group=ignore", ["sched.pp_and_group",
                                      "sched.paced_sibling",
                                      "sched.packet_mode"]),
    ("sched_modify_sq_group=refuse", ["recovery"]),
    ("link_max_speed=unknown", ["commit_link_down"]),
]

CASES = Cases()
check = CASES.check


def case(fn, *args):
    """Run one test function as one case."""
    CASES.run("%s(%s)" % (fn.__name__, ", ".join(map(str, args))), fn,
              *args)


def run(vdev, extra=(), fsize=None):
    """The check on @vdev with options @extra; @fsize: a file-size limit
    (bytes) for it, with SIGXFSZ ignored, so that a write past it fails
    with EFBIG as on a full disk (and --no-shconf: EAL's shared
    configuration file would not fit)."""
    args = [TOOL, "--no-huge", "--no-pci", "-m", "512", "-l", "0",
            "--no-telemetry", "--log-level=lib.eal:error",
            "--log-level=pmd.net.mlx5_tm:error",
            "--file-prefix", "hwcheck%d" % os.getpid(),
            "--vdev", vdev] + (["--no-shconf"] if fsize else []) + \
        ["--"] + list(extra)
    pre = None
    if fsize is not None:
        def pre():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    proc = subprocess.run(args, capture_output=True, text=True,
                          timeout=TIMEOUT, preexec_fn=pre)
    remove_runtime_dir("hwcheck%d" % os.getpid())
    return proc.returncode, proc.stdout, proc.stderr


def check_complete(tag, rep, out):
    """The report has every field, every step, and consistent counts."""
    for key in ("tool", "format", "device", "emulated", "virtual_clock",
                "tolerance_pct", "steps", "summary"):
        check("%s: JSON has %s" % (tag, key), key in rep)
    steps = rep.get("steps", [])
    names = [s.get("name") for s in steps]
    for name in STEPS:
        check("%s: step %s reported" % (tag, name), name in names)
    pacing = [n for n in names if n and n.startswith("pacing.")]
    check("%s: pacing measured at 3 sizes and several rates" % tag,
          len(pacing) >= 9 and
          {n.rsplit(".", 1)[1] for n in pacing} == {"60", "512", "1500"},
          pacing)
    bad = [s.get("name") for s in steps
           if set(s) != {"name", "title", "verdict", "reason", "text",
                         "evidence"} or
           s["verdict"] not in ("pass", "fail", "skip") or
           not isinstance(s["evidence"], dict) or not s["title"] or
           (s["verdict"] != "pass" and not s["reason"])]
    check("%s: every step has name, title, verdict, reason, text and "
          "evidence" % tag, not bad, bad)
    count = {v: sum(s.get("verdict") == v for s in steps)
             for v in ("pass", "fail", "skip")}
    summ = rep.get("summary", {})
    check("%s: summary counts the steps" % tag,
          summ.get("steps") == len(steps) and
          all(summ.get(v) == count[v] for v in count), (summ, count))
    check("%s: the text report has a verdict line per step" % tag,
          all(("] %-26s " % n) in out for n in names))


def test_profile(profile):
    report = os.path.join(WORK, "%s.json" % profile)
    rc, out, err = run("net_mlx5_tm0,emu=%s" % profile,
                       ["--json", report])
    check("%s: report written" % profile, os.path.exists(report),
          err[-2000:])
    if not os.path.exists(report):
        return
    rep = json.load(open(report))
    check("%s: no sanitizer report" % profile,
          not any(w in err for w in ("runtime error:", "AddressSanitizer",
                                     "LeakSanitizer")), err[-2000:])
    check_complete(profile, rep, out)
    check("%s: ran in virtual time" % profile,
          rep.get("emulated") is True and rep.get("virtual_clock") is True)
    for s in rep["steps"]:
        if s["verdict"] == "skip" and s["reason"].startswith(BUILD_SKIP):
            print("note: %s: %s skipped: %s" % (profile, s["name"],
                                                s["reason"]))
            continue
        if profile == "cx5" and s["name"] in SCHED_STEPS:
            check("cx5: %s skipped, saying why" % s["name"],
                  s["verdict"] == "skip" and
                  s["reason"].startswith(NO_HIERARCHY),
                  "%s: %s" % (s["verdict"], s["reason"]))
            continue
        check("%s: %s passed" % (profile, s["name"]),
              s["verdict"] == "pass", "%s: %s" % (s["verdict"],
                                                  s["reason"]))
    fails = rep["summary"].get("fail", 1)
    check("%s: exit status %d for %d failed steps" % (profile, rc, fails),
          rc == (1 if fails else 0), err[-500:])
    caps = next((s for s in rep["steps"] if s["name"] == "capabilities"),
                {})
    check("%s: the capability step suggests emu=%s itself" %
          (profile, profile),
          caps.get("evidence", {}).get("suggested_devargs") ==
          "emu=%s" % profile, caps.get("evidence"))


def test_paced_sibling():
    """sched.paced_sibling on cx6dx: the sibling's rate is the ceiling
    minus the paced leaf's rate, the rule of doc/guides/hw_check.rst
    (DWRR is work conserving), with figures fixed here: 400 Mbit/s and
    10.5 Mbit/s, not the tool's."""
    report = os.path.join(WORK, "cx6dx.json")
    if not os.path.exists(report):
        check("paced sibling: the cx6dx report exists", False, report)
        return
    rep = json.load(open(report))
    ev = next((s for s in rep["steps"]
               if s["name"] == "sched.paced_sibling"), {}).get("evidence", {})
    want0, want1 = 10.5e6, 400e6 - 10.5e6
    got0, got1 = ev.get("q0_l2_bps", 0), ev.get("q1_l2_bps", 0)
    check("paced sibling: the leaf at 10.5 Mbit/s (1%)",
          abs(got0 - want0) <= want0 / 100, got0)
    check("paced sibling: the sibling at 400 - 10.5 = 389.5 Mbit/s (1%)",
          abs(got1 - want1) <= want1 / 100, got1)


def test_suggestion_with_overrides():
    report = os.path.join(WORK, "override.json")
    run("net_mlx5_tm0,emu=cx6dx,cap_pp_table_size=256,"
        "cap_pp_max_rate=50000000", ["--quick", "--json", report])
    rep = json.load(open(report))
    ev = next(s for s in rep["steps"]
              if s["name"] == "capabilities")["evidence"]
    check("overrides: the suggestion carries them",
          ev.get("suggested_devargs") == "emu=cx6dx,cap_pp_max_rate="
          "50000000,cap_pp_table_size=256", ev.get("suggested_devargs"))
    check("overrides: the model reproduces the suggestion",
          ev.get("suggestion_reproduces") is True)


def test_guard(knob, steps):
    """Under the knob reproducing their defect, these steps fail."""
    report = os.path.join(WORK, "guard.json")
    run("net_mlx5_tm0,emu=cx6dx,%s" % knob, ["--quick", "--json", report])
    rep = json.load(open(report))
    verdict = {s["name"]: s["verdict"] for s in rep["steps"]}
    for name in steps:
        check("%s: step %s fails" % (knob, name),
              verdict.get(name) == "fail", verdict.get(name))


def test_recovery_reset_clears_qos():
    """The recovery step on a device whose reset clears the SQ's pacing
    index and queue group (sq_reset_keeps_qos=0, the other answer to an
    unverified assumption): it passes, the PMD having set both again."""
    report = os.path.join(WORK, "reset-clears.json")
    run("net_mlx5_tm0,emu=cx6dx,sq_reset_keeps_qos=0",
        ["--quick", "--json", report])
    rep = json.load(open(report))
    step = next((s for s in rep["steps"] if s["name"] == "recovery"), {})
    ev = step.get("evidence", {})
    check("sq_reset_keeps_qos=0: recovery passes, pacing index and group "
          "set again", step.get("verdict") == "pass" and
          ev.get("error_cqes") == 1 and ev.get("recoveries") == 1 and
          ev.get("pp_after") == ev.get("pp_before") != 0 and
          ev.get("group_after") == ev.get("group_before") != 0, step)


def test_help():
    """--help (before or after --) is the tool's own, without EAL;
    --eal-help is EAL's."""
    for args in (["--help"], ["--", "--help"], ["-h"]):
        proc = subprocess.run([TOOL] + args, capture_output=True, text=True,
                              timeout=TIMEOUT)
        text = proc.stdout + proc.stderr
        check("%s: the tool's help, exit 0" % " ".join(args),
              proc.returncode == 0 and "Options (after --):" in proc.stdout
              and "--eal-help" in proc.stdout and "--json FILE" in
              proc.stdout and "Exit status:" in proc.stdout and
              "EAL:" not in text and "Add a virtual device" not in text,
              "rc=%d: %s" % (proc.returncode, text[-800:]))
    proc = subprocess.run([TOOL, "--eal-help"], capture_output=True,
                          text=True, timeout=TIMEOUT)
    check("--eal-help: EAL's options, exit 0",
          proc.returncode == 0 and "Add a virtual device" in proc.stdout,
          "rc=%d: %s" % (proc.returncode, (proc.stdout + proc.stderr)[-800:]))


def test_no_alarm():
    """A passing run at the default log levels prints no error, warning or
    refusal outside the steps' evidence: what a step provokes on purpose
    (a port refused at probe, an error completion) is evidence."""
    args = [TOOL, "--no-huge", "--no-pci", "-m", "512", "-l", "0",
            "--no-telemetry", "--file-prefix", "hwcheck%d" % os.getpid(),
            "--vdev", "net_mlx5_tm0,emu=cx6dx", "--", "--quick"]
    proc = subprocess.run(args, capture_output=True, text=True,
                          timeout=TIMEOUT)
    alarms = [line for line in (proc.stdout + proc.stderr).splitlines()
              if not line.startswith(("[PASS]", "       ", "Summary:")) and
              any(w in line.lower() for w in ("mlx5_tm:", "error", "fail",
                                               "refus", "warn"))]
    check("a passing run: exit 0, no alarming line",
          proc.returncode == 0 and not alarms,
          "rc=%d: %s" % (proc.returncode, alarms))


def test_no_device():
    rc, out, err = run("net_mlx5_tm0,dev=mlx5_99")
    check("dev= without a NIC: exit 2", rc == 2, "rc=%d" % rc)
    check("dev= without a NIC: says what it needs",
          "The check needs" in err and "rdma-core" in err and
          "emu=cx5|cx6dx|cx7" in err and "CAP_NET_RAW" in err, err)
    check("dev= without a NIC: no step ran", "[PASS]" not in out, out)


def test_report_unwritable_path():
    """--json into a directory that does not exist: refused before any
    step, exit 2, with the path and the error."""
    path = "/nonexistent-dir/r.json"
    rc, out, err = run("net_mlx5_tm0,emu=cx6dx", ["--json", path])
    check("--json %s: exit 2" % path, rc == 2, "rc=%d %s" % (rc, err[-500:]))
    check("--json %s: the path and the error said" % path,
          "cannot write %s: No such file or directory" % path in err,
          err[-500:])
    check("--json %s: no step ran" % path, "[PASS]" not in out, out[-500:])


def test_report_on_full_disk():
    """The report past a file-size limit (EFBIG, as a full disk) and on
    /dev/full (ENOSPC): exit 3 with the path and the error, no partial
    report and no temporary file left."""
    report = os.path.join(WORK, "fsize.json")
    rc, out, err = run("net_mlx5_tm0,emu=cx6dx", ["--json", report],
                       fsize=4000)
    check("past the file-size limit: exit 3", rc == 3,
          "rc=%d %s" % (rc, err[-500:]))
    check("past the file-size limit: the path and the error said",
          "writing %s failed: File too large" % report in err, err[-500:])
    left = [f for f in os.listdir(WORK) if f.startswith("fsize.json")]
    check("past the file-size limit: no file left", not left, left)
    rc, out, err = run("net_mlx5_tm0,emu=cx6dx", ["--json", "/dev/full"])
    check("--json /dev/full: exit 3", rc == 3, "rc=%d %s" % (rc, err[-500:]))
    check("--json /dev/full: the path and the error said",
          "writing /dev/full failed: No space left on device" in err,
          err[-500:])


def test_second_primary_says_why():
    """A primary on a prefix whose shared configuration is locked (here by
    the test, as a running primary holds it): EAL fails without an errno;
    the check does not say "Success"."""
    cfg_dir = runtime_dir("hwcheck%d" % os.getpid())
    os.makedirs(cfg_dir, exist_ok=True)
    with open(os.path.join(cfg_dir, "config"), "w") as f:
        fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        rc, out, err = run("net_mlx5_tm0,emu=cx6dx")
    check("second primary: exit 2", rc == 2, "rc=%d %s" % (rc, err[-500:]))
    check("second primary: EAL says why, the check does not say Success",
          "Is another primary process running?" in err and
          "EAL initialisation failed: Success" not in err and
          "EAL initialisation failed: EAL's own message above says why" in
          err, err[-500:])


def main():
    if not os.access(TOOL, os.X_OK):
        check("dpdk-mlx5-tm-check is built", False, TOOL)
    else:
        for profile in ("cx6dx", "cx5", "cx7"):
            case(test_profile, profile)
        case(test_paced_sibling)
        case(test_suggestion_with_overrides)
        for knob, steps in GUARDS:
            case(test_guard, knob, steps)
        case(test_recovery_reset_clears_qos)
        case(test_no_device)
        case(test_help)
        case(test_no_alarm)
        case(test_report_unwritable_path)
        case(test_report_on_full_disk)
        case(test_second_primary_says_why)
    shutil.rmtree(WORK, ignore_errors=True)
    return CASES.report()


if __name__ == "__main__":
    sys.exit(main())
