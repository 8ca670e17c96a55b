# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Rates of Tx queues, on device time: the device model's per-queue wire
figures (`show port xstats`: bytes, frames and the departure time of the
last frame) and its wire capture (pcap=FILE, departure timestamps). The
wall clock only paces the reads: a loaded machine makes a measurement
take longer, never changes what it finds. rte_tm node statistics
(`show port tm node stats`) are counters, checked against the wire's.
"""

import re

from . import pcap

STATS_PKTS_RE = re.compile(r"Pkts scheduled from node:\s*(\d+)")
STATS_BYTES_RE = re.compile(r"Bytes scheduled from node:\s*(\d+)")
XSTAT_RE = re.compile(r"^([\w.\-\[\]]+):\s+(\d+)\s*$", re.M)


def node_stats(tc, node, port=0, clear=0):
    """(packets, bytes) of tm node @node."""
    out = tc.send("show port tm node stats %d %d %d" % (port, node, clear))
    mp = STATS_PKTS_RE.search(out)
    mb = STATS_BYTES_RE.search(out)
    tc.verify(mp is not None and mb is not None,
              "no packet/byte counters for node %d: %r" % (node, out.strip()))
    return int(mp.group(1)), int(mb.group(1))


def xstats(tc, port=0):
    """{name: value} of `show port xstats`."""
    out = tc.send("show port xstats %d" % port)
    vals = {k: int(v) for k, v in XSTAT_RE.findall(out)}
    tc.verify(vals, "no xstats in %r" % out.strip())
    return vals


def lag_of(xs):
    """The device model's lag figures (emu_lag_ns, emu_max_lag_ns,
    emu_lagging) in the xstats @xs, {} on a real device."""
    return {k: v for k, v in xs.items() if k.startswith("emu_")}


def lag(tc, port=0):
    """The device model's lag figures, read now."""
    return lag_of(xstats(tc, port))


def ring_full_text(before, after, queues):
    """How often each queue's Tx ring was full between two xstats readings
    (tx_q<N>_ring_full): a queue whose ring was seldom full was held back
    by its sender, not by its pacer."""
    return ", ".join("queue %d %d" % (q, after.get("tx_q%d_ring_full" % q, 0)
                                      - before.get("tx_q%d_ring_full" % q, 0))
                     for q in queues)


# Reads of the wire figures while measuring: each interval between two
# is kept or left out as a whole.
INTERVAL = 0.5          # s of wall time between two reads
MAX_FACTOR = 4          # give up after this many windows' worth of reads


def txq_ring(tc, q, port=0):
    """Descriptors of Tx queue @q (`show txq info`)."""
    out = tc.send("show txq info %d %d" % (port, q))
    m = re.search(r"Number of TXDs:\s*(\d+)", out)
    tc.verify(m is not None, "no ring size for Tx queue %d: %r"
              % (q, out.strip()))
    return int(m.group(1))


def device_rates(tc, queues, window, port=0, evidence=None, first=None):
    """{queue: (bytes/s, packets/s)} over @window seconds of device time
    in which every queue of @queues stayed backlogged, from the wire
    figures read every INTERVAL s (from @first, an xstats reading, if
    given). An interval in which a queue ran dry (tx_q<N>_wire_ran_dry
    grew: its sender, or in real time the device model, did not keep up)
    says nothing of the pacer and is left out, with its reason in the
    evidence; the reads go on until the kept intervals hold @window s of
    each queue's departures. After MAX_FACTOR windows' worth of reads
    without that, the case fails saying so. Returns (rates, last xstats
    reading)."""
    keys = ("bytes", "packets", "last_ns", "ran_dry")
    prev = first if first is not None else xstats(tc, port)
    got = {q: [0, 0, 0] for q in queues}     # bytes, packets, ns
    kept = left = 0
    reasons = []
    for _ in range(int(MAX_FACTOR * window / INTERVAL) + 1):
        tc.pmd.wait_for_idle(INTERVAL)
        cur = xstats(tc, port)
        delta = {}
        for q in queues:
            names = ["tx_q%d_wire_%s" % (q, k) for k in keys]
            missing = [n for n in names if n not in cur or n not in prev]
            tc.verify(not missing, "xstats lack %s" % ", ".join(missing))
            delta[q] = [cur[n] - prev[n] for n in names]
        dry = ["queue %d ran dry %d times" % (q, d[3])
               for q, d in sorted(delta.items()) if d[3] > 0]
        still = ["queue %d sent nothing" % q
                 for q, d in sorted(delta.items()) if d[2] <= 0]
        prev = cur
        if dry or still:
            left += 1
            if len(reasons) < 5:
                reasons.append("; ".join(dry + still))
            continue
        kept += 1
        for q, d in delta.items():
            got[q][0] += d[0]
            got[q][1] += d[1]
            got[q][2] += d[2]
        if min(g[2] for g in got.values()) >= window * 1e9:
            break
    tc.verify(min(g[2] for g in got.values()) >= window * 1e9,
              "the queues did not stay backlogged for %.1f s of device "
              "time in %d reads %.1f s apart (%d intervals kept, %d left "
              "out: %s): the senders could not keep their rings full "
              "(machine too loaded?)"
              % (window, kept + left, INTERVAL, kept, left,
                 " | ".join(reasons)))
    rates = {}
    for q, (byts, pkts, ns) in sorted(got.items()):
        rates[q] = (byts * 1e9 / ns, pkts * 1e9 / ns)
        if evidence is not None:
            evidence.append("queue %d: %d frames, %d bytes in %.3f s of "
                            "device time" % (q, pkts, byts, ns / 1e9))
    if evidence is not None:
        evidence.append("%d intervals of %.1f s kept, %d left out%s"
                        % (kept, INTERVAL, left, (": " + " | ".join(reasons))
                           if reasons else ""))
    return rates, prev


def node_counts(tc, nodes, port=0):
    """Packets of each tm node of @nodes, bracketed by two xstats
    readings: (xstats before, {node: packets}, xstats after)."""
    before = xstats(tc, port)
    pkts = {}
    for n in nodes:
        p, b = node_stats(tc, n, port)
        pkts[n] = p
    return before, pkts, xstats(tc, port)


def check_node_counts(tc, start, end, rings):
    """The tm node statistics of each leaf (queue) of @rings {queue: ring
    size} counted the frames its queue sent between the two node_counts()
    readings @start and @end: a frame is counted when posted and leaves
    after, at most a ring later, so the count moved between what left
    from the last reading before the first count to the first reading
    after the second, give or take the ring."""
    bad = []
    for q, ring in sorted(rings.items()):
        key = "tx_q%d_wire_packets" % q
        moved = end[1][q] - start[1][q]
        low = end[0][key] - start[2][key] - ring
        high = end[2][key] - start[0][key] + ring
        if not low <= moved <= high:
            bad.append("queue %d: node stats counted %d frames, the wire "
                       "%d..%d (ring %d)" % (q, moved, low + ring,
                                             high - ring, ring))
    tc.verify(not bad, "tm node statistics disagree with the wire: %s"
              % "; ".join(bad))


def node_counts_drained(tc, queues, port=0, reads=50):
    """After forwarding stopped: {queue: (tm node packets, wire packets)}
    once every frame posted has left (its tm node statistics, frozen
    now, reached by the wire's count), read every INTERVAL s, at most
    @reads times: what is still on the ring leaves at the queue's rate."""
    pkts = {q: node_stats(tc, q, port)[0] for q in queues}
    for _ in range(reads):
        xs = xstats(tc, port)
        wire = {q: xs.get("tx_q%d_wire_packets" % q, -1) for q in queues}
        if all(wire[q] >= pkts[q] for q in queues):
            break
        tc.pmd.wait_for_idle(INTERVAL)
    return {q: (pkts[q], wire[q]) for q in queues}


def lag_text(before, after):
    """How far the device model fell behind between two lag() readings,
    as evidence for a failed rate check."""
    if not after:
        return "no lag figures (not the device model)"
    parts = ["largest lateness %.1f ms (was %.1f)"
             % (after.get("emu_max_lag_ns", 0) / 1e6,
                before.get("emu_max_lag_ns", 0) / 1e6)]
    if "emu_late_passes" in after:
        parts.append("%d late passes in the window"
                     % (after["emu_late_passes"] -
                        before.get("emu_late_passes", 0)))
    return ", ".join(parts)


def pcap_rate(records, skip=0.2):
    """(bytes/s, packets/s, n) of packets in a capture, from departure
    timestamps: the bytes of all packets but the first over the span from
    the first to the last departure. The first @skip of the span (start-up,
    bucket burst) is left out."""
    if len(records) < 3:
        return 0.0, 0.0, len(records)
    t_first = records[0].t_ns
    span = records[-1].t_ns - t_first
    start = t_first + int(span * skip)
    recs = [r for r in records if r.t_ns >= start]
    if len(recs) < 3:
        return 0.0, 0.0, len(recs)
    dt = (recs[-1].t_ns - recs[0].t_ns) / 1e9
    byts = sum(r.length for r in recs[1:])
    return byts / dt, (len(recs) - 1) / dt, len(recs)


def read_pcap(path):
    return pcap.read(path)[1]


def within(measured, expected, tolerance):
    """True when |measured/expected - 1| <= tolerance."""
    if expected == 0:
        return measured == 0
    return abs(measured / expected - 1.0) <= tolerance


def pct(measured, expected):
    return "%.3f%%" % ((measured / expected - 1.0) * 100.0) if expected else "n/a"
