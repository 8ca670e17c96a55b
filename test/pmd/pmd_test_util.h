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
