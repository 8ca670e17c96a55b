/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_TM_H
#define MLX5_TM_TM_H

/**
 * @file
 * The rte_tm operations of a net_mlx5_tm port (see doc/guides/rte_tm.rst
 * for what each one does on this device).
 */

#include <rte_tm_driver.h>

/** The traffic-manager operations returned by tm_ops_get. */
extern const struct rte_tm_ops mlx5_tm_tm_ops;

#endif /* MLX5_TM_TM_H */
