# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Hierarchies: 2-level (root + queues), the 3-level script of DTS's ice
packet-pacing plan unchanged, and every request the device cannot honour
refused with a precise error. Plan: doc/test_plans/tm_hierarchy_test_plan.rst."""

from framework.test_case import TestCase, leaf_cmd, nonleaf_cmd

# DTS test_plans/ice_iavf_packet_pacing_test_plan.rst, test case 6 ("Multi
# queues with different rate limit"), step 2, as written there.
DTS_ICE_SCRIPT = """\
port stop all
add port tm node shaper profile 0 1 1000000 0 10000000 0 0 0
add port tm node shaper profile 0 2 1000000 0 20000000 0 0 0
add port tm node shaper profile 0 3 1000000 0 30000000 0 0 0
add port tm node shaper profile 0 4 1000000 0 40000000 0 0 0
add port tm node shaper profile 0 5 1000000 0 50000000 0 0 0
add port tm node shaper profile 0 6 1000000 0 60000000 0 0 0
add port tm node shaper profile 0 7 1000000 0 70000000 0 0 0
add port tm node shaper profile 0 8 1000000 0 80000000 0 0 0
add port tm nonleaf node 0 1000 -1 0 1 0 -1 1 0 0
add port tm nonleaf node 0 900 1000 0 1 1 -1 1 0 0
add port tm leaf node 0 0 900 0 1 2 1 0 0xffffffff 0 0
add port tm leaf node 0 1 900 0 1 2 2 0 0xffffffff 0 0
add port tm leaf node 0 2 900 0 1 2 3 0 0xffffffff 0 0
add port tm leaf node 0 3 900 0 1 2 4 0 0xffffffff 0 0
add port tm leaf node 0 4 900 0 1 2 5 0 0xffffffff 0 0
add port tm leaf node 0 5 900 0 1 2 6 0 0xffffffff 0 0
add port tm leaf node 0 6 900 0 1 2 7 0 0xffffffff 0 0
add port tm leaf node 0 7 900 0 1 2 8 0 0xffffffff 0 0
port tm hierarchy commit 0 no
port start all"""

# The same with committed rate 0, as doc/guides/rte_tm.rst gives it for a
# device without the NIC scheduling hierarchy, which refuses a committed
# rate.
ICE_SCRIPT = DTS_ICE_SCRIPT.replace(" 1000000 0 ", " 0 0 ")


class TestTmHierarchy(TestCase):
    suite_name = "tm_hierarchy"

    def node_type(self, node):
        out = self.send("show port tm node type 0 %d" % node)
        if "nonleaf node" in out:
            return "nonleaf"
        if "leaf node" in out:
            return "leaf"
        return out.strip()

    def test_two_level(self):
        self.launch("cx6dx", txq=4)
        for pid, rate in ((1, 6250000), (2, 12500000)):
            self.add_profile(pid, rate)
        self.two_level([1, 2, 1, 2])
        self.verify(self.node_type(1000) == "nonleaf", "root type")
        for q in range(4):
            self.verify(self.node_type(q) == "leaf", "queue %d type" % q)
        self.commit()

    def test_three_level_pass_through(self):
        """Root, one pass-through level, queues: the same as two levels."""
        self.launch("cx6dx", txq=4)
        self.add_profile(1, 12500000)
        self.add_root()
        self.add_nonleaf(900, 1000, 1)
        self.add_nonleaf(901, 1000, 1)
        for q in range(4):
            self.add_leaf(q, 900 if q < 2 else 901, 2, 1)
        self.verify(self.node_type(900) == "nonleaf", "node 900 type")
        self.commit()

    def test_ice_three_level_script(self):
        """DTS's ice packet-pacing script on 8 queues, unchanged apart from
        the committed rate of its profiles (0, see the next case)."""
        self.launch("cx6dx", txq=8)
        for line in ICE_SCRIPT.split("\n"):
            self.ok(line)
        for q in range(8):
            self.verify(self.node_type(q) == "leaf", "queue %d type" % q)
        self.verify(self.node_type(900) == "nonleaf", "node 900 type")
        self.verify(self.node_type(1000) == "nonleaf", "node 1000 type")
        # Committed: the profiles are in use by the queues.
        self.refused("del port tm node shaper profile 0 8",
                     "SHAPER_PROFILE_ID", r"used by 1 node")

    def test_ice_script_committed_rate_refused(self):
        """On a device without the NIC scheduling hierarchy (cx5) the
        script's profiles as DTS writes them (committed rate 1000000
        bytes/s) are refused with COMMITTED_RATE and a reason, and leave
        nothing behind."""
        self.launch("cx5", txq=8)
        profiles = [line for line in DTS_ICE_SCRIPT.split("\n")
                    if "shaper profile" in line]
        self.verify(len(profiles) == 8, "script has %d profiles"
                    % len(profiles))
        for line in profiles:
            self.refused(line, "SHAPER_PROFILE_COMMITTED_RATE",
                         r"single-rate.*peak rate")
        for line in profiles:
            self.ok(line.replace(" 1000000 0 ", " 0 0 "))

    def test_nonleaf_shaper_refused(self):
        self.launch("cx5", txq=4)
        self.add_profile(1, 12500000)
        self.refused(nonleaf_cmd(1000, -1, 0, 1),
                     "NODE_PARAMS_SHAPER_PROFILE_ID",
                     r"no NIC scheduling hierarchy")
        self.add_root()
        self.refused(nonleaf_cmd(900, 1000, 1, 1),
                     "NODE_PARAMS_SHAPER_PROFILE_ID",
                     r"no NIC scheduling hierarchy")

    def test_weights_refused(self):
        self.launch("cx5", txq=4)
        self.add_profile(1, 12500000)
        self.add_root()
        self.refused(leaf_cmd(0, 1000, 1, 1, weight=2), "NODE_WEIGHT",
                     r"weight 2")
        self.refused(leaf_cmd(0, 1000, 1, 1, weight=0), "NODE_WEIGHT",
                     r"weight 0")
        self.add_leaf(0, 1000, 1, 1)

    def test_priorities_refused(self):
        self.launch("cx6dx", txq=4)
        self.add_profile(1, 12500000)
        self.refused("add port tm nonleaf node 0 1000 -1 0 1 0 -1 2 0 0",
                     "NODE_PARAMS_N_SP_PRIORITIES", r"priorit")
        self.add_root()
        self.refused(leaf_cmd(0, 1000, 1, 1, priority=1), "NODE_PRIORITY",
                     r"priority 1")

    def test_shared_shaper_refused(self):
        self.launch("cx6dx", txq=4)
        self.add_profile(1, 12500000)
        self.ok("port stop 0")
        self.refused("add port tm node shared shaper 0 1 1",
                     msg=r"shared shaper")
        self.add_root()
        self.refused("add port tm leaf node 0 0 1000 0 1 1 1 0 0xffffffff "
                     "3 1 1", ["NODE_PARAMS_N_SHARED_SHAPERS",
                               "NODE_PARAMS_SHARED_SHAPER_ID"],
                     r"shared shaper")

    def test_wred_refused(self):
        self.launch("cx6dx", txq=4)
        self.add_profile(1, 12500000)
        self.refused("add port tm node wred profile 0 1 G 10 20 10 9 "
                     "Y 10 20 10 9 R 10 20 10 9", msg=r"WRED")
        self.add_root()
        self.refused("add port tm leaf node 0 0 1000 0 1 1 1 0 1 3 0",
                     "NODE_ID", r"Tx queue 0, hence a leaf.*WRED profile 1")
        self.refused("add port tm leaf node 0 0 1000 0 1 1 1 2 0xffffffff "
                     "3 0", "NODE_PARAMS_CMAN", r"congestion management")

    def test_stats_mask_refused(self):
        self.launch("cx6dx", txq=4)
        self.add_profile(1, 12500000)
        self.add_root()
        self.refused("add port tm leaf node 0 0 1000 0 1 1 1 0 0xffffffff "
                     "0x4 0", "NODE_PARAMS_STATS", r"statistics mask")
        # The counters the device has are fine.
        self.add_leaf(0, 1000, 1, 1, stats=3)

    def test_level_rules(self):
        self.launch("cx6dx", txq=4)
        self.add_profile(1, 12500000)
        self.refused(nonleaf_cmd(1000, -1, 1), "LEVEL_ID",
                     r"root is on level 0")
        self.add_root()
        self.refused(leaf_cmd(0, 1000, 2, 1), "LEVEL_ID",
                     r"parent 1000 is on level 0")
        self.add_nonleaf(900, 1000, 1)
        self.add_leaf(0, 900, 2, 1)
        # Leaves all on one level, below every non-leaf node.
        self.refused(leaf_cmd(1, 1000, 1, 1), "LEVEL_ID", r"one level")
        self.refused(nonleaf_cmd(800, 900, 2), "LEVEL_ID")
        self.add_leaf(1, 900, 2, 1)
        self.commit()

    def test_two_ports_independent(self):
        """Two net_mlx5_tm ports (cx6dx and cx5) keep separate profiles,
        hierarchies and capabilities."""
        self.launch("cx6dx", txq=2,
                    eal_args=("--vdev", "net_mlx5_tm1,emu=cx5"))
        self.ok("add port tm node shaper profile 0 1 0 0 10000 0 0 1")
        self.refused("add port tm node shaper profile 1 1 0 0 10000 0 0 1",
                     "SHAPER_PROFILE_PACKET_MODE")
        self.ok("add port tm node shaper profile 1 1 0 0 6250000 0 0 0")
        self.ok("add port tm node shaper profile 1 2 0 0 3125000 0 0 0")
        self.refused("del port tm node shaper profile 0 2",
                     "SHAPER_PROFILE_ID", r"does not exist")
        self.two_level([1, 1], port=0)
        self.two_level([1, 2], port=1, root=2000)
        self.commit(port=0)
        self.commit(port=1)
        self.refused("show port tm node type 0 2000", "NODE_ID")
        self.refused("show port tm node type 1 1000", "NODE_ID")
        self.refused("del port tm node shaper profile 1 2",
                     "SHAPER_PROFILE_ID", r"used by")

    def test_nonleaf_on_queue_id_refused(self):
        """A non-leaf node on a Tx queue's id is refused for its id, not
        for the WRED profile its parameters carry when read as a leaf's."""
        self.launch("cx6dx", txq=4)
        self.add_root()
        err = self.refused(nonleaf_cmd(2, 1000, 1), "NODE_ID", r"^node 2 is Tx queue 2, hence a leaf.*"
                           r"non-leaf node needs an id of 4 or more")
        self.verify("wred" not in err.type_text.lower(),
                    "refusal reported as a WRED error: %r" % err)
        self.add_nonleaf(4, 1000, 1)
