# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Harness self-test on net_null (no rte_tm): the harness reads answers,
parses refusals, notices crashes and bad commands, and loads drivers from
a private directory. Plan: doc/test_plans/harness_test_plan.rst."""

import os
import re
import signal
import stat

from framework import pcap
from framework.exception import TestpmdCrash, VerifyFailure
from framework.test_case import TestCase
from framework.testpmd import PmdCopy
# test/private_dir.py, on the path framework.testpmd set.
from private_dir import private_dir, world_writable_ancestor  # noqa: E402


class TestHarness(TestCase):
    suite_name = "harness"

    def launch_null(self, txq=4):
        return self.launch(vdev="net_null0", pmd_so=None, txq=txq,
                           log_levels=())

    def test_command_round_trip(self):
        self.launch_null()
        out = self.send("show port info 0")
        self.verify("Infos for port 0" in out, "no port info: %r" % out)
        self.verify("net_null" in out, "driver name missing: %r" % out)
        self.verify("testpmd>" not in out, "prompt leaked into the answer")
        self.verify("show port info" not in out, "echo left in the answer")
        out = self.send("show port 0 txq 3 desc 0 status")
        self.verify(out.strip() != "", "empty answer")

    def test_tm_refusal_parsed(self):
        self.launch_null()
        err = self.refused("show port tm cap 0")
        self.verify(err.name == "UNSPECIFIED" and
                    "not implemented" in err.message.lower(),
                    "unexpected parse: %r" % err)
        err = self.refused("add port tm node shaper profile 0 1 0 0 "
                           "100000000 0 0 0")
        self.verify(err.code == 1, "unexpected code: %r" % err)
        # A refusal where success is required fails the case.
        try:
            self.ok("show port tm level cap 0 0")
        except VerifyFailure:
            pass
        else:
            raise VerifyFailure("ok() accepted a refused command")
        # An accepted command where a refusal is required fails too.
        try:
            self.refused("show port info 0")
        except VerifyFailure:
            pass
        else:
            raise VerifyFailure("refused() accepted a successful command")

    def test_bad_command_detected(self):
        self.launch_null()
        for cmd in ("add port tm node shaper profile 0 x", "no such command"):
            try:
                self.ok(cmd)
            except VerifyFailure:
                continue
            raise VerifyFailure("ok() missed the parse error of %r" % cmd)

    def test_crash_detected(self):
        pmd = self.launch_null()
        os.kill(pmd.child.pid, signal.SIGSEGV)
        try:
            pmd.send("show port info 0", timeout=10)
        except TestpmdCrash as exc:
            self.verify("signal %d" % signal.SIGSEGV in str(exc),
                        "crash reason lost: %s" % exc)
            self.verify("Infos for port" not in exc.transcript and
                        "--vdev net_null0" in exc.transcript,
                        "transcript missing the start-up")
        else:
            raise VerifyFailure("a dead testpmd went unnoticed")
        self.pmds.remove(pmd)

    def test_quit_status(self):
        pmd = self.launch_null()
        status, sig = pmd.quit()
        self.verify(status == 0 and sig is None,
                    "quit gave status %r signal %r" % (status, sig))
        self.verify("Bye" in pmd.transcript(), "no Bye at quit")
        self.pmds.remove(pmd)

    def test_private_copy(self):
        so = self.ctx.so if os.path.exists(self.ctx.so) else \
            "/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0/librte_net_null.so.23"
        copy = PmdCopy(so, self.ctx.build)
        safe_base = os.path.dirname(copy.dir)
        try:
            mode = stat.S_IMODE(os.stat(copy.dir).st_mode)
            self.verify(mode == 0o700, "private dir mode %o" % mode)
            self.verify(world_writable_ancestor(copy.path) is None,
                        "world-writable ancestor of %s" % copy.path)
        finally:
            copy.remove()
        # A candidate under a world-writable directory is never chosen.
        tmp_base = "/tmp/dts-harness-check-%d" % os.getpid()
        try:
            path = private_dir([tmp_base, safe_base], "dts-pmd-")
            self.verify(not path.startswith("/tmp/"),
                        "chose %s under /tmp" % path)
            os.rmdir(path)
        finally:
            if os.path.isdir(tmp_base):
                os.rmdir(tmp_base)

    def test_pcap_reader(self):
        path = self.ctx.scratch_file("harness.pcap")
        pkts = [(1700000000 * 10**9 + 123456789 + i * 1000, bytes([i]) * 60)
                for i in range(5)]
        pcap.write(path, pkts)
        with open(path, "ab") as f:
            f.write(b"\x00" * 10)  # a record cut short by a live writer
        _, recs = pcap.read(path)
        self.verify([r.t_ns for r in recs] == [t for t, _ in pkts],
                    "timestamps: %r" % [r.t_ns for r in recs])
        self.verify(all(r.length == 60 for r in recs), "lengths")
        pcap.write(path, pkts, nanosecond=False)
        _, recs = pcap.read(path)
        self.verify(recs[1].t_ns == (pkts[1][0] // 1000) * 1000,
                    "microsecond file read as %d" % recs[1].t_ns)

    def test_plans_match_suites(self):
        """Each suite has its test plan in doc/test_plans, and each case of
        a plan names exactly one test_* method of its suite."""
        import run  # the runner: suite list and case order (late: it
        # imports this module)
        problems = []
        for name in run.SUITES:
            path = os.path.join(self.ctx.src, "doc", "test_plans",
                                "%s_test_plan.rst" % name)
            if not os.path.isfile(path):
                problems.append("no plan %s" % path)
                continue
            with open(path) as f:
                text = f.read()
            planned = re.findall(r"^Test Case \d+: .*\(``(test_\w+)``\)\s*$",
                                 text, re.M)
            cases = run.cases_of(run.suite_class(name))
            if sorted(planned) != sorted(cases) or \
                    len(set(planned)) != len(planned):
                problems.append("%s: plan %s, suite %s"
                                % (name, sorted(planned), sorted(cases)))
        self.verify(not problems, "; ".join(problems))
