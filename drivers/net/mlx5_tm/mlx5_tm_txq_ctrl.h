/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_TXQ_CTRL_H
#define MLX5_TM_TXQ_CTRL_H

/**
 * @file
 * Tx queue life cycle for the ethdev layer: setup and release (memory),
 * start and stop (device objects), error recovery steps.
 */

#include <stdint.h>

#include <ethdev_driver.h>

struct mlx5_tm_txq;

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

#endif /* MLX5_TM_TXQ_CTRL_H */
