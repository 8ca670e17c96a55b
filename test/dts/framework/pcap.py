# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
"""Reader of classic pcap files (microsecond or nanosecond timestamps),
enough to read the device model's wire capture back."""

import struct

MAGIC_US = 0xA1B2C3D4
MAGIC_NS = 0xA1B23C4D


class Record:
    __slots__ = ("t_ns", "caplen", "length", "data")

    def __init__(self, t_ns, caplen, length, data):
        self.t_ns = t_ns
        self.caplen = caplen
        self.length = length
        self.data = data


def read(path, keep_bytes=64):
    """(linktype, [Record]) of the file at @path. A record cut short at
    the end (the writer still running) is left out."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 24:
        raise ValueError("%s: no pcap header (%d bytes)" % (path, len(blob)))
    for endian in ("<", ">"):
        magic, = struct.unpack(endian + "I", blob[:4])
        if magic in (MAGIC_US, MAGIC_NS):
            break
    else:
        raise ValueError("%s: not a pcap file (magic %s)"
                         % (path, blob[:4].hex()))
    scale = 1 if magic == MAGIC_NS else 1000
    _, _, _, _, _, linktype = struct.unpack(endian + "HHiIII", blob[4:24])
    hdr = struct.Struct(endian + "IIII")
    recs = []
    off = 24
    end = len(blob)
    while off + 16 <= end:
        sec, frac, caplen, length = hdr.unpack_from(blob, off)
        if off + 16 + caplen > end:
            break
        data = blob[off + 16:off + 16 + min(caplen, keep_bytes)]
        recs.append(Record(sec * 1000000000 + frac * scale, caplen, length,
                           data))
        off += 16 + caplen
    return linktype, recs


def write(path, packets, nanosecond=True, snaplen=65535):
    """Write [(t_ns, bytes)] (used by the harness self-test)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", MAGIC_NS if nanosecond else MAGIC_US,
                            2, 4, 0, 0, snaplen, 1))
        for t_ns, data in packets:
            frac = t_ns % 1000000000
            if not nanosecond:
                frac //= 1000
            f.write(struct.pack("<IIII", t_ns // 1000000000, frac,
                                len(data), len(data)))
            f.write(data)
