/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Randomized acquisitions and releases on a small table, checked after
 * every operation against a reference model written independently of the
 * library: a flat list of entries and their reference counts.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pacing_sched.h"
#include "pacing_table.h"
#include "splitmix64.h"
#include "test_common.h"
#include "test_lib.h"

#define M_ENTRIES 64
#define M_HOLDS 48   /* bound on references held at once */
#define M_CAPACITY 6
#define M_LIVE 64

struct m_entry {
	uint64_t id; /* the library's, learnt at creation */
	struct pacing_ctx ctx;
	bool dedicated;
	uint32_t n;  /* references */
	void *hw;
};

struct model {
	struct m_entry e[M_ENTRIES];
	uint32_t n;
};

/* Hardware hooks: hand out distinct handles, track the live ones. */
struct fake_hw {
	uintptr_t next;
	uintptr_t live[M_LIVE];
	uint32_t nb_live;
	bool fail;        /* the next alloc fails */
	bool overflow;
};

static uint64_t rng_state;

/* What the sequence exercised, printed so a run shows its coverage. */
static struct {
	unsigned int no_space, hw_fail, shared, tol_shared, created;
	unsigned int releases, freed, bad_releases;
} stats;

static uint64_t
rng(void)
{
	return splitmix64(&rng_state);
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

	if (f->fail)
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

/* Compares the library's table with the model, entry by entry. */
static void
compare(const struct pacing_table *t, const struct model *m,
	const struct fake_hw *f, uint64_t op)
{
	struct pacing_entry_info info;
	uint64_t cursor = 0;
	uint32_t i, n = 0;

	CHECK(pacing_table_in_use(t) == m->n, "op %" PRIu64 ": %u in use, "
	      "model %u", op, pacing_table_in_use(t), m->n);
	CHECK(f->nb_live == m->n && !f->overflow, "op %" PRIu64 ": %u live "
	      "hw, model %u entries", op, f->nb_live, m->n);
	while (pacing_table_entry_next(t, &cursor, &info))
		n++;
	CHECK(n == m->n, "op %" PRIu64 ": %u entries iterated", op, n);
	for (i = 0; i < m->n; i++) {
		const struct m_entry *e = &m->e[i];
		int ret = pacing_table_entry_get(t, e->id, &info);

		CHECK(ret == 0 && pacing_ctx_equal(&info.ctx, &e->ctx) &&
		      info.dedicated == e->dedicated && info.refcnt == e->n &&
		      info.hw == e->hw, "op %" PRIu64 ": entry %" PRIu64
		      " r%u c%u differs from the model's r%u c%u", op, e->id,
		      info.ctx.rate_limit, info.refcnt, e->ctx.rate_limit,
		      e->n);
	}
}

static void
random_acquire(struct pacing_table *t, struct model *m, struct fake_hw *f,
	       uint64_t op)
{
	struct pacing_ctx c = random_ctx();
	bool ded = rnd(10) == 0;
	uint32_t tol = tolerances[rnd(5)], i;
	int idx = model_resolve(m, &c, ded, tol);
	struct pacing_error e;
	struct pacing_grant g;
	struct m_entry *ne;
	int ret;

	f->fail = idx < 0 && rnd(8) == 0;
	ret = pacing_table_acquire(t, &c, ded ? PACING_ACQ_DEDICATED : 0, tol,
				   &g, &e);
	if (idx < 0 && m->n == M_CAPACITY) {
		CHECK(ret == -ENOSPC && e.field == PACING_FIELD_TABLE_CAPACITY,
		      "op %" PRIu64 ": full table: %d", op, ret);
		stats.no_space++;
		return;
	}
	if (f->fail) {
		CHECK(ret == -EIO && e.field == PACING_FIELD_HW,
		      "op %" PRIu64 ": failed alloc: %d", op, ret);
		stats.hw_fail++;
		return;
	}
	CHECK(ret == 0, "op %" PRIu64 ": acquire: %s", op, e.message);
	if (ret != 0)
		return;
	if (idx >= 0) {
		CHECK(!g.created && g.entry_id == m->e[idx].id &&
		      pacing_ctx_equal(&g.ctx, &m->e[idx].ctx), "op %" PRIu64
		      ": acquire r%u tol %u got %" PRIu64 ", model %" PRIu64,
		      op, c.rate_limit, tol, g.entry_id, m->e[idx].id);
		m->e[idx].n++;
		stats.shared++;
		stats.tol_shared += g.deviation_ppm != 0;
		return;
	}
	for (i = 0; i < m->n; i++)
		CHECK(g.entry_id != m->e[i].id, "op %" PRIu64 ": new entry %"
		      PRIu64 " has a live id", op, g.entry_id);
	ne = &m->e[m->n++];
	ne->id = g.entry_id;
	ne->ctx = c;
	ne->dedicated = ded;
	ne->n = 1;
	/* The handle the hook gave last. */
	ne->hw = (void *)f->live[f->nb_live - 1];
	CHECK(g.created, "op %" PRIu64 ": created", op);
	stats.created++;
}

static void
random_release(struct pacing_table *t, struct model *m, uint64_t op)
{
	struct pacing_error e;
	uint32_t pick, k;
	uint64_t id;
	int ret;

	if (rnd(10) == 0) {
		/* An id no entry has. */
		for (id = 1; ; id++) {
			for (k = 0; k < m->n && m->e[k].id != id; k++)
				;
			if (k == m->n)
				break;
		}
		ret = pacing_table_release(t, id, &e);
		CHECK(ret == -ENOENT && e.field == PACING_FIELD_ENTRY,
		      "op %" PRIu64 ": release of %" PRIu64 ": %d", op, id,
		      ret);
		stats.bad_releases++;
		return;
	}
	pick = rnd(model_holds(m));
	for (k = 0; pick >= m->e[k].n; k++)
		pick -= m->e[k].n;
	ret = pacing_table_release(t, m->e[k].id, &e);
	CHECK(ret == 0, "op %" PRIu64 ": release: %s", op, e.message);
	stats.releases++;
	if (--m->e[k].n == 0) {
		m->e[k] = m->e[--m->n];
		stats.freed++;
	}
}

void
test_random(uint64_t seed, unsigned int nb_ops)
{
	static struct model m;
	struct fake_hw f;
	struct pacing_table *t;
	uint64_t op;

	printf("  seed %" PRIu64 ", %u operations\n", seed, nb_ops);
	rng_state = seed;
	memset(&m, 0, sizeof(m));
	memset(&f, 0, sizeof(f));
	memset(&stats, 0, sizeof(stats));
	t = pacing_table_create(M_CAPACITY, &fake_ops, &f, NULL);
	CHECK(t != NULL, "create");
	for (op = 0; t != NULL && op < nb_ops && !test_case_failed; op++) {
		if (model_holds(&m) >= M_HOLDS ||
		    (model_holds(&m) > 0 && rnd(100) < 40))
			random_release(t, &m, op);
		else
			random_acquire(t, &m, &f, op);
		compare(t, &m, &f, op);
	}
	printf("  acquisitions: %u new entries, %u shared (%u by tolerance), "
	       "%u refused for capacity, %u hw failures; releases: %u (%u "
	       "last), %u refused\n", stats.created, stats.shared,
	       stats.tol_shared, stats.no_space, stats.hw_fail,
	       stats.releases, stats.freed, stats.bad_releases);
	/* A sequence that missed a path proves less than it claims. */
	CHECK(stats.no_space && stats.hw_fail && stats.tol_shared &&
	      stats.freed && stats.bad_releases, "a path was never exercised");
	f.fail = false;
	pacing_table_destroy(t);
	CHECK_EQ(f.nb_live, 0);
}
