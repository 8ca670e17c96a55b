/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * rte_tm operations, a thin layer over lib/tm: capability queries from the
 * device's caps, profiles and nodes in the tree; at commit, then at once on
 * a live hierarchy, every change is made to the tree, its plan applied by
 * mlx5_tm_sched_sync(), and the change undone in the tree on failure.
 * What each op does on this device: doc/guides/rte_tm.rst.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_tm_driver.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_txq.h"
#include "mlx5_tm_rte_tm.h"
#include "mlx5_tm_sched.h"
#include "mlx5_tm_sched_priv.h"

/*
 * Scheduling fields of a non-leaf node (same names in the port, level and
 * node capability structures): one priority, one WFQ group, weights up to
 * the device's max_tsar_bw_share with a scheduling hierarchy (each weight
 * an exact bw_share; 1 without), byte or packet mode alike (bw_share
 * shares bytes; with weight 1 it is moot).
 */
#define FILL_NONLEAF_SCHED(s, c, children) do { \
	(c).sched_n_children_max = (children); \
	(c).sched_sp_n_priorities_max = 1; \
	(c).sched_wfq_n_children_per_group_max = (children); \
	(c).sched_wfq_n_groups_max = 1; \
	(c).sched_wfq_weight_max = tm_tree_weight_max(&(s)->hier); \
	(c).sched_wfq_packet_mode_supported = 1; \
	(c).sched_wfq_byte_mode_supported = 1; \
} while (0)

/*
 * Private shaper fields of a leaf (same names in the port, level and node
 * capability structures): its pacing entry. rte_tm has one range: bytes/s
 * where the device paces bytes (the packets/s range in the guide).
 */
#define FILL_LEAF_SHAPER(r, c) do { \
	(c).shaper_private_byte_mode_supported = (r)->byte_min != 0; \
	(c).shaper_private_packet_mode_supported = (r)->pkt_min != 0; \
	(c).shaper_private_rate_min = (r)->byte_min != 0 ? (r)->byte_min : \
		(r)->pkt_min; \
	(c).shaper_private_rate_max = (r)->byte_min != 0 ? (r)->byte_max : \
		(r)->pkt_max; \
} while (0)

/*
 * Private shaper fields of a non-leaf node (same names in the level and
 * node capability structures): a TSAR ceiling, 1 Mbit/s to the line rate,
 * dual rate (committed rates become bw_share), bytes only.
 */
#define FILL_NONLEAF_SHAPER(s, c) do { \
	(c).shaper_private_supported = (s)->hier.lim.sched; \
	(c).shaper_private_dual_rate_supported = (s)->hier.lim.sched; \
	(c).shaper_private_rate_min = (s)->hier.lim.sched ? \
		PACING_BYTES_PER_MBPS : 0; \
	(c).shaper_private_rate_max = (s)->hier.lim.sched ? \
		(uint64_t)(s)->hier.lim.line_rate_mbps * \
		PACING_BYTES_PER_MBPS : 0; \
	(c).shaper_private_byte_mode_supported = (s)->hier.lim.sched; \
} while (0)

/* The port's scheduling state, locked (ops_get made sure there is one). */
static struct mlx5_tm_sched *
sched_lock(struct rte_eth_dev *dev)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);

	pthread_mutex_lock(&s->lock);
	return s;
}

static int
sched_unlock(struct mlx5_tm_sched *s, int ret)
{
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* A change to a committed hierarchy is live at once; before, it waits. */
static int
live_sync(struct mlx5_tm_sched *s, const char *what,
	  struct rte_tm_error *error)
{
	return s->committed ? mlx5_tm_sched_sync(s, what, error) : 0;
}

static int
tm_node_type_get(struct rte_eth_dev *dev, uint32_t node_id, int *is_leaf,
		 struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	const struct tm_node *node;

	if (is_leaf == NULL)
		return sched_unlock(s, tm_error(error,
			RTE_TM_ERROR_TYPE_UNSPECIFIED, EINVAL,
			"is_leaf is NULL"));
	node = tm_tree_node_get(&s->hier, node_id, error);
	if (node == NULL)
		return sched_unlock(s, -rte_errno);
	*is_leaf = node->leaf;
	return sched_unlock(s, 0);
}

static int
tm_capabilities_get(struct rte_eth_dev *dev, struct rte_tm_capabilities *cap,
		    struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	const struct mlx5_tm_pacing_range *r;

	if (cap == NULL)
		return sched_unlock(s, tm_error(error,
			RTE_TM_ERROR_TYPE_CAPABILITIES, EINVAL, "cap is NULL"));
	r = mlx5_tm_pacing_range(s->pacing);
	memset(cap, 0, sizeof(*cap));
	cap->n_nodes_max = tm_tree_nodes_max(&s->hier);
	cap->n_levels_max = TM_TREE_LEVELS;
	cap->non_leaf_nodes_identical = 1;
	cap->leaf_nodes_identical = 1;
	/* A profile is a pacing context first: no pacing, no profile. */
	cap->shaper_n_max = r->byte_max == 0 ? 0 : s->hier.lim.sched ?
			    tm_tree_nodes_max(&s->hier) : s->hier.nb_txq;
	cap->shaper_private_n_max = cap->shaper_n_max;
	/* Committed rates: as bw_share, on every node (dual rate). */
	cap->shaper_private_dual_rate_n_max = s->hier.lim.sched ?
					      cap->shaper_n_max : 0;
	FILL_LEAF_SHAPER(r, *cap);
	FILL_NONLEAF_SCHED(s, *cap, tm_tree_children_max(&s->hier, 0));
	cap->dynamic_update_mask = RTE_TM_UPDATE_NODE_PARENT_KEEP_LEVEL |
				   RTE_TM_UPDATE_NODE_ADD_DELETE |
				   RTE_TM_UPDATE_NODE_SUSPEND_RESUME |
				   RTE_TM_UPDATE_NODE_STATS;
	cap->stats_mask = TM_TREE_STATS_MASK;
	return sched_unlock(s, 0);
}

static int
tm_level_capabilities_get(struct rte_eth_dev *dev, uint32_t level_id,
			  struct rte_tm_level_capabilities *cap,
			  struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);

	if (cap == NULL)
		return sched_unlock(s, tm_error(error,
			RTE_TM_ERROR_TYPE_CAPABILITIES, EINVAL, "cap is NULL"));
	if (level_id >= TM_TREE_LEVELS)
		return sched_unlock(s, tm_error(error,
			RTE_TM_ERROR_TYPE_LEVEL_ID, EINVAL,
			"level %" PRIu32 " does not exist: levels are 0 (root) "
			"to %d", level_id, TM_TREE_LEVELS - 1));
	memset(cap, 0, sizeof(*cap));
	cap->n_nodes_nonleaf_max = tm_tree_nonleaf_max(level_id);
	/* Every level below the root may hold the leaves. */
	cap->n_nodes_leaf_max = level_id >= 1 ? s->hier.nb_txq : 0;
	cap->n_nodes_max = cap->n_nodes_nonleaf_max + cap->n_nodes_leaf_max;
	cap->non_leaf_nodes_identical = 1;
	cap->leaf_nodes_identical = 1;
	/*
	 * A level that may hold leaves (1 and up) describes the leaves in
	 * the union: they alone have a shaper; its non-leaf nodes are the
	 * pass-through kind of level 0 (see node capabilities).
	 */
	if (cap->n_nodes_leaf_max != 0) {
		FILL_LEAF_SHAPER(mlx5_tm_pacing_range(s->pacing), cap->leaf);
		cap->leaf.shaper_private_supported =
			cap->leaf.shaper_private_rate_max != 0;
		cap->leaf.shaper_private_dual_rate_supported =
			s->hier.lim.sched;
		cap->leaf.stats_mask = TM_TREE_STATS_MASK;
	} else if (cap->n_nodes_nonleaf_max != 0) {
		FILL_NONLEAF_SCHED(s, cap->nonleaf,
			tm_tree_children_max(&s->hier, level_id));
		FILL_NONLEAF_SHAPER(s, cap->nonleaf);
		cap->nonleaf.stats_mask = TM_TREE_STATS_MASK;
	}
	return sched_unlock(s, 0);
}

static int
tm_node_capabilities_get(struct rte_eth_dev *dev, uint32_t node_id,
			 struct rte_tm_node_capabilities *cap,
			 struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	const struct tm_node *node;

	if (cap == NULL)
		return sched_unlock(s, tm_error(error,
			RTE_TM_ERROR_TYPE_CAPABILITIES, EINVAL, "cap is NULL"));
	node = tm_tree_node_get(&s->hier, node_id, error);
	if (node == NULL)
		return sched_unlock(s, -rte_errno);
	memset(cap, 0, sizeof(*cap));
	cap->stats_mask = TM_TREE_STATS_MASK;
	if (node->leaf) {
		FILL_LEAF_SHAPER(mlx5_tm_pacing_range(s->pacing), *cap);
		cap->shaper_private_supported =
			cap->shaper_private_rate_max != 0;
		cap->shaper_private_dual_rate_supported = s->hier.lim.sched;
	} else {
		FILL_NONLEAF_SCHED(s, cap->nonleaf,
			tm_tree_children_max(&s->hier, node->level));
		FILL_NONLEAF_SHAPER(s, *cap);
	}
	return sched_unlock(s, 0);
}

/* rte_tm error type of a pacing-library refusal of a shaper. */
static enum rte_tm_error_type
shaper_error_type(enum pacing_field field)
{
	switch (field) {
	case PACING_FIELD_PEAK_RATE:
		return RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_RATE;
	case PACING_FIELD_PEAK_SIZE:
		return RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_SIZE;
	case PACING_FIELD_COMMITTED_RATE:
		return RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE;
	case PACING_FIELD_COMMITTED_SIZE:
		return RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_SIZE;
	case PACING_FIELD_PACKET_MODE:
		return RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PACKET_MODE;
	case PACING_FIELD_PKT_LEN_ADJUST:
		return RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PKT_ADJUST_LEN;
	default:
		return RTE_TM_ERROR_TYPE_SHAPER_PROFILE;
	}
}

static int
tm_shaper_profile_add(struct rte_eth_dev *dev, uint32_t profile_id,
		      struct rte_tm_shaper_params *params,
		      struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	struct pacing_shaper shaper;
	struct pacing_result res;
	struct pacing_error perr;
	bool share;
	int ret;

	if (params == NULL)
		return sched_unlock(s, tm_error(error,
			RTE_TM_ERROR_TYPE_SHAPER_PROFILE, EINVAL,
			"shaper profile %" PRIu32 ": no parameters",
			profile_id));
	/*
	 * With a scheduling hierarchy a committed rate is a share of the
	 * parent (bw_share), not part of the pacing entry, which the peak
	 * alone makes; the bucket of a share has no meaning.
	 */
	share = s->hier.lim.sched && params->committed.rate != 0;
	if (share && (params->packet_mode ||
		      params->committed.rate > params->peak.rate))
		return sched_unlock(s, tm_error(error,
			RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE,
			EINVAL, "shaper profile %" PRIu32 ": committed "
			"rate %" PRIu64 " %s: allowed in byte mode, "
			"up to the peak rate %" PRIu64 " bytes/s",
			profile_id, params->committed.rate,
			params->packet_mode ? "packets/s" : "bytes/s",
			params->peak.rate));
	shaper = (struct pacing_shaper){
		.peak_rate = params->peak.rate,
		.peak_size = params->peak.size,
		.committed_rate = share ? 0 : params->committed.rate,
		.committed_size = share ? 0 : params->committed.size,
		.pkt_length_adjust = params->pkt_length_adjust,
		.packet_mode = params->packet_mode != 0,
	};
	ret = mlx5_tm_pacing_convert(s->pacing, &shaper, &res, &perr);
	if (ret != 0)
		return sched_unlock(s, tm_error(error,
			shaper_error_type(perr.field), -ret,
			"shaper profile %" PRIu32 ": %s", profile_id,
			perr.message));
	if (res.warnings != 0)
		MLX5_TM_PORT_LOG(INFO, dev->data->port_id, "shaper profile %"
				 PRIu32
				 ": warnings 0x%x (typical size or length adjust ignored by the device)",
				 profile_id, res.warnings);
	ret = tm_tree_profile_add(&s->hier, profile_id, params, &res,
				       error);
	return sched_unlock(s, ret);
}

static int
tm_shaper_profile_delete(struct rte_eth_dev *dev, uint32_t profile_id,
			 struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);

	return sched_unlock(s, tm_tree_profile_delete(&s->hier,
							   profile_id, error));
}

static int
tm_node_add(struct rte_eth_dev *dev, uint32_t node_id, uint32_t parent_id,
	    uint32_t priority, uint32_t weight, uint32_t level_id,
	    struct rte_tm_node_params *params, struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	struct tm_node *node;
	int ret;

	node = tm_tree_node_add(&s->hier, node_id, parent_id, priority,
				     weight, level_id, params, error);
	if (node == NULL)
		return sched_unlock(s, -rte_errno);
	/* A leaf counts from now on. */
	if (node->leaf)
		mlx5_tm_txq_counters(dev, node_id, &node->stats_origin_pkts,
				     &node->stats_origin_bytes);
	ret = live_sync(s, "node add", error);
	if (ret != 0)
		tm_tree_node_delete(&s->hier, node);
	return sched_unlock(s, ret);
}

static int
tm_node_delete(struct rte_eth_dev *dev, uint32_t node_id,
	       struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	struct tm_node *node;
	int ret;

	node = tm_tree_node_check_delete(&s->hier, node_id, error);
	if (node == NULL)
		return sched_unlock(s, -rte_errno);
	tm_tree_node_unlink(&s->hier, node);
	ret = live_sync(s, "node delete", error);
	if (ret != 0) {
		tm_tree_node_link(&s->hier, node);
		return sched_unlock(s, ret);
	}
	free(node);
	/* Hierarchy gone: the port is back to queue rate limits. */
	if (s->hier.n_nodes == 0)
		s->committed = false;
	return sched_unlock(s, 0);
}

static int
suspend_resume(struct rte_eth_dev *dev, uint32_t node_id, bool suspend,
	       struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	struct tm_node *node;
	int ret;

	node = tm_tree_node_get(&s->hier, node_id, error);
	if (node == NULL)
		return sched_unlock(s, -rte_errno);
	if (node->suspended == suspend)
		return sched_unlock(s, tm_error(error,
			RTE_TM_ERROR_TYPE_NODE_ID, EINVAL,
			"node %" PRIu32 " is %s", node_id,
			suspend ? "already suspended" : "not suspended"));
	node->suspended = suspend;
	ret = live_sync(s, suspend ? "node suspend" : "node resume", error);
	if (ret != 0)
		node->suspended = !suspend;
	return sched_unlock(s, ret);
}

static int
tm_node_suspend(struct rte_eth_dev *dev, uint32_t node_id,
		struct rte_tm_error *error)
{
	return suspend_resume(dev, node_id, true, error);
}

static int
tm_node_resume(struct rte_eth_dev *dev, uint32_t node_id,
	       struct rte_tm_error *error)
{
	return suspend_resume(dev, node_id, false, error);
}

static int
tm_hierarchy_commit(struct rte_eth_dev *dev, int clear_on_fail,
		    struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s;
	bool was;
	int ret;

	/* Shares and ceilings from the line rate of now (no lock held). */
	mlx5_tm_line_rate_refresh(dev);
	s = sched_lock(dev);
	was = s->committed;

	/* Every rule was checked as the tree was built; the plan, the rest. */
	if (s->hier.n_nodes == 0)
		return sched_unlock(s, 0); /* No hierarchy: nothing to do. */
	s->committed = true;
	ret = mlx5_tm_sched_sync(s, "hierarchy commit", error);
	if (ret == 0)
		return sched_unlock(s, 0);
	s->committed = was;
	if (clear_on_fail)
		tm_tree_clear_nodes(&s->hier);
	/* A hierarchy in force cleared too: its queues go unlimited. */
	if (clear_on_fail && was) {
		s->committed = false;
		if (mlx5_tm_sched_sync(s, "clearing the hierarchy", NULL) != 0)
			MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
					 "clearing the hierarchy: %s", s->msg);
	}
	rte_errno = -ret; /* the commit's, not the clean-up's */
	return sched_unlock(s, ret);
}

static int
tm_node_parent_update(struct rte_eth_dev *dev, uint32_t node_id,
		      uint32_t parent_id, uint32_t priority, uint32_t weight,
		      struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	struct tm_node *parent, *node, *old_parent;
	uint32_t old_weight;
	int ret;

	parent = tm_tree_parent_check(&s->hier, node_id, parent_id,
					   priority, weight, error);
	if (parent == NULL)
		return sched_unlock(s, -rte_errno);
	node = tm_tree_node_find(&s->hier, node_id);
	old_parent = node->parent;
	old_weight = node->weight;
	tm_tree_node_move(node, parent, weight);
	ret = s->committed ? mlx5_tm_sched_sync_change(s,
		&(struct tm_plan_change){ .node = node, .parent = old_parent,
					  .weight = old_weight,
					  .profile = node->profile },
		"node parent update", error) : 0;
	if (ret != 0)
		tm_tree_node_move(node, old_parent, old_weight);
	return sched_unlock(s, ret);
}

static int
tm_node_shaper_update(struct rte_eth_dev *dev, uint32_t node_id,
		      uint32_t profile_id, struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	struct tm_profile *profile = NULL, *old;
	struct tm_node *node;
	int ret;

	node = tm_tree_node_get(&s->hier, node_id, error);
	if (node == NULL)
		return sched_unlock(s, -rte_errno);
	ret = tm_tree_profile_check_use(&s->hier, node_id, node->leaf,
					profile_id, &profile, error);
	/* The parameter at fault here is the profile id of the call. */
	if (ret != 0 && error != NULL)
		error->type = RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID;
	if (ret != 0 || profile == node->profile)
		return sched_unlock(s, ret);
	/* Live: new entry or ceiling first, the old entry released last. */
	old = node->profile;
	tm_tree_node_set_profile(node, profile);
	ret = s->committed ? mlx5_tm_sched_sync_change(s,
		&(struct tm_plan_change){ .node = node, .parent = node->parent,
					  .weight = node->weight,
					  .profile = old },
		"shaper update", error) : 0;
	if (ret != 0)
		tm_tree_node_set_profile(node, old);
	return sched_unlock(s, ret);
}

static int
tm_node_stats_read(struct rte_eth_dev *dev, uint32_t node_id,
		   struct rte_tm_node_stats *stats, uint64_t *stats_mask,
		   int clear, struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	uint64_t pkts = 0, bytes = 0, p, b;
	struct tm_node *node, *leaf;
	uint16_t q;

	node = tm_tree_node_get(&s->hier, node_id, error);
	if (node == NULL)
		return sched_unlock(s, -rte_errno);
	/* What it counted since it was added: its leaf, or its leaves. */
	for (q = 0; q < s->hier.nb_txq; q++) {
		leaf = tm_tree_leaf(&s->hier, q);
		if (leaf == NULL || !tm_tree_node_under(leaf, node))
			continue;
		mlx5_tm_txq_counters(dev, q, &p, &b);
		/* Below the origin: the queue's counters restarted. */
		if (p < leaf->stats_origin_pkts ||
		    b < leaf->stats_origin_bytes) {
			leaf->stats_origin_pkts = 0;
			leaf->stats_origin_bytes = 0;
		}
		pkts += p - leaf->stats_origin_pkts;
		bytes += b - leaf->stats_origin_bytes;
	}
	/* Below the last clear: leaves left or restarted; count afresh. */
	if (pkts < node->stats_base_pkts || bytes < node->stats_base_bytes) {
		node->stats_base_pkts = 0;
		node->stats_base_bytes = 0;
	}
	if (stats != NULL) {
		memset(stats, 0, sizeof(*stats));
		if (node->stats_mask & RTE_TM_STATS_N_PKTS)
			stats->n_pkts = pkts - node->stats_base_pkts;
		if (node->stats_mask & RTE_TM_STATS_N_BYTES)
			stats->n_bytes = bytes - node->stats_base_bytes;
	}
	if (stats_mask != NULL)
		*stats_mask = node->stats_mask;
	if (clear) {
		node->stats_base_pkts = pkts;
		node->stats_base_bytes = bytes;
	}
	return sched_unlock(s, 0);
}

static int
tm_node_stats_update(struct rte_eth_dev *dev, uint32_t node_id,
		     uint64_t stats_mask, struct rte_tm_error *error)
{
	struct mlx5_tm_sched *s = sched_lock(dev);
	struct tm_node *node;

	node = tm_tree_node_get(&s->hier, node_id, error);
	if (node == NULL)
		return sched_unlock(s, -rte_errno);
	if (tm_tree_check_stats_mask(node_id, stats_mask, error) != 0)
		return sched_unlock(s, -rte_errno);
	node->stats_mask = stats_mask;
	return sched_unlock(s, 0);
}

/*
 * What the device cannot do at all. Implemented (rather than left NULL,
 * which ethdev answers with a bare ENOSYS) so that the error names the
 * parameter and says why; the arguments between port and error are unused.
 */
#define TM_REFUSE(op, type, message, ...) \
static int \
op(struct rte_eth_dev *dev __rte_unused, __VA_ARGS__, \
   struct rte_tm_error *error) \
{ \
	return -rte_tm_error_set(error, ENOTSUP, type, NULL, message); \
}

#define NO_WRED "WRED not supported: the device has no congestion " \
	"management (tail drop only)"
#define NO_SHARED_WRED "shared WRED contexts not supported: the device " \
	"has no congestion management"
#define NO_SHARED_SHAPER "shared shapers not supported: the device " \
	"paces each Tx queue on its own (private leaf shapers only)"

TM_REFUSE(tm_wred_profile_add, RTE_TM_ERROR_TYPE_WRED_PROFILE, NO_WRED,
	  uint32_t id __rte_unused,
	  struct rte_tm_wred_params *profile __rte_unused)
TM_REFUSE(tm_wred_profile_delete, RTE_TM_ERROR_TYPE_WRED_PROFILE_ID,
	  "WRED not supported: no WRED profile can exist",
	  uint32_t id __rte_unused)
TM_REFUSE(tm_shared_wred_context_add_update,
	  RTE_TM_ERROR_TYPE_SHARED_WRED_CONTEXT_ID, NO_SHARED_WRED,
	  uint32_t ctx_id __rte_unused, uint32_t wred_profile_id __rte_unused)
TM_REFUSE(tm_shared_wred_context_delete,
	  RTE_TM_ERROR_TYPE_SHARED_WRED_CONTEXT_ID,
	  "shared WRED contexts not supported: none can exist",
	  uint32_t ctx_id __rte_unused)
TM_REFUSE(tm_shared_shaper_add_update, RTE_TM_ERROR_TYPE_SHARED_SHAPER_ID,
	  NO_SHARED_SHAPER, uint32_t shaper_id __rte_unused,
	  uint32_t profile_id __rte_unused)
TM_REFUSE(tm_shared_shaper_delete, RTE_TM_ERROR_TYPE_SHARED_SHAPER_ID,
	  "shared shapers not supported: none can exist",
	  uint32_t shaper_id __rte_unused)
TM_REFUSE(tm_node_shared_shaper_update,
	  RTE_TM_ERROR_TYPE_NODE_PARAMS_SHARED_SHAPER_ID, NO_SHARED_SHAPER,
	  uint32_t node_id __rte_unused, uint32_t shaper_id __rte_unused,
	  int32_t add __rte_unused)
TM_REFUSE(tm_node_wfq_weight_mode_update,
	  RTE_TM_ERROR_TYPE_NODE_PARAMS_WFQ_WEIGHT_MODE,
	  "WFQ weight mode cannot change: one priority, and the device "
	  "shares bytes between siblings (DWRR) or, without its scheduling "
	  "hierarchy, does not share",
	  uint32_t node_id __rte_unused, int *wfq_weight_mode __rte_unused,
	  uint32_t n_sp_priorities __rte_unused)
TM_REFUSE(tm_node_cman_update, RTE_TM_ERROR_TYPE_NODE_PARAMS_CMAN,
	  "congestion management cannot change: tail drop only",
	  uint32_t node_id __rte_unused,
	  enum rte_tm_cman_mode cman __rte_unused)
TM_REFUSE(tm_node_wred_context_update,
	  RTE_TM_ERROR_TYPE_NODE_PARAMS_WRED_PROFILE_ID, NO_WRED,
	  uint32_t node_id __rte_unused, uint32_t wred_profile_id __rte_unused)
TM_REFUSE(tm_node_shared_wred_context_update,
	  RTE_TM_ERROR_TYPE_NODE_PARAMS_SHARED_WRED_CONTEXT_ID, NO_SHARED_WRED,
	  uint32_t node_id __rte_unused, uint32_t ctx_id __rte_unused,
	  int add __rte_unused)

/* VLAN DEI, IP ECN and IP DSCP marking alike. */
static int
tm_mark(struct rte_eth_dev *dev __rte_unused, int green, int yellow, int red,
	struct rte_tm_error *error)
{
	/* Marking nothing is what the device does already. */
	if (!green && !yellow && !red)
		return 0;
	return -rte_tm_error_set(error, ENOTSUP,
				 RTE_TM_ERROR_TYPE_CAPABILITIES, NULL,
				 "packet marking not supported: the device "
				 "has no traffic metering (no colors)");
}

static const struct rte_tm_ops tm_ops = {
	.node_type_get = tm_node_type_get,
	.capabilities_get = tm_capabilities_get,
	.level_capabilities_get = tm_level_capabilities_get,
	.node_capabilities_get = tm_node_capabilities_get,
	.wred_profile_add = tm_wred_profile_add,
	.wred_profile_delete = tm_wred_profile_delete,
	.shared_wred_context_add_update = tm_shared_wred_context_add_update,
	.shared_wred_context_delete = tm_shared_wred_context_delete,
	.shaper_profile_add = tm_shaper_profile_add,
	.shaper_profile_delete = tm_shaper_profile_delete,
	.shared_shaper_add_update = tm_shared_shaper_add_update,
	.shared_shaper_delete = tm_shared_shaper_delete,
	.node_add = tm_node_add,
	.node_delete = tm_node_delete,
	.node_suspend = tm_node_suspend,
	.node_resume = tm_node_resume,
	.hierarchy_commit = tm_hierarchy_commit,
	.node_parent_update = tm_node_parent_update,
	.node_shaper_update = tm_node_shaper_update,
	.node_shared_shaper_update = tm_node_shared_shaper_update,
	.node_stats_update = tm_node_stats_update,
	.node_wfq_weight_mode_update = tm_node_wfq_weight_mode_update,
	.node_cman_update = tm_node_cman_update,
	.node_wred_context_update = tm_node_wred_context_update,
	.node_shared_wred_context_update = tm_node_shared_wred_context_update,
	.node_stats_read = tm_node_stats_read,
	.mark_vlan_dei = tm_mark,
	.mark_ip_ecn = tm_mark,
	.mark_ip_dscp = tm_mark,
};

int
mlx5_tm_rte_tm_ops_get(struct rte_eth_dev *dev, void *ops)
{
	if (ops == NULL)
		return -EINVAL;
	/* Every op works on the port's state: none without it. */
	if (mlx5_tm_sched_get(dev) == NULL)
		return -ENODEV;
	*(const struct rte_tm_ops **)ops = &tm_ops;
	return 0;
}
