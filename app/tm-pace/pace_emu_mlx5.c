/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The emulated mlx5-tm device, reached through the PMD's exported
 * rte_pmd_mlx5_tm_emu() and the device-model API: virtual clock and lag.
 */

#include <string.h>

#include <rte_ethdev.h>

#include "mlx5_emu.h"
#include "rte_pmd_mlx5_tm.h"

#include "pace_emu.h"

void
pace_emu_attach(struct pace_emu *e, uint16_t port_id)
{
	struct mlx5_emu *emu;

	memset(e, 0, sizeof(*e));
	emu = rte_pmd_mlx5_tm_emu(port_id);
	if (emu == NULL)
		return;
	e->present = true;
	e->model = emu;
	e->port_id = port_id;
	e->virtual_clock = mlx5_emu_clock(emu) == MLX5_EMU_CLOCK_VIRTUAL;
}

uint64_t
pace_emu_now_ns(const struct pace_emu *e)
{
	return e->present ? mlx5_emu_now_ns(e->model) : 0;
}

void
pace_emu_advance(struct pace_emu *e, uint64_t ns)
{
	if (e->virtual_clock)
		mlx5_emu_advance(e->model, ns);
}

bool
pace_emu_lag(const struct pace_emu *e, struct pace_emu_lag *lag)
{
	struct mlx5_emu_lag l;

	if (!e->present || e->virtual_clock)
		return false;
	mlx5_emu_take_lag(e->model, &l);
	lag->late_passes = l.late_passes;
	lag->max_lag_ns = l.max_lag_ns;
	lag->threshold_ns = l.threshold_ns;
	return true;
}

bool
pace_emu_wire(const struct pace_emu *e, uint16_t queue,
	      struct pace_emu_wire *w)
{
	struct mlx5_emu_sq_info info;
	uint32_t sqn;

	if (!e->present ||
	    rte_pmd_mlx5_tm_txq_sqn(e->port_id, queue, &sqn) != 0 ||
	    mlx5_emu_sq_get(e->model, sqn, &info) != 0)
		return false;
	w->pkts = info.packets;
	w->bytes = info.bytes;
	w->last_departure_ns = info.last_departure_ns;
	w->pp_index = info.pp_index;
	w->mtu_drops = info.mtu_drops;
	return true;
}

int
pace_emu_pcap_end(const struct pace_emu *e)
{
	if (!e->present)
		return 0;
	/* Ending it flushes it: a failed write shows at the latest then. */
	return mlx5_emu_set_pcap(e->model, NULL);
}
