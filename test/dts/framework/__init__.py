# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""A small DTS-style harness that drives Debian's dpdk-testpmd with the
net_mlx5_tm PMD loaded by -d, on the emulated ConnectX device."""
