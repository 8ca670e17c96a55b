/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_TXQ_H
#define MLX5_TM_TXQ_H

/**
 * @file
 * What the queue layer offers the scheduling layer (rte_tm and the queue
 * rate limit). Control path only; the datapath never sees a rate.
 */

#include <stdbool.h>
#include <stdint.h>

struct rte_eth_dev;
struct mlx5_tm_sq_sched;

/**
 * Move Tx queue @p qid from pacing index and queue group @p from to
 * @p to (index 0 = unlimited, group 0 = none).
 *
 * A queue whose SQ is ready gets one MODIFY_SQ (RDY to RDY, bit 0 for the
 * index and bit 2 for the group, each only when it changes); a queue
 * without SQ, or in recovery, gets the values of the applied plan when
 * its SQ is created or made ready again (mlx5_tm_sched_queue()). The
 * caller holds the sched lock, owns the pacing entry and the group, and
 * releases the old ones only after this returns 0.
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

/** Packets and bytes sent on Tx queue @p qid since the last clear. */
void mlx5_tm_txq_counters(struct rte_eth_dev *dev, uint16_t qid,
			  uint64_t *packets, uint64_t *bytes);

/** Clear the counters mlx5_tm_txq_counters() reports (not ethdev stats). */
void mlx5_tm_txq_counters_clear(struct rte_eth_dev *dev, uint16_t qid);

#endif /* MLX5_TM_TXQ_H */
