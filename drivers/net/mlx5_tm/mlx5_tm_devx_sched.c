/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * NIC scheduling elements as general objects (obj_type
 * SCHEDULING_ELEMENT), built field for field as rdma-core's libmlx5
 * builds them for mlx5dv_sched_node_create()/mlx5dv_sched_leaf_create()
 * and their modify: the general-object header, modify_field_select with
 * the values it names, scheduling_hierarchy NIC, the element type, its
 * parent, tsar_type DWRR. libmlx5 keeps a leaf's element id to itself
 * (struct mlx5dv_sched_leaf is opaque) and attaches leaves to ibv_qps
 * only, while our SQs are DEVX objects that need the id: so the same
 * commands go through mlx5dv_devx_obj_create(), and the id comes back in
 * the general-object out header. The legacy opcodes 0x782-0x785, which
 * carry no uid, are not used.
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

/*
 * The general-object header and the sched_elem of @p in: @p opcode on
 * element @p id (0 for a create), values of @p select, as libmlx5's
 * mlx5dv_sched_nic_create()/_modify() set them.
 */
static void
sched_elem_build(void *in, uint16_t opcode, uint32_t id, uint8_t type,
		 uint32_t parent_id, uint32_t select, uint32_t bw_share,
		 uint32_t max_average_bw)
{
	void *hdr = MLX5_ADDR_OF(create_sched_elem_in, in, hdr);
	void *elem = MLX5_ADDR_OF(create_sched_elem_in, in, sched_elem);
	void *ctx = MLX5_ADDR_OF(sched_elem, elem, sched_context);

	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode, opcode);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_id, id);
	MLX5_SET64(sched_elem, elem, modify_field_select, select);
	MLX5_SET(sched_elem, elem, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	MLX5_SET(scheduling_context, ctx, element_type, type);
	MLX5_SET(scheduling_context, ctx, parent_element_id, parent_id);
	if (select & MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE)
		MLX5_SET(scheduling_context, ctx, bw_share, bw_share);
	if (select & MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW)
		MLX5_SET(scheduling_context, ctx, max_average_bw,
			 max_average_bw);
	/* libmlx5 names DWRR for both types (0: a group ignores it). */
	MLX5_SET(scheduling_context, ctx, element_attributes.tsar.tsar_type,
		 MLX5_TSAR_TYPE_DWRR);
}

int
mlx5_tm_devx_sched_create(struct mlx5_tm_priv *priv,
			  const struct mlx5_tm_sched_elem_attr *a,
			  struct mlx5_tm_devx_obj **obj, uint32_t *id)
{
	uint32_t in[MLX5_ST_SZ_DW(create_sched_elem_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = { 0 };
	/* As libmlx5: a child of the device root names no value. */
	uint32_t select = a->parent_id == 0 ? 0 :
		MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE |
		MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW;
	char what[192];
	int err;

	sched_elem_build(in, MLX5_CMD_OP_CREATE_GENERAL_OBJECT, 0,
			 a->element_type, a->parent_id, select, a->bw_share,
			 a->max_average_bw);
	*obj = priv->glue->devx_obj_create(priv->gdev, in, sizeof(in), out,
					   sizeof(out));
	if (*obj == NULL) {
		err = errno ? errno : EIO;
		snprintf(what, sizeof(what),
			 "CREATE_GENERAL_OBJECT SCHEDULING_ELEMENT (%s under %u, bw_share %u, max_average_bw %u Mbit/s)",
			 elem_type_name(a->element_type), a->parent_id,
			 a->bw_share, a->max_average_bw);
		mlx5_tm_devx_log_error(what, out, err);
		return -err;
	}
	*id = MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	return 0;
}

int
mlx5_tm_devx_sched_modify(struct mlx5_tm_priv *priv,
			  struct mlx5_tm_devx_obj *obj, uint32_t id,
			  uint8_t element_type, uint32_t modify_bitmask,
			  uint32_t bw_share, uint32_t max_average_bw)
{
	uint32_t in[MLX5_ST_SZ_DW(create_sched_elem_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(general_obj_out_cmd_hdr)] = { 0 };
	char what[192];
	int ret;

	sched_elem_build(in, MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, id,
			 element_type, 0, modify_bitmask, bw_share,
			 max_average_bw);
	ret = priv->glue->devx_obj_modify(obj, in, sizeof(in), out,
					  sizeof(out));
	if (ret < 0) {
		snprintf(what, sizeof(what),
			 "MODIFY_GENERAL_OBJECT SCHEDULING_ELEMENT %u (modify_field_select 0x%x, bw_share %u, max_average_bw %u Mbit/s)",
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
	uint32_t in[MLX5_ST_SZ_DW(general_obj_in_cmd_hdr)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_sched_elem_out)] = { 0 };
	void *ctx = MLX5_ADDR_OF(query_sched_elem_out, out,
				 sched_elem.sched_context);
	char what[64];
	int ret;

	MLX5_SET(general_obj_in_cmd_hdr, in, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT);
	MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	ret = priv->glue->devx_obj_query(obj, in, sizeof(in), out,
					 sizeof(out));
	if (ret < 0) {
		snprintf(what, sizeof(what),
			 "QUERY_GENERAL_OBJECT SCHEDULING_ELEMENT %u", id);
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
			    "DESTROY_GENERAL_OBJECT SCHEDULING_ELEMENT %u failed: %s (DEVX returns no firmware status or syndrome for a destroy)",
			    id, strerror(-ret));
	return ret;
}
