#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Tests of mlx5-tm-plan: its capability sets are the device model's
profiles as the PMD plans with them, a packet-mode bucket is what the PMD
programs, its syntax and its refusals. Expected figures are written out
by hand from doc/guides/device_model.rst (table sizes) and
doc/guides/nics/mlx5_tm.rst (buckets).

usage: test_pace_plan.py BUILD_DIR
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
from cases import Cases  # noqa: E402 pylint: disable=wrong-import-position

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
TOOL = os.path.join(BUILD, "app", "pace-plan", "mlx5-tm-plan")

CASES = Cases()
check = CASES.check


def run(*args):
    proc = subprocess.run([TOOL] + list(args), capture_output=True,
                          text=True, timeout=30)
    return proc.returncode, proc.stdout, proc.stderr


def entry_row(out, entry):
    """The row of pacing entry @entry in the entries table."""
    m = re.search(r"^\s+%d\s+(\d+) (kbps|WQE/s)\s+(\w+)\s+(\d+)\s+(\d+)" %
                  entry, out, re.M)
    return m.groups() if m else None


def test_caps_are_the_models_usable_entries():
    rc, out, err = run("--list-caps")
    check("--list-caps exits 0", rc == 0, err)
    # Rate tables of 128, 512, 1024 entries; index 0 means unlimited.
    for name, usable in (("cx5", 127), ("cx6dx", 511), ("cx7", 1023)):
        check("%s: %d usable pacing entries" % (name, usable),
              re.search(r"^%s\s.*\b%d usable pacing entries" % (name, usable),
                        out, re.M),
              out)
    rc, out, _ = run("--caps", "cx6dx", "0:1M")
    check("a plan on cx6dx has 511 entries",
          rc == 0 and "1 of 511 in use, 510 free" in out, out)
    rc, out, _ = run("--caps", "cx5", "0:10M,cir=5M")
    check("cx5 has no NIC hierarchy: a committed rate is refused",
          rc == 0 and "REFUSED (committed rate)" in out, out)
    rc, out, _ = run("--caps", "cx7", "0:10M,cir=5M")
    check("cx7 has the NIC hierarchy: a committed rate is a group share",
          rc == 0 and "a share of the queue's group" in out, out)


def test_packet_bucket_is_wqes():
    rc, out, err = run("--caps", "cx6dx", "0:pps=2M,burst=64")
    row = entry_row(out, 1)
    check("pps bucket without a typical size: 64 WQEs, as the PMD",
          rc == 0 and row is not None and row[1:4] == ("WQE/s", "wqe",
                                                      "64"),
          "%s %s" % (row, out + err))
    rc, out, err = run("--caps", "cx6dx", "--typical", "1500",
                       "--burst-bound", "9000", "0:pps=2M", "1:pps=1M,burst=8",
                       "2:100M")
    check("packet mode: no byte default, the bucket not multiplied",
          rc == 0 and entry_row(out, 1)[3] == "0" and
          entry_row(out, 2)[3] == "8" and entry_row(out, 3)[3] == "9000",
          out + err)


def test_syntax_and_refusals():
    rc, out, err = run("--caps", "cx6dx", "0:1.5G", "1:peak=100M",
                       "2:Bps=12500000", "3:10M,dedicated", "4:1G,adjust=0")
    check("bare rate, peak=, Bps=, dedicated, adjust= accepted",
          rc == 0 and "4 of 511 in use" in out, out + err)
    for spec, text in (("0:fast", "bad rate 'fast' in '0:fast'"),
                       ("0:1M,foo=2", "bad key 'foo' in '0:1M,foo=2'"),
                       ("0:1M,peak=2M", "two rates"),
                       ("x:1M", "bad queue number 'x'"),
                       ("0:", "no rate"),
                       ("0:1.5", "not a whole number"),
                       ("0:peak=7", "bad peak rate (peak=) '7' in "
                        "'0:peak=7': below 8 bit/s"),
                       ("0:peak=1M,cir=3", "bad committed rate (cir=) '3'"
                        " in '0:peak=1M,cir=3': below 8 bit/s")):
        rc, out, err = run(spec)
        check("%s: exit 2, '%s'" % (spec, text), rc == 2 and text in err,
              "rc=%d %s" % (rc, err))
    rc, _, err = run("--caps", "cx8", "0:1M")
    check("unknown --caps: exit 2, the profiles named",
          rc == 2 and "allowed cx5, cx6dx, cx7" in err, err)


def main():
    if not os.access(TOOL, os.X_OK):
        print("SKIP: %s not built" % TOOL)
        CASES.report()
        return 0
    for fn in (test_caps_are_the_models_usable_entries,
               test_packet_bucket_is_wqes, test_syntax_and_refusals):
        CASES.run(fn.__name__, fn)
    return CASES.report()


if __name__ == "__main__":
    sys.exit(main())
