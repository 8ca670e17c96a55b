/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The traffic-manager model of lib/tm on its own (no EAL, no device): the
 * tree's structural rules and refusals, reference counting, resizing; the
 * plan (mapping, sharing rule, rounding, refusals with the numbers) and
 * the difference of two plans (its order).
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "tm_plan.h"
#include "tm_check.h"
#include "tm_port.h"
#include "tm_tree_check.h"

unsigned int tm_check_passed;
unsigned int tm_check_failed;

#define ROOT 1000
#define MID 900
#define MID2 901
#define NONE RTE_TM_SHAPER_PROFILE_ID_NONE
#define ANY RTE_TM_NODE_LEVEL_ID_ANY

/* A device without a scheduling hierarchy (leaf shapers only). */
static const struct tm_limits leaf_only = { .line_rate_mbps = 100000 };
/* cx6dx: DWRR TSARs and queue groups (doc/guides/device_model.rst). */
static const struct tm_limits cx6dx = {
	.sched = true, .max_share = 100, .groups_max = 256,
	.elements_max = 8192, .depth_max = 4, .line_rate_mbps = 100000,
};

/* The last refusal's message (each add and validation keeps it). */
static struct rte_tm_error last_err;
#define MSG (last_err.message != NULL ? last_err.message : "")

/* Add a node; returns the errno (0) and leaves the error type in *type. */
static int
add(struct tm_tree *h, uint32_t id, uint32_t parent, uint32_t prio,
    uint32_t weight, uint32_t level, struct rte_tm_node_params *p,
    enum rte_tm_error_type *type)
{
	struct rte_tm_error err = { .type = RTE_TM_ERROR_TYPE_NONE };
	struct tm_node *n;

	n = tm_tree_node_add(h, id, parent, prio, weight, level, p, &err);
	*type = err.type;
	if (n == NULL)
		last_err = err;
	CHECK(n != NULL || (err.message != NULL && err.message[0] != '\0'),
	      "node %u refused without a message", id);
	return n != NULL ? 0 : rte_errno;
}

static void
expect_refusal(struct tm_tree *h, const char *what, uint32_t id,
	       uint32_t parent, uint32_t prio, uint32_t weight,
	       uint32_t level, struct rte_tm_node_params p, int code,
	       enum rte_tm_error_type want)
{
	enum rte_tm_error_type type;
	uint32_t before = h->n_nodes;
	int ret = add(h, id, parent, prio, weight, level, &p, &type);

	CHECK(ret == code && type == want,
	      "%s: errno %d type %d, expected errno %d type %d (%s)", what,
	      ret, type, code, want, MSG);
	CHECK(h->n_nodes == before, "%s: node count changed", what);
}

static void
add_profile(struct tm_tree *h, uint32_t id)
{
	struct rte_tm_shaper_params sp = { .peak = { .rate = 125000 } };
	struct pacing_result res = { .ctx = { .rate_limit = 1000 } };
	struct rte_tm_error err;

	CHECK(tm_tree_profile_add(h, id, &sp, &res, &err) == 0,
	      "profile %u add", id);
}

static void
check_valid(struct tm_tree *h, const char *when)
{
	char why[256] = "";

	CHECK(tm_tree_consistent(h, why, sizeof(why)), "consistent %s: %s",
	      when, why);
}

/*
 * The message of an error given to a caller stays while a later failure
 * reported to no one (error NULL: the clean-up after a failed commit with
 * clear_on_fail) happens on the same thread.
 */
static void
test_error_kept(void)
{
	struct rte_tm_error err = { .type = RTE_TM_ERROR_TYPE_NONE };
	int ret;

	ret = tm_error(&err, RTE_TM_ERROR_TYPE_NODE_ID, ENOSPC, "commit: %s",
		       "no room");
	CHECK(ret == -ENOSPC && rte_errno == ENOSPC &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_ID && err.message != NULL &&
	      strcmp(err.message, "commit: no room") == 0,
	      "the caller's error: %d type %d \"%s\"", ret, err.type,
	      err.message != NULL ? err.message : "");
	ret = tm_error(NULL, RTE_TM_ERROR_TYPE_UNSPECIFIED, EIO, "clean-up: %s",
		       "refused");
	CHECK(ret == -EIO && rte_errno == EIO, "no caller: %d errno %d", ret,
	      rte_errno);
	CHECK(err.message != NULL && strcmp(err.message, "commit: no room") == 0
	      && err.type == RTE_TM_ERROR_TYPE_NODE_ID,
	      "the caller's message kept: \"%s\"",
	      err.message != NULL ? err.message : "");
}

/* The ice-style script: root 1000, 900 below, queues below 900. */
static void
test_ice_script(void)
{
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	struct rte_tm_node_params lf = tm_leaf_params(1);
	enum rte_tm_error_type type;
	struct tm_tree h;
	uint32_t q;

	tm_tree_init(&h, &leaf_only);
	CHECK(tm_tree_set_nb_txq(&h, 8) == 0, "8 queues");
	add_profile(&h, 1);
	CHECK(add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type) == 0,
	      "root: %s", MSG);
	CHECK(add(&h, MID, ROOT, 0, 1, 1, &nl, &type) == 0, "900: %s", MSG);
	for (q = 0; q < 8; q++)
		CHECK(add(&h, q, MID, 0, 1, 2, &lf, &type) == 0, "leaf %u: %s",
		      q, MSG);
	check_valid(&h, "ice script");
	CHECK(h.n_nodes == 10 && h.n_leaves == 8 && h.leaf_level == 2,
	      "counts %u %u %u", h.n_nodes, h.n_leaves, h.leaf_level);
	CHECK(tm_tree_profile_find(&h, 1)->n_users == 8, "8 users");
	CHECK(tm_tree_leaf(&h, 3) != NULL &&
	      tm_tree_leaf(&h, 3)->parent->id == MID, "leaf 3 parent");
	tm_tree_fini(&h);
}

static void
test_refusals(void)
{
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	struct rte_tm_node_params lf = tm_leaf_params(1), p;
	enum rte_tm_error_type type;
	struct tm_tree h;
	int mode = 0;

	tm_tree_init(&h, &leaf_only);
	tm_tree_set_nb_txq(&h, 8);
	add_profile(&h, 1);
	expect_refusal(&h, "first node not root", MID, ROOT, 0, 1, ANY, nl,
		       EINVAL, RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID);
	expect_refusal(&h, "leaf as root", 0, RTE_TM_NODE_ID_NULL, 0, 1, ANY,
		       lf, EINVAL, RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID);
	expect_refusal(&h, "node id NULL", RTE_TM_NODE_ID_NULL,
		       RTE_TM_NODE_ID_NULL, 0, 1, ANY, nl, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_ID);
	expect_refusal(&h, "root on level 1", ROOT, RTE_TM_NODE_ID_NULL, 0, 1,
		       1, nl, EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID);
	CHECK(add(&h, ROOT, RTE_TM_NODE_ID_NULL, 7, 9, 0, &nl, &type) == 0,
	      "root ignores priority and weight: %s", MSG);
	expect_refusal(&h, "second root", 2000, RTE_TM_NODE_ID_NULL, 0, 1,
		       ANY, nl, EEXIST, RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID);
	expect_refusal(&h, "duplicate id", ROOT, RTE_TM_NODE_ID_NULL, 0, 1,
		       ANY, nl, EEXIST, RTE_TM_ERROR_TYPE_NODE_ID);
	expect_refusal(&h, "unknown parent", MID, 4242, 0, 1, ANY, nl, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID);
	expect_refusal(&h, "level mismatch", MID, ROOT, 0, 1, 2, nl, EINVAL,
		       RTE_TM_ERROR_TYPE_LEVEL_ID);
	expect_refusal(&h, "priority 1", MID, ROOT, 1, 1, 1, nl, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PRIORITY);
	expect_refusal(&h, "weight 2", MID, ROOT, 0, 2, 1, nl, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_WEIGHT);
	expect_refusal(&h, "weight 0", MID, ROOT, 0, 0, 1, nl, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_WEIGHT);
	p = nl;
	p.shaper_profile_id = 1;
	expect_refusal(&h, "non-leaf shaper", MID, ROOT, 0, 1, 1, p, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID);
	p = nl;
	p.n_shared_shapers = 1;
	expect_refusal(&h, "shared shaper", MID, ROOT, 0, 1, 1, p, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SHARED_SHAPERS);
	p = nl;
	p.nonleaf.n_sp_priorities = 2;
	expect_refusal(&h, "2 priorities", MID, ROOT, 0, 1, 1, p, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SP_PRIORITIES);
	p = nl;
	p.stats_mask = RTE_TM_STATS_N_PKTS_QUEUED;
	expect_refusal(&h, "stats queued", MID, ROOT, 0, 1, 1, p, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_STATS);
	p = nl;
	p.nonleaf.wfq_weight_mode = &mode;
	CHECK(add(&h, MID, ROOT, 0, 1, 1, &p, &type) == 0,
	      "900 with packet-mode WFQ: %s", MSG);
	/* Leaf refusals. */
	p = tm_leaf_params(77);
	expect_refusal(&h, "unknown profile", 0, MID, 0, 1, 2, p, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID);
	p = lf;
	p.leaf.cman = RTE_TM_CMAN_WRED;
	expect_refusal(&h, "cman wred", 0, MID, 0, 1, 2, p, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_CMAN);
	p = lf;
	p.leaf.cman = RTE_TM_CMAN_HEAD_DROP;
	expect_refusal(&h, "cman head drop", 0, MID, 0, 1, 2, p, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_CMAN);
	/* Non-leaf parameters on a Tx queue's id: the id is named. */
	CHECK(add(&h, 2, MID, 0, 1, ANY, &nl, &type) != 0 &&
	      type == RTE_TM_ERROR_TYPE_NODE_ID &&
	      strstr(MSG, "Tx queue 2, hence a leaf") != NULL &&
	      strstr(MSG, "id of 8 or more") != NULL &&
	      strncmp(MSG, "WRED", 4) != 0,
	      "non-leaf parameters on leaf id 2: type %d (%s)", type, MSG);
	p = lf;
	p.leaf.wred.wred_profile_id = 3;
	expect_refusal(&h, "wred profile", 0, MID, 0, 1, 2, p, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_ID);
	p = lf;
	p.leaf.wred.n_shared_wred_contexts = 1;
	expect_refusal(&h, "shared wred", 0, MID, 0, 1, 2, p, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SHARED_WRED_CONTEXTS);
	CHECK(add(&h, 0, MID, 0, 1, 2, &lf, &type) == 0, "leaf 0: %s", MSG);
	expect_refusal(&h, "parent is a leaf", 1, 0, 0, 1, ANY, lf, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID);
	expect_refusal(&h, "leaves on two levels", 1, ROOT, 0, 1, ANY, lf,
		       EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID);
	expect_refusal(&h, "non-leaf on the leaf level", 950, MID, 0, 1, ANY,
		       nl, EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID);
	check_valid(&h, "after refusals");
	tm_tree_fini(&h);

	/* Depth: three non-leaf levels, not four. */
	tm_tree_init(&h, &leaf_only);
	tm_tree_set_nb_txq(&h, 2);
	CHECK(add(&h, 10, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type) == 0, "r");
	CHECK(add(&h, 11, 10, 0, 1, 1, &nl, &type) == 0, "l1");
	CHECK(add(&h, 12, 11, 0, 1, 2, &nl, &type) == 0, "l2");
	expect_refusal(&h, "fourth non-leaf level", 13, 12, 0, 1, ANY, nl,
		       EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID);
	lf = tm_leaf_params(NONE);
	CHECK(add(&h, 0, 12, 0, 1, 3, &lf, &type) == 0, "leaf on level 3");
	check_valid(&h, "4 levels");
	tm_tree_fini(&h);
}

static void
test_delete_and_refcount(void)
{
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	struct rte_tm_node_params lf = tm_leaf_params(1);
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct tm_tree h;
	struct tm_node *n;

	tm_tree_init(&h, &leaf_only);
	tm_tree_set_nb_txq(&h, 4);
	add_profile(&h, 1);
	add_profile(&h, 2);
	memset(&err, 0, sizeof(err));
	CHECK(tm_tree_profile_add(&h, 1, &(struct rte_tm_shaper_params){0},
		&(struct pacing_result){0}, &err) == -EEXIST &&
	      err.type == RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "dup profile");
	CHECK(tm_tree_profile_check_id(&h, NONE, &err) == -EINVAL &&
	      err.type == RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "profile NONE");
	add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type);
	add(&h, 0, ROOT, 0, 1, 1, &lf, &type);
	add(&h, 1, ROOT, 0, 1, 1, &lf, &type);
	CHECK(tm_tree_profile_delete(&h, 1, &err) == -EBUSY &&
	      err.type == RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID,
	      "profile in use refused: %s", err.message);
	CHECK(tm_tree_node_check_delete(&h, ROOT, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_ID && rte_errno == EBUSY,
	      "node with children refused");
	CHECK(tm_tree_node_check_delete(&h, 3, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_ID && rte_errno == EINVAL,
	      "absent node refused");
	n = tm_tree_leaf(&h, 0);
	tm_tree_node_set_profile(n, tm_tree_profile_find(&h, 2));
	CHECK(tm_tree_profile_find(&h, 1)->n_users == 1 &&
	      tm_tree_profile_find(&h, 2)->n_users == 1, "refcounts");
	check_valid(&h, "after profile change");
	n = tm_tree_node_check_delete(&h, 1, &err);
	CHECK(n != NULL, "leaf 1 deletable");
	tm_tree_node_delete(&h, n);
	CHECK(tm_tree_profile_delete(&h, 1, &err) == 0,
	      "profile 1 free now: %s", MSG);
	CHECK(tm_tree_profile_delete(&h, 1, &err) == -EINVAL,
	      "profile 1 gone");
	check_valid(&h, "after deletes");
	tm_tree_fini(&h);
}

static void
test_parent_update(void)
{
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	struct rte_tm_node_params lf = tm_leaf_params(NONE);
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct tm_tree h;
	struct tm_node *p;

	tm_tree_init(&h, &leaf_only);
	tm_tree_set_nb_txq(&h, 4);
	add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type);
	add(&h, MID, ROOT, 0, 1, 1, &nl, &type);
	add(&h, MID2, ROOT, 0, 1, 1, &nl, &type);
	add(&h, 0, MID, 0, 1, 2, &lf, &type);
	p = tm_tree_parent_check(&h, 0, MID2, 0, 1, &err);
	CHECK(p != NULL && p->id == MID2, "move 0 to 901: %s", MSG);
	tm_tree_node_move(tm_tree_leaf(&h, 0), p, 1);
	CHECK(tm_tree_leaf(&h, 0)->parent->id == MID2 &&
	      tm_tree_node_find(&h, MID)->n_children == 0 &&
	      p->n_children == 1, "moved");
	check_valid(&h, "after move");
	CHECK(tm_tree_parent_check(&h, 0, ROOT, 0, 1, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID &&
	      rte_errno == ENOTSUP, "level change refused");
	CHECK(tm_tree_parent_check(&h, ROOT, MID, 0, 1, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID,
	      "root cannot move");
	CHECK(tm_tree_parent_check(&h, 0, MID, 3, 1, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_PRIORITY, "priority 3");
	CHECK(tm_tree_parent_check(&h, 0, MID, 0, 5, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_WEIGHT, "weight 5");
	CHECK(tm_tree_parent_check(&h, 7, MID, 0, 1, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_ID, "absent node");
	/* Suspension is inherited. */
	tm_tree_node_find(&h, MID2)->suspended = true;
	CHECK(tm_tree_node_suspended(tm_tree_leaf(&h, 0)),
	      "suspended through 901");
	tm_tree_node_move(tm_tree_leaf(&h, 0), tm_tree_node_find(&h, MID), 1);
	CHECK(!tm_tree_node_suspended(tm_tree_leaf(&h, 0)),
	      "not suspended under 900");
	tm_tree_fini(&h);
}

static void
test_resize(void)
{
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	struct rte_tm_node_params lf = tm_leaf_params(NONE);
	enum rte_tm_error_type type;
	struct tm_tree h;
	uint32_t q;

	tm_tree_init(&h, &leaf_only);
	tm_tree_set_nb_txq(&h, 8);
	add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type);
	for (q = 0; q < 8; q++)
		add(&h, q, ROOT, 0, 1, 1, &lf, &type);
	CHECK(tm_tree_set_nb_txq(&h, 4) == 0 && h.n_leaves == 4 &&
	      h.n_nodes == 5, "shrink to 4: %u leaves", h.n_leaves);
	check_valid(&h, "after shrink");
	CHECK(tm_tree_set_nb_txq(&h, 16) == 0 && h.n_leaves == 4,
	      "grow to 16");
	check_valid(&h, "after grow");
	CHECK(add(&h, 12, ROOT, 0, 1, 1, &lf, &type) == 0, "leaf 12");
	CHECK(tm_tree_set_nb_txq(&h, 1001) == 1 && h.n_nodes == 0 &&
	      h.root == NULL, "root id 1000 now a queue: cleared");
	check_valid(&h, "after clear");
	tm_tree_fini(&h);
}

/* A profile of @p peak and @p committed bytes/s (leaf context in kbps). */
static void
add_rate_profile(struct tm_tree *h, uint32_t id, uint64_t peak,
		 uint64_t committed)
{
	struct rte_tm_shaper_params sp = {
		.peak = { .rate = peak }, .committed = { .rate = committed },
	};
	struct pacing_result res = {
		.ctx = { .rate_limit = (uint32_t)(peak * 8 / 1000) },
	};
	struct rte_tm_error err;

	CHECK(tm_tree_profile_add(h, id, &sp, &res, &err) == 0,
	      "profile %u add", id);
}

/* Root 1000, node 900 (profile @p shaper) below, @p n leaves below it. */
static void
group_tree(struct tm_tree *h, const struct tm_limits *lim, uint32_t shaper,
	   const uint32_t *weights, const uint32_t *profiles, uint32_t n)
{
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	enum rte_tm_error_type type;
	uint32_t q;

	tm_tree_init(h, lim);
	tm_tree_set_nb_txq(h, 16);
	add_rate_profile(h, 1, 50000000, 0);     /* 400 Mbit/s */
	add_rate_profile(h, 2, 12500000, 0);     /* 100 Mbit/s */
	add_rate_profile(h, 3, 50000000, 37500000); /* 300 Mbit/s committed */
	add_rate_profile(h, 4, 249999, 0);       /* 1.999992 Mbit/s */
	CHECK(add(h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type) == 0,
	      "root: %s", MSG);
	nl.shaper_profile_id = shaper;
	CHECK(add(h, MID, ROOT, 0, 1, 1, &nl, &type) == 0, "900: %s", MSG);
	for (q = 0; q < n; q++) {
		struct rte_tm_node_params lf = tm_leaf_params(profiles != NULL ?
							   profiles[q] : NONE);

		CHECK(add(h, q, MID, 0, weights[q], 2, &lf, &type) == 0,
		      "leaf %u: %s", q, MSG);
	}
	check_valid(h, "group tree");
}

/* The elements of a group at 400 Mbit/s with leaves of weights 1:2:5. */
static void
test_plan_mapping(void)
{
	const uint32_t w[3] = { 1, 2, 5 };
	struct rte_tm_error err;
	const struct tm_elem *e900, *g[3];
	struct tm_plan p = { 0 };
	struct tm_tree h;
	uint32_t q;

	group_tree(&h, &cx6dx, 1, w, NULL, 3);
	CHECK(tm_plan_build(&h, true, &p, &err) == 0, "plan: %s",
	      err.message);
	e900 = tm_plan_node_elem(&p, MID);
	CHECK(p.n_elems == 5 && p.n_groups == 3, "root, 900, 3 groups: %u %u",
	      p.n_elems, p.n_groups);
	CHECK(p.elems[0].parent == TM_PLAN_NONE && p.elems[0].bw_share == 0 &&
	      p.elems[0].max_average_bw == 0, "unshaped root: zeros");
	CHECK(e900 != NULL && e900->max_average_bw == 400 &&
	      e900->parent == 0 && e900->type == TM_ELEM_TSAR,
	      "900: TSAR at 400 Mbit/s under the root");
	for (q = 0; q < 3; q++) {
		g[q] = tm_plan_elem(&p, p.queues[q].group);
		CHECK(g[q] != NULL && g[q]->type == TM_ELEM_GROUP &&
		      &p.elems[g[q]->parent] == e900, "queue %u in a group "
		      "under 900", q);
	}
	CHECK(g[0]->bw_share * 2 == g[1]->bw_share &&
	      g[0]->bw_share * 5 == g[2]->bw_share &&
	      g[2]->bw_share <= 100, "shares 1:2:5: %u %u %u",
	      g[0]->bw_share, g[1]->bw_share, g[2]->bw_share);
	CHECK(!p.queues[0].shaped && p.queues[3].group == TM_PLAN_NONE,
	      "no leaf shaper, queue 3 without a leaf");
	tm_plan_fini(&p);
	/* A hierarchy not in force: nothing on the device. */
	CHECK(tm_plan_build(&h, false, &p, &err) == 0 && p.n_elems == 0 &&
	      p.queues[0].group == TM_PLAN_NONE, "inactive plan empty");
	tm_plan_fini(&p);
	tm_tree_fini(&h);
}

/* Ceilings round down to a whole Mbit/s; below 1 Mbit/s is refused. */
static void
test_plan_rounding(void)
{
	const uint32_t w[1] = { 1 };
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct tm_plan p = { 0 };
	struct tm_tree h;

	group_tree(&h, &cx6dx, 4, w, NULL, 1);
	CHECK(tm_plan_build(&h, true, &p, &err) == 0 &&
	      tm_plan_node_elem(&p, MID)->max_average_bw == 1,
	      "249999 bytes/s: 1 Mbit/s, never above the request");
	tm_plan_fini(&p);
	add_rate_profile(&h, 5, 100000, 0);
	nl.shaper_profile_id = 5;
	CHECK(add(&h, MID2, ROOT, 0, 1, 1, &nl, &type) == EINVAL &&
	      type == RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID &&
	      strstr(MSG, "100000") != NULL && strstr(MSG, "125000") != NULL,
	      "0.8 Mbit/s refused with the range: %s", MSG);
	tm_tree_fini(&h);
}

/* What does not fit is refused with the numbers. */
static void
test_plan_refusals(void)
{
	const uint32_t w[3] = { 1, 2, 5 };
	const uint32_t two_committed[2] = { 3, 3 };
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	struct tm_limits small = cx6dx;
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct tm_plan p = { 0 };
	struct tm_tree h;

	small.groups_max = 2;
	group_tree(&h, &small, 1, w, NULL, 3);
	CHECK(tm_plan_build(&h, true, &p, &err) == -ENOSPC &&
	      strstr(err.message, "needs 3 queue groups") != NULL &&
	      strstr(err.message, "has 2") != NULL, "groups: %s",
	      err.message);
	tm_tree_fini(&h);
	/* 2 x 300 Mbit/s committed under a 400 Mbit/s ceiling. */
	group_tree(&h, &cx6dx, 1, w, two_committed, 2);
	CHECK(tm_plan_build(&h, true, &p, &err) == -EINVAL &&
	      strstr(err.message, "node 900") != NULL &&
	      strstr(err.message, "50000000") != NULL, "committed: %s",
	      err.message);
	tm_tree_fini(&h);
	/* Shaped root and three node levels: 5 elements to a group. */
	group_tree(&h, &cx6dx, NONE, w, NULL, 0);
	CHECK(tm_tree_node_find(&h, ROOT) != NULL, "root");
	tm_tree_node_set_profile(tm_tree_node_find(&h, ROOT),
				 tm_tree_profile_find(&h, 1));
	nl.shaper_profile_id = NONE;
	CHECK(add(&h, 800, MID, 0, 1, 2, &nl, &type) == 0, "800: %s", MSG);
	{
		struct rte_tm_node_params lf = tm_leaf_params(NONE);

		/* Weight 2: a tree that asks for elements, root or not. */
		CHECK(add(&h, 0, 800, 0, 2, 3, &lf, &type) == 0, "leaf: %s",
		      MSG);
	}
	CHECK(tm_plan_build(&h, true, &p, &err) == -ENOTSUP &&
	      strstr(err.message, "needs 5") != NULL &&
	      strstr(err.message, "allows 4") != NULL, "depth: %s",
	      err.message);
	tm_tree_node_set_profile(tm_tree_node_find(&h, ROOT), NULL);
	CHECK(tm_plan_build(&h, true, &p, &err) == 0 && p.n_elems == 4,
	      "unshaped root: 4 elements fit: %s", MSG);
	tm_plan_fini(&p);
	tm_tree_fini(&h);
	/* Leaf-only device: weights and non-leaf shapers say why not. */
	tm_tree_init(&h, &leaf_only);
	tm_tree_set_nb_txq(&h, 4);
	add_rate_profile(&h, 1, 50000000, 0);
	nl.shaper_profile_id = NONE;
	add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type);
	nl.shaper_profile_id = 1;
	CHECK(add(&h, MID, ROOT, 0, 1, 1, &nl, &type) == ENOTSUP &&
	      strstr(MSG, "no NIC scheduling hierarchy") != NULL,
	      "leaf-only: non-leaf shaper: %s", MSG);
	nl.shaper_profile_id = NONE;
	CHECK(add(&h, MID, ROOT, 0, 2, 1, &nl, &type) == ENOTSUP &&
	      type == RTE_TM_ERROR_TYPE_NODE_WEIGHT &&
	      strstr(MSG, "no NIC scheduling hierarchy") != NULL,
	      "leaf-only: weight 2: %s", MSG);
	tm_tree_fini(&h);
}

/* Steps of a difference come in order, parents created first. */
static void
check_order(const struct tm_plan *old, const struct tm_plan *new,
	    const struct tm_diff *d, const char *what)
{
	uint32_t i, j;

	for (i = 1; i < d->n_ops; i++)
		CHECK(d->ops[i - 1].type <= d->ops[i].type,
		      "%s: step %u (%u) after step %u (%u)", what, i,
		      d->ops[i].type, i - 1, d->ops[i - 1].type);
	for (i = 0; i < d->n_ops; i++)
		for (j = i + 1; j < d->n_ops; j++) {
			if (d->ops[i].type == TM_OP_CREATE &&
			    d->ops[j].type == TM_OP_CREATE)
				CHECK(new->elems[d->ops[i].index].parent !=
				      d->ops[j].index, "%s: child created "
				      "before its parent", what);
			if (d->ops[i].type == TM_OP_DESTROY &&
			    d->ops[j].type == TM_OP_DESTROY)
				CHECK(old->elems[d->ops[j].index].parent !=
				      d->ops[i].index, "%s: parent destroyed "
				      "before its child", what);
		}
}

static uint32_t
count_ops(const struct tm_diff *d, enum tm_op_type type)
{
	uint32_t i, n = 0;

	for (i = 0; i < d->n_ops; i++)
		n += d->ops[i].type == type;
	return n;
}

/*
 * A tree of leaf shapers only (no non-leaf shaper, weights 1, no
 * committed rate) has no element, on a device with the hierarchy and
 * with no line rate known; any one of the three asks for the hierarchy.
 * Moving between the two is a difference like any other.
 */
static void
test_plan_flat(void)
{
	const uint32_t w1[3] = { 1, 1, 1 }, w2[3] = { 1, 2, 1 };
	const uint32_t pr[3] = { 2, 2, NONE }, prc[3] = { 3, 2, NONE };
	struct tm_limits no_speed = cx6dx;
	struct tm_plan flat = { 0 }, hier = { 0 }, b = { 0 };
	struct rte_tm_error err;
	struct tm_diff d = { 0 };
	struct tm_node *mid;
	struct tm_tree h;
	uint16_t q;

	no_speed.line_rate_mbps = 0;
	group_tree(&h, &no_speed, NONE, w1, pr, 3);
	CHECK(!tm_plan_tree_needs_elements(&h) &&
	      tm_plan_build(&h, true, &flat, &err) == 0 &&
	      flat.n_elems == 0 && flat.n_groups == 0 &&
	      flat.queues[0].shaped && flat.queues[1].shaped &&
	      !flat.queues[2].shaped, "leaf shapers, no line rate: no "
	      "element, pacing only: %u elements", flat.n_elems);
	for (q = 0; q < 3; q++)
		CHECK(flat.queues[q].group == TM_PLAN_NONE, "queue %u in no "
		      "group", q);
	tm_tree_fini(&h);
	/* Without a line rate, a tree that asks for elements says why not. */
	group_tree(&h, &no_speed, NONE, w2, pr, 3);
	CHECK(tm_plan_build(&h, true, &b, &err) == -EAGAIN &&
	      strstr(err.message, "line rate is unknown") != NULL,
	      "weights, no line rate: %s", err.message);
	tm_tree_fini(&h);
	/* Each reason alone asks for the hierarchy. */
	group_tree(&h, &cx6dx, 1, w1, pr, 3);
	CHECK(tm_plan_tree_needs_elements(&h), "non-leaf shaper");
	tm_tree_fini(&h);
	group_tree(&h, &cx6dx, NONE, w2, pr, 3);
	CHECK(tm_plan_tree_needs_elements(&h), "weight 2");
	tm_tree_fini(&h);
	group_tree(&h, &cx6dx, NONE, w1, prc, 3);
	CHECK(tm_plan_tree_needs_elements(&h), "committed rate");
	tm_tree_fini(&h);
	/* Flat to a hierarchy and back: a non-leaf shaper given, taken. */
	group_tree(&h, &cx6dx, NONE, w1, pr, 3);
	mid = tm_tree_node_find(&h, MID);
	CHECK(tm_plan_build(&h, true, &flat, &err) == 0 && flat.n_elems == 0,
	      "flat plan");
	tm_tree_node_set_profile(mid, tm_tree_profile_find(&h, 1));
	CHECK(tm_plan_node_update(&b, &flat, &h, mid, 0) == -EAGAIN,
	      "shaper on 900 of a flat plan: rebuilt (-EAGAIN)");
	CHECK(tm_plan_build(&h, true, &hier, &err) == 0 &&
	      hier.n_elems == 5 && hier.n_groups == 3, "hierarchy: root, "
	      "900, a group per leaf: %u %u", hier.n_elems, hier.n_groups);
	CHECK(tm_plan_diff(&flat, &hier, &d) == 0 &&
	      count_ops(&d, TM_OP_CREATE) == 5 &&
	      count_ops(&d, TM_OP_MOVE) == 3 &&
	      count_ops(&d, TM_OP_PACE) == 0 &&
	      count_ops(&d, TM_OP_RELEASE) == 0, "flat to hierarchy: "
	      "elements created, queues moved, entries kept");
	check_order(&flat, &hier, &d, "flat to hierarchy");
	tm_tree_node_set_profile(mid, NULL);
	CHECK(tm_plan_node_update(&b, &hier, &h, mid, 0) == -EAGAIN,
	      "last reason gone: rebuilt (-EAGAIN)");
	CHECK(tm_plan_build(&h, true, &b, &err) == 0 && b.n_elems == 0 &&
	      tm_plan_diff(&hier, &b, &d) == 0 &&
	      count_ops(&d, TM_OP_DESTROY) == 5 &&
	      count_ops(&d, TM_OP_MOVE) == 3 &&
	      count_ops(&d, TM_OP_CREATE) == 0 &&
	      count_ops(&d, TM_OP_RELEASE) == 0, "hierarchy to flat: queues "
	      "out, elements destroyed, entries kept");
	check_order(&hier, &b, &d, "hierarchy to flat");
	tm_diff_fini(&d);
	tm_plan_fini(&flat);
	tm_plan_fini(&hier);
	tm_plan_fini(&b);
	tm_tree_fini(&h);
}

static void
test_plan_diff(void)
{
	const uint32_t w[3] = { 1, 2, 5 };
	const uint32_t pr[3] = { 2, 2, NONE };
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	struct tm_plan a = { 0 }, b = { 0 }, c = { 0 }, none = { 0 };
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct tm_diff d = { 0 };
	struct tm_tree h;

	group_tree(&h, &cx6dx, 1, w, pr, 3);
	CHECK(tm_plan_build(&h, true, &a, &err) == 0, "plan a");
	CHECK(tm_plan_build(&h, false, &none, &err) == 0, "empty plan");
	CHECK(tm_plan_diff(&a, &a, &d) == 0 && d.n_ops == 0,
	      "same plan: no step (%u)", d.n_ops);
	tm_diff_fini(&d);
	/* Commit: everything created, queues moved, entries taken. */
	CHECK(tm_plan_diff(&none, &a, &d) == 0 &&
	      count_ops(&d, TM_OP_CREATE) == 5 &&
	      count_ops(&d, TM_OP_PACE) == 2 &&
	      count_ops(&d, TM_OP_MOVE) == 3 && count_ops(&d, TM_OP_DESTROY) ==
	      0, "commit: %u steps", d.n_ops);
	check_order(&none, &a, &d, "commit");
	tm_diff_fini(&d);
	/* Leaf 2 to a new node 901: its TSAR and group created, the old
	 * group destroyed, 900's groups re-weighted. */
	nl.shaper_profile_id = NONE;
	CHECK(add(&h, MID2, ROOT, 0, 1, 1, &nl, &type) == 0, "901");
	tm_tree_node_move(tm_tree_leaf(&h, 2), tm_tree_node_find(&h, MID2), 5);
	CHECK(tm_plan_build(&h, true, &b, &err) == 0, "plan b: %s",
	      err.message);
	CHECK(tm_plan_diff(&a, &b, &d) == 0 &&
	      count_ops(&d, TM_OP_CREATE) == 2 &&
	      count_ops(&d, TM_OP_MOVE) == 1 && d.ops[count_ops(&d,
	      TM_OP_CREATE) + count_ops(&d, TM_OP_MODIFY)].index == 2 &&
	      count_ops(&d, TM_OP_DESTROY) == 1 &&
	      count_ops(&d, TM_OP_PACE) == 0, "move: %u steps", d.n_ops);
	check_order(&a, &b, &d, "move");
	tm_diff_fini(&d);
	/* The root shaped: a port element above it, everything new. */
	tm_tree_node_set_profile(tm_tree_node_find(&h, ROOT),
				 tm_tree_profile_find(&h, 1));
	CHECK(tm_plan_build(&h, true, &c, &err) == 0, "plan c: %s",
	      err.message);
	CHECK(tm_plan_diff(&b, &c, &d) == 0 &&
	      count_ops(&d, TM_OP_CREATE) == c.n_elems &&
	      count_ops(&d, TM_OP_DESTROY) == b.n_elems &&
	      count_ops(&d, TM_OP_MODIFY) == 0, "root shaped: %u created, "
	      "%u destroyed, %u modified", count_ops(&d, TM_OP_CREATE),
	      count_ops(&d, TM_OP_DESTROY), count_ops(&d, TM_OP_MODIFY));
	check_order(&b, &c, &d, "root shaped");
	tm_diff_fini(&d);
	tm_plan_fini(&c);
	/* A hierarchy deleted: queues out first, then bottom-up. */
	CHECK(tm_plan_diff(&b, &none, &d) == 0 &&
	      count_ops(&d, TM_OP_DESTROY) == b.n_elems &&
	      count_ops(&d, TM_OP_RELEASE) == 2, "delete: %u steps", d.n_ops);
	check_order(&b, &none, &d, "delete");
	tm_diff_fini(&d);
	tm_plan_fini(&a);
	tm_plan_fini(&b);
	tm_plan_fini(&none);
	tm_tree_fini(&h);
}

/* Same elements (values) and queues: what the device would hold. */
static bool
same_plan(const struct tm_plan *x, const struct tm_plan *y)
{
	uint32_t i;

	if (x->n_elems != y->n_elems || x->nb_txq != y->nb_txq)
		return false;
	for (i = 0; i < x->n_elems; i++)
		if (x->elems[i].key != y->elems[i].key ||
		    x->elems[i].parent != y->elems[i].parent ||
		    x->elems[i].bw_share != y->elems[i].bw_share ||
		    x->elems[i].max_average_bw != y->elems[i].max_average_bw)
			return false;
	for (i = 0; i < x->nb_txq; i++)
		if (x->queues[i].shaped != y->queues[i].shaped ||
		    x->queues[i].group != y->queues[i].group ||
		    (x->queues[i].shaped && !pacing_ctx_equal(
		     &x->queues[i].ctx, &y->queues[i].ctx)))
			return false;
	return true;
}

/* A shaper update without rebuilding gives the plan a rebuild gives. */
static void
test_plan_node_update(void)
{
	const uint32_t w[3] = { 1, 2, 5 };
	const uint32_t pr[3] = { 2, NONE, NONE };
	struct tm_plan a = { 0 }, b = { 0 }, full = { 0 };
	struct rte_tm_error err;
	struct tm_node *mid, *leaf;
	struct tm_tree h;

	group_tree(&h, &cx6dx, 1, w, pr, 3);
	mid = tm_tree_node_find(&h, MID);
	leaf = tm_tree_leaf(&h, 1);
	CHECK(tm_plan_build(&h, true, &a, &err) == 0, "plan: %s",
	      err.message);
	tm_tree_node_set_profile(mid, tm_tree_profile_find(&h, 2));
	CHECK(tm_plan_node_update(&b, &a, &h, mid, 0) == 0 &&
	      tm_plan_build(&h, true, &full, &err) == 0 &&
	      same_plan(&b, &full) && tm_plan_node_elem(&b, MID)->
	      max_average_bw == 100, "group ceiling 400 -> 100 Mbit/s");
	tm_tree_node_set_profile(leaf, tm_tree_profile_find(&h, 1));
	CHECK(tm_plan_copy(&a, &full, full.nb_txq) == 0 &&
	      tm_plan_node_update(&b, &a, &h, leaf, 0) == 0 &&
	      tm_plan_build(&h, true, &full, &err) == 0 &&
	      same_plan(&b, &full) && b.queues[1].shaped, "leaf 1 shaped");
	/* Committed rates change shares: the whole plan is needed. */
	tm_tree_node_set_profile(mid, tm_tree_profile_find(&h, 1));
	tm_tree_node_set_profile(leaf, tm_tree_profile_find(&h, 3));
	CHECK(tm_plan_node_update(&b, &a, &h, leaf, 0) == -EAGAIN &&
	      tm_plan_node_update(&b, &a, &h, mid, 0) == -EAGAIN,
	      "committed rate: leaf and group refused (-EAGAIN)");
	tm_plan_fini(&a);
	tm_plan_fini(&b);
	tm_plan_fini(&full);
	tm_tree_fini(&h);
}

/*
 * Every leaf has a queue group of its own while the device's groups last:
 * a capped leaf's surplus cannot stay with an equal-weight sibling in one
 * group (issue 23: the 50 Mbit/s leaf of weight 1 beside an unshaped one
 * of weight 1 and one of weight 2 gave +40% / -20%).
 */
static void
test_plan_own_groups(void)
{
	const uint32_t w[3] = { 1, 1, 2 };
	const uint32_t pr[3] = { 2, NONE, NONE };
	const uint32_t w10[10] = { 1, 1, 1, 1, 1, 1, 1, 1, 3, 3 };
	const uint32_t pr10[10] = { NONE, NONE, NONE, NONE, NONE, NONE, NONE,
				    NONE, NONE, 3 };
	const struct tm_elem *g[10];
	struct rte_tm_error err;
	struct tm_plan p = { 0 };
	struct tm_tree h;
	uint32_t q, r;

	group_tree(&h, &cx6dx, 1, w, pr, 3);
	CHECK(tm_plan_build(&h, true, &p, &err) == 0, "plan: %s",
	      err.message);
	for (q = 0; q < 3; q++)
		g[q] = tm_plan_elem(&p, p.queues[q].group);
	CHECK(p.n_groups == 3 && !p.shared_groups && g[0] != g[1] &&
	      g[1] != g[2] && g[0] != g[2], "3 groups, one per leaf: %u",
	      p.n_groups);
	CHECK(g[0]->weight == 1 && g[1]->weight == 1 && g[2]->weight == 2 &&
	      g[0]->bw_share == g[1]->bw_share &&
	      g[2]->bw_share == 2 * g[0]->bw_share, "shares 1:1:2: %u %u %u",
	      g[0]->bw_share, g[1]->bw_share, g[2]->bw_share);
	tm_plan_fini(&p);
	tm_tree_fini(&h);
	/* Eight of weight 1, two of weight 3 (one committed): ten groups. */
	group_tree(&h, &cx6dx, NONE, w10, pr10, 10);
	CHECK(tm_plan_build(&h, true, &p, &err) == 0, "plan: %s",
	      err.message);
	for (q = 0; q < 10; q++) {
		g[q] = tm_plan_elem(&p, p.queues[q].group);
		CHECK(g[q] != NULL && g[q]->weight == w10[q],
		      "queue %u: a group of weight %u", q, w10[q]);
		for (r = 0; r < q; r++)
			CHECK(g[q] != g[r], "queues %u and %u share", r, q);
	}
	CHECK(p.n_groups == 10, "10 groups: %u", p.n_groups);
	CHECK(p.queues[9].shaped && p.queues[9].ctx.rate_limit == 400000,
	      "committed leaf keeps its pacing entry (peak)");
	tm_plan_fini(&p);
	tm_tree_fini(&h);
}

/* A packet-mode profile of @p pps packets/s. */
static void
add_pps_profile(struct tm_tree *h, uint32_t id, uint64_t pps)
{
	struct rte_tm_shaper_params sp = {
		.peak = { .rate = pps }, .packet_mode = 1,
	};
	struct pacing_result res = {
		.ctx = { .rate_limit = (uint32_t)pps,
			 .rate_mode = PACING_RATE_MODE_WQE },
	};
	struct rte_tm_error err;

	CHECK(tm_tree_profile_add(h, id, &sp, &res, &err) == 0,
	      "profile %u add", id);
}

/*
 * Root 1000, 900 and 901 under it, on a device of @p groups queue groups;
 * under 900 leaves 0..7: 0-2 unshaped weight 1, 3 and 4 at 100 Mbit/s
 * weight 1, 5 unshaped weight 2, 6 and 7 at 200K packets/s weight 1;
 * under 901 leaves 8..10 of weight 1 at three different rates.
 */
static void
shared_tree(struct tm_tree *h, struct tm_limits *lim, uint32_t groups)
{
	static const uint32_t parent[11] = { MID, MID, MID, MID, MID, MID, MID,
					     MID, MID2, MID2, MID2 };
	static const uint32_t weight[11] = { 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1 };
	static const uint32_t prof[11] = { NONE, NONE, NONE, 2, 2, NONE, 6, 6,
					   NONE, 1, 2 };
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	enum rte_tm_error_type type;
	uint32_t q;

	*lim = cx6dx;
	lim->groups_max = groups;
	tm_tree_init(h, lim);
	tm_tree_set_nb_txq(h, 16);
	add_rate_profile(h, 1, 50000000, 0);     /* 400 Mbit/s */
	add_rate_profile(h, 2, 12500000, 0);     /* 100 Mbit/s */
	add_pps_profile(h, 6, 200000);
	CHECK(add(h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type) == 0,
	      "root: %s", MSG);
	nl.shaper_profile_id = 1;
	CHECK(add(h, MID, ROOT, 0, 1, 1, &nl, &type) == 0 &&
	      add(h, MID2, ROOT, 0, 1, 1, &nl, &type) == 0, "900, 901: %s",
	      MSG);
	for (q = 0; q < 11; q++) {
		struct rte_tm_node_params lf = tm_leaf_params(prof[q]);

		CHECK(add(h, q, parent[q], 0, weight[q], 2, &lf, &type) == 0,
		      "leaf %u: %s", q, MSG);
	}
	check_valid(h, "shared tree");
}

/*
 * More leaves than queue groups: only leaves the device cannot tell apart
 * share one (same parent, weight and byte-mode pacing, or none; never
 * packet mode), or a whole family of leaves of one weight.
 */
static void
test_plan_shared_groups(void)
{
	static const uint32_t want[11] = { 0, 0, 0, 3, 3, 5, 6, 7, 8, 8, 8 };
	struct rte_tm_error err;
	struct tm_limits lim;
	struct tm_plan p = { 0 };
	const struct tm_elem *g;
	struct tm_tree h;
	uint32_t q;

	shared_tree(&h, &lim, 6);
	CHECK(tm_plan_build(&h, true, &p, &err) == 0, "plan: %s",
	      err.message);
	CHECK(p.shared_groups && p.n_groups == 6, "11 leaves, 6 groups: %u",
	      p.n_groups);
	for (q = 0; q < 11; q++)
		CHECK(p.queues[q].group == p.queues[want[q]].group &&
		      (want[q] == q || q == want[q] + 1 || q == 2 ||
		       q >= 9) &&
		      (q == want[q] || p.queues[q].group !=
		       p.queues[q - 1].group || want[q] == want[q - 1]),
		      "queue %u with queue %u", q, want[q]);
	for (q = 1; q < 11; q++)
		CHECK((p.queues[q].group == p.queues[q - 1].group) ==
		      (want[q] == want[q - 1]), "queues %u and %u: %s", q - 1,
		      q, want[q] == want[q - 1] ? "not sharing" : "sharing");
	g = tm_plan_elem(&p, p.queues[0].group);
	CHECK(g->weight == 3 && tm_plan_elem(&p, p.queues[3].group)->weight ==
	      2 && tm_plan_elem(&p, p.queues[5].group)->weight == 2 &&
	      tm_plan_elem(&p, p.queues[8].group)->weight == 3,
	      "group weights: the sums of their leaves'");
	/* 3:2:2:1:1 under 900, every one exact. */
	CHECK(g->bw_share * 2 == tm_plan_elem(&p, p.queues[3].group)->
	      bw_share * 3 && tm_plan_elem(&p, p.queues[6].group)->bw_share *
	      3 == g->bw_share, "shares 3:2:2:1:1: %u", g->bw_share);
	CHECK(p.queues[3].shaped && p.queues[4].shaped && !p.queues[0].shaped,
	      "members keep their own pacing");
	tm_plan_fini(&p);
	/* Five groups are one too few: refused with the numbers. */
	tm_tree_fini(&h);
	shared_tree(&h, &lim, 5);
	CHECK(tm_plan_build(&h, true, &p, &err) == -ENOSPC &&
	      err.type == RTE_TM_ERROR_TYPE_UNSPECIFIED &&
	      strstr(err.message, "needs 6 queue groups for its 11 leaves") &&
	      strstr(err.message, "has 5") != NULL, "5 groups: %s",
	      err.message);
	tm_plan_fini(&p);
	tm_tree_fini(&h);
}

/*
 * Live, with shared groups: a leaf whose pacing changes leaves its group
 * (a move, its own group created; the group continues with the other,
 * named by its first leaf); a shaper update cannot take the fast path.
 * Then a leaf added beyond the device's groups: leaves of one family of
 * one weight join one group (the first one's, kept), the others' groups
 * destroyed after the moves; never more groups at once than the device
 * has.
 */
static void
test_plan_shared_moves(void)
{
	const uint32_t w[4] = { 1, 1, 1, 1 };
	const uint32_t pr[4] = { 1, 2, NONE, NONE };
	struct tm_plan a = { 0 }, b = { 0 }, fast = { 0 };
	struct rte_tm_node_params lf = tm_leaf_params(NONE);
	enum rte_tm_error_type type;
	struct tm_limits lim;
	struct rte_tm_error err;
	struct tm_diff d = { 0 };
	struct tm_node *leaf3;
	struct tm_tree h;
	uint32_t q, groups;

	shared_tree(&h, &lim, 7);
	leaf3 = tm_tree_leaf(&h, 3);
	CHECK(tm_plan_build(&h, true, &a, &err) == 0 && a.n_groups == 6,
	      "plan a: %s", MSG);
	tm_tree_node_set_profile(leaf3, tm_tree_profile_find(&h, 1));
	CHECK(tm_plan_node_update(&fast, &a, &h, leaf3, 0) == -EAGAIN,
	      "leaf shaper update with shared groups: rebuilt");
	CHECK(tm_plan_build(&h, true, &b, &err) == 0 && b.n_groups == 7,
	      "plan b: %s", MSG);
	CHECK(b.queues[3].group != b.queues[4].group &&
	      tm_plan_elem(&b, b.queues[3].group)->key ==
	      tm_plan_elem(&a, a.queues[3].group)->key, "3 and 4 apart, "
	      "the group kept by 3");
	CHECK(tm_plan_diff(&a, &b, &d) == 0 &&
	      count_ops(&d, TM_OP_CREATE) == 1 &&
	      count_ops(&d, TM_OP_DESTROY) == 0 &&
	      count_ops(&d, TM_OP_MOVE) == 2 &&
	      count_ops(&d, TM_OP_PACE) == 1 &&
	      count_ops(&d, TM_OP_RELEASE) == 1, "leaf 3 repaced: %u "
	      "created, %u moves", count_ops(&d, TM_OP_CREATE),
	      count_ops(&d, TM_OP_MOVE));
	check_order(&a, &b, &d, "repace");
	tm_diff_fini(&d);
	tm_plan_fini(&a);
	tm_plan_fini(&b);
	tm_plan_fini(&fast);
	tm_tree_fini(&h);

	/* Four leaves of weight 1, four groups: one each, then a fifth. */
	lim = cx6dx;
	lim.groups_max = 4;
	group_tree(&h, &lim, 1, w, pr, 4);
	CHECK(tm_plan_build(&h, true, &a, &err) == 0 && a.n_groups == 4 &&
	      !a.shared_groups, "four own groups: %s", MSG);
	CHECK(add(&h, 4, MID, 0, 1, 2, &lf, &type) == 0, "leaf 4: %s", MSG);
	CHECK(tm_plan_build(&h, true, &b, &err) == 0 && b.n_groups == 1 &&
	      b.shared_groups, "five leaves, the family's one group: %s",
	      MSG);
	for (q = 1; q < 5; q++)
		CHECK(b.queues[q].group == b.queues[0].group,
		      "queue %u in the family's group", q);
	CHECK(tm_plan_diff(&a, &b, &d) == 0 &&
	      count_ops(&d, TM_OP_CREATE) == 0 &&
	      count_ops(&d, TM_OP_DESTROY) == 3 &&
	      count_ops(&d, TM_OP_MOVE) == 4, "to one group: %u created, "
	      "%u destroyed, %u moves", count_ops(&d, TM_OP_CREATE),
	      count_ops(&d, TM_OP_DESTROY), count_ops(&d, TM_OP_MOVE));
	groups = a.n_groups + count_ops(&d, TM_OP_CREATE);
	CHECK(groups <= lim.groups_max, "%u groups at once", groups);
	check_order(&a, &b, &d, "to one group");
	tm_diff_fini(&d);
	/* And back: one group each again, the family's kept by leaf 0. */
	tm_tree_node_delete(&h, tm_tree_leaf(&h, 4));
	CHECK(tm_plan_build(&h, true, &a, &err) == 0 && a.n_groups == 4,
	      "four own groups again: %s", MSG);
	CHECK(tm_plan_diff(&b, &a, &d) == 0 &&
	      count_ops(&d, TM_OP_CREATE) == 3 &&
	      count_ops(&d, TM_OP_DESTROY) == 0 &&
	      b.n_groups + count_ops(&d, TM_OP_CREATE) <= lim.groups_max,
	      "back: %u created", count_ops(&d, TM_OP_CREATE));
	check_order(&b, &a, &d, "back");
	tm_diff_fini(&d);
	tm_plan_fini(&a);
	tm_plan_fini(&b);
	tm_tree_fini(&h);
}

/*
 * Weights are the device's bw_share range, 1..100 on cx6dx: 101 is
 * refused at once (node add, parent update), naming the range; weight
 * ratios then hold exactly. A shared group of 200 leaves of weight 2
 * beside one of weight 1 (400:1 in 1..100) and committed rates whose
 * targets' ratio the range cannot hold within 1% are refused at the
 * plan, naming both children.
 */
static void
test_plan_weight_range(void)
{
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	struct rte_tm_node_params lf = tm_leaf_params(NONE);
	const uint32_t w[2] = { 1, 1 };
	const uint32_t pr[2] = { NONE, 8 };
	enum rte_tm_error_type type;
	struct tm_limits lim = cx6dx;
	struct rte_tm_error err;
	struct tm_plan p = { 0 };
	struct tm_tree h;
	uint32_t q;

	tm_tree_init(&h, &cx6dx);
	tm_tree_set_nb_txq(&h, 4);
	CHECK(tm_tree_weight_max(&h) == 100, "weight max %u",
	      tm_tree_weight_max(&h));
	CHECK(add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type) == 0 &&
	      add(&h, MID, ROOT, 0, 100, 1, &nl, &type) == 0, "weight 100");
	expect_refusal(&h, "weight 101", MID2, ROOT, 0, 101, 1, nl, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_WEIGHT);
	CHECK(strstr(MSG, "weight 101") != NULL &&
	      strstr(MSG, "1..100") != NULL, "message: %s", MSG);
	CHECK(add(&h, 0, MID, 0, 1, 2, &lf, &type) == 0, "leaf 0");
	CHECK(tm_tree_parent_check(&h, 0, MID, 0, 1000, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_WEIGHT &&
	      strstr(err.message, "1..100") != NULL,
	      "parent update to weight 1000 refused");
	tm_tree_fini(&h);

	/* 201 leaves, 8 groups: 200 of weight 2 share, 400:1 refused. */
	lim.groups_max = 8;
	tm_tree_init(&h, &lim);
	tm_tree_set_nb_txq(&h, 201);
	CHECK(add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type) == 0 &&
	      add(&h, MID, ROOT, 0, 1, 1, &nl, &type) == 0, "root, 900");
	for (q = 0; q < 201; q++)
		CHECK(add(&h, q, MID, 0, q == 200 ? 1 : 2, 2, &lf, &type) == 0,
		      "leaf %u", q);
	CHECK(tm_plan_build(&h, true, &p, &err) == -EINVAL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_WEIGHT &&
	      strstr(err.message, "node 900") != NULL &&
	      strstr(err.message, "leaf 0 and 199 more (weight 400 = 2 x "
		     "200") != NULL &&
	      strstr(err.message, "node 200 (weight 1)") != NULL &&
	      strstr(err.message, "1..100") != NULL, "shared 400:1: %s",
	      err.message);
	tm_plan_fini(&p);
	tm_tree_fini(&h);

	/* Targets 10 and 1500 Mbit/s (1490 committed) under 1510. */
	group_tree(&h, &cx6dx, NONE, w, NULL, 0);
	add_rate_profile(&h, 7, 188750000, 0);           /* 1510 Mbit/s */
	add_rate_profile(&h, 8, 188750000, 186250000);   /* 1490 committed */
	tm_tree_node_set_profile(tm_tree_node_find(&h, MID),
				 tm_tree_profile_find(&h, 7));
	for (q = 0; q < 2; q++) {
		lf = tm_leaf_params(pr[q]);
		CHECK(add(&h, q, MID, 0, w[q], 2, &lf, &type) == 0, "leaf %u",
		      q);
	}
	CHECK(tm_plan_build(&h, true, &p, &err) == -EINVAL &&
	      err.type == RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE &&
	      strstr(err.message, "node 0 (weight 1)") != NULL &&
	      strstr(err.message, "node 1 (weight 1, with a committed "
		     "rate)") != NULL, "committed 1490 of 1510: %s",
	      err.message);
	tm_plan_fini(&p);
	tm_tree_fini(&h);
}

/*
 * A queue's 1% holds from the root down: shares off at two levels
 * compound. Under top (1000 Mbit/s), group a (weight 5, 936 committed)
 * and b (weight 2, ceiling 37): targets 981.71 and 18.29, shares 54:1,
 * 0.58% off; in b, queue 0 (weight 3, 36 committed) and queue 1 (weight
 * 6): targets 36.33 and 0.667 of 37, 55:1 at best, 0.92% off, which
 * left queue 1 1.46% below the rule (issue 31). The family in b is
 * refused with what was left of the 1% (0.42%); without the committed
 * rate of a (top's family exact) the same family in b is accepted, its
 * elements' bound the family's fit alone.
 */
static void
test_plan_budget_over_levels(void)
{
	struct rte_tm_node_params nl = tm_nonleaf_params(NONE);
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct tm_plan p = { 0 };
	struct tm_tree h;
	uint32_t i, worst = 0;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		struct rte_tm_node_params lf;

		tm_tree_init(&h, &cx6dx);
		tm_tree_set_nb_txq(&h, 3);
		add_rate_profile(&h, 1, 125000000, 0);          /* 1000 */
		add_rate_profile(&h, 2, 125000000,
				 pass == 0 ? 117000000 : 0);    /* 936 */
		add_rate_profile(&h, 3, 4625000, 0);            /* 37 */
		add_rate_profile(&h, 4, 125000000, 4500000);    /* 36 */
		CHECK(add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl,
			  &type) == 0, "root: %s", MSG);
		nl.shaper_profile_id = 1;
		CHECK(add(&h, MID, ROOT, 0, 1, 1, &nl, &type) == 0,
		      "top: %s", MSG);
		nl.shaper_profile_id = 2;
		CHECK(add(&h, 800, MID, 0, 5, 2, &nl, &type) == 0,
		      "a: %s", MSG);
		nl.shaper_profile_id = 3;
		CHECK(add(&h, 801, MID, 0, 2, 2, &nl, &type) == 0,
		      "b: %s", MSG);
		nl.shaper_profile_id = NONE;
		lf = tm_leaf_params(4);
		CHECK(add(&h, 0, 801, 0, 3, 3, &lf, &type) == 0,
		      "leaf 0: %s", MSG);
		lf = tm_leaf_params(NONE);
		CHECK(add(&h, 1, 801, 0, 6, 3, &lf, &type) == 0 &&
		      add(&h, 2, 800, 0, 1, 3, &lf, &type) == 0,
		      "leaves 1, 2: %s", MSG);
		err = (struct rte_tm_error){ .type = RTE_TM_ERROR_TYPE_NONE };
		if (pass == 0) {
			CHECK(tm_plan_build(&h, true, &p, &err) == -EINVAL &&
			      err.type ==
			      RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE &&
			      strstr(err.message, "children of node 801") !=
			      NULL && strstr(err.message, "within 0.42%") !=
			      NULL && strstr(err.message, "less the 0.58%") !=
			      NULL, "two levels 0.58%% and 0.92%% off: %s",
			      err.type != RTE_TM_ERROR_TYPE_NONE ?
			      err.message : "accepted");
		} else {
			CHECK(tm_plan_build(&h, true, &p, &err) == 0,
			      "top's family exact: %s", err.message);
			for (i = 0; i < p.n_elems; i++)
				if (p.elems[i].path_ppm > worst)
					worst = p.elems[i].path_ppm;
			CHECK(worst > 9000 && worst < 9300,
			      "largest bound %u ppm (b's family alone)", worst);
		}
		tm_plan_fini(&p);
		tm_tree_fini(&h);
	}
}

int
main(void)
{
	TM_CASE(test_error_kept());
	TM_CASE(test_ice_script());
	TM_CASE(test_refusals());
	TM_CASE(test_delete_and_refcount());
	TM_CASE(test_parent_update());
	TM_CASE(test_resize());
	TM_CASE(test_plan_mapping());
	TM_CASE(test_plan_own_groups());
	TM_CASE(test_plan_shared_groups());
	TM_CASE(test_plan_shared_moves());
	TM_CASE(test_plan_weight_range());
	TM_CASE(test_plan_budget_over_levels());
	TM_CASE(test_plan_rounding());
	TM_CASE(test_plan_refusals());
	TM_CASE(test_plan_diff());
	TM_CASE(test_plan_flat());
	TM_CASE(test_plan_node_update());
	return tm_check_report();
}
