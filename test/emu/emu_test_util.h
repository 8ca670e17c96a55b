/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef EMU_TEST_UTIL_H
#define EMU_TEST_UTIL_H

/*
 * A minimal driver for the device-model tests: builds PRM commands and
 * WQEs by hand, rings doorbells and polls CQEs, through the glue only.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mlx5_emu.h"
#include "mlx5_tm_glue.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_wqe.h"

/*
 * A test case is one named behaviour: T_RUN(test_x()) runs it, and it
 * counts once, failed if any of its CHECKs failed. A CHECK that fails
 * outside any case counts as a failed case of its own.
 */

/** Cases passed, failed and skipped (nothing checked) so far. */
extern unsigned int t_passed, t_failed, t_skipped;

/** Start case @p name of group @p group (T_RUN does it). */
void t_case_begin(const char *group, const char *name);
/**
 * Skip the current case, which cannot check its behaviour here (@p why):
 * counted as skipped unless a CHECK failed.
 */
void t_case_skip(const char *why);
/**
 * End the current case: count it and print "ok", "FAIL" or "skip" with
 * its name.
 */
void t_case_end(void);
/** Record a failed CHECK (CHECK does it after printing why). */
void t_check_failed(void);

/** Fail the current case (and say why) unless @p cond holds. */
#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		t_check_failed(); \
	} \
} while (0)

/** Run the call @p call as one case, named after it and its caller. */
#define T_RUN(call) do { \
	t_case_begin(__func__, #call); \
	call; \
	t_case_end(); \
} while (0)

struct t_dev {
	const struct mlx5_tm_glue *g;
	struct mlx5_tm_glue_dev *dev;
	struct mlx5_emu *emu;
	struct mlx5_tm_pd *pd;
	struct mlx5_tm_uar *uar;
	struct mlx5_tm_devx_obj *td;
	struct mlx5_tm_devx_obj *tis;
	uint32_t tdn;
	uint32_t tisn;
	/* packet buffers */
	uint8_t *buf;
	size_t buf_sz;
	struct mlx5_tm_mr *mr;
	bool flush_in_error;    /* t_sq_create sets flush_in_error_en */
	uint16_t qos_group;     /* t_sq_create sets qos_queue_group_id */
	bool allow_mpw;         /* ... and allow_multi_pkt_send_wqe */
	uint8_t ts_format;      /* t_sq_create sets sqc.ts_format */
};

struct t_sq {
	struct t_dev *d;
	uint8_t *cq_ring;
	uint8_t *sq_ring;
	uint8_t *dbr;           /* 64 bytes: CQ record at 0, SQ record at 8 */
	struct mlx5_tm_umem *cq_umem, *sq_umem, *db_umem;
	struct mlx5_tm_devx_obj *cq, *sq;
	uint32_t cqn, sqn;
	uint32_t log_cq, log_sq;
	uint16_t pi;            /* WQEBB producer counter */
	uint32_t cq_ci;
	uint8_t last_ctrl[8];   /* first 8 bytes of the last WQE */
	uint16_t last_wqe;
};

struct t_cqe {
	uint8_t opcode;
	uint8_t syndrome;
	uint16_t wqe_counter;
	uint64_t timestamp;
	uint32_t qpn;
};

/* Open an emulated device; extra devargs as "k=v" strings, NULL-ended. */
int t_open(struct t_dev *d, const char *profile, const char *const *kv);
void t_close(struct t_dev *d);
/*
 * t_open() a cx6dx whose wire goes to a new pcap file, named from the
 * mkstemp() template @p path; false (a failed CHECK) when there is none.
 */
bool t_open_pcap(struct t_dev *d, char *path, const char *const *kv);

/**
 * The suite's model log: errors printed with EMU_TEST_VERBOSE set, the
 * rest dropped (a case that reads the log installs its own, then this).
 */
void t_quiet_log(int level, const char *msg);

/* Create CQ (log_cq) and SQ (log_sq) in @p state with @p pp_index. */
int t_sq_create(struct t_dev *d, struct t_sq *s, uint32_t log_sq,
		uint32_t log_cq, uint16_t pp_index, uint8_t state);
void t_sq_destroy(struct t_sq *s);
/* t_sq_create() in RST, then RST->RDY; the first failure. */
int t_sq_ready(struct t_dev *d, struct t_sq *s, uint32_t log_sq,
	       uint16_t pp_index);
/* MODIFY_SQ; returns the call's result, *status the PRM status. */
int t_sq_modify(struct t_sq *s, uint8_t cur, uint8_t next, bool set_pp,
		uint16_t pp_index, uint8_t *status);

/* Post one SEND of @p len bytes of @p pkt: @p inl inline, rest by lkey. */
void t_post(struct t_sq *s, const uint8_t *pkt, uint32_t len, uint32_t inl,
	    bool cq_update);
/* Post a SEND whose data segment uses @p lkey/@p addr as given. */
void t_post_raw(struct t_sq *s, uint32_t inl, const uint8_t *hdr,
		uint32_t lkey, uint64_t addr, uint32_t bc, bool cq_update);
/* One packet of an eMPW WQE: by pointer (lkey of the test MR) or inline. */
struct t_empw_pkt {
	const uint8_t *data;
	uint32_t len;
	bool inl;
};

/*
 * Build an eMPW WQE of @p n packets at the producer index in @p wqe
 * (1024 bytes); returns its ds (16-byte segments).
 */
uint32_t t_empw_build(struct t_sq *s, uint8_t *wqe, const struct t_empw_pkt *p,
		      unsigned int n, bool cq_update);
/* Copy a built WQE of @p ds segments to the ring and advance the index. */
void t_post_wqe(struct t_sq *s, const uint8_t *wqe, uint32_t ds);
/* Write the doorbell record and the UAR register. */
void t_ring(struct t_sq *s);
/* Poll up to @p max CQEs; updates the CQ doorbell record. */
unsigned int t_poll(struct t_sq *s, struct t_cqe *out, unsigned int max);

/* pp_alloc with a set_pp_rate_limit_context. */
struct mlx5_tm_pp *t_pp(struct t_dev *d, uint32_t rate, uint32_t burst,
			uint8_t mode, uint16_t typical, uint32_t flags);

/* A test Ethernet frame of @p len bytes, pattern @p seed, in d->buf+off. */
uint8_t *t_frame(struct t_dev *d, size_t off, uint32_t len, uint32_t seed);

/* Status of a failed command output. */
static inline uint8_t
t_status(const void *out)
{
	return (uint8_t)MLX5_GET(mbox_out, out, status);
}

#endif /* EMU_TEST_UTIL_H */
