/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * ASSUMED capability sets, the only place their numbers are written in
 * this program. They are the values the device model's profiles report
 * (drivers/emu/emu_profile.c), not figures read from real adapters: a real
 * ConnectX reports its own through QUERY_HCA_CAP, which the PMD reads.
 */

#include <string.h>

#include "plan_caps.h"

const struct plan_caps plan_caps_sets[] = {
	{
		.name = "cx5",
		.description = "ConnectX-5-like: 100G, 128 entries, "
			"no WQE-rate pacing",
		.caps = {
			.packet_pacing = true,
			.burst_bound = true,
			.typical_size = true,
			.wqe_rate = false,
			.min_rate_kbps = 1000,
			.max_rate_kbps = 100000000,
			.table_size = 128,
		},
	},
	{
		.name = "cx6dx",
		.description = "ConnectX-6 Dx-like: 100G, 512 entries, "
			"WQE-rate pacing, NIC scheduling hierarchy",
		.caps = {
			.packet_pacing = true,
			.burst_bound = true,
			.typical_size = true,
			.wqe_rate = true,
			.min_rate_kbps = 1000,
			.max_rate_kbps = 100000000,
			.table_size = 512,
		},
		.sched = true,
	},
	{
		.name = "cx7",
		.description = "ConnectX-7-like: 400G, 1024 entries, "
			"WQE-rate pacing",
		.caps = {
			.packet_pacing = true,
			.burst_bound = true,
			.typical_size = true,
			.wqe_rate = true,
			.min_rate_kbps = 1000,
			.max_rate_kbps = 400000000,
			.table_size = 1024,
		},
		.sched = true,
	},
	{ .name = NULL },
};

const struct plan_caps *
plan_caps_find(const char *name)
{
	const struct plan_caps *c;

	for (c = plan_caps_sets; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
