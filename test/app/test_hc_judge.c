/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Unit test of hw-check's rule for a measured rate (app/hw-check
 * hc_judge.c), which every step that measures a rate applies: the
 * figures of a sender that fell short in real time (issue 31: the
 * mixed_queues step failed on what the pacing steps skipped as "not a
 * measure"), written out by hand.
 * Usage: test_hc_judge. The last line is "N passed, N failed".
 */

#include <stdint.h>

#include "hc_judge.h"
#include "test_common.h"

/* 2 Gbit/s of 1500-byte frames for 1 s: 166,666.7 frames needed. */
#define WANT 2e9
#define NEEDED (2e9 / 12000)

static void
within_tolerance_passes(void)
{
	CHECK_EQ(hc_judge_rate(false, 1.0, WANT, 1.99e9, 166000, NEEDED),
		 HC_RATE_OK);
	CHECK_EQ(hc_judge_rate(true, 1.0, WANT, 2.019e9, 0, NEEDED),
		 HC_RATE_OK);
	/* Short of frames but on its rate: the rate speaks. */
	CHECK_EQ(hc_judge_rate(false, 1.0, WANT, 2e9, 1000, NEEDED),
		 HC_RATE_OK);
}

static void
real_time_shortfall_is_not_a_measure(void)
{
	/* 1.64 Gbit/s with 136,667 frames posted: the host fell short. */
	CHECK_EQ(hc_judge_rate(false, 1.0, WANT, 1.64e9, 136667, NEEDED),
		 HC_RATE_SHORT);
	/* 98.9% of the frames: short by more than the tolerance. */
	CHECK_EQ(hc_judge_rate(false, 1.0, WANT, 1.97e9, 164800, NEEDED),
		 HC_RATE_SHORT);
}

static void
off_rate_is_a_failure(void)
{
	/* Every frame the rate needs was posted: the device was slow. */
	CHECK_EQ(hc_judge_rate(false, 1.0, WANT, 1.64e9, 166667, NEEDED),
		 HC_RATE_OFF);
	/* 99.1% of the frames posted: within the tolerance of enough. */
	CHECK_EQ(hc_judge_rate(false, 1.0, WANT, 1.64e9, 165200, NEEDED),
		 HC_RATE_OFF);
	/* Too fast is never the sender's doing. */
	CHECK_EQ(hc_judge_rate(false, 1.0, WANT, 2.1e9, 1000, NEEDED),
		 HC_RATE_OFF);
	/* In virtual time the sender cannot fall short of device time. */
	CHECK_EQ(hc_judge_rate(true, 1.0, WANT, 1.64e9, 136667, NEEDED),
		 HC_RATE_OFF);
	/* Nothing measured, or no target. */
	CHECK_EQ(hc_judge_rate(false, 1.0, WANT, 0, 0, 0), HC_RATE_OFF);
	CHECK_EQ(hc_judge_rate(false, 1.0, 0, 1e9, 0, NEEDED), HC_RATE_OFF);
}

int
main(void)
{
	RUN(within_tolerance_passes);
	RUN(real_time_shortfall_is_not_a_measure);
	RUN(off_rate_is_a_failure);
	return test_report();
}
