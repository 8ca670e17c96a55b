/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_LOG_LIMIT_H
#define MLX5_TM_LOG_LIMIT_H

/**
 * @file
 * Repeated refusals logged once: a program that retries a refused call in
 * a loop must not flood the log. The first message of a kind is logged;
 * its repeats are counted, and the count is logged at 10, 100, 1000, ...
 * repeats, when the call of that kind succeeds again, and when the port
 * is closed. Counting is deterministic (no clock). Control path; the
 * caller serialises calls on one limiter.
 */

#include <stdbool.h>
#include <stdint.h>

/** What was refused: one limiter slot per kind. */
enum mlx5_tm_log_kind {
	MLX5_TM_LOGK_RATE_NO_QUEUE,  /**< Queue rate limit, no such queue. */
	MLX5_TM_LOGK_RATE_BUSY,      /**< Queue rate limit, hierarchy on. */
	MLX5_TM_LOGK_RATE_BAD,       /**< Queue rate limit, rate refused. */
	MLX5_TM_LOGK_RATE_DEVICE,    /**< Queue rate limit, device failed. */
	MLX5_TM_LOGK_KEPT_DESTROY,   /**< Kept element, destroy refused. */
	MLX5_TM_LOGK_LINE_RATE,      /**< Line-rate re-sync refused. */
	MLX5_TM_LOGK_COUNT,
};

/** Repeats of each kind on one port. */
struct mlx5_tm_log_limit {
	uint16_t port_id;
	uint64_t repeats[MLX5_TM_LOGK_COUNT]; /**< Since the last logged one. */
	uint64_t next_report[MLX5_TM_LOGK_COUNT]; /**< Count to log at. */
};

/**
 * A message of @p kind is due: whether to log it (the first one since the
 * kind was last cleared). A repeat is counted instead, and the count is
 * logged when it reaches the next power of 10.
 */
bool mlx5_tm_log_limit_take(struct mlx5_tm_log_limit *l,
			    enum mlx5_tm_log_kind kind);

/** The call of @p kind succeeded: log the repeats left, start over. */
void mlx5_tm_log_limit_clear(struct mlx5_tm_log_limit *l,
			     enum mlx5_tm_log_kind kind);

/** Every kind cleared (port closed). */
void mlx5_tm_log_limit_clear_all(struct mlx5_tm_log_limit *l);

#endif /* MLX5_TM_LOG_LIMIT_H */
