/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The rte_tm hierarchy in the NIC's scheduling elements, on the device
 * model in virtual time (clock=virtual: rates are measured on the model's
 * wire clock, not the host's): weights, a leaf capped below its share,
 * committed rates, three levels, live shaper, weight and parent changes
 * without a packet lost or reordered per queue, every firmware command of
 * a commit failing in turn with nothing leaked, a device without the
 * hierarchy (cx5), and a device that refuses an SQ with both a pacing
 * index and a queue group.
 *
 * Usage: test_tm_sched [EAL args]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_tm.h>

#include "mlx5_emu.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_pacing.h"
#include "rte_pmd_mlx5_tm.h"
#include "tm_check.h"
#include "tm_port.h"
#include "test_eal.h"

unsigned int tm_check_passed;
unsigned int tm_check_failed;

#define NB_TXQ 4
#define FRAME 1000
#define ROOT 1000
#define MID 900
#define MID2 901
#define NONE RTE_TM_SHAPER_PROFILE_ID_NONE
/* The device of every case but two: a ConnectX-6 Dx in virtual time. */
#define CX6DX "emu=cx6dx,clock=virtual"
#define MBPS 125000ull /* bytes/s */
#define MS 1000000ull  /* ns */
/* Measured over 1 s of device time: ~200 DWRR rounds at these rates. */
#define WARMUP (100 * MS)
#define WINDOW (1000 * MS)
/* The queues the cases keep backlogged: the leaves 0..2. */
#define LEAVES 0x7

static struct rte_mempool *pool;

/* One port and what its wire saw, per queue. */
struct tport {
	struct tm_port port;
	uint32_t sqn[NB_TXQ];
	uint32_t sent[NB_TXQ];     /* frames posted (sequence numbers) */
	uint32_t next[NB_TXQ];     /* sequence expected on the wire */
	uint32_t disorder[NB_TXQ]; /* frames out of sequence */
	uint64_t from, to;         /* measurement window, device ns */
	uint64_t bytes[NB_TXQ];    /* in the window */
};

static void
wire_hook(void *arg, uint32_t sqn, uint64_t time_ns, const uint8_t *bytes,
	  uint32_t len)
{
	struct tport *p = arg;
	uint32_t seq;
	uint16_t q;

	for (q = 0; q < NB_TXQ; q++)
		if (p->sqn[q] == sqn)
			break;
	if (q == NB_TXQ)
		return;
	memcpy(&seq, bytes + 14, sizeof(seq));
	if (seq != p->next[q])
		p->disorder[q]++;
	p->next[q] = seq + 1;
	if (time_ns >= p->from && time_ns < p->to)
		p->bytes[q] += len;
}

/* Open a started port on @p devargs, its wire watched; false: it failed. */
static bool
tport_open(struct tport *p, const char *devargs)
{
	uint16_t q;

	memset(p, 0, sizeof(*p));
	if (tm_port_open(&p->port, devargs, NB_TXQ, true) != 0) {
		CHECK(false, "port %s", devargs);
		return false;
	}
	for (q = 0; q < NB_TXQ; q++)
		if (rte_pmd_mlx5_tm_txq_sqn(p->port.id, q, &p->sqn[q]) != 0) {
			CHECK(false, "SQ of queue %u", q);
			tm_port_close(&p->port);
			return false;
		}
	mlx5_emu_set_wire_hook(p->port.emu, wire_hook, p);
	return true;
}

static int
profile(struct tport *p, uint32_t id, uint64_t peak, uint64_t committed)
{
	struct rte_tm_shaper_params sp;

	memset(&sp, 0, sizeof(sp));
	sp.peak.rate = peak;
	sp.committed.rate = committed;
	return TM(rte_tm_shaper_profile_add(p->port.id, id, &sp, &terr));
}

static int
node(struct tport *p, uint32_t id, uint32_t parent, uint32_t weight,
     uint32_t level, uint32_t prof)
{
	struct rte_tm_node_params np = id < NB_TXQ ? tm_leaf_params(prof) :
					  tm_nonleaf_params(prof);

	return TM(rte_tm_node_add(p->port.id, id, parent, 0, weight, level,
				  &np, &terr));
}

/* Post frames on queue @p q until its ring is full. */
static void
fill(struct tport *p, uint16_t q)
{
	struct rte_mbuf *m[64];
	uint16_t i, sent;

	do {
		if (rte_pktmbuf_alloc_bulk(pool, m, RTE_DIM(m)) != 0)
			return;
		for (i = 0; i < RTE_DIM(m); i++) {
			uint8_t *d = (uint8_t *)rte_pktmbuf_append(m[i],
								   FRAME);
			uint32_t seq = p->sent[q] + i;

			memset(d, 0, 18);
			d[0] = 0x02;  /* locally administered unicast */
			d[12] = 0x08; /* IPv4 ethertype */
			memcpy(d + 14, &seq, sizeof(seq));
		}
		sent = rte_eth_tx_burst(p->port.id, q, m, RTE_DIM(m));
		p->sent[q] += sent;
		for (i = sent; i < RTE_DIM(m); i++)
			rte_pktmbuf_free(m[i]);
	} while (sent == RTE_DIM(m));
}

/* Keep every queue in @p mask backlogged for @p ns of device time. */
static void
run(struct tport *p, unsigned int mask, uint64_t ns)
{
	uint64_t end = mlx5_emu_now_ns(p->port.emu) + ns;
	uint16_t q;

	while (mlx5_emu_now_ns(p->port.emu) < end) {
		for (q = 0; q < NB_TXQ; q++)
			if (mask & (1u << q))
				fill(p, q);
		mlx5_emu_advance(p->port.emu, MS);
	}
}

/* Backlog leaves 0..2, then measure a window; rates in Mbit/s. */
static void
measure(struct tport *p, double *mbps)
{
	uint16_t q;

	run(p, LEAVES, WARMUP);
	memset(p->bytes, 0, sizeof(p->bytes));
	p->from = mlx5_emu_now_ns(p->port.emu);
	p->to = p->from + WINDOW;
	run(p, LEAVES, WINDOW);
	for (q = 0; q < NB_TXQ; q++)
		mbps[q] = (double)p->bytes[q] * 8 / 1e6 * 1e9 / WINDOW;
	printf("  measured (Mbit/s of frames over %llu ms of device time): "
	       "%.2f %.2f %.2f %.2f\n", WINDOW / MS, mbps[0], mbps[1],
	       mbps[2], mbps[3]);
}

/* Commit the hierarchy, then measure(). */
static void
commit_measure(struct tport *p, double *mbps)
{
	EXPECT_OK(rte_tm_hierarchy_commit(p->port.id, 0, &terr), "commit");
	measure(p, mbps);
}

/*
 * Stop sending, let every frame leave: each went out once, in order. The
 * port closes.
 */
static void
drain_close(struct tport *p, const char *what)
{
	uint16_t q;

	run(p, 0, 500 * MS);
	for (q = 0; q < NB_TXQ; q++)
		CHECK(p->next[q] == p->sent[q] && p->disorder[q] == 0,
		      "%s: queue %u: %u posted, %u left, %u out of sequence",
		      what, q, p->sent[q], p->next[q], p->disorder[q]);
	tm_port_close(&p->port);
}

static bool
near(double got, double want, double tol)
{
	return got >= want * (1 - tol) && got <= want * (1 + tol);
}

/* The hierarchy of most cases: a root, group 900, leaves 0..2. */
struct group_spec {
	uint64_t ceiling;      /* Mbit/s of group 900 (profile 1) */
	uint32_t w[3];         /* leaf weights */
	uint32_t prof[3];      /* leaf profiles: 2, 3 or NONE */
	uint64_t peak[2];      /* Mbit/s of profiles 2 and 3 (0: none) */
	uint64_t committed[2]; /* their committed Mbit/s */
};

/* Open a port on @p devargs with the hierarchy @p g, not committed. */
static bool
group_port(struct tport *p, const char *devargs, const struct group_spec *g)
{
	uint16_t q;

	if (!tport_open(p, devargs))
		return false;
	for (q = 0; q < 2; q++)
		if (g->peak[q] != 0)
			EXPECT_OK(profile(p, 2 + q, g->peak[q] * MBPS,
					  g->committed[q] * MBPS),
				  "profile %u", 2 + q);
	EXPECT_OK(profile(p, 1, g->ceiling * MBPS, 0), "group profile");
	EXPECT_OK(node(p, ROOT, RTE_TM_NODE_ID_NULL, 1, 0, NONE), "root");
	EXPECT_OK(node(p, MID, ROOT, 1, 1, 1), "900");
	for (q = 0; q < 3; q++)
		EXPECT_OK(node(p, q, MID, g->w[q], 2, g->prof[q]), "leaf %u",
			  q);
	return true;
}

static void
test_weights(void)
{
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 2, 5 }, .prof = { NONE, NONE, NONE },
	};
	static const double want[3] = { 50, 100, 250 };
	double mbps[NB_TXQ];
	struct tport p;
	uint16_t q;

	printf("weights 1:2:5 under 400 Mbit/s, virtual time\n");
	if (!group_port(&p, CX6DX, &g))
		return;
	commit_measure(&p, mbps);
	for (q = 0; q < 3; q++)
		CHECK(near(mbps[q], want[q], 0.005), "leaf %u: %.2f Mbit/s, "
		      "%.0f expected within 0.5%%", q, mbps[q], want[q]);
	drain_close(&p, "weights");
}

static void
test_capped_leaf(void)
{
	static const struct group_spec g = {
		.ceiling = 300, .w = { 1, 1, 1 }, .prof = { 2, NONE, NONE },
		.peak = { 50 },
	};
	double mbps[NB_TXQ];
	struct tport p;

	printf("a leaf capped below its share gives the surplus away\n");
	if (!group_port(&p, CX6DX, &g))
		return;
	commit_measure(&p, mbps);
	CHECK(near(mbps[0], 50, 0.01) && near(mbps[1], 125, 0.01) &&
	      near(mbps[2], 125, 0.01), "50/125/125 Mbit/s expected: %.2f "
	      "%.2f %.2f", mbps[0], mbps[1], mbps[2]);
	drain_close(&p, "capped leaf");
}

static void
test_committed(void)
{
	/* Leaf 0: 200 Mbit/s committed, peak 400; two plain siblings. */
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 1, 1 }, .prof = { 3, NONE, NONE },
		.peak = { 0, 400 }, .committed = { 0, 200 },
	};
	double mbps[NB_TXQ];
	struct tport p;

	printf("committed rates met under contention\n");
	if (!group_port(&p, CX6DX, &g))
		return;
	commit_measure(&p, mbps);
	CHECK(mbps[0] >= 200 * 0.995 && near(mbps[1], mbps[2], 0.01) &&
	      near(mbps[0] + mbps[1] + mbps[2], 400, 0.005),
	      "leaf 0 at least 200 Mbit/s, the rest shared: %.2f %.2f %.2f",
	      mbps[0], mbps[1], mbps[2]);
	drain_close(&p, "committed");
}

static void
test_three_levels(void)
{
	double mbps[NB_TXQ];
	struct tport p;

	printf("three levels: 600 Mbit/s, 1:2 below, leaves below\n");
	if (!tport_open(&p, CX6DX))
		return;
	EXPECT_OK(profile(&p, 1, 600 * MBPS, 0), "600 Mbit/s");
	EXPECT_OK(node(&p, ROOT, RTE_TM_NODE_ID_NULL, 1, 0, NONE), "root");
	EXPECT_OK(node(&p, 800, ROOT, 1, 1, 1), "800");
	EXPECT_OK(node(&p, MID, 800, 1, 2, NONE), "900");
	EXPECT_OK(node(&p, MID2, 800, 2, 2, NONE), "901");
	EXPECT_OK(node(&p, 0, MID, 1, 3, NONE), "leaf 0");
	EXPECT_OK(node(&p, 1, MID, 1, 3, NONE), "leaf 1");
	EXPECT_OK(node(&p, 2, MID2, 1, 3, NONE), "leaf 2");
	commit_measure(&p, mbps);
	CHECK(near(mbps[0], 100, 0.005) && near(mbps[1], 100, 0.005) &&
	      near(mbps[2], 400, 0.005), "100/100/400 Mbit/s expected: %.2f "
	      "%.2f %.2f", mbps[0], mbps[1], mbps[2]);
	drain_close(&p, "three levels");
}

/* Live changes while every queue sends: each takes effect, hitless. */
static void
test_live(void)
{
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 1, 2 }, .prof = { NONE, NONE, NONE },
		.peak = { 200 },
	};
	double mbps[NB_TXQ];
	struct tport p;

	printf("live shaper, weight and parent changes, hitless\n");
	if (!group_port(&p, CX6DX, &g))
		return;
	EXPECT_OK(node(&p, MID2, ROOT, 1, 1, 2), "901 at 200 Mbit/s");
	commit_measure(&p, mbps);
	CHECK(near(mbps[0], 100, 0.005) && near(mbps[2], 200, 0.005),
	      "before: %.2f %.2f %.2f", mbps[0], mbps[1], mbps[2]);
	/* Shaper: the group at 200 Mbit/s. */
	EXPECT_OK(rte_tm_node_shaper_update(p.port.id, MID, 2, &terr),
		  "shaper");
	measure(&p, mbps);
	CHECK(near(mbps[0] + mbps[1] + mbps[2], 200, 0.005) &&
	      near(mbps[2], 100, 0.005), "shaper 200: %.2f %.2f %.2f",
	      mbps[0], mbps[1], mbps[2]);
	/* Weight: leaf 2 from 2 to 1 under the same parent. */
	EXPECT_OK(rte_tm_node_parent_update(p.port.id, 2, MID, 0, 1, &terr),
		  "weight");
	measure(&p, mbps);
	CHECK(near(mbps[0], mbps[2], 0.01) && near(mbps[2], 66.67, 0.01),
	      "weights 1:1:1: %.2f %.2f %.2f", mbps[0], mbps[1], mbps[2]);
	/* Parent: leaf 2 to 901 (200 Mbit/s of its own). */
	EXPECT_OK(rte_tm_node_parent_update(p.port.id, 2, MID2, 0, 1, &terr),
		  "parent");
	measure(&p, mbps);
	CHECK(near(mbps[0], 100, 0.005) && near(mbps[1], 100, 0.005) &&
	      near(mbps[2], 200, 0.005), "moved: %.2f %.2f %.2f", mbps[0],
	      mbps[1], mbps[2]);
	drain_close(&p, "live changes");
}

/* What the device holds: elements, entries, each SQ's group and index. */
struct device_view {
	unsigned int elems;
	unsigned int entries;
	uint16_t group[NB_TXQ];
	uint16_t index[NB_TXQ];
};

static void
device_view(const struct tport *p, struct device_view *v)
{
	struct mlx5_emu_sq_info sq;
	uint16_t q;

	memset(v, 0, sizeof(*v));
	v->elems = mlx5_emu_sched_list(p->port.emu, NULL, 0);
	v->entries = mlx5_emu_pp_list(p->port.emu, NULL, 0);
	for (q = 0; q < NB_TXQ; q++)
		if (mlx5_emu_sq_get(p->port.emu, p->sqn[q], &sq) == 0) {
			v->group[q] = sq.qos_queue_group_id;
			v->index[q] = sq.pp_index;
		}
}

/* Live change @p k (0: group ceiling, 1: leaf 2's weight), or its undo. */
static int
live_change(struct tport *p, int k, bool undo)
{
	if (k == 0)
		return TM(rte_tm_node_shaper_update(p->port.id, MID,
						    undo ? 1 : 3, &terr));
	return TM(rte_tm_node_parent_update(p->port.id, 2, MID, 0,
					    undo ? 5 : 1, &terr));
}

/*
 * Live change @p k, or the commit when @p k is negative, with command
 * @p op failing at its @p nth; what the device held before and after in
 * @p a and @p b.
 */
static int
change_faulted(struct tport *p, int k, uint16_t op, uint32_t nth,
	       struct device_view *a, struct device_view *b)
{
	struct mlx5_emu_fault_cmd fc;
	int ret;

	device_view(p, a);
	memset(&fc, 0, sizeof(fc));
	fc.opcode = op;
	fc.nth = nth;
	fc.status = MLX5_CMD_STAT_BAD_RES_STATE_ERR;
	mlx5_emu_fault_cmd(p->port.emu, &fc);
	ret = k < 0 ? TM(rte_tm_hierarchy_commit(p->port.id, 0, &terr)) :
		      live_change(p, k, false);
	device_view(p, b);
	fc.nth = 0;
	mlx5_emu_fault_cmd(p->port.emu, &fc);
	return ret;
}

/* More commands of one kind than a test_faults() commit sends. */
#define FAULT_POSITIONS_MAX 64

/*
 * Every firmware command of a commit fails in turn (creating elements,
 * moving SQs), before and after a first hierarchy is in force: the device
 * holds what it held before, nothing more.
 */
static void
test_faults(void)
{
	static const uint16_t ops[] = {
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
		MLX5_CMD_OP_MODIFY_GENERAL_OBJECT,
		MLX5_CMD_OP_DESTROY_GENERAL_OBJECT,
		MLX5_CMD_OP_MODIFY_SQ,
	};
	/* The group it breaks. */
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 2, 5 }, .prof = { 2, 2, NONE },
		.peak = { 100, 300 },
	};
	struct device_view a, b;
	unsigned int i, fired = 0, fired_commit;
	struct tport p;
	uint32_t nth;
	int k, ret;

	printf("every firmware command of a commit failing in turn\n");
	if (!group_port(&p, CX6DX, &g))
		return;
	for (i = 0; i < RTE_DIM(ops); i++) {
		for (nth = 1; nth <= FAULT_POSITIONS_MAX; nth++) {
			ret = change_faulted(&p, -1, ops[i], nth, &a, &b);
			if (ret == 0) {
				/*
				 * Fewer such commands than nth: every position
				 * of this one failed; the next command starts
				 * from a port with nothing committed again.
				 */
				tm_port_close(&p.port);
				if (!group_port(&p, CX6DX, &g))
					return;
				break;
			}
			fired++;
			CHECK(memcmp(&a, &b, sizeof(a)) == 0 &&
			      strstr(tmsg(), "refused") != NULL,
			      "op 0x%x #%u: device changed (elements %u->%u, "
			      "entries %u->%u): %s", ops[i], nth, a.elems,
			      b.elems, a.entries, b.entries, tmsg());
		}
		CHECK(nth <= FAULT_POSITIONS_MAX, "op 0x%x: the commit still "
		      "fails with its #%u command failing", ops[i], nth - 1);
	}
	fired_commit = fired;
	/* In force: live changes fail the same way at each command. */
	EXPECT_OK(rte_tm_hierarchy_commit(p.port.id, 0, &terr), "commit");
	for (k = 0; k < 2; k++)
		for (i = 0; i < RTE_DIM(ops); i++)
			for (nth = 1; nth <= FAULT_POSITIONS_MAX; nth++) {
				ret = change_faulted(&p, k, ops[i], nth, &a,
						     &b);
				if (ret == 0) {
					EXPECT_OK(live_change(&p, k, true),
						  "change %d undone", k);
					break;
				}
				fired++;
				CHECK(memcmp(&a, &b, sizeof(a)) == 0,
				      "live change %d, op 0x%x #%u: device "
				      "changed (elements %u->%u): %s", k,
				      ops[i], nth, a.elems, b.elems, tmsg());
			}
	printf("%u failure positions in a commit, %u in live changes\n",
	       fired_commit, fired - fired_commit);
	CHECK(fired >= 8, "%u faults fired", fired);
	tm_port_close(&p.port);
	CHECK(mlx5_emu_devices_open() == 0,
	      "%u emulated devices left open: a port left objects on its "
	      "device", mlx5_emu_devices_open());
}

/*
 * A shaped leaf under a group on a device that honours (1), refuses (0)
 * or ignores a pacing index inside a queue group: the commit succeeds
 * in each; the leaf (50.5 Mbit/s) gets its exact rate where the index
 * holds, else its group's ceiling, the documented backstop: its peak
 * rounded up to whole Mbit/s, 51; its two unshaped siblings share the
 * rest of 300 Mbit/s (doc/guides/nics/mlx5_tm.rst).
 */
static void
test_pp_and_group(const char *knob, double want0)
{
	char devargs[128], cmd[64], buf[16384];
	double mbps[NB_TXQ], rest = (300 - want0) / 2;
	struct rte_pmd_mlx5_tm_elem_info gi;
	struct device_view v;
	struct tport p;
	uint16_t q;
	bool refuse = strcmp(knob, "0") == 0;

	printf("sched_sq_pp_and_group=%s: the leaf at %.2f Mbit/s\n", knob,
	       want0);
	snprintf(devargs, sizeof(devargs), CX6DX ",sched_sq_pp_and_group=%s",
		 knob);
	if (!tport_open(&p, devargs))
		return;
	EXPECT_OK(profile(&p, 2, 6312500, 0), "50.5 Mbit/s");
	EXPECT_OK(profile(&p, 1, 300 * MBPS, 0), "group profile");
	EXPECT_OK(node(&p, ROOT, RTE_TM_NODE_ID_NULL, 1, 0, NONE), "root");
	EXPECT_OK(node(&p, MID, ROOT, 1, 1, 1), "900");
	for (q = 0; q < 3; q++)
		EXPECT_OK(node(&p, q, MID, 1, 2, q == 0 ? 2 : NONE), "leaf %u",
			  q);
	commit_measure(&p, mbps);
	device_view(&p, &v);
	CHECK(v.group[0] != 0 && (v.index[0] == 0) == refuse,
	      "SQ 0 in group %u with pacing index %u", v.group[0],
	      v.index[0]);
	CHECK(rte_pmd_mlx5_tm_node_query(p.port.id, 0, &gi) == 0 &&
	      gi.max_average_bw == 51, "leaf 0's group ceiling: %u Mbit/s, "
	      "51 (50.5 rounded up) expected", gi.max_average_bw);
	snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u", p.port.id);
	CHECK(tm_telemetry_query(cmd, buf, sizeof(buf)) == 0 &&
	      strstr(buf, refuse ? "\"pacing_index_in_group\":\"refused\"" :
		     "\"pacing_index_in_group\":\"used\"") != NULL &&
	      strstr(buf, "\"queue_group_max_average_bw_mbps\":[51,0,0") !=
	      NULL, "telemetry: %.300s", buf);
	CHECK(near(mbps[0], want0, 0.005) && near(mbps[1], rest, 0.01) &&
	      near(mbps[2], rest, 0.01), "%.2f/%.2f/%.2f Mbit/s expected: "
	      "%.2f %.2f %.2f", want0, rest, rest, mbps[0], mbps[1],
	      mbps[2]);
	drain_close(&p, "pp and group");
}

/* The modify_bitmask of each RDY->RDY MODIFY_SQ the device took. */
struct sq_masks {
	unsigned int n;
	uint64_t mask[16];
};

static void
sq_mask_hook(void *arg, const void *in, size_t inlen __rte_unused,
	     const void *out __rte_unused, size_t outlen __rte_unused,
	     uint8_t status)
{
	struct sq_masks *m = arg;

	if (MLX5_GET(modify_sq_in, in, opcode) == MLX5_CMD_OP_MODIFY_SQ &&
	    status == 0 && m->n < RTE_DIM(m->mask) &&
	    MLX5_GET(modify_sq_in, in, sq_state) == MLX5_SQC_STATE_RDY)
		m->mask[m->n++] = MLX5_GET64(modify_sq_in, in, modify_bitmask);
}

/*
 * A started queue moved into a queue group with a pacing index: bits 2
 * (group) and 0 (index) in two MODIFY_SQ, never together (each has
 * precedent alone, never both); into the group first (make-before-break:
 * its backstop holds before its pacing changes).
 */
static void
test_modify_sq_one_bit(void)
{
	static const struct group_spec g = {
		.ceiling = 300, .w = { 1, 1, 1 }, .prof = { 2, NONE, NONE },
		.peak = { 50 },
	};
	struct sq_masks m = { 0 };
	struct tport p;

	printf("MODIFY_SQ: bit 2 and bit 0 in two commands, group first\n");
	if (!group_port(&p, CX6DX, &g))
		return;
	mlx5_emu_set_cmd_hook(p.port.emu, sq_mask_hook, &m);
	EXPECT_OK(rte_tm_hierarchy_commit(p.port.id, 0, &terr), "commit");
	mlx5_emu_set_cmd_hook(p.port.emu, NULL, NULL);
	/* Queue 0: group then index; queues 1, 2: group only. */
	CHECK(m.n == 4 && m.mask[0] == MLX5_MODIFY_SQ_BITMASK_QOS_QUEUE_GROUP_ID &&
	      m.mask[1] ==
	      MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX,
	      "commit: %u commands, masks 0x%" PRIx64 " 0x%" PRIx64, m.n,
	      m.mask[0], m.mask[1]);
	drain_close(&p, "one bit");
}

/*
 * The scheduling elements and queue groups telemetry shows for port
 * @p port in @p elems and @p groups; false when it cannot be read.
 */
static bool
telemetry_elements(uint16_t port, uint64_t *elems, uint64_t *groups)
{
	char cmd[64], buf[16384];
	const char *e, *g;

	snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u", port);
	if (tm_telemetry_query(cmd, buf, sizeof(buf)) != 0)
		return false;
	e = strstr(buf, "\"elements\":");
	g = strstr(buf, "\"queue_groups\":");
	if (e == NULL || g == NULL)
		return false;
	*elems = strtoull(e + strlen("\"elements\":"), NULL, 10);
	*groups = strtoull(g + strlen("\"queue_groups\":"), NULL, 10);
	return true;
}

/* Telemetry and the device both say @p want elements (any if ~0u). */
static void
check_elements(const struct tport *p, unsigned int want, const char *when)
{
	unsigned int dev = mlx5_emu_sched_list(p->port.emu, NULL, 0);
	uint64_t elems = ~0ull, groups = ~0ull;
	bool read = telemetry_elements(p->port.id, &elems, &groups);

	printf("  %s: telemetry elements %" PRIu64 ", queue_groups %" PRIu64
	       ", device %u\n", when, elems, groups, dev);
	CHECK(read && elems == dev && (want == ~0u ? dev > 0 : dev == want),
	      "%s: %u elements expected (%s), telemetry %" PRIu64 ", device "
	      "%u", when, want, want == ~0u ? "some" : "exactly", elems, dev);
}

/*
 * Root and shaped leaves only (no non-leaf shaper, weights 1, no
 * committed rate): no scheduling element, pacing indexes only, the rates
 * held; a root shaper given live builds the hierarchy, taken back live
 * removes it, without a frame lost or reordered; a group tree shows its
 * elements.
 */
static void
test_flat(void)
{
	static const double want[3] = { 100, 200, 50 };
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 2, 5 }, .prof = { NONE, NONE, NONE },
	};
	double mbps[NB_TXQ];
	struct tport p;
	uint16_t q;

	printf("root and shaped leaves: no element, rates held; live to a "
	       "hierarchy and back\n");
	if (!tport_open(&p, CX6DX))
		return;
	EXPECT_OK(profile(&p, 1, 400 * MBPS, 0), "400 Mbit/s");
	EXPECT_OK(profile(&p, 2, 100 * MBPS, 0), "100 Mbit/s");
	EXPECT_OK(profile(&p, 3, 200 * MBPS, 0), "200 Mbit/s");
	EXPECT_OK(profile(&p, 4, 50 * MBPS, 0), "50 Mbit/s");
	EXPECT_OK(node(&p, ROOT, RTE_TM_NODE_ID_NULL, 1, 0, NONE), "root");
	for (q = 0; q < 3; q++)
		EXPECT_OK(node(&p, q, ROOT, 1, 1, 2 + q), "leaf %u", q);
	commit_measure(&p, mbps);
	check_elements(&p, 0, "flat tree");
	for (q = 0; q < 3; q++)
		CHECK(near(mbps[q], want[q], 0.005), "flat: leaf %u: %.2f "
		      "Mbit/s, %.0f expected", q, mbps[q], want[q]);
	/* A root shaper above what the leaves take: the rates stay. */
	EXPECT_OK(rte_tm_node_shaper_update(p.port.id, ROOT, 1, &terr),
		  "root shaper, live");
	check_elements(&p, ~0u, "root shaped");
	measure(&p, mbps);
	for (q = 0; q < 3; q++)
		CHECK(near(mbps[q], want[q], 0.005), "root shaped: leaf %u: "
		      "%.2f Mbit/s, %.0f expected", q, mbps[q], want[q]);
	EXPECT_OK(rte_tm_node_shaper_update(p.port.id, ROOT, NONE, &terr),
		  "root shaper removed, live");
	check_elements(&p, 0, "flat again");
	measure(&p, mbps);
	for (q = 0; q < 3; q++)
		CHECK(near(mbps[q], want[q], 0.005), "flat again: leaf %u: "
		      "%.2f Mbit/s, %.0f expected", q, mbps[q], want[q]);
	drain_close(&p, "flat and back");
	/* A group tree (weights, a group ceiling) shows its elements. */
	if (!group_port(&p, CX6DX, &g))
		return;
	EXPECT_OK(rte_tm_hierarchy_commit(p.port.id, 0, &terr), "commit");
	check_elements(&p, 5, "group tree: root, 900, 3 groups");
	tm_port_close(&p.port);
}

/*
 * SQs join their queue groups by MODIFY_SQ bit 2 once created, as Linux
 * and rdma-core attach theirs: with firmware that ignores CREATE_SQ's
 * qos_queue_group_id (sched_create_sq_group=ignore), a hierarchy
 * committed before the port starts, and again after a restart, puts
 * every SQ in its group and the weights hold.
 */
static void
test_attach_by_modify(void)
{
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 2, 5 }, .prof = { NONE, NONE, NONE },
	};
	static const double want[3] = { 50, 100, 250 };
	struct mlx5_emu_sq_info sq;
	struct mlx5_emu_sched_info gi;
	double mbps[NB_TXQ];
	struct tport p;
	int round;
	uint16_t q;

	printf("queue groups by MODIFY_SQ: CREATE_SQ's group ignored\n");
	memset(&p, 0, sizeof(p));
	if (tm_port_open(&p.port, CX6DX ",sched_create_sq_group=ignore",
			 NB_TXQ, false) != 0) {
		CHECK(false, "port");
		return;
	}
	EXPECT_OK(profile(&p, 1, g.ceiling * MBPS, 0), "group profile");
	EXPECT_OK(node(&p, ROOT, RTE_TM_NODE_ID_NULL, 1, 0, NONE), "root");
	EXPECT_OK(node(&p, MID, ROOT, 1, 1, 1), "900");
	for (q = 0; q < 3; q++)
		EXPECT_OK(node(&p, q, MID, g.w[q], 2, NONE), "leaf %u", q);
	EXPECT_OK(rte_tm_hierarchy_commit(p.port.id, 0, &terr),
		  "commit before start");
	for (round = 0; round < 2; round++) {
		if (round == 1)
			CHECK(rte_eth_dev_stop(p.port.id) == 0, "stop");
		CHECK(rte_eth_dev_start(p.port.id) == 0, "start %d", round);
		for (q = 0; q < NB_TXQ; q++)
			CHECK(rte_pmd_mlx5_tm_txq_sqn(p.port.id, q,
						      &p.sqn[q]) == 0,
			      "SQ of queue %u", q);
		for (q = 0; q < 3; q++)
			CHECK(mlx5_emu_sq_get(p.port.emu, p.sqn[q], &sq) == 0 &&
			      sq.qos_queue_group_id != 0 &&
			      mlx5_emu_sched_get(p.port.emu,
						 sq.qos_queue_group_id,
						 &gi) == 0 &&
			      gi.element_type ==
			      MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
			      "start %d: queue %u's SQ in a queue group (%u)",
			      round, q, sq.qos_queue_group_id);
	}
	memset(p.next, 0, sizeof(p.next));
	memset(p.sent, 0, sizeof(p.sent));
	mlx5_emu_set_wire_hook(p.port.emu, wire_hook, &p);
	measure(&p, mbps);
	for (q = 0; q < 3; q++)
		CHECK(near(mbps[q], want[q], 0.005), "leaf %u: %.2f Mbit/s, "
		      "%.0f expected", q, mbps[q], want[q]);
	drain_close(&p, "attached by MODIFY_SQ");
}

/*
 * Queue-group ids firmware numbers beyond 16 bits (sched_id_base) cannot
 * be an SQ's qos_queue_group_id: the commit is refused with why, nothing
 * is left on the device (an id of 2^31 or more once sent the port's
 * bookkeeping into an endless loop).
 */
static void
test_wide_group_ids(void)
{
	static const char *const bases[] = { "65536", "2147483648" };
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 2, 5 }, .prof = { NONE, NONE, NONE },
	};
	char devargs[128];
	struct tport p;
	unsigned int i;
	int ret;

	printf("queue-group ids beyond 16 bits refused\n");
	for (i = 0; i < RTE_DIM(bases); i++) {
		snprintf(devargs, sizeof(devargs), CX6DX ",sched_id_base=%s",
			 bases[i]);
		if (!group_port(&p, devargs, &g))
			return;
		ret = TM(rte_tm_hierarchy_commit(p.port.id, 0, &terr));
		CHECK(ret != 0 && strstr(tmsg(), "16 bits") != NULL &&
		      mlx5_emu_sched_list(p.port.emu, NULL, 0) == 0,
		      "ids from %s: refused, nothing left: %d \"%s\"",
		      bases[i], ret, tmsg());
		tm_port_close(&p.port);
	}
	CHECK(mlx5_emu_devices_open() == 0,
	      "%u emulated devices left open: a port left objects on its "
	      "device", mlx5_emu_devices_open());
}

/*
 * The depth comes from the device (qos_cap.log_nic_max_sched_depth): with
 * 2 elements from the root to a group (cap_sched_max_depth=2), a tree of
 * 3 is refused by the plan with the numbers, before any command; one of
 * 2 (weights under the root) commits.
 */
static void
test_depth_cap(void)
{
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 2, 5 }, .prof = { NONE, NONE, NONE },
	};
	struct mlx5_emu_cmd_error e0, e1;
	struct tport p;
	uint16_t q;
	int ret;

	printf("depth from the device's capabilities\n");
	if (!group_port(&p, CX6DX ",cap_sched_max_depth=2", &g))
		return;
	mlx5_emu_last_cmd_error(p.port.emu, &e0);
	ret = TM(rte_tm_hierarchy_commit(p.port.id, 0, &terr));
	mlx5_emu_last_cmd_error(p.port.emu, &e1);
	CHECK(ret != 0 && strstr(tmsg(), "allows 2") != NULL &&
	      e1.count == e0.count &&
	      mlx5_emu_sched_list(p.port.emu, NULL, 0) == 0,
	      "3 levels refused by the plan, no command failed: %d \"%s\"",
	      ret, tmsg());
	tm_port_close(&p.port);
	if (!tport_open(&p, CX6DX ",cap_sched_max_depth=2"))
		return;
	EXPECT_OK(node(&p, ROOT, RTE_TM_NODE_ID_NULL, 1, 0, NONE), "root");
	for (q = 0; q < 3; q++)
		EXPECT_OK(node(&p, q, ROOT, q + 1, 1, NONE), "leaf %u", q);
	EXPECT_OK(rte_tm_hierarchy_commit(p.port.id, 0, &terr),
		  "2 levels commit");
	CHECK(mlx5_emu_sched_list(p.port.emu, NULL, 0) == 4,
	      "root and 3 groups: %u", mlx5_emu_sched_list(p.port.emu,
							NULL, 0));
	tm_port_close(&p.port);
}

/*
 * log_nic_max_sched_depth 0 (a device of depth 1) is taken as unknown,
 * not as "nothing fits": the plan refuses nothing for depth, firmware
 * refuses the element too deep, and the commit rolls back clean.
 */
static void
test_depth_zero_unknown(void)
{
	static const struct group_spec g = {
		.ceiling = 400, .w = { 1, 2, 5 }, .prof = { NONE, NONE, NONE },
	};
	struct device_view a, b;
	struct tport p;
	int ret;

	printf("log_nic_max_sched_depth 0: unknown, firmware decides\n");
	if (!group_port(&p, CX6DX ",cap_sched_max_depth=1", &g))
		return;
	device_view(&p, &a);
	ret = TM(rte_tm_hierarchy_commit(p.port.id, 0, &terr));
	device_view(&p, &b);
	CHECK(ret != 0 && strstr(tmsg(), "allows") == NULL &&
	      strstr(tmsg(), "refused CREATE_GENERAL_OBJECT") != NULL &&
	      memcmp(&a, &b, sizeof(a)) == 0 && b.elems == 0,
	      "refused by firmware, rolled back: %d \"%s\"", ret, tmsg());
	tm_port_close(&p.port);
	CHECK(mlx5_emu_devices_open() == 0, "%u emulated devices left open",
	      mlx5_emu_devices_open());
}

/*
 * Why a device has no hierarchy, in the refusal: a firmware whose
 * general_obj_types lacks SCHEDULING_ELEMENT (0x26) "too old?", missing
 * NIC scheduling capabilities Linux's SR-IOV hint.
 */
static void
test_no_sched_hints(void)
{
	static const struct {
		const char *devargs;
		const char *hint;
	} c[] = {
		{ CX6DX ",cap_sched_elem_obj=0", "firmware too old?" },
		{ "emu=cx5,clock=virtual", "Try disabling SRIOV" },
	};
	struct tport p;
	unsigned int i;
	int ret;

	printf("no hierarchy: the refusal says what may explain it\n");
	for (i = 0; i < RTE_DIM(c); i++) {
		if (!tport_open(&p, c[i].devargs))
			return;
		EXPECT_OK(node(&p, ROOT, RTE_TM_NODE_ID_NULL, 1, 0, NONE),
			  "root");
		ret = node(&p, 0, ROOT, 2, 1, NONE);
		CHECK(ret == -ENOTSUP && strstr(tmsg(), c[i].hint) != NULL,
		      "%s: weight 2: %d %s", c[i].devargs, ret, tmsg());
		tm_port_close(&p.port);
	}
}

/* cx5: no hierarchy; weights and non-leaf shapers say why not. */
static void
test_cx5(void)
{
	struct tport p;
	int ret;

	printf("cx5: leaf shapers only, clear refusals\n");
	if (!tport_open(&p, "emu=cx5,clock=virtual"))
		return;
	EXPECT_OK(profile(&p, 1, 100 * MBPS, 0), "100 Mbit/s");
	EXPECT_OK(node(&p, ROOT, RTE_TM_NODE_ID_NULL, 1, 0, NONE), "root");
	ret = node(&p, MID, ROOT, 1, 1, 1);
	CHECK(ret == -ENOTSUP &&
	      strstr(tmsg(), "no NIC scheduling hierarchy") != NULL,
	      "non-leaf shaper: %d %s", ret, tmsg());
	ret = node(&p, 0, ROOT, 2, 1, 1);
	CHECK(ret == -ENOTSUP && terr.type == RTE_TM_ERROR_TYPE_NODE_WEIGHT &&
	      strstr(tmsg(), "no NIC scheduling hierarchy") != NULL,
	      "weight 2: %d %s", ret, tmsg());
	ret = profile(&p, 2, 100 * MBPS, 50 * MBPS);
	CHECK(ret == -ENOTSUP, "committed rate: %d %s", ret, tmsg());
	EXPECT_OK(node(&p, 0, ROOT, 1, 1, 1), "shaped leaf");
	EXPECT_OK(rte_tm_hierarchy_commit(p.port.id, 0, &terr), "commit");
	CHECK(mlx5_emu_sched_list(p.port.emu, NULL, 0) == 0, "no element");
	tm_port_close(&p.port);
}

int
main(int argc, char **argv)
{
	int ret = rte_eal_init(argc, argv);

	if (ret < 0) {
		printf("EAL init failed\n");
		return tm_check_report() | 1;
	}
	pool = rte_pktmbuf_pool_create("tm_sched", 8191, 256, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       rte_socket_id());
	CHECK(pool != NULL, "mbuf pool");
	if (pool != NULL) {
		TM_CASE(test_flat());
		TM_CASE(test_attach_by_modify());
		TM_CASE(test_weights());
		TM_CASE(test_capped_leaf());
		TM_CASE(test_committed());
		TM_CASE(test_three_levels());
		TM_CASE(test_live());
		TM_CASE(test_faults());
		TM_CASE(test_modify_sq_one_bit());
		TM_CASE(test_pp_and_group("1", 50.5));
		TM_CASE(test_pp_and_group("0", 51));
		TM_CASE(test_pp_and_group("ignore", 51));
		TM_CASE(test_cx5());
		TM_CASE(test_wide_group_ids());
		TM_CASE(test_depth_cap());
		TM_CASE(test_depth_zero_unknown());
		TM_CASE(test_no_sched_hints());
	}
	rte_mempool_free(pool);
	test_eal_cleanup();
	return tm_check_report();
}
