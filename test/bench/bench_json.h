/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_BENCH_JSON_H
#define MLX5_TM_BENCH_JSON_H

/**
 * @file
 * A small streaming JSON writer for the benchmark results. Values are
 * appended in order; a key is given inside objects and NULL inside arrays.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BENCH_JSON_MAX_DEPTH 16

/** A document being written. */
struct bench_json {
	FILE *f;                                /**< Memory stream. */
	char *buf;                              /**< Its buffer. */
	size_t len;                             /**< Its length. */
	int depth;                              /**< Open containers. */
	bool has_items[BENCH_JSON_MAX_DEPTH];   /**< Comma needed per level. */
	char closer[BENCH_JSON_MAX_DEPTH];      /**< '}' or ']' per level. */
	bool misused;                           /**< Key/no-key mismatch seen. */
};

/** Start a document (its top level is one object). 0 or -ENOMEM. */
int bench_json_init(struct bench_json *js);
/** Open an object under @p key (NULL in an array). */
void bench_json_obj_begin(struct bench_json *js, const char *key);
/** Close the innermost object. */
void bench_json_obj_end(struct bench_json *js);
/** Open an array under @p key (NULL in an array). */
void bench_json_arr_begin(struct bench_json *js, const char *key);
/** Close the innermost array. */
void bench_json_arr_end(struct bench_json *js);
/** A string value. */
void bench_json_str(struct bench_json *js, const char *key, const char *v);
/** A number; NaN and infinities are written as null. */
void bench_json_num(struct bench_json *js, const char *key, double v);
/** An integer. */
void bench_json_int(struct bench_json *js, const char *key, int64_t v);
/** A boolean. */
void bench_json_bool(struct bench_json *js, const char *key, bool v);
/**
 * Close the document and write it to @p path (NULL: only free it).
 * @return 0 or a negative errno; -EINVAL (nothing written) when a value
 *   was given without a key in an object, or with one in an array.
 */
int bench_json_finish(struct bench_json *js, const char *path);

#endif /* MLX5_TM_BENCH_JSON_H */
