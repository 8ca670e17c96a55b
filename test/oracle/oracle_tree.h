/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef ORACLE_TREE_H
#define ORACLE_TREE_H

/*
 * Random rte_tm hierarchies for the oracle (test_oracle.c): what the
 * application asks of rte_tm, drawn from a seed and an index alone, and
 * the tree of applied limits the solver (maxmin.h) takes from it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "maxmin.h"

/** Leaves (Tx queues) of a tree, at most. */
#define OT_LEAVES_MAX 64
/** Non-leaf node ids start here (above every queue id). */
#define OT_NONLEAF_ID 1000

/** A node as the application asks it of rte_tm. */
struct ot_node {
	int parent;          /**< Index in ot_tree.node; -1 for the root. */
	bool leaf;
	uint32_t id;         /**< rte_tm node id: queue id for leaves. */
	uint32_t level;      /**< rte_tm level. */
	uint32_t weight;     /**< rte_tm weight, 1..65535. */
	/** Shaper profile: none when peak is 0. */
	uint64_t peak;       /**< bytes/s, or packets/s in packet mode. */
	uint64_t committed;  /**< bytes/s (byte mode only). */
	bool packet_mode;
	unsigned int nb_sizes;          /**< Leaf: frame lengths, sent in turn. */
	uint32_t sizes[MM_SIZES_MAX];
	/**
	 * Leaf: its frames are a size range A..B, as dpdk-tm-pace's size=A..B:
	 * OT_RANGE_SIZES lengths evenly spaced from A to B, sent in
	 * bit-reversed order (every short run of frames near the mean).
	 */
	bool range;
	char cap_kind;       /**< Leaf cap drawn: 0 none, '<' '=' '>' share. */
};

/** A tree and the port it runs on. */
struct ot_tree {
	uint64_t seed;
	unsigned int index;
	const char *profile;     /**< "cx5", "cx6dx", "cx7". */
	uint32_t line_mbps;      /**< The profile's line rate. */
	bool flat;               /**< Weights 1, no non-leaf shaper, no committed. */
	unsigned int depth;      /**< Leaves' level (1..3). */
	unsigned int nb_nodes;   /**< The root first, parents before children. */
	unsigned int first_leaf; /**< Queue q is node first_leaf + q. */
	unsigned int nb_leaves;
	struct ot_node node[MM_NODES_MAX];
	unsigned int draws;      /**< Trees drawn before this one was kept. */
};

/**
 * The device's bw_share range, max_tsar_bw_share of cx6dx and cx7
 * (rte_tm.rst): a weight above is refused, ratios within it are exact.
 */
#define OT_WEIGHT_MAX 100

/** Lengths of a size range (a power of 2: bit-reversed order). */
#define OT_RANGE_SIZES 16

/**
 * Make leaf @p n's frames the size range @p a..@p b (see ot_node.range).
 */
void ot_set_range(struct ot_node *n, uint32_t a, uint32_t b);

/** Device-model limits the draw respects (the profile's caps). */
#define OT_RATE_MIN_KBPS 1000u /* packet_pacing_min_rate */

/**
 * Draw tree @p index of seed @p seed into @p t: the same tree for the same
 * pair, whatever was drawn before. @p accept, when not NULL, may refuse a
 * drawn tree (too costly to measure); the next draw of the same sequence
 * is then taken.
 */
void ot_draw(struct ot_tree *t, uint64_t seed, unsigned int index,
	     bool (*accept)(const struct ot_tree *t, void *arg), void *arg);

/**
 * The solver's tree of @p t: the limits the device applies (a non-leaf
 * ceiling rounded down to whole Mbit/s, a byte-mode leaf rate to whole
 * kbit/s), node i of @p m being node i of @p t.
 */
void ot_to_mm(const struct ot_tree *t, struct mm_tree *m);

/** Print @p t, one node a line, each line prefixed with @p prefix. */
void ot_print(const struct ot_tree *t, FILE *f, const char *prefix);

/** "node 1003" or "queue 5". */
const char *ot_node_name(const struct ot_tree *t, unsigned int i, char *buf,
			 size_t len);

#endif /* ORACLE_TREE_H */
