/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Device profiles: the capabilities each emulated ConnectX generation
 * reports. doc/guides/device_model.rst gives the source of every value
 * and marks the assumptions.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emu_internal.h"
#include "emu_sched.h"

struct emu_profile {
	const char *name;
	struct mlx5_emu_caps caps;
};

/*
 * What every profile has in common: packet pacing from 1 Mbps with burst
 * bound and typical packet size, 2^15-WQEBB send queues, 2^22-entry
 * completion queues, 2^17 SQs and CQs, enhanced multi-packet send WQEs
 * (ConnectX-5 and later) with the multi-packet capability that allows them.
 */
#define EMU_PROFILE_COMMON \
	.packet_pacing = true, \
	.packet_pacing_uid = true, \
	.pp_burst_bound = true, \
	.pp_typical_size = true, \
	.pp_min_rate_kbps = 1000, \
	.log_max_wq_sz = 15, \
	.log_max_cq_sz = 22, \
	.log_max_sq = 17, \
	.log_max_cq = 17, \
	.num_comp_vectors = EMU_NUM_COMP_VECTORS, \
	.empw = true, \
	.mpw = 1

static const struct emu_profile emu_profiles[] = {
	{
		.name = "cx5",
		.caps = {
			EMU_PROFILE_COMMON,
			.pci_device_id = 0x1017,
			.wqe_rate_pp = false,
			.pp_max_rate_kbps = 100000000,
			.pp_table_size = 128,
			.line_rate_mbps = 100000,
			.wqe_inline_mode = MLX5_CAP_INLINE_MODE_VPORT_CONTEXT,
			.vport_inline_mode = MLX5_INLINE_MODE_L2,
			.sq_ts_format = 0,
		},
	},
	{
		.name = "cx6dx",
		.caps = {
			EMU_PROFILE_COMMON,
			.pci_device_id = 0x101d,
			.wqe_rate_pp = true,
			.pp_max_rate_kbps = 100000000,
			.pp_table_size = 512,
			.line_rate_mbps = 100000,
			.wqe_inline_mode = MLX5_CAP_INLINE_MODE_VPORT_CONTEXT,
			.vport_inline_mode = MLX5_INLINE_MODE_NONE,
			.sq_ts_format = 2,
		},
	},
	{
		.name = "cx7",
		.caps = {
			EMU_PROFILE_COMMON,
			.pci_device_id = 0x1021,
			.wqe_rate_pp = true,
			.pp_max_rate_kbps = 400000000,
			.pp_table_size = 1024,
			.line_rate_mbps = 400000,
			.wqe_inline_mode = MLX5_CAP_INLINE_MODE_NOT_REQUIRED,
			.vport_inline_mode = MLX5_INLINE_MODE_NONE,
			.sq_ts_format = 2,
		},
	},
};

const char *const mlx5_emu_profile_names[] = { "cx5", "cx6dx", "cx7", NULL };

static const struct emu_profile *
emu_profile_find(const char *name)
{
	size_t i;

	if (name == NULL)
		return NULL;
	for (i = 0; i < sizeof(emu_profiles) / sizeof(emu_profiles[0]); i++)
		if (strcmp(emu_profiles[i].name, name) == 0)
			return &emu_profiles[i];
	return NULL;
}

bool
emu_profile_known(const char *name)
{
	return emu_profile_find(name) != NULL;
}

/* Apply override @p v (negative: keep) to a field of @p max at most. */
static int
emu_override(int64_t v, int64_t max, const char *what, uint64_t *field)
{
	if (v < 0)
		return 0;
	if (v > max) {
		emu_log(EMU_LOG_ERR, "%s=%lld is above %lld", what,
			(long long)v, (long long)max);
		return -EINVAL;
	}
	*field = (uint64_t)v;
	return 0;
}

#define EMU_OVERRIDE(v, max, what, dst) do { \
	uint64_t tmp_ = (uint64_t)(dst); \
	int r_ = emu_override((v), (max), (what), &tmp_); \
	if (r_ < 0) \
		return r_; \
	(dst) = tmp_; \
} while (0)

int
emu_caps_resolve(const struct mlx5_emu_config *cfg, struct mlx5_emu_caps *caps)
{
	const struct emu_profile *p = emu_profile_find(cfg->profile);

	if (p == NULL) {
		emu_log(EMU_LOG_ERR, "unknown profile '%s' (cx5, cx6dx, cx7)",
			cfg->profile);
		return -ENODEV;
	}
	*caps = p->caps;
	snprintf(caps->profile, sizeof(caps->profile), "%s", p->name);
	EMU_OVERRIDE(cfg->packet_pacing, 1, "cap_packet_pacing",
		     caps->packet_pacing);
	EMU_OVERRIDE(cfg->pp_burst_bound, 1, "cap_pp_burst_bound",
		     caps->pp_burst_bound);
	EMU_OVERRIDE(cfg->pp_typical_size, 1, "cap_pp_typical_size",
		     caps->pp_typical_size);
	EMU_OVERRIDE(cfg->wqe_rate_pp, 1, "cap_wqe_rate_pp", caps->wqe_rate_pp);
	EMU_OVERRIDE(cfg->pp_min_rate_kbps, UINT32_MAX, "cap_pp_min_rate",
		     caps->pp_min_rate_kbps);
	EMU_OVERRIDE(cfg->pp_max_rate_kbps, UINT32_MAX, "cap_pp_max_rate",
		     caps->pp_max_rate_kbps);
	EMU_OVERRIDE(cfg->pp_table_size, UINT16_MAX, "cap_pp_table_size",
		     caps->pp_table_size);
	EMU_OVERRIDE(cfg->line_rate_mbps, UINT32_MAX, "line_rate",
		     caps->line_rate_mbps);
	EMU_OVERRIDE(cfg->log_max_wq_sz, 16, "cap_log_max_wq_sz",
		     caps->log_max_wq_sz);
	EMU_OVERRIDE(cfg->log_max_cq_sz, 24, "cap_log_max_cq_sz",
		     caps->log_max_cq_sz);
	EMU_OVERRIDE(cfg->wqe_inline_mode, 2, "cap_inline_mode",
		     caps->wqe_inline_mode);
	EMU_OVERRIDE(cfg->vport_inline_mode, 3, "cap_vport_inline_mode",
		     caps->vport_inline_mode);
	EMU_OVERRIDE(cfg->empw, 1, "cap_empw", caps->empw);
	EMU_OVERRIDE(cfg->mpw, 3, "cap_mpw", caps->mpw);
	EMU_OVERRIDE(cfg->sq_ts_format, 2, "cap_sq_ts_format",
		     caps->sq_ts_format);
	EMU_OVERRIDE(cfg->packet_pacing_uid, 1, "cap_packet_pacing_uid",
		     caps->packet_pacing_uid);
	EMU_OVERRIDE(cfg->pci_device_id, UINT16_MAX, "pci_device_id",
		     caps->pci_device_id);
	if (caps->packet_pacing &&
	    (caps->pp_min_rate_kbps == 0 ||
	     caps->pp_min_rate_kbps > caps->pp_max_rate_kbps)) {
		emu_log(EMU_LOG_ERR,
			"packet pacing range [%u, %u] kbps is empty",
			caps->pp_min_rate_kbps, caps->pp_max_rate_kbps);
		return -EINVAL;
	}
	/* Index 0 is "unlimited": a table of N has N - 1 entries. */
	if (caps->packet_pacing && caps->pp_table_size < 2) {
		emu_log(EMU_LOG_ERR, "packet pacing with a rate table of %u: "
			"index 0 is reserved, at least 2 needed",
			caps->pp_table_size);
		return -EINVAL;
	}
	if (caps->packet_pacing && cfg->pp_foreign >= caps->pp_table_size) {
		emu_log(EMU_LOG_ERR, "pp_foreign=%lld: the rate table has "
			"only %u usable entries", (long long)cfg->pp_foreign,
			caps->pp_table_size - 1u);
		return -EINVAL;
	}
	if (cfg->mtu < EMU_MIN_MTU || cfg->mtu > EMU_MAX_MTU) {
		emu_log(EMU_LOG_ERR, "mtu=%lld: the netdev MTU is %u..%u "
			"(a configuration not from mlx5_emu_config_init?)",
			(long long)cfg->mtu, EMU_MIN_MTU, EMU_MAX_MTU);
		return -EINVAL;
	}
	if (caps->line_rate_mbps == 0) {
		emu_log(EMU_LOG_ERR, "line_rate must be above 0");
		return -EINVAL;
	}
	if (!caps->packet_pacing) {
		caps->pp_burst_bound = false;
		caps->pp_typical_size = false;
		caps->wqe_rate_pp = false;
		caps->packet_pacing_uid = false;
		caps->pp_table_size = 0;
		caps->pp_min_rate_kbps = 0;
		caps->pp_max_rate_kbps = 0;
	}
	return emu_sched_caps_resolve(cfg, caps);
}

int
mlx5_emu_config_caps(const struct mlx5_emu_config *cfg,
		     struct mlx5_emu_caps *caps)
{
	if (cfg == NULL || caps == NULL)
		return -EINVAL;
	return emu_caps_resolve(cfg, caps);
}
