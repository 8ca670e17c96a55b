/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef CONFORM_H
#define CONFORM_H

/*
 * Conformance suite: upstream mlx5 (Debian's librte_common_mlx5) against
 * the device model and the PMD's command builders.
 *
 * Four parts, split by the layout headers they include: DPDK's mlx5_prm.h
 * and ours (mlx5_tm_prm.h) define the same names, so no file sees both.
 * - conform_glue.c: a recording glue over mlx5_tm_glue_emu (no layouts);
 * - conform_upstream.c: upstream's builders, parsers and PRM layouts;
 * - conform_model.c: the PMD's builders and our layouts;
 * - test_conform.c: the cases.
 * Everything here is plain C types.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlx5_emu.h"
#include "mlx5_tm_glue.h"

/* ---- Counting (test_conform.c) ---- */

/** Cases passed and failed so far. */
extern unsigned int c_passed, c_failed;

/**
 * Check one named comparison and print it: "ok" or "FAIL". Inside a case
 * (conform_begin() ... conform_end()) it is one check of that case;
 * outside, a case of its own.
 */
void conform_case(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * Open a test case (one named behaviour: a device's capabilities, its
 * objects, one command's fields): it counts once, failed if any of its
 * comparisons failed.
 */
void conform_begin(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/** Close the case conform_begin() opened: count it and print its verdict. */
void conform_end(void);

/* ---- Recording glue (conform_glue.c) ---- */

/** Largest command buffer recorded (QUERY_HCA_CAP output: 4112 bytes). */
#define CONFORM_CMD_MAX 4352

/** One command as sent to the device model and as answered. */
struct conform_cmd {
	uint16_t opcode;
	uint16_t op_mod;
	size_t inlen;
	size_t outlen;
	int ret;             /**< The glue's return (0 or negative errno). */
	uint8_t in[CONFORM_CMD_MAX];
	uint8_t out[CONFORM_CMD_MAX];
};

/** mlx5_tm_glue_emu, with every firmware command recorded. */
const struct mlx5_tm_glue *conform_glue(void);

/** Forget the recorded commands. */
void conform_rec_clear(void);

/** Recorded commands so far (at most CONFORM_REC_MAX are kept). */
unsigned int conform_rec_count(void);

/** Recorded command @p i (0 = first), NULL beyond the count. */
const struct conform_cmd *conform_rec_get(unsigned int i);

/** The last recorded command with @p opcode, NULL if none. */
const struct conform_cmd *conform_rec_last(uint16_t opcode);

#define CONFORM_REC_MAX 64

/** An emulated device opened through conform_glue, with a PD. */
struct conform_dev {
	struct mlx5_tm_glue_dev *gdev;
	struct mlx5_emu *emu;
	struct mlx5_tm_pd *pd;
	struct mlx5_tm_uar *uar;
	uint32_t eqn;
};

/**
 * Open profile @p profile with devargs @p kv ("key=value", NULL-ended).
 *
 * @return 0 or a negative errno, with a message in @p err.
 */
int conform_dev_open(struct conform_dev *d, const char *profile,
		     const char *const *kv, char *err, size_t errlen);

/** Release what conform_dev_open() took. */
void conform_dev_close(struct conform_dev *d);

/* ---- Upstream (conform_upstream.c) ---- */

/** Point upstream's mlx5_glue at conform_glue (the device model). */
void up_glue_install(void);

/** Restore upstream's own mlx5_glue (rdma-core). */
void up_glue_restore(void);

/** The name of upstream's glue table in use ("emulated" once installed). */
const char *up_glue_version(void);

/* ---- Object attributes shared by both builders ---- */

/** What a Tx queue's objects are made of, for both builders. */
struct conform_txq_attr {
	uint32_t tdn;
	uint32_t pdn;
	uint32_t uar_page;
	uint32_t eqn;
	uint32_t umem_id;
	uint64_t cq_ring_off;
	uint64_t cq_dbr_off;
	uint32_t log_cq_size;
	uint32_t cqn;        /**< For the SQ. */
	uint32_t tisn;       /**< For the SQ. */
	uint64_t sq_ring_off;
	uint64_t sq_dbr_off;
	uint32_t log_wq_sz;
	uint16_t pp_index;
	uint8_t min_inline;  /**< sqc.min_wqe_inline_mode. */
	uint8_t ts_format;   /**< sqc.ts_format upstream would send. */
	uint32_t user_index;
};

#endif /* CONFORM_H */
