/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devx.h"
#include "mlx5_tm_devx_sched.h"

static const char *
elem_type_name(uint8_t type)
{
	return type == MLX5_SCHED_ELEM_TYPE_TSAR ? "DWRR TSAR" :
	       type == MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP ? "queue group" :
	       "element of unknown type";
}

int
mlx5_tm_devx_sched_create(struct mlx5_tm_priv *priv,
			  const struct mlx5_tm_sched_elem_attr *a,
			  struct mlx5_tm_devx_obj **obj, uint32_t *id)
{
	uint32_t in[MLX5_ST_SZ_DW(create_scheduling_element_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_scheduling_element_out)] = { 0 };
	void *ctx = MLX5_ADDR_OF(create_scheduling_element_in, in,
				 scheduling_context);
	char what[160];
	int err;

	MLX5_SET(create_scheduling_element_in, in, opcode,
		 MLX5_CMD_OP_CREATE_SCHEDULING_ELEMENT);
	MLX5_SET(create_scheduling_element_in, in, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	MLX5_SET(scheduling_context, ctx, element_type, a->element_type);
	if (a->element_type == MLX5_SCHED_ELEM_TYPE_TSAR)
		MLX5_SET(scheduling_context, ctx,
			 element_attributes.tsar.tsar_type,
			 MLX5_TSAR_TYPE_DWRR);
	MLX5_SET(scheduling_context, ctx, parent_element_id, a->parent_id);
	MLX5_SET(scheduling_context, ctx, bw_share, a->bw_share);
	MLX5_SET(scheduling_context, ctx, max_average_bw, a->max_average_bw);
	*obj = priv->glue->devx_obj_create(priv->gdev, in, sizeof(in), out,
					   sizeof(out));
	if (*obj == NULL) {
		err = errno ? errno : EIO;
		snprintf(what, sizeof(what),
			 "CREATE_SCHEDULING_ELEMENT (%s under %u, bw_share %u, max_average_bw %u Mbit/s)",
			 elem_type_name(a->element_type), a->parent_id,
			 a->bw_share, a->max_average_bw);
		mlx5_tm_devx_log_error(what, out, err);
		return -err;
	}
	*id = MLX5_GET(create_scheduling_element_out, out,
		       scheduling_element_id);
	return 0;
}

int
mlx5_tm_devx_sched_modify(struct mlx5_tm_priv *priv,
			  struct mlx5_tm_devx_obj *obj, uint32_t id,
			  uint32_t modify_bitmask, uint32_t bw_share,
			  uint32_t max_average_bw)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_scheduling_element_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_scheduling_element_out)] = { 0 };
	void *ctx = MLX5_ADDR_OF(modify_scheduling_element_in, in,
				 scheduling_context);
	char what[160];
	int ret;

	MLX5_SET(modify_scheduling_element_in, in, opcode,
		 MLX5_CMD_OP_MODIFY_SCHEDULING_ELEMENT);
	MLX5_SET(modify_scheduling_element_in, in, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	MLX5_SET(modify_scheduling_element_in, in, scheduling_element_id, id);
	MLX5_SET(modify_scheduling_element_in, in, modify_bitmask,
		 modify_bitmask);
	MLX5_SET(scheduling_context, ctx, bw_share, bw_share);
	MLX5_SET(scheduling_context, ctx, max_average_bw, max_average_bw);
	ret = priv->glue->devx_obj_modify(obj, in, sizeof(in), out,
					  sizeof(out));
	if (ret < 0) {
		snprintf(what, sizeof(what),
			 "MODIFY_SCHEDULING_ELEMENT %u (modify_bitmask 0x%x, bw_share %u, max_average_bw %u Mbit/s)",
			 id, modify_bitmask, bw_share, max_average_bw);
		mlx5_tm_devx_log_error(what, out, -ret);
	}
	return ret;
}

int
mlx5_tm_devx_sched_query(struct mlx5_tm_priv *priv,
			 struct mlx5_tm_devx_obj *obj, uint32_t id,
			 struct mlx5_tm_sched_elem_attr *a)
{
	uint32_t in[MLX5_ST_SZ_DW(query_scheduling_element_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_scheduling_element_out)] = { 0 };
	void *ctx = MLX5_ADDR_OF(query_scheduling_element_out, out,
				 scheduling_context);
	char what[64];
	int ret;

	MLX5_SET(query_scheduling_element_in, in, opcode,
		 MLX5_CMD_OP_QUERY_SCHEDULING_ELEMENT);
	MLX5_SET(query_scheduling_element_in, in, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	MLX5_SET(query_scheduling_element_in, in, scheduling_element_id, id);
	ret = priv->glue->devx_obj_query(obj, in, sizeof(in), out,
					 sizeof(out));
	if (ret < 0) {
		snprintf(what, sizeof(what), "QUERY_SCHEDULING_ELEMENT %u", id);
		mlx5_tm_devx_log_error(what, out, -ret);
		return ret;
	}
	a->element_type = MLX5_GET(scheduling_context, ctx, element_type);
	a->parent_id = MLX5_GET(scheduling_context, ctx, parent_element_id);
	a->bw_share = MLX5_GET(scheduling_context, ctx, bw_share);
	a->max_average_bw = MLX5_GET(scheduling_context, ctx, max_average_bw);
	return 0;
}

int
mlx5_tm_devx_sched_destroy(struct mlx5_tm_priv *priv,
			   struct mlx5_tm_devx_obj *obj, uint32_t id)
{
	int ret;

	ret = priv->glue->devx_obj_destroy(obj);
	if (ret < 0)
		/* The DEVX destroy call hands back no mailbox to read. */
		MLX5_TM_LOG(ERR,
			    "DESTROY_SCHEDULING_ELEMENT %u failed: %s (DEVX returns no firmware status or syndrome for a destroy)",
			    id, strerror(-ret));
	return ret;
}
