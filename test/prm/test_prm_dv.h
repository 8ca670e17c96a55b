/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TEST_PRM_DV_H
#define TEST_PRM_DV_H

#include <stddef.h>

/* A named offset, size or constant value. */
struct prm_dv_fact {
	const char *name;
	unsigned long long value;
};

/* The facts as rdma-core's <infiniband/mlx5dv.h> defines them. */
extern const struct prm_dv_fact prm_dv_facts[];
extern const size_t prm_dv_facts_n;

#endif /* TEST_PRM_DV_H */
