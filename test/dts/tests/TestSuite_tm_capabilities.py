# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""What `show port tm cap`, `show port tm level cap` and `show port tm node
cap` announce agrees with what the port then accepts and refuses.
Plan: doc/test_plans/tm_capabilities_test_plan.rst."""

from framework.test_case import TestCase, nonleaf_cmd

PROFILES = ("cx5", "cx6dx", "cx7")
# Profiles with the NIC scheduling hierarchy: weights, non-leaf shapers,
# committed rates (dual rate) on every node.
SCHED = ("cx6dx", "cx7")
# Weights are bw_share values: 1..max_tsar_bw_share, 100 on cx6dx and cx7.
WEIGHT_MAX = 100
TXQ = 4
BYTES_PER_KBPS = 125


class TestTmCapabilities(TestCase):
    suite_name = "tm_capabilities"

    def each_profile(self, fn, profiles=PROFILES, **kw):
        for prof in profiles:
            self.launch(prof, txq=TXQ, **kw)
            try:
                fn(prof, self.port_cap())
            finally:
                self.close_all()

    def test_port_capabilities(self):
        def check(prof, c):
            def eq(key, val):
                self.verify(c.get(key) == val, "%s: %s is %r, expected %r"
                            % (prof, key, c.get(key), val))
            self.verify(c["cap.n_levels_max"] >= 2,
                        "%s: fewer than 2 levels" % prof)
            self.verify(c["cap.shaper_private_n_max"] >= TXQ,
                        "%s: %d private shapers for %d queues"
                        % (prof, c["cap.shaper_private_n_max"], TXQ))
            self.verify(c["cap.n_nodes_max"] > TXQ,
                        "%s: n_nodes_max %d leaves no room for a root"
                        % (prof, c["cap.n_nodes_max"]))
            lo = c["cap.shaper_private_rate_min"]
            hi = c["cap.shaper_private_rate_max"]
            self.verify(0 < lo <= hi, "%s: rate range %d..%d" % (prof, lo, hi))
            # The device counts kbps and rounds a rate down to a whole kbps:
            # the minimum is a whole kbps, the maximum anything that rounds
            # down to the device maximum.
            self.verify(lo % BYTES_PER_KBPS == 0,
                        "%s: minimum rate %d not a whole kbps" % (prof, lo))
            eq("cap.shaper_private_dual_rate_n_max",
               c["cap.shaper_private_n_max"] if prof in SCHED else 0)
            eq("cap.shaper_shared_n_max", 0)
            eq("cap.sched_sp_n_priorities_max", 1)
            eq("cap.sched_wfq_weight_max", WEIGHT_MAX if prof in SCHED else 1)
            eq("cap.cman_wred_context_n_max", 0)
            eq("cap.shaper_pkt_length_adjust_min", 0)
            eq("cap.shaper_pkt_length_adjust_max", 0)
            self.verify(c["cap.stats_mask"] & 3 == 3,
                        "%s: stats_mask %x lacks packets/bytes"
                        % (prof, c["cap.stats_mask"]))
        self.each_profile(check)

    def test_rate_bounds_enforced(self):
        def check(prof, c):
            lo = c["cap.shaper_private_rate_min"]
            hi = c["cap.shaper_private_rate_max"]
            self.add_profile(1, hi)
            self.refused("add port tm node shaper profile 0 2 0 0 %d 0 0 0"
                         % (hi + 1), "SHAPER_PROFILE_PEAK_RATE",
                         r"above the device maximum")
            self.add_profile(3, lo)
            self.refused("add port tm node shaper profile 0 4 0 0 %d 0 0 0"
                         % (lo - 1), "SHAPER_PROFILE_PEAK_RATE",
                         r"below the device minimum|rounds down to 0")
            # The extremes are usable by a leaf, not only as profiles.
            self.add_root()
            self.add_leaf(0, 1000, 1, 1)
            self.add_leaf(1, 1000, 1, 3)
            self.commit()
        self.each_profile(check)

    def test_level_capabilities(self):
        def check(prof, c):
            n = c["cap.n_levels_max"]
            leaf_levels = 0
            for lvl in range(n):
                lc = self.level_cap(lvl)
                self.verify(lc["cap.n_nodes_max"] >= 1,
                            "%s: level %d holds no node" % (prof, lvl))
                if lvl == 0:
                    self.verify(lc["cap.n_nodes_nonleaf_max"] == 1 and
                                lc["cap.n_nodes_leaf_max"] == 0,
                                "%s: level 0 is not a single root: %r"
                                % (prof, lc))
                if lc["cap.n_nodes_leaf_max"] > 0:
                    leaf_levels += 1
                    self.verify(lc["cap.n_nodes_leaf_max"] >= TXQ,
                                "%s: level %d holds %d leaves < %d queues"
                                % (prof, lvl, lc["cap.n_nodes_leaf_max"], TXQ))
                if lc["cap.n_nodes_leaf_max"] > 0:
                    # A level that holds leaves describes them (the union's
                    # leaf half, which testpmd prints under the nonleaf
                    # names for level ids up to 3): the queue's shaper.
                    key = "cap.nonleaf.shaper_private_%s" if lvl <= 3 else \
                        "cap.leaf.shaper_private_%s"
                    self.verify(lc[key % "supported"] == 1,
                                "%s: leaf level %d without shaper"
                                % (prof, lvl))
                    self.verify(lc[key % "rate_max"] ==
                                c["cap.shaper_private_rate_max"] and
                                lc[key % "rate_min"] ==
                                c["cap.shaper_private_rate_min"],
                                "%s: level %d rate range differs from port"
                                % (prof, lvl))
                if lc["cap.n_nodes_leaf_max"] == 0:
                    self.verify(lc.get("cap.nonleaf.shaper_private_supported")
                                == (prof in SCHED), "%s: non-leaf level %d "
                                "shaper announced: %r" % (prof, lvl, lc.get(
                                    "cap.nonleaf.shaper_private_supported")))
            self.verify(leaf_levels >= 1, "%s: no level holds leaves" % prof)
            self.refused("show port tm level cap 0 %d" % n, "LEVEL_ID")
        self.each_profile(check)

    def test_node_capabilities(self):
        def check(prof, c):
            self.add_profile(1, 12500000)
            self.add_root()
            # Non-leaf nodes take a shaper where they announce one (below).
            cmd = nonleaf_cmd(2000, 1000, 1, 1)
            if prof in SCHED:
                self.ok(cmd)
                self.add_leaf(0, 2000, 2, 1)
            else:
                self.refused(cmd, "NODE_PARAMS_SHAPER_PROFILE_ID",
                             r"no NIC scheduling hierarchy")
                self.add_leaf(0, 1000, 1, 1)
            leaf = self.node_cap(0)
            self.verify(leaf["cap.shaper_private_supported"] == 1,
                        "%s: leaf without private shaper" % prof)
            self.verify(leaf["cap.shaper_private_dual_rate_supported"] ==
                        (prof in SCHED), "%s: leaf dual rate %r" % (prof,
                        leaf["cap.shaper_private_dual_rate_supported"]))
            self.verify(leaf["cap.shaper_private_rate_max"] ==
                        c["cap.shaper_private_rate_max"] and
                        leaf["cap.shaper_private_rate_min"] ==
                        c["cap.shaper_private_rate_min"],
                        "%s: leaf rate range differs from port" % prof)
            self.verify(leaf["cap.shaper_private_byte_mode_supported"] == 1,
                        "%s: leaf without byte mode" % prof)
            self.verify(leaf["cap.shaper_shared_n_max"] == 0,
                        "%s: leaf shared shapers announced" % prof)
            self.verify(leaf.get("cap.leaf.cman_wred_context_private_supported")
                        == 0, "%s: leaf WRED announced" % prof)
            root = self.node_cap(1000)
            self.verify(root["cap.shaper_private_supported"] ==
                        (prof in SCHED), "%s: root shaper %r" % (prof,
                        root["cap.shaper_private_supported"]))
            self.verify(root["cap.nonleaf.sched_sp_n_priorities_max"] == 1,
                        "%s: root priorities %d" % (prof, root[
                            "cap.nonleaf.sched_sp_n_priorities_max"]))
            self.verify(root["cap.nonleaf.sched_wfq_weight_max"] ==
                        (WEIGHT_MAX if prof in SCHED else 1),
                        "%s: root WFQ weight max %r" % (prof, root[
                            "cap.nonleaf.sched_wfq_weight_max"]))
            self.refused("show port tm node cap 0 77", "NODE_ID")
        self.each_profile(check)

    def test_packet_mode_per_profile(self):
        """Packet mode (WQE-rate pacing) is announced exactly where it is
        accepted: not on cx5, on cx6dx."""
        seen = {}

        def check(prof, c):
            self.add_profile(1, 12500000)
            self.add_root()
            self.add_leaf(0, 1000, 1, 1)
            pm = self.node_cap(0)["cap.shaper_private_packet_mode_supported"]
            seen[prof] = pm
            cmd = "add port tm node shaper profile 0 2 0 0 10000 0 0 1"
            if pm:
                self.ok(cmd)
                self.add_leaf(1, 1000, 1, 2)
                self.commit()
            else:
                self.refused(cmd, "SHAPER_PROFILE_PACKET_MODE",
                             r"packet mode|WQE-rate")
        self.each_profile(check, ("cx5", "cx6dx"))
        self.verify(seen == {"cx5": 0, "cx6dx": 1},
                    "packet mode announced: %r, expected cx5 0 / cx6dx 1"
                    % seen)

    def test_capability_overrides(self):
        """cap_* devargs change what is announced, and the announcement
        still matches the behaviour."""
        self.launch("cx6dx", txq=TXQ,
                    devargs={"cap_pp_max_rate": 800000,
                             "cap_pp_min_rate": 2000,
                             "cap_wqe_rate_pp": 0})
        c = self.port_cap()
        lo = c["cap.shaper_private_rate_min"]
        hi = c["cap.shaper_private_rate_max"]
        # Rates round down to a whole kbps: the maximum is the highest
        # byte rate that rounds down to 800000 kbps.
        self.verify(lo == 2000 * BYTES_PER_KBPS and
                    hi // BYTES_PER_KBPS == 800000,
                    "rate range %d..%d, expected %d..%d(+124)"
                    % (lo, hi, 2000 * BYTES_PER_KBPS,
                       800000 * BYTES_PER_KBPS))
        self.add_profile(1, hi)
        self.refused("add port tm node shaper profile 0 2 0 0 %d 0 0 0"
                     % (hi + 1), "SHAPER_PROFILE_PEAK_RATE")
        self.refused("add port tm node shaper profile 0 3 0 0 %d 0 0 0"
                     % (1999 * BYTES_PER_KBPS), "SHAPER_PROFILE_PEAK_RATE")
        self.add_root()
        self.add_leaf(0, 1000, 1, 1)
        self.verify(self.node_cap(0)[
            "cap.shaper_private_packet_mode_supported"] == 0,
            "packet mode announced with cap_wqe_rate_pp=0")
        self.refused("add port tm node shaper profile 0 4 0 0 1000 0 0 1",
                     "SHAPER_PROFILE_PACKET_MODE")
