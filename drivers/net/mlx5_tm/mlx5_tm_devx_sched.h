/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_DEVX_SCHED_H
#define MLX5_TM_DEVX_SCHED_H

/**
 * @file
 * NIC scheduling elements (SCHEDULING_HIERARCHY_NIC) through the device
 * glue: DWRR TSARs and queue groups, each a general object of type
 * SCHEDULING_ELEMENT (0x26) as libmlx5's mlx5dv_sched_node_* and
 * mlx5dv_sched_leaf_* build it, made a DEVX object by devx_obj_create
 * (modified and queried through the object, destroyed with it: the
 * kernel sends DESTROY_GENERAL_OBJECT). SQs join a queue group through
 * mlx5_tm_devx_sq_modify_sched() (MODIFY_SQ, modify_bitmask bit 2).
 */

#include <stdint.h>

struct mlx5_tm_priv;
struct mlx5_tm_devx_obj;

/** What a scheduling element is and holds. */
struct mlx5_tm_sched_elem_attr {
	uint8_t element_type;    /**< MLX5_SCHED_ELEM_TYPE_TSAR or _QUEUE_GROUP. */
	uint32_t parent_id;      /**< Parent element id; 0 = the device root. */
	uint32_t bw_share;       /**< DWRR weight among siblings; 0 = default. */
	uint32_t max_average_bw; /**< Ceiling in Mbit/s; 0 = unlimited. */
};

/**
 * CREATE_GENERAL_OBJECT of a scheduling element: a DWRR TSAR or a queue
 * group; its bw_share and max_average_bw named in modify_field_select
 * unless its parent is the device root (libmlx5's rule).
 *
 * @param[out] obj
 *   The element's handle, for modify, query and destroy.
 * @param[out] id
 *   Its element id, the out header's obj_id (a TSAR's id is its
 *   children's parent_id, a queue group's the SQs' qos_queue_group_id).
 * @return
 *   0, or a negative errno (-EREMOTEIO: refused by firmware, logged with
 *   its status and syndrome).
 */
int mlx5_tm_devx_sched_create(struct mlx5_tm_priv *priv,
			      const struct mlx5_tm_sched_elem_attr *a,
			      struct mlx5_tm_devx_obj **obj, uint32_t *id);

/**
 * MODIFY_GENERAL_OBJECT of element @p id of type @p element_type: change
 * what @p modify_bitmask names (modify_field_select,
 * MLX5_MODIFY_SCHED_ELEM_BITMASK_* of mlx5_tm_prm.h) to @p bw_share and
 * @p max_average_bw (Mbit/s).
 *
 * @return
 *   0 or a negative errno (-EREMOTEIO: refused by firmware, logged).
 */
int mlx5_tm_devx_sched_modify(struct mlx5_tm_priv *priv,
			      struct mlx5_tm_devx_obj *obj, uint32_t id,
			      uint8_t element_type, uint32_t modify_bitmask,
			      uint32_t bw_share, uint32_t max_average_bw);

/**
 * QUERY_GENERAL_OBJECT: what firmware holds for element @p id.
 *
 * @return
 *   0 with @p a filled, or a negative errno (logged).
 */
int mlx5_tm_devx_sched_query(struct mlx5_tm_priv *priv,
			     struct mlx5_tm_devx_obj *obj, uint32_t id,
			     struct mlx5_tm_sched_elem_attr *a);

/**
 * Destroy element @p id (the kernel's DESTROY_GENERAL_OBJECT); on success
 * @p obj is freed.
 * Children and SQs go first (bottom-up).
 *
 * @return
 *   0, or a negative errno (logged; @p obj stays valid). DEVX returns
 *   no firmware syndrome for a destroy, so none is logged.
 */
int mlx5_tm_devx_sched_destroy(struct mlx5_tm_priv *priv,
			       struct mlx5_tm_devx_obj *obj, uint32_t id);

#endif /* MLX5_TM_DEVX_SCHED_H */
