/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Pacing-entry table: sharing, capacity, tolerance, hooks. */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "pacing_sched.h"
#include "pacing_table.h"
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

/* A text image of everything observable in the table. */
static void
snapshot(const struct pacing_table *t, char *buf, size_t size)
{
	struct pacing_entry_info info;
	uint64_t cursor = 0;
	size_t len;

	snprintf(buf, size, "cap %u used %u;", pacing_table_capacity(t),
		 pacing_table_in_use(t));
	while (pacing_table_entry_next(t, &cursor, &info)) {
		len = strlen(buf);
		snprintf(buf + len, size - len, " #%" PRIu64 " r%u b%u t%u m%u"
			 " d%d c%u hw%p", info.id, info.ctx.rate_limit,
			 info.ctx.burst_upper_bound,
			 info.ctx.typical_packet_size, info.ctx.rate_mode,
			 info.dedicated, info.refcnt, info.hw);
	}
}

static uint64_t
acquire(struct pacing_table *t, uint32_t rate, uint32_t flags)
{
	struct pacing_ctx c = kbps(rate);
	struct pacing_grant g;
	struct pacing_error e;
	int ret;

	ret = pacing_table_acquire(t, &c, flags, 0, &g, &e);
	CHECK_EQ(ret, 0);
	return ret == 0 ? g.entry_id : 0;
}

void
test_share_identical(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, &rec_ops, &h, NULL);
	struct pacing_ctx c = kbps(1500000);
	struct pacing_entry_info info;
	struct pacing_grant g1, g2;
	struct pacing_error e;

	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g1, &e), 0);
	CHECK(g1.created, "first acquisition creates");
	CHECK_EQ(g1.deviation_ppm, 0);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g2, &e), 0);
	CHECK(!g2.created, "second acquisition shares");
	CHECK_EQ(g2.entry_id, g1.entry_id);
	CHECK_EQ(h.allocs, 1);
	CHECK_EQ(pacing_table_entry_get(t, g1.entry_id, &info), 0);
	CHECK_EQ(info.refcnt, 2);
	/* A different burst bound is a different context. */
	c.burst_upper_bound = 4096;
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g2, &e), 0);
	CHECK(g2.created && g2.entry_id != g1.entry_id, "distinct entry");
	CHECK_EQ(pacing_table_in_use(t), 2);
	/* Releasing one of two references keeps the entry. */
	CHECK_EQ(pacing_table_release(t, g1.entry_id, &e), 0);
	CHECK_EQ(h.frees, 0);
	CHECK_EQ(pacing_table_release(t, g1.entry_id, &e), 0);
	CHECK_EQ(h.frees, 1);
	CHECK_EQ(pacing_table_entry_get(t, g1.entry_id, &info), -ENOENT);
	CHECK_EQ(pacing_table_in_use(t), 1);
	/* The context is found again after its entry went: a new one. */
	c = kbps(1500000);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g1, &e), 0);
	CHECK(g1.created, "created again");
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g2, &e), 0);
	CHECK_EQ(g2.entry_id, g1.entry_id);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_dedicated(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, &rec_ops, &h, NULL);
	struct pacing_entry_info info;
	uint64_t d1, d2, s1, s2;

	d1 = acquire(t, 10000, PACING_ACQ_DEDICATED);
	d2 = acquire(t, 10000, PACING_ACQ_DEDICATED);
	s1 = acquire(t, 10000, 0);
	s2 = acquire(t, 10000, 0);
	CHECK(d1 != d2, "dedicated entries are never shared");
	CHECK(s1 != d1 && s1 != d2, "a shared request skips dedicated ones");
	CHECK_EQ(s1, s2);
	CHECK_EQ(pacing_table_in_use(t), 3);
	CHECK_EQ(pacing_table_entry_get(t, d1, &info), 0);
	CHECK(info.dedicated && info.refcnt == 1, "dedicated, one user");
	CHECK_EQ(h.allocs, 3);
	/* A dedicated entry goes with its one reference. */
	CHECK_EQ(pacing_table_release(t, d1, NULL), 0);
	CHECK_EQ(pacing_table_entry_get(t, d1, NULL), -ENOENT);
	CHECK_EQ(acquire(t, 10000, 0), s1);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_table_full(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(4, &rec_ops, &h, NULL);
	struct pacing_ctx c = kbps(5000);
	struct pacing_grant g;
	struct pacing_error e;
	char before[1024], after[1024];
	uint32_t i;

	for (i = 0; i < 4; i++)
		acquire(t, 1000 * (i + 1), 0);
	CHECK_EQ(pacing_table_in_use(t), 4);
	snapshot(t, before, sizeof(before));
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), -ENOSPC);
	CHECK_EQ(e.field, PACING_FIELD_TABLE_CAPACITY);
	CHECK_EQ(e.code, -ENOSPC);
	CHECK_STR(e.message, "needs 5 distinct pacing entries (4 in use + 1 "
		  "new) but the device has 4");
	snapshot(t, after, sizeof(after));
	CHECK(strcmp(before, after) == 0, "table changed: %s", after);
	CHECK_EQ(h.allocs, 4);
	/* Sharing an existing entry still works on a full table. */
	c = kbps(3000);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), 0);
	CHECK(!g.created, "shared");
	/* Capacity 0: nothing fits. */
	pacing_table_destroy(t);
	t = pacing_table_create(0, &rec_ops, &h, NULL);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), -ENOSPC);
	CHECK_STR(e.message, "needs 1 distinct pacing entries (0 in use + 1 "
		  "new) but the device has 0");
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_tolerance_boundary(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, &rec_ops, &h, NULL);
	struct pacing_ctx c = kbps(1000000);
	struct pacing_grant g;
	struct pacing_error e;
	uint64_t at100, at101;

	/* Entries 100 ppm and 101 ppm above a 1000000 kbps request. */
	at100 = acquire(t, 1000100, 0);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 100, &g, &e), 0);
	CHECK_EQ(g.entry_id, at100);
	CHECK(!g.created, "exactly 100 ppm shares at tolerance 100");
	CHECK_EQ(g.ctx.rate_limit, 1000100);
	CHECK_EQ(g.deviation_ppm, 100);
	CHECK_EQ(pacing_table_release(t, at100, &e), 0);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 99, &g, &e), 0);
	CHECK(g.created, "100 ppm does not share at tolerance 99");
	CHECK_EQ(g.ctx.rate_limit, 1000000);
	CHECK_EQ(pacing_table_release(t, g.entry_id, &e), 0);
	CHECK_EQ(pacing_table_release(t, at100, &e), 0);

	at101 = acquire(t, 1000101, 0);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 100, &g, &e), 0);
	CHECK(g.created && g.entry_id != at101,
	      "101 ppm does not share at tolerance 100");
	CHECK_EQ(g.deviation_ppm, 0);
	/* Above the request too: 1000000 is 100 ppm over 999900. */
	c = kbps(999900);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 101, &g, &e), 0);
	CHECK(!g.created, "shared within 101 ppm");
	CHECK_EQ(g.ctx.rate_limit, 1000000);
	CHECK_EQ(g.deviation_ppm, 100);
	/* Same rate, different typical size or mode: never shared. */
	c = kbps(1000000);
	c.typical_packet_size = 1500;
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 1000000, &g, &e), 0);
	CHECK(g.created, "typical size differs");
	c = kbps(1000000);
	c.rate_mode = PACING_RATE_MODE_WQE;
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 1000000, &g, &e), 0);
	CHECK(g.created, "rate mode differs");
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_tolerance_tie(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, &rec_ops, &h, NULL);
	struct pacing_ctx c = kbps(1000000);
	struct pacing_grant g;
	struct pacing_error e;
	uint64_t up, down, ded;

	up = acquire(t, 1000050, 0);
	down = acquire(t, 999950, 0);
	ded = acquire(t, 1000000, PACING_ACQ_DEDICATED);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 50, &g, &e), 0);
	CHECK_EQ(g.entry_id, down);
	CHECK(g.entry_id != ded && g.entry_id != up, "tie goes to the lower");
	CHECK_EQ(g.deviation_ppm, -50);
	/* The closest wins over the lower. */
	c = kbps(1000040);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 100, &g, &e), 0);
	CHECK_EQ(g.entry_id, up);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_hw_failure(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(16, &rec_ops, &h, NULL);
	struct pacing_ctx c = kbps(10001);
	struct pacing_grant g;
	struct pacing_error e;
	char before[1024], after[1024];

	acquire(t, 1000, 0);
	acquire(t, 2000, 0);
	snapshot(t, before, sizeof(before));
	h.fail_at = h.allocs + 1;
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), -ENOSPC);
	CHECK_EQ(e.field, PACING_FIELD_HW);
	CHECK_STR(e.message, "rate_limit 10001 kbps");
	snapshot(t, after, sizeof(after));
	CHECK(strcmp(before, after) == 0, "table changed: %s", after);
	CHECK_EQ(h.live, 2);
	/* The context left no trace: the next try creates it. */
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), 0);
	CHECK(g.created && g.entry_id == 3, "entry %" PRIu64, g.entry_id);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_release_unknown(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(4, &rec_ops, &h, NULL);
	struct pacing_error e;
	char before[1024], after[1024];
	uint64_t a;

	a = acquire(t, 1000, 0);
	snapshot(t, before, sizeof(before));
	CHECK_EQ(pacing_table_release(t, a + 1, &e), -ENOENT);
	CHECK_EQ(e.field, PACING_FIELD_ENTRY);
	CHECK_STR(e.message, "pacing entry 2 does not exist");
	CHECK_EQ(pacing_table_release(t, 0, &e), -ENOENT);
	snapshot(t, after, sizeof(after));
	CHECK(strcmp(before, after) == 0, "table changed: %s", after);
	/* Released once, then a second time: gone. */
	CHECK_EQ(pacing_table_release(t, a, &e), 0);
	CHECK_EQ(pacing_table_release(t, a, &e), -ENOENT);
	CHECK_EQ(h.frees, 1);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_hitless_update(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(2, &rec_ops, &h, NULL);
	struct pacing_ctx c = kbps(2000);
	struct pacing_entry_info info;
	struct pacing_grant g;
	struct pacing_error e;
	uint64_t a;

	/* New entry first, the caller moves its queue, then the old goes. */
	a = acquire(t, 1000, 0);
	h.log[0] = '\0';
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(pacing_table_entry_get(t, g.entry_id, &info), 0);
	CHECK(info.hw == (void *)2, "new hw");
	CHECK_EQ(pacing_table_entry_get(t, a, &info), 0);
	CHECK(info.hw == (void *)1, "old hw");
	CHECK_EQ(pacing_table_release(t, a, &e), 0);
	CHECK(strcmp(h.log, "A2 F1 ") == 0, "hook log \"%s\"", h.log);
	/* An update to the same context shares: no hook runs. */
	h.log[0] = '\0';
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), 0);
	CHECK(!g.created, "same context");
	CHECK_EQ(pacing_table_release(t, g.entry_id, &e), 0);
	CHECK(strcmp(h.log, "") == 0, "hook log \"%s\"", h.log);
	CHECK_EQ(pacing_table_in_use(t), 1);
	/* Make before break needs room for both: a third rate is refused. */
	acquire(t, 3000, 0);
	c = kbps(4000);
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), -ENOSPC);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_bad_args(void)
{
	struct pacing_table *t = pacing_table_create(2, NULL, NULL, NULL);
	struct pacing_ctx c = kbps(0);
	struct pacing_grant g;
	struct pacing_error e;

	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
	c = kbps(1000);
	CHECK_EQ(pacing_table_acquire(t, &c, 0x80, 0, &g, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_ARGUMENT);
	CHECK_EQ(pacing_table_acquire(t, NULL, 0, 0, &g, &e), -EINVAL);
	CHECK_EQ(pacing_table_acquire(NULL, &c, 0, 0, &g, &e), -EINVAL);
	c.rate_mode = 2;
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_ARGUMENT);
	CHECK_EQ(pacing_table_in_use(t), 0);
	/* Without hooks the table still plans (planning tools). */
	c.rate_mode = PACING_RATE_MODE_DATA;
	CHECK_EQ(pacing_table_acquire(t, &c, 0, 0, &g, &e), 0);
	CHECK_EQ(pacing_table_in_use(t), 1);
	pacing_table_destroy(t);
	pacing_table_destroy(NULL);
}

void
test_queries(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, &rec_ops, &h, NULL);
	struct pacing_entry_info info;
	uint64_t cursor = 0, a, b;
	int n = 0;

	a = acquire(t, 1000, 0);
	b = acquire(t, 2000, 0);
	acquire(t, 1000, 0);
	acquire(t, 2000, 0);
	acquire(t, 2000, 0);
	CHECK_EQ(pacing_table_capacity(t), 8);
	CHECK_EQ(pacing_table_in_use(t), 2);
	while (pacing_table_entry_next(t, &cursor, &info)) {
		CHECK_EQ(info.id, n == 0 ? a : b);
		CHECK_EQ(info.refcnt, n == 0 ? 2 : 3);
		CHECK(info.hw == (void *)(uintptr_t)(n + 1), "hw handle");
		n++;
	}
	CHECK_EQ(n, 2);
	CHECK_EQ(pacing_table_entry_get(t, 99, &info), -ENOENT);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}

void
test_destroy_frees(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(8, &rec_ops, &h, NULL);

	acquire(t, 1000, 0);
	acquire(t, 1000, 0);
	acquire(t, 2000, PACING_ACQ_DEDICATED);
	acquire(t, 5000, 0);
	CHECK_EQ(h.live, 3);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
	CHECK_EQ(h.frees, 3);
}

void
test_large(void)
{
	struct hw_rec h = { 0 };
	struct pacing_table *t = pacing_table_create(4000, &rec_ops, &h, NULL);
	static uint64_t ids[3000];
	struct pacing_entry_info info;
	struct pacing_grant g;
	struct pacing_ctx c;
	uint64_t cursor = 0;
	uint32_t q, bad = 0;

	/* Thousands of entries: the array grows, the chains stay right. */
	for (q = 0; q < 3000; q++) {
		c = kbps(1000 + q % 1500);
		bad += pacing_table_acquire(t, &c, 0, 0, &g, NULL) != 0;
		ids[q] = g.entry_id;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(pacing_table_in_use(t), 1500);
	while (pacing_table_entry_next(t, &cursor, &info))
		bad += info.refcnt != 2;
	CHECK_EQ(bad, 0);
	/* Every queue to a rate of its own, hitless: 2500 more fit. */
	for (q = 0; q < 3000; q++) {
		c = kbps(100000 + q);
		if (pacing_table_acquire(t, &c, 0, 0, &g, NULL) != 0)
			break;
		pacing_table_release(t, ids[q], NULL);
		ids[q] = g.entry_id;
	}
	CHECK_EQ(q, 3000);
	CHECK_EQ(pacing_table_in_use(t), 3000);
	CHECK(h.allocs == 4500 && h.frees == 1500, "%d allocs, %d frees",
	      h.allocs, h.frees);
	/* Each is found again by its context. */
	for (q = 0; q < 3000; q++) {
		c = kbps(100000 + q);
		bad += pacing_table_acquire(t, &c, 0, 0, &g, NULL) != 0 ||
		       g.created || g.entry_id != ids[q];
	}
	CHECK_EQ(bad, 0);
	pacing_table_destroy(t);
	CHECK_EQ(h.live, 0);
}
