/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_wqe.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devx.h"

void
mlx5_tm_devx_log_error(const char *what, const void *out, int err)
{
	MLX5_TM_LOG(ERR, "%s failed: %s (status 0x%x, syndrome 0x%x)", what,
		    strerror(err), MLX5_GET(mbox_out, out, status),
		    MLX5_GET(mbox_out, out, syndrome));
}

static struct mlx5_tm_devx_obj *
obj_create(struct mlx5_tm_priv *priv, const char *what, const void *in,
	   size_t inlen, void *out, size_t outlen)
{
	struct mlx5_tm_devx_obj *obj;

	obj = priv->glue->devx_obj_create(priv->gdev, in, inlen, out, outlen);
	if (obj == NULL) {
		int err = errno ? errno : EIO;

		mlx5_tm_devx_log_error(what, out, err);
		errno = err;
	}
	return obj;
}

struct mlx5_tm_devx_obj *
mlx5_tm_devx_td_create(struct mlx5_tm_priv *priv, uint32_t *tdn)
{
	uint32_t in[MLX5_ST_SZ_DW(alloc_transport_domain_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(alloc_transport_domain_out)] = { 0 };
	struct mlx5_tm_devx_obj *obj;

	MLX5_SET(alloc_transport_domain_in, in, opcode,
		 MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	obj = obj_create(priv, "ALLOC_TRANSPORT_DOMAIN", in, sizeof(in), out,
			 sizeof(out));
	if (obj != NULL)
		*tdn = MLX5_GET(alloc_transport_domain_out, out,
				transport_domain);
	return obj;
}

struct mlx5_tm_devx_obj *
mlx5_tm_devx_tis_create(struct mlx5_tm_priv *priv, uint32_t tdn,
			uint32_t *tisn)
{
	uint32_t in[MLX5_ST_SZ_DW(create_tis_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_tis_out)] = { 0 };
	void *ctx = MLX5_ADDR_OF(create_tis_in, in, ctx);
	struct mlx5_tm_devx_obj *obj;

	MLX5_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	MLX5_SET(tisc, ctx, transport_domain, tdn);
	MLX5_SET(tisc, ctx, pd, priv->pd->pdn);
	obj = obj_create(priv, "CREATE_TIS", in, sizeof(in), out, sizeof(out));
	if (obj != NULL)
		*tisn = MLX5_GET(create_tis_out, out, tisn);
	return obj;
}

struct mlx5_tm_devx_obj *
mlx5_tm_devx_cq_create(struct mlx5_tm_priv *priv,
		       const struct mlx5_tm_cq_attr *a, uint32_t *cqn)
{
	uint32_t in[MLX5_ST_SZ_DW(create_cq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_cq_out)] = { 0 };
	void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct mlx5_tm_devx_obj *obj;

	MLX5_SET(create_cq_in, in, opcode, MLX5_CMD_OP_CREATE_CQ);
	MLX5_SET(cqc, cqc, cqe_sz, MLX5_CQE_SIZE_64B);
	MLX5_SET(cqc, cqc, log_cq_size, a->log_size);
	MLX5_SET(cqc, cqc, uar_page, a->uar_page);
	MLX5_SET(cqc, cqc, c_eqn, a->eqn);
	MLX5_SET(cqc, cqc, log_page_size, 0);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, a->umem_id);
	MLX5_SET64(cqc, cqc, dbr_addr, a->dbr_off);
	MLX5_SET(create_cq_in, in, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, in, cq_umem_id, a->umem_id);
	MLX5_SET64(create_cq_in, in, cq_umem_offset, a->ring_off);
	obj = obj_create(priv, "CREATE_CQ", in, sizeof(in), out, sizeof(out));
	if (obj != NULL)
		*cqn = MLX5_GET(create_cq_out, out, cqn);
	return obj;
}

struct mlx5_tm_devx_obj *
mlx5_tm_devx_sq_create(struct mlx5_tm_priv *priv,
		       const struct mlx5_tm_sq_attr *a, uint32_t *sqn)
{
	uint32_t in[MLX5_ST_SZ_DW(create_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_sq_out)] = { 0 };
	void *sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	void *wq = MLX5_ADDR_OF(sqc, sqc, wq);
	struct mlx5_tm_devx_obj *obj;

	MLX5_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	MLX5_SET(sqc, sqc, state, MLX5_SQC_STATE_RST);
	MLX5_SET(sqc, sqc, flush_in_error_en, 1);
	MLX5_SET(sqc, sqc, min_wqe_inline_mode, a->min_inline);
	MLX5_SET(sqc, sqc, user_index, a->user_index);
	MLX5_SET(sqc, sqc, ts_format, a->ts_format);
	MLX5_SET(sqc, sqc, allow_multi_pkt_send_wqe, a->allow_mpw);
	MLX5_SET(sqc, sqc, cqn, a->cqn);
	MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, a->pp_index);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, a->tisn);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, a->pdn);
	MLX5_SET(wq, wq, uar_page, a->uar_page);
	MLX5_SET64(wq, wq, dbr_addr, a->dbr_off);
	MLX5_SET(wq, wq, log_wq_stride, MLX5_SEND_WQE_SHIFT);
	MLX5_SET(wq, wq, log_wq_pg_sz, 0);
	MLX5_SET(wq, wq, log_wq_sz, a->log_size);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_id, a->umem_id);
	MLX5_SET(wq, wq, wq_umem_id, a->umem_id);
	MLX5_SET64(wq, wq, wq_umem_offset, a->ring_off);
	obj = obj_create(priv, "CREATE_SQ", in, sizeof(in), out, sizeof(out));
	if (obj != NULL)
		*sqn = MLX5_GET(create_sq_out, out, sqn);
	return obj;
}

static const char *
sq_state_name(uint8_t state)
{
	switch (state) {
	case MLX5_SQC_STATE_RST:
		return "RST";
	case MLX5_SQC_STATE_RDY:
		return "RDY";
	case MLX5_SQC_STATE_ERR:
		return "ERR";
	default:
		return "?";
	}
}

int
mlx5_tm_devx_sq_modify_sched(struct mlx5_tm_priv *priv,
			     struct mlx5_tm_devx_obj *sq, uint32_t sqn,
			     uint8_t from, uint8_t to,
			     const struct mlx5_tm_sq_sched *s)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_sq_out)] = { 0 };
	void *sqc = MLX5_ADDR_OF(modify_sq_in, in, ctx);
	uint64_t bitmask = 0;
	char what[96];
	int ret;

	MLX5_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
	MLX5_SET(modify_sq_in, in, sq_state, from);
	MLX5_SET(modify_sq_in, in, sqn, sqn);
	MLX5_SET(sqc, sqc, state, to);
	if (s->set_pp) {
		bitmask |= MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX;
		MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index,
			 s->pp_index);
	}
	if (s->set_group) {
		bitmask |= MLX5_MODIFY_SQ_BITMASK_QOS_QUEUE_GROUP_ID;
		MLX5_SET(sqc, sqc, qos_queue_group_id, s->qos_group_id);
	}
	MLX5_SET64(modify_sq_in, in, modify_bitmask, bitmask);
	ret = priv->glue->devx_obj_modify(sq, in, sizeof(in), out,
					  sizeof(out));
	if (ret < 0) {
		int n = snprintf(what, sizeof(what), "MODIFY_SQ 0x%x %s->%s",
				 sqn, sq_state_name(from), sq_state_name(to));

		if (s->set_pp)
			n += snprintf(what + n, sizeof(what) - n,
				      ", pacing index %u", s->pp_index);
		if (s->set_group)
			snprintf(what + n, sizeof(what) - n,
				 ", queue group %u", s->qos_group_id);
		mlx5_tm_devx_log_error(what, out, -ret);
		/* A field firmware does not take, told apart (header). */
		if (ret == -EREMOTEIO && MLX5_GET(mbox_out, out, status) ==
		    MLX5_CMD_STAT_BAD_PARAM_ERR)
			ret = -EINVAL;
	}
	return ret;
}

int
mlx5_tm_devx_sq_modify(struct mlx5_tm_priv *priv,
		       struct mlx5_tm_devx_obj *sq, uint32_t sqn,
		       uint8_t from, uint8_t to, bool set_pp,
		       uint16_t pp_index)
{
	struct mlx5_tm_sq_sched s = { .set_pp = set_pp, .pp_index = pp_index };

	return mlx5_tm_devx_sq_modify_sched(priv, sq, sqn, from, to, &s);
}
