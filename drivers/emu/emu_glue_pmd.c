/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The glue operations only a device model has, for the PMD: its devarg
 * options (validated here, opaque to the PMD), its log, and what the PMD
 * reports of it (port speed, wire figures per SQ, lag). The PMD reaches
 * the model through these and never through mlx5_emu.h.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"

/* A glue device of this table is its model (emu_open_device). */
static struct mlx5_emu *
emu_of(struct mlx5_tm_glue_dev *dev)
{
	return (struct mlx5_emu *)dev;
}

void *
emu_glue_opts_new(const char *name, char *err, size_t errlen)
{
	struct mlx5_emu_config *cfg = malloc(sizeof(*cfg));
	size_t off = 0;
	unsigned int i;

	if (cfg == NULL) {
		snprintf(err, errlen, "no memory for device-model options");
		errno = ENOMEM;
		return NULL;
	}
	if (mlx5_emu_config_init(cfg, name) == 0)
		return cfg;
	free(cfg);
	off = snprintf(err, errlen, "bad value '%s' for devarg emu; accepted: ",
		       name != NULL ? name : "");
	for (i = 0; mlx5_emu_profile_names[i] != NULL && off < errlen; i++)
		off += snprintf(err + off, errlen - off, "%s%s", i ? ", " : "",
				mlx5_emu_profile_names[i]);
	errno = EINVAL;
	return NULL;
}

int
emu_glue_opts_set(void *opts, const char *key, const char *value, char *err,
		  size_t errlen)
{
	err[0] = '\0';
	return mlx5_emu_config_set(opts, key, value, err, errlen);
}

void
emu_glue_opts_busy_cpus(void *opts, const cpu_set_t *cpus)
{
	struct mlx5_emu_config *cfg = opts;

	cfg->busy_cpus = *cpus;
}

void
emu_glue_opts_free(void *opts)
{
	free(opts);
}

uint32_t
emu_glue_line_rate_mbps(struct mlx5_tm_glue_dev *dev)
{
	struct mlx5_emu_caps caps;

	mlx5_emu_get_caps(emu_of(dev), &caps);
	return caps.line_rate_mbps;
}

int
emu_glue_sq_wire_get(struct mlx5_tm_glue_dev *dev, uint32_t sqn,
		     struct mlx5_tm_glue_sq_wire *wire)
{
	struct mlx5_emu_sq_info info;
	int ret = mlx5_emu_sq_get(emu_of(dev), sqn, &info);

	if (ret < 0)
		return ret;
	wire->packets = info.packets;
	wire->bytes = info.bytes;
	wire->first_departure_ns = info.first_departure_ns;
	wire->last_departure_ns = info.last_departure_ns;
	wire->mtu_drops = info.mtu_drops;
	wire->ran_dry = info.ran_dry;
	wire->recent_bytes = info.recent_bytes;
	wire->recent_ns = info.recent_ns;
	return 0;
}

int
emu_glue_sq_wire_clear(struct mlx5_tm_glue_dev *dev, uint32_t sqn)
{
	return mlx5_emu_sq_stats_clear(emu_of(dev), sqn);
}

void
emu_glue_lag_get(struct mlx5_tm_glue_dev *dev, struct mlx5_tm_glue_lag *lag)
{
	struct mlx5_emu_lag l;

	mlx5_emu_get_lag(emu_of(dev), &l);
	lag->lag_ns = l.lag_ns;
	lag->max_lag_ns = l.max_lag_ns;
	lag->late_passes = l.total_late_passes;
	lag->lagging = l.lagging;
}

int
emu_glue_pcap_error(struct mlx5_tm_glue_dev *dev)
{
	return mlx5_emu_pcap_error(emu_of(dev));
}

bool
emu_glue_clock_is_virtual(struct mlx5_tm_glue_dev *dev)
{
	return mlx5_emu_clock(emu_of(dev)) == MLX5_EMU_CLOCK_VIRTUAL;
}

struct mlx5_emu *
emu_glue_model(struct mlx5_tm_glue_dev *dev)
{
	return emu_of(dev);
}
