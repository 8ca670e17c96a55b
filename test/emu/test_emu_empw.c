/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Enhanced multi-packet send WQEs (eMPW) on the device model, in virtual
 * time: capabilities and their devargs, hand-built WQEs of several packets
 * (data segments and inline data segments, a WQE across the ring's end)
 * checked byte for byte on the wire, malformed WQEs refused with the
 * right error CQE and nothing sent, one CQE per WQE that asks for one,
 * and pacing (a data-rate pacer counts each packet's bytes, a WQE-rate
 * pacer counts WQEs).
 */

#include <errno.h>
#include <string.h>

#include "emu_test_util.h"
#include "test_emu.h"

#define WIRE_MAX 64

static struct {
	uint32_t n;
	uint64_t t[WIRE_MAX];
	uint32_t len[WIRE_MAX];
	uint8_t bytes[WIRE_MAX][1536];
} wire;

static void
wire_hook(void *arg __attribute__((unused)),
	  uint32_t sqn __attribute__((unused)), uint64_t time_ns,
	  const uint8_t *bytes, uint32_t len)
{
	if (wire.n >= WIRE_MAX)
		return;
	wire.t[wire.n] = time_ns;
	wire.len[wire.n] = len;
	memcpy(wire.bytes[wire.n], bytes, len < 1536 ? len : 1536);
	wire.n++;
}

static void
wire_start(struct t_dev *d)
{
	memset(&wire, 0, sizeof(wire));
	mlx5_emu_set_wire_hook(d->emu, wire_hook, NULL);
}

static int
open_empw(struct t_dev *d, const char *profile, const char *extra)
{
	const char *kv[] = { "clock=virtual", extra, NULL };
	int ret = t_open(d, profile, kv);

	d->allow_mpw = true;
	return ret;
}

/* Do the packets of @p p appear on the wire from @p first on, as posted? */
static bool
wire_has(uint32_t first, const struct t_empw_pkt *p, unsigned int n)
{
	unsigned int i;

	if (wire.n < first + n)
		return false;
	for (i = 0; i < n; i++)
		if (wire.len[first + i] != p[i].len ||
		    memcmp(wire.bytes[first + i], p[i].data, p[i].len) != 0)
			return false;
	return true;
}

static void
test_empw_caps(void)
{
	static uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)];
	static const char *const profiles[] = { "cx5", "cx6dx", "cx7" };
	void *cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)];
	struct mlx5_emu_cmd_error cerr;
	struct mlx5_emu_config cfg;
	struct t_dev d;
	struct t_sq s;
	char err[256];
	unsigned int i;

	memset(in, 0, sizeof(in));
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_GET_HCA_CAP_OP_MOD_ETHERNET_OFFLOAD_CAPS);
	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		CHECK(open_empw(&d, profiles[i], NULL) == 0, "open %s",
		      profiles[i]);
		CHECK(d.g->devx_general_cmd(d.dev, in, sizeof(in), out,
					    sizeof(out)) == 0, "eth caps");
		CHECK(MLX5_GET(per_protocol_networking_offload_caps, cap,
			       enhanced_multi_pkt_send_wqe) == 1 &&
		      MLX5_GET(per_protocol_networking_offload_caps, cap,
			       multi_pkt_send_wqe) == 1,
		      "%s reports eMPW and multi-packet WQEs", profiles[i]);
		CHECK(t_sq_ready(&d, &s, 6, 0) == 0,
		      "%s: SQ with allow_multi_pkt_send_wqe", profiles[i]);
		t_sq_destroy(&s);
		t_close(&d);
	}
	CHECK(open_empw(&d, "cx6dx", "cap_empw=0") == 0, "open cap_empw=0");
	d.g->devx_general_cmd(d.dev, in, sizeof(in), out, sizeof(out));
	CHECK(MLX5_GET(per_protocol_networking_offload_caps, cap,
		       enhanced_multi_pkt_send_wqe) == 0 &&
	      MLX5_GET(per_protocol_networking_offload_caps, cap,
		       multi_pkt_send_wqe) == 1, "cap_empw=0 clears eMPW only");
	t_close(&d);
	CHECK(open_empw(&d, "cx6dx", "cap_mpw=0") == 0, "open cap_mpw=0");
	d.g->devx_general_cmd(d.dev, in, sizeof(in), out, sizeof(out));
	CHECK(MLX5_GET(per_protocol_networking_offload_caps, cap,
		       multi_pkt_send_wqe) == 0, "cap_mpw=0 reported");
	CHECK(t_sq_create(&d, &s, 6, 7, 0, MLX5_SQC_STATE_RST) ==
	      -EREMOTEIO, "allow_multi_pkt_send_wqe without the capability");
	mlx5_emu_last_cmd_error(d.emu, &cerr);
	CHECK(cerr.opcode == MLX5_CMD_OP_CREATE_SQ &&
	      cerr.status == MLX5_CMD_STAT_BAD_PARAM_ERR,
	      "... refused with BAD_PARAM (0x%x)", cerr.status);
	t_sq_destroy(&s);
	t_close(&d);
	mlx5_emu_config_init(&cfg, "cx5");
	CHECK(mlx5_emu_config_set(&cfg, "cap_empw", "2", err, sizeof(err)) ==
	      -EINVAL && strstr(err, "cap_empw='2'") != NULL &&
	      strstr(err, "0 or 1") != NULL, "cap_empw=2 refused: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "cap_mpw", "4", err, sizeof(err)) ==
	      -EINVAL && strstr(err, "cap_mpw='4'") != NULL &&
	      strstr(err, "0..3") != NULL, "cap_mpw=4 refused: %s", err);
}

/*
 * Several packets per WQE, by pointer and inline (odd lengths, a packet
 * of several WQEBBs, one across the end of the ring), then a SEND: every
 * frame on the wire as posted, one CQE per WQE, counters per packet.
 */
static void
test_empw_wire(void)
{
	struct t_dev d;
	struct t_sq s;
	struct t_cqe c[8];
	struct mlx5_emu_sq_info info;
	struct t_empw_pkt p[5], q[3];
	uint8_t wqe[1024];
	uint32_t ds;
	uint16_t idx1, idx2;
	unsigned int n, i;

	CHECK(open_empw(&d, "cx6dx", NULL) == 0, "open cx6dx");
	CHECK(t_sq_ready(&d, &s, 4, 0) == 0, "SQ of 16 WQEBBs");
	wire_start(&d);
	p[0] = (struct t_empw_pkt){ t_frame(&d, 0, 64, 1), 64, false };
	p[1] = (struct t_empw_pkt){ t_frame(&d, 4096, 61, 2), 61, true };
	p[2] = (struct t_empw_pkt){ t_frame(&d, 8192, 1500, 3), 1500, false };
	p[3] = (struct t_empw_pkt){ t_frame(&d, 12288, 200, 4), 200, true };
	p[4] = (struct t_empw_pkt){ t_frame(&d, 16384, 14, 5), 14, false };
	idx1 = s.pi;
	ds = t_empw_build(&s, wqe, p, 5, true);
	CHECK(ds == 2 + 1 + 5 + 1 + 13 + 1, "ds %u", ds);
	t_post_wqe(&s, wqe, ds);
	t_post(&s, t_frame(&d, 20480, 100, 6), 100, 0, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 2 && c[0].opcode == MLX5_CQE_REQ &&
	      c[0].wqe_counter == idx1 && c[1].opcode == MLX5_CQE_REQ,
	      "one CQE for the eMPW WQE, one for the SEND (%u CQEs)", n);
	CHECK(wire.n == 6 && wire_has(0, p, 5),
	      "5 eMPW packets on the wire byte for byte (%u frames)", wire.n);
	CHECK(n == 2 && c[0].timestamp == wire.t[4],
	      "CQE time is the last packet's departure");
	mlx5_emu_sq_get(d.emu, s.sqn, &info);
	CHECK(info.packets == 6 && info.wqes == 2 &&
	      info.bytes == 64 + 61 + 1500 + 200 + 14 + 100,
	      "counters: %llu packets, %llu WQEs",
	      (unsigned long long)info.packets,
	      (unsigned long long)info.wqes);
	/* Fill up to 2 WQEBBs before the end: the next WQE wraps. */
	while ((s.pi & 15) != 14)
		t_post(&s, t_frame(&d, 24576, 60, 7), 60, 0, false);
	q[0] = (struct t_empw_pkt){ t_frame(&d, 28672, 90, 8), 90, true };
	q[1] = (struct t_empw_pkt){ t_frame(&d, 32768, 300, 9), 300, false };
	q[2] = (struct t_empw_pkt){ t_frame(&d, 36864, 100, 10), 100, true };
	idx2 = s.pi;
	ds = t_empw_build(&s, wqe, q, 3, true);
	t_post_wqe(&s, wqe, ds);
	t_ring(&s);
	wire.n = 0;
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ &&
	      c[0].wqe_counter == idx2,
	      "WQE across the ring's end completes");
	for (i = 0; i < wire.n && wire.len[i] == 60; i++)
		;
	CHECK(wire_has(i, q, 3) && wire.n == i + 3,
	      "inline packet across the ring's end intact");
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_sq_destroy(&s);
	t_close(&d);
}

/* How a case breaks a good WQE of two packets (64 B pointer, 60 B inline). */
enum empw_break {
	BRK_INLINE_HDR,
	BRK_VLAN,
	BRK_NO_PACKET,
	BRK_SHORT,
	BRK_LONG,
	BRK_ZERO,
	BRK_INLINE_PAST,
	BRK_LKEY,
	BRK_RANGE,
	BRK_NOT_ALLOWED,
	BRK_NO_CAP,
	BRK_POINTER_L2,
};

static void
empw_break(struct t_dev *d, struct t_sq *s __attribute__((unused)),
	   uint8_t *wqe, uint32_t *ds, enum empw_break brk)
{
	uint8_t *eseg = wqe + 16, *seg0 = wqe + 32, *seg1 = wqe + 48;

	switch (brk) {
	case BRK_INLINE_HDR:
		MLX5_SET(wqe_eth_seg, eseg, inline_hdr_sz, 18);
		break;
	case BRK_VLAN:
		MLX5_SET(wqe_eth_seg, eseg, inline_hdr_sz,
			 MLX5_ETH_WQE_INSERT_VLAN);
		MLX5_SET(wqe_eth_seg_vlan, eseg, vlan_tci, 5);
		break;
	case BRK_NO_PACKET:
		*ds = 2;
		MLX5_SET(wqe_ctrl_seg, wqe, ds, 2);
		break;
	case BRK_SHORT:
		MLX5_SET(wqe_data_seg, seg0, byte_count, 13);
		break;
	case BRK_LONG:
		MLX5_SET(wqe_data_seg, seg0, byte_count, 9979);
		break;
	case BRK_ZERO:
		MLX5_SET(wqe_data_seg, seg0, byte_count, 0);
		break;
	case BRK_INLINE_PAST:
		mlx5_prm_write32(seg1, 0, 61 | MLX5_INLINE_SEG);
		break;
	case BRK_LKEY:
		MLX5_SET(wqe_data_seg, seg0, lkey, d->mr->lkey + 1);
		break;
	case BRK_RANGE:
		MLX5_SET64(wqe_data_seg, seg0, addr,
			   (uint64_t)(uintptr_t)(d->buf + d->buf_sz - 32));
		break;
	case BRK_NOT_ALLOWED:
	case BRK_NO_CAP:
	case BRK_POINTER_L2:
		break; /* the WQE is good; the SQ or device is not */
	}
}

static void
test_empw_malformed(void)
{
	static const struct {
		enum empw_break brk;
		const char *what;
		const char *profile;
		const char *devarg;
		uint8_t syndrome;
	} cases[] = {
		{ BRK_INLINE_HDR, "inline header in the eSeg", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ BRK_VLAN, "VLAN insertion", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ BRK_NO_PACKET, "no packet", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ BRK_SHORT, "13-byte packet", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
		{ BRK_LONG, "9979-byte packet", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
		{ BRK_ZERO, "zero byte count", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
		{ BRK_INLINE_PAST, "inline data past the WQE", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
		{ BRK_LKEY, "unknown lkey", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
		{ BRK_RANGE, "data outside the MR", "cx6dx", NULL,
		  MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
		{ BRK_NOT_ALLOWED, "SQ without allow_multi_pkt_send_wqe",
		  "cx6dx", NULL, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ BRK_NO_CAP, "device without eMPW", "cx6dx", "cap_empw=0",
		  MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
		{ BRK_POINTER_L2, "packet by pointer where L2 must be inline",
		  "cx5", NULL, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
	};
	struct t_empw_pkt p[2];
	struct mlx5_emu_sq_info info;
	struct t_cqe c[4];
	struct t_dev d;
	struct t_sq s;
	uint8_t wqe[1024];
	uint32_t ds;
	unsigned int i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(open_empw(&d, cases[i].profile, cases[i].devarg) == 0,
		      "open %s", cases[i].profile);
		d.allow_mpw = cases[i].brk != BRK_NOT_ALLOWED;
		CHECK(t_sq_ready(&d, &s, 6, 0) == 0, "SQ");
		p[0] = (struct t_empw_pkt){ t_frame(&d, 0, 64, 1), 64, false };
		p[1] = (struct t_empw_pkt){ t_frame(&d, 4096, 60, 2), 60, true };
		ds = t_empw_build(&s, wqe, p, 2, true);
		empw_break(&d, &s, wqe, &ds, cases[i].brk);
		t_post_wqe(&s, wqe, ds);
		t_ring(&s);
		mlx5_emu_drain(d.emu);
		n = t_poll(&s, c, 4);
		mlx5_emu_sq_get(d.emu, s.sqn, &info);
		CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ_ERR &&
		      c[0].syndrome == cases[i].syndrome &&
		      c[0].wqe_counter == 0 && info.packets == 0 &&
		      info.state == MLX5_SQC_STATE_ERR,
		      "%s: error CQE syndrome 0x%x (want 0x%x), %llu sent",
		      cases[i].what, n ? c[0].syndrome : 0, cases[i].syndrome,
		      (unsigned long long)info.packets);
		t_sq_destroy(&s);
		t_close(&d);
	}
	/* Where L2 must be inline, packets inline in the WQE go. */
	CHECK(open_empw(&d, "cx5", NULL) == 0, "open cx5");
	CHECK(t_sq_ready(&d, &s, 6, 0) == 0, "SQ");
	wire_start(&d);
	p[0] = (struct t_empw_pkt){ t_frame(&d, 0, 64, 1), 64, true };
	p[1] = (struct t_empw_pkt){ t_frame(&d, 4096, 60, 2), 60, true };
	ds = t_empw_build(&s, wqe, p, 2, true);
	t_post_wqe(&s, wqe, ds);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 4);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ && wire_has(0, p, 2),
	      "cx5: all-inline eMPW departs");
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_sq_destroy(&s);
	t_close(&d);
}

/*
 * Pacing: a data-rate entry spaces every packet of an eMPW WQE by its own
 * bytes; a WQE-rate entry spaces WQEs, whose packets leave back to back.
 * Only WQEs that ask for a CQE get one.
 */
static void
test_empw_pacing(void)
{
	static const uint32_t lens[4] = { 125, 250, 125, 500 };
	struct mlx5_tm_pp *pp;
	struct t_empw_pkt p[4];
	struct t_cqe c[8];
	struct t_dev d;
	struct t_sq s;
	uint8_t wqe[1024];
	uint16_t last = 0;
	uint32_t ds;
	unsigned int i, k, n;
	bool ok;

	/* 1000 kbps: 125 bytes take 1 ms. */
	CHECK(open_empw(&d, "cx6dx", NULL) == 0, "open cx6dx");
	pp = t_pp(&d, 1000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL, "data-rate entry");
	CHECK(t_sq_ready(&d, &s, 6, pp != NULL ? pp->index : 0) == 0, "SQ");
	wire_start(&d);
	for (i = 0; i < 4; i++)
		p[i] = (struct t_empw_pkt){ t_frame(&d, 4096 * i, lens[i], i),
					    lens[i], false };
	for (k = 0; k < 2; k++) {
		last = s.pi;
		ds = t_empw_build(&s, wqe, p, 4, k == 1);
		t_post_wqe(&s, wqe, ds);
	}
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	ok = wire.n == 8;
	for (i = 1; ok && i < 8; i++)
		ok = wire.t[i] - wire.t[i - 1] == lens[(i - 1) % 4] * 8000ULL;
	CHECK(ok, "data rate: each packet paced by its own bytes");
	n = t_poll(&s, c, 8);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ &&
	      c[0].wqe_counter == last && c[0].timestamp == wire.t[7],
	      "one CQE, for the WQE that asked, at its last packet");
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_sq_destroy(&s);
	d.g->pp_free(pp);
	t_close(&d);

	/* 1000 WQEs/s: a WQE each millisecond, its 4 packets together. */
	CHECK(open_empw(&d, "cx6dx", NULL) == 0, "open cx6dx");
	pp = t_pp(&d, 1000, 0, MLX5_PP_RATE_MODE_WQE_RATE, 0, 0);
	CHECK(pp != NULL, "WQE-rate entry");
	CHECK(t_sq_ready(&d, &s, 6, pp != NULL ? pp->index : 0) == 0, "SQ");
	wire_start(&d);
	for (i = 0; i < 4; i++)
		p[i] = (struct t_empw_pkt){ t_frame(&d, 4096 * i, 100, i),
					    100, i % 2 == 1 };
	for (k = 0; k < 3; k++) {
		ds = t_empw_build(&s, wqe, p, 4, true);
		t_post_wqe(&s, wqe, ds);
	}
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	ok = wire.n == 12;
	for (i = 1; ok && i < 12; i++)
		ok = i % 4 == 0 ?
		     wire.t[i] - wire.t[i - 4] == 1000000 :
		     wire.t[i] - wire.t[i - 1] < 20;
	CHECK(ok, "WQE rate: 1 ms between WQEs, packets back to back");
	n = t_poll(&s, c, 8);
	CHECK(n == 3, "a CQE per WQE (%u)", n);
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_sq_destroy(&s);
	d.g->pp_free(pp);
	t_close(&d);
}

void
test_emu_empw(void)
{
	T_RUN(test_empw_caps());
	T_RUN(test_empw_wire());
	T_RUN(test_empw_malformed());
	T_RUN(test_empw_pacing());
}
