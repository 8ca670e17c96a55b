/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_SCHED_H
#define MLX5_TM_SCHED_H

/**
 * @file
 * What the scheduling layer (rte_tm, queue rate limit, pacing entries)
 * offers the ethdev layer. Control path only.
 */

#include <stdbool.h>
#include <stdint.h>

struct rte_eth_dev;

/** Create the port's scheduling state (after capabilities are read). */
int mlx5_tm_sched_init(struct rte_eth_dev *dev);

/**
 * Take the port's scheduling lock (before priv->lock), which keeps the
 * applied plan and what each SQ holds: around port start and stop and
 * error recovery. Primary process only; nothing before the state exists.
 */
void mlx5_tm_sched_lock(struct rte_eth_dev *dev);

/** Release the lock mlx5_tm_sched_lock() took. */
void mlx5_tm_sched_unlock(struct rte_eth_dev *dev);

/**
 * Port close, which converges: destroy every scheduling element and
 * release every pacing entry the device lets go, best effort (a refused
 * DESTROY re-creates nothing), then free the scheduling state.
 *
 * @return
 *   0, or the negative errno of the first refusal: the device keeps what
 *   it refused (logged).
 */
int mlx5_tm_sched_uninit(struct rte_eth_dev *dev);

/**
 * Start Tx queue @p qid (mlx5_tm_txq_start()) with the pacing index,
 * queue group and suspension the applied plan sets for it. Call with the
 * sched lock and the port lock held.
 *
 * @return
 *   0 or a negative errno.
 */
int mlx5_tm_sched_txq_start(struct rte_eth_dev *dev, uint16_t qid);

/**
 * Stop Tx queue @p qid (mlx5_tm_txq_stop()): its SQ, and whatever it held,
 * is gone. Same locks.
 */
void mlx5_tm_sched_txq_stop(struct rte_eth_dev *dev, uint16_t qid);

/**
 * Take the control-path step of every queue's error recovery; an SQ
 * re-armed gets the applied plan's values; then the elements kept for
 * SQs that have left them are destroyed. Same locks.
 */
void mlx5_tm_sched_recover(struct rte_eth_dev *dev);

/**
 * Destroy the scheduling elements kept out of the plan (see
 * mlx5_tm_sched_elem_release()) that no SQ and no kept child uses any
 * more: after error recovery made SQs ready in their new groups, and
 * after the port's SQs are destroyed. One the device refused is tried
 * again after a back-off that doubles up to MLX5_TM_SCHED_BACKOFF_MAX
 * reconciler periods, its refusals logged once then counted. Call with
 * the port lock held.
 */
void mlx5_tm_sched_reap(struct rte_eth_dev *dev);

/**
 * One period of the reconciler, which moves the device towards the plan
 * where nobody waits: the control-path step of error recovery
 * (mlx5_tm_sched_recover()) while the port is started, the kept elements
 * reaped, a refused line rate tried again, each when its back-off is
 * due. Call with the sched lock held and the port lock not.
 *
 * @param try_lock
 *   Take the port lock with a try (a shared thread: the recovery alarm),
 *   and do nothing this period when it is held.
 */
void mlx5_tm_sched_converge(struct rte_eth_dev *dev, bool try_lock);

/**
 * Take the port's sched lock if it is free (the recovery alarm, which
 * must not wait on a lock held across firmware commands).
 *
 * @return
 *   True when taken (release with mlx5_tm_sched_unlock()).
 */
bool mlx5_tm_sched_trylock(struct rte_eth_dev *dev);

/**
 * The port's line rate is now @p mbps: the largest ceiling and the rate
 * of unshaped parents; a committed hierarchy is applied again with it.
 * That re-sync converges: refused, the tree and the device keep the line
 * rate they had (a later rte_tm call is unaffected) and the reconciler
 * tries again with back-off. Takes the sched lock.
 */
void mlx5_tm_sched_line_rate(struct rte_eth_dev *dev, uint32_t mbps);

/** ethdev set_queue_rate_limit (Mbps, 0 = unlimited). */
int mlx5_tm_sched_set_queue_rate_limit(struct rte_eth_dev *dev,
				       uint16_t qid, uint32_t mbps);

/**
 * The port is being reconfigured to @p nb_txq Tx queues: drop the state
 * of queues that no longer exist (their entries released, their elements
 * destroyed; a hierarchy that no longer fits is deleted).
 *
 * @return
 *   0, or a negative errno (-ENOMEM, or the device's refusal, logged):
 *   the device keeps what it held; the next call, with any count, tries
 *   again (ethdev leaves a port whose dev_configure failed without
 *   queues, to be configured again).
 */
int mlx5_tm_sched_txq_count_changed(struct rte_eth_dev *dev,
				    uint16_t nb_txq);

#endif /* MLX5_TM_SCHED_H */
