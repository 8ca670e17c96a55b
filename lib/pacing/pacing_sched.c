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
 * Scales tried for the largest share, at each end of the range: the top
 * gives the finest ratios, the bottom the smallest shares (the shortest
 * DWRR rounds), so a huge max_share needs no exhaustive search.
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

/* What one scale of a family's shares gives. */
struct scale_fit {
	double spread;  /* max(s / t) / min(s / t) - 1 */
	double worst;   /* largest |contended - target| / target */
	uint32_t over;  /* child of max(s / t) */
	uint32_t under; /* child of min(s / t) */
};

/*
 * Shares for one scale k (the largest target gets k), and with @p fill the
 * children's results. Returns false when @p guarantee and they cannot
 * guarantee every committed rate, else fills @p f.
 */
static bool
shares_for_scale(struct pacing_sched_child *c, const double *target,
		 uint32_t n, double t_max, uint64_t parent_rate, uint32_t k,
		 uint32_t *share, bool fill, bool guarantee,
		 struct scale_fit *f)
{
	double r_max = -1.0, r_min = -1.0;
	uint64_t sum = 0;
	uint32_t i;

	f->worst = 0.0;
	f->over = f->under = 0;
	for (i = 0; i < n; i++) {
		double s = target[i] * k / t_max;
		uint64_t v = (uint64_t)llround(s);

		share[i] = v < 1 ? 1 : (uint32_t)v;
		sum += share[i];
	}
	for (i = 0; i < n; i++) {
		double got, r, e = 0.0;

		/* Contended rate P * s / S >= c, in integers. */
		if (guarantee && c[i].committed_rate != 0 &&
		    (unsigned __int128)parent_rate * share[i] <
		    (unsigned __int128)c[i].committed_rate * sum)
			return false;
		got = (double)parent_rate * share[i] / (double)sum;
		/* A target of 0 (committed rates take all) has no ratio. */
		if (target[i] > 0.0) {
			e = fabs(got - target[i]) / target[i];
			r = share[i] / target[i];
			if (r_max < 0.0 || r > r_max) {
				r_max = r;
				f->over = i;
			}
			if (r_min < 0.0 || r < r_min) {
				r_min = r;
				f->under = i;
			}
		}
		if (e > f->worst)
			f->worst = e;
		if (!fill)
			continue;
		c[i].bw_share = share[i];
		c[i].contended_rate = (uint64_t)
			((unsigned __int128)parent_rate * share[i] / sum);
		c[i].error_ppm = (uint32_t)llround(e * 1e6);
	}
	f->spread = r_min > 0.0 ? r_max / r_min - 1.0 : 0.0;
	return true;
}

/* @p a fits better than @p b: smaller spread, then smaller worst error. */
static bool
better(const struct scale_fit *a, const struct scale_fit *b)
{
	if (a->spread != b->spread)
		return a->spread < b->spread;
	return a->worst < b->worst;
}

static uint32_t
ppm_of(double x)
{
	return x * 1e6 >= (double)UINT32_MAX ? UINT32_MAX :
	       (uint32_t)llround(x * 1e6);
}

/*
 * The best scale for @p target (of largest @p t_max) in 1..@p max_share
 * into @p best; 0 when none guarantees the committed rates (@p guarantee).
 * Smallest scale first, a larger one only when it fits better: of equally
 * good shares the smallest, so that the device interleaves its children
 * at the finest grain (exact ones end the search).
 */
static uint32_t
best_scale(struct pacing_sched_child *c, const double *target, uint32_t n,
	   double t_max, uint64_t parent_rate, uint32_t max_share,
	   bool guarantee, uint32_t *share, struct scale_fit *best)
{
	uint32_t k, k_high, best_k = 0;
	struct scale_fit f;

	best->spread = -1.0;
	k_high = max_share > SCHED_SCALES_TRIED ?
		 max_share - SCHED_SCALES_TRIED + 1 : 1;
	for (k = 1; k <= max_share && best->spread != 0.0; k++) {
		if (k > SCHED_SCALES_TRIED && k < k_high)
			k = k_high;
		if (shares_for_scale(c, target, n, t_max, parent_rate, k,
				     share, false, guarantee, &f) &&
		    (best->spread < 0.0 || better(&f, best))) {
			*best = f;
			best_k = k;
		}
		if (k == max_share)
			break;
	}
	return best_k;
}

/*
 * Whether the weights of @p c alone (committed rates left out: targets in
 * proportion to the weights) have shares within @p tolerance_ppm; @p target
 * and @p share are scratch of @p n.
 */
static bool
weights_fit(struct pacing_sched_child *c, uint32_t n, uint64_t parent_rate,
	    uint32_t max_share, uint32_t tolerance_ppm, double *target,
	    uint32_t *share)
{
	struct scale_fit f;
	double w_max = 0.0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		target[i] = c[i].weight;
		if (target[i] > w_max)
			w_max = target[i];
	}
	return best_scale(c, target, n, w_max, parent_rate, max_share, false,
			  share, &f) != 0 && ppm_of(f.spread) <= tolerance_ppm;
}

/*
 * The refusal of a fit above the tolerance, naming the two children: the
 * committed rates' matter when the family has some and its weights alone
 * would fit (the two children named may have none: a sibling's committed
 * rate moves their targets), else the weights'.
 */
static int
refuse_fit(const struct pacing_sched_child *c, const struct pacing_sched_fit *f,
	   uint32_t max_share, uint32_t tolerance_ppm, bool rates_at_fault,
	   struct pacing_error *err)
{
	const struct pacing_sched_child *o = &c[f->over], *u = &c[f->under];

	return pacing_error_set(err, rates_at_fault ?
			PACING_FIELD_COMMITTED_RATE : PACING_FIELD_WEIGHT,
			-ERANGE,
		"children %u (weight %u, committed %.3f Mbit/s) and %u "
		"(weight %u, committed %.3f Mbit/s): bw_share %u..%u holds "
		"their ratio within %.2f%% at best (shares %u and %u), not "
		"within %.2f%%", f->over, o->weight, mbps(o->committed_rate),
		f->under, u->weight, mbps(u->committed_rate), 1u, max_share,
		f->error_ppm / 1e4, f->over_share, f->under_share,
		tolerance_ppm / 1e4);
}

int
pacing_sched_shares(struct pacing_sched_child *c, uint32_t n,
		    uint64_t parent_rate, uint32_t max_share,
		    uint32_t tolerance_ppm, struct pacing_sched_fit *fit,
		    struct pacing_error *err)
{
	uint64_t weights = 0, committed = 0;
	double *target = NULL, t_max = 0.0;
	struct scale_fit best, f;
	struct pacing_sched_fit out;
	uint32_t *share = NULL;
	uint32_t i, best_k;
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
	best_k = best_scale(c, target, n, t_max, parent_rate, max_share, true,
			    share, &best);
	if (best_k == 0) {
		ret = pacing_error_set(err, PACING_FIELD_COMMITTED_RATE,
			-EINVAL, "committed rates summing to %.3f Mbit/s of "
			"the parent's %.3f Mbit/s cannot be guaranteed with "
			"shares in 1..%u among %u children (each child without "
			"a committed rate takes at least 1 share): leave more "
			"room below the parent's rate", mbps(committed),
			mbps(parent_rate), max_share, n);
		goto out;
	}
	/* The best scale again, for its shares. */
	shares_for_scale(c, target, n, t_max, parent_rate, best_k, share,
			 false, true, &f);
	out = (struct pacing_sched_fit){
		.error_ppm = ppm_of(best.spread),
		.over = best.over, .under = best.under,
		.over_share = share[best.over],
		.under_share = share[best.under],
	};
	if (fit != NULL)
		*fit = out;
	if (out.error_ppm > tolerance_ppm) {
		ret = refuse_fit(c, &out, max_share, tolerance_ppm,
				 committed != 0 && weights_fit(c, n,
					parent_rate, max_share, tolerance_ppm,
					target, share), err);
		goto out;
	}
	shares_for_scale(c, target, n, t_max, parent_rate, best_k, share,
			 true, true, &f);
out:
	free(target);
	free(share);
	return ret;
}
