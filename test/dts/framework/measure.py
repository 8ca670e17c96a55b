# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Rates of Tx queues, from three independent sources:

- rte_tm node statistics (`show port tm node stats`), deltas over wall time;
- the port's extended statistics (`show port xstats`), where the PMD
  exposes per-queue wire figures of the device model;
- the device model's wire capture (pcap=FILE), from departure timestamps.
"""

import re
import time

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


def timed_node_stats(tc, node, port=0):
    """(time, half-width, packets, bytes) of tm node @node: the counters
    were read at some instant between sending the command and its answer,
    so at time +- half-width (wall time, s)."""
    t0 = time.monotonic()
    pkts, byts = node_stats(tc, node, port)
    t1 = time.monotonic()
    return (t0 + t1) / 2, (t1 - t0) / 2, pkts, byts


def stats_rates(tc, nodes, window, port=0, timing=0.0, evidence=None):
    """{node: (bytes/s, packets/s)} from tm node statistics over one
    window of at least @window seconds of wall time, each node timed at
    its own reads. The reads' timing uncertainty (half of each read's
    command round trip, at both ends) relative to the window is kept
    within @timing when not 0: the window goes on (the same first
    reading) until it is, for at most 3 x @window. @evidence, a list,
    gets one line per node: counters, window and its uncertainty."""
    first = {n: timed_node_stats(tc, n, port) for n in nodes}
    start = time.monotonic()
    tc.pmd.wait_for_idle(window)
    while True:
        last = {n: timed_node_stats(tc, n, port) for n in nodes}
        worst = max((first[n][1] + last[n][1]) / (last[n][0] - first[n][0])
                    for n in nodes)
        if not timing or worst <= timing or \
                time.monotonic() - start >= 3 * window:
            break
        tc.pmd.wait_for_idle(window / 2)
    rates = {}
    for n in nodes:
        dt = last[n][0] - first[n][0]
        rates[n] = ((last[n][3] - first[n][3]) / dt,
                    (last[n][2] - first[n][2]) / dt)
        if evidence is not None:
            evidence.append("node %d: %d -> %d packets, %d -> %d bytes over "
                            "%.3f s +- %.1f ms (wall time of the reads)"
                            % (n, first[n][2], last[n][2], first[n][3],
                               last[n][3], dt,
                               (first[n][1] + last[n][1]) * 1e3))
    return rates


def wire_rate(tc, first, last, q):
    """(bytes/s, packets/s, packets) of Tx queue @q between two xstats
    readings, from the device model's wire figures: the bytes that left
    between the two readings' last departures (tx_q<N>_wire_bytes,
    tx_q<N>_wire_last_ns), departure times from the model's schedule."""
    keys = ["tx_q%d_wire_%s" % (q, k)
            for k in ("packets", "bytes", "last_ns")]
    missing = [k for k in keys if k not in last or k not in first]
    tc.verify(not missing, "xstats lack %s (have %s)"
              % (", ".join(missing), ", ".join(sorted(last))))
    n = last[keys[0]] - first[keys[0]]
    dt = (last[keys[2]] - first[keys[2]]) / 1e9
    tc.verify(dt > 0 and n > 0, "queue %d: nothing left between the readings"
              " (%r, then %r)" % (q, [first[k] for k in keys],
                                  [last[k] for k in keys]))
    return (last[keys[1]] - first[keys[1]]) / dt, n / dt, n


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


def wire_rates(tc, queues, window, port=0, evidence=None):
    """{queue: (bytes/s, packets/s)} from two xstats readings @window s
    apart (departure times of the device model, not wall time: exact to
    one frame). @evidence, a list, gets one line per queue."""
    first = xstats(tc, port)
    tc.pmd.wait_for_idle(window)
    last = xstats(tc, port)
    rates = {}
    for q in queues:
        byts, pkts, n = wire_rate(tc, first, last, q)
        rates[q] = (byts, pkts)
        if evidence is not None:
            key = "tx_q%d_wire_" % q
            evidence.append(
                "queue %d: %d frames, %d bytes between departures at %d "
                "and %d ns (device time)"
                % (q, n, last[key + "bytes"] - first[key + "bytes"],
                   first[key + "last_ns"], last[key + "last_ns"]))
    return rates


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
