/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_STATS_H
#define MLX5_TM_STATS_H

/**
 * @file
 * Basic and extended statistics of a port. Counters are written by the
 * datapath only; a reset records a base that later reads subtract. Reads
 * and resets take the port's stats lock only (never a control lock, never
 * waiting for firmware), in the primary and in secondary processes.
 */

#include <ethdev_driver.h>

struct mlx5_tm_txq;

/**
 * Make @p txq Tx queue @p qid of @p dev (NULL: no queue) under the stats
 * lock: a queue being released is out of every statistics read before it
 * is freed.
 */
void mlx5_tm_stats_txq_publish(struct rte_eth_dev *dev, uint16_t qid,
			       struct mlx5_tm_txq *txq);

/** ethdev stats_get. */
int mlx5_tm_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st);

/** ethdev stats_reset. */
int mlx5_tm_stats_reset(struct rte_eth_dev *dev);

/** ethdev xstats_get. */
int mlx5_tm_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		       unsigned int n);

/** ethdev xstats_get_names. */
int mlx5_tm_xstats_get_names(struct rte_eth_dev *dev,
			     struct rte_eth_xstat_name *names,
			     unsigned int n);

/** ethdev xstats_reset. */
int mlx5_tm_xstats_reset(struct rte_eth_dev *dev);

#endif /* MLX5_TM_STATS_H */
