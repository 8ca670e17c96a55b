/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef CONFORM_MODEL_H
#define CONFORM_MODEL_H

/*
 * conform_model.c: the PMD's command builders (drivers/net/mlx5_tm/
 * mlx5_tm_devx.c) on a conform_dev, and the fields our layouts name
 * where upstream's reserve the bits.
 */

#include <stdbool.h>
#include <stdint.h>

#include "conform.h"
#include "conform_upstream.h"

/** The PMD's capability reader (QUERY_HCA_CAP, QUERY_NIC_VPORT_CONTEXT). */
int ours_caps_read(struct conform_dev *d);

/* The PMD's builders; each returns a struct mlx5_tm_devx_obj or NULL. */
void *ours_create_td(struct conform_dev *d, uint32_t *tdn);
void *ours_create_tis(struct conform_dev *d, uint32_t tdn, uint32_t *tisn);
void *ours_create_cq(struct conform_dev *d, const struct conform_txq_attr *a,
		     uint32_t *cqn);
/** sqc.ts_format the PMD puts in CREATE_SQ for a device's sq_ts_format. */
uint8_t ours_sq_ts_format(uint8_t cap);

void *ours_create_sq(struct conform_dev *d, const struct conform_txq_attr *a,
		     uint32_t *sqn);
int ours_modify_sq(struct conform_dev *d, void *sq, uint32_t sqn,
		   uint8_t from, uint8_t to, bool set_pp, uint16_t pp_index);
/** The PMD's QUERY_SQ: the SQ's state or a negative errno. */
int ours_sq_state(struct conform_dev *d, void *sq, uint32_t sqn);

/* The PMD's scheduling-element builders (mlx5_tm_devx_sched.c). */
void *ours_sched_create(struct conform_dev *d, uint8_t type, uint32_t parent,
			uint32_t bw_share, uint32_t max_bw, uint32_t *id);
int ours_sched_modify(struct conform_dev *d, void *obj, uint32_t id,
		      uint8_t type, uint32_t mask, uint32_t bw_share,
		      uint32_t max_bw);
int ours_sched_query(struct conform_dev *d, void *obj, uint32_t id,
		     uint8_t *type, uint32_t *parent, uint32_t *bw_share,
		     uint32_t *max_bw);
int ours_sched_destroy(struct conform_dev *d, void *obj, uint32_t id);

/*
 * QUERY_SQ / QUERY_CQ of a glue object, read with our layouts: DPDK 22.11
 * has neither command (nor their layouts) upstream.
 */
int ours_query_sq(void *obj, uint32_t sqn, struct up_sq_ctx *c);
int ours_query_cq(void *obj, uint32_t cqn, struct up_cq_ctx *c);

/**
 * Fields our layout (mlx5_tm_prm.h) names inside @p opcode's input where
 * upstream's layout has reserved bits; *n gets their number.
 */
const struct up_field *ours_extra_fields(uint16_t opcode, size_t *n);

#endif /* CONFORM_MODEL_H */
