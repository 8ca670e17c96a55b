/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Object number tables: number = base + slot, lookup in O(1), the lowest
 * free slot reused first (firmware reuses numbers too).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"

void
emu_idtab_init(struct emu_idtab *t, uint32_t base, uint32_t limit)
{
	memset(t, 0, sizeof(*t));
	t->base = base;
	t->limit = limit;
}

int
emu_idtab_add(struct emu_idtab *t, void *obj, uint32_t *id)
{
	uint32_t i;

	if (t->count >= t->limit)
		return -ENOSPC;
	for (i = t->hint; i < t->cap; i++)
		if (t->slot[i] == NULL)
			break;
	if (i == t->cap) {
		uint32_t ncap = t->cap ? t->cap * 2 : 16;
		void **n = realloc(t->slot, ncap * sizeof(*n));

		if (n == NULL)
			return -ENOMEM;
		memset(n + t->cap, 0, (ncap - t->cap) * sizeof(*n));
		t->slot = n;
		t->cap = ncap;
	}
	t->slot[i] = obj;
	t->count++;
	t->hint = i + 1;
	*id = t->base + i;
	return 0;
}

void
emu_idtab_del(struct emu_idtab *t, uint32_t id)
{
	uint32_t i = id - t->base;

	if (id < t->base || i >= t->cap || t->slot[i] == NULL)
		return;
	t->slot[i] = NULL;
	t->count--;
	if (i < t->hint)
		t->hint = i;
}

void
emu_idtab_fini(struct emu_idtab *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
