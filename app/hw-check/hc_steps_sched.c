/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Steps about the NIC scheduling hierarchy, error recovery and the line
 * rate: scheduling elements read back from the device (general-object
 * query), an SQ's queue group read back (QUERY_SQ), a pacing entry and a
 * group on one SQ, a group ceiling and 1:3 shares measured from the
 * device's completions, a live re-parent under traffic, a WQE failing
 * and the queue recovering at its rate, and a commit with the link down.
 * Rates are chosen where each child takes its share uncapped, in frames
 * of one size, so that the figures are exact whatever arbitration order
 * the device has inside a round.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_tm.h>

#include "hc.h"

/* Node ids: the queues are 0..n-1. */
#define SCHED_ROOT 100000u
#define SCHED_A 100001u
#define SCHED_B 100002u
/* Profile ids. */
#define PROF_CEIL 1u
#define PROF_LEAF 2u
/* Element type of a queue group (PRM). */
#define ELEM_QUEUE_GROUP 4
#define ELEM_TSAR 0
/* Frames of every measured flow. */
#define FRAME 1500

/*
 * A node of a test tree: id, parent, weight, shaper (bytes/s, or
 * packets/s in packet mode; 0 none).
 */
struct tnode {
	uint32_t id;
	uint32_t parent;
	uint32_t weight;
	uint64_t peak;
	bool packet_mode;
};

/* Why the step ended early, kept for its verdict. */
static char why[512];

/* Add profile @p id of @p peak bytes/s or packets/s (once per port). */
static int
profile_add(struct hc *hc, uint32_t id, uint64_t peak, bool packet_mode)
{
	struct rte_tm_shaper_params p;
	struct rte_tm_error err = { 0 };
	int ret;

	memset(&p, 0, sizeof(p));
	p.peak.rate = peak;
	p.packet_mode = packet_mode ? 1 : 0;
	ret = rte_tm_shaper_profile_add(hc->port_id, id, &p, &err);
	if (ret != 0)
		snprintf(why, sizeof(why), "shaper profile %u: %s", id,
			 err.message != NULL ? err.message : strerror(-ret));
	return ret;
}

/*
 * A fresh port of @p nb_txq queues with the tree @p n[0..cnt-1] (the
 * root first) committed before the start, started; devargs @p extra.
 */
static bool
tree_port(struct hc *hc, const char *extra, uint16_t nb_txq,
	  const struct tnode *n, unsigned int cnt)
{
	struct rte_tm_error err = { 0 };
	struct rte_tm_node_params np;
	uint32_t next_prof = 10;
	unsigned int i;
	int ret;

	why[0] = '\0';
	ret = hc_port_open(hc, extra);
	if (ret == 0)
		ret = hc_port_setup(hc, nb_txq, 512);
	if (ret != 0) {
		snprintf(why, sizeof(why), "port set-up failed: %s",
			 strerror(ret < 0 ? -ret : ret));
		return false;
	}
	for (i = 0; i < cnt; i++) {
		bool leaf = n[i].id < nb_txq;

		memset(&np, 0, sizeof(np));
		np.shaper_profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
		if (n[i].peak != 0) {
			if (profile_add(hc, next_prof, n[i].peak,
					n[i].packet_mode) != 0)
				return false;
			np.shaper_profile_id = next_prof++;
		}
		if (leaf) {
			np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
			np.leaf.wred.wred_profile_id =
				RTE_TM_WRED_PROFILE_ID_NONE;
		} else {
			np.nonleaf.n_sp_priorities = 1;
		}
		ret = rte_tm_node_add(hc->port_id, n[i].id, n[i].parent, 0,
				      n[i].weight, RTE_TM_NODE_LEVEL_ID_ANY,
				      &np, &err);
		if (ret != 0) {
			snprintf(why, sizeof(why), "node %u: %s", n[i].id,
				 err.message != NULL ? err.message :
				 strerror(-ret));
			return false;
		}
	}
	ret = rte_tm_hierarchy_commit(hc->port_id, 1, &err);
	if (ret != 0) {
		snprintf(why, sizeof(why), "commit: %s", err.message != NULL ?
			 err.message : strerror(-ret));
		return false;
	}
	ret = hc_port_start(hc);
	if (ret != 0)
		snprintf(why, sizeof(why), "start failed: %s",
			 strerror(ret < 0 ? -ret : ret));
	return ret == 0;
}

/* Skip a step that needs the hierarchy on a device without it. */
static bool
need_hierarchy(struct hc *hc)
{
	if (hc->info.nic_sq_scheduling)
		return true;
	hc_step_end(hc, HC_SKIP, "the device has no NIC scheduling hierarchy "
		    "(qos_cap.nic_sq_scheduling 0, e.g. ConnectX-5): only "
		    "queues are shaped there");
	return false;
}

/* The evidence of node @p id's element, or false. */
static bool
elem_evidence(struct hc *hc, const char *who, uint32_t id,
	      struct rte_pmd_mlx5_tm_elem_info *e)
{
	int ret = rte_pmd_mlx5_tm_node_query(hc->port_id, id, e);

	if (ret != 0) {
		hc_ev(hc, "%s (node %u): no element read back: %s", who, id,
		      strerror(-ret));
		return false;
	}
	hc_ev(hc, "%s (node %u): element %u, type %u (%s), parent %u, "
	      "bw_share %u, max_average_bw %u Mbit/s", who, id, e->element_id,
	      e->element_type, e->element_type == ELEM_TSAR ? "TSAR" :
	      e->element_type == ELEM_QUEUE_GROUP ? "queue group" : "?",
	      e->parent_id, e->bw_share, e->max_average_bw);
	return true;
}

/*
 * One TSAR and one queue group created and read back with the
 * general-object query, and an SQ attached to the group (MODIFY_SQ bit
 * 2) read back with QUERY_SQ.
 */
static void
step_objects(struct hc *hc)
{
	const struct tnode t[] = {
		{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		{ SCHED_A, SCHED_ROOT, 1, 400000000ull / 8 },
		{ 0, SCHED_A, 2, 0 },
	};
	struct rte_pmd_mlx5_tm_elem_info tsar, group;
	struct rte_pmd_mlx5_tm_sq_info sq;
	bool ok;

	hc_step_begin(hc, "sched.objects", "a TSAR and a queue group read "
		      "back (general object), an SQ in its group (QUERY_SQ)");
	if (!need_hierarchy(hc))
		return;
	if (!tree_port(hc, "", 1, t, RTE_DIM(t))) {
		hc_step_end(hc, HC_FAIL, "%s", why);
		return;
	}
	ok = elem_evidence(hc, "TSAR of the 400 Mbit/s node", SCHED_A, &tsar) &
	     elem_evidence(hc, "queue group of leaf 0", 0, &group);
	if (rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &sq) != 0) {
		hc_step_end(hc, HC_FAIL, "QUERY_SQ failed");
		return;
	}
	hc_ev(hc, "SQ 0x%x: state %u, queue group %u, pacing index %u",
	      sq.sqn, sq.state, sq.qos_queue_group_id, sq.pp_index);
	hc_evj_u64(hc, "tsar_id", tsar.element_id);
	hc_evj_u64(hc, "tsar_max_average_bw", tsar.max_average_bw);
	hc_evj_u64(hc, "group_id", group.element_id);
	hc_evj_u64(hc, "sq_group", sq.qos_queue_group_id);
	if (!ok || tsar.element_type != ELEM_TSAR ||
	    tsar.max_average_bw != 400 ||
	    group.element_type != ELEM_QUEUE_GROUP ||
	    group.parent_id != tsar.element_id) {
		hc_step_end(hc, HC_FAIL, "the elements read back are not the "
			    "ones committed (see the evidence)");
		return;
	}
	if (sq.qos_queue_group_id != group.element_id || sq.state != 1) {
		hc_step_end(hc, HC_FAIL, "the SQ is in group %u, not its group "
			    "%u: it did not join it (MODIFY_SQ bit 2), so the "
			    "group's ceiling and weight do nothing for it",
			    sq.qos_queue_group_id, group.element_id);
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

/* Rates of queues 0..n-1 over a window, after a warm-up. */
static bool
measure(struct hc *hc, struct hc_flow *f, unsigned int n, double slowest,
	struct hc_rate *r)
{
	struct rte_pmd_mlx5_tm_txq_completions a[4], b[4];
	uint64_t warm, win, p0[4];
	unsigned int i;

	hc_windows(hc, FRAME, slowest, &warm, &win);
	if (hc_warm_up(hc, f, n, warm) != 0)
		return false;
	for (i = 0; i < n; i++) {
		if (hc_cmpl(hc, f[i].queue, &a[i]) != 0)
			return false;
		p0[i] = f[i].posted;
	}
	if (hc_send(hc, f, n, win) != 0)
		return false;
	for (i = 0; i < n; i++) {
		if (hc_cmpl(hc, f[i].queue, &b[i]) != 0)
			return false;
		hc_rate(&a[i], &b[i], &r[i]);
		r[i].posted = f[i].posted - p0[i];
		r[i].send_ns = win;
	}
	return true;
}

/* Flows of frames of FRAME bytes on queues 0..n-1, @p pps expected each. */
static void
flows(struct hc_flow *f, unsigned int n, double bps)
{
	unsigned int i;

	memset(f, 0, sizeof(*f) * n);
	for (i = 0; i < n; i++) {
		f[i].queue = (uint16_t)i;
		f[i].frame_len = FRAME;
		f[i].expect_pps = (uint64_t)(bps / (8.0 * FRAME));
	}
}

/* Whether @p r is within the tolerance of @p want; evidence either way. */
static bool
near_rate(struct hc *hc, const char *who, const struct hc_rate *r,
	  double want)
{
	hc_rate_evidence(hc, who, r, want);
	return hc_rate_judge(hc, who, r, want);
}

/*
 * A pacing entry and a queue group on one SQ: which of honour, ignore or
 * refuse the NIC does with a pacing index inside a group (no public code
 * shows one), told apart by a rate that is not whole Mbit/s: 1.5 Mbit/s
 * holds where the index is honoured; where it is ignored or refused (the
 * driver then joins the SQ without it), the group's ceiling, the leaf's
 * backstop rounded up to 2 Mbit/s, holds it.
 */
static void
step_pp_and_group(struct hc *hc)
{
	const double rate = 1.5e6, backstop = 2e6;
	const struct tnode t[] = {
		{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		{ 0, SCHED_ROOT, 2, (uint64_t)(rate / 8) },
	};
	struct rte_pmd_mlx5_tm_sq_info sq;
	const char *verdict;
	struct hc_flow f[1];
	struct hc_rate r[1];

	hc_step_begin(hc, "sched.pp_and_group", "a pacing entry and a queue "
		      "group on one SQ: honoured, ignored or refused");
	if (!need_hierarchy(hc))
		return;
	if (!tree_port(hc, "", 1, t, RTE_DIM(t))) {
		hc_step_end(hc, HC_FAIL, "%s", why);
		return;
	}
	if (rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &sq) != 0) {
		hc_step_end(hc, HC_FAIL, "QUERY_SQ failed");
		return;
	}
	hc_ev(hc, "SQ 0x%x: pacing index %u, queue group %u", sq.sqn,
	      sq.pp_index, sq.qos_queue_group_id);
	hc_evj_u64(hc, "pp_index", sq.pp_index);
	hc_evj_u64(hc, "sq_group", sq.qos_queue_group_id);
	flows(f, 1, rate);
	if (!measure(hc, f, 1, rate, r)) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	hc_evj_num(hc, "l2_bps", r[0].l2_bps);
	if (sq.qos_queue_group_id == 0) {
		hc_step_end(hc, HC_FAIL, "the SQ is in no queue group");
		return;
	}
	/* The driver joins without the index where firmware refused it. */
	verdict = sq.pp_index == 0 ? "refuse" :
		  near_rate(hc, "queue 0", &r[0], rate) ? "honour" :
		  near_rate(hc, "queue 0 (the group's ceiling)", &r[0],
			    backstop) ? "ignore" : "unknown";
	hc_ev(hc, "pacing index inside a queue group: %s", verdict);
	hc_evj_str(hc, "pp_in_group", verdict);
	if (strcmp(verdict, "honour") != 0) {
		hc_step_end(hc, HC_FAIL, "the NIC does not honour a pacing "
			    "index inside a queue group (%s): shaped leaves "
			    "in groups are held by their group's ceiling, "
			    "their peak rounded up to whole Mbit/s", verdict);
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

/* A group ceiling over two uncapped queues: the sum at the ceiling. */
static void
step_ceiling(struct hc *hc)
{
	const double ceil = 400e6;
	const struct tnode t[] = {
		{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		{ SCHED_A, SCHED_ROOT, 1, (uint64_t)(ceil / 8) },
		{ 0, SCHED_A, 1, 0 },
		{ 1, SCHED_A, 1, 0 },
	};
	struct hc_flow f[2];
	struct hc_rate r[2];
	bool ok;

	hc_step_begin(hc, "sched.ceiling", "a node's ceiling (400 Mbit/s) "
		      "over two uncapped queues: each gets half, the sum the "
		      "ceiling");
	if (!need_hierarchy(hc))
		return;
	if (!tree_port(hc, "", 2, t, RTE_DIM(t))) {
		hc_step_end(hc, HC_FAIL, "%s", why);
		return;
	}
	flows(f, 2, ceil / 2);
	if (!measure(hc, f, 2, ceil / 2, r)) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	ok = near_rate(hc, "queue 0", &r[0], ceil / 2) &
	     near_rate(hc, "queue 1", &r[1], ceil / 2);
	hc_evj_num(hc, "q0_l2_bps", r[0].l2_bps);
	hc_evj_num(hc, "q1_l2_bps", r[1].l2_bps);
	hc_evj_num(hc, "sum_l2_bps", r[0].l2_bps + r[1].l2_bps);
	hc_evj_num(hc, "error_pct",
		   hc_err_pct(r[0].l2_bps + r[1].l2_bps, ceil));
	if (!ok) {
		hc_step_end_rates(hc, "the ceiling does not hold: %.3f%% "
			    "off 400 Mbit/s in sum",
			    hc_err_pct(r[0].l2_bps + r[1].l2_bps, ceil));
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

/*
 * A paced leaf beside an unpaced sibling of equal weight under one
 * ceiling: the leaf holds its rate, the sibling takes the rest of the
 * ceiling (work conserving: the leaf's unused share is not lost). The
 * leaf's rate is not whole Mbit/s, so that a pacing index the NIC ignores
 * inside a group shows as the backstop's rounding.
 */
static void
step_paced_sibling(struct hc *hc)
{
	const double ceil = 400e6, rate = 10.5e6;
	const struct tnode t[] = {
		{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		{ SCHED_A, SCHED_ROOT, 1, (uint64_t)(ceil / 8) },
		{ 0, SCHED_A, 1, (uint64_t)(rate / 8) },
		{ 1, SCHED_A, 1, 0 },
	};
	struct hc_flow f[2];
	struct hc_rate r[2];
	bool ok;

	hc_step_begin(hc, "sched.paced_sibling", "a 10.5 Mbit/s leaf, an "
		      "unpaced sibling, a 400 Mbit/s ceiling: the sibling "
		      "gets 389.5");
	if (!need_hierarchy(hc))
		return;
	if (!tree_port(hc, "", 2, t, RTE_DIM(t))) {
		hc_step_end(hc, HC_FAIL, "%s", why);
		return;
	}
	flows(f, 2, rate);
	f[1].expect_pps = (uint64_t)((ceil - rate) / (8.0 * FRAME));
	if (!measure(hc, f, 2, rate, r)) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	ok = near_rate(hc, "queue 0 (paced)", &r[0], rate) &
	     near_rate(hc, "queue 1 (the ceiling's rest)", &r[1],
		       ceil - rate);
	hc_evj_num(hc, "ceiling_bps", ceil);
	hc_evj_num(hc, "leaf_rate_bps", rate);
	hc_evj_num(hc, "q0_l2_bps", r[0].l2_bps);
	hc_evj_num(hc, "q1_l2_bps", r[1].l2_bps);
	if (!ok) {
		hc_step_end_rates(hc, "the paced leaf or its sibling is off: "
			    "%.3f%% and %.3f%%",
			    hc_err_pct(r[0].l2_bps, rate),
			    hc_err_pct(r[1].l2_bps, ceil - rate));
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

/*
 * A packet-mode leaf in a queue group: its packets/s hold in small frames
 * (no public code shows a WQE-rate index inside a group). Where the NIC
 * ignores or refuses the index, the leaf's byte backstop (packets/s times
 * the largest frame) lets 60-byte frames through at many times the rate.
 */
static void
step_pkt_group(struct hc *hc)
{
	const double pps = 20000;
	const struct tnode t[] = {
		{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		{ 0, SCHED_ROOT, 2, (uint64_t)pps, true },
	};
	struct rte_pmd_mlx5_tm_sq_info sq;
	struct hc_flow f = { .queue = 0, .frame_len = 60,
			     .expect_pps = (uint64_t)pps };

	hc_step_begin(hc, "sched.packet_mode", "a packet-mode leaf (20000 "
		      "pkt/s) in a queue group holds its packet rate");
	if (!need_hierarchy(hc))
		return;
	if (!hc->info.wqe_rate_pp) {
		hc_step_end(hc, HC_SKIP, "the device has no packet-mode pacing "
			    "(wqe_rate_pp 0)");
		return;
	}
	if (!tree_port(hc, "", 1, t, RTE_DIM(t))) {
		hc_step_end(hc, HC_FAIL, "%s", why);
		return;
	}
	if (rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &sq) != 0) {
		hc_step_end(hc, HC_FAIL, "QUERY_SQ failed");
		return;
	}
	hc_ev(hc, "SQ 0x%x: pacing index %u, queue group %u", sq.sqn,
	      sq.pp_index, sq.qos_queue_group_id);
	hc_evj_u64(hc, "pp_index", sq.pp_index);
	hc_evj_u64(hc, "sq_group", sq.qos_queue_group_id);
	if (sq.qos_queue_group_id == 0) {
		hc_step_end(hc, HC_FAIL, "the SQ is in no queue group");
		return;
	}
	hc_pps_step(hc, &f, pps, ": the NIC does not honour a packet-mode "
		    "index inside a queue group (only its byte backstop holds "
		    "the leaf)");
}

/* The tree of the shares and re-parent steps: 400 Mbit/s, A:B 1:3. */
static const struct tnode shares_tree[] = {
	{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 400000000ull / 8 },
	{ SCHED_A, SCHED_ROOT, 1, 0 },
	{ SCHED_B, SCHED_ROOT, 3, 0 },
	{ 0, SCHED_A, 1, 0 },
	{ 1, SCHED_B, 1, 0 },
};

/* Two groups 1:3 under a 400 Mbit/s root, both backlogged. */
static void
step_shares(struct hc *hc)
{
	struct hc_flow f[2];
	struct hc_rate r[2];
	bool ok;

	hc_step_begin(hc, "sched.shares", "two nodes of weights 1 and 3 "
		      "under a 400 Mbit/s root, both backlogged: 100 and 300 "
		      "Mbit/s");
	if (!need_hierarchy(hc))
		return;
	if (!tree_port(hc, "", 2, shares_tree, RTE_DIM(shares_tree))) {
		hc_step_end(hc, HC_FAIL, "%s", why);
		return;
	}
	flows(f, 2, 100e6);
	f[1].expect_pps *= 3;
	if (!measure(hc, f, 2, 100e6, r)) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	ok = near_rate(hc, "queue 0 (weight 1)", &r[0], 100e6) &
	     near_rate(hc, "queue 1 (weight 3)", &r[1], 300e6);
	hc_evj_num(hc, "q0_l2_bps", r[0].l2_bps);
	hc_evj_num(hc, "q1_l2_bps", r[1].l2_bps);
	hc_evj_num(hc, "ratio", r[0].l2_bps > 0 ?
		   r[1].l2_bps / r[0].l2_bps : 0);
	if (!ok) {
		hc_step_end_rates(hc, "the shares are not 1:3 (%.3f)",
			    r[0].l2_bps > 0 ? r[1].l2_bps / r[0].l2_bps : 0);
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

/*
 * Queue 0 moved from node A to node B under traffic
 * (rte_tm_node_parent_update): every posted frame completes, no error
 * completion, its SQ after in its leaf's group, which hangs under B's TSAR.
 */
static void
step_reparent(struct hc *hc)
{
	struct rte_pmd_mlx5_tm_elem_info b, g0;
	struct rte_pmd_mlx5_tm_sq_info before, after;
	struct rte_tm_error err = { 0 };
	uint64_t warm, win, base0, base1, errs;
	struct rte_pmd_mlx5_tm_txq_completions c0, c1;
	struct hc_flow f[2];
	bool ok = true;
	int ret;

	hc_step_begin(hc, "sched.reparent", "a queue moved to another node "
		      "under traffic: nothing lost, its SQ in the new group");
	if (!need_hierarchy(hc))
		return;
	if (!tree_port(hc, "", 2, shares_tree, RTE_DIM(shares_tree))) {
		hc_step_end(hc, HC_FAIL, "%s", why);
		return;
	}
	if (hc_cmpl(hc, 0, &c0) != 0 || hc_cmpl(hc, 1, &c1) != 0) {
		hc_step_end(hc, HC_FAIL, "no completion evidence");
		return;
	}
	base0 = c0.last_packets;
	base1 = c1.last_packets;
	flows(f, 2, 100e6);
	f[1].expect_pps *= 3;
	hc_windows(hc, FRAME, 100e6, &warm, &win);
	if (hc_send(hc, f, 2, win) != 0 ||
	    rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &before) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	/* The rings are full of posted frames: the move lands under them. */
	ret = rte_tm_node_parent_update(hc->port_id, 0, SCHED_B, 0, 1, &err);
	if (ret != 0) {
		hc_step_end(hc, HC_FAIL, "the move was refused: %s",
			    err.message != NULL ? err.message :
			    strerror(-ret));
		return;
	}
	if (hc_send(hc, f, 2, win) != 0 ||
	    rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &after) != 0 ||
	    rte_pmd_mlx5_tm_node_query(hc->port_id, SCHED_B, &b) != 0 ||
	    rte_pmd_mlx5_tm_node_query(hc->port_id, 0, &g0) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	hc_ev(hc, "SQ 0x%x: queue group %u -> %u (queue 0's group %u, under "
	      "element %u; node B's TSAR %u), state %u", after.sqn,
	      before.qos_queue_group_id, after.qos_queue_group_id,
	      g0.element_id, g0.parent_id, b.element_id, after.state);
	if (!hc_drain(hc, 0, base0 + f[0].posted) ||
	    !hc_drain(hc, 1, base1 + f[1].posted)) {
		hc_ev(hc, "not every posted frame completed");
		ok = false;
	}
	hc_evj_u64(hc, "group_before", before.qos_queue_group_id);
	hc_evj_u64(hc, "group_after", after.qos_queue_group_id);
	hc_evj_u64(hc, "posted", f[0].posted + f[1].posted);
	errs = hc_xstat(hc, "tx_q0_error_cqes") +
	       hc_xstat(hc, "tx_q1_error_cqes");
	hc_evj_u64(hc, "error_cqes", errs);
	if (after.qos_queue_group_id != g0.element_id ||
	    g0.parent_id != b.element_id ||
	    after.qos_queue_group_id == before.qos_queue_group_id ||
	    after.state != 1 || after.sqn != before.sqn) {
		hc_ev(hc, "expected the same ready SQ in node B's group");
		ok = false;
	}
	if (errs != 0)
		ok = false;
	if (ok)
		hc_step_end(hc, HC_PASS, NULL);
	else
		hc_step_end(hc, HC_FAIL, "see the evidence");
}

/*
 * A send that fails: one WQE naming an unregistered memory key
 * (rte_pmd_mlx5_tm_txq_post_bad_lkey(): a local protection error on any
 * mlx5 NIC, the device model alike). The queue is reset and made ready
 * again with its pacing index (and group), and sends at its rate.
 */
static void
step_recovery(struct hc *hc)
{
	const double rate = 200e6;
	const struct tnode t[] = {
		{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		/* Weight 2: a queue group too, where the device has them. */
		{ 0, SCHED_ROOT, hc->info.nic_sq_scheduling ? 2 : 1,
		  (uint64_t)(rate / 8) },
	};
	const uint64_t give_up = hc_now_ns(hc) + 1000000000ULL;
	struct rte_pmd_mlx5_tm_txq_completions cc;
	struct rte_pmd_mlx5_tm_sq_info before, after;
	uint64_t rec = 0, errs, warm, win;
	struct hc_flow f[1];
	struct hc_rate r[1];
	char said[512];
	int ret;

	hc_step_begin(hc, "recovery", "a WQE naming an unregistered memory "
		      "key: the queue recovers with its pacing index and "
		      "group, at its rate");
	if (!tree_port(hc, "", 1, t, RTE_DIM(t))) {
		hc_step_end(hc, HC_FAIL, "%s", why);
		return;
	}
	if (rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &before) != 0) {
		hc_step_end(hc, HC_FAIL, "QUERY_SQ failed");
		return;
	}
	/* Sends that complete first: the queue works before the fault. */
	flows(f, 1, rate);
	f[0].max_packets = 100;
	hc_windows(hc, FRAME, rate, &warm, &win);
	if (hc_cmpl(hc, 0, &cc) != 0 || hc_send(hc, f, 1, warm) != 0 ||
	    !hc_drain(hc, 0, cc.last_packets + f[0].posted)) {
		hc_step_end(hc, HC_FAIL, "could not send before the fault");
		return;
	}
	errs = hc_xstat(hc, "tx_q0_error_cqes");
	hc_log_start(hc);
	ret = rte_pmd_mlx5_tm_txq_post_bad_lkey(hc->port_id, 0);
	/*
	 * The error CQE (taken by tx_done_cleanup), the reset (control
	 * path), the ring's rewind (datapath), the re-arm (control path).
	 */
	while (ret == 0 && rec == 0) {
		hc_wait_ns(hc, 100000);
		rte_eth_tx_done_cleanup(hc->port_id, 0, 0);
		rte_pmd_mlx5_tm_recover(hc->port_id);
		rte_eth_tx_done_cleanup(hc->port_id, 0, 0);
		rte_pmd_mlx5_tm_recover(hc->port_id);
		rec = hc_xstat(hc, "tx_q0_recoveries");
		if (hc_now_ns(hc) > give_up)
			break;
	}
	hc_log_stop(hc, said, sizeof(said));
	if (said[0] != '\0')
		hc_ev(hc, "the PMD: %s", said);
	if (ret != 0) {
		hc_step_end(hc, HC_FAIL, "could not post the WQE: %s",
			    rte_strerror(-ret));
		return;
	}
	errs = hc_xstat(hc, "tx_q0_error_cqes") - errs;
	f[0].max_packets = 0;
	if (rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &after) != 0 ||
	    !measure(hc, f, 1, rate, r)) {
		hc_step_end(hc, HC_FAIL, "the queue does not send again after "
			    "the error (%" PRIu64 " error CQE(s), %" PRIu64
			    " recoveries)", errs, rec);
		return;
	}
	hc_ev(hc, "%" PRIu64 " error CQE(s), %" PRIu64 " recovery(ies); SQ "
	      "0x%x state %u, pacing index %u -> %u, queue group %u -> %u",
	      errs, rec, after.sqn, after.state, before.pp_index,
	      after.pp_index, before.qos_queue_group_id,
	      after.qos_queue_group_id);
	hc_evj_u64(hc, "error_cqes", errs);
	hc_evj_u64(hc, "recoveries", rec);
	hc_evj_u64(hc, "pp_before", before.pp_index);
	hc_evj_u64(hc, "pp_after", after.pp_index);
	hc_evj_u64(hc, "group_before", before.qos_queue_group_id);
	hc_evj_u64(hc, "group_after", after.qos_queue_group_id);
	hc_evj_num(hc, "l2_bps", r[0].l2_bps);
	if (errs == 0) {
		hc_step_end(hc, HC_FAIL, "the WQE naming an unregistered "
			    "memory key did not complete in error");
		return;
	}
	if (rec == 0 || after.state != 1 ||
	    after.pp_index != before.pp_index ||
	    after.qos_queue_group_id != before.qos_queue_group_id) {
		hc_step_end(hc, HC_FAIL, "no recovery, or the SQ came back "
			    "without its pacing index or group");
		return;
	}
	if (!near_rate(hc, "queue 0 after the recovery", &r[0], rate)) {
		hc_step_end_rates(hc, "the rate is not kept after the "
			    "recovery");
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

/*
 * A commit with the link down: the line rate is the fastest link mode
 * the port supports (its speed is unknown then), so a hierarchy with a
 * non-leaf shaper commits, as a flat tree does. The device model's link
 * is set down (link=down); on hardware the link is as it is.
 */
static void
step_link_down(struct hc *hc)
{
	const struct tnode hier[] = {
		{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		{ SCHED_A, SCHED_ROOT, 1, 400000000ull / 8 },
		{ 0, SCHED_A, 1, 0 },
	};
	const struct tnode flat[] = {
		{ SCHED_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		{ 0, SCHED_ROOT, 1, 100000000ull / 8 },
	};
	bool sched = hc->info.nic_sq_scheduling;
	struct rte_eth_link link;

	hc_step_begin(hc, "commit_link_down", "a commit with the link down: "
		      "the line rate from the fastest supported link mode");
	if (!tree_port(hc, hc->info.emulated ? "link=down" : "", 1,
		       sched ? hier : flat, sched ? RTE_DIM(hier) :
		       RTE_DIM(flat))) {
		hc_evj_u64(hc, "line_rate_mbps", hc->info.line_rate_mbps);
		hc_step_end(hc, HC_FAIL, "%s (line rate %u Mbit/s)", why,
			    hc->info.line_rate_mbps);
		return;
	}
	memset(&link, 0, sizeof(link));
	rte_eth_link_get_nowait(hc->port_id, &link);
	hc_ev(hc, "link %s; line rate %u Mbit/s, fastest supported mode %u "
	      "Mbit/s; %s committed", link.link_status ? "up" : "down",
	      hc->info.line_rate_mbps, hc->info.link_max_speed_mbps,
	      sched ? "a 400 Mbit/s node" : "a shaped leaf (no hierarchy)");
	hc_evj_bool(hc, "link_up", link.link_status);
	hc_evj_u64(hc, "line_rate_mbps", hc->info.line_rate_mbps);
	hc_evj_u64(hc, "link_max_speed_mbps", hc->info.link_max_speed_mbps);
	/* Nothing was checked with the link up: said, not passed. */
	if (link.link_status) {
		hc_step_end(hc, HC_SKIP, "the link is up: bring it down (ip "
			    "link set dev <netdev> down) to check a commit "
			    "with the link down");
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

void
hc_steps_sched(struct hc *hc)
{
	step_objects(hc);
	step_pp_and_group(hc);
	step_ceiling(hc);
	step_paced_sibling(hc);
	step_pkt_group(hc);
	step_shares(hc);
	step_reparent(hc);
	step_recovery(hc);
	step_link_down(hc);
}
