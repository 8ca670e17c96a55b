# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Achieved rates: each queue within 1% of its shaper profile, measured
from rte_tm node statistics, from the port's per-queue wire xstats and
from the device model's wire capture; a run-time profile change moves one
queue; suspend/resume of a leaf. Plan: doc/test_plans/tm_rates_test_plan.rst."""

from framework import measure
from framework.test_case import TestCase
from framework.traffic import PKT_LEN, TOLERANCE, WINDOW, TrafficMixin

# bytes/s per queue: 25, 50, 75, 100 Mbit/s (250 Mbit/s in all).
RATES = {0: 3125000, 1: 6250000, 2: 9375000, 3: 12500000}


class TestTmRates(TrafficMixin, TestCase):
    suite_name = "tm_rates"

    def shaped(self, rates=RATES, devargs=None, profile="cx6dx"):
        self.launch(profile, txq=len(rates), devargs=devargs)
        for q, rate in rates.items():
            self.add_profile(q + 1, rate)
        self.two_level([q + 1 for q in sorted(rates)])
        self.commit()

    def test_rates_tm_stats(self):
        """Rates on device time, with the tm node statistics counting what
        the wire saw (within a ring while sending); once forwarding stops
        and the rings drain, each leaf counted exactly the frames its
        queue sent."""
        self.shaped()
        self.start_txonly(nb_queues=len(RATES))
        self.check_rates(RATES)
        self.stop_fwd()
        counts = measure.node_counts_drained(self, sorted(RATES))
        bad = ["queue %d: node stats %d, wire %d" % (q, n, w)
               for q, (n, w) in sorted(counts.items()) if n != w]
        self.verify(not bad, "tm node statistics of the leaves differ from "
                    "the frames that left: %s" % "; ".join(bad))

    def test_rates_xstats(self):
        """Per-queue wire figures of the device model, read through
        `show port xstats` (departure times from the model's schedule)."""
        self.shaped()
        self.start_txonly(nb_queues=len(RATES))
        self.check_rates(RATES, source="wire")
        self.stop_fwd()

    def test_rates_wire_pcap(self):
        """The device model's wire capture (pcap=FILE): departure timestamps
        (ns) of every frame. The capture does not name the queue, so it
        checks the port: frames of the configured length, in departure
        order, and the sum of the queue rates within 1% of the sum of the
        profiles. One capture of WINDOW seconds (timestamps in device
        time, exact to one frame: the window is for the machine's stalls,
        as in check_rates); out of tolerance fails, with the evidence."""
        want = sum(RATES.values())
        path = self.ctx.scratch_file("tm_rates.pcap")
        self.shaped(devargs={"pcap": path})
        lag0 = measure.lag(self)
        self.start_txonly(nb_queues=len(RATES))
        self.pmd.wait_for_idle(WINDOW)
        self.stop_fwd()
        lag1 = measure.lag(self)
        self.close_all()
        records = measure.read_pcap(path)
        self.verify(len(records) > 1000, "only %d packets captured"
                    % len(records))
        lengths = {r.length for r in records}
        self.verify(lengths == {PKT_LEN}, "frame lengths %s on the "
                    "wire, expected %d" % (sorted(lengths)[:10], PKT_LEN))
        stamps = [r.t_ns for r in records]
        self.verify(stamps == sorted(stamps), "departures out of order")
        steady = self.steady(records)
        total, _, n = measure.pcap_rate(steady)
        self.verify(measure.within(total, want, TOLERANCE),
                    "wire rate %.0f bytes/s (%s) over %d frames departed "
                    "%d to %d ns (device time), profiles sum to %d "
                    "bytes/s; device model: %s"
                    % (total, measure.pct(total, want), n, steady[0].t_ns,
                       steady[-1].t_ns, want, measure.lag_text(lag0, lag1)))

    @staticmethod
    def steady(records):
        """The records while every queue was sending: txonly stops the
        queues one after the other, so the tail is cut where departures
        thin out (the last 10% of the span is left out)."""
        if len(records) < 10:
            return records
        t0, t1 = records[0].t_ns, records[-1].t_ns
        cut = t1 - (t1 - t0) // 10
        return [r for r in records if r.t_ns <= cut]

    def test_runtime_profile_change(self):
        """`set port tm node shaper profile` on a sending queue moves that
        queue only."""
        self.shaped()
        self.add_profile(9, 6250000)
        self.start_txonly(nb_queues=len(RATES))
        self.ok("set port tm node shaper profile 0 3 9")
        want = dict(RATES)
        want[3] = 6250000
        self.check_rates(want)
        self.stop_fwd()
        # The old profile is free again, the new one in use.
        self.ok("del port tm node shaper profile 0 4")
        self.refused("del port tm node shaper profile 0 9",
                     "SHAPER_PROFILE_ID", r"used by")

    def test_suspend_resume(self):
        self.shaped()
        self.start_txonly(nb_queues=len(RATES))
        self.ok("suspend port tm node 0 2")
        self.check_idle([2])
        others = {q: r for q, r in RATES.items() if q != 2}
        self.check_rates(others, warm_up=0)
        self.ok("resume port tm node 0 2")
        self.check_rates(RATES)
        self.stop_fwd()

    def test_packet_mode_rate(self):
        """A packet-mode profile (WQE-rate pacing) on cx6dx: packets/s."""
        self.launch("cx6dx", txq=2)
        self.ok("add port tm node shaper profile 0 1 0 0 5000 0 0 1")
        self.add_profile(2, 6250000)
        self.two_level([1, 2])
        self.commit()
        self.start_txonly(nb_queues=2)
        self.check_rates({0: 5000}, packets=True)
        self.check_rates({1: 6250000}, warm_up=0)
        self.stop_fwd()

    def test_burst_bound(self):
        """The bucket, seen on the wire of one queue that starts idle:
        its first frames leave back to back (line rate), as many as the
        bucket holds, then one every 1000 bytes / rate. The bucket is the
        profile's peak size, else the tx_burst_bound devarg, else the
        device default (one frame here)."""
        rate = 12500000                       # 100 Mbit/s: 80 us a frame
        interval = PKT_LEN * 1e9 / rate
        cases = ((None, 0, 1), (16000, 0, 16), (16000, 8000, 8))
        for bound, size, frames in cases:
            devargs = {}
            if bound is not None:
                devargs["tx_burst_bound"] = bound
            self.check_burst(devargs, "0 0 %d %d 0 0" % (rate, size),
                             frames, interval,
                             "tx_burst_bound=%s, peak size %d" % (bound, size))

    def test_packet_mode_bucket(self):
        """A packet-mode bucket counts packets: 12500 packets/s with a
        bucket of 8 packets (tx_typical_pkt_sz=1000 converts it for the
        device) sends 8 frames back to back, then one every 80 us."""
        self.check_burst({"tx_typical_pkt_sz": 1000}, "0 0 12500 8 0 1", 8,
                         80000.0, "packet mode, 8-packet bucket")

    def check_burst(self, devargs, shaper, frames, interval, what):
        """One queue shaped by `add port tm node shaper profile 0 1
        <shaper>` starts idle: its first @frames frames must leave back to
        back, the next ones @interval ns apart (median of 200 gaps within
        1%), as seen in the device model's capture."""
        path = self.ctx.scratch_file("burst.pcap")
        devargs = dict(devargs, pcap=path)
        self.launch("cx6dx", txq=1, devargs=devargs)
        self.ok("add port tm node shaper profile 0 1 %s" % shaper)
        self.two_level([1])
        self.commit()
        self.start_txonly()
        self.pmd.wait_for_idle(0.3)
        self.stop_fwd()
        self.close_all()
        recs = measure.read_pcap(path)
        self.verify(len(recs) > frames + 20, "%s: only %d frames captured"
                    % (what, len(recs)))
        gaps = [b.t_ns - a.t_ns for a, b in zip(recs, recs[1:])]
        burst = 1
        while burst <= len(gaps) and gaps[burst - 1] < interval / 10:
            burst += 1
        self.verify(burst == frames, "%s: %d frames back to back, expected "
                    "%d (first gaps %s ns)"
                    % (what, burst, frames, gaps[:min(burst, frames) + 2]))
        steady = sorted(gaps[frames:frames + 200])
        median = steady[len(steady) // 2]
        self.verify(measure.within(median, interval, TOLERANCE),
                    "%s: frames %d ns apart after the burst, expected %.0f"
                    % (what, median, interval))

    def test_error_recovery_keeps_rate(self):
        """An error completion (the device model's fault_wqe devarg: the
        50th WQE fails, early in the run: testpmd's bursts of 32 go out as
        one eMPW WQE each) puts one send queue in error; the PMD recovers
        it and the recovered queue keeps its pacing: both queues at their
        profiles afterwards."""
        rates = {0: 3125000, 1: 6250000}
        self.launch("cx6dx", txq=2, devargs={"fault_wqe": 50})
        for q, rate in rates.items():
            self.add_profile(q + 1, rate)
        self.two_level([1, 2])
        self.commit()
        self.start_txonly(nb_queues=2)
        self.pmd.wait_for_idle(1.0)
        xs = measure.xstats(self)
        errors = sum(xs.get("tx_q%d_error_cqes" % q, 0) for q in rates)
        recoveries = sum(xs.get("tx_q%d_recoveries" % q, 0) for q in rates)
        self.verify(errors == 1 and recoveries == 1,
                    "error CQEs %d, recoveries %d, expected 1 and 1"
                    % (errors, recoveries))
        self.check_rates(rates, source="wire", warm_up=0)
        self.check_rates(rates, warm_up=0)
        self.stop_fwd()

    def test_node_stats(self):
        """tm node statistics: a leaf counts its queue's frames (bytes =
        packets x 1000), a non-leaf node the sum of its leaves, and the
        clear flag restarts that node's counters (only) from 0."""
        self.launch("cx6dx", txq=2)
        self.add_profile(1, 3125000)
        self.add_profile(2, 6250000)
        self.ok("add port tm nonleaf node 0 1000 -1 0 1 0 -1 1 3 0")
        self.add_leaf(0, 1000, 1, 1)
        self.add_leaf(1, 1000, 1, 2)
        self.commit()
        self.start_txonly(nb_queues=2)
        self.pmd.wait_for_idle(1.0)
        self.stop_fwd()
        leaves = [measure.node_stats(self, q) for q in (0, 1)]
        root = measure.node_stats(self, 1000)
        for q, (pkts, byts) in enumerate(leaves):
            self.verify(pkts > 1000 and byts == pkts * PKT_LEN,
                        "queue %d: %d packets, %d bytes" % (q, pkts, byts))
        self.verify(root == (leaves[0][0] + leaves[1][0],
                             leaves[0][1] + leaves[1][1]),
                    "root %r is not the sum of its leaves %r"
                    % (root, leaves))
        self.verify(leaves[1][0] > leaves[0][0] * 1.5,
                    "queue 1 (50 Mbit/s) sent %d, queue 0 (25) %d"
                    % (leaves[1][0], leaves[0][0]))
        measure.node_stats(self, 0, clear=1)
        self.verify(measure.node_stats(self, 0) == (0, 0),
                    "queue 0 counters not cleared")
        self.verify(measure.node_stats(self, 1) == leaves[1],
                    "clearing queue 0 changed queue 1")
        self.verify(measure.node_stats(self, 1000) == root,
                    "clearing queue 0 changed the root's counters")
        measure.node_stats(self, 1000, clear=1)
        self.verify(measure.node_stats(self, 1000) == (0, 0),
                    "root counters not cleared")
        self.verify(measure.node_stats(self, 1) == leaves[1],
                    "clearing the root changed queue 1")
