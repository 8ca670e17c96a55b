/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <string.h>

#include "pace_emu.h"

/*
 * Without the mlx5-tm PMD linked in, no port is an emulated device: the
 * tool runs on any port in real time.
 */
void
pace_emu_attach(struct pace_emu *e, uint16_t port_id __rte_unused)
{
	memset(e, 0, sizeof(*e));
}

uint64_t
pace_emu_now_ns(const struct pace_emu *e __rte_unused)
{
	return 0;
}

void
pace_emu_advance(struct pace_emu *e __rte_unused, uint64_t ns __rte_unused)
{
}

bool
pace_emu_lag(const struct pace_emu *e __rte_unused,
	     struct pace_emu_lag *lag __rte_unused)
{
	return false;
}

bool
pace_emu_wire(const struct pace_emu *e __rte_unused,
	      uint16_t queue __rte_unused, struct pace_emu_wire *w __rte_unused)
{
	return false;
}

int
pace_emu_pcap_end(const struct pace_emu *e __rte_unused)
{
	return 0;
}
