# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Hierarchy commit before and after the port starts, hierarchy kept across
port stop/start, and a failed commit with clean_on_fail leaving a clean
port. Plan: doc/test_plans/tm_commit_test_plan.rst."""

from framework.test_case import TestCase
from framework.traffic import TrafficMixin

RATES = {0: 3125000, 1: 6250000}   # bytes/s: 25 and 50 Mbit/s


class TestTmCommit(TrafficMixin, TestCase):
    suite_name = "tm_commit"

    def build(self, rates=RATES):
        for q, rate in rates.items():
            self.add_profile(q + 1, rate)
        self.add_root()
        for q in rates:
            self.add_leaf(q, 1000, 1, q + 1)

    def test_commit_before_start(self):
        self.launch("cx6dx", txq=2)
        self.ok("port stop 0")
        self.build()
        self.commit()
        self.ok("port start 0")
        self.start_txonly(nb_queues=2)
        self.check_rates(RATES)
        self.stop_fwd()

    def test_commit_after_start(self):
        self.launch("cx6dx", txq=2)
        self.build()
        self.commit()
        self.start_txonly(nb_queues=2)
        self.check_rates(RATES)
        self.stop_fwd()

    def test_commit_while_sending(self):
        """Queues sending unshaped... then shaped by a commit on the fly
        (MODIFY_SQ on ready SQs). The unshaped phase is short: the emulated
        line rate is not something a 2-core machine keeps up with."""
        self.launch("cx6dx", txq=2)
        self.build()
        self.start_txonly(nb_queues=2)
        self.commit()
        self.check_rates(RATES)
        self.stop_fwd()

    def test_stop_start_keeps_hierarchy(self):
        self.launch("cx6dx", txq=2)
        self.build()
        self.commit()
        self.ok("port stop 0")
        self.ok("port start 0")
        self.start_txonly(nb_queues=2)
        self.check_rates(RATES)
        self.stop_fwd()
        # The hierarchy is still there: the profiles are in use.
        self.refused("del port tm node shaper profile 0 1",
                     "SHAPER_PROFILE_ID", r"used by")

    def test_failed_commit_clean_on_fail(self):
        """A commit that cannot be honoured (more distinct rates than
        pacing entries) fails with a reason; with clean_on_fail the
        hierarchy is gone, nothing is leaked, and a new one commits."""
        self.launch("cx6dx", txq=3, devargs={"cap_pp_table_size": 3})
        rates = {0: 3125000, 1: 6250000, 2: 9375000}
        self.build(rates)
        err = self.refused("port tm hierarchy commit 0 yes")
        self.verify(err.name != "NONE", "commit failed with type NONE")
        for node in (0, 1, 2, 1000):
            self.refused("show port tm node type 0 %d" % node, "NODE_ID")
        # No pacing entry leaked: two distinct rates fit the table again.
        self.add_root()
        self.add_leaf(0, 1000, 1, 1)
        self.add_leaf(1, 1000, 1, 2)
        self.add_leaf(2, 1000, 1, 1)
        self.commit()
        self.start_txonly(nb_queues=3)
        self.check_rates({0: 3125000, 1: 6250000, 2: 3125000})
        self.stop_fwd()

    def test_failed_commit_keeps_hierarchy(self):
        """Without clean_on_fail the hierarchy stays for the user to fix."""
        self.launch("cx6dx", txq=3, devargs={"cap_pp_table_size": 3})
        self.build({0: 3125000, 1: 6250000, 2: 9375000})
        self.refused("port tm hierarchy commit 0 no")
        for node in (0, 1, 2, 1000):
            self.ok("show port tm node type 0 %d" % node)
        self.ok("port stop 0")
        self.ok("del port tm node 0 2")
        self.add_leaf(2, 1000, 1, 1)
        self.commit()
        self.ok("port start 0")
        self.start_txonly(nb_queues=3)
        self.check_rates({0: 3125000, 1: 6250000, 2: 3125000})
        self.stop_fwd()

    def test_dedicated_pacing_index(self):
        """pacing_index=shared (default): two queues at one rate share one
        entry, so a 1-entry table holds them; pacing_index=dedicated: each
        queue needs its own entry, and the same commit fails."""
        for mode, fits in (("shared", True), ("dedicated", False)):
            self.launch("cx6dx", txq=2, devargs={"cap_pp_table_size": 2,
                                                 "pacing_index": mode})
            self.build({0: 3125000, 1: 6250000})
            self.ok("set port tm node shaper profile 0 1 1")
            if fits:
                self.commit()
            else:
                self.refused("port tm hierarchy commit 0 yes")
            self.close_all()

    def test_rate_tolerance(self):
        """rate_tolerance_ppm lets a queue reuse an entry within that many
        ppm of its rate: 25000 and 25001 kbps (40 ppm apart) need two
        entries exactly, one with a 100 ppm tolerance."""
        for ppm, fits in ((0, False), (100, True)):
            self.launch("cx6dx", txq=2, devargs={"cap_pp_table_size": 2,
                                                 "rate_tolerance_ppm": ppm})
            self.build({0: 25000 * 125, 1: 25001 * 125})
            if fits:
                self.commit()
                self.start_txonly(nb_queues=2)
                # Both queues on the first rate (25000 kbps; the second
                # asked 40 ppm more).
                self.check_rates({0: 25000 * 125, 1: 25000 * 125},
                                 source="wire", tolerance=0.001)
                self.stop_fwd()
            else:
                self.refused("port tm hierarchy commit 0 yes")
            self.close_all()

    def test_queue_count_change(self):
        """Fewer Tx queues (port reconfigured): the leaves of the queues
        that went are deleted, the rest of the hierarchy keeps its rates.
        More queues, so that a non-leaf id now names a queue: the
        hierarchy no longer fits and is deleted, the profiles stay."""
        self.launch("cx6dx", txq=4)
        rates = {0: 3125000, 1: 6250000, 2: 9375000, 3: 12500000}
        self.build(rates)
        self.commit()
        for cmd in ("port stop 0", "port config all txq 2",
                    "port config all rxq 2", "port start 0"):
            self.ok(cmd)
        for node in (2, 3):
            self.refused("show port tm node type 0 %d" % node, "NODE_ID")
        self.ok("show port tm node type 0 1000")
        self.start_txonly(nb_queues=2)
        self.check_rates({0: 3125000, 1: 6250000}, source="wire")
        self.stop_fwd()
        self.close_all()

        self.launch("cx6dx", txq=4)
        self.add_profile(1, 3125000)
        self.add_root(node=4)
        self.add_leaf(0, 4, 1, 1)
        self.commit()
        for cmd in ("port stop 0", "port config all txq 8",
                    "port config all rxq 8", "port start 0"):
            self.ok(cmd)
        for node in (0, 4):
            self.refused("show port tm node type 0 %d" % node, "NODE_ID")
        self.ok("del port tm node shaper profile 0 1")

    def test_commit_rollback(self):
        """A commit that fails half-way (the device refuses MODIFY_SQ for
        the second queue) rolls back: every queue keeps its previous rate
        (queue rate limits of 30 Mbit/s here), and the same commit then
        succeeds. The fault is the device model's fault_cmd devarg: port
        start makes one MODIFY_SQ per queue (RST to RDY), the two queue
        rate limits two more, so the 6th is the commit's second."""
        mbps = 125000
        self.launch("cx6dx", txq=2,
                    devargs={"fault_cmd": "MODIFY_SQ:6:bad_param"})
        self.ok("set port 0 queue 0 rate 30")
        self.ok("set port 0 queue 1 rate 30")
        self.build({0: 25 * mbps, 1: 50 * mbps})
        self.refused("port tm hierarchy commit 0 no",
                     msg=r"MODIFY_SQ.*keeps its previous rate")
        self.start_txonly(nb_queues=2)
        self.check_rates({0: 30 * mbps, 1: 30 * mbps}, source="wire")
        self.commit(clean="no")
        self.check_rates({0: 25 * mbps, 1: 50 * mbps}, source="wire")
        self.stop_fwd()

    def test_shaper_update_failure(self):
        """A run-time profile change the device refuses (its 3rd pp_alloc
        fails: fault_pp_alloc devarg) leaves the queue at its rate; the
        same change then succeeds."""
        mbps = 125000
        self.launch("cx6dx", txq=2, devargs={"fault_pp_alloc": "3:EIO"})
        self.build({0: 25 * mbps, 1: 50 * mbps})
        self.add_profile(3, 75 * mbps)
        self.commit()
        self.refused("set port tm node shaper profile 0 1 3",
                     msg=r"refused a pacing entry")
        self.start_txonly(nb_queues=2)
        self.check_rates({0: 25 * mbps, 1: 50 * mbps}, source="wire")
        self.ok("set port tm node shaper profile 0 1 3")
        self.check_rates({0: 25 * mbps, 1: 75 * mbps}, source="wire")
        self.stop_fwd()
