/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tm_plan.h"

/*
 * Element keys: what an element stands for, equal across two plans. A
 * queue group is named by its first leaf (the smallest id), so that a
 * group continues while that leaf stays in it.
 */
enum key_kind { KEY_PORT, KEY_NODE, KEY_GROUP };

static uint64_t
make_key(enum key_kind kind, uint32_t id, uint32_t weight)
{
	return (uint64_t)kind << 48 | (uint64_t)id << 16 | (weight & 0xffff);
}

/* A node's committed rate (bytes/s), 0 without one. */
static uint64_t
committed(const struct tm_node *n)
{
	return n->profile != NULL ? n->profile->params.committed.rate : 0;
}

/*
 * Sort key of a non-root node: the order the plan is built in is by
 * level, siblings together (by parent id), non-leaf before leaves,
 * committed leaves before the others, then by weight, so that the
 * leaves that share a group are contiguous: 2 + 32 + 2 + 16 bits.
 */
static uint64_t
order_key(const struct tm_node *n)
{
	unsigned int kind = !n->leaf ? 0 : committed(n) != 0 ? 1 : 2;

	return (uint64_t)n->level << 50 | (uint64_t)n->parent->id << 18 |
	       (uint64_t)kind << 16 | n->weight;
}

/*
 * Sort @p n nodes by key (stable: ties stay in list order), with the
 * scratch @p tmp of the same size: a radix sort, one pass per byte of the
 * key that differs between nodes; linear, no allocation.
 */
static void
sort_nodes(struct tm_plan_order *v, struct tm_plan_order *tmp, uint32_t n)
{
	uint32_t count[256], i, b;
	uint64_t differ = 0;

	for (i = 1; i < n; i++)
		differ |= v[i].key ^ v[0].key;
	for (b = 0; b < 64 && differ >> b != 0; b += 8) {
		uint32_t sum = 0, c;

		if (((differ >> b) & 0xff) == 0)
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(v[i].key >> b) & 0xff]++;
		for (i = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[(v[i].key >> b) & 0xff]++] = v[i];
		memcpy(v, tmp, sizeof(*v) * n);
	}
}

/* State of one plan computation. */
struct builder {
	struct tm_tree *t;
	struct tm_plan *p;
	uint64_t *eff;                   /* per element: effective ceiling */
	struct pacing_sched_child *kids; /* shares of one family */
	bool shared;                     /* leaves may share a group */
	struct rte_tm_error *error;
};

/*
 * @p buf grown from @p old to @p n items of @p size, the new ones zeroed
 * now (their pages touched here, not during a change); on failure kept,
 * *ok false.
 */
static void *
resize(void *buf, size_t old, size_t n, size_t size, bool *ok)
{
	char *p = realloc(buf, (n > 0 ? n : 1) * size);

	*ok = *ok && p != NULL;
	if (p == NULL)
		return buf;
	memset(p + old * size, 0, (n - old) * size);
	return p;
}

/* Room in @p p for @p nb_txq queues and @p n elements (and scratch). */
static int
reserve_plan(struct tm_plan *p, uint16_t nb_txq, uint32_t n)
{
	bool ok = true;

	if (nb_txq > p->queues_cap) {
		p->queues = resize(p->queues, p->queues_cap, nb_txq,
				   sizeof(*p->queues), &ok);
		p->touched_q = resize(p->touched_q, p->queues_cap, nb_txq,
				      sizeof(*p->touched_q), &ok);
		p->qmark = resize(p->qmark, p->queues_cap, nb_txq,
				  sizeof(*p->qmark), &ok);
		if (ok)
			p->queues_cap = nb_txq;
	}
	if (n > p->nodes_cap) {
		p->elems = resize(p->elems, p->nodes_cap, n,
				  sizeof(*p->elems), &ok);
		p->eff = resize(p->eff, p->nodes_cap, n, sizeof(*p->eff), &ok);
		p->kids = resize(p->kids, p->nodes_cap, n, sizeof(*p->kids),
				 &ok);
		p->order = resize(p->order, p->nodes_cap, n,
				  sizeof(*p->order), &ok);
		p->order_tmp = resize(p->order_tmp, p->nodes_cap, n,
				      sizeof(*p->order_tmp), &ok);
		p->touched = resize(p->touched, p->nodes_cap, n,
				    sizeof(*p->touched), &ok);
		p->mark = resize(p->mark, p->nodes_cap, n, sizeof(*p->mark),
				 &ok);
		if (ok)
			p->nodes_cap = n;
	}
	return ok ? 0 : -ENOMEM;
}

/* Room in @p d for the steps between plans of @p n_old and @p n_new
 * elements and @p nq queues. */
static int
reserve_diff(struct tm_diff *d, uint32_t n_old, uint32_t n_new, uint32_t nq)
{
	uint32_t ops = n_old + n_new * 2 + nq * 5;
	uint32_t elems = (n_old > n_new ? n_old : n_new) + 1;
	bool ok = true;

	if (ops > d->ops_cap) {
		d->ops = resize(d->ops, d->ops_cap, ops, sizeof(*d->ops), &ok);
		if (ok)
			d->ops_cap = ops;
	}
	if (nq > d->queues_cap) {
		d->qsteps = resize(d->qsteps, d->queues_cap, nq,
				   sizeof(*d->qsteps), &ok);
		if (ok)
			d->queues_cap = nq;
	}
	if (elems > d->elems_cap) {
		d->match = resize(d->match, d->elems_cap, elems,
				  sizeof(*d->match), &ok);
		d->keys = resize(d->keys, d->elems_cap, elems,
				 sizeof(*d->keys), &ok);
		d->kept = resize(d->kept, d->elems_cap, elems,
				 sizeof(*d->kept), &ok);
		if (ok)
			d->elems_cap = elems;
	}
	return ok ? 0 : -ENOMEM;
}

int
tm_plan_reserve(struct tm_plan *plan, struct tm_diff *diff, uint16_t nb_txq,
		uint32_t n_nodes)
{
	if (reserve_plan(plan, nb_txq, n_nodes + 2) != 0 ||
	    reserve_diff(diff, n_nodes + 2, n_nodes + 2, nb_txq) != 0)
		return -ENOMEM;
	return 0;
}

static uint32_t
add_elem(struct builder *b, uint64_t key, uint32_t parent, uint32_t node_id,
	 uint8_t type, uint32_t weight, uint32_t max_average_bw)
{
	struct tm_elem *e = &b->p->elems[b->p->n_elems];
	uint64_t cap = (uint64_t)max_average_bw * PACING_BYTES_PER_MBPS;
	uint64_t above = parent == TM_PLAN_NONE ?
		(uint64_t)b->t->lim.line_rate_mbps * PACING_BYTES_PER_MBPS :
		b->eff[parent];

	memset(e, 0, sizeof(*e));
	e->key = key;
	e->parent = parent;
	e->node_id = node_id;
	e->type = type;
	e->weight = weight;
	e->max_average_bw = max_average_bw;
	b->eff[b->p->n_elems] = cap != 0 && cap < above ? cap : above;
	if (type == TM_ELEM_GROUP)
		b->p->n_groups++;
	return b->p->n_elems++;
}

static uint32_t
ceiling_of(const struct tm_tree *t, const struct tm_node *n)
{
	uint32_t mbps = 0;

	/* Checked when the profile was given to the node. */
	if (n->profile != NULL)
		pacing_sched_ceiling(n->profile->params.peak.rate,
				     t->lim.line_rate_mbps, &mbps, NULL);
	return mbps;
}

/*
 * Leaves the device cannot tell apart in one queue group, whatever their
 * siblings do: same weight, no committed rate, both unshaped or the same
 * byte-mode pacing context. Never packet-mode leaves: the same packets/s
 * is a different rate in bytes for each frame size, and a group shares
 * bytes.
 */
static bool
interchangeable(const struct tm_node *a, const struct tm_node *b)
{
	const struct tm_profile *x = a->profile, *y = b->profile;

	if (a->weight != b->weight || committed(a) != 0 || committed(b) != 0)
		return false;
	if (x == NULL || y == NULL)
		return x == y;
	return x->pacing.ctx.rate_mode == PACING_RATE_MODE_DATA &&
	       pacing_ctx_equal(&x->pacing.ctx, &y->pacing.ctx);
}

/* Order of leaves that puts interchangeable ones next to each other. */
static int
cmp_leaves(const void *pa, const void *pb)
{
	const struct tm_node *a = ((const struct tm_plan_order *)pa)->node;
	const struct tm_node *b = ((const struct tm_plan_order *)pb)->node;
	int c;

	if (a->weight != b->weight)
		return a->weight < b->weight ? -1 : 1;
	if ((a->profile == NULL) != (b->profile == NULL))
		return a->profile == NULL ? -1 : 1;
	if (a->profile != NULL) {
		c = pacing_ctx_cmp(&a->profile->pacing.ctx,
				   &b->profile->pacing.ctx);
		if (c != 0)
			return c;
	}
	return a->id < b->id ? -1 : a->id > b->id;
}

/*
 * All children of one parent are leaves of one weight without committed
 * rates (sorted: non-leaf nodes and committed leaves come first, then by
 * weight): one group is the whole family, exact whatever limits them.
 */
static bool
one_family_group(const struct tm_plan_order *kids, uint32_t n)
{
	const struct tm_node *a = kids[0].node, *z = kids[n - 1].node;

	return a->leaf && committed(a) == 0 && a->weight == z->weight;
}

/*
 * The byte rate that holds leaf @p k whatever firmware does with its
 * SQ's pacing index inside a queue group (doc/guides/nics/mlx5_tm.rst,
 * "A shaped leaf's backstop"): its peak in bytes/s; for a packet-mode
 * leaf, packets/s times the largest frame the port can send, never below
 * its rate in bytes whatever the frame sizes. 0: unshaped, none.
 */
static uint64_t
leaf_backstop(const struct tm_tree *t, const struct tm_node *k)
{
	const struct rte_tm_shaper_params *s;

	if (k->profile == NULL)
		return 0;
	s = &k->profile->params;
	return s->packet_mode ? s->peak.rate * t->lim.max_frame :
	       s->peak.rate;
}

/*
 * The ceiling of a queue group whose leaves' backstops add up to
 * @p bytes_per_s: rounded up to whole Mbit/s (at least 1), as Linux's
 * mlx5e_htb_convert_ceil() puts an HTB class's ceiling on its group; 0
 * (none) when a leaf of it is unshaped (UINT64_MAX).
 */
static uint32_t
group_ceiling(uint64_t bytes_per_s)
{
	uint64_t mbps;

	if (bytes_per_s == UINT64_MAX || bytes_per_s == 0)
		return 0;
	mbps = (bytes_per_s + PACING_BYTES_PER_MBPS - 1) /
	       PACING_BYTES_PER_MBPS;
	return mbps > UINT32_MAX ? UINT32_MAX : (uint32_t)mbps;
}

/*
 * Leaf @p k in group element @p g (new when TM_PLAN_NONE); the group.
 * For a group, b->eff holds the sum of its leaves' backstops (UINT64_MAX
 * once one has none), from which its ceiling follows: a group has no
 * element below it, so its effective ceiling is never read.
 */
static uint32_t
join_group(struct builder *b, const struct tm_node *parent,
	   struct tm_node *k, uint32_t g)
{
	uint64_t bs = leaf_backstop(b->t, k);

	if (g == TM_PLAN_NONE) {
		g = add_elem(b, make_key(KEY_GROUP, k->id, 0), parent->elem,
			     parent->id, TM_ELEM_GROUP, 0, 0);
		b->eff[g] = 0;
	}
	if (bs == 0 || b->eff[g] == UINT64_MAX ||
	    bs > UINT64_MAX - 1 - b->eff[g])
		b->eff[g] = UINT64_MAX;
	else
		b->eff[g] += bs;
	b->p->elems[g].max_average_bw = group_ceiling(b->eff[g]);
	b->p->elems[g].weight += k->weight;
	b->p->queues[k->id].group = g;
	k->elem = g;
	return g;
}

/* The smallest leaf id of a group: its name (see KEY_GROUP). */
static uint32_t
group_leaf(const struct tm_elem *e)
{
	return (uint32_t)(e->key >> 16);
}

/* Element @p elem of a family as a message names it. */
static void
describe_unit(const struct builder *b, uint32_t elem, char *buf,
	      size_t size)
{
	const struct tm_elem *e = &b->p->elems[elem];
	const struct tm_node *leaf;
	uint32_t n;

	if (e->type == TM_ELEM_TSAR) {
		snprintf(buf, size, "node %" PRIu32 " (weight %" PRIu32 ")",
			 e->node_id, e->weight);
		return;
	}
	leaf = b->t->leaves[group_leaf(e)];
	n = e->weight / leaf->weight;
	if (n == 1)
		snprintf(buf, size, "node %" PRIu32 " (weight %" PRIu32 "%s)",
			 leaf->id, e->weight, committed(leaf) != 0 ?
			 ", with a committed rate" : "");
	else
		snprintf(buf, size, "the queue group of leaf %" PRIu32
			 " and %" PRIu32 " more (weight %" PRIu32 " = %"
			 PRIu32 " x %" PRIu32 ": the tree's %" PRIu32
			 " leaves outnumber the device's %" PRIu32
			 " queue groups, so interchangeable leaves share)",
			 leaf->id, n - 1, e->weight, leaf->weight, n,
			 b->t->n_leaves, b->t->lim.groups_max);
}

/*
 * The refusal of shares the device cannot hold within the tolerance; the
 * committed rates are at fault when @p rates (pacing_sched_shares() says
 * which: the two children named may have none).
 */
static int
refuse_shares(const struct builder *b, uint32_t parent_id, uint32_t pe,
	      const struct pacing_sched_fit *fit, bool rates,
	      uint32_t tolerance_ppm)
{
	uint32_t above_ppm = b->p->elems[pe].path_ppm;
	uint32_t first = b->p->elems[pe].kids_first;
	char over[200], under[200], budget[160] = "";

	describe_unit(b, first + fit->over, over, sizeof(over));
	describe_unit(b, first + fit->under, under, sizeof(under));
	if (above_ppm != 0)
		snprintf(budget, sizeof(budget), " (the 1%% a queue may be "
			 "off the rule, less the %.2f%% the shares above node %"
			 PRIu32 " may take: errors compound over levels)",
			 above_ppm / 1e4, parent_id);
	return tm_error(b->error, rates ?
		RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE :
		RTE_TM_ERROR_TYPE_NODE_WEIGHT, EINVAL,
		"the children of node %" PRIu32 ": %s and %s: the device's "
		"bw_share holds 1..%" PRIu32 ", and no shares in it keep the "
		"ratio of their %s within %.2f%%%s (best: %" PRIu32 " and %"
		PRIu32 ", %.2f%% off): %s", parent_id, over, under,
		b->t->lim.max_share, rates ? "targets (committed rate plus "
		"a weighted part of what committed rates leave)" : "weights",
		tolerance_ppm / 1e4, budget, fit->over_share, fit->under_share,
		fit->error_ppm / 1e4,
		rates ? "change the committed rates or weights so that the "
		"targets' ratio is one of small whole numbers" :
		"use weights whose ratio is one of small whole numbers");
}

/*
 * A child's rate is its parent's times its share, so its error against
 * the rule compounds those of its family and of the families above:
 * (1 + @p a)(1 + @p b) - 1, ppm (saturated).
 */
static uint32_t
compound_ppm(uint32_t a, uint32_t b)
{
	uint64_t v = (uint64_t)a + b + (uint64_t)a * b / 1000000u;

	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/*
 * What the families above element @p parent leave of the tolerance of a
 * queue's rate (PACING_SCHED_TOLERANCE_PPM) to the family below it:
 * (1 + tol) / (1 + above) - 1, ppm.
 */
static uint32_t
family_tolerance(const struct tm_plan *p, uint32_t parent)
{
	uint64_t above = p->elems[parent].path_ppm;

	if (above >= PACING_SCHED_TOLERANCE_PPM)
		return 0;
	return (uint32_t)((1000000u + (uint64_t)PACING_SCHED_TOLERANCE_PPM) *
			  1000000u / (1000000u + above) - 1000000u);
}

/* Element @p i of a partial plan touched (listed once). */
static void
touch(struct tm_plan *p, uint32_t i)
{
	if (p->mark[i] == 0) {
		p->mark[i] = 1;
		p->touched[p->n_touched++] = i;
	}
}

/* The effective ceiling of element @p i: the smallest on its path. */
static uint64_t
eff_of(const struct tm_plan *p, uint32_t i)
{
	uint64_t eff = (uint64_t)p->line_rate_mbps * PACING_BYTES_PER_MBPS;

	for (; i != TM_PLAN_NONE; i = p->elems[i].parent) {
		uint64_t cap = (uint64_t)p->elems[i].max_average_bw *
			       PACING_BYTES_PER_MBPS;

		if (cap != 0 && cap < eff)
			eff = cap;
	}
	return eff;
}

/*
 * The shares of the family of element @p pe (node @p parent_id, ceiling
 * @p eff): its children's elements, their weights and committed rates,
 * within what the families above leave of the tolerance. With @p touched,
 * only the elements whose share changes are written, each touched; and
 * @p deeper (if not NULL) says whether the children's error bound changed
 * (what the families below them may take changes with it).
 */
static int
share_family(struct builder *b, uint32_t parent_id, uint32_t pe,
	     uint64_t eff, struct tm_plan *touched, bool *deeper)
{
	uint32_t first = b->p->elems[pe].kids_first;
	uint32_t units = b->p->elems[pe].n_kids, u, path;
	uint32_t tolerance = family_tolerance(b->p, pe);
	struct tm_elem *e = &b->p->elems[first];
	struct pacing_sched_fit fit;
	struct pacing_error perr;
	int ret;

	for (u = 0; u < units; u++) {
		b->kids[u].weight = e[u].weight;
		b->kids[u].committed_rate = e[u].committed_rate;
	}
	ret = pacing_sched_shares(b->kids, units, eff, b->t->lim.max_share,
				  tolerance, &fit, &perr);
	if (ret == -ERANGE)
		return refuse_shares(b, parent_id, pe, &fit, perr.field ==
				     PACING_FIELD_COMMITTED_RATE, tolerance);
	if (ret != 0)
		return tm_error(b->error, RTE_TM_ERROR_TYPE_NODE_ID, -ret,
			"the children of node %" PRIu32 " (a ceiling of %"
			PRIu64 " bytes/s): %s", parent_id, eff,
			perr.message);
	path = compound_ppm(b->p->elems[pe].path_ppm, fit.error_ppm);
	for (u = 0; u < units; u++) {
		if (deeper != NULL && e[u].path_ppm != path)
			*deeper = true;
		if (touched != NULL &&
		    e[u].bw_share == b->kids[u].bw_share &&
		    e[u].error_ppm == b->kids[u].error_ppm &&
		    e[u].path_ppm == path)
			continue;
		e[u].bw_share = b->kids[u].bw_share;
		e[u].error_ppm = b->kids[u].error_ppm;
		e[u].path_ppm = path;
		if (touched != NULL)
			touch(touched, first + u);
	}
	return 0;
}

/*
 * The elements of the children @p kids[0 .. n - 1] of @p parent: non-leaf
 * nodes get a TSAR, leaves queue groups: one each, or with b->shared one
 * per set of interchangeable leaves (the whole family when it is one).
 */
static int
add_family(struct builder *b, const struct tm_node *parent,
	   struct tm_plan_order *kids, uint32_t n)
{
	uint32_t first = b->p->n_elems, units, i, u, g = TM_PLAN_NONE;
	bool whole = b->shared && one_family_group(kids, n);
	struct tm_node *prev = NULL;

	if (b->shared && !whole) {
		/* The run of leaves without committed rate, reordered. */
		for (i = 0; i < n && (!kids[i].node->leaf ||
				      committed(kids[i].node) != 0); i++)
			;
		qsort(&kids[i], n - i, sizeof(*kids), cmp_leaves);
	}
	/* The whole family's group is named by its smallest leaf id. */
	for (i = 1, u = 0; whole && i < n; i++)
		if (kids[i].node->id < kids[u].node->id)
			u = i;
	if (whole)
		g = join_group(b, parent, kids[u].node, TM_PLAN_NONE);
	for (i = 0; i < n; i++) {
		struct tm_node *k = kids[i].node;

		if (whole) {
			if (i != u)
				join_group(b, parent, k, g);
		} else if (!k->leaf) {
			k->elem = add_elem(b, make_key(KEY_NODE, k->id, 0),
					   parent->elem, k->id, TM_ELEM_TSAR,
					   k->weight, ceiling_of(b->t, k));
		} else {
			bool same = b->shared && prev != NULL &&
				    interchangeable(prev, k);

			g = join_group(b, parent, k, same ? g : TM_PLAN_NONE);
		}
		/* A unit's committed rate is its first node's (groups of
		 * several have none). */
		b->p->elems[k->elem].committed_rate = committed(k);
		prev = k;
	}
	units = b->p->n_elems - first;
	b->p->elems[parent->elem].kids_first = first;
	b->p->elems[parent->elem].n_kids = units;
	return share_family(b, parent->id, parent->elem, b->eff[parent->elem],
			    NULL, NULL);
}

/* Refusals of what the device cannot hold, with the numbers. */
static int
check_fit(const struct tm_tree *t, const struct tm_plan *p, bool port,
	  uint32_t depth, struct rte_tm_error *error)
{
	if (depth > t->lim.depth_max)
		return tm_error(error, RTE_TM_ERROR_TYPE_LEVEL_ID, ENOTSUP,
			"the hierarchy needs %" PRIu32 " scheduling elements "
			"from the device root down to a queue group (%" PRIu32
			" level(s) of nodes%s), the device allows %" PRIu32
			"%s", depth, depth - 1 - port,
			port ? " and a port element for the root's shaper" :
			"", t->lim.depth_max, port ? ": fewer levels, or no "
			"shaper on the root" : ": fewer levels");
	/* Only with shared groups: one per leaf fits by construction. */
	if (p->n_groups > t->lim.groups_max)
		return tm_error(error, RTE_TM_ERROR_TYPE_UNSPECIFIED, ENOSPC,
			"the hierarchy needs %" PRIu32 " queue groups for its %"
			PRIu32 " leaves even where leaves share one (leaves of "
			"one parent with the same weight, no committed rate "
			"and the same byte-mode pacing or none; or all the "
			"children of a parent when they are leaves of one "
			"weight without committed rates), the device has %"
			PRIu32 ": fewer leaves, or fewer distinct leaf rates "
			"and weights under each parent", p->n_groups,
			t->n_leaves, t->lim.groups_max);
	if (p->n_elems > t->lim.elements_max)
		return tm_error(error, RTE_TM_ERROR_TYPE_UNSPECIFIED, ENOSPC,
			"the hierarchy needs %" PRIu32 " scheduling elements, "
			"the device has %" PRIu32, p->n_elems,
			t->lim.elements_max);
	return 0;
}

static int
build_elems(struct tm_tree *t, struct tm_plan *p, struct rte_tm_error *error)
{
	struct builder b = { .t = t, .p = p, .error = error };
	uint32_t n_order = 0, i, j, depth = 0;
	bool port = t->root->profile != NULL;
	struct tm_plan_order *order;
	struct tm_node *n;
	int ret;

	/* Unshaped parents share the line: it must be known. */
	if (t->lim.line_rate_mbps == 0)
		return tm_error(error, RTE_TM_ERROR_TYPE_UNSPECIFIED, EAGAIN,
			"the port's line rate is unknown (its link is down "
			"and it reports no link mode): weights, committed "
			"rates and non-leaf shapers share it out; bring the "
			"link up and try again, or use leaf shapers alone");
	b.eff = p->eff;
	b.kids = p->kids;
	/* One group per leaf while the device's groups last. */
	b.shared = t->n_leaves > t->lim.groups_max;
	p->shared_groups = b.shared;
	order = p->order;
	TAILQ_FOREACH(n, &t->nodes, next) {
		if (n->level + 1u > depth)
			depth = n->level + 1;
		if (n->parent != NULL) {
			order[n_order].key = order_key(n);
			order[n_order++].node = n;
		}
	}
	sort_nodes(order, p->order_tmp, n_order);
	t->root->elem = TM_PLAN_NONE;
	if (port)
		t->root->elem = add_elem(&b, make_key(KEY_PORT, 0, 0),
					 TM_PLAN_NONE, t->root->id,
					 TM_ELEM_TSAR, 1, 0);
	t->root->elem = add_elem(&b, make_key(KEY_NODE, t->root->id, 0),
				 t->root->elem, t->root->id, TM_ELEM_TSAR, 1,
				 port ? ceiling_of(t, t->root) : 0);
	/* The only child of the port element: any share is all of it. */
	if (port)
		p->elems[t->root->elem].bw_share = 1;
	for (i = 0; i < n_order; i = j) {
		for (j = i + 1; j < n_order; j++)
			if (order[j].node->parent != order[i].node->parent)
				break;
		ret = add_family(&b, order[i].node->parent, &order[i], j - i);
		if (ret != 0)
			return ret;
	}
	return check_fit(t, p, port, depth + port, error);
}

/* Whether node @p n with @p weight and shaper @p prof asks for elements. */
static bool
asks(const struct tm_node *n, uint32_t weight, const struct tm_profile *prof)
{
	return weight != 1 ||
	       (prof != NULL && prof->params.committed.rate != 0) ||
	       (!n->leaf && prof != NULL);
}

/*
 * Whether tree @p t asks for scheduling elements: a non-leaf shaper, a
 * weight other than 1 or a committed rate somewhere. Without any, leaf
 * shapers are the whole of it: pacing indexes only, no element, as before
 * the hierarchy existed (and no line rate needed).
 */
static bool
needs_elements(const struct tm_tree *t)
{
	const struct tm_node *n;

	TAILQ_FOREACH(n, &t->nodes, next)
		if (asks(n, n->weight, n->profile))
			return true;
	return false;
}

/* The nodes of @p t that ask for elements. */
static uint32_t
count_asks(const struct tm_tree *t)
{
	const struct tm_node *n;
	uint32_t k = 0;

	TAILQ_FOREACH(n, &t->nodes, next)
		k += asks(n, n->weight, n->profile);
	return k;
}

/* A stamp no plan had: plans built apart never look like copies. */
static uint64_t
new_stamp(void)
{
	static uint64_t last;

	return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

/* Nothing touched any more: a whole plan. */
static void
untouch(struct tm_plan *p)
{
	uint32_t i;

	for (i = 0; i < p->n_touched; i++)
		p->mark[p->touched[i]] = 0;
	for (i = 0; i < p->n_touched_q; i++)
		p->qmark[p->touched_q[i]] = 0;
	p->n_touched = 0;
	p->n_touched_q = 0;
	p->partial = false;
}

bool
tm_plan_tree_needs_elements(const struct tm_tree *t)
{
	return t->lim.sched && t->root != NULL && needs_elements(t);
}

/* Queue @p t as its leaf says (its group is the elements' business). */
static void
follow_leaf(struct tm_queue *t, const struct tm_node *leaf)
{
	t->suspended = tm_tree_node_suspended(leaf);
	t->shaped = leaf->profile != NULL;
	if (t->shaped)
		t->ctx = leaf->profile->pacing.ctx;
}

int
tm_plan_build(struct tm_tree *t, bool active, struct tm_plan *p,
	      struct rte_tm_error *error)
{
	uint16_t q;

	untouch(p);
	p->n_elems = 0;
	p->n_groups = 0;
	p->shared_groups = false;
	p->stamp = new_stamp();
	p->active = active;
	p->line_rate_mbps = t->lim.line_rate_mbps;
	p->n_asks = 0;
	if (reserve_plan(p, t->nb_txq, t->n_nodes + 2) != 0)
		return tm_error(error, RTE_TM_ERROR_TYPE_UNSPECIFIED, ENOMEM,
				"no memory for the plan of %" PRIu32 " nodes",
				t->n_nodes);
	p->nb_txq = t->nb_txq;
	for (q = 0; q < p->nb_txq; q++) {
		const struct tm_node *leaf = active ? t->leaves[q] : NULL;

		p->queues[q] = (struct tm_queue){ .group = TM_PLAN_NONE };
		if (leaf != NULL)
			follow_leaf(&p->queues[q], leaf);
	}
	if (!active)
		return 0;
	p->n_asks = count_asks(t);
	if (!t->lim.sched || t->root == NULL || p->n_asks == 0)
		return 0;
	return build_elems(t, p, error);
}

int
tm_plan_copy(struct tm_plan *dst, const struct tm_plan *src, uint16_t nb_txq)
{
	uint16_t q;

	if (reserve_plan(dst, nb_txq, src->n_elems) != 0)
		return -ENOMEM;
	untouch(dst);
	dst->stamp = nb_txq == src->nb_txq ? src->stamp : new_stamp();
	dst->active = src->active;
	dst->line_rate_mbps = src->line_rate_mbps;
	dst->n_asks = src->n_asks;
	dst->nb_txq = nb_txq;
	for (q = 0; q < nb_txq; q++)
		dst->queues[q] = q < src->nb_txq ? src->queues[q] :
				 (struct tm_queue){ .group = TM_PLAN_NONE };
	if (src->n_elems > 0)
		memcpy(dst->elems, src->elems,
		       sizeof(*src->elems) * src->n_elems);
	dst->n_elems = src->n_elems;
	dst->n_groups = src->n_groups;
	dst->shared_groups = src->shared_groups;
	return 0;
}

/* Queue @p q of a partial plan touched (listed once). */
static void
touch_queue(struct tm_plan *p, uint16_t q)
{
	if (p->qmark[q] == 0) {
		p->qmark[q] = 1;
		p->touched_q[p->n_touched_q++] = q;
	}
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_u16(const void *a, const void *b)
{
	return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/*
 * Element @p e (of node @p n) now weighs @p n's weight with @p n's
 * committed rate: its family re-shares (@p deeper: share_family()).
 */
static int
update_unit(struct builder *b, uint32_t e, const struct tm_node *n,
	    bool *deeper)
{
	struct tm_elem *el = &b->p->elems[e];

	el->weight = n->weight;
	el->committed_rate = committed(n);
	touch(b->p, e);
	return share_family(b, n->parent->id, el->parent,
			    eff_of(b->p, el->parent), b->p, deeper);
}

static uint64_t
min_cap(uint32_t mbps, uint64_t eff)
{
	uint64_t cap = (uint64_t)mbps * PACING_BYTES_PER_MBPS;

	return cap != 0 && cap < eff ? cap : eff;
}

/*
 * A family to re-share: its parent element, the ceilings it had and has,
 * and whether the error bound above it changed (re-shared even at the
 * same ceiling).
 */
struct reshare {
	uint32_t elem;
	uint32_t node_id;
	uint64_t was;
	uint64_t is;
	bool bound;
};

static int
cmp_reshare(const void *a, const void *b)
{
	const struct reshare *x = a, *y = b;

	return x->node_id < y->node_id ? -1 : x->node_id > y->node_id;
}

/*
 * The families of @p v[0 .. n - 1] (one level, each with its ceilings) and
 * those below them re-share while a ceiling or an error bound follows;
 * level by level, by parent id, as tm_plan_build() takes them, so that a
 * refusal names the family a whole plan would. @p v has room for every
 * non-leaf node.
 */
static int
reshare_below(struct builder *b, struct reshare *v, uint32_t n)
{
	uint32_t head = 0, tail = n, end, k;
	const struct tm_elem *el;
	bool deeper;
	int ret;

	while (head < tail) {
		end = tail;
		qsort(&v[head], end - head, sizeof(v[0]), cmp_reshare);
		for (; head < end; head++) {
			el = &b->p->elems[v[head].elem];
			if ((v[head].was == v[head].is && !v[head].bound) ||
			    el->n_kids == 0)
				continue;
			deeper = false;
			ret = share_family(b, el->node_id, v[head].elem,
					   v[head].is, b->p, &deeper);
			if (ret != 0)
				return ret;
			for (k = el->kids_first;
			     k < el->kids_first + el->n_kids; k++) {
				const struct tm_elem *c = &b->p->elems[k];

				/* Non-leaf nodes: fewer than the array. */
				if (c->type != TM_ELEM_TSAR ||
				    tail == TM_TREE_NONLEAF_MAX)
					continue;
				v[tail++] = (struct reshare){
					.elem = k, .node_id = c->node_id,
					.was = min_cap(c->max_average_bw,
						       v[head].was),
					.is = min_cap(c->max_average_bw,
						      v[head].is),
					.bound = deeper,
				};
			}
		}
	}
	return 0;
}

/*
 * The families below the children of element @p pe after their own family
 * re-shared: each at its ceiling (element @p e's from @p was), all of them
 * when their error bound changed (@p deeper), else @p e's alone (@p pe
 * TM_PLAN_NONE: @p e is the root's).
 */
static int
reshare_family_below(struct builder *b, uint32_t pe, uint32_t e,
		     uint64_t was, bool deeper)
{
	struct reshare v[TM_TREE_NONLEAF_MAX];
	uint32_t n = 0, k, first = 0, end = 0;

	if (deeper && pe != TM_PLAN_NONE) {
		first = b->p->elems[pe].kids_first;
		end = first + b->p->elems[pe].n_kids;
	}
	for (k = first; k < end; k++) {
		if (k == e || b->p->elems[k].type != TM_ELEM_TSAR ||
		    n == TM_TREE_NONLEAF_MAX - 1)
			continue;
		v[n++] = (struct reshare){ .elem = k,
			.node_id = b->p->elems[k].node_id,
			.was = eff_of(b->p, k), .is = eff_of(b->p, k),
			.bound = true };
	}
	if (e != TM_PLAN_NONE)
		v[n++] = (struct reshare){ .elem = e,
			.node_id = b->p->elems[e].node_id, .was = was,
			.is = eff_of(b->p, e), .bound = deeper };
	return reshare_below(b, v, n);
}

/* The change of @p c on elements (p has some, own groups): 0, -EAGAIN. */
static int
update_elems(struct builder *b, const struct tm_plan_change *c)
{
	const struct tm_node *n = c->node;
	struct tm_plan *p = b->p;
	bool share = n->weight != c->weight ||
		     committed(n) != (c->profile != NULL ?
				      c->profile->params.committed.rate : 0);
	bool deeper = false;
	uint32_t e, cap;
	uint64_t was;
	int ret;

	if (n->leaf) {
		e = p->queues[n->id].group;
		if (e == TM_PLAN_NONE || p->elems[e].type != TM_ELEM_GROUP ||
		    group_leaf(&p->elems[e]) != n->id)
			return -EAGAIN;
		if (!share)
			return 0;
		ret = update_unit(b, e, n, &deeper);
		if (ret != 0 || !deeper)
			return ret;
		return reshare_family_below(b, p->elems[e].parent, TM_PLAN_NONE,
					    0, true);
	}
	e = n->elem;
	if (e >= p->n_elems ||
	    p->elems[e].key != make_key(KEY_NODE, n->id, 0) ||
	    (n->parent == NULL && (n->profile == NULL) != (c->profile == NULL)))
		return -EAGAIN;
	/* The root's ceiling is on it only under a port element. */
	cap = n->parent == NULL && n->profile == NULL ? 0 :
	      ceiling_of(b->t, n);
	was = eff_of(p, e);
	if (cap != p->elems[e].max_average_bw) {
		p->elems[e].max_average_bw = cap;
		touch(p, e);
	}
	/* Its own family first, as tm_plan_build() takes them (a refusal
	 * names the same family), then the families below. */
	if (share && n->parent != NULL) {
		ret = update_unit(b, e, n, &deeper);
		if (ret != 0)
			return ret;
	}
	return reshare_family_below(b, p->elems[e].parent, e, was, deeper);
}

/*
 * @p dst as @p src where partial plan @p c (one of them) was touched;
 * @p dst then a whole plan, @p src's copy.
 */
static void
copy_touched(struct tm_plan *dst, const struct tm_plan *src,
	     const struct tm_plan *c)
{
	uint32_t i;

	for (i = 0; i < c->n_touched; i++)
		dst->elems[c->touched[i]] = src->elems[c->touched[i]];
	for (i = 0; i < c->n_touched_q; i++)
		dst->queues[c->touched_q[i]] = src->queues[c->touched_q[i]];
	dst->n_asks = src->n_asks;
	dst->stamp = src->stamp;
	untouch(dst);
}

int
tm_plan_update(struct tm_plan *p, const struct tm_plan *applied,
	       const struct tm_tree *t, const struct tm_plan_change *c,
	       struct rte_tm_error *error)
{
	struct builder b = { .t = (struct tm_tree *)(uintptr_t)t, .p = p,
			     .eff = p->eff, .kids = p->kids, .error = error };
	const struct tm_node *n = c->node;
	uint32_t k;
	int ret = 0;

	k = applied->n_asks - asks(n, c->weight, c->profile) +
	    asks(n, n->weight, n->profile);
	/* The same elements (or none) for the same queues and line; a leaf
	 * of shared groups may change groups. */
	if (p->partial || !applied->active || p->stamp != applied->stamp ||
	    applied->nb_txq != t->nb_txq || n->parent != c->parent ||
	    (t->lim.sched && k != 0) != (applied->n_elems > 0) ||
	    (applied->n_elems > 0 &&
	     applied->line_rate_mbps != t->lim.line_rate_mbps) ||
	    (n->leaf && applied->shared_groups))
		return -EAGAIN;
	p->partial = true;
	p->stamp = new_stamp();
	p->n_asks = k;
	if (n->leaf) {
		uint32_t g;

		follow_leaf(&p->queues[n->id], n);
		touch_queue(p, (uint16_t)n->id);
		/* Its group is its own (no shared groups): the backstop. */
		g = p->queues[n->id].group;
		if (g != TM_PLAN_NONE && p->elems[g].max_average_bw !=
		    group_ceiling(leaf_backstop(t, n))) {
			p->elems[g].max_average_bw =
				group_ceiling(leaf_backstop(t, n));
			touch(p, g);
		}
	}
	if (p->n_elems > 0)
		ret = update_elems(&b, c);
	if (ret != 0) {
		copy_touched(p, applied, p);
		return ret;
	}
	/* In the order a whole difference takes them. */
	qsort(p->touched, p->n_touched, sizeof(*p->touched), cmp_u32);
	qsort(p->touched_q, p->n_touched_q, sizeof(*p->touched_q), cmp_u16);
	return 0;
}

void
tm_plan_update_queue(struct tm_plan *p, uint16_t q,
		     const struct pacing_ctx *ctx)
{
	p->partial = true;
	p->stamp = new_stamp();
	p->queues[q].shaped = ctx != NULL;
	if (ctx != NULL)
		p->queues[q].ctx = *ctx;
	touch_queue(p, q);
}

void
tm_plan_mirror(struct tm_plan *dst, struct tm_plan *src)
{
	copy_touched(dst, src, src->partial ? src : dst);
	untouch(src);
}

void
tm_plan_fini(struct tm_plan *p)
{
	free(p->elems);
	free(p->queues);
	free(p->eff);
	free(p->kids);
	free(p->order);
	free(p->order_tmp);
	free(p->touched);
	free(p->touched_q);
	free(p->mark);
	free(p->qmark);
	memset(p, 0, sizeof(*p));
}

const struct tm_elem *
tm_plan_node_elem(const struct tm_plan *p, uint32_t node_id)
{
	uint64_t key = make_key(KEY_NODE, node_id, 0);
	uint32_t i;

	for (i = 0; i < p->n_elems; i++)
		if (p->elems[i].key == key)
			return &p->elems[i];
	return NULL;
}

static int
cmp_keyed(const void *a, const void *b)
{
	const struct tm_keyed *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static uint32_t
find_key(const struct tm_keyed *k, uint32_t n, uint64_t key)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && k[lo].key == key ? k[lo].index : TM_PLAN_NONE;
}

static void
push(struct tm_diff *d, enum tm_op_type type, uint32_t index)
{
	d->ops[d->n_ops].type = type;
	d->ops[d->n_ops].index = index;
	d->n_ops++;
}

static const struct tm_queue no_queue = { .group = TM_PLAN_NONE };

const struct tm_queue *
tm_plan_queue(const struct tm_plan *p, uint16_t q)
{
	return q < p->nb_txq ? &p->queues[q] : &no_queue;
}

static bool
same_pacing(const struct tm_queue *a, const struct tm_queue *b)
{
	return a->shaped == b->shaped &&
	       (!a->shaped || pacing_ctx_equal(&a->ctx, &b->ctx));
}

/* The steps queue @p o of the old plan needs to become @p w (@p group:
 * in another group): a bit (1 << enum tm_op_type) per step. */
static uint8_t
queue_steps(const struct tm_queue *o, const struct tm_queue *w, bool group)
{
	bool pace = !same_pacing(o, w);

	return (pace && w->shaped) << TM_OP_PACE |
	       (pace || group) << TM_OP_MOVE |
	       (o->suspended != w->suspended) << TM_OP_SUSPEND |
	       (pace && o->shaped) << TM_OP_RELEASE;
}

/*
 * The steps of every queue, read from both plans in one pass (the queue
 * arrays of two plans of 1024 queues do not stay in a first-level cache
 * from one kind of step to the next).
 */
static void
classify_queues(struct tm_diff *d, const struct tm_plan *old,
		const struct tm_plan *new, uint16_t n)
{
	const struct tm_queue *o, *w;
	uint16_t q;

	for (q = 0; q < n; q++) {
		o = tm_plan_queue(old, q);
		w = tm_plan_queue(new, q);
		d->qsteps[q] = queue_steps(o, w, w->group == TM_PLAN_NONE ?
			o->group != TM_PLAN_NONE :
			d->match[w->group] == TM_PLAN_NONE ||
			d->match[w->group] != o->group);
	}
}

/* Queue steps of type @p type for every queue that needs one. */
static void
push_queues(struct tm_diff *d, uint16_t n, enum tm_op_type type)
{
	uint16_t q;

	for (q = 0; q < n; q++)
		if (d->qsteps[q] & 1u << type)
			push(d, type, q);
}

/* The same elements under the same parents: each continues itself. */
static bool
same_elements(const struct tm_plan *old, const struct tm_plan *new)
{
	uint32_t i;

	if (old->n_elems != new->n_elems)
		return false;
	for (i = 0; i < new->n_elems; i++)
		if (old->elems[i].key != new->elems[i].key ||
		    old->elems[i].parent != new->elems[i].parent)
			return false;
	return true;
}

/* Which old element each new one continues (sorted keys). */
static void
match_elements(const struct tm_plan *old, const struct tm_plan *new,
	       struct tm_diff *d)
{
	struct tm_keyed *k = d->keys;
	uint32_t i;

	for (i = 0; i < old->n_elems; i++) {
		k[i].key = old->elems[i].key;
		k[i].index = i;
	}
	qsort(k, old->n_elems, sizeof(*k), cmp_keyed);
	/* Parents first: a parent's match is known before its children. */
	for (i = 0; i < new->n_elems; i++) {
		const struct tm_elem *e = &new->elems[i];
		uint32_t o = find_key(k, old->n_elems, e->key);
		uint32_t want = e->parent == TM_PLAN_NONE ? TM_PLAN_NONE :
				d->match[e->parent];

		/* A new parent (unmatched) makes its children new too. */
		if (o != TM_PLAN_NONE && (old->elems[o].parent != want ||
		    (e->parent != TM_PLAN_NONE && want == TM_PLAN_NONE) ||
		    old->elems[o].type != e->type))
			o = TM_PLAN_NONE;
		d->match[i] = o;
	}
}

/*
 * The steps of a partial plan (a copy of @p old changed where touched):
 * the same elements, each continuing itself; only the touched ones and
 * the touched queues are looked at.
 */
static void
diff_touched(const struct tm_plan *old, const struct tm_plan *new,
	     struct tm_diff *d)
{
	static const enum tm_op_type qtypes[] = {
		TM_OP_PACE, TM_OP_MOVE, TM_OP_SUSPEND, TM_OP_RELEASE,
	};
	uint32_t i, k;

	for (i = 0; i < new->n_touched; i++) {
		uint32_t e = new->touched[i];

		d->match[e] = e;
		if (old->elems[e].bw_share != new->elems[e].bw_share ||
		    old->elems[e].max_average_bw !=
		    new->elems[e].max_average_bw)
			push(d, TM_OP_MODIFY, e);
	}
	for (i = 0; i < new->n_touched_q; i++) {
		uint16_t q = new->touched_q[i];
		const struct tm_queue *w = &new->queues[q];

		/* Its group continues itself (match[] is not kept). */
		d->qsteps[q] = queue_steps(tm_plan_queue(old, q), w,
					   w->group != old->queues[q].group);
	}
	/* Destroys (none) come between suspensions and releases. */
	for (k = 0; k < sizeof(qtypes) / sizeof(qtypes[0]); k++)
		for (i = 0; i < new->n_touched_q; i++)
			if (d->qsteps[new->touched_q[i]] & 1u << qtypes[k])
				push(d, qtypes[k], new->touched_q[i]);
}

int
tm_plan_diff(const struct tm_plan *old, const struct tm_plan *new,
	     struct tm_diff *d)
{
	uint16_t nq = old->nb_txq > new->nb_txq ? old->nb_txq : new->nb_txq;
	uint32_t i;

	if (reserve_diff(d, old->n_elems, new->n_elems, nq) != 0)
		return -ENOMEM;
	d->n_ops = 0;
	if (new->partial) {
		diff_touched(old, new, d);
		return 0;
	}
	if (same_elements(old, new))
		for (i = 0; i < new->n_elems; i++)
			d->match[i] = i;
	else
		match_elements(old, new, d);
	memset(d->kept, 0, sizeof(*d->kept) * (old->n_elems + 1));
	for (i = 0; i < new->n_elems; i++) {
		if (d->match[i] == TM_PLAN_NONE)
			push(d, TM_OP_CREATE, i);
		else
			d->kept[d->match[i]] = true;
	}
	for (i = 0; i < new->n_elems; i++) {
		const struct tm_elem *o = tm_plan_elem(old, d->match[i]);

		if (o != NULL &&
		    (o->bw_share != new->elems[i].bw_share ||
		     o->max_average_bw != new->elems[i].max_average_bw))
			push(d, TM_OP_MODIFY, i);
	}
	classify_queues(d, old, new, nq);
	push_queues(d, nq, TM_OP_PACE);
	push_queues(d, nq, TM_OP_MOVE);
	push_queues(d, nq, TM_OP_SUSPEND);
	for (i = old->n_elems; i-- > 0;)
		if (!d->kept[i])
			push(d, TM_OP_DESTROY, i);
	push_queues(d, nq, TM_OP_RELEASE);
	return 0;
}

void
tm_diff_fini(struct tm_diff *d)
{
	free(d->ops);
	free(d->match);
	free(d->keys);
	free(d->kept);
	free(d->qsteps);
	memset(d, 0, sizeof(*d));
}
