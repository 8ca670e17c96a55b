/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Helpers shared by the PMD test programs (test_pmd, test_pmd_lifecycle). */

#ifndef PMD_TEST_UTIL_H
#define PMD_TEST_UTIL_H

#include <stdint.h>

#include <rte_ethdev.h>

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
