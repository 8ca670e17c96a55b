# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""testpmd's txonly engine as the traffic source, and per-queue rate checks
against the shaper profiles."""

import re

from . import measure

PKT_LEN = 1000          # bytes per frame (set txpkts), as counted by the pacer
TOLERANCE = 0.01        # 1% of the profile's rate
WARM_UP = 0.5           # s after a change before measuring (bucket, ring)
WINDOW = 2.0            # s of wall time per measurement
ATTEMPTS = 3            # measurements before a rate check fails
LAGGED_ATTEMPTS = 3     # more while the device model reports lag
LAG_LIMIT_NS = 5000000  # model lateness that makes a measurement suspect


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
                    packets=False, tolerance=TOLERANCE, source="tm",
                    attempts=ATTEMPTS):
        """Measure the queues of @expected ({queue: bytes/s, or packets/s
        when @packets}) over @window seconds, from tm node statistics
        (@source "tm", wall time) or from the device model's per-queue
        wire xstats ("wire", departure times); each must be within
        @tolerance. Returns the measured rates.

        The device model runs in real time: when the machine starves it
        (it reports its lag), completions come late, queues run dry and
        rates read low. A measurement out of tolerance is taken again, up
        to @attempts times, and up to LAGGED_ATTEMPTS more while the model
        reports lag; one measurement with every queue in tolerance passes
        (a pacer at a wrong rate fails them all)."""
        if warm_up:
            self.pmd.wait_for_idle(warm_up)
        tries = []
        clean = lagged = 0
        while clean < attempts and lagged < LAGGED_ATTEMPTS:
            lag0 = measure.lag(self)
            if source == "tm":
                rates = measure.stats_rates(self, sorted(expected), window)
            else:
                rates = measure.wire_rates(self, sorted(expected), window)
            lag1 = measure.lag(self)
            got = {q: rates[q][1 if packets else 0] for q in expected}
            bad = ["queue %d: %.0f %s/s, profile %.0f (%s)"
                   % (q, got[q], "packets" if packets else "bytes",
                      expected[q], measure.pct(got[q], expected[q]))
                   for q in sorted(expected)
                   if not measure.within(got[q], expected[q], tolerance)]
            if not bad:
                if tries:
                    self.note("rates (%s) within tolerance after %d "
                              "measurement(s) out: %s" % (source, len(tries),
                                                          " | ".join(tries)))
                return got
            late = measure.lagged(lag0, lag1, LAG_LIMIT_NS)
            tries.append("%s%s" % ("[model lagged, max %.1f ms] "
                                   % (lag1.get("emu_max_lag_ns", 0) / 1e6)
                                   if late else "", "; ".join(bad)))
            if late:
                lagged += 1
            else:
                clean += 1
        self.verify(False, "rates (%s) off by more than %.1f%% in %d "
                    "measurement(s)%s: %s"
                    % (source, tolerance * 100, len(tries),
                       "" if clean else " (all while the device model "
                       "lagged: the machine is too busy to measure)",
                       " | ".join(tries)))
        return None

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
