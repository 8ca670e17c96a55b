/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_TM_H
#define PACE_TM_H

/**
 * @file
 * The rte_tm hierarchy of dpdk-tm-pace, built through the public rte_tm
 * API only: root node, the plan's groups (non-leaf nodes with a shaper
 * and a weight), pass-through nodes where a level needs one, and one leaf
 * per Tx queue with a private shaper from a shaper profile.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_tm.h>

#include "pace_plan.h"

#define PACE_TM_MAX_ERRORS 16
/* Root, middle node, groups, pass-through chains, leaves. */
#define PACE_TM_MAX_NODES (2 + PACE_MAX_GROUPS * (PACE_MAX_GROUPS + 2) + \
			   PACE_MAX_QUEUES * 2)

/** What a node of the hierarchy is. */
enum pace_tm_kind {
	PACE_TM_ROOT,
	PACE_TM_PASS,   /**< Pass-through: no shaper, weight 1. */
	PACE_TM_GROUP,  /**< A group of the plan. */
	PACE_TM_LEAF,   /**< A planned Tx queue. */
	PACE_TM_FILLER, /**< A Tx queue outside the plan (never sends). */
};

/** One rte_tm node as the tool set it up, with its values now. */
struct pace_tm_node {
	uint32_t id;
	enum pace_tm_kind kind;
	int parent;           /**< Index in pace_tm.nodes, -1 for the root. */
	uint32_t level;
	int group;            /**< PACE_TM_GROUP: the group's index. */
	uint32_t weight;
	struct pace_shaper shaper; /**< rate 0: none. */
	uint32_t profile;     /**< RTE_TM_SHAPER_PROFILE_ID_NONE if none. */
};

/** One refusal of an rte_tm call, kept for the report. */
struct pace_tm_failure {
	char call[96];        /**< Call and its main argument. */
	int errnum;           /**< Positive errno. */
	enum rte_tm_error_type type;
	char message[512];    /**< rte_tm_error.message, "" if none. */
};

/** A shaper profile the tool added. */
struct pace_tm_profile {
	uint32_t id;
	struct pace_shaper shaper;
	unsigned int users;   /**< Leaves using it. */
};

/** State of the hierarchy on one port. */
struct pace_tm {
	uint16_t port_id;
	bool caps_ok;         /**< rte_tm_capabilities_get() answered. */
	struct rte_tm_capabilities caps;
	bool committed;
	struct pace_tm_profile profiles[PACE_MAX_QUEUES + PACE_MAX_GROUPS +
					PACE_MAX_CHANGES];
	unsigned int nb_profiles;
	uint32_t next_profile_id;
	struct pace_tm_node nodes[PACE_TM_MAX_NODES]; /**< Parents first. */
	unsigned int nb_nodes;
	int leaf_node[PACE_MAX_QUEUES]; /**< Node of each queue id, or -1. */
	int group_node[PACE_MAX_GROUPS];  /**< Node of each group. */
	/** Where the leaves of each group hang (the group or the bottom
	 *  of its pass-through chain); the last slot is the root's. */
	int leaf_parent[PACE_MAX_GROUPS + 1];
	struct pace_tm_failure failures[PACE_TM_MAX_ERRORS];
	unsigned int nb_failures;
	unsigned int nb_refusals;        /**< All of them, kept or not. */
	struct pace_tm_failure last_refusal;
};

/** Name of an rte_tm error type ("RTE_TM_ERROR_TYPE_..."). */
const char *pace_tm_error_type_name(enum rte_tm_error_type type);

/**
 * Lay out the hierarchy of @p opt for port @p port_id with @p nb_txq Tx
 * queues in @p tm: the nodes the tool will add, parents first, with
 * their weights and shapers (no rte_tm call: the expected rates follow
 * this tree whether or not the port takes it).
 */
void pace_tm_layout(struct pace_tm *tm, uint16_t port_id, uint16_t nb_txq,
		    const struct pace_options *opt);

/**
 * Add the shaper profiles and nodes laid out in @p tm (pace_tm_layout())
 * to its configured, stopped port and commit them. Every refusal is
 * printed (call, errno, error type, driver message) and recorded in
 * @p tm->failures.
 *
 * @return 0, or a negative errno of the first refusal.
 */
int pace_tm_build(struct pace_tm *tm, const struct pace_options *opt);

/**
 * Apply a change (--at) on the running port: a new shaper is a profile
 * (reused under --share), rte_tm_node_shaper_update(), then deletion of
 * the old profile if nothing uses it any more; a new weight or group is
 * rte_tm_node_parent_update().
 *
 * @param[out] call
 *   The rte_tm calls made, for the report.
 * @return 0 or a negative errno (refusal printed and recorded).
 */
int pace_tm_change(struct pace_tm *tm, const struct pace_change *ch,
		   bool share, char *call, size_t len);

/** The node of @p queue (a leaf), or NULL. */
const struct pace_tm_node *pace_tm_queue_node(const struct pace_tm *tm,
					      uint16_t queue);

/** Name of node @p n for people: "root", "group A", "queue 3", ... */
const char *pace_tm_node_name(const struct pace_tm *tm,
			      const struct pace_options *opt,
			      const struct pace_tm_node *n, char *buf,
			      size_t len);

/** Profile id of @p queue's shaper, RTE_TM_SHAPER_PROFILE_ID_NONE if none. */
uint32_t pace_tm_queue_profile(const struct pace_tm *tm, uint16_t queue);

/** Delete nodes and profiles the tool added (best effort, port stopped). */
void pace_tm_teardown(struct pace_tm *tm);

#endif /* PACE_TM_H */
