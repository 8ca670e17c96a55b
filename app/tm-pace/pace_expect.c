/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Expected rates of a plan with every queue backlogged, on the tree the
 * tool lays out in rte_tm (pace_tm_layout(): root, groups, pass-through
 * nodes only where leaves hang, leaves and the leaves of queues outside
 * the plan), by the documented rule (doc/guides/tm_pace.rst):
 *
 * - with scheduling elements, every child gets min(its own limit, its
 *   weighted max-min share of what its parent gets), shares in
 *   proportion to targets c + (P - sum c) w / sum w, in L2 bytes;
 * - without (a flat tree), the queues share the line packet-fair, each
 *   capped by its pacing;
 * - the line carries max(len, 60) + 24 bytes of line time per frame.
 */

#include <math.h>
#include <string.h>

#include "pace_run.h"

#define BYTES_PER_MBPS 125000u
/* Shortest frame without FCS, padded to it on the line. */
#define LINE_MIN_FRAME 60
/* Line bytes of a frame beyond its L2 bytes: FCS 4, preamble and start
 * delimiter 8, inter-frame gap 12. */
#define LINE_OVERHEAD 24
/* Halvings of the search for the L2 rate that fills the line. */
#define LINE_SEARCH_STEPS 200

/* One node per node of the layout. */
#define EXP_MAX PACE_TM_MAX_NODES

struct exp_node {
	double weight;
	double committed;   /* L2 bit/s */
	double ceiling;     /* L2 bit/s, INFINITY for none */
	double demand;      /* L2 bit/s wanted with every queue backlogged */
	double rate;        /* L2 bit/s given */
	int parent;         /* -1 for the root */
	int queue;          /* plan index of a planned queue, else -1 */
};

struct exp_tree {
	struct exp_node n[EXP_MAX];   /* parents before children */
	unsigned int nb;
	double line;                  /* bit/s of line time, INFINITY unknown */
	double l2_bits[PACE_MAX_QUEUES];   /* mean frame, L2 bits */
	double line_bits[PACE_MAX_QUEUES]; /* mean frame, bits of line time */
};

static int
exp_add(struct exp_tree *t, int parent, double weight, double committed,
	double ceiling, int queue)
{
	struct exp_node *n = &t->n[t->nb];

	n->weight = weight;
	n->committed = committed;
	n->ceiling = ceiling;
	n->demand = 0;
	n->rate = 0;
	n->parent = parent;
	n->queue = queue;
	return (int)t->nb++;
}

/* A rate in bits/s as rte_tm gets it (bytes/s), back in bits/s. */
static double
tm_bits(uint64_t bits_per_s)
{
	return 8.0 * (double)pace_bytes_per_s(bits_per_s);
}

/* A group's ceiling as the device holds it: whole Mbit/s, rounded down. */
static double
group_ceiling(const struct pace_shaper *sh)
{
	if (sh->rate == 0)
		return INFINITY;
	return (double)(pace_bytes_per_s(sh->rate) / BYTES_PER_MBPS) * 1e6;
}

/* Mean L2 and line bits of the frames of a queue (sizes min..max in turn). */
static void
frame_bits(const struct pace_queue_plan *qp, double *l2, double *line)
{
	double sum_l2 = 0, sum_line = 0;
	unsigned int s, n = (unsigned int)(qp->size_max - qp->size_min) + 1;

	for (s = qp->size_min; s <= qp->size_max; s++) {
		sum_l2 += s;
		sum_line += (s < LINE_MIN_FRAME ? LINE_MIN_FRAME : s) +
			    LINE_OVERHEAD;
	}
	*l2 = 8.0 * sum_l2 / n;
	*line = 8.0 * sum_line / n;
}

/*
 * A queue's own limit in L2 bit/s (INFINITY: none); where its SQ holds no
 * pacing index (refused inside a group), its group's ceiling: its peak
 * rounded up to whole Mbit/s.
 */
static double
queue_ceiling(const struct exp_tree *t, const struct pace_run *run,
	      unsigned int i, const struct pace_shaper *sh)
{
	if (sh->rate == 0)
		return INFINITY;
	if (run->backstop_bps[i] > 0)
		return run->backstop_bps[i];
	return sh->packet_mode ? (double)sh->rate * t->l2_bits[i] :
	       tm_bits(sh->rate);
}

/*
 * The tree of @p st on the layout of run->tm, node k of the one being
 * node k of the other; false without a layout.
 */
static bool
exp_build(struct exp_tree *t, const struct pace_run *run,
	  const struct pace_state *st)
{
	const struct pace_tm *tm = &run->tm;
	unsigned int k;

	t->nb = 0;
	for (k = 0; k < tm->nb_nodes; k++) {
		const struct pace_tm_node *n = &tm->nodes[k];
		const struct pace_queue_plan *qp;
		int i, g;

		switch (n->kind) {
		case PACE_TM_ROOT:
			exp_add(t, -1, 1, 0, INFINITY, -1);
			break;
		case PACE_TM_GROUP:
			g = n->group;
			exp_add(t, n->parent, st->gweight[g],
				tm_bits(st->gshaper[g].committed),
				group_ceiling(&st->gshaper[g]), -1);
			break;
		case PACE_TM_PASS:
			exp_add(t, n->parent, 1, 0, INFINITY, -1);
			break;
		case PACE_TM_FILLER:
			/* No traffic: no demand, but a weight among siblings. */
			exp_add(t, n->parent, 1, 0, 0, -1);
			break;
		default: /* PACE_TM_LEAF */
			qp = pace_plan_find(&run->opt, (uint16_t)n->id);
			i = (int)(qp - run->opt.queues);
			g = st->group[i];
			/* Its parent in this state: it may have moved. */
			exp_add(t, tm->leaf_parent[g < 0 ? PACE_MAX_GROUPS : g],
				st->weight[i], tm_bits(st->shaper[i].committed),
				queue_ceiling(t, run, (unsigned int)i,
					      &st->shaper[i]), i);
			t->n[k].demand = t->n[k].ceiling;
			break;
		}
	}
	return t->nb > 0;
}

/* Demands bottom-up (children come after their parents). */
static void
exp_demands(struct exp_tree *t)
{
	int k;

	for (k = (int)t->nb - 1; k >= 0; k--) {
		struct exp_node *n = &t->n[k];

		n->demand = fmin(n->demand, n->ceiling);
		if (n->parent >= 0)
			t->n[n->parent].demand += n->demand;
	}
}

/*
 * Give @p p bit/s to node @p x, which gives its children their max-min
 * shares: in proportion to their targets (committed rate plus a weighted
 * part of what the committed rates leave of @p base, the smallest
 * ceiling on x's path or the line rate), a child that wants less than
 * its share keeping only what it wants, the rest shared by the others in
 * the same proportions.
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

/* Line time the queues' rates take, bit/s. */
static double
exp_line_use(const struct exp_tree *t)
{
	double use = 0;
	unsigned int k;

	for (k = 0; k < t->nb; k++)
		if (t->n[k].queue >= 0)
			use += t->n[k].rate *
			       t->line_bits[t->n[k].queue] /
			       t->l2_bits[t->n[k].queue];
	return use;
}

/*
 * Scheduling elements: the root shares what it gets by L2 bytes, and
 * gets what fills the line (or all it wants, when that fits): the
 * largest L2 rate whose frames fit in the line time, found by halving
 * (the line time the shares take grows with what the root gets).
 */
static void
exp_scheduled(struct exp_tree *t)
{
	double lo = 0, hi, base = t->line;
	unsigned int k;

	exp_share(t, 0, t->n[0].demand, base);
	if (!isfinite(t->line) || exp_line_use(t) <= t->line)
		return;
	hi = fmin(t->n[0].demand, t->line);
	for (k = 0; k < LINE_SEARCH_STEPS && hi - lo > 1e-9 * hi; k++) {
		double mid = (lo + hi) / 2;

		exp_share(t, 0, mid, base);
		if (exp_line_use(t) <= t->line)
			lo = mid;
		else
			hi = mid;
	}
	exp_share(t, 0, lo, base);
}

/*
 * No scheduling element: the device serves the queues that can send
 * round robin, one packet each, so those that want more than the line
 * leaves them get equal packets per second; each is capped by its
 * pacing.
 */
static void
exp_flat(struct exp_tree *t)
{
	double line_left = t->line, line_per_pps = 0, pps;
	bool fixed[EXP_MAX] = { false };
	bool again = true;
	unsigned int k;

	for (k = 0; k < t->nb; k++) {
		struct exp_node *n = &t->n[k];

		n->rate = 0;
		if (n->queue < 0)
			continue;
		if (n->demand <= 0 || !isfinite(t->line)) {
			n->rate = n->demand;
			fixed[k] = true;
			continue;
		}
		line_per_pps += t->line_bits[n->queue];
	}
	if (!isfinite(t->line))
		return;
	while (again && line_per_pps > 0) {
		again = false;
		pps = line_left / line_per_pps;
		for (k = 0; k < t->nb; k++) {
			struct exp_node *n = &t->n[k];

			if (n->queue < 0 || fixed[k] ||
			    n->demand > pps * t->l2_bits[n->queue])
				continue;
			fixed[k] = true;
			n->rate = n->demand;
			line_left -= n->demand * t->line_bits[n->queue] /
				     t->l2_bits[n->queue];
			line_per_pps -= t->line_bits[n->queue];
			again = true;
		}
	}
	pps = line_per_pps > 0 ? line_left / line_per_pps : 0;
	for (k = 0; k < t->nb; k++)
		if (t->n[k].queue >= 0 && !fixed[k])
			t->n[k].rate = pps * t->l2_bits[t->n[k].queue];
	/* The groups' figures: the sums of their queues'. */
	for (k = t->nb; k-- > 1;)
		t->n[t->n[k].parent].rate += t->n[k].rate;
}

/*
 * The tree asks for no scheduling element (mlx5-tm's rule, DESIGN and
 * doc/guides/rte_tm.rst): no non-leaf shaper, every weight 1, no
 * committed rate; or the port has no weighted scheduling at all.
 */
static bool
exp_is_flat(const struct pace_run *run, const struct pace_state *st)
{
	const struct pace_options *opt = &run->opt;
	unsigned int i;

	if (run->tm.caps_ok && run->tm.caps.sched_wfq_weight_max <= 1)
		return true;
	for (i = 0; i < opt->nb_groups; i++)
		if (st->gshaper[i].rate != 0 || st->gshaper[i].committed != 0 ||
		    st->gweight[i] != 1)
			return false;
	for (i = 0; i < opt->nb_queues; i++)
		if (st->shaper[i].committed != 0 || st->weight[i] != 1)
			return false;
	return true;
}

void
pace_expect(const struct pace_run *run, struct pace_state *st)
{
	const struct pace_options *opt = &run->opt;
	static struct exp_tree t;
	unsigned int i, k;

	memset(st->expected, 0, sizeof(st->expected));
	memset(st->gexpected, 0, sizeof(st->gexpected));
	t.line = run->line_bps ? (double)run->line_bps : INFINITY;
	for (i = 0; i < opt->nb_queues; i++)
		frame_bits(&opt->queues[i], &t.l2_bits[i], &t.line_bits[i]);
	if (!exp_build(&t, run, st))
		return;
	exp_demands(&t);
	if (exp_is_flat(run, st))
		exp_flat(&t);
	else
		exp_scheduled(&t);
	for (k = 0; k < t.nb; k++) {
		int q = t.n[k].queue;

		if (q >= 0)
			st->expected[q] = st->shaper[q].packet_mode ?
					  t.n[k].rate / t.l2_bits[q] :
					  t.n[k].rate;
	}
	for (i = 0; i < opt->nb_groups; i++)
		st->gexpected[i] = t.n[run->tm.group_node[i]].rate;
}
