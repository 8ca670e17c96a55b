/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The driver with dev= in process, on the stand-in (LD_PRELOAD of
 * libmlx5_tm_standin.so; run.py lays out the sysfs tree and says what
 * devlink answers), for what a tool's output does not show:
 *
 *   standin_probe EAL_ARGS -- probe
 *     "ports N", then for port 0 its devlink mode and phys_port_name;
 *     the driver's warnings and refusals go to stderr as logged.
 *   standin_probe EAL_ARGS -- link N
 *     starts port 0 with one Tx queue, calls rte_eth_link_get() N times
 *     and prints the stand-in's socket, netlink and devlink counters
 *     before and after, and the cost of one call (mean, p99; a figure,
 *     never a verdict).
 *   standin_probe EAL_ARGS -- mtu M
 *     rte_eth_dev_set_mtu(port 0, M) and the MTU read back.
 *
 * Prints "error: ..." and exits 1 when a step fails.
 */

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "rte_pmd_mlx5_tm.h"

typedef void (*counts_fn)(unsigned int *, unsigned int *, unsigned int *,
			  unsigned int *);

struct counts {
	unsigned int netlink, devlink, inet, ioctls;
};

static int
counts(struct counts *c)
{
	counts_fn fn = (counts_fn)(uintptr_t)dlsym(RTLD_DEFAULT,
						   "mlx5_tm_standin_counts");

	if (fn == NULL)
		return -1;
	fn(&c->netlink, &c->devlink, &c->inet, &c->ioctls);
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int
start_port(void)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(0, 0, 1, &conf);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(0, 0, 256, rte_socket_id(), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(0);
	if (ret != 0)
		printf("error: port 0 cannot start: %s\n", rte_strerror(-ret));
	return ret;
}

static int
link_loop(unsigned int n)
{
	struct rte_eth_link link;
	struct counts a, b;
	uint64_t *t, sum = 0;
	unsigned int i;

	if (start_port() != 0)
		return 1;
	t = calloc(n, sizeof(*t));
	if (t == NULL || counts(&a) != 0) {
		printf("error: no stand-in counters (LD_PRELOAD?)\n");
		free(t);
		return 1;
	}
	for (i = 0; i < n; i++) {
		uint64_t t0 = now_ns();

		rte_eth_link_get(0, &link);
		t[i] = now_ns() - t0;
		sum += t[i];
	}
	counts(&b);
	qsort(t, n, sizeof(*t), cmp_u64);
	printf("link %s %u Mbit/s\n", link.link_status ? "up" : "down",
	       link.link_speed);
	printf("netlink_sockets %u devlink_queries %u inet_sockets %u "
	       "ioctls %u\n", b.netlink - a.netlink, b.devlink - a.devlink,
	       b.inet - a.inet, b.ioctls - a.ioctls);
	printf("rte_eth_link_get: %u calls, mean %.2f us, p99 %.2f us\n", n,
	       (double)sum / n / 1000.0,
	       (double)t[(size_t)((n - 1) * 0.99)] / 1000.0);
	free(t);
	rte_eth_dev_stop(0);
	return 0;
}

static int
set_mtu(uint16_t mtu)
{
	uint16_t got = 0;
	int ret;

	if (start_port() != 0)
		return 1;
	ret = rte_eth_dev_set_mtu(0, mtu);
	rte_eth_dev_get_mtu(0, &got);
	printf("set_mtu %u: %d, mtu %u\n", mtu, ret, got);
	rte_eth_dev_stop(0);
	return 0;
}

int
main(int argc, char **argv)
{
	struct rte_pmd_mlx5_tm_dev_info info;
	int ret, n, rc = 0;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("error: EAL: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	n = rte_eth_dev_count_avail();
	printf("ports %d\n", n);
	if (n > 0 && rte_pmd_mlx5_tm_dev_info(0, &info) == 0)
		printf("esw_mode %d phys_port_name '%s'\n", info.esw_mode,
		       info.phys_port_name);
	if (argc >= 3 && n > 0 && strcmp(argv[1], "link") == 0)
		rc = link_loop((unsigned int)atoi(argv[2]));
	else if (argc >= 3 && n > 0 && strcmp(argv[1], "mtu") == 0)
		rc = set_mtu((uint16_t)atoi(argv[2]));
	if (n > 0)
		rte_eth_dev_close(0);
	rte_eal_cleanup();
	return rc;
}
