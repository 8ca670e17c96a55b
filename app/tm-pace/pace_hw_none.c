/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Built without the mlx5-tm PMD: no port is a hardware mlx5-tm port. */

#include <string.h>

#include "pace_hw.h"

void
pace_hw_attach(struct pace_hw *h, uint16_t port_id,
	       bool emulated_too __rte_unused)
{
	memset(h, 0, sizeof(*h));
	h->port_id = port_id;
}

bool
pace_hw_cqe(const struct pace_hw *h __rte_unused, uint16_t queue __rte_unused,
	    struct pace_hw_cqe *c __rte_unused)
{
	return false;
}

double
pace_hw_backstop_bps(uint16_t port_id __rte_unused,
		     uint16_t queue __rte_unused)
{
	return 0;
}

bool
pace_hw_vport(const struct pace_hw *h __rte_unused, uint64_t *pkts __rte_unused,
	      uint64_t *octets __rte_unused)
{
	return false;
}
