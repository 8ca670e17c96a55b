/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_TELEMETRY_H
#define MLX5_TM_TELEMETRY_H

/**
 * @file
 * The PMD's telemetry command (mlx5_tm_telemetry.c):
 * /ethdev/mlx5_tm/pacing,<port_id>[,<first_queue>].
 */

/** Register the telemetry command (once per process). */
void mlx5_tm_telemetry_register(void);

#endif /* MLX5_TM_TELEMETRY_H */
