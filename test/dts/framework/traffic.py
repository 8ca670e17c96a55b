# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""testpmd's txonly engine as the traffic source, and per-queue rate checks
against the shaper profiles."""

import re

from . import measure

PKT_LEN = 1000          # bytes per frame (set txpkts), as counted by the pacer
TOLERANCE = 0.01        # 1% of the profile's rate
WARM_UP = 0.5           # s after a change before measuring (bucket, ring)
# One measurement per check, over WINDOW seconds of device time (see
# check_rates).
WINDOW = 4.0


class TrafficMixin:
    """For TestCase subclasses that send with txonly."""

    def start_txonly(self, pkt_len=PKT_LEN, nb_queues=None):
        self.ok("set fwd txonly")
        self.ok("set txpkts %d" % pkt_len)
        out = self.send("start")
        self.verify("txonly packet forwarding" in out,
                    "forwarding did not start: %r" % out.strip())
        if nb_queues is not None:
            m = re.search(r"streams=(\d+)", out)
            self.verify(m is not None and int(m.group(1)) >= nb_queues,
                        "txonly drives %s streams, %d queues needed"
                        % (m.group(1) if m else "?", nb_queues))
        return out

    def stop_fwd(self):
        return self.send("stop")

    def check_rates(self, expected, window=WINDOW, warm_up=WARM_UP,
                    packets=False, tolerance=TOLERANCE, source="tm"):
        """Measure the queues of @expected ({queue: bytes/s, or packets/s
        when @packets}) once over @window seconds of device time, from
        the device model's per-queue wire figures (bytes, frames, the
        departure time of the last frame: measure.device_rates); each
        must be within @tolerance. With @source "tm" the queues' tm node
        statistics must also have counted what the wire saw (within a
        ring: they count frames when posted). Returns the measured rates.

        One measurement, never taken again: a rate out of tolerance fails
        the case, with the evidence (counters, device time, how often
        each ring was full, the device model's lag). On device time the
        figures are exact to one frame (12,500 frames or more in 4 s at
        these rates: 0.01%), whatever the machine's load: a slow machine
        makes the measurement last longer. Intervals in which a queue ran
        dry (its sender did not keep its ring full) are left out: the
        rate then is the sender's, not the pacer's."""
        if warm_up:
            self.pmd.wait_for_idle(warm_up)
        evidence = []
        queues = sorted(expected)
        if source == "tm":
            start = measure.node_counts(self, queues)
            xs0 = start[2]
        else:
            xs0 = measure.xstats(self)
        rates, xs1 = measure.device_rates(self, queues, window,
                                          evidence=evidence, first=xs0)
        if source == "tm":
            end = measure.node_counts(self, queues)
            measure.check_node_counts(
                self, start, end,
                {q: measure.txq_ring(self, q) for q in queues})
        got = {q: rates[q][1 if packets else 0] for q in expected}
        bad = ["queue %d: %.0f %s/s, profile %.0f (%s)"
               % (q, got[q], "packets" if packets else "bytes",
                  expected[q], measure.pct(got[q], expected[q]))
               for q in queues
               if not measure.within(got[q], expected[q], tolerance)]
        self.verify(not bad, "rates off by more than %.1f%% in one "
                    "measurement of %.1f s of device time: %s; evidence: "
                    "%s; Tx ring full (times): %s; device model: %s"
                    % (tolerance * 100, window, " | ".join(bad),
                       " | ".join(evidence),
                       measure.ring_full_text(xs0, xs1, queues),
                       measure.lag_text(measure.lag_of(xs0),
                                        measure.lag_of(xs1))))
        return got

    def check_idle(self, queues, window=1.0, drain=WARM_UP):
        """The queues send nothing during @window (after @drain)."""
        if drain:
            self.pmd.wait_for_idle(drain)
        before = {q: measure.node_stats(self, q) for q in queues}
        self.pmd.wait_for_idle(window)
        after = {q: measure.node_stats(self, q) for q in queues}
        moved = ["queue %d sent %d packets" % (q, after[q][0] - before[q][0])
                 for q in queues if after[q][0] != before[q][0]]
        self.verify(not moved, "suspended queues sent: %s" % "; ".join(moved))
