/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The upstream port of the benchmark: upstream net/mlx5's Tx burst,
 * compiled at build time from the Debian DPDK source package
 * (test/upstream), on its own device model in virtual-clock mode.
 */

#include <errno.h>

#include <rte_common.h>

#include "bench.h"

#ifdef BENCH_HAVE_UPSTREAM
#include <mlx5_emu.h>
#include "upstream_port.h"
#endif

/* What upstream selects for MULTI_SEGS on a ConnectX-6 Dx. */
#define BENCH_UPSTREAM_VARIANT_NAME "mt_empw"

bool
bench_have_upstream(void)
{
#ifdef BENCH_HAVE_UPSTREAM
	return true;
#else
	return false;
#endif
}

const char *
bench_upstream_variant(void)
{
	return BENCH_UPSTREAM_VARIANT_NAME;
}

#ifdef BENCH_HAVE_UPSTREAM

int
bench_upstream_create(const char *profile, uint16_t *port_id)
{
	return upstream_port_create("bench", profile, UPSTREAM_EMPW_MULTI,
				    port_id);
}

void
bench_upstream_drain(uint16_t port_id)
{
	struct mlx5_emu *emu = upstream_port_emu(port_id);

	if (emu != NULL)
		mlx5_emu_drain(emu);
}

int
bench_upstream_wire(uint16_t port_id, uint64_t *packets, uint64_t *error_cqes)
{
	struct mlx5_emu *emu = upstream_port_emu(port_id);
	struct mlx5_emu_port_stats st;

	if (emu == NULL)
		return -ENODEV;
	mlx5_emu_get_port_stats(emu, &st);
	*packets = st.packets;
	*error_cqes = st.error_cqes;
	return 0;
}

void
bench_upstream_destroy(uint16_t port_id)
{
	upstream_port_destroy(port_id);
}

#else /* !BENCH_HAVE_UPSTREAM */

int
bench_upstream_create(const char *profile __rte_unused,
		      uint16_t *port_id __rte_unused)
{
	return -ENOTSUP;
}

void
bench_upstream_drain(uint16_t port_id __rte_unused)
{
}

int
bench_upstream_wire(uint16_t port_id __rte_unused, uint64_t *packets,
		    uint64_t *error_cqes)
{
	*packets = 0;
	*error_cqes = 0;
	return -ENOTSUP;
}

void
bench_upstream_destroy(uint16_t port_id __rte_unused)
{
}

#endif /* BENCH_HAVE_UPSTREAM */
