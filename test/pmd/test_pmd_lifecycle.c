/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * One net_mlx5_tm port's whole life, small enough to run under valgrind
 * memcheck (test/pmd/suites.txt, suite pmd_memcheck): probe, configure,
 * start, a few thousand packets (one and two segments) on two queues with
 * a live queue rate limit, stop/start cycles with packets left posted,
 * reconfigure, close, remove. Memcheck judges the C heap (device model,
 * glue); rte_malloc memory is invisible to it, so this program checks that
 * a second life leaves the rte_malloc heap exactly as the first left it
 * (the first creates what ethdev keeps for good), and that every device
 * object and mbuf comes back.
 */

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "mlx5_emu.h"
#include "rte_pmd_mlx5_tm.h"

#include "pmd_test_util.h"
#include "test_eal.h"

#define PORT_NAME "net_mlx5_tm0"
#define NB_TXQ 2
#define RING 256
#define POOL_SZ 1023
#define BURST 16

/* One check of the running case (run()): it fails the case. */
static void
check(bool ok, const char *what)
{
	if (!ok) {
		test_ok = false;
		printf("  FAIL: %s\n", what);
	}
	fflush(stdout);
}

/* The mbuf pool and the rte_malloc heap after each life, for the cases. */
static struct rte_mempool *life_pool;
static struct rte_malloc_socket_stats heap_after[2];

static void lifecycle(struct rte_mempool *pool);

static void
first_life(void)
{
	lifecycle(life_pool);
	rte_malloc_get_socket_stats(0, &heap_after[0]);
}

static void
second_life(void)
{
	lifecycle(life_pool);
	rte_malloc_get_socket_stats(0, &heap_after[1]);
}

static void
second_life_heap(void)
{
	const struct rte_malloc_socket_stats *first = &heap_after[0];
	const struct rte_malloc_socket_stats *second = &heap_after[1];

	check(second->alloc_count == first->alloc_count &&
	      second->heap_allocsz_bytes == first->heap_allocsz_bytes,
	      "second life leaves the rte_malloc heap as it was");
	if (second->alloc_count != first->alloc_count)
		printf("  rte_malloc: %u blocks, %zu bytes after the first life; %u, %zu after the second\n",
		       first->alloc_count, first->heap_allocsz_bytes,
		       second->alloc_count, second->heap_allocsz_bytes);
}

/* A frame of @p len bytes in one or two segments. */
static struct rte_mbuf *
make_packet(struct rte_mempool *pool, uint16_t len, bool two_segs)
{
	uint16_t first = two_segs ? len / 2 : len;
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool), *tail;
	char *d;

	if (m == NULL)
		return NULL;
	d = rte_pktmbuf_append(m, first);
	memset(d, 0xa5, first);
	memset(d, 0xff, 6);	/* Broadcast destination. */
	if (!two_segs)
		return m;
	tail = rte_pktmbuf_alloc(pool);
	if (tail == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memset(rte_pktmbuf_append(tail, len - first), 0x5a, len - first);
	if (rte_pktmbuf_chain(m, tail) != 0) {
		rte_pktmbuf_free(m);
		rte_pktmbuf_free(tail);
		return NULL;
	}
	return m;
}

/*
 * Post @p n packets on queue @p q; with @p drain, move virtual time until
 * the device has sent them. Returns how many were posted.
 */
static unsigned int
send_packets(uint16_t port, uint16_t q, struct rte_mempool *pool,
	     struct mlx5_emu *emu, unsigned int n, bool drain)
{
	unsigned int sent = 0, stalls = 0;

	while (sent < n && stalls < 10000) {
		struct rte_mbuf *pkts[BURST];
		unsigned int k, want = RTE_MIN(n - sent, (unsigned int)BURST);
		uint16_t done;

		for (k = 0; k < want; k++) {
			pkts[k] = make_packet(pool, 64 + (sent + k) % 900,
					      (sent + k) % 3 == 0);
			if (pkts[k] == NULL)
				break;
		}
		done = rte_eth_tx_burst(port, q, pkts, k);
		rte_pktmbuf_free_bulk(pkts + done, k - done);
		sent += done;
		if (done < want) {
			/* Ring or pool full: let the device catch up. */
			stalls++;
			mlx5_emu_advance(emu, 10000);
			rte_eth_tx_done_cleanup(port, q, 0);
		}
	}
	if (drain)
		mlx5_emu_drain(emu);
	return sent;
}

static int
setup_queues(uint16_t port, uint16_t nb_txq)
{
	struct rte_eth_conf conf = {
		.txmode = { .offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS },
	};
	uint16_t q;
	int ret;

	ret = rte_eth_dev_configure(port, 0, nb_txq, &conf);
	for (q = 0; ret == 0 && q < nb_txq; q++)
		ret = rte_eth_tx_queue_setup(port, q, RING, SOCKET_ID_ANY,
					     NULL);
	return ret;
}

static void
lifecycle(struct rte_mempool *pool)
{
	struct mlx5_emu *emu;
	uint32_t sqns[NB_TXQ + 1];
	uint16_t port, q;
	int cycle;

	if (rte_vdev_init(PORT_NAME, "emu=cx6dx,clock=virtual") != 0 ||
	    rte_eth_dev_get_port_by_name(PORT_NAME, &port) != 0) {
		check(false, "probe");
		return;
	}
	emu = rte_pmd_mlx5_tm_emu(port);
	check(emu != NULL, "device model behind the port");
	check(setup_queues(port, NB_TXQ) == 0, "configure");
	check(rte_eth_dev_start(port) == 0, "start");
	check(rte_eth_set_queue_rate_limit(port, 1, 1000) == 0,
	      "queue rate limit on a started port");
	for (q = 0; q < NB_TXQ; q++)
		check(send_packets(port, q, pool, emu, 1500, true) == 1500,
		      "1500 packets posted");
	check(xstat(port, "tx_q0_wire_packets") == 1500 &&
	      xstat(port, "tx_q1_wire_packets") == 1500,
	      "every packet on the wire");
	for (cycle = 0; cycle < 3; cycle++) {
		check(rte_eth_dev_stop(port) == 0, "stop");
		check(mlx5_emu_sq_list(emu, sqns, RTE_DIM(sqns)) == 0,
		      "no SQ left after stop");
		check(rte_mempool_in_use_count(pool) == 0,
		      "stop frees every posted mbuf");
		check(rte_eth_dev_start(port) == 0, "restart");
		/* Left posted: the next stop must free them. */
		check(send_packets(port, cycle % NB_TXQ, pool, emu, 100,
				   false) == 100, "100 packets posted");
	}
	check(rte_eth_dev_stop(port) == 0, "stop");
	check(setup_queues(port, 1) == 0, "reconfigure with one queue");
	check(rte_eth_dev_start(port) == 0, "start with one queue");
	check(send_packets(port, 0, pool, emu, 200, true) == 200,
	      "200 packets posted");
	check(rte_eth_dev_stop(port) == 0, "stop");
	check(rte_mempool_in_use_count(pool) == 0, "no mbuf left");
	check(rte_eth_dev_close(port) == 0, "close");
	check(rte_pmd_mlx5_tm_emu(port) == NULL, "device model released");
	check(rte_vdev_uninit(PORT_NAME) == 0, "remove");
}

int
main(int argc __rte_unused, char **argv)
{
	char *eal_argv[] = {
		argv[0], "--no-huge", "--no-pci", "-m", "256", "-l", "0",
		"--no-shconf", "--no-telemetry", "--log-level", "lib.eal:error",
		"--log-level", "pmd.net.mlx5_tm:notice", NULL,
	};

	if (rte_eal_init(RTE_DIM(eal_argv) - 1, eal_argv) < 0) {
		printf("EAL init failed: %s\n0 passed, 1 failed\n",
		       rte_strerror(rte_errno));
		return 1;
	}
	life_pool = rte_pktmbuf_pool_create("lifecycle", POOL_SZ, 0, 0,
					    RTE_MBUF_DEFAULT_BUF_SIZE,
					    SOCKET_ID_ANY);
	if (life_pool == NULL) {
		printf("  FAIL: mbuf pool\n");
		n_fail++;
	} else {
		run("first life: every object and mbuf comes back", first_life);
		run("second life: the same", second_life);
		run("second life leaves the rte_malloc heap as it was",
		    second_life_heap);
	}
	rte_mempool_free(life_pool);
	test_eal_cleanup();
	printf("%u passed, %u failed\n", n_pass, n_fail);
	return n_fail == 0 ? 0 : 1;
}
