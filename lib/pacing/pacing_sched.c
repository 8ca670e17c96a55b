/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "pacing_sched.h"

/*
 * Scales tried for the largest share: the top of the range gives the
 * finest ratios, so a huge max_share needs no exhaustive search.
 */
#define SCHED_SCALES_TRIED 1024u

static double
mbps(uint64_t bytes_per_s)
{
	return (double)bytes_per_s * 8.0 / 1e6;
}

int
pacing_sched_ceiling(uint64_t bytes_per_s, uint32_t max_mbps, uint32_t *out,
		     struct pacing_error *err)
{
	uint64_t v;

	pacing_error_clear(err);
	if (out == NULL)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
					"no place for the ceiling given");
	if (bytes_per_s == 0) {
		*out = 0;
		return 0;
	}
	v = bytes_per_s / PACING_BYTES_PER_MBPS;
	if (v == 0 || v > max_mbps)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
			"peak rate %" PRIu64 " bytes/s (%.3f Mbit/s) is outside "
			"what a scheduling element's ceiling can be: %u..%" PRIu64
			" bytes/s (1..%u Mbit/s, in whole Mbit/s), or 0 for none",
			bytes_per_s, mbps(bytes_per_s), PACING_BYTES_PER_MBPS,
			(uint64_t)max_mbps * PACING_BYTES_PER_MBPS, max_mbps);
	*out = (uint32_t)v;
	return 0;
}

/*
 * Shares for one scale k (the largest target gets about k), and with
 * @p fill the children's results. Returns the largest relative error
 * (>= 0), or a negative value when they cannot guarantee every committed
 * rate.
 */
static double
shares_for_scale(struct pacing_sched_child *c, const double *target,
		 uint32_t n, double t_max, uint64_t parent_rate, uint32_t k,
		 uint32_t *share, bool fill)
{
	uint64_t sum = 0;
	double worst = 0.0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		double s = target[i] * k / t_max;
		uint64_t v = (uint64_t)llround(s);

		share[i] = v < 1 ? 1 : (uint32_t)v;
		sum += share[i];
	}
	for (i = 0; i < n; i++) {
		double got, e = 0.0;

		/* Contended rate P * s / S >= c, in integers. */
		if (c[i].committed_rate != 0 &&
		    (unsigned __int128)parent_rate * share[i] <
		    (unsigned __int128)c[i].committed_rate * sum)
			return -1.0;
		got = (double)parent_rate * share[i] / (double)sum;
		if (target[i] > 0.0)
			e = fabs(got - target[i]) / target[i];
		if (e > worst)
			worst = e;
		if (!fill)
			continue;
		c[i].bw_share = share[i];
		c[i].contended_rate = (uint64_t)
			((unsigned __int128)parent_rate * share[i] / sum);
		c[i].error_ppm = (uint32_t)llround(e * 1e6);
	}
	return worst;
}

int
pacing_sched_shares(struct pacing_sched_child *c, uint32_t n,
		    uint64_t parent_rate, uint32_t max_share,
		    struct pacing_error *err)
{
	uint64_t weights = 0, committed = 0;
	double *target = NULL, t_max = 0.0, best = -1.0;
	uint32_t *share = NULL;
	uint32_t i, k, k_low, best_k = 0;
	int ret = 0;

	pacing_error_clear(err);
	if (c == NULL || n == 0 || parent_rate == 0 || max_share == 0)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
			"children %s, count %u, parent rate %" PRIu64
			" bytes/s, share range 1..%u: each must be non-zero",
			c == NULL ? "missing" : "given", n, parent_rate,
			max_share);
	for (i = 0; i < n; i++) {
		if (c[i].weight == 0)
			return pacing_error_set(err, PACING_FIELD_WEIGHT,
				-EINVAL, "weight 0 of child %u: weights are "
				"1 or more", i);
		weights += c[i].weight;
		committed += c[i].committed_rate;
	}
	if (committed > parent_rate)
		return pacing_error_set(err, PACING_FIELD_COMMITTED_RATE,
			-EINVAL, "committed rates of the %u children sum to "
			"%" PRIu64 " bytes/s (%.3f Mbit/s), above the %" PRIu64
			" bytes/s (%.3f Mbit/s) their parent gives: lower them "
			"or raise the parent's ceiling", n, committed,
			mbps(committed), parent_rate, mbps(parent_rate));

	target = calloc(n, sizeof(*target));
	share = calloc(n, sizeof(*share));
	if (target == NULL || share == NULL) {
		ret = pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
				       "no memory for %u children", n);
		goto out;
	}
	for (i = 0; i < n; i++) {
		target[i] = (double)c[i].committed_rate +
			(double)(parent_rate - committed) * c[i].weight /
			(double)weights;
		if (target[i] > t_max)
			t_max = target[i];
	}
	k_low = max_share > SCHED_SCALES_TRIED ?
		max_share - SCHED_SCALES_TRIED + 1 : 1;
	for (k = max_share; k >= k_low && best != 0.0; k--) {
		double e = shares_for_scale(c, target, n, t_max, parent_rate,
					    k, share, false);

		if (e >= 0.0 && (best < 0.0 || e < best)) {
			best = e;
			best_k = k;
		}
		if (k == 1)
			break;
	}
	if (best < 0.0) {
		ret = pacing_error_set(err, PACING_FIELD_COMMITTED_RATE,
			-EINVAL, "committed rates summing to %.3f Mbit/s of "
			"the parent's %.3f Mbit/s cannot be guaranteed with "
			"shares in 1..%u among %u children (each child without "
			"a committed rate takes at least 1 share): leave more "
			"room below the parent's rate", mbps(committed),
			mbps(parent_rate), max_share, n);
		goto out;
	}
	shares_for_scale(c, target, n, t_max, parent_rate, best_k, share,
			 true);
out:
	free(target);
	free(share);
	return ret;
}
