#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Suite scripts: the project's scripts given wrong arguments.

usage: test_scripts.py SOURCE_DIR

test/run_all.sh with a directory that is not a build directory, an
unknown option, too many arguments or --help: the usage line, exit status
2 (0 for --help), and nothing written (it created /test-logs and ran every
suite with empty paths). Each runs in an empty scratch directory that
must stay empty. Prints "N passed, N failed".
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
from cases import Cases  # noqa: E402 pylint: disable=wrong-import-position

SRC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
RUN_ALL = os.path.join(SRC, "test", "run_all.sh")
# A guard, not a measure: the old script went on to run every suite.
TIMEOUT = 60
CASES = Cases()
check = CASES.check


def run_all(args, cwd):
    """test/run_all.sh @args in @cwd: (exit status, stdout, stderr)."""
    try:
        p = subprocess.run(["bash", RUN_ALL] + args, cwd=cwd,
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "", "still running after %d s" % TIMEOUT
    return p.returncode, p.stdout, p.stderr


def refused(args, want_rc=2, usage_on="stderr", absent=()):
    """run_all.sh @args in an empty directory: exit @want_rc, the usage
    line on @usage_on, the directory still empty and no path of @absent
    created."""
    before = [p for p in absent if os.path.lexists(p)]
    tmp = tempfile.mkdtemp(prefix="run-all-args.")
    try:
        rc, out, err = run_all(args, tmp)
        text = out if usage_on == "stdout" else err
        check("exit status %d" % want_rc, rc == want_rc,
              "exit %r, stderr %s" % (rc, err[-300:]))
        check("usage line on %s" % usage_on,
              "usage: test/run_all.sh" in text, text[-300:])
        left = os.listdir(tmp)
        check("nothing written in the working directory", not left,
              str(left))
        made = [p for p in absent if p not in before and
                os.path.lexists(p)]
        check("nothing created at %s" % ", ".join(absent), not made,
              str(made))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_missing_build_dir():
    refused(["/nonexistent-build"],
            absent=["/nonexistent-build", "/test-logs"])


def test_relative_missing_build_dir():
    refused(["no-such-build"], absent=["/test-logs"])


def test_missing_san_build_dir():
    # The plain one exists (an empty meson build directory of its own).
    plain = tempfile.mkdtemp(prefix="run-all-build.")
    try:
        open(os.path.join(plain, "build.ninja"), "w").close()
        refused([plain, "/nonexistent-build-san"],
                absent=[os.path.join(plain, "test-logs"), "/test-logs"])
    finally:
        shutil.rmtree(plain, ignore_errors=True)


def test_not_a_build_dir():
    # A directory, but no build.ninja: not a build directory.
    other = tempfile.mkdtemp(prefix="run-all-notbuild.")
    try:
        refused([other], absent=[os.path.join(other, "test-logs")])
    finally:
        shutil.rmtree(other, ignore_errors=True)


def test_unknown_option():
    refused(["--verbose"], absent=["/test-logs"])


def test_three_arguments():
    refused(["a", "b", "c"], absent=["/test-logs"])


def test_help():
    refused(["--help"], want_rc=0, usage_on="stdout", absent=["/test-logs"])


def main():
    for fn in (test_missing_build_dir, test_relative_missing_build_dir,
               test_missing_san_build_dir, test_not_a_build_dir,
               test_unknown_option, test_three_arguments, test_help):
        CASES.run(fn.__name__, fn)
    return CASES.report()


if __name__ == "__main__":
    sys.exit(main())
