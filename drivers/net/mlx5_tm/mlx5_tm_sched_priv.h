/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_SCHED_PRIV_H
#define MLX5_TM_SCHED_PRIV_H

/**
 * @file
 * Scheduling state of one port, shared by the files of the scheduling
 * layer (rte_tm ops, queue rate limit, telemetry, tests' introspection).
 *
 * Who sets a queue's rate:
 * - no hierarchy committed: rte_eth_set_queue_rate_limit();
 * - a hierarchy committed: its plan (lib/tm); queues without a shaped
 *   leaf are unlimited, queue rate limits are refused (-EBUSY).
 * What the device holds is one plan, s->applied; every change builds the
 * next plan and goes through mlx5_tm_sched_apply(), all-or-nothing.
 */

#include <stdbool.h>
#include <stdint.h>

#include <pthread.h>

#include "mlx5_tm_pacing.h"
#include "mlx5_tm_log_limit.h"
#include "tm_plan.h"

struct rte_eth_dev;
struct mlx5_tm_sq_sched;

/** Scheduling state of a port. */
struct mlx5_tm_sched {
	struct rte_eth_dev *dev;
	/** Ops vs telemetry thread; guards applied, which the queue
	 * layer reads (mlx5_tm_sched_queue()). */
	pthread_mutex_t lock;
	struct mlx5_tm_pacing *pacing;
	struct tm_tree hier;
	bool committed;               /**< A hierarchy is in force. */
	struct tm_plan applied;       /**< What the device holds. */
	uint16_t fail_qid;            /**< Queue of the last apply failure. */
	char msg[TM_TREE_MSG_SIZE];   /**< Message of the last failure. */
	struct mlx5_tm_log_limit log; /**< Repeated refusals (lock held). */
};

/** The scheduling state of @p dev (NULL before init). */
struct mlx5_tm_sched *mlx5_tm_sched_get(const struct rte_eth_dev *dev);

/**
 * Take the device from s->applied to @p plan (consumed): elements
 * created top-down, pacing entries taken, queues moved (MODIFY_SQ), old
 * elements destroyed bottom-up and old entries released. All or nothing:
 * on failure every step taken is undone in reverse, s->msg says why and
 * s->fail_qid which queue (UINT16_MAX: none).
 *
 * @return
 *   0; -ENOSPC (not enough pacing entries), -ENOMEM, or the errno of the
 *   device.
 */
int mlx5_tm_sched_apply(struct mlx5_tm_sched *s, struct tm_plan *plan);

/**
 * What the applied plan sets for Tx queue @p qid, the only place these
 * facts are kept: pacing index and queue group as MODIFY_SQ sets both
 * (unlimited and none for a queue without state), and, when
 * @p suspended is not NULL, its suspension. Caller holds the sched lock.
 */
void mlx5_tm_sched_queue(struct rte_eth_dev *dev, uint16_t qid,
			 struct mlx5_tm_sq_sched *sq, bool *suspended);

/**
 * Apply the plan of the hierarchy as it is (every queue unlimited when
 * none is committed); on failure @p error says what, naming @p what.
 *
 * @return
 *   0 or a negative errno.
 */
int mlx5_tm_sched_sync(struct mlx5_tm_sched *s, const char *what,
		       struct rte_tm_error *error);

/** Register the telemetry command (once per process). */
void mlx5_tm_telemetry_register(void);

/**
 * The scheduling state of port @p port_id when it is a net_mlx5_tm port
 * (telemetry look-up; hold no pointer beyond the call under its lock).
 */
struct mlx5_tm_sched *mlx5_tm_sched_by_port(uint16_t port_id);

/** Lock protecting the port registry behind mlx5_tm_sched_by_port(). */
void mlx5_tm_sched_registry_lock(void);

/** Unlock the port registry. */
void mlx5_tm_sched_registry_unlock(void);

#endif /* MLX5_TM_SCHED_PRIV_H */
