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


def stats_rates(tc, nodes, window, port=0):
    """{node: (bytes/s, packets/s)} from tm node statistics over about
    @window seconds of wall time (each node timed at its own read)."""
    first = {}
    for n in nodes:
        t0 = time.monotonic()
        pkts, byts = node_stats(tc, n, port)
        first[n] = ((t0 + time.monotonic()) / 2, pkts, byts)
    tc.pmd.wait_for_idle(window)
    rates = {}
    for n in nodes:
        t0 = time.monotonic()
        pkts, byts = node_stats(tc, n, port)
        t = (t0 + time.monotonic()) / 2
        dt = t - first[n][0]
        rates[n] = ((byts - first[n][2]) / dt, (pkts - first[n][1]) / dt)
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


def lag(tc, port=0):
    """The device model's lag figures (emu_lag_ns, emu_max_lag_ns,
    emu_lagging) from xstats, {} on a real device."""
    xs = xstats(tc, port)
    return {k: v for k, v in xs.items() if k.startswith("emu_")}


def wire_rates(tc, queues, window, port=0):
    """{queue: (bytes/s, packets/s)} from two xstats readings @window s
    apart (departure times of the device model, not wall time)."""
    first = xstats(tc, port)
    tc.pmd.wait_for_idle(window)
    last = xstats(tc, port)
    rates = {}
    for q in queues:
        byts, pkts, _ = wire_rate(tc, first, last, q)
        rates[q] = (byts, pkts)
    return rates


def lagged(before, after, limit_ns):
    """True when the device model fell behind between two lag() readings:
    its count of late passes grew (emu_late_passes, when exposed), else
    its largest lateness grew beyond @limit_ns."""
    if "emu_late_passes" in after and "emu_late_passes" in before:
        return after["emu_late_passes"] > before["emu_late_passes"]
    top = after.get("emu_max_lag_ns", 0)
    return top > before.get("emu_max_lag_ns", 0) and top > limit_ns


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
