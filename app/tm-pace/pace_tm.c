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
		p->peak.rate = (sh->rate + 4) / 8;
	}
	p->peak.size = sh->burst;
}

static bool
same_shaper(const struct pace_shaper *a, const struct pace_shaper *b)
{
	return a->packet_mode == b->packet_mode && a->rate == b->rate &&
	       a->burst == b->burst;
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
			" %s, size %" PRIu64 ")", tm->next_profile_id,
			params.peak.rate, sh->packet_mode ? "pkt/s" : "B/s",
			params.peak.size);
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

static int
add_node(struct pace_tm *tm, uint32_t id, uint32_t parent, uint32_t level,
	 uint32_t profile, bool leaf)
{
	struct rte_tm_node_params np;
	struct rte_tm_error err = { 0 };
	int ret;

	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = profile;
	if (leaf) {
		np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
		np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
	} else {
		np.nonleaf.n_sp_priorities = 1;
	}
	ret = rte_tm_node_add(tm->port_id, id, parent, 0, 1, level, &np, &err);
	if (ret != 0) {
		if (profile != RTE_TM_SHAPER_PROFILE_ID_NONE)
			return refused(tm, ret, &err, "rte_tm_node_add(node %u,"
				" level %u, shaper profile %u)", id, level,
				profile);
		return refused(tm, ret, &err, "rte_tm_node_add(node %u, "
			       "level %u)", id, level);
	}
	return 0;
}

int
pace_tm_build(struct pace_tm *tm, uint16_t port_id, uint16_t nb_txq,
	      const struct pace_options *opt)
{
	struct rte_tm_error err = { 0 };
	uint32_t parent, leaf_level;
	uint16_t q;
	int ret;

	memset(tm, 0, sizeof(*tm));
	tm->port_id = port_id;
	tm->next_profile_id = 1;
	for (q = 0; q < PACE_MAX_QUEUES; q++)
		tm->leaf_profile[q] = RTE_TM_SHAPER_PROFILE_ID_NONE;

	ret = rte_tm_capabilities_get(port_id, &tm->caps, &err);
	if (ret != 0)
		return refused(tm, ret, &err, "rte_tm_capabilities_get(port "
			       "%u)", port_id);
	tm->caps_ok = true;
	print_caps(tm);

	for (q = 0; q < nb_txq; q++) {
		const struct pace_queue_plan *qp = pace_plan_find(opt, q);

		if (qp == NULL)
			continue;
		ret = profile_get(tm, &qp->shaper, opt->share,
				  &tm->leaf_profile[q]);
		if (ret < 0)
			return ret;
	}
	ret = add_node(tm, PACE_TM_ROOT_ID, RTE_TM_NODE_ID_NULL, 0,
		       RTE_TM_SHAPER_PROFILE_ID_NONE, false);
	if (ret < 0)
		return ret;
	parent = PACE_TM_ROOT_ID;
	leaf_level = 1;
	if (opt->levels == 3) {
		ret = add_node(tm, PACE_TM_MID_ID, PACE_TM_ROOT_ID, 1,
			       RTE_TM_SHAPER_PROFILE_ID_NONE, false);
		if (ret < 0)
			return ret;
		parent = PACE_TM_MID_ID;
		leaf_level = 2;
	}
	/* Queues outside the plan get leaves without a shaper. */
	for (q = 0; q < nb_txq; q++) {
		ret = add_node(tm, q, parent, leaf_level, tm->leaf_profile[q],
			       true);
		if (ret < 0)
			return ret;
	}
	ret = rte_tm_hierarchy_commit(port_id, 1, &err);
	if (ret != 0)
		return refused(tm, ret, &err, "rte_tm_hierarchy_commit(port "
			       "%u)", port_id);
	tm->committed = true;
	return 0;
}

int
pace_tm_update(struct pace_tm *tm, uint16_t queue,
	       const struct pace_shaper *sh, bool share)
{
	struct rte_tm_error err = { 0 };
	uint32_t old = tm->leaf_profile[queue];
	uint32_t id;
	int ret;

	ret = profile_get(tm, sh, share, &id);
	if (ret < 0)
		return ret;
	if (id == old) {
		profile_put(tm, id);
		return 0;
	}
	ret = rte_tm_node_shaper_update(tm->port_id, queue, id, &err);
	if (ret != 0) {
		ret = refused(tm, ret, &err, "rte_tm_node_shaper_update(node "
			      "%u, shaper profile %u)", queue, id);
		profile_put(tm, id);
		return ret;
	}
	tm->leaf_profile[queue] = id;
	if (old != RTE_TM_SHAPER_PROFILE_ID_NONE)
		profile_put(tm, old);
	return 0;
}

uint32_t
pace_tm_queue_profile(const struct pace_tm *tm, uint16_t queue)
{
	return queue < PACE_MAX_QUEUES ? tm->leaf_profile[queue] :
	       RTE_TM_SHAPER_PROFILE_ID_NONE;
}

void
pace_tm_teardown(struct pace_tm *tm, uint16_t nb_txq,
		 const struct pace_options *opt)
{
	struct rte_tm_error err;
	uint16_t q;

	if (!tm->caps_ok)
		return;
	for (q = 0; q < nb_txq; q++)
		rte_tm_node_delete(tm->port_id, q, &err);
	if (opt->levels == 3)
		rte_tm_node_delete(tm->port_id, PACE_TM_MID_ID, &err);
	rte_tm_node_delete(tm->port_id, PACE_TM_ROOT_ID, &err);
	while (tm->nb_profiles > 0) {
		rte_tm_shaper_profile_delete(tm->port_id,
			tm->profiles[tm->nb_profiles - 1].id, &err);
		tm->nb_profiles--;
	}
}
