/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MAXMIN_H
#define MAXMIN_H

/*
 * The rates a traffic-manager tree must give its backlogged queues, from
 * the documented rule alone (doc/guides/rte_tm.rst, device_model.rst,
 * DESIGN.md), written apart from the code it checks: every child gets
 * min(its own limit, its weighted max-min share of what its parent gets),
 * work-conserving, at every level.
 *
 * Readings of the rule (the oracle's header, test_oracle.c, says why):
 * - Shares and ceilings count L2 frame bytes (no FCS, preamble, gap);
 *   the line counts wire bytes, max(len, 60) + 24 per frame, at the line
 *   rate: the line is solved in wire time, each leaf costing its wire
 *   bytes per L2 byte.
 * - A child's weight in its family is its target
 *   t = c + (P - sum c) * w / sum w (c committed, w weight, P the
 *   parent's effective ceiling: the smallest ceiling on the path from the
 *   root to the parent, or the nominal line rate); without committed
 *   rates that is in proportion to the weights.
 * - A packet-mode leaf is limited to pps x its mean frame size.
 * - Without any scheduling element (mm_tree.packet_fair) the line is
 *   shared packet-fair round robin among the queues, each limited by its
 *   own shaper; non-leaf nodes are pass-through.
 *
 * The method is not progressive filling: each family's split is a
 * bisection on its water level (the rate per unit of weight), nested
 * top-down, and the line is a bisection on what the root passes, until
 * the wire time it costs fills the line.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Nodes of a tree the solver takes. */
#define MM_NODES_MAX 128
/** Frame lengths a leaf sends in turn, at most (16: a size range). */
#define MM_SIZES_MAX 16

/** A node of the tree: the root, a non-leaf node or a leaf (a queue). */
struct mm_node {
	int parent;        /**< Index of the parent; -1 for the root. */
	bool leaf;         /**< A queue. */
	double weight;     /**< Weight among its siblings (> 0). */
	double committed;  /**< Committed rate, bytes/s; 0 none. */
	/**
	 * Ceiling in L2 bytes/s as the device applies it (0: none): a
	 * non-leaf node's shaper, a leaf's byte-mode shaper.
	 */
	double ceiling;
	double pps;        /**< Leaf packet-mode shaper, packets/s; 0 none. */
	unsigned int nb_sizes;          /**< Leaf: frame lengths, 1 or more. */
	uint32_t sizes[MM_SIZES_MAX];   /**< Leaf: L2 lengths, sent in turn. */
};

/** A tree whose every leaf always has a frame to send. */
struct mm_tree {
	unsigned int nb_nodes;
	struct mm_node node[MM_NODES_MAX];
	double line_bps;   /**< Line rate, bit/s of wire bytes. */
	/** No scheduling element: packet-fair round robin among the leaves. */
	bool packet_fair;
};

/**
 * The rate of every node of @p t, L2 bytes/s, into @p rate (a non-leaf
 * node: the sum of its leaves).
 *
 * @return
 *   0; -EINVAL for a malformed tree (no single root, a leaf with
 *   children, a non-leaf node without, a weight not above 0, a
 *   packet-fair tree with weights, ceilings or committed rates on
 *   non-leaf nodes); -ERANGE for a tree the port must refuse: a
 *   family whose committed rates sum above its parent's effective
 *   ceiling (rte_tm.rst), or leave a child a target not above 0. @p why
 *   (of @p why_len bytes, may be NULL) then says which node and why.
 */
int mm_solve(const struct mm_tree *t, double *rate, char *why,
	     size_t why_len);

/** Mean L2 length of leaf @p n's frames. */
double mm_mean_size(const struct mm_node *n);

/** Wire bytes per L2 byte of leaf @p n's frames. */
double mm_wire_per_byte(const struct mm_node *n);

/**
 * The family weight of node @p i of @p t (its target, see above), or a
 * value not above 0 when its family's committed rates leave it none.
 */
double mm_family_weight(const struct mm_tree *t, unsigned int i);

/** The effective ceiling P of node @p i's children: bytes/s. */
double mm_effective_ceiling(const struct mm_tree *t, unsigned int i);

#endif /* MAXMIN_H */
