/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Device-model datapath tests, in virtual time unless said otherwise:
 * pacing accuracy (data rate and WQE rate), line-rate sharing, live rate
 * change, CQ ring conventions, error CQEs and recovery, pcap, realtime.
 */

#include <inttypes.h>
#include <errno.h>
#include <inttypes.h>
#include <dirent.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "emu_test_util.h"
#include "test_emu.h"

#define REC_MAX 8192

static struct rec {
	uint32_t n;
	uint32_t sqn[REC_MAX];
	uint64_t t[REC_MAX];
	uint32_t len[REC_MAX];
	uint32_t sum[REC_MAX]; /* byte checksum of the frame */
	bool keep_bytes;
	uint8_t bytes[64][2048];
} rec;

static uint32_t
frame_sum(const uint8_t *b, uint32_t len)
{
	uint32_t s = 0, i;

	for (i = 0; i < len; i++)
		s = s * 131 + b[i];
	return s;
}

static void
rec_hook(void *arg __attribute__((unused)), uint32_t sqn, uint64_t time_ns,
	 const uint8_t *bytes, uint32_t len)
{
	if (rec.n >= REC_MAX)
		return;
	rec.sqn[rec.n] = sqn;
	rec.t[rec.n] = time_ns;
	rec.len[rec.n] = len;
	rec.sum[rec.n] = frame_sum(bytes, len);
	if (rec.keep_bytes && rec.n < 64 && len <= 2048)
		memcpy(rec.bytes[rec.n], bytes, len);
	rec.n++;
}

static void
rec_reset(void)
{
	rec.n = 0;
	rec.keep_bytes = false;
}

/* Rate of SQ @p sqn's departures in bits/s over first..last (n-1 gaps). */
static double
rec_rate_bps(uint32_t sqn, uint32_t from, uint32_t to, bool per_packet)
{
	uint64_t first = 0, last = 0, bytes = 0, pkts = 0, prev_len = 0;
	bool started = false;
	uint32_t i;

	for (i = from; i < to; i++) {
		if (rec.sqn[i] != sqn)
			continue;
		if (!started) {
			first = rec.t[i];
			started = true;
		} else {
			bytes += prev_len;
			pkts++;
		}
		prev_len = rec.len[i];
		last = rec.t[i];
	}
	if (last <= first)
		return 0;
	return (per_packet ? (double)pkts : (double)bytes * 8) * 1e9 /
	       (double)(last - first);
}

/* Post @p n frames of @p len bytes (CQE every 32 and at the end), ring. */
static void
post_n(struct t_sq *s, uint32_t n, uint32_t len, uint32_t inl, size_t off)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint8_t *p = t_frame(s->d, off + (size_t)(i % 64) * 2048, len,
				     i + s->sqn);

		t_post(s, p, len, inl, (i % 32) == 31 || i == n - 1);
	}
	t_ring(s);
}

static void
drain_cq(struct t_sq *s)
{
	struct t_cqe c[64];

	while (t_poll(s, c, 64) > 0)
		;
}

/*
 * One SQ per rate of @p rates on a @p profile device, 1200 packets each:
 * the achieved rate (bit/s, or WQE/s in WQE-rate mode) within 0.5 %.
 */
static void
rate_sweep(const char *profile, uint8_t mode, const uint32_t *rates,
	   size_t n)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	bool wqe_rate = mode == MLX5_PP_RATE_MODE_WQE_RATE;
	const char *unit = wqe_rate ? "WQE/s" : "kbps";
	struct t_dev d;
	size_t i;

	CHECK(t_open(&d, profile, kv) == 0, "open %s", profile);
	mlx5_emu_set_wire_hook(d.emu, rec_hook, NULL);
	for (i = 0; i < n; i++) {
		struct mlx5_tm_pp *pp = t_pp(&d, rates[i], 0, mode, 0, 0);
		double want = wqe_rate ? rates[i] : rates[i] * 1000.0;
		struct t_sq s;
		double r;

		CHECK(pp != NULL, "pp_alloc %u %s: errno %d", rates[i], unit,
		      errno);
		if (pp == NULL)
			continue;
		CHECK(t_sq_ready(&d, &s, 11, pp->index) == 0, "SQ");
		rec_reset();
		if (wqe_rate) {
			/* Mixed sizes: WQE-rate pacing ignores the size. */
			post_n(&s, 600, 64, 0, 0);
			post_n(&s, 600, 1000, 0, 0);
		} else {
			post_n(&s, 1200, 1000, 0, 0);
		}
		CHECK(mlx5_emu_drain(d.emu) == 0, "drain");
		CHECK(rec.n == 1200, "%u departures", rec.n);
		r = rec_rate_bps(s.sqn, 0, rec.n, wqe_rate);
		CHECK(fabs(r / want - 1) < 0.005,
		      "%u %s: achieved %.1f (%s)", rates[i], unit, r,
		      wqe_rate ? "WQE/s" : "bit/s");
		drain_cq(&s);
		t_sq_destroy(&s);
		d.g->pp_free(pp);
	}
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_close(&d);
}

static void
test_data_rate(void)
{
	static const uint32_t kbps[] = {
		1000, 10000, 100000, 1000000, 10000000, 40000000, 100000000,
	};

	rate_sweep("cx7", MLX5_PP_RATE_MODE_DATA_RATE, kbps,
		   sizeof(kbps) / sizeof(kbps[0]));
}

static void
test_wqe_rate(void)
{
	static const uint32_t wps[] = { 1000, 10000, 100000, 1000000,
					10000000 };

	rate_sweep("cx6dx", MLX5_PP_RATE_MODE_WQE_RATE, wps,
		   sizeof(wps) / sizeof(wps[0]));
}

static void
test_line_sharing(void)
{
	static const char *const kv[] = { "clock=virtual", "line_rate=10G",
					  NULL };
	struct t_dev d;
	struct t_sq a, b, c;
	struct mlx5_tm_pp *pp;
	double line = 10e9 * 1000.0 / (1000 + 24);
	struct mlx5_emu_port_stats ps;
	double ra, rb, rc;
	uint32_t i, alternations = 0;
	uint64_t db;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	mlx5_emu_set_wire_hook(d.emu, rec_hook, NULL);
	/* Two unlimited SQs share the line evenly, round robin. */
	CHECK(t_sq_ready(&d, &a, 11, 0) == 0, "SQ a");
	CHECK(t_sq_ready(&d, &b, 11, 0) == 0, "SQ b");
	rec_reset();
	/* Both ring the same UAR register before the model looks. */
	mlx5_emu_get_port_stats(d.emu, &ps);
	db = ps.doorbells;
	post_n(&a, 1000, 1000, 0, 0);
	post_n(&b, 1000, 1000, 0, 1 << 20);
	mlx5_emu_drain(d.emu);
	mlx5_emu_get_port_stats(d.emu, &ps);
	CHECK(ps.doorbells == db + 1, "one register change seen");
	CHECK(rec.n == 2000, "%u departures", rec.n);
	for (i = 1; i < rec.n; i++)
		alternations += rec.sqn[i] != rec.sqn[i - 1];
	CHECK(alternations == rec.n - 1, "round robin: %u alternations",
	      alternations);
	ra = rec_rate_bps(a.sqn, 0, rec.n, false);
	rb = rec_rate_bps(b.sqn, 0, rec.n, false);
	CHECK(fabs(ra / (line / 2) - 1) < 0.005, "SQ a %.0f bit/s", ra);
	CHECK(fabs(rb / (line / 2) - 1) < 0.005, "SQ b %.0f bit/s", rb);
	drain_cq(&a);
	drain_cq(&b);
	/* A paced SQ keeps its rate; the unlimited ones share the rest. */
	pp = t_pp(&d, 2000000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL, "pp 2 Gb/s");
	CHECK(t_sq_ready(&d, &c, 11, pp != NULL ? pp->index : 0) == 0, "SQ c");
	rec_reset();
	post_n(&a, 1000, 1000, 0, 0);
	post_n(&b, 1000, 1000, 0, 1 << 20);
	post_n(&c, 500, 1000, 0, 2 << 20);
	mlx5_emu_drain(d.emu);
	rc = rec_rate_bps(c.sqn, 0, rec.n, false);
	CHECK(fabs(rc / 2e9 - 1) < 0.005, "paced SQ %.0f bit/s", rc);
	/* While c sends, a and b get (line - 2G) / 2 each. */
	{
		uint32_t last_c = 0;

		for (i = 0; i < rec.n; i++)
			if (rec.sqn[i] == c.sqn)
				last_c = i;
		ra = rec_rate_bps(a.sqn, 0, last_c, false);
		CHECK(fabs(ra / ((line - 2e9) / 2) - 1) < 0.01,
		      "SQ a beside paced: %.0f bit/s", ra);
	}
	drain_cq(&a);
	drain_cq(&b);
	drain_cq(&c);
	t_sq_destroy(&a);
	t_sq_destroy(&b);
	t_sq_destroy(&c);
	if (pp != NULL)
		d.g->pp_free(pp);
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_close(&d);
}

static void
test_live_rate_change(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	struct mlx5_tm_pp *slow, *fast;
	struct mlx5_emu_pp_info pinfo[4];
	struct mlx5_emu_sq_info info;
	struct t_dev d;
	struct t_sq s;
	uint64_t t_mod;
	uint32_t i, split = 0;
	uint8_t st;
	double r1, r2;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	mlx5_emu_set_wire_hook(d.emu, rec_hook, NULL);
	slow = t_pp(&d, 100000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	fast = t_pp(&d, 200000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(slow != NULL && fast != NULL, "pp");
	if (slow == NULL || fast == NULL)
		goto out;
	CHECK(t_sq_ready(&d, &s, 11, slow->index) == 0, "SQ");
	rec_reset();
	post_n(&s, 1500, 1000, 0, 0);
	/* 1000 B at 100 Mb/s: 80 us each; change after ~600 departures. */
	mlx5_emu_advance(d.emu, 600 * 80000ULL + 40000);
	t_mod = mlx5_emu_now_ns(d.emu);
	drain_cq(&s);
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY, true,
			  fast->index, &st) == 0, "live MODIFY_SQ: status %u",
	      st);
	mlx5_emu_drain(d.emu);
	CHECK(rec.n == 1500, "%u departures", rec.n);
	for (i = 0; i < rec.n; i++)
		if (rec.t[i] <= t_mod)
			split = i + 1;
	CHECK(split > 550 && split < 650, "split at %u", split);
	r1 = rec_rate_bps(s.sqn, 0, split, false);
	r2 = rec_rate_bps(s.sqn, split, rec.n, false);
	CHECK(fabs(r1 / 100e6 - 1) < 0.005, "before: %.0f bit/s", r1);
	CHECK(fabs(r2 / 200e6 - 1) < 0.005, "after: %.0f bit/s", r2);
	/* The first departure after the change waits at most one slow gap. */
	CHECK(rec.t[split] - rec.t[split - 1] <= 80000,
	      "gap at change %llu ns",
	      (unsigned long long)(rec.t[split] - rec.t[split - 1]));
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 &&
	      info.pp_index == fast->index, "SQ index %u", info.pp_index);
	CHECK(mlx5_emu_pp_list(d.emu, pinfo, 4) == 2, "two entries");
	CHECK(pinfo[0].sq_users + pinfo[1].sq_users == 1, "one SQ user");
	d.g->pp_free(slow);
	slow = NULL;
	CHECK(mlx5_emu_pp_list(d.emu, pinfo, 4) == 1 &&
	      pinfo[0].index == fast->index, "slow entry cleared");
	drain_cq(&s);
	t_sq_destroy(&s);
out:
	if (slow != NULL)
		d.g->pp_free(slow);
	if (fast != NULL)
		d.g->pp_free(fast);
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_close(&d);
}

/*
 * An entry freed while an SQ names it, then allocated again (same index):
 * the SQ is a user of the new entry, and leaving it counts down to 0, not
 * below (the SQ-user count survived the reuse).
 */
static void
test_pp_reuse_under_sq(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	struct mlx5_tm_pp *old, *new = NULL;
	struct mlx5_emu_pp_info pinfo[4];
	struct t_dev d;
	struct t_sq s;
	uint16_t index;
	uint8_t st;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	old = t_pp(&d, 100000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(old != NULL, "pp");
	if (old == NULL)
		goto out;
	index = old->index;
	CHECK(t_sq_ready(&d, &s, 11, index) == 0, "SQ");
	d.g->pp_free(old);
	new = t_pp(&d, 300000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(new != NULL && new->index == index, "index %u reused",
	      new != NULL ? new->index : 0);
	CHECK(mlx5_emu_pp_list(d.emu, pinfo, 4) == 1 &&
	      pinfo[0].sq_users == 1, "the SQ uses the new entry: %u users",
	      pinfo[0].sq_users);
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY, true,
			  0, &st) == 0, "SQ to index 0: status %u", st);
	CHECK(mlx5_emu_pp_list(d.emu, pinfo, 4) == 1 &&
	      pinfo[0].sq_users == 0, "no SQ user left: %u",
	      pinfo[0].sq_users);
	t_sq_destroy(&s);
out:
	if (new != NULL)
		d.g->pp_free(new);
	t_close(&d);
}

static void
test_burst_bound(void)
{
	static const char *const kv[] = { "clock=virtual", "line_rate=10G",
					  NULL };
	struct mlx5_tm_pp *pp;
	struct t_dev d;
	struct t_sq s;
	uint32_t i, back_to_back = 0;
	double r;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	mlx5_emu_set_wire_hook(d.emu, rec_hook, NULL);
	/* 1 Gb/s with a 10000-byte bucket on a 10 Gb/s line. */
	pp = t_pp(&d, 1000000, 10000, MLX5_PP_RATE_MODE_DATA_RATE, 1000, 0);
	CHECK(pp != NULL, "pp with burst bound and typical size");
	if (pp == NULL)
		goto out;
	CHECK(t_sq_ready(&d, &s, 11, pp->index) == 0, "SQ");
	rec_reset();
	post_n(&s, 1200, 1000, 0, 0);
	mlx5_emu_drain(d.emu);
	CHECK(rec.n == 1200, "%u departures", rec.n);
	/* The full bucket leaves at line rate (819.2 ns per frame)... */
	for (i = 1; i < 20; i++)
		back_to_back += rec.t[i] - rec.t[i - 1] < 1000;
	CHECK(back_to_back >= 9 && back_to_back <= 11,
	      "%u frames back to back", back_to_back);
	/* ...then the entry's rate holds. */
	r = rec_rate_bps(s.sqn, 100, rec.n, false);
	CHECK(fabs(r / 1e9 - 1) < 0.005, "rate after the burst %.0f", r);
	drain_cq(&s);
	t_sq_destroy(&s);
	d.g->pp_free(pp);
out:
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_close(&d);
}

static void
test_doorbell_protocol(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	struct mlx5_emu_sq_info info;
	struct t_dev d;
	struct t_sq s;
	struct t_cqe c[8];
	uint64_t v;
	uint8_t *p;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(t_sq_ready(&d, &s, 6, 0) == 0, "SQ");
	p = t_frame(&d, 0, 100, 1);
	t_post(&s, p, 100, 0, true);
	/* The doorbell record alone does not ring. */
	mlx5_prm_write32(s.dbr + 8, MLX5_SND_DBR, s.pi);
	mlx5_emu_advance(d.emu, 100000);
	CHECK(t_poll(&s, c, 8) == 0, "no CQE without the UAR write");
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 && info.rung_pi == 0,
	      "nothing taken");
	/* The UAR write rings it. */
	memcpy(&v, s.last_ctrl, 8);
	__atomic_store_n((uint64_t *)d.uar->reg_addr, v, __ATOMIC_RELEASE);
	mlx5_emu_advance(d.emu, 100000);
	CHECK(t_poll(&s, c, 8) == 1 && c[0].opcode == MLX5_CQE_REQ,
	      "CQE after the UAR write");
	/* A UAR write without a doorbell record update takes nothing. */
	t_post(&s, p, 100, 0, true);
	memcpy(&v, s.last_ctrl, 8);
	__atomic_store_n((uint64_t *)d.uar->reg_addr, v, __ATOMIC_RELEASE);
	mlx5_emu_advance(d.emu, 100000);
	CHECK(t_poll(&s, c, 8) == 0, "no CQE without the record");
	/* The alternate BlueFlame buffer at +0x900 rings too. */
	mlx5_prm_write32(s.dbr + 8, MLX5_SND_DBR, s.pi);
	__atomic_store_n((uint64_t *)((uint8_t *)d.uar->base_addr + 0x900), v,
			 __ATOMIC_RELEASE);
	mlx5_emu_advance(d.emu, 100000);
	CHECK(t_poll(&s, c, 8) == 1, "ring through +0x900");
	t_sq_destroy(&s);
	t_close(&d);
}

static uint8_t
query_cq_status(struct t_sq *s)
{
	uint32_t in[MLX5_ST_SZ_DW(query_cq_in)];
	uint32_t out[MLX5_ST_SZ_DW(query_cq_out)];

	memset(in, 0, sizeof(in));
	MLX5_SET(query_cq_in, in, opcode, MLX5_CMD_OP_QUERY_CQ);
	MLX5_SET(query_cq_in, in, cqn, s->cqn);
	if (s->d->g->devx_obj_query(s->cq, in, sizeof(in), out,
				    sizeof(out)) != 0)
		return 0xff;
	return (uint8_t)MLX5_GET(cqc, MLX5_ADDR_OF(query_cq_out, out,
						   cq_context), status);
}

static void
test_cq_ring(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	struct mlx5_emu_port_stats ps;
	struct t_dev d;
	struct t_sq s;
	struct t_cqe c[8];
	uint32_t round, i, n, got = 0;
	uint16_t expect = 0;
	bool order_ok = true, ts_ok = true;
	uint64_t last_ts = 0;
	uint8_t st;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	/* A 4-entry CQ wraps five times; the owner bit tells new from old. */
	CHECK(t_sq_create(&d, &s, 6, 2, 0, MLX5_SQC_STATE_RST) == 0, "SQ");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == 0, "RDY");
	for (round = 0; round < 7; round++) {
		for (i = 0; i < 3; i++) {
			uint8_t *p = t_frame(&d, 0, 200, i);

			t_post(&s, p, 200, 0, true);
		}
		t_ring(&s);
		mlx5_emu_drain(d.emu);
		n = t_poll(&s, c, 8);
		got += n;
		for (i = 0; i < n; i++) {
			order_ok &= c[i].opcode == MLX5_CQE_REQ &&
				    c[i].wqe_counter == expect &&
				    c[i].qpn == s.sqn;
			ts_ok &= c[i].timestamp >= last_ts;
			last_ts = c[i].timestamp;
			expect++;
		}
	}
	CHECK(got == 21, "%u CQEs over 5 wraps", got);
	CHECK(order_ok, "CQE opcode, wqe_counter, qpn in order");
	CHECK(ts_ok, "timestamps non-decreasing");
	/* Not updating the consumer index overflows the CQ. */
	for (i = 0; i < 5; i++)
		t_post(&s, t_frame(&d, 0, 200, i), 200, 0, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	mlx5_emu_get_port_stats(d.emu, &ps);
	CHECK(ps.cq_overruns == 1, "%llu overruns",
	      (unsigned long long)ps.cq_overruns);
	CHECK(query_cq_status(&s) == MLX5_CQC_STATUS_CQ_OVERFLOW,
	      "CQ status overflow");
	t_sq_destroy(&s);
	t_close(&d);
}

/*
 * Upstream DPDK's Tx writes its 16-bit CQ consumer counter to the 24-bit
 * doorbell record (mlx5_tx_handle_completion), and works on hardware: past
 * 65536 CQEs the record goes back to 0 without overrunning the CQ.
 */
static void
test_cq_ci_16bit(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	struct mlx5_emu_port_stats ps;
	struct t_dev d;
	struct t_sq s;
	struct t_cqe c[16];
	uint32_t got = 0, n, i;
	uint8_t st;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(t_sq_create(&d, &s, 6, 4, 0, MLX5_SQC_STATE_RST) == 0, "SQ");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == 0, "RDY");
	while (got < 70000) {
		for (i = 0; i < 16; i++)
			t_post(&s, t_frame(&d, 0, 64, i), 64, 0, true);
		t_ring(&s);
		mlx5_emu_drain(d.emu);
		n = t_poll(&s, c, 16);
		got += n;
		mlx5_prm_write32(s.dbr, MLX5_CQ_SET_CI, s.cq_ci & 0xffff);
		if (n < 16)
			break;
	}
	mlx5_emu_get_port_stats(d.emu, &ps);
	CHECK(got >= 70000 && ps.cq_overruns == 0,
	      "16-bit consumer counter: %u CQEs, %llu overruns", got,
	      (unsigned long long)ps.cq_overruns);
	t_sq_destroy(&s);
	t_close(&d);
}

/*
 * A doorbell after a reset that writes the very bytes written before it:
 * the ring filled to the same index as before the error. A NIC takes
 * every write to its doorbell register; the model, which reads the
 * register's memory, must not miss it (it did when it polled between the
 * reset and the new write: the SQ never sent again).
 */
static void
test_doorbell_same_bytes_after_reset(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	struct mlx5_emu_sq_info info;
	struct t_dev d;
	struct t_sq s;
	struct t_cqe c[8];
	uint64_t before, after;
	uint8_t *p, st;
	unsigned int n;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(t_sq_ready(&d, &s, 6, 0) == 0, "SQ");
	p = t_frame(&d, 0, 300, 1);
	/* WQEs 0 and 1, then a bad lkey at 2: the doorbell names WQE 2. */
	t_post(&s, p, 300, 0, true);
	t_post(&s, p, 300, 0, true);
	t_post_raw(&s, 0, NULL, 0xdead, (uint64_t)(uintptr_t)p, 300, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	before = *(volatile uint64_t *)d.uar->reg_addr;
	n = t_poll(&s, c, 8);
	CHECK(n == 3 && c[2].opcode == MLX5_CQE_REQ_ERR, "error at WQE 2");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false,
			  0, &st) == 0, "ERR->RST");
	/* The device looks at its doorbells while the SQ is in reset. */
	mlx5_emu_drain(d.emu);
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false,
			  0, &st) == 0, "RST->RDY");
	mlx5_emu_drain(d.emu);
	/* The same three shapes again, the last with a good key. */
	t_post(&s, p, 300, 0, true);
	t_post(&s, p, 300, 0, true);
	t_post_raw(&s, 0, NULL, d.mr->lkey, (uint64_t)(uintptr_t)p, 300,
		   true);
	t_ring(&s);
	after = *(volatile uint64_t *)d.uar->reg_addr;
	CHECK(after == before, "the doorbell wrote the same bytes "
	      "(0x%016" PRIx64 ", 0x%016" PRIx64 ")", before, after);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 3 && c[0].opcode == MLX5_CQE_REQ &&
	      c[2].opcode == MLX5_CQE_REQ && c[2].wqe_counter == 2,
	      "all three sent after recovery: %u CQEs", n);
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 && info.hw_ci == 3,
	      "SQ consumed 3 WQEBBs: %u", info.hw_ci);
	t_sq_destroy(&s);
	t_close(&d);
}

static void
test_error_cqe_recovery(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	struct mlx5_emu_sq_info info;
	struct mlx5_emu_fault_wqe fw;
	struct t_dev d;
	struct t_sq s;
	struct t_cqe c[8];
	uint8_t *p, st;
	unsigned int n;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(t_sq_ready(&d, &s, 6, 0) == 0, "SQ");
	p = t_frame(&d, 0, 300, 1);
	/* A bad lkey: local protection error, SQ in error. */
	t_post(&s, p, 300, 0, true);
	t_post_raw(&s, 0, NULL, 0xdead, (uint64_t)(uintptr_t)p, 300, true);
	t_post(&s, p, 300, 0, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 2, "%u CQEs", n);
	CHECK(n >= 2 && c[0].opcode == MLX5_CQE_REQ, "first ok");
	CHECK(n >= 2 && c[1].opcode == MLX5_CQE_REQ_ERR &&
	      c[1].syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
	      c[1].wqe_counter == 1, "error CQE: op %u synd 0x%x idx %u",
	      c[1].opcode, c[1].syndrome, c[1].wqe_counter);
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 &&
	      info.state == MLX5_SQC_STATE_ERR && info.errors == 1,
	      "SQ in ERR");
	/* ERR -> RDY is refused; ERR -> RST -> RDY recovers. */
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RDY, false,
			  0, &st) == -EREMOTEIO &&
	      st == MLX5_CMD_STAT_BAD_RES_STATE_ERR, "ERR->RDY refused");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false,
			  0, &st) == 0, "ERR->RST");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false,
			  0, &st) == 0, "RST->RDY");
	t_post(&s, p, 300, 0, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ && c[0].wqe_counter == 0,
	      "send after recovery");
	/* A data segment beyond its MR: local protection error. */
	t_post_raw(&s, 0, NULL, d.mr->lkey,
		   (uint64_t)(uintptr_t)(d.buf + d.buf_sz - 100), 300, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ_ERR &&
	      c[0].syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
	      "out of MR range");
	t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false, 0, &st);
	t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0, &st);
	/* Zero-length data segment: local length error. */
	t_post_raw(&s, 14, p, d.mr->lkey, (uint64_t)(uintptr_t)p, 0, true);
	mlx5_prm_write32(s.sq_ring, 1, mlx5_prm_read32(s.sq_ring, 1) + 1);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ_ERR &&
	      c[0].syndrome == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
	      "zero-length segment: syndrome 0x%x", n ? c[0].syndrome : 0);
	t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false, 0, &st);
	t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0, &st);
	/* Injected: the 2nd WQE from now gets an error CQE. */
	fw.sqn = s.sqn;
	fw.nth = 2;
	fw.syndrome = MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	CHECK(mlx5_emu_fault_wqe(d.emu, &fw) == 0, "arm");
	t_post(&s, p, 300, 0, true);
	t_post(&s, p, 300, 0, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 2 && c[0].opcode == MLX5_CQE_REQ &&
	      c[1].opcode == MLX5_CQE_REQ_ERR &&
	      c[1].syndrome == MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
	      "injected WQE error");
	t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false, 0, &st);
	t_sq_destroy(&s);
	/* flush_in_error_en: WQEs posted after the bad one are flushed. */
	d.flush_in_error = true;
	CHECK(t_sq_ready(&d, &s, 6, 0) == 0, "SQ with flush_in_error_en");
	t_post(&s, p, 300, 0, true);
	t_post_raw(&s, 0, NULL, 0xdead, (uint64_t)(uintptr_t)p, 300, true);
	t_post(&s, p, 300, 0, true);
	t_post(&s, p, 300, 0, false);
	t_post(&s, p, 300, 0, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 8);
	CHECK(n == 4 && c[0].opcode == MLX5_CQE_REQ &&
	      c[1].syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR &&
	      c[2].opcode == MLX5_CQE_REQ_ERR &&
	      c[2].syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR &&
	      c[2].wqe_counter == 2 &&
	      c[3].syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR &&
	      c[3].wqe_counter == 4, "error then flush CQEs (%u)", n);
	/* MODIFY RDY->ERR flushes what is posted too. */
	t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false, 0, &st);
	t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0, &st);
	{
		struct mlx5_tm_pp *slow = t_pp(&d, 1000, 0, 0, 0, 0);

		CHECK(slow != NULL && t_sq_modify(&s, MLX5_SQC_STATE_RDY,
			MLX5_SQC_STATE_RDY, true, slow->index, &st) == 0,
		      "slow rate");
		t_post(&s, p, 300, 0, true);
		t_post(&s, p, 300, 0, true);
		t_ring(&s);
		mlx5_emu_advance(d.emu, 1000);
		CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_ERR,
				  false, 0, &st) == 0, "RDY->ERR");
		n = t_poll(&s, c, 8);
		CHECK(n == 2 && c[0].opcode == MLX5_CQE_REQ &&
		      c[1].syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR &&
		      c[1].wqe_counter == 1, "RDY->ERR flush (%u)", n);
		t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false,
			    0, &st);
		t_sq_destroy(&s);
		if (slow != NULL)
			d.g->pp_free(slow);
	}
	t_close(&d);
}

static void
test_inline_mode(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	uint32_t in[4], out[68];
	struct t_dev d;
	struct t_sq s;
	struct t_cqe c[4];
	uint8_t *p, *vp, st;
	unsigned int n;

	CHECK(t_open(&d, "cx5", kv) == 0, "open cx5");
	/* The vport context says L2 on this profile. */
	memset(in, 0, sizeof(in));
	in[0] = htobe32(0x754u << 16);
	CHECK(d.g->devx_general_cmd(d.dev, in, sizeof(in), out,
				    sizeof(out)) == 0, "QUERY_NIC_VPORT_CONTEXT");
	CHECK((be32toh(out[4]) >> 24 & 7) == MLX5_INLINE_MODE_L2,
	      "vport min_wqe_inline_mode L2");
	CHECK(t_sq_ready(&d, &s, 6, 0) == 0, "SQ");
	p = t_frame(&d, 0, 300, 3);
	t_post(&s, p, 300, 18, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 4);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ, "18 bytes inline ok");
	/* A VLAN-tagged frame needs 18 bytes, 14 is not enough. */
	vp = t_frame(&d, 4096, 300, 4);
	vp[12] = 0x81;
	vp[13] = 0x00;
	t_post(&s, vp, 300, 14, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 4);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ_ERR &&
	      c[0].syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
	      "tagged frame with 14 bytes inline refused");
	t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false, 0, &st);
	t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0, &st);
	t_post(&s, p, 300, 0, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, c, 4);
	CHECK(n == 1 && c[0].opcode == MLX5_CQE_REQ_ERR &&
	      c[0].syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
	      "no inline header refused on cx5");
	t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false, 0, &st);
	t_sq_destroy(&s);
	t_close(&d);
}

/*
 * Post @p len bytes of @p p with @p inl inline: 1 when it departs, 0 when
 * refused with a malformed-WQE error CQE (the SQ is made ready again), -1
 * for any other outcome.
 */
static int
inline_outcome(struct t_sq *s, struct mlx5_emu *emu, const uint8_t *p,
	       uint32_t len, uint32_t inl)
{
	struct t_cqe c[4];
	unsigned int n;
	uint8_t st;

	t_post(s, p, len, inl, true);
	t_ring(s);
	mlx5_emu_drain(emu);
	n = t_poll(s, c, 4);
	if (n == 1 && c[0].opcode == MLX5_CQE_REQ)
		return 1;
	t_sq_modify(s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false, 0, &st);
	t_sq_modify(s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0, &st);
	return n == 1 && c[0].opcode == MLX5_CQE_REQ_ERR &&
	       c[0].syndrome == MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR ? 0 : -1;
}

/* Header shapes of a test frame built by inline_frame(). */
struct inline_case {
	const char *name;
	bool vlan;         /* one 802.1Q tag before the ethertype */
	uint16_t type;     /* ethertype */
	uint8_t ihl;       /* IPv4 header words */
	uint8_t proto;     /* IP protocol / IPv6 next header */
	bool frag;         /* IPv4 non-first fragment */
	uint8_t doff;      /* TCP header words */
	uint32_t need_ip;  /* bytes the IP mode needs */
	uint32_t need_l4;  /* bytes the TCP_UDP mode needs */
};

static uint8_t *
inline_frame(struct t_dev *d, size_t off, const struct inline_case *k)
{
	uint8_t *p = t_frame(d, off, 200, 9);
	uint32_t l2 = 14;

	if (k->vlan) {
		p[12] = 0x81;
		p[13] = 0x00;
		p[14] = 0x00;
		p[15] = 0x05;
		l2 = 18;
	}
	p[l2 - 2] = (uint8_t)(k->type >> 8);
	p[l2 - 1] = (uint8_t)k->type;
	if (k->type == 0x0800) {
		p[l2] = (uint8_t)(0x40 | k->ihl);
		p[l2 + 6] = k->frag ? 0x00 : 0x40; /* DF, or offset 8*0xb9 */
		p[l2 + 7] = k->frag ? 0xb9 : 0x00;
		p[l2 + 9] = k->proto;
		if (k->proto == 6)
			p[l2 + k->ihl * 4 + 12] = (uint8_t)(k->doff << 4);
	} else if (k->type == 0x86dd) {
		p[l2] = 0x60;
		p[l2 + 6] = k->proto;
		if (k->proto == 6)
			p[l2 + 40 + 12] = (uint8_t)(k->doff << 4);
	}
	return p;
}

/*
 * Vport min_wqe_inline_mode IP and TCP_UDP (cap_vport_inline): a WQE
 * whose inline header stops one byte short of what the mode needs gets
 * an error CQE; exactly enough departs.
 */
static void
test_inline_vport_modes(void)
{
	static const struct inline_case cases[] = {
		{ "ipv4/udp", false, 0x0800, 5, 17, false, 0, 34, 42 },
		{ "ipv4+opts/tcp+opts", false, 0x0800, 6, 6, false, 8, 38, 70 },
		{ "vlan/ipv4/udp", true, 0x0800, 5, 17, false, 0, 38, 46 },
		{ "ipv6/tcp", false, 0x86dd, 0, 6, false, 5, 54, 74 },
		{ "ipv6/icmp", false, 0x86dd, 0, 58, false, 0, 54, 54 },
		{ "ipv4 fragment/tcp", false, 0x0800, 5, 6, true, 5, 34, 34 },
		{ "arp", false, 0x0806, 0, 0, false, 0, 14, 14 },
	};
	static const char *const modes[] = { "ip", "tcp_udp" };
	uint32_t in[4], out[68];
	unsigned int m, i;
	char kv_mode[40];
	const char *kv[] = { "clock=virtual", kv_mode, NULL };
	struct t_dev d;
	struct t_sq s;

	for (m = 0; m < 2; m++) {
		uint8_t want = m == 0 ? MLX5_INLINE_MODE_IP :
					MLX5_INLINE_MODE_TCP_UDP;

		snprintf(kv_mode, sizeof(kv_mode), "cap_vport_inline=%s",
			 modes[m]);
		if (t_open(&d, "cx5", kv) != 0) {
			CHECK(false, "open cx5 %s", kv_mode);
			continue;
		}
		memset(in, 0, sizeof(in));
		MLX5_SET(query_nic_vport_context_in, in, opcode,
			 MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
		CHECK(d.g->devx_general_cmd(d.dev, in, sizeof(in), out,
					    sizeof(out)) == 0 &&
		      MLX5_GET(query_nic_vport_context_out, out,
			       nic_vport_context.min_wqe_inline_mode) == want,
		      "%s: vport min_wqe_inline_mode %u", modes[m], want);
		CHECK(t_sq_ready(&d, &s, 6, 0) == 0, "SQ");
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			const struct inline_case *k = &cases[i];
			uint32_t need = m == 0 ? k->need_ip : k->need_l4;
			uint8_t *p = inline_frame(&d, 4096 * (i + 1), k);

			CHECK(inline_outcome(&s, d.emu, p, 200, need - 1) == 0,
			      "%s %s: %u inline bytes refused", modes[m],
			      k->name, need - 1);
			CHECK(inline_outcome(&s, d.emu, p, 200, need) == 1,
			      "%s %s: %u inline bytes accepted", modes[m],
			      k->name, need);
		}
		t_sq_destroy(&s);
		t_close(&d);
	}
	/* The name and the number forms agree; garbage is refused. */
	{
		struct mlx5_emu_config cfg;
		char err[160];

		mlx5_emu_config_init(&cfg, "cx5");
		CHECK(mlx5_emu_config_set(&cfg, "cap_vport_inline", "tcp_udp",
					  err, sizeof(err)) == 0 &&
		      cfg.vport_inline_mode == MLX5_INLINE_MODE_TCP_UDP,
		      "cap_vport_inline=tcp_udp");
		CHECK(mlx5_emu_config_set(&cfg, "cap_vport_inline", "none",
					  err, sizeof(err)) == 0 &&
		      cfg.vport_inline_mode == MLX5_INLINE_MODE_NONE,
		      "cap_vport_inline=none");
		CHECK(mlx5_emu_config_set(&cfg, "cap_vport_inline", "l3",
					  err, sizeof(err)) == -EINVAL &&
		      strstr(err, "tcp_udp") != NULL,
		      "cap_vport_inline=l3 refused: %s", err);
	}
}

/* QUERY_VPORT_COUNTER: Tx frames and L2 bytes by destination class; clear. */
static void
query_vport_tx(struct t_dev *d, bool clear, uint64_t v[3][2])
{
	uint32_t in[MLX5_ST_SZ_DW(query_vport_counter_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_vport_counter_out)] = { 0 };
	const size_t off[3] = {
		MLX5_BIT_OFF(query_vport_counter_out, transmitted_eth_unicast),
		MLX5_BIT_OFF(query_vport_counter_out,
			     transmitted_eth_multicast),
		MLX5_BIT_OFF(query_vport_counter_out,
			     transmitted_eth_broadcast),
	};
	int i, ret;

	MLX5_SET(query_vport_counter_in, in, opcode,
		 MLX5_CMD_OP_QUERY_VPORT_COUNTER);
	MLX5_SET(query_vport_counter_in, in, clear, clear ? 1 : 0);
	ret = d->g->devx_general_cmd(d->dev, in, sizeof(in), out, sizeof(out));
	CHECK(ret == 0, "QUERY_VPORT_COUNTER: %d", ret);
	for (i = 0; i < 3; i++) {
		const uint8_t *c = (const uint8_t *)out + off[i] / 8;

		v[i][0] = MLX5_GET64(traffic_counter, c, packets);
		v[i][1] = MLX5_GET64(traffic_counter, c, octets);
	}
}

static void
test_vport_counter(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	uint32_t in[MLX5_ST_SZ_DW(query_vport_counter_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_vport_counter_out)] = { 0 };
	uint64_t v[3][2];
	struct t_dev d;
	struct t_sq s;
	uint8_t *p;
	uint32_t i;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(t_sq_ready(&d, &s, 8, 0) == 0, "SQ");
	query_vport_tx(&d, false, v);
	CHECK(v[0][0] == 0 && v[1][0] == 0 && v[2][0] == 0 &&
	      v[0][1] == 0, "counters start at 0");
	/* 3 unicast frames of 100 bytes, 2 multicast of 200, 1 broadcast. */
	for (i = 0; i < 6; i++) {
		uint32_t len = i < 3 ? 100 : i < 5 ? 200 : 300;

		p = t_frame(&d, (size_t)i * 4096, len, i);
		if (i >= 3 && i < 5)
			p[0] = 0x01;
		else if (i == 5)
			memset(p, 0xff, 6);
		t_post(&s, p, len, 18, i == 5);
	}
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	query_vport_tx(&d, true, v);
	CHECK(v[0][0] == 3 && v[0][1] == 300, "unicast %" PRIu64 "/%" PRIu64,
	      v[0][0], v[0][1]);
	CHECK(v[1][0] == 2 && v[1][1] == 400, "multicast %" PRIu64 "/%"
	      PRIu64, v[1][0], v[1][1]);
	CHECK(v[2][0] == 1 && v[2][1] == 300, "broadcast %" PRIu64 "/%"
	      PRIu64, v[2][0], v[2][1]);
	query_vport_tx(&d, false, v);
	CHECK(v[0][0] == 0 && v[1][0] == 0 && v[2][0] == 0,
	      "clear zeroed the counters");
	/* Each packet of an eMPW WQE counts in its own class. */
	{
		struct t_empw_pkt e[3];
		uint8_t wqe[1024];
		struct t_sq m;

		d.allow_mpw = true;
		CHECK(t_sq_ready(&d, &m, 8, 0) == 0, "eMPW SQ");
		for (i = 0; i < 3; i++) {
			p = t_frame(&d, (size_t)(8 + i) * 4096, 100, i);
			if (i == 1)
				memset(p, 0xff, 6);
			else if (i == 2)
				p[0] = 0x01;
			e[i] = (struct t_empw_pkt){ p, 100, i == 2 };
		}
		t_post_wqe(&m, wqe, t_empw_build(&m, wqe, e, 3, true));
		t_ring(&m);
		mlx5_emu_drain(d.emu);
		query_vport_tx(&d, true, v);
		CHECK(v[0][0] == 1 && v[1][0] == 1 && v[2][0] == 1,
		      "eMPW unicast, broadcast, multicast: %" PRIu64 "/%"
		      PRIu64 "/%" PRIu64, v[0][0], v[1][0], v[2][0]);
		t_sq_destroy(&m);
	}
	/* Another vport is not ours to read. */
	MLX5_SET(query_vport_counter_in, in, opcode,
		 MLX5_CMD_OP_QUERY_VPORT_COUNTER);
	MLX5_SET(query_vport_counter_in, in, other_vport, 1);
	CHECK(d.g->devx_general_cmd(d.dev, in, sizeof(in), out,
				    sizeof(out)) == -EREMOTEIO,
	      "other_vport refused");
	t_sq_destroy(&s);
	t_close(&d);
}

/*
 * CQE time stamps per sqc.ts_format: free running (0) in ticks of the
 * 1 GHz clock, default (1) and real time (2) as seconds:nanoseconds.
 */
static void
test_cqe_ts_format(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	const uint64_t at = 5123456789ULL; /* past 2^32 ns */
	uint8_t fmt;

	for (fmt = 0; fmt <= 2; fmt++) {
		struct t_cqe c[4];
		struct t_dev d;
		struct t_sq s;
		uint64_t want;
		unsigned int n;

		CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
		d.ts_format = fmt;
		CHECK(t_sq_ready(&d, &s, 8, 0) == 0, "SQ, ts_format %u", fmt);
		mlx5_emu_advance(d.emu, at);
		t_post(&s, t_frame(&d, 0, 100, 1), 100, 18, true);
		t_ring(&s);
		mlx5_emu_drain(d.emu);
		n = t_poll(&s, c, 4);
		want = fmt == 0 ? at : (at / 1000000000ULL) << 32 |
		       at % 1000000000ULL;
		CHECK(n == 1 && c[0].timestamp == want, "ts_format %u: CQE "
		      "time stamp 0x%" PRIx64 ", expected 0x%" PRIx64, fmt,
		      n ? c[0].timestamp : 0, want);
		t_sq_destroy(&s);
		t_close(&d);
	}
}

/* The model's log lines about the capture (test_pcap_write_failure). */
static unsigned int pcap_failed_logs, pcap_incomplete_logs;

static void
pcap_log(int level, const char *msg)
{
	if (level == 3 && strstr(msg, "pcap=/dev/full: writing the capture "
			       "failed after") != NULL &&
	    strstr(msg, "No space left on device") != NULL)
		pcap_failed_logs++;
	if (level == 3 && strstr(msg, "pcap=/dev/full: the capture is "
			       "incomplete") != NULL)
		pcap_incomplete_logs++;
}

/*
 * A capture whose writes fail (/dev/full: it opens, every write fails
 * with ENOSPC): the error kept for mlx5_emu_pcap_error(), logged once, the
 * capture ended, frames still sent; its close returns the error and logs
 * it again; a new capture starts clean.
 */
static void
test_pcap_write_failure(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	char path[] = "/tmp/emu-test-XXXXXX";
	struct mlx5_emu_port_stats ps;
	struct mlx5_tm_pp *pp;
	struct t_dev d;
	struct t_sq s;
	uint32_t i;
	int fd;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(mlx5_emu_set_pcap(d.emu, "/dev/full") == 0, "pcap on /dev/full");
	pcap_failed_logs = pcap_incomplete_logs = 0;
	mlx5_emu_set_log(pcap_log);
	pp = t_pp(&d, 1000000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL && t_sq_ready(&d, &s, 8, pp->index) == 0, "SQ");
	CHECK(mlx5_emu_pcap_error(d.emu) == 0, "no error before a frame");
	/* 40 frames of 1500 bytes: more than the capture's stdio buffer. */
	for (i = 0; i < 40; i++)
		t_post(&s, t_frame(&d, (size_t)i * 4096, 1500, i), 1500, 20,
		       true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	mlx5_emu_get_port_stats(d.emu, &ps);
	CHECK(ps.packets == 40, "%" PRIu64 " frames sent", ps.packets);
	CHECK(mlx5_emu_pcap_error(d.emu) == ENOSPC, "error %d",
	      mlx5_emu_pcap_error(d.emu));
	CHECK(pcap_failed_logs == 1, "failure logged %u times",
	      pcap_failed_logs);
	CHECK(mlx5_emu_set_pcap(d.emu, NULL) == -ENOSPC, "close says ENOSPC");
	CHECK(pcap_incomplete_logs == 1, "close logged %u times",
	      pcap_incomplete_logs);
	CHECK(mlx5_emu_pcap_error(d.emu) == ENOSPC, "error kept after close");
	mlx5_emu_set_log(t_quiet_log);
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	if (fd >= 0) {
		close(fd);
		CHECK(mlx5_emu_set_pcap(d.emu, path) == 0 &&
		      mlx5_emu_pcap_error(d.emu) == 0, "a new capture: clean");
		CHECK(mlx5_emu_set_pcap(d.emu, NULL) == 0, "pcap off");
		unlink(path);
	}
	drain_cq(&s);
	t_sq_destroy(&s);
	if (pp != NULL)
		d.g->pp_free(pp);
	t_close(&d);
}

static void
test_pcap_and_bytes(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	char path[] = "/tmp/emu-test-XXXXXX";
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	struct mlx5_tm_pp *pp;
	struct t_dev d;
	struct t_sq s;
	pcap_t *pc;
	uint32_t i, n = 0, ts_ok = 0, bytes_ok = 0, orig_ok = 0;

	if (!t_open_pcap(&d, path, kv))
		return;
	mlx5_emu_set_wire_hook(d.emu, rec_hook, NULL);
	pp = t_pp(&d, 1000000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL && t_sq_ready(&d, &s, 8, pp->index) == 0, "SQ");
	rec_reset();
	rec.keep_bytes = true;
	/* Frames of varied sizes, 20 inline bytes + a data segment. */
	for (i = 0; i < 40; i++) {
		uint32_t len = 60 + i * 37;
		uint8_t *p = t_frame(&d, (size_t)i * 4096, len, i * 3);

		t_post(&s, p, len, 20, true);
	}
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	for (i = 0; i < rec.n && i < 40; i++) {
		uint32_t len = 60 + i * 37;

		orig_ok += rec.len[i] == len &&
			   memcmp(rec.bytes[i], d.buf + (size_t)i * 4096,
				  len) == 0;
	}
	CHECK(orig_ok == 40, "hook bytes equal the posted frames (%u)",
	      orig_ok);
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	CHECK(mlx5_emu_set_pcap(d.emu, NULL) == 0, "pcap off");
	pc = pcap_open_offline_with_tstamp_precision(path,
		PCAP_TSTAMP_PRECISION_NANO, errbuf);
	CHECK(pc != NULL, "pcap_open_offline: %s", errbuf);
	if (pc != NULL) {
		CHECK(pcap_datalink(pc) == DLT_EN10MB, "Ethernet");
		while (pcap_next_ex(pc, &h, &data) == 1 && n < rec.n) {
			uint64_t ns = (uint64_t)h->ts.tv_sec * 1000000000ULL +
				      (uint64_t)h->ts.tv_usec;

			ts_ok += ns == rec.t[n];
			bytes_ok += h->caplen == rec.len[n] &&
				    memcmp(data, rec.bytes[n], h->caplen) == 0;
			n++;
		}
		pcap_close(pc);
	}
	CHECK(n == 40, "%u pcap records", n);
	CHECK(ts_ok == 40, "pcap ns timestamps equal departures (%u)", ts_ok);
	CHECK(bytes_ok == 40, "pcap bytes equal the wire (%u)", bytes_ok);
	unlink(path);
	drain_cq(&s);
	t_sq_destroy(&s);
	if (pp != NULL)
		d.g->pp_free(pp);
	t_close(&d);
}

/* Records of the capture at @p path as it is on disk now (0: none yet). */
static uint32_t
pcap_records_now(const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	uint32_t n = 0;
	pcap_t *pc;

	pc = pcap_open_offline_with_tstamp_precision(path,
		PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (pc == NULL)
		return 0;
	while (pcap_next_ex(pc, &h, &data) == 1)
		n++;
	pcap_close(pc);
	return n;
}

/*
 * The capture reaches the file while the port runs, not only at close:
 * a pass of the engine at least 500 ms of real time after the last flush
 * flushes (emu_wire.c). Five 60-byte frames stay in libpcap's buffer
 * otherwise. The sleep only makes the flush due: load cannot fail it.
 */
static void
test_pcap_flushed_while_running(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	char path[] = "/tmp/emu-test-XXXXXX";
	const struct timespec wait = { .tv_sec = 0, .tv_nsec = 600000000 };
	struct mlx5_tm_pp *pp;
	struct t_dev d;
	struct t_sq s;
	uint32_t i, n;

	if (!t_open_pcap(&d, path, kv))
		return;
	pp = t_pp(&d, 1000000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL && t_sq_ready(&d, &s, 8, pp->index) == 0, "SQ");
	for (i = 0; i < 5; i++)
		t_post(&s, t_frame(&d, (size_t)i * 4096, 60, i), 60, 20, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	nanosleep(&wait, NULL);
	CHECK(mlx5_emu_advance(d.emu, 1000) == 0, "a pass");
	n = pcap_records_now(path);
	CHECK(n == 5, "%u of 5 frames in the capture while it is open", n);
	CHECK(mlx5_emu_set_pcap(d.emu, NULL) == 0, "pcap off");
	unlink(path);
	drain_cq(&s);
	t_sq_destroy(&s);
	if (pp != NULL)
		d.g->pp_free(pp);
	t_close(&d);
}

static void
test_realtime(void)
{
	static const char *const kv[] = { "cpus=0", NULL };
	struct mlx5_emu_sq_info info;
	struct mlx5_emu_lag lag;
	struct mlx5_tm_pp *pp;
	struct t_dev d;
	struct t_sq s;
	struct t_cqe c[16];
	uint32_t got = 0, i, last = 0;
	uint64_t t0;
	double r;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open realtime on cpu 0");
	CHECK(mlx5_emu_clock(d.emu) == MLX5_EMU_CLOCK_REALTIME, "realtime");
	CHECK(mlx5_emu_advance(d.emu, 10) == -ENOTSUP, "no advance");
	mlx5_emu_set_wire_hook(d.emu, rec_hook, NULL);
	rec_reset();
	pp = t_pp(&d, 100000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL && t_sq_ready(&d, &s, 8, pp->index) == 0, "SQ");
	/* 200 x 1000 B at 100 Mb/s: 16 ms of departures; a CQE every 10. */
	for (i = 0; i < 200; i++)
		t_post(&s, t_frame(&d, 0, 1000, i), 1000, 0, i % 10 == 9);
	t_ring(&s);
	t0 = mlx5_emu_now_ns(d.emu);
	while (last != 199 && mlx5_emu_now_ns(d.emu) - t0 < 5000000000ULL) {
		struct timespec ts = { 0, 1000000 };
		unsigned int n = t_poll(&s, c, 16);

		got += n;
		if (n > 0)
			last = c[n - 1].wqe_counter;
		nanosleep(&ts, NULL);
	}
	CHECK(got == 20 && last == 199, "%u CQEs from the device thread, "
	      "last WQE %u", got, last);
	r = rec_rate_bps(s.sqn, 0, rec.n, false);
	CHECK(fabs(r / 100e6 - 1) < 0.005, "realtime rate %.0f bit/s", r);
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 &&
	      info.packets == 200 && info.bytes == 200000, "SQ counters");
	mlx5_emu_get_lag(d.emu, &lag);
	CHECK(lag.passes > 0 && lag.threshold_ns == 1000000, "lag info");
	CHECK(mlx5_emu_drain(d.emu) == 0, "drain realtime");
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	t_sq_destroy(&s);
	if (pp != NULL)
		d.g->pp_free(pp);
	t_close(&d);
}

static unsigned int lag_warnings;

static void
count_lag_warnings(int level, const char *msg)
{
	if (level == 4 && strstr(msg, "cannot keep up in real time") != NULL)
		lag_warnings++;
	if (level <= 3 && getenv("EMU_TEST_VERBOSE") != NULL)
		printf("model: %s\n", msg);
}

/*
 * Lag accounting, driven with passes made late on purpose
 * (mlx5_emu_account_pass()) in virtual time: a pass later than the
 * threshold counts, is remembered for a second of device time as
 * "lagging" (pacing accuracy lost: testpmd read lagging 0 at every read
 * while emu_max_lag_ns said 12 ms), and warns once.
 */
static void
test_lag_accounting(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	struct mlx5_emu_lag lag;
	struct t_dev d;

	if (t_open(&d, "cx6dx", kv) != 0) {
		CHECK(false, "open");
		return;
	}
	lag_warnings = 0;
	mlx5_emu_set_log(count_lag_warnings);
	CHECK(mlx5_emu_advance(d.emu, 10000000) == 0, "to 10 ms");
	/* 0.5 ms late: below the 1 ms threshold. */
	CHECK(mlx5_emu_account_pass(d.emu, 10000000, 9500000) == 0, "pass");
	mlx5_emu_get_lag(d.emu, &lag);
	CHECK(lag.lag_ns == 500000 && lag.late_passes == 0 &&
	      !lag.lagging && lag_warnings == 0,
	      "0.5 ms: lag %llu, late %llu, lagging %d, warnings %u",
	      (unsigned long long)lag.lag_ns,
	      (unsigned long long)lag.late_passes, lag.lagging, lag_warnings);
	/* 4 ms, then 8 ms late. */
	CHECK(mlx5_emu_account_pass(d.emu, 10000000, 6000000) == 0 &&
	      mlx5_emu_account_pass(d.emu, 10000000, 2000000) == 0, "late");
	mlx5_emu_get_lag(d.emu, &lag);
	CHECK(lag.late_passes == 2 && lag.total_late_passes == 2 &&
	      lag.max_lag_ns == 8000000 && lag.lagging,
	      "late: %llu late passes, max %llu ns, lagging %d",
	      (unsigned long long)lag.late_passes,
	      (unsigned long long)lag.max_lag_ns, lag.lagging);
	CHECK(lag_warnings == 1, "%u warnings, want 1", lag_warnings);
	/* A pass on time right after does not clear it. */
	CHECK(mlx5_emu_account_pass(d.emu, 10000000, 10000000) == 0, "pass");
	CHECK(mlx5_emu_advance(d.emu, 500000000) == 0, "+0.5 s");
	mlx5_emu_take_lag(d.emu, &lag);
	CHECK(lag.lag_ns == 0 && lag.late_passes == 2 && lag.lagging,
	      "0.5 s after: lag %llu, late %llu, lagging %d",
	      (unsigned long long)lag.lag_ns,
	      (unsigned long long)lag.late_passes, lag.lagging);
	mlx5_emu_get_lag(d.emu, &lag);
	CHECK(lag.late_passes == 0 && lag.total_late_passes == 2 &&
	      lag.lagging, "taken: late %llu, total %llu, lagging %d",
	      (unsigned long long)lag.late_passes,
	      (unsigned long long)lag.total_late_passes, lag.lagging);
	/* A second after the last late pass, accuracy is back. */
	CHECK(mlx5_emu_advance(d.emu, 600000000) == 0, "+0.6 s");
	mlx5_emu_get_lag(d.emu, &lag);
	CHECK(!lag.lagging && lag.total_late_passes == 2,
	      "1.1 s after: lagging %d", lag.lagging);
	CHECK(mlx5_emu_account_pass(d.emu, 2000000000, 1000000000) == 0,
	      "late again");
	CHECK(lag_warnings == 1, "warned again: %u", lag_warnings);
	CHECK(mlx5_emu_account_pass(d.emu, 1, 2) == -EINVAL &&
	      mlx5_emu_account_pass(NULL, 2, 1) == -EINVAL,
	      "a departure due after now, or no device");
	/* It stays installed: quiet as test_emu.c's, but for the count. */
	t_close(&d);
}

/* The CPU set of this process's device thread (one device open). */
static bool
device_thread_cpus(cpu_set_t *set)
{
	char path[300], comm[32];
	struct dirent *e;
	bool found = false;
	DIR *dir = opendir("/proc/self/task");
	FILE *f;

	while (dir != NULL && !found && (e = readdir(dir)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "r");
		if (f == NULL)
			continue;
		if (fgets(comm, sizeof(comm), f) != NULL &&
		    strcmp(comm, "mlx5-emu\n") == 0)
			found = sched_getaffinity(atoi(e->d_name),
						  sizeof(*set), set) == 0;
		fclose(f);
	}
	if (dir != NULL)
		closedir(dir);
	return found;
}

/*
 * Opens a realtime device as the PMD does, telling it @p busy (the
 * worker lcores' CPUs), with cpus=@p cpus unless NULL; checks that the
 * device thread runs on @p want.
 */
static void
check_placement(const char *what, const cpu_set_t *busy, const char *cpus,
		const cpu_set_t *want)
{
	const struct mlx5_tm_glue *g = &mlx5_tm_glue_emu;
	struct mlx5_tm_glue_dev *dev;
	cpu_set_t got;
	char err[256];
	void *opts = g->opts_new("cx6dx", err, sizeof(err));

	CHECK(opts != NULL, "%s: options: %s", what, err);
	if (opts == NULL)
		return;
	g->opts_busy_cpus(opts, busy);
	CHECK(cpus == NULL ||
	      g->opts_set(opts, "cpus", cpus, err, sizeof(err)) == 0,
	      "%s: cpus=%s: %s", what, cpus, err);
	dev = g->open_device("cx6dx", opts);
	g->opts_free(opts);
	CHECK(dev != NULL, "%s: open", what);
	if (dev == NULL)
		return;
	CHECK(device_thread_cpus(&got) && CPU_EQUAL(&got, want),
	      "%s: device thread on %d CPUs, want %d", what, CPU_COUNT(&got),
	      CPU_COUNT(want));
	CHECK(g->close_device(dev) == 0, "%s: close", what);
}

/*
 * The device thread keeps off the CPUs the application keeps busy (EAL's
 * worker lcores, which the PMD passes), on every online CPU when they are
 * all busy; cpus= overrides. Needs this process free to use every online
 * CPU and at least two of them.
 */
static void
test_thread_placement(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t all, first, rest, mine;
	long c;

	CPU_ZERO(&all);
	for (c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET(c, &all);
	if (n < 2 || sched_getaffinity(0, sizeof(mine), &mine) != 0 ||
	    !CPU_EQUAL(&mine, &all)) {
		t_case_skip("needs 2 online CPUs, all usable");
		return;
	}
	CPU_ZERO(&first);
	CPU_SET(0, &first);
	CPU_XOR(&rest, &all, &first);
	check_placement("worker lcore on CPU 0", &first, NULL, &rest);
	check_placement("every CPU a worker lcore", &all, NULL, &all);
	check_placement("cpus=0 over a worker lcore on CPU 0", &first, "0",
			&first);
}

/*
 * mtu=: a frame longer than MTU + 18 bytes (MLX5E_SW2HW_MTU, FCS aside)
 * completes without error and is counted, not sent; port_set_mtu moves
 * the limit.
 */
static void
test_port_mtu(void)
{
	static const char *const kv[] = { "clock=virtual", "mtu=1500", NULL };
	static const uint32_t lens[] = { 1518, 1519, 1518 };
	struct mlx5_emu_port_stats ps;
	struct mlx5_emu_sq_info info;
	struct mlx5_tm_port_info port;
	struct t_cqe cqe[4];
	struct t_dev d;
	struct t_sq s;
	unsigned int i, n;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(t_sq_ready(&d, &s, 8, 0) == 0, "SQ");
	CHECK(d.g->port_query(d.dev, &port) == 0 && port.mtu == 1500 &&
	      port.max_mtu == 9960 && port.link_up && !port.switchdev,
	      "port: MTU %u max %u", port.mtu, port.max_mtu);
	for (i = 0; i < 3; i++)
		t_post(&s, t_frame(&d, (size_t)i * 16384, lens[i], i), lens[i],
		       18, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	n = t_poll(&s, cqe, 4);
	CHECK(n == 3 && cqe[0].opcode == MLX5_CQE_REQ &&
	      cqe[1].opcode == MLX5_CQE_REQ && cqe[2].opcode == MLX5_CQE_REQ,
	      "%u CQEs, opcodes %u %u %u", n, cqe[0].opcode, cqe[1].opcode,
	      cqe[2].opcode);
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 && info.packets == 2 &&
	      info.mtu_drops == 1 && info.errors == 0,
	      "%" PRIu64 " sent, %" PRIu64 " dropped", info.packets,
	      info.mtu_drops);
	mlx5_emu_get_port_stats(d.emu, &ps);
	CHECK(ps.mtu_drops == 1 && ps.packets == 2, "port: %" PRIu64
	      " dropped", ps.mtu_drops);
	CHECK(d.g->port_set_mtu(d.dev, 9961) == -EINVAL &&
	      d.g->port_set_mtu(d.dev, 1501) == 0 && mlx5_emu_mtu(d.emu) == 1501,
	      "set MTU");
	t_post(&s, t_frame(&d, 0, 1519, 7), 1519, 18, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 && info.packets == 3,
	      "1519 bytes at MTU 1501: %" PRIu64 " sent", info.packets);
	t_sq_destroy(&s);
	t_close(&d);
}

/* eswitch=switchdev: an SQ without an E-Switch rule sends nothing. */
static void
test_port_switchdev(void)
{
	static const char *const kv[] = { "clock=virtual", "eswitch=switchdev",
					  NULL };
	struct mlx5_emu_sq_info info;
	struct mlx5_tm_port_info port;
	struct mlx5_emu_config cfg;
	char err[256];
	struct t_dev d;
	struct t_sq s;

	mlx5_emu_config_init(&cfg, "cx6dx");
	CHECK(mlx5_emu_config_set(&cfg, "eswitch", "offloads", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "eswitch='offloads'") != NULL &&
	      strstr(err, "legacy, switchdev") != NULL, "refusal: %s", err);
	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(d.g->port_query(d.dev, &port) == 0 && port.switchdev,
	      "switchdev not reported");
	CHECK(t_sq_ready(&d, &s, 8, 0) == 0, "SQ");
	t_post(&s, t_frame(&d, 0, 100, 1), 100, 18, true);
	t_post(&s, t_frame(&d, 4096, 100, 2), 100, 18, true);
	t_ring(&s);
	mlx5_emu_drain(d.emu);
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 && info.packets == 0 &&
	      info.eswitch_drops == 2, "%" PRIu64 " sent, %" PRIu64
	      " dropped", info.packets, info.eswitch_drops);
	t_sq_destroy(&s);
	t_close(&d);
}

/*
 * Rate table: index 0 reserved (size 3: entries 1 and 2), pp_foreign
 * holds one; without packet_pacing_uid pp_alloc fails EOPNOTSUPP;
 * rst2rdy_pp=ignore keeps the index through RST->RDY.
 */
static void
test_pp_sharing_and_uid(void)
{
	static const char *const kv[] = { "clock=virtual",
		"cap_pp_table_size=3", "pp_foreign=1", "rst2rdy_pp=ignore",
		NULL };
	static const char *const kv_uid[] = { "clock=virtual",
		"cap_packet_pacing_uid=0", NULL };
	struct mlx5_emu_pp_info e[4];
	struct mlx5_emu_sq_info info;
	struct mlx5_tm_pp *a, *b;
	struct t_dev d;
	struct t_sq s;
	uint8_t st;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	CHECK(mlx5_emu_pp_list(d.emu, e, 4) == 1 && e[0].index == 1 &&
	      e[0].user == 0, "foreign entry");
	a = t_pp(&d, 100000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	errno = 0;
	b = t_pp(&d, 200000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(a != NULL && a->index == 2 && b == NULL && errno == ENOSPC,
	      "table of 3: index %u, then errno %d", a ? a->index : 0, errno);
	CHECK(a != NULL && t_sq_create(&d, &s, 6, 6, 0, MLX5_SQC_STATE_RST)
	      == 0, "SQ");
	if (a != NULL) {
		CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY,
				  true, a->index, &st) == 0 &&
		      mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 &&
		      info.pp_index == 0, "RST->RDY applied index %u",
		      info.pp_index);
		CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY,
				  true, a->index, &st) == 0 &&
		      mlx5_emu_sq_get(d.emu, s.sqn, &info) == 0 &&
		      info.pp_index == a->index, "RDY->RDY index %u",
		      info.pp_index);
		t_sq_destroy(&s);
		d.g->pp_free(a);
	}
	t_close(&d);
	CHECK(t_open(&d, "cx6dx", kv_uid) == 0, "open without uid");
	errno = 0;
	a = t_pp(&d, 100000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(a == NULL && errno == EOPNOTSUPP, "pp_alloc: errno %d", errno);
	if (a != NULL)
		d.g->pp_free(a);
	t_close(&d);
}

void
test_emu_datapath(void)
{
	T_RUN(test_data_rate());
	T_RUN(test_wqe_rate());
	T_RUN(test_line_sharing());
	T_RUN(test_burst_bound());
	T_RUN(test_doorbell_protocol());
	T_RUN(test_live_rate_change());
	T_RUN(test_pp_reuse_under_sq());
	T_RUN(test_cq_ring());
	T_RUN(test_cq_ci_16bit());
	T_RUN(test_error_cqe_recovery());
	T_RUN(test_doorbell_same_bytes_after_reset());
	T_RUN(test_inline_mode());
	T_RUN(test_inline_vport_modes());
	T_RUN(test_pcap_and_bytes());
	T_RUN(test_pcap_write_failure());
	T_RUN(test_pcap_flushed_while_running());
	T_RUN(test_port_mtu());
	T_RUN(test_port_switchdev());
	T_RUN(test_pp_sharing_and_uid());
	T_RUN(test_vport_counter());
	T_RUN(test_cqe_ts_format());
	T_RUN(test_realtime());
	T_RUN(test_lag_accounting());
	T_RUN(test_thread_placement());
}
