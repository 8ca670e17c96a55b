/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_DEVX_H
#define MLX5_TM_DEVX_H

/**
 * @file
 * Firmware commands of the queue layer, built with the PRM layouts and run
 * through the device glue: transport domain, TIS, CQ, SQ (QUERY_SQ is
 * mlx5_tm_devx_query.h's).
 */

#include <stdbool.h>
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

/**
 * Log a failed command: @p what (the command and what it named), the
 * error and, from @p out, the firmware's status and syndrome.
 */
void mlx5_tm_devx_log_error(const char *what, const void *out, int err);

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

/**
 * CREATE_SQ (in RST); its number in @p sqn. No queue group: an SQ joins
 * one by MODIFY_SQ bit 2 once created (mlx5_tm_devx_sq_modify_sched()),
 * as Linux and rdma-core attach theirs.
 */
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

/** SQ scheduling fields a MODIFY_SQ changes, each only when its flag is set. */
struct mlx5_tm_sq_sched {
	bool set_pp;           /**< Pacing index (modify_bitmask bit 0). */
	uint16_t pp_index;     /**< 0 = unlimited. */
	bool set_group;        /**< Queue group (modify_bitmask bit 2). */
	uint16_t qos_group_id; /**< Queue group element id; 0 = no group. */
};

/**
 * MODIFY_SQ from state @p from to state @p to changing what @p s sets, in
 * one command: RST->RDY into a group, or a ready SQ moved RDY->RDY to
 * another group and/or pacing index while it sends.
 *
 * @return 0 or a negative errno: -EINVAL refused by firmware with status
 *   BAD_PARAM (a field or a combination of fields it does not take),
 *   -EREMOTEIO refused with another status.
 */
int mlx5_tm_devx_sq_modify_sched(struct mlx5_tm_priv *priv,
				 struct mlx5_tm_devx_obj *sq, uint32_t sqn,
				 uint8_t from, uint8_t to,
				 const struct mlx5_tm_sq_sched *s);

#endif /* MLX5_TM_DEVX_H */
