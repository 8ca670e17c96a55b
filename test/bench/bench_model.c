/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Device-model cost per frame: what the emulated ConnectX spends on each
 * 64-byte frame that mlx5-tm sends, the work its real-time device thread
 * does for testpmd txonly, measured CPU-bound in virtual clock so that
 * the figure does not depend on the machine's load or on a second core.
 *
 * One mlx5-tm port, one Tx queue of 1024 descriptors, no offloads (so
 * the PMD writes eMPW WQEs of up to 32 frames, as for testpmd txonly),
 * in three cases: no rate limit ("64B", testpmd txonly's), paced at
 * 10 Gbit/s with rte_eth_set_queue_rate_limit() ("64B_paced": every frame
 * through the pacer and the engine's full scan), and eight queues in an
 * rte_tm hierarchy ("64B_tree", model_tree_add(): every frame through
 * the arbiter of the NIC scheduling elements). A fill posts frames with
 * rte_eth_tx_burst() in bursts of 32 on each queue until its ring takes
 * no more (untimed: the PMD also reaps the previous completions there),
 * then mlx5_emu_drain() runs the model until
 * every WQE has left and its CQE is written: doorbell poll, WQE decode,
 * departure times, wire counters, CQEs. Only the drain is measured: its
 * thread CPU time per frame (median of the rounds) and, under callgrind,
 * its instructions per frame (one dump per case, "model:<case>:<frames>";
 * the one collection toggle pair per drain is left in, a few instructions
 * per thousand frames).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_tm.h>

#ifdef BENCH_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

#include "bench.h"

#define MODEL_FRAME_LEN 64
#define MODEL_BURST 32
#define MODEL_RING_DESC 1024
/* Every ring of the tree full, and a burst: 8 * 1024 + 32 and more. */
#define MODEL_POOL_SIZE 16383
#define MODEL_MAX_ROUNDS 64

#define MODEL_TREE_QUEUES 8
#define MODEL_TREE_ROOT 100
#define MODEL_GBPS(g) ((uint64_t)(g) * 125000000ull) /* bytes/s */

/**
 * A case: a name, and the rate limit of its one queue in Mbit/s (0:
 * none) or a hierarchy of MODEL_TREE_QUEUES queues.
 */
struct model_case {
	const char *name;
	uint32_t rate_mbps;
	bool tree;
};

static const struct model_case model_cases[] = {
	{ "64B", 0, false },
	{ "64B_paced", 10000, false },
	{ "64B_tree", 0, true },
};

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Post 64-byte frames in bursts of 32 until queue @p q's ring is full. */
static int
model_fill_queue(uint16_t port_id, uint16_t q, struct rte_mempool *pool,
		 uint64_t *posted)
{
	struct rte_mbuf *pkts[MODEL_BURST];
	uint16_t i, n;

	do {
		if (rte_pktmbuf_alloc_bulk(pool, pkts, MODEL_BURST) != 0)
			return -ENOMEM;
		for (i = 0; i < MODEL_BURST; i++) {
			uint8_t *p = rte_pktmbuf_mtod(pkts[i], uint8_t *);

			/* A unicast destination, as testpmd's. */
			memset(p, 0, MODEL_FRAME_LEN);
			p[0] = 0x02;
			pkts[i]->data_len = MODEL_FRAME_LEN;
			pkts[i]->pkt_len = MODEL_FRAME_LEN;
		}
		n = rte_eth_tx_burst(port_id, q, pkts, MODEL_BURST);
		if (n < MODEL_BURST)
			rte_pktmbuf_free_bulk(pkts + n, MODEL_BURST - n);
		*posted += n;
	} while (n == MODEL_BURST);
	return 0;
}

/* Fill the ring of each of the port's @p nb_txq queues. */
static int
model_fill(uint16_t port_id, uint16_t nb_txq, struct rte_mempool *pool,
	   uint64_t *posted)
{
	uint16_t q;
	int ret = 0;

	for (q = 0; ret == 0 && q < nb_txq; q++)
		ret = model_fill_queue(port_id, q, pool, posted);
	return ret;
}

/*
 * One round: fills and drains until @p frames frames have left; the
 * drains' CPU time in @p *ns, the frames in @p *sent.
 */
static int
model_round(uint16_t port_id, uint16_t nb_txq, struct rte_mempool *pool,
	    uint64_t frames, bool callgrind __rte_unused, uint64_t *ns,
	    uint64_t *sent)
{
	uint64_t wire0, wire, errors, posted = 0, t0;
	int ret;

	*ns = 0;
	ret = bench_mlx5_tm_wire(port_id, &wire0, &errors);
	while (ret == 0 && posted < frames) {
		ret = model_fill(port_id, nb_txq, pool, &posted);
		if (ret != 0)
			break;
		t0 = bench_thread_cpu_ns();
#ifdef BENCH_HAVE_CALLGRIND
		if (callgrind)
			CALLGRIND_TOGGLE_COLLECT;
#endif
		bench_mlx5_tm_drain(port_id);
#ifdef BENCH_HAVE_CALLGRIND
		if (callgrind)
			CALLGRIND_TOGGLE_COLLECT;
#endif
		*ns += bench_thread_cpu_ns() - t0;
	}
	if (ret == 0)
		ret = bench_mlx5_tm_wire(port_id, &wire, &errors);
	if (ret != 0)
		return ret;
	*sent = wire - wire0;
	if (*sent != posted || errors != 0) {
		fprintf(stderr, "model: %" PRIu64 " frames posted, %" PRIu64
			" on the wire, %" PRIu64 " error CQEs\n", posted,
			*sent, errors);
		return -EIO;
	}
	return 0;
}

/*
 * The hierarchy of "64B_tree", on a port not started: a root without a
 * shaper (the port's line) over group A (weight 1, 40 Gbit/s) and group B
 * (weight 3); queues 0-3 in A of weights 1, 2, 1, 2, queue 2 paced at
 * 5 Gbit/s; queues 4-7 in B of weight 1. So each frame goes through the
 * arbiter, three levels of elements and a ceiling, some through pacing.
 */
static int
model_tree_add(uint16_t port_id)
{
	static const struct {
		uint32_t id, parent, weight, profile;
	} nodes[] = {
		{ MODEL_TREE_ROOT, RTE_TM_NODE_ID_NULL, 1, 0 },
		{ MODEL_TREE_ROOT + 1, MODEL_TREE_ROOT, 1, 1 },
		{ MODEL_TREE_ROOT + 2, MODEL_TREE_ROOT, 3, 0 },
		{ 0, MODEL_TREE_ROOT + 1, 1, 0 },
		{ 1, MODEL_TREE_ROOT + 1, 2, 0 },
		{ 2, MODEL_TREE_ROOT + 1, 1, 2 },
		{ 3, MODEL_TREE_ROOT + 1, 2, 0 },
		{ 4, MODEL_TREE_ROOT + 2, 1, 0 },
		{ 5, MODEL_TREE_ROOT + 2, 1, 0 },
		{ 6, MODEL_TREE_ROOT + 2, 1, 0 },
		{ 7, MODEL_TREE_ROOT + 2, 1, 0 },
	};
	static const uint64_t gbps[] = { 40, 5 }; /* profiles 1, 2 */
	struct rte_tm_shaper_params sp;
	struct rte_tm_node_params np;
	struct rte_tm_error err;
	unsigned int i;
	int ret = 0;

	memset(&err, 0, sizeof(err));
	for (i = 0; ret == 0 && i < RTE_DIM(gbps); i++) {
		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = MODEL_GBPS(gbps[i]);
		ret = rte_tm_shaper_profile_add(port_id, 1 + i, &sp, &err);
	}
	for (i = 0; ret == 0 && i < RTE_DIM(nodes); i++) {
		memset(&np, 0, sizeof(np));
		np.shaper_profile_id = nodes[i].profile != 0 ?
			nodes[i].profile : RTE_TM_SHAPER_PROFILE_ID_NONE;
		if (nodes[i].id >= MODEL_TREE_ROOT) {
			np.nonleaf.n_sp_priorities = 1;
		} else {
			np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
			np.leaf.wred.wred_profile_id =
				RTE_TM_WRED_PROFILE_ID_NONE;
		}
		ret = rte_tm_node_add(port_id, nodes[i].id, nodes[i].parent, 0,
				      nodes[i].weight, RTE_TM_NODE_LEVEL_ID_ANY,
				      &np, &err);
	}
	if (ret == 0)
		ret = rte_tm_hierarchy_commit(port_id, 1, &err);
	if (ret != 0)
		fprintf(stderr, "model 64B_tree: hierarchy: %s\n",
			err.message != NULL ? err.message : strerror(-ret));
	return ret;
}

/* One case on a port of its own; its figures into @p js. */
static int
model_case_run(const struct bench_opts *o, const struct model_case *c,
	       struct rte_mempool *pool, struct bench_json *js)
{
	double per_frame[MODEL_MAX_ROUNDS];
	uint32_t rounds = o->rounds < MODEL_MAX_ROUNDS ? o->rounds :
			  MODEL_MAX_ROUNDS;
	uint16_t nb_txq = c->tree ? MODEL_TREE_QUEUES : 1;
	uint64_t ns, sent, total = 0;
	uint16_t port_id;
	uint32_t r;
	int ret;

	ret = bench_mlx5_tm_port(c->name, nb_txq, MODEL_RING_DESC, &port_id);
	if (ret != 0)
		return ret;
	if (c->tree)
		ret = model_tree_add(port_id);
	if (ret == 0)
		ret = rte_eth_dev_start(port_id);
	if (ret == 0 && c->rate_mbps != 0)
		ret = rte_eth_set_queue_rate_limit(port_id, 0, c->rate_mbps);
	if (ret != 0) {
		fprintf(stderr, "model %s: hierarchy, port start or rate limit"
			" %u Mbit/s: %s\n", c->name, c->rate_mbps,
			strerror(-ret));
		bench_mlx5_tm_destroy(port_id);
		return ret;
	}
	/* A warm-up round: the ring, the model's state and the pool. */
	ret = model_round(port_id, nb_txq, pool, o->packets, false, &ns,
			  &sent);
#ifdef BENCH_HAVE_CALLGRIND
	if (o->callgrind)
		CALLGRIND_ZERO_STATS;
#endif
	for (r = 0; ret == 0 && r < (o->callgrind ? 1 : rounds); r++) {
		ret = model_round(port_id, nb_txq, pool, o->packets,
				  o->callgrind, &ns, &sent);
		per_frame[r] = sent > 0 ? (double)ns / (double)sent : 0;
		total += sent;
	}
#ifdef BENCH_HAVE_CALLGRIND
	if (ret == 0 && o->callgrind) {
		char what[64];

		snprintf(what, sizeof(what), "model:%s:%" PRIu64, c->name,
			 total);
		CALLGRIND_DUMP_STATS_AT(what);
	}
#endif
	bench_mlx5_tm_destroy(port_id);
	if (ret != 0)
		return ret;
	qsort(per_frame, r, sizeof(per_frame[0]), cmp_double);
	bench_json_obj_begin(js, c->name);
	bench_json_int(js, "frame_len", MODEL_FRAME_LEN);
	bench_json_int(js, "rate_mbps", c->rate_mbps);
	bench_json_int(js, "frames", (int64_t)total);
	bench_json_int(js, "rounds", r);
	bench_json_num(js, "ns_per_frame", per_frame[r / 2]);
	bench_json_num(js, "ns_per_frame_min", per_frame[0]);
	bench_json_num(js, "ns_per_frame_max", per_frame[r - 1]);
	bench_json_obj_end(js);
	if (o->callgrind)
		printf("model %-10s %" PRIu64 " frames: instructions in the"
		       " callgrind dump \"model:%s:%" PRIu64 "\"\n", c->name,
		       total, c->name, total);
	else
		printf("model %-10s %6.1f ns CPU per frame (median of %u rounds"
		       " of %u frames; %.1f to %.1f): %.1f Mpps on a core of"
		       " its own\n", c->name, per_frame[r / 2], r, o->packets,
		       per_frame[0], per_frame[r - 1],
		       per_frame[r / 2] > 0 ? 1e3 / per_frame[r / 2] : 0);
	return 0;
}

int
bench_model_run(const struct bench_opts *o, struct bench_json *js)
{
	struct rte_mempool *pool;
	unsigned int i;
	int ret = 0;

	printf("\n== device model: cost per 64-byte frame (virtual clock,"
	       " CPU-bound, eMPW) ==\n");
	if (!bench_have_mlx5_tm()) {
		printf("model: mlx5-tm not linked in: skipped\n");
		return 0;
	}
	pool = rte_pktmbuf_pool_create("bench_model", MODEL_POOL_SIZE, 256, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	if (pool == NULL) {
		fprintf(stderr, "model: mbuf pool: %s\n",
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	bench_json_obj_begin(js, "model");
	for (i = 0; ret == 0 && i < RTE_DIM(model_cases); i++)
		ret = model_case_run(o, &model_cases[i], pool, js);
	bench_json_obj_end(js);
	rte_mempool_free(pool);
	return ret;
}
