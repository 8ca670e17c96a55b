# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""`set port <p> queue <q> rate <Mbps>` (rte_eth_set_queue_rate_limit) and
how it agrees with rte_tm on the same queue.
Plan: doc/test_plans/tm_queue_rate_limit_test_plan.rst."""

from framework.test_case import TestCase
from framework.traffic import TrafficMixin

MBPS = 125000  # bytes/s in one Mbit/s


class TestTmQueueRateLimit(TrafficMixin, TestCase):
    suite_name = "tm_queue_rate_limit"

    def test_rate_limit_measured(self):
        self.launch("cx6dx", txq=2)
        self.ok("set port 0 queue 0 rate 25")
        self.ok("set port 0 queue 1 rate 50")
        self.start_txonly(nb_queues=2)
        self.check_rates({0: 25 * MBPS, 1: 50 * MBPS}, source="wire")
        self.ok("set port 0 queue 1 rate 75")
        self.check_rates({0: 25 * MBPS, 1: 75 * MBPS}, source="wire")
        self.stop_fwd()

    def test_rate_limit_kept_across_restart(self):
        """Rates set on the started port survive port stop/start (the new
        send queues are created with the pacing index). testpmd itself
        refuses the command on a stopped port: it compares the rate with
        the link speed, 0 while the link is down."""
        self.launch("cx6dx", txq=2)
        self.ok("set port 0 queue 0 rate 40")
        self.ok("set port 0 queue 1 rate 40")
        self.ok("port stop 0")
        self.ok("port start 0")
        self.start_txonly(nb_queues=2)
        self.check_rates({0: 40 * MBPS, 1: 40 * MBPS}, source="wire")
        self.stop_fwd()

    def test_bad_queue_and_rate(self):
        self.launch("cx6dx", txq=2)
        out = self.send("set port 0 queue 7 rate 50")
        self.verify("failed" in out, "queue 7 of 2 accepted: %r" % out)
        c = self.port_cap()
        top = c["cap.shaper_private_rate_max"] // MBPS
        out = self.send("set port 0 queue 0 rate %d" % (top + 1))
        self.verify("failed" in out or "Invalid rate" in out,
                    "rate above the device maximum accepted: %r" % out)
        self.verify(self.pmd.alive(), "testpmd died")

    def test_rate_zero_unlimits(self):
        """0 Mbit/s removes the limit: the queue's pacing entry is gone, so
        the only entry of a 1-entry table is free for another rate."""
        self.launch("cx6dx", txq=2, devargs={"cap_pp_table_size": 2})
        self.ok("set port 0 queue 0 rate 25")
        out = self.send("set port 0 queue 1 rate 50")
        self.verify("failed" in out,
                    "second distinct rate fit a 1-entry table: %r" % out)
        self.ok("set port 0 queue 0 rate 0")
        self.ok("set port 0 queue 1 rate 50")

    def test_agreement_with_tm(self):
        """One owner at a time (doc/guides: queue rate limit and rte_tm):
        queue rate limits rule until a hierarchy is committed; then the
        leaves set every queue's rate (a queue without a shaped leaf is
        unlimited) and queue rate limits are refused; deleting the whole
        hierarchy hands the queues back to queue rate limits."""
        self.launch("cx6dx", txq=2)
        self.ok("set port 0 queue 0 rate 40")
        self.ok("set port 0 queue 1 rate 40")
        self.add_profile(1, 25 * MBPS)
        self.add_profile(2, 50 * MBPS)
        self.two_level([1, 2])
        self.commit()
        out = self.send("set port 0 queue 1 rate 75")
        self.verify("failed" in out and "-16" in out,
                    "queue rate limit accepted under a committed "
                    "hierarchy: %r" % out.strip())
        self.start_txonly(nb_queues=2)
        self.check_rates({0: 25 * MBPS, 1: 50 * MBPS})
        self.stop_fwd()
        self.ok("port stop 0")
        for node in (0, 1, 1000):
            self.ok("del port tm node 0 %d" % node)
        self.ok("port start 0")
        self.ok("set port 0 queue 0 rate 30")
        self.ok("set port 0 queue 1 rate 60")
        self.start_txonly(nb_queues=2)
        self.check_rates({0: 30 * MBPS, 1: 60 * MBPS}, source="wire")
        self.stop_fwd()
