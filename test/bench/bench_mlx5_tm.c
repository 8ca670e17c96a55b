/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The mlx5-tm ports of the benchmark: vdevs created at run time on the
 * device model in virtual-clock mode, so that the device works only when
 * the benchmark lets it, outside the measured regions.
 */

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_bus_vdev.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "bench.h"

#ifdef BENCH_HAVE_MLX5_TM
#include <rte_pmd_mlx5_tm.h>
#include <mlx5_emu.h>
#endif
#ifdef BENCH_HAVE_CALLGRIND
#include <valgrind/valgrind.h>
#endif

bool
bench_have_mlx5_tm(void)
{
#ifdef BENCH_HAVE_MLX5_TM
	return true;
#else
	return false;
#endif
}

#ifdef BENCH_HAVE_MLX5_TM

/* Device-model profile of the ports created (--profile). */
static char bench_profile[16] = "cx6dx";

int
bench_mlx5_tm_create(const char *tag, const char *extra, uint16_t *port_id)
{
	char name[64], args[256];
	int ret;

	snprintf(name, sizeof(name), "net_mlx5_tm_%s", tag);
	snprintf(args, sizeof(args), "emu=%s,clock=virtual%s%s", bench_profile,
		 (extra != NULL && extra[0] != '\0') ? "," : "",
		 extra != NULL ? extra : "");
	ret = rte_vdev_init(name, args);
	if (ret < 0) {
		fprintf(stderr, "cannot create %s,%s: %s\n", name, args,
			strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_get_port_by_name(name, port_id);
	if (ret != 0) {
		rte_vdev_uninit(name);
		return ret;
	}
	/* The benchmark drives device time (drain): take the model. */
	rte_pmd_mlx5_tm_emu(*port_id);
	return 0;
}

void
bench_mlx5_tm_set_profile(const char *profile)
{
	snprintf(bench_profile, sizeof(bench_profile), "%s", profile);
}

uint32_t
bench_mlx5_tm_table_size(void)
{
	struct mlx5_emu_caps caps;
	struct mlx5_emu *emu;
	uint32_t size = 0;
	uint16_t port;

	if (bench_mlx5_tm_create("caps", "", &port) != 0)
		return 0;
	emu = rte_pmd_mlx5_tm_emu(port);
	if (emu != NULL) {
		mlx5_emu_get_caps(emu, &caps);
		/* Index 0 is "unlimited": N - 1 usable entries. */
		size = caps.pp_table_size > 0 ? caps.pp_table_size - 1u : 0;
	}
	bench_mlx5_tm_destroy(port);
	return size;
}

int
bench_mlx5_tm_port(const char *tag, uint16_t nb_txq, uint16_t nb_desc,
		   uint16_t *port_id)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	ret = bench_mlx5_tm_create(tag, "", port_id);
	if (ret != 0)
		return ret;
	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(*port_id, 0, nb_txq, &conf);
	for (q = 0; ret == 0 && q < nb_txq; q++)
		ret = rte_eth_tx_queue_setup(*port_id, q, nb_desc,
					     rte_eth_dev_socket_id(*port_id),
					     NULL);
	if (ret != 0) {
		fprintf(stderr, "port %s with %u Tx queues: %s\n", tag,
			nb_txq, strerror(-ret));
		bench_mlx5_tm_destroy(*port_id);
	}
	return ret;
}

/* A port stop handed to the EAL interrupt thread. */
struct stop_call {
	uint16_t port_id;
	bool done;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void
stop_in_intr_thread(void *arg)
{
	struct stop_call *c = arg;

	rte_eth_dev_stop(c->port_id);
	pthread_mutex_lock(&c->lock);
	c->done = true;
	pthread_cond_signal(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

static bool
under_valgrind(void)
{
#ifdef BENCH_HAVE_CALLGRIND
	return RUNNING_ON_VALGRIND;
#else
	return false;
#endif
}

/*
 * Under valgrind, stop in the EAL interrupt thread, the caller blocked
 * meanwhile. The PMD's stop cancels its recovery alarm, and the EAL's
 * cancel spins, never yielding, while that alarm's callback is being run
 * in the interrupt thread; valgrind runs one thread at a time, and the
 * spinning thread then keeps the interrupt thread from finishing the
 * callback, for good (doc/guides/benchmarks.rst). Run in the interrupt
 * thread, the cancel finds the alarm pending, not running, and does not
 * spin. Not done otherwise: memory freed in another thread goes to that
 * thread's cache, which would change the memory figures.
 */
static void
stop_port(uint16_t port_id)
{
	struct stop_call c = {
		.port_id = port_id,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	int ret;

	if (!under_valgrind()) {
		rte_eth_dev_stop(port_id);
		return;
	}
	ret = rte_eal_alarm_set(1, stop_in_intr_thread, &c);
	if (ret != 0) {
		fprintf(stderr, "port %u: cannot hand the stop to the EAL"
			" interrupt thread (%s), stopping here\n", port_id,
			strerror(-ret));
		rte_eth_dev_stop(port_id);
		return;
	}
	pthread_mutex_lock(&c.lock);
	while (!c.done)
		pthread_cond_wait(&c.cond, &c.lock);
	pthread_mutex_unlock(&c.lock);
}

void
bench_mlx5_tm_destroy(uint16_t port_id)
{
	char name[RTE_ETH_NAME_MAX_LEN];

	if (rte_eth_dev_get_name_by_port(port_id, name) != 0)
		return;
	stop_port(port_id);
	rte_eth_dev_close(port_id);
	rte_vdev_uninit(name);
}

void
bench_mlx5_tm_drain(uint16_t port_id)
{
	struct mlx5_emu *emu = rte_pmd_mlx5_tm_emu(port_id);

	if (emu != NULL)
		mlx5_emu_drain(emu);
}

int
bench_mlx5_tm_wire(uint16_t port_id, uint64_t *packets, uint64_t *error_cqes)
{
	struct mlx5_emu *emu = rte_pmd_mlx5_tm_emu(port_id);
	struct mlx5_emu_port_stats st;

	if (emu == NULL)
		return -ENODEV;
	mlx5_emu_get_port_stats(emu, &st);
	*packets = st.packets;
	*error_cqes = st.error_cqes;
	return 0;
}

bool
bench_mlx5_tm_cmd_stats(uint16_t port_id __rte_unused, uint64_t *count,
			uint64_t *ns)
{
#ifdef BENCH_HAVE_EMU_CMD_STATS
	struct mlx5_emu *emu = rte_pmd_mlx5_tm_emu(port_id);

	if (emu == NULL)
		return false;
	mlx5_emu_cmd_stats(emu, count, ns);
	return true;
#else
	*count = 0;
	*ns = 0;
	return false;
#endif
}

#else /* !BENCH_HAVE_MLX5_TM */

void
bench_mlx5_tm_set_profile(const char *profile __rte_unused)
{
}

uint32_t
bench_mlx5_tm_table_size(void)
{
	return 0;
}

int
bench_mlx5_tm_port(const char *tag __rte_unused, uint16_t nb_txq __rte_unused,
		   uint16_t nb_desc __rte_unused,
		   uint16_t *port_id __rte_unused)
{
	return -ENOTSUP;
}

int
bench_mlx5_tm_create(const char *tag __rte_unused,
		     const char *extra __rte_unused,
		     uint16_t *port_id __rte_unused)
{
	return -ENOTSUP;
}

void
bench_mlx5_tm_destroy(uint16_t port_id __rte_unused)
{
}

void
bench_mlx5_tm_drain(uint16_t port_id __rte_unused)
{
}

bool
bench_mlx5_tm_cmd_stats(uint16_t port_id __rte_unused, uint64_t *count,
			uint64_t *ns)
{
	*count = 0;
	*ns = 0;
	return false;
}

int
bench_mlx5_tm_wire(uint16_t port_id __rte_unused, uint64_t *packets,
		   uint64_t *error_cqes)
{
	*packets = 0;
	*error_cqes = 0;
	return -ENOTSUP;
}

#endif /* BENCH_HAVE_MLX5_TM */
