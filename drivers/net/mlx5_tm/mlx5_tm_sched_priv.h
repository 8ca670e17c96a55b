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
 * Two kinds of work. A call a user waits on (rte_tm commit and node
 * changes, the queue rate limit, reconfiguration) builds the next plan in
 * s->next and goes through mlx5_tm_sched_apply(), all-or-nothing with
 * make-before-break: the device then holds s->applied. A live change of
 * one node or queue starts from s->next as a copy of s->applied and
 * re-plans what it touches (tm_plan_update()); the apply makes s->next
 * that copy again, taken or refused (tm_plan_mirror()). Everything else
 * converges (mlx5_tm_sched_converge(): error recovery, retries, a line
 * rate the device refused, close): what the device holds beyond the plan
 * is recorded (s->kept, s->line_rate_want) and moved towards the plan
 * best effort, with capped back-off, never re-creating what teardown
 * destroyed. The buffers of both plans and of their difference are kept
 * until the port closes: no allocation per change.
 */

#include <stdbool.h>
#include <stdint.h>

#include <pthread.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_pacing.h"
#include "mlx5_tm_log_limit.h"
#include "tm_plan.h"

struct rte_eth_dev;
struct mlx5_tm_devx_obj;

/** An element no plan has any more, that the device still needs. */
struct mlx5_tm_sched_kept {
	struct mlx5_tm_devx_obj *hw;
	uint32_t hw_id;
	uint32_t parent_hw_id;        /**< 0: the device's root. */
	uint32_t wait;                /**< Periods after a refusal (back-off). */
	uint64_t due;                 /**< Period of the next try. */
};

/** Longest back-off of a convergence retry, in reconciler periods. */
#define MLX5_TM_SCHED_BACKOFF_MAX 512u

/** What a Tx queue's SQ context holds, as the scheduler wrote it. */
struct mlx5_tm_sched_sq {
	uint16_t pp_index; /**< Pacing index; 0: unlimited, or no SQ. */
	uint16_t group;    /**< Queue group element id; 0: none, or no SQ. */
};

/** Scheduling state of a port. */
struct mlx5_tm_sched {
	struct rte_eth_dev *dev;
	/** Ops, alarm and port start/stop vs telemetry thread. */
	pthread_mutex_t lock;
	struct mlx5_tm_pacing *pacing;
	struct tm_tree hier;
	bool committed;               /**< A hierarchy is in force. */
	struct tm_plan applied;       /**< What the device holds. */
	struct tm_plan next;          /**< Buffers of the next plan. */
	struct tm_diff diff;          /**< Buffers of the difference. */
	uint16_t fail_qid;            /**< Queue of the last apply failure. */
	char msg[TM_TREE_MSG_SIZE];   /**< Message of the last failure. */
	struct mlx5_tm_log_limit log; /**< Repeated refusals (lock held). */
	/** Reconciler periods so far: the clock of its back-off. */
	uint64_t period;
	/**
	 * A line rate the device refused to re-sync the hierarchy to: the
	 * tree keeps the applied one until it converges.
	 */
	uint32_t line_rate_want;
	bool line_rate_pending;       /**< line_rate_want is to be tried. */
	uint32_t line_rate_wait;      /**< Its back-off, in periods. */
	uint64_t line_rate_due;       /**< Period of its next try. */
	/**
	 * Elements out of the plan that an SQ in error recovery or a kept
	 * child still uses, children before parents; under the port lock.
	 */
	struct mlx5_tm_sched_kept *kept;
	uint32_t n_kept;
	uint32_t kept_cap;
	/**
	 * What each queue's SQ holds (mlx5_tm_sched_txq.c, which alone
	 * writes an SQ's pacing index and group): in error recovery an SQ
	 * keeps its old values until it is re-armed.
	 */
	struct mlx5_tm_sched_sq sqs[MLX5_TM_MAX_TXQ];
	/**
	 * Per queue group id: the SQs whose context holds it (firmware
	 * refuses to destroy such a group), counted from sqs[]; room made
	 * as groups are created (mlx5_tm_sched_group_track()).
	 */
	uint16_t *group_sqs;
	uint32_t group_sqs_cap;
	/**
	 * Firmware refused an SQ with both a queue group and a pacing
	 * index: from then on an SQ in a group joins it without its index,
	 * its group's ceiling (the leaf's backstop) alone holding it.
	 */
	bool pp_group_refused;
};

/** The scheduling state of @p dev (NULL before init). */
struct mlx5_tm_sched *mlx5_tm_sched_get(const struct rte_eth_dev *dev);

/**
 * Take the device from s->applied to s->next (whose buffers then hold
 * the previous plan): elements
 * created top-down, pacing entries taken, queues moved (MODIFY_SQ), old
 * elements destroyed bottom-up and old entries released. All or nothing:
 * on failure every step taken is undone in reverse, s->msg says why and
 * s->fail_qid which queue (UINT16_MAX: none).
 *
 * @return
 *   0; -ENOSPC (not enough pacing entries), -ENOMEM, or the errno of the
 *   device.
 */
int mlx5_tm_sched_apply(struct mlx5_tm_sched *s);

/**
 * Say in s->msg (and s->fail_qid) why step @p op of the apply from
 * s->applied to s->next failed with @p ret, as mlx5_tm_sched_apply()
 * does; for the steps no device refusal reaches yet (tests).
 */
void mlx5_tm_sched_explain(struct mlx5_tm_sched *s, const struct tm_op *op,
			   int ret);

/**
 * Make room for @p n more kept elements, so that releasing an element
 * cannot fail for memory (before the device steps of an apply).
 *
 * @return
 *   0 or -ENOMEM.
 */
int mlx5_tm_sched_kept_reserve(struct mlx5_tm_sched *s, uint32_t n);

/**
 * Destroy element @p hw_id (device object @p hw, under @p parent_hw_id),
 * or keep it while an SQ in error recovery or a kept child is in it
 * (firmware refuses to destroy it then); mlx5_tm_sched_reap() destroys
 * it later. Room must be reserved first.
 *
 * @return
 *   0 (destroyed or kept) or the negative errno of the destroy.
 */
int mlx5_tm_sched_elem_release(struct mlx5_tm_sched *s,
			       struct mlx5_tm_devx_obj *hw, uint32_t hw_id,
			       uint32_t parent_hw_id);

/**
 * Take back element @p hw_id if mlx5_tm_sched_elem_release() kept it
 * (undoing the release).
 *
 * @return
 *   Its device object, or NULL when it was destroyed.
 */
struct mlx5_tm_devx_obj *mlx5_tm_sched_elem_unkeep(struct mlx5_tm_sched *s,
						   uint32_t hw_id);

/**
 * The executor's step on a queue (a move, a suspension, or either
 * undone): give Tx queue @p q what plan @p p sets, through
 * mlx5_tm_txq_set_sched(), the one call of the executor into the queue
 * layer; record what its SQ now holds.
 *
 * @return
 *   0 (done, or left to the SQ's start or re-arm) or the negative errno
 *   of the device's refusal.
 */
int mlx5_tm_sched_queue_set(struct mlx5_tm_sched *s, const struct tm_plan *p,
			    uint16_t q);

/**
 * Take Tx queue @p q out of its queue group, with what plan @p p sets
 * otherwise (its pacing): to make room for new groups where the device
 * has too few to hold the old and the new at once.
 *
 * @return
 *   As mlx5_tm_sched_queue_set().
 */
int mlx5_tm_sched_queue_evict(struct mlx5_tm_sched *s, const struct tm_plan *p,
			      uint16_t q);

/**
 * Make room to count the SQs of queue group @p hw_id (before any joins).
 *
 * @return
 *   0, -ERANGE (beyond 16 bits) or -ENOMEM.
 */
int mlx5_tm_sched_group_track(struct mlx5_tm_sched *s, uint32_t hw_id);

/**
 * Apply the plan of the hierarchy as it is (every queue unlimited when
 * none is committed); on failure @p error says what, naming @p what.
 *
 * @return
 *   0 or a negative errno.
 */
int mlx5_tm_sched_sync(struct mlx5_tm_sched *s, const char *what,
		       struct rte_tm_error *error);

/**
 * mlx5_tm_sched_sync() after live change @p change of a node (named
 * @p what): only what it touches re-planned and compared
 * (tm_plan_update()), the whole plan when the change reaches further.
 *
 * @return
 *   0 or a negative errno.
 */
int mlx5_tm_sched_sync_change(struct mlx5_tm_sched *s,
			      const struct tm_plan_change *change,
			      const char *what, struct rte_tm_error *error);

/**
 * Lock the port registry (another thread's look-up), then give the
 * scheduling state of port @p port_id if it is a net_mlx5_tm port; use it
 * only until mlx5_tm_sched_registry_unlock(), NULL or not.
 */
struct mlx5_tm_sched *mlx5_tm_sched_by_port_lock(uint16_t port_id);

/** Unlock the port registry. */
void mlx5_tm_sched_registry_unlock(void);

#endif /* MLX5_TM_SCHED_PRIV_H */
