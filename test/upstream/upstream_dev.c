/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The device side of upstream's Tx queue, through the glue and the PRM
 * layouts of drivers/common/mlx5_tm, the way upstream net/mlx5 creates its
 * Tx CQ and SQ over DEVX (mlx5_devx.c, mlx5_devx_cmds.c).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_emu.h"
#include "mlx5_tm_glue.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_wqe.h"

#include "upstream_dev.h"

/* Doorbell records: CQ at 0, SQ a cache line further. */
#define UD_DBR_SIZE 128u
#define UD_SQ_DBR_OFF 64u

struct ud_priv {
	const struct mlx5_tm_glue *g;
	struct mlx5_tm_glue_dev *dev;
	struct mlx5_tm_pd *pd;
	struct mlx5_tm_uar *uar;
	struct mlx5_tm_devx_obj *td, *tis, *cq, *sq;
	struct mlx5_tm_umem *cq_umem, *sq_umem, *db_umem;
	struct mlx5_tm_mr *mr[UPSTREAM_DEV_MAX_MR];
	uint8_t *dbr;
	uint32_t tisn;
};

static size_t
ud_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

/* Transport domain and TIS, as upstream's shared device context. */
static int
ud_tis(struct ud_priv *p)
{
	uint32_t tin[MLX5_ST_SZ_DW(alloc_transport_domain_in)] = { 0 };
	uint32_t tout[MLX5_ST_SZ_DW(alloc_transport_domain_out)];
	uint32_t in[MLX5_ST_SZ_DW(create_tis_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(create_tis_out)];

	MLX5_SET(alloc_transport_domain_in, tin, opcode,
		 MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	p->td = p->g->devx_obj_create(p->dev, tin, sizeof(tin), tout,
				      sizeof(tout));
	if (p->td == NULL)
		return -errno;
	MLX5_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	MLX5_SET(tisc, MLX5_ADDR_OF(create_tis_in, in, ctx), transport_domain,
		 MLX5_GET(alloc_transport_domain_out, tout, transport_domain));
	p->tis = p->g->devx_obj_create(p->dev, in, sizeof(in), out,
				       sizeof(out));
	if (p->tis == NULL)
		return -errno;
	p->tisn = MLX5_GET(create_tis_out, out, tisn);
	return 0;
}

static int
ud_objects(struct upstream_dev *d, struct ud_priv *p)
{
	uint32_t cin[MLX5_ST_SZ_DW(create_cq_in)] = { 0 };
	uint32_t cout[MLX5_ST_SZ_DW(create_cq_out)];
	uint32_t sin[MLX5_ST_SZ_DW(create_sq_in)] = { 0 };
	uint32_t sout[MLX5_ST_SZ_DW(create_sq_out)];
	uint32_t min[MLX5_ST_SZ_DW(modify_sq_in)] = { 0 };
	uint32_t mout[MLX5_ST_SZ_DW(modify_sq_out)];
	struct mlx5_emu_caps caps;
	void *cqc, *sqc, *wq;
	uint32_t eqn = 0, i;

	for (i = 0; i < (1u << d->log_cq); i++)
		((uint8_t *)d->cq_ring)[(size_t)i * 64 + 63] =
			MLX5_CQE_INVALID << 4 | MLX5_CQE_OWNER_MASK;
	p->cq_umem = p->g->devx_umem_reg(p->dev, d->cq_ring,
					 (size_t)64 << d->log_cq, 0);
	p->sq_umem = p->g->devx_umem_reg(p->dev, d->sq_ring,
					 (size_t)MLX5_SEND_WQE_BB << d->log_sq,
					 0);
	p->db_umem = p->g->devx_umem_reg(p->dev, p->dbr, UD_DBR_SIZE, 0);
	if (p->cq_umem == NULL || p->sq_umem == NULL || p->db_umem == NULL)
		return -errno;
	p->g->devx_query_eqn(p->dev, 0, &eqn);
	MLX5_SET(create_cq_in, cin, opcode, MLX5_CMD_OP_CREATE_CQ);
	cqc = MLX5_ADDR_OF(create_cq_in, cin, cq_context);
	MLX5_SET(cqc, cqc, log_cq_size, d->log_cq);
	MLX5_SET(cqc, cqc, uar_page, p->uar->page_id);
	MLX5_SET(cqc, cqc, c_eqn, eqn);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, p->db_umem->umem_id);
	MLX5_SET64(cqc, cqc, dbr_addr, 0);
	MLX5_SET(create_cq_in, cin, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, cin, cq_umem_id, p->cq_umem->umem_id);
	p->cq = p->g->devx_obj_create(p->dev, cin, sizeof(cin), cout,
				      sizeof(cout));
	if (p->cq == NULL)
		return -errno;
	/* As upstream's mlx5_txq_create_devx_sq_resources(). */
	mlx5_emu_get_caps(d->emu, &caps);
	MLX5_SET(create_sq_in, sin, opcode, MLX5_CMD_OP_CREATE_SQ);
	sqc = MLX5_ADDR_OF(create_sq_in, sin, ctx);
	MLX5_SET(sqc, sqc, state, MLX5_SQC_STATE_RST);
	MLX5_SET(sqc, sqc, flush_in_error_en, 1);
	MLX5_SET(sqc, sqc, allow_multi_pkt_send_wqe, caps.mpw != 0);
	MLX5_SET(sqc, sqc, min_wqe_inline_mode,
		 caps.wqe_inline_mode == MLX5_CAP_INLINE_MODE_VPORT_CONTEXT ?
		 caps.vport_inline_mode : 0);
	MLX5_SET(sqc, sqc, ts_format, 1);
	MLX5_SET(sqc, sqc, cqn, MLX5_GET(create_cq_out, cout, cqn));
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, p->tisn);
	wq = MLX5_ADDR_OF(sqc, sqc, wq);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, p->pd->pdn);
	MLX5_SET(wq, wq, uar_page, p->uar->page_id);
	MLX5_SET64(wq, wq, dbr_addr, UD_SQ_DBR_OFF);
	MLX5_SET(wq, wq, log_wq_stride, MLX5_SEND_WQE_SHIFT);
	MLX5_SET(wq, wq, log_wq_sz, d->log_sq);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_id, p->db_umem->umem_id);
	MLX5_SET(wq, wq, wq_umem_id, p->sq_umem->umem_id);
	p->sq = p->g->devx_obj_create(p->dev, sin, sizeof(sin), sout,
				      sizeof(sout));
	if (p->sq == NULL)
		return -errno;
	d->sqn = MLX5_GET(create_sq_out, sout, sqn);
	MLX5_SET(modify_sq_in, min, opcode, MLX5_CMD_OP_MODIFY_SQ);
	MLX5_SET(modify_sq_in, min, sq_state, MLX5_SQC_STATE_RST);
	MLX5_SET(modify_sq_in, min, sqn, d->sqn);
	MLX5_SET(sqc, MLX5_ADDR_OF(modify_sq_in, min, ctx), state,
		 MLX5_SQC_STATE_RDY);
	return p->g->devx_obj_modify(p->sq, min, sizeof(min), mout,
				     sizeof(mout));
}

/* "profile[,key=value...]": the profile and device-model devargs. */
static int
ud_config(struct mlx5_emu_config *cfg, const char *spec)
{
	char buf[256], err[128];
	char *tok, *save = NULL, *eq;
	int ret;

	if (snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf))
		return -EINVAL;
	tok = strtok_r(buf, ",", &save);
	if (tok == NULL)
		return -EINVAL;
	ret = mlx5_emu_config_init(cfg, tok);
	while (ret == 0 && (tok = strtok_r(NULL, ",", &save)) != NULL) {
		eq = strchr(tok, '=');
		if (eq == NULL)
			return -EINVAL;
		*eq = '\0';
		ret = mlx5_emu_config_set(cfg, tok, eq + 1, err, sizeof(err));
	}
	if (ret == 0)
		ret = mlx5_emu_config_set(cfg, "clock", "virtual", err,
					  sizeof(err));
	return ret;
}

int
upstream_dev_open(struct upstream_dev *d, const char *spec)
{
	struct mlx5_emu_config cfg;
	struct mlx5_emu_caps caps;
	struct ud_priv *p;
	int ret;

	memset(d, 0, sizeof(*d));
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	d->priv = p;
	p->g = &mlx5_tm_glue_emu;
	ret = ud_config(&cfg, spec);
	if (ret < 0)
		goto fail;
	p->dev = p->g->open_device(cfg.profile, &cfg);
	if (p->dev == NULL) {
		ret = -errno;
		goto fail;
	}
	d->emu = mlx5_emu_from_glue(p->dev);
	/* As upstream's mlx5_set_min_inline() with DevX capabilities. */
	mlx5_emu_get_caps(d->emu, &caps);
	if (caps.wqe_inline_mode == MLX5_CAP_INLINE_MODE_L2)
		d->min_inline = MLX5_INLINE_MODE_L2;
	else if (caps.wqe_inline_mode == MLX5_CAP_INLINE_MODE_VPORT_CONTEXT)
		d->min_inline = caps.vport_inline_mode;
	p->pd = p->g->pd_alloc(p->dev);
	p->uar = p->g->devx_uar_alloc(p->dev);
	if (p->pd == NULL || p->uar == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	d->uar_reg = p->uar->reg_addr;
	ret = ud_tis(p);
	if (ret == 0)
		return 0;
fail:
	upstream_dev_close(d);
	return ret < 0 ? ret : -EIO;
}

int
upstream_dev_queue(struct upstream_dev *d, uint32_t log_sq, uint32_t log_cq)
{
	struct ud_priv *p = d->priv;

	if (p == NULL || p->sq != NULL || d->sq_ring != NULL)
		return -EINVAL;
	d->log_sq = log_sq;
	d->log_cq = log_cq;
	d->sq_ring = aligned_alloc(4096, ud_round((size_t)MLX5_SEND_WQE_BB <<
						  log_sq));
	d->cq_ring = aligned_alloc(4096, ud_round((size_t)64 << log_cq));
	p->dbr = aligned_alloc(64, UD_DBR_SIZE);
	if (d->sq_ring == NULL || d->cq_ring == NULL || p->dbr == NULL)
		return -ENOMEM;
	memset(d->sq_ring, 0, (size_t)MLX5_SEND_WQE_BB << log_sq);
	memset(d->cq_ring, 0, (size_t)64 << log_cq);
	memset(p->dbr, 0, UD_DBR_SIZE);
	d->cq_dbrec = (volatile uint32_t *)(void *)p->dbr;
	d->sq_dbrec = (volatile uint32_t *)(void *)(p->dbr + UD_SQ_DBR_OFF);
	return ud_objects(d, p);
}

int
upstream_dev_reg(struct upstream_dev *d, void *addr, size_t len)
{
	struct ud_priv *p = d->priv;
	struct mlx5_tm_mr *mr;

	if (d->nb_mr == UPSTREAM_DEV_MAX_MR)
		return -ENOSPC;
	mr = p->g->reg_mr(p->pd, addr, len, MLX5_TM_ACCESS_LOCAL_WRITE);
	if (mr == NULL)
		return -errno;
	p->mr[d->nb_mr] = mr;
	d->mr_start[d->nb_mr] = (uintptr_t)addr;
	d->mr_end[d->nb_mr] = (uintptr_t)addr + len;
	d->mr_lkey[d->nb_mr] = mr->lkey;
	d->nb_mr++;
	return 0;
}

void
upstream_dev_close(struct upstream_dev *d)
{
	struct ud_priv *p = d->priv;
	unsigned int i;

	if (p == NULL)
		return;
	for (i = 0; i < d->nb_mr; i++)
		p->g->dereg_mr(p->mr[i]);
	if (p->sq != NULL)
		p->g->devx_obj_destroy(p->sq);
	if (p->cq != NULL)
		p->g->devx_obj_destroy(p->cq);
	if (p->tis != NULL)
		p->g->devx_obj_destroy(p->tis);
	if (p->td != NULL)
		p->g->devx_obj_destroy(p->td);
	if (p->cq_umem != NULL)
		p->g->devx_umem_dereg(p->cq_umem);
	if (p->sq_umem != NULL)
		p->g->devx_umem_dereg(p->sq_umem);
	if (p->db_umem != NULL)
		p->g->devx_umem_dereg(p->db_umem);
	if (p->uar != NULL)
		p->g->devx_uar_free(p->uar);
	if (p->pd != NULL)
		p->g->pd_free(p->pd);
	if (p->dev != NULL)
		p->g->close_device(p->dev);
	free(d->sq_ring);
	free(d->cq_ring);
	free(p->dbr);
	free(p);
	memset(d, 0, sizeof(*d));
}
