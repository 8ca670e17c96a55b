/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <stdarg.h>
#include <stdio.h>

#include "pacing_error.h"

const char *
pacing_field_name(enum pacing_field field)
{
	static const char *const names[] = {
		[PACING_FIELD_NONE] = "none",
		[PACING_FIELD_ARGUMENT] = "argument",
		[PACING_FIELD_DEVICE] = "device",
		[PACING_FIELD_PEAK_RATE] = "peak rate",
		[PACING_FIELD_PEAK_SIZE] = "peak size",
		[PACING_FIELD_COMMITTED_RATE] = "committed rate",
		[PACING_FIELD_COMMITTED_SIZE] = "committed size",
		[PACING_FIELD_PACKET_MODE] = "packet mode",
		[PACING_FIELD_PKT_LEN_ADJUST] = "packet length adjust",
		[PACING_FIELD_TYPICAL_SIZE] = "typical packet size",
		[PACING_FIELD_TABLE_CAPACITY] = "table capacity",
		[PACING_FIELD_ENTRY] = "entry",
		[PACING_FIELD_HW] = "hardware",
		[PACING_FIELD_NOMEM] = "memory",
		[PACING_FIELD_WEIGHT] = "weight",
	};

	if ((unsigned int)field >= sizeof(names) / sizeof(names[0]) ||
	    names[field] == NULL)
		return "unknown";
	return names[field];
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
