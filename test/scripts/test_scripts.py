#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Suite scripts: the project's scripts off their happy path.

usage: test_scripts.py SOURCE_DIR

test/run_all.sh with a directory that is not a build directory, an
unknown option, too many arguments or --help: the usage line, exit status
2 (0 for --help), and nothing written (it created /test-logs and ran every
suite with empty paths). Each runs in an empty scratch directory that
must stay empty. test/private_dir.py, the suites' private directory for
EAL -d: its fall-back from a build directory under /tmp, and with no
candidate left a reason and exit 77; the doc suite then counts each
command skipped. Prints "N passed, N failed".
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
from cases import Cases  # noqa: E402 pylint: disable=wrong-import-position

SRC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
RUN_ALL = os.path.join(SRC, "test", "run_all.sh")
PRIVATE_DIR = os.path.join(SRC, "test", "private_dir.py")
DOCTEST = os.path.join(SRC, "test", "doc", "doctest.py")
# A base free of world-writable ancestors for a private HOME: the source
# tree's own test directory may not be; /root or the user's HOME is.
PRIVATE_BASE = os.path.expanduser("~")
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


def no_private_env(tmp):
    """The environment of a machine with no directory for a private copy
    of the driver: HOME under /tmp (world-writable), no XDG_RUNTIME_DIR."""
    env = dict(os.environ, HOME=os.path.join(tmp, "home"))
    env.pop("XDG_RUNTIME_DIR", None)
    return env


def test_private_dir_none():
    """test/private_dir.py with a build directory under /tmp, HOME under
    /tmp and no XDG_RUNTIME_DIR: no private directory, exit 77, the reason
    names each candidate; nothing created."""
    tmp = tempfile.mkdtemp(prefix="private-dir-none.")
    try:
        build = os.path.join(tmp, "build")
        p = subprocess.run([sys.executable, PRIVATE_DIR, build, "x."],
                           env=no_private_env(tmp), capture_output=True,
                           text=True, timeout=TIMEOUT)
        check("exit 77", p.returncode == 77, "exit %d %s" %
              (p.returncode, p.stdout + p.stderr))
        check("the reason names the build directory and ~/.cache",
              "world-writable" in p.stderr and build in p.stderr and
              os.path.join(tmp, "home", ".cache") in p.stderr, p.stderr)
        check("nothing created", not os.listdir(tmp), os.listdir(tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_private_dir_falls_back():
    """With the build directory under /tmp, the private directory goes to
    the next candidate (~/.cache/mlx5-tm under a private HOME), mode 700,
    free of world-writable ancestors."""
    home = tempfile.mkdtemp(prefix="private-home.", dir=PRIVATE_BASE)
    tmp = tempfile.mkdtemp(prefix="private-dir-fallback.")
    try:
        env = dict(os.environ, HOME=home)
        env.pop("XDG_RUNTIME_DIR", None)
        p = subprocess.run([sys.executable, PRIVATE_DIR,
                            os.path.join(tmp, "build"), "x."], env=env,
                           capture_output=True, text=True, timeout=TIMEOUT)
        path = p.stdout.strip()
        check("exit 0", p.returncode == 0, p.stderr)
        check("in ~/.cache/mlx5-tm", os.path.dirname(path) ==
              os.path.join(home, ".cache", "mlx5-tm"), path)
        check("mode 700", os.path.isdir(path) and
              os.stat(path).st_mode & 0o777 == 0o700, path)
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(tmp, ignore_errors=True)


def test_doc_suite_skips_without_private_dir():
    """The doc suite where no private directory can be had: each command
    it would run is a skip with the reason (counted skipped, never
    passed), exit 0; it raised and printed no closing line."""
    tmp = tempfile.mkdtemp(prefix="doc-no-private.")
    try:
        p = subprocess.run([sys.executable, DOCTEST,
                            os.path.join(tmp, "build"), SRC],
                           env=no_private_env(tmp), capture_output=True,
                           text=True, timeout=TIMEOUT)
        last = p.stdout.strip().splitlines()[-1:] or [""]
        check("exit 0", p.returncode == 0, p.stdout[-300:] + p.stderr[-300:])
        check("closing line: 0 passed, 0 failed, N skipped (N > 0)",
              re.fullmatch(r"0 passed, 0 failed, [1-9]\d* skipped",
                           last[0]) is not None, last[0])
        check("each skip says why", "world-writable" in p.stdout,
              p.stdout[-300:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    for fn in (test_missing_build_dir, test_relative_missing_build_dir,
               test_missing_san_build_dir, test_not_a_build_dir,
               test_unknown_option, test_three_arguments, test_help,
               test_private_dir_none, test_private_dir_falls_back,
               test_doc_suite_skips_without_private_dir):
        CASES.run(fn.__name__, fn)
    return CASES.report()


if __name__ == "__main__":
    sys.exit(main())
