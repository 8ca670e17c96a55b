/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "pace_tm.h"

/* Non-leaf node ids sit above every possible queue id. */
#define PACE_TM_ROOT_ID 100000u
#define PACE_TM_MID_ID 100001u
#define PACE_TM_GROUP_ID 100100u  /* + group index */
#define PACE_TM_PASS_ID 100200u   /* + 32 * (group index + 1) + step */

static const char *const error_type_names[] = {
	[RTE_TM_ERROR_TYPE_NONE] = "NONE",
	[RTE_TM_ERROR_TYPE_UNSPECIFIED] = "UNSPECIFIED",
	[RTE_TM_ERROR_TYPE_CAPABILITIES] = "CAPABILITIES",
	[RTE_TM_ERROR_TYPE_LEVEL_ID] = "LEVEL_ID",
	[RTE_TM_ERROR_TYPE_WRED_PROFILE] = "WRED_PROFILE",
	[RTE_TM_ERROR_TYPE_WRED_PROFILE_GREEN] = "WRED_PROFILE_GREEN",
	[RTE_TM_ERROR_TYPE_WRED_PROFILE_YELLOW] = "WRED_PROFILE_YELLOW",
	[RTE_TM_ERROR_TYPE_WRED_PROFILE_RED] = "WRED_PROFILE_RED",
	[RTE_TM_ERROR_TYPE_WRED_PROFILE_ID] = "WRED_PROFILE_ID",
	[RTE_TM_ERROR_TYPE_SHARED_WRED_CONTEXT_ID] = "SHARED_WRED_CONTEXT_ID",
	[RTE_TM_ERROR_TYPE_SHAPER_PROFILE] = "SHAPER_PROFILE",
	[RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_RATE] =
		"SHAPER_PROFILE_COMMITTED_RATE",
	[RTE_TM_ERROR_TYPE_SHAPER_PROFILE_COMMITTED_SIZE] =
		"SHAPER_PROFILE_COMMITTED_SIZE",
	[RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_RATE] =
		"SHAPER_PROFILE_PEAK_RATE",
	[RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PEAK_SIZE] =
		"SHAPER_PROFILE_PEAK_SIZE",
	[RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PKT_ADJUST_LEN] =
		"SHAPER_PROFILE_PKT_ADJUST_LEN",
	[RTE_TM_ERROR_TYPE_SHAPER_PROFILE_PACKET_MODE] =
		"SHAPER_PROFILE_PACKET_MODE",
	[RTE_TM_ERROR_TYPE_SHAPER_PROFILE_ID] = "SHAPER_PROFILE_ID",
	[RTE_TM_ERROR_TYPE_SHARED_SHAPER_ID] = "SHARED_SHAPER_ID",
	[RTE_TM_ERROR_TYPE_NODE_PARENT_NODE_ID] = "NODE_PARENT_NODE_ID",
	[RTE_TM_ERROR_TYPE_NODE_PRIORITY] = "NODE_PRIORITY",
	[RTE_TM_ERROR_TYPE_NODE_WEIGHT] = "NODE_WEIGHT",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS] = "NODE_PARAMS",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_SHAPER_PROFILE_ID] =
		"NODE_PARAMS_SHAPER_PROFILE_ID",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_SHARED_SHAPER_ID] =
		"NODE_PARAMS_SHARED_SHAPER_ID",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SHARED_SHAPERS] =
		"NODE_PARAMS_N_SHARED_SHAPERS",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_WFQ_WEIGHT_MODE] =
		"NODE_PARAMS_WFQ_WEIGHT_MODE",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SP_PRIORITIES] =
		"NODE_PARAMS_N_SP_PRIORITIES",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_CMAN] = "NODE_PARAMS_CMAN",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_WRED_PROFILE_ID] =
		"NODE_PARAMS_WRED_PROFILE_ID",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_SHARED_WRED_CONTEXT_ID] =
		"NODE_PARAMS_SHARED_WRED_CONTEXT_ID",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_N_SHARED_WRED_CONTEXTS] =
		"NODE_PARAMS_N_SHARED_WRED_CONTEXTS",
	[RTE_TM_ERROR_TYPE_NODE_PARAMS_STATS] = "NODE_PARAMS_STATS",
	[RTE_TM_ERROR_TYPE_NODE_ID] = "NODE_ID",
};

const char *
pace_tm_error_type_name(enum rte_tm_error_type type)
{
	static char buf[48];

	if ((unsigned int)type < RTE_DIM(error_type_names) &&
	    error_type_names[type] != NULL) {
		snprintf(buf, sizeof(buf), "RTE_TM_ERROR_TYPE_%s",
			 error_type_names[type]);
	} else {
		snprintf(buf, sizeof(buf), "RTE_TM_ERROR_TYPE_%d", (int)type);
	}
	return buf;
}

/* Print a refusal the way a user can act on it, and keep it. */
static int
refused(struct pace_tm *tm, int ret, const struct rte_tm_error *err,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int
refused(struct pace_tm *tm, int ret, const struct rte_tm_error *err,
	const char *fmt, ...)
{
	struct pace_tm_failure f = { 0 };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f.call, sizeof(f.call), fmt, ap);
	va_end(ap);
	f.errnum = ret < 0 ? -ret : ret;
	if (f.errnum == 0)
		f.errnum = EIO;
	f.type = err->type;
	if (err->message != NULL)
		snprintf(f.message, sizeof(f.message), "%s", err->message);
	fprintf(stderr, "tm-pace: %s refused: %s (errno %d), %s: %s\n",
		f.call, strerror(f.errnum), f.errnum,
		pace_tm_error_type_name(f.type),
		f.message[0] != '\0' ? f.message :
		"(the driver gave no message)");
	if (tm->nb_failures < PACE_TM_MAX_ERRORS)
		tm->failures[tm->nb_failures++] = f;
	tm->last_refusal = f;
	tm->nb_refusals++;
	return -f.errnum;
}

static void
shaper_to_params(const struct pace_shaper *sh, struct rte_tm_shaper_params *p)
{
	memset(p, 0, sizeof(*p));
	if (sh->packet_mode) {
		p->packet_mode = 1;
		p->peak.rate = sh->rate;
	} else {
		/* The plan is in bits/s; rte_tm counts bytes/s. */
		p->peak.rate = pace_bytes_per_s(sh->rate);
		p->committed.rate = pace_bytes_per_s(sh->committed);
	}
	p->peak.size = sh->burst;
}

static bool
same_shaper(const struct pace_shaper *a, const struct pace_shaper *b)
{
	return a->packet_mode == b->packet_mode && a->rate == b->rate &&
	       a->burst == b->burst && a->committed == b->committed;
}

static struct pace_tm_profile *
profile_by_id(struct pace_tm *tm, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < tm->nb_profiles; i++)
		if (tm->profiles[i].id == id)
			return &tm->profiles[i];
	return NULL;
}

/* A profile for @p sh: an identical one under --share, else a new one. */
static int
profile_get(struct pace_tm *tm, const struct pace_shaper *sh, bool share,
	    uint32_t *id)
{
	struct rte_tm_shaper_params params;
	struct rte_tm_error err = { 0 };
	struct pace_tm_profile *p;
	unsigned int i;
	int ret;

	if (share) {
		for (i = 0; i < tm->nb_profiles; i++) {
			p = &tm->profiles[i];
			if (same_shaper(&p->shaper, sh)) {
				p->users++;
				*id = p->id;
				return 0;
			}
		}
	}
	if (tm->nb_profiles == RTE_DIM(tm->profiles))
		return -ENOSPC;
	shaper_to_params(sh, &params);
	ret = rte_tm_shaper_profile_add(tm->port_id, tm->next_profile_id,
					&params, &err);
	if (ret != 0) {
		ret = refused(tm, ret, &err,
			"rte_tm_shaper_profile_add(profile %u, peak %" PRIu64
			" %s, size %" PRIu64 ", committed %" PRIu64 ")",
			tm->next_profile_id, params.peak.rate,
			sh->packet_mode ? "pkt/s" : "B/s", params.peak.size,
			params.committed.rate);
		if (tm->caps_ok && !sh->packet_mode &&
		    tm->caps.shaper_private_rate_max != 0 &&
		    params.peak.rate > tm->caps.shaper_private_rate_max)
			fprintf(stderr, "tm-pace: note: the port's private "
				"shaper maximum is %" PRIu64 " B/s (%" PRIu64
				" bit/s)\n", tm->caps.shaper_private_rate_max,
				tm->caps.shaper_private_rate_max * 8);
		return ret;
	}
	p = &tm->profiles[tm->nb_profiles++];
	p->id = tm->next_profile_id++;
	p->shaper = *sh;
	p->users = 1;
	*id = p->id;
	return 0;
}

/* Drop one user of profile @p id; delete the profile with its last user. */
static void
profile_put(struct pace_tm *tm, uint32_t id)
{
	struct rte_tm_error err = { 0 };
	struct pace_tm_profile *p = profile_by_id(tm, id);
	int ret;

	if (p == NULL || --p->users > 0)
		return;
	ret = rte_tm_shaper_profile_delete(tm->port_id, id, &err);
	if (ret != 0)
		refused(tm, ret, &err, "rte_tm_shaper_profile_delete(%u)", id);
	*p = tm->profiles[--tm->nb_profiles];
}

static void
print_caps(const struct pace_tm *tm)
{
	const struct rte_tm_capabilities *c = &tm->caps;
	char r[16];

	printf("port %u rte_tm: %u levels, %u nodes, private shapers up to "
	       "%sbit/s (%" PRIu64 " B/s), packet mode %s, byte mode %s\n",
	       tm->port_id, c->n_levels_max, c->n_nodes_max,
	       pace_fmt_si(r, sizeof(r), (double)c->shaper_private_rate_max * 8),
	       c->shaper_private_rate_max,
	       c->shaper_private_packet_mode_supported ? "yes" : "no",
	       c->shaper_private_byte_mode_supported ? "yes" : "no");
}

/* Why the port may refuse a weight or a shaper: what it says it can do. */
static void
note_caps(const struct pace_tm *tm)
{
	const struct rte_tm_capabilities *c = &tm->caps;

	fprintf(stderr, "tm-pace: note: port %u says (rte_tm_capabilities_get):"
		" WFQ weights up to %u, dual-rate (committed) shapers on %u "
		"node(s), %u priority level(s), %u private shaper(s) for %u "
		"node(s)\n", tm->port_id, c->sched_wfq_weight_max,
		c->shaper_private_dual_rate_n_max, c->sched_sp_n_priorities_max,
		c->shaper_private_n_max, c->n_nodes_max);
}

static int
add_node(struct pace_tm *tm, const struct pace_options *opt,
	 const struct pace_tm_node *n)
{
	struct rte_tm_node_params np;
	struct rte_tm_error err = { 0 };
	bool leaf = n->kind == PACE_TM_LEAF || n->kind == PACE_TM_FILLER;
	uint32_t parent = n->parent < 0 ? RTE_TM_NODE_ID_NULL :
			  tm->nodes[n->parent].id;
	char name[48];
	int ret;

	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = n->profile;
	if (leaf) {
		np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
		np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
	} else {
		np.nonleaf.n_sp_priorities = 1;
	}
	ret = rte_tm_node_add(tm->port_id, n->id, parent, 0, n->weight,
			      n->level, &np, &err);
	if (ret == 0)
		return 0;
	pace_tm_node_name(tm, opt, n, name, sizeof(name));
	ret = refused(tm, ret, &err, "rte_tm_node_add(node %u = %s, level %u,"
		      " weight %u, shaper profile %s%u)", n->id, name,
		      n->level, n->weight, n->profile ==
		      RTE_TM_SHAPER_PROFILE_ID_NONE ? "none " : "", n->profile ==
		      RTE_TM_SHAPER_PROFILE_ID_NONE ? 0 : n->profile);
	if (n->weight != 1 || (!leaf && n->profile !=
			       RTE_TM_SHAPER_PROFILE_ID_NONE))
		note_caps(tm);
	return ret;
}

/* Append a node; its index. */
static int
new_node(struct pace_tm *tm, uint32_t id, enum pace_tm_kind kind,
	 int parent, uint32_t weight)
{
	struct pace_tm_node *n = &tm->nodes[tm->nb_nodes];

	memset(n, 0, sizeof(*n));
	n->id = id;
	n->kind = kind;
	n->parent = parent;
	n->level = parent < 0 ? 0 : tm->nodes[parent].level + 1;
	n->group = -1;
	n->weight = weight;
	n->profile = RTE_TM_SHAPER_PROFILE_ID_NONE;
	return (int)tm->nb_nodes++;
}

/*
 * Where the leaves of group @p g (or of the root, g = -1) hang: under
 * pass-through nodes down to the level above the leaves, which all leaves
 * share (mlx5-tm, like most drivers, keeps leaves on one level).
 */
static void
leaf_parents(struct pace_tm *tm, uint16_t nb_txq,
	     const struct pace_options *opt)
{
	unsigned int depth = opt->group_depth, d, k;
	bool used[PACE_MAX_GROUPS + 1] = { false };
	int g, top;

	/* Chains only where leaves hang, now or after a change. */
	used[PACE_MAX_GROUPS] = nb_txq > opt->nb_queues;
	for (k = 0; k < opt->nb_queues; k++) {
		g = opt->queues[k].place.group;
		used[g < 0 ? PACE_MAX_GROUPS : g] = true;
	}
	for (k = 0; k < opt->nb_changes; k++)
		if (opt->changes[k].what & PACE_SET_GROUP)
			used[opt->changes[k].new_group] = true;
	for (g = -1; g < (int)opt->nb_groups; g++) {
		tm->leaf_parent[g < 0 ? PACE_MAX_GROUPS : g] = -1;
		if (!used[g < 0 ? PACE_MAX_GROUPS : g])
			continue;
		top = g < 0 ? 0 : tm->group_node[g];
		d = g < 0 ? 0 : opt->groups[g].depth;
		if (g < 0 && depth == 0 && opt->levels == 3)
			d = depth = 1; /* --levels 3: one pass-through node */
		for (k = d; k < depth; k++)
			top = new_node(tm, g < 0 && opt->nb_groups == 0 ?
				       PACE_TM_MID_ID : PACE_TM_PASS_ID +
				       32u * (uint32_t)(g + 1) + k, PACE_TM_PASS,
				       top, 1);
		tm->leaf_parent[g < 0 ? PACE_MAX_GROUPS : g] = top;
	}
}

/* The nodes of the plan, parents first, with their shapers. */
static void
plan_nodes(struct pace_tm *tm, uint16_t nb_txq, const struct pace_options *opt)
{
	unsigned int i;
	uint16_t q;

	new_node(tm, PACE_TM_ROOT_ID, PACE_TM_ROOT, -1, 1);
	for (i = 0; i < opt->nb_groups; i++) {
		const struct pace_group_plan *gp = &opt->groups[i];
		int parent = gp->place.group < 0 ? 0 :
			     tm->group_node[gp->place.group];
		int n = new_node(tm, PACE_TM_GROUP_ID + i, PACE_TM_GROUP,
				 parent, gp->place.weight);

		tm->nodes[n].group = (int)i;
		tm->nodes[n].shaper = gp->shaper;
		tm->group_node[i] = n;
	}
	leaf_parents(tm, nb_txq, opt);
	/* Queues outside the plan get leaves without a shaper. */
	for (q = 0; q < nb_txq; q++) {
		const struct pace_queue_plan *qp = pace_plan_find(opt, q);
		int g = qp == NULL || qp->place.group < 0 ? PACE_MAX_GROUPS :
			qp->place.group;
		int n = new_node(tm, q, qp == NULL ? PACE_TM_FILLER :
				 PACE_TM_LEAF, tm->leaf_parent[g],
				 qp == NULL ? 1 : qp->place.weight);

		tm->leaf_node[q] = n;
		if (qp != NULL)
			tm->nodes[n].shaper = qp->shaper;
	}
}

void
pace_tm_layout(struct pace_tm *tm, uint16_t port_id, uint16_t nb_txq,
	       const struct pace_options *opt)
{
	unsigned int i;

	memset(tm, 0, sizeof(*tm));
	tm->port_id = port_id;
	tm->next_profile_id = 1;
	for (i = 0; i < PACE_MAX_QUEUES; i++)
		tm->leaf_node[i] = -1;
	plan_nodes(tm, nb_txq, opt);
}

int
pace_tm_build(struct pace_tm *tm, const struct pace_options *opt)
{
	struct rte_tm_error err = { 0 };
	unsigned int i;
	int ret;

	ret = rte_tm_capabilities_get(tm->port_id, &tm->caps, &err);
	if (ret != 0)
		return refused(tm, ret, &err, "rte_tm_capabilities_get(port "
			       "%u)", tm->port_id);
	tm->caps_ok = true;
	print_caps(tm);

	/* Profiles first, in node order (parents first). */
	for (i = 0; i < tm->nb_nodes; i++) {
		struct pace_tm_node *n = &tm->nodes[i];

		if (n->shaper.rate == 0)
			continue;
		ret = profile_get(tm, &n->shaper, opt->share, &n->profile);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < tm->nb_nodes; i++) {
		ret = add_node(tm, opt, &tm->nodes[i]);
		if (ret < 0)
			return ret;
	}
	ret = rte_tm_hierarchy_commit(tm->port_id, 1, &err);
	if (ret != 0)
		return refused(tm, ret, &err, "rte_tm_hierarchy_commit(port "
			       "%u)", tm->port_id);
	tm->committed = true;
	return 0;
}

/* New shaper of node @p n: profile, rte_tm_node_shaper_update, old out. */
static int
change_shaper(struct pace_tm *tm, struct pace_tm_node *n,
	      const struct pace_shaper *sh, bool share)
{
	struct rte_tm_error err = { 0 };
	uint32_t old = n->profile;
	uint32_t id;
	int ret;

	ret = profile_get(tm, sh, share, &id);
	if (ret < 0)
		return ret;
	if (id == old) {
		profile_put(tm, id);
		n->shaper = *sh;
		return 0;
	}
	ret = rte_tm_node_shaper_update(tm->port_id, n->id, id, &err);
	if (ret != 0) {
		ret = refused(tm, ret, &err, "rte_tm_node_shaper_update(node "
			      "%u, shaper profile %u)", n->id, id);
		profile_put(tm, id);
		return ret;
	}
	n->profile = id;
	n->shaper = *sh;
	if (old != RTE_TM_SHAPER_PROFILE_ID_NONE)
		profile_put(tm, old);
	return 0;
}

/* New parent and/or weight of node @p n: rte_tm_node_parent_update. */
static int
change_parent(struct pace_tm *tm, struct pace_tm_node *n, int parent,
	      uint32_t weight)
{
	struct rte_tm_error err = { 0 };
	int ret;

	ret = rte_tm_node_parent_update(tm->port_id, n->id,
					tm->nodes[parent].id, 0, weight, &err);
	if (ret != 0)
		return refused(tm, ret, &err, "rte_tm_node_parent_update(node "
			       "%u, parent %u, weight %u)", n->id,
			       tm->nodes[parent].id, weight);
	n->parent = parent;
	n->weight = weight;
	return 0;
}

int
pace_tm_change(struct pace_tm *tm, const struct pace_change *ch,
	       bool share, char *call, size_t len)
{
	struct pace_tm_node *n;
	size_t off = 0;
	int ret = 0;

	call[0] = '\0';
	if (ch->is_group) {
		n = &tm->nodes[tm->group_node[ch->group]];
	} else {
		if (tm->leaf_node[ch->queue] < 0)
			return -EINVAL;
		n = &tm->nodes[tm->leaf_node[ch->queue]];
	}
	if (ch->what & PACE_SET_SHAPER) {
		off += snprintf(call + off, len - off,
				"rte_tm_node_shaper_update");
		ret = change_shaper(tm, n, &ch->shaper, share);
	}
	if (ret == 0 && ch->what & (PACE_SET_WEIGHT | PACE_SET_GROUP)) {
		int parent = n->parent;
		uint32_t weight = n->weight;

		if (ch->what & PACE_SET_GROUP)
			parent = tm->leaf_parent[ch->new_group < 0 ?
					PACE_MAX_GROUPS : ch->new_group];
		if (ch->what & PACE_SET_WEIGHT)
			weight = ch->weight;
		off += snprintf(call + off, len - off, "%s"
				"rte_tm_node_parent_update", off ? " + " : "");
		ret = change_parent(tm, n, parent, weight);
	}
	return ret;
}

uint32_t
pace_tm_queue_profile(const struct pace_tm *tm, uint16_t queue)
{
	const struct pace_tm_node *n = pace_tm_queue_node(tm, queue);

	return n != NULL ? n->profile : RTE_TM_SHAPER_PROFILE_ID_NONE;
}

const struct pace_tm_node *
pace_tm_queue_node(const struct pace_tm *tm, uint16_t queue)
{
	if (queue >= PACE_MAX_QUEUES || tm->leaf_node[queue] < 0)
		return NULL;
	return &tm->nodes[tm->leaf_node[queue]];
}

const char *
pace_tm_node_name(const struct pace_tm *tm, const struct pace_options *opt,
		  const struct pace_tm_node *n, char *buf, size_t len)
{
	switch (n->kind) {
	case PACE_TM_ROOT:
		snprintf(buf, len, "root");
		break;
	case PACE_TM_GROUP:
		snprintf(buf, len, "group %s", opt->groups[n->group].name);
		break;
	case PACE_TM_PASS:
		snprintf(buf, len, "pass-through under %s", n->parent == 0 ?
			 "root" : "parent");
		if (n->parent > 0 && tm->nodes[n->parent].kind == PACE_TM_GROUP)
			snprintf(buf, len, "pass-through under group %s",
				 opt->groups[tm->nodes[n->parent].group].name);
		break;
	default:
		snprintf(buf, len, "queue %u", n->id);
		break;
	}
	return buf;
}

void
pace_tm_teardown(struct pace_tm *tm)
{
	struct rte_tm_error err;
	unsigned int i;

	if (!tm->caps_ok)
		return;
	/* Children before their parents. */
	for (i = tm->nb_nodes; i-- > 0;)
		rte_tm_node_delete(tm->port_id, tm->nodes[i].id, &err);
	while (tm->nb_profiles > 0) {
		rte_tm_shaper_profile_delete(tm->port_id,
			tm->profiles[tm->nb_profiles - 1].id, &err);
		tm->nb_profiles--;
	}
}
