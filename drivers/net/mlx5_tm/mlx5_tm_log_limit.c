/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <inttypes.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_log_limit.h"

static const char *const kind_names[MLX5_TM_LOGK_COUNT] = {
	[MLX5_TM_LOGK_RATE_NO_QUEUE] =
		"queue rate limit refused: no such queue",
	[MLX5_TM_LOGK_RATE_BUSY] =
		"queue rate limit refused: hierarchy committed",
	[MLX5_TM_LOGK_RATE_BAD] = "queue rate limit refused: rate",
	[MLX5_TM_LOGK_RATE_DEVICE] =
		"queue rate limit refused: device or pacing table",
	[MLX5_TM_LOGK_KEPT_DESTROY] =
		"kept scheduling element: destroy refused by the device",
	[MLX5_TM_LOGK_LINE_RATE] =
		"line-rate re-sync refused by the device",
};

bool
mlx5_tm_log_limit_take(struct mlx5_tm_log_limit *l,
		       enum mlx5_tm_log_kind kind)
{
	if (l->next_report[kind] == 0) {
		/* First of its kind: the caller logs it in full. */
		l->next_report[kind] = 10;
		l->repeats[kind] = 0;
		return true;
	}
	l->repeats[kind]++;
	if (l->repeats[kind] == l->next_report[kind]) {
		MLX5_TM_PORT_LOG(ERR, l->port_id, "%s: %" PRIu64
				 " more times since the message logged (repeats are counted, not logged)",
				 kind_names[kind], l->repeats[kind]);
		l->next_report[kind] = l->next_report[kind] < UINT64_MAX / 10 ?
				       l->next_report[kind] * 10 : UINT64_MAX;
	}
	return false;
}

void
mlx5_tm_log_limit_clear(struct mlx5_tm_log_limit *l,
			enum mlx5_tm_log_kind kind)
{
	/* Repeats since the last count logged: say how many in all. */
	if (l->repeats[kind] != 0 &&
	    l->repeats[kind] * 10 != l->next_report[kind])
		MLX5_TM_PORT_LOG(ERR, l->port_id, "%s: %" PRIu64
				 " more times in all since the message logged",
				 kind_names[kind], l->repeats[kind]);
	l->repeats[kind] = 0;
	l->next_report[kind] = 0;
}

void
mlx5_tm_log_limit_clear_all(struct mlx5_tm_log_limit *l)
{
	unsigned int k;

	for (k = 0; k < MLX5_TM_LOGK_COUNT; k++)
		mlx5_tm_log_limit_clear(l, k);
}
