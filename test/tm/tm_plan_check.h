/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TM_PLAN_CHECK_H
#define TM_PLAN_CHECK_H

/*
 * Two plans compared as the device would hold them (tests only): the same
 * elements by key (whatever their order in the array) with the same
 * parent, values and bookkeeping, and every queue alike, its group named
 * by key.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "tm_plan.h"

/* Key of element @p i of @p p, UINT64_MAX for none (no key is). */
static inline uint64_t
tm_plan_check_key(const struct tm_plan *p, uint32_t i)
{
	return i == TM_PLAN_NONE ? UINT64_MAX : p->elems[i].key;
}

static inline uint32_t
tm_plan_check_find(const struct tm_plan *p, uint64_t key)
{
	uint32_t i;

	for (i = 0; i < p->n_elems; i++)
		if (p->elems[i].key == key)
			return i;
	return TM_PLAN_NONE;
}

/* @p x and @p y the same; else false, @p why (if not NULL) says where. */
static inline bool
tm_plan_same(const struct tm_plan *x, const struct tm_plan *y, char *why,
	     size_t len)
{
	uint32_t i, j;
	uint16_t q;

#define TM_PLAN_DIFFER(...) do { \
	if (why != NULL) \
		snprintf(why, len, __VA_ARGS__); \
	return false; \
} while (0)
	if (x->n_elems != y->n_elems || x->n_groups != y->n_groups ||
	    x->shared_groups != y->shared_groups || x->nb_txq != y->nb_txq ||
	    x->n_asks != y->n_asks)
		TM_PLAN_DIFFER("elements %u/%u, groups %u/%u, shared %d/%d, "
			       "queues %u/%u, asking nodes %u/%u", x->n_elems,
			       y->n_elems, x->n_groups, y->n_groups,
			       x->shared_groups, y->shared_groups, x->nb_txq,
			       y->nb_txq, x->n_asks, y->n_asks);
	for (i = 0; i < x->n_elems; i++) {
		const struct tm_elem *a = &x->elems[i], *b;

		j = tm_plan_check_find(y, a->key);
		if (j == TM_PLAN_NONE)
			TM_PLAN_DIFFER("element %#" PRIx64 " only in one",
				       a->key);
		b = &y->elems[j];
		if (tm_plan_check_key(x, a->parent) !=
		    tm_plan_check_key(y, b->parent) || a->type != b->type ||
		    a->node_id != b->node_id || a->weight != b->weight ||
		    a->bw_share != b->bw_share ||
		    a->max_average_bw != b->max_average_bw ||
		    a->error_ppm != b->error_ppm ||
		    a->committed_rate != b->committed_rate ||
		    a->n_kids != b->n_kids)
			TM_PLAN_DIFFER("element %#" PRIx64 " (node %u): weight "
				       "%u/%u share %u/%u ceiling %u/%u error "
				       "%u/%u committed %" PRIu64 "/%" PRIu64
				       " children %u/%u",
				       a->key, a->node_id, a->weight, b->weight,
				       a->bw_share, b->bw_share,
				       a->max_average_bw, b->max_average_bw,
				       a->error_ppm, b->error_ppm,
				       a->committed_rate, b->committed_rate,
				       a->n_kids, b->n_kids);
	}
	for (q = 0; q < x->nb_txq; q++) {
		const struct tm_queue *a = &x->queues[q], *b = &y->queues[q];

		if (a->shaped != b->shaped || a->suspended != b->suspended ||
		    tm_plan_check_key(x, a->group) !=
		    tm_plan_check_key(y, b->group) ||
		    (a->shaped && !pacing_ctx_equal(&a->ctx, &b->ctx)))
			TM_PLAN_DIFFER("queue %u: shaped %d/%d suspended %d/%d "
				       "group %#" PRIx64 "/%#" PRIx64, q,
				       a->shaped, b->shaped, a->suspended,
				       b->suspended,
				       tm_plan_check_key(x, a->group),
				       tm_plan_check_key(y, b->group));
	}
#undef TM_PLAN_DIFFER
	return true;
}

#endif /* TM_PLAN_CHECK_H */
