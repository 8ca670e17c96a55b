/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TM_TREE_H
#define TM_TREE_H

/**
 * @file
 * The rte_tm hierarchy of one port: shaper profiles and nodes, with every
 * structural rule, checked against hardware-independent limits (struct
 * tm_limits) that a driver fills from its device. No device, no ethdev:
 * what the device must hold is computed from a tree by tm_plan.h.
 *
 * Shape of a hierarchy:
 * - leaf node q is Tx queue q (ids 0 .. nb_txq - 1); every other id
 *   (nb_txq and above, except RTE_TM_NODE_ID_NULL) is a non-leaf node;
 * - one root (level 0), then at most TM_TREE_NONLEAF_LEVELS - 1 levels
 *   of non-leaf nodes;
 * - all leaves on one level, below every non-leaf node;
 * - one priority (0); with a scheduling hierarchy (tm_limits.sched)
 *   weights 1..tm_tree_weight_max() (the device's bw_share range, so
 *   that every weight is an exact share), private shapers on every node
 *   and committed rates; without one, weight 1 and leaf shapers only
 *   (non-leaf levels pass everything through).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_tm.h>

#include "pacing_shaper.h"
#include "pacing_sched.h"

/** Levels of a hierarchy: root, non-leaf levels, leaves. */
#define TM_TREE_LEVELS 4
/** Levels that may hold non-leaf nodes (0 .. 2). */
#define TM_TREE_NONLEAF_LEVELS (TM_TREE_LEVELS - 1)
/** Non-leaf nodes allowed on each level below the root. */
#define TM_TREE_NONLEAF_PER_LEVEL 256
/** Non-leaf nodes of a hierarchy: the root and its non-leaf levels. */
#define TM_TREE_NONLEAF_MAX \
	(1 + (TM_TREE_NONLEAF_LEVELS - 1) * TM_TREE_NONLEAF_PER_LEVEL)
/** Statistics counters a node keeps. */
#define TM_TREE_STATS_MASK \
	((uint64_t)(RTE_TM_STATS_N_PKTS | RTE_TM_STATS_N_BYTES))
/** Size of the (per-thread) message buffer an error points to. */
#define TM_TREE_MSG_SIZE 512
/**
 * Largest weight whatever the device's share range (weights times leaves
 * sharing a group fit 32 bits).
 */
#define TM_TREE_WEIGHT_MAX 65535

/** What the device can schedule, filled by the driver from its caps. */
struct tm_limits {
	/** A scheduling hierarchy: weights, non-leaf shapers, committed. */
	bool sched;
	uint32_t max_share;      /**< Largest bw_share of an element. */
	uint32_t groups_max;     /**< Queue groups. */
	uint32_t elements_max;   /**< Scheduling elements, groups included. */
	uint32_t depth_max;      /**< Elements from the root to a group. */
	uint32_t line_rate_mbps; /**< Port speed: the largest ceiling. */
	/**
	 * Largest frame the port can send, L2 bytes (its largest MTU plus
	 * header and VLAN tag): a packet-mode leaf's byte backstop.
	 */
	uint32_t max_frame;
	/** Without sched: what may explain it, for refusals ("" none). */
	const char *no_sched_hint;
};

/** A shaper profile, validated and converted to a pacing context. */
struct tm_profile {
	TAILQ_ENTRY(tm_profile) next;
	uint32_t id;                        /**< Profile id. */
	struct rte_tm_shaper_params params; /**< As given by the user. */
	struct pacing_result pacing;        /**< As the device applies it. */
	uint32_t n_users;                   /**< Nodes referencing it. */
};

/** A node of the hierarchy. */
struct tm_node {
	TAILQ_ENTRY(tm_node) next;
	uint32_t id;                     /**< Node id (queue id for a leaf). */
	struct tm_node *parent;     /**< NULL for the root. */
	uint32_t level;                  /**< 0 for the root. */
	bool leaf;                       /**< Tx queue. */
	/** rte_tm_node_suspend() in force (beside what a plan reads). */
	bool suspended;
	uint32_t n_children;             /**< Direct children. */
	uint32_t elem;                   /**< Plan scratch: its element. */
	uint32_t weight;                 /**< Among its siblings, >= 1. */
	struct tm_profile *profile;      /**< Private shaper, or NULL. */
	uint64_t stats_mask;             /**< Counters reported. */
	uint64_t stats_origin_pkts;      /**< Leaf: its queue's counters */
	uint64_t stats_origin_bytes;     /**< when the leaf was added. */
	uint64_t stats_base_pkts;        /**< Counted at the last clear. */
	uint64_t stats_base_bytes;
};

TAILQ_HEAD(tm_profile_list, tm_profile);
TAILQ_HEAD(tm_node_list, tm_node);

/** The hierarchy of one port. */
struct tm_tree {
	struct tm_profile_list profiles; /**< In creation order. */
	struct tm_node_list nodes;       /**< In creation order. */
	struct tm_node *root;            /**< NULL when empty. */
	struct tm_node **leaves;         /**< Indexed by queue id. */
	uint32_t nb_txq;                      /**< Leaf ids are below this. */
	uint32_t n_nodes;                     /**< All nodes. */
	uint32_t n_leaves;                    /**< Leaf nodes. */
	uint32_t n_profiles;                  /**< Shaper profiles. */
	uint32_t n_nonleaf[TM_TREE_LEVELS]; /**< Non-leaf per level. */
	/** The non-leaf nodes by id, ascending: a look-up in the log of
	 * their number, whatever the number of leaves. */
	struct tm_node *nonleaf[TM_TREE_NONLEAF_MAX];
	uint32_t leaf_level;                  /**< Valid when n_leaves > 0. */
	struct tm_limits lim;                 /**< What the device can do. */
};

/**
 * Fill @p error (if not NULL) with @p type and a printf-style message kept
 * in a buffer of the calling thread (valid until its next error given to
 * a caller: with @p error NULL the buffer is left alone), set rte_errno.
 *
 * @return
 *   -code.
 */
int tm_error(struct rte_tm_error *error, enum rte_tm_error_type type,
	     int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** Make @p h an empty hierarchy with no queue, on a device of @p lim. */
void tm_tree_init(struct tm_tree *h, const struct tm_limits *lim);

/** Free every node, profile and the leaf index of @p h. */
void tm_tree_fini(struct tm_tree *h);

/**
 * The port now has @p nb_txq Tx queues. Leaves of queues that no longer
 * exist are deleted. When a non-leaf node id would now name a queue, the
 * hierarchy no longer makes sense: every node is deleted (profiles stay).
 *
 * @return
 *   0 (kept, maybe without some leaves), 1 (every node deleted), or
 *   -ENOMEM (nothing changed).
 */
int tm_tree_set_nb_txq(struct tm_tree *h, uint32_t nb_txq);

/** Profile @p id, or NULL. */
struct tm_profile *tm_tree_profile_find(const struct tm_tree *h,
						  uint32_t id);

/**
 * Check that @p id can name a new profile (not NONE, not in use).
 *
 * @return
 *   0, or -EINVAL / -EEXIST with @p error (SHAPER_PROFILE_ID).
 */
int tm_tree_profile_check_id(struct tm_tree *h, uint32_t id,
				  struct rte_tm_error *error);

/**
 * Add profile @p id, already validated and converted into @p pacing.
 *
 * @return
 *   0, or a negative errno with @p error.
 */
int tm_tree_profile_add(struct tm_tree *h, uint32_t id,
			     const struct rte_tm_shaper_params *params,
			     const struct pacing_result *pacing,
			     struct rte_tm_error *error);

/**
 * Delete profile @p id; refused while a node uses it.
 *
 * @return
 *   0, or -EINVAL (no such profile) / -EBUSY (in use) with @p error.
 */
int tm_tree_profile_delete(struct tm_tree *h, uint32_t id,
				struct rte_tm_error *error);

/** Node @p id, or NULL. */
struct tm_node *tm_tree_node_find(const struct tm_tree *h,
					    uint32_t id);

/**
 * Node @p id, or NULL with @p error (NODE_ID, -EINVAL: no such node).
 */
struct tm_node *tm_tree_node_get(const struct tm_tree *h, uint32_t id,
				 struct rte_tm_error *error);

/**
 * Add a node, checked against every rule first (nothing changes on a
 * refusal).
 *
 * @return
 *   The node, or NULL with @p error (-ENOMEM, or a rule broken).
 */
struct tm_node *tm_tree_node_add(struct tm_tree *h,
					   uint32_t node_id, uint32_t parent_id,
					   uint32_t priority, uint32_t weight,
					   uint32_t level_id,
					   const struct rte_tm_node_params *params,
					   struct rte_tm_error *error);

/**
 * Check that node @p id exists and has no child; nothing changes.
 *
 * @return
 *   The node, or NULL with @p error (NODE_ID: -EINVAL, -EBUSY).
 */
struct tm_node *tm_tree_node_check_delete(struct tm_tree *h,
						    uint32_t id,
						    struct rte_tm_error *error);

/** Delete @p node, which has no child. */
void tm_tree_node_delete(struct tm_tree *h, struct tm_node *node);

/**
 * Take @p node, which has no child, out of the tree without freeing it:
 * tm_tree_node_link() puts it back, free() ends it.
 */
void tm_tree_node_unlink(struct tm_tree *h, struct tm_node *node);

/** Put back @p node, unlinked last, as it was. */
void tm_tree_node_link(struct tm_tree *h, struct tm_node *node);

/**
 * Check that node @p node_id may have private shaper profile @p id (NONE:
 * no shaper), set in @p profile (NULL for NONE): an existing profile; on
 * a non-leaf node only with a scheduling hierarchy, in bytes/s, and a
 * ceiling of at least 1 Mbit/s.
 *
 * @return
 *   0, or a negative errno with @p error (NODE_PARAMS_SHAPER_PROFILE_ID).
 */
int tm_tree_profile_check_use(const struct tm_tree *h, uint32_t node_id,
			      bool leaf, uint32_t id,
			      struct tm_profile **profile,
			      struct rte_tm_error *error);

/** 0, or -ENOTSUP with @p error: @p stats_mask asks what no node counts. */
int tm_tree_check_stats_mask(uint32_t node_id, uint64_t stats_mask,
			     struct rte_tm_error *error);

/** Give @p node the private shaper @p profile (NULL for none). */
void tm_tree_node_set_profile(struct tm_node *node,
				   struct tm_profile *profile);

/**
 * Check a node_parent_update request; nothing changes. Only a move between
 * two non-leaf parents of the same level is possible (the same parent:
 * a weight change).
 *
 * @return
 *   The new parent, or NULL with @p error.
 */
struct tm_node *tm_tree_parent_check(struct tm_tree *h,
					       uint32_t node_id,
					       uint32_t parent_id,
					       uint32_t priority,
					       uint32_t weight,
					       struct rte_tm_error *error);

/**
 * Move @p node under @p parent with @p weight (checked by
 * tm_tree_parent_check()).
 */
void tm_tree_node_move(struct tm_node *node, struct tm_node *parent,
		       uint32_t weight);

/** Delete every node (profiles stay). */
void tm_tree_clear_nodes(struct tm_tree *h);

/** Leaf of Tx queue @p qid, or NULL. */
static inline struct tm_node *
tm_tree_leaf(const struct tm_tree *h, uint32_t qid)
{
	return qid < h->nb_txq ? h->leaves[qid] : NULL;
}

/** True when @p node or one of its ancestors is suspended. */
bool tm_tree_node_suspended(const struct tm_node *node);

/** True when @p node is @p ancestor or lies below it. */
bool tm_tree_node_under(const struct tm_node *node,
			     const struct tm_node *ancestor);

/** Most non-leaf nodes level @p level may hold. */
uint32_t tm_tree_nonleaf_max(uint32_t level);

/** Most children a non-leaf node on @p level may have. */
uint32_t tm_tree_children_max(const struct tm_tree *h,
				   uint32_t level);

/**
 * Largest weight a node may have: 1 without a scheduling hierarchy, else
 * the device's largest bw_share (at most TM_TREE_WEIGHT_MAX).
 */
uint32_t tm_tree_weight_max(const struct tm_tree *h);

/** Most nodes a hierarchy may have. */
uint32_t tm_tree_nodes_max(const struct tm_tree *h);

#endif /* TM_TREE_H */
