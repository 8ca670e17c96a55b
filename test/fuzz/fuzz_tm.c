/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Seeded fuzzer of the control path: random sequences of rte_tm and ethdev
 * calls on a net_mlx5_tm port over the device model (virtual clock, no
 * traffic), with random firmware failures, and invariants checked after
 * every operation. Written against public APIs only (rte_tm, ethdev,
 * rte_pmd_mlx5_tm.h, the model's mlx5_emu.h and the PMD's telemetry), so
 * that it survives rewrites of the control plane.
 *
 * Invariants, after every operation:
 *  - driver and device agree: per Tx queue, the pacing index and queue
 *    group the driver reports (telemetry /ethdev/mlx5_tm/pacing) are those
 *    of the queue's SQ in the model, and QUERY_SQ through the driver
 *    (rte_pmd_mlx5_tm_txq_query) says the same; no SQ names a freed entry
 *    or a missing queue group; the TSARs the driver reports are the
 *    device's, with their parent, bw_share and ceiling, and the device
 *    holds no TSAR or queue group the driver does not;
 *  - the entries the driver holds are those the model has allocated for
 *    it, each used by a queue, with the model's SQ users counted right;
 *  - the rates are those asked for: a shadow of the accepted calls gives
 *    each queue's expected rate (leaf shaper once committed, else its
 *    queue rate limit), which must be the rate of its entry;
 *  - a refused call changed nothing visible (driver telemetry, rate table,
 *    SQs, scheduling elements), clear_on_fail aside;
 *  - nothing leaks: the model reports no object left when the port closes
 *    (ASan/LSan catch memory).
 *
 * Usage: fuzz_tm [EAL args] -- [--seed N] [--ops M] [--seeds K] [-v]
 * K seeds from N on, M operations each; each seed is one test case. A
 * violation prints the seed and the step: --seed N --ops STEP+1 replays it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_tm.h>

#include "mlx5_emu.h"
#include "mlx5_tm_prm.h"
#include "rte_pmd_mlx5_tm.h"
#include "splitmix64.h"
#include "tm_port.h"
#include "test_eal.h"

#define PORT_NAME "net_mlx5_tm_fuzz0"
#define MAX_TXQ 8
#define N_PROFILES 8
#define NONLEAF_BASE 100
#define N_NONLEAF 8
/* A non-leaf id the fuzzer uses rarely (tracked in the last slot). */
#define NONLEAF_EXTRA (NONLEAF_BASE + N_NONLEAF)
#define NONE RTE_TM_SHAPER_PROFILE_ID_NONE
#define RING 256
#define TEL_BUF 16384
#define MAX_ENTRIES 64
#define MAX_ELEMS 128

static bool verbose;

/* ---- random numbers (own generator: replay does not depend on EAL) ---- */

static uint64_t rng_state;

static uint64_t
rnd64(void)
{
	return splitmix64(&rng_state);
}

static uint32_t
rnd(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

/* ---- the shadow: what the accepted calls asked for ---- */

struct shadow_profile {
	bool exists;
	bool packet_mode;
	uint64_t peak;        /* bytes/s or packets/s */
};

struct shadow_node {
	bool exists;
	bool leaf;
	uint32_t parent;
	uint32_t profile;
	uint32_t level;
};

struct port {
	uint16_t id;
	struct mlx5_emu *emu;
	uint16_t nb_txq;
	bool started;
	uint32_t tolerance_ppm;
	struct mlx5_emu_caps caps;
	char devargs[160];
	/* Shadow. */
	struct shadow_profile prof[N_PROFILES + 1];
	struct shadow_node leaf[MAX_TXQ];
	struct shadow_node nonleaf[N_NONLEAF + 1];
	bool committed;
	uint32_t qrate_mbps[MAX_TXQ];
	bool qrate_known[MAX_TXQ];
};

static struct shadow_node *
shadow_node(struct port *p, uint32_t id)
{
	if (id < MAX_TXQ)
		return &p->leaf[id];
	if (id >= NONLEAF_BASE && id <= NONLEAF_EXTRA)
		return &p->nonleaf[id - NONLEAF_BASE];
	return NULL;
}

static unsigned int
shadow_nb_nodes(const struct port *p)
{
	unsigned int i, n = 0;

	for (i = 0; i < MAX_TXQ; i++)
		n += p->leaf[i].exists;
	for (i = 0; i <= N_NONLEAF; i++)
		n += p->nonleaf[i].exists;
	return n;
}

static void
shadow_clear_nodes(struct port *p)
{
	memset(p->leaf, 0, sizeof(p->leaf));
	memset(p->nonleaf, 0, sizeof(p->nonleaf));
}

/* The hierarchy ends: every queue unlimited. */
static void
shadow_end_hierarchy(struct port *p)
{
	unsigned int q;

	p->committed = false;
	for (q = 0; q < MAX_TXQ; q++) {
		p->qrate_mbps[q] = 0;
		p->qrate_known[q] = true;
	}
}

/* ---- violations ---- */

static uint64_t cur_seed;
static uint64_t cur_step;
static char cur_op[256];
static unsigned int violations;
static unsigned int leaks_reported;

static void
violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
violation(const char *fmt, ...)
{
	va_list ap;

	violations++;
	printf("VIOLATION seed %" PRIu64 " step %" PRIu64 " (%s): ",
	       cur_seed, cur_step, cur_op);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n  replay: --seed %" PRIu64 " --ops %" PRIu64 " -v\n",
	       cur_seed, cur_step + 1);
	fflush(stdout);
}

/* The model's messages: an object left at close is a leak. */
static void
emu_log_hook(int level, const char *msg)
{
	if (strstr(msg, "objects left") != NULL) {
		leaks_reported++;
		violation("device model: %s", msg);
	} else if (verbose && level <= 4) {
		printf("  model: %s\n", msg);
	}
}

/* ---- telemetry: the driver's view ---- */

/* One connection for the whole run. */
static int tel_fd = -1;

static int
tel_query(const char *cmd, char *buf, size_t len)
{
	if (tel_fd < 0)
		tel_fd = tm_telemetry_connect();
	return tel_fd < 0 ? -1 : tm_telemetry_ask(tel_fd, cmd, buf, len);
}

/* ---- the model's view ---- */

struct snapshot {
	char tel[TEL_BUF];
	unsigned int nb_pp;
	struct mlx5_emu_pp_info pp[MAX_ENTRIES];
	unsigned int nb_elems;
	struct mlx5_emu_sched_info elems[MAX_ELEMS];
	unsigned int nb_sqs;
	struct mlx5_emu_sq_info sqs[MAX_TXQ * 2];
};

static int
take_snapshot(struct port *p, struct snapshot *s)
{
	uint32_t sqns[MAX_TXQ * 2];
	char cmd[64];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u", p->id);
	if (tel_query(cmd, s->tel, sizeof(s->tel)) != 0)
		return -1;
	s->nb_pp = mlx5_emu_pp_list(p->emu, s->pp, MAX_ENTRIES);
	s->nb_elems = mlx5_emu_sched_list(p->emu, s->elems, MAX_ELEMS);
	s->nb_sqs = mlx5_emu_sq_list(p->emu, sqns, RTE_DIM(sqns));
	if (s->nb_pp > MAX_ENTRIES || s->nb_elems > MAX_ELEMS ||
	    s->nb_sqs > RTE_DIM(sqns))
		return -1;
	for (i = 0; i < s->nb_sqs; i++)
		if (mlx5_emu_sq_get(p->emu, sqns[i], &s->sqs[i]) != 0)
			return -1;
	/* Departure statistics are not state (no traffic is sent). */
	for (i = 0; i < s->nb_elems; i++)
		s->elems[i].packets = s->elems[i].bytes = 0;
	return 0;
}

static bool
snapshot_equal(const struct snapshot *a, const struct snapshot *b,
	       const char **what)
{
	unsigned int i;

	*what = "driver telemetry";
	if (strcmp(a->tel, b->tel) != 0)
		return false;
	*what = "rate table";
	if (a->nb_pp != b->nb_pp ||
	    memcmp(a->pp, b->pp, a->nb_pp * sizeof(a->pp[0])) != 0)
		return false;
	*what = "scheduling elements";
	if (a->nb_elems != b->nb_elems ||
	    memcmp(a->elems, b->elems, a->nb_elems * sizeof(a->elems[0])) != 0)
		return false;
	*what = "send queues";
	if (a->nb_sqs != b->nb_sqs)
		return false;
	for (i = 0; i < a->nb_sqs; i++)
		if (a->sqs[i].sqn != b->sqs[i].sqn ||
		    a->sqs[i].state != b->sqs[i].state ||
		    a->sqs[i].pp_index != b->sqs[i].pp_index ||
		    a->sqs[i].qos_queue_group_id !=
		    b->sqs[i].qos_queue_group_id)
			return false;
	return true;
}

static const struct mlx5_emu_pp_info *
snap_pp(const struct snapshot *s, uint64_t index)
{
	unsigned int i;

	for (i = 0; i < s->nb_pp; i++)
		if (s->pp[i].index == index)
			return &s->pp[i];
	return NULL;
}

static const struct mlx5_emu_sched_info *
snap_elem(const struct snapshot *s, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < s->nb_elems; i++)
		if (s->elems[i].id == id)
			return &s->elems[i];
	return NULL;
}

static const struct mlx5_emu_sq_info *
snap_sq(const struct snapshot *s, uint32_t sqn)
{
	unsigned int i;

	for (i = 0; i < s->nb_sqs; i++)
		if (s->sqs[i].sqn == sqn)
			return &s->sqs[i];
	return NULL;
}

/* Expected rate of queue @p q: false when unknown or unlimited. */
static bool
expected_rate(const struct port *p, uint16_t q, bool *known,
	      uint64_t *rate, bool *packet_mode)
{
	const struct shadow_node *n = &p->leaf[q];

	*packet_mode = false;
	*known = true;
	if (p->committed) {
		if (!n->exists || n->profile == NONE)
			return false;
		*packet_mode = p->prof[n->profile].packet_mode;
		*rate = p->prof[n->profile].peak;
		if (!*packet_mode)
			*rate = *rate * 8 / 1000; /* kbit/s */
		return true;
	}
	*known = p->qrate_known[q];
	*rate = (uint64_t)p->qrate_mbps[q] * 1000;
	return *known && *rate != 0;
}

/*
 * The TSARs the driver reports (telemetry tsar_*, where the driver has a
 * scheduling hierarchy) are the model's, with their parent, bw_share and
 * ceiling; the model holds no TSAR the driver does not report.
 */
static void
check_tsars(const struct snapshot *s)
{
	uint64_t id[MAX_ELEMS], parent[MAX_ELEMS], share[MAX_ELEMS],
		 ceil[MAX_ELEMS];
	int n, i;
	unsigned int k;

	n = tm_json_u64_array(s->tel, "tsar_id", id, MAX_ELEMS);
	if (n < 0)
		return;
	if (tm_json_u64_array(s->tel, "tsar_parent_id", parent,
			      MAX_ELEMS) != n ||
	    tm_json_u64_array(s->tel, "tsar_bw_share", share,
			      MAX_ELEMS) != n ||
	    tm_json_u64_array(s->tel, "tsar_max_average_bw_mbps", ceil,
			      MAX_ELEMS) != n) {
		violation("telemetry: TSAR columns of different lengths");
		return;
	}
	for (i = 0; i < n; i++) {
		const struct mlx5_emu_sched_info *e = snap_elem(s, id[i]);

		if (e == NULL || e->element_type != MLX5_SCHED_ELEM_TYPE_TSAR)
			violation("driver TSAR %" PRIu64 " not on the device",
				  id[i]);
		else if (e->parent_id != parent[i] ||
			 e->bw_share != share[i] ||
			 e->max_average_bw != ceil[i])
			violation("TSAR %" PRIu64 ": driver parent %" PRIu64
				  " bw_share %" PRIu64 " ceiling %" PRIu64
				  ", device %u %u %u", id[i], parent[i],
				  share[i], ceil[i], e->parent_id,
				  e->bw_share, e->max_average_bw);
	}
	for (k = 0; k < s->nb_elems; k++) {
		bool known = false;

		if (s->elems[k].element_type != MLX5_SCHED_ELEM_TYPE_TSAR)
			continue;
		for (i = 0; i < n; i++)
			known |= id[i] == s->elems[k].id;
		if (!known)
			violation("device TSAR %u not held by the driver "
				  "(leak)", s->elems[k].id);
	}
}

/* Every invariant that must hold between two operations. */
static void
check_invariants(struct port *p, struct snapshot *s)
{
	uint64_t tidx[MAX_TXQ], tgroup[MAX_TXQ], held[MAX_ENTRIES];
	unsigned int i, our_entries = 0;
	int n_idx, n_group, n_held;
	uint16_t q;

	if (take_snapshot(p, s) != 0) {
		violation("cannot read the driver's or the model's view");
		return;
	}
	n_idx = tm_json_u64_array(s->tel, "queue_pacing_index", tidx, MAX_TXQ);
	n_group = tm_json_u64_array(s->tel, "queue_group", tgroup, MAX_TXQ);
	n_held = tm_json_u64_array(s->tel, "index", held, MAX_ENTRIES);
	if (n_idx != p->nb_txq || n_held < 0) {
		violation("telemetry: %d queue indices for %u queues: %s",
			  n_idx, p->nb_txq, s->tel);
		return;
	}
	/* Entries: the driver's are the model's, each used by a queue. */
	for (i = 0; i < s->nb_pp; i++) {
		const struct mlx5_emu_pp_info *e = &s->pp[i];
		unsigned int users = 0, j;
		bool in_tel = false;

		for (j = 0; j < s->nb_sqs; j++)
			users += s->sqs[j].pp_index == e->index;
		if (users != e->sq_users)
			violation("model: entry %u counts %u SQ users, %u SQs "
				  "use it", e->index, e->sq_users, users);
		if (e->user == 0)
			continue;
		our_entries++;
		for (j = 0; j < (unsigned int)n_held; j++)
			in_tel |= held[j] == e->index;
		if (!in_tel)
			violation("entry %u allocated on the device but not "
				  "held by the driver (leak)", e->index);
		if (e->refcount == 0)
			violation("entry %u with no reference", e->index);
	}
	if (our_entries != (unsigned int)n_held)
		violation("driver holds %d entries, the device has %u for it",
			  n_held, our_entries);
	for (i = 0; i < (unsigned int)n_held; i++) {
		bool used = false;

		for (q = 0; q < p->nb_txq; q++)
			used |= tidx[q] == held[i];
		if (!used)
			violation("driver holds entry %" PRIu64 " that no "
				  "queue uses", held[i]);
	}
	/* Per queue: driver, QUERY_SQ and model agree; rates as asked. */
	for (q = 0; q < p->nb_txq; q++) {
		struct rte_pmd_mlx5_tm_sq_info qi;
		const struct mlx5_emu_sq_info *sq;
		const struct mlx5_emu_pp_info *e;
		uint64_t rate = 0, got;
		bool known, pkt;
		uint32_t sqn;

		if (tidx[q] != 0 && snap_pp(s, tidx[q]) == NULL)
			violation("queue %u: driver index %" PRIu64 " not "
				  "allocated on the device", q, tidx[q]);
		if (rte_pmd_mlx5_tm_txq_sqn(p->id, q, &sqn) == 0) {
			sq = snap_sq(s, sqn);
			if (sq == NULL) {
				violation("queue %u: SQ %#x not in the model",
					  q, sqn);
				continue;
			}
			if (rte_pmd_mlx5_tm_txq_query(p->id, q, &qi) != 0)
				violation("queue %u: QUERY_SQ failed: %d", q,
					  rte_errno);
			else if (qi.pp_index != sq->pp_index)
				violation("queue %u: QUERY_SQ index %u, model "
					  "%u", q, qi.pp_index, sq->pp_index);
			if (sq->pp_index != tidx[q])
				violation("queue %u: driver index %" PRIu64
					  ", SQ %#x has %u", q, tidx[q], sqn,
					  sq->pp_index);
			if (sq->pp_stale)
				violation("queue %u: SQ names freed entry %u",
					  q, sq->pp_index);
			if (n_group == p->nb_txq &&
			    sq->qos_queue_group_id != tgroup[q])
				violation("queue %u: driver group %" PRIu64
					  ", SQ has %u", q, tgroup[q],
					  sq->qos_queue_group_id);
			if (sq->qos_queue_group_id != 0) {
				const struct mlx5_emu_sched_info *g =
					snap_elem(s, sq->qos_queue_group_id);

				if (g == NULL || g->element_type !=
				    MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP)
					violation("queue %u: SQ in group %u, "
						  "no such queue group", q,
						  sq->qos_queue_group_id);
			}
		}
		if (!expected_rate(p, q, &known, &rate, &pkt)) {
			if (known && tidx[q] != 0)
				violation("queue %u: unlimited expected, has "
					  "entry %" PRIu64, q, tidx[q]);
			continue;
		}
		e = snap_pp(s, tidx[q]);
		if (e == NULL) {
			violation("queue %u: rate %" PRIu64 "%s expected, "
				  "no entry (index %" PRIu64 ")", q, rate,
				  pkt ? " pkt/s" : " kbit/s", tidx[q]);
			continue;
		}
		got = e->rate_limit;
		if (e->rate_mode != pkt ||
		    (got > rate ? got - rate : rate - got) * 1000000 >
		    rate * (uint64_t)p->tolerance_ppm + 999999)
			violation("queue %u: entry %u has %" PRIu64 " (mode "
				  "%u), expected %" PRIu64 " (mode %u)", q,
				  e->index, got, e->rate_mode, rate, pkt);
	}
	check_tsars(s);
	/* Queue groups the model holds belong to some queue of the driver. */
	if (n_group == p->nb_txq)
		for (i = 0; i < s->nb_elems; i++) {
			bool used = false;

			if (s->elems[i].element_type !=
			    MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP)
				continue;
			for (q = 0; q < p->nb_txq; q++)
				used |= tgroup[q] == s->elems[i].id;
			if (!used)
				violation("queue group %u held by no queue",
					  s->elems[i].id);
		}
}

/* ---- the port ---- */

static int
port_open(struct port *p)
{
	static const char *const profiles[] = { "cx6dx", "cx6dx", "cx7",
		"cx5" };
	const char *profile = profiles[rnd(RTE_DIM(profiles))];
	uint16_t q;

	memset(p, 0, sizeof(*p));
	p->tolerance_ppm = rnd(4) == 0 ? 100000 : 0;
	snprintf(p->devargs, sizeof(p->devargs),
		 "emu=%s,clock=virtual,cap_pp_table_size=%u,pacing_index=%s,"
		 "rate_tolerance_ppm=%u", profile, 3 + rnd(10),
		 rnd(4) == 0 ? "dedicated" : "shared", p->tolerance_ppm);
	if (verbose)
		printf("  open %s\n", p->devargs);
	if (rte_vdev_init(PORT_NAME, p->devargs) != 0 ||
	    rte_eth_dev_get_port_by_name(PORT_NAME, &p->id) != 0) {
		printf("cannot open %s,%s\n", PORT_NAME, p->devargs);
		return -1;
	}
	p->emu = rte_pmd_mlx5_tm_emu(p->id);
	if (p->emu == NULL)
		return -1;
	mlx5_emu_get_caps(p->emu, &p->caps);
	p->nb_txq = 1 + rnd(MAX_TXQ);
	if (tm_port_queues(p->id, p->nb_txq, RING) != 0)
		return -1;
	for (q = 0; q < MAX_TXQ; q++)
		p->qrate_known[q] = true;
	return 0;
}

static void
port_close(struct port *p)
{
	rte_eth_dev_stop(p->id);
	rte_eth_dev_close(p->id);
	rte_vdev_uninit(PORT_NAME);
	p->emu = NULL;
}

/* ---- operations ---- */

static uint64_t
random_rate(const struct port *p, bool packet_mode)
{
	uint64_t lo = p->caps.pp_min_rate_kbps, hi = p->caps.pp_max_rate_kbps;

	if (rnd(16) == 0)
		return rnd(3) == 0 ? 0 : (rnd(2) ? lo * 125 - 125 :
					    hi * 125 + 125);
	if (packet_mode)
		return 1000 + rnd(1000000);
	/* kbit/s in range, in bytes/s (a multiple of 125: exact). */
	return (lo + rnd64() % (hi - lo + 1)) * 125;
}

static uint32_t
random_profile(void)
{
	return rnd(6) == 0 ? NONE : rnd(N_PROFILES + 1);
}

static uint32_t
random_node_id(const struct port *p)
{
	switch (rnd(5)) {
	case 0:
		return rnd(4) == 0 ? RTE_TM_NODE_ID_NULL : NONLEAF_EXTRA;
	case 1:
	case 2:
		/* A queue, or the first id past them (a non-leaf id). */
		return rnd(RTE_MIN(p->nb_txq + 1, MAX_TXQ));
	default:
		return NONLEAF_BASE + rnd(N_NONLEAF);
	}
}

enum node_pick {
	PICK_ANY,       /* any existing node */
	PICK_NONLEAF,   /* an existing non-leaf node */
	PICK_DEEPEST,   /* the deepest existing non-leaf node */
	PICK_CHILDLESS, /* an existing node without children */
};

static bool
has_children(struct port *p, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < MAX_TXQ + N_NONLEAF + 1; i++) {
		uint32_t c = i < MAX_TXQ ? i : NONLEAF_BASE + i - MAX_TXQ;
		const struct shadow_node *n = shadow_node(p, c);

		if (n->exists && n->parent == id)
			return true;
	}
	return false;
}

/*
 * Mostly an existing node of the shadow as @p how says; now and then (or
 * when there is none) a random id, which may not exist.
 */
static uint32_t
pick_node(struct port *p, enum node_pick how)
{
	uint32_t ids[MAX_TXQ + N_NONLEAF + 1], n = 0, i, best = 0;

	for (i = 0; i < RTE_DIM(ids); i++) {
		uint32_t id = i < MAX_TXQ ? i : NONLEAF_BASE + i - MAX_TXQ;
		const struct shadow_node *sn = shadow_node(p, id);

		if (!sn->exists || (how != PICK_ANY &&
		    how != PICK_CHILDLESS && sn->leaf) ||
		    (how == PICK_CHILDLESS && has_children(p, id)))
			continue;
		if (how == PICK_DEEPEST && n > 0 &&
		    sn->level <= shadow_node(p, ids[best])->level)
			continue;
		if (how == PICK_DEEPEST)
			best = n;
		ids[n++] = id;
	}
	if (n == 0 || rnd(8) == 0)
		return rnd(4) == 0 ? RTE_TM_NODE_ID_NULL : random_node_id(p);
	return how == PICK_DEEPEST ? ids[best] : ids[rnd(n)];
}

/* A parent for a new node: the root's NULL when there is no node. */
static uint32_t
random_parent(struct port *p, bool leaf)
{
	if (shadow_nb_nodes(p) == 0 && rnd(8) != 0)
		return RTE_TM_NODE_ID_NULL;
	return pick_node(p, leaf && rnd(4) != 0 ? PICK_DEEPEST :
			 PICK_NONLEAF);
}

static uint32_t
random_weight(void)
{
	static const uint32_t w[] = { 1, 1, 1, 1, 1, 1, 2, 3, 5, 8, 100, 0,
		300 };

	return w[rnd(RTE_DIM(w))];
}

enum op_kind {
	OP_PROFILE_ADD,
	OP_PROFILE_DELETE,
	OP_NODE_ADD,
	OP_NODE_ADD_NONLEAF,
	OP_NODE_DELETE,
	OP_COMMIT,
	OP_SHAPER_UPDATE,
	OP_PARENT_UPDATE,
	OP_SUSPEND_RESUME,
	OP_STATS,
	OP_QUEUE_RATE,
	OP_QUEUE_SETUP,
	OP_QUEUE_START_STOP,
	OP_PORT_START,
	OP_PORT_STOP,
	OP_PORT_RECONFIGURE,
	OP_PORT_CLOSE,
	OP_COUNT,
};

static const char *const op_names[OP_COUNT] = {
	"profile_add", "profile_delete", "node_add_leaf", "node_add_nonleaf",
	"node_delete", "commit", "shaper_update", "parent_update",
	"suspend_resume", "stats", "queue_rate", "queue_setup",
	"queue_start_stop", "port_start", "port_stop", "port_reconfigure",
	"port_close",
};

/* Relative frequency of each operation. */
static const unsigned int op_weight[OP_COUNT] = {
	[OP_PROFILE_ADD] = 10, [OP_PROFILE_DELETE] = 4,
	[OP_NODE_ADD] = 14, [OP_NODE_ADD_NONLEAF] = 8, [OP_NODE_DELETE] = 8,
	[OP_COMMIT] = 8, [OP_SHAPER_UPDATE] = 8, [OP_PARENT_UPDATE] = 5,
	[OP_SUSPEND_RESUME] = 4, [OP_STATS] = 3, [OP_QUEUE_RATE] = 5,
	[OP_QUEUE_SETUP] = 2, [OP_QUEUE_START_STOP] = 3, [OP_PORT_START] = 5,
	[OP_PORT_STOP] = 1, [OP_PORT_RECONFIGURE] = 1, [OP_PORT_CLOSE] = 1,
};

static enum op_kind
random_op(void)
{
	unsigned int total = 0, i, r;

	for (i = 0; i < OP_COUNT; i++)
		total += op_weight[i];
	r = rnd(total);
	for (i = 0; i < OP_COUNT; i++) {
		if (r < op_weight[i])
			return i;
		r -= op_weight[i];
	}
	return OP_STATS;
}

/*
 * Run one operation; update the shadow when it is accepted.
 * @return 0 accepted, else the negative errno. *@p may_change says that a
 * refusal is allowed to change state (commit with clear_on_fail).
 */
static int
run_op(struct port *p, enum op_kind op, bool *may_change)
{
	struct rte_tm_shaper_params sp;
	struct rte_tm_node_params np;
	struct rte_tm_node_stats st;
	struct shadow_node *n;
	uint64_t mask;
	uint32_t id, parent, prof, weight;
	uint16_t q;
	int ret, i;

	*may_change = false;
	switch (op) {
	case OP_PROFILE_ADD:
		memset(&sp, 0, sizeof(sp));
		id = rnd(N_PROFILES + 1);
		sp.packet_mode = rnd(5) == 0;
		sp.peak.rate = random_rate(p, sp.packet_mode);
		sp.peak.size = rnd(3) == 0 ? 0 : 1500 * (1 + rnd(64));
		if (rnd(8) == 0)
			sp.committed.rate = sp.peak.rate / (1 + rnd(4));
		snprintf(cur_op, sizeof(cur_op), "profile_add %u peak %" PRIu64
			 "%s committed %" PRIu64 " size %" PRIu64, id,
			 sp.peak.rate, sp.packet_mode ? " pkt/s" : " B/s",
			 sp.committed.rate, sp.peak.size);
		ret = rte_tm_shaper_profile_add(p->id, id, &sp, &terr);
		if (ret == 0 && id <= N_PROFILES) {
			p->prof[id].exists = true;
			p->prof[id].packet_mode = sp.packet_mode;
			p->prof[id].peak = sp.peak.rate;
		}
		return ret;
	case OP_PROFILE_DELETE:
		id = rnd(N_PROFILES + 1);
		snprintf(cur_op, sizeof(cur_op), "profile_delete %u", id);
		ret = rte_tm_shaper_profile_delete(p->id, id, &terr);
		if (ret == 0 && id <= N_PROFILES)
			p->prof[id].exists = false;
		return ret;
	case OP_NODE_ADD:
	case OP_NODE_ADD_NONLEAF:
		/* Leaves need a root: mostly add one first. */
		if (op == OP_NODE_ADD && shadow_nb_nodes(p) == 0 && rnd(4))
			op = OP_NODE_ADD_NONLEAF;
		memset(&np, 0, sizeof(np));
		prof = random_profile();
		np.shaper_profile_id = prof;
		np.stats_mask = RTE_TM_STATS_N_PKTS | RTE_TM_STATS_N_BYTES;
		if (op == OP_NODE_ADD) {
			id = rnd(4) ? rnd(p->nb_txq) : random_node_id(p);
			np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
			np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
		} else {
			id = rnd(8) ? NONLEAF_BASE + rnd(N_NONLEAF) :
			     random_node_id(p);
			np.nonleaf.n_sp_priorities = rnd(10) ? 1 : 2;
			if (rnd(2))
				np.shaper_profile_id = prof = NONE;
		}
		parent = random_parent(p, op == OP_NODE_ADD);
		weight = random_weight();
		if (rnd(20) == 0)
			np.n_shared_shapers = 1;
		snprintf(cur_op, sizeof(cur_op), "node_add %u parent %u "
			 "weight %u profile %u%s", id, parent, weight, prof,
			 op == OP_NODE_ADD ? " (leaf params)" : "");
		ret = rte_tm_node_add(p->id, id, parent, rnd(16) == 0,
				      weight, RTE_TM_NODE_LEVEL_ID_ANY, &np,
				      &terr);
		n = shadow_node(p, id);
		if (ret == 0) {
			if (n == NULL) {
				violation("node %u accepted, out of the ids "
					  "the fuzzer tracks", id);
				return ret;
			}
			n->exists = true;
			n->leaf = id < p->nb_txq;
			n->parent = parent;
			n->profile = prof;
			n->level = parent == RTE_TM_NODE_ID_NULL ? 0 :
				   shadow_node(p, parent)->level + 1;
		}
		return ret;
	case OP_NODE_DELETE:
		id = pick_node(p, PICK_CHILDLESS);
		snprintf(cur_op, sizeof(cur_op), "node_delete %u", id);
		ret = rte_tm_node_delete(p->id, id, &terr);
		if (ret == 0 && (n = shadow_node(p, id)) != NULL) {
			n->exists = false;
			if (shadow_nb_nodes(p) == 0 && p->committed)
				shadow_end_hierarchy(p);
		}
		return ret;
	case OP_COMMIT:
		i = rnd(3) == 0;
		snprintf(cur_op, sizeof(cur_op), "commit clear_on_fail %d", i);
		ret = rte_tm_hierarchy_commit(p->id, i, &terr);
		if (ret == 0) {
			if (shadow_nb_nodes(p) > 0)
				p->committed = true;
		} else if (i) {
			*may_change = true;
			shadow_clear_nodes(p);
			if (p->committed)
				shadow_end_hierarchy(p);
		}
		return ret;
	case OP_SHAPER_UPDATE:
		id = pick_node(p, PICK_ANY);
		prof = random_profile();
		snprintf(cur_op, sizeof(cur_op), "shaper_update %u profile %u",
			 id, prof);
		ret = rte_tm_node_shaper_update(p->id, id, prof, &terr);
		if (ret == 0 && (n = shadow_node(p, id)) != NULL)
			n->profile = prof;
		return ret;
	case OP_PARENT_UPDATE:
		id = pick_node(p, PICK_ANY);
		parent = pick_node(p, PICK_NONLEAF);
		weight = random_weight();
		snprintf(cur_op, sizeof(cur_op), "parent_update %u to %u "
			 "weight %u", id, parent, weight);
		ret = rte_tm_node_parent_update(p->id, id, parent, 0, weight,
						&terr);
		if (ret == 0 && (n = shadow_node(p, id)) != NULL) {
			n->parent = parent;
			n->level = shadow_node(p, parent)->level + 1;
		}
		return ret;
	case OP_SUSPEND_RESUME:
		id = pick_node(p, PICK_ANY);
		i = rnd(2);
		snprintf(cur_op, sizeof(cur_op), "%s %u",
			 i ? "suspend" : "resume", id);
		return i ? rte_tm_node_suspend(p->id, id, &terr) :
			   rte_tm_node_resume(p->id, id, &terr);
	case OP_STATS:
		id = pick_node(p, PICK_ANY);
		i = rnd(2);
		snprintf(cur_op, sizeof(cur_op), "stats_read %u clear %d",
			 id, i);
		if (rnd(4) == 0) {
			struct rte_eth_xstat xs[64];
			struct rte_eth_stats es;

			rte_eth_xstats_get(p->id, xs, RTE_DIM(xs));
			rte_eth_stats_get(p->id, &es);
		}
		return rte_tm_node_stats_read(p->id, id, &st, &mask, i, &terr);
	case OP_QUEUE_RATE:
		q = rnd(p->nb_txq + 1);
		weight = rnd(4) == 0 ? 0 : (uint32_t[]){ 1, 10, 100, 1000,
			25000, 100000, 500000 }[rnd(7)];
		snprintf(cur_op, sizeof(cur_op), "set_queue_rate_limit %u %u "
			 "Mbit/s", q, weight);
		ret = rte_eth_set_queue_rate_limit(p->id, q, weight);
		if (ret == 0 && q < MAX_TXQ) {
			p->qrate_mbps[q] = weight;
			p->qrate_known[q] = true;
		}
		return ret;
	case OP_QUEUE_SETUP:
		q = rnd(p->nb_txq + 1);
		snprintf(cur_op, sizeof(cur_op), "tx_queue_setup %u", q);
		return rte_eth_tx_queue_setup(p->id, q, RING, rte_socket_id(),
					      NULL);
	case OP_QUEUE_START_STOP:
		q = rnd(p->nb_txq);
		i = rnd(2);
		snprintf(cur_op, sizeof(cur_op), "tx_queue_%s %u",
			 i ? "stop" : "start", q);
		return i ? rte_eth_dev_tx_queue_stop(p->id, q) :
			   rte_eth_dev_tx_queue_start(p->id, q);
	case OP_PORT_START:
		snprintf(cur_op, sizeof(cur_op), "port_start");
		ret = rte_eth_dev_start(p->id);
		if (ret == 0)
			p->started = true;
		return ret;
	case OP_PORT_STOP:
		snprintf(cur_op, sizeof(cur_op), "port_stop");
		ret = rte_eth_dev_stop(p->id);
		if (ret == 0)
			p->started = false;
		return ret;
	case OP_PORT_RECONFIGURE:
		q = 1 + rnd(MAX_TXQ);
		snprintf(cur_op, sizeof(cur_op), "reconfigure %u queues", q);
		if (p->started)
			return rte_eth_dev_configure(p->id, 0, q,
				&(struct rte_eth_conf){ 0 });
		ret = tm_port_queues(p->id, q, RING);
		if (ret != 0) {
			struct rte_eth_dev_info info;

			/* Configured, a queue set-up refused: the new count. */
			*may_change = true;
			if (rte_eth_dev_info_get(p->id, &info) != 0 ||
			    info.nb_tx_queues == p->nb_txq)
				return ret;
			q = info.nb_tx_queues;
		}
		p->nb_txq = q;
		for (i = q; i < MAX_TXQ; i++) {
			p->leaf[i].exists &= !p->leaf[i].leaf;
			p->qrate_mbps[i] = 0;
		}
		/* A non-leaf id that now names a queue: all nodes go. */
		for (i = 0; i < q; i++)
			if (p->leaf[i].exists && !p->leaf[i].leaf)
				shadow_clear_nodes(p);
		/* Queue rate limits over a reconfiguration: unsaid. */
		for (i = 0; i < MAX_TXQ; i++)
			p->qrate_known[i] = false;
		if (shadow_nb_nodes(p) == 0 && p->committed)
			shadow_end_hierarchy(p);
		return ret;
	default:
		return 0;
	}
}

/*
 * Arm one firmware or pp_alloc failure among those operation @p op may
 * meet; which it was in @p what.
 */
static void
arm_fault(struct port *p, enum op_kind op, char *what, size_t len)
{
	static const uint16_t port_ops[] = {
		MLX5_CMD_OP_CREATE_SQ, MLX5_CMD_OP_MODIFY_SQ,
		MLX5_CMD_OP_CREATE_CQ, MLX5_CMD_OP_CREATE_TIS,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
	};
	static const uint16_t tm_ops[] = {
		MLX5_CMD_OP_MODIFY_SQ,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT,
		MLX5_CMD_OP_MODIFY_GENERAL_OBJECT,
	};
	bool port_op = op >= OP_QUEUE_SETUP;
	struct mlx5_emu_fault_cmd fc;
	struct mlx5_emu_fault_pp fp;

	if (rnd(port_op ? 4 : 2) == 0) {
		fp.nth = 1 + rnd(2);
		fp.err = rnd(2) ? EIO : ENOSPC;
		mlx5_emu_fault_pp_alloc(p->emu, &fp);
		snprintf(what, len, "pp_alloc #%u fails %s", fp.nth,
			 fp.err == EIO ? "EIO" : "ENOSPC");
		return;
	}
	memset(&fc, 0, sizeof(fc));
	fc.opcode = port_op ? port_ops[rnd(RTE_DIM(port_ops))] :
		    tm_ops[rnd(RTE_DIM(tm_ops))];
	fc.nth = 1 + rnd(rnd(2) ? 1 : 6);
	fc.status = rnd(2) ? MLX5_CMD_STAT_INT_ERR : MLX5_CMD_STAT_NO_RES_ERR;
	fc.syndrome = MLX5_EMU_SYND_INJECTED;
	mlx5_emu_fault_cmd(p->emu, &fc);
	snprintf(what, len, "command %#x #%u fails", fc.opcode, fc.nth);
}

static void
disarm_faults(struct port *p)
{
	struct mlx5_emu_fault_cmd fc;
	struct mlx5_emu_fault_pp fp;

	memset(&fc, 0, sizeof(fc));
	memset(&fp, 0, sizeof(fp));
	mlx5_emu_fault_cmd(p->emu, &fc);
	mlx5_emu_fault_pp_alloc(p->emu, &fp);
}

struct run_stats {
	uint64_t ops;
	uint64_t accepted;
	uint64_t refused;
	uint64_t faults;
	uint64_t failed_cmds; /* firmware commands that failed */
	uint64_t opens;
	uint64_t by_op[OP_COUNT][2]; /* refused, accepted */
};

static struct snapshot snap_a, snap_b;

/* One seed: @p n_ops operations. @return violations found. */
static unsigned int
run_seed(uint64_t seed, uint64_t n_ops, struct run_stats *rs)
{
	unsigned int before = violations;
	char fault[96];
	struct port p;
	uint64_t i;

	cur_seed = seed;
	rng_state = seed;
	cur_step = 0;
	snprintf(cur_op, sizeof(cur_op), "open");
	if (port_open(&p) != 0) {
		violation("cannot open the port");
		return violations - before;
	}
	rs->opens++;
	check_invariants(&p, &snap_b);
	for (i = 0; i < n_ops && violations == before; i++) {
		struct mlx5_emu_cmd_error ce0, ce1;
		enum op_kind op = random_op();
		bool faulted, may_change;
		const char *what;
		int ret;

		cur_step = i;
		if (op == OP_PORT_CLOSE) {
			snprintf(cur_op, sizeof(cur_op), "port_close (%s)",
				 p.devargs);
			port_close(&p);
			if (violations != before)
				break;
			snprintf(cur_op, sizeof(cur_op), "open");
			if (port_open(&p) != 0) {
				violation("cannot open the port again");
				return violations - before;
			}
			rs->opens++;
			rs->ops++;
			rs->by_op[op][1]++;
			check_invariants(&p, &snap_b);
			continue;
		}
		/* Faults around the calls that may reach the device. */
		faulted = op != OP_PROFILE_ADD && op != OP_PROFILE_DELETE &&
			  op != OP_STATS && op != OP_PORT_STOP && rnd(3) == 0;
		fault[0] = '\0';
		if (faulted) {
			arm_fault(&p, op, fault, sizeof(fault));
			rs->faults++;
		}
		memcpy(&snap_a, &snap_b, sizeof(snap_a));
		mlx5_emu_last_cmd_error(p.emu, &ce0);
		ret = run_op(&p, op, &may_change);
		mlx5_emu_last_cmd_error(p.emu, &ce1);
		rs->failed_cmds += ce1.count - ce0.count;
		if (faulted)
			disarm_faults(&p);
		if (faulted) {
			size_t l = strlen(cur_op);

			snprintf(cur_op + l, sizeof(cur_op) - l, " [%s]",
				 fault);
		}
		if (verbose)
			printf("  %" PRIu64 ": %s -> %d%s%s\n", i, cur_op, ret,
			       ret != 0 && terr.message != NULL ? ": " : "",
			       ret != 0 && terr.message != NULL ?
			       terr.message : "");
		memset(&terr, 0, sizeof(terr));
		rs->ops++;
		rs->by_op[op][ret == 0]++;
		if (ret == 0)
			rs->accepted++;
		else
			rs->refused++;
		check_invariants(&p, &snap_b);
		if (ret != 0 && !may_change &&
		    !snapshot_equal(&snap_a, &snap_b, &what))
			violation("refused (%d) but changed the %s", ret, what);
	}
	if (violations == before) {
		cur_step = n_ops;
		snprintf(cur_op, sizeof(cur_op), "final close (%s)",
			 p.devargs);
	}
	port_close(&p);
	return violations - before;
}

static void
usage(const char *prog)
{
	printf("Usage: %s [EAL args] -- [--seed N] [--ops M] [--seeds K] "
	       "[-v]\n"
	       "  --seed N   first seed (default: from the time, printed)\n"
	       "  --ops M    operations per seed (default 20000)\n"
	       "  --seeds K  seeds N..N+K-1, each a test case (default 1)\n"
	       "  -v         print every operation and its result\n", prog);
}

int
main(int argc, char **argv)
{
	uint64_t seed = 0, n_ops = 20000, n_seeds = 1, k;
	struct run_stats rs;
	struct timespec t0, t1;
	bool seed_given = false;
	unsigned int passed = 0, failed = 0, op;
	double secs;
	int ret, i;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("EAL init failed\n0 passed, 1 failed\n");
		return 1;
	}
	for (i = ret + 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0) {
			verbose = true;
		} else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
			seed_given = true;
		} else if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc) {
			n_ops = strtoull(argv[++i], NULL, 0);
		} else if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc) {
			n_seeds = strtoull(argv[++i], NULL, 0);
		} else {
			usage(argv[0]);
			test_eal_cleanup();
			return 2;
		}
	}
	if (!seed_given)
		seed = (uint64_t)time(NULL);
	/* Refusals are what a fuzzer provokes: keep the driver quiet. */
	if (!verbose) {
		rte_log_set_level_pattern("pmd.net.mlx5_tm*", RTE_LOG_CRIT);
		rte_log_set_level_pattern("lib.ethdev", RTE_LOG_CRIT);
	}
	mlx5_emu_set_log(emu_log_hook);
	memset(&rs, 0, sizeof(rs));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < n_seeds; k++) {
		unsigned int v = run_seed(seed + k, n_ops, &rs);

		printf("fuzz/seed_%" PRIu64 ": %s (%" PRIu64 " ops)\n",
		       seed + k, v == 0 ? "PASSED" : "FAILED", n_ops);
		fflush(stdout);
		if (v == 0)
			passed++;
		else
			failed++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (tel_fd >= 0)
		close(tel_fd);
	printf("seeds %" PRIu64 "..%" PRIu64 ": %" PRIu64 " operations "
	       "(%" PRIu64 " accepted, %" PRIu64 " refused), %" PRIu64
	       " with a fault armed, %" PRIu64 " failed firmware commands, "
	       "%" PRIu64 " ports opened, %.1f s, "
	       "%.0f ops/s; %u violations, %u leaks at close\n",
	       seed, seed + n_seeds - 1, rs.ops, rs.accepted, rs.refused,
	       rs.faults, rs.failed_cmds, rs.opens, secs, secs > 0 ? rs.ops / secs : 0.0,
	       violations, leaks_reported);
	for (op = 0; op < OP_COUNT; op++)
		printf("  %-18s %8" PRIu64 " accepted %8" PRIu64 " refused\n",
		       op_names[op], rs.by_op[op][1], rs.by_op[op][0]);
	test_eal_cleanup();
	printf("%u passed, %u failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
