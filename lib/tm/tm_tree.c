/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "tm_tree.h"

/*
 * Per thread: an error returned to one caller stays readable while another
 * thread's call on the same port fails. Written only for a caller that
 * takes it: a failure reported to no one (a clean-up's, error NULL) leaves
 * the message a caller holds as it was.
 */
static __thread char error_msg[TM_TREE_MSG_SIZE];

/* What may explain a device without the hierarchy, "" when nothing. */
static const char *
tm_no_sched_hint(const struct tm_limits *lim)
{
	return lim->no_sched_hint != NULL ? lim->no_sched_hint : "";
}

int
tm_error(struct rte_tm_error *error, enum rte_tm_error_type type, int code,
	 const char *fmt, ...)
{
	va_list ap;

	if (error != NULL) {
		va_start(ap, fmt);
		vsnprintf(error_msg, sizeof(error_msg), fmt, ap);
		va_end(ap);
		error->type = type;
		error->cause = NULL;
		error->message = error_msg;
	}
	rte_errno = code;
	return -code;
}

void
tm_tree_init(struct tm_tree *h, const struct tm_limits *lim)
{
	memset(h, 0, sizeof(*h));
	h->lim = *lim;
	TAILQ_INIT(&h->profiles);
	TAILQ_INIT(&h->nodes);
}

void
tm_tree_clear_nodes(struct tm_tree *h)
{
	struct tm_node *node;

	while ((node = TAILQ_FIRST(&h->nodes)) != NULL) {
		TAILQ_REMOVE(&h->nodes, node, next);
		if (node->profile != NULL)
			node->profile->n_users--;
		free(node);
	}
	if (h->leaves != NULL)
		memset(h->leaves, 0, sizeof(*h->leaves) * h->nb_txq);
	h->root = NULL;
	h->n_nodes = 0;
	h->n_leaves = 0;
	h->leaf_level = 0;
	memset(h->n_nonleaf, 0, sizeof(h->n_nonleaf));
}

void
tm_tree_fini(struct tm_tree *h)
{
	struct tm_profile *p;

	tm_tree_clear_nodes(h);
	while ((p = TAILQ_FIRST(&h->profiles)) != NULL) {
		TAILQ_REMOVE(&h->profiles, p, next);
		free(p);
	}
	free(h->leaves);
	h->leaves = NULL;
	h->nb_txq = 0;
	h->n_profiles = 0;
}

int
tm_tree_set_nb_txq(struct tm_tree *h, uint32_t nb_txq)
{
	struct tm_node **leaves = NULL;
	struct tm_node *node, *tmp;
	bool collide = false;
	uint32_t q;

	if (nb_txq == h->nb_txq)
		return 0;
	if (nb_txq > 0) {
		leaves = calloc(nb_txq, sizeof(*leaves));
		if (leaves == NULL)
			return -ENOMEM;
	}
	TAILQ_FOREACH(node, &h->nodes, next)
		if (!node->leaf && node->id < nb_txq)
			collide = true;
	if (collide) {
		tm_tree_clear_nodes(h);
	} else {
		/* Leaves of the queues that go; they have no children. */
		for (node = TAILQ_FIRST(&h->nodes); node != NULL; node = tmp) {
			tmp = TAILQ_NEXT(node, next);
			if (node->leaf && node->id >= nb_txq)
				tm_tree_node_delete(h, node);
		}
		for (q = 0; q < RTE_MIN(nb_txq, h->nb_txq); q++)
			leaves[q] = h->leaves[q];
	}
	free(h->leaves);
	h->leaves = leaves;
	h->nb_txq = nb_txq;
	return collide ? 1 : 0;
}

struct tm_profile *
tm_tree_profile_find(const struct tm_tree *h, uint32_t id)
{
	struct tm_profile *p;

	TAILQ_FOREACH(p, &h->profiles, next)
		if (p->id == id)
			return p;
	return NULL;
}

int
tm_tree_profile_check_id(struct tm_tree *h, uint32_t id,
			      struct rte_tm_error *error)
{
	if (id == RTE_TM_SHAPER_PROFILE_ID_NONE)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, EINVAL,
			"shaper profile id %" PRIu32 " is reserved "
			"(RTE_TM_SHAPER_PROFILE_ID_NONE)", id);
	if (tm_tree_profile_find(h, id) != NULL)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, EEXIST,
			"shaper profile %" PRIu32 " already exists", id);
	return 0;
}

int
tm_tree_profile_add(struct tm_tree *h, uint32_t id,
			 const struct rte_tm_shaper_params *params,
			 const struct pacing_result *pacing,
			 struct rte_tm_error *error)
{
	struct tm_profile *p;
	int ret;

	ret = tm_tree_profile_check_id(h, id, error);
	if (ret != 0)
		return ret;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_UNSPECIFIED, ENOMEM,
			"no memory for shaper profile %" PRIu32, id);
	p->id = id;
	p->params = *params;
	p->pacing = *pacing;
	TAILQ_INSERT_TAIL(&h->profiles, p, next);
	h->n_profiles++;
	return 0;
}

int
tm_tree_profile_delete(struct tm_tree *h, uint32_t id,
			    struct rte_tm_error *error)
{
	struct tm_profile *p = tm_tree_profile_find(h, id);
	struct tm_node *node;

	if (p == NULL)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, EINVAL,
			"shaper profile %" PRIu32 " does not exist", id);
	if (p->n_users > 0) {
		TAILQ_FOREACH(node, &h->nodes, next)
			if (node->profile == p)
				break;
		return tm_error(error,
			RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID, EBUSY,
			"shaper profile %" PRIu32 " is used by %" PRIu32
			" node(s), node %" PRIu32 " first: give them another "
			"profile or delete them first", id, p->n_users,
			node != NULL ? node->id : RTE_TM_NODE_ID_NULL);
	}
	TAILQ_REMOVE(&h->profiles, p, next);
	h->n_profiles--;
	free(p);
	return 0;
}

/* Non-leaf nodes in h->nonleaf: all of them. */
static uint32_t
nonleaf_count(const struct tm_tree *h)
{
	uint32_t level, n = 0;

	for (level = 0; level < TM_TREE_LEVELS; level++)
		n += h->n_nonleaf[level];
	return n;
}

/* Where non-leaf id @p id is in h->nonleaf, or would go. */
static uint32_t
nonleaf_pos(const struct tm_tree *h, uint32_t n, uint32_t id)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (h->nonleaf[mid]->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct tm_node *
tm_tree_node_find(const struct tm_tree *h, uint32_t id)
{
	uint32_t n, i;

	if (id < h->nb_txq)
		return h->leaves[id];
	n = nonleaf_count(h);
	i = nonleaf_pos(h, n, id);
	return i < n && h->nonleaf[i]->id == id ? h->nonleaf[i] : NULL;
}

struct tm_node *
tm_tree_node_get(const struct tm_tree *h, uint32_t id,
		 struct rte_tm_error *error)
{
	struct tm_node *node = tm_tree_node_find(h, id);

	if (node == NULL)
		tm_error(error, RTE_TM_ERROR_TYPE_NODE_ID, EINVAL,
			 "node %" PRIu32 " does not exist", id);
	return node;
}

uint32_t
tm_tree_nonleaf_max(uint32_t level)
{
	if (level == 0)
		return 1;
	if (level < TM_TREE_NONLEAF_LEVELS)
		return TM_TREE_NONLEAF_PER_LEVEL;
	return 0;
}

uint32_t
tm_tree_children_max(const struct tm_tree *h, uint32_t level)
{
	if (level >= TM_TREE_NONLEAF_LEVELS)
		return 0;
	return h->nb_txq + tm_tree_nonleaf_max(level + 1);
}

uint32_t
tm_tree_weight_max(const struct tm_tree *h)
{
	if (!h->lim.sched)
		return 1;
	return h->lim.max_share < TM_TREE_WEIGHT_MAX ? h->lim.max_share :
	       TM_TREE_WEIGHT_MAX;
}

uint32_t
tm_tree_nodes_max(const struct tm_tree *h)
{
	uint32_t n = h->nb_txq, level;

	for (level = 0; level < TM_TREE_NONLEAF_LEVELS; level++)
		n += tm_tree_nonleaf_max(level);
	return n;
}

/* Checks of priority and weight against the parent's single WFQ group. */
static int
check_sched_params(const struct tm_tree *h, uint32_t node_id,
		   uint32_t priority, uint32_t weight,
		   struct rte_tm_error *error)
{
	if (priority != 0)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PRIORITY, ENOTSUP,
			"node %" PRIu32 ": priority %" PRIu32 " not supported: "
			"the device has one priority level (0)",
			node_id, priority);
	if (weight == 0)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_WEIGHT, EINVAL,
			"node %" PRIu32 ": weight 0 is invalid, the lowest "
			"weight is 1", node_id);
	if (weight != 1 && !h->lim.sched)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_WEIGHT, ENOTSUP,
			"node %" PRIu32 ": weight %" PRIu32 " not supported: "
			"the device has no NIC scheduling hierarchy%s, so no "
			"WFQ between siblings; the only weight is 1",
			node_id, weight, tm_no_sched_hint(&h->lim));
	if (weight > tm_tree_weight_max(h))
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_WEIGHT, EINVAL,
			"node %" PRIu32 ": weight %" PRIu32 " too large: the "
			"device holds a weight as its element's bw_share, "
			"1..%" PRIu32 " (max_tsar_bw_share), so weights are "
			"1..%" PRIu32 " (any ratio of them exact)", node_id,
			weight, h->lim.max_share, tm_tree_weight_max(h));
	return 0;
}

/* Checks of the level a new node would sit on. */
static int
check_level(struct tm_tree *h, uint32_t node_id, bool leaf,
	    uint32_t level, const struct tm_node *parent,
	    uint32_t level_id, struct rte_tm_error *error)
{
	const struct tm_node *n;

	if (level_id != RTE_TM_NODE_LEVEL_ID_ANY && level_id != level) {
		if (parent == NULL)
			return tm_error(error,
				RTE_TM_ERROR_TYPE_LEVEL_ID, EINVAL,
				"node %" PRIu32 ": the root is on level 0, "
				"not %" PRIu32, node_id, level_id);
		return tm_error(error,
			RTE_TM_ERROR_TYPE_LEVEL_ID, EINVAL,
			"node %" PRIu32 ": level %" PRIu32 " asked, but its "
			"parent %" PRIu32 " is on level %" PRIu32
			" so the node would be on level %" PRIu32,
			node_id, level_id, parent->id, parent->level, level);
	}
	if (!leaf) {
		if (level >= TM_TREE_NONLEAF_LEVELS)
			return tm_error(error,
				RTE_TM_ERROR_TYPE_LEVEL_ID, EINVAL,
				"node %" PRIu32 ": a non-leaf node on level "
				"%" PRIu32 " is too deep: non-leaf nodes sit "
				"on levels 0 to %d (node ids below %" PRIu32
				" are the Tx queues)", node_id, level,
				TM_TREE_NONLEAF_LEVELS - 1, h->nb_txq);
		if (h->n_leaves > 0 && level >= h->leaf_level)
			return tm_error(error,
				RTE_TM_ERROR_TYPE_LEVEL_ID, EINVAL,
				"node %" PRIu32 ": a non-leaf node on level "
				"%" PRIu32 " would not be above the leaves, "
				"which are on level %" PRIu32 " (node ids "
				"below %" PRIu32 " are the Tx queues)",
				node_id, level, h->leaf_level, h->nb_txq);
		if (h->n_nonleaf[level] >= tm_tree_nonleaf_max(level))
			return tm_error(error,
				RTE_TM_ERROR_TYPE_LEVEL_ID, ENOSPC,
				"node %" PRIu32 ": level %" PRIu32 " already "
				"holds its maximum of %" PRIu32
				" non-leaf node(s)", node_id, level,
				tm_tree_nonleaf_max(level));
		return 0;
	}
	if (h->n_leaves > 0 && level != h->leaf_level)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_LEVEL_ID, EINVAL,
			"leaf node %" PRIu32 " would be on level %" PRIu32
			", but all leaves must be on one level and the others "
			"are on level %" PRIu32, node_id, level, h->leaf_level);
	TAILQ_FOREACH(n, &h->nodes, next)
		if (!n->leaf && n->level >= level)
			return tm_error(error,
				RTE_TM_ERROR_TYPE_LEVEL_ID, EINVAL,
				"leaf node %" PRIu32 " would be on level "
				"%" PRIu32 ", not below non-leaf node %" PRIu32
				" (level %" PRIu32 "): leaves go below every "
				"non-leaf node", node_id, level, n->id,
				n->level);
	return 0;
}

/* Checks of the node parameters the device cannot honour. */
static int
check_params(struct tm_tree *h, uint32_t node_id, bool leaf,
	     const struct rte_tm_node_params *params,
	     struct rte_tm_error *error)
{
	struct tm_profile *p;
	int ret;

	ret = tm_tree_profile_check_use(h, node_id, leaf,
					params->shaper_profile_id, &p, error);
	if (ret != 0)
		return ret;
	if (params->n_shared_shapers != 0)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SHARED_SHAPERS,
			ENOTSUP, "node %" PRIu32 ": %" PRIu32 " shared "
			"shaper(s) asked, the device has no shared shapers",
			node_id, params->n_shared_shapers);
	if (!leaf && params->nonleaf.n_sp_priorities > 1)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SP_PRIORITIES,
			ENOTSUP, "node %" PRIu32 ": %" PRIu32 " strict "
			"priorities asked, the device has 1 (its scheduling "
			"elements are DWRR only, no strict-priority type)",
			node_id, params->nonleaf.n_sp_priorities);
	if (leaf && params->leaf.cman != RTE_TM_CMAN_TAIL_DROP)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_CMAN, ENOTSUP,
			"node %" PRIu32 " (Tx queue %" PRIu32 ", a leaf): "
			"congestion management %s not supported, only tail "
			"drop", node_id, node_id,
			params->leaf.cman == RTE_TM_CMAN_HEAD_DROP ?
			"head drop" : "WRED");
	/*
	 * The device has no WRED, so no leaf names a WRED profile: a caller
	 * that filled the non-leaf half of the parameters for a Tx queue's id
	 * (testpmd's "add port tm nonleaf node" does) lands its priorities
	 * there. The id is what makes these leaf parameters: name it first.
	 */
	if (leaf && params->leaf.wred.wred_profile_id !=
	    RTE_TM_WRED_PROFILE_ID_NONE)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_ID, EINVAL,
			"node %" PRIu32 " is Tx queue %" PRIu32 ", hence a "
			"leaf (ids 0 to %" PRIu32 " are the port's Tx "
			"queues), and its leaf parameters name WRED profile "
			"%" PRIu32 ": the device has no WRED, a leaf takes "
			"RTE_TM_WRED_PROFILE_ID_NONE (testpmd: 0xffffffff); "
			"a non-leaf node needs an id of %" PRIu32 " or more",
			node_id, node_id, h->nb_txq - 1,
			params->leaf.wred.wred_profile_id, h->nb_txq);
	if (leaf && params->leaf.wred.n_shared_wred_contexts != 0)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SHARED_WRED_CONTEXTS,
			ENOTSUP, "node %" PRIu32 " (Tx queue %" PRIu32 ", a "
			"leaf): the device has no shared WRED contexts",
			node_id, node_id);
	return tm_tree_check_stats_mask(node_id, params->stats_mask, error);
}

int
tm_tree_check_stats_mask(uint32_t node_id, uint64_t stats_mask,
			 struct rte_tm_error *error)
{
	if ((stats_mask & ~TM_TREE_STATS_MASK) != 0)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_STATS, ENOTSUP,
			"node %" PRIu32 ": statistics mask 0x%" PRIx64
			" asks for counters the device lacks; supported: "
			"0x%" PRIx64 " (packets, bytes)", node_id,
			stats_mask, TM_TREE_STATS_MASK);
	return 0;
}

/* Parent @p parent_id (@p what) of node @p node_id, or NULL with @p error. */
static struct tm_node *
parent_get(const struct tm_tree *h, uint32_t node_id, uint32_t parent_id,
	   const char *what, struct rte_tm_error *error)
{
	struct tm_node *parent = tm_tree_node_find(h, parent_id);

	if (parent == NULL)
		tm_error(error, RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID, EINVAL,
			 "node %" PRIu32 ": %s %" PRIu32 " does not exist%s",
			 node_id, what, parent_id, h->root == NULL ?
			 " (the first node must be the root, parent "
			 "RTE_TM_NODE_ID_NULL)" : "");
	else if (parent->leaf)
		tm_error(error, RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID, EINVAL,
			 "node %" PRIu32 ": %s %" PRIu32 " is a leaf (Tx "
			 "queue) and cannot have children", node_id, what,
			 parent_id);
	else
		return parent;
	return NULL;
}

static int
node_check(struct tm_tree *h, uint32_t node_id,
			uint32_t parent_id, uint32_t priority,
			uint32_t weight, uint32_t level_id,
			const struct rte_tm_node_params *params,
			struct rte_tm_error *error)
{
	bool leaf = node_id < h->nb_txq;
	struct tm_node *parent = NULL;
	uint32_t level = 0;
	int ret;

	if (node_id == RTE_TM_NODE_ID_NULL)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_ID, EINVAL,
			"node id %" PRIu32 " is reserved (RTE_TM_NODE_ID_NULL)",
			node_id);
	if (params == NULL)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS, EINVAL,
			"node %" PRIu32 ": no parameters", node_id);
	if (tm_tree_node_find(h, node_id) != NULL)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_ID, EEXIST,
			"node %" PRIu32 " already exists", node_id);
	if (parent_id == RTE_TM_NODE_ID_NULL) {
		if (h->root != NULL)
			return tm_error(error,
				RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID, EEXIST,
				"node %" PRIu32 ": no parent given, but the "
				"hierarchy already has its root (node %"
				PRIu32 ")", node_id, h->root->id);
		if (leaf)
			return tm_error(error,
				RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID, EINVAL,
				"node %" PRIu32 " is Tx queue %" PRIu32
				" (a leaf) and cannot be the root: add a "
				"non-leaf root with an id of %" PRIu32
				" or more first", node_id, node_id, h->nb_txq);
	} else {
		parent = parent_get(h, node_id, parent_id, "parent", error);
		if (parent == NULL)
			return -rte_errno;
		level = parent->level + 1;
	}
	ret = check_level(h, node_id, leaf, level, parent, level_id, error);
	if (ret != 0)
		return ret;
	/* The root is nobody's child: its priority and weight are unused. */
	if (parent != NULL) {
		ret = check_sched_params(h, node_id, priority, weight, error);
		if (ret != 0)
			return ret;
	}
	return check_params(h, node_id, leaf, params, error);
}

struct tm_node *
tm_tree_node_add(struct tm_tree *h, uint32_t node_id,
		      uint32_t parent_id, uint32_t priority, uint32_t weight,
		      uint32_t level_id, const struct rte_tm_node_params *params,
		      struct rte_tm_error *error)
{
	struct tm_node *node;

	if (node_check(h, node_id, parent_id, priority, weight, level_id,
		       params, error) != 0)
		return NULL;
	node = calloc(1, sizeof(*node));
	if (node == NULL) {
			tm_error(error, RTE_TM_ERROR_TYPE_UNSPECIFIED, ENOMEM,
			 "no memory for node %" PRIu32, node_id);
		return NULL;
	}
	node->id = node_id;
	node->leaf = node_id < h->nb_txq;
	node->weight = parent_id != RTE_TM_NODE_ID_NULL ? weight : 1;
	node->stats_mask = params->stats_mask;
	node->parent = tm_tree_node_find(h, parent_id);
	node->level = node->parent != NULL ? node->parent->level + 1 : 0;
	node->profile = tm_tree_profile_find(h, params->shaper_profile_id);
	tm_tree_node_link(h, node);
	return node;
}

void
tm_tree_node_link(struct tm_tree *h, struct tm_node *node)
{
	if (node->parent != NULL)
		node->parent->n_children++;
	else
		h->root = node;
	if (node->profile != NULL)
		node->profile->n_users++;
	if (node->leaf) {
		h->leaves[node->id] = node;
		h->n_leaves++;
		h->leaf_level = node->level;
	} else {
		uint32_t n = nonleaf_count(h), i = nonleaf_pos(h, n, node->id);

		memmove(&h->nonleaf[i + 1], &h->nonleaf[i],
			(n - i) * sizeof(h->nonleaf[0]));
		h->nonleaf[i] = node;
		h->n_nonleaf[node->level]++;
	}
	TAILQ_INSERT_TAIL(&h->nodes, node, next);
	h->n_nodes++;
}

struct tm_node *
tm_tree_node_check_delete(struct tm_tree *h, uint32_t id,
			       struct rte_tm_error *error)
{
	struct tm_node *node = tm_tree_node_get(h, id, error);

	if (node == NULL)
		return NULL;
	if (node->n_children > 0) {
		tm_error(error, RTE_TM_ERROR_TYPE_NODE_ID, EBUSY,
				   "node %" PRIu32 " still has %" PRIu32
				   " child node(s): delete them first",
				   id, node->n_children);
		return NULL;
	}
	return node;
}

void
tm_tree_node_unlink(struct tm_tree *h, struct tm_node *node)
{
	if (node->profile != NULL)
		node->profile->n_users--;
	if (node->parent != NULL)
		node->parent->n_children--;
	else
		h->root = NULL;
	if (node->leaf) {
		h->leaves[node->id] = NULL;
		h->n_leaves--;
	} else {
		uint32_t n = nonleaf_count(h), i = nonleaf_pos(h, n, node->id);

		memmove(&h->nonleaf[i], &h->nonleaf[i + 1],
			(n - i - 1) * sizeof(h->nonleaf[0]));
		h->n_nonleaf[node->level]--;
	}
	TAILQ_REMOVE(&h->nodes, node, next);
	h->n_nodes--;
}

void
tm_tree_node_delete(struct tm_tree *h, struct tm_node *node)
{
	tm_tree_node_unlink(h, node);
	free(node);
}

int
tm_tree_profile_check_use(const struct tm_tree *h, uint32_t node_id,
			  bool leaf, uint32_t id, struct tm_profile **profile,
			  struct rte_tm_error *error)
{
	struct tm_profile *p = tm_tree_profile_find(h, id);
	struct pacing_error perr;
	uint32_t mbps;

	*profile = p;
	if (id == RTE_TM_SHAPER_PROFILE_ID_NONE)
		return 0;
	if (p == NULL)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID,
			EINVAL, "node %" PRIu32 ": shaper profile %" PRIu32
			" does not exist", node_id, id);
	if (leaf)
		return 0;
	if (!h->lim.sched)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID,
			ENOTSUP, "node %" PRIu32 " is not a Tx queue (the "
			"port has %" PRIu32 ") so it is a non-leaf node, and "
			"the device has no NIC scheduling hierarchy%s: only Tx "
			"queues are shaped; give shaper profile %" PRIu32
			" to leaves, use RTE_TM_SHAPER_PROFILE_ID_NONE here",
			node_id, h->nb_txq, tm_no_sched_hint(&h->lim), p->id);
	if (p->params.packet_mode)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID,
			ENOTSUP, "non-leaf node %" PRIu32 ": shaper profile %"
			PRIu32 " is in packet mode; a scheduling element's "
			"ceiling is in Mbit/s: byte mode only", node_id, p->id);
	if (h->lim.line_rate_mbps == 0)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID,
			EAGAIN, "non-leaf node %" PRIu32 ": the port's line "
			"rate is unknown (its link is down and it reports no "
			"link mode), and a non-leaf ceiling must not exceed "
			"it: bring the link up and try again, or shape the "
			"leaves only", node_id);
	if (pacing_sched_ceiling(p->params.peak.rate, h->lim.line_rate_mbps,
				 &mbps, &perr) != 0)
		return tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID,
			EINVAL, "non-leaf node %" PRIu32 ": shaper profile %"
			PRIu32 ": %s", node_id, p->id, perr.message);
	return 0;
}

void
tm_tree_node_set_profile(struct tm_node *node,
			      struct tm_profile *profile)
{
	if (node->profile != NULL)
		node->profile->n_users--;
	node->profile = profile;
	if (profile != NULL)
		profile->n_users++;
}

struct tm_node *
tm_tree_parent_check(struct tm_tree *h, uint32_t node_id,
			  uint32_t parent_id, uint32_t priority,
			  uint32_t weight, struct rte_tm_error *error)
{
	struct tm_node *node = tm_tree_node_get(h, node_id, error);
	struct tm_node *parent;

	if (node == NULL)
		return NULL;
	if (node->parent == NULL) {
		tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID, EINVAL,
			"node %" PRIu32 " is the root: it has no parent to "
			"change", node_id);
		return NULL;
	}
	parent = parent_get(h, node_id, parent_id, "new parent", error);
	if (parent == NULL)
		return NULL;
	if (parent->level != node->parent->level) {
		tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID, ENOTSUP,
			"node %" PRIu32 ": new parent %" PRIu32 " is on level "
			"%" PRIu32 ", the current parent %" PRIu32 " on level "
			"%" PRIu32 ": a node can only move between parents "
			"of the same level", node_id, parent_id, parent->level,
			node->parent->id, node->parent->level);
		return NULL;
	}
	if (check_sched_params(h, node_id, priority, weight, error) != 0)
		return NULL;
	return parent;
}

void
tm_tree_node_move(struct tm_node *node, struct tm_node *parent,
		  uint32_t weight)
{
	node->parent->n_children--;
	node->parent = parent;
	node->weight = weight;
	parent->n_children++;
}

bool
tm_tree_node_suspended(const struct tm_node *node)
{
	for (; node != NULL; node = node->parent)
		if (node->suspended)
			return true;
	return false;
}

bool
tm_tree_node_under(const struct tm_node *node,
			const struct tm_node *ancestor)
{
	for (; node != NULL; node = node->parent)
		if (node == ancestor)
			return true;
	return false;
}
