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
pace_emu_attach(struct pace_emu *e, uint16_t port_id)
{
	(void)port_id;
	memset(e, 0, sizeof(*e));
}

uint64_t
pace_emu_now_ns(const struct pace_emu *e)
{
	(void)e;
	return 0;
}

void
pace_emu_advance(struct pace_emu *e, uint64_t ns)
{
	(void)e;
	(void)ns;
}

bool
pace_emu_lag(const struct pace_emu *e, struct pace_emu_lag *lag)
{
	(void)e;
	(void)lag;
	return false;
}

bool
pace_emu_wire(const struct pace_emu *e, uint16_t queue,
	      struct pace_emu_wire *w)
{
	(void)e;
	(void)queue;
	(void)w;
	return false;
}
