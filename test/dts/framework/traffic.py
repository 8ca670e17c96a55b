# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""testpmd's txonly engine as the traffic source, and per-queue rate checks
against the shaper profiles."""

import re

from . import measure

PKT_LEN = 1000          # bytes per frame (set txpkts), as counted by the pacer
TOLERANCE = 0.01        # 1% of the profile's rate
WARM_UP = 0.5           # s after a change before measuring (bucket, ring)
# One measurement per check, over WINDOW seconds (see check_rates).
WINDOW = 4.0
# Share of the tolerance the timing of tm statistics reads may take.
TIMING_SHARE = 0.25


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
        when @packets}) once over @window seconds, from tm node statistics
        (@source "tm", each read timed in wall time) or from the device
        model's per-queue wire xstats ("wire", departure times in device
        time); each must be within @tolerance. Returns the measured rates.

        One measurement, never taken again: a rate out of tolerance fails
        the case, with the evidence (counters, the window and its timing,
        how often each ring was full, the device model's lag over it). The window is long enough for the
        tolerance: the wire figures are exact to one frame (12,500 frames
        or more in 4 s at these rates: 0.01%); tm statistics reads are
        timed to half their command round trip at each end, and the window
        goes on until that uncertainty is under a quarter of the tolerance
        (40 ms in 4 s for 1%, against round trips of a few ms). The device
        model runs in real time: a stall of the machine that delays its
        doorbells or completions lowers a rate by the stall's share of the
        window, and 4 s keeps a stall of 10 ms to a quarter of the
        tolerance (2 s, before, allowed half)."""
        if warm_up:
            self.pmd.wait_for_idle(warm_up)
        evidence = []
        xs0 = measure.xstats(self)
        if source == "tm":
            rates = measure.stats_rates(self, sorted(expected), window,
                                        timing=tolerance * TIMING_SHARE,
                                        evidence=evidence)
        else:
            rates = measure.wire_rates(self, sorted(expected), window,
                                       evidence=evidence)
        xs1 = measure.xstats(self)
        got = {q: rates[q][1 if packets else 0] for q in expected}
        bad = ["queue %d: %.0f %s/s, profile %.0f (%s)"
               % (q, got[q], "packets" if packets else "bytes",
                  expected[q], measure.pct(got[q], expected[q]))
               for q in sorted(expected)
               if not measure.within(got[q], expected[q], tolerance)]
        self.verify(not bad, "rates (%s) off by more than %.1f%% in one "
                    "measurement of %.1f s: %s; evidence: %s; Tx ring "
                    "full (times): %s; device model: %s"
                    % (source, tolerance * 100, window, " | ".join(bad),
                       " | ".join(evidence),
                       measure.ring_full_text(xs0, xs1, sorted(expected)),
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
