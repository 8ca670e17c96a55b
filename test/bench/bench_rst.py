#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Print the tables of a results.json (scripts/bench.sh) as
reStructuredText, for doc/guides/benchmarks.rst.

Usage: bench_rst.py build/bench/results.json
"""

import json
import sys


def table(header, rows):
    """A simple RST table."""
    cols = list(zip(*([header] + rows)))
    width = [max(len(str(c)) for c in col) for col in cols]
    rule = "  ".join("=" * w for w in width)
    out = [rule, "  ".join(str(h).ljust(w) for h, w in zip(header, width)),
           rule]
    for r in rows:
        out.append("  ".join(str(c).rjust(w) for c, w in zip(r, width)))
    out.append(rule)
    return "\n".join(out)


def num(v, spec="%.1f"):
    return spec % v if isinstance(v, (int, float)) else "-"


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        d = json.load(f)
    m = d["machine"]
    print("Machine: %d CPUs, %s, TSC %.2f GHz, %s\n" % (
        m["nproc"], m["cpu"], m["tsc_hz"] / 1e9, m["dpdk"]))
    dp = d.get("datapath", {})
    cyc = {(c["pmd"], c["shape"], c["burst"]): c["cycles_per_pkt"]
           for c in dp.get("cases", [])}
    cmin = {(c["pmd"], c["shape"], c["burst"]): c["cycles_per_pkt_min"]
            for c in dp.get("cases", [])}
    # Cycle ratios as the benchmark took them: medians of same-round ratios.
    rat = {(r["shape"], r["burst"]): r for r in dp.get("ratios", [])}
    ir = {(c["pmd"], c["shape"], c["burst"]): c["ir_per_pkt"]
          for c in d.get("callgrind", {}).get("cases", [])}
    rows = []
    for shape in ("64B", "1500B", "3seg"):
        for burst in (1, 8, 32, 64):
            o, n, r, u = (cyc.get((p, shape, burst))
                          for p in ("mlx5_tm", "null", "ring", "upstream"))
            io, inn, ir_, iu = (ir.get((p, shape, burst))
                                for p in ("mlx5_tm", "null", "ring",
                                          "upstream"))
            rows.append([shape, burst, num(o),
                         num(cmin.get(("mlx5_tm", shape, burst))),
                         num(n), num(r), num(u),
                         num(rat.get((shape, burst), {}).get(
                             "ours_over_null"), "%.2f"),
                         num(rat.get((shape, burst), {}).get(
                             "ours_over_upstream"), "%.2f"),
                         num(io), num(inn), num(ir_), num(iu),
                         num(io / inn if io and inn else None, "%.2f"),
                         num(io / ir_ if io and ir_ else None, "%.2f"),
                         num(io / iu if io and iu else None, "%.2f")])
    print(table(["shape", "burst", "cyc ours", "best ours", "cyc null",
                 "cyc ring", "cyc up",
                 "ours/null", "ours/up", "Ir ours", "Ir null", "Ir ring",
                 "Ir up", "Ir o/n", "Ir o/r", "Ir o/u"], rows))
    ctl = d.get("control", {})
    rows = []
    for c in ctl.get("commit", []):
        rows.append([c["when"], c["rates_kind"], c["leaves"], c["rates"],
                     num(c["commit"]["total_us"]),
                     num(c["commit"]["device_us"]),
                     num(c["commit"]["software_us"]),
                     c["commit"]["device_cmds"],
                     num(c["start"]["total_us"]),
                     num(c["start"]["device_us"])])
    print()
    print(table(["when", "kind", "leaves", "rates", "commit us", "device us",
                 "software us", "cmds", "start us", "start dev us"], rows))
    rows = []
    for f in ctl.get("commit_fit", []):
        for k in ("total", "software"):
            if k in f:
                rows.append([f["when"], f["rates_kind"], k,
                             num(f[k]["slope_us_per_leaf"], "%.3f"),
                             num(f[k]["intercept_us"]),
                             num(f[k]["r2"], "%.3f"),
                             num(f[k]["exponent"], "%.2f"), f[k]["growth"]])
    print()
    print(table(["when", "kind", "part", "us/leaf", "intercept us", "r2",
                 "exponent", "growth"], rows))
    rows = []
    for c in ctl.get("commit_tree", []):
        flat, tree = c.get("flat"), c.get("tree")
        rows.append([c["when"], c["leaves"], c["groups"],
                     num(flat["total_us"]) if flat else "failed",
                     num(flat["software_us"]) if flat else "-",
                     num(tree["total_us"]) if tree else "failed",
                     num(tree["software_us"]) if tree else "-",
                     num(tree["device_us"]) if tree else "-",
                     tree["device_cmds"] if tree else "-",
                     num(tree["total_us"] / flat["total_us"], "%.2f")
                     if tree and flat else "-"])
    if rows:
        print()
        print(table(["when", "leaves", "groups", "flat us", "flat sw us",
                     "tree us", "tree sw us", "tree dev us", "tree cmds",
                     "tree/flat"], rows))
    rows = []
    for f in ctl.get("commit_tree_fit", []):
        for k in ("total", "software"):
            if k in f:
                rows.append([f["when"], k,
                             num(f[k]["slope_us_per_leaf"], "%.3f"),
                             num(f[k]["intercept_us"]),
                             num(f[k]["r2"], "%.3f"),
                             num(f[k]["exponent"], "%.2f"), f[k]["growth"]])
    if rows:
        print()
        print(table(["when", "part", "us/leaf", "intercept us", "r2",
                     "exponent", "growth"], rows))
    rows = [[u.get("call", "shaper_update"), u.get("node", "leaf"),
             u["leaves"], u["updates"],
             num(u.get("wall_p50_us"), "%.2f"),
             num(u.get("wall_p99_us"), "%.2f"), num(u["p50_us"], "%.2f"),
             num(u["p99_us"], "%.2f"), num(u["device_p50_us"], "%.2f"),
             num(u["device_p99_us"], "%.2f"),
             num(u["software_p50_us"], "%.2f"),
             num(u["software_p99_us"], "%.2f"),
             num(u.get("software_p50_vs_16"), "%.2f"),
             num(u.get("software_p99_vs_16"), "%.2f")]
            for u in ctl.get("shaper_update", [])]
    print()
    print(table(["call", "node", "leaves", "updates", "wall p50",
                 "wall p99", "cpu p50", "cpu p99", "dev p50", "dev p99",
                 "sw p50", "sw p99", "sw p50 x16", "sw p99 x16"], rows))
    mem = d.get("memory", {})
    rows = [[k, num(v["pmd_rte_malloc_bytes"]),
             num(v["device_model_libc_bytes"]), v["how"]]
            for k, v in mem.items() if isinstance(v, dict)]
    print()
    print(table(["item", "rte_malloc B", "C heap B", "how"], rows))
    cg = d.get("callgrind", {})
    if cg.get("hot_lines"):
        print("\nHot lines (%s):\n" % cg.get("hot_case"))
        for h in cg["hot_lines"]:
            print("%9d %5.1f%%  %s:%d  %s" % (
                h["ir"], h["pct_of_pmd"], h["file"].split("/")[-1],
                h["line"], h["source"]))
        print("\nBy function:\n")
        for f in cg.get("hot_functions", []):
            print("%9.1f  %s" % (f["ir_per_pkt"], f["function"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
