/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TM_TREE_CHECK_H
#define TM_TREE_CHECK_H

/*
 * The tree's bookkeeping recounted from its nodes (tests only): every node
 * reachable from the root at its level, leaf ids the queues, the leaf
 * index and the look-up by id, and the counts of children, leaves,
 * non-leaf nodes per level and profile users what the nodes say.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "tm_tree.h"

static inline bool
tm_tree_consistent(const struct tm_tree *h, char *why, size_t len)
{
	uint32_t n = 0, leaves = 0, nonleaf[TM_TREE_LEVELS] = { 0 }, level;
	const struct tm_profile *p;
	const struct tm_node *node, *m;

	TAILQ_FOREACH(node, &h->nodes, next) {
		uint32_t depth = 0, children = 0;

		for (m = node; m->parent != NULL && depth <= TM_TREE_LEVELS;
		     m = m->parent)
			depth++;
		TAILQ_FOREACH(m, &h->nodes, next)
			children += m->parent == node;
		if (m != NULL || depth != node->level ||
		    (node->parent == NULL) != (h->root == node) ||
		    node->leaf != (node->id < h->nb_txq) ||
		    (node->leaf && (h->leaves[node->id] != node ||
				    node->level != h->leaf_level)) ||
		    (!node->leaf && h->n_leaves > 0 &&
		     node->level >= h->leaf_level) ||
		    tm_tree_node_find(h, node->id) != node ||
		    children != node->n_children) {
			snprintf(why, len, "node %" PRIu32 ": level %" PRIu32
				 " (depth %" PRIu32 "), %" PRIu32 " children "
				 "counted, %" PRIu32 " found", node->id,
				 node->level, depth, node->n_children,
				 children);
			return false;
		}
		n++;
		if (node->leaf)
			leaves++;
		else
			nonleaf[node->level]++;
	}
	for (level = 0; level < TM_TREE_LEVELS; level++)
		if (nonleaf[level] != h->n_nonleaf[level]) {
			snprintf(why, len, "level %" PRIu32 ": %" PRIu32
				 " non-leaf nodes counted, %" PRIu32 " found",
				 level, h->n_nonleaf[level], nonleaf[level]);
			return false;
		}
	if (n != h->n_nodes || leaves != h->n_leaves ||
	    (n > 0 && h->root == NULL)) {
		snprintf(why, len, "%" PRIu32 " nodes and %" PRIu32 " leaves "
			 "counted, %" PRIu32 " and %" PRIu32 " found",
			 h->n_nodes, h->n_leaves, n, leaves);
		return false;
	}
	TAILQ_FOREACH(p, &h->profiles, next) {
		uint32_t users = 0;

		TAILQ_FOREACH(node, &h->nodes, next)
			users += node->profile == p;
		if (users != p->n_users) {
			snprintf(why, len, "profile %" PRIu32 ": %" PRIu32
				 " users counted, %" PRIu32 " found", p->id,
				 p->n_users, users);
			return false;
		}
	}
	return true;
}

#endif /* TM_TREE_CHECK_H */
