/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The port's pacing entries: the pacing library decides sharing and
 * capacity; this file turns each new library entry into exactly one device
 * allocation (set_pp_rate_limit_context, pp_alloc; dedicated flag when
 * the port asks for dedicated indices) and frees it with the entry. In
 * shared mode no two library entries have the same context, so the
 * device's own sharing of identical contexts never merges two of them:
 * library entries and device entries stay one to one.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_pacing.h"

struct mlx5_tm_pacing {
	const struct mlx5_tm_glue *glue;
	struct mlx5_tm_glue_dev *gdev;
	struct pacing_caps caps;
	struct pacing_defaults defaults;
	const struct mlx5_tm_pacing_args *conf;
	struct mlx5_tm_pacing_range range;
	struct pacing_table *table;
	bool no_uid;           /* pacing, but no entries for DEVX users */
};

/*
 * Library alloc hook: one device entry per new library entry, of @p ctx
 * as a set_pp_rate_limit_context.
 */
static int
hw_alloc(void *opaque, const struct pacing_ctx *ctx, bool dedicated,
	 void **hw)
{
	uint8_t buf[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)] = { 0 };
	struct mlx5_tm_pacing *pm = opaque;
	struct mlx5_tm_pp *pp;

	MLX5_SET(set_pp_rate_limit_context, buf, rate_limit, ctx->rate_limit);
	MLX5_SET(set_pp_rate_limit_context, buf, burst_upper_bound,
		 ctx->burst_upper_bound);
	MLX5_SET(set_pp_rate_limit_context, buf, rate_mode,
		 ctx->rate_mode == PACING_RATE_MODE_WQE ?
		 MLX5_PP_RATE_MODE_WQE_RATE : MLX5_PP_RATE_MODE_DATA_RATE);
	MLX5_SET(set_pp_rate_limit_context, buf, typical_packet_size,
		 ctx->typical_packet_size);
	errno = 0;
	pp = pm->glue->pp_alloc(pm->gdev, sizeof(buf), buf,
				dedicated ? MLX5_TM_PP_FLAG_DEDICATED_INDEX : 0);
	if (pp == NULL || pp->index == 0) {
		int ret = pp == NULL && errno != 0 ? -errno : -EIO;

		/* Index 0 means "unlimited": never a valid entry. */
		if (pp != NULL)
			pm->glue->pp_free(pp);
		return ret;
	}
	*hw = pp;
	return 0;
}

/* Library free hook: the last user of the entry went. */
static void
hw_free(void *opaque, const struct pacing_ctx *ctx __rte_unused, void *hw)
{
	struct mlx5_tm_pacing *pm = opaque;

	if (hw == NULL)
		return;
	pm->glue->pp_free(hw);
}

static const struct pacing_hw_ops hw_ops = {
	.alloc = hw_alloc,
	.free = hw_free,
};

struct mlx5_tm_pacing *
mlx5_tm_pacing_create(const struct mlx5_tm_glue *glue,
		      struct mlx5_tm_glue_dev *gdev,
		      const struct mlx5_tm_caps *caps,
		      const struct mlx5_tm_pacing_args *conf,
		      struct pacing_error *err)
{
	struct mlx5_tm_pacing *pm;

	pm = calloc(1, sizeof(*pm));
	if (pm == NULL) {
		pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
				 "no memory for the pacing manager");
		return NULL;
	}
	pm->glue = glue;
	pm->gdev = gdev;
	pm->conf = conf;
	/* Without packet_pacing_uid the kernel hides pacing from DEVX. */
	pm->no_uid = caps->packet_pacing && !caps->packet_pacing_uid;
	pm->caps.packet_pacing = caps->packet_pacing && !pm->no_uid;
	pm->caps.burst_bound = caps->packet_pacing_burst_bound;
	pm->caps.typical_size = caps->packet_pacing_typical_size;
	pm->caps.wqe_rate = caps->wqe_rate_pp;
	pm->caps.min_rate_kbps = caps->packet_pacing_min_rate;
	pm->caps.max_rate_kbps = caps->packet_pacing_max_rate;
	/* Index 0 is "unlimited": a table of N has N - 1 entries. */
	pm->caps.table_size = pm->caps.packet_pacing &&
			      caps->packet_pacing_rate_table_size > 0 ?
			      caps->packet_pacing_rate_table_size - 1u : 0;
	pm->defaults.burst_bound = conf->burst_bound;
	pm->defaults.typical_pkt_sz = conf->typical_pkt_sz;
	/* A bucket the device would ignore is refused, not dropped. */
	pm->defaults.strict_bucket = true;
	pm->table = pacing_table_create(pm->caps.table_size, &hw_ops, pm, err);
	if (pm->table == NULL) {
		free(pm);
		return NULL;
	}
	/* On failure (no pacing, no WQE rate) the range stays 0..0. */
	pacing_rate_range(&pm->caps, false, &pm->range.byte_min,
			  &pm->range.byte_max);
	pacing_rate_range(&pm->caps, true, &pm->range.pkt_min,
			  &pm->range.pkt_max);
	return pm;
}

void
mlx5_tm_pacing_destroy(struct mlx5_tm_pacing *pm)
{
	if (pm == NULL)
		return;
	pacing_table_destroy(pm->table);
	free(pm);
}

const struct mlx5_tm_pacing_args *
mlx5_tm_pacing_conf(const struct mlx5_tm_pacing *pm)
{
	return pm->conf;
}

const struct mlx5_tm_pacing_range *
mlx5_tm_pacing_range(const struct mlx5_tm_pacing *pm)
{
	return &pm->range;
}

int
mlx5_tm_pacing_convert(const struct mlx5_tm_pacing *pm,
		       const struct pacing_shaper *shaper,
		       struct pacing_result *res, struct pacing_error *err)
{
	uint64_t max = shaper->packet_mode ? pm->range.pkt_max :
		       pm->range.byte_max;
	int ret;

	if (pm->no_uid)
		return pacing_error_set(err, PACING_FIELD_DEVICE, -ENOTSUP,
			"the device has packet pacing but not "
			"qos_cap.packet_pacing_uid: the kernel gives DEVX "
			"applications no pacing entries, so this port cannot "
			"shape (a firmware update may add it)");
	ret = pacing_shaper_to_device_ctx(shaper, &pm->caps, &pm->defaults,
					  res, err);
	/*
	 * A byte rate just above the maximum rounds down to it; refuse it
	 * anyway, so that the announced maximum is the last rate accepted.
	 */
	if (ret == 0 && shaper->peak_rate > max)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
			"peak rate %" PRIu64 " %s is above the device maximum; "
			"allowed %" PRIu64 "..%" PRIu64 " %s",
			shaper->peak_rate,
			shaper->packet_mode ? "packets/s" : "bytes/s",
			shaper->packet_mode ? pm->range.pkt_min :
			pm->range.byte_min, max,
			shaper->packet_mode ? "packets/s" : "bytes/s");
	return ret;
}

struct pacing_table *
mlx5_tm_pacing_table(const struct mlx5_tm_pacing *pm)
{
	return pm->table;
}

int
mlx5_tm_pacing_acquire(const struct mlx5_tm_pacing *pm,
		       struct pacing_table *table, const struct pacing_ctx *ctx,
		       struct pacing_grant *grant, struct pacing_error *err)
{
	return pacing_table_acquire(table, ctx,
				    pm->conf->dedicated ? PACING_ACQ_DEDICATED : 0,
				    pm->conf->dedicated ? 0 :
				    pm->conf->rate_tolerance_ppm, grant, err);
}

void
mlx5_tm_pacing_release(struct mlx5_tm_pacing *pm, uint64_t entry_id)
{
	pacing_table_release(pm->table, entry_id, NULL);
}

uint16_t
mlx5_tm_pacing_index(const struct mlx5_tm_pacing *pm, uint64_t entry_id)
{
	struct pacing_entry_info info;
	const struct mlx5_tm_pp *pp;

	if (pacing_table_entry_get(pm->table, entry_id, &info) != 0)
		return 0;
	pp = info.hw;
	return pp != NULL ? pp->index : 0;
}
