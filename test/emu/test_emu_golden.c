/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The wire of a fixed input, in virtual time, against a fingerprint
 * recorded from the model: three SQs sharing a 10 Gb/s line (unlimited,
 * data-rate paced with a burst bound, WQE-rate paced), SENDs with and
 * without inline headers, eMPW WQEs, doorbells rung while earlier WQEs
 * are still in flight and CQEs polled as they come. The pcap file
 * (departure times in ns, bytes), the wire hook's records, the CQEs
 * (WQE counters, timestamps) and the counters after every round (each
 * SQ's statistics, the port's) are hashed. The same input without pcap
 * or hook, the engine's path for testpmd, must give the same CQEs and
 * counters. A change of the engine that is
 * meant to keep its behaviour (speed-ups) must keep the fingerprints;
 * a change of what the model does must record new ones and say why.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_test_util.h"
#include "test_emu.h"

/*
 * Recorded from the model of issue 23's pacing rule: a paced SQ held
 * back by the line keeps its schedule (up to 16 KiB, 256 WQEs) instead of
 * one packet. Of this input, that moves the WQE-rate SQ, whose eMPW
 * WQEs' packets interleave with the others' on the line: 10 of its WQEs
 * leave earlier, and with them 297 of its 1596 departures (by up to
 * 3.9 us) and 278 of the other SQs'; the data-rate SQ never falls that
 * far behind. Before: pcap 0x67cdddf0d4cfc42d, hook 0x26ca6541fd6b7979,
 * CQE 0x390c73c58a952d79 (commit 05766eb), counters 0xa018463539624714
 * (commit 28133bc), which every speed-up since kept.
 *
 * Counters recorded again for issue 25's recent-rate window (a sender's
 * pause up to 100 ms counts as sending time, so the window says what an
 * SQ sent): only recent_bytes and recent_ns moved (without them the
 * fingerprint is 0x546f00bfa4420839 before and after); pcap, hook and
 * CQEs the same. Before: counters 0x5b139253825f3089.
 */
#define GOLDEN_PCAP 0x8d39630f0d59b0a6ULL
#define GOLDEN_HOOK 0xae987c6a16566e30ULL
#define GOLDEN_CQE 0xb9767e7af7f4ba8fULL
/* Every SQ's statistics and the port's counters after each round. */
#define GOLDEN_COUNTERS 0x9217d47fa2cd4b73ULL
#define GOLDEN_PACKETS 4794u
#define GOLDEN_CQES 2018u

#define GOLDEN_ROUNDS 400u
#define GOLDEN_SQS 3u

static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

#define FNV_START 0xcbf29ce484222325ULL

static struct {
	uint64_t hash;
	uint32_t packets;
} hook;

static void
golden_hook(void *arg __attribute__((unused)), uint32_t sqn, uint64_t time_ns,
	    const uint8_t *bytes, uint32_t len)
{
	hook.hash = fnv(hook.hash, &sqn, sizeof(sqn));
	hook.hash = fnv(hook.hash, &time_ns, sizeof(time_ns));
	hook.hash = fnv(hook.hash, &len, sizeof(len));
	hook.hash = fnv(hook.hash, bytes, len);
	hook.packets++;
}

static uint32_t golden_cqes, golden_errors;

/* The fields of a CQE (not the struct: its padding is undefined). */
static uint64_t
cqe_fold(uint64_t h, const struct t_cqe *c)
{
	h = fnv(h, &c->opcode, sizeof(c->opcode));
	h = fnv(h, &c->syndrome, sizeof(c->syndrome));
	h = fnv(h, &c->wqe_counter, sizeof(c->wqe_counter));
	h = fnv(h, &c->timestamp, sizeof(c->timestamp));
	golden_cqes += 1;
	golden_errors += c->opcode != MLX5_CQE_REQ;
	return fnv(h, &c->qpn, sizeof(c->qpn));
}

static uint64_t
file_hash(const char *path)
{
	uint64_t h = FNV_START;
	uint8_t buf[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (f == NULL)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		h = fnv(h, buf, n);
	fclose(f);
	return h;
}

/* Post round @p r's WQEs on SQ @p k: a few SENDs, now and then an eMPW. */
static void
golden_post(struct t_dev *d, struct t_sq *s, uint32_t k, uint32_t r)
{
	uint32_t n = 1 + (r * 7 + k * 3) % 6, i;
	size_t base = (size_t)k << 20;

	for (i = 0; i < n; i++) {
		uint32_t len = 60 + ((r * 131 + i * 37 + k * 11) % 1440);
		uint8_t *p = t_frame(d, base + (size_t)(i % 16) * 4096, len,
				     r * 16 + i + k);

		t_post(s, p, len, (i + r) % 3 == 0 ? 18 : 0,
		       (i + r) % 4 == 0 || i == n - 1);
	}
	if (r % 5 == k) {
		struct t_empw_pkt p[4];
		uint8_t wqe[1024];
		uint32_t ds;

		for (i = 0; i < 4; i++) {
			uint32_t len = 60 + ((r + i * 53) % 200);

			p[i] = (struct t_empw_pkt){
				t_frame(d, base + (size_t)(16 + i) * 4096, len,
					r + i),
				len, i % 2 == 1 };
		}
		ds = t_empw_build(s, wqe, p, 1 + r % 4, r % 2 == 0);
		t_post_wqe(s, wqe, ds);
	}
	t_ring(s);
}

/* The counters a run leaves: every SQ's statistics and the port's. */
static uint64_t
counters_fold(uint64_t h, struct t_dev *d, const struct t_sq *s)
{
	struct mlx5_emu_port_stats port;
	struct mlx5_emu_sq_info info;
	uint32_t k;

	for (k = 0; k < GOLDEN_SQS; k++) {
		mlx5_emu_sq_get(d->emu, s[k].sqn, &info);
		h = fnv(h, &info.hw_ci, sizeof(info.hw_ci));
		h = fnv(h, &info.packets, sizeof(info.packets));
		h = fnv(h, &info.bytes, sizeof(info.bytes));
		h = fnv(h, &info.wqes, sizeof(info.wqes));
		h = fnv(h, &info.cqes, sizeof(info.cqes));
		h = fnv(h, &info.first_departure_ns,
			sizeof(info.first_departure_ns));
		h = fnv(h, &info.last_departure_ns,
			sizeof(info.last_departure_ns));
		h = fnv(h, &info.min_gap_ns, sizeof(info.min_gap_ns));
		h = fnv(h, &info.max_gap_ns, sizeof(info.max_gap_ns));
		h = fnv(h, &info.recent_bytes, sizeof(info.recent_bytes));
		h = fnv(h, &info.recent_ns, sizeof(info.recent_ns));
	}
	mlx5_emu_get_port_stats(d->emu, &port);
	h = fnv(h, &port.packets, sizeof(port.packets));
	h = fnv(h, &port.bytes, sizeof(port.bytes));
	h = fnv(h, &port.wire_busy_ns, sizeof(port.wire_busy_ns));
	h = fnv(h, &port.cqes, sizeof(port.cqes));
	return fnv(h, &port.doorbells, sizeof(port.doorbells));
}

/* What one run of the fixed input gave. */
struct golden_result {
	uint64_t cqe_hash;
	uint64_t counters_hash; /* after every round and at the end */
};

/*
 * The fixed input on a device opened by the caller (@p d, wire capture
 * set up as the case wants), closed here.
 */
static void
golden_run(struct t_dev *d, struct golden_result *res)
{
	struct t_sq s[GOLDEN_SQS];
	struct mlx5_tm_pp *pp[2];
	struct t_cqe c[64];
	uint32_t r, k, n, i;

	res->cqe_hash = FNV_START;
	res->counters_hash = FNV_START;
	golden_cqes = 0;
	golden_errors = 0;
	d->allow_mpw = true;
	pp[0] = t_pp(d, 2000000, 8192, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	pp[1] = t_pp(d, 300000, 0, MLX5_PP_RATE_MODE_WQE_RATE, 0, 0);
	CHECK(pp[0] != NULL && pp[1] != NULL, "pacing entries");
	for (k = 0; k < GOLDEN_SQS; k++) {
		uint8_t st;
		uint16_t idx = k == 0 || pp[k - 1] == NULL ? 0 :
			       pp[k - 1]->index;

		CHECK(t_sq_create(d, &s[k], 9, 9, idx,
				  MLX5_SQC_STATE_RST) == 0 &&
		      t_sq_modify(&s[k], MLX5_SQC_STATE_RST,
				  MLX5_SQC_STATE_RDY, false, 0, &st) == 0,
		      "SQ %u", k);
	}
	for (r = 0; r < GOLDEN_ROUNDS; r++) {
		for (k = 0; k < GOLDEN_SQS; k++) {
			struct mlx5_emu_sq_info info;

			/* Room for a round: at most 40 WQEBBs in flight... */
			mlx5_emu_sq_get(d->emu, s[k].sqn, &info);
			if ((uint16_t)(s[k].pi - info.hw_ci) < 400)
				golden_post(d, &s[k], k, r);
			while ((n = t_poll(&s[k], c, 64)) > 0)
				for (i = 0; i < n; i++)
					res->cqe_hash = cqe_fold(res->cqe_hash,
								 &c[i]);
		}
		/* ...and time moves by 0.1 to 25 us between rounds. */
		mlx5_emu_advance(d->emu, 100 + (r * 7919) % 25000);
		res->counters_hash = counters_fold(res->counters_hash, d, s);
	}
	mlx5_emu_drain(d->emu);
	res->counters_hash = counters_fold(res->counters_hash, d, s);
	for (k = 0; k < GOLDEN_SQS; k++) {
		while ((n = t_poll(&s[k], c, 64)) > 0)
			for (i = 0; i < n; i++)
				res->cqe_hash = cqe_fold(res->cqe_hash, &c[i]);
		t_sq_destroy(&s[k]);
	}
	for (k = 0; k < 2; k++)
		if (pp[k] != NULL)
			d->g->pp_free(pp[k]);
	CHECK(golden_errors == 0 && golden_cqes == GOLDEN_CQES,
	      "%u CQEs, %u of them errors", golden_cqes, golden_errors);
}

static struct golden_result golden_captured;

static void
test_wire_fingerprint(void)
{
	static const char *const kv[] = { "clock=virtual", "line_rate=10G",
					  NULL };
	char path[] = "/tmp/emu-golden-XXXXXX";
	struct t_dev d;

	if (!t_open_pcap(&d, path, kv))
		return;
	hook.hash = FNV_START;
	hook.packets = 0;
	mlx5_emu_set_wire_hook(d.emu, golden_hook, NULL);
	golden_run(&d, &golden_captured);
	mlx5_emu_set_wire_hook(d.emu, NULL, NULL);
	CHECK(mlx5_emu_set_pcap(d.emu, NULL) == 0, "pcap off");
	t_close(&d);
	CHECK(hook.packets == GOLDEN_PACKETS, "%u packets on the wire",
	      hook.packets);
	CHECK(file_hash(path) == GOLDEN_PCAP, "pcap fingerprint 0x%016llx",
	      (unsigned long long)file_hash(path));
	CHECK(hook.hash == GOLDEN_HOOK, "wire hook fingerprint 0x%016llx",
	      (unsigned long long)hook.hash);
	CHECK(golden_captured.cqe_hash == GOLDEN_CQE,
	      "CQE fingerprint 0x%016llx",
	      (unsigned long long)golden_captured.cqe_hash);
	CHECK(golden_captured.counters_hash == GOLDEN_COUNTERS,
	      "counters fingerprint 0x%016llx",
	      (unsigned long long)golden_captured.counters_hash);
	unlink(path);
}

/*
 * Without pcap or wire hook (the engine's path for testpmd and the
 * benchmarks): the same CQEs and counters as with capture.
 */
static void
test_no_capture_same(void)
{
	static const char *const kv[] = { "clock=virtual", "line_rate=10G",
					  NULL };
	struct golden_result res;
	struct t_dev d;
	int ret = t_open(&d, "cx6dx", kv);

	CHECK(ret == 0, "open");
	if (ret != 0)
		return;
	golden_run(&d, &res);
	t_close(&d);
	CHECK(res.cqe_hash == GOLDEN_CQE, "CQE fingerprint 0x%016llx",
	      (unsigned long long)res.cqe_hash);
	CHECK(res.counters_hash == GOLDEN_COUNTERS,
	      "counters fingerprint 0x%016llx",
	      (unsigned long long)res.counters_hash);
}

void
test_emu_golden(void)
{
	T_RUN(test_wire_fingerprint());
	T_RUN(test_no_capture_same());
}
