# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Failures a test case reports."""


class VerifyFailure(Exception):
    """An expectation of the test plan was not met."""


class TestpmdCrash(Exception):
    """testpmd exited (or stopped answering) while a command ran."""

    def __init__(self, msg, transcript=""):
        super().__init__(msg)
        self.transcript = transcript


class TestpmdStartError(TestpmdCrash):
    """testpmd did not reach its prompt."""
