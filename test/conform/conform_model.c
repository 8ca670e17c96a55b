/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The PMD half: the queue layer's own command builders, called as the
 * PMD calls them (mlx5_tm_txq.c), on a device opened through the
 * recording glue.
 */

#include <stddef.h>
#include <string.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devx.h"
#include "mlx5_tm_devx_query.h"
#include "mlx5_tm_devx_sched.h"
#include "mlx5_tm_caps_read.h"

#include "conform_model.h"

/*
 * What the builders read of the port: its glue, device and PD, and the
 * ethdev port their messages name (port 0 here).
 */
static struct mlx5_tm_priv *
ours_priv(struct conform_dev *d)
{
	static struct rte_eth_dev_data data;
	static struct rte_eth_dev dev = { .data = &data };
	static struct mlx5_tm_priv priv;

	memset(&priv, 0, sizeof(priv));
	priv.dev = &dev;
	priv.glue = conform_glue();
	priv.gdev = d->gdev;
	priv.emu = d->emu;
	priv.pd = d->pd;
	return &priv;
}

int
ours_caps_read(struct conform_dev *d)
{
	return mlx5_tm_caps_read(ours_priv(d), 100000);
}

void *
ours_create_td(struct conform_dev *d, uint32_t *tdn)
{
	return mlx5_tm_devx_td_create(ours_priv(d), tdn);
}

void *
ours_create_tis(struct conform_dev *d, uint32_t tdn, uint32_t *tisn)
{
	return mlx5_tm_devx_tis_create(ours_priv(d), tdn, tisn);
}

void *
ours_create_cq(struct conform_dev *d, const struct conform_txq_attr *a,
	       uint32_t *cqn)
{
	struct mlx5_tm_cq_attr cqa = {
		.log_size = a->log_cq_size,
		.uar_page = a->uar_page,
		.eqn = a->eqn,
		.umem_id = a->umem_id,
		.ring_off = a->cq_ring_off,
		.dbr_off = a->cq_dbr_off,
	};

	return mlx5_tm_devx_cq_create(ours_priv(d), &cqa, cqn);
}

void *
ours_create_sq(struct conform_dev *d, const struct conform_txq_attr *a,
	       uint32_t *sqn)
{
	struct mlx5_tm_sq_attr sqa = {
		.log_size = a->log_wq_sz,
		.cqn = a->cqn,
		.tisn = a->tisn,
		.pdn = a->pdn,
		.uar_page = a->uar_page,
		.umem_id = a->umem_id,
		.ring_off = a->sq_ring_off,
		.dbr_off = a->sq_dbr_off,
		.pp_index = a->pp_index,
		.min_inline = a->min_inline,
		.user_index = a->user_index,
		.ts_format = a->ts_format,
	};

	return mlx5_tm_devx_sq_create(ours_priv(d), &sqa, sqn);
}

int
ours_modify_sq(struct conform_dev *d, void *sq, uint32_t sqn, uint8_t from,
	       uint8_t to, bool set_pp, uint16_t pp_index)
{
	return mlx5_tm_devx_sq_modify(ours_priv(d), sq, sqn, from, to, set_pp,
				      pp_index);
}

int
ours_sq_state(struct conform_dev *d, void *sq, uint32_t sqn)
{
	return mlx5_tm_devx_sq_state(ours_priv(d), sq, sqn);
}

int
ours_query_sq(void *obj, uint32_t sqn, struct up_sq_ctx *c)
{
	uint32_t in[MLX5_ST_SZ_DW(query_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_sq_out)] = { 0 };
	void *sqc = MLX5_ADDR_OF(query_sq_out, out, sq_context);
	void *wq = MLX5_ADDR_OF(sqc, sqc, wq);
	int ret;

	MLX5_SET(query_sq_in, in, opcode, MLX5_CMD_OP_QUERY_SQ);
	MLX5_SET(query_sq_in, in, sqn, sqn);
	ret = conform_glue()->devx_obj_query(obj, in, sizeof(in), out,
					     sizeof(out));
	if (ret < 0)
		return ret;
	c->state = MLX5_GET(sqc, sqc, state);
	c->ts_format = MLX5_GET(sqc, sqc, ts_format);
	c->min_wqe_inline_mode = MLX5_GET(sqc, sqc, min_wqe_inline_mode);
	c->flush_in_error_en = MLX5_GET(sqc, sqc, flush_in_error_en);
	c->user_index = MLX5_GET(sqc, sqc, user_index);
	c->cqn = MLX5_GET(sqc, sqc, cqn);
	c->tis_num_0 = MLX5_GET(sqc, sqc, tis_num_0);
	c->pp_index = MLX5_GET(sqc, sqc, packet_pacing_rate_limit_index);
	c->pd = MLX5_GET(wq, wq, pd);
	c->uar_page = MLX5_GET(wq, wq, uar_page);
	c->log_wq_sz = MLX5_GET(wq, wq, log_wq_sz);
	c->log_wq_stride = MLX5_GET(wq, wq, log_wq_stride);
	c->dbr_addr = MLX5_GET64(wq, wq, dbr_addr);
	return 0;
}

int
ours_query_cq(void *obj, uint32_t cqn, struct up_cq_ctx *c)
{
	uint32_t in[MLX5_ST_SZ_DW(query_cq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_cq_out)] = { 0 };
	void *cqc = MLX5_ADDR_OF(query_cq_out, out, cq_context);
	int ret;

	MLX5_SET(query_cq_in, in, opcode, MLX5_CMD_OP_QUERY_CQ);
	MLX5_SET(query_cq_in, in, cqn, cqn);
	ret = conform_glue()->devx_obj_query(obj, in, sizeof(in), out,
					     sizeof(out));
	if (ret < 0)
		return ret;
	c->log_cq_size = MLX5_GET(cqc, cqc, log_cq_size);
	c->cqe_sz = MLX5_GET(cqc, cqc, cqe_sz);
	c->uar_page = MLX5_GET(cqc, cqc, uar_page);
	c->c_eqn = MLX5_GET(cqc, cqc, c_eqn);
	c->oi = MLX5_GET(cqc, cqc, oi);
	c->dbr_addr = MLX5_GET64(cqc, cqc, dbr_addr);
	return 0;
}

#define OURS(pfx, base, t, f) \
	{ pfx #f, (base) + offsetof(struct mlx5_ifc_##t##_bits, f), \
	  sizeof(((struct mlx5_ifc_##t##_bits *)0)->f) }

static const struct up_field extra_create_tis[] = {
	OURS("tisc.", offsetof(struct mlx5_ifc_create_tis_in_bits, ctx),
	     tisc, tls_en),
	OURS("tisc.", offsetof(struct mlx5_ifc_create_tis_in_bits, ctx),
	     tisc, pd),
};

const struct up_field *
ours_extra_fields(uint16_t opcode, size_t *n)
{
	switch (opcode) {
	case MLX5_CMD_OP_CREATE_TIS:
		*n = RTE_DIM(extra_create_tis);
		return extra_create_tis;
	default:
		*n = 0;
		return NULL;
	}
}

uint8_t
ours_sq_ts_format(uint8_t cap)
{
	return mlx5_tm_sq_ts_format(cap);
}

void *
ours_sched_create(struct conform_dev *d, uint8_t type, uint32_t parent,
		  uint32_t bw_share, uint32_t max_bw, uint32_t *id)
{
	const struct mlx5_tm_sched_elem_attr a = {
		.element_type = type, .parent_id = parent,
		.bw_share = bw_share, .max_average_bw = max_bw,
	};
	struct mlx5_tm_devx_obj *obj = NULL;

	return mlx5_tm_devx_sched_create(ours_priv(d), &a, &obj, id) == 0 ?
	       obj : NULL;
}

int
ours_sched_modify(struct conform_dev *d, void *obj, uint32_t id,
		  uint8_t type, uint32_t mask, uint32_t bw_share,
		  uint32_t max_bw)
{
	return mlx5_tm_devx_sched_modify(ours_priv(d), obj, id, type, mask,
					 bw_share, max_bw);
}

int
ours_sched_query(struct conform_dev *d, void *obj, uint32_t id,
		 uint8_t *type, uint32_t *parent, uint32_t *bw_share,
		 uint32_t *max_bw)
{
	struct mlx5_tm_sched_elem_attr a;
	int ret = mlx5_tm_devx_sched_query(ours_priv(d), obj, id, &a);

	*type = a.element_type;
	*parent = a.parent_id;
	*bw_share = a.bw_share;
	*max_bw = a.max_average_bw;
	return ret;
}

int
ours_sched_destroy(struct conform_dev *d, void *obj, uint32_t id)
{
	return mlx5_tm_devx_sched_destroy(ours_priv(d), obj, id);
}
