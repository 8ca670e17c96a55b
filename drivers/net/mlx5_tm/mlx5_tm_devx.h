/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_DEVX_H
#define MLX5_TM_DEVX_H

/**
 * @file
 * Firmware commands of the queue layer, built with the PRM layouts and run
 * through the device glue: transport domain, TIS, CQ, SQ.
 */

#include <stdint.h>

struct mlx5_tm_priv;
struct mlx5_tm_devx_obj;

/** Attributes of a CQ in registered user memory. */
struct mlx5_tm_cq_attr {
	uint32_t log_size;   /**< log2 of the number of 64-byte CQEs. */
	uint32_t uar_page;
	uint32_t eqn;
	uint32_t umem_id;    /**< Ring and doorbell record umem. */
	uint64_t ring_off;   /**< Offset of the CQEs in the umem. */
	uint64_t dbr_off;    /**< Offset of the doorbell record. */
};

/** Attributes of an SQ in registered user memory. */
struct mlx5_tm_sq_attr {
	uint32_t log_size;   /**< log2 of the number of WQEBBs. */
	uint32_t cqn;
	uint32_t tisn;
	uint32_t pdn;
	uint32_t uar_page;
	uint32_t umem_id;
	uint64_t ring_off;
	uint64_t dbr_off;
	uint16_t pp_index;   /**< Pacing index (0 = unlimited). */
	uint8_t min_inline;  /**< MLX5_INLINE_MODE_*. */
	uint32_t user_index;
	uint8_t ts_format;   /**< MLX5_SQC_TIMESTAMP_FORMAT_*. */
	bool allow_mpw;      /**< allow_multi_pkt_send_wqe (eMPW). */
};

/** ALLOC_TRANSPORT_DOMAIN; its number in @p tdn. */
struct mlx5_tm_devx_obj *mlx5_tm_devx_td_create(struct mlx5_tm_priv *priv,
						uint32_t *tdn);

/** CREATE_TIS in transport domain @p tdn; its number in @p tisn. */
struct mlx5_tm_devx_obj *mlx5_tm_devx_tis_create(struct mlx5_tm_priv *priv,
						 uint32_t tdn, uint32_t *tisn);

/** CREATE_CQ; its number in @p cqn. */
struct mlx5_tm_devx_obj *mlx5_tm_devx_cq_create(struct mlx5_tm_priv *priv,
						const struct mlx5_tm_cq_attr *a,
						uint32_t *cqn);

/** CREATE_SQ (in RST); its number in @p sqn. */
struct mlx5_tm_devx_obj *mlx5_tm_devx_sq_create(struct mlx5_tm_priv *priv,
						const struct mlx5_tm_sq_attr *a,
						uint32_t *sqn);

/**
 * MODIFY_SQ from state @p from to state @p to; with @p set_pp, also the
 * pacing index @p pp_index (modify_bitmask bit 0).
 *
 * @return 0 or a negative errno (-EREMOTEIO: refused by firmware).
 */
int mlx5_tm_devx_sq_modify(struct mlx5_tm_priv *priv,
			   struct mlx5_tm_devx_obj *sq, uint32_t sqn,
			   uint8_t from, uint8_t to, bool set_pp,
			   uint16_t pp_index);

/** QUERY_SQ: the SQ's state (MLX5_SQC_STATE_*) or a negative errno. */
int mlx5_tm_devx_sq_state(struct mlx5_tm_priv *priv,
			  struct mlx5_tm_devx_obj *sq, uint32_t sqn);

#endif /* MLX5_TM_DEVX_H */
