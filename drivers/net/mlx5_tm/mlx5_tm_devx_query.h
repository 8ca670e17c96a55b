/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_DEVX_QUERY_H
#define MLX5_TM_DEVX_QUERY_H

/**
 * @file
 * Read-back commands: what the device holds, in its own words (QUERY_SQ,
 * QUERY_VPORT_COUNTER), for the PMD's public query functions and the
 * queue layer's error recovery. Control path only.
 */

#include <stdint.h>

struct mlx5_tm_priv;
struct mlx5_tm_devx_obj;
struct rte_pmd_mlx5_tm_sq_info;
struct rte_pmd_mlx5_tm_vport_tx;

/** QUERY_SQ: the SQ context fields @p info names, from the device. */
int mlx5_tm_devx_sq_query(struct mlx5_tm_priv *priv,
			  struct mlx5_tm_devx_obj *sq, uint32_t sqn,
			  struct rte_pmd_mlx5_tm_sq_info *info);

/** QUERY_SQ: the SQ's state (MLX5_SQC_STATE_*) or a negative errno. */
int mlx5_tm_devx_sq_state(struct mlx5_tm_priv *priv,
			  struct mlx5_tm_devx_obj *sq, uint32_t sqn);

/** QUERY_VPORT_COUNTER of the port's own vport: its Tx counters. */
int mlx5_tm_devx_vport_tx(struct mlx5_tm_priv *priv,
			  struct rte_pmd_mlx5_tm_vport_tx *tx);

#endif /* MLX5_TM_DEVX_QUERY_H */
