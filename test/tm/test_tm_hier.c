/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The rte_tm hierarchy model on its own (no EAL, no device): every
 * structural rule and refusal, reference counting, resizing.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "mlx5_tm_tm_hier.h"
#include "tm_check.h"

unsigned int tm_check_passed;
unsigned int tm_check_failed;

#define ROOT 1000
#define MID 900
#define MID2 901
#define NONE RTE_TM_SHAPER_PROFILE_ID_NONE
#define ANY RTE_TM_NODE_LEVEL_ID_ANY

static struct rte_tm_node_params
nonleaf_params(void)
{
	struct rte_tm_node_params p;

	memset(&p, 0, sizeof(p));
	p.shaper_profile_id = NONE;
	p.nonleaf.n_sp_priorities = 1;
	return p;
}

static struct rte_tm_node_params
leaf_params(uint32_t profile)
{
	struct rte_tm_node_params p;

	memset(&p, 0, sizeof(p));
	p.shaper_profile_id = profile;
	p.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
	p.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
	p.stats_mask = RTE_TM_STATS_N_PKTS | RTE_TM_STATS_N_BYTES;
	return p;
}

/* Add a node; returns the errno (0) and leaves the error type in *type. */
static int
add(struct mlx5_tm_hier *h, uint32_t id, uint32_t parent, uint32_t prio,
    uint32_t weight, uint32_t level, struct rte_tm_node_params *p,
    enum rte_tm_error_type *type)
{
	struct rte_tm_error err = { .type = RTE_TM_ERROR_TYPE_NONE };
	struct mlx5_tm_node *n;

	n = mlx5_tm_hier_node_add(h, id, parent, prio, weight, level, p, &err);
	*type = err.type;
	CHECK(n != NULL || (err.message != NULL && err.message[0] != '\0'),
	      "node %u refused without a message", id);
	return n != NULL ? 0 : rte_errno;
}

static void
expect_refusal(struct mlx5_tm_hier *h, const char *what, uint32_t id,
	       uint32_t parent, uint32_t prio, uint32_t weight,
	       uint32_t level, struct rte_tm_node_params p, int code,
	       enum rte_tm_error_type want)
{
	enum rte_tm_error_type type;
	uint32_t before = h->n_nodes;
	int ret = add(h, id, parent, prio, weight, level, &p, &type);

	CHECK(ret == code && type == want,
	      "%s: errno %d type %d, expected errno %d type %d (%s)", what,
	      ret, type, code, want, h->msg);
	CHECK(h->n_nodes == before, "%s: node count changed", what);
}

static void
add_profile(struct mlx5_tm_hier *h, uint32_t id)
{
	struct rte_tm_shaper_params sp = { .peak = { .rate = 125000 } };
	struct pacing_result res = { .ctx = { .rate_limit = 1000 } };
	struct rte_tm_error err;

	CHECK(mlx5_tm_hier_profile_add(h, id, &sp, &res, &err) == 0,
	      "profile %u add", id);
}

static void
check_valid(struct mlx5_tm_hier *h, const char *when)
{
	struct rte_tm_error err;

	CHECK(mlx5_tm_hier_validate(h, &err) == 0, "validate %s: %s", when,
	      h->msg);
}

/* The ice-style script: root 1000, 900 below, queues below 900. */
static void
test_ice_script(void)
{
	struct rte_tm_node_params nl = nonleaf_params();
	struct rte_tm_node_params lf = leaf_params(1);
	enum rte_tm_error_type type;
	struct mlx5_tm_hier h;
	uint32_t q;

	mlx5_tm_hier_init(&h);
	CHECK(mlx5_tm_hier_set_nb_txq(&h, 8) == 0, "8 queues");
	add_profile(&h, 1);
	CHECK(add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type) == 0,
	      "root: %s", h.msg);
	CHECK(add(&h, MID, ROOT, 0, 1, 1, &nl, &type) == 0, "900: %s", h.msg);
	for (q = 0; q < 8; q++)
		CHECK(add(&h, q, MID, 0, 1, 2, &lf, &type) == 0, "leaf %u: %s",
		      q, h.msg);
	check_valid(&h, "ice script");
	CHECK(h.n_nodes == 10 && h.n_leaves == 8 && h.leaf_level == 2,
	      "counts %u %u %u", h.n_nodes, h.n_leaves, h.leaf_level);
	CHECK(mlx5_tm_hier_profile_find(&h, 1)->n_users == 8, "8 users");
	CHECK(mlx5_tm_hier_leaf(&h, 3) != NULL &&
	      mlx5_tm_hier_leaf(&h, 3)->parent->id == MID, "leaf 3 parent");
	mlx5_tm_hier_fini(&h);
}

static void
test_refusals(void)
{
	struct rte_tm_node_params nl = nonleaf_params();
	struct rte_tm_node_params lf = leaf_params(1), p;
	enum rte_tm_error_type type;
	struct mlx5_tm_hier h;
	int mode = 0;

	mlx5_tm_hier_init(&h);
	mlx5_tm_hier_set_nb_txq(&h, 8);
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
	      "root ignores priority and weight: %s", h.msg);
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
	      "900 with packet-mode WFQ: %s", h.msg);
	/* Leaf refusals. */
	p = leaf_params(77);
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
	      strstr(h.msg, "Tx queue 2, hence a leaf") != NULL &&
	      strstr(h.msg, "id of 8 or more") != NULL &&
	      strncmp(h.msg, "WRED", 4) != 0,
	      "non-leaf parameters on leaf id 2: type %d (%s)", type, h.msg);
	p = lf;
	p.leaf.wred.wred_profile_id = 3;
	expect_refusal(&h, "wred profile", 0, MID, 0, 1, 2, p, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_ID);
	p = lf;
	p.leaf.wred.n_shared_wred_contexts = 1;
	expect_refusal(&h, "shared wred", 0, MID, 0, 1, 2, p, ENOTSUP,
		       RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SHARED_WRED_CONTEXTS);
	CHECK(add(&h, 0, MID, 0, 1, 2, &lf, &type) == 0, "leaf 0: %s", h.msg);
	expect_refusal(&h, "parent is a leaf", 1, 0, 0, 1, ANY, lf, EINVAL,
		       RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID);
	expect_refusal(&h, "leaves on two levels", 1, ROOT, 0, 1, ANY, lf,
		       EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID);
	expect_refusal(&h, "non-leaf on the leaf level", 950, MID, 0, 1, ANY,
		       nl, EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID);
	check_valid(&h, "after refusals");
	mlx5_tm_hier_fini(&h);

	/* Depth: three non-leaf levels, not four. */
	mlx5_tm_hier_init(&h);
	mlx5_tm_hier_set_nb_txq(&h, 2);
	CHECK(add(&h, 10, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type) == 0, "r");
	CHECK(add(&h, 11, 10, 0, 1, 1, &nl, &type) == 0, "l1");
	CHECK(add(&h, 12, 11, 0, 1, 2, &nl, &type) == 0, "l2");
	expect_refusal(&h, "fourth non-leaf level", 13, 12, 0, 1, ANY, nl,
		       EINVAL, RTE_TM_ERROR_TYPE_LEVEL_ID);
	lf = leaf_params(NONE);
	CHECK(add(&h, 0, 12, 0, 1, 3, &lf, &type) == 0, "leaf on level 3");
	check_valid(&h, "4 levels");
	mlx5_tm_hier_fini(&h);
}

static void
test_delete_and_refcount(void)
{
	struct rte_tm_node_params nl = nonleaf_params();
	struct rte_tm_node_params lf = leaf_params(1);
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct mlx5_tm_hier h;
	struct mlx5_tm_node *n;

	mlx5_tm_hier_init(&h);
	mlx5_tm_hier_set_nb_txq(&h, 4);
	add_profile(&h, 1);
	add_profile(&h, 2);
	memset(&err, 0, sizeof(err));
	CHECK(mlx5_tm_hier_profile_add(&h, 1, &(struct rte_tm_shaper_params){0},
		&(struct pacing_result){0}, &err) == -EEXIST &&
	      err.type == RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "dup profile");
	CHECK(mlx5_tm_hier_profile_check_id(&h, NONE, &err) == -EINVAL &&
	      err.type == RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "profile NONE");
	add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type);
	add(&h, 0, ROOT, 0, 1, 1, &lf, &type);
	add(&h, 1, ROOT, 0, 1, 1, &lf, &type);
	CHECK(mlx5_tm_hier_profile_delete(&h, 1, &err) == -EBUSY &&
	      err.type == RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID,
	      "profile in use refused: %s", h.msg);
	CHECK(mlx5_tm_hier_node_check_delete(&h, ROOT, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_ID && rte_errno == EBUSY,
	      "node with children refused");
	CHECK(mlx5_tm_hier_node_check_delete(&h, 3, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_ID && rte_errno == EINVAL,
	      "absent node refused");
	n = mlx5_tm_hier_leaf(&h, 0);
	mlx5_tm_hier_node_set_profile(n, mlx5_tm_hier_profile_find(&h, 2));
	CHECK(mlx5_tm_hier_profile_find(&h, 1)->n_users == 1 &&
	      mlx5_tm_hier_profile_find(&h, 2)->n_users == 1, "refcounts");
	check_valid(&h, "after profile change");
	n = mlx5_tm_hier_node_check_delete(&h, 1, &err);
	CHECK(n != NULL, "leaf 1 deletable");
	mlx5_tm_hier_node_delete(&h, n);
	CHECK(mlx5_tm_hier_profile_delete(&h, 1, &err) == 0,
	      "profile 1 free now: %s", h.msg);
	CHECK(mlx5_tm_hier_profile_delete(&h, 1, &err) == -EINVAL,
	      "profile 1 gone");
	check_valid(&h, "after deletes");
	mlx5_tm_hier_fini(&h);
}

static void
test_parent_update(void)
{
	struct rte_tm_node_params nl = nonleaf_params();
	struct rte_tm_node_params lf = leaf_params(NONE);
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct mlx5_tm_hier h;
	struct mlx5_tm_node *p;

	mlx5_tm_hier_init(&h);
	mlx5_tm_hier_set_nb_txq(&h, 4);
	add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type);
	add(&h, MID, ROOT, 0, 1, 1, &nl, &type);
	add(&h, MID2, ROOT, 0, 1, 1, &nl, &type);
	add(&h, 0, MID, 0, 1, 2, &lf, &type);
	p = mlx5_tm_hier_parent_check(&h, 0, MID2, 0, 1, &err);
	CHECK(p != NULL && p->id == MID2, "move 0 to 901: %s", h.msg);
	mlx5_tm_hier_node_move(mlx5_tm_hier_leaf(&h, 0), p);
	CHECK(mlx5_tm_hier_leaf(&h, 0)->parent->id == MID2 &&
	      mlx5_tm_hier_node_find(&h, MID)->n_children == 0 &&
	      p->n_children == 1, "moved");
	check_valid(&h, "after move");
	CHECK(mlx5_tm_hier_parent_check(&h, 0, ROOT, 0, 1, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID &&
	      rte_errno == ENOTSUP, "level change refused");
	CHECK(mlx5_tm_hier_parent_check(&h, ROOT, MID, 0, 1, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID,
	      "root cannot move");
	CHECK(mlx5_tm_hier_parent_check(&h, 0, MID, 3, 1, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_PRIORITY, "priority 3");
	CHECK(mlx5_tm_hier_parent_check(&h, 0, MID, 0, 5, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_WEIGHT, "weight 5");
	CHECK(mlx5_tm_hier_parent_check(&h, 7, MID, 0, 1, &err) == NULL &&
	      err.type == RTE_TM_ERROR_TYPE_NODE_ID, "absent node");
	/* Suspension is inherited. */
	mlx5_tm_hier_node_find(&h, MID2)->suspended = true;
	CHECK(mlx5_tm_hier_node_suspended(mlx5_tm_hier_leaf(&h, 0)),
	      "suspended through 901");
	mlx5_tm_hier_node_move(mlx5_tm_hier_leaf(&h, 0),
			       mlx5_tm_hier_node_find(&h, MID));
	CHECK(!mlx5_tm_hier_node_suspended(mlx5_tm_hier_leaf(&h, 0)),
	      "not suspended under 900");
	mlx5_tm_hier_fini(&h);
}

static void
test_resize(void)
{
	struct rte_tm_node_params nl = nonleaf_params();
	struct rte_tm_node_params lf = leaf_params(NONE);
	enum rte_tm_error_type type;
	struct mlx5_tm_hier h;
	uint32_t q;

	mlx5_tm_hier_init(&h);
	mlx5_tm_hier_set_nb_txq(&h, 8);
	add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type);
	for (q = 0; q < 8; q++)
		add(&h, q, ROOT, 0, 1, 1, &lf, &type);
	CHECK(mlx5_tm_hier_set_nb_txq(&h, 4) == 0 && h.n_leaves == 4 &&
	      h.n_nodes == 5, "shrink to 4: %u leaves", h.n_leaves);
	check_valid(&h, "after shrink");
	CHECK(mlx5_tm_hier_set_nb_txq(&h, 16) == 0 && h.n_leaves == 4,
	      "grow to 16");
	check_valid(&h, "after grow");
	CHECK(add(&h, 12, ROOT, 0, 1, 1, &lf, &type) == 0, "leaf 12");
	CHECK(mlx5_tm_hier_set_nb_txq(&h, 1001) == 1 && h.n_nodes == 0 &&
	      h.root == NULL, "root id 1000 now a queue: cleared");
	check_valid(&h, "after clear");
	mlx5_tm_hier_fini(&h);
}

/* The validator is what commit and the random walk rely on: it must see
 * every kind of corruption. */
static void
test_validate_detects(void)
{
	struct rte_tm_node_params nl = nonleaf_params();
	struct rte_tm_node_params lf = leaf_params(1);
	enum rte_tm_error_type type;
	struct rte_tm_error err;
	struct mlx5_tm_hier h;
	struct mlx5_tm_node *leaf, *mid;

	mlx5_tm_hier_init(&h);
	mlx5_tm_hier_set_nb_txq(&h, 4);
	add_profile(&h, 1);
	add(&h, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &nl, &type);
	add(&h, MID, ROOT, 0, 1, 1, &nl, &type);
	add(&h, 0, MID, 0, 1, 2, &lf, &type);
	check_valid(&h, "before corruption");
	leaf = mlx5_tm_hier_leaf(&h, 0);
	mid = mlx5_tm_hier_node_find(&h, MID);
	mid->n_children++;
	CHECK(mlx5_tm_hier_validate(&h, &err) == -EINVAL, "child count");
	mid->n_children--;
	mlx5_tm_hier_profile_find(&h, 1)->n_users++;
	CHECK(mlx5_tm_hier_validate(&h, &err) == -EINVAL &&
	      err.type == RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, "profile users");
	mlx5_tm_hier_profile_find(&h, 1)->n_users--;
	leaf->level = 1;
	CHECK(mlx5_tm_hier_validate(&h, &err) == -EINVAL, "wrong level");
	leaf->level = 2;
	mid->profile = mlx5_tm_hier_profile_find(&h, 1);
	CHECK(mlx5_tm_hier_validate(&h, &err) == -EINVAL,
	      "non-leaf with a shaper");
	mid->profile = NULL;
	h.n_leaves++;
	CHECK(mlx5_tm_hier_validate(&h, &err) == -EINVAL, "leaf count");
	h.n_leaves--;
	check_valid(&h, "after repair");
	mlx5_tm_hier_fini(&h);
}

int
main(void)
{
	TM_CASE(test_ice_script());
	TM_CASE(test_refusals());
	TM_CASE(test_delete_and_refcount());
	TM_CASE(test_parent_update());
	TM_CASE(test_resize());
	TM_CASE(test_validate_detects());
	return tm_check_report();
}
