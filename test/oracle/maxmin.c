/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Weighted max-min rates of a backlogged tree by nested bisection on
 * water levels (maxmin.h says the rule and its readings). Doubles: the
 * checks it serves allow 1%, the bisections stop at the precision of a
 * double (about 1e-16 relative).
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "maxmin.h"

/* Halvings of an interval: far more than a double's 53 bits need. */
#define BISECT_STEPS 400

/* What the solver derives from a tree once. */
struct mm_ctx {
	const struct mm_tree *t;
	int root;
	int first_child[MM_NODES_MAX];
	int next_sibling[MM_NODES_MAX];
	double demand[MM_NODES_MAX]; /* most the node can take, bytes/s */
	double phi[MM_NODES_MAX];    /* family weight */
	double per_byte[MM_NODES_MAX]; /* leaves: wire bytes per L2 byte */
};

double
mm_mean_size(const struct mm_node *n)
{
	double sum = 0;
	unsigned int k;

	for (k = 0; k < n->nb_sizes; k++)
		sum += n->sizes[k];
	return sum / n->nb_sizes;
}

/* Wire bytes of a frame of @p len L2 bytes: pad to 60, FCS 4, preamble
 * and start 8, inter-frame gap 12. */
static double
wire_bytes(uint32_t len)
{
	return (double)(len < 60 ? 60 : len) + 24;
}

double
mm_wire_per_byte(const struct mm_node *n)
{
	double wire = 0, l2 = 0;
	unsigned int k;

	for (k = 0; k < n->nb_sizes; k++) {
		wire += wire_bytes(n->sizes[k]);
		l2 += n->sizes[k];
	}
	return wire / l2;
}

double
mm_effective_ceiling(const struct mm_tree *t, unsigned int i)
{
	double p = t->line_bps / 8;
	int a;

	for (a = (int)i; a >= 0; a = t->node[a].parent)
		if (!t->node[a].leaf && t->node[a].ceiling > 0 &&
		    t->node[a].ceiling < p)
			p = t->node[a].ceiling;
	return p;
}

double
mm_family_weight(const struct mm_tree *t, unsigned int i)
{
	int p = t->node[i].parent;
	double c = 0, w = 0, ceil;
	unsigned int j;

	if (p < 0)
		return 1;
	for (j = 0; j < t->nb_nodes; j++)
		if (t->node[j].parent == p) {
			c += t->node[j].committed;
			w += t->node[j].weight;
		}
	ceil = mm_effective_ceiling(t, (unsigned int)p);
	return t->node[i].committed + (ceil - c) * t->node[i].weight / w;
}

/* A leaf's own limit, L2 bytes/s (INFINITY: none). */
static double
leaf_limit(const struct mm_node *n)
{
	double lim = INFINITY;

	if (n->ceiling > 0)
		lim = n->ceiling;
	if (n->pps > 0 && n->pps * mm_mean_size(n) < lim)
		lim = n->pps * mm_mean_size(n);
	return lim;
}

static int
fail(char *why, size_t len, int ret, const char *fmt, unsigned int i)
{
	if (why != NULL && len > 0)
		snprintf(why, len, fmt, i);
	return ret;
}

/* Children lists and shape checks. */
static int
ctx_init(struct mm_ctx *x, const struct mm_tree *t, char *why, size_t len)
{
	unsigned int i, hops;
	int a;

	memset(x, 0, sizeof(*x));
	x->t = t;
	x->root = -1;
	if (t->nb_nodes == 0 || t->nb_nodes > MM_NODES_MAX || !(t->line_bps > 0))
		return fail(why, len, -EINVAL, "%u nodes, or no line rate",
			    t->nb_nodes);
	for (i = 0; i < t->nb_nodes; i++)
		x->first_child[i] = x->next_sibling[i] = -1;
	for (i = t->nb_nodes; i-- > 0;) {
		const struct mm_node *n = &t->node[i];

		if (n->parent < 0) {
			if (x->root >= 0)
				return fail(why, len, -EINVAL,
					    "node %u: a second root", i);
			x->root = (int)i;
			continue;
		}
		if (n->parent >= (int)t->nb_nodes ||
		    t->node[n->parent].leaf)
			return fail(why, len, -EINVAL,
				    "node %u: parent missing or a leaf", i);
		if (!(n->weight > 0))
			return fail(why, len, -EINVAL,
				    "node %u: weight not above 0", i);
		x->next_sibling[i] = x->first_child[n->parent];
		x->first_child[n->parent] = (int)i;
	}
	if (x->root < 0)
		return fail(why, len, -EINVAL, "no root among %u nodes",
			    t->nb_nodes);
	for (i = 0; i < t->nb_nodes; i++) {
		const struct mm_node *n = &t->node[i];

		for (a = (int)i, hops = 0; a >= 0 && hops <= t->nb_nodes;
		     a = t->node[a].parent)
			hops++;
		if (hops > t->nb_nodes)
			return fail(why, len, -EINVAL, "node %u: in a cycle",
				    i);
		if (n->leaf && (n->nb_sizes == 0 ||
				n->nb_sizes > MM_SIZES_MAX))
			return fail(why, len, -EINVAL,
				    "leaf %u: 1 to 4 frame lengths", i);
		if (n->leaf) {
			unsigned int k;

			for (k = 0; k < n->nb_sizes; k++)
				if (n->sizes[k] == 0)
					return fail(why, len, -EINVAL,
						    "leaf %u: frame of 0 bytes",
						    i);
			x->per_byte[i] = mm_wire_per_byte(n);
		}
		if (n->leaf == (x->first_child[i] >= 0))
			return fail(why, len, -EINVAL, n->leaf ?
				    "leaf %u has children" :
				    "non-leaf node %u has no child", i);
		if (t->packet_fair && !n->leaf &&
		    (n->ceiling > 0 || n->committed > 0))
			return fail(why, len, -EINVAL, "node %u: a shaper or "
				    "committed rate without scheduling "
				    "elements", i);
		if (t->packet_fair && n->parent >= 0 &&
		    (n->weight != 1 || n->committed > 0))
			return fail(why, len, -EINVAL, "node %u: a weight or "
				    "committed rate without scheduling "
				    "elements", i);
	}
	return 0;
}

static double
demand(struct mm_ctx *x, int i)
{
	const struct mm_node *n = &x->t->node[i];
	double sum = 0;
	int c;

	if (n->leaf)
		return x->demand[i] = leaf_limit(n);
	for (c = x->first_child[i]; c >= 0; c = x->next_sibling[c])
		sum += demand(x, c);
	if (n->ceiling > 0 && n->ceiling < sum)
		sum = n->ceiling;
	return x->demand[i] = sum;
}

/* What the children of @p i take at water level @p lambda. */
static double
family_take(const struct mm_ctx *x, int i, double lambda)
{
	double sum = 0;
	int c;

	for (c = x->first_child[i]; c >= 0; c = x->next_sibling[c])
		sum += fmin(x->demand[c], x->phi[c] * lambda);
	return sum;
}

/*
 * Node @p i receives @p y (at most its demand): its children get
 * min(demand, phi x lambda), lambda the level at which they take y.
 */
static void
split(const struct mm_ctx *x, int i, double y, double *rate)
{
	double lo = 0, hi, phi_min = INFINITY, mid;
	unsigned int step;
	int c;

	rate[i] = y;
	if (x->t->node[i].leaf)
		return;
	for (c = x->first_child[i]; c >= 0; c = x->next_sibling[c])
		phi_min = fmin(phi_min, x->phi[c]);
	/*
	 * At y / phi_min every child takes min(demand, at least y): enough,
	 * since y is at most the sum of the demands.
	 */
	hi = y / phi_min;
	if (family_take(x, i, hi) <= y) {
		lo = hi; /* every child at its demand */
	} else {
		for (step = 0; step < BISECT_STEPS; step++) {
			mid = lo + (hi - lo) / 2;
			if (mid <= lo || mid >= hi)
				break;
			if (family_take(x, i, mid) < y)
				lo = mid;
			else
				hi = mid;
		}
	}
	for (c = x->first_child[i]; c >= 0; c = x->next_sibling[c])
		split(x, c, fmin(x->demand[c], x->phi[c] * lo), rate);
}

/* Wire bytes/s of the leaves when the root passes @p y. */
static double
wire_at(const struct mm_ctx *x, double y, double *rate)
{
	double wire = 0;
	unsigned int i;

	split(x, x->root, y, rate);
	for (i = 0; i < x->t->nb_nodes; i++)
		if (x->t->node[i].leaf)
			wire += rate[i] * x->per_byte[i];
	return wire;
}

static void
scheduled(const struct mm_ctx *x, double *rate)
{
	double line = x->t->line_bps / 8, d = x->demand[x->root];
	double lo = 0, hi, mid, min_cost = INFINITY;
	unsigned int i, step;

	if (isfinite(d) && wire_at(x, d, rate) <= line)
		return; /* not line-bound */
	for (i = 0; i < x->t->nb_nodes; i++)
		if (x->t->node[i].leaf)
			min_cost = fmin(min_cost, x->per_byte[i]);
	/* The wire costs at least min_cost per byte the root passes. */
	hi = fmin(d, line / min_cost);
	for (step = 0; step < BISECT_STEPS; step++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (wire_at(x, mid, rate) < line)
			lo = mid;
		else
			hi = mid;
	}
	wire_at(x, lo, rate);
}

/* Packets/s a leaf may send (INFINITY: no limit) and its wire bytes
 * per packet. */
static double
leaf_pps(const struct mm_node *n)
{
	return leaf_limit(n) / mm_mean_size(n);
}

static double
wire_per_packet(const struct mm_node *n)
{
	return mm_wire_per_byte(n) * mm_mean_size(n);
}

/* Wire bytes/s at packet level @p mu (packets/s per queue). */
static double
packet_wire_at(const struct mm_tree *t, double mu)
{
	double wire = 0;
	unsigned int i;

	for (i = 0; i < t->nb_nodes; i++)
		if (t->node[i].leaf)
			wire += fmin(leaf_pps(&t->node[i]), mu) *
				wire_per_packet(&t->node[i]);
	return wire;
}

static void
packet_fair(const struct mm_tree *t, double *rate)
{
	double line = t->line_bps / 8, lo = 0, hi, mid, wpp_min = INFINITY;
	unsigned int i, step;

	for (i = 0; i < t->nb_nodes; i++)
		if (t->node[i].leaf)
			wpp_min = fmin(wpp_min, wire_per_packet(&t->node[i]));
	hi = line / wpp_min;
	if (packet_wire_at(t, INFINITY) <= line) {
		lo = INFINITY; /* every queue at its own limit */
	} else {
		for (step = 0; step < BISECT_STEPS; step++) {
			mid = lo + (hi - lo) / 2;
			if (mid <= lo || mid >= hi)
				break;
			if (packet_wire_at(t, mid) < line)
				lo = mid;
			else
				hi = mid;
		}
	}
	for (i = 0; i < t->nb_nodes; i++)
		if (t->node[i].leaf)
			rate[i] = fmin(leaf_pps(&t->node[i]), lo) *
				  mm_mean_size(&t->node[i]);
}

int
mm_solve(const struct mm_tree *t, double *rate, char *why, size_t why_len)
{
	static struct mm_ctx x; /* large: not on the stack */
	unsigned int i;
	int ret, a;

	ret = ctx_init(&x, t, why, why_len);
	if (ret != 0)
		return ret;
	for (i = 0; i < t->nb_nodes; i++) {
		double sum = 0;
		int c;

		for (c = x.first_child[i]; c >= 0; c = x.next_sibling[c])
			sum += t->node[c].committed;
		if (sum > mm_effective_ceiling(t, i))
			return fail(why, why_len, -ERANGE, "node %u: the "
				    "committed rates of its children sum above "
				    "its effective ceiling", i);
	}
	for (i = 0; i < t->nb_nodes; i++) {
		x.phi[i] = mm_family_weight(t, i);
		if (!(x.phi[i] > 0))
			return fail(why, why_len, -ERANGE, "node %u: its "
				    "family's committed rates leave it no "
				    "share (their sum reaches the parent's "
				    "effective ceiling)", i);
	}
	for (i = 0; i < t->nb_nodes; i++)
		rate[i] = 0;
	demand(&x, x.root);
	if (t->packet_fair)
		packet_fair(t, rate);
	else
		scheduled(&x, rate);
	/* A non-leaf node's rate: what its leaves send. */
	for (i = 0; i < t->nb_nodes; i++)
		if (!t->node[i].leaf)
			rate[i] = 0;
	for (i = 0; i < t->nb_nodes; i++)
		if (t->node[i].leaf)
			for (a = t->node[i].parent; a >= 0;
			     a = t->node[a].parent)
				rate[a] += rate[i];
	return 0;
}
