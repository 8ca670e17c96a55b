/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The oracle's solver (maxmin.c) against cases computed by hand, so that
 * it is not trusted blindly: textbook max-min, the examples of issue 23
 * with the figures the documented rule gives, the line in wire time with
 * mixed frame lengths, packet-fair sharing without scheduling elements,
 * committed rates, and the trees the rule has no rate for.
 *
 * Usage: test-oracle-solver. The last line is "N passed, N failed".
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "maxmin.h"
#include "test_common.h"

#define MBIT 125000.0 /* bytes/s */
#define GBIT 125000000.0

static struct mm_tree tree;
static double rate[MM_NODES_MAX];
static char why[256];

/* A new tree on a line of @p line_bps, byte-fair unless @p packet_fair. */
static void
tree_new(double line_bps, bool packet_fair)
{
	memset(&tree, 0, sizeof(tree));
	tree.line_bps = line_bps;
	tree.packet_fair = packet_fair;
}

/* Add a non-leaf node (parent -1: the root); its index. */
static int
group(int parent, double weight, double ceiling, double committed)
{
	struct mm_node *n = &tree.node[tree.nb_nodes];

	n->parent = parent;
	n->weight = weight;
	n->ceiling = ceiling;
	n->committed = committed;
	return (int)tree.nb_nodes++;
}

/* Add a leaf of frames @p size (0-terminated list after it). */
static int
leaf(int parent, double weight, double ceiling, double pps, double committed,
     uint32_t size, ...)
{
	struct mm_node *n = &tree.node[tree.nb_nodes];
	va_list ap;
	uint32_t s;

	n->parent = parent;
	n->leaf = true;
	n->weight = weight;
	n->ceiling = ceiling;
	n->pps = pps;
	n->committed = committed;
	n->sizes[n->nb_sizes++] = size;
	va_start(ap, size);
	while ((s = va_arg(ap, uint32_t)) != 0 && n->nb_sizes < MM_SIZES_MAX)
		n->sizes[n->nb_sizes++] = s;
	va_end(ap);
	return (int)tree.nb_nodes++;
}

/* Solve; 0 expected. */
static void
solve(void)
{
	int ret = mm_solve(&tree, rate, why, sizeof(why));

	CHECK(ret == 0, "mm_solve: %d %s", ret, why);
}

/* Node @p i's rate is @p want bytes/s within 1e-9. */
#define EXPECT_RATE(i, want) do { \
	double w_ = (want); \
	CHECK(fabs(rate[i] - w_) <= 1e-9 * w_ + 1e-6, \
	      "node %d: %.6f bytes/s, expected %.6f", (int)(i), rate[i], w_); \
} while (0)

/*
 * Textbook max-min (Bertsekas & Gallager): capacity 10, demands 2, 2.6,
 * 4, 5 of equal weight: 2 and 2.6 are met, the other two share the
 * remaining 5.4: 2.7 each.
 */
static void
textbook_equal(void)
{
	int r, a, b, c, d;

	tree_new(100e9, false);
	r = group(-1, 1, 10e6, 0);
	a = leaf(r, 1, 2e6, 0, 0, 1500, 0);
	b = leaf(r, 1, 2.6e6, 0, 0, 1500, 0);
	c = leaf(r, 1, 4e6, 0, 0, 1500, 0);
	d = leaf(r, 1, 5e6, 0, 0, 1500, 0);
	solve();
	EXPECT_RATE(a, 2e6);
	EXPECT_RATE(b, 2.6e6);
	EXPECT_RATE(c, 2.7e6);
	EXPECT_RATE(d, 2.7e6);
	EXPECT_RATE(r, 10e6);
}

/*
 * Weighted: capacity 12, weights 1, 2, 3, the second wanting 2: at level
 * L the family takes L + min(2, 2L) + 3L = 12, so L = 2.5: 2.5, 2, 7.5.
 */
static void
textbook_weighted(void)
{
	int r, a, b, c;

	tree_new(100e9, false);
	r = group(-1, 1, 12e6, 0);
	a = leaf(r, 1, 0, 0, 0, 1000, 0);
	b = leaf(r, 2, 2e6, 0, 0, 1000, 0);
	c = leaf(r, 3, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(a, 2.5e6);
	EXPECT_RATE(b, 2e6);
	EXPECT_RATE(c, 7.5e6);
}

/*
 * Issue 23: group of 800 Mbit/s, weights 1:2:5, the weight-5 queue capped
 * at 50 Mbit/s: it gets 50, the other two share 750 as 1:2: 250, 500.
 */
static void
capped_weighted_leaf(void)
{
	int r, g, a, b, c;

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	g = group(r, 1, 800 * MBIT, 0);
	a = leaf(g, 1, 0, 0, 0, 1000, 0);
	b = leaf(g, 2, 0, 0, 0, 1000, 0);
	c = leaf(g, 5, 50 * MBIT, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(a, 250 * MBIT);
	EXPECT_RATE(b, 500 * MBIT);
	EXPECT_RATE(c, 50 * MBIT);
	EXPECT_RATE(g, 800 * MBIT);
}

/*
 * Issue 23: group of 400 Mbit/s, a packet-mode queue of 200 000 packets/s
 * of 64 bytes and weight 2 (102.4 Mbit/s, below its 266.7), a queue of
 * weight 1: 102.4 and 297.6 Mbit/s.
 */
static void
pps_leaf(void)
{
	int r, g, a, b;

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	g = group(r, 1, 400 * MBIT, 0);
	a = leaf(g, 2, 0, 200000, 0, 64, 0);
	b = leaf(g, 1, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(a, 12.8e6);
	EXPECT_RATE(b, 50e6 - 12.8e6);
}

/*
 * Issue 23: group of 1000 Mbit/s, a queue with 200 Mbit/s committed and
 * a 250 Mbit/s peak, a sibling without: targets 200 + 800/2 = 600 and
 * 400, the first capped at 250, the second gets the rest, 750.
 */
static void
committed_capped_leaf(void)
{
	int r, g, a, b;

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	g = group(r, 1, 1000 * MBIT, 0);
	a = leaf(g, 1, 250 * MBIT, 0, 200 * MBIT, 1000, 0);
	b = leaf(g, 1, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(a, 250 * MBIT);
	EXPECT_RATE(b, 750 * MBIT);
}

/*
 * Issue 23 (the tool's phantom node): top 1000 Mbit/s; subgroup a (peak
 * 1000, committed 600) and b (peak 1000), two queues each: targets
 * 600 + 400/2 = 800 and 200; the queues of each split it equally.
 */
static void
committed_subgroups(void)
{
	int r, top, a, b, q[4];

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	top = group(r, 1, 1000 * MBIT, 0);
	a = group(top, 1, 1000 * MBIT, 600 * MBIT);
	b = group(top, 1, 1000 * MBIT, 0);
	q[0] = leaf(a, 1, 0, 0, 0, 1000, 0);
	q[1] = leaf(a, 1, 0, 0, 0, 1000, 0);
	q[2] = leaf(b, 1, 0, 0, 0, 1000, 0);
	q[3] = leaf(b, 1, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(a, 800 * MBIT);
	EXPECT_RATE(b, 200 * MBIT);
	EXPECT_RATE(q[0], 400 * MBIT);
	EXPECT_RATE(q[1], 400 * MBIT);
	EXPECT_RATE(q[2], 100 * MBIT);
	EXPECT_RATE(q[3], 100 * MBIT);
}

/*
 * Issue 23: groups of weight 1 and 3 with 80 Gbit/s ceilings, two queues
 * of 1500-byte frames each, on a 100 Gbit/s line: the line carries
 * 12.5e9 x 1500/1524 = 12 303 149 606.3 bytes/s of frames, shared 1:3
 * (3 075 787 401.6 and 9 227 362 204.7, both under 10e9).
 */
static void
line_weighted_groups(void)
{
	int r, a, b, q[4];
	double l2 = 12.5e9 * 1500 / 1524;

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	a = group(r, 1, 80 * GBIT, 0);
	b = group(r, 3, 80 * GBIT, 0);
	q[0] = leaf(a, 1, 0, 0, 0, 1500, 0);
	q[1] = leaf(a, 1, 0, 0, 0, 1500, 0);
	q[2] = leaf(b, 1, 0, 0, 0, 1500, 0);
	q[3] = leaf(b, 1, 0, 0, 0, 1500, 0);
	solve();
	EXPECT_RATE(a, l2 / 4);
	EXPECT_RATE(b, l2 * 3 / 4);
	EXPECT_RATE(q[0], l2 / 8);
	EXPECT_RATE(q[3], l2 * 3 / 8);
	CHECK(fabs(rate[a] - 3075787401.6) < 1 &&
	      fabs(rate[b] - 9227362204.7) < 1, "%.1f %.1f", rate[a],
	      rate[b]);
}

/*
 * Issue 23: two groups of equal weight with 90 Gbit/s ceilings, 9000-byte
 * frames in one, 1000-byte in the other, on a 100 Gbit/s line: equal
 * frame bytes y, y x 9024/9000 + y x 1024/1000 = 12.5e9 wire bytes/s,
 * y = 12.5e9 / 2.0266667 = 6 167 763 157.9 bytes/s (49.34 Gbit/s).
 */
static void
line_mixed_sizes(void)
{
	int r, a, b, q0, q1;
	double y = 12.5e9 / (9024.0 / 9000 + 1024.0 / 1000);

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	a = group(r, 1, 90 * GBIT, 0);
	b = group(r, 1, 90 * GBIT, 0);
	q0 = leaf(a, 1, 0, 0, 0, 9000, 0);
	q1 = leaf(b, 1, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(q0, y);
	EXPECT_RATE(q1, y);
	CHECK(fabs(y - 6167763157.9) < 1, "%.1f", y);
}

/*
 * A queue alternating 64- and 1500-byte frames alone on a 10 Gbit/s line:
 * wire per frame byte (88 + 1524) / (64 + 1500) = 1.0306905; 1.25e9 /
 * that = 1 212 779 156.3 bytes/s.
 */
static void
line_alternating_sizes(void)
{
	int r, q;

	tree_new(10e9, false);
	r = group(-1, 1, 0, 0);
	q = leaf(r, 1, 0, 0, 0, 64, 1500, 0);
	solve();
	EXPECT_RATE(q, 1.25e9 * 1564 / 1612);
	CHECK(fabs(rate[q] - 1212779156.3) < 1, "%.1f", rate[q]);
}

/*
 * Issue 23, ConnectX-5 (no scheduling element): two queues paced at
 * 60 Gbit/s, 9000- and 1000-byte frames, 100 Gbit/s line, packet-fair:
 * the first at its 833 333.3 packets/s takes 7.52e9 wire bytes/s, the
 * second gets the rest, 4.98e9 / 1024 = 4 863 281.25 packets/s,
 * 4 863 281 250 bytes/s (38.9 Gbit/s).
 */
static void
packet_fair_paced(void)
{
	int r, q0, q1;

	tree_new(100e9, true);
	r = group(-1, 1, 0, 0);
	q0 = leaf(r, 1, 60 * GBIT, 0, 0, 9000, 0);
	q1 = leaf(r, 1, 60 * GBIT, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(q0, 7.5e9);
	EXPECT_RATE(q1, 4863281250.0);
}

/*
 * Packet-fair and byte-fair differ: two unlimited queues, 1500 and 64
 * bytes, on a 10 Gbit/s line (a 64-byte frame takes 88 wire bytes).
 * Packet-fair: mu x (1524 + 88) = 1.25e9, mu = 775 434.24 packets/s,
 * 1 163 151 364.8 and 49 627 791.6 bytes/s. Byte-fair (DWRR, equal
 * weights): y x (1524/1500 + 88/64) = 1.25e9, y = 522 793 810.1
 * bytes/s each.
 */
static void
packet_fair_versus_byte_fair(void)
{
	int r, q0, q1, pass;

	for (pass = 0; pass < 2; pass++) {
		tree_new(10e9, pass == 0);
		r = group(-1, 1, 0, 0);
		q0 = leaf(r, 1, 0, 0, 0, 1500, 0);
		q1 = leaf(r, 1, 0, 0, 0, 64, 0);
		solve();
		if (pass == 0) {
			EXPECT_RATE(q0, 1.25e9 / 1612 * 1500);
			EXPECT_RATE(q1, 1.25e9 / 1612 * 64);
			CHECK(fabs(rate[q0] - 1163151364.8) < 1 &&
			      fabs(rate[q1] - 49627791.6) < 1, "%.1f %.1f",
			      rate[q0], rate[q1]);
		} else {
			EXPECT_RATE(q0, 1.25e9 / (1524.0 / 1500 + 88.0 / 64));
			EXPECT_RATE(q1, rate[q0]);
			CHECK(fabs(rate[q0] - 522793810.1) < 1, "%.1f",
			      rate[q0]);
		}
	}
}

/*
 * Three levels: root, 600 Mbit/s, then 1:2 (two queues under the first,
 * one under the second): 100, 100, 400.
 */
static void
three_levels(void)
{
	int r, top, a, b, q0, q1, q2;

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	top = group(r, 1, 600 * MBIT, 0);
	a = group(top, 1, 0, 0);
	b = group(top, 2, 0, 0);
	q0 = leaf(a, 1, 0, 0, 0, 1000, 0);
	q1 = leaf(a, 1, 0, 0, 0, 1000, 0);
	q2 = leaf(b, 1, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(q0, 100 * MBIT);
	EXPECT_RATE(q1, 100 * MBIT);
	EXPECT_RATE(q2, 400 * MBIT);
}

/*
 * A subgroup capped by its ceiling: group 1000 Mbit/s, subgroups of
 * equal weight, one capped at 100: 100 and 900; and a subgroup whose
 * queues are all capped (30 + 20 = 50) below its share: 50, its sibling
 * 950.
 */
static void
capped_subgroup(void)
{
	int r, g, s1, s2, q0, q1;

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	g = group(r, 1, 1000 * MBIT, 0);
	s1 = group(g, 1, 100 * MBIT, 0);
	s2 = group(g, 1, 0, 0);
	q0 = leaf(s1, 1, 0, 0, 0, 1000, 0);
	q1 = leaf(s2, 1, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(q0, 100 * MBIT);
	EXPECT_RATE(q1, 900 * MBIT);

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	g = group(r, 1, 1000 * MBIT, 0);
	s1 = group(g, 5, 0, 0);
	s2 = group(g, 1, 0, 0);
	leaf(s1, 1, 30 * MBIT, 0, 0, 1000, 0);
	leaf(s1, 1, 20 * MBIT, 0, 0, 1000, 0);
	q1 = leaf(s2, 1, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(s1, 50 * MBIT);
	EXPECT_RATE(q1, 950 * MBIT);
}

/*
 * Committed rates at the top, no ceiling on the path: P is the nominal
 * line rate, 12.5e9 bytes/s. Committed 5e9 and none, weights 1:1:
 * targets 5e9 + 7.5e9/2 = 8.75e9 and 3.75e9 (7:3). Line-bound with
 * 1000-byte frames: 12.5e9 x 1000/1024 = 12 207 031 250 bytes/s of
 * frames, 8 544 921 875 and 3 662 109 375.
 */
static void
committed_on_the_line(void)
{
	int r, q0, q1;

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	q0 = leaf(r, 1, 0, 0, 5e9, 1000, 0);
	q1 = leaf(r, 1, 0, 0, 0, 1000, 0);
	solve();
	EXPECT_RATE(q0, 8544921875.0);
	EXPECT_RATE(q1, 3662109375.0);
}

/* Nothing line-bound: every queue at its own limit, exactly. */
static void
under_demand(void)
{
	int r, q0, q1, q2;

	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	q0 = leaf(r, 7, 1 * GBIT, 0, 0, 64, 0);
	q1 = leaf(r, 1, 0, 1000, 0, 9000, 1500, 0);
	q2 = leaf(r, 3, 125125, 0, 0, 200, 0);
	solve();
	EXPECT_RATE(q0, 1 * GBIT);
	EXPECT_RATE(q1, 1000 * 5250.0);
	EXPECT_RATE(q2, 125125);
	EXPECT_RATE(r, 1 * GBIT + 5250000 + 125125);
}

/* Trees the rule gives no rate for, and malformed ones. */
static void
refusals(void)
{
	int r, g, ret;

	/* Committed 600 + 500 under a 1000 Mbit/s group. */
	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	g = group(r, 1, 1000 * MBIT, 0);
	leaf(g, 1, 0, 0, 600 * MBIT, 1000, 0);
	leaf(g, 1, 0, 0, 500 * MBIT, 1000, 0);
	ret = mm_solve(&tree, rate, why, sizeof(why));
	CHECK(ret == -ERANGE && strstr(why, "committed") != NULL, "%d %s",
	      ret, why);
	/* Packet-fair with a weight. */
	tree_new(100e9, true);
	r = group(-1, 1, 0, 0);
	leaf(r, 2, 0, 0, 0, 1000, 0);
	ret = mm_solve(&tree, rate, why, sizeof(why));
	CHECK(ret == -EINVAL, "%d %s", ret, why);
	/* A non-leaf node without children; two roots. */
	tree_new(100e9, false);
	r = group(-1, 1, 0, 0);
	group(r, 1, 0, 0);
	leaf(r, 1, 0, 0, 0, 1000, 0);
	ret = mm_solve(&tree, rate, why, sizeof(why));
	CHECK(ret == -EINVAL, "%d %s", ret, why);
	tree_new(100e9, false);
	group(-1, 1, 0, 0);
	group(-1, 1, 0, 0);
	ret = mm_solve(&tree, rate, why, sizeof(why));
	CHECK(ret == -EINVAL, "%d %s", ret, why);
}

int
main(void)
{
	RUN(textbook_equal);
	RUN(textbook_weighted);
	RUN(capped_weighted_leaf);
	RUN(pps_leaf);
	RUN(committed_capped_leaf);
	RUN(committed_subgroups);
	RUN(line_weighted_groups);
	RUN(line_mixed_sizes);
	RUN(line_alternating_sizes);
	RUN(packet_fair_paced);
	RUN(packet_fair_versus_byte_fair);
	RUN(three_levels);
	RUN(capped_subgroup);
	RUN(committed_on_the_line);
	RUN(under_demand);
	RUN(refusals);
	return test_report();
}
