/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Random rte_tm hierarchies (oracle_tree.h). What is drawn, per tree:
 *
 * - the device: cx5 (20%: flat trees only, no packet mode), cx6dx or
 *   cx7 (each 40%), at the profile's line rate;
 * - flat (every tree on cx5, a quarter elsewhere: weights 1, no
 *   non-leaf shaper, no committed rate: no scheduling element) or
 *   scheduled;
 * - the leaves' level, 1 to 3 (root, groups, subgroups above them), and
 *   1 to 64 leaves (40% 1-4, 30% 5-16, 30% 17-64), each non-leaf node
 *   holding at least one;
 * - per leaf, its frames: one length (65%), two (25%) or three (10%)
 *   sent in turn, each a common length (64 to 9000) or any in 64..9000;
 * - per family, weights: all 1 (30%), 1..8 (40%), 1..100 (27%) or
 *   1..65535 (3%, mostly beyond what bw_share holds: the port refuses
 *   or holds them);
 * - ceilings: on the root for half the trees (group-bound, 2% to 80% of
 *   the line), on other non-leaf nodes 35% (80% for the first level of a
 *   group-bound tree without a root ceiling), 10% to 130% of their
 *   parent's effective ceiling, whole Mbit/s;
 * - committed rates in 30% of the families, on some of the children:
 *   mostly so that the targets are whole numbers up to 100 (what
 *   bw_share holds exactly), else random, a third of those above the
 *   parent's effective ceiling (the port must refuse them);
 * - leaf caps on 40% of the leaves (60% in flat trees), byte mode or
 *   (cx6dx, cx7, 30%) packet mode, below (45%), at (20%) or above (35%)
 *   the share the leaf has without them; byte rates mostly whole kbit/s.
 *
 * Drawn from a second sequence (so that the draws above stay what they
 * were), the shapes issue 31 found the generator never drew:
 * - a size range on 12% of the leaves (A in 64..1500, B up to 8000
 *   above, at most 9000: OT_RANGE_SIZES lengths sent in bit-reversed
 *   order); on cx6dx and cx7 half of them a packet-mode cap at their
 *   share (its byte limit is pps x the mean: the case that a range sent
 *   A, A + 1, ..., B broke), in flat trees a packet-fair line's queue;
 * - committed rates at two levels in 20% of the scheduled trees of two
 *   or three levels: the family of a bottom node and its parent's, one
 *   child's target k + 1/2 times its smallest sibling's (shares 0.55% to
 *   1.6% off), so that the errors compound (or the port refuses).
 */

#include <math.h>
#include <string.h>

#include "oracle_tree.h"
#include "splitmix64.h"

#define MBPS 125000ull /* bytes/s */
#define KBPS 125ull
#define DIM(a) (sizeof(a) / sizeof((a)[0]))

/* A number in [0, 1). */
static double
unif(uint64_t *s)
{
	return (double)(splitmix64(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* An integer in [lo, hi]. */
static uint32_t
range(uint64_t *s, uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(splitmix64(s) % ((uint64_t)hi - lo + 1));
}

/* Reverse the low @p bits bits of @p v. */
static uint32_t
bit_reverse(uint32_t v, unsigned int bits)
{
	uint32_t r = 0;
	unsigned int i;

	for (i = 0; i < bits; i++)
		r |= ((v >> i) & 1u) << (bits - 1 - i);
	return r;
}

void
ot_set_range(struct ot_node *n, uint32_t a, uint32_t b)
{
	unsigned int k, bits = 0;

	while ((1u << bits) < OT_RANGE_SIZES)
		bits++;
	n->range = true;
	n->nb_sizes = OT_RANGE_SIZES;
	for (k = 0; k < OT_RANGE_SIZES; k++)
		n->sizes[k] = a + (uint32_t)((uint64_t)(b - a) *
			bit_reverse(k, bits) / (OT_RANGE_SIZES - 1));
}

static uint64_t
line_bytes(const struct ot_tree *t)
{
	return (uint64_t)t->line_mbps * MBPS;
}

/* The applied ceiling of non-leaf node @p i (0: none). */
static uint64_t
applied_ceiling(const struct ot_node *n)
{
	return n->peak / MBPS * MBPS;
}

/* The effective ceiling of node @p i's children, bytes/s. */
static double
effective_ceiling(const struct ot_tree *t, int i)
{
	double p = (double)line_bytes(t);

	for (; i >= 0; i = t->node[i].parent)
		if (t->node[i].peak != 0 &&
		    (double)applied_ceiling(&t->node[i]) < p)
			p = (double)applied_ceiling(&t->node[i]);
	return p;
}

static uint32_t
draw_size(uint64_t *s)
{
	static const uint32_t common[] = {
		64, 128, 256, 512, 1000, 1500, 4000, 9000,
	};

	if (unif(s) < 0.5)
		return common[range(s, 0, DIM(common) - 1)];
	return range(s, 64, 9000);
}

static unsigned int
add_node(struct ot_tree *t, int parent, bool leaf, uint32_t level)
{
	struct ot_node *n = &t->node[t->nb_nodes];

	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->leaf = leaf;
	n->level = level;
	n->weight = 1;
	n->id = OT_NONLEAF_ID + t->nb_nodes;
	return t->nb_nodes++;
}

/* Root, groups, subgroups, leaves (parents before children). */
static void
draw_shape(struct ot_tree *t, uint64_t *s, uint64_t *s2)
{
	unsigned int bottom[MM_NODES_MAX], nb_bottom = 0, n, g, k, i, q;
	double u;

	t->depth = range(s, 1, 3);
	u = unif(s);
	n = u < 0.4 ? range(s, 1, 4) : u < 0.7 ? range(s, 5, 16) :
		range(s, 17, OT_LEAVES_MAX);
	add_node(t, -1, false, 0);
	if (t->depth == 1) {
		bottom[nb_bottom++] = 0;
	} else if (t->depth == 2) {
		g = range(s, 1, n < 6 ? n : 6);
		for (i = 0; i < g; i++)
			bottom[nb_bottom++] = add_node(t, 0, false, 1);
	} else {
		g = range(s, 1, n < 3 ? n : 3);
		for (i = 0; i < g; i++)
			add_node(t, 0, false, 1);
		for (i = 0; i < g; i++) {
			/* 1 to 3 subgroups, one leaf each at least. */
			k = range(s, 1, 3);
			if (k > n - nb_bottom - (g - 1 - i))
				k = n - nb_bottom - (g - 1 - i);
			while (k-- > 0)
				bottom[nb_bottom++] =
					add_node(t, (int)(1 + i), false, 2);
		}
	}
	t->first_leaf = t->nb_nodes;
	t->nb_leaves = n;
	for (q = 0; q < n; q++) {
		unsigned int p = q < nb_bottom ? bottom[q] :
			bottom[range(s, 0, nb_bottom - 1)];
		unsigned int l = add_node(t, (int)p, true, t->depth);
		struct ot_node *leaf = &t->node[l];
		double v = unif(s);

		leaf->id = q;
		leaf->nb_sizes = v < 0.65 ? 1 : v < 0.9 ? 2 : 3;
		for (k = 0; k < leaf->nb_sizes; k++)
			leaf->sizes[k] = draw_size(s);
		if (unif(s2) < 0.12) {
			uint32_t a = range(s2, 64, 1500);
			uint32_t b = a + range(s2, 500, 8000);

			ot_set_range(leaf, a, b < 9000 ? b : 9000);
		}
	}
}

static void
draw_weights(struct ot_tree *t, uint64_t *s)
{
	unsigned int p, c;

	for (p = 0; p < t->first_leaf; p++) {
		double u = unif(s);
		uint32_t max = u < 0.3 ? 1 : u < 0.7 ? 8 : u < 0.97 ? 100 :
			65535;

		for (c = 1; c < t->nb_nodes; c++)
			if (t->node[c].parent == (int)p)
				t->node[c].weight = range(s, 1, max);
	}
}

/* A ceiling of @p fraction of @p of bytes/s, whole Mbit/s in range. */
static uint64_t
ceiling_of(const struct ot_tree *t, double of, double fraction)
{
	uint64_t v = (uint64_t)(of * fraction) / MBPS * MBPS;

	if (v < MBPS)
		v = MBPS;
	if (v > line_bytes(t))
		v = line_bytes(t);
	return v;
}

static void
draw_ceilings(struct ot_tree *t, uint64_t *s)
{
	bool group_bound = unif(s) < 0.5;
	unsigned int i;

	if (group_bound && (t->depth < 3 || unif(s) < 0.2))
		t->node[0].peak = ceiling_of(t, (double)line_bytes(t),
					     0.02 + 0.78 * unif(s));
	for (i = 1; i < t->first_leaf; i++) {
		double prob = group_bound && t->node[0].peak == 0 &&
			t->node[i].level == 1 ? 0.8 : 0.35;

		if (unif(s) < prob)
			t->node[i].peak = ceiling_of(t,
				effective_ceiling(t, t->node[i].parent),
				0.1 + 1.2 * unif(s));
	}
}

/* Committed rates of the children of @p p. */
static void
draw_family_committed(struct ot_tree *t, uint64_t *s, unsigned int p)
{
	unsigned int ch[MM_NODES_MAX], m = 0, i;
	uint32_t e[MM_NODES_MAX], wmax = 0, sum = 0;
	double top = effective_ceiling(t, (int)p), csum = 0;
	bool any = false, nice;

	for (i = 1; i < t->nb_nodes; i++)
		if (t->node[i].parent == (int)p) {
			ch[m++] = i;
			if (t->node[i].weight > wmax)
				wmax = t->node[i].weight;
		}
	for (i = 0; i < m; i++) {
		e[i] = unif(s) < 0.5 ? 1 : 0;
		any |= e[i] != 0;
	}
	if (!any)
		e[range(s, 0, m - 1)] = 1;
	nice = wmax <= 90 && unif(s) < 0.8;
	for (i = 0; i < m; i++) {
		if (e[i] != 0 && nice) {
			e[i] = range(s, 1, 20);
			if (t->node[ch[i]].weight + e[i] > 100)
				e[i] = 100 - t->node[ch[i]].weight;
		}
		sum += t->node[ch[i]].weight + (nice ? e[i] : 0);
	}
	for (i = 0; i < m; i++) {
		struct ot_node *n = &t->node[ch[i]];

		if (e[i] == 0)
			continue;
		/* Targets (w + e) x top / sum: whole numbers up to 100. */
		n->committed = nice ? (uint64_t)(e[i] * top / sum) :
			(uint64_t)(top / m * (0.1 + 0.9 * unif(s)));
		if (n->committed == 0)
			n->committed = 1;
		csum += (double)n->committed;
	}
	if (!nice && unif(s) < 0.3) /* above the ceiling: refused */
		for (i = 0; i < m; i++)
			t->node[ch[i]].committed = (uint64_t)ceil(
				(double)t->node[ch[i]].committed * 1.1 *
				top / csum);
	for (i = 0; i < m; i++) {
		struct ot_node *n = &t->node[ch[i]];

		if (n->committed == 0)
			continue;
		/* A committed rate needs a peak at least as high. */
		if (n->leaf)
			n->peak = line_bytes(t);
		else if (n->peak < n->committed)
			n->peak = (n->committed + MBPS - 1) / MBPS * MBPS;
	}
}

/*
 * A committed rate on one child of @p p that puts its target R = k + 1/2
 * times the smallest of its siblings' (k in 30..90): shares in 1..100
 * hold that ratio only within about 1 / (2R), 0.55% to 1.6%, so that two
 * such families on one path compound beyond 1% (or the port refuses).
 */
static void
draw_family_off(struct ot_tree *t, uint64_t *s, unsigned int p)
{
	double top = effective_ceiling(t, (int)p), w_min = INFINITY, sum = 0;
	double ratio, need;
	unsigned int ch[MM_NODES_MAX], m = 0, i, c0;
	struct ot_node *n;

	for (i = 1; i < t->nb_nodes; i++)
		if (t->node[i].parent == (int)p)
			ch[m++] = i;
	if (m < 2)
		return;
	c0 = ch[range(s, 0, m - 1)];
	for (i = 0; i < m; i++) {
		sum += t->node[ch[i]].weight;
		if (ch[i] != c0 && t->node[ch[i]].committed == 0 &&
		    t->node[ch[i]].weight < w_min)
			w_min = t->node[ch[i]].weight;
	}
	ratio = range(s, 30, 90) + 0.5;
	need = ratio * w_min - t->node[c0].weight;
	if (!isfinite(need) || need <= 0)
		return;
	/* t0 / t_min = (c W / (P - c) + w0) / w_min: c = P need / (W + need) */
	n = &t->node[c0];
	n->committed = (uint64_t)(top * need / (sum + need));
	if (n->leaf)
		n->peak = line_bytes(t);
	else if (n->peak < n->committed)
		n->peak = (n->committed + MBPS - 1) / MBPS * MBPS;
}

/* The solver's rates of @p t, or a fair share of each parent's ceiling
 * when the rule gives none (a tree the port must refuse). */
static void
shares(const struct ot_tree *t, double *rate)
{
	struct mm_tree m;
	unsigned int i, sib;

	ot_to_mm(t, &m);
	if (mm_solve(&m, rate, NULL, 0) == 0)
		return;
	for (i = 1; i < t->nb_nodes; i++) {
		unsigned int j;

		for (j = 1, sib = 0; j < t->nb_nodes; j++)
			sib += t->node[j].parent == t->node[i].parent;
		rate[i] = effective_ceiling(t, t->node[i].parent) / sib;
	}
}

static double
mean_size(const struct ot_node *n)
{
	double sum = 0;
	unsigned int k;

	for (k = 0; k < n->nb_sizes; k++)
		sum += n->sizes[k];
	return sum / n->nb_sizes;
}

/* A leaf cap of @p bytes/s (of @p n's frames) as a profile rate. */
static void
set_cap(const struct ot_tree *t, struct ot_node *n, double bytes,
	bool whole_kbps)
{
	uint64_t max = line_bytes(t);

	if (n->packet_mode) {
		uint64_t pps = (uint64_t)(bytes / mean_size(n));

		if (pps < OT_RATE_MIN_KBPS)
			pps = OT_RATE_MIN_KBPS;
		if (pps > t->line_mbps * 1000ull)
			pps = t->line_mbps * 1000ull;
		n->peak = pps;
		return;
	}
	n->peak = whole_kbps ? (uint64_t)bytes / KBPS * KBPS : (uint64_t)bytes;
	if (n->peak < OT_RATE_MIN_KBPS * KBPS)
		n->peak = OT_RATE_MIN_KBPS * KBPS;
	if (n->peak > max)
		n->peak = max;
	if (n->peak < n->committed)
		n->peak = (n->committed + KBPS - 1) / KBPS * KBPS;
}

static void
draw_caps(struct ot_tree *t, uint64_t *s, uint64_t *s2)
{
	static double rate[MM_NODES_MAX];
	bool whole[MM_NODES_MAX];
	bool wqe_rate = strcmp(t->profile, "cx5") != 0;
	unsigned int i;

	shares(t, rate);
	for (i = t->first_leaf; i < t->nb_nodes; i++) {
		struct ot_node *n = &t->node[i];
		double u, factor = 1;

		whole[i] = unif(s) < 0.8;
		/* A range at its share in packet mode: pps x the mean. */
		if (n->range && wqe_rate && n->committed == 0 &&
		    unif(s2) < 0.5) {
			n->packet_mode = true;
			n->cap_kind = '=';
			set_cap(t, n, rate[i], true);
			continue;
		}
		if (unif(s) >= (t->flat ? 0.6 : 0.4))
			continue;
		n->packet_mode = wqe_rate && n->committed == 0 &&
			unif(s) < 0.3;
		u = unif(s);
		if (u < 0.45) {
			n->cap_kind = '<';
			factor = 0.15 + 0.75 * unif(s);
		} else if (u < 0.65) {
			n->cap_kind = '=';
		} else {
			n->cap_kind = '>';
			factor = 1.1 + 1.9 * unif(s);
		}
		set_cap(t, n, rate[i] * factor, whole[i]);
	}
	/* "At its share": the share with every other cap in place. */
	shares(t, rate);
	for (i = t->first_leaf; i < t->nb_nodes; i++)
		if (t->node[i].cap_kind == '=')
			set_cap(t, &t->node[i], rate[i], whole[i]);
}

static void
draw_once(struct ot_tree *t, uint64_t *s, uint64_t *s2)
{
	unsigned int r = range(s, 0, 9), p;

	t->nb_nodes = 0;
	t->profile = r < 2 ? "cx5" : r < 6 ? "cx6dx" : "cx7";
	t->line_mbps = strcmp(t->profile, "cx7") == 0 ? 400000 : 100000;
	t->flat = strcmp(t->profile, "cx5") == 0 || unif(s) < 0.25;
	draw_shape(t, s, s2);
	if (!t->flat) {
		draw_weights(t, s);
		draw_ceilings(t, s);
		for (p = 0; p < t->first_leaf; p++)
			if (unif(s) < 0.3)
				draw_family_committed(t, s, p);
		/* Committed rates at two levels: a bottom node's family
		 * and its parent's. */
		if (t->depth >= 2 && unif(s2) < 0.2) {
			p = (unsigned int)t->node[t->first_leaf +
				range(s2, 0, t->nb_leaves - 1)].parent;
			draw_family_off(t, s2, p);
			draw_family_off(t, s2, (unsigned int)t->node[p].parent);
		}
	}
	draw_caps(t, s, s2);
}

void
ot_draw(struct ot_tree *t, uint64_t seed, unsigned int index,
	bool (*accept)(const struct ot_tree *t, void *arg), void *arg)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + index;
	/* The second sequence: the shapes added after the first. */
	uint64_t s2 = (seed * 0xbf58476d1ce4e5b9ull + index) ^
		      0x94d049bb133111ebull;

	(void)splitmix64(&s);
	(void)splitmix64(&s2);
	memset(t, 0, sizeof(*t));
	t->seed = seed;
	t->index = index;
	for (;;) {
		draw_once(t, &s, &s2);
		if (accept == NULL || accept(t, arg))
			return;
		t->draws++;
	}
}

void
ot_to_mm(const struct ot_tree *t, struct mm_tree *m)
{
	bool elements = false;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->nb_nodes = t->nb_nodes;
	m->line_bps = (double)t->line_mbps * 1e6;
	for (i = 0; i < t->nb_nodes; i++) {
		const struct ot_node *o = &t->node[i];
		struct mm_node *n = &m->node[i];

		n->parent = o->parent;
		n->leaf = o->leaf;
		n->weight = o->parent < 0 ? 1 : o->weight;
		n->committed = (double)o->committed;
		if (!o->leaf)
			n->ceiling = (double)applied_ceiling(o);
		else if (o->packet_mode)
			n->pps = (double)o->peak;
		else
			n->ceiling = (double)(o->peak / KBPS * KBPS);
		n->nb_sizes = o->nb_sizes;
		memcpy(n->sizes, o->sizes, sizeof(n->sizes));
		/* What makes the port build scheduling elements. */
		if ((!o->leaf && o->peak != 0) || o->committed != 0 ||
		    (o->parent >= 0 && o->weight != 1))
			elements = true;
	}
	m->packet_fair = !elements;
}

const char *
ot_node_name(const struct ot_tree *t, unsigned int i, char *buf, size_t len)
{
	snprintf(buf, len, "%s %u", t->node[i].leaf ? "queue" : "node",
		 t->node[i].id);
	return buf;
}

void
ot_print(const struct ot_tree *t, FILE *f, const char *prefix)
{
	struct mm_tree m;
	unsigned int i, k;
	char name[32];

	ot_to_mm(t, &m);
	fprintf(f, "%stree s%llu-t%u: %s (line %u Mbit/s), leaves on level "
		"%u, %u queues, %s\n", prefix, (unsigned long long)t->seed,
		t->index, t->profile, t->line_mbps, t->depth, t->nb_leaves,
		m.packet_fair ? "no scheduling element (packet-fair)" :
		"scheduled");
	for (i = 0; i < t->nb_nodes; i++) {
		const struct ot_node *n = &t->node[i];

		fprintf(f, "%s  %s", prefix, ot_node_name(t, i, name,
							  sizeof(name)));
		if (n->parent < 0)
			fprintf(f, " root");
		else
			fprintf(f, " parent %u level %u weight %u",
				t->node[n->parent].id, n->level, n->weight);
		if (n->peak != 0 && n->packet_mode)
			fprintf(f, " peak %llu packets/s",
				(unsigned long long)n->peak);
		else if (n->peak != 0)
			fprintf(f, " peak %llu bytes/s (%.3f Mbit/s)",
				(unsigned long long)n->peak,
				(double)n->peak * 8 / 1e6);
		if (n->committed != 0)
			fprintf(f, " committed %llu bytes/s (%.3f Mbit/s)",
				(unsigned long long)n->committed,
				(double)n->committed * 8 / 1e6);
		if (n->cap_kind != 0)
			fprintf(f, " (cap drawn %c share)", n->cap_kind);
		if (n->leaf && n->range) {
			fprintf(f, " frames %u..%u in %u lengths (", n->sizes[0],
				n->sizes[OT_RANGE_SIZES - 1], n->nb_sizes);
			for (k = 0; k < n->nb_sizes; k++)
				fprintf(f, "%s%u", k ? "," : "", n->sizes[k]);
			fprintf(f, ")");
		} else if (n->leaf) {
			fprintf(f, " frames");
			for (k = 0; k < n->nb_sizes; k++)
				fprintf(f, "%s%u", k ? "," : " ", n->sizes[k]);
		}
		fprintf(f, "\n");
	}
}
