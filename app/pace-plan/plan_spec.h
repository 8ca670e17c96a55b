/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PLAN_SPEC_H
#define PLAN_SPEC_H

/**
 * @file
 * Command-line numbers and queue specifications of mlx5-tm-plan.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pacing_shaper.h"

/** How the user wrote the rate of a queue. */
enum plan_rate_unit {
	PLAN_RATE_BITS,    /**< bit/s (bare number or peak=). */
	PLAN_RATE_BYTES,   /**< bytes/s (Bps=). */
	PLAN_RATE_PACKETS, /**< packets/s (pps=). */
};

/** One queue of the plan. */
struct plan_queue {
	uint16_t qid;
	char text[96];              /**< The specification as written. */
	enum plan_rate_unit unit;
	uint64_t rate_as_written;   /**< In unit. */
	bool bits_truncated;        /**< bit/s not a multiple of 8. */
	bool dedicated;             /**< ",dedicated". */
	struct pacing_shaper shaper; /**< rte_tm-style, bytes/s or pkt/s. */
};

/**
 * Parse an unsigned number with an optional fraction and suffix
 * (k, M, G, T: powers of 1000 for rates; powers of 1024 for sizes when
 * @p binary). The result must be a whole number that fits 64 bits.
 *
 * @return
 *   0, or -1 with a message in @p err.
 */
int plan_parse_number(const char *s, bool binary, uint64_t *out,
		      char *err, size_t errlen);

/**
 * Parse "Q:RATE[,burst=SIZE][,cir=RATE][,adjust=N][,dedicated]" where
 * RATE is bit/s, or "Bps=N" (bytes/s), "pps=N" (packets/s), or
 * "peak=N" (bit/s).
 *
 * @return
 *   0, or -1 with a message in @p err.
 */
int plan_parse_queue(const char *spec, struct plan_queue *q,
		     char *err, size_t errlen);

#endif /* PLAN_SPEC_H */
