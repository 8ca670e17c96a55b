#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Line coverage of the product sources from a -Db_coverage=true build
after its programs ran: one line per source file under drivers/, lib/ and
app/, "<path> <covered>/<lines> <percent>%", then the total. A file built
into several objects (a static library in two programs) counts a line
covered if any object ran it. Plain gcov (--json-format), no gcovr.

usage: coverage_report.py BUILD_DIR SOURCE_ROOT
"""

import json
import os
import subprocess
import sys

PRODUCT = ("drivers/", "lib/", "app/")


def main():
    build = os.path.abspath(sys.argv[1])
    root = os.path.abspath(sys.argv[2])
    lines = {}    # path -> set of line numbers with code
    covered = {}  # path -> set of line numbers run
    for dirpath, _, names in os.walk(build):
        for name in names:
            if not name.endswith(".gcno"):
                continue
            proc = subprocess.run(
                ["gcov", "--json-format", "--stdout", "--object-directory",
                 dirpath, os.path.join(dirpath, name)],
                capture_output=True, text=True, cwd=build)
            for doc in proc.stdout.splitlines():
                if not doc.startswith("{"):
                    continue
                for f in json.loads(doc).get("files", []):
                    path = os.path.relpath(os.path.normpath(
                        os.path.join(build, f["file"])), root)
                    if not path.startswith(PRODUCT) or \
                            not path.endswith(".c"):
                        continue
                    lines.setdefault(path, set())
                    covered.setdefault(path, set())
                    for ln in f["lines"]:
                        lines[path].add(ln["line_number"])
                        if ln["count"] > 0:
                            covered[path].add(ln["line_number"])
    if not lines:
        print("no coverage data under %s (built with -Db_coverage=true?)"
              % build)
        return 1
    total = total_cov = 0
    for path in sorted(lines):
        n, c = len(lines[path]), len(covered[path])
        total += n
        total_cov += c
        print("%s %d/%d %.1f%%" % (path, c, n, 100.0 * c / n if n else 0))
    print("total %d/%d %.1f%%" % (total_cov, total,
                                  100.0 * total_cov / total if total else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
