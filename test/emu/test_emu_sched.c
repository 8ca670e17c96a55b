/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * NIC scheduling elements of the device model: capabilities per profile
 * and devargs, the four commands and each of their refusals, queue-group
 * membership of SQs, and the arbiter on the wire in virtual time (weights,
 * ceilings, surplus to siblings, nesting, a live move between groups,
 * limits below and above shares at every level), with the line of a port
 * without elements beside it (paced SQs sharing it).
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu_test_util.h"
#include "test_emu.h"

#define MS 1000000ULL
#define FRAME 1000u
#define LOG_SQ 9u
#define MAX_FLOWS 8u

/* ---- commands ---- */

struct elem {
	struct mlx5_tm_devx_obj *obj;
	uint32_t id;
};

/* CREATE_SCHEDULING_ELEMENT; the PRM status (0 OK) and syndrome. */
static uint8_t
elem_create_raw(struct t_dev *d, struct elem *e, uint32_t hierarchy,
		uint32_t type, uint32_t tsar_type, uint32_t parent,
		uint32_t bw_share, uint32_t max_bw, uint32_t *synd)
{
	uint32_t in[MLX5_ST_SZ_DW(create_scheduling_element_in)];
	uint32_t out[MLX5_ST_SZ_DW(create_scheduling_element_out)];
	void *ctx = MLX5_ADDR_OF(create_scheduling_element_in, in,
				 scheduling_context);

	memset(in, 0, sizeof(in));
	memset(e, 0, sizeof(*e));
	MLX5_SET(create_scheduling_element_in, in, opcode,
		 MLX5_CMD_OP_CREATE_SCHEDULING_ELEMENT);
	MLX5_SET(create_scheduling_element_in, in, scheduling_hierarchy,
		 hierarchy);
	MLX5_SET(scheduling_context, ctx, element_type, type);
	if (type == MLX5_SCHED_ELEM_TYPE_TSAR)
		MLX5_SET(scheduling_context, ctx,
			 element_attributes.tsar.tsar_type, tsar_type);
	MLX5_SET(scheduling_context, ctx, parent_element_id, parent);
	MLX5_SET(scheduling_context, ctx, bw_share, bw_share);
	MLX5_SET(scheduling_context, ctx, max_average_bw, max_bw);
	e->obj = d->g->devx_obj_create(d->dev, in, sizeof(in), out,
				       sizeof(out));
	if (synd != NULL)
		*synd = MLX5_GET(mbox_out, out, syndrome);
	if (e->obj == NULL)
		return errno == EREMOTEIO ? t_status(out) : 0xff;
	e->id = MLX5_GET(create_scheduling_element_out, out,
			 scheduling_element_id);
	return 0;
}

static uint8_t
tsar(struct t_dev *d, struct elem *e, uint32_t parent, uint32_t bw_share,
     uint32_t max_bw)
{
	return elem_create_raw(d, e, MLX5_SCHEDULING_HIERARCHY_NIC,
			       MLX5_SCHED_ELEM_TYPE_TSAR, MLX5_TSAR_TYPE_DWRR,
			       parent, bw_share, max_bw, NULL);
}

static uint8_t
group(struct t_dev *d, struct elem *e, uint32_t parent, uint32_t bw_share,
      uint32_t max_bw)
{
	return elem_create_raw(d, e, MLX5_SCHEDULING_HIERARCHY_NIC,
			       MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, 0, parent,
			       bw_share, max_bw, NULL);
}

static void
elem_destroy(struct t_dev *d, struct elem *e)
{
	if (e->obj != NULL)
		CHECK(d->g->devx_obj_destroy(e->obj) == 0,
		      "destroy element %u: errno %d", e->id, errno);
	e->obj = NULL;
}

/* MODIFY_SCHEDULING_ELEMENT; the PRM status and syndrome. */
static uint8_t
elem_modify(struct t_dev *d, struct elem *e, uint32_t mask,
	    uint32_t bw_share, uint32_t max_bw, uint32_t *synd)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_scheduling_element_in)];
	uint32_t out[MLX5_ST_SZ_DW(modify_scheduling_element_out)];
	void *ctx = MLX5_ADDR_OF(modify_scheduling_element_in, in,
				 scheduling_context);
	int ret;

	memset(in, 0, sizeof(in));
	MLX5_SET(modify_scheduling_element_in, in, opcode,
		 MLX5_CMD_OP_MODIFY_SCHEDULING_ELEMENT);
	MLX5_SET(modify_scheduling_element_in, in, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	MLX5_SET(modify_scheduling_element_in, in, scheduling_element_id,
		 e->id);
	MLX5_SET(modify_scheduling_element_in, in, modify_bitmask, mask);
	MLX5_SET(scheduling_context, ctx, bw_share, bw_share);
	MLX5_SET(scheduling_context, ctx, max_average_bw, max_bw);
	ret = d->g->devx_obj_modify(e->obj, in, sizeof(in), out, sizeof(out));
	if (synd != NULL)
		*synd = MLX5_GET(mbox_out, out, syndrome);
	return ret == 0 ? 0 : ret == -EREMOTEIO ? t_status(out) : 0xff;
}

/* MODIFY_SQ RDY->RDY with bitmask bit 2 (and bit 0 if @p set_pp). */
static uint8_t
sq_set_group(struct t_sq *s, uint8_t next, uint32_t grp, bool set_pp,
	     uint16_t pp_index, uint32_t *synd)
{
	uint32_t in[MLX5_ST_SZ_DW(modify_sq_in)];
	uint32_t out[MLX5_ST_SZ_DW(modify_sq_out)];
	void *sqc = MLX5_ADDR_OF(modify_sq_in, in, ctx);
	uint64_t mask = MLX5_MODIFY_SQ_BITMASK_QOS_QUEUE_GROUP_ID;
	int ret;

	memset(in, 0, sizeof(in));
	MLX5_SET(modify_sq_in, in, opcode, MLX5_CMD_OP_MODIFY_SQ);
	MLX5_SET(modify_sq_in, in, sq_state, MLX5_SQC_STATE_RDY);
	MLX5_SET(modify_sq_in, in, sqn, s->sqn);
	MLX5_SET(sqc, sqc, state, next);
	MLX5_SET(sqc, sqc, qos_queue_group_id, grp);
	if (set_pp) {
		mask |= MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX;
		MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, pp_index);
	}
	MLX5_SET64(modify_sq_in, in, modify_bitmask, mask);
	ret = s->d->g->devx_obj_modify(s->sq, in, sizeof(in), out,
				       sizeof(out));
	if (synd != NULL)
		*synd = MLX5_GET(mbox_out, out, syndrome);
	return ret == 0 ? 0 : ret == -EREMOTEIO ? t_status(out) : 0xff;
}

static uint32_t
sq_query_group(struct t_sq *s)
{
	uint32_t in[MLX5_ST_SZ_DW(query_sq_in)];
	uint32_t out[MLX5_ST_SZ_DW(query_sq_out)];

	memset(in, 0, sizeof(in));
	MLX5_SET(query_sq_in, in, opcode, MLX5_CMD_OP_QUERY_SQ);
	MLX5_SET(query_sq_in, in, sqn, s->sqn);
	if (s->d->g->devx_obj_query(s->sq, in, sizeof(in), out,
				    sizeof(out)) != 0)
		return UINT32_MAX;
	return MLX5_GET(sqc, MLX5_ADDR_OF(query_sq_out, out, sq_context),
			qos_queue_group_id);
}

/* t_sq_ready() into queue group @p grp. */
static int
sq_ready(struct t_dev *d, struct t_sq *s, uint16_t grp, uint16_t pp)
{
	int ret;

	d->qos_group = grp;
	ret = t_sq_ready(d, s, LOG_SQ, pp);
	d->qos_group = 0;
	return ret;
}

static int
t_open_kv(struct t_dev *d, const char *profile, const char *a, const char *b)
{
	const char *kv[4] = { "clock=virtual", a, b, NULL };

	return t_open(d, profile, kv);
}

/* ---- capabilities and devargs ---- */

static void
query_qos(struct t_dev *d, uint32_t *out, size_t len)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)];

	memset(in, 0, sizeof(in));
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, MLX5_GET_HCA_CAP_OP_MOD_QOS_CAP);
	CHECK(d->g->devx_general_cmd(d->dev, in, sizeof(in), out, len) == 0,
	      "QUERY_HCA_CAP QoS");
}

#define QOS(o, f) MLX5_GET(qos_cap, MLX5_ADDR_OF(query_hca_cap_out, (o), \
			   capability), f)

static void
test_caps(void)
{
	static uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)];
	static const char *const profiles[] = { "cx6dx", "cx7" };
	struct mlx5_emu_config cfg;
	struct mlx5_emu_caps caps;
	struct t_dev d;
	char err[256];
	size_t i;

	for (i = 0; i < 2; i++) {
		CHECK(t_open_kv(&d, profiles[i], NULL, NULL) == 0, "open");
		query_qos(&d, out, sizeof(out));
		CHECK(QOS(out, nic_sq_scheduling) == 1 &&
		      QOS(out, nic_bw_share) == 1 &&
		      QOS(out, nic_rate_limit) == 1, "%s: NIC scheduling",
		      profiles[i]);
		CHECK(QOS(out, nic_element_type) == 0x11 &&
		      QOS(out, nic_tsar_type) == 0x1,
		      "%s: TSARs and queue groups, DWRR: 0x%x 0x%x",
		      profiles[i], QOS(out, nic_element_type),
		      QOS(out, nic_tsar_type));
		CHECK(QOS(out, max_tsar_bw_share) == 100 &&
		      QOS(out, log_max_qos_nic_queue_group) == 8 &&
		      QOS(out, log_max_qos_nic_scheduling_element) == 13,
		      "%s: 100, 2^8 groups, 2^13 elements", profiles[i]);
		mlx5_emu_get_caps(d.emu, &caps);
		CHECK(caps.sched.max_depth == 4, "depth %u",
		      caps.sched.max_depth);
		t_close(&d);
	}
	CHECK(t_open_kv(&d, "cx5", NULL, NULL) == 0, "open cx5");
	query_qos(&d, out, sizeof(out));
	CHECK(QOS(out, nic_sq_scheduling) == 0 &&
	      QOS(out, nic_element_type) == 0 && QOS(out, nic_tsar_type) == 0 &&
	      QOS(out, max_tsar_bw_share) == 0, "cx5: no NIC scheduling");
	t_close(&d);

	/* Every value a devarg. */
	CHECK(t_open_kv(&d, "cx5", "cap_nic_sq_scheduling=1",
			"cap_max_tsar_bw_share=50") == 0, "open cx5 with");
	query_qos(&d, out, sizeof(out));
	CHECK(QOS(out, nic_sq_scheduling) == 1 &&
	      QOS(out, nic_element_type) == 0x11 &&
	      QOS(out, max_tsar_bw_share) == 50, "cx5 turned on, 50");
	t_close(&d);
	CHECK(t_open_kv(&d, "cx7", "cap_nic_sq_scheduling=0", NULL) == 0,
	      "open cx7 without");
	query_qos(&d, out, sizeof(out));
	CHECK(QOS(out, nic_sq_scheduling) == 0 &&
	      QOS(out, nic_element_type) == 0, "cx7 turned off");
	t_close(&d);
	CHECK(t_open_kv(&d, "cx6dx", "cap_nic_element_type=0x1",
			"cap_log_max_qos_nic_queue_group=4") == 0, "open");
	query_qos(&d, out, sizeof(out));
	CHECK(QOS(out, nic_element_type) == 0x1 &&
	      QOS(out, log_max_qos_nic_queue_group) == 4, "overrides");
	t_close(&d);

	mlx5_emu_config_init(&cfg, "cx6dx");
	CHECK(mlx5_emu_config_set(&cfg, "cap_max_tsar_bw_share", "0", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "cap_max_tsar_bw_share='0'") != NULL &&
	      strstr(err, "1..") != NULL, "refused with: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "sched_unattached", "first", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "share, strict") != NULL, "refused with: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "cap_sched_max_depth", "17", err,
				  sizeof(err)) == -EINVAL, "depth 17 refused");
	CHECK(mlx5_emu_config_set(&cfg, "sched_unattached", "strict", err,
				  sizeof(err)) == 0 &&
	      cfg.sched.unattached == MLX5_EMU_SCHED_UNATTACHED_STRICT,
	      "strict");
}

/* ---- commands ---- */

static void
test_commands(void)
{
	uint32_t in[MLX5_ST_SZ_DW(query_scheduling_element_in)];
	uint32_t out[MLX5_ST_SZ_DW(query_scheduling_element_out)];
	struct mlx5_emu_sched_info info[8];
	struct elem root, t2, t3, t4, g, g2, g3, x;
	struct mlx5_emu_sq_info si;
	struct t_dev d;
	struct t_sq s;
	uint32_t synd;
	void *ctx;

	CHECK(t_open_kv(&d, "cx6dx", "cap_sched_max_depth=3",
			"cap_log_max_qos_nic_queue_group=1") == 0, "open");
	/* Refusals, each with its status and syndrome. */
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_E_SWITCH,
			      MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0, 0, &synd) ==
	      MLX5_CMD_STAT_BAD_PARAM_ERR && synd == MLX5_EMU_SYND_BAD_FIELD,
	      "e-switch hierarchy");
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_VPORT, 0, 0, 0, 0, &synd) ==
	      MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_SCHED_BAD_TYPE, "vport element");
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_TSAR, MLX5_TSAR_TYPE_ETS,
			      0, 0, 0, &synd) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_SCHED_BAD_TYPE, "ETS TSAR");
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_TSAR, 0, 999, 0, 0, &synd) ==
	      MLX5_CMD_STAT_BAD_RES_ERR &&
	      synd == MLX5_EMU_SYND_SCHED_BAD_PARENT, "missing parent");
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0, 400, &synd) ==
	      MLX5_CMD_STAT_BAD_PARAM_ERR && synd == MLX5_EMU_SYND_BAD_FIELD,
	      "a ceiling on a child of the device root");
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 2, 0, &synd) ==
	      MLX5_CMD_STAT_BAD_PARAM_ERR && synd == MLX5_EMU_SYND_BAD_FIELD,
	      "a weight on a child of the device root");
	CHECK(tsar(&d, &root, 0, 0, 0) == 0, "root TSAR");
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_TSAR, 0, root.id, 101, 0,
			      &synd) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_BAD_FIELD,
	      "bw_share 101 above max_tsar_bw_share");
	CHECK(elem_modify(&d, &root, MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW,
			  0, 400, &synd) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_BAD_FIELD, "modify the root TSAR's ceiling");
	CHECK(tsar(&d, &t2, root.id, 3, 0) == 0, "depth 2");
	CHECK(tsar(&d, &t3, t2.id, 3, 0) == 0, "depth 3");
	CHECK(elem_create_raw(&d, &t4, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, 0, t3.id, 1, 0,
			      &synd) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_SCHED_TOO_DEEP, "depth 4 of 3");
	CHECK(group(&d, &g, t2.id, 7, 0) == 0, "queue group 1 of 2");
	CHECK(group(&d, &g2, t2.id, 7, 0) == 0, "queue group 2 of 2");
	CHECK(elem_create_raw(&d, &g3, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, 0, t2.id, 1, 0,
			      &synd) == MLX5_CMD_STAT_NO_RES_ERR &&
	      synd == MLX5_EMU_SYND_SCHED_TOO_MANY, "queue group 3 of 2");
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_TSAR, 0, g.id, 1, 0,
			      &synd) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_SCHED_BAD_PARENT, "parent a queue group");

	/* Query and modify. */
	memset(in, 0, sizeof(in));
	MLX5_SET(query_scheduling_element_in, in, opcode,
		 MLX5_CMD_OP_QUERY_SCHEDULING_ELEMENT);
	MLX5_SET(query_scheduling_element_in, in, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	MLX5_SET(query_scheduling_element_in, in, scheduling_element_id, g.id);
	CHECK(d.g->devx_obj_query(g.obj, in, sizeof(in), out, sizeof(out)) ==
	      0, "query");
	ctx = MLX5_ADDR_OF(query_scheduling_element_out, out,
			   scheduling_context);
	CHECK(MLX5_GET(scheduling_context, ctx, element_type) ==
	      MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP &&
	      MLX5_GET(scheduling_context, ctx, parent_element_id) == t2.id &&
	      MLX5_GET(scheduling_context, ctx, bw_share) == 7 &&
	      MLX5_GET(scheduling_context, ctx, max_average_bw) == 0,
	      "queried context");
	CHECK(d.g->devx_obj_query(t2.obj, in, sizeof(in), out, sizeof(out)) ==
	      -EINVAL, "query through another element's object");
	CHECK(d.g->devx_general_cmd(d.dev, in, sizeof(in), out, sizeof(out)) ==
	      -EINVAL, "element commands need their object");
	CHECK(elem_modify(&d, &g, MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE |
			  MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW, 9,
			  250, NULL) == 0, "modify both");
	CHECK(mlx5_emu_sched_get(d.emu, g.id, &info[0]) == 0 &&
	      info[0].bw_share == 9 && info[0].max_average_bw == 250 &&
	      info[0].parent_id == t2.id && info[0].depth == 3,
	      "modified: %u %u", info[0].bw_share, info[0].max_average_bw);
	CHECK(elem_modify(&d, &g, MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE, 5,
			  0, NULL) == 0 && mlx5_emu_sched_get(d.emu, g.id,
			  &info[0]) == 0 && info[0].bw_share == 5 &&
	      info[0].max_average_bw == 250, "bitmask: bw_share only");
	CHECK(elem_modify(&d, &g, 0x4, 1, 1, &synd) ==
	      MLX5_CMD_STAT_BAD_PARAM_ERR, "unknown modify bit");
	CHECK(elem_modify(&d, &g, MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE, 101,
			  0, &synd) == MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_BAD_FIELD, "modify to 101");
	CHECK(mlx5_emu_sched_list(d.emu, info, 8) == 5, "five elements");
	{
		struct mlx5_emu_fault_cmd fc = {
			.opcode = MLX5_CMD_OP_MODIFY_SCHEDULING_ELEMENT,
			.nth = 1,
			.status = MLX5_CMD_STAT_INT_ERR,
			.syndrome = MLX5_EMU_SYND_INJECTED,
		};

		CHECK(mlx5_emu_fault_cmd(d.emu, &fc) == 0, "arm a fault");
		CHECK(elem_modify(&d, &g, MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE,
				  1, 0, &synd) == MLX5_CMD_STAT_INT_ERR &&
		      synd == MLX5_EMU_SYND_INJECTED, "injected failure");
		CHECK(mlx5_emu_sched_get(d.emu, g.id, &info[0]) == 0 &&
		      info[0].bw_share == 5, "a failed modify changes nothing");
	}

	/* SQs in queue groups. */
	CHECK(sq_ready(&d, &s, (uint16_t)t2.id, 0) < 0, "SQ into a TSAR");
	{
		struct mlx5_emu_cmd_error ce;

		mlx5_emu_last_cmd_error(d.emu, &ce);
		CHECK(ce.opcode == MLX5_CMD_OP_CREATE_SQ &&
		      ce.status == MLX5_CMD_STAT_BAD_PARAM_ERR &&
		      ce.syndrome == MLX5_EMU_SYND_SCHED_BAD_GROUP,
		      "CREATE_SQ into a TSAR: 0x%x 0x%x", ce.status,
		      ce.syndrome);
		t_sq_destroy(&s);
		CHECK(sq_ready(&d, &s, 0x7777, 0) < 0, "SQ into no group");
		mlx5_emu_last_cmd_error(d.emu, &ce);
		CHECK(ce.status == MLX5_CMD_STAT_BAD_RES_ERR,
		      "missing group: 0x%x", ce.status);
		t_sq_destroy(&s);
	}
	CHECK(sq_ready(&d, &s, (uint16_t)g.id, 0) == 0, "SQ into group g");
	CHECK(sq_query_group(&s) == g.id, "QUERY_SQ: group");
	CHECK(mlx5_emu_sq_get(d.emu, s.sqn, &si) == 0 &&
	      si.qos_queue_group_id == g.id, "introspection: group");
	CHECK(sq_set_group(&s, MLX5_SQC_STATE_RST, g2.id, false, 0, &synd) ==
	      MLX5_CMD_STAT_BAD_PARAM_ERR, "bit 2 towards RST");
	CHECK(sq_set_group(&s, MLX5_SQC_STATE_RDY, t3.id, false, 0, &synd) ==
	      MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_SCHED_BAD_GROUP, "move into a TSAR");
	CHECK(sq_query_group(&s) == g.id, "a refused move moves nothing");
	/* Element in use: a TSAR with children, a queue group with SQs. */
	CHECK(d.g->devx_obj_destroy(t2.obj) == -EREMOTEIO, "TSAR in use");
	{
		struct mlx5_emu_cmd_error ce;

		mlx5_emu_last_cmd_error(d.emu, &ce);
		CHECK(ce.opcode == MLX5_CMD_OP_DESTROY_SCHEDULING_ELEMENT &&
		      ce.status == MLX5_CMD_STAT_BAD_RES_STATE_ERR &&
		      ce.syndrome == MLX5_EMU_SYND_SCHED_IN_USE,
		      "TSAR in use: 0x%x 0x%x", ce.status, ce.syndrome);
		CHECK(d.g->devx_obj_destroy(g.obj) == -EREMOTEIO,
		      "queue group with an SQ");
		mlx5_emu_last_cmd_error(d.emu, &ce);
		CHECK(ce.status == MLX5_CMD_STAT_BAD_RES_STATE_ERR &&
		      ce.syndrome == MLX5_EMU_SYND_SCHED_IN_USE,
		      "group in use: 0x%x 0x%x", ce.status, ce.syndrome);
	}
	CHECK(sq_set_group(&s, MLX5_SQC_STATE_RDY, g2.id, false, 0, NULL) == 0,
	      "move to g2");
	CHECK(sq_query_group(&s) == g2.id, "now in g2");
	elem_destroy(&d, &g);
	CHECK(sq_set_group(&s, MLX5_SQC_STATE_RDY, 0, false, 0, NULL) == 0,
	      "leave every group");
	CHECK(mlx5_emu_sched_get(d.emu, g2.id, &info[0]) == 0 &&
	      info[0].nb_sqs == 0, "g2 empty");
	t_sq_destroy(&s);
	elem_destroy(&d, &g2);
	elem_destroy(&d, &t3);
	elem_destroy(&d, &t2);
	elem_destroy(&d, &root);
	CHECK(mlx5_emu_sched_list(d.emu, NULL, 0) == 0, "none left");
	t_close(&d);

	/* Values on a child of the device root, when allowed. */
	CHECK(t_open_kv(&d, "cx6dx", "sched_root_values=1", NULL) == 0, "open");
	CHECK(tsar(&d, &root, 0, 2, 400) == 0, "root TSAR with values");
	elem_destroy(&d, &root);
	t_close(&d);

	/* Element limit, and the cx5's refusal. */
	CHECK(t_open_kv(&d, "cx6dx", "cap_log_max_qos_nic_sched_elem=2",
			NULL) == 0, "open");
	{
		struct elem e[4];
		unsigned int i;

		for (i = 0; i < 4; i++)
			CHECK(tsar(&d, &e[i], 0, 0, 0) == 0, "element %u", i);
		CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
				      MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0, 0,
				      &synd) == MLX5_CMD_STAT_NO_RES_ERR &&
		      synd == MLX5_EMU_SYND_SCHED_TOO_MANY, "element 5 of 4");
		for (i = 0; i < 4; i++)
			elem_destroy(&d, &e[i]);
	}
	t_close(&d);
	CHECK(t_open_kv(&d, "cx5", NULL, NULL) == 0, "open cx5");
	CHECK(elem_create_raw(&d, &x, MLX5_SCHEDULING_HIERARCHY_NIC,
			      MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0, 0, &synd) ==
	      MLX5_CMD_STAT_BAD_PARAM_ERR &&
	      synd == MLX5_EMU_SYND_SCHED_BAD_TYPE, "cx5: no TSAR");
	CHECK(sq_ready(&d, &s, 1, 0) < 0, "cx5: no queue group for an SQ");
	{
		struct mlx5_emu_cmd_error ce;

		mlx5_emu_last_cmd_error(d.emu, &ce);
		CHECK(ce.syndrome == MLX5_EMU_SYND_SCHED_UNSUPPORTED,
		      "cx5 SQ: 0x%x", ce.syndrome);
	}
	t_sq_destroy(&s);
	t_close(&d);

	/* An SQ with both a pacing index and a queue group, when refused. */
	CHECK(t_open_kv(&d, "cx6dx", "sched_sq_pp_and_group=0", NULL) == 0,
	      "open");
	{
		struct mlx5_tm_pp *pp = t_pp(&d, 100000, 0, 0, 0, 0);

		CHECK(pp != NULL && group(&d, &g, 0, 0, 0) == 0, "pp, group");
		CHECK(sq_ready(&d, &s, (uint16_t)g.id, pp->index) < 0,
		      "pacing and group refused");
		t_sq_destroy(&s);
		CHECK(sq_ready(&d, &s, (uint16_t)g.id, 0) == 0, "group only");
		CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY,
				  true, pp->index, NULL) == -EREMOTEIO,
		      "pacing added to a grouped SQ refused");
		CHECK(sq_set_group(&s, MLX5_SQC_STATE_RDY, 0, true, pp->index,
				   NULL) == 0, "leave the group, take pacing");
		t_sq_destroy(&s);
		elem_destroy(&d, &g);
		d.g->pp_free(pp);
	}
	t_close(&d);
}

/* ---- traffic ---- */

/* Departures per SQ: bytes in a window, sequence numbers in order. */
struct meter {
	uint32_t nb;
	uint32_t sqn[MAX_FLOWS];
	uint32_t next_seq[MAX_FLOWS];
	uint64_t bytes[MAX_FLOWS];
	uint64_t packets[MAX_FLOWS];
	uint64_t departed[MAX_FLOWS];
	uint64_t out_of_order;
	uint64_t w0, w1;
};

static struct meter m;

static void
meter_hook(void *arg __attribute__((unused)), uint32_t sqn, uint64_t t,
	   const uint8_t *b, uint32_t len)
{
	uint32_t i, seq;

	for (i = 0; i < m.nb; i++)
		if (m.sqn[i] == sqn)
			break;
	if (i == m.nb)
		return;
	seq = mlx5_prm_read32(b + 14, 0);
	if (seq != m.next_seq[i])
		m.out_of_order++;
	m.next_seq[i] = seq + 1;
	m.departed[i]++;
	if (t >= m.w0 && t < m.w1) {
		m.bytes[i] += len;
		m.packets[i]++;
	}
}

static double
meter_mbps(uint32_t i)
{
	return (double)m.bytes[i] * 8 / ((double)(m.w1 - m.w0) / 1e9) / 1e6;
}

struct flow {
	struct t_sq s;
	uint32_t len;       /* frame bytes (0: FRAME) */
	uint32_t inl;       /* bytes inline (18 for ConnectX-5's L2) */
	uint32_t seq;       /* next sequence number to post */
	uint32_t done;      /* WQEs completed */
	bool on;            /* keep backlogged */
};

/* Frame buffers per flow: d->buf holds MAX_FLOWS of them. */
#define FLOW_BUF (1u << 19)

/* Keep every flow that is on backlogged (posting at most its half MB of
 * frames ahead), time going on by @p step_ns, until @p until. */
static void
run_until_step(struct t_dev *d, struct flow *f, uint32_t n, uint64_t until_ns,
	       uint64_t step_ns)
{
	const uint32_t ring = 1u << LOG_SQ;
	struct t_cqe c[64];
	uint32_t i, k;

	while (mlx5_emu_now_ns(d->emu) < until_ns) {
		for (i = 0; i < n; i++) {
			struct flow *fl = &f[i];
			uint32_t len = fl->len != 0 ? fl->len : FRAME;
			uint32_t slot = (len + 1023) & ~1023u;
			uint32_t depth = FLOW_BUF / slot < ring - 32 ?
					 FLOW_BUF / slot : ring - 32;
			bool posted = false;

			while ((k = t_poll(&fl->s, c, 64)) > 0)
				fl->done = (uint32_t)c[k - 1].wqe_counter + 1;
			while (fl->on &&
			       (uint16_t)(fl->s.pi - fl->done) < depth) {
				size_t off = (size_t)i * FLOW_BUF +
					     (size_t)(fl->seq % depth) * slot;
				uint8_t *p = t_frame(d, off, len, fl->seq);

				mlx5_prm_write32(p + 14, 0, fl->seq++);
				t_post(&fl->s, p, len, fl->inl,
				       (fl->s.pi % 32) == 31);
				posted = true;
			}
			if (posted)
				t_ring(&fl->s);
		}
		mlx5_emu_advance(d->emu, step_ns);
	}
}

static void
run_until(struct t_dev *d, struct flow *f, uint32_t n, uint64_t until_ns)
{
	run_until_step(d, f, n, until_ns, MS);
}

static void
flows_start(struct t_dev *d, struct flow *f, uint32_t n)
{
	uint32_t i;

	memset(&m, 0, sizeof(m));
	m.nb = n;
	for (i = 0; i < n; i++) {
		m.sqn[i] = f[i].s.sqn;
		f[i].on = true;
	}
	mlx5_emu_set_wire_hook(d->emu, meter_hook, NULL);
}

/* Stop posting, let everything posted leave, check none lost. */
static void
flows_end(struct t_dev *d, struct flow *f, uint32_t n, const char *what)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		f[i].on = false;
	CHECK(mlx5_emu_drain(d->emu) == 0, "drain");
	for (i = 0; i < n; i++) {
		CHECK(m.departed[i] == f[i].seq,
		      "%s: flow %u: %" PRIu64 " of %u departed", what, i,
		      m.departed[i], f[i].seq);
	}
	CHECK(m.out_of_order == 0, "%s: %" PRIu64 " out of order", what,
	      m.out_of_order);
	mlx5_emu_set_wire_hook(d->emu, NULL, NULL);
	for (i = 0; i < n; i++) {
		struct t_cqe c[64];

		while (t_poll(&f[i].s, c, 64) > 0)
			;
		t_sq_destroy(&f[i].s);
	}
}

#define NEAR(got, want, tol) (fabs((got) / (want) - 1) < (tol))

/* Rates of flows 0..n-1 in the window [from, to) ms against @p want. */
static void
measure(struct t_dev *d, struct flow *f, uint32_t n, uint64_t from_ms,
	uint64_t to_ms, const double *want, const char *what)
{
	uint32_t i;

	m.w0 = from_ms * MS;
	m.w1 = to_ms * MS;
	memset(m.bytes, 0, sizeof(m.bytes));
	memset(m.packets, 0, sizeof(m.packets));
	run_until(d, f, n, to_ms * MS);
	for (i = 0; i < n; i++)
		CHECK(want[i] == 0 ? m.bytes[i] == 0 :
		      NEAR(meter_mbps(i), want[i], 0.005),
		      "%s: flow %u %.2f Mbit/s, want %.2f", what, i,
		      meter_mbps(i), want[i]);
}

/*
 * Three backlogged SQs in queue groups of bw_share 1:2:5 under a TSAR at
 * 400 Mbit/s: 50/100/250. With the third group capped at 100 Mbit/s its
 * surplus goes to its siblings (100/200/100), and the same with the cap
 * as the third SQ's own pacing entry.
 */
static void
test_weights(int cap_mode)
{
	static const char *const names[] = {
		"1:2:5 under 400", "third group capped at 100",
		"third SQ paced at 100",
	};
	static const double want[3][3] = {
		{ 50, 100, 250 }, { 100, 200, 100 }, { 100, 200, 100 },
	};
	struct mlx5_tm_pp *pp = NULL;
	struct elem root, top, g[3];
	struct flow f[3];
	struct t_dev d;
	uint32_t i;

	memset(f, 0, sizeof(f));
	CHECK(t_open_kv(&d, "cx6dx", NULL, NULL) == 0, "open");
	CHECK(tsar(&d, &root, 0, 0, 0) == 0 &&
	      tsar(&d, &top, root.id, 0, 400) == 0, "TSAR 400 Mbit/s");
	if (cap_mode == 2)
		pp = t_pp(&d, 100000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	for (i = 0; i < 3; i++) {
		static const uint32_t share[] = { 1, 2, 5 };

		CHECK(group(&d, &g[i], top.id, share[i],
			    cap_mode == 1 && i == 2 ? 100 : 0) == 0, "group");
		CHECK(sq_ready(&d, &f[i].s, (uint16_t)g[i].id,
			       i == 2 && pp != NULL ? pp->index : 0) == 0,
		      "SQ");
	}
	flows_start(&d, f, 3);
	measure(&d, f, 3, 20, 220, want[cap_mode], names[cap_mode]);
	{
		struct mlx5_emu_sched_info ti;
		double total;

		CHECK(mlx5_emu_sched_get(d.emu, top.id, &ti) == 0, "top");
		total = meter_mbps(0) + meter_mbps(1) + meter_mbps(2);
		CHECK(NEAR(total, 400, 0.005), "%s: total %.2f Mbit/s",
		      names[cap_mode], total);
		CHECK(ti.packets > 0 && ti.bytes == ti.packets * FRAME,
		      "element counters");
	}
	flows_end(&d, f, 3, names[cap_mode]);
	for (i = 0; i < 3; i++)
		elem_destroy(&d, &g[i]);
	elem_destroy(&d, &top);
	elem_destroy(&d, &root);
	if (pp != NULL)
		d.g->pp_free(pp);
	t_close(&d);
}

/*
 * Three levels: a root TSAR at 600 Mbit/s over TSARs A (1) and B (2), A
 * over groups of 1:1, B over groups of 1:3: 100/100 and 100/300. Then,
 * live, B's weight equals A's and b2's ceiling drops to 150.
 */
static void
test_nested(void)
{
	static const double want[4] = { 100, 100, 100, 300 };
	static const double want2[4] = { 150, 150, 150, 150 };
	struct elem root, top, a, b, g[4];
	struct flow f[4];
	struct t_dev d;
	uint32_t i;

	memset(f, 0, sizeof(f));
	CHECK(t_open_kv(&d, "cx7", NULL, NULL) == 0, "open");
	CHECK(tsar(&d, &root, 0, 0, 0) == 0, "root TSAR");
	CHECK(tsar(&d, &top, root.id, 0, 600) == 0 &&
	      tsar(&d, &a, top.id, 1, 0) ==
	      0 && tsar(&d, &b, top.id, 2, 0) == 0, "TSARs");
	CHECK(group(&d, &g[0], a.id, 1, 0) == 0 &&
	      group(&d, &g[1], a.id, 1, 0) == 0 &&
	      group(&d, &g[2], b.id, 1, 0) == 0 &&
	      group(&d, &g[3], b.id, 3, 0) == 0, "groups");
	for (i = 0; i < 4; i++)
		CHECK(sq_ready(&d, &f[i].s, (uint16_t)g[i].id, 0) == 0, "SQ");
	flows_start(&d, f, 4);
	measure(&d, f, 4, 20, 220, want, "three levels");
	CHECK(elem_modify(&d, &b, MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE, 1,
			  0, NULL) == 0, "B's weight to 1");
	CHECK(elem_modify(&d, &g[3],
			  MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW, 0,
			  150, NULL) == 0, "b2 capped at 150");
	measure(&d, f, 4, 240, 440, want2, "three levels, changed live");
	flows_end(&d, f, 4, "three levels");
	for (i = 0; i < 4; i++)
		elem_destroy(&d, &g[i]);
	elem_destroy(&d, &a);
	elem_destroy(&d, &b);
	elem_destroy(&d, &top);
	elem_destroy(&d, &root);
	t_close(&d);
}

/*
 * MODIFY_SQ bit 2 while the SQ sends: from a group under a 100 Mbit/s
 * TSAR into the group of another SQ under a 300 Mbit/s TSAR; nothing lost
 * or reordered, and the two then share 300 evenly.
 */
static void
test_live_move(void)
{
	static const double before[2] = { 100, 300 };
	static const double after[2] = { 150, 150 };
	struct elem root, x, y, gx, gy;
	struct mlx5_emu_sched_info info;
	struct flow f[2];
	struct t_dev d;

	memset(f, 0, sizeof(f));
	CHECK(t_open_kv(&d, "cx6dx", NULL, NULL) == 0, "open");
	CHECK(tsar(&d, &root, 0, 0, 0) == 0 &&
	      tsar(&d, &x, root.id, 1, 100) == 0 &&
	      tsar(&d, &y, root.id, 1, 300) == 0 &&
	      group(&d, &gx, x.id, 1, 0) == 0 &&
	      group(&d, &gy, y.id, 1, 0) == 0, "tree");
	CHECK(sq_ready(&d, &f[0].s, (uint16_t)gx.id, 0) == 0 &&
	      sq_ready(&d, &f[1].s, (uint16_t)gy.id, 0) == 0, "SQs");
	flows_start(&d, f, 2);
	measure(&d, f, 2, 10, 110, before, "before the move");
	CHECK(sq_set_group(&f[0].s, MLX5_SQC_STATE_RDY, gy.id, false, 0,
			   NULL) == 0, "move while sending");
	CHECK(mlx5_emu_sched_get(d.emu, gy.id, &info) == 0 &&
	      info.nb_sqs == 2, "gy holds both");
	measure(&d, f, 2, 130, 330, after, "after the move");
	CHECK(d.g->devx_obj_destroy(gy.obj) == -EREMOTEIO, "gy in use");
	elem_destroy(&d, &gx);
	flows_end(&d, f, 2, "live move");
	elem_destroy(&d, &gy);
	elem_destroy(&d, &x);
	elem_destroy(&d, &y);
	elem_destroy(&d, &root);
	t_close(&d);
}

/*
 * An SQ in no queue group on a 1 Gbit/s line beside a root TSAR (which
 * has the default weight, as a child of the device root): share (default)
 * gives the SQ the default weight too, half the line; strict serves it
 * first.
 */
static void
test_unattached(bool strict)
{
	static const double share[2] = { 500, 500 };
	static const double first[2] = { 0, 1000 };
	double line = 1000.0 * FRAME / (FRAME + 24);
	double want[2];
	struct elem t, g;
	struct flow f[2];
	struct t_dev d;

	memset(f, 0, sizeof(f));
	want[0] = (strict ? first : share)[0] * line / 1000;
	want[1] = (strict ? first : share)[1] * line / 1000;
	CHECK(t_open_kv(&d, "cx6dx", "line_rate=1G",
			strict ? "sched_unattached=strict" : NULL) == 0,
	      "open");
	CHECK(tsar(&d, &t, 0, 0, 0) == 0 && group(&d, &g, t.id, 1, 0) == 0,
	      "tree");
	CHECK(sq_ready(&d, &f[0].s, (uint16_t)g.id, 0) == 0 &&
	      sq_ready(&d, &f[1].s, 0, 0) == 0, "SQs");
	flows_start(&d, f, 2);
	if (strict) {
		m.w0 = 10 * MS;
		m.w1 = 60 * MS;
		run_until(&d, f, 2, 60 * MS);
		CHECK(m.bytes[0] == 0, "strict: the tree waits");
		CHECK(NEAR(meter_mbps(1), want[1], 0.005),
		      "strict: %.2f Mbit/s", meter_mbps(1));
	} else {
		measure(&d, f, 2, 10, 60, want, "unattached share");
	}
	flows_end(&d, f, 2, "unattached");
	elem_destroy(&d, &g);
	elem_destroy(&d, &t);
	t_close(&d);
}

/* ---- limits below and above shares (issue 23) ---- */

/*
 * Each expected rate below is worked out by hand from the rule "every
 * child gets min(its own limit, its weighted max-min share of what its
 * parent gets)": DWRR shares and ceilings count L2 frame bytes, the line
 * (max(len, 60) + 24) bytes per frame. Weights are given as the driver
 * scales them (largest 99 or 100 of max_tsar_bw_share 100): a turn of
 * the old surplus round robin was worth 150 KB there.
 */

/* Destroy @p n elements, the last created first. */
static void
elems_destroy(struct t_dev *d, struct elem *e, uint32_t n)
{
	while (n-- > 0)
		elem_destroy(d, &e[n]);
}

/*
 * Three SQs in queue groups of bw_share 1:2:5 under a TSAR at 800 Mbit/s,
 * 1000-byte frames, the third paced at @p cap Mbit/s. At 50 the third
 * gets its 50 and the others share the 750 left 1:2: 250/500. At 600 its
 * share, 800 * 5/8 = 500, is below its pacing: 100/200/500.
 */
static void
test_capped_leaf(uint32_t cap)
{
	static const uint32_t share[3] = { 20, 40, 100 };
	double want[3];
	struct mlx5_tm_pp *pp;
	struct elem e[5];
	struct flow f[3];
	struct t_dev d;
	char what[64];
	uint32_t i;

	if (cap < 500) {
		want[2] = cap;
		want[0] = (800.0 - cap) / 3;
		want[1] = (800.0 - cap) * 2 / 3;
	} else {
		want[0] = 100;
		want[1] = 200;
		want[2] = 500;
	}
	snprintf(what, sizeof(what), "leaf paced at %u in 1:2:5 of 800", cap);
	memset(f, 0, sizeof(f));
	CHECK(t_open_kv(&d, "cx6dx", NULL, NULL) == 0, "open");
	pp = t_pp(&d, cap * 1000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL && tsar(&d, &e[0], 0, 0, 0) == 0 &&
	      tsar(&d, &e[1], e[0].id, 0, 800) == 0, "tree");
	for (i = 0; i < 3; i++)
		CHECK(group(&d, &e[2 + i], e[1].id, share[i], 0) == 0 &&
		      sq_ready(&d, &f[i].s, (uint16_t)e[2 + i].id,
			       i == 2 ? pp->index : 0) == 0, "SQ %u", i);
	flows_start(&d, f, 3);
	measure(&d, f, 3, 20, 220, want, what);
	flows_end(&d, f, 3, what);
	elems_destroy(&d, e, 5);
	d.g->pp_free(pp);
	t_close(&d);
}

/*
 * A leaf paced in packets: under a TSAR at 400 Mbit/s, SQ 0 at 200 000
 * WQEs/s of 64-byte frames in a queue group of bw_share 100, SQ 1 of
 * 1000-byte frames in one of bw_share 50. SQ 0: 200 000 * 64 * 8 = 102.4
 * Mbit/s, below its share of 266.7; SQ 1 the 297.6 left.
 */
static void
test_pps_leaf(void)
{
	static const double want[2] = { 102.4, 297.6 };
	struct mlx5_tm_pp *pp;
	struct elem e[4];
	struct flow f[2];
	struct t_dev d;
	double pps;

	memset(f, 0, sizeof(f));
	f[0].len = 64;
	CHECK(t_open_kv(&d, "cx6dx", NULL, NULL) == 0, "open");
	pp = t_pp(&d, 200000, 0, MLX5_PP_RATE_MODE_WQE_RATE, 0, 0);
	CHECK(pp != NULL && tsar(&d, &e[0], 0, 0, 0) == 0 &&
	      tsar(&d, &e[1], e[0].id, 0, 400) == 0 &&
	      group(&d, &e[2], e[1].id, 100, 0) == 0 &&
	      group(&d, &e[3], e[1].id, 50, 0) == 0, "tree");
	CHECK(sq_ready(&d, &f[0].s, (uint16_t)e[2].id, pp->index) == 0 &&
	      sq_ready(&d, &f[1].s, (uint16_t)e[3].id, 0) == 0, "SQs");
	flows_start(&d, f, 2);
	measure(&d, f, 2, 20, 220, want, "pps leaf");
	pps = (double)m.packets[0] / 0.2;
	CHECK(NEAR(pps, 200000, 0.005), "pps leaf: %.0f WQEs/s", pps);
	flows_end(&d, f, 2, "pps leaf");
	elems_destroy(&d, e, 4);
	d.g->pp_free(pp);
	t_close(&d);
}

/*
 * A committed rate with a peak, as the driver maps cir 200 / peak 250 of
 * a leaf beside an unlimited one under 1000 Mbit/s: queue groups of
 * bw_share 99:66 (600/400 under contention), the first SQ paced at 250. It
 * gets its 250, the other the 750 left.
 */
static void
test_cir_peak_leaf(void)
{
	static const double want[2] = { 250, 750 };
	struct mlx5_tm_pp *pp;
	struct elem e[4];
	struct flow f[2];
	struct t_dev d;

	memset(f, 0, sizeof(f));
	CHECK(t_open_kv(&d, "cx6dx", NULL, NULL) == 0, "open");
	pp = t_pp(&d, 250000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL && tsar(&d, &e[0], 0, 0, 0) == 0 &&
	      tsar(&d, &e[1], e[0].id, 0, 1000) == 0 &&
	      group(&d, &e[2], e[1].id, 99, 0) == 0 &&
	      group(&d, &e[3], e[1].id, 66, 0) == 0, "tree");
	CHECK(sq_ready(&d, &f[0].s, (uint16_t)e[2].id, pp->index) == 0 &&
	      sq_ready(&d, &f[1].s, (uint16_t)e[3].id, 0) == 0, "SQs");
	flows_start(&d, f, 2);
	measure(&d, f, 2, 20, 220, want, "cir+peak leaf");
	flows_end(&d, f, 2, "cir+peak leaf");
	elems_destroy(&d, e, 4);
	d.g->pp_free(pp);
	t_close(&d);
}

/*
 * Groups whose ceilings are above their shares share the line by weight,
 * with any frame sizes (the 100G examples on a 1 Gbit/s line, all
 * rates a hundredth). @p sizes 0: TSARs a and b at 800 Mbit/s of weights
 * 33:99, each over a queue group of two SQs, 1500-byte frames: the line
 * carries 1000 * 1500/1524 Mbit/s of frame bytes, a quarter to a, three
 * quarters to b, halved among their SQs. 1: TSARs at 900 of weight 100:100,
 * one SQ each, of 9000- and 1000-byte frames: equal frame bytes X with
 * X * (9024/9000 + 1024/1000) = 1000 on the line. Then a's SQs stop
 * posting for 100 ms (they drain, then have nothing to send) and come
 * back: from then on the same rates, a having banked no credit.
 */
static void
test_ceilings_share(int sizes)
{
	double want[4];
	struct elem e[5];
	struct flow f[4];
	struct t_dev d;
	const char *what = sizes ? "900/900 of 9000/1000 B" :
			   "800/800 weighted 1:3";
	uint32_t i, n = sizes ? 2 : 4;

	memset(f, 0, sizeof(f));
	if (sizes) {
		want[0] = 1000 / (9024.0 / 9000 + 1024.0 / 1000);
		want[1] = want[0];
		f[0].len = 9000;
		f[1].len = 1000;
	} else {
		double l2 = 1000.0 * 1500 / 1524;

		want[0] = want[1] = l2 / 4 / 2;
		want[2] = want[3] = l2 * 3 / 4 / 2;
		for (i = 0; i < 4; i++)
			f[i].len = 1500;
	}
	CHECK(t_open_kv(&d, "cx6dx", "line_rate=1G", "mtu=9000") == 0, "open");
	CHECK(tsar(&d, &e[0], 0, 0, 0) == 0 &&
	      tsar(&d, &e[1], e[0].id, sizes ? 100 : 33, sizes ? 900 : 800) ==
	      0 &&
	      tsar(&d, &e[2], e[0].id, sizes ? 100 : 99, sizes ? 900 : 800) ==
	      0 && group(&d, &e[3], e[1].id, 0, 0) == 0 &&
	      group(&d, &e[4], e[2].id, 0, 0) == 0, "tree");
	for (i = 0; i < n; i++)
		CHECK(sq_ready(&d, &f[i].s, (uint16_t)e[3 + i * 2 / n].id,
			       0) == 0, "SQ %u", i);
	flows_start(&d, f, n);
	measure(&d, f, n, 20, 220, want, what);
	for (i = 0; i < n / 2; i++)
		f[i].on = false;
	run_until(&d, f, n, 320 * MS);
	for (i = 0; i < n / 2; i++)
		f[i].on = true;
	measure(&d, f, n, 330, 430, want, sizes ? "a back, 9000/1000 B" :
		"a back, 1:3");
	flows_end(&d, f, n, what);
	elems_destroy(&d, e, 5);
	t_close(&d);
}

/*
 * The line without elements (ConnectX-5), packet-fair round robin: two
 * SQs paced at 600 Mbit/s on a 1 Gbit/s line, of 9000- and 1000-byte
 * frames, by a data-rate entry or (@p wqe_rate, on a ConnectX-6 Dx
 * without elements) by WQE-rate entries of the same rates (8333 and
 * 75000 WQEs/s). The first gets its 600 (its
 * pacing); the line never idles while the second has a packet its pacing
 * allows, so the second gets the rest: (1 - 0.6 * 9024/9000) * 1000 *
 * 1000/1024. Then the first stops: the second, alone, may not go above
 * its 600 beyond what it kept of its schedule (16 KiB or 256 WQEs, as
 * documented) and one frame.
 */
static void
test_flat_line_paced(bool wqe_rate)
{
	const double first = wqe_rate ? 8333 * 9000 * 8 / 1e6 : 600;
	double want[2] = { first,
			   (1 - first / 1000 * 9024 / 9000) * 1000 * 1000 /
			   1024 };
	const char *what = wqe_rate ? "two WQE-rate SQs on the line" :
			   "two paced SQs on the line";
	struct mlx5_tm_pp *pp[2];
	uint64_t t_stop, most;
	struct flow f[2];
	struct t_dev d;
	double alone[2];

	memset(f, 0, sizeof(f));
	f[0].len = 9000;
	f[1].len = 1000;
	f[0].inl = f[1].inl = 18;
	/* ConnectX-5 has no WQE-rate entries; a ConnectX-6 Dx line without
	 * elements is served the same way. */
	CHECK(t_open_kv(&d, wqe_rate ? "cx6dx" : "cx5", "line_rate=1G",
			"mtu=9000") == 0, "open");
	if (wqe_rate) {
		pp[0] = t_pp(&d, 8333, 0, MLX5_PP_RATE_MODE_WQE_RATE, 0, 0);
		pp[1] = t_pp(&d, 75000, 0, MLX5_PP_RATE_MODE_WQE_RATE, 0, 0);
	} else {
		pp[0] = t_pp(&d, 600000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
		pp[1] = pp[0];
	}
	if (pp[0] == NULL || pp[1] == NULL ||
	    sq_ready(&d, &f[0].s, 0, pp[0]->index) != 0 ||
	    sq_ready(&d, &f[1].s, 0, pp[1]->index) != 0) {
		CHECK(false, "%s: pacing entries and SQs", what);
		if (pp[1] != NULL && pp[1] != pp[0])
			d.g->pp_free(pp[1]);
		if (pp[0] != NULL)
			d.g->pp_free(pp[0]);
		t_close(&d);
		return;
	}
	flows_start(&d, f, 2);
	measure(&d, f, 2, 20, 220, want, what);
	/* The first stops posting; the second alone from t_stop on. */
	f[0].on = false;
	t_stop = mlx5_emu_now_ns(d.emu);
	m.w0 = t_stop;
	m.w1 = t_stop + 100 * MS;
	memset(m.bytes, 0, sizeof(m.bytes));
	run_until(&d, f, 2, m.w1);
	most = 600000000ull / 8 / 10 + (wqe_rate ? 256 * 1000 : 16384) + 1000;
	CHECK(m.bytes[1] <= most, "alone: %" PRIu64 " bytes in 100 ms, at "
	      "most %" PRIu64 " (600 Mbit/s and what it kept)", m.bytes[1],
	      most);
	alone[0] = 0;
	alone[1] = 600;
	measure(&d, f, 2, t_stop / MS + 120, t_stop / MS + 220, alone,
		"alone at its pacing");
	flows_end(&d, f, 2, what);
	if (pp[1] != pp[0])
		d.g->pp_free(pp[1]);
	d.g->pp_free(pp[0]);
	t_close(&d);
}

/*
 * Limits at every level: a TSAR at 1000 Mbit/s over A (weight 100,
 * ceiling 200) and B (100). A: groups a1 (33) and a2 (99), a2's SQ paced
 * at 100; B: groups b1 (100, 9000-byte frames) and b2 (100, ceiling 300). A's
 * ceiling is below its share (500): A 200, of which a2 min(100, 150) and
 * a1 the 100 left; B 800, of which b2 min(300, 400) and b1 the 500 left.
 */
static void
test_nested_limits(void)
{
	static const double want[4] = { 100, 100, 500, 300 };
	struct mlx5_tm_pp *pp;
	struct elem e[8];
	struct flow f[4];
	struct t_dev d;
	uint32_t i;

	memset(f, 0, sizeof(f));
	f[2].len = 9000;
	CHECK(t_open_kv(&d, "cx7", "mtu=9000", NULL) == 0, "open");
	pp = t_pp(&d, 100000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL && tsar(&d, &e[0], 0, 0, 0) == 0 &&
	      tsar(&d, &e[1], e[0].id, 0, 1000) == 0 &&
	      tsar(&d, &e[2], e[1].id, 100, 200) == 0 &&
	      tsar(&d, &e[3], e[1].id, 100, 0) == 0 &&
	      group(&d, &e[4], e[2].id, 33, 0) == 0 &&
	      group(&d, &e[5], e[2].id, 99, 0) == 0 &&
	      group(&d, &e[6], e[3].id, 100, 0) == 0 &&
	      group(&d, &e[7], e[3].id, 100, 300) == 0, "tree");
	for (i = 0; i < 4; i++)
		CHECK(sq_ready(&d, &f[i].s, (uint16_t)e[4 + i].id,
			       i == 1 ? pp->index : 0) == 0, "SQ %u", i);
	flows_start(&d, f, 4);
	measure(&d, f, 4, 20, 220, want, "limits at every level");
	flows_end(&d, f, 4, "limits at every level");
	elems_destroy(&d, e, 8);
	d.g->pp_free(pp);
	t_close(&d);
}

/*
 * A heavy leaf paced just below its share among light siblings of large
 * frames: under a TSAR at 1000 Mbit/s, SQ 0 (1000-byte frames) in a
 * queue group of bw_share 100 paced at 920, below its share 1000 *
 * 100/107 = 934.6; seven SQs of 9000-byte frames in groups of bw_share 1.
 * Max-min: SQ 0 its 920, the others 80/7 each. Each sibling's packet
 * moves the TSAR's virtual time on by 9000 while SQ 0 waits for its
 * pacing; if that cost SQ 0 its place, it would wait for the seven
 * siblings' 63 KB each round, more than its pacing catches up.
 */
static void
test_heavy_paced_leaf(void)
{
	double want[MAX_FLOWS];
	struct mlx5_tm_pp *pp;
	struct elem e[2 + MAX_FLOWS];
	struct flow f[MAX_FLOWS];
	struct t_dev d;
	uint32_t i;

	memset(f, 0, sizeof(f));
	want[0] = 920;
	for (i = 1; i < MAX_FLOWS; i++) {
		f[i].len = 9000;
		want[i] = 80.0 / (MAX_FLOWS - 1);
	}
	CHECK(t_open_kv(&d, "cx7", "mtu=9000", NULL) == 0, "open");
	pp = t_pp(&d, 920000, 0, MLX5_PP_RATE_MODE_DATA_RATE, 0, 0);
	CHECK(pp != NULL && tsar(&d, &e[0], 0, 0, 0) == 0 &&
	      tsar(&d, &e[1], e[0].id, 0, 1000) == 0, "tree");
	for (i = 0; i < MAX_FLOWS; i++)
		CHECK(group(&d, &e[2 + i], e[1].id, i == 0 ? 100 : 1, 0) == 0 &&
		      sq_ready(&d, &f[i].s, (uint16_t)e[2 + i].id,
			       i == 0 ? pp->index : 0) == 0, "SQ %u", i);
	flows_start(&d, f, MAX_FLOWS);
	measure(&d, f, MAX_FLOWS, 20, 2020, want, "heavy paced leaf");
	flows_end(&d, f, MAX_FLOWS, "heavy paced leaf");
	elems_destroy(&d, e, 2 + MAX_FLOWS);
	d.g->pp_free(pp);
	t_close(&d);
}

void
test_emu_sched(void)
{
	T_RUN(test_caps());
	T_RUN(test_commands());
	T_RUN(test_weights(0));
	T_RUN(test_weights(1));
	T_RUN(test_weights(2));
	T_RUN(test_nested());
	T_RUN(test_live_move());
	T_RUN(test_unattached(false));
	T_RUN(test_unattached(true));
	T_RUN(test_capped_leaf(50));
	T_RUN(test_capped_leaf(600));
	T_RUN(test_pps_leaf());
	T_RUN(test_cir_peak_leaf());
	T_RUN(test_ceilings_share(0));
	T_RUN(test_ceilings_share(1));
	T_RUN(test_flat_line_paced(false));
	T_RUN(test_flat_line_paced(true));
	T_RUN(test_nested_limits());
	T_RUN(test_heavy_paced_leaf());
}
