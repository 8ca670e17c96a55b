/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TEST_EAL_H
#define TEST_EAL_H

/*
 * The end of a test program's EAL: rte_eal_cleanup(), then its runtime
 * directory (/var/run/dpdk/<prefix>, or $XDG_RUNTIME_DIR/dpdk/<prefix>),
 * which DPDK 22.11 leaves behind; a primary's only (a secondary shares
 * its primary's, which still runs). The suites run EAL with --no-shconf,
 * so the directory holds at most the telemetry sockets, which telemetry
 * would unlink only at exit (atexit), after this. Under the default
 * prefix "rte", which any DPDK program may be using, the sockets may be
 * another process's: they are left, and so is the directory while it
 * holds anything.
 */

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

static inline int
test_eal_cleanup(void)
{
	static const char *const sockets[] = { "dpdk_telemetry.v2",
					       "telemetry" };
	char dir[PATH_MAX], path[PATH_MAX + 32];
	const char *prefix;
	unsigned int i;
	int ret;

	/* A secondary's runtime directory is its primary's. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return rte_eal_cleanup();
	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	ret = rte_eal_cleanup();
	if (dir[0] == '\0')
		return ret;
	prefix = strrchr(dir, '/');
	prefix = prefix != NULL ? prefix + 1 : dir;
	for (i = 0; strcmp(prefix, "rte") != 0 &&
	     i < sizeof(sockets) / sizeof(sockets[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sockets[i]);
		unlink(path);
	}
	rmdir(dir);
	return ret;
}

#endif /* TEST_EAL_H */
