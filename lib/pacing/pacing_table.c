/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Two flat arrays: the entries in id order and the holds (references of one
 * user to one entry) in order of first reference, with a hash index so
 * that one acquisition or release costs O(1) and a transaction of N
 * changes O(N). A transaction appends its new entries and holds, counts
 * its changes in "staged" and lists what it touched; commit folds those
 * in, abort truncates. Freed entries and empty holds stay in place until
 * they are half of their array: then a compaction rebuilds the index
 * (amortised O(1) per change).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pacing_table.h"

struct entry {
	uint64_t id;
	struct pacing_ctx ctx;
	bool dedicated;
	bool allocated; /* hw is the caller's: committed, or new and prepared */
	bool gone;      /* freed; kept (invisible) until the next compaction */
	void *hw;
	uint32_t refcnt; /* committed references */
	int64_t staged;  /* references the open transaction adds */
};

struct hold {
	uint64_t user;
	uint64_t entry_id;
	uint32_t count;  /* committed references */
	int64_t staged;  /* references the open transaction adds */
};

enum txn_state { TXN_CLOSED, TXN_STAGING, TXN_PREPARED, TXN_FAILED };

struct pacing_txn {
	struct pacing_table *table;
	const struct pacing_hw_ops *ops;
	void *opaque;
	enum txn_state state;
	int fail_code;
	uint32_t nb_entries; /* the table's before the transaction */
	uint32_t nb_holds;
	uint64_t next_id;
};

struct pacing_table {
	uint32_t capacity;
	struct entry *entries;
	uint32_t nb_entries, entries_cap;
	uint32_t nb_live;     /* committed entries not gone */
	uint32_t nb_gone;     /* entries gone, not yet compacted */
	uint32_t nb_empty;    /* holds without references */
	uint32_t *touched;    /* what the open transaction staged: positions */
	uint32_t nb_touched, touched_cap; /* (HOLD set: in the holds) */
	struct hold *holds;
	uint32_t nb_holds, holds_cap;
	uint32_t *index;      /* shared entries by context, holds by key */
	uint32_t index_mask;  /* slots - 1, slots >= 2 * (arrays' room) */
	uint64_t next_id;     /* ids are never reused */
	struct pacing_txn txn;
};

#define PPM 1000000u

static uint32_t
mix(uint64_t a, uint64_t b)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;

	return (uint32_t)(((a * k) ^ b) * k >> 32);
}

static uint32_t
ctx_hash(const struct pacing_ctx *c)
{
	return mix((uint64_t)c->rate_limit << 32 | c->burst_upper_bound,
		   (uint64_t)c->typical_packet_size << 8 | c->rate_mode);
}

/*
 * The index: open addressing, a slot holds a position + 1 in the entries
 * or, with HOLD set, in the holds; 0 is free. Rebuilt whole (positions
 * move at commit and abort), sized for the arrays' capacities; if it
 * cannot grow it is left valid for the elements present.
 */
#define HOLD (1u << 31)

static void
index_put(struct pacing_table *t, uint32_t hash, uint32_t value)
{
	uint32_t i = hash & t->index_mask;

	while (t->index[i] != 0)
		i = (i + 1) & t->index_mask;
	t->index[i] = value;
}

static int
reindex(struct pacing_table *t)
{
	uint64_t size = 16, room = (uint64_t)t->entries_cap + t->holds_cap;
	uint32_t i, *slot;

	while (size < 2 * room)
		size *= 2;
	if (size > HOLD)
		return -ENOMEM;
	if (size > t->index_mask + 1ull || t->index == NULL) {
		slot = calloc(size, sizeof(*slot));
		if (slot == NULL)
			return -ENOMEM;
		free(t->index);
		t->index = slot;
		t->index_mask = size - 1;
	} else {
		memset(t->index, 0, (t->index_mask + 1ull) * sizeof(*slot));
	}
	for (i = 0; i < t->nb_entries; i++)
		if (!t->entries[i].dedicated)
			index_put(t, ctx_hash(&t->entries[i].ctx), i + 1);
	for (i = 0; i < t->nb_holds; i++)
		index_put(t, mix(t->holds[i].user, t->holds[i].entry_id),
			  (i + 1) | HOLD);
	return 0;
}

/* Room for one more element in @p *arr (and in the index). */
static int
reserve_one(struct pacing_table *t, void **arr, uint32_t nb, uint32_t *cap,
	    size_t elem)
{
	uint32_t old = *cap, n = old ? old * 2 : 16;
	void *p;

	if (nb < old)
		return 0;
	if (n <= old || (p = realloc(*arr, (size_t)n * elem)) == NULL)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	if (reindex(t) == 0)
		return 0;
	*cap = old;
	return -ENOMEM;
}

#define FOR_PROBE(t, hash, i) \
	for (i = (hash) & (t)->index_mask; (t)->index[i] != 0; \
	     i = (i + 1) & (t)->index_mask)

static struct entry *
find_shared(const struct pacing_table *t, const struct pacing_ctx *c)
{
	uint32_t i;

	FOR_PROBE(t, ctx_hash(c), i)
		if (!(t->index[i] & HOLD) && !t->entries[t->index[i] - 1].gone &&
		    pacing_ctx_equal(&t->entries[t->index[i] - 1].ctx, c))
			return &t->entries[t->index[i] - 1];
	return NULL;
}

static struct hold *
find_hold(const struct pacing_table *t, uint64_t user, uint64_t entry_id)
{
	struct hold *h;
	uint32_t i;

	FOR_PROBE(t, mix(user, entry_id), i) {
		if (!(t->index[i] & HOLD))
			continue;
		h = &t->holds[(t->index[i] & ~HOLD) - 1];
		if (h->user == user && h->entry_id == entry_id)
			return h;
	}
	return NULL;
}

/* Entry @p id among the first @p n (ids increase along the array). */
static struct entry *
find_entry(const struct pacing_table *t, uint32_t n, uint64_t id)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->entries[mid].id == id)
			return t->entries[mid].gone ? NULL : &t->entries[mid];
		if (t->entries[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Room for @p more positions in the touched list. */
static int
reserve_touched(struct pacing_table *t, uint64_t more)
{
	uint64_t need = t->nb_touched + more, n = t->touched_cap ? t->touched_cap : 16;
	uint32_t *p;

	while (n < need)
		n *= 2;
	if (n == t->touched_cap)
		return 0;
	if (n > UINT32_MAX ||
	    (p = realloc(t->touched, n * sizeof(*p))) == NULL)
		return -ENOMEM;
	t->touched = p;
	t->touched_cap = n;
	return 0;
}

/* Stages @p n references of hold @p h to entry @p e (room reserved). */
static void
stage(struct pacing_table *t, struct entry *e, struct hold *h, int64_t n)
{
	h->staged += n;
	e->staged += n;
	t->touched[t->nb_touched++] = (uint32_t)(h - t->holds) | HOLD;
	t->touched[t->nb_touched++] = (uint32_t)(e - t->entries);
}

/* Entries committed: those before the open transaction's new ones. */
static uint32_t
committed(const struct pacing_table *t)
{
	return t->txn.state != TXN_CLOSED ? t->txn.nb_entries : t->nb_entries;
}

struct pacing_table *
pacing_table_create(uint32_t capacity, struct pacing_error *err)
{
	struct pacing_table *t;

	pacing_error_clear(err);
	t = calloc(1, sizeof(*t));
	if (t == NULL || reindex(t) != 0) {
		free(t);
		pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
				 "no memory for a pacing table");
		return NULL;
	}
	t->capacity = capacity;
	t->next_id = 1;
	t->txn.table = t;
	return t;
}

void
pacing_table_destroy(struct pacing_table *t, const struct pacing_hw_ops *ops,
		     void *opaque)
{
	uint32_t i;

	if (t == NULL)
		return;
	pacing_txn_abort(t->txn.state != TXN_CLOSED ? &t->txn : NULL);
	for (i = 0; i < t->nb_entries; i++)
		if (!t->entries[i].gone && ops != NULL && ops->free != NULL)
			ops->free(opaque, &t->entries[i].ctx, t->entries[i].hw);
	free(t->entries);
	free(t->holds);
	free(t->index);
	free(t->touched);
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
	return t->nb_live;
}

static void
fill_info(const struct entry *e, struct pacing_entry_info *info)
{
	info->id = e->id;
	info->ctx = e->ctx;
	info->dedicated = e->dedicated;
	info->refcnt = e->refcnt;
	info->hw = e->hw;
}

int
pacing_table_entry_get(const struct pacing_table *t, uint64_t entry_id,
		       struct pacing_entry_info *info)
{
	const struct entry *e = find_entry(t, committed(t), entry_id);

	if (e == NULL)
		return -ENOENT;
	if (info != NULL)
		fill_info(e, info);
	return 0;
}

int
pacing_table_entry_next(const struct pacing_table *t, uint64_t *cursor,
			struct pacing_entry_info *info)
{
	while (*cursor < committed(t) && t->entries[*cursor].gone)
		(*cursor)++;
	if (*cursor >= committed(t))
		return 0;
	fill_info(&t->entries[(*cursor)++], info);
	return 1;
}

int64_t
pacing_table_entry_users(const struct pacing_table *t, uint64_t entry_id,
			 uint64_t *users, uint32_t max)
{
	int64_t n = 0;
	uint32_t i, j;

	if (find_entry(t, committed(t), entry_id) == NULL)
		return -ENOENT;
	for (i = 0; i < t->nb_holds; i++)
		for (j = 0; t->holds[i].entry_id == entry_id &&
		     j < t->holds[i].count; j++, n++)
			if (n < max)
				users[n] = t->holds[i].user;
	return n;
}

struct pacing_txn *
pacing_txn_begin(struct pacing_table *t, const struct pacing_hw_ops *ops,
		 void *opaque, struct pacing_error *err)
{
	pacing_error_clear(err);
	if (t == NULL) {
		pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
				 "no pacing table");
		return NULL;
	}
	if (t->txn.state != TXN_CLOSED) {
		pacing_error_set(err, PACING_FIELD_TRANSACTION, -EBUSY,
				 "a transaction is already open on this "
				 "pacing table");
		return NULL;
	}
	t->txn.ops = ops;
	t->txn.opaque = opaque;
	t->txn.state = TXN_STAGING;
	t->txn.nb_entries = t->nb_entries;
	t->txn.nb_holds = t->nb_holds;
	t->txn.next_id = t->next_id;
	return &t->txn;
}

static int
check_staging(const struct pacing_txn *tx, struct pacing_error *err)
{
	if (tx == NULL)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
					"no pacing transaction");
	if (tx->state != TXN_STAGING)
		return pacing_error_set(err, PACING_FIELD_TRANSACTION,
					-EINVAL, "the transaction is %s: no "
					"more changes can be staged",
					tx->state == TXN_PREPARED ?
					"prepared" : "failed");
	return 0;
}

/* The closest shared entry within tolerance (lower rate, then older). */
static struct entry *
find_tolerant(const struct pacing_table *t, const struct pacing_ctx *req,
	      uint32_t tolerance_ppm)
{
	struct entry *best = NULL;
	uint64_t best_d = 0, d;
	uint32_t i;

	for (i = 0; i < t->nb_entries; i++) {
		struct entry *e = &t->entries[i];

		if (e->gone || e->dedicated || e->ctx.rate_mode != req->rate_mode ||
		    e->ctx.burst_upper_bound != req->burst_upper_bound ||
		    e->ctx.typical_packet_size != req->typical_packet_size)
			continue;
		d = e->ctx.rate_limit >= req->rate_limit ?
			(uint64_t)e->ctx.rate_limit - req->rate_limit :
			(uint64_t)req->rate_limit - e->ctx.rate_limit;
		if (d * PPM > (uint64_t)tolerance_ppm * req->rate_limit)
			continue;
		if (best == NULL || d < best_d ||
		    (d == best_d && e->ctx.rate_limit < best->ctx.rate_limit)) {
			best = e;
			best_d = d;
		}
	}
	return best;
}

int
pacing_txn_acquire(struct pacing_txn *tx, uint64_t user,
		   const struct pacing_ctx *ctx, uint32_t flags,
		   uint32_t tolerance_ppm, struct pacing_grant *grant,
		   struct pacing_error *err)
{
	struct pacing_table *t;
	struct entry *e = NULL;
	struct hold *h;
	int ret;

	pacing_error_clear(err);
	ret = check_staging(tx, err);
	if (ret != 0)
		return ret;
	if (ctx == NULL || grant == NULL)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
					"context and grant must not be NULL");
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
	t = tx->table;
	/* Room for a new entry and a new hold first: nothing fails after. */
	if (reserve_one(t, (void **)&t->entries, t->nb_entries,
			&t->entries_cap, sizeof(*t->entries)) != 0 ||
	    reserve_one(t, (void **)&t->holds, t->nb_holds, &t->holds_cap,
			sizeof(*t->holds)) != 0 || reserve_touched(t, 2) != 0)
		return pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
					"no memory to stage a pacing change");
	if (!(flags & PACING_ACQ_DEDICATED))
		e = tolerance_ppm == 0 ? find_shared(t, ctx) :
		    find_tolerant(t, ctx, tolerance_ppm);
	grant->created = e == NULL;
	if (e == NULL) {
		e = &t->entries[t->nb_entries];
		memset(e, 0, sizeof(*e));
		e->id = t->next_id++;
		e->ctx = *ctx;
		e->dedicated = (flags & PACING_ACQ_DEDICATED) != 0;
		if (!e->dedicated)
			index_put(t, ctx_hash(ctx), t->nb_entries + 1);
		t->nb_entries++;
	}
	h = find_hold(t, user, e->id);
	if (h == NULL) {
		h = &t->holds[t->nb_holds];
		memset(h, 0, sizeof(*h));
		h->user = user;
		h->entry_id = e->id;
		index_put(t, mix(user, e->id), ++t->nb_holds | HOLD);
		t->nb_empty++;
	}
	stage(t, e, h, 1);
	grant->entry_id = e->id;
	grant->ctx = e->ctx;
	grant->deviation_ppm = pacing_error_ppm(ctx->rate_limit,
						e->ctx.rate_limit);
	return 0;
}

int
pacing_txn_release(struct pacing_txn *tx, uint64_t user, uint64_t entry_id,
		   struct pacing_error *err)
{
	struct entry *e;
	struct hold *h;
	int ret;

	pacing_error_clear(err);
	ret = check_staging(tx, err);
	if (ret != 0)
		return ret;
	e = find_entry(tx->table, tx->table->nb_entries, entry_id);
	if (e == NULL)
		return pacing_error_set(err, PACING_FIELD_ENTRY, -ENOENT,
					"pacing entry %" PRIu64 " does not "
					"exist", entry_id);
	h = find_hold(tx->table, user, entry_id);
	if (h == NULL || h->count + h->staged < 1)
		return pacing_error_set(err, PACING_FIELD_ENTRY, -ENOENT,
					"user %" PRIu64 " holds no reference "
					"to pacing entry %" PRIu64, user,
					entry_id);
	if (reserve_touched(tx->table, 2) != 0)
		return pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
					"no memory to stage a pacing change");
	stage(tx->table, e, h, -1);
	return 0;
}

/* Frees the hardware of the transaction's new entries, newest first. */
static void
txn_free_hw(struct pacing_txn *tx)
{
	struct pacing_table *t = tx->table;
	uint32_t i;

	for (i = t->nb_entries; i-- > tx->nb_entries;) {
		struct entry *e = &t->entries[i];

		if (e->allocated && tx->ops != NULL && tx->ops->free != NULL)
			tx->ops->free(tx->opaque, &e->ctx, e->hw);
		e->allocated = false;
		e->hw = NULL;
	}
}

static int
txn_fail(struct pacing_txn *tx, int code)
{
	tx->state = TXN_FAILED;
	tx->fail_code = code;
	return code;
}

int
pacing_txn_prepare(struct pacing_txn *tx, struct pacing_error *err)
{
	struct pacing_table *t;
	uint32_t nb_new = 0, i;
	uint64_t need;
	int ret;

	pacing_error_clear(err);
	if (tx == NULL || tx->state == TXN_CLOSED)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
					"no pacing transaction");
	if (tx->state == TXN_PREPARED)
		return 0;
	if (tx->state == TXN_FAILED)
		return pacing_error_set(err, PACING_FIELD_TRANSACTION,
					tx->fail_code, "the transaction "
					"failed; abort it");
	t = tx->table;
	/* Entries freed by the batch go only after the new ones exist. */
	for (i = tx->nb_entries; i < t->nb_entries; i++)
		nb_new += t->entries[i].staged > 0;
	need = (uint64_t)t->nb_live + nb_new;
	if (need > t->capacity)
		return pacing_error_set(err, PACING_FIELD_TABLE_CAPACITY,
			txn_fail(tx, -ENOSPC), "pacing table full: the change "
			"needs %" PRIu64 " distinct pacing entries (%" PRIu32
			" in use + %" PRIu32 " new) but the device has %"
			PRIu32, need, t->nb_live, nb_new, t->capacity);
	for (i = tx->nb_entries; i < t->nb_entries; i++) {
		struct entry *e = &t->entries[i];

		if (e->staged <= 0)
			continue;
		ret = 0;
		if (tx->ops != NULL && tx->ops->alloc != NULL)
			ret = tx->ops->alloc(tx->opaque, &e->ctx, e->dedicated,
					     &e->hw);
		if (ret != 0) {
			ret = ret > 0 ? -ret : ret;
			e->hw = NULL;
			txn_free_hw(tx);
			return pacing_error_set(err, PACING_FIELD_HW,
				txn_fail(tx, ret), "the device refused pacing "
				"entry %" PRIu64 " (rate_limit %" PRIu32 " %s, "
				"error %d); nothing changed", e->id,
				e->ctx.rate_limit, e->ctx.rate_mode ==
				PACING_RATE_MODE_WQE ? "WQEs/s" : "kbps", -ret);
		}
		e->allocated = true;
	}
	tx->state = TXN_PREPARED;
	return 0;
}

void *
pacing_txn_entry_hw(const struct pacing_txn *tx, uint64_t entry_id)
{
	const struct entry *e;

	if (tx == NULL)
		return NULL;
	e = find_entry(tx->table, tx->table->nb_entries, entry_id);
	return e != NULL && e->allocated ? e->hw : NULL;
}

void
pacing_txn_abort(struct pacing_txn *tx)
{
	struct pacing_table *t;
	uint32_t k, v;

	if (tx == NULL || tx->state == TXN_CLOSED)
		return;
	t = tx->table;
	txn_free_hw(tx);
	for (k = 0; k < t->nb_touched; k++) {
		v = t->touched[k];
		if (v & HOLD && (v & ~HOLD) < tx->nb_holds)
			t->holds[v & ~HOLD].staged = 0;
		else if (!(v & HOLD) && v < tx->nb_entries)
			t->entries[v].staged = 0;
	}
	t->nb_touched = 0;
	t->nb_empty -= t->nb_holds - tx->nb_holds; /* new holds are empty */
	t->next_id = tx->next_id;
	tx->state = TXN_CLOSED;
	if (t->nb_entries == tx->nb_entries && t->nb_holds == tx->nb_holds)
		return;
	t->nb_entries = tx->nb_entries;
	t->nb_holds = tx->nb_holds;
	/* Never fails: the arrays did not grow since the last rebuild. */
	reindex(t);
}

/* Drops the gone entries and the empty holds; rebuilds the index. */
static void
compact(struct pacing_table *t)
{
	uint32_t i, kept;

	for (i = 0, kept = 0; i < t->nb_holds; i++)
		if (t->holds[i].count != 0)
			t->holds[kept++] = t->holds[i];
	t->nb_holds = kept;
	for (i = 0, kept = 0; i < t->nb_entries; i++)
		if (!t->entries[i].gone)
			t->entries[kept++] = t->entries[i];
	t->nb_entries = kept;
	t->nb_gone = 0;
	t->nb_empty = 0;
	reindex(t);
}

/* Folds the staged references of what position @p v names. */
static void
fold(struct pacing_txn *tx, uint32_t v)
{
	struct pacing_table *t = tx->table;
	struct entry *e;
	uint32_t before;

	if (v & HOLD) {
		struct hold *h = &t->holds[v & ~HOLD];

		before = h->count;
		h->count += h->staged;
		h->staged = 0;
		t->nb_empty += (before != 0) - (h->count != 0);
		return;
	}
	e = &t->entries[v];
	if (e->gone)
		return;
	before = e->refcnt;
	e->refcnt += e->staged;
	e->staged = 0;
	if (e->refcnt != 0) {
		t->nb_live += before == 0; /* a new entry */
		return;
	}
	if (e->allocated && tx->ops != NULL && tx->ops->free != NULL)
		tx->ops->free(tx->opaque, &e->ctx, e->hw);
	e->gone = true;
	t->nb_gone++;
	t->nb_live -= before != 0;
}

int
pacing_txn_commit(struct pacing_txn *tx, struct pacing_error *err)
{
	struct pacing_table *t;
	uint32_t k;
	int ret;

	ret = pacing_txn_prepare(tx, err);
	if (ret != 0) {
		pacing_txn_abort(tx);
		return ret;
	}
	t = tx->table;
	for (k = 0; k < t->nb_touched; k++)
		fold(tx, t->touched[k]);
	t->nb_touched = 0;
	tx->state = TXN_CLOSED;
	if (2 * t->nb_gone > t->nb_entries || 2 * t->nb_empty > t->nb_holds)
		compact(t);
	return 0;
}
