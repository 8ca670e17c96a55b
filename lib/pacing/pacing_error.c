/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <stdarg.h>
#include <stdio.h>

#include "pacing_error.h"

const char *
pacing_field_name(enum pacing_field field)
{
	switch (field) {
	case PACING_FIELD_NONE:
		return "none";
	case PACING_FIELD_ARGUMENT:
		return "argument";
	case PACING_FIELD_DEVICE:
		return "device";
	case PACING_FIELD_PEAK_RATE:
		return "peak rate";
	case PACING_FIELD_PEAK_SIZE:
		return "peak size";
	case PACING_FIELD_COMMITTED_RATE:
		return "committed rate";
	case PACING_FIELD_COMMITTED_SIZE:
		return "committed size";
	case PACING_FIELD_PACKET_MODE:
		return "packet mode";
	case PACING_FIELD_PKT_LEN_ADJUST:
		return "packet length adjust";
	case PACING_FIELD_TYPICAL_SIZE:
		return "typical packet size";
	case PACING_FIELD_TABLE_CAPACITY:
		return "table capacity";
	case PACING_FIELD_ENTRY:
		return "entry";
	case PACING_FIELD_HW:
		return "hardware";
	case PACING_FIELD_WEIGHT:
		return "weight";
	case PACING_FIELD_NOMEM:
		return "memory";
	}
	return "unknown";
}

void
pacing_error_clear(struct pacing_error *err)
{
	if (err == NULL)
		return;
	err->field = PACING_FIELD_NONE;
	err->code = 0;
	err->message[0] = '\0';
}

int
pacing_error_set(struct pacing_error *err, enum pacing_field field,
		 int code, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return code;
	err->field = field;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}
