/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef QUEUE_SPEC_H
#define QUEUE_SPEC_H

/**
 * @file
 * The queue specifications of the command-line tools, written once:
 * "HEAD:ITEM,ITEM,..." where HEAD is a queue number or a group name and
 * each ITEM is key=value (or a bare rate or flag where the tool allows
 * it). dpdk-tm-pace (--queue, --group, --at, plan files) and mlx5-tm-plan
 * (its QUEUE:SPEC arguments) parse with it; each tool says which keys it
 * takes and gives the values their meaning.
 *
 * Numbers are exact: a decimal with an optional fraction and a suffix
 * (k/K, M, G/g, T: powers of 1000 for rates; powers of 1024 for sizes),
 * whose value must be a whole number that fits 64 bits ("1.5G" is
 * 1500000000, "1.5" is refused).
 *
 * Errors are written into a caller's buffer as "bad WHAT 'SPEC': WHY",
 * naming the part, the specification as written and what is allowed; the
 * tool prints them after its own name.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Longest group name, terminating NUL included. */
#define QSPEC_NAME_LEN 16

/** The keys of an item list; each tool allows some of them. */
enum qspec_key {
	QSPEC_RATE = 1u << 0,      /**< A bare first item: bit/s. */
	QSPEC_PEAK = 1u << 1,      /**< peak=RATE: bit/s. */
	QSPEC_BPS = 1u << 2,       /**< Bps=N: bytes/s. */
	QSPEC_PPS = 1u << 3,       /**< pps=RATE: packets/s. */
	QSPEC_BURST = 1u << 4,     /**< burst=SIZE: binary suffixes. */
	QSPEC_CIR = 1u << 5,       /**< cir=RATE: bit/s. */
	QSPEC_SIZE = 1u << 6,      /**< size=N or A..B: frame sizes. */
	QSPEC_WEIGHT = 1u << 7,    /**< weight=1..65535. */
	QSPEC_GROUP = 1u << 8,     /**< group=NAME. */
	QSPEC_PARENT = 1u << 9,    /**< parent=NAME. */
	QSPEC_ADJUST = 1u << 10,   /**< adjust=N: a signed 32-bit number. */
	QSPEC_DEDICATED = 1u << 11, /**< dedicated: a flag, no value. */
};

/** The keys that give the rate: at most one of them per list. */
#define QSPEC_RATE_KEYS (QSPEC_RATE | QSPEC_PEAK | QSPEC_BPS | QSPEC_PPS)

/** The smallest peak= or cir= taken: 1 byte/s, rte_tm's unit. */
#define QSPEC_MIN_BIT_RATE 8u

/** What a tool accepts. */
struct qspec_syntax {
	unsigned int keys;  /**< enum qspec_key bits allowed. */
	uint16_t frame_min; /**< size=: smallest frame, bytes. */
	uint16_t frame_max; /**< size=: largest frame, bytes. */
};

/** What one item list said; only the fields of given keys are set. */
struct qspec {
	unsigned int given;    /**< enum qspec_key bits present. */
	unsigned int rate_key; /**< The one of QSPEC_RATE_KEYS given, or 0. */
	uint64_t rate;         /**< In the unit of rate_key, as written. */
	uint64_t burst;        /**< burst=, as written. */
	uint64_t cir;          /**< cir=, bit/s. */
	uint16_t size_min;     /**< size=, bytes. */
	uint16_t size_max;     /**< Equal to size_min for one size. */
	uint32_t weight;       /**< weight=. */
	int32_t adjust;        /**< adjust=. */
	char group[QSPEC_NAME_LEN]; /**< group= or parent=. */
};

/** Scale of the suffixes of a number. */
enum qspec_scale {
	QSPEC_DECIMAL, /**< k, M, G, T = 10^3, 10^6, 10^9, 10^12. */
	QSPEC_BINARY,  /**< K, M, G, T = 2^10, 2^20, 2^30, 2^40. */
};

/**
 * Parse an exact number with an optional fraction and suffix.
 *
 * @param what
 *   The name of the number in a message ("rate", "--table-size").
 * @return
 *   0, or -EINVAL with a message in @p err.
 */
int qspec_number(const char *s, enum qspec_scale scale, const char *what,
		 uint64_t *out, char *err, size_t errlen);

/**
 * Parse "N" or "A..B" (decimal digits, A <= B) within [@p min, @p max].
 *
 * @return
 *   0, or -EINVAL with a message in @p err.
 */
int qspec_range(const char *s, uint16_t min, uint16_t max, const char *what,
		uint16_t *lo, uint16_t *hi, char *err, size_t errlen);

/**
 * Check a group name: a letter or '_', then letters, digits, '_' or '-',
 * at most QSPEC_NAME_LEN - 1 characters; copy it to @p out.
 *
 * @return
 *   0, or -EINVAL.
 */
int qspec_name(const char *s, char out[QSPEC_NAME_LEN]);

/**
 * Split "HEAD:ITEMS" copied into @p buf: @p head and @p items point into
 * it, blanks around the head removed.
 *
 * @return
 *   0; -EINVAL when there is no ':' or @p spec does not fit @p buf (a
 *   message in @p err).
 */
int qspec_split(const char *spec, char *buf, size_t len, char **head,
		char **items, char *err, size_t errlen);

/**
 * Parse a queue number: decimal digits, at most @p max.
 *
 * @return
 *   0, or -EINVAL with a message quoting @p spec in @p err.
 */
int qspec_queue(const char *spec, const char *head, unsigned int max,
		uint16_t *queue, char *err, size_t errlen);

/**
 * Parse the comma-separated @p items (cut up in place) of @p spec: each
 * key at most once, one rate key at most, only the keys @p syn allows.
 *
 * @return
 *   0, or -EINVAL with a message quoting @p spec in @p err.
 */
int qspec_items(const char *spec, char *items, const struct qspec_syntax *syn,
		struct qspec *out, char *err, size_t errlen);

/** @p s without its leading blanks, its trailing ones cut off in place. */
char *qspec_trim(char *s);

/** The names of @p keys, comma-separated, for messages and help texts. */
void qspec_key_names(unsigned int keys, char *buf, size_t len);

#endif /* QUEUE_SPEC_H */
