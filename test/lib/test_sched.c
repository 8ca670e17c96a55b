/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Scheduling-element arithmetic: ceilings, weights, committed rates. */

#include <errno.h>
#include <stdint.h>

#include "pacing_sched.h"
#include "pacing_table.h"
#include "test_common.h"
#include "test_lib.h"

#define MBPS(x) ((uint64_t)(x) * PACING_BYTES_PER_MBPS)

/* Ceilings round down to whole Mbit/s; 0 is "none"; the range is named. */
void
test_sched_ceiling(void)
{
	struct pacing_error err;
	uint32_t v = 77;

	CHECK_EQ(pacing_sched_ceiling(0, 100000, &v, &err), 0);
	CHECK_EQ(v, 0);
	CHECK_EQ(pacing_sched_ceiling(MBPS(400), 100000, &v, &err), 0);
	CHECK_EQ(v, 400);
	CHECK_EQ(pacing_sched_ceiling(MBPS(400) + 124999, 100000, &v, &err),
		 0);
	CHECK_EQ(v, 400);
	CHECK_EQ(pacing_sched_ceiling(MBPS(100000), 100000, &v, &err), 0);
	CHECK_EQ(v, 100000);
	v = 77;
	CHECK_EQ(pacing_sched_ceiling(124999, 100000, &v, &err), -EINVAL);
	CHECK_EQ(v, 77);
	CHECK_EQ(err.field, PACING_FIELD_PEAK_RATE);
	CHECK_STR(err.message, "124999 bytes/s");
	CHECK_STR(err.message, "1..100000 Mbit/s");
	CHECK_EQ(pacing_sched_ceiling(MBPS(100001), 100000, &v, &err),
		 -EINVAL);
	CHECK_STR(err.message, "12500000000 bytes/s");
}

/* Weights 1:2:5 under 400 Mbit/s: shares keep the ratio exactly. */
void
test_sched_weights_exact(void)
{
	struct pacing_sched_child c[3] = {
		{ .weight = 1 }, { .weight = 2 }, { .weight = 5 },
	};
	struct pacing_error err;

	CHECK_EQ(pacing_sched_shares(c, 3, MBPS(400), 100, &err), 0);
	CHECK_EQ(c[0].bw_share * 2, c[1].bw_share);
	CHECK_EQ(c[0].bw_share * 5, c[2].bw_share);
	CHECK(c[2].bw_share <= 100, "share %u above 100", c[2].bw_share);
	CHECK_EQ(c[0].contended_rate, MBPS(50));
	CHECK_EQ(c[1].contended_rate, MBPS(100));
	CHECK_EQ(c[2].contended_rate, MBPS(250));
	CHECK_EQ(c[0].error_ppm + c[1].error_ppm + c[2].error_ppm, 0);
}

/* Ratios the share range cannot hold: nearest, error reported. */
void
test_sched_weights_rounded(void)
{
	struct pacing_sched_child c[2] = {
		{ .weight = 1 }, { .weight = 1000 },
	};
	struct pacing_error err;

	CHECK_EQ(pacing_sched_shares(c, 2, MBPS(1000), 100, &err), 0);
	CHECK_EQ(c[0].bw_share, 1);
	CHECK_EQ(c[1].bw_share, 100);
	/* Asked 1/1001 of the parent, got 1/101: the error says so. */
	CHECK(c[0].error_ppm > 8000000 && c[0].error_ppm < 9000000,
	      "error %u ppm", c[0].error_ppm);
	CHECK(c[1].error_ppm < 10000, "error %u ppm", c[1].error_ppm);
}

/* Committed rates are met under contention; the rest goes by weight. */
void
test_sched_committed(void)
{
	struct pacing_sched_child c[3] = {
		{ .weight = 1, .committed_rate = MBPS(300) },
		{ .weight = 1, .committed_rate = MBPS(60) },
		{ .weight = 2 },
	};
	struct pacing_error err;
	uint32_t i;

	CHECK_EQ(pacing_sched_shares(c, 3, MBPS(400), 100, &err), 0);
	for (i = 0; i < 3; i++)
		CHECK(c[i].contended_rate >= c[i].committed_rate,
		      "child %u gets %llu < committed %llu", i,
		      (unsigned long long)c[i].contended_rate,
		      (unsigned long long)c[i].committed_rate);
	/* Targets 310, 70, 20 Mbit/s: 31:7:2 fits in 100 exactly. */
	CHECK_EQ(c[0].contended_rate, MBPS(310));
	CHECK_EQ(c[1].contended_rate, MBPS(70));
	CHECK_EQ(c[2].contended_rate, MBPS(20));
}

/* Committed rates above the parent: refused with the numbers. */
void
test_sched_committed_over(void)
{
	struct pacing_sched_child c[2] = {
		{ .weight = 1, .committed_rate = MBPS(300), .bw_share = 9 },
		{ .weight = 1, .committed_rate = MBPS(200), .bw_share = 9 },
	};
	struct pacing_error err;

	CHECK_EQ(pacing_sched_shares(c, 2, MBPS(400), 100, &err), -EINVAL);
	CHECK_EQ(err.field, PACING_FIELD_COMMITTED_RATE);
	CHECK_STR(err.message, "500.000 Mbit/s");
	CHECK_STR(err.message, "400.000 Mbit/s");
	CHECK_EQ(c[0].bw_share, 9);
	CHECK_EQ(c[1].bw_share, 9);
}

/* Committed rates that take the whole parent leave nothing to share. */
void
test_sched_committed_full(void)
{
	struct pacing_sched_child all[2] = {
		{ .weight = 1, .committed_rate = MBPS(100) },
		{ .weight = 1, .committed_rate = MBPS(300) },
	};
	struct pacing_sched_child extra[3] = {
		{ .weight = 1, .committed_rate = MBPS(100) },
		{ .weight = 1, .committed_rate = MBPS(300) },
		{ .weight = 1 },
	};
	struct pacing_error err;

	/* Every child committed, summing to the parent: 1:3 is exact. */
	CHECK_EQ(pacing_sched_shares(all, 2, MBPS(400), 100, &err), 0);
	CHECK_EQ(all[0].contended_rate, MBPS(100));
	CHECK_EQ(all[1].contended_rate, MBPS(300));
	/* A third child would take at least one share from them. */
	CHECK_EQ(pacing_sched_shares(extra, 3, MBPS(400), 100, &err),
		 -EINVAL);
	CHECK_STR(err.message, "cannot be guaranteed");
}

/* Bad arguments are named. */
void
test_sched_bad_args(void)
{
	struct pacing_sched_child c[2] = { { .weight = 1 }, { .weight = 0 } };
	struct pacing_error err;

	CHECK_EQ(pacing_sched_shares(c, 2, MBPS(1), 100, &err), -EINVAL);
	CHECK_EQ(err.field, PACING_FIELD_WEIGHT);
	CHECK_STR(err.message, "child 1");
	c[1].weight = 1;
	CHECK_EQ(pacing_sched_shares(c, 2, 0, 100, &err), -EINVAL);
	CHECK_EQ(err.field, PACING_FIELD_ARGUMENT);
	CHECK_EQ(pacing_sched_shares(c, 0, MBPS(1), 100, &err), -EINVAL);
	CHECK_EQ(pacing_sched_shares(c, 2, MBPS(1), 0, &err), -EINVAL);
}

/* Many children under a large share range: every one at least 1. */
void
test_sched_many_children(void)
{
	struct pacing_sched_child c[256];
	struct pacing_error err;
	uint32_t i;

	for (i = 0; i < 256; i++)
		c[i] = (struct pacing_sched_child){ .weight = 1 + i % 7 };
	CHECK_EQ(pacing_sched_shares(c, 256, MBPS(100000), 100, &err), 0);
	for (i = 0; i < 256; i++) {
		CHECK(c[i].bw_share >= 1 && c[i].bw_share <= 100,
		      "child %u share %u", i, c[i].bw_share);
		if (i >= 7)
			CHECK_EQ(c[i].bw_share, c[i - 7].bw_share);
	}
	/* 1..7 needs 7 distinct shares: exact at a multiple of 7. */
	CHECK_EQ(c[6].bw_share, 7 * c[0].bw_share);
}
