/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef HC_JUDGE_H
#define HC_JUDGE_H

/**
 * @file
 * What a measured rate says, one rule for every step of hw-check (no
 * DPDK: test/app/test_hc_judge.c checks it on figures).
 */

#include <stdbool.h>
#include <stdint.h>

/** The verdict a measured rate earns. */
enum hc_rate_judgement {
	HC_RATE_OK,    /**< Within the tolerance. */
	HC_RATE_OFF,   /**< Off its rate: a pacing failure. */
	HC_RATE_SHORT, /**< Below it, the sender short: not a measure. */
};

/**
 * Judge a rate of @p got_bps against @p want_bps with @p tol_pct percent
 * of tolerance. In real time (@p vclock false) a rate below the target
 * while the sender posted fewer than (1 - tolerance) of the @p needed
 * frames the target asks in the window is the host's shortfall, not the
 * device's: the ring was not kept full. In virtual time the sender never
 * falls short of device time, so a low rate is always off.
 */
enum hc_rate_judgement hc_judge_rate(bool vclock, double tol_pct,
				     double want_bps, double got_bps,
				     uint64_t posted, double needed);

#endif /* HC_JUDGE_H */
