/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * NIC transmit scheduling (SCHEDULING_HIERARCHY_NIC), as Linux's mlx5 HTB
 * offload (core/qos.c, en/htb.c) and rdma-core's mlx5dv_sched_* drive it:
 * TSARs and queue groups in a tree under the device's own root (parent
 * id 0; its children carry no bw_share or max_average_bw), SQs in queue
 * groups through sqc.qos_queue_group_id.
 *
 * Arbiter: whenever the line is free and some SQ can send, the engine asks
 * which one. Each element serves those of its children that have an SQ
 * below them with a packet able to leave (its own pacing and every
 * ceiling on the way allowing it) by start-time fair queueing on the L2
 * frame bytes: each child carries the virtual finish F of its last
 * packet, each element a virtual time V (the start of the last packet it
 * served); the child of least F is served, its packet starting at
 * S = max(V - R, F) and finishing at S + bytes / weight, R the largest
 * bytes / weight the element has served. A child that had nothing to
 * send comes back at V (its F brought up when it gets work): no credit
 * for the time away. One that kept work while its own limit held it
 * back keeps up to R of its lag: a sibling's packet may have moved V on
 * by up to R meanwhile, and without it the child would wait a whole
 * round of its siblings, more than its pacing catches up. So,
 * packet by packet, a child held below its share by a limit of its own
 * takes exactly that limit and its siblings divide the rest by weight,
 * at every level, whatever the frame sizes (the long-run shares DWRR
 * gives; the order within a round is the model's).
 * max_average_bw is a token bucket (GCRA, one packet deep) on the L2
 * frame bytes that go through the element, whose schedule, as an SQ's
 * pacing, is kept up to EMU_PACE_KEEP_BYTES behind while others hold
 * the element back and it has work. doc/guides/device_model.rst lists
 * what is assumed.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_sched.h"

/* Picoseconds per byte at 1 Mbit/s. */
#define EMU_PS_BYTE_MBPS 8000000ULL

#define SCHED_FAIL(st, sy) do { *synd = (sy); return (st); } while (0)

#define EMU_CONTAINER(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* ---- capabilities and devargs ---- */

/*
 * ConnectX-6 Dx, from a published qos_caps dump (mlx5ctl, MT4125): DWRR
 * TSARs and queue groups only, max_tsar_bw_share 100, 2^8 queue groups,
 * 2^13 elements, log_nic_max_sched_depth 2. ConnectX-7 is assumed alike.
 */
static const struct mlx5_emu_sched_caps emu_sched_hier_caps = {
	.nic_sq_scheduling = true,
	.nic_bw_share = true,
	.nic_rate_limit = true,
	.nic_element_type =
		MLX5_SCHED_ELEM_TYPE_CAP(MLX5_SCHED_ELEM_TYPE_TSAR) |
		MLX5_SCHED_ELEM_TYPE_CAP(MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP),
	.nic_tsar_type = MLX5_TSAR_TYPE_CAP(MLX5_TSAR_TYPE_DWRR),
	.max_tsar_bw_share = 100,
	.log_max_queue_group = 8,
	.log_max_elements = 13,
	.max_depth = 4,
};

static const char *const emu_sched_hier_profiles[] = { "cx6dx", "cx7" };

void
emu_sched_config_init(struct mlx5_emu_config *cfg)
{
	struct mlx5_emu_sched_config *c = &cfg->sched;

	c->nic_sq_scheduling = -1;
	c->nic_bw_share = -1;
	c->nic_rate_limit = -1;
	c->nic_element_type = -1;
	c->nic_tsar_type = -1;
	c->max_tsar_bw_share = -1;
	c->log_max_queue_group = -1;
	c->log_max_elements = -1;
	c->max_depth = -1;
	c->unattached = MLX5_EMU_SCHED_UNATTACHED_SHARE;
	c->zero_bw_share = 1;
	c->sq_pp_and_group = 1;
	c->root_values = 0;
	c->id_base = 1;
	c->create_sq_group_ignore = 0;
	c->modify_sq_group = MLX5_EMU_SQ_GROUP_BIT_CAP;
}

struct emu_sched_key {
	const char *key;
	size_t off;
	uint64_t min;
	uint64_t max;
	const char *accepted;
};

#define SCHED_KEY(k, f, mn, mx, acc) \
	{ k, offsetof(struct mlx5_emu_sched_config, f), mn, mx, acc }

static const struct emu_sched_key emu_sched_keys[] = {
	SCHED_KEY("cap_nic_sq_scheduling", nic_sq_scheduling, 0, 1, "0 or 1"),
	SCHED_KEY("cap_nic_bw_share", nic_bw_share, 0, 1, "0 or 1"),
	SCHED_KEY("cap_nic_rate_limit", nic_rate_limit, 0, 1, "0 or 1"),
	SCHED_KEY("cap_nic_element_type", nic_element_type, 0, 0xffff,
		  "a mask of 1 << element type, 0..0xffff (0x11: TSAR and "
		  "queue group)"),
	SCHED_KEY("cap_nic_tsar_type", nic_tsar_type, 0, 0xffff,
		  "a mask of 1 << TSAR type, 0..0xffff (0x1: DWRR)"),
	SCHED_KEY("cap_max_tsar_bw_share", max_tsar_bw_share, 1, UINT32_MAX,
		  "1..4294967295"),
	SCHED_KEY("cap_log_max_qos_nic_queue_group", log_max_queue_group, 0,
		  16, "0..16"),
	SCHED_KEY("cap_log_max_qos_nic_sched_elem", log_max_elements, 0, 16,
		  "0..16"),
	SCHED_KEY("cap_sched_max_depth", max_depth, 1, 16, "1..16"),
	SCHED_KEY("sched_zero_bw_share", zero_bw_share, 1, 1000000,
		  "a weight, 1..1000000"),
	SCHED_KEY("sched_root_values", root_values, 0, 1, "0 or 1"),
	/* Room above it for 2^16 elements, the largest table. */
	SCHED_KEY("sched_id_base", id_base, 1, UINT32_MAX - (1u << 16),
		  "1..4294901759"),
};

static int
emu_sched_cfg_error(char *err, size_t errlen, const char *key,
		    const char *value, const char *accepted)
{
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s='%s': accepted values are %s", key,
			 value, accepted);
	return -EINVAL;
}

int
emu_sched_config_set(struct mlx5_emu_config *cfg, const char *key,
		     const char *value, char *err, size_t errlen)
{
	struct mlx5_emu_sched_config *c = &cfg->sched;
	unsigned long long v;
	char *end;
	size_t i;

	if (strcmp(key, "sched_create_sq_group") == 0) {
		if (strcmp(value, "apply") == 0)
			c->create_sq_group_ignore = 0;
		else if (strcmp(value, "ignore") == 0)
			c->create_sq_group_ignore = 1;
		else
			return emu_sched_cfg_error(err, errlen, key, value,
						   "apply, ignore");
		return 0;
	}
	if (strcmp(key, "sched_modify_sq_group") == 0) {
		if (strcmp(value, "cap") == 0)
			c->modify_sq_group = MLX5_EMU_SQ_GROUP_BIT_CAP;
		else if (strcmp(value, "accept") == 0)
			c->modify_sq_group = MLX5_EMU_SQ_GROUP_BIT_ACCEPT;
		else if (strcmp(value, "refuse") == 0)
			c->modify_sq_group = MLX5_EMU_SQ_GROUP_BIT_REFUSE;
		else if (strcmp(value, "ignore") == 0)
			c->modify_sq_group = MLX5_EMU_SQ_GROUP_BIT_IGNORE;
		else
			return emu_sched_cfg_error(err, errlen, key, value,
						   "cap, accept, refuse, "
						   "ignore");
		return 0;
	}
	if (strcmp(key, "sched_sq_pp_and_group") == 0) {
		if (strcmp(value, "1") == 0)
			c->sq_pp_and_group = 1;
		else if (strcmp(value, "0") == 0)
			c->sq_pp_and_group = 0;
		else if (strcmp(value, "ignore") == 0)
			c->sq_pp_and_group = MLX5_EMU_SQ_PP_GROUP_IGNORE;
		else
			return emu_sched_cfg_error(err, errlen, key, value,
						   "1 (honour), 0 (refuse), "
						   "ignore");
		return 0;
	}
	if (strcmp(key, "sched_unattached") == 0) {
		if (strcmp(value, "share") == 0)
			c->unattached = MLX5_EMU_SCHED_UNATTACHED_SHARE;
		else if (strcmp(value, "strict") == 0)
			c->unattached = MLX5_EMU_SCHED_UNATTACHED_STRICT;
		else
			return emu_sched_cfg_error(err, errlen, key, value,
						   "share, strict");
		return 0;
	}
	for (i = 0; i < sizeof(emu_sched_keys) / sizeof(emu_sched_keys[0]);
	     i++) {
		const struct emu_sched_key *k = &emu_sched_keys[i];

		if (strcmp(key, k->key) != 0)
			continue;
		errno = 0;
		v = value[0] == '-' || value[0] == '\0' ? 0 :
		    strtoull(value, &end, 0);
		if (value[0] == '-' || value[0] == '\0' || errno != 0 ||
		    *end != '\0' || v < k->min || v > k->max)
			return emu_sched_cfg_error(err, errlen, key, value,
						   k->accepted);
		*(int64_t *)(void *)((uint8_t *)c + k->off) = (int64_t)v;
		return 0;
	}
	return -ENOENT;
}

int
emu_sched_caps_resolve(const struct mlx5_emu_config *cfg,
		       struct mlx5_emu_caps *caps)
{
	const struct mlx5_emu_sched_config *c = &cfg->sched;
	struct mlx5_emu_sched_caps *s = &caps->sched;
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < sizeof(emu_sched_hier_profiles) /
			sizeof(emu_sched_hier_profiles[0]); i++)
		if (strcmp(caps->profile, emu_sched_hier_profiles[i]) == 0)
			*s = emu_sched_hier_caps;
	/* Turned on for a profile without it: the ConnectX-6 Dx values. */
	if (c->nic_sq_scheduling == 1 && !s->nic_sq_scheduling)
		*s = emu_sched_hier_caps;
	if (c->nic_sq_scheduling == 0)
		memset(s, 0, sizeof(*s));
	if (c->nic_bw_share >= 0)
		s->nic_bw_share = c->nic_bw_share != 0;
	if (c->nic_rate_limit >= 0)
		s->nic_rate_limit = c->nic_rate_limit != 0;
	if (c->nic_element_type >= 0)
		s->nic_element_type = (uint16_t)c->nic_element_type;
	if (c->nic_tsar_type >= 0)
		s->nic_tsar_type = (uint16_t)c->nic_tsar_type;
	if (c->max_tsar_bw_share >= 0)
		s->max_tsar_bw_share = (uint32_t)c->max_tsar_bw_share;
	if (c->log_max_queue_group >= 0)
		s->log_max_queue_group = (uint8_t)c->log_max_queue_group;
	if (c->log_max_elements >= 0)
		s->log_max_elements = (uint8_t)c->log_max_elements;
	if (c->max_depth >= 0)
		s->max_depth = (uint8_t)c->max_depth;
	/* The object type goes with the elements, unless told. */
	caps->sched_elem_obj = cfg->sched_elem_obj >= 0 ?
			       cfg->sched_elem_obj != 0 :
			       s->nic_element_type != 0;
	return 0;
}

void
emu_sched_fill_caps(const struct mlx5_emu *emu, void *cap)
{
	const struct mlx5_emu_sched_caps *s = &emu->caps.sched;

	MLX5_SET(qos_cap, cap, nic_sq_scheduling, s->nic_sq_scheduling);
	MLX5_SET(qos_cap, cap, nic_bw_share, s->nic_bw_share);
	MLX5_SET(qos_cap, cap, nic_rate_limit, s->nic_rate_limit);
	MLX5_SET(qos_cap, cap, log_max_qos_nic_queue_group,
		 s->log_max_queue_group);
	MLX5_SET(qos_cap, cap, max_tsar_bw_share, s->max_tsar_bw_share);
	MLX5_SET(qos_cap, cap, nic_element_type, s->nic_element_type);
	MLX5_SET(qos_cap, cap, nic_tsar_type, s->nic_tsar_type);
	MLX5_SET(qos_cap, cap, log_max_qos_nic_scheduling_element,
		 s->log_max_elements);
	/* The depth as the cap says it: log2, rounded down. */
	MLX5_SET(qos_cap, cap, log_nic_max_sched_depth,
		 s->max_depth == 0 ? 0 : 31 - __builtin_clz(s->max_depth));
}

/* ---- the tree ---- */

static void
emu_node_link(struct emu_sched_elem *parent, struct emu_sched_node *n)
{
	n->parent = parent;
	/* A new child starts at its parent's virtual time. */
	n->finish = parent->vtime;
	n->finish_rem = 0;
	n->key = n->is_sq ? EMU_CONTAINER(n, struct emu_sq, sched)->sqn :
		 EMU_CONTAINER(n, struct emu_sched_elem, node)->id;
	if (parent->children == NULL) {
		n->next = n;
		n->prev = n;
		parent->children = n;
	} else {
		/* At the tail: its first turn comes after the others'. */
		n->next = parent->children;
		n->prev = parent->children->prev;
		n->prev->next = n;
		n->next->prev = n;
	}
	if (n->is_sq)
		parent->nb_sqs++;
	else
		parent->nb_elems++;
}

static void
emu_node_unlink(struct emu_sched_node *n)
{
	struct emu_sched_elem *p = n->parent;

	if (p == NULL)
		return;
	if (n->next == n) {
		p->children = NULL;
	} else {
		n->prev->next = n->next;
		n->next->prev = n->prev;
		if (p->children == n)
			p->children = n->next;
	}
	if (n->is_sq)
		p->nb_sqs--;
	else
		p->nb_elems--;
	n->parent = NULL;
	n->next = NULL;
	n->prev = NULL;
}

int
emu_sched_init(struct mlx5_emu *emu)
{
	struct emu_sched *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return -ENOMEM;
	/*
	 * Ids from sched_id_base (1: 0 is the root); with the default a
	 * queue group's id fits sqc's 16 bits.
	 */
	emu_idtab_init(&s->elems, (uint32_t)emu->cfg.sched.id_base,
		       1u << emu->caps.sched.log_max_elements);
	s->root.type = MLX5_SCHED_ELEM_TYPE_TSAR;
	s->root.tsar_type = MLX5_TSAR_TYPE_DWRR;
	emu->sched = s;
	return 0;
}

void
emu_sched_fini(struct mlx5_emu *emu)
{
	struct emu_sched *s = emu->sched;
	uint32_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->elems.cap; i++)
		free(s->elems.slot[i]);
	emu_idtab_fini(&s->elems);
	free(s);
	emu->sched = NULL;
}

uint32_t
emu_sched_count(const struct mlx5_emu *emu)
{
	return emu->sched != NULL ? emu->sched->elems.count : 0;
}

static struct emu_sched_elem *
emu_sched_find(const struct mlx5_emu *emu, uint32_t id)
{
	return id == 0 ? NULL : emu_idtab_get(&emu->sched->elems, id);
}

/*
 * The checks common to the bw_share and max_average_bw of a context, for
 * an element whose parent is @p parent. rdma-core's
 * mlx5dv_sched_node_create(3): both "must be 0 for the root TSAR".
 */
static uint8_t
emu_sched_check_values(const struct mlx5_emu *emu, const void *ctx,
		       const struct emu_sched_elem *parent, bool bw_share,
		       bool max_bw, uint32_t *synd)
{
	const struct mlx5_emu_sched_caps *c = &emu->caps.sched;
	uint32_t share = MLX5_GET(scheduling_context, ctx, bw_share);
	uint32_t ceil = MLX5_GET(scheduling_context, ctx, max_average_bw);

	if (parent->depth == 0 && !emu->cfg.sched.root_values &&
	    ((bw_share && share != 0) || (max_bw && ceil != 0)))
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD);

	if (bw_share && share != 0 &&
	    (!c->nic_bw_share || share > c->max_tsar_bw_share))
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD);
	if (max_bw && ceil != 0 && !c->nic_rate_limit)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD);
	return MLX5_CMD_STAT_OK;
}

/*
 * The element a create describes, @p ctx a scheduling_context in
 * @p hierarchy: its id in @p id. Both forms of the command (the legacy
 * CREATE_SCHEDULING_ELEMENT, the general object) come here.
 */
static uint8_t
emu_sched_create(struct mlx5_emu *emu, uint32_t hierarchy, const void *ctx,
		 uint32_t *id, uint32_t *synd)
{
	const struct mlx5_emu_sched_caps *c = &emu->caps.sched;
	struct emu_sched *s = emu->sched;
	struct emu_sched_elem *parent, *e;
	uint32_t type, tsar_type = 0, parent_id;
	uint8_t st;

	if (hierarchy != MLX5_SCHEDULING_HIERARCHY_NIC)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD);
	type = MLX5_GET(scheduling_context, ctx, element_type);
	if (type > 15 || !(c->nic_element_type & MLX5_SCHED_ELEM_TYPE_CAP(type)))
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_SCHED_BAD_TYPE);
	if (type == MLX5_SCHED_ELEM_TYPE_TSAR) {
		tsar_type = MLX5_GET(scheduling_context, ctx,
				     element_attributes.tsar.tsar_type);
		if (tsar_type > 15 ||
		    !(c->nic_tsar_type & MLX5_TSAR_TYPE_CAP(tsar_type)))
			SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
				   MLX5_EMU_SYND_SCHED_BAD_TYPE);
	} else if (type != MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP) {
		/* Vport elements belong to the e-switch hierarchy. */
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_SCHED_BAD_TYPE);
	}
	parent_id = MLX5_GET(scheduling_context, ctx, parent_element_id);
	parent = parent_id == 0 ? &s->root : emu_sched_find(emu, parent_id);
	if (parent == NULL)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_RES_ERR,
			   MLX5_EMU_SYND_SCHED_BAD_PARENT);
	if (parent->type != MLX5_SCHED_ELEM_TYPE_TSAR)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_SCHED_BAD_PARENT);
	if (parent->depth + 1u > c->max_depth)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_SCHED_TOO_DEEP);
	st = emu_sched_check_values(emu, ctx, parent, true, true, synd);
	if (st != MLX5_CMD_STAT_OK)
		return st;
	if (type == MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP &&
	    s->nb_groups >= (1u << c->log_max_queue_group))
		SCHED_FAIL(MLX5_CMD_STAT_NO_RES_ERR,
			   MLX5_EMU_SYND_SCHED_TOO_MANY);
	e = calloc(1, sizeof(*e));
	if (e == NULL)
		SCHED_FAIL(MLX5_CMD_STAT_NO_RES_ERR,
			   MLX5_EMU_SYND_NO_RESOURCES);
	if (emu_idtab_add(&s->elems, e, id) < 0) {
		free(e);
		SCHED_FAIL(MLX5_CMD_STAT_NO_RES_ERR,
			   MLX5_EMU_SYND_SCHED_TOO_MANY);
	}
	/* Departures due before now happen in the old tree. */
	emu_engine_sync(emu);
	e->id = *id;
	e->type = (uint8_t)type;
	e->tsar_type = (uint8_t)tsar_type;
	e->depth = (uint8_t)(parent->depth + 1);
	e->bw_share = MLX5_GET(scheduling_context, ctx, bw_share);
	e->max_average_bw = MLX5_GET(scheduling_context, ctx, max_average_bw);
	emu_node_link(parent, &e->node);
	if (type == MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP)
		s->nb_groups++;
	return MLX5_CMD_STAT_OK;
}

/* Change what @p mask names of element @p id to @p ctx's values. */
static uint8_t
emu_sched_modify(struct mlx5_emu *emu, uint32_t hierarchy, uint32_t id,
		 uint64_t mask, const void *ctx, uint32_t *synd)
{
	struct emu_sched_elem *e;
	uint32_t ceil;
	uint8_t st;

	if (hierarchy != MLX5_SCHEDULING_HIERARCHY_NIC)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD);
	e = emu_sched_find(emu, id);
	if (e == NULL)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_RES_ERR, MLX5_EMU_SYND_NO_OBJECT);
	if (mask & ~(uint64_t)(MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE |
			       MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW))
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD);
	st = emu_sched_check_values(emu, ctx, e->node.parent,
		mask & MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE,
		mask & MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW, synd);
	if (st != MLX5_CMD_STAT_OK)
		return st;
	/* What was due before the command leaves at the old settings. */
	emu_engine_sync(emu);
	if (mask & MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE)
		e->bw_share = MLX5_GET(scheduling_context, ctx, bw_share);
	if (mask & MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW) {
		uint64_t now = emu->sim_ps;

		ceil = MLX5_GET(scheduling_context, ctx, max_average_bw);
		/* The debt still to pay, in bytes, at the new ceiling. */
		if (e->tat_ps > now && (ceil == 0 || e->max_average_bw == 0))
			e->tat_ps = now;
		else if (e->tat_ps > now)
			e->tat_ps = now + (uint64_t)((unsigned __int128)
				(e->tat_ps - now) * e->max_average_bw / ceil);
		e->tat_rem = 0;
		e->max_average_bw = ceil;
	}
	return MLX5_CMD_STAT_OK;
}

/* What element @p id holds, into scheduling_context @p ctx. */
static uint8_t
emu_sched_query(struct mlx5_emu *emu, uint32_t hierarchy, uint32_t id,
		void *ctx, uint32_t *synd)
{
	struct emu_sched_elem *e;

	if (hierarchy != MLX5_SCHEDULING_HIERARCHY_NIC)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD);
	e = emu_sched_find(emu, id);
	if (e == NULL)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_RES_ERR, MLX5_EMU_SYND_NO_OBJECT);
	MLX5_SET(scheduling_context, ctx, element_type, e->type);
	if (e->type == MLX5_SCHED_ELEM_TYPE_TSAR)
		MLX5_SET(scheduling_context, ctx,
			 element_attributes.tsar.tsar_type, e->tsar_type);
	MLX5_SET(scheduling_context, ctx, parent_element_id,
		 e->node.parent->id);
	MLX5_SET(scheduling_context, ctx, bw_share, e->bw_share);
	MLX5_SET(scheduling_context, ctx, max_average_bw, e->max_average_bw);
	return MLX5_CMD_STAT_OK;
}

/* Destroy element @p id: refused while it has children or SQs. */
static uint8_t
emu_sched_destroy(struct mlx5_emu *emu, uint32_t hierarchy, uint32_t id,
		  uint32_t *synd)
{
	struct emu_sched *s = emu->sched;
	struct emu_sched_elem *e;

	if (hierarchy != MLX5_SCHEDULING_HIERARCHY_NIC)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD);
	e = emu_sched_find(emu, id);
	if (e == NULL)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_RES_ERR, MLX5_EMU_SYND_NO_OBJECT);
	if (e->children != NULL)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_RES_STATE_ERR,
			   MLX5_EMU_SYND_SCHED_IN_USE);
	emu_engine_sync(emu);
	emu_node_unlink(&e->node);
	if (e->type == MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP)
		s->nb_groups--;
	emu_idtab_del(&s->elems, id);
	free(e);
	return MLX5_CMD_STAT_OK;
}

/* The legacy commands (0x782-0x785), as Linux's mlx5_core sends them. */

uint8_t
emu_sched_cmd_create(struct mlx5_emu *emu, const void *in,
		     size_t inlen __attribute__((unused)), void *out,
		     uint32_t *synd)
{
	uint32_t id = 0;
	uint8_t st;

	st = emu_sched_create(emu, MLX5_GET(create_scheduling_element_in, in,
					    scheduling_hierarchy),
			      MLX5_ADDR_OF(create_scheduling_element_in, in,
					   scheduling_context), &id, synd);
	if (st == MLX5_CMD_STAT_OK)
		MLX5_SET(create_scheduling_element_out, out,
			 scheduling_element_id, id);
	return st;
}

uint8_t
emu_sched_cmd_modify(struct mlx5_emu *emu, const void *in,
		     size_t inlen __attribute__((unused)),
		     void *out __attribute__((unused)), uint32_t *synd)
{
	return emu_sched_modify(emu,
		MLX5_GET(modify_scheduling_element_in, in,
			 scheduling_hierarchy),
		MLX5_GET(modify_scheduling_element_in, in,
			 scheduling_element_id),
		MLX5_GET(modify_scheduling_element_in, in, modify_bitmask),
		MLX5_ADDR_OF(modify_scheduling_element_in, in,
			     scheduling_context), synd);
}

uint8_t
emu_sched_cmd_query(struct mlx5_emu *emu, const void *in,
		    size_t inlen __attribute__((unused)), void *out,
		    uint32_t *synd)
{
	return emu_sched_query(emu,
		MLX5_GET(query_scheduling_element_in, in,
			 scheduling_hierarchy),
		MLX5_GET(query_scheduling_element_in, in,
			 scheduling_element_id),
		MLX5_ADDR_OF(query_scheduling_element_out, out,
			     scheduling_context), synd);
}

uint8_t
emu_sched_cmd_destroy(struct mlx5_emu *emu, const void *in,
		      size_t inlen __attribute__((unused)),
		      void *out __attribute__((unused)), uint32_t *synd)
{
	return emu_sched_destroy(emu,
		MLX5_GET(destroy_scheduling_element_in, in,
			 scheduling_hierarchy),
		MLX5_GET(destroy_scheduling_element_in, in,
			 scheduling_element_id), synd);
}

/*
 * The general object SCHEDULING_ELEMENT (obj_type 0x26), as libmlx5's
 * mlx5dv_sched_node_*()/mlx5dv_sched_leaf_*() build it: the element id is
 * the object's obj_id; sched_elem holds the hierarchy and the context. A
 * create takes the values the context holds (libmlx5 leaves those its
 * modify_field_select does not name at 0); a modify changes what
 * modify_field_select names, its element type and parent ignored.
 */

uint8_t
emu_sched_gen_create(struct mlx5_emu *emu, const void *in,
		     size_t inlen __attribute__((unused)), void *out,
		     uint32_t *synd)
{
	const void *elem = MLX5_ADDR_OF(create_sched_elem_in, in, sched_elem);
	uint32_t id = 0;
	uint8_t st;

	/* A firmware without the object type (cap_sched_elem_obj=0). */
	if (!emu->caps.sched_elem_obj)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_SCHED_UNSUPPORTED);
	st = emu_sched_create(emu, MLX5_GET(sched_elem, elem,
					    scheduling_hierarchy),
			      MLX5_ADDR_OF(sched_elem, elem, sched_context),
			      &id, synd);
	if (st == MLX5_CMD_STAT_OK)
		MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, id);
	return st;
}

uint8_t
emu_sched_gen_modify(struct mlx5_emu *emu, const void *in,
		     size_t inlen __attribute__((unused)),
		     void *out __attribute__((unused)), uint32_t *synd)
{
	const void *elem = MLX5_ADDR_OF(create_sched_elem_in, in, sched_elem);

	return emu_sched_modify(emu,
		MLX5_GET(sched_elem, elem, scheduling_hierarchy),
		MLX5_GET(general_obj_in_cmd_hdr, in, obj_id),
		MLX5_GET64(sched_elem, elem, modify_field_select),
		MLX5_ADDR_OF(sched_elem, elem, sched_context), synd);
}

uint8_t
emu_sched_gen_query(struct mlx5_emu *emu, const void *in,
		    size_t inlen __attribute__((unused)), void *out,
		    uint32_t *synd)
{
	void *elem = MLX5_ADDR_OF(query_sched_elem_out, out, sched_elem);
	uint32_t id = MLX5_GET(general_obj_in_cmd_hdr, in, obj_id);
	uint8_t st;

	st = emu_sched_query(emu, MLX5_SCHEDULING_HIERARCHY_NIC, id,
			     MLX5_ADDR_OF(sched_elem, elem, sched_context),
			     synd);
	if (st != MLX5_CMD_STAT_OK)
		return st;
	MLX5_SET(general_obj_out_cmd_hdr, out, obj_id, id);
	MLX5_SET(sched_elem, elem, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	return MLX5_CMD_STAT_OK;
}

uint8_t
emu_sched_gen_destroy(struct mlx5_emu *emu, const void *in,
		      size_t inlen __attribute__((unused)),
		      void *out __attribute__((unused)), uint32_t *synd)
{
	return emu_sched_destroy(emu, MLX5_SCHEDULING_HIERARCHY_NIC,
				 MLX5_GET(general_obj_in_cmd_hdr, in, obj_id),
				 synd);
}

/* ---- SQs ---- */

uint8_t
emu_sched_sq_group_bit(const struct mlx5_emu *emu, uint32_t *synd)
{
	enum mlx5_emu_sq_group_bit b = emu->cfg.sched.modify_sq_group;

	if (b == MLX5_EMU_SQ_GROUP_BIT_REFUSE ||
	    (b == MLX5_EMU_SQ_GROUP_BIT_CAP &&
	     !emu->caps.sched.nic_sq_scheduling))
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_SCHED_UNSUPPORTED);
	return MLX5_CMD_STAT_OK;
}

uint8_t
emu_sched_sq_check(const struct mlx5_emu *emu, uint32_t group,
		   uint16_t pp_index, uint32_t *synd)
{
	const struct emu_sched_elem *e;

	if (group == 0)
		return MLX5_CMD_STAT_OK;
	if (!emu->caps.sched.nic_sq_scheduling)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_SCHED_UNSUPPORTED);
	e = emu_sched_find(emu, group);
	if (e == NULL)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_RES_ERR, MLX5_EMU_SYND_NO_OBJECT);
	if (e->type != MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_SCHED_BAD_GROUP);
	if (pp_index != 0 && emu->cfg.sched.sq_pp_and_group == 0)
		SCHED_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			   MLX5_EMU_SYND_BAD_FIELD);
	return MLX5_CMD_STAT_OK;
}

/*
 * Count an SQ that got work (@p delta 1, at @p now_ps) or has none left
 * (-1) in element @p e and those above it: an element's ceiling restarts
 * its schedule when it gets work after having none.
 */
/* Node @p n gets work after having none: it starts at its parent's V. */
static inline void
emu_node_arrive(struct emu_sched_node *n)
{
	if (n->parent != NULL && (int64_t)(n->finish - n->parent->vtime) < 0) {
		n->finish = n->parent->vtime;
		n->finish_rem = 0;
	}
}

static void
emu_sched_backlog_up(struct emu_sched_elem *e, int delta, uint64_t now_ps)
{
	for (; e != NULL && e->depth > 0; e = e->node.parent) {
		if (delta < 0) {
			e->backlog--;
		} else if (e->backlog++ == 0) {
			e->backlog_ps = now_ps;
			emu_node_arrive(&e->node);
		}
	}
}

void
emu_sched_sq_backlog(struct mlx5_emu *emu __attribute__((unused)),
		     struct emu_sq *sq, int delta)
{
	if (delta > 0)
		emu_node_arrive(&sq->sched);
	emu_sched_backlog_up(sq->sched.parent, delta, sq->backlog_ps);
}

void
emu_sq_sched_detach(struct mlx5_emu *emu __attribute__((unused)),
		    struct emu_sq *sq)
{
	if (sq->active)
		emu_sched_backlog_up(sq->sched.parent, -1, 0);
	emu_node_unlink(&sq->sched);
	sq->qos_group = 0;
	/* Its pacing may depend on its group (emu_sq_pp()). */
	sq->elig_valid = false;
}

/* Join queue group @p group (checked), or the root's children (0). */
void
emu_sq_sched_attach(struct mlx5_emu *emu, struct emu_sq *sq, uint16_t group)
{
	struct emu_sched_elem *e = emu_sched_find(emu, group);

	emu_sq_sched_detach(emu, sq);
	sq->sched.is_sq = true;
	sq->qos_group = e != NULL ? group : 0;
	sq->elig_valid = false;
	if (e != NULL)
		emu_node_link(e, &sq->sched);
	else if (emu->cfg.sched.unattached == MLX5_EMU_SCHED_UNATTACHED_SHARE)
		emu_node_link(&emu->sched->root, &sq->sched);
	/* Moved with work: its new elements have work from now on. */
	if (sq->active)
		emu_sched_backlog_up(sq->sched.parent, 1, emu->sim_ps);
}

/* ---- arbiter ---- */

bool
emu_sched_on(const struct mlx5_emu *emu)
{
	return emu->sched->elems.count > 0;
}

/* @p elig_ps, or later when a ceiling above @p sq holds its packet. */
uint64_t
emu_sched_sq_elig(struct mlx5_emu *emu __attribute__((unused)),
		  struct emu_sq *sq, uint64_t elig_ps)
{
	const struct emu_sched_elem *e;

	for (e = sq->sched.parent; e != NULL && e->depth > 0;
	     e = e->node.parent)
		if (e->max_average_bw != 0 && e->tat_ps > elig_ps)
			elig_ps = e->tat_ps;
	sq->sched.elig_ps = elig_ps;
	return elig_ps;
}

/* A child's weight among its siblings. */
static inline uint64_t
emu_node_weight(const struct mlx5_emu *emu, const struct emu_sched_node *n)
{
	const struct emu_sched_elem *e;

	if (n->is_sq)
		/* SQs of a queue group: equal; unattached: the default. */
		return n->parent->depth > 0 ? 1 :
		       (uint64_t)emu->cfg.sched.zero_bw_share;
	e = EMU_CONTAINER(n, const struct emu_sched_elem, node);
	return e->bw_share != 0 ? e->bw_share :
	       (uint64_t)emu->cfg.sched.zero_bw_share;
}

/*
 * Move the finish of @p n on by @p len bytes over its weight, exactly (the
 * remainder kept). Without a division per packet: the quotient by a
 * weight w >= 2 is the high half of num * (UINT64_MAX / w + 1), exact
 * while num * w < 2^64 (num < 2^32 here), and the reciprocal is
 * computed again only when the weight changes.
 */
static inline void
emu_node_advance(const struct mlx5_emu *emu, struct emu_sched_node *n,
		 uint32_t len)
{
	uint64_t w = emu_node_weight(emu, n);
	uint64_t num = len + n->finish_rem, q;

	if (w == 1) {
		n->finish += len;
		return;
	}
	if (w >= (1ull << 31)) {
		q = num / w;
	} else {
		if (n->weight != w) {
			n->weight = w;
			n->weight_inv = UINT64_MAX / w + 1;
		}
		q = (uint64_t)(((unsigned __int128)num * n->weight_inv) >> 64);
	}
	n->finish += q;
	n->finish_rem = num - q * w;
}

/* Is @p a served before its sibling @p b? The least finish first. */
static inline bool
emu_node_before(const struct emu_sched_node *a, const struct emu_sched_node *b)
{
	int64_t d = (int64_t)(a->finish - b->finish);

	return d != 0 ? d < 0 : a->key < b->key;
}

/*
 * The SQ of node @p n can send in decision @p gen: mark it and its
 * ancestors, each element keeping the child it serves first (best).
 */
static inline void
emu_sched_offer(struct emu_sched_node *n, uint64_t gen)
{
	while (n->mark != gen) {
		struct emu_sched_elem *p = n->parent;

		n->mark = gen;
		if (p == NULL)
			return;
		if (p->node.mark != gen || emu_node_before(n, p->best))
			p->best = n;
		n = &p->node;
	}
}

struct emu_sq *
emu_sched_pick(struct mlx5_emu *emu, uint64_t t_ps)
{
	struct emu_sched *s = emu->sched;
	struct emu_sq *strict = NULL;
	struct emu_sched_node *n;
	uint64_t gen = ++s->gen;
	uint32_t i, last = emu->rr_last_sqn;

	for (i = 0; i < emu->nb_active; i++) {
		struct emu_sq *sq = emu->active[i];

		if (!sq->head.valid || sq->head.kind != EMU_WQE_SEND ||
		    sq->sched.elig_ps > t_ps)
			continue;
		if (sq->sched.parent == NULL) {
			/* Strict: round robin by SQ number, before the tree. */
			bool after = sq->sqn > last;

			if (strict == NULL ||
			    (after != (strict->sqn > last) ? after :
			     sq->sqn < strict->sqn))
				strict = sq;
			continue;
		}
		emu_sched_offer(&sq->sched, gen);
	}
	if (strict != NULL)
		return strict;
	if (s->root.node.mark != gen)
		return NULL;
	for (n = s->root.best; !n->is_sq;
	     n = EMU_CONTAINER(n, struct emu_sched_elem, node)->best)
		;
	return EMU_CONTAINER(n, struct emu_sq, sched);
}

/*
 * The ceiling schedule of @p e, found behind departure time @p t_ps by
 * more than one packet (@p interval_ps) or from before its work began:
 * brought back to at most EMU_PACE_KEEP_BYTES behind, and not before the
 * element got work. Out of line: the usual charge stays short.
 */
static __attribute__((noinline, cold)) void
emu_elem_pace_behind(struct emu_sched_elem *e, uint64_t t_ps,
		     uint64_t interval_ps)
{
	uint64_t floor;

	if (e->keep_mbps != e->max_average_bw) {
		e->keep_mbps = e->max_average_bw;
		e->keep_ps = (uint64_t)EMU_PACE_KEEP_BYTES * EMU_PS_BYTE_MBPS /
			     e->max_average_bw;
	}
	floor = emu_pace_floor(t_ps, interval_ps, e->keep_ps, e->backlog_ps);
	if (e->tat_ps < floor) {
		e->tat_ps = floor;
		e->tat_rem = 0;
	}
}

void
emu_sched_charge(struct mlx5_emu *emu, struct emu_sq *sq, uint64_t t_ps,
		 uint32_t len)
{
	struct emu_sched_node *n;

	for (n = &sq->sched; n->parent != NULL; n = &n->parent->node) {
		struct emu_sched_elem *e = n->parent;
		uint64_t num, interval, start;

		/*
		 * Starts at max(V - vspan, F): a child that kept work while
		 * its own limit held it back keeps up to one round of its
		 * siblings (one packet's bytes / weight, the largest served)
		 * behind V, so that it still comes before a sibling whose
		 * packet moved V on while it waited. What an idle child
		 * banked was dropped when its work came (emu_node_arrive).
		 */
		if ((int64_t)(n->finish - (e->vtime - e->vspan)) < 0)
			n->finish = e->vtime - e->vspan;
		e->vtime = n->finish;
		start = n->finish;
		emu_node_advance(emu, n, len);
		if (n->finish - start + 1 > e->vspan)
			e->vspan = n->finish - start + 1;
		if (e->depth == 0)
			break;
		e->packets++;
		e->bytes += len;
		if (e->max_average_bw == 0)
			continue;
		/* As an SQ's pacing: a packet held back keeps its schedule. */
		num = (uint64_t)len * EMU_PS_BYTE_MBPS;
		interval = num / e->max_average_bw;
		if (e->tat_ps + interval < t_ps || e->tat_ps < e->backlog_ps)
			emu_elem_pace_behind(e, t_ps, interval);
		num += e->tat_rem;
		e->tat_ps += num / e->max_average_bw;
		e->tat_rem = num % e->max_average_bw;
	}
}

/* ---- introspection ---- */

static void
emu_sched_info(const struct emu_sched_elem *e, struct mlx5_emu_sched_info *i)
{
	memset(i, 0, sizeof(*i));
	i->id = e->id;
	i->parent_id = e->node.parent->id;
	i->element_type = e->type;
	i->tsar_type = e->tsar_type;
	i->depth = e->depth;
	i->bw_share = e->bw_share;
	i->max_average_bw = e->max_average_bw;
	i->nb_children = e->nb_elems;
	i->nb_sqs = e->nb_sqs;
	i->packets = e->packets;
	i->bytes = e->bytes;
}

unsigned int
mlx5_emu_sched_list(struct mlx5_emu *emu, struct mlx5_emu_sched_info *elems,
		    unsigned int max)
{
	unsigned int n = 0;
	uint32_t i;

	emu_lock(emu);
	for (i = 0; i < emu->sched->elems.cap; i++) {
		const struct emu_sched_elem *e = emu->sched->elems.slot[i];

		if (e == NULL)
			continue;
		if (elems != NULL && n < max)
			emu_sched_info(e, &elems[n]);
		n++;
	}
	emu_unlock(emu);
	return n;
}

int
mlx5_emu_sched_get(struct mlx5_emu *emu, uint32_t id,
		   struct mlx5_emu_sched_info *info)
{
	const struct emu_sched_elem *e;

	emu_lock(emu);
	e = emu_sched_find(emu, id);
	if (e != NULL)
		emu_sched_info(e, info);
	emu_unlock(emu);
	return e != NULL ? 0 : -ENOENT;
}
