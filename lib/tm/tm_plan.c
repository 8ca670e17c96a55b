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

/* Leaf @p k in group element @p g (new when TM_PLAN_NONE); the group. */
static uint32_t
join_group(struct builder *b, const struct tm_node *parent,
	   struct tm_node *k, uint32_t g)
{
	if (g == TM_PLAN_NONE)
		g = add_elem(b, make_key(KEY_GROUP, k->id, 0), parent->elem,
			     parent->id, TM_ELEM_GROUP, 0, 0);
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
refuse_shares(const struct builder *b, const struct tm_node *parent,
	      uint32_t first, const struct pacing_sched_fit *fit, bool rates,
	      uint32_t tolerance_ppm)
{
	uint32_t above_ppm = b->p->elems[parent->elem].path_ppm;
	char over[200], under[200], budget[160] = "";

	describe_unit(b, first + fit->over, over, sizeof(over));
	describe_unit(b, first + fit->under, under, sizeof(under));
	if (above_ppm != 0)
		snprintf(budget, sizeof(budget), " (the 1%% a queue may be "
			 "off the rule, less the %.2f%% the shares above node %"
			 PRIu32 " may take: errors compound over levels)",
			 above_ppm / 1e4, parent->id);
	return tm_error(b->error, rates ?
		RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE :
		RTE_TM_ERROR_TYPE_NODE_WEIGHT, EINVAL,
		"the children of node %" PRIu32 ": %s and %s: the device's "
		"bw_share holds 1..%" PRIu32 ", and no shares in it keep the "
		"ratio of their %s within %.2f%%%s (best: %" PRIu32 " and %"
		PRIu32 ", %.2f%% off): %s", parent->id, over, under,
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
	uint32_t tolerance;
	bool whole = b->shared && one_family_group(kids, n);
	struct pacing_sched_fit fit;
	struct pacing_error perr;
	struct tm_node *prev = NULL;
	int ret;

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
		b->kids[k->elem - first].committed_rate = committed(k);
		prev = k;
	}
	units = b->p->n_elems - first;
	for (u = 0; u < units; u++)
		b->kids[u].weight = b->p->elems[first + u].weight;
	tolerance = family_tolerance(b->p, parent->elem);
	ret = pacing_sched_shares(b->kids, units, b->eff[parent->elem],
				  b->t->lim.max_share, tolerance, &fit, &perr);
	if (ret == -ERANGE)
		return refuse_shares(b, parent, first, &fit, perr.field ==
				     PACING_FIELD_COMMITTED_RATE, tolerance);
	if (ret != 0)
		return tm_error(b->error, RTE_TM_ERROR_TYPE_NODE_ID, -ret,
			"the children of node %" PRIu32 " (a ceiling of %"
			PRIu64 " bytes/s): %s", parent->id,
			b->eff[parent->elem], perr.message);
	for (u = 0; u < units; u++) {
		b->p->elems[first + u].bw_share = b->kids[u].bw_share;
		b->p->elems[first + u].error_ppm = b->kids[u].error_ppm;
		b->p->elems[first + u].path_ppm = compound_ppm(
			b->p->elems[parent->elem].path_ppm, fit.error_ppm);
	}
	return 0;
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
		if (n->weight != 1 || committed(n) != 0 ||
		    (!n->leaf && n->profile != NULL))
			return true;
	return false;
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

	p->n_elems = 0;
	p->n_groups = 0;
	p->shared_groups = false;
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
	if (!active || !tm_plan_tree_needs_elements(t))
		return 0;
	return build_elems(t, p, error);
}

int
tm_plan_copy(struct tm_plan *dst, const struct tm_plan *src, uint16_t nb_txq)
{
	uint16_t q;

	if (reserve_plan(dst, nb_txq, src->n_elems) != 0)
		return -ENOMEM;
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

/* A committed rate on a node below @p node: its ceiling shapes shares. */
static bool
committed_below(const struct tm_tree *t, const struct tm_node *node)
{
	const struct tm_node *n, *a;

	TAILQ_FOREACH(n, &t->nodes, next)
		for (a = committed(n) != 0 ? n->parent : NULL; a != NULL;
		     a = a->parent)
			if (a == node)
				return true;
	return false;
}

int
tm_plan_node_update(struct tm_plan *p, const struct tm_plan *applied,
		    const struct tm_tree *t, const struct tm_node *node,
		    uint64_t committed_before)
{
	int ret;

	/* Without committed rates, shares do not depend on the ceiling
	 * above them (pacing_sched_shares: targets scale with it); shared
	 * groups depend on the leaves' pacing (a leaf may move). */
	if (committed(node) != committed_before ||
	    (applied->n_elems > 0) != tm_plan_tree_needs_elements(t) ||
	    (node->leaf ? node->id >= applied->nb_txq ||
	     applied->shared_groups :
	     node->parent == NULL || node->elem >= applied->n_elems ||
	     applied->elems[node->elem].key != make_key(KEY_NODE, node->id,
							0) ||
	     committed_below(t, node)))
		return -EAGAIN;
	ret = tm_plan_copy(p, applied, applied->nb_txq);
	if (ret != 0)
		return ret;
	if (node->leaf)
		follow_leaf(&p->queues[node->id], node);
	else
		p->elems[node->elem].max_average_bw = ceiling_of(t, node);
	return 0;
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

/* The steps queue @p o of the old plan needs to become @p w: a bit
 * (1 << enum tm_op_type) per step. */
static uint8_t
queue_steps(const struct tm_diff *d, const struct tm_queue *o,
	    const struct tm_queue *w)
{
	bool pace = !same_pacing(o, w);
	bool group = w->group == TM_PLAN_NONE ? o->group != TM_PLAN_NONE :
		     d->match[w->group] == TM_PLAN_NONE ||
		     d->match[w->group] != o->group;

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
	uint16_t q;

	for (q = 0; q < n; q++)
		d->qsteps[q] = queue_steps(d, tm_plan_queue(old, q),
					   tm_plan_queue(new, q));
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

int
tm_plan_diff(const struct tm_plan *old, const struct tm_plan *new,
	     struct tm_diff *d)
{
	uint16_t nq = old->nb_txq > new->nb_txq ? old->nb_txq : new->nb_txq;
	uint32_t i;

	if (reserve_diff(d, old->n_elems, new->n_elems, nq) != 0)
		return -ENOMEM;
	d->n_ops = 0;
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
