#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""The device model's instructions per 64-byte frame, from the callgrind
dump of `mlx5-tm-bench --callgrind --only model` (trigger
"model:64B:<frames>": collection on inside mlx5_emu_drain() only), merged
into results.json as model.instructions_per_frame. Deterministic: the
same build gives the same count on any machine load.

Usage: bench_model_cg.py --dumps PREFIX --results FILE
"""

import argparse
import glob
import json
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
    ap.add_argument("--results", required=True, help="results.json")
    a = ap.parse_args()
    found = None
    for path in sorted(glob.glob(a.dumps + "*")):
        trigger, total = read_dump(path)
        if trigger and trigger.startswith("model:"):
            found = (trigger, total)
    if found is None:
        print("model: no callgrind dump \"model:...\" under %s" % a.dumps)
        return 1
    frames = int(found[0].split(":")[2])
    per_frame = found[1] / frames if frames else 0.0
    with open(a.results, encoding="utf-8") as f:
        res = json.load(f)
    res.setdefault("model", {}).update({
        "instructions_per_frame": per_frame,
        "callgrind_frames": frames,
    })
    with open(a.results, "w", encoding="utf-8") as f:
        json.dump(res, f, indent=2)
    print("device model: %.1f instructions per 64-byte frame (callgrind,"
          " mlx5_emu_drain of %d frames, eMPW)" % (per_frame, frames))
    return 0


if __name__ == "__main__":
    sys.exit(main())
