/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_TXQ_H
#define MLX5_TM_TXQ_H

/**
 * @file
 * Control of a Tx queue (mlx5_tm_txq.c): its life cycle for the ethdev
 * layer (setup and release: memory; start and stop: device objects; the
 * control-path steps of error recovery), and what the queue layer offers
 * the scheduling layer (rte_tm and the queue rate limit). Control path
 * only; the datapath never sees a rate. The queue itself and its burst
 * functions are in mlx5_tm_tx.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>

struct mlx5_tm_txq;
struct mlx5_tm_sq_sched;

/** ethdev tx_queue_setup. */
int mlx5_tm_txq_setup(struct rte_eth_dev *dev, uint16_t qid,
		      uint16_t nb_desc, unsigned int socket,
		      const struct rte_eth_txconf *conf);

/** ethdev tx_queue_release. */
void mlx5_tm_txq_release(struct rte_eth_dev *dev, uint16_t qid);

/** Create the CQ and SQ of a set-up queue and make the SQ ready. */
int mlx5_tm_txq_start(struct mlx5_tm_txq *txq);

/** Destroy the queue's device objects and free its posted mbufs. */
void mlx5_tm_txq_stop(struct mlx5_tm_txq *txq);

/** Take the control-path step of an error recovery, if one is due. */
void mlx5_tm_txq_recover(struct mlx5_tm_txq *txq);

/** Ring sizes a queue of @p nb_desc descriptors gets (for infos). */
uint16_t mlx5_tm_txq_ring_size(const struct rte_eth_dev *dev,
			       uint16_t nb_desc);

/**
 * Move Tx queue @p qid from pacing index and queue group @p from to
 * @p to (index 0 = unlimited, group 0 = none).
 *
 * A queue whose SQ is ready gets one MODIFY_SQ (RDY to RDY, bit 0 for the
 * index and bit 2 for the group, each only when it changes); a queue
 * without SQ, or in recovery, gets the values of the applied plan when
 * its SQ is created or made ready again (mlx5_tm_sched_queue()); so does
 * a queue whose SQ firmware has just put in error (it refuses the RDY to
 * RDY), whose SQ stays in its old group until then (the port counts
 * the SQs of each group, so that one still holding an SQ is not
 * destroyed). The caller holds the sched lock, owns the pacing entry and
 * the group, and releases the old ones only after this returns 0.
 *
 * @return
 *   0, or a negative errno (the queue keeps its previous values):
 *   -EINVAL bad queue id, -EIO/-EREMOTEIO the device refused MODIFY_SQ.
 */
int mlx5_tm_txq_set_sched(struct rte_eth_dev *dev, uint16_t qid,
			  const struct mlx5_tm_sq_sched *from,
			  const struct mlx5_tm_sq_sched *to);

/**
 * Suspend or resume sending from Tx queue @p qid.
 *
 * A suspended queue accepts no new packets in tx_burst (it returns 0, so
 * the application keeps its mbufs); what is already posted leaves at the
 * queue's rate. The datapath reads the flag once per burst.
 */
void mlx5_tm_txq_set_suspended(struct rte_eth_dev *dev, uint16_t qid,
			       bool suspended);

/**
 * Packets and bytes posted on Tx queue @p qid since it was set up
 * (ethdev stats_reset does not clear them).
 */
void mlx5_tm_txq_counters(struct rte_eth_dev *dev, uint16_t qid,
			  uint64_t *packets, uint64_t *bytes);

#endif /* MLX5_TM_TXQ_H */
