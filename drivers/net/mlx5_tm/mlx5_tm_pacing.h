/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_PACING_H
#define MLX5_TM_PACING_H

/**
 * @file
 * The pacing-entry manager of one port: one pacing-library table sized
 * from the device's rate table, whose new entries become device entries
 * (set_pp_rate_limit_context encoded per the PRM, glue pp_alloc) and whose
 * last release frees them (glue pp_free). The library decides sharing; the
 * device, which also shares identical non-dedicated contexts, then holds
 * exactly one allocation per library entry. Control path only.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pacing_sched.h"
#include "pacing_table.h"
#include "mlx5_tm_glue.h"
#include "mlx5_tm_caps.h"

struct mlx5_tm_pacing_args;

/** The manager (opaque). */
struct mlx5_tm_pacing;

/** Lowest and highest peak rates a shaper may ask, both modes. */
struct mlx5_tm_pacing_range {
	uint64_t byte_min; /**< bytes/s, 0 when pacing is impossible. */
	uint64_t byte_max; /**< bytes/s. */
	uint64_t pkt_min;  /**< packets/s, 0 without WQE-rate pacing. */
	uint64_t pkt_max;  /**< packets/s. */
};

/**
 * Create the manager of a device, with the port's pacing devargs
 * @p conf (kept by reference: they live as long as the port).
 *
 * @return
 *   The manager, or NULL with @p err filled.
 */
struct mlx5_tm_pacing *mlx5_tm_pacing_create(const struct mlx5_tm_glue *glue,
					     struct mlx5_tm_glue_dev *gdev,
					     const struct mlx5_tm_caps *caps,
					     const struct mlx5_tm_pacing_args *conf,
					     struct pacing_error *err);

/** Free every device entry left and the manager. NULL is accepted. */
void mlx5_tm_pacing_destroy(struct mlx5_tm_pacing *pm);

/** The port's pacing options. */
const struct mlx5_tm_pacing_args *
mlx5_tm_pacing_conf(const struct mlx5_tm_pacing *pm);

/**
 * The range of peak rates mlx5_tm_pacing_convert() accepts: every rate in
 * it, none outside (the pacing library's range, enforced exactly).
 */
const struct mlx5_tm_pacing_range *
mlx5_tm_pacing_range(const struct mlx5_tm_pacing *pm);

/**
 * Convert a shaper into the context the device will apply (port defaults
 * and capabilities; a bucket the device cannot honour is refused). The
 * context is in device units: burst_upper_bound in bytes for data rate,
 * in WQEs (packets) for WQE rate.
 *
 * @return
 *   0, or a negative errno with @p err filled.
 */
int mlx5_tm_pacing_convert(const struct mlx5_tm_pacing *pm,
			   const struct pacing_shaper *shaper,
			   struct pacing_result *res, struct pacing_error *err);

/** The library table (read-only use: queries, invariant checks). */
struct pacing_table *mlx5_tm_pacing_table(const struct mlx5_tm_pacing *pm);

/**
 * Acquire an entry of context @p ctx in @p table with the port's sharing
 * policy (dedicated, rate tolerance): the port's table, whose new entries
 * are allocated on the device, or a table of the caller's (to count what
 * a plan needs).
 *
 * @return
 *   0, or a negative errno with @p err filled, nothing changed.
 */
int mlx5_tm_pacing_acquire(const struct mlx5_tm_pacing *pm,
			   struct pacing_table *table,
			   const struct pacing_ctx *ctx,
			   struct pacing_grant *grant,
			   struct pacing_error *err);

/**
 * Release a reference to entry @p entry_id; the device entry is freed
 * with the last one.
 */
void mlx5_tm_pacing_release(struct mlx5_tm_pacing *pm, uint64_t entry_id);

/** Device index of entry @p entry_id; 0 when unknown. */
uint16_t mlx5_tm_pacing_index(const struct mlx5_tm_pacing *pm,
			      uint64_t entry_id);

#endif /* MLX5_TM_PACING_H */
