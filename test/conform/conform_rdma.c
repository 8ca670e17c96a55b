/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * rdma-core's half of the scheduling-element comparisons: its layouts
 * (mlx5_ifc.h from Debian's rdma-core source package) with its own DEVX
 * accessors (mlx5dv.h). The commands are filled as libmlx5's
 * mlx5dv_sched_nic_create()/mlx5dv_sched_nic_modify() fill them: the
 * general-object header, modify_field_select = the attribute flags, the
 * values it names, scheduling_hierarchy NIC, the element type, the
 * parent, tsar_type DWRR for both types. A query answer is read as
 * rdma-core lays out every query of a general object: the out header,
 * then the object (here sched_elem).
 */

#include <stdio.h>
#include <string.h>

#include <infiniband/mlx5dv.h>
#include "providers/mlx5/mlx5_ifc.h"

#include "conform_rdma.h"

/* rdma-core's query layout for other objects, applied to an element. */
struct mlx5_ifc_conform_query_sched_elem_out_bits {
	struct mlx5_ifc_general_obj_out_cmd_hdr_bits hdr;
	struct mlx5_ifc_sched_elem_bits sched_elem;
};

/* A named field: bit offset and width in the command's layout. */
struct rdma_field {
	const char *name;
	size_t off;
	size_t width;
};

#define HDR_F(f) { "hdr." #f, __devx_bit_off(general_obj_in_cmd_hdr, f), \
		   __devx_bit_sz(general_obj_in_cmd_hdr, f) }
#define ELEM_F(f) { #f, __devx_bit_off(create_sched_elem_in, sched_elem.f), \
		    __devx_bit_sz(create_sched_elem_in, sched_elem.f) }

static const struct rdma_field hdr_fields[] = {
	HDR_F(opcode), HDR_F(uid), HDR_F(obj_type), HDR_F(obj_id),
	HDR_F(log_obj_range),
};

static const struct rdma_field elem_fields[] = {
	HDR_F(opcode), HDR_F(uid), HDR_F(obj_type), HDR_F(obj_id),
	HDR_F(log_obj_range),
	ELEM_F(modify_field_select),
	ELEM_F(scheduling_hierarchy),
	ELEM_F(sched_context.element_type),
	ELEM_F(sched_context.sched_elem_attr.tsar.tsar_type),
	ELEM_F(sched_context.parent_element_id),
	ELEM_F(sched_context.bw_share),
	ELEM_F(sched_context.max_average_bw),
};

bool
rdma_ifc_present(const char **why)
{
	*why = NULL;
	return true;
}

size_t
rdma_sched_in_size(enum rdma_sched_cmd cmd)
{
	return cmd == RDMA_SCHED_CREATE || cmd == RDMA_SCHED_MODIFY ?
	       DEVX_ST_SZ_BYTES(create_sched_elem_in) :
	       DEVX_ST_SZ_BYTES(general_obj_in_cmd_hdr);
}

size_t
rdma_sched_query_out_size(void)
{
	return DEVX_ST_SZ_BYTES(conform_query_sched_elem_out);
}

static const uint16_t opcodes[] = {
	[RDMA_SCHED_CREATE] = MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
	[RDMA_SCHED_MODIFY] = MLX5_CMD_OP_MODIFY_GENERAL_OBJECT,
	[RDMA_SCHED_QUERY] = MLX5_CMD_OP_QUERY_GENERAL_OBJECT,
	[RDMA_SCHED_DESTROY] = MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
};

size_t
rdma_sched_build(enum rdma_sched_cmd cmd, uint32_t id,
		 const struct rdma_sched_attr *a, void *in)
{
	size_t len = rdma_sched_in_size(cmd);
	void *attr;

	memset(in, 0, len);
	attr = DEVX_ADDR_OF(create_sched_elem_in, in, hdr);
	DEVX_SET(general_obj_in_cmd_hdr, attr, opcode, opcodes[cmd]);
	DEVX_SET(general_obj_in_cmd_hdr, attr, obj_type,
		 MLX5_OBJ_TYPE_SCHEDULING_ELEMENT);
	if (cmd != RDMA_SCHED_CREATE)
		DEVX_SET(general_obj_in_cmd_hdr, attr, obj_id, id);
	if (cmd == RDMA_SCHED_QUERY || cmd == RDMA_SCHED_DESTROY)
		return len;
	attr = DEVX_ADDR_OF(create_sched_elem_in, in, sched_elem);
	DEVX_SET64(sched_elem, attr, modify_field_select, a->flags);
	DEVX_SET(sched_elem, attr, scheduling_hierarchy,
		 MLX5_SCHED_HIERARCHY_NIC);
	attr = DEVX_ADDR_OF(create_sched_elem_in, in, sched_elem.sched_context);
	DEVX_SET(sched_context, attr, element_type, a->element_type);
	/* libmlx5's modify names no parent (it cannot change). */
	if (cmd == RDMA_SCHED_CREATE)
		DEVX_SET(sched_context, attr, parent_element_id,
			 a->parent_id);
	if (a->flags & 0x1)
		DEVX_SET(sched_context, attr, bw_share, a->bw_share);
	if (a->flags & 0x2)
		DEVX_SET(sched_context, attr, max_average_bw, a->max_avg_bw);
	attr = DEVX_ADDR_OF(create_sched_elem_in, in,
			    sched_elem.sched_context.sched_elem_attr);
	DEVX_SET(sched_elem_attr_tsar, attr, tsar_type,
		 MLX5_SCHED_TSAR_TYPE_DWRR);
	return len;
}

/* The bits [off, off + width) of @p b as a string of 0/1 differences. */
static bool
bits_differ(const uint8_t *x, const uint8_t *y, size_t off, size_t width)
{
	size_t i;

	for (i = off; i < off + width; i++)
		if (((x[i / 8] ^ y[i / 8]) >> (7 - i % 8)) & 1)
			return true;
	return false;
}

static const struct rdma_field *
fields_of(enum rdma_sched_cmd cmd, size_t *n)
{
	if (cmd == RDMA_SCHED_CREATE || cmd == RDMA_SCHED_MODIFY) {
		*n = sizeof(elem_fields) / sizeof(elem_fields[0]);
		return elem_fields;
	}
	*n = sizeof(hdr_fields) / sizeof(hdr_fields[0]);
	return hdr_fields;
}

unsigned int
rdma_sched_diff(enum rdma_sched_cmd cmd, const void *ours,
		const void *theirs, char *names, size_t len)
{
	const uint8_t *x = ours, *y = theirs;
	size_t n, i, used = 0, bits = rdma_sched_in_size(cmd) * 8;
	const struct rdma_field *f = fields_of(cmd, &n);
	uint8_t mx[512], my[512];
	unsigned int differ = 0;

	names[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!bits_differ(x, y, f[i].off, f[i].width))
			continue;
		differ++;
		used += (size_t)snprintf(names + used, used < len ? len - used : 0,
					 "%s%s", differ > 1 ? " " : "",
					 f[i].name);
	}
	/* Outside the named fields: every bit is reserved in the layout. */
	memcpy(mx, x, bits / 8);
	memcpy(my, y, bits / 8);
	for (i = 0; i < n; i++) {
		size_t b;

		for (b = f[i].off; b < f[i].off + f[i].width; b++) {
			mx[b / 8] &= (uint8_t)~(1u << (7 - b % 8));
			my[b / 8] &= (uint8_t)~(1u << (7 - b % 8));
		}
	}
	if (memcmp(mx, my, bits / 8) != 0) {
		differ++;
		snprintf(names + used, used < len ? len - used : 0,
			 "%sother bits", differ > 1 ? " " : "");
	}
	return differ;
}

bool
rdma_sched_mutate(enum rdma_sched_cmd cmd, void *buf, const char *field)
{
	size_t n, i, b;
	const struct rdma_field *f = fields_of(cmd, &n);
	uint8_t *p = buf;

	for (i = 0; i < n; i++) {
		if (strcmp(f[i].name, field) != 0)
			continue;
		for (b = f[i].off; b < f[i].off + f[i].width; b++)
			p[b / 8] ^= (uint8_t)(1u << (7 - b % 8));
		return true;
	}
	return false;
}

void
rdma_hdr_read(const void *in, uint16_t *opcode, uint16_t *obj_type,
	      uint32_t *obj_id)
{
	*opcode = (uint16_t)DEVX_GET(general_obj_in_cmd_hdr, in, opcode);
	*obj_type = (uint16_t)DEVX_GET(general_obj_in_cmd_hdr, in, obj_type);
	*obj_id = DEVX_GET(general_obj_in_cmd_hdr, in, obj_id);
}

uint32_t
rdma_out_obj_id(const void *out)
{
	return DEVX_GET(general_obj_out_cmd_hdr, out, obj_id);
}

void
rdma_query_read(const void *out, struct rdma_sched_attr *a,
		uint8_t *hierarchy)
{
	const void *elem = DEVX_ADDR_OF(conform_query_sched_elem_out, out,
					sched_elem);
	const void *ctx = DEVX_ADDR_OF(sched_elem, elem, sched_context);

	*hierarchy = (uint8_t)DEVX_GET(sched_elem, elem, scheduling_hierarchy);
	a->element_type = (uint8_t)DEVX_GET(sched_context, ctx, element_type);
	a->parent_id = DEVX_GET(sched_context, ctx, parent_element_id);
	a->bw_share = DEVX_GET(sched_context, ctx, bw_share);
	a->max_avg_bw = DEVX_GET(sched_context, ctx, max_average_bw);
	a->flags = 0;
}
