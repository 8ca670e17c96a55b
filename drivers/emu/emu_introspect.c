/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Introspection: capabilities, SQs, failed commands. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"

void
mlx5_emu_get_caps(struct mlx5_emu *emu, struct mlx5_emu_caps *caps)
{
	*caps = emu->caps;
}

static int
emu_sq_cmp_seq(const void *a, const void *b)
{
	const struct emu_sq *x = *(const struct emu_sq *const *)a;
	const struct emu_sq *y = *(const struct emu_sq *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

unsigned int
mlx5_emu_sq_list(struct mlx5_emu *emu, uint32_t *sqns, unsigned int max)
{
	struct emu_sq **all;
	unsigned int n = 0, i;

	emu_lock(emu);
	all = calloc(emu->sqs.count ? emu->sqs.count : 1, sizeof(*all));
	if (all == NULL) {
		emu_unlock(emu);
		return 0;
	}
	for (i = 0; i < emu->sqs.cap; i++)
		if (emu->sqs.slot[i] != NULL)
			all[n++] = emu->sqs.slot[i];
	qsort(all, n, sizeof(*all), emu_sq_cmp_seq);
	for (i = 0; i < n && i < max && sqns != NULL; i++)
		sqns[i] = all[i]->sqn;
	free(all);
	emu_unlock(emu);
	return n;
}

int
mlx5_emu_sq_get(struct mlx5_emu *emu, uint32_t sqn,
		struct mlx5_emu_sq_info *info)
{
	const struct emu_sq *sq;
	unsigned int i;

	emu_lock(emu);
	sq = emu_idtab_get(&emu->sqs, sqn);
	if (sq == NULL) {
		emu_unlock(emu);
		return -ENOENT;
	}
	memset(info, 0, sizeof(*info));
	info->sqn = sq->sqn;
	info->state = sq->state;
	info->pp_index = sq->pp_index;
	info->pp_stale = !emu_pp_index_valid(emu, sq->pp_index);
	info->cqn = sq->cq->cqn;
	info->tisn = sq->tis->tisn;
	info->log_wq_sz = sq->log_wq_sz;
	info->hw_ci = sq->ci;
	info->rung_pi = sq->rung_pi;
	info->packets = sq->st.packets;
	info->bytes = sq->st.bytes;
	info->wqes = sq->st.wqes;
	info->cqes = sq->st.cqes;
	info->errors = sq->st.errors;
	info->mtu_drops = sq->st.mtu_drops;
	info->eswitch_drops = sq->st.eswitch_drops;
	info->ran_dry = sq->st.ran_dry;
	info->first_departure_ns = sq->st.first_ps / EMU_PS_PER_NS;
	info->last_departure_ns = sq->st.last_ps / EMU_PS_PER_NS;
	info->min_gap_ns = sq->st.min_gap_ps / EMU_PS_PER_NS;
	info->max_gap_ns = sq->st.max_gap_ps / EMU_PS_PER_NS;
	info->last_error_syndrome = sq->st.last_syndrome;
	info->qos_queue_group_id = sq->qos_group;
	for (i = 0; i < EMU_RATE_WIN_BUCKETS; i++) {
		info->recent_bytes += sq->st.win.bytes[i];
		info->recent_ns += sq->st.win.busy_ps[i];
	}
	info->recent_ns /= EMU_PS_PER_NS;
	emu_unlock(emu);
	return 0;
}

int
mlx5_emu_sq_stats_clear(struct mlx5_emu *emu, uint32_t sqn)
{
	uint32_t i;
	int ret = -ENOENT;

	emu_lock(emu);
	for (i = 0; i < emu->sqs.cap; i++) {
		struct emu_sq *sq = emu->sqs.slot[i];

		if (sq == NULL || (sqn != 0 && sq->sqn != sqn))
			continue;
		memset(&sq->st, 0, sizeof(sq->st));
		ret = 0;
	}
	emu_unlock(emu);
	return sqn == 0 ? 0 : ret;
}

void
mlx5_emu_last_cmd_error(struct mlx5_emu *emu, struct mlx5_emu_cmd_error *err)
{
	emu_lock(emu);
	*err = emu->last_err;
	emu_unlock(emu);
}

void
mlx5_emu_cmd_stats(struct mlx5_emu *emu, uint64_t *count, uint64_t *ns)
{
	emu_lock(emu);
	if (count != NULL)
		*count = emu->cmd_count;
	if (ns != NULL)
		*ns = emu->cmd_ns;
	emu_unlock(emu);
}
