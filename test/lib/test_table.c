/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Pacing-entry table: sharing, capacity, tolerance, transactions. */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "pacing.h"
#include "test_common.h"
#include "test_lib.h"

/* Records hardware hook calls; can fail the n-th allocation. */
struct hw_rec {
	int allocs;
	int frees;
	int fail_at;  /* 1-based alloc call that fails, 0 for none */
	int live;
	uintptr_t next;
	char log[512];
};

static void
rec_log(struct hw_rec *h, char op, uintptr_t handle)
{
	size_t len = strlen(h->log);

	snprintf(h->log + len, sizeof(h->log) - len, "%c%" PRIuPTR " ", op,
		 handle);
}

static int
rec_alloc(void *opaque, const struct pacing_ctx *ctx __attribute__((unused)),
	  bool dedicated __attribute__((unused)), void **hw)
{
	struct hw_rec *h = opaque;

	h->allocs++;
	if (h->fail_at == h->allocs)
		return -ENOSPC;
	*hw = (void *)++h->next;
	h->live++;
	rec_log(h, 'A', h->next);
	return 0;
}

static void
rec_free(void *opaque, const struct pacing_ctx *ctx __attribute__((unused)),
	 void *hw)
{
	struct hw_rec *h = opaque;

	h->frees++;
	h->live--;
	rec_log(h, 'F', (uintptr_t)hw);
}

static const struct pacing_hw_ops rec_ops = {
	.alloc = rec_alloc,
	.free = rec_free,
};

static struct pacing_ctx
kbps(uint32_t rate)
{
	struct pacing_ctx c = { .rate_limit = rate };

	return c;
}

/* One acquisition in a transaction of its own. */
static int
one_acquire(struct pacing_table *t, const struct pacing_hw_ops *ops,
	    void *opaque, uint64_t user, const struct pacing_ctx *ctx,
	    uint32_t flags, uint32_t tolerance_ppm, struct pacing_grant *g,
	    struct pacing_error *e)
{
	struct pacing_txn *tx = pacing_txn_begin(t, ops, opaque, e);
	int ret;

	if (tx == NULL)
		return e->code;
	ret = pacing_txn_acquire(tx, user, ctx, flags, tolerance_ppm, g, e);
	if (ret != 0) {
		pacing_txn_abort(tx);
		return ret;
	}
	return pacing_txn_commit(tx, e);
}

/* One release in a transaction of its own. */
static int
one_release(struct pacing_table *t, const struct pacing_hw_ops *ops,
	    void *opaque, uint64_t user, uint64_t entry_id,
	    struct pacing_error *e)
{
	struct pacing_txn *tx = pacing_txn_begin(t, ops, opaque, e);
	int ret;

	if (tx == NULL)
		return e->code;
	ret = pacing_txn_release(tx, user, entry_id, e);
	if (ret != 0) {
		pacing_txn_abort(tx);
		return ret;
	}
	return pacing_txn_commit(tx, e);
}

/* A text image of everything observable in the table. */
static void
snapshot(const struct pacing_table *t, char *buf, size_t size)
{
	struct pacing_entry_info info;
	uint64_t cursor = 0, users[16];
	size_t len;

	snprintf(buf, size, "cap %u used %u;", pacing_table_capacity(t),
		 pacing_table_in_use(t));
	while (pacing_table_entry_next(t, &cursor, &info)) {
		int64_t n = pacing_table_entry_users(t, info.id, users, 16);
		int64_t i;

		len = strlen(buf);
		snprintf(buf + len, size - len, " #%" PRIu64 " r%u b%u t%u m%u"
			 " d%d c%u hw%p [", info.id, info.ctx.rate_limit,
			 info.ctx.burst_upper_bound,
			 info.ctx.typical_packet_size, info.ctx.rate_mode,
			 info.dedicated, info.refcnt, info.hw);
		for (i = 0; i < n && i < 16; i++) {
			len = strlen(buf);
			snprintf(buf + len, size - len, " %" PRIu64, users[i]);
		}
		len = strlen(buf);
		snprintf(buf + len, size - len, " ]");
	}
}

static uint64_t
acquire(struct pacing_table *t, struct hw_rec *h, uint64_t user,
	uint32_t rate, uint32_t flags)
{
	struct pacing_ctx c = kbps(rate);
	struct pacing_grant g;
	struct pacing_error e;
	int ret;

	ret = one_acquire(t, &rec_ops, h, user, &c, flags, 0, &g,
				   &e);
	CHECK_EQ(ret, 0);
	return ret == 0 ? g.entry_id : 0;
}

void
test_share_identical(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, NULL);
	struct pacing_ctx c = kbps(1500000);
	struct pacing_entry_info info;
	struct pacing_grant g1, g2;
	struct pacing_error e;

	CHECK_EQ(one_acquire(t, &rec_ops, &h, 0, &c, 0, 0, &g1, &e),
		 0);
	CHECK(g1.created, "first acquisition creates");
	CHECK_EQ(g1.deviation_ppm, 0);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 1, &c, 0, 0, &g2, &e),
		 0);
	CHECK(!g2.created, "second acquisition shares");
	CHECK_EQ(g2.entry_id, g1.entry_id);
	CHECK_EQ(h.allocs, 1);
	CHECK_EQ(pacing_table_entry_get(t, g1.entry_id, &info), 0);
	CHECK_EQ(info.refcnt, 2);
	/* A different burst bound is a different context. */
	c.burst_upper_bound = 4096;
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 2, &c, 0, 0, &g2, &e),
		 0);
	CHECK(g2.created && g2.entry_id != g1.entry_id, "distinct entry");
	CHECK_EQ(pacing_table_in_use(t), 2);
	/* Releasing one of two references keeps the entry. */
	CHECK_EQ(one_release(t, &rec_ops, &h, 0, g1.entry_id, &e), 0);
	CHECK_EQ(h.frees, 0);
	CHECK_EQ(one_release(t, &rec_ops, &h, 1, g1.entry_id, &e), 0);
	CHECK_EQ(h.frees, 1);
	CHECK_EQ(pacing_table_entry_get(t, g1.entry_id, &info), -ENOENT);
	CHECK_EQ(pacing_table_in_use(t), 1);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_dedicated(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, NULL);
	struct pacing_entry_info info;
	uint64_t d1, d2, s1, s2;

	d1 = acquire(t, &h, 0, 10000, PACING_ACQ_DEDICATED);
	d2 = acquire(t, &h, 1, 10000, PACING_ACQ_DEDICATED);
	s1 = acquire(t, &h, 2, 10000, 0);
	s2 = acquire(t, &h, 3, 10000, 0);
	CHECK(d1 != d2, "dedicated entries are never shared");
	CHECK(s1 != d1 && s1 != d2, "a shared request skips dedicated ones");
	CHECK_EQ(s1, s2);
	CHECK_EQ(pacing_table_in_use(t), 3);
	CHECK_EQ(pacing_table_entry_get(t, d1, &info), 0);
	CHECK(info.dedicated && info.refcnt == 1, "dedicated, one user");
	CHECK_EQ(h.allocs, 3);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_table_full(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(4, NULL);
	struct pacing_ctx c = kbps(5000);
	struct pacing_grant g;
	struct pacing_error e;
	char before[1024], after[1024];
	uint32_t i;

	for (i = 0; i < 4; i++)
		acquire(t, &h, i, 1000 * (i + 1), 0);
	CHECK_EQ(pacing_table_in_use(t), 4);
	snapshot(t, before, sizeof(before));
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 9, &c, 0, 0, &g, &e),
		 -ENOSPC);
	CHECK_EQ(e.field, PACING_FIELD_TABLE_CAPACITY);
	CHECK_EQ(e.code, -ENOSPC);
	CHECK_STR(e.message, "needs 5 distinct pacing entries (4 in use + 1 "
		  "new) but the device has 4");
	snapshot(t, after, sizeof(after));
	CHECK(strcmp(before, after) == 0, "table changed: %s", after);
	CHECK_EQ(h.allocs, 4);
	/* Sharing an existing entry still works on a full table. */
	c = kbps(3000);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 9, &c, 0, 0, &g, &e),
		 0);
	CHECK(!g.created, "shared");
	/* Capacity 0: nothing fits. */
	pacing_table_destroy(t, &rec_ops, &h);
	t = pacing_table_create(0, NULL);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 9, &c, 0, 0, &g, &e),
		 -ENOSPC);
	CHECK_STR(e.message, "needs 1 distinct pacing entries (0 in use + 1 "
		  "new) but the device has 0");
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_tolerance_boundary(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, NULL);
	struct pacing_ctx c = kbps(1000000);
	struct pacing_grant g;
	struct pacing_error e;
	uint64_t at100, at101;

	/* Entries 100 ppm and 101 ppm above a 1000000 kbps request. */
	at100 = acquire(t, &h, 0, 1000100, 0);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 1, &c, 0, 100, &g, &e),
		 0);
	CHECK_EQ(g.entry_id, at100);
	CHECK(!g.created, "exactly 100 ppm shares at tolerance 100");
	CHECK_EQ(g.ctx.rate_limit, 1000100);
	CHECK_EQ(g.deviation_ppm, 100);
	CHECK_EQ(one_release(t, &rec_ops, &h, 1, at100, &e), 0);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 1, &c, 0, 99, &g, &e),
		 0);
	CHECK(g.created, "100 ppm does not share at tolerance 99");
	CHECK_EQ(g.ctx.rate_limit, 1000000);
	CHECK_EQ(one_release(t, &rec_ops, &h, 1, g.entry_id, &e), 0);
	CHECK_EQ(one_release(t, &rec_ops, &h, 0, at100, &e), 0);

	at101 = acquire(t, &h, 0, 1000101, 0);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 1, &c, 0, 100, &g, &e),
		 0);
	CHECK(g.created && g.entry_id != at101,
	      "101 ppm does not share at tolerance 100");
	CHECK_EQ(g.deviation_ppm, 0);
	/* Above the request too: 1000000 is 100 ppm over 999900. */
	c = kbps(999900);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 2, &c, 0, 101, &g, &e),
		 0);
	CHECK(!g.created, "shared within 101 ppm");
	CHECK_EQ(g.ctx.rate_limit, 1000000);
	CHECK_EQ(g.deviation_ppm, 100);
	/* Same rate, different typical size or mode: never shared. */
	c = kbps(1000000);
	c.typical_packet_size = 1500;
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 3, &c, 0, 1000000, &g,
				      &e), 0);
	CHECK(g.created, "typical size differs");
	c = kbps(1000000);
	c.rate_mode = PACING_RATE_MODE_WQE;
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 4, &c, 0, 1000000, &g,
				      &e), 0);
	CHECK(g.created, "rate mode differs");
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_tolerance_tie(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, NULL);
	struct pacing_ctx c = kbps(1000000);
	struct pacing_grant g;
	struct pacing_error e;
	uint64_t up, down, ded;

	up = acquire(t, &h, 0, 1000050, 0);
	down = acquire(t, &h, 1, 999950, 0);
	ded = acquire(t, &h, 2, 1000000, PACING_ACQ_DEDICATED);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 3, &c, 0, 50, &g, &e),
		 0);
	CHECK_EQ(g.entry_id, down);
	CHECK(g.entry_id != ded && g.entry_id != up, "tie goes to the lower");
	CHECK_EQ(g.deviation_ppm, -50);
	/* The closest wins over the lower. */
	c = kbps(1000040);
	CHECK_EQ(one_acquire(t, &rec_ops, &h, 4, &c, 0, 100, &g, &e),
		 0);
	CHECK_EQ(g.entry_id, up);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_batch_capacity_rollback(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(4, NULL);
	struct pacing_ctx c;
	struct pacing_grant g;
	struct pacing_error e;
	struct pacing_txn *tx;
	char before[1024], after[1024];
	uint64_t a;

	a = acquire(t, &h, 0, 1000, 0);
	acquire(t, &h, 1, 2000, 0);
	snapshot(t, before, sizeof(before));
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	CHECK(tx != NULL, "begin");
	c = kbps(1000);
	CHECK_EQ(pacing_txn_acquire(tx, 5, &c, 0, 0, &g, &e), 0);
	CHECK(!g.created, "shares");
	c = kbps(3000);
	CHECK_EQ(pacing_txn_acquire(tx, 6, &c, 0, 0, &g, &e), 0);
	c = kbps(4000);
	CHECK_EQ(pacing_txn_acquire(tx, 7, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(pacing_txn_acquire(tx, 8, &c, PACING_ACQ_DEDICATED, 0, &g,
				    &e), 0);
	CHECK_EQ(pacing_txn_release(tx, 0, a, &e), 0);
	CHECK_EQ(pacing_txn_commit(tx, &e), -ENOSPC);
	CHECK_EQ(e.field, PACING_FIELD_TABLE_CAPACITY);
	CHECK_STR(e.message, "needs 5 distinct pacing entries (2 in use + 3 "
		  "new) but the device has 4");
	snapshot(t, after, sizeof(after));
	CHECK(strcmp(before, after) == 0, "table changed: %s", after);
	CHECK_EQ(h.allocs, 2);
	/* The ids staged in the failed batch are not consumed. */
	CHECK_EQ(acquire(t, &h, 9, 9000, 0), 3);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_batch_hw_failure_rollback(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(16, NULL);
	struct pacing_ctx c;
	struct pacing_grant g;
	struct pacing_error e;
	struct pacing_txn *tx;
	char before[1024], after[1024];
	uint64_t a, b;
	uint32_t i;

	a = acquire(t, &h, 0, 1000, 0);
	b = acquire(t, &h, 1, 2000, 0);
	snapshot(t, before, sizeof(before));
	h.log[0] = '\0';
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	for (i = 0; i < 3; i++) {
		c = kbps(10000 + i);
		CHECK_EQ(pacing_txn_acquire(tx, 10 + i, &c, 0, 0, &g, &e), 0);
		CHECK(g.created, "new");
	}
	c = kbps(1000);
	CHECK_EQ(pacing_txn_acquire(tx, 20, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(pacing_txn_release(tx, 0, a, &e), 0);
	CHECK_EQ(pacing_txn_release(tx, 1, b, &e), 0);
	h.fail_at = h.allocs + 2; /* the second new entry fails */
	CHECK_EQ(pacing_txn_commit(tx, &e), -ENOSPC);
	CHECK_EQ(e.field, PACING_FIELD_HW);
	CHECK_STR(e.message, "rate_limit 10001 kbps");
	/* The first new entry's hardware was freed, nothing else. */
	CHECK(strcmp(h.log, "A3 F3 ") == 0, "hook log \"%s\"", h.log);
	snapshot(t, after, sizeof(after));
	CHECK(strcmp(before, after) == 0, "table changed: %s", after);
	CHECK_EQ(h.live, 2);

	/* Same failure through an explicit prepare, then abort. */
	h.log[0] = '\0';
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	for (i = 0; i < 3; i++) {
		c = kbps(10000 + i);
		CHECK_EQ(pacing_txn_acquire(tx, 10 + i, &c, 0, 0, &g, &e), 0);
	}
	h.fail_at = h.allocs + 3;
	CHECK_EQ(pacing_txn_prepare(tx, &e), -ENOSPC);
	CHECK_EQ(pacing_txn_prepare(tx, &e), -ENOSPC);
	CHECK_EQ(e.field, PACING_FIELD_TRANSACTION);
	CHECK_EQ(pacing_txn_acquire(tx, 1, &c, 0, 0, &g, &e), -EINVAL);
	pacing_txn_abort(tx);
	CHECK(strcmp(h.log, "A4 A5 F5 F4 ") == 0, "hook log \"%s\"", h.log);
	snapshot(t, after, sizeof(after));
	CHECK(strcmp(before, after) == 0, "table changed: %s", after);
	CHECK_EQ(acquire(t, &h, 9, 9000, 0), 3);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_release_unknown(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(4, NULL);
	struct pacing_error e;
	struct pacing_txn *tx;
	char before[1024], after[1024];
	uint64_t a;

	a = acquire(t, &h, 0, 1000, 0);
	snapshot(t, before, sizeof(before));
	CHECK_EQ(one_release(t, &rec_ops, &h, 0, a + 1, &e), -ENOENT);
	CHECK_EQ(e.field, PACING_FIELD_ENTRY);
	CHECK_STR(e.message, "pacing entry 2 does not exist");
	CHECK_EQ(one_release(t, &rec_ops, &h, 1, a, &e), -ENOENT);
	CHECK_STR(e.message, "user 1 holds no reference to pacing entry 1");
	/* Releasing twice in one batch what is held once. */
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	CHECK_EQ(pacing_txn_release(tx, 0, a, &e), 0);
	CHECK_EQ(pacing_txn_release(tx, 0, a, &e), -ENOENT);
	pacing_txn_abort(tx);
	snapshot(t, after, sizeof(after));
	CHECK(strcmp(before, after) == 0, "table changed: %s", after);
	CHECK_EQ(h.frees, 0);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_hitless_update(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(4, NULL);
	struct pacing_ctx c = kbps(2000);
	struct pacing_grant g;
	struct pacing_error e;
	struct pacing_txn *tx;
	uint64_t a, ids[4];

	a = acquire(t, &h, 0, 1000, 0);
	h.log[0] = '\0';
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	CHECK_EQ(pacing_txn_acquire(tx, 0, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(pacing_txn_release(tx, 0, a, &e), 0);
	CHECK(pacing_txn_entry_hw(tx, g.entry_id) == NULL, "not prepared");
	CHECK_EQ(pacing_txn_prepare(tx, &e), 0);
	CHECK_EQ(pacing_txn_prepare(tx, &e), 0);
	/* Both exist now: the caller moves its queue, then commits. */
	CHECK(pacing_txn_entry_hw(tx, g.entry_id) == (void *)2, "new hw");
	CHECK(pacing_txn_entry_hw(tx, a) == (void *)1, "old hw");
	CHECK_EQ(pacing_table_in_use(t), 1);
	CHECK_EQ(pacing_txn_commit(tx, &e), 0);
	CHECK(strcmp(h.log, "A2 F1 ") == 0, "hook log \"%s\"", h.log);
	CHECK_EQ(pacing_table_entry_users(t, g.entry_id, ids, 4), 1);
	CHECK_EQ(ids[0], 0);
	CHECK_EQ(pacing_table_entry_get(t, a, NULL), -ENOENT);
	/* An update to the same context nets out. */
	h.log[0] = '\0';
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	CHECK_EQ(pacing_txn_acquire(tx, 0, &c, 0, 0, &g, &e), 0);
	CHECK(!g.created, "same context");
	CHECK_EQ(pacing_txn_release(tx, 0, g.entry_id, &e), 0);
	CHECK_EQ(pacing_txn_commit(tx, &e), 0);
	CHECK(strcmp(h.log, "") == 0, "hook log \"%s\"", h.log);
	CHECK_EQ(pacing_table_in_use(t), 1);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_make_before_break_capacity(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(2, NULL);
	struct pacing_ctx c = kbps(3000);
	struct pacing_grant g;
	struct pacing_error e;
	struct pacing_txn *tx;
	uint64_t a, b;

	a = acquire(t, &h, 0, 1000, 0);
	b = acquire(t, &h, 1, 2000, 0);
	/* Moving queue 0 to a third rate needs 3 entries at once. */
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	CHECK_EQ(pacing_txn_acquire(tx, 0, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(pacing_txn_release(tx, 0, a, &e), 0);
	CHECK_EQ(pacing_txn_commit(tx, &e), -ENOSPC);
	CHECK_STR(e.message, "needs 3 distinct pacing entries (2 in use + 1 "
		  "new) but the device has 2");
	/* Moving it onto queue 1's rate needs none. */
	c = kbps(2000);
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	CHECK_EQ(pacing_txn_acquire(tx, 0, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(g.entry_id, b);
	CHECK_EQ(pacing_txn_release(tx, 0, a, &e), 0);
	CHECK_EQ(pacing_txn_commit(tx, &e), 0);
	CHECK_EQ(pacing_table_in_use(t), 1);
	CHECK_EQ(h.live, 1);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_staged_new_released(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(1, NULL);
	struct pacing_ctx c = kbps(3000);
	struct pacing_grant g, g2;
	struct pacing_error e;
	struct pacing_txn *tx;

	acquire(t, &h, 0, 1000, 0);
	/* A new entry acquired and released in the batch never exists. */
	tx = pacing_txn_begin(t, &rec_ops, &h, &e);
	CHECK_EQ(pacing_txn_acquire(tx, 5, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(pacing_txn_acquire(tx, 6, &c, 0, 0, &g2, &e), 0);
	CHECK_EQ(g2.entry_id, g.entry_id);
	CHECK(!g2.created, "staged entries are shared too");
	CHECK_EQ(pacing_txn_release(tx, 5, g.entry_id, &e), 0);
	CHECK_EQ(pacing_txn_release(tx, 6, g.entry_id, &e), 0);
	CHECK_EQ(pacing_txn_release(tx, 6, g.entry_id, &e), -ENOENT);
	CHECK_EQ(pacing_txn_commit(tx, &e), 0);
	CHECK_EQ(h.allocs, 1);
	CHECK_EQ(pacing_table_in_use(t), 1);
	CHECK_EQ(pacing_table_entry_get(t, g.entry_id, NULL), -ENOENT);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_txn_misuse(void)
{
	struct pacing_table *t = pacing_table_create(2, NULL);
	struct pacing_ctx c = kbps(0);
	struct pacing_grant g;
	struct pacing_error e;
	struct pacing_txn *tx, *tx2;

	tx = pacing_txn_begin(t, NULL, NULL, &e);
	CHECK(tx != NULL, "begin");
	tx2 = pacing_txn_begin(t, NULL, NULL, &e);
	CHECK(tx2 == NULL, "one transaction at a time");
	CHECK_EQ(e.code, -EBUSY);
	CHECK_EQ(e.field, PACING_FIELD_TRANSACTION);
	CHECK_EQ(one_acquire(t, NULL, NULL, 0, &c, 0, 0, &g, &e),
		 -EBUSY);
	CHECK_EQ(pacing_txn_acquire(tx, 0, &c, 0, 0, &g, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
	c = kbps(1000);
	CHECK_EQ(pacing_txn_acquire(tx, 0, &c, 0x80, 0, &g, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_ARGUMENT);
	CHECK_EQ(pacing_txn_acquire(tx, 0, NULL, 0, 0, &g, &e), -EINVAL);
	c.rate_mode = 2;
	CHECK_EQ(pacing_txn_acquire(tx, 0, &c, 0, 0, &g, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_ARGUMENT);
	c.rate_mode = PACING_RATE_MODE_DATA;
	CHECK_EQ(pacing_txn_acquire(tx, 0, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(pacing_txn_prepare(tx, &e), 0);
	CHECK_EQ(pacing_txn_acquire(tx, 1, &c, 0, 0, &g, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_TRANSACTION);
	CHECK_EQ(pacing_txn_release(tx, 0, g.entry_id, &e), -EINVAL);
	/* Without hooks the table still plans (planning tools). */
	CHECK_EQ(pacing_txn_commit(tx, &e), 0);
	CHECK_EQ(pacing_table_in_use(t), 1);
	CHECK_EQ(pacing_txn_prepare(NULL, &e), -EINVAL);
	pacing_txn_abort(NULL);
	pacing_table_destroy(t, NULL, NULL);
}

void
test_queries(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, NULL);
	struct pacing_entry_info info;
	uint64_t users[8], cursor = 0, a, b;
	int n = 0;

	a = acquire(t, &h, 7, 1000, 0);
	b = acquire(t, &h, 3, 2000, 0);
	acquire(t, &h, 5, 1000, 0);
	acquire(t, &h, 7, 2000, 0);
	acquire(t, &h, 7, 2000, 0);
	CHECK_EQ(pacing_table_capacity(t), 8);
	CHECK_EQ(pacing_table_in_use(t), 2);
	while (pacing_table_entry_next(t, &cursor, &info)) {
		CHECK_EQ(info.id, n == 0 ? a : b);
		CHECK_EQ(info.refcnt, n == 0 ? 2 : 3);
		CHECK(info.hw == (void *)(uintptr_t)(n + 1), "hw handle");
		n++;
	}
	CHECK_EQ(n, 2);
	CHECK_EQ(pacing_table_entry_users(t, b, users, 8), 3);
	CHECK(users[0] == 3 && users[1] == 7 && users[2] == 7, "users of b");
	CHECK_EQ(pacing_table_entry_users(t, a, users, 1), 2);
	CHECK_EQ(users[0], 7);
	CHECK_EQ(pacing_table_entry_users(t, 99, users, 8), -ENOENT);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}

void
test_destroy_frees(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, NULL);
	struct pacing_ctx c = kbps(5000);
	struct pacing_grant g;
	struct pacing_txn *tx;

	acquire(t, &h, 0, 1000, 0);
	acquire(t, &h, 1, 2000, PACING_ACQ_DEDICATED);
	tx = pacing_txn_begin(t, &rec_ops, &h, NULL);
	CHECK_EQ(pacing_txn_acquire(tx, 2, &c, 0, 0, &g, NULL), 0);
	CHECK_EQ(pacing_txn_prepare(tx, NULL), 0);
	CHECK_EQ(h.live, 3);
	/* Destroy aborts the open transaction and frees every entry. */
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
	CHECK_EQ(h.frees, 3);
}

/* Queues 0..2999 on 1500 rates in one batch; returns the commit's result. */
static int
fill(struct pacing_table *t, struct hw_rec *h, uint64_t *ids)
{
	struct pacing_txn *tx = pacing_txn_begin(t, &rec_ops, h, NULL);
	struct pacing_grant g;
	struct pacing_ctx c;
	uint32_t q;

	for (q = 0; q < 3000; q++) {
		c = kbps(1000 + q % 1500);
		if (pacing_txn_acquire(tx, q, &c, 0, 0, &g, NULL) != 0)
			break;
		ids[q] = g.entry_id;
	}
	return q == 3000 ? pacing_txn_commit(tx, NULL) : -EIO;
}

/* Every queue to a rate of its own in one batch (hitless move). */
static int
move_all(struct pacing_table *t, struct hw_rec *h, const uint64_t *ids)
{
	struct pacing_txn *tx = pacing_txn_begin(t, &rec_ops, h, NULL);
	struct pacing_grant g;
	struct pacing_ctx c;
	uint32_t q;

	for (q = 0; q < 3000; q++) {
		c = kbps(100000 + q);
		if (pacing_txn_acquire(tx, q, &c, 0, 0, &g, NULL) != 0 ||
		    pacing_txn_release(tx, q, ids[q], NULL) != 0)
			break;
	}
	return q == 3000 ? pacing_txn_commit(tx, NULL) : -EIO;
}

void
test_large_batch(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(4000, NULL);
	static uint64_t ids[3000];
	struct pacing_entry_info info;
	uint64_t cursor = 0;
	uint32_t bad = 0;

	/* Thousands of entries and holds: the arrays and index grow. */
	CHECK_EQ(fill(t, &h, ids), 0);
	CHECK_EQ(pacing_table_in_use(t), 1500);
	while (pacing_table_entry_next(t, &cursor, &info))
		bad += info.refcnt != 2;
	CHECK_EQ(bad, 0);
	/* 1500 in use + 3000 new > 4000: refused, nothing changes. */
	CHECK_EQ(move_all(t, &h, ids), -ENOSPC);
	CHECK_EQ(pacing_table_in_use(t), 1500);
	CHECK_EQ(pacing_table_entry_users(t, ids[0], NULL, 0), 2);
	CHECK_EQ(h.allocs, 1500);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
	memset(&h, 0, sizeof(h));
	t = pacing_table_create(4500, NULL);
	CHECK_EQ(fill(t, &h, ids), 0);
	CHECK_EQ(move_all(t, &h, ids), 0);
	CHECK_EQ(pacing_table_in_use(t), 3000);
	CHECK(h.allocs == 4500 && h.frees == 1500, "%d allocs, %d frees",
	      h.allocs, h.frees);
	CHECK_EQ(pacing_table_entry_get(t, ids[0], NULL), -ENOENT);
	pacing_table_destroy(t, &rec_ops, &h);
	CHECK_EQ(h.live, 0);
}
