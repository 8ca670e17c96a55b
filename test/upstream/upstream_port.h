/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef UPSTREAM_PORT_H
#define UPSTREAM_PORT_H

/**
 * @file
 * Upstream net/mlx5's Tx burst as an ethdev port, for comparison with
 * mlx5-tm: the burst functions are upstream's templates (mlx5_tx.h of the
 * Debian DPDK source package, compiled at build time, never committed),
 * instantiated with the offload sets upstream's own selector picks; the
 * Tx queue (struct mlx5_txq_data) is filled by hand as upstream's queue
 * set-up fills it, and its SQ, CQ and doorbells live in a device model
 * opened through mlx5-tm's glue (upstream_dev.h). The port takes
 * rte_eth_dev_configure() with no Rx queue and one Tx queue,
 * rte_eth_tx_queue_setup(), rte_eth_dev_start() and rte_eth_tx_burst().
 */

#include <stdint.h>

struct mlx5_emu;

/** An upstream burst function: its name in upstream's table (mlx5_tx.c). */
enum upstream_variant {
	UPSTREAM_NONE,      /**< "none": no eMPW, no inline (txq_mpw_en=0). */
	UPSTREAM_INLINE,    /**< "i": inline (txq_mpw_en=0, inlining on). */
	UPSTREAM_MULTI,     /**< "mt": multi-segment (txq_mpw_en=0). */
	UPSTREAM_EMPW,      /**< "none_empw": eMPW, the default on cx6dx. */
	UPSTREAM_EMPW_INLINE, /**< "i_empw": eMPW with inline. */
	UPSTREAM_EMPW_MULTI,  /**< "mt_empw": multi-segment, eMPW for the rest. */
	UPSTREAM_NB_VARIANTS,
};

/** Upstream's name of @p v ("none_empw"), NULL when out of range. */
const char *upstream_variant_name(enum upstream_variant v);

/** Whether variant @p v sends multi-segment packets. */
int upstream_variant_multi_seg(enum upstream_variant v);

/**
 * Create port "upstream_mlx5_<tag>" with Tx burst variant @p v on a device
 * model (virtual clock) of @p profile: a profile name and optionally
 * device-model devargs, "cx5,cap_vport_inline=tcp_udp". Where the device requires
 * inline headers, upstream inlines them (txq_inline_min) and runs only
 * its inline variants without eMPW.
 *
 * @return
 *   0 or a negative errno: -ENOTSUP for a variant upstream never runs on
 *   that device.
 */
int upstream_port_create(const char *tag, const char *profile,
			 enum upstream_variant v, uint16_t *port_id);

/** The device model of the port's Tx queue, NULL for another port. */
struct mlx5_emu *upstream_port_emu(uint16_t port_id);

/** Lkey look-ups that missed upstream's MR cache (should stay 0). */
uint64_t upstream_port_mr_misses(void);

/** Stop and close the port. */
void upstream_port_destroy(uint16_t port_id);

#endif /* UPSTREAM_PORT_H */
