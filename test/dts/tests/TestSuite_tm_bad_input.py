# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Bad input everywhere: out-of-range ids, unknown profiles and parents,
huge rates, zero sizes, repeated commits, deletes in the wrong order. Every
request is refused with a reason (or, where harmless, accepted), and
testpmd stays alive and usable. Plan: doc/test_plans/tm_bad_input_test_plan.rst."""

import re

from framework.exception import TestpmdStartError
from framework.test_case import TestCase, leaf_cmd, nonleaf_cmd

U32_MAX = 2 ** 32 - 1


class TestTmBadInput(TestCase):
    suite_name = "tm_bad_input"

    def set_up(self):
        self.launch("cx6dx", txq=4)
        self.add_profile(1, 12500000)

    def tear_down(self):
        if self.pmd is not None and self.pmd.alive():
            self.port_cap()

    def test_invalid_port(self):
        for cmd in ("show port tm cap 5",
                    "add port tm node shaper profile 5 2 0 0 12500000 0 0 0",
                    "port tm hierarchy commit 5 yes"):
            out = self.send(cmd)
            self.verify("Invalid port 5" in out or "invalid" in out.lower(),
                        "%r: %r" % (cmd, out.strip()))

    def test_leaf_id_not_a_queue(self):
        """Node ids from the number of queues up name non-leaf nodes (the
        rte_tm convention): on a device without the NIC scheduling
        hierarchy (cx5) a "leaf" 4 of a 4-queue port with a shaper is
        refused, either for its id or for a shaper on a non-leaf node (with
        the hierarchy it is a shaped non-leaf node)."""
        self.close_all()
        self.launch("cx5", txq=4)
        self.add_profile(1, 12500000)
        self.add_root()
        for node in (4, U32_MAX - 1):
            self.refused(leaf_cmd(node, 1000, 1, 1),
                         ["NODE_ID", "NODE_PARAMS_SHAPER_PROFILE_ID"],
                         r"queue")

    def test_nonleaf_id_is_a_queue(self):
        self.refused(nonleaf_cmd(2, -1, 0),
                     ["NODE_ID", "NODE_PARENT_NODE_ID"], r"queue|leaf")

    def test_reserved_node_id(self):
        self.refused(nonleaf_cmd(U32_MAX, -1, 0), "NODE_ID", r"reserved")

    def test_unknown_profile(self):
        self.add_root()
        self.refused(leaf_cmd(0, 1000, 1, 55), "NODE_PARAMS_SHAPER_PROFILE_ID",
                     r"does not exist")

    def test_unknown_parent(self):
        self.refused(leaf_cmd(0, 4242, 1, 1), "NODE_PARENT_NODE_ID",
                     r"does not exist")
        self.add_root()
        self.refused(nonleaf_cmd(900, 4242, 1), "NODE_PARENT_NODE_ID",
                     r"does not exist")

    def test_second_root_and_duplicate_node(self):
        self.add_root()
        self.refused(nonleaf_cmd(2000, -1, 0), "NODE_PARENT_NODE_ID",
                     r"root")
        self.refused(nonleaf_cmd(1000, -1, 0),
                     ["NODE_ID", "NODE_PARENT_NODE_ID"])
        self.add_leaf(0, 1000, 1, 1)
        self.refused(leaf_cmd(0, 1000, 1, 1), "NODE_ID", r"already exists")

    def test_leaf_under_leaf(self):
        self.add_root()
        self.add_leaf(0, 1000, 1, 1)
        self.refused(leaf_cmd(1, 0, 2, 1), "NODE_PARENT_NODE_ID", r"leaf")

    def test_huge_rate_zero_sizes(self):
        self.refused("add port tm node shaper profile 0 2 0 0 0 0 0 0",
                     "SHAPER_PROFILE_PEAK_RATE")
        self.refused("add port tm node shaper profile 0 3 0 0 %d 0 0 0"
                     % (2 ** 64 - 1), "SHAPER_PROFILE_PEAK_RATE")
        self.refused("add port tm node shaper profile 0 4 0 0 %d %d 0 0"
                     % (2 ** 64 - 1, 2 ** 64 - 1),
                     ["SHAPER_PROFILE_PEAK_RATE", "SHAPER_PROFILE_PEAK_SIZE"])

    def test_repeated_commit(self):
        """Committing the same hierarchy again and again is harmless and
        leaks no pacing entry (a 2-entry table holds the 2 rates every
        time)."""
        self.close_all()
        self.launch("cx6dx", txq=4, devargs={"cap_pp_table_size": 3})
        self.add_profile(1, 3125000)
        self.add_profile(2, 6250000)
        self.two_level([1, 2, 1, 2])
        for _ in range(5):
            self.commit()
        self.ok("port stop 0")
        self.commit()
        self.ok("port start 0")
        self.commit()

    def test_delete_wrong_order(self):
        self.ok("port stop 0")
        self.add_root()
        self.add_nonleaf(900, 1000, 1)
        self.add_leaf(0, 900, 2, 1)
        self.refused("del port tm node 0 1000", "NODE_ID", r"child")
        self.refused("del port tm node 0 900", "NODE_ID", r"child")
        self.ok("del port tm node 0 0")
        self.refused("del port tm node 0 1000", "NODE_ID", r"child")
        self.ok("del port tm node 0 900")
        self.ok("del port tm node 0 1000")
        self.refused("del port tm node 0 1000", "NODE_ID", r"does not exist")
        # The port is clean: a new hierarchy builds and commits.
        self.two_level([1, 1, 1, 1])
        self.commit()

    def test_unknown_node_queries(self):
        self.add_root()
        self.add_leaf(0, 1000, 1, 1)
        self.commit()
        for cmd in ("show port tm node stats 0 77 0",
                    "show port tm node type 0 77",
                    "show port tm node cap 0 77",
                    "suspend port tm node 0 77",
                    "resume port tm node 0 77",
                    "set port tm node shaper profile 0 77 1"):
            self.refused(cmd, "NODE_ID")

    def test_bad_runtime_updates(self):
        """Live updates: what the device cannot do is refused with its
        reason; on cx5 (no scheduling hierarchy) a root shaper and a
        weight too."""
        self.add_root()
        self.add_leaf(0, 1000, 1, 1)
        self.commit()
        self.refused("set port tm node shaper profile 0 0 99",
                     ["NODE_PARAMS_SHAPER_PROFILE_ID", "SHAPER_PROFILE_ID"],
                     r"does not exist")
        # With the NIC scheduling hierarchy (cx6dx) the root takes a
        # shaper and a leaf a weight; a priority stays refused.
        self.ok("set port tm node shaper profile 0 1000 1")
        self.ok("set port tm node parent 0 0 1000 0 2")
        self.refused("set port tm node parent 0 0 1000 1 1", "NODE_PRIORITY")
        self.refused("resume port tm node 0 0", "NODE_ID", r"not suspended")
        self.ok("suspend port tm node 0 0")
        self.refused("suspend port tm node 0 0", "NODE_ID",
                     r"already suspended")
        self.ok("resume port tm node 0 0")
        self.close_all()
        self.launch("cx5", txq=4)
        self.add_profile(1, 12500000)
        self.add_root()
        self.add_leaf(0, 1000, 1, 1)
        self.commit()
        self.refused("set port tm node shaper profile 0 1000 1",
                     "SHAPER_PROFILE_ID", r"no NIC scheduling hierarchy")
        self.refused("set port tm node parent 0 0 1000 0 2", "NODE_WEIGHT",
                     r"no NIC scheduling hierarchy")

    def probe_refused(self, args, msg):
        """testpmd on net_mlx5_tm0 with devargs @args does not start, the
        probe's message matching @msg; its transcript."""
        try:
            self.launch(vdev="net_mlx5_tm0," + args, txq=2,
                        start_timeout=30)
        except TestpmdStartError as exc:
            text = exc.transcript
        else:
            self.verify(False, "devargs %r accepted" % args)
        self.verify(re.search(msg, text) is not None,
                    "devargs %r: no message /%s/ in %r"
                    % (args, msg, text[-600:]))
        return text

    def test_bad_devargs(self):
        """A bad devarg fails the probe with a message naming the key and
        what is accepted (testpmd then finds no port and exits)."""
        cases = (
            ("emu=cx9", r"bad value 'cx9' for devarg emu; accepted: cx5, "
                        r"cx6dx, cx7"),
            ("emu=cx6dx,bogus=1", r"unknown devarg 'bogus'; accepted keys: "
                                  r"dev, emu,"),
            ("emu=cx6dx,pacing_index=maybe",
             r"bad value 'maybe' for devarg pacing_index; accepted: shared, "
             r"dedicated"),
            ("emu=cx6dx,rate_tolerance_ppm=2000000",
             r"rate_tolerance_ppm"),
            ("emu=cx6dx,dev=mlx5_0", r"dev= and emu= both given; give "
                                     r"exactly one of dev="),
        )
        for args, msg in cases:
            text = self.probe_refused(args, msg)
            self.verify("failed to initialize net_mlx5_tm0" in text,
                        "devargs %r: probe did not fail" % args)

    def test_repeated_and_blank_devargs(self):
        """A devarg given twice, a key with a blank in it and cpus= naming
        a CPU that is not online fail the probe with a message naming the
        key (and the value, and the online CPUs)."""
        cases = (
            ("emu=cx6dx,emu=cx7", r"devarg emu given twice \(emu=cx6dx and "
                                  r"emu=cx7\)"),
            ("emu=cx6dx,tx_burst_bound=1,tx_burst_bound=2",
             r"devarg tx_burst_bound given twice"),
            ("emu=cx6dx,line_rate=25G,line_rate=100G",
             r"devarg line_rate given twice"),
            ("emu=cx6dx, pacing_index=dedicated",
             r"devarg key ' pacing_index' has blanks.*did you mean "
             r"'pacing_index'"),
            ("emu=cx6dx,cpus=99", r"cpus='99': not every CPU of the list is "
                                  r"online; online CPUs: 0"),
        )
        for args, msg in cases:
            self.probe_refused(args, msg)

    def test_virtual_clock_refused(self):
        """testpmd cannot move the device model's virtual time: a port with
        clock=virtual refuses to start and says to use clock=realtime,
        instead of taking packets that never leave."""
        self.launch("cx6dx", txq=2, devargs={"clock": "virtual"})
        out = self.send("port start 0")
        text = self.pmd.transcript()
        self.verify(re.search(r"clock=virtual: device time moves only when "
                              r"the application advances it", text)
                    is not None and "Use clock=realtime" in text,
                    "no refusal naming clock=realtime: %r" % text[-800:])
        self.verify(re.search(r"Fail to start port 0|Port 0 can not be set "
                              r"into started", out + text) is not None,
                    "port 0 started: %r" % out)
