/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Expected rates of a plan with every queue backlogged: the tree of the
 * plan (root, groups, the pass-through node that holds a group's own
 * queues beside its subgroups, queues) and max-min sharing by targets.
 */

#include <math.h>
#include <string.h>

#include "pace_run.h"

#define BYTES_PER_MBPS 125000u

/* Root, groups, one pass-through node per group and the root, queues. */
#define EXP_MAX (1 + 2 * PACE_MAX_GROUPS + 1 + PACE_MAX_QUEUES)

struct exp_node {
	double weight;
	double committed;   /* bit/s */
	double ceiling;     /* bit/s, INFINITY for none */
	double demand;      /* bit/s */
	double rate;        /* bit/s given */
	int parent;
};

struct exp_tree {
	struct exp_node n[EXP_MAX];
	unsigned int nb;
};

static int
exp_add(struct exp_tree *t, int parent, double weight, double committed,
	double ceiling)
{
	struct exp_node *n = &t->n[t->nb];

	n->weight = weight;
	n->committed = committed;
	n->ceiling = ceiling;
	n->demand = 0;
	n->rate = 0;
	n->parent = parent;
	return (int)t->nb++;
}

/* A group's ceiling as the device holds it: whole Mbit/s, rounded down. */
static double
group_ceiling(const struct pace_shaper *sh)
{
	uint64_t bytes = (sh->rate + 4) / 8;

	if (sh->rate == 0)
		return INFINITY;
	return (double)(bytes / BYTES_PER_MBPS) * 1e6;
}

static double
frame_bits(const struct pace_run *run, unsigned int i)
{
	const struct pace_queue_plan *qp = &run->opt.queues[i];

	return 8.0 * (qp->size_min + qp->size_max) / 2.0;
}

/*
 * Give @p p bit/s to the children of node @p x, which then give theirs:
 * shares in proportion to the targets (committed + weighted part of what
 * the committed rates leave of @p base, the smallest ceiling on the path
 * from the root to x, or the line rate), a child that wants less than
 * its share keeping only what it wants.
 */
static void
exp_share(struct exp_tree *t, int x, double p, double base)
{
	double target[EXP_MAX], sum_w = 0, sum_c = 0, left = p, sum_t;
	bool fixed[EXP_MAX];
	unsigned int i;
	bool again = true;

	t->n[x].rate = p;
	for (i = 0; i < t->nb; i++) {
		fixed[i] = t->n[i].parent != x;
		if (!fixed[i]) {
			sum_w += t->n[i].weight;
			sum_c += t->n[i].committed;
		}
	}
	if (sum_w == 0)
		return;
	for (i = 0; i < t->nb; i++)
		if (!fixed[i])
			target[i] = t->n[i].committed + (isfinite(base) ?
				(base - sum_c) * t->n[i].weight / sum_w :
				t->n[i].weight);
	while (again) {
		again = false;
		sum_t = 0;
		for (i = 0; i < t->nb; i++)
			if (!fixed[i])
				sum_t += target[i];
		if (sum_t <= 0)
			break;
		for (i = 0; i < t->nb; i++) {
			if (fixed[i] || t->n[i].demand > left * target[i] / sum_t)
				continue;
			fixed[i] = true;
			t->n[i].rate = t->n[i].demand;
			left -= t->n[i].demand;
			again = true;
		}
	}
	for (i = 0; i < t->nb; i++)
		if (t->n[i].parent == x && !fixed[i])
			t->n[i].rate = left * target[i] / sum_t;
	for (i = 0; i < t->nb; i++)
		if (t->n[i].parent == x)
			exp_share(t, (int)i, t->n[i].rate,
				  fmin(base, t->n[i].ceiling));
}

void
pace_expect(const struct pace_run *run, struct pace_state *st)
{
	const struct pace_options *opt = &run->opt;
	static struct exp_tree t;
	int gnode[PACE_MAX_GROUPS], pass[PACE_MAX_GROUPS + 1];
	int qnode[PACE_MAX_QUEUES];
	bool has_sub[PACE_MAX_GROUPS + 1] = { false };
	double line = run->line_bps ? (double)run->line_bps : INFINITY;
	unsigned int i;
	int k;

	t.nb = 0;
	exp_add(&t, -1, 1, 0, line);
	for (i = 0; i < opt->nb_groups; i++) {
		const struct pace_group_plan *g = &opt->groups[i];
		int parent = g->place.group;

		has_sub[parent < 0 ? PACE_MAX_GROUPS : parent] = true;
		gnode[i] = exp_add(&t, parent < 0 ? 0 : gnode[parent],
				   st->gweight[i],
				   (double)st->gshaper[i].committed,
				   group_ceiling(&st->gshaper[i]));
	}
	/* A parent with subgroups holds its own queues in a pass-through
	 * node of weight 1 beside them (pace_tm.c). */
	for (k = -1; k < (int)opt->nb_groups; k++) {
		int slot = k < 0 ? PACE_MAX_GROUPS : k;
		int top = k < 0 ? 0 : gnode[k];

		pass[slot] = has_sub[slot] ? exp_add(&t, top, 1, 0, INFINITY) :
			     top;
	}
	for (i = 0; i < opt->nb_queues; i++) {
		const struct pace_shaper *sh = &st->shaper[i];
		int g = st->group[i];
		double ceil = INFINITY;

		if (sh->rate != 0)
			ceil = sh->packet_mode ? (double)sh->rate *
			       frame_bits(run, i) : (double)sh->rate;
		qnode[i] = exp_add(&t, pass[g < 0 ? PACE_MAX_GROUPS : g],
				   st->weight[i], (double)sh->committed, ceil);
		t.n[qnode[i]].demand = ceil;
	}
	/* Demands bottom-up: children come after their parents. */
	for (k = (int)t.nb - 1; k > 0; k--) {
		struct exp_node *n = &t.n[k];

		n->demand = fmin(n->demand, n->ceiling);
		t.n[n->parent].demand += n->demand;
	}
	t.n[0].demand = fmin(t.n[0].demand, line);
	exp_share(&t, 0, t.n[0].demand, fmin(line, t.n[0].ceiling));
	for (i = 0; i < opt->nb_queues; i++) {
		double r = t.n[qnode[i]].rate;

		st->expected[i] = st->shaper[i].packet_mode ?
				  r / frame_bits(run, i) : r;
	}
	for (i = 0; i < opt->nb_groups; i++)
		st->gexpected[i] = t.n[gnode[i]].rate;
}
