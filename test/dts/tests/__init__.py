# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""DTS-style suites, one per test plan in doc/test_plans/."""
