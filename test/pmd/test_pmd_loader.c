/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Suite pmd_loader: the production driver and its device model are two
 * shared objects. This program links the driver only (as an application
 * on real hardware would) and checks that dev= neither loads the model
 * nor starts a thread, that a device-model devarg with dev= is refused
 * without loading it, and that emu= loads the model from beside the
 * driver, its device thread included, and gives the model's handle.
 */

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>

#include "mlx5_tm_glue.h"
#include "rte_pmd_mlx5_tm.h"
#include "test_eal.h"

static unsigned int n_pass, n_fail;

static void
check(bool ok, const char *what)
{
	if (ok) {
		n_pass++;
		printf("  ok: %s\n", what);
	} else {
		n_fail++;
		printf("  FAIL: %s\n", what);
	}
	fflush(stdout);
}

/* Path of the mapped object whose file name is @p name ("" if none). */
static void
mapped(const char *name, char *path, size_t len)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/self/maps", "r");

	path[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p = strchr(line, '/');
		char *base;

		if (p == NULL)
			continue;
		p[strcspn(p, "\n")] = '\0';
		base = strrchr(p, '/') + 1;
		if (strcmp(base, name) == 0) {
			snprintf(path, len, "%s", p);
			break;
		}
	}
	fclose(f);
}

static bool
model_loaded(void)
{
	char path[PATH_MAX];

	mapped(MLX5_TM_EMU_LIB, path, sizeof(path));
	return path[0] != '\0';
}

/* Threads of this process. */
static long
threads(void)
{
	char line[256];
	long n = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Threads: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static void
dir_of(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash != NULL)
		*slash = '\0';
}

int
main(int argc __rte_unused, char **argv)
{
	char *eal_argv[] = {
		argv[0], "--no-huge", "--no-pci", "-m", "256", "-l", "0",
		"--no-shconf", "--no-telemetry", "--log-level", "lib.eal:error",
		NULL,
	};
	char pmd[PATH_MAX], emu[PATH_MAX];
	long before;
	uint16_t port;
	int ret;

	if (rte_eal_init(RTE_DIM(eal_argv) - 1, eal_argv) < 0) {
		printf("EAL init failed: %s\n0 passed, 1 failed\n",
		       rte_strerror(rte_errno));
		return 1;
	}
	check(!model_loaded(), "EAL start-up: device model not loaded");

	printf("dev= (no ConnectX here: the probe fails)\n");
	before = threads();
	ret = rte_vdev_init("net_mlx5_tm0", "dev=mlx5_tm_no_such_device");
	check(ret < 0, "dev= on a missing device refused");
	check(!model_loaded(), "dev=: device model not loaded");
	check(threads() == before, "dev=: no thread started");
	ret = rte_vdev_init("net_mlx5_tm0",
			    "dev=mlx5_tm_no_such_device,clock=virtual");
	check(ret < 0, "dev= with a device-model devarg refused");
	check(!model_loaded(), "dev= with a device-model devarg: model not loaded");

	printf("emu= (realtime clock: a device thread)\n");
	before = threads();
	ret = rte_vdev_init("net_mlx5_tm0", "emu=cx6dx");
	check(ret == 0, "emu=cx6dx probes");
	mapped("librte_net_mlx5_tm.so", pmd, sizeof(pmd));
	mapped(MLX5_TM_EMU_LIB, emu, sizeof(emu));
	check(emu[0] != '\0', "emu=: device model loaded");
	dir_of(pmd);
	dir_of(emu);
	check(pmd[0] != '\0' && strcmp(pmd, emu) == 0,
	      "emu=: device model loaded from beside the driver");
	check(threads() == before + 1, "emu=: one device thread started");
	if (ret == 0 && rte_eth_dev_get_port_by_name("net_mlx5_tm0",
						     &port) == 0) {
		check(rte_pmd_mlx5_tm_emu(port) != NULL,
		      "rte_pmd_mlx5_tm_emu() gives the model's handle");
		rte_eth_dev_close(port);
		rte_vdev_uninit("net_mlx5_tm0");
		check(threads() == before, "close: device thread stopped");
	} else {
		check(false, "port of net_mlx5_tm0");
	}
	test_eal_cleanup();
	printf("%u passed, %u failed\n", n_pass, n_fail);
	return n_fail != 0;
}
