/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Fault injection: one-shot faults (a command fault may repeat), armed from devargs at open or through
 * the API, counted from the moment they are armed; held commands.
 */

#include <errno.h>

#include "emu_internal.h"

bool
emu_fault_cmd_hit(struct mlx5_emu *emu, uint16_t opcode, uint8_t *status,
		  uint32_t *syndrome)
{
	struct mlx5_emu_fault_cmd *f = &emu->fault_cmd;

	if (f->nth == 0 || f->opcode != opcode)
		return false;
	if (++emu->fault_cmd_seen < f->nth)
		return false;
	*status = f->status;
	*syndrome = f->syndrome;
	emu->fault_cmd_hits++;
	if (emu->fault_cmd_repeat == 0)
		f->nth = 0;
	else if (emu->fault_cmd_repeat != UINT32_MAX)
		emu->fault_cmd_repeat--;
	return true;
}

int
emu_fault_pp_hit(struct mlx5_emu *emu)
{
	struct mlx5_emu_fault_pp *f = &emu->fault_pp;

	if (f->nth == 0)
		return 0;
	if (++emu->fault_pp_seen < f->nth)
		return 0;
	f->nth = 0;
	return -f->err;
}

int
mlx5_emu_fault_cmd(struct mlx5_emu *emu, const struct mlx5_emu_fault_cmd *f)
{
	if (emu == NULL || f == NULL ||
	    (f->nth != 0 && f->status == MLX5_CMD_STAT_OK))
		return -EINVAL;
	emu_lock(emu);
	emu->fault_cmd = *f;
	emu->fault_cmd_seen = 0;
	emu->fault_cmd_hits = 0;
	emu->fault_cmd_repeat = 0;
	emu_unlock(emu);
	return 0;
}

void
mlx5_emu_fault_cmd_repeat(struct mlx5_emu *emu, uint32_t repeat)
{
	emu_lock(emu);
	emu->fault_cmd_repeat = repeat;
	emu_unlock(emu);
}

unsigned int
mlx5_emu_fault_cmd_hits(struct mlx5_emu *emu)
{
	unsigned int n;

	emu_lock(emu);
	n = emu->fault_cmd_hits;
	emu_unlock(emu);
	return n;
}

int
mlx5_emu_fault_pp_alloc(struct mlx5_emu *emu,
			const struct mlx5_emu_fault_pp *f)
{
	if (emu == NULL || f == NULL ||
	    (f->nth != 0 && f->err != ENOSPC && f->err != EIO))
		return -EINVAL;
	emu_lock(emu);
	emu->fault_pp = *f;
	emu->fault_pp_seen = 0;
	emu_unlock(emu);
	return 0;
}

int
mlx5_emu_fault_wqe(struct mlx5_emu *emu, const struct mlx5_emu_fault_wqe *f)
{
	if (emu == NULL || f == NULL || (f->nth != 0 && f->syndrome == 0))
		return -EINVAL;
	emu_lock(emu);
	emu->fault_wqe = *f;
	emu->fault_wqe_seen = 0;
	emu_unlock(emu);
	return 0;
}

/*
 * A held command waits at the command interface, before the device lock,
 * as a DEVX call sleeps in the kernel while firmware works on it: the
 * device (wire, completions, counters) goes on meanwhile.
 */
void
emu_cmd_gate(struct mlx5_emu *emu)
{
	pthread_mutex_lock(&emu->gate_lock);
	if (emu->cmd_hold) {
		emu->cmd_held++;
		pthread_cond_broadcast(&emu->gate_cond);
		while (emu->cmd_hold)
			pthread_cond_wait(&emu->gate_cond, &emu->gate_lock);
		emu->cmd_held--;
	}
	pthread_mutex_unlock(&emu->gate_lock);
}

void
mlx5_emu_cmd_hold(struct mlx5_emu *emu, bool hold)
{
	pthread_mutex_lock(&emu->gate_lock);
	emu->cmd_hold = hold;
	pthread_cond_broadcast(&emu->gate_cond);
	pthread_mutex_unlock(&emu->gate_lock);
}

void
mlx5_emu_cmd_wait_held(struct mlx5_emu *emu, unsigned int n)
{
	pthread_mutex_lock(&emu->gate_lock);
	while (emu->cmd_hold && emu->cmd_held < n)
		pthread_cond_wait(&emu->gate_cond, &emu->gate_lock);
	pthread_mutex_unlock(&emu->gate_lock);
}
