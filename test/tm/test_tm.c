/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * rte_tm on net_mlx5_tm, EAL in-process on the device model in virtual
 * time: every op and refusal, the capability claims, commit before and
 * after start, live changes during a queue's error recovery, rollback
 * under injected device failures, the ice-style
 * script, queue rate limits, suspend, statistics, telemetry, achieved
 * rates, and a seeded random walk with invariants after every step.
 *
 * Usage: test_tm [EAL args] [-- [--seed N] [--steps N] [-v]]
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_random.h>
#include <rte_tm.h>

#include "mlx5_emu.h"
#include "mlx5_tm_devx.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_sched.h"
#include "mlx5_tm_sched_priv.h"
#include "mlx5_tm_txq.h"
#include "mlx5_tm_wqe.h"
#include "rte_pmd_mlx5_tm.h"
#include "tm_check.h"
#include "tm_port.h"
#include "tm_tree_check.h"
#include "test_eal.h"

unsigned int tm_check_passed;
unsigned int tm_check_failed;

#define NB_TXQ 8
#define FRAME 1000
#define ROOT 1000
#define MID 900
#define MID2 901
#define NONE RTE_TM_SHAPER_PROFILE_ID_NONE
#define ANY RTE_TM_NODE_LEVEL_ID_ANY
#define NULL_ID RTE_TM_NODE_ID_NULL

static bool verbose;
static uint64_t seed = 1;
static unsigned int steps = 10000;
static struct rte_mempool *pool;

/* ---- ports ---- */

/* A device without the NIC scheduling hierarchy (leaf shapers only). */
#define LEAF_ONLY "cap_nic_sq_scheduling=0"

/*
 * Probe a new port on a cx6dx in virtual time, with devargs @p extra;
 * a failure fails the case.
 */
static int
tport_open(struct tm_port *p, const char *extra, uint16_t nb_txq, bool start)
{
	char args[256];
	int ret;

	snprintf(args, sizeof(args), "emu=cx6dx,clock=virtual%s%s",
		 extra != NULL ? "," : "", extra != NULL ? extra : "");
	ret = tm_port_open(p, args, nb_txq, start);
	CHECK(ret == 0, "port %s", args);
	return ret;
}

/* Emulated devices open before the first case (the command line's). */
static unsigned int devices_before;

/*
 * Every port the cases closed left nothing on its device (pacing entries,
 * elements, queues): the model refuses to close a device that holds any.
 */
static void
check_devices_closed(const char *when)
{
	CHECK(mlx5_emu_devices_open() == devices_before,
	      "%s: %u emulated devices open, %u before: a port left objects "
	      "on its device (see the model's \"close with objects left\")",
	      when, mlx5_emu_devices_open(), devices_before);
}

static struct mlx5_tm_sched *
sched_of(const struct tm_port *p)
{
	return mlx5_tm_sched_get(&rte_eth_devices[p->id]);
}

/* ---- rte_tm helpers ---- */

/* A refusal: errno, error type, and a message worth reading. */
static void
expect_err(int ret, int code, enum rte_tm_error_type type, const char *what)
{
	CHECK(ret == -code && terr.type == type && terr.message != NULL &&
	      strlen(terr.message) >= 16,
	      "%s: ret %d type %d \"%s\"; expected %d type %d", what, ret,
	      terr.type, tmsg(), -code, type);
	if (verbose)
		printf("  %s -> %s\n", what, tmsg());
}

static int
profile_add(uint16_t port, uint32_t id, uint64_t rate, bool pkt)
{
	struct rte_tm_shaper_params sp;

	memset(&sp, 0, sizeof(sp));
	sp.peak.rate = rate;
	sp.packet_mode = pkt;
	return TM(rte_tm_shaper_profile_add(port, id, &sp, &terr));
}

static int
profile_add_params(uint16_t port, uint32_t id, struct rte_tm_shaper_params sp)
{
	return TM(rte_tm_shaper_profile_add(port, id, &sp, &terr));
}

static int
nonleaf_add(uint16_t port, uint32_t id, uint32_t parent, uint32_t level)
{
	struct rte_tm_node_params np = tm_nonleaf_params(NONE);

	return TM(rte_tm_node_add(port, id, parent, 0, 1, level, &np, &terr));
}

/*
 * A started port of @p nb_txq queues with shaper profile 1 (10 Gbit/s)
 * and the root node: the start of the cases that move queues between
 * non-leaf nodes. Returns the port's scheduler, NULL when the port did
 * not open (the case failed).
 */
static struct mlx5_tm_sched *
tport_open_with_root(struct tm_port *p, uint16_t nb_txq)
{
	if (tport_open(p, NULL, nb_txq, true) != 0)
		return NULL;
	EXPECT_OK(profile_add(p->id, 1, 1250000000, false), "10 Gbps");
	EXPECT_OK(nonleaf_add(p->id, ROOT, NULL_ID, 0), "root");
	return sched_of(p);
}

static int
leaf_add(uint16_t port, uint32_t q, uint32_t parent, uint32_t level,
	 uint32_t profile)
{
	struct rte_tm_node_params np = tm_leaf_params(profile);

	return TM(rte_tm_node_add(port, q, parent, 0, 1, level, &np, &terr));
}

/* ---- invariants ---- */

/* Index the driver gives queue @p q (0: unlimited). */
static uint16_t
expected_index(const struct mlx5_tm_sched *s, uint16_t q)
{
	uint64_t entry = tm_plan_queue(&s->applied, q)->entry;

	return entry != 0 ? mlx5_tm_pacing_index(s->pacing, entry) : 0;
}

/* Queue group the driver gives queue @p q (0: none). */
static uint16_t
expected_group(const struct mlx5_tm_sched *s, uint16_t q)
{
	const struct tm_elem *g =
		tm_plan_elem(&s->applied, s->applied.queues[q].group);

	return g != NULL ? (uint16_t)g->hw_id : 0;
}

/*
 * Driver and device agree: every pacing entry is owned by exactly the
 * queues that use it, the device has exactly the driver's entries (same
 * context, one allocation each), every live queue's SQ has its entry's
 * index and its group, the hierarchy is valid and
 * its plan is what the device holds.
 */
/* The plan of the tree is the applied one (queue by queue). */
static bool
plan_is_applied(struct mlx5_tm_sched *s, char *why, size_t len)
{
	struct tm_plan plan = { 0 };
	bool same = true;
	uint16_t q;

	if (!s->committed)
		return true;
	if (tm_plan_build(&s->hier, true, &plan, NULL) != 0) {
		tm_plan_fini(&plan);
		snprintf(why, len, "the committed hierarchy has no plan");
		return false;
	}
	for (q = 0; q < plan.nb_txq && same; q++) {
		const struct tm_queue *a = &plan.queues[q];
		const struct tm_queue *b = &s->applied.queues[q];

		same = a->shaped == b->shaped && a->suspended == b->suspended &&
		       (!a->shaped || pacing_ctx_equal(&a->ctx, &b->ctx));
		if (!same)
			snprintf(why, len, "queue %u does not run what the "
				 "committed hierarchy says", q);
	}
	if (same && plan.n_elems != s->applied.n_elems) {
		snprintf(why, len, "%u elements applied, the plan has %u",
			 s->applied.n_elems, plan.n_elems);
		same = false;
	}
	tm_plan_fini(&plan);
	return same;
}

/*
 * What the scheduler records of each SQ is what the device's SQ holds
 * (nothing without an SQ), and its count of SQs per queue group is the
 * count of those records.
 */
static bool
held_agrees(const struct tm_port *p, char *why, size_t len)
{
	struct mlx5_tm_sched *s = sched_of(p);
	uint32_t g, n;
	uint16_t q;

	for (q = 0; q < MLX5_TM_MAX_TXQ; q++) {
		const struct mlx5_tm_sched_sq *h = &s->sqs[q];
		struct mlx5_emu_sq_info sq = { 0 };
		uint32_t sqn;

		if (rte_pmd_mlx5_tm_txq_sqn(p->id, q, &sqn) == 0 &&
		    mlx5_emu_sq_get(p->emu, sqn, &sq) != 0) {
			snprintf(why, len, "queue %u: SQ %u unknown", q, sqn);
			return false;
		}
		if (h->pp_index != sq.pp_index ||
		    h->group != sq.qos_queue_group_id) {
			snprintf(why, len, "queue %u: scheduler records index "
				 "%u group %u, its SQ holds %u group %u", q,
				 h->pp_index, h->group, sq.pp_index,
				 sq.qos_queue_group_id);
			return false;
		}
	}
	for (g = 0; g < s->group_sqs_cap; g++) {
		for (n = 0, q = 0; q < MLX5_TM_MAX_TXQ; q++)
			n += g != 0 && s->sqs[q].group == g;
		if (s->group_sqs[g] != n) {
			snprintf(why, len, "group %u: %u SQs counted, %u hold "
				 "it", g, s->group_sqs[g], n);
			return false;
		}
	}
	return true;
}

static bool
views_agree(const struct tm_port *p, char *why, size_t len)
{
	struct mlx5_tm_sched *s = sched_of(p);
	struct pacing_table *t = mlx5_tm_pacing_table(s->pacing);
	static struct mlx5_emu_pp_info emu_e[4096];
	struct pacing_entry_info info;
	unsigned int n_emu, n_drv = 0, k;
	uint64_t cursor = 0;
	uint16_t q;

	n_emu = mlx5_emu_pp_list(p->emu, emu_e, RTE_DIM(emu_e));
	while (pacing_table_entry_next(t, &cursor, &info) == 1) {
		const struct mlx5_tm_pp *pp = info.hw;
		uint32_t users = 0, live_users = 0;
		bool found = false;

		n_drv++;
		if (pp == NULL || pp->index == 0) {
			snprintf(why, len, "entry %" PRIu64 " has no device "
				 "index", info.id);
			return false;
		}
		for (q = 0; q < s->applied.nb_txq; q++) {
			uint32_t sqn;

			if (s->applied.queues[q].entry != info.id)
				continue;
			users++;
			if (rte_pmd_mlx5_tm_txq_sqn(p->id, q, &sqn) == 0)
				live_users++;
		}
		if (users != info.refcnt) {
			snprintf(why, len, "entry %" PRIu64 " (index %u) has "
				 "%u references, %u queues use it", info.id,
				 pp->index, info.refcnt, users);
			return false;
		}
		for (k = 0; k < RTE_MIN(n_emu, RTE_DIM(emu_e)); k++) {
			const struct mlx5_emu_pp_info *e = &emu_e[k];

			if (e->index != pp->index)
				continue;
			found = e->rate_limit == info.ctx.rate_limit &&
				e->burst_upper_bound ==
					info.ctx.burst_upper_bound &&
				e->typical_packet_size ==
					info.ctx.typical_packet_size &&
				e->rate_mode == info.ctx.rate_mode &&
				e->dedicated == info.dedicated &&
				e->refcount == 1 && e->sq_users == live_users;
			if (!found) {
				snprintf(why, len, "index %u: device rate %u "
					 "mode %u ded %d refs %u sq_users %u, "
					 "driver rate %u mode %u ded %d live "
					 "users %u", e->index, e->rate_limit,
					 e->rate_mode, e->dedicated,
					 e->refcount, e->sq_users,
					 info.ctx.rate_limit,
					 info.ctx.rate_mode, info.dedicated,
					 live_users);
				return false;
			}
		}
		if (!found) {
			snprintf(why, len, "index %u missing on the device",
				 pp->index);
			return false;
		}
	}
	if (mlx5_emu_sched_list(p->emu, NULL, 0) != s->applied.n_elems) {
		snprintf(why, len, "device %u scheduling elements, driver %u",
			 mlx5_emu_sched_list(p->emu, NULL, 0),
			 s->applied.n_elems);
		return false;
	}
	if (n_drv != n_emu || pacing_table_in_use(t) != n_drv) {
		snprintf(why, len, "driver %u entries, device %u, in use %u",
			 n_drv, n_emu, pacing_table_in_use(t));
		return false;
	}
	if (!held_agrees(p, why, len))
		return false;
	for (q = 0; q < s->applied.nb_txq; q++) {
		uint16_t idx = expected_index(s, q);
		struct mlx5_emu_sq_info sq;
		uint32_t sqn;

		if (s->applied.queues[q].entry != 0 &&
		    pacing_table_entry_get(t, s->applied.queues[q].entry, &info) != 0) {
			snprintf(why, len, "queue %u holds a missing entry", q);
			return false;
		}
		if (rte_pmd_mlx5_tm_txq_sqn(p->id, q, &sqn) == 0 &&
		    (mlx5_emu_sq_get(p->emu, sqn, &sq) != 0 ||
		     sq.pp_index != idx || sq.pp_stale ||
		     sq.qos_queue_group_id != expected_group(s, q))) {
			snprintf(why, len, "queue %u: SQ %u index %u%s group "
				 "%u, driver %u group %u", q, sqn, sq.pp_index,
				 sq.pp_stale ? " (stale)" : "",
				 sq.qos_queue_group_id, idx,
				 expected_group(s, q));
			return false;
		}
	}
	if (!plan_is_applied(s, why, len))
		return false;
	if (!tm_tree_consistent(&s->hier, why, len))
		return false;
	if (s->committed && s->hier.n_nodes == 0) {
		snprintf(why, len, "committed without nodes");
		return false;
	}
	return true;
}

static void
check_views(const struct tm_port *p, const char *when)
{
	char why[256] = "";

	CHECK(views_agree(p, why, sizeof(why)), "%s: %s", when, why);
}

/* What a refused call must leave untouched. */
struct snapshot {
	uint64_t entry[NB_TXQ];
	uint16_t index[NB_TXQ];
	uint32_t in_use;
	uint32_t n_nodes;
	uint32_t n_profiles;
	bool committed;
	unsigned int n_emu;
	unsigned int n_emu_elems;
};

static void
snap(const struct tm_port *p, struct snapshot *sn)
{
	struct mlx5_tm_sched *s = sched_of(p);
	uint16_t q;

	memset(sn, 0, sizeof(*sn));
	for (q = 0; q < RTE_MIN(s->applied.nb_txq, NB_TXQ); q++) {
		sn->entry[q] = s->applied.queues[q].entry;
		sn->index[q] = expected_index(s, q);
	}
	sn->in_use = pacing_table_in_use(mlx5_tm_pacing_table(s->pacing));
	sn->n_nodes = s->hier.n_nodes;
	sn->n_profiles = s->hier.n_profiles;
	sn->committed = s->committed;
	sn->n_emu = mlx5_emu_pp_list(p->emu, NULL, 0);
	sn->n_emu_elems = mlx5_emu_sched_list(p->emu, NULL, 0);
}

static bool
snap_equal(const struct snapshot *a, const struct snapshot *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* ---- traffic ---- */

/* Send up to @p n frames of FRAME bytes on queue @p q; how many left. */
static uint16_t
send_frames(uint16_t port, uint16_t q, uint16_t n)
{
	struct rte_mbuf *m[64];
	uint16_t i, sent;

	n = RTE_MIN(n, RTE_DIM(m));
	if (rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		char *d = rte_pktmbuf_append(m[i], FRAME);

		memset(d, 0, 14);
		d[0] = 0x02; /* locally administered unicast */
		d[12] = 0x08; /* IPv4 ethertype, payload zero */
	}
	sent = rte_eth_tx_burst(port, q, m, n);
	for (i = sent; i < n; i++)
		rte_pktmbuf_free(m[i]);
	return sent;
}

/* ---- tests ---- */

/* What capabilities say is accepted is, the first value beyond is not. */
static void
test_capabilities(void)
{
	struct rte_tm_capabilities cap;
	struct rte_tm_level_capabilities lc;
	struct rte_tm_node_capabilities nc;
	struct rte_tm_shaper_params sp;
	struct mlx5_emu_caps ec;
	struct tm_port p;
	uint32_t level, n;
	int is_leaf;

	printf("capabilities\n");
	if (tport_open(&p, LEAF_ONLY, NB_TXQ, false) != 0)
		return;
	mlx5_emu_get_caps(p.emu, &ec);
	EXPECT_OK(rte_tm_capabilities_get(p.id, &cap, &terr), "caps");
	CHECK(cap.n_levels_max == 4 && cap.n_nodes_max == NB_TXQ + 513,
	      "levels %u nodes %u", cap.n_levels_max, cap.n_nodes_max);
	CHECK(cap.shaper_private_n_max == NB_TXQ && cap.shaper_n_max == NB_TXQ,
	      "private shapers %u", cap.shaper_private_n_max);
	CHECK(cap.shaper_private_rate_min ==
	      (uint64_t)ec.pp_min_rate_kbps * 125 &&
	      cap.shaper_private_rate_max ==
	      (uint64_t)ec.pp_max_rate_kbps * 125,
	      "rate range %" PRIu64 "..%" PRIu64 " for %u..%u kbps",
	      cap.shaper_private_rate_min, cap.shaper_private_rate_max,
	      ec.pp_min_rate_kbps, ec.pp_max_rate_kbps);
	CHECK(cap.shaper_private_dual_rate_n_max == 0 &&
	      cap.shaper_shared_n_max == 0 && cap.cman_wred_context_n_max == 0 &&
	      cap.sched_sp_n_priorities_max == 1 &&
	      cap.sched_wfq_weight_max == 1 &&
	      cap.shaper_pkt_length_adjust_max == 0 &&
	      cap.shaper_private_packet_mode_supported == ec.wqe_rate_pp &&
	      cap.shaper_private_byte_mode_supported == 1 &&
	      cap.stats_mask == (RTE_TM_STATS_N_PKTS | RTE_TM_STATS_N_BYTES) &&
	      (cap.dynamic_update_mask & RTE_TM_UPDATE_NODE_ADD_DELETE) &&
	      !cap.mark_vlan_dei_supported[0], "limits");

	/* Rates: the bounds are accepted, one beyond is not. */
	EXPECT_OK(profile_add(p.id, 1, cap.shaper_private_rate_min, false),
		  "rate min");
	EXPECT_OK(profile_add(p.id, 2, cap.shaper_private_rate_max, false),
		  "rate max");
	expect_err(profile_add(p.id, 3, cap.shaper_private_rate_min - 1,
			       false), EINVAL,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_RATE, "rate min - 1");
	expect_err(profile_add(p.id, 3, cap.shaper_private_rate_max + 1,
			       false), EINVAL,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_RATE, "rate max + 1");
	expect_err(profile_add(p.id, 3, 0, false), EINVAL,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_RATE, "rate 0");
	/* Packet mode: packets/s, the device's bounds. */
	EXPECT_OK(profile_add(p.id, 4, ec.pp_min_rate_kbps, true), "pps min");
	EXPECT_OK(profile_add(p.id, 5, ec.pp_max_rate_kbps, true), "pps max");
	expect_err(profile_add(p.id, 6, ec.pp_max_rate_kbps + 1ULL, true),
		   EINVAL, RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_RATE,
		   "pps max + 1");
	expect_err(profile_add(p.id, 6, ec.pp_min_rate_kbps - 1ULL, true),
		   EINVAL, RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_RATE,
		   "pps min - 1");
	/* Single rate, no length adjust. */
	memset(&sp, 0, sizeof(sp));
	sp.peak.rate = 125000000;
	sp.committed.rate = 1;
	expect_err(profile_add_params(p.id, 7, sp), ENOTSUP,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE,
		   "committed rate");
	sp.committed.rate = 0;
	sp.committed.size = 1;
	expect_err(profile_add_params(p.id, 7, sp), ENOTSUP,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_SIZE,
		   "committed size");
	sp.committed.size = 0;
	sp.pkt_length_adjust = RTE_TM_ETH_FRAMING_OVERHEAD_FCS;
	expect_err(profile_add_params(p.id, 7, sp), ENOTSUP,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PKT_ADJUST_LEN,
		   "length adjust");
	sp.pkt_length_adjust = 0;
	sp.peak.size = 4096;
	EXPECT_OK(profile_add_params(p.id, 7, sp), "bucket 4096");
	expect_err(profile_add(p.id, NONE, 125000000, false), EINVAL,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "profile id NONE");
	expect_err(profile_add(p.id, 1, 125000000, false), EEXIST,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "profile id in use");
	expect_err(TM(rte_tm_shaper_profile_add(p.id, 8, NULL, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_SHAPER_PROFILE, "no params");

	/* Levels: what each says it holds fits, one more does not. */
	for (level = 0; level < 4; level++) {
		EXPECT_OK(rte_tm_level_capabilities_get(p.id, level, &lc,
							&terr), "level %u",
			  level);
		CHECK(lc.n_nodes_nonleaf_max == (level == 0 ? 1 :
						 level < 3 ? 256 : 0) &&
		      lc.n_nodes_leaf_max == (level == 0 ? 0 : NB_TXQ) &&
		      lc.n_nodes_max == lc.n_nodes_nonleaf_max +
					lc.n_nodes_leaf_max,
		      "level %u: %u non-leaf %u leaf", level,
		      lc.n_nodes_nonleaf_max, lc.n_nodes_leaf_max);
		if (level > 0)
			CHECK(lc.leaf.shaper_private_supported == 1 &&
			      lc.leaf.shaper_private_rate_max ==
			      cap.shaper_private_rate_max &&
			      lc.leaf.shaper_private_dual_rate_supported == 0 &&
			      lc.leaf.cman_wred_context_private_supported == 0,
			      "level %u leaf shaper", level);
		else
			CHECK(lc.nonleaf.shaper_private_supported == 0 &&
			      lc.nonleaf.sched_sp_n_priorities_max == 1 &&
			      lc.nonleaf.sched_wfq_weight_max == 1 &&
			      lc.nonleaf.sched_n_children_max == NB_TXQ + 256,
			      "root level");
	}
	expect_err(TM(rte_tm_level_capabilities_get(p.id, 4, &lc, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID, "level 4");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	expect_err(nonleaf_add(p.id, 2000, NULL_ID, 0), EEXIST,
		   RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID, "second root");
	for (n = 0; n < 256; n++)
		if (nonleaf_add(p.id, 2000 + n, ROOT, 1) != 0)
			break;
	CHECK(n == 256, "256 non-leaf nodes on level 1: %u (%s)", n, tmsg());
	expect_err(nonleaf_add(p.id, 2256, ROOT, 1), ENOSPC,
		   RTE_TM_ERROR_TYPE_LEVEL_ID, "257th on level 1");
	for (n = 0; n < 256; n++)
		if (nonleaf_add(p.id, 3000 + n, 2000, 2) != 0)
			break;
	CHECK(n == 256, "256 non-leaf nodes on level 2: %u (%s)", n, tmsg());
	expect_err(nonleaf_add(p.id, 3256, 2001, 2), ENOSPC,
		   RTE_TM_ERROR_TYPE_LEVEL_ID, "257th on level 2");
	expect_err(nonleaf_add(p.id, 4000, 3000, 3), EINVAL,
		   RTE_TM_ERROR_TYPE_LEVEL_ID, "non-leaf on level 3");
	for (n = 0; n < NB_TXQ; n++)
		if (leaf_add(p.id, n, 3000 + n, 3, n % 2 ? 1 : 2) != 0)
			break;
	CHECK(n == NB_TXQ, "leaves on level 3: %u (%s)", n, tmsg());
	EXPECT_OK(rte_tm_capabilities_get(p.id, &cap, &terr), "caps");
	CHECK(sched_of(&p)->hier.n_nodes == cap.n_nodes_max,
	      "n_nodes_max reached: %u of %u", sched_of(&p)->hier.n_nodes,
	      cap.n_nodes_max);
	EXPECT_OK(rte_tm_node_capabilities_get(p.id, 0, &nc, &terr), "leaf");
	CHECK(nc.shaper_private_supported && !nc.shaper_private_dual_rate_supported &&
	      nc.shaper_private_rate_min == cap.shaper_private_rate_min &&
	      nc.shaper_shared_n_max == 0 &&
	      nc.leaf.cman_wred_context_private_supported == 0 &&
	      nc.stats_mask == cap.stats_mask, "leaf node caps");
	EXPECT_OK(rte_tm_node_capabilities_get(p.id, ROOT, &nc, &terr), "root");
	CHECK(!nc.shaper_private_supported &&
	      nc.nonleaf.sched_n_children_max == NB_TXQ + 256 &&
	      nc.nonleaf.sched_sp_n_priorities_max == 1, "root node caps");
	EXPECT_OK(rte_tm_node_capabilities_get(p.id, 3000, &nc, &terr), "l2");
	CHECK(nc.nonleaf.sched_n_children_max == NB_TXQ, "level-2 children");
	expect_err(TM(rte_tm_node_capabilities_get(p.id, 77, &nc, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_NODE_ID, "caps of absent node");
	EXPECT_OK(rte_tm_node_type_get(p.id, 0, &is_leaf, &terr), "type 0");
	CHECK(is_leaf == 1, "node 0 is a leaf");
	EXPECT_OK(rte_tm_node_type_get(p.id, ROOT, &is_leaf, &terr), "type");
	CHECK(is_leaf == 0, "root is not a leaf");
	expect_err(TM(rte_tm_node_type_get(p.id, 4242, &is_leaf, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_NODE_ID, "type of absent node");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit 4 levels");
	check_views(&p, "4 levels committed");
	/* Profile ids: every 32-bit value but NONE. */
	EXPECT_OK(profile_add(p.id, NONE - 1, 125000000, false), "id max");
	tm_port_close(&p);

	/* Devices without WQE-rate pacing, burst bound, or pacing at all. */
	if (tport_open(&p, LEAF_ONLY ",cap_wqe_rate_pp=0,cap_pp_burst_bound=0", 2,
		       false) == 0) {
		EXPECT_OK(rte_tm_capabilities_get(p.id, &cap, &terr), "caps");
		CHECK(cap.shaper_private_packet_mode_supported == 0 &&
		      cap.shaper_private_byte_mode_supported == 1,
		      "no packet mode");
		expect_err(profile_add(p.id, 1, 1000, true), ENOTSUP,
			   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PACKET_MODE,
			   "packet mode without wqe_rate_pp");
		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = 125000000;
		sp.peak.size = 4096;
		expect_err(profile_add_params(p.id, 1, sp), ENOTSUP,
			   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_SIZE,
			   "bucket without burst bound");
		tm_port_close(&p);
	}
	if (tport_open(&p, LEAF_ONLY ",cap_packet_pacing=0", 2, false) == 0) {
		EXPECT_OK(rte_tm_capabilities_get(p.id, &cap, &terr), "caps");
		CHECK(cap.shaper_private_n_max == 0 &&
		      cap.shaper_private_rate_max == 0 &&
		      cap.shaper_private_byte_mode_supported == 0,
		      "no pacing: no shaper");
		CHECK(profile_add(p.id, 1, 125000000, false) == -ENOTSUP,
		      "no pacing: profile refused (%s)", tmsg());
		EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
		EXPECT_OK(leaf_add(p.id, 0, ROOT, 1, NONE), "unshaped leaf");
		EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
		check_views(&p, "no pacing");
		tm_port_close(&p);
	}
}

/* Every operation the device cannot honour, with its error type. */
static void
test_refusals(void)
{
	struct rte_tm_node_params np;
	struct rte_tm_wred_params wp;
	struct rte_tm_node_stats st;
	struct snapshot a, b;
	uint32_t shared = 1;
	uint64_t mask;
	struct tm_port p;
	int mode = 1;

	printf("refusals\n");
	if (tport_open(&p, LEAF_ONLY, NB_TXQ, true) != 0)
		return;
	EXPECT_OK(profile_add(p.id, 1, 12500000, false), "profile");
	snap(&p, &a);
	memset(&wp, 0, sizeof(wp));
	expect_err(TM(rte_tm_wred_profile_add(p.id, 1, &wp, &terr)), ENOTSUP,
		   RTE_TM_ERROR_TYPE_WRED_PROFILE, "wred profile add");
	expect_err(TM(rte_tm_wred_profile_delete(p.id, 1, &terr)), ENOTSUP,
		   RTE_TM_ERROR_TYPE_WRED_PROFILE_ID, "wred profile delete");
	expect_err(TM(rte_tm_shared_wred_context_add_update(p.id, 1, 1,
							    &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_SHARED_WRED_CONTEXT_ID,
		   "shared wred context");
	expect_err(TM(rte_tm_shared_wred_context_delete(p.id, 1, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_SHARED_WRED_CONTEXT_ID,
		   "shared wred context delete");
	expect_err(TM(rte_tm_shared_shaper_add_update(p.id, 1, 1, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_SHARED_SHAPER_ID,
		   "shared shaper");
	expect_err(TM(rte_tm_shared_shaper_delete(p.id, 1, &terr)), ENOTSUP,
		   RTE_TM_ERROR_TYPE_SHARED_SHAPER_ID, "shared shaper delete");
	expect_err(TM(rte_tm_mark_vlan_dei(p.id, 1, 0, 0, &terr)), ENOTSUP,
		   RTE_TM_ERROR_TYPE_CAPABILITIES, "mark vlan dei");
	expect_err(TM(rte_tm_mark_ip_ecn(p.id, 0, 1, 0, &terr)), ENOTSUP,
		   RTE_TM_ERROR_TYPE_CAPABILITIES, "mark ecn");
	expect_err(TM(rte_tm_mark_ip_dscp(p.id, 0, 0, 1, &terr)), ENOTSUP,
		   RTE_TM_ERROR_TYPE_CAPABILITIES, "mark dscp");
	EXPECT_OK(rte_tm_mark_ip_dscp(p.id, 0, 0, 0, &terr), "mark nothing");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	EXPECT_OK(nonleaf_add(p.id, MID, ROOT, 1), "900");
	EXPECT_OK(leaf_add(p.id, 0, MID, 2, 1), "leaf 0");
	expect_err(TM(rte_tm_node_shared_shaper_update(p.id, 0, 1, 1, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_SHARED_SHAPER_ID,
		   "node shared shaper");
	expect_err(TM(rte_tm_node_wfq_weight_mode_update(p.id, ROOT, &mode, 1,
							 &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_WFQ_WEIGHT_MODE,
		   "wfq weight mode");
	expect_err(TM(rte_tm_node_cman_update(p.id, 0, RTE_TM_CMAN_WRED,
					      &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_CMAN, "cman update");
	expect_err(TM(rte_tm_node_wred_context_update(p.id, 0, 1, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_WRED_PROFILE_ID,
		   "wred context update");
	expect_err(TM(rte_tm_node_shared_wred_context_update(p.id, 0, 1, 1,
							     &terr)),
		   ENOTSUP,
		   RTE_TM_ERROR_TYPE_NODE_PARAMS_SHARED_WRED_CONTEXT_ID,
		   "shared wred context update");
	/* Node parameters, through rte_tm. */
	np = tm_leaf_params(1);
	expect_err(TM(rte_tm_node_add(p.id, 1, MID, 1, 1, 2, &np, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PRIORITY, "priority 1");
	expect_err(TM(rte_tm_node_add(p.id, 1, MID, 0, 3, 2, &np, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_WEIGHT, "weight 3");
	np.n_shared_shapers = 1;
	np.shared_shaper_id = &shared;
	expect_err(TM(rte_tm_node_add(p.id, 1, MID, 0, 1, 2, &np, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SHARED_SHAPERS,
		   "shared shaper in params");
	np = tm_leaf_params(1);
	np.leaf.wred.wred_profile_id = 1;
	expect_err(TM(rte_tm_node_add(p.id, 1, MID, 0, 1, 2, &np, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_NODE_ID, "wred in params");
	np = tm_leaf_params(1);
	np.leaf.cman = RTE_TM_CMAN_WRED;
	expect_err(TM(rte_tm_node_add(p.id, 1, MID, 0, 1, 2, &np, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_CMAN, "cman WRED");
	np = tm_leaf_params(1);
	np.stats_mask = RTE_TM_STATS_N_PKTS_GREEN_DROPPED;
	expect_err(TM(rte_tm_node_add(p.id, 1, MID, 0, 1, 2, &np, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_STATS,
		   "drop counters");
	np = tm_leaf_params(1);
	expect_err(TM(rte_tm_node_add(p.id, 1, MID, 0, 1, 1, &np, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID, "wrong level id");
	expect_err(TM(rte_tm_node_add(p.id, 1, ROOT, 0, 1, ANY, &np, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID, "leaves on two levels");
	expect_err(TM(rte_tm_node_add(p.id, 1, 4242, 0, 1, ANY, &np, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID,
		   "absent parent");
	expect_err(TM(rte_tm_node_add(p.id, 0, MID, 0, 1, ANY, &np, &terr)),
		   EEXIST, RTE_TM_ERROR_TYPE_NODE_ID, "leaf 0 twice");
	np = tm_nonleaf_params(NONE);
	np.shaper_profile_id = 1;
	expect_err(TM(rte_tm_node_add(p.id, MID2, ROOT, 0, 1, 1, &np, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID,
		   "non-leaf shaper");
	np = tm_nonleaf_params(NONE);
	np.nonleaf.n_sp_priorities = 8;
	expect_err(TM(rte_tm_node_add(p.id, MID2, ROOT, 0, 1, 1, &np, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SP_PRIORITIES,
		   "8 priorities");
	np = tm_nonleaf_params(NONE);
	expect_err(TM(rte_tm_node_add(p.id, MID2, MID, 0, 1, 2, &np, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID,
		   "non-leaf on the leaf level");
	expect_err(TM(rte_tm_node_add(p.id, MID2, ROOT, 0, 1, 1, NULL,
				      &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_NODE_PARAMS, "no params");
	expect_err(TM(rte_tm_node_shaper_update(p.id, ROOT, 1, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID,
		   "non-leaf shaper update");
	EXPECT_OK(rte_tm_node_shaper_update(p.id, ROOT, NONE, &terr),
		  "non-leaf shaper NONE");
	expect_err(TM(rte_tm_node_shaper_update(p.id, 0, 99, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "unknown profile");
	expect_err(TM(rte_tm_node_shaper_update(p.id, 5, 1, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_NODE_ID, "shaper update absent node");
	expect_err(TM(rte_tm_node_stats_update(p.id, 0,
					       RTE_TM_STATS_N_PKTS_QUEUED,
					       &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARAMS_STATS,
		   "stats queued");
	expect_err(TM(rte_tm_node_stats_read(p.id, 6, &st, &mask, 0, &terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_NODE_ID, "stats of absent node");
	expect_err(TM(rte_tm_shaper_profile_delete(p.id, 1, &terr)), EBUSY,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "profile in use");
	expect_err(TM(rte_tm_shaper_profile_delete(p.id, 2, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "absent profile");
	expect_err(TM(rte_tm_node_delete(p.id, ROOT, &terr)), EBUSY,
		   RTE_TM_ERROR_TYPE_NODE_ID, "node with children");
	expect_err(TM(rte_tm_node_delete(p.id, 3, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_NODE_ID, "absent node");
	expect_err(TM(rte_tm_node_resume(p.id, 0, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_NODE_ID, "resume not suspended");
	expect_err(TM(rte_tm_node_suspend(p.id, 9, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_NODE_ID, "suspend absent node");
	expect_err(TM(rte_tm_node_parent_update(p.id, 0, ROOT, 0, 1, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID,
		   "parent on another level");
	expect_err(TM(rte_tm_node_parent_update(p.id, 0, MID, 1, 1, &terr)),
		   ENOTSUP, RTE_TM_ERROR_TYPE_NODE_PRIORITY,
		   "parent update priority");
	expect_err(TM(rte_tm_node_parent_update(p.id, ROOT, MID, 0, 1,
						&terr)),
		   EINVAL, RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID, "move root");
	snap(&p, &b);
	CHECK(b.n_nodes == a.n_nodes + 3 && b.in_use == a.in_use,
	      "only the accepted nodes were added");
	check_views(&p, "refusals");
	tm_port_close(&p);
}

/* The DTS packet-pacing script (ice), committed before the port starts. */
static void
test_ice_script(struct tm_port *p)
{
	struct mlx5_tm_sched *s = sched_of(p);
	struct rte_tm_node_params np;
	uint16_t q, idx0;
	uint32_t sqn;

	printf("ice-style 3-level script, commit before start\n");
	rte_eth_dev_stop(p->id);
	/* add port tm node shaper profile 0 1 0 0 612980769 0 0 0 */
	EXPECT_OK(profile_add(p->id, 1, 612980769, false), "profile 1");
	/* add port tm nonleaf node 0 1000 -1 0 1 0 -1 1 0 0 */
	np = tm_nonleaf_params(NONE);
	np.stats_mask = 0;
	EXPECT_OK(rte_tm_node_add(p->id, ROOT, NULL_ID, 0, 1, 0, &np, &terr),
		  "1000");
	/* add port tm nonleaf node 0 900 1000 0 1 1 -1 1 0 0 */
	EXPECT_OK(rte_tm_node_add(p->id, MID, ROOT, 0, 1, 1, &np, &terr),
		  "900");
	/* add port tm leaf node 0 q 900 0 1 2 1 0 0xffffffff 0 0 */
	for (q = 0; q < p->nb_txq; q++) {
		np = tm_leaf_params(1);
		np.stats_mask = 0;
		EXPECT_OK(rte_tm_node_add(p->id, q, MID, 0, 1, 2, &np, &terr),
			  "leaf %u", q);
	}
	CHECK(expected_index(s, 0) == 0, "nothing before commit");
	/* port tm hierarchy commit 0 no */
	EXPECT_OK(rte_tm_hierarchy_commit(p->id, 0, &terr), "commit");
	idx0 = expected_index(s, 0);
	CHECK(idx0 != 0 && pacing_table_in_use(mlx5_tm_pacing_table(s->pacing))
	      == 1, "one shared entry, index %u", idx0);
	for (q = 0; q < p->nb_txq; q++)
		CHECK(expected_index(s, q) == idx0,
		      "queue %u index for CREATE_SQ", q);
	CHECK(rte_pmd_mlx5_tm_txq_sqn(p->id, 0, &sqn) != 0, "no SQ yet");
	check_views(p, "ice committed, stopped");
	CHECK(rte_eth_dev_start(p->id) == 0, "start");
	check_views(p, "ice started (CREATE_SQ)");
	CHECK(rte_pmd_mlx5_tm_txq_sqn(p->id, 7, &sqn) == 0, "SQ 7 exists");
	/* The hierarchy survives stop/start. */
	CHECK(rte_eth_dev_stop(p->id) == 0 && rte_eth_dev_start(p->id) == 0,
	      "restart");
	check_views(p, "ice restarted");
	CHECK(s->committed, "still committed");
	/* Run-time change of one leaf, hitless. */
	EXPECT_OK(profile_add(p->id, 2, 1250000000, false), "profile 2");
	EXPECT_OK(rte_tm_node_shaper_update(p->id, 3, 2, &terr), "update 3");
	CHECK(expected_index(s, 3) != idx0 && expected_index(s, 2) == idx0,
	      "queue 3 moved alone");
	check_views(p, "ice update");
	/* Tear down leaf by leaf: the last delete ends the hierarchy. */
	for (q = 0; q < p->nb_txq; q++)
		EXPECT_OK(rte_tm_node_delete(p->id, q, &terr), "delete %u", q);
	CHECK(s->committed && pacing_table_in_use(
	      mlx5_tm_pacing_table(s->pacing)) == 0, "no entry left");
	EXPECT_OK(rte_tm_node_delete(p->id, MID, &terr), "delete 900");
	EXPECT_OK(rte_tm_node_delete(p->id, ROOT, &terr), "delete 1000");
	CHECK(!s->committed, "no hierarchy");
	EXPECT_OK(rte_tm_shaper_profile_delete(p->id, 1, &terr), "del 1");
	EXPECT_OK(rte_tm_shaper_profile_delete(p->id, 2, &terr), "del 2");
	check_views(p, "ice torn down");
}

/* Commit on a started port: MODIFY_SQ; queue rate limits replaced. */
static void
test_commit_after_start(void)
{
	struct mlx5_tm_sched *s;
	struct tm_port p;
	uint16_t q;

	printf("commit after start, queue rate limits\n");
	if (tport_open(&p, NULL, NB_TXQ, true) != 0)
		return;
	s = sched_of(&p);
	for (q = 0; q < NB_TXQ; q++)
		CHECK(rte_eth_set_queue_rate_limit(p.id, q, 100 * (q + 1)) == 0,
		      "rate limit %u", q);
	check_views(&p, "rate limits");
	CHECK((!s->committed && s->applied.queues[2].shaped) &&
	      s->applied.queues[2].ctx.rate_limit == 300000, "queue 2 at 300 Mbps");
	CHECK(rte_eth_set_queue_rate_limit(p.id, 2, 0) == 0 &&
	      s->applied.queues[2].entry == 0, "rate limit 0 = unlimited");
	CHECK(rte_eth_set_queue_rate_limit(p.id, 2, 300) == 0, "again");
	CHECK(mlx5_tm_sched_set_queue_rate_limit(&rte_eth_devices[p.id], 1,
						 1000000) == -EINVAL,
	      "1 Tbps refused");
	EXPECT_OK(profile_add(p.id, 1, 125000000, false), "1 Gbps");
	EXPECT_OK(profile_add(p.id, 2, 50000, true), "50 kpps");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	for (q = 0; q < NB_TXQ / 2; q++)
		EXPECT_OK(leaf_add(p.id, q, ROOT, 1, q % 2 ? 2 : 1), "l%u", q);
	check_views(&p, "pending hierarchy");
	CHECK((!s->committed && s->applied.queues[0].shaped), "pending changes none");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit live");
	check_views(&p, "committed live");
	CHECK(s->applied.queues[7].entry == 0 && s->committed,
	      "queue without leaf unlimited");
	CHECK(s->applied.queues[1].ctx.rate_mode == PACING_RATE_MODE_WQE &&
	      s->applied.queues[1].ctx.rate_limit == 50000, "queue 1 WQE rate");
	CHECK(rte_eth_set_queue_rate_limit(p.id, 7, 100) == -EBUSY,
	      "rate limit refused while committed");
	/* Live add and delete. */
	EXPECT_OK(leaf_add(p.id, 7, ROOT, 1, 1), "live add 7");
	CHECK(s->applied.queues[7].entry == s->applied.queues[0].entry, "7 shares with 0");
	check_views(&p, "live add");
	EXPECT_OK(rte_tm_node_delete(p.id, 0, &terr), "live delete 0");
	CHECK(s->applied.queues[0].entry == 0, "0 unlimited");
	check_views(&p, "live delete");
	/* Leaves are on level 1 here: no non-leaf node beside them. */
	expect_err(nonleaf_add(p.id, MID, ROOT, 1), EINVAL,
		   RTE_TM_ERROR_TYPE_LEVEL_ID, "non-leaf beside leaves");
	check_views(&p, "live hierarchy");
	/* The last node gone, the port is back to queue rate limits. */
	for (q = 1; q < NB_TXQ; q++)
		if (tm_tree_leaf(&s->hier, q) != NULL)
			EXPECT_OK(rte_tm_node_delete(p.id, q, &terr), "del %u", q);
	EXPECT_OK(rte_tm_node_delete(p.id, ROOT, &terr), "delete root");
	CHECK(!s->committed && pacing_table_in_use(
	      mlx5_tm_pacing_table(s->pacing)) == 0, "no hierarchy, unshaped");
	CHECK(rte_eth_set_queue_rate_limit(p.id, 7, 100) == 0 &&
	      (!s->committed && s->applied.queues[7].shaped), "rate limit again");
	check_views(&p, "after the hierarchy");
	tm_port_close(&p);
	check_devices_closed("closed with a committed hierarchy");
}

/* Parents move; suspension follows; stats sum up. */
static void
test_parent_suspend_stats(void)
{
	struct rte_tm_node_stats st;
	struct mlx5_tm_sched *s;
	uint64_t mask, pk0, pk1;
	struct tm_port p;
	uint16_t n, q;

	printf("parent update, suspend/resume, statistics\n");
	s = tport_open_with_root(&p, 4);
	if (s == NULL)
		return;
	EXPECT_OK(nonleaf_add(p.id, MID, ROOT, 1), "900");
	EXPECT_OK(nonleaf_add(p.id, MID2, ROOT, 1), "901");
	for (q = 0; q < 4; q++)
		EXPECT_OK(leaf_add(p.id, q, q < 2 ? MID : MID2, 2, 1), "l%u",
			  q);
	EXPECT_OK(rte_tm_node_suspend(p.id, 0, &terr), "suspend 0 early");
	CHECK(!s->applied.queues[0].suspended, "not applied before commit");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	CHECK(s->applied.queues[0].suspended, "applied at commit");
	CHECK(send_frames(p.id, 0, 8) == 0, "suspended queue takes nothing");
	CHECK(send_frames(p.id, 1, 8) == 8, "queue 1 sends");
	expect_err(TM(rte_tm_node_suspend(p.id, 0, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_NODE_ID, "suspend twice");
	EXPECT_OK(rte_tm_node_resume(p.id, 0, &terr), "resume 0");
	CHECK(send_frames(p.id, 0, 8) == 8, "resumed queue sends");
	/* A non-leaf suspends its subtree; a moved leaf follows its parent. */
	EXPECT_OK(rte_tm_node_suspend(p.id, MID2, &terr), "suspend 901");
	CHECK(s->applied.queues[2].suspended && s->applied.queues[3].suspended &&
	      !s->applied.queues[1].suspended, "901's queues suspended");
	CHECK(send_frames(p.id, 3, 8) == 0, "queue 3 takes nothing");
	EXPECT_OK(rte_tm_node_parent_update(p.id, 3, MID, 0, 1, &terr),
		  "move 3 under 900");
	CHECK(!s->applied.queues[3].suspended && s->applied.queues[2].suspended, "3 follows 900");
	check_views(&p, "after move");
	EXPECT_OK(rte_tm_node_resume(p.id, MID2, &terr), "resume 901");
	/* Suspension survives stop/start. */
	EXPECT_OK(rte_tm_node_suspend(p.id, 1, &terr), "suspend 1");
	CHECK(rte_eth_dev_stop(p.id) == 0 && rte_eth_dev_start(p.id) == 0,
	      "restart");
	CHECK(send_frames(p.id, 1, 8) == 0, "1 still suspended");
	EXPECT_OK(rte_tm_node_resume(p.id, 1, &terr), "resume 1");
	check_views(&p, "suspend/resume");
	/* Statistics: leaves count their queue, parents sum, clear. */
	EXPECT_OK(rte_tm_node_stats_update(p.id, MID, RTE_TM_STATS_N_PKTS |
					   RTE_TM_STATS_N_BYTES, &terr),
		  "900 counts");
	EXPECT_OK(rte_tm_node_stats_update(p.id, ROOT, RTE_TM_STATS_N_PKTS,
					   &terr), "root counts packets");
	mlx5_emu_drain(p.emu);
	EXPECT_OK(rte_tm_node_stats_read(p.id, 0, &st, &mask, 1, &terr),
		  "clear 0");
	EXPECT_OK(rte_tm_node_stats_read(p.id, MID, &st, &mask, 1, &terr),
		  "clear 900");
	EXPECT_OK(rte_tm_node_stats_read(p.id, ROOT, &st, &mask, 1, &terr),
		  "clear root");
	n = send_frames(p.id, 0, 10);
	n += send_frames(p.id, 3, 5);
	mlx5_emu_drain(p.emu);
	send_frames(p.id, 2, 0);
	EXPECT_OK(rte_tm_node_stats_read(p.id, 0, &st, &mask, 0, &terr),
		  "read 0");
	pk0 = st.n_pkts;
	CHECK(pk0 == 10 && st.n_bytes == 10 * FRAME && mask ==
	      (RTE_TM_STATS_N_PKTS | RTE_TM_STATS_N_BYTES),
	      "leaf 0: %" PRIu64 " packets %" PRIu64 " bytes", st.n_pkts,
	      st.n_bytes);
	EXPECT_OK(rte_tm_node_stats_read(p.id, MID, &st, &mask, 1, &terr),
		  "read 900");
	pk1 = st.n_pkts;
	CHECK(n == 15 && pk1 == 15, "900 sums 0 and 3: %" PRIu64, pk1);
	EXPECT_OK(rte_tm_node_stats_read(p.id, MID, &st, &mask, 0, &terr),
		  "read 900 again");
	CHECK(st.n_pkts == 0, "900 cleared");
	EXPECT_OK(rte_tm_node_stats_update(p.id, 0, RTE_TM_STATS_N_BYTES,
					   &terr), "mask bytes");
	EXPECT_OK(rte_tm_node_stats_read(p.id, 0, &st, &mask, 0, &terr),
		  "read 0 bytes only");
	CHECK(mask == RTE_TM_STATS_N_BYTES && st.n_pkts == 0 &&
	      st.n_bytes == 10 * FRAME, "only bytes");
	EXPECT_OK(rte_tm_node_stats_read(p.id, ROOT, &st, &mask, 0, &terr),
		  "root");
	CHECK(st.n_pkts == 15, "root sums all: %" PRIu64, st.n_pkts);
	/* A leaf counts from the moment it is added. */
	EXPECT_OK(rte_tm_node_delete(p.id, 2, &terr), "delete leaf 2");
	CHECK(send_frames(p.id, 2, 6) == 6, "queue 2 sends without a leaf");
	mlx5_emu_drain(p.emu);
	EXPECT_OK(leaf_add(p.id, 2, MID2, 2, 1), "leaf 2 again");
	CHECK(send_frames(p.id, 2, 3) == 3, "queue 2 sends");
	mlx5_emu_drain(p.emu);
	send_frames(p.id, 2, 0);
	EXPECT_OK(rte_tm_node_stats_read(p.id, 2, &st, &mask, 0, &terr),
		  "read 2");
	CHECK(st.n_pkts == 3 && st.n_bytes == 3 * FRAME,
	      "leaf 2 counts since added: %" PRIu64, st.n_pkts);
	tm_port_close(&p);
}

/* The SQ of queue @p q on the device model. */
static bool
sq_of(const struct tm_port *p, uint16_t q, struct mlx5_emu_sq_info *sq)
{
	uint32_t sqn;

	return rte_pmd_mlx5_tm_txq_sqn(p->id, q, &sqn) == 0 &&
	       mlx5_emu_sq_get(p->emu, sqn, sq) == 0;
}

/*
 * The @p nth next firmware command @p opcode (@p name) of the port's
 * device fails with @p status.
 */
static void
arm_cmd_fault(const struct tm_port *p, uint16_t opcode, const char *name,
	      uint32_t nth, uint8_t status)
{
	struct mlx5_emu_fault_cmd fc = {
		.opcode = opcode, .nth = nth, .status = status,
		.syndrome = MLX5_EMU_SYND_INJECTED,
	};

	CHECK(mlx5_emu_fault_cmd(p->emu, &fc) == 0, "arm %s", name);
}

/* The next WQE of queue @p q fails on the device (error CQE, SQ in ERR). */
static void
fail_next_wqe(const struct tm_port *p, uint16_t q)
{
	uint32_t sqn = 0;

	CHECK(rte_pmd_mlx5_tm_txq_sqn(p->id, q, &sqn) == 0 &&
	      mlx5_emu_fault_wqe(p->emu, &(struct mlx5_emu_fault_wqe){
		      .sqn = sqn, .nth = 1,
		      .syndrome = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR }) == 0,
	      "arm a WQE fault on queue %u", q);
	CHECK(send_frames(p->id, q, 1) == 1, "queue %u posts", q);
	mlx5_emu_drain(p->emu);
}

/*
 * The rest of queue @p q's recovery, each step once: reset (control
 * path), rewind (datapath), ready again (control path).
 */
static void
finish_recovery(const struct tm_port *p, uint16_t q)
{
	rte_pmd_mlx5_tm_recover(p->id);
	rte_eth_tx_burst(p->id, q, NULL, 0);
	rte_pmd_mlx5_tm_recover(p->id);
}

/*
 * Error recovery against live changes, the error put at a chosen point
 * by the device model's WQE fault (virtual time; the recovery alarm may
 * take a control-path step early, which changes nothing checked):
 * a queue in recovery moved to another group succeeds, its old group
 * stays on the device until the re-arm takes the SQ out, then goes; an
 * SQ firmware has just put in error (the driver has not seen it) refuses
 * RDY->RDY, and the rate and parent changes still succeed, applied at
 * the re-arm. At the end the device holds exactly the plan.
 */
static void
test_recovery_vs_live_changes(void)
{
	struct mlx5_emu_sched_info info;
	struct rte_tm_node_params np;
	struct mlx5_emu_sq_info sq;
	struct mlx5_tm_sched *s;
	uint16_t old_group, old_index, q;
	struct tm_port p;

	printf("error recovery vs live changes\n");
	s = tport_open_with_root(&p, 4);
	if (s == NULL)
		return;
	EXPECT_OK(profile_add(p.id, 2, 625000000, false), "5 Gbps");
	EXPECT_OK(nonleaf_add(p.id, MID, ROOT, 1), "900");
	EXPECT_OK(nonleaf_add(p.id, MID2, ROOT, 1), "901");
	/* A group per leaf: {0} under 900; {1}, {2} (weight 2), {3} under
	 * 901. */
	np = tm_leaf_params(1);
	for (q = 0; q < 4; q++)
		EXPECT_OK(rte_tm_node_add(p.id, q, q == 0 ? MID : MID2, 0,
					  q == 2 ? 2 : 1, 2, &np, &terr),
			  "l%u", q);
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	check_views(&p, "committed");

	/* 1. Queue 0 in recovery (SQ reset) gets a group under 901; {0}
	 * under 900 goes. */
	fail_next_wqe(&p, 0);
	rte_eth_tx_burst(p.id, 0, NULL, 0); /* the datapath sees the error */
	rte_pmd_mlx5_tm_recover(p.id);      /* the control path resets */
	CHECK(sq_of(&p, 0, &sq) && sq.state == MLX5_SQC_STATE_RST,
	      "queue 0's SQ in reset: state %u", sq.state);
	old_group = sq.qos_queue_group_id;
	EXPECT_OK(rte_tm_node_parent_update(p.id, 0, MID2, 0, 1, &terr),
		  "move queue 0, in recovery, under 901");
	CHECK(sq_of(&p, 0, &sq) && sq.qos_queue_group_id == old_group &&
	      mlx5_emu_sched_get(p.emu, old_group, &info) == 0,
	      "the SQ stays in its old group %u (now %u), which stays",
	      old_group, sq.qos_queue_group_id);
	CHECK(mlx5_emu_sched_list(p.emu, NULL, 0) == s->applied.n_elems + 1,
	      "%u elements on the device, plan %u + 1 kept",
	      mlx5_emu_sched_list(p.emu, NULL, 0), s->applied.n_elems);
	finish_recovery(&p, 0);
	CHECK(sq_of(&p, 0, &sq) && sq.state == MLX5_SQC_STATE_RDY &&
	      sq.qos_queue_group_id == expected_group(s, 0) &&
	      sq.qos_queue_group_id != old_group,
	      "queue 0 ready in its new group: state %u group %u, plan %u",
	      sq.state, sq.qos_queue_group_id, expected_group(s, 0));
	CHECK(mlx5_emu_sched_get(p.emu, old_group, &info) != 0,
	      "the old group %u destroyed once the SQ left it", old_group);
	check_views(&p, "queue 0 recovered");
	CHECK(send_frames(p.id, 0, 4) == 4, "queue 0 sends again");
	mlx5_emu_drain(p.emu);

	/* 2. Queue 2's SQ in error, unseen: new rate, new parent; {2} goes. */
	fail_next_wqe(&p, 2);
	CHECK(sq_of(&p, 2, &sq) && sq.state == MLX5_SQC_STATE_ERR,
	      "queue 2's SQ in error: state %u", sq.state);
	old_group = sq.qos_queue_group_id;
	old_index = sq.pp_index;
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 2, 2, &terr),
		  "5 Gbps on queue 2, its SQ in error");
	EXPECT_OK(rte_tm_node_parent_update(p.id, 2, MID, 0, 2, &terr),
		  "move queue 2, its SQ in error, under 900");
	CHECK(sq_of(&p, 2, &sq) && sq.state != MLX5_SQC_STATE_RDY &&
	      sq.pp_index == old_index && sq.qos_queue_group_id == old_group,
	      "queue 2 waits for its re-arm: state %u index %u group %u",
	      sq.state, sq.pp_index, sq.qos_queue_group_id);
	CHECK(mlx5_emu_sched_list(p.emu, NULL, 0) == s->applied.n_elems + 1,
	      "%u elements on the device, plan %u + 1 kept",
	      mlx5_emu_sched_list(p.emu, NULL, 0), s->applied.n_elems);
	finish_recovery(&p, 2);
	CHECK(sq_of(&p, 2, &sq) && sq.state == MLX5_SQC_STATE_RDY &&
	      sq.pp_index == expected_index(s, 2) && sq.pp_index != old_index &&
	      sq.qos_queue_group_id == expected_group(s, 2),
	      "queue 2 ready at 5 Gbps under 900: state %u index %u (plan "
	      "%u) group %u (plan %u)", sq.state, sq.pp_index,
	      expected_index(s, 2), sq.qos_queue_group_id,
	      expected_group(s, 2));
	CHECK(mlx5_emu_sched_get(p.emu, old_group, &info) != 0,
	      "queue 2's old group %u destroyed", old_group);
	check_views(&p, "queue 2 recovered");
	CHECK(send_frames(p.id, 2, 4) == 4, "queue 2 sends again");
	mlx5_emu_drain(p.emu);
	tm_port_close(&p);
}

/*
 * A change that keeps a recovering queue's group and then fails rolls
 * back with the kept group taken back (the same element, not a new one):
 * node 900 (queues 0 and 1, one group each) moves from 902 to 903, queue
 * 1 in reset; the old groups go bottom-up, queue 1's first: it is kept,
 * then the DESTROY of queue 0's is made to fail. After the recovery the
 * device holds the old plan.
 */
static void
test_recovery_rollback(void)
{
	struct mlx5_emu_sched_info info;
	struct rte_tm_node_params np;
	struct mlx5_emu_sq_info sq;
	struct mlx5_tm_sched *s;
	uint16_t old_group;
	unsigned int n_elems;
	struct tm_port p;
	int ret;

	printf("rollback of a change that kept a recovering queue's group\n");
	s = tport_open_with_root(&p, 2);
	if (s == NULL)
		return;
	EXPECT_OK(nonleaf_add(p.id, MID2 + 1, ROOT, 1), "902");
	EXPECT_OK(nonleaf_add(p.id, MID2 + 2, ROOT, 1), "903");
	EXPECT_OK(nonleaf_add(p.id, MID, MID2 + 1, 2), "900 under 902");
	np = tm_leaf_params(1);
	EXPECT_OK(rte_tm_node_add(p.id, 0, MID, 0, 1, 3, &np, &terr), "l0");
	EXPECT_OK(rte_tm_node_add(p.id, 1, MID, 0, 2, 3, &np, &terr), "l1");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	check_views(&p, "committed");
	n_elems = mlx5_emu_sched_list(p.emu, NULL, 0);
	fail_next_wqe(&p, 1);
	rte_eth_tx_burst(p.id, 1, NULL, 0);
	rte_pmd_mlx5_tm_recover(p.id);
	CHECK(sq_of(&p, 1, &sq) && sq.state == MLX5_SQC_STATE_RST,
	      "queue 1's SQ in reset: state %u", sq.state);
	old_group = sq.qos_queue_group_id;
	arm_cmd_fault(&p, MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, "DESTROY", 1,
		      MLX5_CMD_STAT_INT_ERR);
	ret = TM(rte_tm_node_parent_update(p.id, MID, MID2 + 2, 0, 1, &terr));
	CHECK(ret != 0 && strstr(tmsg(), "DESTROY_GENERAL_OBJECT") != NULL,
	      "the injected DESTROY fails the move: %d \"%s\"", ret, tmsg());
	CHECK(mlx5_emu_sched_list(p.emu, NULL, 0) == n_elems &&
	      s->applied.n_elems == n_elems &&
	      mlx5_emu_sched_get(p.emu, old_group, &info) == 0 &&
	      expected_group(s, 1) == old_group,
	      "rolled back: %u elements (before %u), queue 1's group %u "
	      "(plan %u)", mlx5_emu_sched_list(p.emu, NULL, 0), n_elems,
	      old_group, expected_group(s, 1));
	finish_recovery(&p, 1);
	CHECK(sq_of(&p, 1, &sq) && sq.state == MLX5_SQC_STATE_RDY &&
	      sq.qos_queue_group_id == old_group,
	      "queue 1 ready in its group: state %u group %u", sq.state,
	      sq.qos_queue_group_id);
	check_views(&p, "queue 1 recovered");
	EXPECT_OK(rte_tm_node_parent_update(p.id, MID, MID2 + 2, 0, 1, &terr),
		  "the move without a fault");
	CHECK(mlx5_emu_sched_get(p.emu, old_group, &info) != 0,
	      "queue 1's old group %u destroyed", old_group);
	check_views(&p, "moved");
	tm_port_close(&p);
}

/* ---- weights and queue groups of the scheduling hierarchy ---- */

/* Add node @p id (leaf when below nb_txq) with weight @p weight. */
static int
node_add_w(uint16_t port, uint32_t id, uint32_t parent, uint32_t weight,
	   uint32_t level, uint32_t profile, bool leaf)
{
	struct rte_tm_node_params np = leaf ? tm_leaf_params(profile) :
					      tm_nonleaf_params(profile);

	return TM(rte_tm_node_add(port, id, parent, 0, weight, level, &np,
				  &terr));
}

/* A profile of @p peak bytes/s with committed rate @p committed. */
static int
profile_add_cir(uint16_t port, uint32_t id, uint64_t peak,
		uint64_t committed)
{
	struct rte_tm_shaper_params sp;

	memset(&sp, 0, sizeof(sp));
	sp.peak.rate = peak;
	sp.committed.rate = committed;
	return TM(rte_tm_shaper_profile_add(port, id, &sp, &terr));
}

/*
 * The weight range the capabilities give is the device's bw_share range
 * (100 on cx6dx and cx7, whatever a devarg makes it, 1 without the
 * hierarchy) on the port, on the non-leaf levels and on a non-leaf node;
 * what it gives is accepted and one more is refused at once, naming the
 * range, at node add and at a live weight change.
 */
static void
test_weight_range(void)
{
	static const struct {
		const char *devargs;
		uint32_t want;
	} dev[] = {
		{ "emu=cx6dx,clock=virtual", 100 },
		{ "emu=cx7,clock=virtual", 100 },
		{ "emu=cx6dx,clock=virtual,cap_max_tsar_bw_share=50", 50 },
		{ "emu=cx5,clock=virtual", 1 },
	};
	struct rte_tm_level_capabilities lc;
	struct rte_tm_node_capabilities nc;
	struct rte_tm_capabilities cap;
	char want[32];
	struct tm_port p;
	unsigned int i;
	uint32_t w;

	printf("weight range: the device's bw_share range\n");
	for (i = 0; i < RTE_DIM(dev); i++) {
		w = dev[i].want;
		if (tm_port_open(&p, dev[i].devargs, 2, false) != 0) {
			CHECK(false, "port %s", dev[i].devargs);
			continue;
		}
		EXPECT_OK(rte_tm_capabilities_get(p.id, &cap, &terr), "caps");
		EXPECT_OK(rte_tm_level_capabilities_get(p.id, 0, &lc, &terr),
			  "level 0");
		CHECK(cap.sched_wfq_weight_max == w &&
		      lc.nonleaf.sched_wfq_weight_max == w,
		      "%s: port %u, level 0 %u, expected %u", dev[i].devargs,
		      cap.sched_wfq_weight_max,
		      lc.nonleaf.sched_wfq_weight_max, w);
		EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
		EXPECT_OK(node_add_w(p.id, MID, ROOT, w, 1, NONE, false),
			  "%s: 900 of weight %u", dev[i].devargs, w);
		EXPECT_OK(rte_tm_node_capabilities_get(p.id, MID, &nc, &terr),
			  "900 caps");
		CHECK(nc.nonleaf.sched_wfq_weight_max == w, "%s: node 900 %u",
		      dev[i].devargs, nc.nonleaf.sched_wfq_weight_max);
		snprintf(want, sizeof(want), "weight %u", w + 1);
		expect_err(node_add_w(p.id, MID2, ROOT, w + 1, 1, NONE, false),
			   w == 1 ? ENOTSUP : EINVAL,
			   RTE_TM_ERROR_TYPE_NODE_WEIGHT, want);
		CHECK(strstr(tmsg(), want) != NULL, "%s: %s", want, tmsg());
		snprintf(want, sizeof(want), "1..%u", w);
		CHECK(w == 1 || strstr(tmsg(), want) != NULL,
		      "the range in \"%s\"", tmsg());
		EXPECT_OK(leaf_add(p.id, 0, MID, 2, NONE), "leaf 0");
		EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
		expect_err(TM(rte_tm_node_parent_update(p.id, 0, MID, 0,
							w + 1, &terr)),
			   w == 1 ? ENOTSUP : EINVAL,
			   RTE_TM_ERROR_TYPE_NODE_WEIGHT, "live weight + 1");
		tm_port_close(&p);
	}
}

/*
 * Shares the device cannot hold within 1% are refused, at commit and at
 * a live change, naming both children: targets 10 and 1500 Mbit/s (a
 * committed 1490) under a 1510 Mbit/s group; before and after a refused
 * live change the device holds what it held.
 */
static void
test_shares_refused(void)
{
	struct mlx5_tm_sched *s;
	unsigned int n_elems;
	struct tm_port p;

	printf("shares the device cannot hold within 1%%\n");
	if (tport_open(&p, NULL, 2, true) != 0)
		return;
	s = sched_of(&p);
	EXPECT_OK(profile_add(p.id, 1, 188750000, false), "1510 Mbit/s");
	EXPECT_OK(profile_add_cir(p.id, 2, 188750000, 186250000),
		  "1490 committed");
	EXPECT_OK(profile_add_cir(p.id, 3, 188750000, 62500000),
		  "500 committed");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	EXPECT_OK(node_add_w(p.id, MID, ROOT, 1, 1, 1, false), "900");
	EXPECT_OK(leaf_add(p.id, 0, MID, 2, NONE), "leaf 0");
	EXPECT_OK(leaf_add(p.id, 1, MID, 2, 2), "leaf 1, 1490 committed");
	expect_err(TM(rte_tm_hierarchy_commit(p.id, 0, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE,
		   "commit of 10:1500");
	CHECK(strstr(tmsg(), "node 0 (weight 1)") != NULL &&
	      strstr(tmsg(), "node 1 (weight 1, with a committed rate)") &&
	      strstr(tmsg(), "1..100") != NULL, "message: %s", tmsg());
	CHECK(!s->committed && mlx5_emu_sched_list(p.emu, NULL, 0) == 0,
	      "nothing committed, no element");
	/* 500 committed: 505:1005 holds; then 1490 again, live. */
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 1, 3, &terr), "500");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	n_elems = mlx5_emu_sched_list(p.emu, NULL, 0);
	check_views(&p, "committed");
	expect_err(TM(rte_tm_node_shaper_update(p.id, 1, 2, &terr)), EINVAL,
		   RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE,
		   "live 10:1500");
	CHECK(tm_tree_leaf(&s->hier, 1)->profile->id == 3 &&
	      mlx5_emu_sched_list(p.emu, NULL, 0) == n_elems,
	      "the leaf keeps profile 3, the device its %u elements",
	      n_elems);
	check_views(&p, "after the refused change");
	tm_port_close(&p);
}

/*
 * A leaf group of its own for each leaf while the device has groups:
 * the issue's 50 Mbit/s leaf of weight 1 beside an unshaped one of
 * weight 1 and one of weight 2 under an 800 Mbit/s group; on the device
 * each SQ in a group of its own, shares 1:1:2.
 */
static void
test_groups_per_leaf(void)
{
	struct mlx5_emu_sched_info gi[3];
	struct mlx5_emu_sq_info sq[3];
	struct tm_port p;
	uint16_t q;

	printf("a queue group per leaf\n");
	if (tport_open(&p, NULL, 3, true) != 0)
		return;
	EXPECT_OK(profile_add(p.id, 1, 100000000, false), "800 Mbit/s");
	EXPECT_OK(profile_add(p.id, 2, 6250000, false), "50 Mbit/s");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	EXPECT_OK(node_add_w(p.id, MID, ROOT, 1, 1, 1, false), "900");
	EXPECT_OK(node_add_w(p.id, 0, MID, 1, 2, 2, true), "leaf 0");
	EXPECT_OK(node_add_w(p.id, 1, MID, 1, 2, NONE, true), "leaf 1");
	EXPECT_OK(node_add_w(p.id, 2, MID, 2, 2, NONE, true), "leaf 2");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	for (q = 0; q < 3; q++)
		CHECK(sq_of(&p, q, &sq[q]) && sq[q].qos_queue_group_id != 0 &&
		      mlx5_emu_sched_get(p.emu, sq[q].qos_queue_group_id,
					 &gi[q]) == 0, "queue %u's group", q);
	CHECK(sq[0].qos_queue_group_id != sq[1].qos_queue_group_id &&
	      sq[1].qos_queue_group_id != sq[2].qos_queue_group_id &&
	      sq[0].qos_queue_group_id != sq[2].qos_queue_group_id,
	      "three groups: %u %u %u", sq[0].qos_queue_group_id,
	      sq[1].qos_queue_group_id, sq[2].qos_queue_group_id);
	CHECK(gi[0].bw_share == gi[1].bw_share &&
	      gi[2].bw_share == 2 * gi[0].bw_share, "shares 1:1:2: %u %u %u",
	      gi[0].bw_share, gi[1].bw_share, gi[2].bw_share);
	check_views(&p, "committed");
	tm_port_close(&p);
}

/*
 * More leaves than the device's groups (4: cap_log_max_qos_nic_queue_group
 * = 2): interchangeable leaves share. A live shaper change makes a leaf
 * leave its shared group while the port runs (MODIFY_SQ into a group of
 * its own); its old partner stays where it was; back again, it rejoins.
 */
static void
test_shared_group_live_move(void)
{
	static const uint32_t prof[5] = { NONE, NONE, 2, 2, NONE };
	struct mlx5_emu_sq_info sq[5];
	struct mlx5_tm_sched *s;
	uint16_t before2;
	struct tm_port p;
	uint16_t q;

	printf("a leaf leaves its shared queue group live\n");
	if (tport_open(&p, "cap_log_max_qos_nic_queue_group=2", 5,
		       true) != 0)
		return;
	s = sched_of(&p);
	EXPECT_OK(profile_add(p.id, 1, 100000000, false), "800 Mbit/s");
	EXPECT_OK(profile_add(p.id, 2, 12500000, false), "100 Mbit/s");
	EXPECT_OK(profile_add(p.id, 3, 25000000, false), "200 Mbit/s");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	EXPECT_OK(node_add_w(p.id, MID, ROOT, 1, 1, 1, false), "900");
	for (q = 0; q < 5; q++)
		EXPECT_OK(node_add_w(p.id, q, MID, q == 4 ? 2 : 1, 2, prof[q],
				     true), "leaf %u", q);
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	for (q = 0; q < 5; q++)
		CHECK(sq_of(&p, q, &sq[q]), "queue %u", q);
	CHECK(s->applied.shared_groups && s->applied.n_groups == 3 &&
	      sq[0].qos_queue_group_id == sq[1].qos_queue_group_id &&
	      sq[2].qos_queue_group_id == sq[3].qos_queue_group_id &&
	      sq[0].qos_queue_group_id != sq[2].qos_queue_group_id &&
	      sq[4].qos_queue_group_id != sq[0].qos_queue_group_id &&
	      sq[4].qos_queue_group_id != sq[2].qos_queue_group_id,
	      "{0, 1} unshaped, {2, 3} at 100 Mbit/s, {4} weight 2: groups "
	      "%u %u %u %u %u", sq[0].qos_queue_group_id,
	      sq[1].qos_queue_group_id, sq[2].qos_queue_group_id,
	      sq[3].qos_queue_group_id, sq[4].qos_queue_group_id);
	before2 = sq[2].qos_queue_group_id;
	CHECK(send_frames(p.id, 3, 8) == 8, "queue 3 sends");
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 3, 3, &terr),
		  "200 Mbit/s on queue 3, live");
	CHECK(sq_of(&p, 2, &sq[2]) && sq_of(&p, 3, &sq[3]) &&
	      sq[3].state == MLX5_SQC_STATE_RDY &&
	      sq[2].qos_queue_group_id == before2 &&
	      sq[3].qos_queue_group_id != before2 &&
	      sq[3].qos_queue_group_id == expected_group(s, 3) &&
	      sq[3].pp_index == expected_index(s, 3) &&
	      s->applied.n_groups == 4, "queue 3 in a group of its own (%u), "
	      "queue 2 kept in %u (now %u), %u groups",
	      sq[3].qos_queue_group_id, before2, sq[2].qos_queue_group_id,
	      s->applied.n_groups);
	check_views(&p, "after the move");
	mlx5_emu_drain(p.emu);
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 3, 2, &terr),
		  "100 Mbit/s again");
	CHECK(sq_of(&p, 3, &sq[3]) && sq[3].qos_queue_group_id == before2 &&
	      s->applied.n_groups == 3, "queue 3 back with queue 2 in %u: %u",
	      before2, sq[3].qos_queue_group_id);
	check_views(&p, "back");
	CHECK(send_frames(p.id, 3, 8) == 8, "queue 3 sends again");
	mlx5_emu_drain(p.emu);
	tm_port_close(&p);
}

/* Failures during commit and updates roll everything back. */
static void
test_rollback(void)
{
	struct mlx5_emu_fault_pp fp;
	struct snapshot a, b;
	struct mlx5_tm_sched *s;
	struct tm_port p;
	int is_leaf, ret;
	uint16_t q;

	printf("rollback under device failures\n");
	if (tport_open(&p, NULL, NB_TXQ, true) != 0)
		return;
	s = sched_of(&p);
	for (q = 0; q < NB_TXQ; q++)
		CHECK(rte_eth_set_queue_rate_limit(p.id, q, 10 * (q + 1)) == 0,
		      "rate limit %u", q);
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	for (q = 0; q < NB_TXQ; q++) {
		EXPECT_OK(profile_add(p.id, q, 1250000 * (q + 11), false),
			  "profile %u", q);
		EXPECT_OK(leaf_add(p.id, q, ROOT, 1, q), "leaf %u", q);
	}
	check_views(&p, "before faults");
	/* pp_alloc: the 3rd new entry fails (ENOSPC, then EIO). */
	memset(&fp, 0, sizeof(fp));
	fp.nth = 3;
	fp.err = ENOSPC;
	snap(&p, &a);
	CHECK(mlx5_emu_fault_pp_alloc(p.emu, &fp) == 0, "arm pp_alloc");
	ret = TM(rte_tm_hierarchy_commit(p.id, 0, &terr));
	snap(&p, &b);
	/* A full device table is the port's shortage, not node 2's fault. */
	CHECK(ret == -ENOSPC && terr.type == RTE_TM_ERROR_TYPE_UNSPECIFIED &&
	      strstr(tmsg(), "rate table is full") != NULL &&
	      snap_equal(&a, &b),
	      "pp_alloc ENOSPC: %d \"%s\"", ret, tmsg());
	check_views(&p, "after pp_alloc ENOSPC");
	fp.err = EIO;
	CHECK(mlx5_emu_fault_pp_alloc(p.emu, &fp) == 0, "arm pp_alloc");
	ret = TM(rte_tm_hierarchy_commit(p.id, 0, &terr));
	snap(&p, &b);
	CHECK(ret == -EIO && snap_equal(&a, &b),
	      "pp_alloc EIO: %d \"%s\"", ret, tmsg());
	check_views(&p, "after pp_alloc EIO");
	/* MODIFY_SQ: the 4th queue of the batch fails. */
	arm_cmd_fault(&p, MLX5_CMD_OP_MODIFY_SQ, "MODIFY_SQ", 4,
		      MLX5_CMD_STAT_BAD_RES_STATE_ERR);
	ret = TM(rte_tm_hierarchy_commit(p.id, 0, &terr));
	snap(&p, &b);
	CHECK(ret != 0 && terr.type == RTE_TM_ERROR_TYPE_NODE_ID &&
	      strstr(tmsg(), "node 3") != NULL && snap_equal(&a, &b),
	      "MODIFY_SQ mid-batch: %d \"%s\"", ret, tmsg());
	check_views(&p, "after MODIFY_SQ failure");
	for (q = 0; q < NB_TXQ; q++)
		CHECK((!s->committed && s->applied.queues[q].shaped) &&
		      s->applied.queues[q].ctx.rate_limit == 10000u * (q + 1),
		      "queue %u kept its rate limit", q);
	/* Without faults it goes through. */
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	check_views(&p, "committed");
	/* Run-time update failing at MODIFY_SQ: old rate kept, no leak. */
	EXPECT_OK(profile_add(p.id, 50, 125000000, false), "profile 50");
	arm_cmd_fault(&p, MLX5_CMD_OP_MODIFY_SQ, "MODIFY_SQ", 1,
		      MLX5_CMD_STAT_BAD_RES_STATE_ERR);
	snap(&p, &a);
	ret = TM(rte_tm_node_shaper_update(p.id, 5, 50, &terr));
	snap(&p, &b);
	CHECK(ret != 0 && terr.type == RTE_TM_ERROR_TYPE_NODE_ID &&
	      snap_equal(&a, &b) &&
	      tm_tree_leaf(&s->hier, 5)->profile->id == 5,
	      "update refused, rate kept: %d \"%s\"", ret, tmsg());
	check_views(&p, "after failed update");
	EXPECT_OK(rte_tm_node_delete(p.id, 0, &terr), "live delete 0");
	fp.nth = 1;
	fp.err = EIO;
	CHECK(mlx5_emu_fault_pp_alloc(p.emu, &fp) == 0, "arm pp_alloc");
	ret = leaf_add(p.id, 0, ROOT, 1, 50);
	CHECK(ret == -EIO && rte_tm_node_type_get(p.id, 0, &is_leaf, &terr)
	      != 0, "live leaf add refused and not kept: %d", ret);
	check_views(&p, "after failed live add");
	/* clear_on_fail on a fresh port: table too small. */
	tm_port_close(&p);
	if (tport_open(&p, "cap_pp_table_size=5", NB_TXQ, true) != 0)
		return;
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	for (q = 0; q < NB_TXQ; q++) {
		EXPECT_OK(profile_add(p.id, q, 1250000 * (q + 2), false),
			  "profile %u", q);
		EXPECT_OK(leaf_add(p.id, q, ROOT, 1, q), "leaf %u", q);
	}
	ret = TM(rte_tm_hierarchy_commit(p.id, 0, &terr));
	CHECK(ret == -ENOSPC && terr.type == RTE_TM_ERROR_TYPE_UNSPECIFIED &&
	      strstr(tmsg(), "8") != NULL && strstr(tmsg(), "4") != NULL,
	      "table full: %d \"%s\"", ret, tmsg());
	CHECK(sched_of(&p)->hier.n_nodes == NB_TXQ + 1, "kept (no clear)");
	check_views(&p, "table full");
	/* Equal rates share: 4 distinct rates fit. */
	for (q = 4; q < NB_TXQ; q++)
		EXPECT_OK(rte_tm_node_shaper_update(p.id, q, q - 4, &terr),
			  "share %u", q);
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "4 rates fit");
	check_views(&p, "4 shared entries");
	CHECK(pacing_table_in_use(mlx5_tm_pacing_table(sched_of(&p)->pacing))
	      == 4, "4 entries");
	tm_port_close(&p);
	/* Tolerance: close rates share within the ppm given. */
	if (tport_open(&p, "cap_pp_table_size=3,rate_tolerance_ppm=1000",
		       4, false) == 0) {
		EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
		EXPECT_OK(profile_add(p.id, 0, 125000000, false), "1 Gbps");
		EXPECT_OK(profile_add(p.id, 1, 125100000, false), "+800 ppm");
		EXPECT_OK(profile_add(p.id, 2, 250000000, false), "2 Gbps");
		EXPECT_OK(profile_add(p.id, 3, 125200000, false), "+1600 ppm");
		for (q = 0; q < 3; q++)
			EXPECT_OK(leaf_add(p.id, q, ROOT, 1, q), "leaf %u", q);
		EXPECT_OK(rte_tm_hierarchy_commit(p.id, 1, &terr),
			  "3 rates in 2 entries");
		check_views(&p, "tolerance");
		expect_err(leaf_add(p.id, 3, ROOT, 1, 3), ENOSPC,
			   RTE_TM_ERROR_TYPE_UNSPECIFIED,
			   "beyond tolerance, table full");
		check_views(&p, "tolerance refusal");
		tm_port_close(&p);
	}
	/* clear_on_fail: nodes deleted after a failed commit. */
	if (tport_open(&p, "cap_pp_table_size=2", 2, false) == 0) {
		EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
		EXPECT_OK(profile_add(p.id, 0, 125000000, false), "p0");
		EXPECT_OK(profile_add(p.id, 1, 250000000, false), "p1");
		EXPECT_OK(leaf_add(p.id, 0, ROOT, 1, 0), "leaf 0");
		EXPECT_OK(leaf_add(p.id, 1, ROOT, 1, 1), "leaf 1");
		ret = TM(rte_tm_hierarchy_commit(p.id, 1, &terr));
		CHECK(ret == -ENOSPC && sched_of(&p)->hier.n_nodes == 0 &&
		      sched_of(&p)->hier.n_profiles == 2,
		      "clear_on_fail: %d, %u nodes", ret,
		      sched_of(&p)->hier.n_nodes);
		check_views(&p, "cleared");
		tm_port_close(&p);
	}
	check_devices_closed("refused commits");
}

/* Dedicated indices, and the port's burst and typical-size defaults. */
static void
test_dedicated(void)
{
	struct mlx5_emu_pp_info e[8];
	struct mlx5_tm_sched *s;
	struct tm_port p;
	unsigned int n, k;
	uint16_t q;

	printf("dedicated pacing indices, port defaults\n");
	if (tport_open(&p, "pacing_index=dedicated,tx_burst_bound=3000,"
		       "tx_typical_pkt_sz=1000", 4, true) != 0)
		return;
	s = sched_of(&p);
	EXPECT_OK(profile_add(p.id, 1, 125000000, false), "1 Gbps");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	for (q = 0; q < 4; q++)
		EXPECT_OK(leaf_add(p.id, q, ROOT, 1, 1), "leaf %u", q);
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	CHECK(pacing_table_in_use(mlx5_tm_pacing_table(s->pacing)) == 4 &&
	      expected_index(s, 0) != expected_index(s, 1),
	      "4 dedicated entries");
	n = mlx5_emu_pp_list(p.emu, e, RTE_DIM(e));
	for (k = 0; k < RTE_MIN(n, RTE_DIM(e)); k++)
		CHECK(e[k].dedicated && e[k].rate_limit == 1000000 &&
		      e[k].burst_upper_bound == 3000 &&
		      e[k].typical_packet_size == 1000 && e[k].rate_mode == 0,
		      "device entry %u: ded %d rate %u burst %u typical %u",
		      e[k].index, e[k].dedicated, e[k].rate_limit,
		      e[k].burst_upper_bound, e[k].typical_packet_size);
	CHECK(n == 4, "4 device entries: %u", n);
	check_views(&p, "dedicated");
	/* A hitless update in dedicated mode: a fresh entry, old one freed. */
	EXPECT_OK(profile_add(p.id, 2, 250000000, false), "2 Gbps");
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 2, 2, &terr), "update 2");
	CHECK(pacing_table_in_use(mlx5_tm_pacing_table(s->pacing)) == 4,
	      "still 4 entries");
	check_views(&p, "dedicated update");
	/* Packet mode: the bucket counts packets, the device WQEs. */
	{
		struct rte_tm_shaper_params sp;

		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = 50000;
		sp.packet_mode = 1;
		sp.peak.size = 8;
		EXPECT_OK(profile_add_params(p.id, 3, sp), "8-packet bucket");
		sp.peak.size = 0;
		EXPECT_OK(profile_add_params(p.id, 4, sp), "default bucket");
	}
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 0, 3, &terr), "0 -> 3");
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 1, 4, &terr), "1 -> 4");
	n = mlx5_emu_pp_list(p.emu, e, RTE_DIM(e));
	for (k = 0; k < RTE_MIN(n, RTE_DIM(e)); k++)
		if (e[k].rate_mode == 1)
			/* No bucket given: 0, tx_burst_bound is bytes. */
			CHECK(e[k].burst_upper_bound ==
			      (e[k].index == expected_index(s, 0) ? 8u : 0u),
			      "WQE-rate entry %u: bucket %u WQEs", e[k].index,
			      e[k].burst_upper_bound);
	check_views(&p, "packet-mode buckets");
	tm_port_close(&p);
}

/* Reconfiguring the number of queues drops the queues that go. */
static void
test_reconfigure(void)
{
	struct rte_eth_conf conf;
	struct mlx5_tm_sched *s;
	struct tm_port p;
	uint16_t q;

	printf("reconfigure the number of Tx queues\n");
	if (tport_open(&p, NULL, NB_TXQ, false) != 0)
		return;
	s = sched_of(&p);
	EXPECT_OK(profile_add(p.id, 1, 125000000, false), "p1");
	EXPECT_OK(profile_add(p.id, 2, 250000000, false), "p2");
	EXPECT_OK(nonleaf_add(p.id, 20, NULL_ID, 0), "root 20");
	for (q = 0; q < NB_TXQ; q++)
		EXPECT_OK(leaf_add(p.id, q, 20, 1, q < 4 ? 1 : 2), "l%u", q);
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(p.id, 0, 4, &conf) == 0, "4 queues");
	CHECK(s->applied.nb_txq == 4 && s->hier.n_leaves == 4 && s->committed &&
	      pacing_table_in_use(mlx5_tm_pacing_table(s->pacing)) == 1,
	      "leaves 4..7 and their entry gone");
	for (q = 4; q < NB_TXQ; q++)
		CHECK(expected_index(s, q) == 0, "queue %u index reset", q);
	check_views(&p, "shrunk");
	CHECK(rte_eth_dev_configure(p.id, 0, 32, &conf) == 0, "32 queues");
	CHECK(s->hier.n_nodes == 0 && !s->committed &&
	      pacing_table_in_use(mlx5_tm_pacing_table(s->pacing)) == 0,
	      "root id 20 names a queue now: hierarchy deleted");
	check_views(&p, "grown");
	tm_port_close(&p);
}

/*
 * A reconfiguration whose scheduling step the device refuses fails
 * rte_eth_dev_configure() (it returned 0), the device keeping what it
 * held; the next configuration applies it.
 */
static void
test_reconfigure_refused(void)
{
	struct rte_eth_conf conf;
	struct mlx5_tm_sched *s;
	struct tm_port p;
	uint32_t n_elems;
	uint16_t q;
	int ret;

	printf("reconfigure refused by the device\n");
	if (tport_open(&p, NULL, 4, false) != 0)
		return;
	s = sched_of(&p);
	EXPECT_OK(profile_add(p.id, 1, 125000000, false), "p1");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	/* Weights 1..4: a queue group per leaf. */
	for (q = 0; q < 4; q++) {
		struct rte_tm_node_params np = tm_leaf_params(1);

		EXPECT_OK(rte_tm_node_add(p.id, q, ROOT, 0, q + 1, 1, &np,
					  &terr), "leaf %u", q);
	}
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	n_elems = mlx5_emu_sched_list(p.emu, NULL, 0);
	CHECK(n_elems == 5, "root and 4 groups: %u elements", n_elems);
	arm_cmd_fault(&p, MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, "DESTROY", 1,
		      MLX5_CMD_STAT_INT_ERR);
	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(p.id, 0, 2, &conf);
	CHECK(ret < 0, "2 queues, a group's destruction refused: %d", ret);
	CHECK(mlx5_emu_sched_list(p.emu, NULL, 0) == n_elems &&
	      s->applied.n_elems == n_elems && s->applied.nb_txq == 4,
	      "the device keeps its %u elements: %u, plan %u elements of %u "
	      "queues", n_elems, mlx5_emu_sched_list(p.emu, NULL, 0),
	      s->applied.n_elems, s->applied.nb_txq);
	CHECK(rte_eth_dev_configure(p.id, 0, 2, &conf) == 0,
	      "2 queues again");
	CHECK(mlx5_emu_sched_list(p.emu, NULL, 0) == 3 &&
	      s->applied.nb_txq == 2 && s->hier.n_leaves == 2,
	      "the root and 2 groups: %u elements, %u queues, %u leaves",
	      mlx5_emu_sched_list(p.emu, NULL, 0), s->applied.nb_txq,
	      s->hier.n_leaves);
	check_views(&p, "reconfigured");
	tm_port_close(&p);
}

/*
 * Memory-short commits: not under ASan, whose allocator aborts the
 * process when an allocation fails.
 */
#ifndef __SANITIZE_ADDRESS__
/* VmData of this process, in KiB (0: unreadable). */
static unsigned long
vm_data_kib(void)
{
	char line[128];
	unsigned long kib = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmData: %lu kB", &kib) == 1)
			break;
	if (f != NULL)
		fclose(f);
	return kib;
}

/* Blocks commit_short_of_memory() takes: more than the heap can hold. */
#define HEAP_BLOCKS 4096
#define HEAP_BLOCK (128 * 1024)

/*
 * Commit on port @p port with no allocation of HEAP_BLOCK bytes or more
 * possible: the data segment limited to what the process uses plus
 * 64 KiB, and every free piece of the heap that large taken first. The
 * buffers a commit keeps exist already: the caller made the same commit
 * once before. INT_MIN when the limit cannot be set.
 */
static int
commit_short_of_memory(uint16_t port)
{
	static void *taken[HEAP_BLOCKS];
	unsigned long kib = vm_data_kib();
	struct rlimit old, lim;
	unsigned int n = 0;
	int ret;

	if (kib == 0 || getrlimit(RLIMIT_DATA, &old) != 0)
		return INT_MIN;
	lim = old;
	lim.rlim_cur = (kib + 64) * 1024;
	if (setrlimit(RLIMIT_DATA, &lim) != 0)
		return INT_MIN;
	while (n < HEAP_BLOCKS && (taken[n] = malloc(HEAP_BLOCK)) != NULL)
		n++;
	ret = TM(rte_tm_hierarchy_commit(port, 0, &terr));
	while (n > 0)
		free(taken[--n]);
	setrlimit(RLIMIT_DATA, &old);
	return ret;
}
#endif

/* Rates whose commit needs more pacing entries than the table's 3. */
static const struct {
	const char *devargs;
	uint32_t mbps[6];
	unsigned int need;
} capacity_cases[] = {
	{ "cap_pp_table_size=4", { 100, 100, 200, 300, 400, 400 }, 4 },
	{ "cap_pp_table_size=4,pacing_index=dedicated",
	  { 100, 100, 200, 300, 400, 400 }, 6 },
	/* 119 shares 100's entry (16% away); 138 is 27.5% from 100. */
	{ "cap_pp_table_size=4,rate_tolerance_ppm=200000",
	  { 100, 119, 138, 200, 300, 400 }, 5 },
};

/*
 * Open port @p p for capacity_cases[@p i] and commit its tree once:
 * refused, saying how many entries it needs (in @p want) and that 3 fit.
 * -1 when the port did not open.
 */
static int
capacity_commit(struct tm_port *p, unsigned int i, char *want, size_t len)
{
	uint16_t q;
	int ret;

	if (tport_open(p, capacity_cases[i].devargs, 6, false) != 0)
		return -1;
	EXPECT_OK(nonleaf_add(p->id, ROOT, NULL_ID, 0), "root");
	for (q = 0; q < 6; q++) {
		EXPECT_OK(profile_add(p->id, q + 1,
				      capacity_cases[i].mbps[q] * 125000ull,
				      false), "profile %u", q + 1);
		EXPECT_OK(leaf_add(p->id, q, ROOT, 1, q + 1), "leaf %u", q);
	}
	snprintf(want, len, "need %u distinct entries",
		 capacity_cases[i].need);
	ret = TM(rte_tm_hierarchy_commit(p->id, 0, &terr));
	CHECK(ret == -ENOSPC && strstr(tmsg(), want) != NULL &&
	      strstr(tmsg(), "3 fit") != NULL,
	      "%s: %d \"%s\"", capacity_cases[i].devargs, ret, tmsg());
	return 0;
}

/*
 * A commit refused for want of pacing entries says how many distinct
 * entries the new rates need, by the port's sharing rule (exact, within
 * a tolerance: only an entry another queue took serves a queue, or
 * dedicated).
 */
static void
test_capacity_refusal_counts(void)
{
	char want[64];
	unsigned int i;
	struct tm_port p;

	printf("a refusal for want of pacing entries counts them\n");
	for (i = 0; i < RTE_DIM(capacity_cases); i++) {
		if (capacity_commit(&p, i, want, sizeof(want)) != 0)
			return;
		check_views(&p, "refused");
		tm_port_close(&p);
	}
}

/*
 * The same refusals with memory short: the count needs no allocation
 * (it once allocated a 256 KiB table and said "need 0" when that failed).
 */
static void
test_capacity_refusal_memory_short(void)
{
#ifndef __SANITIZE_ADDRESS__
	char want[64];
	unsigned int i;
	struct tm_port p;
	int ret;

	for (i = 0; i < RTE_DIM(capacity_cases); i++) {
		if (capacity_commit(&p, i, want, sizeof(want)) != 0)
			return;
		ret = commit_short_of_memory(p.id);
		CHECK(ret == -ENOSPC && strstr(tmsg(), want) != NULL,
		      "%s, memory short: %d \"%s\"",
		      capacity_cases[i].devargs, ret, tmsg());
		check_views(&p, "refused");
		tm_port_close(&p);
	}
#else
	tm_case_skip("ASan's allocator aborts the process when memory is "
		     "short (the plain build runs it)");
#endif
}

/*
 * The rte_tm guide's 3-level tree of 1024 leaves, 16 distinct rates under
 * each of 64 parents with a ceiling: each family is all leaves of one
 * weight, so it shares one queue group, 64 in all, and the tree commits
 * (the guide once said it was refused; testpmd committed it).
 */
static void
test_wide_tree_commits(void)
{
	enum { NP = 64, NR = 16, NQ = NP * NR, TOP = 5000, PARENT0 = 6000 };
	struct mlx5_tm_sched *s;
	struct tm_port p;
	unsigned int i;
	uint16_t q;
	int ret;

	printf("3 levels, 1024 leaves, 16 rates under each of 64 parents\n");
	if (tport_open(&p, NULL, NQ, false) != 0)
		return;
	EXPECT_OK(profile_add(p.id, 100, 1250000000, false), "10 Gbit/s");
	for (i = 0; i < NR; i++)
		EXPECT_OK(profile_add(p.id, i + 1, (i + 1) * 1250000ull,
				      false), "%u0 Mbit/s", i + 1);
	EXPECT_OK(nonleaf_add(p.id, TOP, NULL_ID, 0), "root");
	for (i = 0; i < NP; i++) {
		struct rte_tm_node_params np = tm_nonleaf_params(100);

		EXPECT_OK(TM(rte_tm_node_add(p.id, PARENT0 + i, TOP, 0, 1, 1,
					     &np, &terr)), "parent %u", i);
	}
	for (q = 0; q < NQ; q++)
		EXPECT_OK(leaf_add(p.id, q, PARENT0 + q / NR, 2, q % NR + 1),
			  "leaf %u", q);
	ret = TM(rte_tm_hierarchy_commit(p.id, 0, &terr));
	s = sched_of(&p);
	CHECK(ret == 0, "commit: %d \"%s\"", ret, tmsg());
	CHECK(s != NULL && ret == 0 && s->applied.n_groups == NP,
	      "%u queue groups, want %u", s != NULL ? s->applied.n_groups : 0,
	      NP);
	tm_port_close(&p);
}

/* ---- telemetry ---- */

static void
test_telemetry(void)
{
	static char buf[16384];
	char cmd[64];
	struct tm_port p;
	uint16_t q;

	printf("telemetry\n");
	if (tport_open(&p, NULL, 4, true) != 0)
		return;
	EXPECT_OK(profile_add(p.id, 1, 125000000, false), "1 Gbps");
	EXPECT_OK(profile_add(p.id, 2, 10000, true), "10 kpps");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	for (q = 0; q < 3; q++)
		EXPECT_OK(leaf_add(p.id, q, ROOT, 1, q == 2 ? 2 : 1), "l%u", q);
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u", p.id);
	if (tm_telemetry_query(cmd, buf, sizeof(buf)) != 0) {
		CHECK(false, "telemetry socket %s unavailable",
		      rte_eal_get_runtime_dir());
	} else {
		if (verbose)
			printf("  %s\n", buf);
		CHECK(strstr(buf, "\"rate_kbps\":[1000000,0]") != NULL &&
		      strstr(buf, "\"rate_bytes_per_s\":[125000000,0]") != NULL &&
		      strstr(buf, "\"rate_pkts_per_s\":[0,10000]") != NULL &&
		      strstr(buf, "\"users\":[\"0-1\",\"2\"]") != NULL &&
		      strstr(buf, "\"hierarchy\":\"committed\"") != NULL &&
		      strstr(buf, "\"in_use\":2") != NULL,
		      "telemetry content: %s", buf);
	}
	tm_port_close(&p);
}

/*
 * A bad request gets an error naming the parameter and its value, not the
 * bare null DPDK's telemetry gives a failed callback.
 */
static void
test_telemetry_errors(void)
{
	static const struct {
		const char *params;
		const char *want;
	} bad[] = {
		{ "", "no parameters: expected "
		  "port_id[,first_queue[,first_tsar]]" },
		{ ",abc", "port_id 'abc': expected a decimal port id" },
		{ ",x1", "port_id 'x1': expected a decimal port id" },
		{ ",1x", "port_id '1x': expected a decimal port id" },
		{ ",99999", "port_id '99999': expected a decimal port id below" },
		{ ",999", "port_id '999': expected a decimal port id below" },
		{ ",%u,", "first_queue '': expected a decimal queue number" },
		{ ",%u,-1", "first_queue '-1': expected a decimal queue number" },
		{ ",%u,2z", "first_queue '2z': expected a decimal queue number" },
		{ ",%u,4", "first_queue 4: port %u has 4 Tx queues" },
		{ ",%u,0,", "first_tsar '': expected a decimal TSAR number" },
		{ ",%u,0,x", "first_tsar 'x': expected a decimal TSAR number" },
		{ ",%u,0,1,2", "first_tsar '1,2': expected a decimal TSAR" },
		{ ",%u,1x,0", "first_queue '1x': expected a decimal queue" },
		{ ",%u,0,1", "first_tsar 1: port %u has 0 TSARs" },
	};
	static char buf[16384];
	char cmd[64], params[32], want[96];
	struct tm_port p;
	unsigned int i;

	printf("telemetry errors\n");
	if (tport_open(&p, NULL, 4, true) != 0)
		return;
	/* A valid port that is not net_mlx5_tm: none is; the next id. */
	snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u", p.id + 1);
	snprintf(want, sizeof(want),
		 "port_id %u: not a net_mlx5_tm port of this process",
		 p.id + 1);
	CHECK(tm_telemetry_query(cmd, buf, sizeof(buf)) == 0 &&
	      strstr(buf, want) != NULL && strstr(buf, "\"error\"") != NULL,
	      "%s: %s", cmd, buf);
	for (i = 0; i < RTE_DIM(bad); i++) {
		snprintf(params, sizeof(params), bad[i].params, p.id);
		snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing%s", params);
		snprintf(want, sizeof(want), bad[i].want, p.id);
		CHECK(tm_telemetry_query(cmd, buf, sizeof(buf)) == 0 &&
		      strstr(buf, "{\"error\":\"") != NULL &&
		      strstr(buf, want) != NULL && strstr(buf, "null") == NULL,
		      "%s: %s (want \"%s\")", cmd, buf, want);
	}
	tm_port_close(&p);
}

/* A u64 value of key @p key in @p json, or -1 when absent. */
static int64_t
json_u64(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	return p != NULL ? (int64_t)strtoull(p + strlen(pat), NULL, 10) : -1;
}

/*
 * 1024 queues, 512 entries in use (queues q and q + 512 share the rate
 * q + 1 Mbit/s): walking the pages from "next" to "next" gives every
 * queue once, every entry, and every key on every page.
 */
static void
test_telemetry_pages(void)
{
	static const char *const keys[] = {
		"index", "rate_limit", "rate_kbps", "rate_bytes_per_s",
		"rate_pkts_per_s", "burst", "typical_size", "dedicated",
		"refs", "mode", "users", "queue_rate_source",
		"queue_pacing_index", "nb_txq", "first_queue", "queues",
	};
	enum { NQ = 1024, NRATES = 512 };
	static char buf[20000];
	static uint64_t qidx[NQ], idx[NQ];
	static bool seen[65536];
	uint64_t pgidx[64];
	unsigned int pages = 0, queues = 0, entries = 0, bad_keys = 0;
	unsigned int bad_index = 0, k;
	int64_t first = 0, next;
	char cmd[64];
	struct tm_port p;
	uint16_t q;

	printf("telemetry pages: 1024 queues, 512 rates\n");
	/* Started: ethdev refuses a rate above the link speed (0 when down). */
	if (tport_open(&p, "cap_pp_table_size=1024", NQ, true) != 0)
		return;
	for (q = 0; q < NQ; q++)
		if (rte_eth_set_queue_rate_limit(p.id, q, q % NRATES + 1) != 0)
			bad_index++;
	CHECK(bad_index == 0, "%u queue rate limits refused", bad_index);
	bad_index = 0;
	memset(seen, 0, sizeof(seen));
	do {
		int nidx, nq;

		snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u,%u",
			 p.id, (unsigned int)first);
		if (tm_telemetry_query(cmd, buf, sizeof(buf)) != 0) {
			CHECK(false, "telemetry %s", cmd);
			break;
		}
		pages++;
		for (k = 0; k < RTE_DIM(keys); k++) {
			char key[40];

			snprintf(key, sizeof(key), "\"%s\":", keys[k]);
			if (strstr(buf, key) == NULL) {
				bad_keys++;
				printf("  page %s: no key %s\n", cmd, keys[k]);
			}
		}
		CHECK(json_u64(buf, "first_queue") == first &&
		      json_u64(buf, "nb_txq") == NQ &&
		      json_u64(buf, "in_use") == NRATES,
		      "page %s header: %.200s", cmd, buf);
		nq = tm_json_u64_array(buf, "queue_pacing_index", pgidx,
				    RTE_DIM(pgidx));
		CHECK(nq > 0 && nq == json_u64(buf, "queues") &&
		      nq <= (int)RTE_DIM(pgidx) && first + nq <= NQ,
		      "page %s: %d queues", cmd, nq);
		if (nq <= 0 || nq > (int)RTE_DIM(pgidx) || first + nq > NQ)
			break;
		memcpy(&qidx[first], pgidx, nq * sizeof(*pgidx));
		queues += nq;
		nidx = tm_json_u64_array(buf, "index", idx, NQ);
		for (k = 0; nidx > 0 && k < (unsigned int)nidx; k++)
			if (idx[k] < RTE_DIM(seen) && !seen[idx[k]]) {
				seen[idx[k]] = true;
				entries++;
			}
		next = json_u64(buf, "next");
		CHECK(next == -1 || next == first + nq,
		      "page %s: next %" PRId64, cmd, next);
		first = next;
	} while (first > 0 && pages < NQ);
	CHECK(bad_keys == 0, "%u keys missing", bad_keys);
	CHECK(queues == NQ, "%u queues over %u pages", queues, pages);
	CHECK(entries == NRATES, "%u distinct entries", entries);
	for (q = 0; q < NQ && queues == NQ; q++)
		if (qidx[q] == 0 || qidx[q] != qidx[q % NRATES])
			bad_index++;
	CHECK(bad_index == 0, "%u queues with a wrong pacing index",
	      bad_index);
	snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u,%u", p.id, NQ);
	CHECK(tm_telemetry_query(cmd, buf, sizeof(buf)) == 0 &&
	      strstr(buf, "\"error\":\"first_queue 1024: port") != NULL,
	      "page past the last: %s", buf);
	tm_port_close(&p);
}

/*
 * 150 groups of one queue each (a TSAR per group, the root's, the port
 * element's): walking the TSAR pages from "next_tsar" to "next_tsar"
 * gives every group's node exactly once, and every page says where it
 * starts and how many the port holds.
 */
static void
test_telemetry_tsar_pages(void)
{
	enum { NG = 150, GROUP0 = 2000 };
	static char buf[20000];
	static bool seen[NG];
	uint64_t nodes[256];
	unsigned int pages = 0, groups = 0, dup = 0, g;
	int64_t first = 0, next, total = -1;
	char cmd[64];
	struct tm_port p;

	printf("telemetry pages: 150 groups\n");
	if (tport_open(&p, NULL, NG, true) != 0)
		return;
	EXPECT_OK(profile_add(p.id, 1, 1250000, false), "10 Mbit/s");
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	for (g = 0; g < NG; g++) {
		/* A ceiling each: one without is passed through. */
		struct rte_tm_node_params np = tm_nonleaf_params(1);

		EXPECT_OK(TM(rte_tm_node_add(p.id, GROUP0 + g, ROOT, 0, 1, 1,
					     &np, &terr)), "g%u", g);
		EXPECT_OK(leaf_add(p.id, g, GROUP0 + g, 2, NONE), "l%u", g);
	}
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	memset(seen, 0, sizeof(seen));
	do {
		int n, k;

		snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u,0,%u",
			 p.id, (unsigned int)first);
		if (tm_telemetry_query(cmd, buf, sizeof(buf)) != 0) {
			CHECK(false, "telemetry %s", cmd);
			break;
		}
		pages++;
		n = tm_json_u64_array(buf, "tsar_node", nodes, RTE_DIM(nodes));
		if (total < 0)
			total = json_u64(buf, "nb_tsar");
		CHECK(n > 0 && n == json_u64(buf, "tsars") &&
		      json_u64(buf, "first_tsar") == first &&
		      json_u64(buf, "nb_tsar") == total,
		      "page %s: %d TSARs: %.300s", cmd, n, buf);
		for (k = 0; k < n; k++) {
			if (nodes[k] < GROUP0 || nodes[k] >= GROUP0 + NG)
				continue;
			if (seen[nodes[k] - GROUP0])
				dup++;
			seen[nodes[k] - GROUP0] = true;
			groups++;
		}
		next = json_u64(buf, "next_tsar");
		CHECK(next == -1 || (n > 0 && next == first + n),
		      "page %s: next_tsar %" PRId64, cmd, next);
		if (n <= 0)
			break;
		first = next;
	} while (first > 0 && pages < 16);
	CHECK(pages > 1 && groups == NG && dup == 0,
	      "%u pages, %u of %u groups' TSARs, %u twice", pages, groups, NG,
	      dup);
	CHECK(total > NG && first == -1,
	      "nb_tsar %" PRId64 ", the walk ended at %" PRId64, total, first);
	snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u,0,%" PRId64,
		 p.id, total);
	CHECK(tm_telemetry_query(cmd, buf, sizeof(buf)) == 0 &&
	      strstr(buf, "\"error\":\"first_tsar ") != NULL,
	      "TSAR page past the last: %s", buf);
	tm_port_close(&p);
}

/* ---- achieved rates ---- */

struct rate_rec {
	uint32_t sqn;
	uint64_t n;           /* departures */
	uint64_t t_first;     /* departure K (start of measurement) */
	uint64_t bytes;       /* after departure K */
	uint64_t t_last;
	uint64_t mark_n;      /* departures when the mark was set */
	uint64_t t_mark;      /* first departure after the mark + K */
	uint64_t mark_bytes;
	bool marked;
	uint64_t before_bytes; /* bytes after departure K, before the mark */
	uint64_t before_t;     /* last departure before the mark */
	uint64_t fast_gap_ns;  /* a gap below this is a back-to-back one */
	uint32_t fast_run;     /* back-to-back departures in a row */
	uint32_t max_fast_run; /* longest such run */
};

#define BYTE_BUCKET 16 /* frames, data-rate queues of the rate test */
#define PKT_BUCKET 8   /* packets, packet-mode queues */
#define RATE_K 24 /* past the initial burst of the 16-frame bucket */
static struct rate_rec recs[NB_TXQ];

static void
wire_hook(void *arg __rte_unused, uint32_t sqn, uint64_t time_ns,
	  const uint8_t *bytes __rte_unused, uint32_t len)
{
	uint16_t q;

	for (q = 0; q < NB_TXQ; q++) {
		struct rate_rec *r = &recs[q];

		if (r->sqn != sqn)
			continue;
		if (r->n == RATE_K)
			r->t_first = time_ns;
		else if (r->n > RATE_K)
			r->bytes += len;
		if (r->marked) {
			if (r->n == r->mark_n + RATE_K)
				r->t_mark = time_ns;
			else if (r->n > r->mark_n + RATE_K)
				r->mark_bytes += len;
		}
		if (r->n > 0 && time_ns - r->t_last < r->fast_gap_ns) {
			if (++r->fast_run > r->max_fast_run)
				r->max_fast_run = r->fast_run;
		} else {
			r->fast_run = 0;
		}
		r->t_last = time_ns;
		r->n++;
		return;
	}
}

/* Rate from departure K to the last (or from the mark), per second. */
static double
rec_rate(const struct rate_rec *r, bool pkt, bool from_mark)
{
	uint64_t n0 = from_mark ? r->mark_n + RATE_K : RATE_K;
	uint64_t t0 = from_mark ? r->t_mark : r->t_first;
	uint64_t b = from_mark ? r->mark_bytes : r->bytes;

	if (r->n <= n0 + 1 || r->t_last <= t0)
		return 0;
	if (pkt)
		return (double)(r->n - 1 - n0) * 1e9 / (double)(r->t_last - t0);
	return (double)b * 1e9 / (double)(r->t_last - t0);
}

static void
test_rates(void)
{
	/* 1 Mbps .. 40 Gbps in bytes/s, and two packet-mode queues. */
	static const uint64_t rate[NB_TXQ] = {
		125000, 1250000, 12500000, 125000000, 1250000000,
		5000000000ULL, 100000, 1000000,
	};
	static const bool pkt[NB_TXQ] = {
		false, false, false, false, false, false, true, true,
	};
	/* Packets per queue: ~16 ms of traffic at 1 Mbps would be 2. */
	static const uint32_t quota[NB_TXQ] = {
		300, 600, 1200, 2400, 4800, 9600, 1200, 3000,
	};
	uint64_t sent[NB_TXQ] = { 0 }, new_rate = 250000000, step;
	bool updated = false;
	struct tm_port p;
	uint16_t q;
	int active;

	printf("achieved rates, 8 queues, virtual time\n");
	if (tport_open(&p, "tx_typical_pkt_sz=" RTE_STR(FRAME), NB_TXQ,
		       true) != 0)
		return;
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	for (q = 0; q < NB_TXQ; q++) {
		struct rte_tm_shaper_params sp;

		/* A bucket of a few frames absorbs waits for the line. */
		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = rate[q];
		sp.peak.size = pkt[q] ? PKT_BUCKET : BYTE_BUCKET * FRAME;
		sp.packet_mode = pkt[q];
		EXPECT_OK(profile_add_params(p.id, q, sp), "p%u", q);
		EXPECT_OK(leaf_add(p.id, q, ROOT, 1, q), "l%u", q);
	}
	EXPECT_OK(profile_add(p.id, 100, new_rate, false), "2 Gbps");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	memset(recs, 0, sizeof(recs));
	for (q = 0; q < NB_TXQ; q++)
		CHECK(rte_pmd_mlx5_tm_txq_sqn(p.id, q, &recs[q].sqn) == 0,
		      "sqn %u", q);
	/* Back to back: half the spacing of the queue's (fastest) rate. */
	for (q = 0; q < NB_TXQ; q++)
		recs[q].fast_gap_ns = (uint64_t)(5e8 / (pkt[q] ?
			(double)rate[q] : (double)(q == 3 ? new_rate : rate[q]) /
			FRAME));
	mlx5_emu_set_wire_hook(p.emu, wire_hook, NULL);
	do {
		double fastest = 0;

		active = 0;
		for (q = 0; q < NB_TXQ; q++) {
			double pps = pkt[q] ? (double)rate[q] :
				     (double)rate[q] / FRAME;
			uint16_t n;

			if (q == 3 && updated)
				pps = (double)new_rate / FRAME;
			while (sent[q] < quota[q]) {
				n = send_frames(p.id, q, (uint16_t)RTE_MIN(
						quota[q] - sent[q], 64u));
				sent[q] += n;
				if (n == 0)
					break;
			}
			if (recs[q].n < quota[q]) {
				active++;
				if (pps > fastest)
					fastest = pps;
			}
		}
		/* Half a ring of the fastest queue still sending. */
		step = active ? (uint64_t)(TM_PORT_RING / 2 * 1e9 / fastest) : 0;
		if (active)
			mlx5_emu_advance(p.emu, step + 1);
		/* Queue 3 moves to 2 Gbps half-way, mid-stream. */
		if (!updated && recs[3].n >= quota[3] / 2) {
			EXPECT_OK(rte_tm_node_shaper_update(p.id, 3, 100,
							    &terr),
				  "update mid-stream");
			recs[3].mark_n = recs[3].n;
			recs[3].before_bytes = recs[3].bytes;
			recs[3].before_t = recs[3].t_last;
			recs[3].marked = true;
			updated = true;
		}
	} while (active);
	mlx5_emu_set_wire_hook(p.emu, NULL, NULL);
	{
		const struct rate_rec *r = &recs[3];
		double before = r->before_t > r->t_first ?
			(double)r->before_bytes * 1e9 /
			(double)(r->before_t - r->t_first) : 0;

		CHECK(updated && before / (double)rate[3] > 0.995 &&
		      before / (double)rate[3] < 1.005,
		      "queue 3 before the update: %.1f bytes/s, asked %"
		      PRIu64, before, rate[3]);

	}
	for (q = 0; q < NB_TXQ; q++) {
		double want = (double)rate[q];
		double got = rec_rate(&recs[q], pkt[q], false);

		if (q == 3) {
			want = (double)new_rate;
			got = rec_rate(&recs[q], false, true);
		}
		/*
		 * Never unlimited (queue 3's change included): the only
		 * back-to-back departures are those the bucket allows.
		 */
		CHECK(recs[q].max_fast_run > 0 && recs[q].max_fast_run <=
		      (pkt[q] ? PKT_BUCKET : BYTE_BUCKET),
		      "queue %u: %u back-to-back departures in a row", q,
		      recs[q].max_fast_run);
		CHECK(recs[q].n == quota[q] && got > 0 &&
		      got / want > 0.995 && got / want < 1.005,
		      "queue %u: %.1f %s, asked %.1f (%" PRIu64 " departures)",
		      q, got, pkt[q] ? "packets/s" : "bytes/s", want,
		      recs[q].n);
		if (verbose)
			printf("  queue %u: %.1f of %.1f %s (%+.4f%%)\n", q,
			       got, want, pkt[q] ? "packets/s" : "bytes/s",
			       (got / want - 1) * 100);
	}
	/*
	 * A WQE-rate entry counts WQEs: the packet-mode queues (exact
	 * above) sent one packet per WQE, while the data-rate queues packed
	 * packets into eMPW WQEs (cx6dx has eMPW).
	 */
	for (q = 0; q < NB_TXQ; q++) {
		struct mlx5_emu_sq_info info;

		CHECK(mlx5_emu_sq_get(p.emu, recs[q].sqn, &info) == 0,
		      "queue %u: SQ", q);
		CHECK(pkt[q] ? info.wqes == info.packets :
			       info.wqes < info.packets,
		      "queue %u (%s): %" PRIu64 " WQEs for %" PRIu64
		      " packets", q, pkt[q] ? "WQE rate, one packet per WQE" :
		      "data rate, eMPW", info.wqes, info.packets);
	}
	check_views(&p, "after traffic");
	tm_port_close(&p);
}

/* WQEs and packets the SQ of queue @p q has completed. */
static void
sq_counts(const struct tm_port *p, uint16_t q, uint64_t *wqes, uint64_t *pkts)
{
	struct mlx5_emu_sq_info info;
	uint32_t sqn = 0;

	memset(&info, 0, sizeof(info));
	if (rte_pmd_mlx5_tm_txq_sqn(p->id, q, &sqn) != 0 ||
	    mlx5_emu_sq_get(p->emu, sqn, &info) != 0)
		CHECK(false, "queue %u: SQ", q);
	*wqes = info.wqes;
	*pkts = info.packets;
}

/* Send @p n frames on queue 0 in bursts of 32, the device draining. */
static uint64_t
send_drained(const struct tm_port *p, uint32_t n)
{
	uint64_t sent = 0;
	uint32_t stalls = 0;

	while (sent < n && stalls < 100000) {
		uint16_t k = send_frames(p->id, 0, (uint16_t)RTE_MIN(
					 n - sent, 32u));

		sent += k;
		stalls = k == 0 ? stalls + 1 : 0;
		mlx5_emu_advance(p->emu, 1000000);
	}
	mlx5_emu_drain(p->emu);
	return sent;
}

/*
 * A live change between a data-rate and a packet-mode shaper switches the
 * queue between eMPW and one packet per WQE (a WQE-rate entry counts
 * WQEs), and back; virtual time.
 */
static void
test_empw_follows_pacing_mode(void)
{
	uint64_t w0, p0, w1, p1;
	struct tm_port p;

	if (tport_open(&p, "tx_typical_pkt_sz=" RTE_STR(FRAME), 1,
		       true) != 0)
		return;
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	EXPECT_OK(profile_add(p.id, 1, 125000000, false), "1 Gbit/s");
	EXPECT_OK(profile_add(p.id, 2, 100000, true), "100 kpps");
	EXPECT_OK(leaf_add(p.id, 0, ROOT, 1, 1), "leaf");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	sq_counts(&p, 0, &w0, &p0);
	CHECK(send_drained(&p, 512) == 512, "data rate: sent");
	sq_counts(&p, 0, &w1, &p1);
	CHECK(p1 - p0 == 512 && w1 - w0 < p1 - p0,
	      "data rate: eMPW (%" PRIu64 " WQEs for %" PRIu64 " packets)",
	      w1 - w0, p1 - p0);
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 0, 2, &terr),
		  "to packet mode");
	sq_counts(&p, 0, &w0, &p0);
	CHECK(send_drained(&p, 512) == 512, "packet mode: sent");
	sq_counts(&p, 0, &w1, &p1);
	CHECK(p1 - p0 == 512 && w1 - w0 == p1 - p0,
	      "packet mode: one packet per WQE (%" PRIu64 " WQEs for %"
	      PRIu64 " packets)", w1 - w0, p1 - p0);
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 0, 1, &terr),
		  "back to data rate");
	sq_counts(&p, 0, &w0, &p0);
	CHECK(send_drained(&p, 512) == 512, "data rate again: sent");
	sq_counts(&p, 0, &w1, &p1);
	CHECK(p1 - p0 == 512 && w1 - w0 < p1 - p0,
	      "data rate again: eMPW (%" PRIu64 " WQEs for %" PRIu64
	      " packets)", w1 - w0, p1 - p0);
	tm_port_close(&p);
}

/* Departure times of one SQ (test_empw_overshoot()). */
#define OVERSHOOT_MAX 8192
static struct {
	uint32_t sqn;
	uint32_t n;
	uint64_t t[OVERSHOOT_MAX];
} dep;

static void
dep_hook(void *arg __rte_unused, uint32_t sqn, uint64_t time_ns,
	 const uint8_t *bytes __rte_unused, uint32_t len __rte_unused)
{
	if (sqn == dep.sqn && dep.n < OVERSHOOT_MAX)
		dep.t[dep.n++] = time_ns;
}

/* Departures of dep.t in [from, to). */
static uint32_t
dep_count(uint64_t from, uint64_t to)
{
	uint32_t i, n = 0;

	for (i = 0; i < dep.n; i++)
		n += dep.t[i] >= from && dep.t[i] < to;
	return n;
}

/*
 * The overshoot the NIC guide documents (eMPW and packet-mode shapers),
 * measured in virtual time: a queue whose ring is full of eMPW WQEs (32
 * packets each) moves to a packet-mode shaper of R packets/s. Those WQEs
 * leave under the new entry each as one packet: for at most ring / R
 * seconds the queue sends above R, at most ring - ring / 32 packets more
 * than R allows; after that, exactly R.
 */
static void
test_empw_overshoot(void)
{
	const uint64_t rate = 1000; /* packets/s after the change */
	const uint32_t ring = TM_PORT_RING;
	const uint64_t bound_ns = (uint64_t)ring * 1000000000ull / rate;
	uint64_t t0, w0, p0, w1, p1, t_empw, excess, steady;
	uint32_t posted = 0, n, in_bound;
	struct tm_port p;
	uint16_t k;

	printf("eMPW WQEs posted before a move to packet mode\n");
	if (tport_open(&p, "tx_typical_pkt_sz=" RTE_STR(FRAME), 1,
		       true) != 0)
		return;
	EXPECT_OK(nonleaf_add(p.id, ROOT, NULL_ID, 0), "root");
	EXPECT_OK(profile_add(p.id, 1, 12500000, false), "100 Mbit/s");
	EXPECT_OK(profile_add(p.id, 2, rate, true), "packet mode");
	EXPECT_OK(leaf_add(p.id, 0, ROOT, 1, 1), "leaf");
	EXPECT_OK(rte_tm_hierarchy_commit(p.id, 0, &terr), "commit");
	memset(&dep, 0, sizeof(dep));
	CHECK(rte_pmd_mlx5_tm_txq_sqn(p.id, 0, &dep.sqn) == 0, "sqn");
	mlx5_emu_set_wire_hook(p.emu, dep_hook, NULL);
	sq_counts(&p, 0, &w0, &p0);
	/* A full ring, nothing sent yet: time stands still. */
	while ((k = send_frames(p.id, 0, 32)) != 0)
		posted += k;
	EXPECT_OK(rte_tm_node_shaper_update(p.id, 0, 2, &terr),
		  "to packet mode");
	t0 = mlx5_emu_now_ns(p.emu);
	/* Kept backlogged for 3 s, one packet per WQE from now on. */
	while (mlx5_emu_now_ns(p.emu) - t0 < 3000000000ull) {
		while (send_frames(p.id, 0, 32) != 0)
			;
		mlx5_emu_advance(p.emu, 1000000);
	}
	mlx5_emu_set_wire_hook(p.emu, NULL, NULL);
	sq_counts(&p, 0, &w1, &p1);
	n = RTE_MIN(posted, dep.n);
	t_empw = n > 0 ? dep.t[n - 1] : t0;
	in_bound = dep_count(t0, t0 + bound_ns);
	excess = in_bound > rate * bound_ns / 1000000000ull ?
		 in_bound - rate * bound_ns / 1000000000ull : 0;
	steady = dep_count(t0 + bound_ns, t0 + 3000000000ull);
	printf("  %u packets posted in eMPW WQEs left in %.1f ms after the "
	       "change; %u left in the first %.3f s (ring / rate), %" PRIu64
	       " above the rate; then %" PRIu64 " in %.3f s\n", posted,
	       (double)(t_empw - t0) / 1e6, in_bound, (double)bound_ns / 1e9,
	       excess, steady, (3e9 - (double)bound_ns) / 1e9);
	CHECK(posted == ring && w1 - w0 < p1 - p0,
	      "a ring of eMPW WQEs: %u packets, %" PRIu64 " WQEs for %"
	      PRIu64 " packets", posted, w1 - w0, p1 - p0);
	CHECK(dep.n >= posted && t_empw - t0 <= bound_ns,
	      "the eMPW WQEs gone within ring / rate: %.1f ms",
	      (double)(t_empw - t0) / 1e6);
	CHECK(excess <= ring - ring / 32,
	      "at most ring - ring/32 = %u packets above the rate: %" PRIu64,
	      ring - ring / 32, excess);
	/* One WQE interval either way: the window's ends. */
	CHECK(steady + 1 >= rate * (3000000000ull - bound_ns) / 1000000000ull &&
	      steady <= rate * (3000000000ull - bound_ns) / 1000000000ull + 1,
	      "the rate after: %" PRIu64 " packets in %.3f s at %" PRIu64
	      "/s", steady, (3e9 - (double)bound_ns) / 1e9, rate);
	tm_port_close(&p);
}

/* ---- random walk ---- */

static uint64_t
rnd(uint64_t n)
{
	return n ? rte_rand() % n : 0;
}

static const uint64_t walk_rates[] = {
	0, 1, 125000, 1250000, 12500000, 125000000, 1250000000, 12500000000ULL,
	125000001, 99999999999999ULL,
};

static uint32_t
walk_node_id(uint16_t nb_txq)
{
	switch (rnd(4)) {
	case 0:
		return NULL_ID;
	case 1:
	case 2:
		return (uint32_t)rnd(nb_txq + 1);
	default:
		return 100 + (uint32_t)rnd(5);
	}
}

/* Delete every node, deepest first (a live hierarchy goes leaf by leaf). */
static int
walk_teardown(struct tm_port *p)
{
	struct mlx5_tm_sched *s = sched_of(p);
	const struct tm_node *n;
	uint32_t ids[1024], count = 0, level, i;
	int ret;

	for (level = TM_TREE_LEVELS; level-- > 0;)
		TAILQ_FOREACH(n, &s->hier.nodes, next)
			if (n->level == level && count < RTE_DIM(ids))
				ids[count++] = n->id;
	for (i = 0; i < count; i++) {
		ret = TM(rte_tm_node_delete(p->id, ids[i], &terr));
		if (ret != 0)
			return ret;
	}
	return 0;
}

/* A random existing non-leaf node (the deepest when @p deepest). */
static uint32_t
walk_nonleaf(const struct tm_port *p, bool deepest)
{
	const struct mlx5_tm_sched *s = sched_of(p);
	const struct tm_node *n, *pick = NULL;
	uint32_t count = 0;

	TAILQ_FOREACH(n, &s->hier.nodes, next) {
		if (n->leaf)
			continue;
		if (deepest ? pick == NULL || n->level > pick->level :
		    rnd(++count) == 0)
			pick = n;
	}
	return pick != NULL ? pick->id : 100 + (uint32_t)rnd(5);
}

/* A leaf per queue with random profiles under one parent (many changes). */
static int
walk_build(struct tm_port *p)
{
	struct mlx5_tm_sched *s = sched_of(p);
	uint32_t parent;
	uint16_t q;
	int ret = 0;

	if (s->hier.root == NULL) {
		ret = nonleaf_add(p->id, 100, NULL_ID, 0);
		if (ret != 0)
			return ret;
	}
	parent = walk_nonleaf(p, true);
	for (q = 0; q < p->nb_txq; q++)
		if (tm_tree_leaf(&s->hier, q) == NULL &&
		    leaf_add(p->id, q, parent, ANY, rnd(5) ? (uint32_t)rnd(6) :
			     NONE) != 0 && ret == 0)
			ret = -rte_errno;
	return ret;
}

/* One random call; returns its result (0 accepted). */
static int
walk_step(struct tm_port *p, unsigned int what)
{
	struct rte_tm_shaper_params sp;
	struct rte_tm_node_params np;
	struct rte_tm_node_stats st;
	uint32_t id = walk_node_id(p->nb_txq);
	uint32_t parent = rnd(5) ? walk_nonleaf(p, false) :
			  walk_node_id(p->nb_txq);
	uint32_t prof = rnd(8) ? (uint32_t)rnd(6) : NONE;
	uint64_t mask;

	switch (what) {
	case 0:
	case 1:
		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = walk_rates[rnd(RTE_DIM(walk_rates))];
		sp.packet_mode = rnd(4) == 0;
		if (rnd(10) == 0)
			sp.committed.rate = 1;
		return profile_add_params(p->id, (uint32_t)rnd(6), sp);
	case 2:
		return TM(rte_tm_shaper_profile_delete(p->id,
						       (uint32_t)rnd(7),
						       &terr));
	case 3:
	case 4:
	case 5:
		np = id < p->nb_txq ? tm_leaf_params(prof) : tm_nonleaf_params(NONE);
		if (rnd(10) == 0)
			np.n_shared_shapers = 1;
		if (sched_of(p)->hier.root == NULL && rnd(2))
			parent = NULL_ID;
		return TM(rte_tm_node_add(p->id, id, parent, rnd(16) == 0,
					  rnd(16) ? 1 : 2,
					  rnd(4) ? ANY : (uint32_t)rnd(4),
					  &np, &terr));
	case 6:
		return TM(rte_tm_node_delete(p->id, id, &terr));
	case 7:
		return TM(rte_tm_node_shaper_update(p->id, id, prof, &terr));
	case 8:
		return TM(rte_tm_node_parent_update(p->id, id, parent, 0, 1,
						    &terr));
	case 9:
		return TM(rnd(2) ? rte_tm_node_suspend(p->id, id, &terr) :
			  rte_tm_node_resume(p->id, id, &terr));
	case 10:
		return TM(rte_tm_hierarchy_commit(p->id, rnd(4) == 0, &terr));
	case 11:
		return rte_eth_set_queue_rate_limit(p->id,
			(uint16_t)rnd(p->nb_txq), (uint32_t)rnd(3) * 100);
	case 12:
		return TM(rte_tm_node_stats_read(p->id, id, &st, &mask,
						 (int)rnd(2), &terr));
	case 14:
		return walk_teardown(p);
	case 15:
		return walk_build(p);
	default:
		if (rnd(2)) {
			rte_eth_dev_stop(p->id);
			return 0;
		}
		return rte_eth_dev_start(p->id);
	}
}

static void
test_random(const char *devargs, unsigned int n_steps)
{
	struct mlx5_emu_fault_cmd fc;
	struct mlx5_emu_fault_pp fp;
	struct snapshot a, b;
	unsigned int i, what, ok = 0, refused = 0, faults = 0, bad = 0;
	unsigned int fired = 0;
	unsigned int accepted_by_op[16] = { 0 }, tried_by_op[16] = { 0 };
	char why[256];
	struct tm_port p;
	int ret;

	printf("random walk (%s), seed %" PRIu64 ", %u steps\n",
	       devargs, seed, n_steps);
	if (tport_open(&p, devargs, 6, true) != 0)
		return;
	for (i = 0; i < n_steps; i++) {
		/* Faults only around rte_tm calls, not port start/stop. */
		bool fault;

		what = (unsigned int)rnd(16);
		fault = what != 13 && rnd(what >= 10 ? 5 : 12) == 0;

		if (fault) {
			memset(&fc, 0, sizeof(fc));
			memset(&fp, 0, sizeof(fp));
			if (rnd(2)) {
				fc.opcode = MLX5_CMD_OP_MODIFY_SQ;
				fc.nth = 1 + (uint32_t)rnd(3);
				fc.status = MLX5_CMD_STAT_INT_ERR;
				fc.syndrome = MLX5_EMU_SYND_INJECTED;
				mlx5_emu_fault_cmd(p.emu, &fc);
			} else {
				fp.nth = 1 + (uint32_t)rnd(3);
				fp.err = rnd(2) ? EIO : ENOSPC;
				mlx5_emu_fault_pp_alloc(p.emu, &fp);
			}
		}
		snap(&p, &a);
		ret = walk_step(&p, what);
		snap(&p, &b);
		if (fault) {
			/* Disarm whatever did not fire. */
			memset(&fc, 0, sizeof(fc));
			memset(&fp, 0, sizeof(fp));
			fc.opcode = MLX5_CMD_OP_MODIFY_SQ;
			mlx5_emu_fault_cmd(p.emu, &fc);
			mlx5_emu_fault_pp_alloc(p.emu, &fp);
			faults++;
			/* Only an injected fault makes a step fail with EIO. */
			if (ret == -EIO || ret == -EREMOTEIO)
				fired++;
		}
		tried_by_op[what]++;
		if (ret == 0) {
			ok++;
			accepted_by_op[what]++;
		} else {
			refused++;
			/* A refusal changes nothing (clear_on_fail aside). */
			if (what != 10 && what < 13 && !snap_equal(&a, &b)) {
				bad++;
				CHECK(false, "step %u (op %u) refused with %d "
				      "but changed state: %s", i, what, ret,
				      tmsg());
			}
		}
		if (!views_agree(&p, why, sizeof(why))) {
			bad++;
			CHECK(false, "step %u (op %u, ret %d): %s", i, what,
			      ret, why);
			break;
		}
	}
	CHECK(bad == 0, "random walk: %u accepted, %u refused, %u with "
	      "faults", ok, refused, faults);
	printf("  %u accepted, %u refused, %u with faults armed, %u of them "
	       "fired\n", ok, refused, faults, fired);
	/* The rollback paths under test are those of fired faults. */
	CHECK(fired > 0, "none of %u armed faults fired", faults);
	if (verbose)
		for (i = 0; i < RTE_DIM(tried_by_op); i++)
			printf("  op %2u: %u of %u accepted\n", i,
			       accepted_by_op[i], tried_by_op[i]);
	CHECK(ok > n_steps / 10 && refused > n_steps / 10,
	      "walk explores both outcomes");
	tm_port_close(&p);
	check_devices_closed("closed mid-walk");
}

static void
parse_args(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0)
			verbose = true;
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
			steps = (unsigned int)strtoul(argv[++i], NULL, 0);
	}
}

int
main(int argc, char **argv)
{
	char runtime_dir[PATH_MAX];
	struct tm_port p0;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("EAL init failed\n");
		return tm_check_report() | 1;
	}
	parse_args(argc - ret, argv + ret);
	snprintf(runtime_dir, sizeof(runtime_dir), "%s",
		 rte_eal_get_runtime_dir());
	rte_srand(seed);
	pool = rte_pktmbuf_pool_create("tm_test", 16383, 256, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       rte_socket_id());
	CHECK(pool != NULL, "mbuf pool");
	if (pool == NULL)
		goto out;
	/* The port of the command line: net_mlx5_tm0. */
	memset(&p0, 0, sizeof(p0));
	snprintf(p0.name, sizeof(p0.name), "net_mlx5_tm0");
	/* Its device is the one open now, closed with it. */
	devices_before = mlx5_emu_devices_open() - 1;
	if (tm_port_setup(&p0, NB_TXQ, false) == 0) {
		TM_CASE(test_ice_script(&p0));
		tm_port_close(&p0);
		check_devices_closed("net_mlx5_tm0");
	} else {
		CHECK(false, "net_mlx5_tm0 from the command line");
	}
	TM_CASE(test_capabilities());
	TM_CASE(test_refusals());
	TM_CASE(test_commit_after_start());
	TM_CASE(test_parent_suspend_stats());
	TM_CASE(test_recovery_vs_live_changes());
	TM_CASE(test_recovery_rollback());
	TM_CASE(test_rollback());
	TM_CASE(test_weight_range());
	TM_CASE(test_shares_refused());
	TM_CASE(test_groups_per_leaf());
	TM_CASE(test_shared_group_live_move());
	TM_CASE(test_dedicated());
	TM_CASE(test_reconfigure());
	TM_CASE(test_reconfigure_refused());
	TM_CASE(test_capacity_refusal_counts());
	TM_CASE(test_capacity_refusal_memory_short());
	TM_CASE(test_wide_tree_commits());
	TM_CASE(test_telemetry());
	TM_CASE(test_telemetry_errors());
	TM_CASE(test_telemetry_pages());
	TM_CASE(test_telemetry_tsar_pages());
	TM_CASE(test_rates());
	TM_CASE(test_empw_follows_pacing_mode());
	TM_CASE(test_empw_overshoot());
	TM_CASE(test_random("cap_pp_table_size=6", steps));
	TM_CASE(test_random("cap_pp_table_size=7,pacing_index=dedicated",
			    steps / 2));
	TM_CASE(test_random("cap_pp_table_size=4,rate_tolerance_ppm=200000",
			    steps / 2));
	check_devices_closed("every case");
	rte_mempool_free(pool);
out:
	test_eal_cleanup();
	/* EAL leaves its (now empty) run-time directory behind. */
	rmdir(runtime_dir);
	return tm_check_report();
}
