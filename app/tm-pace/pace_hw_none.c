/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Built without the mlx5-tm PMD: no port is a hardware mlx5-tm port. */

#include <string.h>

#include "pace_hw.h"

void
pace_hw_attach(struct pace_hw *h, uint16_t port_id, bool emulated_too)
{
	(void)emulated_too;
	memset(h, 0, sizeof(*h));
	h->port_id = port_id;
}

bool
pace_hw_cqe(const struct pace_hw *h, uint16_t queue, struct pace_hw_cqe *c)
{
	(void)h;
	(void)queue;
	(void)c;
	return false;
}

bool
pace_hw_vport(const struct pace_hw *h, uint64_t *pkts, uint64_t *octets)
{
	(void)h;
	(void)pkts;
	(void)octets;
	return false;
}
