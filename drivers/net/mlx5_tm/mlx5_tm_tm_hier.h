/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_TM_HIER_H
#define MLX5_TM_TM_HIER_H

/**
 * @file
 * The rte_tm hierarchy model of one port: shaper profiles and nodes, with
 * every structural rule the device can honour. Pure bookkeeping: no device,
 * no ethdev; what a change means for the queues is decided by the caller.
 *
 * Shape of a hierarchy:
 * - leaf node q is Tx queue q (ids 0 .. nb_txq - 1); every other id
 *   (nb_txq and above, except RTE_TM_NODE_ID_NULL) is a non-leaf node;
 * - one root (level 0), then at most MLX5_TM_HIER_NONLEAF_LEVELS - 1 levels
 *   of pass-through non-leaf nodes (no shaper, no scheduling of their own);
 * - all leaves on one level, below every non-leaf node;
 * - only leaves have a (private) shaper.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_tm.h>

#include "pacing_shaper.h"

/** Levels of a hierarchy: root, pass-through levels, leaves. */
#define MLX5_TM_HIER_LEVELS 4
/** Levels that may hold non-leaf nodes (0 .. 2). */
#define MLX5_TM_HIER_NONLEAF_LEVELS (MLX5_TM_HIER_LEVELS - 1)
/** Non-leaf nodes allowed on each level below the root. */
#define MLX5_TM_HIER_NONLEAF_PER_LEVEL 256
/** Statistics counters a node keeps. */
#define MLX5_TM_HIER_STATS_MASK \
	((uint64_t)(RTE_TM_STATS_N_PKTS | RTE_TM_STATS_N_BYTES))
/** Size of the message buffer an error points to. */
#define MLX5_TM_HIER_MSG_SIZE 512

/** A shaper profile, validated and converted to a pacing context. */
struct mlx5_tm_profile {
	TAILQ_ENTRY(mlx5_tm_profile) next;
	uint32_t id;                        /**< Profile id. */
	struct rte_tm_shaper_params params; /**< As given by the user. */
	struct pacing_result pacing;        /**< As the device applies it. */
	uint32_t n_users;                   /**< Nodes referencing it. */
	uint32_t n_found;                   /**< Validation scratch. */
};

/** A node of the hierarchy. */
struct mlx5_tm_node {
	TAILQ_ENTRY(mlx5_tm_node) next;
	uint32_t id;                     /**< Node id (queue id for a leaf). */
	struct mlx5_tm_node *parent;     /**< NULL for the root. */
	uint32_t level;                  /**< 0 for the root. */
	bool leaf;                       /**< Tx queue. */
	uint32_t n_children;             /**< Direct children. */
	uint32_t n_found;                /**< Validation scratch. */
	struct mlx5_tm_profile *profile; /**< Leaf private shaper, or NULL. */
	uint64_t stats_mask;             /**< Counters reported. */
	bool suspended;                  /**< rte_tm_node_suspend() in force. */
	uint64_t stats_origin_pkts;      /**< Leaf: its queue's counters */
	uint64_t stats_origin_bytes;     /**< when the leaf was added. */
	uint64_t stats_base_pkts;        /**< Counted at the last clear. */
	uint64_t stats_base_bytes;
};

TAILQ_HEAD(mlx5_tm_profile_list, mlx5_tm_profile);
TAILQ_HEAD(mlx5_tm_node_list, mlx5_tm_node);

/** The hierarchy of one port. */
struct mlx5_tm_hier {
	struct mlx5_tm_profile_list profiles; /**< In creation order. */
	struct mlx5_tm_node_list nodes;       /**< In creation order. */
	struct mlx5_tm_node *root;            /**< NULL when empty. */
	struct mlx5_tm_node **leaves;         /**< Indexed by queue id. */
	uint32_t nb_txq;                      /**< Leaf ids are below this. */
	uint32_t n_nodes;                     /**< All nodes. */
	uint32_t n_leaves;                    /**< Leaf nodes. */
	uint32_t n_profiles;                  /**< Shaper profiles. */
	uint32_t n_nonleaf[MLX5_TM_HIER_LEVELS]; /**< Non-leaf per level. */
	uint32_t leaf_level;                  /**< Valid when n_leaves > 0. */
	char msg[MLX5_TM_HIER_MSG_SIZE];      /**< Last error message. */
};

/**
 * Fill @p error (if not NULL) with @p type and a printf-style message kept
 * in @p h (valid until the next error on @p h), set rte_errno.
 *
 * @return
 *   -code.
 */
int mlx5_tm_hier_error(struct mlx5_tm_hier *h, struct rte_tm_error *error,
		       enum rte_tm_error_type type, int code,
		       const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/** Make @p h an empty hierarchy with no queue. */
void mlx5_tm_hier_init(struct mlx5_tm_hier *h);

/** Free every node, profile and the leaf index of @p h. */
void mlx5_tm_hier_fini(struct mlx5_tm_hier *h);

/**
 * The port now has @p nb_txq Tx queues. Leaves of queues that no longer
 * exist are deleted. When a non-leaf node id would now name a queue, the
 * hierarchy no longer makes sense: every node is deleted (profiles stay).
 *
 * @return
 *   0 (kept, maybe without some leaves), 1 (every node deleted), or
 *   -ENOMEM (nothing changed).
 */
int mlx5_tm_hier_set_nb_txq(struct mlx5_tm_hier *h, uint32_t nb_txq);

/** Profile @p id, or NULL. */
struct mlx5_tm_profile *mlx5_tm_hier_profile_find(const struct mlx5_tm_hier *h,
						  uint32_t id);

/**
 * Check that @p id can name a new profile (not NONE, not in use).
 *
 * @return
 *   0, or -EINVAL / -EEXIST with @p error (SHAPER_PROFILE_ID).
 */
int mlx5_tm_hier_profile_check_id(struct mlx5_tm_hier *h, uint32_t id,
				  struct rte_tm_error *error);

/**
 * Add profile @p id, already validated and converted into @p pacing.
 *
 * @return
 *   0, or a negative errno with @p error.
 */
int mlx5_tm_hier_profile_add(struct mlx5_tm_hier *h, uint32_t id,
			     const struct rte_tm_shaper_params *params,
			     const struct pacing_result *pacing,
			     struct rte_tm_error *error);

/**
 * Delete profile @p id; refused while a node uses it.
 *
 * @return
 *   0, or -EINVAL (no such profile) / -EBUSY (in use) with @p error.
 */
int mlx5_tm_hier_profile_delete(struct mlx5_tm_hier *h, uint32_t id,
				struct rte_tm_error *error);

/** Node @p id, or NULL. */
struct mlx5_tm_node *mlx5_tm_hier_node_find(const struct mlx5_tm_hier *h,
					    uint32_t id);

/**
 * Check a node_add request against every rule; nothing changes.
 *
 * @return
 *   0, or a negative errno with @p error naming the parameter at fault.
 */
int mlx5_tm_hier_node_check(struct mlx5_tm_hier *h, uint32_t node_id,
			    uint32_t parent_id, uint32_t priority,
			    uint32_t weight, uint32_t level_id,
			    const struct rte_tm_node_params *params,
			    struct rte_tm_error *error);

/**
 * Add a node (after mlx5_tm_hier_node_check() passed).
 *
 * @return
 *   The node, or NULL with @p error (-ENOMEM, or a rule broken).
 */
struct mlx5_tm_node *mlx5_tm_hier_node_add(struct mlx5_tm_hier *h,
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
struct mlx5_tm_node *mlx5_tm_hier_node_check_delete(struct mlx5_tm_hier *h,
						    uint32_t id,
						    struct rte_tm_error *error);

/** Delete @p node, which has no child. */
void mlx5_tm_hier_node_delete(struct mlx5_tm_hier *h,
			      struct mlx5_tm_node *node);

/** Give @p node the private shaper @p profile (NULL for none). */
void mlx5_tm_hier_node_set_profile(struct mlx5_tm_node *node,
				   struct mlx5_tm_profile *profile);

/**
 * Check a node_parent_update request; nothing changes. Only a move between
 * two non-leaf parents of the same level is possible.
 *
 * @return
 *   The new parent, or NULL with @p error.
 */
struct mlx5_tm_node *mlx5_tm_hier_parent_check(struct mlx5_tm_hier *h,
					       uint32_t node_id,
					       uint32_t parent_id,
					       uint32_t priority,
					       uint32_t weight,
					       struct rte_tm_error *error);

/** Move @p node under @p parent (checked by mlx5_tm_hier_parent_check()). */
void mlx5_tm_hier_node_move(struct mlx5_tm_node *node,
			    struct mlx5_tm_node *parent);

/** Delete every node (profiles stay). */
void mlx5_tm_hier_clear_nodes(struct mlx5_tm_hier *h);

/**
 * Check the whole hierarchy (what hierarchy_commit relies on): one root,
 * every node reachable from it at the right level, leaves on one level
 * below every non-leaf node, counts and profile references consistent.
 *
 * @return
 *   0, or -EINVAL with @p error naming the first node at fault.
 */
int mlx5_tm_hier_validate(struct mlx5_tm_hier *h, struct rte_tm_error *error);

/** Leaf of Tx queue @p qid, or NULL. */
static inline struct mlx5_tm_node *
mlx5_tm_hier_leaf(const struct mlx5_tm_hier *h, uint32_t qid)
{
	return qid < h->nb_txq ? h->leaves[qid] : NULL;
}

/** True when @p node or one of its ancestors is suspended. */
bool mlx5_tm_hier_node_suspended(const struct mlx5_tm_node *node);

/** True when @p node is @p ancestor or lies below it. */
bool mlx5_tm_hier_node_under(const struct mlx5_tm_node *node,
			     const struct mlx5_tm_node *ancestor);

/** Most non-leaf nodes level @p level may hold. */
uint32_t mlx5_tm_hier_nonleaf_max(uint32_t level);

/** Most children a non-leaf node on @p level may have. */
uint32_t mlx5_tm_hier_children_max(const struct mlx5_tm_hier *h,
				   uint32_t level);

/** Most nodes a hierarchy may have. */
uint32_t mlx5_tm_hier_nodes_max(const struct mlx5_tm_hier *h);

#endif /* MLX5_TM_TM_HIER_H */
