/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pacing_table.h"

/* One pacing entry; its reference count is the number of holders. */
struct entry {
	uint64_t id;
	struct pacing_ctx ctx;
	bool dedicated;
	void *hw;
	uint64_t *users;   /* one user id per reference, acquisition order */
	uint32_t nb_users;
	uint32_t users_cap;
	uint32_t staged;   /* scratch of txn_reserve(), 0 otherwise */
	uint32_t released; /* releases staged by the open txn */
	bool loaded;       /* references counted in the open txn's holds */
};

/* One slot of a context index; id 0 marks a free slot. */
struct ctx_slot {
	struct pacing_ctx ctx;
	uint64_t id;
};

/*
 * Shared entries by context, for the exact-match search (open addressing,
 * linear probing, at most half full). It only saves the scan of every
 * entry: when it cannot grow it is marked failed and the entries are
 * scanned instead.
 */
struct ctx_index {
	struct ctx_slot *slots;
	uint32_t nb_slots; /* 0 or a power of two */
	uint32_t count;
	bool failed;
};

struct pacing_table {
	uint32_t capacity;
	struct entry *entries; /* in use, creation (id) order */
	uint32_t nb_entries;
	uint32_t entries_cap;
	uint64_t next_id;      /* ids are never reused */
	struct ctx_index index; /* its shared entries */
	struct pacing_txn *open;
};

enum op_kind {
	OP_ACQUIRE,
	OP_RELEASE,
};

/*
 * References of one user to one entry in a transaction: the staged ones,
 * plus the committed ones once the entry is loaded (when it has seen
 * HOLD_LOAD_RELEASES releases: below that, scanning its holders is
 * cheaper than loading them all).
 */
struct hold {
	uint64_t user;
	uint64_t entry_id; /* 0: free slot */
	int64_t held;
	uint32_t releases; /* staged releases, applied at commit */
};

#define HOLD_LOAD_RELEASES 4

/* Holds by (user, entry), open addressing, at most half full. */
struct hold_map {
	struct hold *slots;
	uint32_t nb_slots; /* 0 or a power of two */
	uint32_t count;
};

/* One staged change, applied in staging order at commit. */
struct op {
	enum op_kind kind;
	uint64_t user;
	uint64_t entry_id;
};

/* An entry this transaction creates. */
struct new_entry {
	struct entry e;
	uint32_t acquires; /* staged acquisitions */
	uint32_t releases; /* staged releases */
	bool allocated;    /* alloc hook succeeded: e.hw is the caller's */
};

enum txn_state {
	TXN_STAGING,
	TXN_PREPARED,
	TXN_FAILED,
};

struct pacing_txn {
	struct pacing_table *table;
	const struct pacing_hw_ops *ops;
	void *opaque;
	enum txn_state state;
	int fail_code;
	uint64_t saved_next_id;
	struct op *staged;
	uint32_t nb_staged;
	uint32_t staged_cap;
	struct new_entry *news;  /* ids saved_next_id, saved_next_id + 1... */
	uint32_t nb_news;
	uint32_t news_cap;
	struct ctx_index news_index; /* the shared ones among news */
	struct hold_map holds;
	uint64_t *released;          /* ids of the entries released */
	uint32_t nb_released;
	uint32_t released_cap;
};

#define PPM 1000000u

/* Grows *arr (of elem-sized items, *cap of them) to hold at least need. */
static int
reserve(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint64_t n;
	void *p;

	if (need <= *cap)
		return 0;
	n = *cap ? (uint64_t)*cap * 2 : 4;
	if (n < need)
		n = need;
	if (n > UINT32_MAX)
		n = UINT32_MAX;
	if (n < need || n > SIZE_MAX / elem)
		return -ENOMEM;
	p = realloc(*arr, (size_t)n * elem);
	if (p == NULL)
		return -ENOMEM;
	*arr = p;
	*cap = (uint32_t)n;
	return 0;
}

static struct entry *
table_lookup(const struct pacing_table *t, uint64_t id)
{
	uint32_t lo = 0, hi = t->nb_entries;

	/* Entries are kept in increasing id order. */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->entries[mid].id == id)
			return &t->entries[mid];
		if (t->entries[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct new_entry *
txn_lookup_new(const struct pacing_txn *tx, uint64_t id)
{
	/* New entries take consecutive ids from saved_next_id on. */
	if (id < tx->saved_next_id || id - tx->saved_next_id >= tx->nb_news)
		return NULL;
	return &tx->news[id - tx->saved_next_id];
}

static uint32_t
ctx_hash(const struct pacing_ctx *c)
{
	const uint64_t mul = 0x9e3779b97f4a7c15ull;
	uint64_t h;

	h = (uint64_t)c->rate_limit * mul ^ c->burst_upper_bound;
	h = h * mul ^ ((uint64_t)c->typical_packet_size << 8 | c->rate_mode);
	h *= mul;
	return (uint32_t)(h >> 32);
}

/* The slot holding @p c, or the free slot where it would go. */
static struct ctx_slot *
index_slot(const struct ctx_index *ix, const struct pacing_ctx *c)
{
	uint32_t i = ctx_hash(c) & (ix->nb_slots - 1);

	while (ix->slots[i].id != 0 && !pacing_ctx_equal(&ix->slots[i].ctx, c))
		i = (i + 1) & (ix->nb_slots - 1);
	return &ix->slots[i];
}

/* Id of the indexed entry of context @p c, 0 if none. */
static uint64_t
index_find(const struct ctx_index *ix, const struct pacing_ctx *c)
{
	if (ix->count == 0)
		return 0;
	return index_slot(ix, c)->id;
}

/* Doubles the slots (at least 16); on failure the index is failed. */
static void
index_grow(struct ctx_index *ix)
{
	struct ctx_index bigger = { 0 };
	uint32_t i;

	bigger.nb_slots = ix->nb_slots != 0 ? ix->nb_slots * 2 : 16;
	if (bigger.nb_slots < ix->nb_slots ||
	    (bigger.slots = calloc(bigger.nb_slots,
				   sizeof(*bigger.slots))) == NULL) {
		free(ix->slots);
		memset(ix, 0, sizeof(*ix));
		ix->failed = true;
		return;
	}
	for (i = 0; i < ix->nb_slots; i++)
		if (ix->slots[i].id != 0)
			*index_slot(&bigger, &ix->slots[i].ctx) =
				ix->slots[i];
	bigger.count = ix->count;
	free(ix->slots);
	*ix = bigger;
}

/* Indexes entry @p id of context @p c, unless an older one has it. */
static void
index_add(struct ctx_index *ix, const struct pacing_ctx *c, uint64_t id)
{
	struct ctx_slot *slot;

	if (ix->failed)
		return;
	if ((uint64_t)(ix->count + 1) * 2 > ix->nb_slots) {
		index_grow(ix);
		if (ix->failed)
			return;
	}
	slot = index_slot(ix, c);
	if (slot->id != 0)
		return;
	slot->ctx = *c;
	slot->id = id;
	ix->count++;
}

static uint32_t
hold_hash(uint64_t user, uint64_t entry_id)
{
	const uint64_t mul = 0x9e3779b97f4a7c15ull;

	return (uint32_t)(((user * mul) ^ entry_id) * mul >> 32);
}

/* The slot of (user, entry_id), or the free slot where it would go. */
static struct hold *
hold_slot(const struct hold_map *m, uint64_t user, uint64_t entry_id)
{
	uint32_t i = hold_hash(user, entry_id) & (m->nb_slots - 1);

	while (m->slots[i].entry_id != 0 &&
	       (m->slots[i].user != user || m->slots[i].entry_id != entry_id))
		i = (i + 1) & (m->nb_slots - 1);
	return &m->slots[i];
}

static int
hold_grow(struct hold_map *m)
{
	struct hold_map bigger = { 0 };
	uint32_t i;

	bigger.nb_slots = m->nb_slots != 0 ? m->nb_slots * 2 : 8;
	if (bigger.nb_slots < m->nb_slots)
		return -ENOMEM;
	bigger.slots = calloc(bigger.nb_slots, sizeof(*bigger.slots));
	if (bigger.slots == NULL)
		return -ENOMEM;
	for (i = 0; i < m->nb_slots; i++)
		if (m->slots[i].entry_id != 0)
			*hold_slot(&bigger, m->slots[i].user,
				   m->slots[i].entry_id) = m->slots[i];
	bigger.count = m->count;
	free(m->slots);
	*m = bigger;
	return 0;
}

/* The hold of (user, entry_id), created empty; NULL without memory. */
static struct hold *
hold_get(struct hold_map *m, uint64_t user, uint64_t entry_id)
{
	struct hold *h;

	if ((uint64_t)(m->count + 1) * 2 > m->nb_slots && hold_grow(m) != 0)
		return NULL;
	h = hold_slot(m, user, entry_id);
	if (h->entry_id == 0) {
		memset(h, 0, sizeof(*h));
		h->user = user;
		h->entry_id = entry_id;
		m->count++;
	}
	return h;
}

/* Rebuilds the table's index from its entries (after a commit). */
static void
index_rebuild(struct pacing_table *t)
{
	uint32_t i;

	if (t->index.slots != NULL)
		memset(t->index.slots, 0,
		       t->index.nb_slots * sizeof(*t->index.slots));
	t->index.count = 0;
	t->index.failed = false;
	for (i = 0; i < t->nb_entries; i++)
		if (!t->entries[i].dedicated)
			index_add(&t->index, &t->entries[i].ctx,
				  t->entries[i].id);
}

static void
fill_info(const struct entry *e, struct pacing_entry_info *info)
{
	info->id = e->id;
	info->ctx = e->ctx;
	info->dedicated = e->dedicated;
	info->refcnt = e->nb_users;
	info->hw = e->hw;
}

struct pacing_table *
pacing_table_create(uint32_t capacity, struct pacing_error *err)
{
	struct pacing_table *t;

	pacing_error_clear(err);
	t = calloc(1, sizeof(*t));
	if (t == NULL) {
		pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
				 "no memory for a pacing table");
		return NULL;
	}
	t->capacity = capacity;
	t->next_id = 1;
	return t;
}

void
pacing_table_destroy(struct pacing_table *t, const struct pacing_hw_ops *ops,
		     void *opaque)
{
	uint32_t i;

	if (t == NULL)
		return;
	if (t->open != NULL)
		pacing_txn_abort(t->open);
	for (i = 0; i < t->nb_entries; i++) {
		if (ops != NULL && ops->free != NULL)
			ops->free(opaque, &t->entries[i].ctx,
				  t->entries[i].hw);
		free(t->entries[i].users);
	}
	free(t->entries);
	free(t->index.slots);
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
	return t->nb_entries;
}

uint32_t
pacing_table_free_slots(const struct pacing_table *t)
{
	return t->nb_entries >= t->capacity ? 0 :
		t->capacity - t->nb_entries;
}

int
pacing_table_entry_get(const struct pacing_table *t, uint64_t entry_id,
		       struct pacing_entry_info *info)
{
	const struct entry *e = table_lookup(t, entry_id);

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
	if (*cursor >= t->nb_entries)
		return 0;
	fill_info(&t->entries[*cursor], info);
	(*cursor)++;
	return 1;
}

int64_t
pacing_table_entry_users(const struct pacing_table *t, uint64_t entry_id,
			 uint64_t *users, uint32_t max)
{
	const struct entry *e = table_lookup(t, entry_id);
	uint32_t i;

	if (e == NULL)
		return -ENOENT;
	for (i = 0; i < e->nb_users && i < max; i++)
		users[i] = e->users[i];
	return e->nb_users;
}

uint32_t
pacing_table_user_entries(const struct pacing_table *t, uint64_t user,
			  uint64_t *ids, uint32_t max)
{
	uint32_t i, j, n = 0;

	for (i = 0; i < t->nb_entries; i++) {
		const struct entry *e = &t->entries[i];

		for (j = 0; j < e->nb_users; j++) {
			if (e->users[j] != user)
				continue;
			if (n < max)
				ids[n] = e->id;
			if (n < UINT32_MAX)
				n++;
		}
	}
	return n;
}

uint64_t
pacing_table_find(const struct pacing_table *t, const struct pacing_ctx *ctx)
{
	uint32_t i;

	if (!t->index.failed)
		return index_find(&t->index, ctx);
	for (i = 0; i < t->nb_entries; i++)
		if (!t->entries[i].dedicated &&
		    pacing_ctx_equal(&t->entries[i].ctx, ctx))
			return t->entries[i].id;
	return 0;
}

struct pacing_txn *
pacing_txn_begin(struct pacing_table *t, const struct pacing_hw_ops *ops,
		 void *opaque, struct pacing_error *err)
{
	struct pacing_txn *tx;

	pacing_error_clear(err);
	if (t == NULL) {
		pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
				 "no pacing table");
		return NULL;
	}
	if (t->open != NULL) {
		pacing_error_set(err, PACING_FIELD_TRANSACTION, -EBUSY,
				 "a transaction is already open on this "
				 "pacing table");
		return NULL;
	}
	tx = calloc(1, sizeof(*tx));
	if (tx == NULL) {
		pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
				 "no memory for a pacing transaction");
		return NULL;
	}
	tx->table = t;
	tx->ops = ops;
	tx->opaque = opaque;
	tx->state = TXN_STAGING;
	tx->saved_next_id = t->next_id;
	t->open = tx;
	return tx;
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

/* Is a shared entry of context c a better match for req than *best? */
static void
consider(const struct entry *e, const struct pacing_ctx *req,
	 uint32_t tolerance_ppm, const struct entry **best, uint64_t *best_d)
{
	uint64_t d;

	if (e->dedicated || e->ctx.rate_mode != req->rate_mode ||
	    e->ctx.burst_upper_bound != req->burst_upper_bound ||
	    e->ctx.typical_packet_size != req->typical_packet_size)
		return;
	d = e->ctx.rate_limit >= req->rate_limit ?
		(uint64_t)e->ctx.rate_limit - req->rate_limit :
		(uint64_t)req->rate_limit - e->ctx.rate_limit;
	/* Both sides below 2^64: 32-bit factors. */
	if (d * PPM > (uint64_t)tolerance_ppm * req->rate_limit)
		return;
	if (*best != NULL) {
		if (d > *best_d)
			return;
		if (d == *best_d &&
		    (e->ctx.rate_limit > (*best)->ctx.rate_limit ||
		     (e->ctx.rate_limit == (*best)->ctx.rate_limit &&
		      e->id > (*best)->id)))
			return;
	}
	*best = e;
	*best_d = d;
}

/*
 * What consider() picks with no tolerance: the oldest shared entry of an
 * identical context, committed ones being older than new ones.
 */
static const struct entry *
find_identical(const struct pacing_txn *tx, const struct pacing_ctx *ctx)
{
	uint64_t id = index_find(&tx->table->index, ctx);
	const struct new_entry *ne;

	if (id != 0)
		return table_lookup(tx->table, id);
	ne = txn_lookup_new(tx, index_find(&tx->news_index, ctx));
	return ne != NULL ? &ne->e : NULL;
}

static int
stage_op(struct pacing_txn *tx, enum op_kind kind, uint64_t user,
	 uint64_t entry_id, struct pacing_error *err)
{
	struct hold *h;

	if (reserve((void **)&tx->staged, &tx->staged_cap, tx->nb_staged + 1,
		    sizeof(*tx->staged)) != 0 || tx->nb_staged == UINT32_MAX ||
	    (h = hold_get(&tx->holds, user, entry_id)) == NULL)
		return pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
					"no memory to stage a pacing change");
	tx->staged[tx->nb_staged].kind = kind;
	tx->staged[tx->nb_staged].user = user;
	tx->staged[tx->nb_staged].entry_id = entry_id;
	tx->nb_staged++;
	if (kind == OP_ACQUIRE) {
		h->held++;
	} else {
		h->held--;
		h->releases++;
	}
	return 0;
}

int
pacing_txn_acquire(struct pacing_txn *tx, uint64_t user,
		   const struct pacing_ctx *ctx, uint32_t flags,
		   uint32_t tolerance_ppm, struct pacing_grant *grant,
		   struct pacing_error *err)
{
	const struct entry *best = NULL;
	struct new_entry *ne = NULL;
	uint64_t best_d = 0;
	uint32_t i;
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
	if (!(flags & PACING_ACQ_DEDICATED) && tolerance_ppm == 0 &&
	    !tx->table->index.failed && !tx->news_index.failed) {
		best = find_identical(tx, ctx);
	} else if (!(flags & PACING_ACQ_DEDICATED)) {
		for (i = 0; i < tx->table->nb_entries; i++)
			consider(&tx->table->entries[i], ctx, tolerance_ppm,
				 &best, &best_d);
		for (i = 0; i < tx->nb_news; i++)
			consider(&tx->news[i].e, ctx, tolerance_ppm, &best,
				 &best_d);
	}
	if (best == NULL) {
		if (reserve((void **)&tx->news, &tx->news_cap,
			    tx->nb_news + 1, sizeof(*tx->news)) != 0)
			return pacing_error_set(err, PACING_FIELD_NOMEM,
				-ENOMEM, "no memory to stage a pacing entry");
		ne = &tx->news[tx->nb_news];
		memset(ne, 0, sizeof(*ne));
		ne->e.id = tx->table->next_id;
		ne->e.ctx = *ctx;
		ne->e.dedicated = (flags & PACING_ACQ_DEDICATED) != 0;
		best = &ne->e;
	}
	ret = stage_op(tx, OP_ACQUIRE, user, best->id, err);
	if (ret != 0)
		return ret;
	if (ne != NULL) {
		tx->nb_news++;
		tx->table->next_id++;
		ne->acquires = 1;
		if (!ne->e.dedicated)
			index_add(&tx->news_index, &ne->e.ctx, ne->e.id);
	} else {
		struct new_entry *staged_new = txn_lookup_new(tx, best->id);

		if (staged_new != NULL)
			staged_new->acquires++;
	}
	grant->entry_id = best->id;
	grant->ctx = best->ctx;
	grant->created = ne != NULL;
	grant->dedicated = best->dedicated;
	grant->deviation_ppm = pacing_error_ppm(ctx->rate_limit,
						best->ctx.rate_limit);
	return 0;
}

/* Adds the committed references to @p e to the holds, once per txn. */
static int
hold_load(struct pacing_txn *tx, struct entry *e)
{
	uint32_t i, j;

	for (i = 0; i < e->nb_users; i++) {
		struct hold *h = hold_get(&tx->holds, e->users[i], e->id);

		if (h == NULL) {
			for (j = 0; j < i; j++)
				hold_slot(&tx->holds, e->users[j],
					  e->id)->held--;
			return -ENOMEM;
		}
		h->held++;
	}
	e->loaded = true;
	return 0;
}

/* References user holds to @p e with the staged changes counted. */
static int
holdings(struct pacing_txn *tx, uint64_t user, struct entry *e,
	 int64_t *n)
{
	struct hold *h = hold_get(&tx->holds, user, e->id);
	uint32_t i;

	if (h == NULL)
		return -ENOMEM;
	*n = h->held;
	if (!e->loaded)
		for (i = 0; i < e->nb_users; i++)
			*n += e->users[i] == user;
	return 0;
}

int
pacing_txn_release(struct pacing_txn *tx, uint64_t user, uint64_t entry_id,
		   struct pacing_error *err)
{
	struct new_entry *ne;
	struct entry *e;
	int64_t n;
	int ret;

	pacing_error_clear(err);
	ret = check_staging(tx, err);
	if (ret != 0)
		return ret;
	ne = txn_lookup_new(tx, entry_id);
	e = ne != NULL ? &ne->e : table_lookup(tx->table, entry_id);
	if (e == NULL)
		return pacing_error_set(err, PACING_FIELD_ENTRY, -ENOENT,
					"pacing entry %" PRIu64 " does not "
					"exist", entry_id);
	if (holdings(tx, user, e, &n) != 0 ||
	    reserve((void **)&tx->released, &tx->released_cap,
		    tx->nb_released + 1, sizeof(*tx->released)) != 0)
		return pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
					"no memory to stage a pacing change");
	if (n < 1)
		return pacing_error_set(err, PACING_FIELD_ENTRY, -ENOENT,
					"user %" PRIu64 " holds no reference "
					"to pacing entry %" PRIu64, user,
					entry_id);
	ret = stage_op(tx, OP_RELEASE, user, entry_id, err);
	if (ret != 0)
		return ret;
	if (ne != NULL)
		ne->releases++;
	if (e->released++ == 0)
		tx->released[tx->nb_released++] = e->id;
	/* Many releases: count its holders once (on failure, keep scanning). */
	if (!e->loaded && e->released >= HOLD_LOAD_RELEASES)
		hold_load(tx, e);
	return 0;
}

uint32_t
pacing_txn_new_entries(const struct pacing_txn *tx)
{
	uint32_t i, n = 0;

	for (i = 0; i < tx->nb_news; i++)
		n += tx->news[i].acquires > tx->news[i].releases;
	return n;
}

/* Frees the hardware this transaction created, newest first. */
static void
txn_free_hw(struct pacing_txn *tx)
{
	uint32_t i;

	for (i = tx->nb_news; i-- > 0;) {
		struct new_entry *ne = &tx->news[i];

		if (!ne->allocated)
			continue;
		if (tx->ops != NULL && tx->ops->free != NULL)
			tx->ops->free(tx->opaque, &ne->e.ctx, ne->e.hw);
		ne->allocated = false;
		ne->e.hw = NULL;
	}
}

/* The entry, committed or new, a staged operation names. */
static struct entry *
staged_entry(const struct pacing_txn *tx, uint64_t id)
{
	struct entry *e = table_lookup(tx->table, id);

	return e != NULL ? e : &txn_lookup_new(tx, id)->e;
}

/*
 * Reserves every allocation commit will need, so that applying cannot
 * fail half-way. Extra capacity is not a visible change of the table.
 */
static int
txn_reserve(struct pacing_txn *tx, uint32_t nb_new)
{
	struct pacing_table *t = tx->table;

	uint32_t i;
	int ret = 0;

	if (reserve((void **)&t->entries, &t->entries_cap,
		    t->nb_entries + nb_new, sizeof(*t->entries)) != 0)
		return -ENOMEM;
	/* Count each entry's staged acquisitions... */
	for (i = 0; i < tx->nb_staged; i++)
		if (tx->staged[i].kind == OP_ACQUIRE)
			staged_entry(tx, tx->staged[i].entry_id)->staged++;
	/* ...and reserve once per entry, at its first one. */
	for (i = 0; i < tx->nb_staged && ret == 0; i++) {
		struct entry *e;

		if (tx->staged[i].kind != OP_ACQUIRE)
			continue;
		e = staged_entry(tx, tx->staged[i].entry_id);
		if (e->staged == 0)
			continue;
		if ((uint64_t)e->nb_users + e->staged > UINT32_MAX ||
		    reserve((void **)&e->users, &e->users_cap,
			    e->nb_users + e->staged, sizeof(*e->users)) != 0)
			ret = -ENOMEM;
		e->staged = 0;
	}
	for (; i < tx->nb_staged; i++)
		if (tx->staged[i].kind == OP_ACQUIRE)
			staged_entry(tx, tx->staged[i].entry_id)->staged = 0;
	return ret;
}

int
pacing_txn_prepare(struct pacing_txn *tx, struct pacing_error *err)
{
	struct pacing_table *t;
	uint32_t nb_new, i;
	uint64_t need;
	int ret;

	pacing_error_clear(err);
	if (tx == NULL)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
					"no pacing transaction");
	if (tx->state == TXN_PREPARED)
		return 0;
	if (tx->state == TXN_FAILED)
		return pacing_error_set(err, PACING_FIELD_TRANSACTION,
					tx->fail_code, "the transaction "
					"failed; abort it");
	t = tx->table;
	nb_new = pacing_txn_new_entries(tx);
	need = (uint64_t)t->nb_entries + nb_new;
	if (need > t->capacity) {
		tx->state = TXN_FAILED;
		tx->fail_code = -ENOSPC;
		return pacing_error_set(err, PACING_FIELD_TABLE_CAPACITY,
			-ENOSPC, "pacing table full: the change needs %" PRIu64
			" distinct pacing entries (%" PRIu32 " in use + %"
			PRIu32 " new) but the device has %" PRIu32,
			need, t->nb_entries, nb_new, t->capacity);
	}
	if (txn_reserve(tx, nb_new) != 0) {
		tx->state = TXN_FAILED;
		tx->fail_code = -ENOMEM;
		return pacing_error_set(err, PACING_FIELD_NOMEM, -ENOMEM,
					"no memory to apply the pacing change");
	}
	for (i = 0; i < tx->nb_news; i++) {
		struct new_entry *ne = &tx->news[i];

		if (ne->acquires <= ne->releases)
			continue;
		if (tx->ops != NULL && tx->ops->alloc != NULL) {
			void *hw = NULL;

			ret = tx->ops->alloc(tx->opaque, &ne->e.ctx,
					     ne->e.dedicated, &hw);
			if (ret != 0) {
				if (ret > 0)
					ret = -ret;
				txn_free_hw(tx);
				tx->state = TXN_FAILED;
				tx->fail_code = ret;
				return pacing_error_set(err, PACING_FIELD_HW,
					ret, "the device refused pacing entry "
					"%" PRIu64 " (rate_limit %" PRIu32
					" %s, error %d); nothing changed",
					ne->e.id, ne->e.ctx.rate_limit,
					ne->e.ctx.rate_mode ==
					PACING_RATE_MODE_WQE ?
					"WQEs/s" : "kbps", -ret);
			}
			ne->e.hw = hw;
		}
		ne->allocated = true;
	}
	tx->state = TXN_PREPARED;
	return 0;
}

void *
pacing_txn_entry_hw(const struct pacing_txn *tx, uint64_t entry_id)
{
	const struct entry *e;
	const struct new_entry *ne;

	if (tx == NULL)
		return NULL;
	e = table_lookup(tx->table, entry_id);
	if (e != NULL)
		return e->hw;
	ne = txn_lookup_new(tx, entry_id);
	if (ne == NULL || !ne->allocated)
		return NULL;
	return ne->e.hw;
}

static void
txn_end(struct pacing_txn *tx)
{
	uint32_t i;

	for (i = 0; i < tx->nb_news; i++)
		free(tx->news[i].e.users); /* only for unapplied entries */
	for (i = 0; i < tx->nb_released; i++) {
		struct entry *e = table_lookup(tx->table, tx->released[i]);

		if (e != NULL) {
			e->released = 0;
			e->loaded = false;
		}
	}
	tx->table->open = NULL;
	free(tx->staged);
	free(tx->news);
	free(tx->news_index.slots);
	free(tx->holds.slots);
	free(tx->released);
	free(tx);
}

void
pacing_txn_abort(struct pacing_txn *tx)
{
	if (tx == NULL)
		return;
	txn_free_hw(tx);
	tx->table->next_id = tx->saved_next_id;
	txn_end(tx);
}

/* Drops the oldest reference of @p user to @p e. */
static void
remove_user(struct entry *e, uint64_t user)
{
	uint32_t i;

	for (i = 0; i < e->nb_users; i++) {
		if (e->users[i] != user)
			continue;
		memmove(&e->users[i], &e->users[i + 1],
			(e->nb_users - i - 1) * sizeof(*e->users));
		e->nb_users--;
		return;
	}
}

/*
 * Applies the staged releases of a loaded entry in one pass: each drops
 * the oldest reference of its user, as remove_user() one by one would.
 */
static void
drop_released(struct pacing_txn *tx, struct entry *e)
{
	uint32_t i, kept = 0;

	for (i = 0; i < e->nb_users; i++) {
		struct hold *h = hold_slot(&tx->holds, e->users[i], e->id);

		if (h->entry_id != 0 && h->releases > 0) {
			h->releases--;
			continue;
		}
		e->users[kept++] = e->users[i];
	}
	e->nb_users = kept;
	e->loaded = false;
	e->released = 0; /* done */
}

int
pacing_txn_commit(struct pacing_txn *tx, struct pacing_error *err)
{
	struct pacing_table *t;
	uint32_t i, kept;
	bool added = false;
	int ret;

	ret = pacing_txn_prepare(tx, err);
	if (ret != 0) {
		pacing_txn_abort(tx);
		return ret;
	}
	t = tx->table;
	/* New entries go in id order, after every existing one. */
	for (i = 0; i < tx->nb_news; i++) {
		struct new_entry *ne = &tx->news[i];

		if (!ne->allocated)
			continue;
		t->entries[t->nb_entries++] = ne->e;
		ne->e.users = NULL; /* now owned by the table */
		ne->allocated = false;
		added = true;
	}
	/* Acquisitions first, then releases: make before break. */
	for (i = 0; i < tx->nb_staged; i++) {
		const struct op *o = &tx->staged[i];
		struct entry *e = table_lookup(t, o->entry_id);

		if (o->kind == OP_ACQUIRE && e != NULL)
			e->users[e->nb_users++] = o->user;
	}
	for (i = 0; i < tx->nb_staged; i++) {
		const struct op *o = &tx->staged[i];
		struct entry *e = table_lookup(t, o->entry_id);

		if (o->kind != OP_RELEASE || e == NULL)
			continue;
		if (e->loaded)
			drop_released(tx, e);
		else if (e->released > 0)
			remove_user(e, o->user);
	}
	for (i = 0, kept = 0; i < t->nb_entries; i++) {
		struct entry *e = &t->entries[i];

		if (e->nb_users == 0) {
			if (tx->ops != NULL && tx->ops->free != NULL)
				tx->ops->free(tx->opaque, &e->ctx, e->hw);
			free(e->users);
			continue;
		}
		if (kept != i)
			t->entries[kept] = *e;
		kept++;
	}
	if (kept != t->nb_entries || added) {
		t->nb_entries = kept;
		index_rebuild(t);
	}
	txn_end(tx);
	return 0;
}

int
pacing_table_acquire(struct pacing_table *t, const struct pacing_hw_ops *ops,
		     void *opaque, uint64_t user, const struct pacing_ctx *ctx,
		     uint32_t flags, uint32_t tolerance_ppm,
		     struct pacing_grant *grant, struct pacing_error *err)
{
	struct pacing_error local;
	struct pacing_txn *tx;
	int ret;

	if (err == NULL)
		err = &local;
	tx = pacing_txn_begin(t, ops, opaque, err);
	if (tx == NULL)
		return err->code;
	ret = pacing_txn_acquire(tx, user, ctx, flags, tolerance_ppm, grant,
				 err);
	if (ret != 0) {
		pacing_txn_abort(tx);
		return ret;
	}
	return pacing_txn_commit(tx, err);
}

int
pacing_table_release(struct pacing_table *t, const struct pacing_hw_ops *ops,
		     void *opaque, uint64_t user, uint64_t entry_id,
		     struct pacing_error *err)
{
	struct pacing_error local;
	struct pacing_txn *tx;
	int ret;

	if (err == NULL)
		err = &local;
	tx = pacing_txn_begin(t, ops, opaque, err);
	if (tx == NULL)
		return err->code;
	ret = pacing_txn_release(tx, user, entry_id, err);
	if (ret != 0) {
		pacing_txn_abort(tx);
		return ret;
	}
	return pacing_txn_commit(tx, err);
}
