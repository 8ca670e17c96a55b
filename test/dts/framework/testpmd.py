# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Interactive dpdk-testpmd session: start, send a command, read the answer
up to the prompt, notice a crash, keep the whole transcript."""

import io
import os
import re
import shutil
import sys
import time

import pexpect

from .exception import TestpmdCrash, TestpmdStartError

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
from private_dir import suite_private_dir  # noqa: E402 pylint: disable=wrong-import-position

PROMPT = "testpmd> "
TESTPMD = "/usr/bin/dpdk-testpmd"

# Terminal control sequences the cmdline library writes while echoing.
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]")


# The device model, a library of its own the PMD loads from beside itself.
EMU_SO = "librte_net_mlx5_tm_emu.so"


class PmdCopy:
    """The PMD shared object copied to a private directory, with the device
    model beside it (the PMD loads it from there for emu=)."""

    def __init__(self, so_path, build_dir):
        if not os.path.isfile(so_path):
            raise FileNotFoundError("PMD not built: %s" % so_path)
        # NoPrivateDir when there is none: the runner skips the cases.
        self.dir = suite_private_dir(build_dir, "dts-pmd-")
        self.path = os.path.join(self.dir, os.path.basename(so_path))
        shutil.copyfile(so_path, self.path)
        os.chmod(self.path, 0o700)
        emu = os.path.join(os.path.dirname(so_path), EMU_SO)
        if os.path.isfile(emu):
            shutil.copyfile(emu, os.path.join(self.dir, EMU_SO))
            os.chmod(os.path.join(self.dir, EMU_SO), 0o700)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class Testpmd:
    """One interactive testpmd process.

    @param vdev  the --vdev argument, e.g. "net_mlx5_tm0,emu=cx6dx"
    @param pmd_so  path of the (private copy of the) PMD, None for built-in
    """

    _seq = 0

    def __init__(self, vdev, pmd_so=None, txq=4, rxq=None, eal_args=(),
                 app_args=(), timeout=20, start_timeout=60,
                 log_levels=()):
        Testpmd._seq += 1
        self.prefix = "dts%d_%d" % (os.getpid(), Testpmd._seq)
        self.timeout = timeout
        self.buf = io.StringIO()
        args = ["-l", "0-1", "--no-huge", "--no-pci", "-m", "512",
                "--no-shconf",
                "--file-prefix", self.prefix]
        for lvl in log_levels:
            args.append("--log-level=%s" % lvl)
        if pmd_so:
            args += ["-d", pmd_so]
        args += ["--vdev", vdev]
        args += list(eal_args)
        # testpmd drives several Tx queues only with as many Rx queues.
        rxq = txq if rxq is None else rxq
        args += ["--", "-i", "--rxq=%d" % rxq, "--txq=%d" % txq,
                 "--nb-cores=1", "--total-num-mbufs=32768", "--txd=512"]
        args += list(app_args)
        self.cmdline = " ".join([TESTPMD] + args)
        self.child = pexpect.spawn(TESTPMD, args, encoding="utf-8",
                                   codec_errors="replace",
                                   timeout=start_timeout, echo=False,
                                   dimensions=(50, 400))
        self.child.logfile_read = self.buf
        self.buf.write("$ %s\n" % self.cmdline)
        try:
            self.child.expect_exact(PROMPT, timeout=start_timeout)
        except pexpect.EOF:
            self._reap()
            raise TestpmdStartError("testpmd exited during start-up (%s)"
                                    % self.exit_text(), self.transcript())
        except pexpect.TIMEOUT:
            self.kill()
            raise TestpmdStartError("no testpmd prompt after %ds"
                                    % start_timeout, self.transcript())
        self.exitstatus = None
        self.signalstatus = None

    # ------------------------------------------------------------------
    def transcript(self):
        """Everything testpmd printed so far, control sequences removed."""
        return _ANSI_RE.sub("", self.buf.getvalue()).replace("\r", "")

    def alive(self):
        return self.child.isalive()

    def send(self, cmd, timeout=None):
        """Send one command and return what testpmd answered before the
        next prompt (without the echoed command)."""
        self.child.sendline(cmd)
        try:
            self.child.expect_exact(PROMPT, timeout=timeout or self.timeout)
        except pexpect.EOF:
            self._reap()
            raise TestpmdCrash("testpmd died while running %r (%s)"
                               % (cmd, self.exit_text()), self.transcript())
        except pexpect.TIMEOUT:
            raise TestpmdCrash("no prompt %ds after %r"
                               % (timeout or self.timeout, cmd),
                               self.transcript())
        out = _ANSI_RE.sub("", self.child.before).replace("\r", "")
        # The cmdline library echoes the command: drop that first line.
        first, _, rest = out.partition("\n")
        if cmd.strip() and cmd.strip()[:20] in first:
            out = rest
        return out

    def _reap(self):
        try:
            self.child.close(force=False)
        except Exception:  # pylint: disable=broad-except
            pass
        self.exitstatus = self.child.exitstatus
        self.signalstatus = self.child.signalstatus
        self._remove_runtime_dir()

    def _remove_runtime_dir(self):
        """EAL leaves its runtime directory behind (empty with --no-shconf,
        but for the telemetry sockets of a process that was killed):
        remove ours."""
        if os.getuid() == 0:
            base = "/var/run/dpdk"
        else:
            base = os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/tmp"),
                                "dpdk")
        path = os.path.join(base, self.prefix)
        for name in ("dpdk_telemetry.v2", "telemetry"):
            try:
                os.unlink(os.path.join(path, name))
            except OSError:
                pass
        try:
            os.rmdir(path)
        except OSError:
            pass

    def exit_text(self):
        if self.child.signalstatus is not None:
            return "killed by signal %d" % self.child.signalstatus
        if self.child.exitstatus is not None:
            return "exit status %d" % self.child.exitstatus
        return "status unknown"

    def quit(self, timeout=30):
        """Quit testpmd; returns (exitstatus, signalstatus)."""
        if self.child.isalive():
            self.child.sendline("quit")
            try:
                self.child.expect(pexpect.EOF, timeout=timeout)
            except pexpect.TIMEOUT:
                self.kill()
                return (None, None)
        self._reap()
        return (self.child.exitstatus, self.child.signalstatus)

    def kill(self):
        """End our own testpmd process (and wait for it)."""
        if self.child.isalive():
            self.child.terminate(force=True)
        self._reap()

    def wait_for_idle(self, seconds):
        """Let time pass while collecting anything printed meanwhile."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            try:
                self.child.expect(pexpect.TIMEOUT, timeout=left)
            except pexpect.EOF:
                self._reap()
                raise TestpmdCrash("testpmd died while idle (%s)"
                                   % self.exit_text(), self.transcript())
