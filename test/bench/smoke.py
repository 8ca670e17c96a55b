#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Smoke check of mlx5-tm-bench: it runs with tiny counts and writes
well-formed, complete JSON. Timing values are checked for presence and
type only, never for size (benchmarks are not timed tests).

Each part of the JSON (datapath, control path, memory) is one case, as
is each other property checked; "N passed, N failed" counts cases.

Usage: smoke.py BUILD_DIR/test/bench/mlx5-tm-bench
"""

import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
from cases import Cases  # noqa: E402 pylint: disable=wrong-import-position

SHAPES = ["64B", "1500B", "3seg"]
BURSTS = [1, 8, 32, 64]
CASES = Cases()


def check(ok, what):
    """One check (of the running case); returns @ok."""
    return CASES.check(what, ok)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) \
        and math.isfinite(v)


def check_datapath(doc, pmds):
    dp = doc.get("datapath", {})
    cases = dp.get("cases", [])
    for pmd in pmds:
        got = {(c.get("shape"), c.get("burst")): c for c in cases
               if c.get("pmd") == pmd}
        check(set(got) == {(s, b) for s in SHAPES for b in BURSTS},
              "datapath: %s has all %d cases" % (pmd, len(SHAPES) * len(BURSTS)))
        check(all(is_num(c.get("cycles_per_pkt")) and
                  is_num(c.get("ns_per_pkt")) for c in got.values()),
              "datapath: %s cycles/ns per packet are numbers" % pmd)
        check(all(c.get("packets", 0) >= dp.get("packets_per_round", 1)
                  and c.get("bursts", 0) >= c["packets"] / c["burst"]
                  for c in got.values()),
              "datapath: %s sent every packet asked" % pmd)
    ratios = dp.get("ratios", [])
    check(len(ratios) == len(SHAPES) * len(BURSTS),
          "datapath: one ratio row per shape and burst")
    if "mlx5_tm" in pmds:
        cyc = {(c["pmd"], c["shape"], c["burst"]): c["cycles_per_pkt"]
               for c in cases}

        def ratio_ok(r, ref, key):
            # A number exactly when the reference cost came out positive.
            want = cyc.get((ref, r["shape"], r["burst"]), 0) > 0
            return is_num(r.get(key)) == want

        chk = dp.get("mlx5_tm_check", {})
        check(chk.get("taken_by_tx_burst", 0) > 0 and
              chk.get("departed_on_wire") == chk["taken_by_tx_burst"] and
              chk.get("error_cqes") == 0,
              "datapath: every packet mlx5_tm took left on the wire")
        check(all(ratio_ok(r, "null", "ours_over_null") and
                  ratio_ok(r, "ring", "ours_over_ring") for r in ratios),
              "datapath: ratios ours/null and ours/ring are numbers")
        if "upstream" in pmds:
            chk = dp.get("upstream_check", {})
            check(chk.get("taken_by_tx_burst", 0) > 0 and
                  chk.get("departed_on_wire") == chk["taken_by_tx_burst"]
                  and chk.get("error_cqes") == 0,
                  "datapath: every packet upstream took left on the wire")
            check(all(ratio_ok(r, "upstream", "ours_over_upstream")
                      for r in ratios),
                  "datapath: ratios ours/upstream are numbers")


def check_control(doc):
    ctl = doc.get("control", {})
    commits = ctl.get("commit", [])
    check(len(commits) > 0 and all(
        is_num(c["commit"]["total_us"]) and c["commit"]["total_us"] >= 0
        for c in commits), "control: commit cases measured")
    whens = {c.get("when") for c in commits}
    check(whens == {"before_start", "after_start"},
          "control: commit before and after start")
    check(all(c.get("rates", 0) >= 1 and c["rates"] <= c["leaves"]
              for c in commits), "control: rates between 1 and leaves")
    upd = ctl.get("shaper_update", [])
    check(len(upd) >= 1 and all(is_num(u.get("p50_us")) and
                                u["p99_us"] >= u["p50_us"] for u in upd),
          "control: shaper_update p50 <= p99")
    check(len(ctl.get("commit_fit", [])) == 6,
          "control: growth fit per start state and rate kind")


def check_memory(doc):
    mem = doc.get("memory", {})
    for key in ("per_queue_setup", "per_queue_start", "per_tm_node",
                "per_pacing_entry", "per_pacing_entry_model"):
        v = mem.get(key, {})
        check(is_num(v.get("pmd_rte_malloc_bytes")) and
              is_num(v.get("device_model_libc_bytes")),
              "memory: %s reported" % key)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        print("0 passed, 1 failed")
        return 1
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        proc = subprocess.run([binary, "--smoke", "--json", out],
                              capture_output=True, text=True, timeout=300)
        sys.stdout.write(proc.stdout[-4000:])
        check(proc.returncode == 0,
              "bench --smoke exits 0 (got %d; stderr: %s)" % (
                  proc.returncode, proc.stderr.strip()[-300:]))
        check("Datapath: TSC cycles per packet" in proc.stdout,
              "bench prints the datapath table")
        doc = None
        try:
            with open(out, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("json: %s" % e)
        if check(isinstance(doc, dict), "--json FILE is well-formed JSON"):
            m = doc.get("machine", {})
            check(is_num(m.get("nproc")) and m["nproc"] >= 1 and
                  is_num(m.get("tsc_hz")) and m["tsc_hz"] > 0 and
                  doc.get("mode") == "timing" and doc.get("smoke") is True,
                  "machine, mode and smoke flag recorded")
            linked = doc.get("mlx5_tm_linked") is True
            upstream = doc.get("upstream_linked") is True
            CASES.run("datapath part complete", check_datapath, doc,
                      ["null", "ring"] + (["mlx5_tm"] if linked else []) +
                      (["upstream"] if upstream else []))
            if check(linked, "mlx5_tm PMD linked into the benchmark"):
                CASES.run("control part complete", check_control, doc)
                CASES.run("memory part complete", check_memory, doc)
            check(doc.get("parts_failed") == 0, "no part failed")
        cg = os.path.join(tmp, "cg.json")
        proc = subprocess.run([binary, "--smoke", "--callgrind", "--only",
                               "datapath", "--json", cg],
                              capture_output=True, text=True, timeout=300)
        try:
            with open(cg, encoding="utf-8") as f:
                cgdoc = json.load(f)
        except (OSError, ValueError):
            cgdoc = {}
        check(proc.returncode == 0 and cgdoc.get("mode") == "callgrind" and
              "control" not in cgdoc and len(cgdoc.get("datapath", {})
                                              .get("cases", [])) >= 24,
              "--callgrind --only datapath runs outside valgrind too")
        bad = subprocess.run([binary, "--packets", "0"],
                             capture_output=True, text=True, timeout=60)
        check(bad.returncode == 2, "a bad option is refused (exit 2)")
    return CASES.report()


if __name__ == "__main__":
    sys.exit(main())
