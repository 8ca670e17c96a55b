#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Merge the callgrind dumps of `mlx5-tm-bench --callgrind` into the
timing results: instructions per packet inside rte_eth_tx_burst for each
datapath case, and the hottest source lines of the PMD's burst function;
instructions (and, with --cache-sim=yes, first-level data cache misses)
per leaf of each rte_tm_hierarchy_commit case.

Each datapath case is one dump, named by its trigger
"dp:<pmd>:<shape>:<burst>:<packets>:<bursts>"; the dump "dp:calib:..." holds
the instructions of the collection toggles alone, subtracted per burst.
Each commit case is one dump, "ctl:commit:<when>:<rates>:<groups>:<leaves>"
(the device model's commands included: they run in the caller).
"""

import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys


def read_events(path):
    """Trigger name and {event: count} of a dump's summary line."""
    trigger = None
    names = []
    counts = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            if raw.startswith("desc: Trigger: Client Request: "):
                trigger = raw.split("Request: ", 1)[1].strip()
            elif raw.startswith("events:"):
                names = raw.split()[1:]
            elif raw.startswith("summary:") or raw.startswith("totals:"):
                counts = [int(x) for x in raw.split()[1:]]
    return trigger, dict(zip(names, counts + [0] * len(names)))


def log_fit(points):
    """Exponent e of y ~ x^e, least squares on logs, or None."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    n = len(pts)
    if n < 2:
        return None
    sx = sum(p[0] for p in pts)
    sy = sum(p[1] for p in pts)
    sxx = sum(p[0] * p[0] for p in pts)
    sxy = sum(p[0] * p[1] for p in pts)
    den = n * sxx - sx * sx
    return (n * sxy - sx * sy) / den if den else None


def control_cases(paths):
    """Per commit case: instructions and D1 misses, per leaf; fits."""
    cases = {}
    for path in paths:
        trigger, ev = read_events(path)
        if not trigger or not trigger.startswith("ctl:commit:"):
            continue
        _, _, when, rates, groups, leaves = trigger.split(":")
        key = (when, int(rates), int(groups), int(leaves))
        cases[key] = ev
    out = {"what": "instructions retired inside rte_tm_hierarchy_commit"
                   " (the device model's commands included), per leaf;"
                   " D1 misses: callgrind's simulation of this CPU's"
                   " first-level data cache (--cache-sim=yes)",
           "cases": [], "fits": []}
    if not cases:
        return out
    print("\nControl path: rte_tm_hierarchy_commit under callgrind, per leaf"
          " (instructions; D1 misses:\nsimulated first-level data cache;"
          " device model included)")
    print("%-12s %5s %6s %6s | %9s %9s" % ("when", "rates", "groups",
                                             "leaves", "Ir/leaf",
                                             "D1m/leaf"))
    series = {}
    for key in sorted(cases):
        when, rates, groups, leaves = key
        ev = cases[key]
        d1 = ev.get("D1mr", 0) + ev.get("D1mw", 0) \
            if "D1mr" in ev else None
        row = {"when": when, "rates": rates, "groups": groups,
               "leaves": leaves, "ir": ev.get("Ir", 0),
               "ir_per_leaf": ev.get("Ir", 0) / leaves,
               "d1_misses_per_leaf": d1 / leaves if d1 is not None
               else None}
        out["cases"].append(row)
        series.setdefault((when, rates, groups > 0), []).append(row)
        print("%-12s %5d %6d %6d | %9.0f %9s" % (
            when, rates, groups, leaves, row["ir_per_leaf"],
            "%9.2f" % row["d1_misses_per_leaf"] if d1 is not None
            else "-"))
    print("\nGrowth of the instructions with N (exponent of Ir ~ N^e over"
          " N >= 64):")
    for (when, rates, tree), rows in sorted(series.items()):
        pts = [(r["leaves"], r["ir"]) for r in rows if r["leaves"] >= 64]
        e = log_fit(pts)
        if e is None:
            continue
        rng = "%d..%d" % (min(p[0] for p in pts), max(p[0] for p in pts))
        out["fits"].append({"when": when, "rates": rates, "tree": tree,
                            "leaves": rng, "exponent": e})
        print("  %-12s %s, %s rates: N^%.2f over N = %s" % (
            when, "tree" if tree else "flat", rates, e, rng))
    return out


def expand_name(key, val, names):
    """The name a position line (fl=, fn=, cfn=, ob=, ...) of a callgrind
    dump gives, with its name compression undone: "(id) name" defines id
    in the line's name space (files, functions or objects), "(id)" refers
    to it; @names holds the definitions seen so far."""
    space = "fn" if key in ("fn", "cfn") else \
        "ob" if key in ("ob", "cob") else "file"
    n = re.match(r"^\((\d+)\)(?: (.*))?$", val)
    if not n:
        return val
    cid, name = n.groups()
    if name is not None:
        names[(space, cid)] = name
    return names.get((space, cid), val)


def read_dump(path):
    """Trigger name, total Ir, self Ir per (file, line) and per function."""
    trigger = None
    total = 0
    lines = {}
    funcs = {}
    names = {}
    cur_file = None
    cur_sub = None
    cur_fn = None
    last_line = 0
    skip_next = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("desc: Trigger: Client Request: "):
                trigger = line[len("desc: Trigger: Client Request: "):].strip()
                continue
            if line.startswith("totals:") or line.startswith("summary:"):
                total = max(total, int(line.split()[1]))
                continue
            m = re.match(r"^(fl|fi|fe|fn|cfi|cfl|cfn|ob|cob)=(.*)$", line)
            if m:
                key, val = m.groups()
                val = expand_name(key, val, names)
                if key == "fl":
                    cur_file = val
                    cur_sub = None
                elif key in ("fi", "fe"):
                    cur_sub = val
                elif key == "fn":
                    cur_sub = None
                    cur_fn = val
                continue
            if line.startswith("calls="):
                skip_next = True
                continue
            m = re.match(r"^([+-]?\d+|\*)\s+(\d+)", line)
            if not m:
                continue
            pos, cost = m.groups()
            if pos == "*":
                ln = last_line
            elif pos[0] in "+-":
                ln = last_line + int(pos)
            else:
                ln = int(pos)
            last_line = ln
            if skip_next:
                skip_next = False
                continue
            key = (cur_sub or cur_file, ln)
            lines[key] = lines.get(key, 0) + int(cost)
            funcs[cur_fn] = funcs.get(cur_fn, 0) + int(cost)
    return trigger, total, lines, funcs


# Functions of the PMD's Tx file by what they do, for the split of a
# burst's instructions (split_costs()); any other is posting.
FREE_FUNCS = {"free_batch_put", "free_batch_add", "free_mbufs", "free_slots",
              "free_elts_olx", "free_elts", "cqe_ready", "is_flush_cqe",
              "count_err_cqe", "cmpl_note", "err_cqe_wqe", "flush_wqe",
              "txq_complete"}
DOORBELL_FUNCS = {"tx_doorbell", "tx_request_completion"}
PARTS = ("post", "free", "db", "ethdev")


def func_ranges(path):
    """[(first line, name)] of the functions defined in C file @path."""
    out = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, text in enumerate(f, 1):
                m = re.match(r"^([a-z_][a-z0-9_]*)\(", text)
                if m:
                    out.append((n, m.group(1)))
    except OSError:
        pass
    return out


def func_at(ranges, ln):
    """Name of the function of @ranges whose definition precedes @ln."""
    name = None
    for first, fname in ranges:
        if first > ln:
            break
        name = fname
    return name


def split_costs(path, tx_ranges):
    """Instructions of a datapath dump by part: post (WQEs, slots, the
    burst's checks), free (completions, mbufs back to their pools), db
    (completion request, doorbell and its fences), ethdev (the inline
    wrapper and the benchmark's own lines between the toggles)."""
    parts = dict.fromkeys(PARTS, 0)
    names = {}
    cur_file = cur_sub = cur_fn = None
    last_line = 0
    skip_next = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            m = re.match(r"^(fl|fi|fe|fn|cfi|cfl|cfn|ob|cob)=(.*)$", line)
            if m:
                key, val = m.groups()
                val = expand_name(key, val, names)
                if key == "fl":
                    cur_file, cur_sub = val, None
                elif key in ("fi", "fe"):
                    cur_sub = val
                elif key == "fn":
                    cur_sub, cur_fn = None, val
                continue
            if line.startswith("calls="):
                skip_next = True
                continue
            m = re.match(r"^([+-]?\d+|\*)\s+(\d+)", line)
            if not m:
                continue
            pos, cost = m.groups()
            ln = last_line if pos == "*" else \
                last_line + int(pos) if pos[0] in "+-" else int(pos)
            last_line = ln
            if skip_next:
                skip_next = False
                continue
            src = os.path.basename(cur_sub or cur_file or "")
            fn = cur_fn or ""
            if "handle_completion" in fn or fn.startswith("free_") or \
                    "free_mbuf" in fn:
                part = "free"
            elif src == "mlx5_tm_tx.c":
                name = func_at(tx_ranges, ln)
                part = "free" if name in FREE_FUNCS else \
                    "db" if name in DOORBELL_FUNCS else "post"
            elif src in ("rte_mempool.h", "rte_memcpy.h", "emmintrin.h",
                         "tmmintrin.h", "rte_lcore.h"):
                part = "free"   # the bulk put into the mempool cache
            elif src in ("mlx5_common.h", "xmmintrin.h"):
                part = "db"     # upstream's doorbell; the store fences
            elif src in ("rte_ethdev.h", "bench_datapath.c"):
                part = "ethdev"
            else:
                part = "post"
            parts[part] += int(cost)
    return parts


def print_where(cases, shapes, bursts):
    """One line per shape: where mlx5-tm's and upstream's instructions
    go per packet at the smallest and the largest burst."""
    print("\nWhere the instructions go, per packet (post: WQEs, slots and"
          " checks; free: completions and\nmbufs back to the pool; db:"
          " completion request and doorbell; ethdev: the wrapper):")
    for s in shapes:
        text = []
        for b in (bursts[0], bursts[-1]) if len(bursts) > 1 else bursts:
            cols = []
            for pmd, label in (("mlx5_tm", "ours"), ("upstream", "up")):
                c = cases.get((pmd, s, b))
                if c is None or not c["packets"]:
                    continue
                pk = c["packets"]
                cols.append("%s %s" % (label, " ".join(
                    "%s %.1f" % (k, c["parts"][k] / pk) for k in PARTS)))
            o = cases.get(("mlx5_tm", s, b))
            u = cases.get(("upstream", s, b))
            most = ""
            if o and u and o["packets"] and u["packets"]:
                d = {k: o["parts"][k] / o["packets"] -
                     u["parts"][k] / u["packets"] for k in PARTS}
                k = max(d, key=d.get)
                most = "; most above upstream: %s %+.1f" % (k, d[k]) \
                    if d[k] > 0 else "; no part above upstream"
            text.append("burst %d: %s%s" % (b, " | ".join(cols), most))
        print("%-6s %s" % (s, "\n       ".join(text)))


def source_line(path, ln, dirs):
    """Text of line @ln of @path, looked up as is or under @dirs."""
    for d in [""] + dirs:
        full = path if os.path.isabs(path) else os.path.join(d, path)
        try:
            with open(full, encoding="utf-8", errors="replace") as s:
                return s.read().splitlines()[ln - 1].strip()
        except (OSError, IndexError):
            continue
    return ""


def hot_lines(lines, src_filter, top, dirs):
    """The @top lines of files matching @src_filter, with their text."""
    chosen = [(ir, f, ln) for (f, ln), ir in lines.items()
              if f and re.search(src_filter, f)]
    chosen.sort(reverse=True)
    total = sum(ir for ir, _, _ in chosen)
    out = []
    for ir, f, ln in chosen[:top]:
        text = source_line(f, ln, dirs)
        out.append({"file": f, "line": ln, "ir": ir,
                    "pct_of_pmd": 100.0 * ir / total if total else 0.0,
                    "source": text})
    return total, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timing", required=True, help="timing JSON")
    ap.add_argument("--dumps", required=True, action="append",
                    help="callgrind dump prefix (repeatable)")
    ap.add_argument("--out", required=True, help="merged JSON")
    ap.add_argument("--src-filter", default=r"drivers/net/mlx5_tm/",
                    help="regex of the PMD datapath sources")
    ap.add_argument("--hot-case", default="mlx5_tm:64B:32")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--annotate", help="write callgrind_annotate --auto=yes"
                    " of the hot case here")
    ap.add_argument("--src-root", default=".", help="source root")
    ap.add_argument("--build-dir", default=".", help="build directory")
    args = ap.parse_args()

    with open(args.timing, encoding="utf-8") as f:
        res = json.load(f)
    calib = None
    cases = []
    hot_dump = None
    def part(path):
        tail = path.rsplit(".", 1)[-1]
        return int(tail) if tail.isdigit() else -1

    paths = sorted((p for d in args.dumps for p in glob.glob(d + "*")),
                   key=part)
    tx_ranges = func_ranges(os.path.join(args.src_root, "drivers", "net",
                                         "mlx5_tm", "mlx5_tm_tx.c"))
    for path in paths:
        trigger, total, lines, funcs = read_dump(path)
        if not trigger or not trigger.startswith("dp:"):
            continue
        _, pmd, shape, burst, packets, bursts = trigger.split(":")
        if pmd == "calib":
            calib = total / int(bursts)
            continue
        parts = split_costs(path, tx_ranges)
        cases.append({"pmd": pmd, "shape": shape, "burst": int(burst),
                      "packets": int(packets), "bursts": int(bursts),
                      "ir_total": total, "dump": os.path.basename(path),
                      "parts": parts, "_lines": lines, "_funcs": funcs})
        if "%s:%s:%s" % (pmd, shape, burst) == args.hot_case:
            hot_dump = cases[-1]
    cg = {"tool": "valgrind --tool=callgrind --collect-atstart=no",
          "what": "instructions retired inside rte_eth_tx_burst (the"
                  " ethdev inline wrapper and the PMD burst function with"
                  " everything it calls), toggle instructions removed",
          "toggle_pair_ir": calib, "cases": [], "ratios": []}
    by_key = {}
    for c in cases:
        ir = c["ir_total"] - (calib or 0) * c["bursts"]
        c["ir_per_pkt"] = ir / c["packets"] if c["packets"] else None
        by_key[(c["pmd"], c["shape"], c["burst"])] = c["ir_per_pkt"]
        cg["cases"].append({k: v for k, v in c.items()
                            if not k.startswith("_")})
    shapes = []
    bursts = []
    for c in cases:
        if c["shape"] not in shapes:
            shapes.append(c["shape"])
        if c["burst"] not in bursts:
            bursts.append(c["burst"])
    bursts.sort()
    print("\nDatapath: instructions per packet inside rte_eth_tx_burst"
          " (callgrind)")
    print("%-6s %5s | %9s %9s %9s %9s | %9s %9s %9s" % (
        "shape", "burst", "mlx5_tm", "null", "ring", "upstream",
        "ours/null", "ours/ring", "ours/up"))

    def fmt(v, spec="%9.1f"):
        return spec % v if isinstance(v, (int, float)) else "%9s" % "-"

    for s in shapes:
        for b in bursts:
            o = by_key.get(("mlx5_tm", s, b))
            n = by_key.get(("null", s, b))
            r = by_key.get(("ring", s, b))
            u = by_key.get(("upstream", s, b))
            on = o / n if o is not None and n else None
            orr = o / r if o is not None and r else None
            ou = o / u if o is not None and u else None
            cg["ratios"].append({"shape": s, "burst": b,
                                 "ours_over_null": on,
                                 "ours_over_ring": orr,
                                 "ours_over_upstream": ou})
            print("%-6s %5d | %s %s %s %s | %s %s %s" % (
                s, b, fmt(o), fmt(n), fmt(r), fmt(u), fmt(on, "%9.2f"),
                fmt(orr, "%9.2f"), fmt(ou, "%9.2f")))
    if calib:
        # The toggle pair's instructions are the benchmark's, not a part.
        for c in cases:
            c["parts"]["ethdev"] = max(0, c["parts"]["ethdev"] -
                                       calib * c["bursts"])
    print_where({(c["pmd"], c["shape"], c["burst"]): c for c in cases},
                shapes, bursts)
    for c, out in zip(cases, cg["cases"]):
        out["ir_per_pkt_by_part"] = {k: v / c["packets"]
                                     for k, v in c["parts"].items()} \
            if c["packets"] else None
    if hot_dump is not None:
        total, hot = hot_lines(hot_dump["_lines"], args.src_filter, args.top,
                               [args.build_dir, args.src_root])
        path = os.path.join(os.path.dirname(args.dumps[0]) or ".",
                            hot_dump["dump"])
        if args.annotate:
            with open(args.annotate, "w", encoding="utf-8") as f:
                subprocess.run(["callgrind_annotate", "--auto=yes",
                                "--threshold=100",
                                "--include=" + args.src_root,
                                "--include=" + args.build_dir, path],
                               stdout=f, stderr=subprocess.STDOUT,
                               check=False)
            cg["annotate_file"] = args.annotate
        cg["hot_case"] = args.hot_case
        cg["hot_dump"] = hot_dump["dump"]
        cg["hot_pmd_ir"] = total
        cg["hot_lines"] = hot
        pk = hot_dump["packets"]
        byfn = sorted(((ir, fn) for fn, ir in hot_dump["_funcs"].items()),
                      reverse=True)
        cg["hot_functions"] = [{"function": fn, "ir_per_pkt": ir / pk}
                               for ir, fn in byfn[:8]]
        print("\nInstructions per packet by function, self cost (%s):"
              % args.hot_case)
        for ir, fn in byfn[:8]:
            print("%9.1f  %s" % (ir / pk, fn))
        print("\nHottest lines of the PMD (%s, %s; %% of the PMD's own"
              " instructions in that case):" % (args.hot_case,
                                                hot_dump["dump"]))
        for h in hot:
            print("%10d %5.1f%%  %s:%d  %s" % (
                h["ir"], h["pct_of_pmd"], os.path.basename(h["file"]),
                h["line"], h["source"][:70]))
    cg["control"] = control_cases(paths)
    res["callgrind"] = cg
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(res, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
