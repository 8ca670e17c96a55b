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
 * - no hierarchy committed: rte_eth_set_queue_rate_limit() (source QUEUE);
 * - a hierarchy committed: its leaves only (source TM); queues without a
 *   shaped leaf are unlimited, queue rate limits are refused (-EBUSY).
 * Every rate change goes through mlx5_tm_sched_apply(): all-or-nothing,
 * new entries before MODIFY_SQ, old entries released last.
 */

#include <stdbool.h>
#include <stdint.h>

#include <pthread.h>

#include "mlx5_tm_pacing.h"
#include "mlx5_tm_log_limit.h"
#include "tm_plan.h"

struct rte_eth_dev;

/** What set the rate of a queue. */
enum mlx5_tm_rate_source {
	MLX5_TM_RATE_NONE = 0, /**< Unlimited, nobody asked. */
	MLX5_TM_RATE_QUEUE,    /**< rte_eth_set_queue_rate_limit(). */
	MLX5_TM_RATE_TM,       /**< Committed rte_tm hierarchy. */
};

/** Rate state of one Tx queue, as applied to the device. */
struct mlx5_tm_sched_txq {
	uint64_t entry_id;         /**< Pacing entry held, 0 = unlimited. */
	struct pacing_ctx ctx;     /**< Context requested (entry_id != 0). */
	uint64_t requested;        /**< Rate asked, bytes/s or packets/s. */
	uint8_t source;            /**< enum mlx5_tm_rate_source. */
	uint32_t profile_id;       /**< Shaper profile (source TM). */
	uint32_t limit_mbps;       /**< Queue rate limit (source QUEUE). */
	bool suspended;            /**< Suspend applied to the queue. */
};

/** What one queue should become in mlx5_tm_sched_apply(). */
struct mlx5_tm_sched_target {
	bool change;           /**< False: leave the queue alone. */
	bool shaped;           /**< False: unlimited. */
	struct pacing_ctx ctx; /**< Context when shaped. */
	uint64_t requested;    /**< Rate asked, caller's units. */
	uint8_t source;        /**< enum mlx5_tm_rate_source. */
	uint32_t profile_id;   /**< For source TM. */
	uint32_t limit_mbps;   /**< For source QUEUE. */
};

/** Scheduling state of a port. */
struct mlx5_tm_sched {
	struct rte_eth_dev *dev;
	pthread_mutex_t lock;         /**< Ops vs telemetry thread. */
	struct mlx5_tm_pacing *pacing;
	struct tm_tree hier;
	bool committed;               /**< A hierarchy is in force. */
	uint16_t nb_txq;              /**< Tx queues configured. */
	struct mlx5_tm_sched_txq *txq;/**< MLX5_TM_MAX_TXQ entries. */
	uint16_t fail_qid;            /**< Queue of the last apply failure. */
	char msg[TM_TREE_MSG_SIZE]; /**< Message of the last failure. */
	struct mlx5_tm_log_limit log; /**< Repeated refusals (lock held). */
};

/** The scheduling state of @p dev (NULL before init). */
struct mlx5_tm_sched *mlx5_tm_sched_get(const struct rte_eth_dev *dev);

/**
 * Change the rates of the queues whose @p targets entry has change set
 * (@p targets has s->nb_txq entries). All or nothing: on failure every
 * queue keeps its previous rate and entry, s->msg says why and s->fail_qid
 * which queue.
 *
 * @return
 *   0; -ENOSPC (not enough pacing entries), or the errno of the device
 *   (pp_alloc or MODIFY_SQ).
 */
int mlx5_tm_sched_apply(struct mlx5_tm_sched *s,
			const struct mlx5_tm_sched_target *targets);

/**
 * mlx5_tm_sched_apply() for queue @p qid alone, @p target its target: the
 * cost does not depend on the number of queues.
 *
 * @return
 *   As mlx5_tm_sched_apply(); -EINVAL if the queue does not exist.
 */
int mlx5_tm_sched_apply_one(struct mlx5_tm_sched *s, uint16_t qid,
			    const struct mlx5_tm_sched_target *target);

/** Bring the queues' suspend state in line with the hierarchy. */
void mlx5_tm_sched_sync_suspend(struct mlx5_tm_sched *s);

/** Target of queue @p qid according to the hierarchy (leaf shaper). */
void mlx5_tm_sched_target_of_leaf(const struct mlx5_tm_sched *s, uint16_t qid,
				  struct mlx5_tm_sched_target *t);

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
