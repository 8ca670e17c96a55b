/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Randomized transactions on a small table, checked after every batch
 * against a reference model written independently of the library: a flat
 * list of entries and their holders, changed in staging order.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pacing.h"
#include "test_common.h"
#include "test_lib.h"

#define M_ENTRIES 64
#define M_HOLDS 48   /* bound on references held at once */
#define M_USERS 8
#define M_CAPACITY 6
#define M_LIVE 64

struct m_entry {
	uint64_t id;
	struct pacing_ctx ctx;
	bool dedicated;
	uint64_t users[M_HOLDS + 8];
	uint32_t n;
	void *hw;
};

struct model {
	struct m_entry e[M_ENTRIES];
	uint32_t n;
	uint64_t next_id;
};

/* Hardware hooks: hand out distinct handles, track the live ones. */
struct fake_hw {
	uintptr_t next;
	uintptr_t live[M_LIVE];
	uint32_t nb_live;
	uint32_t allocs;
	uint32_t frees;
	uint32_t fail_at; /* 1-based alloc call of this batch, 0 none */
	bool overflow;
};

static uint64_t rng_state;

/* What the sequence exercised, printed so a run shows its coverage. */
static struct {
	unsigned int commits, aborts, prepared_aborts, no_space, hw_fail;
	unsigned int shared, tol_shared, created, releases, bad_releases;
} stats;

static uint64_t
rng(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t
rnd(uint32_t n)
{
	return (uint32_t)(rng() % n);
}

static int
fake_alloc(void *opaque, const struct pacing_ctx *ctx __attribute__((unused)),
	   bool dedicated __attribute__((unused)), void **hw)
{
	struct fake_hw *f = opaque;

	f->allocs++;
	if (f->fail_at == f->allocs)
		return -EIO;
	if (f->nb_live == M_LIVE) {
		f->overflow = true;
		return -ENOMEM;
	}
	f->live[f->nb_live++] = ++f->next;
	*hw = (void *)f->next;
	return 0;
}

static void
fake_free(void *opaque, const struct pacing_ctx *ctx __attribute__((unused)),
	  void *hw)
{
	struct fake_hw *f = opaque;
	uint32_t i;

	f->frees++;
	for (i = 0; i < f->nb_live; i++) {
		if (f->live[i] == (uintptr_t)hw) {
			f->live[i] = f->live[--f->nb_live];
			return;
		}
	}
	f->overflow = true; /* freed twice or never allocated */
}

static const struct pacing_hw_ops fake_ops = {
	.alloc = fake_alloc,
	.free = fake_free,
};

static const uint32_t rates[] = { 1000, 1001, 1002, 2000, 2002, 5000,
				  100000 };
static const uint32_t tolerances[] = { 0, 0, 999, 1000, 2000 };

static struct pacing_ctx
random_ctx(void)
{
	struct pacing_ctx c = { 0 };

	c.rate_limit = rates[rnd(sizeof(rates) / sizeof(rates[0]))];
	c.burst_upper_bound = rnd(4) == 0 ? 4096 : 0;
	c.rate_mode = rnd(8) == 0 ? PACING_RATE_MODE_WQE :
		PACING_RATE_MODE_DATA;
	return c;
}

struct cand {
	uint64_t d;
	uint32_t rate;
	uint64_t id;
	uint32_t idx;
};

static int
cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	if (x->rate != y->rate)
		return x->rate < y->rate ? -1 : 1;
	return x->id < y->id ? -1 : (x->id > y->id);
}

/* The model's choice for an acquisition: index in m, or -1 for new. */
static int
model_resolve(const struct model *m, const struct pacing_ctx *c,
	      bool dedicated, uint32_t tol)
{
	struct cand cands[M_ENTRIES];
	uint32_t i, n = 0;

	if (dedicated)
		return -1;
	for (i = 0; i < m->n; i++) {
		const struct m_entry *e = &m->e[i];
		double dev;
		uint64_t d;

		if (e->dedicated || e->ctx.rate_mode != c->rate_mode ||
		    e->ctx.burst_upper_bound != c->burst_upper_bound ||
		    e->ctx.typical_packet_size != c->typical_packet_size)
			continue;
		d = e->ctx.rate_limit > c->rate_limit ?
			e->ctx.rate_limit - c->rate_limit :
			c->rate_limit - e->ctx.rate_limit;
		/* Small integers here: exact in double. */
		dev = (double)d * 1e6 / (double)c->rate_limit;
		if (dev > (double)tol)
			continue;
		cands[n].d = d;
		cands[n].rate = e->ctx.rate_limit;
		cands[n].id = e->id;
		cands[n].idx = i;
		n++;
	}
	if (n == 0)
		return -1;
	qsort(cands, n, sizeof(cands[0]), cand_cmp);
	return (int)cands[0].idx;
}

static uint32_t
model_holds(const struct model *m)
{
	uint32_t i, n = 0;

	for (i = 0; i < m->n; i++)
		n += m->e[i].n;
	return n;
}

static bool
model_remove_user(struct m_entry *e, uint64_t user)
{
	uint32_t i;

	for (i = 0; i < e->n; i++) {
		if (e->users[i] == user) {
			for (; i + 1 < e->n; i++)
				e->users[i] = e->users[i + 1];
			e->n--;
			return true;
		}
	}
	return false;
}

/* Compares the library's table with the model, entry by entry. */
static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void
compare(const struct pacing_table *t, const struct model *m,
	const struct fake_hw *f, uint64_t batch)
{
	struct pacing_entry_info info;
	uint64_t cursor = 0, users[M_HOLDS + 8];
	uint64_t expect[M_HOLDS + 8];
	uint32_t i = 0, j;
	int64_t n;

	CHECK(pacing_table_in_use(t) == m->n, "batch %" PRIu64 ": %u in use,"
	      " model %u", batch, pacing_table_in_use(t), m->n);
	CHECK(f->nb_live == m->n && !f->overflow, "batch %" PRIu64 ": %u "
	      "live hw, model %u entries", batch, f->nb_live, m->n);
	while (pacing_table_entry_next(t, &cursor, &info) && i < m->n) {
		const struct m_entry *e = &m->e[i++];

		CHECK(info.id == e->id && pacing_ctx_equal(&info.ctx, &e->ctx)
		      && info.dedicated == e->dedicated && info.refcnt == e->n
		      && info.hw == e->hw, "batch %" PRIu64 ": entry %" PRIu64
		      " r%u c%u differs from model %" PRIu64 " r%u c%u", batch,
		      info.id, info.ctx.rate_limit, info.refcnt, e->id,
		      e->ctx.rate_limit, e->n);
		n = pacing_table_entry_users(t, info.id, users, M_HOLDS + 8);
		CHECK(n == e->n, "users count");
		/* The same holders, order aside. */
		memcpy(expect, e->users, e->n * sizeof(*expect));
		qsort(expect, e->n, sizeof(*expect), cmp_u64);
		qsort(users, n < 0 ? 0 : n < e->n ? (size_t)n : e->n,
		      sizeof(*users), cmp_u64);
		for (j = 0; j < e->n && (int64_t)j < n; j++)
			CHECK(users[j] == expect[j], "batch %" PRIu64
			      ": holder %u of %" PRIu64, batch, j, e->id);
	}
}

/* One random batch; returns the number of staged operations. */
static uint32_t
random_batch(struct pacing_table *t, struct model *m, struct fake_hw *f,
	     uint64_t batch)
{
	struct model s = *m; /* staging view */
	struct pacing_txn *tx;
	struct pacing_error e;
	uint32_t nb_ops = 1 + rnd(5), i, nb_new, kept, end;
	uint64_t first_new = m->next_id;
	int ret;

	tx = pacing_txn_begin(t, &fake_ops, f, &e);
	CHECK(tx != NULL, "begin: %s", e.message);
	if (tx == NULL)
		return 0;
	for (i = 0; i < nb_ops; i++) {
		bool want_release = model_holds(&s) >= M_HOLDS ||
			(model_holds(&s) > 0 && rnd(100) < 40);

		if (!want_release) {
			struct pacing_ctx c = random_ctx();
			bool ded = rnd(10) == 0;
			uint32_t tol = tolerances[rnd(5)];
			uint64_t user = rnd(M_USERS);
			struct pacing_grant g;
			int idx = model_resolve(&s, &c, ded, tol);
			bool created;

			ret = pacing_txn_acquire(tx, user, &c,
				ded ? PACING_ACQ_DEDICATED : 0, tol, &g, &e);
			CHECK_EQ(ret, 0);
			if (ret != 0)
				continue;
			created = idx < 0;
			if (created) {
				struct m_entry *ne = &s.e[s.n++];

				memset(ne, 0, sizeof(*ne));
				ne->id = s.next_id++;
				ne->ctx = c;
				ne->dedicated = ded;
				idx = (int)s.n - 1;
			}
			CHECK(g.entry_id == s.e[idx].id &&
			      g.created == created &&
			      pacing_ctx_equal(&g.ctx, &s.e[idx].ctx),
			      "batch %" PRIu64 ": acquire r%u tol %u got %"
			      PRIu64 ", model %" PRIu64, batch, c.rate_limit,
			      tol, g.entry_id, s.e[idx].id);
			s.e[idx].users[s.e[idx].n++] = user;
			stats.created += created;
			stats.shared += !created;
			stats.tol_shared += g.deviation_ppm != 0;
		} else if (rnd(10) == 0) {
			/* A release that must be refused. */
			uint64_t user = rnd(M_USERS);
			uint64_t id = rnd(2) ? s.next_id + 5 :
				s.e[rnd(s.n)].id;
			uint32_t k;
			bool holds = false;

			for (k = 0; k < s.n; k++)
				if (s.e[k].id == id)
					for (uint32_t u = 0; u < s.e[k].n; u++)
						holds |= s.e[k].users[u] == user;
			ret = pacing_txn_release(tx, user, id, &e);
			if (holds) {
				CHECK_EQ(ret, 0);
				for (k = 0; k < s.n; k++)
					if (s.e[k].id == id)
						model_remove_user(&s.e[k],
								  user);
			} else {
				CHECK_EQ(ret, -ENOENT);
				CHECK_EQ(e.field, PACING_FIELD_ENTRY);
				stats.bad_releases++;
			}
		} else {
			uint32_t pick = rnd(model_holds(&s)), k;

			for (k = 0; k < s.n; k++) {
				if (pick < s.e[k].n)
					break;
				pick -= s.e[k].n;
			}
			ret = pacing_txn_release(tx, s.e[k].users[pick],
						 s.e[k].id, &e);
			CHECK(ret == 0, "batch %" PRIu64 ": release: %s",
			      batch, e.message);
			model_remove_user(&s.e[k], s.e[k].users[pick]);
			stats.releases++;
		}
	}
	/* New entries still held at the end, and the table they need. */
	for (i = 0, nb_new = 0; i < s.n; i++)
		nb_new += s.e[i].id >= first_new && s.e[i].n > 0;
	f->allocs = 0;
	f->frees = 0;
	f->fail_at = nb_new > 0 && rnd(5) == 0 ? 1 + rnd(nb_new) : 0;
	end = rnd(100);
	if (end < 15) {
		pacing_txn_abort(tx);
		CHECK_EQ(f->allocs, 0);
		stats.aborts++;
		return nb_ops;
	}
	if (end < 30)
		ret = pacing_txn_prepare(tx, &e);
	else
		ret = pacing_txn_commit(tx, &e);
	if (m->n + nb_new > M_CAPACITY) {
		CHECK_EQ(ret, -ENOSPC);
		CHECK_EQ(e.field, PACING_FIELD_TABLE_CAPACITY);
		CHECK_EQ(f->allocs, 0);
		if (end < 30)
			pacing_txn_abort(tx);
		stats.no_space++;
		return nb_ops;
	}
	if (f->fail_at != 0) {
		CHECK_EQ(ret, -EIO);
		CHECK_EQ(e.field, PACING_FIELD_HW);
		CHECK_EQ(f->allocs, f->fail_at);
		CHECK_EQ(f->frees, f->fail_at - 1);
		if (end < 30)
			pacing_txn_abort(tx);
		stats.hw_fail++;
		return nb_ops;
	}
	CHECK_EQ(ret, 0);
	CHECK_EQ(f->allocs, nb_new);
	if (end < 30) {
		/* Prepared but abandoned: its hardware goes, nothing else. */
		pacing_txn_abort(tx);
		CHECK_EQ(f->frees, nb_new);
		stats.prepared_aborts++;
		return nb_ops;
	}
	/* Committed: new entries got the handles in staging order. */
	for (i = 0, kept = 0; i < s.n; i++) {
		struct m_entry *e2 = &s.e[i];
		struct pacing_entry_info info;

		if (e2->n == 0)
			continue;
		if (e2->id >= first_new) {
			CHECK_EQ(pacing_table_entry_get(t, e2->id, &info), 0);
			e2->hw = info.hw;
		}
		s.e[kept++] = *e2;
	}
	CHECK_EQ(f->frees, (m->n + nb_new) - kept);
	s.n = kept;
	*m = s;
	stats.commits++;
	return nb_ops;
}

void
test_random(uint64_t seed, unsigned int nb_ops)
{
	struct pacing_table *t = pacing_table_create(M_CAPACITY, NULL);
	static struct model m;
	struct fake_hw f;
	uint64_t batch = 0;
	unsigned int done = 0;

	printf("  seed %" PRIu64 ", %u operations\n", seed, nb_ops);
	rng_state = seed;
	memset(&m, 0, sizeof(m));
	memset(&f, 0, sizeof(f));
	memset(&stats, 0, sizeof(stats));
	m.next_id = 1;
	while (done < nb_ops && !test_case_failed) {
		done += random_batch(t, &m, &f, batch);
		/* A failed or aborted batch leaves next ids unchanged. */
		compare(t, &m, &f, batch);
		batch++;
	}
	printf("  %" PRIu64 " batches: %u committed, %u aborted, %u aborted "
	       "after prepare, %u refused for capacity, %u hw failures;\n"
	       "  acquisitions: %u new entries, %u shared (%u by tolerance); "
	       "releases: %u, %u refused\n", batch, stats.commits,
	       stats.aborts, stats.prepared_aborts, stats.no_space,
	       stats.hw_fail, stats.created, stats.shared, stats.tol_shared,
	       stats.releases, stats.bad_releases);
	/* A sequence that missed a path proves less than it claims. */
	CHECK(stats.commits && stats.aborts && stats.prepared_aborts &&
	      stats.no_space && stats.hw_fail && stats.tol_shared &&
	      stats.bad_releases, "a path was never exercised");
	f.fail_at = 0;
	pacing_table_destroy(t, &fake_ops, &f);
	CHECK_EQ(f.nb_live, 0);
}
