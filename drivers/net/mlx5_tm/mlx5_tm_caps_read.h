/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_CAPS_READ_H
#define MLX5_TM_CAPS_READ_H

/**
 * @file
 * Reading struct mlx5_tm_caps from the device (QUERY_HCA_CAP).
 */

#include <stdint.h>

struct mlx5_tm_priv;

/**
 * Fill priv->caps with QUERY_HCA_CAP (general, Ethernet offloads, QoS).
 *
 * @param default_line_rate
 *   Port speed in Mbps, which no capability reports.
 * @return
 *   0 or a negative errno.
 */
int mlx5_tm_caps_read(struct mlx5_tm_priv *priv, uint32_t default_line_rate);

#endif /* MLX5_TM_CAPS_READ_H */
