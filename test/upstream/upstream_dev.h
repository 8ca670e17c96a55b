/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef UPSTREAM_DEV_H
#define UPSTREAM_DEV_H

/**
 * @file
 * The device side of upstream's Tx queue: a device model opened through
 * the glue (mlx5_tm_glue_emu), with a CQ and an SQ made by firmware
 * commands as upstream net/mlx5 makes them over DEVX (64-byte CQEs,
 * flush_in_error_en, allow_multi_pkt_send_wqe, the vport's inline mode).
 *
 * Plain C types only: the file that fills upstream's struct mlx5_txq_data
 * includes upstream's PRM headers, which cannot meet ours in one file.
 */

#include <stddef.h>
#include <stdint.h>

struct mlx5_emu;

#define UPSTREAM_DEV_MAX_MR 8

/** An emulated device, then a CQ and an SQ on it (SQ in RDY). */
struct upstream_dev {
	struct mlx5_emu *emu;   /**< The model (mlx5_emu.h). */
	/**
	 * Headers the device requires inline in every SEND, as upstream's
	 * mlx5_set_min_inline() reads the capabilities: 0 none, 1 L2, 2 IP,
	 * 3 TCP/UDP (MLX5_INLINE_MODE_*).
	 */
	uint8_t min_inline;
	void *sq_ring;          /**< 2^log_sq WQEBBs. */
	void *cq_ring;          /**< 2^log_cq 64-byte CQEs, owner 1, invalid. */
	volatile uint32_t *sq_dbrec; /**< SQ doorbell record (2 words). */
	volatile uint32_t *cq_dbrec; /**< CQ doorbell record (2 words). */
	void *uar_reg;          /**< Doorbell register of the UAR page. */
	uint32_t sqn;
	uint32_t log_sq;
	uint32_t log_cq;
	unsigned int nb_mr;
	uintptr_t mr_start[UPSTREAM_DEV_MAX_MR];
	uintptr_t mr_end[UPSTREAM_DEV_MAX_MR];
	uint32_t mr_lkey[UPSTREAM_DEV_MAX_MR];
	void *priv;             /**< Objects to release. */
};

/**
 * Open a device (virtual clock) with a PD, a UAR page and a TIS.
 *
 * @param spec
 *   "profile[,key=value...]": a profile and device-model devargs
 *   ("cx5,cap_vport_inline=tcp_udp").
 * @return
 *   0 or a negative errno; on failure nothing is left.
 */
int upstream_dev_open(struct upstream_dev *d, const char *spec);

/**
 * Make the queue: a CQ of 2^@p log_cq CQEs and an SQ of 2^@p log_sq
 * WQEBBs, moved to RDY.
 *
 * @return
 *   0 or a negative errno (upstream_dev_close() releases what was made).
 */
int upstream_dev_queue(struct upstream_dev *d, uint32_t log_sq,
		       uint32_t log_cq);

/**
 * Register [@p addr, @p addr + @p len) as a memory region of the queue's
 * PD and note its lkey in @p d.
 *
 * @return
 *   0 or a negative errno (-ENOSPC: UPSTREAM_DEV_MAX_MR reached).
 */
int upstream_dev_reg(struct upstream_dev *d, void *addr, size_t len);

/** Release everything upstream_dev_open() and _reg() took. */
void upstream_dev_close(struct upstream_dev *d);

#endif /* UPSTREAM_DEV_H */
