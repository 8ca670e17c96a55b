/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_STATS_H
#define MLX5_TM_STATS_H

/**
 * @file
 * Basic and extended statistics of a port. Counters are written by the
 * datapath only; a reset records a base that later reads subtract.
 */

#include <ethdev_driver.h>

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
