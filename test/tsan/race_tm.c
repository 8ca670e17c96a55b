/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The concurrent paths, for ThreadSanitizer (make test-tsan): worker
 * lcores in rte_eth_tx_burst() on their own Tx queues while the main lcore
 * commits hierarchies, updates shapers and weights, suspends and resumes,
 * reads node stats, ethdev stats and xstats, asks telemetry (answered on
 * the telemetry thread), and makes the device fail WQEs (error CQEs the
 * PMD recovers from, on its alarm thread or when the main lcore calls
 * rte_pmd_mlx5_tm_recover(); statistics take no part); the workers post
 * WQEs naming an unregistered key now and then
 * (rte_pmd_mlx5_tm_txq_post_bad_lkey(), on the queue's own lcore). The device
 * model runs its realtime thread. Each worker has a mempool of its own, so
 * that no mbuf passes between threads through DPDK's (uninstrumented)
 * rings.
 *
 * The race verdict is ThreadSanitizer's: any report makes the process exit
 * non-zero. The cases below say that the concurrency happened.
 *
 * Usage: race_tm [EAL args] -- [--rounds N]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_tm.h>

#include "mlx5_emu.h"
#include "mlx5_tm_wqe.h"
#include "rte_pmd_mlx5_tm.h"
#include "tm_port.h"
#include "test_eal.h"

#define MAX_WORKERS 8
#define BURST 32
#define RING 512
#define ROOT_ID 100
#define GROUP_ID 101
#define N_PROFILES 4

static unsigned int passed, failed;

#define CASE(name, cond, ...) do { \
	if (cond) { \
		passed++; \
		printf("race/%s: PASSED\n", name); \
	} else { \
		failed++; \
		printf("race/%s: FAILED: ", name); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

struct worker {
	uint16_t port;
	uint16_t queue;
	struct rte_mempool *pool;
	uint64_t sent;
	uint64_t bursts;
	/* WQEs naming an unregistered key posted from this lcore. */
	uint64_t bad_posts;
	/*
	 * Set when the worker returns: rte_eal_wait_lcore() synchronises in
	 * the (uninstrumented) EAL, so the main lcore reads the counts after
	 * seeing this flag, an order ThreadSanitizer can see.
	 */
	atomic_bool done;
};

static atomic_bool stop;
static struct worker workers[MAX_WORKERS];

static int
worker_main(void *arg)
{
	struct worker *w = arg;
	struct rte_mbuf *pkts[BURST];
	uint16_t i, n;

	while (!atomic_load_explicit(&stop, memory_order_acquire)) {
		if (rte_pktmbuf_alloc_bulk(w->pool, pkts, BURST) != 0)
			continue;
		for (i = 0; i < BURST; i++) {
			char *d = rte_pktmbuf_append(pkts[i], 64);

			memset(d, 0, 64);
			d[0] = 0x02; /* locally administered unicast */
		}
		n = rte_eth_tx_burst(w->port, w->queue, pkts, BURST);
		if (n < BURST)
			rte_pktmbuf_free_bulk(pkts + n, BURST - n);
		w->sent += n;
		w->bursts++;
		/* A fault made on the datapath's own lcore, as the API
		 * asks: its recovery races the main lcore's changes. */
		if (w->bursts % 4096 == 0 &&
		    rte_pmd_mlx5_tm_txq_post_bad_lkey(w->port, w->queue) == 0)
			w->bad_posts++;
	}
	atomic_store_explicit(&w->done, true, memory_order_release);
	return 0;
}

/*
 * A second control thread: reads (node stats, ethdev stats, xstats) and
 * calls the driver refuses, reading each refusal's message, while the main
 * lcore changes the hierarchy.
 */
struct reader {
	uint16_t port;
	uint16_t nb_txq;
	unsigned int reads;
	unsigned int cmpl_reads;         /* completion evidence read */
	unsigned int refusals;
	size_t message_bytes;
};

static void *
reader_main(void *arg)
{
	struct reader *rd = arg;
	struct rte_pmd_mlx5_tm_txq_completions cc;
	struct rte_tm_node_stats st;
	struct rte_tm_error err;
	struct rte_eth_stats es;
	uint64_t mask;
	unsigned int i = 0;

	while (!atomic_load_explicit(&stop, memory_order_acquire)) {
		memset(&err, 0, sizeof(err));
		if (rte_tm_node_stats_read(rd->port, i % rd->nb_txq, &st,
					   &mask, 0, &err) == 0)
			rd->reads++;
		rte_eth_stats_get(rd->port, &es);
		/* The completion evidence, under the datapath's seqcount. */
		if (rte_pmd_mlx5_tm_txq_completions(rd->port, i % rd->nb_txq,
						    &cc) == 0)
			rd->cmpl_reads++;
		memset(&err, 0, sizeof(err));
		/* No node 4242: refused, with a message. */
		if (rte_tm_node_suspend(rd->port, 4242, &err) != 0) {
			rd->refusals++;
			if (err.message != NULL)
				rd->message_bytes += strlen(err.message);
		}
		i++;
		usleep(100);
	}
	return NULL;
}

static int
leaf_add(uint16_t port, uint32_t q, uint32_t prof, uint32_t weight)
{
	struct rte_tm_node_params np = tm_leaf_params(prof);

	return rte_tm_node_add(port, q, GROUP_ID, 0, weight,
			       RTE_TM_NODE_LEVEL_ID_ANY, &np, &terr);
}

static int
nonleaf_add(uint16_t port, uint32_t id, uint32_t parent)
{
	struct rte_tm_node_params np =
		tm_nonleaf_params(RTE_TM_SHAPER_PROFILE_ID_NONE);

	np.stats_mask = RTE_TM_STATS_N_PKTS | RTE_TM_STATS_N_BYTES;
	return rte_tm_node_add(port, id, parent, 0, 1,
			       RTE_TM_NODE_LEVEL_ID_ANY, &np, &terr);
}

/* Build and commit a hierarchy: root, a group, a leaf per queue. */
static int
build_commit(uint16_t port, uint16_t nb_txq, unsigned int round)
{
	uint16_t q;
	int ret;

	ret = nonleaf_add(port, ROOT_ID, RTE_TM_NODE_ID_NULL);
	if (ret == 0)
		ret = nonleaf_add(port, GROUP_ID, ROOT_ID);
	for (q = 0; ret == 0 && q < nb_txq; q++)
		ret = leaf_add(port, q, (q + round) % N_PROFILES, 1);
	if (ret == 0)
		ret = rte_tm_hierarchy_commit(port, 1, &terr);
	return ret;
}

/* Delete every node, leaves first: the hierarchy ends. */
static int
teardown(uint16_t port, uint16_t nb_txq)
{
	uint16_t q;
	int ret = 0;

	uint32_t ids[MAX_WORKERS + 2];
	unsigned int i, n = 0;

	for (q = 0; q < nb_txq; q++)
		ids[n++] = q;
	ids[n++] = GROUP_ID;
	ids[n++] = ROOT_ID;
	for (i = 0; i < n; i++) {
		if (rte_tm_node_delete(port, ids[i], &terr) == 0)
			continue;
		printf("delete node %u: %s\n", ids[i], tmsg());
		ret = -1;
	}
	return ret;
}

static uint64_t
xstat_sum(uint16_t port, const char *suffix)
{
	struct rte_eth_xstat_name names[256];
	struct rte_eth_xstat xs[256];
	uint64_t sum = 0;
	int n, i;

	n = rte_eth_xstats_get_names(port, names, RTE_DIM(names));
	if (n <= 0 || n > (int)RTE_DIM(names) ||
	    rte_eth_xstats_get(port, xs, RTE_DIM(xs)) != n)
		return 0;
	for (i = 0; i < n; i++) {
		size_t l = strlen(names[i].name), s = strlen(suffix);

		if (l >= s && strcmp(names[i].name + l - s, suffix) == 0)
			sum += xs[i].value;
	}
	return sum;
}

int
main(int argc, char **argv)
{
	struct rte_tm_shaper_params sp;
	struct rte_tm_node_stats st;
	struct rte_eth_stats es;
	struct mlx5_emu *emu;
	unsigned int rounds = 200, r, lcore, nb_workers = 0;
	unsigned int commits = 0, updates = 0, suspends = 0, tel = 0;
	unsigned int faults = 0;
	size_t refusal_bytes = 0;
	pthread_t reader_thread;
	bool reader_started;
	struct reader rd = { 0 };
	uint64_t mask, sent = 0, bad_posts = 0, recoveries;
	uint16_t port = 0, nb_txq, q;
	char name[RTE_MEMPOOL_NAMESIZE], cmd[64];
	static char reply[16384];
	int ret, i;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("EAL init failed\n0 passed, 1 failed\n");
		return 1;
	}
	for (i = ret + 1; i < argc; i++)
		if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
			rounds = (unsigned int)strtoul(argv[++i], NULL, 0);
	if (rte_eth_dev_count_avail() != 1 ||
	    rte_lcore_count() < 2) {
		printf("needs one net_mlx5_tm port and 2 lcores or more\n"
		       "0 passed, 1 failed\n");
		test_eal_cleanup();
		return 1;
	}
	nb_txq = (uint16_t)RTE_MIN(rte_lcore_count() - 1, (unsigned int)MAX_WORKERS);
	ret = tm_port_queues(port, nb_txq, RING);
	for (i = 0; ret == 0 && i < N_PROFILES; i++) {
		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = 125000ULL * 100 * (i + 1); /* 100..400 Mbit/s */
		ret = rte_tm_shaper_profile_add(port, i, &sp, &terr);
	}
	emu = rte_pmd_mlx5_tm_emu(port);
	if (ret != 0 || emu == NULL || rte_eth_dev_start(port) != 0) {
		printf("port set-up failed: %d %s\n0 passed, 1 failed\n", ret,
		       tmsg());
		test_eal_cleanup();
		return 1;
	}
	RTE_LCORE_FOREACH_WORKER(lcore) {
		struct worker *w;

		if (nb_workers == nb_txq)
			break;
		w = &workers[nb_workers];
		snprintf(name, sizeof(name), "race_%u", nb_workers);
		w->pool = rte_pktmbuf_pool_create(name, 2047, 0, 0,
						  RTE_MBUF_DEFAULT_BUF_SIZE,
						  rte_socket_id());
		w->port = port;
		w->queue = (uint16_t)nb_workers;
		if (w->pool == NULL)
			break;
		rte_eal_remote_launch(worker_main, w, lcore);
		nb_workers++;
	}
	rd.port = port;
	rd.nb_txq = nb_txq;
	reader_started = pthread_create(&reader_thread, NULL, reader_main,
					&rd) == 0;
	for (r = 0; r < rounds; r++) {
		q = (uint16_t)(r % nb_txq);
		if (r % 20 == 0) {
			if (r > 0 && teardown(port, nb_txq) != 0)
				printf("round %u: teardown: %s\n", r,
				       terr.message);
			if (build_commit(port, nb_txq, r) == 0)
				commits++;
			else
				printf("round %u: commit: %s\n", r,
				       terr.message);
		}
		if (rte_tm_node_shaper_update(port, q, (r + 1) % N_PROFILES,
					      &terr) == 0)
			updates++;
		/* A weight change (refused where weights are not honoured). */
		if (rte_tm_node_parent_update(port, q, GROUP_ID, 0,
					      1 + r % 4, &terr) == 0)
			updates++;
		/* A refusal: its message is read after the driver's lock. */
		if (rte_tm_node_resume(port, 4343, &terr) != 0 &&
		    terr.message != NULL)
			refusal_bytes += strlen(terr.message);
		if (rte_tm_node_suspend(port, r % 2 ? GROUP_ID : q,
					&terr) == 0) {
			suspends++;
			rte_tm_node_resume(port, r % 2 ? GROUP_ID : q, &terr);
		}
		rte_tm_node_stats_read(port, q, &st, &mask, r % 2, &terr);
		rte_tm_node_stats_read(port, GROUP_ID, &st, &mask, 0, &terr);
		rte_eth_stats_get(port, &es);
		rte_pmd_mlx5_tm_recover(port);
		xstat_sum(port, "_packets");
		snprintf(cmd, sizeof(cmd), "/ethdev/mlx5_tm/pacing,%u", port);
		tel += tm_telemetry_query(cmd, reply, sizeof(reply)) == 0;
		tel += tm_telemetry_query("/ethdev/xstats,0", reply,
					  sizeof(reply)) == 0;
		if (r % 10 == 5) {
			struct mlx5_emu_fault_wqe fw = {
				.sqn = 0, .nth = 1 + r % 7,
				.syndrome = MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
			};

			faults += mlx5_emu_fault_wqe(emu, &fw) == 0;
		}
		usleep(2000);
	}
	atomic_store_explicit(&stop, true, memory_order_release);
	if (reader_started)
		pthread_join(reader_thread, NULL);
	rte_eal_mp_wait_lcore();
	for (i = 0; i < (int)nb_workers; i++)
		while (!atomic_load_explicit(&workers[i].done,
					     memory_order_acquire))
			;
	/* Recoveries happen on the alarm or when asked for. */
	usleep(200000);
	rte_pmd_mlx5_tm_recover(port);
	recoveries = xstat_sum(port, "_recoveries");
	for (i = 0; i < (int)nb_workers; i++) {
		sent += workers[i].sent;
		bad_posts += workers[i].bad_posts;
	}
	printf("%u workers, %u rounds: %" PRIu64 " packets sent, %u commits, "
	       "%u live updates, %u suspends, %u telemetry replies, "
	       "%u WQE faults armed, %" PRIu64 " bad-lkey WQEs, %" PRIu64
	       " recoveries; reader: %u stats reads, %u refusals\n",
	       nb_workers, rounds, sent, commits, updates, suspends, tel,
	       faults, bad_posts, recoveries, rd.reads, rd.refusals);
	CASE("workers_sent", nb_workers == nb_txq && sent > 0,
	     "%u workers, %" PRIu64 " packets", nb_workers, sent);
	CASE("commits_during_traffic", commits == (rounds + 19) / 20,
	     "%u of %u commits", commits, (rounds + 19) / 20);
	CASE("live_updates_during_traffic", updates >= rounds &&
	     suspends > 0, "%u updates, %u suspends", updates, suspends);
	CASE("telemetry_during_traffic", tel == 2 * rounds,
	     "%u of %u replies", tel, 2 * rounds);
	CASE("concurrent_reader", reader_started && rd.reads > 0 && rd.refusals > 0 &&
	     rd.message_bytes > 0 && refusal_bytes > 0,
	     "%u reads, %u refusals", rd.reads, rd.refusals);
	CASE("completion_evidence_while_sending", rd.cmpl_reads > 0,
	     "%u reads of the completion evidence", rd.cmpl_reads);
	CASE("error_cqe_recovered", faults > 0 && recoveries > 0,
	     "%u faults armed, %" PRIu64 " recoveries", faults, recoveries);
	CASE("bad_lkey_posted_by_workers", bad_posts > 0,
	     "%" PRIu64 " WQEs naming an unregistered key", bad_posts);
	teardown(port, nb_txq);
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	for (i = 0; i < (int)nb_workers; i++)
		rte_mempool_free(workers[i].pool);
	test_eal_cleanup();
	printf("%u passed, %u failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
