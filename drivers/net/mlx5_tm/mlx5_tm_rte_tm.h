/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_RTE_TM_H
#define MLX5_TM_RTE_TM_H

/**
 * @file
 * The rte_tm operations of a port (mlx5_tm_rte_tm.c), over its
 * scheduling state (mlx5_tm_sched_priv.h). Control path only.
 */

struct rte_eth_dev;

/** ethdev tm_ops_get: the rte_tm ops, once the scheduling state exists. */
int mlx5_tm_rte_tm_ops_get(struct rte_eth_dev *dev, void *ops);

#endif /* MLX5_TM_RTE_TM_H */
