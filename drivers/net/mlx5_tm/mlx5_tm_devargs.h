/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_DEVARGS_H
#define MLX5_TM_DEVARGS_H

/**
 * @file
 * Devargs of a net_mlx5_tm port: the device (dev= or emu= with the device
 * model's options), the pacing options and the Rx companion port.
 */

#include <stdbool.h>
#include <stddef.h>

#include "mlx5_tm_ethdev.h"

/** Parsed devargs. */
struct mlx5_tm_devargs {
	bool emulated;                  /**< emu= given (else dev=). */
	char dev[64];                   /**< dev= value or emu= profile. */
	/** emu=: the device model's glue, loaded to parse its options. */
	const struct mlx5_tm_glue *emu_glue;
	/** emu=: device-model options, opaque (emu_glue->opts_new()). */
	void *emu_opts;
	struct mlx5_tm_pacing_args pacing;
	/** rx_port=: companion port name or id, empty for a Tx-only port. */
	char rx_port[RTE_ETH_NAME_MAX_LEN];
	/** txq_mpw_en: eMPW where the device and the queue allow it. */
	bool txq_mpw_en;
};

/** Devarg keys of the PMD itself (device-model keys come on top). */
#define MLX5_TM_DEVARGS_PARAMS \
	"dev=<ibdev|PCI address> " \
	"emu=cx5|cx6dx|cx7 " \
	"tx_burst_bound=<bytes> " \
	"tx_typical_pkt_sz=<bytes> " \
	"pacing_index=shared|dedicated " \
	"rate_tolerance_ppm=<0..1000000> " \
	"rx_port=<ethdev name|port id> " \
	"txq_mpw_en=0|1 " \
	"clock=realtime|virtual " \
	"pcap=<file> " \
	"cap_<name>=<value> line_rate=<Mbps>"

/**
 * Parse the devargs string @p args (may be NULL) into @p da. With emu=
 * the device model is loaded: it knows and validates its own keys.
 *
 * @return
 *   0, or -EINVAL with a message naming the offending key and the accepted
 *   keys or values in @p err (-ENOENT or -ENOEXEC: the device model cannot
 *   be loaded). Release @p da with mlx5_tm_devargs_free() either way.
 */
int mlx5_tm_devargs_parse(const char *args, struct mlx5_tm_devargs *da,
			  char *err, size_t errlen);

/** Free what mlx5_tm_devargs_parse() took (not @p da itself). */
void mlx5_tm_devargs_free(struct mlx5_tm_devargs *da);

#endif /* MLX5_TM_DEVARGS_H */
