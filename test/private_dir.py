# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""A directory the EAL loads a driver from: EAL refuses a driver given
with -d when any directory above it is world-writable (for example anything
under /tmp), and a checkout or a build directory may sit under one, so the
suites that run testpmd copy the PMD to such a private directory.

Every suite takes it from suite_private_dir(): in the build directory,
else in $XDG_RUNTIME_DIR, else in ~/.cache/mlx5-tm; when none is free of
world-writable ancestors it raises NoPrivateDir, whose reason the suite
prints as a skip (counted skipped, never passed).

As a command (for the shell scripts): private_dir.py BUILD_DIR PREFIX
prints the new directory's path, or the reason on stderr and exits 77.
"""

import os
import stat
import sys
import tempfile


class NoPrivateDir(RuntimeError):
    """No candidate directory is free of world-writable ancestors."""


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
    world-writable; NoPrivateDir, saying why each was passed over, if
    none."""
    why = []
    for base in candidates:
        if not base:
            continue
        base = os.path.realpath(base)
        ww = world_writable_ancestor(base)
        if ww is not None:
            why.append("%s (%s is world-writable)" % (base, ww))
            continue
        try:
            os.makedirs(base, mode=0o700, exist_ok=True)
            path = tempfile.mkdtemp(prefix=prefix, dir=base)
        except OSError as e:
            why.append("%s (%s)" % (base, e.strerror))
            continue
        os.chmod(path, 0o700)
        return path
    raise NoPrivateDir("no directory free of world-writable ancestors for a "
                       "private copy of the driver (EAL refuses -d below "
                       "one): " + ("; ".join(why) or "no candidate"))


def suite_candidates(build):
    """Where a suite's private directory may go, in order: the build
    directory, $XDG_RUNTIME_DIR (if it exists), ~/.cache/mlx5-tm."""
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    home = os.path.expanduser("~")
    return [build,
            xdg if xdg and os.path.isdir(xdg) else None,
            os.path.join(home, ".cache", "mlx5-tm") if home != "~" else None]


def suite_private_dir(build, prefix):
    """A new private directory (mode 700, named @prefix...) for a suite
    run on build directory @build: see suite_candidates(); NoPrivateDir
    with the reason when there is none."""
    return private_dir(suite_candidates(build), prefix)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: private_dir.py BUILD_DIR PREFIX", file=sys.stderr)
        sys.exit(2)
    try:
        print(suite_private_dir(sys.argv[1], sys.argv[2]))
    except NoPrivateDir as exc:
        print(exc, file=sys.stderr)
        sys.exit(77)
