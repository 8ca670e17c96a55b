/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The upstream half: NVIDIA's mlx5 command builders and parsers, as
 * Debian's librte_common_mlx5 (DPDK 22.11) ships them, run on the device
 * model through upstream's own glue pointer (mlx5_glue), and the PRM
 * layouts of upstream's mlx5_prm.h to read command buffers with.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_memory.h>

#include <mlx5_glue.h>
#include <mlx5_prm.h>
#include <mlx5_common.h>
#include <mlx5_devx_cmds.h>
#include <mlx5_common_devx.h>

#include "conform.h"
#include "conform_upstream.h"

/* ---- upstream's glue table, over the device model ---- */

/*
 * rdma-core conventions, which upstream expects: 0 or a positive errno
 * (errno set too), NULL with errno for constructors. Upstream's ctx is
 * our glue device.
 */
static int
errno_ret(int ret)
{
	if (ret < 0) {
		errno = -ret;
		return -ret;
	}
	return 0;
}

static int
emu_devx_general_cmd(struct ibv_context *ctx, const void *in, size_t inlen,
		     void *out, size_t outlen)
{
	return errno_ret(conform_glue()->devx_general_cmd(
		(struct mlx5_tm_glue_dev *)ctx, in, inlen, out, outlen));
}

static struct mlx5dv_devx_obj *
emu_devx_obj_create(struct ibv_context *ctx, const void *in, size_t inlen,
		    void *out, size_t outlen)
{
	return (struct mlx5dv_devx_obj *)conform_glue()->devx_obj_create(
		(struct mlx5_tm_glue_dev *)ctx, in, inlen, out, outlen);
}

static int
emu_devx_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	return errno_ret(conform_glue()->devx_obj_destroy(
		(struct mlx5_tm_devx_obj *)obj));
}

static int
emu_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in, size_t inlen,
		   void *out, size_t outlen)
{
	return errno_ret(conform_glue()->devx_obj_query(
		(struct mlx5_tm_devx_obj *)obj, in, inlen, out, outlen));
}

static int
emu_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
		    size_t inlen, void *out, size_t outlen)
{
	return errno_ret(conform_glue()->devx_obj_modify(
		(struct mlx5_tm_devx_obj *)obj, in, inlen, out, outlen));
}

/* struct mlx5_tm_umem starts with umem_id, as struct mlx5dv_devx_umem. */
static struct mlx5dv_devx_umem *
emu_devx_umem_reg(struct ibv_context *ctx, void *addr, size_t size,
		  uint32_t access)
{
	return (struct mlx5dv_devx_umem *)conform_glue()->devx_umem_reg(
		(struct mlx5_tm_glue_dev *)ctx, addr, size,
		(access & IBV_ACCESS_LOCAL_WRITE) ?
		MLX5_TM_ACCESS_LOCAL_WRITE : 0);
}

static int
emu_devx_umem_dereg(struct mlx5dv_devx_umem *umem)
{
	return errno_ret(conform_glue()->devx_umem_dereg(
		(struct mlx5_tm_umem *)umem));
}

static int
emu_devx_query_eqn(struct ibv_context *ctx, uint32_t cpus, uint32_t *eqn)
{
	return errno_ret(conform_glue()->devx_query_eqn(
		(struct mlx5_tm_glue_dev *)ctx, cpus, eqn));
}

/*
 * Only the entries the builders used here call; any other is NULL, so an
 * unexpected path crashes the suite instead of passing silently.
 */
static const struct mlx5_glue up_emu_glue = {
	.version = "emulated",
	.devx_obj_create = emu_devx_obj_create,
	.devx_obj_destroy = emu_devx_obj_destroy,
	.devx_obj_query = emu_devx_obj_query,
	.devx_obj_modify = emu_devx_obj_modify,
	.devx_general_cmd = emu_devx_general_cmd,
	.devx_umem_reg = emu_devx_umem_reg,
	.devx_umem_dereg = emu_devx_umem_dereg,
	.devx_query_eqn = emu_devx_query_eqn,
};

static const struct mlx5_glue *up_saved_glue;

void
up_glue_install(void)
{
	if (mlx5_glue != &up_emu_glue) {
		up_saved_glue = mlx5_glue;
		mlx5_glue = &up_emu_glue;
	}
}

void
up_glue_restore(void)
{
	if (mlx5_glue == &up_emu_glue)
		mlx5_glue = up_saved_glue;
}

const char *
up_glue_version(void)
{
	return mlx5_glue != NULL ? mlx5_glue->version : "(none)";
}

/* ---- capabilities ---- */

int
up_query_hca_attr(struct conform_dev *d, struct up_hca *h)
{
	struct mlx5_hca_attr attr;
	const struct conform_cmd *c;
	unsigned int i;
	int ret;

	memset(&attr, 0, sizeof(attr));
	memset(h, 0, sizeof(*h));
	conform_rec_clear();
	ret = mlx5_devx_cmd_query_hca_attr(d->gdev, &attr);
	h->ret = ret;
	h->qos_sup = attr.qos.sup;
	h->packet_pacing = attr.qos.packet_pacing;
	h->wqe_rate_pp = attr.qos.wqe_rate_pp;
	h->log_max_cq = attr.log_max_cq;
	h->log_max_cq_sz = attr.log_max_cq_sz;
	h->log_max_wq_sz = attr.log_max_wq_sz;
	h->log_max_pd = attr.log_max_pd;
	h->wqe_inline_mode = attr.wqe_inline_mode;
	h->vport_inline_mode = attr.vport_inline_mode;
	h->eth_virt = attr.eth_virt;
	h->eth_net_offloads = attr.eth_net_offloads;
	h->sq_ts_format = attr.sq_ts_format;
	h->dev_freq_khz = attr.dev_freq_khz;
	h->max_wqe_sz_sq = attr.max_wqe_sz_sq;
	h->wqe_vlan_insert = attr.wqe_vlan_insert;
	h->csum_cap = attr.csum_cap;
	h->vlan_cap = attr.vlan_cap;
	h->lro_cap = attr.lro_cap;
	h->max_lso_cap = attr.max_lso_cap;
	h->swp = attr.swp;
	h->roce = attr.roce;
	/*
	 * Capabilities the 22.11 parser does not copy into mlx5_hca_attr:
	 * read from the answers it received, with upstream's layouts.
	 */
	for (i = 0; i < conform_rec_count(); i++) {
		const void *cap;

		c = conform_rec_get(i);
		if (c->opcode != MLX5_CMD_OP_QUERY_HCA_CAP || c->ret != 0)
			continue;
		if (h->nb_op_mods < RTE_DIM(h->op_mods))
			h->op_mods[h->nb_op_mods++] = c->op_mod;
		cap = MLX5_ADDR_OF(query_hca_cap_out, c->out, capability);
		switch (c->op_mod & ~MLX5_HCA_CAP_OPMOD_GET_CUR) {
		case MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE:
			h->log_max_sq = MLX5_GET(cmd_hca_cap, cap, log_max_sq);
			h->cqe_version = MLX5_GET(cmd_hca_cap, cap,
						  cqe_version);
			h->port_type = MLX5_GET(cmd_hca_cap, cap, port_type);
			h->log_max_tis_per_sq = MLX5_GET(cmd_hca_cap, cap,
							 log_max_tis_per_sq);
			break;
		case MLX5_GET_HCA_CAP_OP_MOD_QOS_CAP:
			h->pp_burst_bound = MLX5_GET(qos_cap, cap,
						packet_pacing_burst_bound);
			h->pp_typical_size = MLX5_GET(qos_cap, cap,
						packet_pacing_typical_size);
			h->pp_max_rate = MLX5_GET(qos_cap, cap,
						  packet_pacing_max_rate);
			h->pp_min_rate = MLX5_GET(qos_cap, cap,
						  packet_pacing_min_rate);
			h->pp_table_size = MLX5_GET(qos_cap, cap,
						packet_pacing_rate_table_size);
			break;
		default:
			break;
		}
	}
	for (i = 0; i < conform_rec_count(); i++) {
		c = conform_rec_get(i);
		if (c->ret != 0 && h->failed_opcode == 0) {
			h->failed_opcode = c->opcode;
			h->failed_op_mod = c->op_mod;
		}
	}
	return ret;
}

/* ---- objects built by upstream's builders ---- */

void *
up_create_td(struct conform_dev *d, uint32_t *id)
{
	struct mlx5_devx_obj *o;

	o = (struct mlx5_devx_obj *)mlx5_devx_cmd_create_td(d->gdev);
	if (o != NULL)
		*id = o->id;
	return o;
}

void *
up_create_tis(struct conform_dev *d, uint32_t tdn, uint8_t prio,
	      uint32_t *id)
{
	struct mlx5_devx_tis_attr attr = {
		.transport_domain = tdn,
		.prio = prio,
	};
	struct mlx5_devx_obj *o;

	o = (struct mlx5_devx_obj *)mlx5_devx_cmd_create_tis(d->gdev, &attr);
	if (o != NULL)
		*id = o->id;
	return o;
}

/*
 * CREATE_CQ with the attributes upstream's net/mlx5 gives a Tx CQ (only
 * the UAR page; mlx5_devx_cq_create() adds the EQ, size and umem), here
 * on a given umem so the buffer can be set beside the PMD's.
 */
void *
up_create_cq(struct conform_dev *d, const struct conform_txq_attr *a,
	     uint32_t *id)
{
	struct mlx5_devx_cq_attr attr = {
		.uar_page_id = a->uar_page,
		.q_umem_valid = 1,
		.q_umem_id = a->umem_id,
		.q_umem_offset = a->cq_ring_off,
		.db_umem_valid = 1,
		.db_umem_id = a->umem_id,
		.db_umem_offset = a->cq_dbr_off,
		.eqn = a->eqn,
		.log_cq_size = a->log_cq_size,
		.log_page_size = MLX5_LOG_PAGE_SIZE,
	};
	struct mlx5_devx_obj *o;

	o = (struct mlx5_devx_obj *)mlx5_devx_cmd_create_cq(d->gdev, &attr);
	if (o != NULL)
		*id = o->id;
	return o;
}

/*
 * The SQ attributes of net/mlx5's Tx queue (mlx5_txq_create_devx_sq_
 * resources() and mlx5_devx_sq_create()), with what this PMD does not
 * use left out: no (e)MPW, no software parser; plus a pacing index.
 */
static void
up_sq_attr(const struct conform_txq_attr *a,
	   struct mlx5_devx_create_sq_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->flush_in_error_en = 1;
	attr->min_wqe_inline_mode = a->min_inline;
	attr->cqn = a->cqn;
	attr->tis_lst_sz = 1;
	attr->tis_num = a->tisn;
	attr->ts_format = a->ts_format;
	attr->user_index = a->user_index;
	attr->packet_pacing_rate_limit_index = a->pp_index;
	attr->wq_attr.pd = a->pdn;
	attr->wq_attr.uar_page = a->uar_page;
}

void *
up_create_sq(struct conform_dev *d, const struct conform_txq_attr *a,
	     uint32_t *id)
{
	struct mlx5_devx_create_sq_attr attr;
	struct mlx5_devx_obj *o;

	up_sq_attr(a, &attr);
	attr.wq_attr.wq_type = MLX5_WQ_TYPE_CYCLIC;
	attr.wq_attr.wq_umem_valid = 1;
	attr.wq_attr.wq_umem_id = a->umem_id;
	attr.wq_attr.wq_umem_offset = a->sq_ring_off;
	attr.wq_attr.dbr_umem_valid = 1;
	attr.wq_attr.dbr_umem_id = a->umem_id;
	attr.wq_attr.dbr_addr = a->sq_dbr_off;
	attr.wq_attr.log_wq_stride = rte_log2_u32(MLX5_WQE_SIZE);
	attr.wq_attr.log_wq_sz = a->log_wq_sz;
	attr.wq_attr.log_wq_pg_sz = MLX5_LOG_PAGE_SIZE;
	o = (struct mlx5_devx_obj *)mlx5_devx_cmd_create_sq(d->gdev, &attr);
	if (o != NULL)
		*id = o->id;
	return o;
}

int
up_modify_sq(void *sq, uint8_t from, uint8_t to)
{
	struct mlx5_devx_modify_sq_attr attr = {
		.sq_state = from,
		.state = to,
	};

	return mlx5_devx_cmd_modify_sq(sq, &attr);
}

/*
 * A pacing-index change on a ready SQ. DPDK 22.11 has no builder for it
 * (struct mlx5_devx_modify_sq_attr has no such field); this is the Linux
 * kernel's (mlx5_ib modify_raw_packet_qp_sq(), mlx5e set_maxrate: RDY to
 * RDY, modify_bitmask 1, the index in the context) written with
 * upstream's layouts and sent through upstream's glue.
 */
int
up_modify_sq_rate(void *sq, uint16_t pp_index)
{
	struct mlx5_devx_obj *o = sq;
	uint32_t in[MLX5_ST_SZ_DW(modify_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(modify_sq_out)] = { 0 };
	void *sqc = MLX5_ADDR_OF(modify_sq_in, in, ctx);

	MLX5_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
	MLX5_SET(modify_sq_in, in, sq_state, MLX5_SQC_STATE_RDY);
	MLX5_SET(modify_sq_in, in, sqn, o->id);
	MLX5_SET64(modify_sq_in, in, modify_bitmask, 1);
	MLX5_SET(sqc, sqc, state, MLX5_SQC_STATE_RDY);
	MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, pp_index);
	return -mlx5_glue->devx_obj_modify(o->obj, in, sizeof(in), out,
					   sizeof(out));
}

int
up_destroy(void *obj)
{
	return mlx5_devx_cmd_destroy(obj);
}

/* Upstream's full helpers: they allocate and register the rings. */
struct up_cq {
	struct mlx5_devx_cq cq;
};

struct up_sq {
	struct mlx5_devx_sq sq;
};

struct up_cq *
up_cq_create_full(struct conform_dev *d, uint16_t log_desc_n,
		  uint32_t *cqn)
{
	struct mlx5_devx_cq_attr attr = { .uar_page_id = d->uar->page_id };
	struct up_cq *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	if (mlx5_devx_cq_create(d->gdev, &c->cq, log_desc_n, &attr,
				SOCKET_ID_ANY) != 0) {
		free(c);
		return NULL;
	}
	*cqn = ((struct mlx5_devx_obj *)c->cq.cq)->id;
	return c;
}

void
up_cq_destroy_full(struct up_cq *c)
{
	if (c == NULL)
		return;
	mlx5_devx_cq_destroy(&c->cq);
	free(c);
}

struct up_sq *
up_sq_create_full(struct conform_dev *d, const struct conform_txq_attr *a,
		  void **obj, uint32_t *sqn)
{
	struct mlx5_devx_create_sq_attr attr;
	struct up_sq *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return NULL;
	up_sq_attr(a, &attr);
	if (mlx5_devx_sq_create(d->gdev, &s->sq, a->log_wq_sz, &attr,
				SOCKET_ID_ANY) != 0) {
		free(s);
		return NULL;
	}
	*obj = s->sq.sq;
	*sqn = ((struct mlx5_devx_obj *)s->sq.sq)->id;
	return s;
}

void
up_sq_destroy_full(struct up_sq *s)
{
	if (s == NULL)
		return;
	mlx5_devx_sq_destroy(&s->sq);
	free(s);
}

/* ---- reading objects back, with upstream's layouts ---- */

static int
up_query(void *obj, const void *in, size_t inlen, void *out, size_t outlen)
{
	struct mlx5_devx_obj *o = obj;

	return -mlx5_glue->devx_obj_query(o->obj, in, inlen, out, outlen);
}

void *
up_cq_obj(struct up_cq *c)
{
	return c->cq.cq;
}

int
up_query_tis(void *tis, struct up_tis_ctx *c)
{
	struct mlx5_devx_obj *o = tis;
	uint32_t in[MLX5_ST_SZ_DW(query_tis_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_tis_out)] = { 0 };
	void *tisc = MLX5_ADDR_OF(query_tis_out, out, tis_context);
	int ret;

	MLX5_SET(query_tis_in, in, opcode, MLX5_CMD_OP_QUERY_TIS);
	MLX5_SET(query_tis_in, in, tisn, o->id);
	ret = up_query(tis, in, sizeof(in), out, sizeof(out));
	if (ret < 0)
		return ret;
	c->transport_domain = MLX5_GET(tisc, tisc, transport_domain);
	c->prio = MLX5_GET(tisc, tisc, prio);
	return 0;
}

void *
up_glue_obj(void *devx_obj)
{
	return ((struct mlx5_devx_obj *)devx_obj)->obj;
}

uint8_t
up_ts_format_conv(uint32_t sq_ts_format)
{
	return mlx5_ts_format_conv(sq_ts_format);
}

/* ---- field lists of upstream's PRM layouts ---- */

#define BITS(t) struct mlx5_ifc_##t##_bits
#define FLD(pfx, base, t, f) \
	{ pfx #f, (base) + offsetof(BITS(t), f), sizeof(((BITS(t) *)0)->f) }
#define HDR(t) \
	FLD(#t ".", 0, t, opcode), FLD(#t ".", 0, t, op_mod)

#define SQC_FIELDS(base) \
	FLD("sqc.", base, sqc, rlky), \
	FLD("sqc.", base, sqc, cd_master), \
	FLD("sqc.", base, sqc, fre), \
	FLD("sqc.", base, sqc, flush_in_error_en), \
	FLD("sqc.", base, sqc, allow_multi_pkt_send_wqe), \
	FLD("sqc.", base, sqc, min_wqe_inline_mode), \
	FLD("sqc.", base, sqc, state), \
	FLD("sqc.", base, sqc, reg_umr), \
	FLD("sqc.", base, sqc, allow_swp), \
	FLD("sqc.", base, sqc, hairpin), \
	FLD("sqc.", base, sqc, non_wire), \
	FLD("sqc.", base, sqc, static_sq_wq), \
	FLD("sqc.", base, sqc, hairpin_wq_buffer_type), \
	FLD("sqc.", base, sqc, ts_format), \
	FLD("sqc.", base, sqc, user_index), \
	FLD("sqc.", base, sqc, cqn), \
	FLD("sqc.", base, sqc, hairpin_peer_rq), \
	FLD("sqc.", base, sqc, hairpin_peer_vhca), \
	FLD("sqc.", base, sqc, packet_pacing_rate_limit_index), \
	FLD("sqc.", base, sqc, tis_lst_sz), \
	FLD("sqc.", base, sqc, tis_num_0)

#define WQ_FIELDS(base) \
	FLD("wq.", base, wq, wq_type), \
	FLD("wq.", base, wq, wq_signature), \
	FLD("wq.", base, wq, end_padding_mode), \
	FLD("wq.", base, wq, cd_slave), \
	FLD("wq.", base, wq, hds_skip_first_sge), \
	FLD("wq.", base, wq, log2_hds_buf_size), \
	FLD("wq.", base, wq, page_offset), \
	FLD("wq.", base, wq, lwm), \
	FLD("wq.", base, wq, pd), \
	FLD("wq.", base, wq, uar_page), \
	FLD("wq.", base, wq, dbr_addr), \
	FLD("wq.", base, wq, hw_counter), \
	FLD("wq.", base, wq, sw_counter), \
	FLD("wq.", base, wq, log_wq_stride), \
	FLD("wq.", base, wq, log_wq_pg_sz), \
	FLD("wq.", base, wq, log_wq_sz), \
	FLD("wq.", base, wq, dbr_umem_valid), \
	FLD("wq.", base, wq, wq_umem_valid), \
	FLD("wq.", base, wq, log_hairpin_num_packets), \
	FLD("wq.", base, wq, log_hairpin_data_sz), \
	FLD("wq.", base, wq, single_wqe_log_num_of_strides), \
	FLD("wq.", base, wq, two_byte_shift_en), \
	FLD("wq.", base, wq, single_stride_log_num_of_bytes), \
	FLD("wq.", base, wq, dbr_umem_id), \
	FLD("wq.", base, wq, wq_umem_id), \
	FLD("wq.", base, wq, wq_umem_offset)

#define CREATE_SQC offsetof(BITS(create_sq_in), ctx)
#define MODIFY_SQC offsetof(BITS(modify_sq_in), ctx)
#define CQC offsetof(BITS(create_cq_in), cq_context)
#define TISC offsetof(BITS(create_tis_in), ctx)

static const struct up_field fields_alloc_td[] = {
	HDR(alloc_transport_domain_in),
};

static const struct up_field fields_create_tis[] = {
	HDR(create_tis_in), FLD("create_tis_in.", 0, create_tis_in, uid),
	FLD("tisc.", TISC, tisc, strict_lag_tx_port_affinity),
	FLD("tisc.", TISC, tisc, lag_tx_port_affinity),
	FLD("tisc.", TISC, tisc, prio),
	FLD("tisc.", TISC, tisc, transport_domain),
	FLD("tisc.", TISC, tisc, underlay_qpn),
};

static const struct up_field fields_create_cq[] = {
	HDR(create_cq_in), FLD("create_cq_in.", 0, create_cq_in, uid),
	FLD("cqc.", CQC, cqc, status),
	FLD("cqc.", CQC, cqc, as_notify),
	FLD("cqc.", CQC, cqc, initiator_src_dct),
	FLD("cqc.", CQC, cqc, dbr_umem_valid),
	FLD("cqc.", CQC, cqc, cqe_sz),
	FLD("cqc.", CQC, cqc, cc),
	FLD("cqc.", CQC, cqc, scqe_break_moderation_en),
	FLD("cqc.", CQC, cqc, oi),
	FLD("cqc.", CQC, cqc, cq_period_mode),
	FLD("cqc.", CQC, cqc, cqe_comp_en),
	FLD("cqc.", CQC, cqc, mini_cqe_res_format),
	FLD("cqc.", CQC, cqc, st),
	FLD("cqc.", CQC, cqc, cqe_comp_layout),
	FLD("cqc.", CQC, cqc, dbr_umem_id),
	FLD("cqc.", CQC, cqc, page_offset),
	FLD("cqc.", CQC, cqc, mini_cqe_res_format_ext),
	FLD("cqc.", CQC, cqc, cq_timestamp_format),
	FLD("cqc.", CQC, cqc, log_cq_size),
	FLD("cqc.", CQC, cqc, uar_page),
	FLD("cqc.", CQC, cqc, cq_period),
	FLD("cqc.", CQC, cqc, cq_max_count),
	FLD("cqc.", CQC, cqc, c_eqn),
	FLD("cqc.", CQC, cqc, log_page_size),
	FLD("cqc.", CQC, cqc, last_notified_index),
	FLD("cqc.", CQC, cqc, last_solicit_index),
	FLD("cqc.", CQC, cqc, consumer_counter),
	FLD("cqc.", CQC, cqc, producer_counter),
	FLD("cqc.", CQC, cqc, local_partition_id),
	FLD("cqc.", CQC, cqc, process_id),
	FLD("cqc.", CQC, cqc, dbr_addr),
	FLD("create_cq_in.", 0, create_cq_in, cq_umem_offset),
	FLD("create_cq_in.", 0, create_cq_in, cq_umem_id),
	FLD("create_cq_in.", 0, create_cq_in, cq_umem_valid),
};

static const struct up_field fields_create_sq[] = {
	HDR(create_sq_in), FLD("create_sq_in.", 0, create_sq_in, uid),
	SQC_FIELDS(CREATE_SQC),
	WQ_FIELDS(CREATE_SQC + offsetof(BITS(sqc), wq)),
};

static const struct up_field fields_modify_sq[] = {
	HDR(modify_sq_in), FLD("modify_sq_in.", 0, modify_sq_in, uid),
	FLD("modify_sq_in.", 0, modify_sq_in, sq_state),
	FLD("modify_sq_in.", 0, modify_sq_in, sqn),
	FLD("modify_sq_in.", 0, modify_sq_in, modify_bitmask),
	SQC_FIELDS(MODIFY_SQC),
	WQ_FIELDS(MODIFY_SQC + offsetof(BITS(sqc), wq)),
};

static const struct up_field fields_query_hca_cap[] = {
	HDR(query_hca_cap_in),
};

static const struct up_field fields_query_nic_vport[] = {
	HDR(query_nic_vport_context_in),
	FLD("query_nic_vport_context_in.", 0, query_nic_vport_context_in,
	    other_vport),
	FLD("query_nic_vport_context_in.", 0, query_nic_vport_context_in,
	    vport_number),
	FLD("query_nic_vport_context_in.", 0, query_nic_vport_context_in,
	    allowed_list_type),
};

#define CMD(op, in_t, list) \
	{ MLX5_CMD_OP_##op, #op, MLX5_ST_SZ_BYTES(in_t), list, RTE_DIM(list) }

static const struct up_cmd_layout cmd_layouts[] = {
	CMD(ALLOC_TRANSPORT_DOMAIN, alloc_transport_domain_in,
	    fields_alloc_td),
	CMD(CREATE_TIS, create_tis_in, fields_create_tis),
	CMD(CREATE_CQ, create_cq_in, fields_create_cq),
	CMD(CREATE_SQ, create_sq_in, fields_create_sq),
	CMD(MODIFY_SQ, modify_sq_in, fields_modify_sq),
	CMD(QUERY_HCA_CAP, query_hca_cap_in, fields_query_hca_cap),
	CMD(QUERY_NIC_VPORT_CONTEXT, query_nic_vport_context_in,
	    fields_query_nic_vport),
};

const struct up_cmd_layout *
up_cmd_layout(uint16_t opcode)
{
	size_t i;

	for (i = 0; i < RTE_DIM(cmd_layouts); i++)
		if (cmd_layouts[i].opcode == opcode)
			return &cmd_layouts[i];
	return NULL;
}

/*
 * A pacing entry with a context built as upstream's net/mlx5 builds one
 * (mlx5_txpp.c: set_pp_rate_limit_context, data rate), allocated through
 * the glue (mlx5dv_pp_alloc semantics).
 */
struct mlx5_tm_pp *
up_pp_alloc(struct conform_dev *d, uint32_t rate_kbps)
{
	uint32_t ctx[MLX5_ST_SZ_DW(set_pp_rate_limit_context)] = { 0 };

	MLX5_SET(set_pp_rate_limit_context, ctx, rate_limit, rate_kbps);
	MLX5_SET(set_pp_rate_limit_context, ctx, rate_mode, 0);
	return conform_glue()->pp_alloc(d->gdev, sizeof(ctx), ctx, 0);
}
