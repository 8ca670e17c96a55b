# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""The NIC scheduling hierarchy through testpmd's standard tm commands:
weights and a ceiling on a group of queues, committed rates, live weight
and parent changes, measured on device time from the device model's wire;
the refusals (priorities, committed rates above the ceiling, a ceiling
below 1 Mbit/s, a device without the hierarchy) with their messages.
Plan: doc/test_plans/tm_sched_test_plan.rst."""

import re

from framework import measure
from framework.test_case import TestCase, leaf_cmd, nonleaf_cmd
from framework.traffic import TrafficMixin

FRAME = 1500        # bytes per frame (set txpkts), as the arbiter counts
TOLERANCE = 0.02    # of each expected rate
WARM_UP = 1.0       # s after start or a change: buckets, deficits, rings
WINDOW = 4.0        # s of device time per measurement (one, no retry)
# Tx descriptors per queue: at 250 Mbit/s of 1500-byte frames 4096 hold
# 200 ms, so a sender or device model late by less never leaves a queue
# empty (an empty queue gives its share to its siblings: DWRR is
# work-conserving, so a starved sender would skew the split).
TXD = 4096
ROOT, GROUP, GROUP2 = 1000, 900, 901
MBIT = 125000       # bytes/s in one Mbit/s
# Leaves {queue: (group, weight, shaper profile)}: weights 1:2:5 in 900.
WEIGHTS_125 = {0: (GROUP, 1, -1), 1: (GROUP, 2, -1), 2: (GROUP, 5, -1)}


def bps(mbit):
    """Mbit/s -> bytes/s (the rte_tm unit)."""
    return int(mbit * MBIT)


def maxmin(total, kids):
    """The rule, written here apart from the driver: each child gets
    min(its own limit, its weighted max-min share of @total). @kids is
    [(weight, limit or None)]; returns the rates, in @kids' order. The
    children at their limit below the current level keep it, the others
    divide what is left by weight, until no limit is below its share."""
    got = [None] * len(kids)
    left = total
    while True:
        free = [i for i in range(len(kids)) if got[i] is None]
        wsum = sum(kids[i][0] for i in free)
        if not free or wsum == 0:
            return got
        level = left / wsum
        capped = [i for i in free if kids[i][1] is not None and
                  kids[i][1] <= level * kids[i][0]]
        if not capped:
            for i in free:
                got[i] = level * kids[i][0]
            return got
        for i in capped:
            got[i] = kids[i][1]
            left -= kids[i][1]


class TestTmSched(TrafficMixin, TestCase):
    suite_name = "tm_sched"

    # Set-up helpers ------------------------------------------------------
    def launch_hier(self, txq, profile="cx6dx", devargs=None):
        """testpmd on @profile; the case fails here, saying why, when the
        PMD does not offer the NIC hierarchy (weights and non-leaf
        shapers) on a device whose profile has it."""
        self.launch(profile, txq=txq, devargs=devargs,
                    app_args=("--txd=%d" % TXD,))
        weight_max = self.port_cap().get("cap.sched_wfq_weight_max", 0)
        self.verify(weight_max > 1,
                    "NEEDS THE NIC HIERARCHY (issue 12): this PMD build "
                    "offers no weights on %s (show port tm cap: "
                    "sched_wfq_weight_max %s); the case checked nothing"
                    % (profile, weight_max))

    def run_groups(self, ceiling, leaves, groups=(GROUP,), profiles=None):
        """testpmd on a cx6dx with the hierarchy (launch_hier), a Tx queue
        per leaf: profile 1 at @ceiling Mbit/s, then @profiles {id: (peak,
        committed) Mbit/s}; root 1000, @groups on level 1 with profile 1,
        @leaves {queue: (group, weight, profile or -1)} on level 2;
        committed, and every queue sending."""
        self.launch_hier(txq=len(leaves))
        self.add_profile(1, bps(ceiling))
        for pid, (peak, committed) in sorted((profiles or {}).items()):
            self.add_profile(pid, bps(peak), cmit_rate=bps(committed))
        self.add_root(ROOT)
        for node in groups:
            self.add_nonleaf(node, ROOT, 1, profile=1)
        for q, (parent, weight, prof) in sorted(leaves.items()):
            self.add_leaf(q, parent, 2, prof, weight=weight)
        self.commit()
        self.start_txonly(pkt_len=FRAME, nb_queues=len(leaves))

    # Measuring -----------------------------------------------------------
    def expect_rates(self, want, groups=None, what=""):
        """One measurement of WINDOW seconds of device time from the
        device's wire, every queue backlogged throughout
        (measure.device_rates: intervals in which a queue ran dry are
        left out, for an empty queue gives its share to its siblings):
        every queue of @want {queue: Mbit/s} within TOLERANCE, and each
        group of @groups {name: (Mbit/s, [queues])} as the sum of its
        queues. No retry: on failure the evidence (every figure, and the
        device model's lag) is the reason."""
        self.pmd.wait_for_idle(WARM_UP)
        evidence = []
        first = measure.xstats(self)
        rates, last = measure.device_rates(self, sorted(want), WINDOW,
                                           evidence=evidence, first=first)
        lag0, lag1 = measure.lag_of(first), measure.lag_of(last)
        got = {q: rates[q][0] / MBIT for q in want}
        rows, bad = [], []
        for q in sorted(want):
            ok = measure.within(got[q], want[q], TOLERANCE)
            # Sends that met a full ring: none while a queue fell short
            # means its sender, not the device, starved it.
            full = "tx_q%d_ring_full" % q
            rows.append("queue %d %.2f Mbit/s, expected %.2f (%s)%s%s"
                        % (q, got[q], want[q], measure.pct(got[q], want[q]),
                           "" if ok else " OUT",
                           ", ring full %d times" % (last[full] - first[full])
                           if full in last and full in first else ""))
            if not ok:
                bad.append(q)
        for name, (mbit, queues) in sorted((groups or {}).items()):
            total = sum(got[q] for q in queues)
            ok = measure.within(total, mbit, TOLERANCE)
            rows.append("%s %.2f Mbit/s, expected %.2f (%s)%s"
                        % (name, total, mbit, measure.pct(total, mbit),
                           "" if ok else " OUT"))
            if not ok:
                bad.append(name)
        self.verify(not bad, "%s%s rates over %.0f s of device time, "
                    "tolerance %.0f%%: %s; evidence: %s; device model: %s"
                    % (what, " " if what else "", WINDOW, TOLERANCE * 100,
                       "; ".join(rows), " | ".join(evidence),
                       measure.lag_text(lag0, lag1)))
        return got

    def refused_in(self, cmds, etypes, msg):
        """Send @cmds (tm set-up commands, then a commit): exactly one of
        them (the first refused) must be refused with a type of @etypes
        and a message matching @msg; the ones after it are not sent."""
        for cmd in cmds:
            err = self.tm_error(cmd)
            if err is None:
                continue
            self.verify(err.name in etypes, "%r refused with %r, expected "
                        "type %s" % (cmd, err, "/".join(etypes)))
            self.verify(re.search(msg, err.message, re.I) is not None,
                        "%r refused with message %r, expected /%s/"
                        % (cmd, err.message, msg))
            self.verify(self.pmd.alive(), "testpmd died after %r" % cmd)
            return err
        self.verify(False, "nothing refused in: %s" % " | ".join(cmds))
        return None

    # Cases ---------------------------------------------------------------
    def test_weights_under_group_ceiling(self):
        """Three backlogged queues of weights 1:2:5 under a 400 Mbit/s
        group: 50, 100 and 250 Mbit/s, the group at its ceiling."""
        self.run_groups(400, WEIGHTS_125)
        self.expect_rates({0: 50, 1: 100, 2: 250},
                          {"group 900": (400, [0, 1, 2])})
        self.stop_fwd()

    def test_nonleaf_ceiling_and_surplus(self):
        """A 300 Mbit/s group over a queue paced at 50 Mbit/s and two
        unshaped ones of equal weight: the capped queue's surplus goes to
        its siblings (50, 125, 125), the group holds its ceiling; then
        `set port tm node shaper profile` lowers the ceiling live to
        200 Mbit/s (50, 75, 75)."""
        self.run_groups(300, {0: (GROUP, 1, 2), 1: (GROUP, 1, -1),
                              2: (GROUP, 1, -1)},
                        profiles={2: (50, 0), 3: (200, 0)})
        self.expect_rates({0: 50, 1: 125, 2: 125},
                          {"group 900": (300, [0, 1, 2])}, "ceiling 300M:")
        self.ok("set port tm node shaper profile 0 %d 3" % GROUP)
        self.expect_rates({0: 50, 1: 75, 2: 75},
                          {"group 900": (200, [0, 1, 2])}, "ceiling 200M:")
        self.stop_fwd()

    def test_committed_rates(self):
        """Two queues with committed rates 200 and 50 Mbit/s (peak 300)
        under a 300 Mbit/s group: each gets its committed rate plus half
        of the 50 Mbit/s left (225 and 75)."""
        self.run_groups(300, {0: (GROUP, 1, 2), 1: (GROUP, 1, 3)},
                        profiles={2: (300, 200), 3: (300, 50)})
        self.expect_rates({0: 225, 1: 75}, {"group 900": (300, [0, 1])})
        self.stop_fwd()

    def test_live_weight_change(self):
        """1:2:5 under 400 Mbit/s, then `set port tm node parent` gives
        queue 2 weight 1 (same parent) while it sends: 100, 200, 100."""
        self.run_groups(400, WEIGHTS_125)
        self.expect_rates({0: 50, 1: 100, 2: 250}, what="weights 1:2:5:")
        self.ok("set port tm node parent 0 2 %d 0 1" % GROUP)
        self.expect_rates({0: 100, 1: 200, 2: 100},
                          {"group 900": (400, [0, 1, 2])},
                          "weights 1:2:1:")
        self.stop_fwd()

    def test_live_parent_change(self):
        """Two 200 Mbit/s groups, queues 0 and 1 in 900, queue 2 in 901
        (100, 100, 200); `set port tm node parent` moves queue 1 to 901
        while it sends (200, 100, 100)."""
        self.run_groups(200, {0: (GROUP, 1, -1), 1: (GROUP, 1, -1),
                              2: (GROUP2, 1, -1)}, groups=(GROUP, GROUP2))
        self.expect_rates({0: 100, 1: 100, 2: 200}, what="before the move:")
        self.ok("set port tm node parent 0 1 %d 0 1" % GROUP2)
        self.expect_rates({0: 200, 1: 100, 2: 100},
                          {"group 900": (200, [0]),
                           "group 901": (200, [1, 2])}, "after the move:")
        self.stop_fwd()

    def test_capped_weighted_leaf(self):
        """Queues of weights 1:2:5 under a 400 Mbit/s group, queue 2 paced
        at 50 Mbit/s, below its 250 Mbit/s share: it gets its 50 and the
        others divide the other 350 by weight (116.67, 233.33); then
        `set port tm node shaper profile` paces it at 260 Mbit/s, above
        its share, where the cap no longer binds (50, 100, 250)."""
        leaves = {0: (GROUP, 1, -1), 1: (GROUP, 2, -1), 2: (GROUP, 5, 2)}
        self.run_groups(400, leaves, profiles={2: (50, 0), 3: (260, 0)})
        for cap, prof in ((50, 2), (260, 3)):
            if prof != 2:
                self.ok("set port tm node shaper profile 0 2 %d" % prof)
            want = maxmin(400, [(1, None), (2, None), (5, cap)])
            self.expect_rates(dict(enumerate(want)),
                              {"group 900": (400, [0, 1, 2])},
                              "queue 2 paced at %d Mbit/s:" % cap)
        self.stop_fwd()

    def test_capped_subgroup(self):
        """Four levels: group 900 at 400 Mbit/s over subgroups 901 (weight
        1, no ceiling; queue 0) and 902 (weight 3, ceiling 200 Mbit/s,
        below its 300 Mbit/s share; queues 1 and 2 of weights 1:2): 902
        at its ceiling (66.67, 133.33), 901 the other 200; then 902's
        ceiling goes to 310 Mbit/s live, above its share (100; 100, 200)."""
        sub1, sub2 = GROUP2, GROUP2 + 1
        self.launch_hier(txq=3)
        self.add_profile(1, bps(400))
        self.add_profile(2, bps(200))
        self.add_profile(3, bps(310))
        self.add_root(ROOT)
        self.add_nonleaf(GROUP, ROOT, 1, profile=1)
        self.add_nonleaf(sub1, GROUP, 2, weight=1)
        self.add_nonleaf(sub2, GROUP, 2, profile=2, weight=3)
        self.add_leaf(0, sub1, 3, -1)
        self.add_leaf(1, sub2, 3, -1, weight=1)
        self.add_leaf(2, sub2, 3, -1, weight=2)
        self.commit()
        self.start_txonly(pkt_len=FRAME, nb_queues=3)
        for ceiling, prof in ((200, 2), (310, 3)):
            if prof != 2:
                self.ok("set port tm node shaper profile 0 %d %d"
                        % (sub2, prof))
            g1, g2 = maxmin(400, [(1, None), (3, ceiling)])
            q1, q2 = maxmin(g2, [(1, None), (2, None)])
            self.expect_rates({0: g1, 1: q1, 2: q2},
                              {"subgroup %d" % sub1: (g1, [0]),
                               "subgroup %d" % sub2: (g2, [1, 2]),
                               "group 900": (400, [0, 1, 2])},
                              "subgroup %d at %d Mbit/s:" % (sub2, ceiling))
        self.stop_fwd()

    def test_priority_refused(self):
        """Siblings on two strict priorities: the NIC's TSARs are DWRR
        only, so the second priority is refused and says so."""
        self.launch_hier(txq=2)
        self.add_root(ROOT)
        self.add_nonleaf(GROUP, ROOT, 1)
        self.refused_in(
            [leaf_cmd(0, GROUP, 2), leaf_cmd(1, GROUP, 2, priority=1),
             "port tm hierarchy commit 0 no"],
            ["NODE_PRIORITY", "NODE_PARAMS_N_SP_PRIORITIES"],
            r"priorit")

    def test_committed_sum_refused(self):
        """Committed rates of 60 and 60 Mbit/s under a 100 Mbit/s ceiling
        cannot both be guaranteed: refused with the numbers."""
        self.launch_hier(txq=2)
        self.add_profile(1, bps(100))
        self.add_profile(2, bps(100), cmit_rate=bps(60))
        self.add_root(ROOT)
        self.refused_in(
            [nonleaf_cmd(GROUP, ROOT, 1, 1), leaf_cmd(0, GROUP, 2, 2),
             leaf_cmd(1, GROUP, 2, 2), "port tm hierarchy commit 0 no"],
            ["NODE_ID", "SHAPER_PROFILE_COMMITTED_RATE",
             "NODE_PARAMS_SHAPER_PROFILE_ID", "NODE_PARENT_NODE_ID"],
            r"committed.*120(\.0+)? Mbit/s.*100(\.0+)? Mbit/s")

    def test_ceiling_below_1mbit_refused(self):
        """A non-leaf ceiling of 800 kbit/s: scheduling elements hold
        ceilings in whole Mbit/s, so it is refused with the range. The
        device's packet pacing goes down to 100 kbit/s here
        (cap_pp_min_rate=100), so that the profile itself is valid."""
        self.launch_hier(txq=1, devargs={"cap_pp_min_rate": 100})
        self.add_profile(1, 100000)
        self.add_root(ROOT)
        self.refused_in(
            [nonleaf_cmd(GROUP, ROOT, 1, 1), leaf_cmd(0, GROUP, 2),
             "port tm hierarchy commit 0 no"],
            ["NODE_PARAMS_SHAPER_PROFILE_ID", "SHAPER_PROFILE_PEAK_RATE"],
            r"100000 bytes/s.*125000\.\.\d+ bytes/s.*1\.\.\d+ Mbit/s")

    def test_cx5_refuses_nonleaf_shaper(self):
        """cx5 has no NIC scheduling hierarchy: it says so in its
        capabilities (weights up to 1), and refuses a non-leaf shaper and a weight with a
        message naming the missing hierarchy; leaf-only shaping works."""
        self.launch("cx5", txq=2)
        cap = self.port_cap()
        self.verify(cap.get("cap.sched_wfq_weight_max") == 1,
                    "cx5 offers weights: %r" % cap)
        self.add_profile(1, bps(100))
        self.add_root(ROOT)
        self.refused(nonleaf_cmd(GROUP, ROOT, 1, 1),
                     "NODE_PARAMS_SHAPER_PROFILE_ID", r"scheduling hierarchy")
        self.add_nonleaf(GROUP, ROOT, 1)
        self.refused(leaf_cmd(0, GROUP, 2, 1, weight=2), "NODE_WEIGHT",
                     r"scheduling hierarchy")
        self.add_leaf(0, GROUP, 2, 1)
        self.add_leaf(1, GROUP, 2, 1)
        self.commit()
