# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""EAL runtime directories: DPDK 22.11 leaves <base>/dpdk/<prefix> behind
(the shared configuration and memory maps of a primary, or an empty
directory with --no-shconf). Whoever chose a --file-prefix removes its
directory when the processes using it are gone."""

import os
import shutil


def runtime_dir(prefix):
    """The EAL runtime directory of @prefix, as EAL chooses it: under
    /var/run for root, else under $XDG_RUNTIME_DIR (or /tmp)."""
    if os.getuid() == 0:
        base = "/var/run"
    else:
        base = os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


def remove_runtime_dir(prefix):
    """Remove the runtime directory of @prefix and what it holds."""
    shutil.rmtree(runtime_dir(prefix), ignore_errors=True)
