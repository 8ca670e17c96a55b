/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_TM_H
#define PACE_TM_H

/**
 * @file
 * The rte_tm hierarchy of dpdk-tm-pace, built through the public rte_tm
 * API only: root node, optional pass-through middle node, one leaf per Tx
 * queue with a private shaper from a shaper profile.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_tm.h>

#include "pace_plan.h"

#define PACE_TM_MAX_ERRORS 16

/** One refusal of an rte_tm call, kept for the report. */
struct pace_tm_failure {
	char call[96];        /**< Call and its main argument. */
	int errnum;           /**< Positive errno. */
	enum rte_tm_error_type type;
	char message[160];    /**< rte_tm_error.message, "" if none. */
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
	struct pace_tm_profile profiles[PACE_MAX_QUEUES + PACE_MAX_CHANGES];
	unsigned int nb_profiles;
	uint32_t next_profile_id;
	uint32_t leaf_profile[PACE_MAX_QUEUES]; /**< Per queue, or NONE. */
	struct pace_tm_failure failures[PACE_TM_MAX_ERRORS];
	unsigned int nb_failures;
};

/** Name of an rte_tm error type ("RTE_TM_ERROR_TYPE_..."). */
const char *pace_tm_error_type_name(enum rte_tm_error_type type);

/**
 * Build and commit the hierarchy of @p opt on a configured, stopped port
 * with @p nb_txq Tx queues. Every refusal is printed (call, errno, error
 * type, driver message) and recorded in @p tm->failures.
 *
 * @return 0, or a negative errno of the first refusal.
 */
int pace_tm_build(struct pace_tm *tm, uint16_t port_id, uint16_t nb_txq,
		  const struct pace_options *opt);

/**
 * Give leaf @p queue the shaper @p sh on the running port: a profile
 * (reused under --share), rte_tm_node_shaper_update(), then deletion of
 * the old profile if nothing uses it any more.
 *
 * @return 0 or a negative errno (refusal printed and recorded).
 */
int pace_tm_update(struct pace_tm *tm, uint16_t queue,
		   const struct pace_shaper *sh, bool share);

/** Profile id of @p queue's shaper, RTE_TM_SHAPER_PROFILE_ID_NONE if none. */
uint32_t pace_tm_queue_profile(const struct pace_tm *tm, uint16_t queue);

/** Delete nodes and profiles the tool added (best effort, port stopped). */
void pace_tm_teardown(struct pace_tm *tm, uint16_t nb_txq,
		      const struct pace_options *opt);

#endif /* PACE_TM_H */
