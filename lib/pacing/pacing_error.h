/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACING_ERROR_H
#define PACING_ERROR_H

/**
 * @file
 * Error reporting of the pacing library.
 *
 * Every function that can refuse returns a negative errno and, when given a
 * non-NULL struct pacing_error, fills it with the parameter at fault and a
 * human-readable message. Reporting an error never allocates memory.
 */

#include <stddef.h>

/** Size of struct pacing_error::message, terminating NUL included. */
#define PACING_MSG_SIZE 256

/** The parameter (or resource) a refusal is about. */
enum pacing_field {
	PACING_FIELD_NONE = 0,       /**< No error. */
	PACING_FIELD_ARGUMENT,       /**< A NULL pointer or a bad flag. */
	PACING_FIELD_DEVICE,         /**< The device has no packet pacing. */
	PACING_FIELD_PEAK_RATE,      /**< Peak rate (bytes/s or packets/s). */
	PACING_FIELD_PEAK_SIZE,      /**< Peak bucket size. */
	PACING_FIELD_COMMITTED_RATE, /**< Committed rate. */
	PACING_FIELD_COMMITTED_SIZE, /**< Committed bucket size. */
	PACING_FIELD_PACKET_MODE,    /**< Packet mode (packets/s shaping). */
	PACING_FIELD_PKT_LEN_ADJUST, /**< Packet length adjustment. */
	PACING_FIELD_TYPICAL_SIZE,   /**< Typical packet size default. */
	PACING_FIELD_TABLE_CAPACITY, /**< Not enough pacing entries. */
	PACING_FIELD_ENTRY,          /**< Unknown pacing entry. */
	PACING_FIELD_HW,             /**< The caller's hardware hook failed. */
	PACING_FIELD_NOMEM,          /**< Memory allocation failed. */
	PACING_FIELD_WEIGHT,         /**< A scheduling weight. */
};

/** Details of a refusal. */
struct pacing_error {
	enum pacing_field field; /**< Parameter at fault. */
	int code;                /**< Negative errno, as returned. */
	char message[PACING_MSG_SIZE]; /**< NUL-terminated explanation. */
};

/**
 * Name of a field, for logs ("peak rate", "table capacity", ...).
 *
 * @return
 *   A static string, never NULL.
 */
const char *
pacing_field_name(enum pacing_field field);

/**
 * Reset @p err to "no error" (field NONE, code 0, empty message).
 * A NULL @p err is accepted and ignored.
 */
void
pacing_error_clear(struct pacing_error *err);

/**
 * Fill @p err (if not NULL) with @p field, @p code and a printf-style
 * message (truncated to fit).
 *
 * @return
 *   @p code, so that callers can write "return pacing_error_set(...)".
 */
int
pacing_error_set(struct pacing_error *err, enum pacing_field field,
		 int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* PACING_ERROR_H */
