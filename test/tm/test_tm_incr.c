/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Incremental planning against the whole plan (lib/tm alone, no EAL, no
 * device): random hierarchies, then random live changes (a node's
 * shaper, a leaf's or node's weight, a move to another parent), each
 * re-planned by tm_plan_update() from a copy of the applied plan and by
 * tm_plan_build() from the tree; after every step both must agree: the
 * same refusal, or the same plan (tm_plan_same()) and the same steps of
 * the difference from the applied plan (by element key and queue). What
 * tm_plan_update() sends back to a whole re-plan (-EAGAIN) takes the
 * whole plan, as the scheduler does; the applied plan then goes on from
 * it. Between epochs the tree is drawn again (depth, fan-out, shared
 * queue groups or not); suspensions change now and then through a whole
 * re-plan, as rte_tm_node_suspend() does.
 *
 *   test_tm_incr [--seed S] [--steps N]     (defaults: 1, 5000)
 *
 * N live changes are compared (draws that change nothing, suspensions and
 * tree draws come on top).
 *
 * A disagreement stops the run with its seed and step.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "tm_plan.h"
#include "tm_check.h"
#include "tm_port.h"
#include "tm_plan_check.h"
#include "tm_tree_check.h"

unsigned int tm_check_passed;
unsigned int tm_check_failed;

#define ROOT 1000
#define NONLEAF_BASE 900 /* level 1: 900.., level 2: 950.. */
#define NONE RTE_TM_SHAPER_PROFILE_ID_NONE
#define N_PROFILES 12
#define EPOCH_STEPS 400
#define MAX_NODES 64

/* xorshift64*: the same walk for a seed everywhere. */
static uint64_t rng_state;

static uint32_t
rnd(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ull) >> 33) % n;
}

/* One run: the tree, the applied plan, its copy, the whole re-plan. */
struct run {
	struct tm_tree h;
	struct tm_limits lim;
	struct tm_plan applied, next, full;
	struct tm_diff d_inc, d_full;
	struct tm_node *nodes[MAX_NODES]; /* the tree's, in no order */
	uint32_t n_nodes;
	uint32_t saved_elem[MAX_NODES], full_elem[MAX_NODES];
	/* What happened, for the closing line. */
	uint64_t steps, incremental, whole, refused, agreed_refusals;
	char why[1200];
	char full_msg[512];
};

/* Profiles 1..N_PROFILES: peaks 10 Mbit/s to 1 Gbit/s, some committed. */
static void
add_profiles(struct run *r)
{
	static const uint32_t peak_mbps[] = { 10, 50, 100, 200, 400, 1000 };
	static const uint32_t committed_mbps[] = { 0, 0, 0, 5, 20, 60 };
	struct rte_tm_error err;
	uint32_t i;

	for (i = 0; i < N_PROFILES; i++) {
		uint64_t peak = (uint64_t)peak_mbps[rnd(6)] * 125000;
		uint64_t com = (uint64_t)committed_mbps[rnd(6)] * 125000;
		struct rte_tm_shaper_params sp = {
			.peak = { .rate = peak },
			.committed = { .rate = com < peak ? com : 0 },
		};
		struct pacing_result res = {
			.ctx = { .rate_limit = (uint32_t)(peak * 8 / 1000) },
		};

		CHECK(tm_tree_profile_add(&r->h, i + 1, &sp, &res, &err) == 0,
		      "profile %u: %s", i + 1, err.message);
	}
}

/* A profile a node may take (NONE included), or NONE. */
static struct tm_profile *
pick_profile(struct run *r, const struct tm_node *n)
{
	struct tm_profile *p = NULL;
	struct rte_tm_error err;
	uint32_t id = rnd(3) == 0 ? NONE : 1 + rnd(N_PROFILES);

	if (tm_tree_profile_check_use(&r->h, n->id, n->leaf, id, &p, &err) != 0)
		return NULL;
	return p;
}

static struct tm_node *
add_node(struct run *r, uint32_t id, uint32_t parent, bool leaf)
{
	struct rte_tm_node_params np = leaf ? tm_leaf_params(NONE) :
				       tm_nonleaf_params(NONE);
	uint32_t weight = parent == RTE_TM_NODE_ID_NULL ? 1 :
			  rnd(2) == 0 ? 1 : 1 + rnd(4);
	struct rte_tm_error err;
	struct tm_node *n;

	n = tm_tree_node_add(&r->h, id, parent, 0, weight,
			     RTE_TM_NODE_LEVEL_ID_ANY, &np, &err);
	CHECK(n != NULL, "node %u under %u: %s", id, parent, err.message);
	if (n == NULL)
		return NULL;
	r->nodes[r->n_nodes++] = n;
	/* Shapers as given: a refused plan is a case too. */
	if (rnd(2) == 0)
		tm_tree_node_set_profile(n, pick_profile(r, n));
	return n;
}

/*
 * A random tree: a root, 0 to 2 levels of non-leaf nodes, leaves under
 * the last level; own queue groups, or shared ones (few groups).
 */
static void
draw_tree(struct run *r)
{
	uint32_t levels = rnd(3), nb_txq = 2 + rnd(22), per[3] = { 1, 0, 0 };
	uint32_t ids[3][8], q, i, l;

	r->lim = (struct tm_limits){
		.sched = true, .max_share = 100,
		.groups_max = rnd(3) == 0 ? 2 + rnd(6) : 256,
		.elements_max = 8192, .depth_max = 4,
		.line_rate_mbps = rnd(4) == 0 ? 1000 : 100000,
	};
	tm_tree_init(&r->h, &r->lim);
	tm_tree_set_nb_txq(&r->h, nb_txq);
	r->n_nodes = 0;
	add_profiles(r);
	ids[0][0] = ROOT;
	add_node(r, ROOT, RTE_TM_NODE_ID_NULL, false);
	for (l = 1; l <= levels; l++) {
		per[l] = 1 + rnd(4);
		for (i = 0; i < per[l]; i++) {
			ids[l][i] = NONLEAF_BASE + 50 * (l - 1) + i;
			add_node(r, ids[l][i], ids[l - 1][rnd(per[l - 1])],
				 false);
		}
	}
	/* Some queues without a leaf: unlimited, in no group. */
	for (q = 0; q < nb_txq; q++)
		if (rnd(8) != 0)
			add_node(r, q, ids[levels][rnd(per[levels])], true);
}

static void
free_tree(struct run *r)
{
	tm_tree_fini(&r->h);
}

/* The whole plan of the tree as the applied one (node->elem with it). */
static int
replan(struct run *r)
{
	struct rte_tm_error err;

	return tm_plan_build(&r->h, true, &r->applied, &err);
}

static void
save_elems(struct run *r, uint32_t *to)
{
	uint32_t i;

	for (i = 0; i < r->n_nodes; i++)
		to[i] = r->nodes[i]->elem;
}

static void
load_elems(struct run *r, const uint32_t *from)
{
	uint32_t i;

	for (i = 0; i < r->n_nodes; i++)
		r->nodes[i]->elem = from[i];
}

/* A step of a difference by what it stands for: sortable pairs. */
struct named_op {
	uint8_t type;
	uint64_t what;
};

static int
cmp_named(const void *a, const void *b)
{
	const struct named_op *x = a, *y = b;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return x->what < y->what ? -1 : x->what > y->what;
}

/* The steps of @p d (from @p old to @p new) named, sorted, into @p v. */
static uint32_t
name_ops(const struct tm_diff *d, const struct tm_plan *old,
	 const struct tm_plan *new, struct named_op *v)
{
	uint32_t i;

	for (i = 0; i < d->n_ops; i++) {
		const struct tm_op *op = &d->ops[i];

		v[i].type = op->type;
		v[i].what = op->type == TM_OP_CREATE ||
			    op->type == TM_OP_MODIFY ?
			    new->elems[op->index].key :
			    op->type == TM_OP_DESTROY ?
			    old->elems[op->index].key : op->index;
	}
	qsort(v, d->n_ops, sizeof(*v), cmp_named);
	return d->n_ops;
}

/* The same steps, whatever the order of the elements in each plan. */
static bool
same_steps(struct run *r)
{
	static struct named_op a[4096], b[4096];
	uint32_t na, nb;

	if (tm_plan_diff(&r->applied, &r->next, &r->d_inc) != 0 ||
	    tm_plan_diff(&r->applied, &r->full, &r->d_full) != 0 ||
	    r->d_inc.n_ops > 4096 || r->d_full.n_ops > 4096)
		return false;
	na = name_ops(&r->d_inc, &r->applied, &r->next, a);
	nb = name_ops(&r->d_full, &r->applied, &r->full, b);
	snprintf(r->why, sizeof(r->why), "%u steps, %u by the whole plan",
		 na, nb);
	return na == nb && memcmp(a, b, na * sizeof(*a)) == 0;
}

/*
 * The same refusal: of the same family's shares (its units in another
 * order may name another pair, hence another type), or of the same type.
 */
static bool
same_refusal(const struct rte_tm_error *a, const char *b_msg,
	     const struct rte_tm_error *b)
{
	unsigned int x, y;

	if (a->message != NULL &&
	    sscanf(a->message, "the children of node %u", &x) == 1 &&
	    sscanf(b_msg, "the children of node %u", &y) == 1)
		return x == y;
	return a->type == b->type;
}

/* The applied plan and its copy agree (the copy a live change needs). */
static bool
mirrored(struct run *r)
{
	return !r->next.partial && !r->applied.partial &&
	       r->next.stamp == r->applied.stamp &&
	       tm_plan_same(&r->next, &r->applied, r->why, sizeof(r->why));
}

/*
 * One live change of a random node: its shaper, its weight, or a move to
 * another parent of the level; both ways re-planned and compared.
 * Returns false on a disagreement (r->why says which).
 */
static bool
step(struct run *r)
{
	struct tm_node *n = r->nodes[rnd(r->n_nodes)], *parent;
	struct tm_plan_change c = {
		.node = n, .parent = n->parent, .weight = n->weight,
		.profile = n->profile,
	};
	struct rte_tm_error e_inc = { 0 }, e_full = { 0 };
	struct tm_profile *prof;
	struct tm_plan tmp;
	uint32_t kind = rnd(4), weight;
	int r_inc, r_full;

	if (kind <= 1) {
		prof = pick_profile(r, n);
		if (prof == n->profile)
			return true;
		tm_tree_node_set_profile(n, prof);
	} else {
		if (n->parent == NULL)
			return true;
		parent = n->parent;
		/* A move: another node of the parent's level. */
		if (kind == 3) {
			struct tm_node *m = r->nodes[rnd(r->n_nodes)];

			if (m->leaf || m->level != parent->level)
				return true;
			parent = m;
		}
		weight = 1 + rnd(5);
		if (tm_tree_parent_check(&r->h, n->id, parent->id, 0, weight,
					 &e_full) == NULL)
			return true;
		tm_tree_node_move(n, parent, weight);
	}
	r->steps++;
	/* The whole plan, then node->elem back as the applied plan set it. */
	save_elems(r, r->saved_elem);
	r_full = tm_plan_build(&r->h, true, &r->full, &e_full);
	/* The message buffer is the thread's: the next refusal reuses it. */
	snprintf(r->full_msg, sizeof(r->full_msg), "%s",
		 r_full != 0 && e_full.message != NULL ? e_full.message : "");
	save_elems(r, r->full_elem);
	load_elems(r, r->saved_elem);
	if (r->next.stamp != r->applied.stamp &&
	    tm_plan_copy(&r->next, &r->applied, r->applied.nb_txq) != 0)
		return false;
	r_inc = tm_plan_update(&r->next, &r->applied, &r->h, &c, &e_inc);
	if (r_inc == -EAGAIN) {
		r->whole++;
		if (!mirrored(r))
			return false;
	} else if (r_inc != r_full) {
		snprintf(r->why, sizeof(r->why), "incremental %d (%s), whole "
			 "plan %d (%s)", r_inc, e_inc.message ? e_inc.message :
			 "", r_full, r->full_msg);
		return false;
	} else if (r_inc != 0) {
		r->agreed_refusals++;
		if (!same_refusal(&e_inc, r->full_msg, &e_full)) {
			snprintf(r->why, sizeof(r->why), "refusal types %d "
				 "(%s) and %d (%s)", e_inc.type, e_inc.message,
				 e_full.type, r->full_msg);
			return false;
		}
		if (!mirrored(r))
			return false;
	} else {
		r->incremental++;
		if (!tm_plan_same(&r->next, &r->full, r->why,
				  sizeof(r->why)) || !same_steps(r))
			return false;
		/* Applied: the buffers swap, the copy follows. */
		tmp = r->applied;
		r->applied = r->next;
		r->next = tmp;
		tm_plan_mirror(&r->next, &r->applied);
		if (!mirrored(r))
			return false;
		return true;
	}
	if (r_full != 0) {
		/* Refused: the tree as it was (as the PMD undoes it). */
		r->refused++;
		if (kind <= 1)
			tm_tree_node_set_profile(n, (struct tm_profile *)
						 (uintptr_t)c.profile);
		else
			tm_tree_node_move(n, (struct tm_node *)
					  (uintptr_t)c.parent, c.weight);
		return true;
	}
	/* The whole plan applied: it is the applied one now. */
	tmp = r->applied;
	r->applied = r->full;
	r->full = tmp;
	load_elems(r, r->full_elem);
	return true;
}

/* A suspension toggled and applied by a whole re-plan. */
static void
suspend_step(struct run *r)
{
	struct tm_node *n = r->nodes[rnd(r->n_nodes)];

	n->suspended = !n->suspended;
	if (replan(r) != 0) {
		n->suspended = !n->suspended;
		replan(r);
	}
}

static void
test_incremental_equals_whole(uint64_t seed, uint64_t steps)
{
	struct run *r = calloc(1, sizeof(*r));
	uint64_t i, epoch_step = 0;
	bool ok = true;
	char why[256];

	rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
	CHECK(r != NULL, "no memory");
	if (r == NULL)
		return;
	/* Steps until @p steps live changes were compared. */
	for (i = 0; ok && r->steps < steps; i++) {
		if (epoch_step == 0) {
			/* A tree whose whole plan the device takes. */
			do {
				if (r->n_nodes > 0)
					free_tree(r);
				draw_tree(r);
			} while (replan(r) != 0);
			ok = tm_tree_consistent(&r->h, why, sizeof(why));
			CHECK(ok, "seed %" PRIu64 " step %" PRIu64 ": tree: %s",
			      seed, i, why);
		}
		epoch_step = (epoch_step + 1) % EPOCH_STEPS;
		if (rnd(50) == 0) {
			suspend_step(r);
			continue;
		}
		ok = step(r);
		CHECK(ok, "seed %" PRIu64 " step %" PRIu64 ", live change %"
		      PRIu64 " (replay: --seed %" PRIu64 " --steps %" PRIu64
		      "): %s", seed, i, r->steps, seed, r->steps, r->why);
	}
	printf("%" PRIu64 " live changes: %" PRIu64 " re-planned in part, %"
	       PRIu64 " as a whole (%" PRIu64 " refused), %" PRIu64
	       " refusals alike both ways\n", r->steps, r->incremental,
	       r->whole, r->refused, r->agreed_refusals);
	/* The part the incremental path takes, or nothing was compared. */
	CHECK(!ok || r->incremental * 3 > r->steps, "only %" PRIu64 " of %"
	      PRIu64 " changes re-planned in part", r->incremental, r->steps);
	free_tree(r);
	tm_plan_fini(&r->applied);
	tm_plan_fini(&r->next);
	tm_plan_fini(&r->full);
	tm_diff_fini(&r->d_inc);
	tm_diff_fini(&r->d_full);
	free(r);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "steps", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seed = 1, steps = 5000;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			steps = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [--seed S] [--steps N]\n",
				argv[0]);
			return 2;
		}
	}
	printf("seed %" PRIu64 ", %" PRIu64 " steps\n", seed, steps);
	TM_CASE(test_incremental_equals_whole(seed, steps));
	return tm_check_report();
}
