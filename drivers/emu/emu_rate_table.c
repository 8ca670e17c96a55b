/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The packet-pacing rate table, with the semantics of the Linux mlx5 core
 * (rl.c) behind mlx5dv_pp_alloc(): index 0 means unlimited, so a table of
 * packet_pacing_rate_table_size N has entries 1..N-1 (rl.c: max_size =
 * size - 1); an identical context of the same user shares an entry
 * (refcounted), a dedicated entry is never shared; an entry is cleared
 * when its last holder frees it. Devarg pp_foreign=n has entries 1..n
 * held by other users (the kernel netdev, other processes) from the start.
 * Without qos_cap.packet_pacing_uid the kernel (mlx5_ib qos.c,
 * pp_is_supported) does not expose the pacing object to DEVX: pp_alloc
 * fails with EOPNOTSUPP.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"

#define EMU_PP_CTX_SZ MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)

/* The holder of the entries taken by other users (pp_foreign). */
static const char emu_pp_foreign_user;

int
emu_pp_table_init(struct mlx5_emu *emu)
{
	uint16_t i;

	emu->pp = calloc((size_t)emu->caps.pp_table_size + 1,
			 sizeof(*emu->pp));
	if (emu->pp == NULL)
		return -ENOMEM;
	emu->pp_foreign = emu->caps.pp_table_size > 0 ?
			  (uint16_t)emu->cfg.pp_foreign : 0;
	for (i = 1; i <= emu->pp_foreign; i++) {
		emu->pp[i].used = true;
		emu->pp[i].dedicated = true;
		emu->pp[i].refcount = 1;
		emu->pp[i].user = &emu_pp_foreign_user;
	}
	return 0;
}

void
emu_pp_table_fini(struct mlx5_emu *emu)
{
	free(emu->pp);
	emu->pp = NULL;
}

/* Validate a context as firmware does for SET_PP_RATE_LIMIT. */
static int
emu_pp_check(const struct mlx5_emu *emu, const uint8_t *raw)
{
	const struct mlx5_emu_caps *c = &emu->caps;
	uint32_t rate = MLX5_GET(set_pp_rate_limit_context, raw, rate_limit);
	uint32_t burst = MLX5_GET(set_pp_rate_limit_context, raw,
				  burst_upper_bound);
	uint32_t mode = MLX5_GET(set_pp_rate_limit_context, raw, rate_mode);
	uint32_t typical = MLX5_GET(set_pp_rate_limit_context, raw,
				    typical_packet_size);

	if (!c->packet_pacing)
		return -EOPNOTSUPP;
	/* The Linux core checks the same numeric range in both modes. */
	if (rate == 0 || rate < c->pp_min_rate_kbps ||
	    rate > c->pp_max_rate_kbps)
		return -EINVAL;
	if (mode > MLX5_PP_RATE_MODE_WQE_RATE ||
	    (mode == MLX5_PP_RATE_MODE_WQE_RATE && !c->wqe_rate_pp))
		return -EINVAL;
	if (burst != 0 && !c->pp_burst_bound)
		return -EINVAL;
	if (typical != 0 && !c->pp_typical_size)
		return -EINVAL;
	return 0;
}

int
emu_pp_acquire(struct mlx5_emu *emu, const void *user, const void *ctx,
	       size_t ctx_sz, bool dedicated, uint16_t *index)
{
	uint8_t raw[EMU_PP_CTX_SZ];
	struct emu_pp_entry *e;
	uint32_t i, free_i = 0, sq_users;
	int ret;

	if (ctx == NULL || ctx_sz == 0 || ctx_sz > EMU_PP_CTX_SZ)
		return -EINVAL;
	memset(raw, 0, sizeof(raw));
	memcpy(raw, ctx, ctx_sz);
	ret = emu_pp_check(emu, raw);
	if (ret < 0)
		return ret;
	for (i = 1; i < emu->caps.pp_table_size; i++) {
		e = &emu->pp[i];
		if (!e->used) {
			if (free_i == 0)
				free_i = i;
			continue;
		}
		if (!dedicated && !e->dedicated && e->user == user &&
		    memcmp(e->raw, raw, sizeof(raw)) == 0) {
			e->refcount++;
			*index = (uint16_t)i;
			return 0;
		}
	}
	if (free_i == 0)
		return -ENOSPC;
	e = &emu->pp[free_i];
	/*
	 * SQs still naming the index (it was freed under them) use the new
	 * entry from now on: they stay its SQ users.
	 */
	sq_users = e->sq_users;
	memset(e, 0, sizeof(*e));
	e->sq_users = sq_users;
	e->used = true;
	memcpy(e->raw, raw, sizeof(raw));
	e->rate = MLX5_GET(set_pp_rate_limit_context, raw, rate_limit);
	e->burst = MLX5_GET(set_pp_rate_limit_context, raw, burst_upper_bound);
	e->mode = (uint8_t)MLX5_GET(set_pp_rate_limit_context, raw, rate_mode);
	e->typical = (uint16_t)MLX5_GET(set_pp_rate_limit_context, raw,
					typical_packet_size);
	e->dedicated = dedicated;
	e->refcount = 1;
	e->user = user;
	*index = (uint16_t)free_i;
	return 0;
}

static void
emu_pp_release(struct mlx5_emu *emu, uint16_t index)
{
	struct emu_pp_entry *e;
	uint32_t sq_users;

	if (index == 0 || index >= emu->caps.pp_table_size)
		return;
	e = &emu->pp[index];
	if (!e->used || --e->refcount > 0)
		return;
	/* Cleared in firmware; SQs still naming it run unlimited. */
	sq_users = e->sq_users;
	memset(e, 0, sizeof(*e));
	e->sq_users = sq_users;
	if (sq_users > 0)
		emu_log(EMU_LOG_WARNING,
			"rate-table entry %u freed while %u SQ(s) use it",
			index, sq_users);
}

bool
emu_pp_index_valid(const struct mlx5_emu *emu, uint16_t index)
{
	return index == 0 || emu_pp_get(emu, index) != NULL;
}

void
emu_pp_sq_ref(struct mlx5_emu *emu, uint16_t index, int delta)
{
	if (index == 0 || index >= emu->caps.pp_table_size)
		return;
	emu->pp[index].sq_users += delta;
}

struct mlx5_tm_pp *
emu_glue_pp_alloc(struct mlx5_tm_glue_dev *dev, size_t pp_context_sz,
		  const void *pp_context, uint32_t flags)
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;
	uint64_t start = emu_mono_ns();
	struct emu_pp *pp;
	uint16_t index;
	int ret;

	if (emu == NULL || (flags & ~MLX5_TM_PP_FLAG_DEDICATED_INDEX)) {
		errno = EINVAL;
		return NULL;
	}
	pp = calloc(1, sizeof(*pp));
	if (pp == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	emu_cmd_gate(emu);
	emu_lock(emu);
	ret = emu_fault_pp_hit(emu);
	if (ret == 0 && emu->caps.packet_pacing && !emu->caps.packet_pacing_uid)
		ret = -EOPNOTSUPP;
	if (ret == 0)
		ret = emu_pp_acquire(emu, emu, pp_context, pp_context_sz,
				     flags & MLX5_TM_PP_FLAG_DEDICATED_INDEX,
				     &index);
	if (ret == 0)
		emu->pp_handles++;
	emu->cmd_count++;
	emu->cmd_ns += emu_mono_ns() - start;
	emu_unlock(emu);
	if (ret < 0) {
		free(pp);
		errno = -ret;
		return NULL;
	}
	pp->emu = emu;
	pp->pub.index = index;
	return &pp->pub;
}

void
emu_glue_pp_free(struct mlx5_tm_pp *p)
{
	struct emu_pp *pp = (struct emu_pp *)p;
	uint64_t start = emu_mono_ns();
	struct mlx5_emu *emu;

	if (pp == NULL)
		return;
	emu = pp->emu;
	emu_cmd_gate(emu);
	emu_lock(emu);
	emu_pp_release(emu, pp->pub.index);
	emu->pp_handles--;
	emu->cmd_count++;
	emu->cmd_ns += emu_mono_ns() - start;
	emu_unlock(emu);
	free(pp);
}

unsigned int
mlx5_emu_pp_list(struct mlx5_emu *emu, struct mlx5_emu_pp_info *entries,
		 unsigned int max)
{
	unsigned int n = 0;
	uint32_t i;

	if (emu == NULL)
		return 0;
	emu_lock(emu);
	for (i = 1; i < emu->caps.pp_table_size; i++) {
		const struct emu_pp_entry *e = &emu->pp[i];

		if (!e->used)
			continue;
		if (n < max && entries != NULL) {
			struct mlx5_emu_pp_info *o = &entries[n];

			memset(o, 0, sizeof(*o));
			o->index = (uint16_t)i;
			o->rate_limit = e->rate;
			o->burst_upper_bound = e->burst;
			o->typical_packet_size = e->typical;
			o->rate_mode = e->mode;
			o->dedicated = e->dedicated;
			o->refcount = e->refcount;
			o->user = e->user == &emu_pp_foreign_user ? 0 :
				  emu->dev_id;
			o->sq_users = e->sq_users;
		}
		n++;
	}
	emu_unlock(emu);
	return n;
}
