# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Test cases of the Python suites, counted as test/run_all.sh reads them.

A test case is one named behaviour: Cases.run() runs a function as one
case, which counts once and fails if any of its checks failed or it
raised; a case that made no check is a skip (printed "SKIP", counted
neither way). A check made outside any case is a case of its own.
skip() counts a case that cannot run here (printed "SKIP" with the
reason). report() prints the closing line "N passed, N failed" (cases),
with ", N skipped" when any were.
"""

import sys


class Cases:
    """The cases of one suite."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self._name = None       # the case running, None between cases
        self._failed = False
        self._checks = 0        # checks the running case made

    def check(self, name, ok, detail=""):
        """One check: of the running case, else a case of its own.
        Returns @ok."""
        ok = bool(ok)
        indent = "  " if self._name is not None else ""
        if ok:
            print("%sok   %s" % (indent, name))
        else:
            print("%sFAIL %s %s" % (indent, name, detail))
        if self._name is not None:
            self._failed |= not ok
            self._checks += 1
        elif ok:
            self.passed += 1
        else:
            self.failed += 1
        sys.stdout.flush()
        return ok

    def run(self, name, fn, *args):
        """Run @fn(*args) as case @name; an exception fails it (with the
        exception printed), it does not end the suite."""
        self._name = name
        self._failed = False
        self._checks = 0
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001 - reported as a failure
            self.check(name, False, "raised %r" % exc)
        self._name = None
        if self._checks == 0:
            print("SKIP %s: no check ran" % name)
        elif self._failed:
            self.failed += 1
            print("FAIL %s" % name)
        else:
            self.passed += 1
            print("ok   %s" % name)
        sys.stdout.flush()

    def skip(self, name, reason):
        """Case @name cannot run here: counted skipped, never passed."""
        self.skipped += 1
        print("SKIP %s: %s" % (name, reason))
        sys.stdout.flush()

    def report(self):
        """Print the closing line; the suite's exit status."""
        print("%d passed, %d failed%s" % (
            self.passed, self.failed,
            ", %d skipped" % self.skipped if self.skipped else ""))
        sys.stdout.flush()
        return 0 if self.failed == 0 else 1
