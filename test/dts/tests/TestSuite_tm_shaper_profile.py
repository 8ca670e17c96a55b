# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Shaper profiles: add, delete, in-use delete refused, every field the
single-rate pacer cannot honour refused with the field and a reason, and
testpmd alive afterwards. Plan: doc/test_plans/tm_shaper_profile_test_plan.rst."""

from framework.test_case import TestCase

ADD = "add port tm node shaper profile 0 %d %d %d %d %d %d %d"
U64_MAX = 2 ** 64 - 1
U32_MAX = 2 ** 32 - 1


class TestTmShaperProfile(TestCase):
    suite_name = "tm_shaper_profile"

    def set_up(self):
        self.launch("cx6dx", txq=4)

    def tear_down(self):
        # Whatever a case did, the port still answers tm queries.
        if self.pmd is not None and self.pmd.alive():
            self.port_cap()

    def test_add_delete(self):
        self.add_profile(1, 12500000)
        self.add_profile(2, 25000000, size=64000)
        self.ok("del port tm node shaper profile 0 1")
        self.ok("del port tm node shaper profile 0 2")
        # A deleted id is free again.
        self.add_profile(1, 6250000)
        self.ok("del port tm node shaper profile 0 1")

    def test_duplicate_id_refused(self):
        self.add_profile(7, 12500000)
        self.refused(ADD % (7, 0, 0, 25000000, 0, 0, 0),
                     "SHAPER_PROFILE_ID", r"already exists")
        # The first profile is intact: deletable once, not twice.
        self.ok("del port tm node shaper profile 0 7")
        self.refused("del port tm node shaper profile 0 7",
                     "SHAPER_PROFILE_ID", r"does not exist")

    def test_reserved_id_refused(self):
        self.refused(ADD % (U32_MAX, 0, 0, 12500000, 0, 0, 0),
                     "SHAPER_PROFILE_ID", r"reserved")

    def test_delete_unknown_refused(self):
        self.refused("del port tm node shaper profile 0 42",
                     "SHAPER_PROFILE_ID", r"does not exist")

    def test_delete_in_use_refused(self):
        self.add_profile(1, 12500000)
        self.add_root()
        self.add_leaf(0, 1000, 1, 1)
        self.add_leaf(1, 1000, 1, 1)
        self.refused("del port tm node shaper profile 0 1",
                     "SHAPER_PROFILE_ID", r"used by 2 node")
        self.ok("port stop 0")
        self.ok("del port tm node 0 0")
        self.refused("del port tm node shaper profile 0 1",
                     "SHAPER_PROFILE_ID", r"used by 1 node")
        self.ok("del port tm node 0 1")
        self.ok("del port tm node shaper profile 0 1")

    def test_committed_rate(self):
        """With the NIC scheduling hierarchy (cx6dx) a committed rate up to
        the peak is accepted (it becomes a share of the parent); above the
        peak, or on a device without the hierarchy (cx5), it is refused."""
        self.ok(ADD % (1, 1000000, 0, 12500000, 0, 0, 0))
        self.refused(ADD % (2, 25000000, 0, 12500000, 0, 0, 0),
                     "SHAPER_PROFILE_COMMITTED_RATE", r"up to the peak")
        self.close_all()
        self.launch("cx5", txq=4)
        self.refused(ADD % (1, 1000000, 0, 12500000, 0, 0, 0),
                     "SHAPER_PROFILE_COMMITTED_RATE", r"single-rate")

    def test_committed_size_refused(self):
        self.refused(ADD % (1, 0, 4096, 12500000, 0, 0, 0),
                     "SHAPER_PROFILE_COMMITTED_SIZE", r"single-rate")

    def test_zero_peak_rate_refused(self):
        self.refused(ADD % (1, 0, 0, 0, 0, 0, 0),
                     "SHAPER_PROFILE_PEAK_RATE", r"peak rate 0")
        self.refused(ADD % (2, 0, 0, 0, 0, 0, 1),
                     "SHAPER_PROFILE_PEAK_RATE", r"peak rate 0")

    def test_zero_peak_size_is_device_default(self):
        """Peak size 0 means the device's default burst (DTS scripts rely
        on it); the profile is usable by a leaf."""
        self.add_profile(1, 12500000, size=0)
        self.add_root()
        self.add_leaf(0, 1000, 1, 1)
        self.commit()

    def test_rate_below_one_kbps_refused(self):
        self.refused(ADD % (1, 0, 0, 124, 0, 0, 0),
                     "SHAPER_PROFILE_PEAK_RATE", r"0 kbps|below")

    def test_huge_rate_refused(self):
        self.refused(ADD % (1, 0, 0, U64_MAX, 0, 0, 0),
                     "SHAPER_PROFILE_PEAK_RATE", r"maximum|32-bit")
        self.refused(ADD % (2, 0, 0, 125 * (2 ** 32), 0, 0, 0),
                     "SHAPER_PROFILE_PEAK_RATE", r"maximum|32-bit")
        self.refused(ADD % (3, 0, 0, U64_MAX, 0, 0, 1),
                     "SHAPER_PROFILE_PEAK_RATE", r"maximum|32-bit")

    def test_huge_size_refused(self):
        self.refused(ADD % (1, 0, 0, 12500000, 2 ** 32, 0, 0),
                     "SHAPER_PROFILE_PEAK_SIZE", r"32-bit")
        self.refused(ADD % (2, 0, 0, 12500000, U64_MAX, 0, 0),
                     "SHAPER_PROFILE_PEAK_SIZE", r"32-bit")

    def test_packet_size_in_packets(self):
        """A bucket counted in packets goes to the device as WQEs (one per
        packet): no typical packet size needed, with or without one."""
        self.ok(ADD % (1, 0, 0, 10000, 16, 0, 1))
        self.close_all()
        self.launch("cx6dx", txq=4, devargs={"tx_typical_pkt_sz": 1000})
        self.ok(ADD % (1, 0, 0, 10000, 16, 0, 1))

    def test_pkt_length_adjust_refused(self):
        self.refused(ADD % (1, 0, 0, 12500000, 0, 24, 0),
                     "SHAPER_PROFILE_PKT_ADJUST_LEN", r"adjust")

    def test_packet_mode_refused_on_cx5(self):
        self.close_all()
        self.launch("cx5", txq=4)
        self.refused(ADD % (1, 0, 0, 10000, 0, 0, 1),
                     "SHAPER_PROFILE_PACKET_MODE", r"WQE-rate|packet mode")
        # Byte mode on the same device is fine.
        self.add_profile(1, 12500000)

    def test_refusals_leave_no_profile(self):
        """A refused add creates nothing: the id is free afterwards."""
        self.refused(ADD % (5, 25000000, 0, 12500000, 0, 0, 0),
                     "SHAPER_PROFILE_COMMITTED_RATE")
        self.refused("del port tm node shaper profile 0 5",
                     "SHAPER_PROFILE_ID", r"does not exist")
        self.add_profile(5, 12500000)
