/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Scheduling-element arithmetic: ceilings, weights, committed rates. */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pacing_sched.h"
#include "pacing_table.h"
#include "splitmix64.h"
#include "test_common.h"
#include "test_lib.h"

#define MBPS(x) ((uint64_t)(x) * PACING_BYTES_PER_MBPS)
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The library's shares at the tolerance the driver uses (1%). */
static int
shares(struct pacing_sched_child *c, uint32_t n, uint64_t parent_rate,
       uint32_t max_share, struct pacing_error *err)
{
	return pacing_sched_shares(c, n, parent_rate, max_share,
				   PACING_SCHED_TOLERANCE_PPM, NULL, err);
}

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

	CHECK_EQ(shares(c, 3, MBPS(400), 100, &err), 0);
	CHECK_EQ(c[0].bw_share * 2, c[1].bw_share);
	CHECK_EQ(c[0].bw_share * 5, c[2].bw_share);
	CHECK(c[2].bw_share <= 100, "share %u above 100", c[2].bw_share);
	CHECK_EQ(c[0].contended_rate, MBPS(50));
	CHECK_EQ(c[1].contended_rate, MBPS(100));
	CHECK_EQ(c[2].contended_rate, MBPS(250));
	CHECK_EQ(c[0].error_ppm + c[1].error_ppm + c[2].error_ppm, 0);
}

/*
 * Ratios the share range cannot hold within 1% are refused, naming the
 * two children, their weights, the best shares and the range; with a
 * tolerance as wide as the error, the same shares are given.
 */
void
test_sched_weights_rounded(void)
{
	struct pacing_sched_child c[2] = {
		{ .weight = 1, .bw_share = 7 },
		{ .weight = 1000, .bw_share = 7 },
	};
	struct pacing_sched_fit fit;
	struct pacing_error err;

	CHECK_EQ(pacing_sched_shares(c, 2, MBPS(1000), 100,
				     PACING_SCHED_TOLERANCE_PPM, &fit, &err),
		 -ERANGE);
	CHECK_EQ(err.field, PACING_FIELD_WEIGHT);
	CHECK_EQ(c[0].bw_share, 7);
	CHECK_EQ(c[1].bw_share, 7);
	/* Asked 1:1000, best 1:100: the small child 9.01 times its share. */
	CHECK_EQ(fit.over, 0);
	CHECK_EQ(fit.under, 1);
	CHECK_EQ(fit.over_share, 1);
	CHECK_EQ(fit.under_share, 100);
	CHECK(fit.error_ppm > 8990000 && fit.error_ppm < 9010000,
	      "fit %u ppm", fit.error_ppm);
	CHECK_STR(err.message, "weight 1,");
	CHECK_STR(err.message, "weight 1000,");
	CHECK_STR(err.message, "bw_share 1..100");
	CHECK_STR(err.message, "shares 1 and 100");
	CHECK_EQ(pacing_sched_shares(c, 2, MBPS(1000), 100, 9100000, &fit,
				     &err), 0);
	CHECK_EQ(c[0].bw_share, 1);
	CHECK_EQ(c[1].bw_share, 100);
	/* 1:3 needs a share of 33.3 at 100: 33:99 at 99 is exact. */
	c[1].weight = 3;
	CHECK_EQ(shares(c, 2, MBPS(1000), 100, &err), 0);
	CHECK_EQ(c[0].bw_share * 3, c[1].bw_share);
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

	CHECK_EQ(shares(c, 3, MBPS(400), 100, &err), 0);
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

	CHECK_EQ(shares(c, 2, MBPS(400), 100, &err), -EINVAL);
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
	CHECK_EQ(shares(all, 2, MBPS(400), 100, &err), 0);
	CHECK_EQ(all[0].contended_rate, MBPS(100));
	CHECK_EQ(all[1].contended_rate, MBPS(300));
	/* A third child would take at least one share from them. */
	CHECK_EQ(shares(extra, 3, MBPS(400), 100, &err),
		 -EINVAL);
	CHECK_STR(err.message, "cannot be guaranteed");
}

/* Bad arguments are named. */
void
test_sched_bad_args(void)
{
	struct pacing_sched_child c[2] = { { .weight = 1 }, { .weight = 0 } };
	struct pacing_error err;

	CHECK_EQ(shares(c, 2, MBPS(1), 100, &err), -EINVAL);
	CHECK_EQ(err.field, PACING_FIELD_WEIGHT);
	CHECK_STR(err.message, "child 1");
	c[1].weight = 1;
	CHECK_EQ(shares(c, 2, 0, 100, &err), -EINVAL);
	CHECK_EQ(err.field, PACING_FIELD_ARGUMENT);
	CHECK_EQ(shares(c, 0, MBPS(1), 100, &err), -EINVAL);
	CHECK_EQ(shares(c, 2, MBPS(1), 0, &err), -EINVAL);
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
	CHECK_EQ(shares(c, 256, MBPS(100000), 100, &err), 0);
	for (i = 0; i < 256; i++) {
		CHECK(c[i].bw_share >= 1 && c[i].bw_share <= 100,
		      "child %u share %u", i, c[i].bw_share);
		if (i >= 7)
			CHECK_EQ(c[i].bw_share, c[i - 7].bw_share);
	}
	/* 1..7 needs 7 distinct shares: exact at a multiple of 7. */
	CHECK_EQ(c[6].bw_share, 7 * c[0].bw_share);
}

/*
 * Committed rates whose targets' ratio the range cannot hold: 10 and
 * 1500 Mbit/s (1490 committed) of 1510: refused as a committed-rate
 * matter, though 1:100 would still guarantee the 1490.
 */
void
test_sched_committed_unholdable(void)
{
	struct pacing_sched_child c[2] = {
		{ .weight = 1 }, { .weight = 1, .committed_rate = MBPS(1490) },
	};
	struct pacing_sched_fit fit;
	struct pacing_error err;

	CHECK_EQ(pacing_sched_shares(c, 2, MBPS(1510), 100,
				     PACING_SCHED_TOLERANCE_PPM, &fit, &err),
		 -ERANGE);
	CHECK_EQ(err.field, PACING_FIELD_COMMITTED_RATE);
	CHECK_STR(err.message, "committed 1490.000 Mbit/s");
	CHECK(fit.error_ppm > 10000, "fit %u ppm", fit.error_ppm);
}

/*
 * A committed rate squeezes its siblings' targets: weights 66, 22 and 1
 * (a ratio bw_share holds exactly) with 200 of the 400 Gbit/s committed
 * to the weight-22 child leave the other two targets of 65.2 and 1.1
 * Gbit/s that no shares in 1..100 hold within 1%. The two children named
 * have no committed rate, yet the committed rate is at fault (issue 31:
 * it was refused as a weight matter, "use weights whose ratio is one of
 * small whole numbers"); weights that cannot be held are still theirs.
 */
void
test_sched_committed_sibling_at_fault(void)
{
	struct pacing_sched_child c[3] = {
		{ .weight = 66 },
		{ .weight = 22, .committed_rate = MBPS(200000) },
		{ .weight = 1 },
	};
	struct pacing_sched_fit fit;
	struct pacing_error err;

	CHECK_EQ(pacing_sched_shares(c, 3, MBPS(400000), 100,
				     PACING_SCHED_TOLERANCE_PPM, &fit, &err),
		 -ERANGE);
	CHECK_EQ(err.field, PACING_FIELD_COMMITTED_RATE);
	CHECK(c[fit.over].committed_rate == 0 &&
	      c[fit.under].committed_rate == 0, "children %u and %u named",
	      fit.over, fit.under);
	/* Without the committed rate the same weights are exact. */
	c[1].committed_rate = 0;
	CHECK_EQ(shares(c, 3, MBPS(400000), 100, &err), 0);
	/* Weights 1000:1 beside a committed rate: the weights' matter. */
	c[0].weight = 1000;
	c[1].committed_rate = MBPS(1000);
	CHECK_EQ(shares(c, 3, MBPS(400000), 100, &err), -ERANGE);
	CHECK_EQ(err.field, PACING_FIELD_WEIGHT);
}

/* Uniform draw in [0, n). */
static uint64_t
draw(uint64_t *st, uint64_t n)
{
	return splitmix64(st) % n;
}

/*
 * Weighted max-min by progressive filling: each of @p n children gets
 * min(cap_i, level * w_i), the level raised until @p total is given out
 * or every child is at its cap (cap < 0: none). Written for this test,
 * apart from the library and the device model.
 */
static void
water_fill(const double *w, const double *cap, uint32_t n, double total,
	   double *got)
{
	bool done[64] = { false };
	double left = total, wsum, level = 0.0;
	uint32_t i, fixed;

	do {
		wsum = 0.0;
		for (i = 0; i < n; i++)
			if (!done[i])
				wsum += w[i];
		if (wsum == 0.0)
			break;
		level = left / wsum;
		fixed = 0;
		for (i = 0; i < n; i++)
			if (!done[i] && cap[i] >= 0.0 &&
			    cap[i] <= level * w[i]) {
				got[i] = cap[i];
				left -= cap[i];
				done[i] = true;
				fixed++;
			}
	} while (fixed > 0);
	for (i = 0; i < n; i++)
		if (!done[i])
			got[i] = level * w[i];
}

/* One random family: weights, committed rates, a parent rate. */
static uint32_t
random_family(uint64_t *st, struct pacing_sched_child *c, uint64_t *parent)
{
	static const uint32_t wmax[] = { 1, 3, 10, 100, 1000 };
	uint32_t n = 1 + (uint32_t)draw(st, 64), i;
	uint32_t top = wmax[draw(st, N_OF(wmax))];
	uint64_t p = MBPS(1 + draw(st, 400000)), left;

	*parent = p;
	/* Committed rates in a third of the families, below the parent. */
	left = draw(st, 3) == 0 ? p - p / (2 + draw(st, 50)) : 0;
	for (i = 0; i < n; i++) {
		c[i] = (struct pacing_sched_child){
			.weight = 1 + (uint32_t)draw(st, top),
		};
		if (left > 0 && draw(st, 2) == 0) {
			c[i].committed_rate = draw(st, left / 2 + 1);
			left -= c[i].committed_rate;
		}
	}
	return n;
}

/*
 * Property, over random families (1..64 children, weights up to 1..1000,
 * committed rates): every family the library accepts keeps every child
 * within 1% of the rule's rate, with all backlogged and when random
 * siblings are held below their share by limits of their own (the rest
 * redistribute: the device by shares, the rule by targets); a committed
 * child gets its committed rate under full contention; a refusal is a
 * fit above 1% (checked here by the same definition) or a committed-rate
 * refusal. Counted, not assumed: the run says how many it accepted.
 */
void
test_sched_families(uint64_t seed, unsigned int nb_families)
{
	uint64_t st = seed, parent;
	unsigned int f, accepted = 0, refused = 0, capped_runs = 0;
	struct pacing_sched_child c[64];
	struct pacing_sched_fit fit;
	struct pacing_error err;
	double t[64], s[64], cap[64], dev[64], rule[64], worst = 0.0;

	for (f = 0; f < nb_families && !test_case_failed; f++) {
		uint64_t wsum = 0, csum = 0;
		uint32_t n = random_family(&st, c, &parent), i, r;
		int ret;

		for (i = 0; i < n; i++) {
			wsum += c[i].weight;
			csum += c[i].committed_rate;
		}
		for (i = 0; i < n; i++)
			t[i] = (double)c[i].committed_rate +
			       (double)(parent - csum) * c[i].weight / wsum;
		ret = pacing_sched_shares(c, n, parent, 100,
					  PACING_SCHED_TOLERANCE_PPM, &fit,
					  &err);
		if (ret == -ERANGE) {
			double ro = fit.over_share / t[fit.over];
			double ru = fit.under_share / t[fit.under];

			CHECK(ro / ru - 1.0 > 0.01 - 1e-9 &&
			      fit.error_ppm > PACING_SCHED_TOLERANCE_PPM,
			      "family %u refused at a fit of %.4f%%", f,
			      (ro / ru - 1.0) * 100);
			refused++;
			continue;
		}
		if (ret != 0) {
			CHECK(ret == -EINVAL &&
			      err.field == PACING_FIELD_COMMITTED_RATE,
			      "family %u: %d %s", f, ret, err.message);
			refused++;
			continue;
		}
		accepted++;
		for (i = 0; i < n; i++) {
			s[i] = c[i].bw_share;
			cap[i] = -1.0;
			CHECK(c[i].contended_rate >= c[i].committed_rate,
			      "family %u child %u: %" PRIu64 " < committed %"
			      PRIu64, f, i, c[i].contended_rate,
			      c[i].committed_rate);
		}
		/* All backlogged, then 8 random sets of capped siblings. */
		for (r = 0; r < 9; r++) {
			for (i = 0; r > 0 && i < n; i++)
				cap[i] = draw(&st, 2) == 0 ? -1.0 :
					 t[i] * draw(&st, 1500) / 1000.0;
			water_fill(s, cap, n, (double)parent, dev);
			water_fill(t, cap, n, (double)parent, rule);
			for (i = 0; i < n; i++) {
				double e = rule[i] > 0.0 ?
					   fabs(dev[i] / rule[i] - 1.0) : 0.0;

				if (e > worst)
					worst = e;
				CHECK(e <= 0.01 + 1e-9, "family %u (seed %"
				      PRIu64 "), run %u, child %u of %u: "
				      "%.2f bytes/s against the rule's %.2f "
				      "(%.3f%%)", f, seed, r, i, n, dev[i],
				      rule[i], e * 100);
			}
			capped_runs++;
		}
	}
	printf("  seed %" PRIu64 ": %u families, %u accepted, %u refused, "
	       "%u runs with capped siblings, largest error %.4f%%\n", seed,
	       f, accepted, refused, capped_runs, worst * 100);
	/* The property must have been checked, not skipped. */
	CHECK(accepted >= nb_families / 2, "only %u of %u families accepted",
	      accepted, nb_families);
}
