# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Rx through a companion port (devarg rx_port=): one ethdev port that
receives through the companion and sends, shaped by rte_tm, through
net_mlx5_tm. Plan: doc/test_plans/companion_rx_test_plan.rst."""

import os
import re

from framework import measure, pcap
from framework.test_case import TestCase

OUR_PORT = 1            # the companion, probed first, is port 0
FRAMES = 1000           # frames fed through the pcap companion
FRAME_LEN = 1000
RATE = 12500000         # bytes/s: 100 Mbit/s on the forwarding queue
TOLERANCE = 0.01


def frame(i):
    """Frame @i: unicast, test ethertype, sequence number, filler."""
    head = bytes([0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02,
                  0x88, 0xb5]) + i.to_bytes(4, "big")
    return head + bytes([(i + k) & 0xff for k in range(FRAME_LEN - len(head))])


class TestCompanionRx(TestCase):
    suite_name = "companion_rx"

    def ours(self, companion, **devargs):
        """Our vdev receiving through @companion."""
        return ["--vdev", self.vdev(None, rx_port=companion, **devargs)]

    def test_ring_companion_one_port(self):
        """The issue's command line: the companion is hidden (owned), its
        Rx limits and promiscuous mode show through our port, io
        forwarding runs on our queues, rte_tm commits on our port."""
        self.launch(vdev="net_ring0", eal_args=self.ours("net_ring0"),
                    txq=2, app_args=["--forward-mode=io"])
        out = self.ok("show port summary all")
        self.verify("Number of available ports: 1" in out and
                    "net_mlx5_tm0" in out and "net_ring0" not in out,
                    "applications see the companion: %r" % out)
        out = self.send("show port info %d" % OUR_PORT)
        self.verify(re.search(r"Promiscuous mode: enabled", out),
                    "promiscuous mode not enabled: %r" % out)
        self.verify(re.search(r"Max possible RX queues: 16\b", out),
                    "Rx queue limit is not net_ring's (16): %r" % out)
        self.verify(re.search(r"Max possible TX queues: (\d+)", out) and
                    int(re.search(r"Max possible TX queues: (\d+)",
                                  out).group(1)) > 16,
                    "Tx queue limit is not ours: %r" % out)
        self.ok("set promisc %d off" % OUR_PORT)
        out = self.send("show port info %d" % OUR_PORT)
        self.verify("Promiscuous mode: disabled" in out,
                    "promiscuous mode still on: %r" % out)
        self.ok("port stop %d" % OUR_PORT)
        self.add_profile(1, RATE, port=OUR_PORT)
        self.two_level([1, 1], port=OUR_PORT)
        self.commit(port=OUR_PORT)
        self.ok("port start %d" % OUR_PORT)
        out = self.send("start")
        self.verify("io packet forwarding" in out and
                    "RX P=1/Q=1 (socket 0) -> TX P=1/Q=1" in out,
                    "io forwarding not on our queues: %r" % out)
        self.send("stop")
        self.verify(self.pmd.alive(), "testpmd died")

    def test_io_forwarding_shaped(self):
        """Frames fed into a net_pcap companion come out of our Rx queue,
        io forwarding sends them on our Tx queue, shaped by an rte_tm
        leaf: the device model's wire capture holds every frame, intact
        and in order, departing at the leaf's rate; port statistics show
        Rx from the companion and Tx from us."""
        src = self.ctx.scratch_file("companion_in.pcap")
        wire = self.ctx.scratch_file("companion_wire.pcap")
        pcap.write(src, [(i * 1000, frame(i)) for i in range(FRAMES)],
                   nanosecond=False)
        self.launch(vdev="net_pcap0,rx_pcap=%s" % src,
                    eal_args=self.ours("net_pcap0", pcap=wire),
                    txq=1, app_args=["--forward-mode=io", "--no-flush-rx",
                                     "--txd=2048"])
        self.ok("port stop %d" % OUR_PORT)
        self.add_profile(1, RATE, port=OUR_PORT)
        self.two_level([1], port=OUR_PORT)
        self.commit(port=OUR_PORT)
        self.ok("port start %d" % OUR_PORT)
        self.ok("start")
        # 1 MB at 12.5 MB/s: 80 ms on the wire.
        self.pmd.wait_for_idle(1.0)
        out = self.send("stop")
        self.verify(re.search(r"RX-packets: %d\s" % FRAMES, out) and
                    re.search(r"TX-packets: %d\s" % FRAMES, out),
                    "not every frame forwarded: %r" % out)
        out = self.ok("show port stats %d" % OUR_PORT)
        self.verify(re.search(r"RX-packets: %d\s" % FRAMES, out) and
                    re.search(r"RX-bytes:\s+%d\b" % (FRAMES * FRAME_LEN),
                              out) and
                    re.search(r"TX-packets: %d\s" % FRAMES, out),
                    "port statistics not merged: %r" % out)
        self.close_all()
        records = pcap.read(wire, keep_bytes=FRAME_LEN)[1]
        self.verify(len(records) == FRAMES, "%d of %d frames on the wire"
                    % (len(records), FRAMES))
        bad = [i for i, r in enumerate(records) if r.data != frame(i)]
        self.verify(not bad, "%d frames changed or out of order, first %d"
                    % (len(bad), bad[0] if bad else -1))
        rate, _, n = measure.pcap_rate(records)
        self.verify(measure.within(rate, RATE, TOLERANCE),
                    "wire rate %.0f bytes/s over %d frames, leaf %d (%s)"
                    % (rate, n, RATE, measure.pct(rate, RATE)))

    def test_flow_reaches_companion(self):
        """rte_flow on our port is answered by the companion: net_tap
        validates a drop rule that a Tx-only port (no flow support)
        refuses. net_tap needs root and /dev/net/tun."""
        rule = ("flow validate %d ingress pattern eth / ipv4 / udp dst is "
                "4789 / end actions drop / end")
        self.launch(txq=1, rxq=0)
        out = self.send(rule % 0)
        self.verify("validated" not in out,
                    "a Tx-only port validated a flow rule: %r" % out)
        self.close_all()
        if os.getuid() != 0 or not os.path.exists("/dev/net/tun"):
            self.note("net_tap needs root and /dev/net/tun: the rte_flow "
                      "forwarding is checked by the C suite pmd_rx only")
            return
        self.launch(vdev="net_tap0,iface=mlx5tmrx%d" % os.getpid(),
                    eal_args=self.ours("net_tap0"), txq=1, rxq=0)
        out = self.send(rule % OUR_PORT)
        self.verify("Flow rule validated" in out,
                    "the companion did not validate: %r" % out)

    def test_missing_companion_refused(self):
        """A companion given after our port does not exist when ours
        probes: refused, naming the value and the ports available."""
        self.launch(vdev=self.vdev(None, rx_port="net_ring0"),
                    eal_args=["--vdev", "net_ring0"], txq=1)
        log = self.pmd.transcript()
        self.verify("bad value 'net_ring0' for devarg rx_port" in log and
                    "ports available: none" in log and
                    "must come before net_mlx5_tm0" in log,
                    "no clear refusal: %r" % log[-2000:])

    def test_tx_only_says_how_to_receive(self):
        """Without rx_port= the port is Tx-only; its Rx queues say how to
        receive."""
        self.launch(txq=2)
        log = self.pmd.transcript()
        self.verify("never receive" in log and
                    "rx_port=<ethdev name or port id>" in log,
                    "no hint how to receive: %r" % log[-2000:])
