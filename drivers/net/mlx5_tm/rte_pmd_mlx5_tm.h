/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef RTE_PMD_MLX5_TM_H
#define RTE_PMD_MLX5_TM_H

/**
 * @file
 * Functions of the net_mlx5_tm PMD beyond ethdev, for programs that look at
 * or steer the device behind a port (tests, demos, benchmarks).
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mlx5_emu;

/**
 * The device model behind port @p port_id.
 *
 * On a device model in virtual time (devarg clock=virtual), device time
 * moves only when the application moves it (mlx5_emu_advance() and the
 * like on the model returned here): taking the model says the application
 * does, and a port whose model was never taken refuses to start in
 * virtual time (its packets would never leave).
 *
 * @return
 *   The model (see mlx5_emu.h), or NULL with rte_errno set: ENODEV when the
 *   port is not a net_mlx5_tm port, ENOTSUP when it runs on hardware or
 *   in a secondary process (the model lives in the primary).
 */
struct mlx5_emu *rte_pmd_mlx5_tm_emu(uint16_t port_id);

/**
 * The send queue number (SQN) of Tx queue @p qid of port @p port_id.
 *
 * @return
 *   0, or a negative errno (also in rte_errno): -ENODEV not a net_mlx5_tm
 *   port, -EINVAL no such queue or @p sqn NULL, -EAGAIN the queue has no SQ
 *   (port not started).
 */
int rte_pmd_mlx5_tm_txq_sqn(uint16_t port_id, uint16_t qid, uint32_t *sqn);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_MLX5_TM_H */
