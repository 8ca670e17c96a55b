/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Helpers shared by the PMD test programs: the case harness (CHECK, run),
 * log capture, extended statistics.
 */

#ifndef PMD_TEST_UTIL_H
#define PMD_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ethdev.h>

/** The current case has passed every CHECK so far. */
extern bool test_ok;
/** Cases passed and failed so far. */
extern unsigned int n_pass, n_fail;
/** When not NULL, run() runs only the cases whose name contains it. */
extern const char *test_only;

/** Fail the current case (and say why) unless @p cond holds. */
#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("  FAIL %s:%d: %s: ", __func__, __LINE__, #cond); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		test_ok = false; \
	} \
} while (0)

/** Run case @p fn named @p name; count it passed or failed. */
void run(const char *name, void (*fn)(void));

/** What a program's main() sets up: the EAL, then an mbuf pool. */
struct pmd_test_env {
	const char *mem_mb;   /**< EAL -m */
	const char *lcores;   /**< EAL -l */
	const char *pmd_log;  /**< log level of pmd.net.mlx5_tm */
	const char *pool;     /**< name of the mbuf pool */
	unsigned int nb_mbufs;
	unsigned int cache;
	uint16_t data_room;
};

/**
 * Initialise the EAL of program @p prog (no hugepages, no PCI, no shared
 * config) and create the mbuf pool of @p env.
 *
 * @return
 *   The pool, or NULL after printing why and a failed closing line.
 */
struct rte_mempool *pmd_test_setup(char *prog,
				   const struct pmd_test_env *env);

/**
 * Free @p pool and the EAL, print the closing line "N passed, N failed".
 *
 * @return
 *   The exit status of the program.
 */
int pmd_test_report(struct rte_mempool *pool);

/** Send the EAL log to memory from now on. */
void log_capture_start(void);

/**
 * Give the EAL log back to stderr.
 *
 * @return
 *   What was logged since log_capture_start(), valid until the next call.
 */
const char *log_capture_stop(void);

/** Free what the log capture kept (at exit, for leak checkers). */
void log_capture_free(void);

/**
 * Read one extended statistic of a port by name.
 *
 * @return
 *   The value, or UINT64_MAX when the port has no such statistic or it
 *   cannot be read.
 */
static inline uint64_t
xstat(uint16_t port, const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(port, &id, &v, 1) != 1)
		return UINT64_MAX;
	return v;
}

#endif /* PMD_TEST_UTIL_H */
