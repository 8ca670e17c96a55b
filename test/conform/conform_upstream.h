/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef CONFORM_UPSTREAM_H
#define CONFORM_UPSTREAM_H

/*
 * conform_upstream.c: upstream mlx5 (librte_common_mlx5 of DPDK 22.11)
 * behind plain types, for the cases in test_conform.c.
 */

#include <stddef.h>
#include <stdint.h>

#include "conform.h"

/** What mlx5_devx_cmd_query_hca_attr() read, plus raw capability fields. */
struct up_hca {
	int ret;                  /**< Its return value. */
	uint16_t failed_opcode;   /**< First command it sent that failed. */
	uint16_t failed_op_mod;
	uint16_t op_mods[16];     /**< QUERY_HCA_CAP op_mods it sent. */
	unsigned int nb_op_mods;
	/* struct mlx5_hca_attr */
	uint32_t qos_sup, packet_pacing, wqe_rate_pp;
	uint32_t log_max_cq, log_max_cq_sz, log_max_wq_sz, log_max_pd;
	uint32_t wqe_inline_mode, vport_inline_mode, eth_virt;
	uint32_t eth_net_offloads, sq_ts_format, dev_freq_khz, max_wqe_sz_sq;
	uint32_t wqe_vlan_insert, csum_cap, vlan_cap, lro_cap, max_lso_cap;
	uint32_t swp, roce;
	/* Read from the answers with upstream's layouts (not parsed). */
	uint32_t log_max_sq, cqe_version, port_type, log_max_tis_per_sq;
	uint32_t pp_burst_bound, pp_typical_size;
	uint32_t pp_max_rate, pp_min_rate, pp_table_size;
};

/** Run mlx5_devx_cmd_query_hca_attr() on @p d; its return value. */
int up_query_hca_attr(struct conform_dev *d, struct up_hca *h);

/* Objects through upstream's builders: a struct mlx5_devx_obj, or NULL. */
void *up_create_td(struct conform_dev *d, uint32_t *id);
void *up_create_tis(struct conform_dev *d, uint32_t tdn, uint8_t prio,
		    uint32_t *id);
void *up_create_cq(struct conform_dev *d, const struct conform_txq_attr *a,
		   uint32_t *id);
void *up_create_sq(struct conform_dev *d, const struct conform_txq_attr *a,
		   uint32_t *id);
/** mlx5_devx_cmd_modify_sq(): 0 or a negative errno. */
int up_modify_sq(void *sq, uint8_t from, uint8_t to);
/** The kernel's pacing-index change, in upstream's layouts. */
int up_modify_sq_rate(void *sq, uint16_t pp_index);
/** mlx5_devx_cmd_destroy(). */
int up_destroy(void *obj);

/* mlx5_devx_cq_create() / mlx5_devx_sq_create() and their destroys. */
struct up_cq;
struct up_sq;
struct up_cq *up_cq_create_full(struct conform_dev *d, uint16_t log_desc_n,
				uint32_t *cqn);
void up_cq_destroy_full(struct up_cq *c);
void *up_cq_obj(struct up_cq *c);
struct up_sq *up_sq_create_full(struct conform_dev *d,
				const struct conform_txq_attr *a,
				void **obj, uint32_t *sqn);
void up_sq_destroy_full(struct up_sq *s);

/** The glue object (struct mlx5_tm_devx_obj) inside an upstream object. */
void *up_glue_obj(void *devx_obj);

/** sqc fields of a QUERY_SQ answer. */
struct up_sq_ctx {
	uint32_t state, ts_format, min_wqe_inline_mode, flush_in_error_en;
	uint32_t user_index, cqn, tis_num_0, pp_index;
	uint32_t pd, uar_page, log_wq_sz, log_wq_stride;
	uint64_t dbr_addr;
};

/** cqc fields of a QUERY_CQ answer. */
struct up_cq_ctx {
	uint32_t log_cq_size, cqe_sz, uar_page, c_eqn, oi;
	uint64_t dbr_addr;
};

/** tisc fields of a QUERY_TIS answer. */
struct up_tis_ctx {
	uint32_t transport_domain, prio;
};

int up_query_tis(void *tis, struct up_tis_ctx *c);

/** A data-rate pacing entry, its context built with upstream's layout. */
struct mlx5_tm_pp *up_pp_alloc(struct conform_dev *d, uint32_t rate_kbps);

/** Upstream's mlx5_ts_format_conv(): sqc.ts_format for a sq_ts_format. */
uint8_t up_ts_format_conv(uint32_t sq_ts_format);

/** A named field of a PRM layout: bit offset and width. */
struct up_field {
	const char *name;
	uint32_t off;
	uint32_t sz;
};

/** The input layout of a command, as upstream's mlx5_prm.h names it. */
struct up_cmd_layout {
	uint16_t opcode;
	const char *name;
	size_t in_sz;                 /**< Bytes. */
	const struct up_field *fields;
	size_t nb_fields;
};

/** The layout of @p opcode's input, NULL if not listed. */
const struct up_cmd_layout *up_cmd_layout(uint16_t opcode);

#endif /* CONFORM_UPSTREAM_H */
