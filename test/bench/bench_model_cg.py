#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""The device model's instructions per 64-byte frame, from the callgrind
dumps of `mlx5-tm-bench --callgrind --only model` (one per case, trigger
"model:<case>:<frames>": collection on inside mlx5_emu_drain() only),
merged into results.json as model.<case>.instructions_per_frame.
Deterministic: the same build gives the same count on any machine load.

Usage: bench_model_cg.py --dumps PREFIX --results FILE
"""

import argparse
import glob
import json
import os
import sys


def read_dump(path):
    """(trigger, total Ir) of one callgrind dump."""
    trigger, total = None, 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("desc: Trigger: Client Request: "):
                trigger = line.split(": ", 3)[3].strip()
            elif line.startswith(("summary:", "totals:")):
                total = max(total, int(line.split()[1]))
    return trigger, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dumps", required=True, help="dump file prefix")
    ap.add_argument("--results", required=True,
                    help="results.json to merge into (made if missing)")
    a = ap.parse_args()
    found = {}
    for path in sorted(glob.glob(a.dumps + "*")):
        trigger, total = read_dump(path)
        if trigger and trigger.startswith("model:"):
            _, case, frames = trigger.split(":")
            found[case] = (int(frames), total)
    if not found:
        print("model: no callgrind dump \"model:...\" under %s" % a.dumps)
        return 1
    res = {}
    if os.path.exists(a.results):
        with open(a.results, encoding="utf-8") as f:
            res = json.load(f)
    model = res.setdefault("model", {})
    for case, (frames, total) in found.items():
        per_frame = total / frames if frames else 0.0
        model.setdefault(case, {}).update({
            "instructions_per_frame": per_frame,
            "callgrind_frames": frames,
        })
        print("device model %-10s %6.1f instructions per 64-byte frame"
              " (callgrind, mlx5_emu_drain of %d frames)"
              % (case, per_frame, frames))
    with open(a.results, "w", encoding="utf-8") as f:
        json.dump(res, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
