/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACING_SCHED_H
#define PACING_SCHED_H

/**
 * @file
 * Arithmetic of a NIC scheduling hierarchy: what a non-leaf node's shaper
 * and its children's weights and committed rates become in the values a
 * scheduling element holds.
 *
 * A scheduling element (a DWRR TSAR or a queue group) has a ceiling,
 * max_average_bw, in Mbit/s (0 = unlimited), and a bw_share in
 * 1..max_tsar_bw_share: under contention, backlogged siblings divide their
 * parent's bandwidth in proportion to their bw_share (work-conserving).
 *
 * Rounding rule (ceilings): a ceiling in bytes/s is rounded DOWN to a whole
 * Mbit/s, max_average_bw = floor(bytes_per_s / 125000), so the applied
 * ceiling never exceeds the request. Below 1 Mbit/s is refused.
 *
 * Shares: each child i has a weight w_i (>= 1) and a committed rate c_i
 * (bytes/s, 0 = none). Under full contention of a parent that gives P
 * bytes/s, child i is meant to get
 *
 *     t_i = c_i + (P - sum(c)) * w_i / sum(w)
 *
 * its committed rate plus a weighted part of what the committed rates leave
 * (with no committed rate anywhere: P * w_i / sum(w), plain weighted fair
 * queueing). Shares are integers, so the library picks, among every scale
 * that maps the largest target to 1..max_share, the integer shares with the
 * smallest largest relative error that still give every committed child at
 * least its committed rate (checked exactly, in integers). Committed rates
 * that sum above P are refused with the numbers.
 *
 * No DPDK, no device: plain C.
 */

#include <stdint.h>

#include "pacing_error.h"

/** Bytes per second in one Mbit/s (10^6 bit/s). */
#define PACING_BYTES_PER_MBPS 125000u

/** One child of a scheduling element, as its parent divides bandwidth. */
struct pacing_sched_child {
	uint32_t weight;         /**< In: relative weight, >= 1. */
	uint64_t committed_rate; /**< In: bytes/s guaranteed, 0 for none. */
	uint32_t bw_share;       /**< Out: 1..max_share. */
	uint64_t contended_rate; /**< Out: bytes/s under full contention. */
	uint32_t error_ppm;      /**< Out: |contended - target| / target. */
};

/**
 * Convert a ceiling in bytes/s to max_average_bw in Mbit/s (rounded down).
 *
 * @param bytes_per_s
 *   The ceiling; 0 means no ceiling (max_average_bw 0).
 * @param max_mbps
 *   The largest ceiling the device accepts (the port's line rate).
 * @param[out] mbps
 *   The value for max_average_bw.
 * @param[out] err
 *   Filled on refusal (may be NULL).
 * @return
 *   0, or -EINVAL for a ceiling below 1 Mbit/s or above @p max_mbps (the
 *   message gives the allowed range in bytes/s and Mbit/s).
 */
int
pacing_sched_ceiling(uint64_t bytes_per_s, uint32_t max_mbps, uint32_t *mbps,
		     struct pacing_error *err);

/**
 * Compute the bw_share of each of @p n siblings (see the file comment).
 *
 * @param children
 *   @p n children: weight and committed_rate in, the rest out.
 * @param n
 *   Number of children, >= 1.
 * @param parent_rate
 *   Bytes/s the parent gives its children under contention: its ceiling,
 *   or the port's line rate when it has none. Must be > 0.
 * @param max_share
 *   The device's max_tsar_bw_share, >= 1.
 * @param[out] err
 *   Filled on refusal (may be NULL).
 * @return
 *   0; -EINVAL for a weight of 0, a zero parent rate or share range, or
 *   committed rates that sum above @p parent_rate or that integer shares in
 *   1..@p max_share cannot guarantee (nothing in @p children changed).
 */
int
pacing_sched_shares(struct pacing_sched_child *children, uint32_t n,
		    uint64_t parent_rate, uint32_t max_share,
		    struct pacing_error *err);

#endif /* PACING_SCHED_H */
