/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * One array of entries, id = position + 1. A free position (refcnt 0)
 * is on the free list; a shared entry is on the hash chain of its
 * context. Both lists link through "next" (position + 1, 0 ends). The
 * array grows by doubling up to the capacity; the chains' heads are sized
 * once from the capacity.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pacing_table.h"

struct entry {
	struct pacing_ctx ctx;
	void *hw;
	uint32_t refcnt; /* 0: free */
	uint32_t next;   /* hash chain (shared) or free list */
	bool dedicated;
};

struct pacing_table {
	struct pacing_hw_ops ops;
	void *opaque;
	uint32_t capacity;
	uint32_t in_use;
	struct entry *entries;
	uint32_t nb_entries; /* positions ever used */
	uint32_t room;       /* positions allocated */
	uint32_t free_list;
	uint32_t *heads;     /* hash chains of the shared entries */
	uint32_t mask;
};

#define HEADS_MAX (1u << 16)

static uint32_t *
head_of(const struct pacing_table *t, const struct pacing_ctx *c)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t a = (uint64_t)c->rate_limit << 32 | c->burst_upper_bound;
	uint64_t b = (uint64_t)c->typical_packet_size << 8 | c->rate_mode;

	return &t->heads[(uint32_t)(((a * k) ^ b) * k >> 32) & t->mask];
}

struct pacing_table *
pacing_table_create(uint32_t capacity, const struct pacing_hw_ops *ops,
		    void *opaque, struct pacing_error *err)
{
	struct pacing_table *t;
	uint32_t n = 1;

	pacing_error_clear(err);
	while (n < capacity && n < HEADS_MAX)
		n *= 2;
	t = calloc(1, sizeof(*t));
	if (t != NULL)
		t->heads = calloc(n, sizeof(*t->heads));
	if (t == NULL || t->heads == NULL) {
		free(t);
		pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
				 "no memory for a pacing table");
		return NULL;
	}
	if (ops != NULL)
		t->ops = *ops;
	t->opaque = opaque;
	t->capacity = capacity;
	t->mask = n - 1;
	return t;
}

void
pacing_table_destroy(struct pacing_table *t)
{
	uint32_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nb_entries; i++)
		if (t->entries[i].refcnt != 0 && t->ops.free != NULL)
			t->ops.free(t->opaque, &t->entries[i].ctx,
				    t->entries[i].hw);
	free(t->entries);
	free(t->heads);
	free(t);
}

uint32_t
pacing_table_capacity(const struct pacing_table *t)
{
	return t->capacity;
}

uint32_t
pacing_table_in_use(const struct pacing_table *t)
{
	return t->in_use;
}

static struct entry *
entry_of(const struct pacing_table *t, uint64_t id)
{
	if (id == 0 || id > t->nb_entries || t->entries[id - 1].refcnt == 0)
		return NULL;
	return &t->entries[id - 1];
}

static void
fill_info(const struct pacing_table *t, const struct entry *e,
	  struct pacing_entry_info *info)
{
	info->id = (uint64_t)(e - t->entries) + 1;
	info->ctx = e->ctx;
	info->dedicated = e->dedicated;
	info->refcnt = e->refcnt;
	info->hw = e->hw;
}

int
pacing_table_entry_get(const struct pacing_table *t, uint64_t entry_id,
		       struct pacing_entry_info *info)
{
	const struct entry *e = entry_of(t, entry_id);

	if (e == NULL)
		return -ENOENT;
	if (info != NULL)
		fill_info(t, e, info);
	return 0;
}

int
pacing_table_entry_next(const struct pacing_table *t, uint64_t *cursor,
			struct pacing_entry_info *info)
{
	while (*cursor < t->nb_entries && t->entries[*cursor].refcnt == 0)
		(*cursor)++;
	if (*cursor >= t->nb_entries)
		return 0;
	fill_info(t, &t->entries[(*cursor)++], info);
	return 1;
}

/* |a - b| */
static uint64_t
rate_diff(uint32_t a, uint32_t b)
{
	return a >= b ? (uint64_t)a - b : (uint64_t)b - a;
}

bool
pacing_ctx_serves(const struct pacing_ctx *entry, const struct pacing_ctx *req,
		  uint32_t tolerance_ppm)
{
	return entry->rate_mode == req->rate_mode &&
	       entry->burst_upper_bound == req->burst_upper_bound &&
	       entry->typical_packet_size == req->typical_packet_size &&
	       rate_diff(entry->rate_limit, req->rate_limit) * PACING_PPM <=
	       (uint64_t)tolerance_ppm * req->rate_limit;
}

/* The shared entry of context @p c, or the closest within tolerance. */
static struct entry *
find_shared(const struct pacing_table *t, const struct pacing_ctx *c,
	    uint32_t tolerance_ppm)
{
	struct entry *e, *best = NULL;
	uint64_t best_d = 0, d;
	uint32_t i;

	for (i = *head_of(t, c); i != 0; i = t->entries[i - 1].next)
		if (pacing_ctx_equal(&t->entries[i - 1].ctx, c))
			return &t->entries[i - 1];
	for (i = 0; tolerance_ppm > 0 && i < t->nb_entries; i++) {
		e = &t->entries[i];
		if (e->refcnt == 0 || e->dedicated ||
		    !pacing_ctx_serves(&e->ctx, c, tolerance_ppm))
			continue;
		d = rate_diff(e->ctx.rate_limit, c->rate_limit);
		if (best == NULL || d < best_d ||
		    (d == best_d && e->ctx.rate_limit < best->ctx.rate_limit)) {
			best = e;
			best_d = d;
		}
	}
	return best;
}

/* A free position, the array grown if needed; NULL without memory. */
static struct entry *
take_free(struct pacing_table *t)
{
	uint32_t n;
	struct entry *e;

	if (t->free_list != 0) {
		e = &t->entries[t->free_list - 1];
		t->free_list = e->next;
		return e;
	}
	if (t->nb_entries == t->room) {
		n = t->room == 0 ? 16 : t->room * 2;
		if (n > t->capacity || n < t->room)
			n = t->capacity;
		e = realloc(t->entries, (size_t)n * sizeof(*e));
		if (e == NULL)
			return NULL;
		t->entries = e;
		t->room = n;
	}
	return &t->entries[t->nb_entries++];
}

static void
put_free(struct pacing_table *t, struct entry *e)
{
	e->refcnt = 0;
	e->hw = NULL;
	e->next = t->free_list;
	t->free_list = (uint32_t)(e - t->entries) + 1;
}

int
pacing_table_acquire(struct pacing_table *t, const struct pacing_ctx *ctx,
		     uint32_t flags, uint32_t tolerance_ppm,
		     struct pacing_grant *grant, struct pacing_error *err)
{
	bool dedicated = (flags & PACING_ACQ_DEDICATED) != 0;
	struct entry *e = NULL;
	uint32_t *head;
	int ret = 0;

	pacing_error_clear(err);
	if (t == NULL || ctx == NULL || grant == NULL)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
					"table, context and grant must not be NULL");
	if (flags & ~PACING_ACQ_DEDICATED)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
					"unknown acquire flags 0x%" PRIx32,
					flags);
	if (ctx->rate_limit == 0)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
					"rate_limit 0 is not a pacing rate");
	if (ctx->rate_mode != PACING_RATE_MODE_DATA &&
	    ctx->rate_mode != PACING_RATE_MODE_WQE)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
					"unknown rate_mode %u",
					(unsigned int)ctx->rate_mode);
	if (!dedicated)
		e = find_shared(t, ctx, tolerance_ppm);
	grant->created = e == NULL;
	if (e == NULL) {
		if (t->in_use >= t->capacity)
			return pacing_error_set(err,
				PACING_FIELD_TABLE_CAPACITY, -ENOSPC,
				"pacing table full: the change needs %" PRIu64
				" distinct pacing entries (%" PRIu32 " in use + "
				"1 new) but the device has %" PRIu32,
				(uint64_t)t->in_use + 1, t->in_use,
				t->capacity);
		e = take_free(t);
		if (e == NULL)
			return pacing_error_set(err, PACING_FIELD_NOMEM,
				-ENOMEM, "no memory for a pacing entry");
		memset(e, 0, sizeof(*e));
		if (t->ops.alloc != NULL)
			ret = t->ops.alloc(t->opaque, ctx, dedicated, &e->hw);
		if (ret != 0) {
			ret = ret > 0 ? -ret : ret;
			put_free(t, e);
			return pacing_error_set(err, PACING_FIELD_HW, ret,
				"the device refused a pacing entry (rate_limit "
				"%" PRIu32 " %s, error %d); nothing changed",
				ctx->rate_limit, ctx->rate_mode ==
				PACING_RATE_MODE_WQE ? "WQEs/s" : "kbps",
				-ret);
		}
		e->ctx = *ctx;
		e->dedicated = dedicated;
		if (!dedicated) {
			head = head_of(t, ctx);
			e->next = *head;
			*head = (uint32_t)(e - t->entries) + 1;
		}
		t->in_use++;
	}
	e->refcnt++;
	grant->entry_id = (uint64_t)(e - t->entries) + 1;
	grant->ctx = e->ctx;
	grant->deviation_ppm = pacing_error_ppm(ctx->rate_limit,
						e->ctx.rate_limit);
	return 0;
}

int
pacing_table_release(struct pacing_table *t, uint64_t entry_id,
		     struct pacing_error *err)
{
	struct entry *e = entry_of(t, entry_id);
	uint32_t *link;

	pacing_error_clear(err);
	if (e == NULL)
		return pacing_error_set(err, PACING_FIELD_ENTRY, -ENOENT,
					"pacing entry %" PRIu64 " does not "
					"exist", entry_id);
	if (--e->refcnt != 0)
		return 0;
	if (!e->dedicated) {
		link = head_of(t, &e->ctx);
		while (*link != entry_id)
			link = &t->entries[*link - 1].next;
		*link = e->next;
	}
	if (t->ops.free != NULL)
		t->ops.free(t->opaque, &e->ctx, e->hw);
	t->in_use--;
	put_free(t, e);
	return 0;
}
