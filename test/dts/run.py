#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Runs the DTS-style suites of test/dts/tests against Debian's
dpdk-testpmd with the net_mlx5_tm PMD loaded by -d.

Prints one line per case (PASSED / FAILED, with the reason and the testpmd
transcript of a failure) and closes with "N passed, N failed".

    /usr/bin/python3 test/dts/run.py --build build [--suite NAME] [--case RE]
"""

import argparse
import importlib
import inspect
import os
import re
import shutil
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

# pylint: disable=wrong-import-position
from framework.exception import TestpmdCrash, VerifyFailure  # noqa: E402
from framework.testpmd import TESTPMD, PmdCopy  # noqa: E402
from private_dir import NoPrivateDir  # noqa: E402  (framework.testpmd put test/ on the path)

# Suites in the order they run (test/dts/tests/TestSuite_<name>.py); each
# has its test plan in doc/test_plans/<name>_test_plan.rst.
SUITES = [
    "harness",
    "tm_capabilities",
    "tm_shaper_profile",
    "tm_hierarchy",
    "tm_commit",
    "tm_rates",
    "tm_sched",
    "tm_queue_rate_limit",
    "tm_bad_input",
    "companion_rx",
]


class Context:
    """What the suites share: the build directory and the PMD copy."""

    def __init__(self, build, src):
        self.build = os.path.abspath(build)
        self.src = src
        self.so = os.path.join(self.build, "drivers",
                               "librte_net_mlx5_tm.so")
        self._copy = None
        self.scratch = tempfile.mkdtemp(prefix="mlx5-tm-dts-")

    def pmd_so(self):
        """Path of the private copy of the PMD (made on first use)."""
        if self._copy is None:
            self._copy = PmdCopy(self.so, self.build)
        return self._copy.path

    def scratch_file(self, name):
        path = os.path.join(self.scratch, name)
        if os.path.exists(path):
            os.unlink(path)
        return path

    def cleanup(self):
        if self._copy is not None:
            self._copy.remove()
        shutil.rmtree(self.scratch, ignore_errors=True)


def suite_class(name):
    mod = importlib.import_module("tests.TestSuite_%s" % name)
    for _, obj in inspect.getmembers(mod, inspect.isclass):
        if obj.__module__ == mod.__name__ and name_of(obj) == name:
            return obj
    raise RuntimeError("tests/TestSuite_%s.py has no suite class" % name)


def name_of(cls):
    return getattr(cls, "suite_name", None)


def cases_of(cls):
    """test_* methods in the order they are written."""
    found = []
    for attr, fn in cls.__dict__.items():
        if attr.startswith("test_") and callable(fn):
            found.append((fn.__code__.co_firstlineno, attr))
    return [attr for _, attr in sorted(found)]


def indent(text, lines):
    rows = text.rstrip("\n").split("\n")
    if lines and len(rows) > lines:
        rows = ["[... %d earlier lines ...]" % (len(rows) - lines)] + \
            rows[-lines:]
    return "\n".join("    | " + r for r in rows)


def describe(exc):
    if isinstance(exc, (VerifyFailure, TestpmdCrash)):
        return "%s: %s" % (type(exc).__name__, exc)
    return "".join(traceback.format_exception(type(exc), exc,
                                              exc.__traceback__)).rstrip()


class Runner:
    def __init__(self, args):
        self.args = args
        self.passed = 0
        self.failed = 0
        self.ctx = Context(args.build, os.path.dirname(os.path.dirname(HERE)))

    def report(self, suite, case, ok, secs, reason=None, transcripts=()):
        print("%s/%s: %s (%.1fs)" % (suite, case,
                                     "PASSED" if ok else "FAILED", secs))
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("  reason: %s" % reason.replace("\n", "\n  "))
            for title, text in transcripts:
                print("  testpmd transcript (%s):" % title)
                print(indent(text, self.args.transcript_lines))
        sys.stdout.flush()

    def run_suite(self, name):
        cls = suite_class(name)
        cases = [c for c in cases_of(cls)
                 if not self.args.case or re.search(self.args.case, c)]
        if not cases:
            return
        suite = cls(self.ctx)
        t0 = time.monotonic()
        try:
            suite.set_up_all()
        except Exception as exc:  # pylint: disable=broad-except
            trans = self.transcripts(suite, exc)
            suite.close_all()
            for case in cases:
                self.report(name, case, False, time.monotonic() - t0,
                            "set_up_all failed: " + describe(exc), trans)
            return
        for case in cases:
            self.run_case(suite, name, case)
        try:
            suite.tear_down_all()
        finally:
            suite.close_all()

    def transcripts(self, suite, exc):
        """The sessions to show for a failure: the crashed one, those still
        open, else the last one the case closed."""
        out = []
        seen = set()
        if isinstance(exc, TestpmdCrash) and exc.transcript:
            out.append(("at the failure", exc.transcript))
            seen.add(exc.transcript)
        shown = list(suite.pmds) or suite.history[-1:]
        for pmd in shown:
            text = pmd.transcript()
            if text not in seen:
                out.append(("session %d of the case: %s"
                            % (suite.history.index(pmd) + 1
                               if pmd in suite.history else 0, pmd.cmdline),
                            text))
        return out

    def run_case(self, suite, name, case):
        suite.history = []
        suite.notes = []
        t0 = time.monotonic()
        reason = None
        trans = []
        try:
            suite.set_up()
            getattr(suite, case)()
        except Exception as exc:  # pylint: disable=broad-except
            reason = describe(exc)
            trans = self.transcripts(suite, exc)
        try:
            suite.tear_down()
        except Exception as exc:  # pylint: disable=broad-except
            if reason is None:
                reason = "tear_down: " + describe(exc)
                trans = self.transcripts(suite, exc)
        # Sessions the case left open end here; a crash at quit fails it.
        pmds = list(suite.pmds)
        problems = suite.close_all()
        if problems and reason is None:
            reason = "; ".join(p for _, p in problems)
            trans = [("session: " + p.cmdline, p.transcript())
                     for p, _ in problems]
        elif reason is not None and not trans:
            trans = [("session: " + p.cmdline, p.transcript()) for p in pmds]
        self.report(name, case, reason is None, time.monotonic() - t0,
                    reason, trans)
        for text in suite.notes:
            print("  note: %s" % text)

    def run(self):
        names = self.args.suite or SUITES
        unknown = [n for n in names if n not in SUITES]
        if unknown:
            print("unknown suite(s): %s (known: %s)"
                  % (", ".join(unknown), ", ".join(SUITES)))
            return 2
        if not os.access(TESTPMD, os.X_OK):
            # Every case needs it: say so once per case, not with a trace.
            for name in names:
                for case in cases_of(suite_class(name)):
                    if not self.args.case or re.search(self.args.case, case):
                        self.report(name, case, False, 0.0,
                                    "%s not found: install Debian's dpdk-dev "
                                    "(scripts/setup.sh)" % TESTPMD)
            print("%d passed, %d failed" % (self.passed, self.failed))
            return 1
        try:
            self.ctx.pmd_so()
        except NoPrivateDir as exc:
            # Every case needs the private copy: each a skip, not a pass.
            skipped = 0
            for name in names:
                for case in cases_of(suite_class(name)):
                    if not self.args.case or re.search(self.args.case, case):
                        print("SKIP %s/%s: %s" % (name, case, exc))
                        skipped += 1
            self.ctx.cleanup()
            print("0 passed, 0 failed, %d skipped" % skipped)
            return 0
        try:
            for name in names:
                self.run_suite(name)
        finally:
            self.ctx.cleanup()
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 0 if self.failed == 0 else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build",
                    help="build directory (holds drivers/librte_net_mlx5_tm.so)")
    ap.add_argument("--suite", action="append",
                    help="run only this suite (repeatable)")
    ap.add_argument("--case", help="run only cases matching this regex")
    ap.add_argument("--list", action="store_true", help="list cases and exit")
    ap.add_argument("--transcript-lines", type=int, default=150,
                    help="lines of transcript shown per failure (0: all)")
    args = ap.parse_args()
    if args.list:
        for name in args.suite or SUITES:
            for case in cases_of(suite_class(name)):
                print("%s/%s" % (name, case))
        return 0
    return Runner(args).run()


if __name__ == "__main__":
    sys.exit(main())
