/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef JSON_STR_H
#define JSON_STR_H

/**
 * @file
 * The JSON string and number writers of the tree's reports (dpdk-tm-pace
 * --json, dpdk-mlx5-tm-check's report, the benchmark's output). Plain C,
 * no DPDK.
 */

#include <stdio.h>

/**
 * Write @p s to @p f as a JSON string: in double quotes, with '"' and '\\'
 * escaped by a backslash and the control characters below 0x20 as \\u00XX
 * (RFC 8259, section 7). Bytes from 0x80 are written as they are: @p s is
 * expected in UTF-8.
 *
 * @param f
 *   Stream to write to; its error indicator tells of a failed write.
 * @param s
 *   NUL-terminated string.
 */
void json_str_write(FILE *f, const char *s);

/**
 * Write @p v to @p f as a JSON number with the printf format @p fmt (one
 * double conversion, e.g. "%.1f"), or as null when @p v is infinite or
 * NaN: JSON has no such numbers (RFC 8259, section 6), and printf would
 * write inf or nan.
 */
void json_double_write(FILE *f, const char *fmt, double v);

#endif /* JSON_STR_H */
