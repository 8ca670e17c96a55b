/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Messages of the device model: the embedder's logger, or stderr for
 * errors and warnings.
 */

#include <stdarg.h>
#include <stdio.h>

#include "emu_internal.h"

static void (*emu_log_fn)(int level, const char *msg);

void
mlx5_emu_set_log(void (*fn)(int level, const char *msg))
{
	__atomic_store_n(&emu_log_fn, fn, __ATOMIC_RELEASE);
}

void
emu_log(int level, const char *fmt, ...)
{
	void (*fn)(int level, const char *msg) =
		__atomic_load_n(&emu_log_fn, __ATOMIC_ACQUIRE);
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (fn != NULL)
		fn(level, msg);
	else if (level <= EMU_LOG_WARNING)
		fprintf(stderr, "mlx5_emu: %s\n", msg);
}
