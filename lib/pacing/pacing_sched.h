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
 * queueing). The device divides in proportion to the integer shares s_i, so
 * when some siblings take less than their share (held back by a limit of
 * their own, or idle) the others divide the rest in proportion to s_i, where
 * the rule divides it in proportion to t_i. The error of child i against the
 * rule is then (s_i / t_i) / m - 1, m a t-weighted mean of s_j / t_j over
 * the children still contending: over every set of capped siblings its
 * largest value is
 *
 *     max(s / t) / min(s / t) - 1
 *
 * the fit of the family (struct pacing_sched_fit). "Within 1%" means this
 * fit is at most 1% (PACING_SCHED_TOLERANCE_PPM): every child within 1% of
 * the rule whatever its siblings do, not only with all of them backlogged.
 * Among every scale that maps the largest target to 1..max_share (nearest
 * integers for the others), the library picks the shares of the best fit
 * (of equal fits the smallest shares: the shortest DWRR rounds; weights
 * 1:2:5 become 1:2:5) that still give every committed child at least its
 * committed rate under full contention (checked exactly, in integers);
 * a best fit above the
 * tolerance is refused, naming the two children whose ratio the range
 * cannot hold: PACING_FIELD_COMMITTED_RATE when the family has committed
 * rates and its weights alone fit (the two may have none: a sibling's
 * committed rate moves every target), else PACING_FIELD_WEIGHT. Committed rates that sum above P are refused with the
 * numbers.
 *
 * No DPDK, no device: plain C.
 */

#include <stdint.h>

#include "pacing_error.h"

/** Bytes per second in one Mbit/s (10^6 bit/s). */
#define PACING_BYTES_PER_MBPS 125000u

/** Largest fit error of a family's shares (ppm): 1%. */
#define PACING_SCHED_TOLERANCE_PPM 10000u

/** One child of a scheduling element, as its parent divides bandwidth. */
struct pacing_sched_child {
	uint32_t weight;         /**< In: relative weight, >= 1. */
	uint64_t committed_rate; /**< In: bytes/s guaranteed, 0 for none. */
	uint32_t bw_share;       /**< Out: 1..max_share. */
	uint64_t contended_rate; /**< Out: bytes/s under full contention. */
	uint32_t error_ppm;      /**< Out: |contended - target| / target. */
};

/** How closely a family's integer shares follow its targets. */
struct pacing_sched_fit {
	/**
	 * max(s / t) / min(s / t) - 1 over the children (ppm, saturated at
	 * UINT32_MAX): the largest relative error of any child's rate
	 * against the rule, all backlogged or any siblings held back.
	 */
	uint32_t error_ppm;
	uint32_t over;        /**< Child with the largest share per target. */
	uint32_t under;       /**< Child with the smallest share per target. */
	uint32_t over_share;  /**< Its bw_share in the best fit. */
	uint32_t under_share; /**< Its bw_share in the best fit. */
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
 * @param tolerance_ppm
 *   Largest fit error accepted (PACING_SCHED_TOLERANCE_PPM: 1%).
 * @param[out] fit
 *   The fit of the best shares found, also on -ERANGE (may be NULL).
 * @param[out] err
 *   Filled on refusal (may be NULL).
 * @return
 *   0; -EINVAL for a weight of 0, a zero parent rate or share range, or
 *   committed rates that sum above @p parent_rate or that integer shares in
 *   1..@p max_share cannot guarantee; -ERANGE when the best fit is above
 *   @p tolerance_ppm (the message names the two children, their weights,
 *   committed rates and best shares, and the range); nothing in
 *   @p children changed on a refusal.
 */
int
pacing_sched_shares(struct pacing_sched_child *children, uint32_t n,
		    uint64_t parent_rate, uint32_t max_share,
		    uint32_t tolerance_ppm, struct pacing_sched_fit *fit,
		    struct pacing_error *err);

#endif /* PACING_SCHED_H */
