/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_test_util.h"

unsigned int t_passed, t_failed, t_skipped;

static const char *case_group;
static const char *case_name;
static bool case_failed;
static const char *case_skip;

void
t_case_begin(const char *group, const char *name)
{
	case_group = group;
	case_name = name;
	case_failed = false;
	case_skip = NULL;
}

void
t_case_skip(const char *why)
{
	case_skip = why;
}

void
t_case_end(void)
{
	if (case_failed) {
		t_failed++;
	} else if (case_skip != NULL) {
		/* Checked nothing: neither passed nor failed. */
		t_skipped++;
		printf("skip %s: %s (%s)\n", case_group, case_name, case_skip);
		fflush(stdout);
		case_name = NULL;
		return;
	} else {
		t_passed++;
	}
	printf("%s %s: %s\n", case_failed ? "FAIL" : "ok  ", case_group,
	       case_name);
	fflush(stdout);
	case_name = NULL;
}

void
t_check_failed(void)
{
	if (case_name != NULL)
		case_failed = true;
	else
		t_failed++;
}

int
t_open(struct t_dev *d, const char *profile, const char *const *kv)
{
	struct mlx5_emu_config cfg;
	uint32_t in[MLX5_ST_SZ_DW(create_tis_in)];
	uint32_t out[MLX5_ST_SZ_DW(create_tis_out)];
	uint32_t tin[MLX5_ST_SZ_DW(alloc_transport_domain_in)];
	uint32_t tout[MLX5_ST_SZ_DW(alloc_transport_domain_out)];
	char err[256];
	int ret;

	memset(d, 0, sizeof(*d));
	d->g = &mlx5_tm_glue_emu;
	ret = mlx5_emu_config_init(&cfg, profile);
	if (ret < 0)
		return ret;
	for (; kv != NULL && *kv != NULL; kv++) {
		char key[64];
		const char *eq = strchr(*kv, '=');

		if (eq == NULL || (size_t)(eq - *kv) >= sizeof(key))
			return -EINVAL;
		memcpy(key, *kv, eq - *kv);
		key[eq - *kv] = '\0';
		ret = mlx5_emu_config_set(&cfg, key, eq + 1, err, sizeof(err));
		if (ret < 0) {
			printf("devarg %s: %s\n", *kv, err);
			return ret;
		}
	}
	d->dev = d->g->open_device(profile, &cfg);
	if (d->dev == NULL)
		return -errno;
	d->emu = mlx5_emu_from_glue(d->dev);
	d->pd = d->g->pd_alloc(d->dev);
	d->uar = d->g->devx_uar_alloc(d->dev);
	if (d->pd == NULL || d->uar == NULL)
		return -ENOMEM;
	memset(tin, 0, sizeof(tin));
	MLX5_SET(alloc_transport_domain_in, tin, opcode,
		 MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN);
	d->td = d->g->devx_obj_create(d->dev, tin, sizeof(tin), tout,
				      sizeof(tout));
	if (d->td == NULL)
		return -errno;
	d->tdn = MLX5_GET(alloc_transport_domain_out, tout, transport_domain);
	memset(in, 0, sizeof(in));
	MLX5_SET(create_tis_in, in, opcode, MLX5_CMD_OP_CREATE_TIS);
	MLX5_SET(tisc, MLX5_ADDR_OF(create_tis_in, in, ctx), transport_domain,
		 d->tdn);
	d->tis = d->g->devx_obj_create(d->dev, in, sizeof(in), out,
				       sizeof(out));
	if (d->tis == NULL)
		return -errno;
	d->tisn = MLX5_GET(create_tis_out, out, tisn);
	d->buf_sz = 1 << 22;
	d->buf = aligned_alloc(4096, d->buf_sz);
	if (d->buf == NULL)
		return -ENOMEM;
	memset(d->buf, 0, d->buf_sz);
	d->mr = d->g->reg_mr(d->pd, d->buf, d->buf_sz,
			     MLX5_TM_ACCESS_LOCAL_WRITE);
	return d->mr == NULL ? -errno : 0;
}

void
t_close(struct t_dev *d)
{
	int ret;

	if (d->dev == NULL)
		return;
	if (d->mr != NULL)
		d->g->dereg_mr(d->mr);
	if (d->tis != NULL)
		d->g->devx_obj_destroy(d->tis);
	if (d->td != NULL)
		d->g->devx_obj_destroy(d->td);
	if (d->uar != NULL)
		d->g->devx_uar_free(d->uar);
	if (d->pd != NULL)
		d->g->pd_free(d->pd);
	ret = d->g->close_device(d->dev);
	CHECK(ret == 0, "close_device: %d", ret);
	free(d->buf);
	memset(d, 0, sizeof(*d));
}

/* aligned_alloc wants a multiple of the alignment. */
static size_t
t_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

int
t_sq_create(struct t_dev *d, struct t_sq *s, uint32_t log_sq, uint32_t log_cq,
	    uint16_t pp_index, uint8_t state)
{
	uint32_t cin[MLX5_ST_SZ_DW(create_cq_in)];
	uint32_t cout[MLX5_ST_SZ_DW(create_cq_out)];
	uint32_t sin[MLX5_ST_SZ_DW(create_sq_in)];
	uint32_t sout[MLX5_ST_SZ_DW(create_sq_out)];
	void *cqc, *sqc, *wq;
	uint32_t eqn = 0, i;

	memset(s, 0, sizeof(*s));
	s->d = d;
	s->log_cq = log_cq;
	s->log_sq = log_sq;
	s->cq_ring = aligned_alloc(4096, t_round((size_t)64 << log_cq));
	s->sq_ring = aligned_alloc(4096, t_round((size_t)64 << log_sq));
	s->dbr = aligned_alloc(64, 64);
	if (s->cq_ring == NULL || s->sq_ring == NULL || s->dbr == NULL)
		return -ENOMEM;
	memset(s->sq_ring, 0, (size_t)64 << log_sq);
	memset(s->dbr, 0, 64);
	for (i = 0; i < (1u << log_cq); i++) {
		memset(s->cq_ring + (size_t)i * 64, 0, 64);
		s->cq_ring[(size_t)i * 64 + 63] = MLX5_CQE_INVALID << 4 | 1;
	}
	s->cq_umem = d->g->devx_umem_reg(d->dev, s->cq_ring,
					 (size_t)64 << log_cq, 0);
	s->sq_umem = d->g->devx_umem_reg(d->dev, s->sq_ring,
					 (size_t)64 << log_sq, 0);
	s->db_umem = d->g->devx_umem_reg(d->dev, s->dbr, 64, 0);
	if (s->cq_umem == NULL || s->sq_umem == NULL || s->db_umem == NULL)
		return -errno;
	d->g->devx_query_eqn(d->dev, 0, &eqn);
	memset(cin, 0, sizeof(cin));
	MLX5_SET(create_cq_in, cin, opcode, MLX5_CMD_OP_CREATE_CQ);
	cqc = MLX5_ADDR_OF(create_cq_in, cin, cq_context);
	MLX5_SET(cqc, cqc, log_cq_size, log_cq);
	MLX5_SET(cqc, cqc, uar_page, d->uar->page_id);
	MLX5_SET(cqc, cqc, c_eqn, eqn);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, dbr_umem_id, s->db_umem->umem_id);
	MLX5_SET64(cqc, cqc, dbr_addr, 0);
	MLX5_SET(create_cq_in, cin, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, cin, cq_umem_id, s->cq_umem->umem_id);
	s->cq = d->g->devx_obj_create(d->dev, cin, sizeof(cin), cout,
				      sizeof(cout));
	if (s->cq == NULL)
		return -errno;
	s->cqn = MLX5_GET(create_cq_out, cout, cqn);
	memset(sin, 0, sizeof(sin));
	MLX5_SET(create_sq_in, sin, opcode, MLX5_CMD_OP_CREATE_SQ);
	sqc = MLX5_ADDR_OF(create_sq_in, sin, ctx);
	MLX5_SET(sqc, sqc, state, state);
	MLX5_SET(sqc, sqc, flush_in_error_en, d->flush_in_error);
	MLX5_SET(sqc, sqc, allow_multi_pkt_send_wqe, d->allow_mpw);
	MLX5_SET(sqc, sqc, ts_format, d->ts_format);
	MLX5_SET(sqc, sqc, cqn, s->cqn);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, d->tisn);
	MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, pp_index);
	MLX5_SET(sqc, sqc, qos_queue_group_id, d->qos_group);
	wq = MLX5_ADDR_OF(sqc, sqc, wq);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, d->pd->pdn);
	MLX5_SET(wq, wq, uar_page, d->uar->page_id);
	MLX5_SET64(wq, wq, dbr_addr, 8);
	MLX5_SET(wq, wq, log_wq_stride, MLX5_SEND_WQE_SHIFT);
	MLX5_SET(wq, wq, log_wq_sz, log_sq);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_id, s->db_umem->umem_id);
	MLX5_SET(wq, wq, wq_umem_id, s->sq_umem->umem_id);
	s->sq = d->g->devx_obj_create(d->dev, sin, sizeof(sin), sout,
				      sizeof(sout));
	if (s->sq == NULL)
		return -errno;
	s->sqn = MLX5_GET(create_sq_out, sout, sqn);
	return 0;
}

void
t_quiet_log(int level, const char *msg)
{
	if (level <= 3 && getenv("EMU_TEST_VERBOSE") != NULL)
		printf("model: %s\n", msg);
}

bool
t_open_pcap(struct t_dev *d, char *path, const char *const *kv)
{
	int fd = mkstemp(path);

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return false;
	close(fd);
	CHECK(t_open(d, "cx6dx", kv) == 0, "open");
	CHECK(mlx5_emu_set_pcap(d->emu, path) == 0, "pcap on");
	return true;
}

int
t_sq_ready(struct t_dev *d, struct t_sq *s, uint32_t log_sq,
	   uint16_t pp_index)
{
	uint8_t st;
	int ret = t_sq_create(d, s, log_sq, 7, pp_index, MLX5_SQC_STATE_RST);

	if (ret < 0)
		return ret;
	return t_sq_modify(s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0,
			   &st);
}

void
t_sq_destroy(struct t_sq *s)
{
	const struct mlx5_tm_glue *g = s->d->g;

	if (s->sq != NULL)
		CHECK(g->devx_obj_destroy(s->sq) == 0, "destroy SQ");
	if (s->cq != NULL)
		CHECK(g->devx_obj_destroy(s->cq) == 0, "destroy CQ");
	if (s->cq_umem != NULL)
		g->devx_umem_dereg(s->cq_umem);
	if (s->sq_umem != NULL)
		g->devx_umem_dereg(s->sq_umem);
	if (s->db_umem != NULL)
		g->devx_umem_dereg(s->db_umem);
	free(s->cq_ring);
	free(s->sq_ring);
	free(s->dbr);
	memset(s, 0, sizeof(*s));
}

int
t_sq_modify(struct t_sq *s, uint8_t cur, uint8_t next, bool set_pp,
	    uint16_t pp_index, uint8_t *status)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_sq_in)];
	uint32_t out[MLX5_ST_SZ_DW(modify_sq_out)];
	void *sqc = MLX5_ADDR_OF(modify_sq_in, in, ctx);
	int ret;

	memset(in, 0, sizeof(in));
	MLX5_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
	MLX5_SET(modify_sq_in, in, sq_state, cur);
	MLX5_SET(modify_sq_in, in, sqn, s->sqn);
	MLX5_SET(sqc, sqc, state, next);
	if (set_pp) {
		MLX5_SET64(modify_sq_in, in, modify_bitmask,
			   MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX);
		MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, pp_index);
	}
	ret = s->d->g->devx_obj_modify(s->sq, in, sizeof(in), out,
				       sizeof(out));
	if (status != NULL)
		*status = t_status(out);
	if (next == MLX5_SQC_STATE_RST && ret == 0) {
		s->pi = 0;
		mlx5_prm_write32(s->dbr + 8, MLX5_SND_DBR, 0);
	}
	return ret;
}

/* Write @p len bytes at WQE byte offset @p off from WQE start @p base. */
static void
t_wqe_write(struct t_sq *s, uint32_t base_bb, uint32_t off, const void *src,
	    uint32_t len)
{
	uint32_t ring = 64u << s->log_sq;
	uint32_t pos = ((base_bb & ((1u << s->log_sq) - 1)) * 64 + off) % ring;
	const uint8_t *p = src;

	while (len > 0) {
		uint32_t n = ring - pos < len ? ring - pos : len;

		memcpy(s->sq_ring + pos, p, n);
		p += n;
		len -= n;
		pos = 0;
	}
}

void
t_post_raw(struct t_sq *s, uint32_t inl, const uint8_t *hdr, uint32_t lkey,
	   uint64_t addr, uint32_t bc, bool cq_update)
{
	uint8_t wqe[1024];
	uint32_t eth_units = 1, ds, off;
	void *ctrl = wqe, *eseg = wqe + 16, *dseg;

	memset(wqe, 0, sizeof(wqe));
	if (inl > 2)
		eth_units += (inl - 2 + 15) / 16;
	ds = 1 + eth_units + (bc > 0 ? 1 : 0);
	MLX5_SET(wqe_ctrl_seg, ctrl, opcode, MLX5_OPCODE_SEND);
	MLX5_SET(wqe_ctrl_seg, ctrl, wqe_index, s->pi);
	MLX5_SET(wqe_ctrl_seg, ctrl, qpn_or_sqn, s->sqn);
	MLX5_SET(wqe_ctrl_seg, ctrl, ds, ds);
	if (cq_update)
		MLX5_SET(wqe_ctrl_seg, ctrl, ce, 2);
	MLX5_SET(wqe_eth_seg, eseg, inline_hdr_sz, inl);
	if (inl > 0)
		memcpy(wqe + 16 + 14, hdr, inl);
	off = 16 + eth_units * 16;
	if (bc > 0) {
		dseg = wqe + off;
		MLX5_SET(wqe_data_seg, dseg, byte_count, bc);
		MLX5_SET(wqe_data_seg, dseg, lkey, lkey);
		MLX5_SET64(wqe_data_seg, dseg, addr, addr);
	}
	t_wqe_write(s, s->pi, 0, wqe, ds * 16);
	memcpy(s->last_ctrl, wqe, 8);
	s->last_wqe = s->pi;
	s->pi = (uint16_t)(s->pi + (ds + 3) / 4);
}

uint32_t
t_empw_build(struct t_sq *s, uint8_t *wqe, const struct t_empw_pkt *p,
	     unsigned int n, bool cq_update)
{
	uint32_t off = 32, i;
	void *ctrl = wqe;

	memset(wqe, 0, 1024);
	for (i = 0; i < n; i++) {
		uint8_t *seg = wqe + off;

		if (p[i].inl) {
			mlx5_prm_write32(seg, 0, p[i].len | MLX5_INLINE_SEG);
			memcpy(seg + 4, p[i].data, p[i].len);
			off += (4 + p[i].len + 15) / 16 * 16;
		} else {
			MLX5_SET(wqe_data_seg, seg, byte_count, p[i].len);
			MLX5_SET(wqe_data_seg, seg, lkey, s->d->mr->lkey);
			MLX5_SET64(wqe_data_seg, seg, addr,
				   (uint64_t)(uintptr_t)p[i].data);
			off += 16;
		}
	}
	MLX5_SET(wqe_ctrl_seg, ctrl, opcode, MLX5_OPCODE_ENHANCED_MPSW);
	MLX5_SET(wqe_ctrl_seg, ctrl, wqe_index, s->pi);
	MLX5_SET(wqe_ctrl_seg, ctrl, qpn_or_sqn, s->sqn);
	MLX5_SET(wqe_ctrl_seg, ctrl, ds, off / 16);
	if (cq_update)
		MLX5_SET(wqe_ctrl_seg, ctrl, ce, 2);
	return off / 16;
}

void
t_post_wqe(struct t_sq *s, const uint8_t *wqe, uint32_t ds)
{
	t_wqe_write(s, s->pi, 0, wqe, ds * 16);
	memcpy(s->last_ctrl, wqe, 8);
	s->last_wqe = s->pi;
	s->pi = (uint16_t)(s->pi + (ds + 3) / 4);
}

void
t_post(struct t_sq *s, const uint8_t *pkt, uint32_t len, uint32_t inl,
       bool cq_update)
{
	t_post_raw(s, inl, pkt, s->d->mr->lkey, (uint64_t)(uintptr_t)(pkt + inl),
		   len - inl, cq_update);
}

void
t_ring(struct t_sq *s)
{
	uint64_t v;

	__atomic_thread_fence(__ATOMIC_RELEASE);
	mlx5_prm_write32(s->dbr + 8, MLX5_SND_DBR, s->pi);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(&v, s->last_ctrl, 8);
	__atomic_store_n((uint64_t *)s->d->uar->reg_addr, v, __ATOMIC_RELEASE);
}

unsigned int
t_poll(struct t_sq *s, struct t_cqe *out, unsigned int max)
{
	unsigned int n = 0;
	uint32_t size = 1u << s->log_cq;

	while (n < max) {
		uint8_t *cqe = s->cq_ring + (size_t)(s->cq_ci & (size - 1)) * 64;
		uint8_t op_own = __atomic_load_n(&cqe[63], __ATOMIC_ACQUIRE);

		if (MLX5_CQE_OPCODE(op_own) == MLX5_CQE_INVALID ||
		    MLX5_CQE_OWNER(op_own) != ((s->cq_ci >> s->log_cq) & 1))
			break;
		out[n].opcode = MLX5_CQE_OPCODE(op_own);
		out[n].wqe_counter = (uint16_t)MLX5_GET(cqe64, cqe, wqe_counter);
		out[n].timestamp = MLX5_GET64(cqe64, cqe, timestamp);
		out[n].qpn = MLX5_GET(cqe64, cqe, qpn);
		out[n].syndrome = out[n].opcode == MLX5_CQE_REQ_ERR ?
			(uint8_t)MLX5_GET(err_cqe64, cqe, syndrome) : 0;
		n++;
		s->cq_ci++;
	}
	mlx5_prm_write32(s->dbr, MLX5_CQ_SET_CI, s->cq_ci & 0xffffff);
	return n;
}

struct mlx5_tm_pp *
t_pp(struct t_dev *d, uint32_t rate, uint32_t burst, uint8_t mode,
     uint16_t typical, uint32_t flags)
{
	uint32_t ctx[MLX5_ST_SZ_DW(set_pp_rate_limit_context)];

	memset(ctx, 0, sizeof(ctx));
	MLX5_SET(set_pp_rate_limit_context, ctx, rate_limit, rate);
	MLX5_SET(set_pp_rate_limit_context, ctx, burst_upper_bound, burst);
	MLX5_SET(set_pp_rate_limit_context, ctx, rate_mode, mode);
	MLX5_SET(set_pp_rate_limit_context, ctx, typical_packet_size, typical);
	return d->g->pp_alloc(d->dev, sizeof(ctx), ctx, flags);
}

uint8_t *
t_frame(struct t_dev *d, size_t off, uint32_t len, uint32_t seed)
{
	uint8_t *p = d->buf + off;
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7);
	/* dst, src MAC, IPv4 ethertype */
	memset(p, 0x02, 6);
	memset(p + 6, 0x04, 6);
	p[12] = 0x08;
	p[13] = 0x00;
	return p;
}
