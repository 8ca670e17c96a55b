# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""A directory the EAL loads a driver from: EAL refuses a driver given
with -d when any directory above it is world-writable (for example anything
under /tmp), and a checkout or a build directory may sit under one, so the
suites that run testpmd copy the PMD to such a private directory."""

import os
import stat
import tempfile


def world_writable_ancestor(path):
    """The first directory on @path's chain that others may write, or None."""
    path = os.path.realpath(path)
    while True:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
        if st is not None and st.st_mode & stat.S_IWOTH:
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def private_dir(candidates, prefix):
    """A new directory (mode 700, named @prefix...) in the first of
    @candidates (None or "" skipped) none of whose ancestors is
    world-writable."""
    for base in candidates:
        if not base:
            continue
        base = os.path.realpath(base)
        if world_writable_ancestor(base) is not None:
            continue
        try:
            os.makedirs(base, mode=0o700, exist_ok=True)
            path = tempfile.mkdtemp(prefix=prefix, dir=base)
        except OSError:
            continue
        os.chmod(path, 0o700)
        return path
    raise RuntimeError("no directory free of world-writable ancestors among "
                       + ", ".join(c for c in candidates if c))
