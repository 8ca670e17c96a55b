/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef CONFORM_RDMA_H
#define CONFORM_RDMA_H

/*
 * conform_rdma.c: scheduling elements in rdma-core's layouts
 * (providers/mlx5/mlx5_ifc.h of Debian's rdma-core source package, which
 * scripts/setup.sh extracts into deps/rdma-core): the general-object
 * commands as libmlx5's mlx5dv_sched_node_*()/mlx5dv_sched_leaf_*() fill
 * them, and the fields of those layouts by name. Without the header (not
 * fetched) the part reports why and the comparisons count as skipped.
 * Plain C types only: the layouts stay in conform_rdma.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The four commands of an element. */
enum rdma_sched_cmd {
	RDMA_SCHED_CREATE,  /**< CREATE_GENERAL_OBJECT, create_sched_elem_in. */
	RDMA_SCHED_MODIFY,  /**< MODIFY_GENERAL_OBJECT, the same layout. */
	RDMA_SCHED_QUERY,   /**< QUERY_GENERAL_OBJECT, the header. */
	RDMA_SCHED_DESTROY, /**< DESTROY_GENERAL_OBJECT, the header. */
};

/** An element as mlx5dv_sched_attr describes it. */
struct rdma_sched_attr {
	uint8_t element_type; /**< 0 TSAR, 4 queue group. */
	uint32_t parent_id;   /**< 0: the device root. */
	uint32_t flags;       /**< Bit 0 bw_share, bit 1 max_avg_bw. */
	uint32_t bw_share;
	uint32_t max_avg_bw;
};

/** Whether rdma-core's layouts were found; else why not in @p why. */
bool rdma_ifc_present(const char **why);

/** Input length of @p cmd in rdma-core's layout. */
size_t rdma_sched_in_size(enum rdma_sched_cmd cmd);

/** Output length of a query in rdma-core's layouts (header + sched_elem). */
size_t rdma_sched_query_out_size(void);

/**
 * Build @p cmd on element @p id into @p buf (at least its input length)
 * as libmlx5 does; @return the length.
 */
size_t rdma_sched_build(enum rdma_sched_cmd cmd, uint32_t id,
			const struct rdma_sched_attr *a, void *buf);

/**
 * Compare @p ours with @p theirs, both of @p cmd, in rdma-core's layout:
 * the names of the fields that differ, space-separated, in @p names
 * ("other bits" for bits outside the named fields).
 * @return how many differ (0: the same buffer).
 */
unsigned int rdma_sched_diff(enum rdma_sched_cmd cmd, const void *ours,
			     const void *theirs, char *names, size_t len);

/** Opcode, obj_type and obj_id of a general-object input @p in. */
void rdma_hdr_read(const void *in, uint16_t *opcode, uint16_t *obj_type,
		   uint32_t *obj_id);

/** obj_id of a general-object output header. */
uint32_t rdma_out_obj_id(const void *out);

/** The element a query answer holds, read with rdma-core's layouts. */
void rdma_query_read(const void *out, struct rdma_sched_attr *a,
		     uint8_t *hierarchy);

/** Flip every bit of field @p field (a name of rdma_sched_diff) in @p buf. */
bool rdma_sched_mutate(enum rdma_sched_cmd cmd, void *buf,
		       const char *field);

#endif /* CONFORM_RDMA_H */
