/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The device side of NIC scheduling (mlx5_tm_devx_sched.c and the SQ's
 * queue group in mlx5_tm_devx.c) against the device model (cx6dx, virtual
 * time): elements created, queried and modified, read back through the
 * model's introspection; SQs joining and moving between groups while
 * ready, at creation and RST->RDY; the model's refusals and injected
 * faults surfacing as negative errno with a logged syndrome.
 *
 * Usage: test_tm_devx_sched [EAL args]
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "mlx5_emu.h"
#include "mlx5_tm_devx.h"
#include "mlx5_tm_devx_sched.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_tx.h"
#include "rte_pmd_mlx5_tm.h"
#include "tm_check.h"
#include "test_eal.h"

unsigned int tm_check_passed;
unsigned int tm_check_failed;

#define PORT_NAME "net_mlx5_tm_devx_sched"
#define RING 256

static struct mlx5_tm_priv *priv;
static struct mlx5_emu *emu;
static struct mlx5_tm_txq *txq[2];

/* The PMD's log, written to a file the checks read. */
static FILE *log_file;
static long log_mark;

/* Start a new stretch of log for log_has(). */
static void
log_start(void)
{
	fflush(log_file);
	log_mark = ftell(log_file);
}

/* Whether the log since log_start() holds @p needle. */
static bool
log_has(const char *needle)
{
	char line[512];
	bool found = false;
	long end;

	fflush(log_file);
	end = ftell(log_file);
	fseek(log_file, log_mark, SEEK_SET);
	while (!found && fgets(line, sizeof(line), log_file) != NULL)
		found = strstr(line, needle) != NULL;
	fseek(log_file, end, SEEK_SET);
	return found;
}

/* The whole log, to stdout, for a failed run. */
static void
log_dump(void)
{
	char line[512];

	printf("--- PMD log ---\n");
	fflush(log_file);
	rewind(log_file);
	while (fgets(line, sizeof(line), log_file) != NULL)
		fputs(line, stdout);
}

/* Whether the log since log_start() names the firmware's @p syndrome. */
static bool
log_has_syndrome(uint32_t syndrome)
{
	char s[32];

	snprintf(s, sizeof(s), "syndrome 0x%x)", syndrome);
	return log_has(s);
}

/* A scheduling element made by the driver. */
struct elem {
	struct mlx5_tm_devx_obj *obj;
	uint32_t id;
};

static int
elem_create(struct elem *e, uint8_t type, uint32_t parent, uint32_t bw_share,
	    uint32_t max_bw)
{
	struct mlx5_tm_sched_elem_attr a = {
		.element_type = type,
		.parent_id = parent,
		.bw_share = bw_share,
		.max_average_bw = max_bw,
	};

	e->obj = NULL;
	e->id = 0;
	return mlx5_tm_devx_sched_create(priv, &a, &e->obj, &e->id);
}

static int
elem_destroy(struct elem *e)
{
	int ret = mlx5_tm_devx_sched_destroy(priv, e->obj, e->id);

	if (ret == 0)
		e->obj = NULL;
	return ret;
}

/* Move the ready SQ of queue @p q into group @p group (0: none). */
static int
sq_join(unsigned int q, uint16_t group)
{
	struct mlx5_tm_sq_sched s = { .set_group = true,
				      .qos_group_id = group };

	return mlx5_tm_devx_sq_modify_sched(priv, txq[q]->sq_obj,
					    txq[q]->sqn, MLX5_SQC_STATE_RDY,
					    MLX5_SQC_STATE_RDY, &s);
}

static uint16_t
sq_group(uint32_t sqn)
{
	struct mlx5_emu_sq_info si;

	if (mlx5_emu_sq_get(emu, sqn, &si) != 0)
		return UINT16_MAX;
	return si.qos_queue_group_id;
}

/* Syndrome of the model's last failed command. */
static uint32_t
last_syndrome(void)
{
	struct mlx5_emu_cmd_error err;

	mlx5_emu_last_cmd_error(emu, &err);
	return err.syndrome;
}

static uint64_t
cmd_count(void)
{
	uint64_t count, ns;

	mlx5_emu_cmd_stats(emu, &count, &ns);
	return count;
}

/* Whether element @p e holds these values, in firmware and in the model. */
static bool
elem_holds(const struct elem *e, uint8_t type, uint32_t parent,
	   uint32_t bw_share, uint32_t max_bw, uint8_t depth)
{
	struct mlx5_tm_sched_elem_attr a;
	struct mlx5_emu_sched_info mi;

	if (mlx5_tm_devx_sched_query(priv, e->obj, e->id, &a) != 0 ||
	    mlx5_emu_sched_get(emu, e->id, &mi) != 0)
		return false;
	return a.element_type == type && a.parent_id == parent &&
	       a.bw_share == bw_share && a.max_average_bw == max_bw &&
	       mi.element_type == type && mi.parent_id == parent &&
	       mi.bw_share == bw_share && mi.max_average_bw == max_bw &&
	       mi.depth == depth &&
	       (type != MLX5_SCHED_ELEM_TYPE_TSAR ||
		mi.tsar_type == MLX5_TSAR_TYPE_DWRR);
}

/* ---- the cases; each leaves no element behind ---- */

/* root -> port TSAR -> TSAR -> two groups; SQs join, move, leave. */
static void
test_tree(void)
{
	struct mlx5_tm_sq_sched s = { 0 };
	struct elem port, tsar, ga, gb;
	struct mlx5_emu_sched_info list[8];
	struct mlx5_tm_pp *pp;
	uint32_t ctx[MLX5_ST_SZ_DW(set_pp_rate_limit_context)] = { 0 };
	char what[64];
	uint64_t n;

	CHECK(elem_create(&port, MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0) == 0 &&
	      port.id != 0, "port TSAR under the device root");
	CHECK(elem_create(&tsar, MLX5_SCHED_ELEM_TYPE_TSAR, port.id, 0,
			  400) == 0, "TSAR at 400 Mbit/s under the port TSAR");
	CHECK(elem_create(&ga, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, tsar.id, 2,
			  0) == 0, "group A, bw_share 2");
	CHECK(elem_create(&gb, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, tsar.id, 5,
			  0) == 0, "group B, bw_share 5");
	CHECK(ga.id != gb.id && ga.id != tsar.id && tsar.id != port.id &&
	      ga.id <= UINT16_MAX && gb.id <= UINT16_MAX,
	      "distinct ids, groups within 16 bits: %u %u %u %u", port.id,
	      tsar.id, ga.id, gb.id);
	CHECK(mlx5_emu_sched_list(emu, list, 8) == 4, "the model holds 4");
	CHECK(elem_holds(&port, MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0, 1),
	      "port TSAR read back (query, model)");
	CHECK(elem_holds(&tsar, MLX5_SCHED_ELEM_TYPE_TSAR, port.id, 0, 400, 2),
	      "TSAR read back");
	CHECK(elem_holds(&ga, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, tsar.id, 2, 0,
			 3), "group A read back");
	CHECK(elem_holds(&gb, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, tsar.id, 5, 0,
			 3), "group B read back");

	/* Modify: each bit alone, then both. */
	CHECK(mlx5_tm_devx_sched_modify(priv, tsar.obj, tsar.id,
			MLX5_SCHED_ELEM_TYPE_TSAR,
			MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW, 99,
			250) == 0 &&
	      elem_holds(&tsar, MLX5_SCHED_ELEM_TYPE_TSAR, port.id, 0, 250, 2),
	      "max_average_bw alone: 250, bw_share untouched");
	CHECK(mlx5_tm_devx_sched_modify(priv, ga.obj, ga.id,
			MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
			MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE, 3, 77) == 0 &&
	      elem_holds(&ga, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, tsar.id, 3, 0,
			 3), "bw_share alone: 3, max_average_bw untouched");
	CHECK(mlx5_tm_devx_sched_modify(priv, gb.obj, gb.id,
			MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
			MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE |
			MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW, 7,
			100) == 0 &&
	      elem_holds(&gb, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, tsar.id, 7,
			 100, 3), "both: 7 and 100 Mbit/s");

	/* SQ 0 joins A alone: one command, pacing index untouched. */
	n = cmd_count();
	CHECK(sq_join(0, (uint16_t)ga.id) == 0 && cmd_count() == n + 1 &&
	      sq_group(txq[0]->sqn) == ga.id, "ready SQ into group A");
	CHECK(mlx5_emu_sched_get(emu, ga.id, &list[0]) == 0 &&
	      list[0].nb_sqs == 1, "group A holds one SQ");

	/* SQ 0 to B with a new pacing index in ONE command. */
	MLX5_SET(set_pp_rate_limit_context, ctx, rate_limit, 100000);
	pp = priv->glue->pp_alloc(priv->gdev, sizeof(ctx), ctx, 0);
	CHECK(pp != NULL, "pacing entry at 100 Mbit/s");
	if (pp != NULL) {
		struct mlx5_emu_sq_info si;

		s.set_pp = true;
		s.pp_index = pp->index;
		s.set_group = true;
		s.qos_group_id = (uint16_t)gb.id;
		n = cmd_count();
		CHECK(mlx5_tm_devx_sq_modify_sched(priv, txq[0]->sq_obj,
				txq[0]->sqn, MLX5_SQC_STATE_RDY,
				MLX5_SQC_STATE_RDY, &s) == 0 &&
		      cmd_count() == n + 1,
		      "group and pacing index in one MODIFY_SQ");
		CHECK(mlx5_emu_sq_get(emu, txq[0]->sqn, &si) == 0 &&
		      si.qos_queue_group_id == gb.id &&
		      si.pp_index == pp->index &&
		      si.state == MLX5_SQC_STATE_RDY,
		      "SQ in group B, paced, still ready");
		/* Pacing index back to 0, the group kept. */
		CHECK(mlx5_tm_devx_sq_modify(priv, txq[0]->sq_obj,
				txq[0]->sqn, MLX5_SQC_STATE_RDY,
				MLX5_SQC_STATE_RDY, true, 0) == 0 &&
		      mlx5_emu_sq_get(emu, txq[0]->sqn, &si) == 0 &&
		      si.pp_index == 0 && si.qos_queue_group_id == gb.id,
		      "pacing index alone leaves the group");
		priv->glue->pp_free(pp);
	}
	CHECK(sq_join(1, (uint16_t)gb.id) == 0 &&
	      mlx5_emu_sched_get(emu, gb.id, &list[0]) == 0 &&
	      list[0].nb_sqs == 2, "SQ 1 also into B: two SQs");

	/* In use: a TSAR with children, a group with SQs. */
	/* DEVX gives no syndrome for a destroy: the model's is checked. */
	log_start();
	CHECK(elem_destroy(&tsar) == -EREMOTEIO &&
	      mlx5_emu_sched_get(emu, tsar.id, &list[0]) == 0 &&
	      last_syndrome() == MLX5_EMU_SYND_SCHED_IN_USE,
	      "TSAR with children: refused (in use), kept");
	snprintf(what, sizeof(what),
		 "DESTROY_GENERAL_OBJECT SCHEDULING_ELEMENT %u failed", tsar.id);
	CHECK(log_has(what), "refusal logged naming the element");
	CHECK(elem_destroy(&gb) == -EREMOTEIO &&
	      last_syndrome() == MLX5_EMU_SYND_SCHED_IN_USE,
	      "group with SQs: refused (in use)");

	/* Out of every group, then bottom-up. */
	CHECK(sq_join(0, 0) == 0 && sq_join(1, 0) == 0 &&
	      sq_group(txq[0]->sqn) == 0 && sq_group(txq[1]->sqn) == 0,
	      "SQs out of every group (0)");
	CHECK(elem_destroy(&ga) == 0 && elem_destroy(&gb) == 0 &&
	      elem_destroy(&tsar) == 0 && elem_destroy(&port) == 0,
	      "destroyed bottom-up");
	CHECK(mlx5_emu_sched_list(emu, list, 8) == 0, "the model holds none");
}

/* Bad parent, too deep, SQ into a TSAR: -EREMOTEIO, syndrome logged. */
static void
test_refusals(void)
{
	struct elem e[6], bad;
	unsigned int depth, i;
	int ret;

	log_start();
	ret = elem_create(&bad, MLX5_SCHED_ELEM_TYPE_TSAR, 4242, 0, 0);
	CHECK(ret == -EREMOTEIO && bad.obj == NULL, "bad parent: %d", ret);
	CHECK(log_has_syndrome(MLX5_EMU_SYND_SCHED_BAD_PARENT) &&
	      log_has("DWRR TSAR under 4242"),
	      "bad parent logged with the element and its syndrome");

	/* TSARs down to the depth cap (cx6dx: 4), then one more. */
	ret = 0;
	for (depth = 1; depth <= 4 && ret == 0; depth++)
		ret = elem_create(&e[depth - 1], MLX5_SCHED_ELEM_TYPE_TSAR,
				  depth == 1 ? 0 : e[depth - 2].id, 0,
				  depth == 1 ? 0 : 1000);
	CHECK(ret == 0, "4 levels of TSARs");
	log_start();
	ret = elem_create(&e[4], MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, e[3].id, 1,
			  0);
	CHECK(ret == -EREMOTEIO, "a fifth level: %d", ret);
	CHECK(log_has_syndrome(MLX5_EMU_SYND_SCHED_TOO_DEEP) &&
	      log_has("queue group under"), "too deep logged");

	log_start();
	{
		struct mlx5_tm_sq_sched s = { .set_group = true,
					      .qos_group_id = (uint16_t)e[1].id };

		ret = mlx5_tm_devx_sq_modify_sched(priv, txq[0]->sq_obj,
				txq[0]->sqn, MLX5_SQC_STATE_RDY,
				MLX5_SQC_STATE_RDY, &s);
	}
	/* BAD_PARAM: a field firmware does not take, -EINVAL. */
	CHECK(ret == -EINVAL && sq_group(txq[0]->sqn) == 0,
	      "SQ into a TSAR refused: %d", ret);
	CHECK(log_has_syndrome(MLX5_EMU_SYND_SCHED_BAD_GROUP) &&
	      log_has("RDY->RDY, queue group"), "SQ into a TSAR logged");

	log_start();
	CHECK(mlx5_tm_devx_sched_modify(priv, e[1].obj, e[1].id,
			MLX5_SCHED_ELEM_TYPE_TSAR,
			MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE, 1000,
			0) == -EREMOTEIO &&
	      log_has_syndrome(MLX5_EMU_SYND_BAD_FIELD) &&
	      log_has("bw_share 1000"),
	      "bw_share above max_tsar_bw_share refused and logged");

	for (i = 4; i > 0; i--)
		CHECK(elem_destroy(&e[i - 1]) == 0, "level %u destroyed", i);
}

/* CREATE_SQ carries no group; RST->RDY may (as Linux's mlx5e). */
static void
test_sq_create(void)
{
	const struct mlx5_tm_glue *g = priv->glue;
	struct mlx5_tm_cq_attr cqa = { .log_size = 6 };
	struct mlx5_tm_sq_attr sqa = { .log_size = 6 };
	struct mlx5_tm_devx_obj *cq = NULL, *sq1 = NULL, *sq2 = NULL;
	struct mlx5_tm_sq_sched s = { .set_group = true };
	struct mlx5_emu_sq_info si;
	struct mlx5_tm_umem *umem = NULL;
	struct mlx5_tm_uar *uar = NULL;
	struct elem port, grp;
	uint32_t cqn = 0, sqn1 = 0, sqn2 = 0, eqn = 0;
	void *buf = aligned_alloc(4096, 4 * 4096);

	CHECK(elem_create(&port, MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0) == 0 &&
	      elem_create(&grp, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, port.id, 1,
			  0) == 0, "a group under a port TSAR");
	if (buf != NULL) {
		memset(buf, 0, 4 * 4096);
		umem = g->devx_umem_reg(priv->gdev, buf, 4 * 4096,
					MLX5_TM_ACCESS_LOCAL_WRITE);
	}
	uar = g->devx_uar_alloc(priv->gdev);
	CHECK(umem != NULL && uar != NULL &&
	      g->devx_query_eqn(priv->gdev, 0, &eqn) == 0,
	      "memory, UAR and EQ for SQs of our own");
	if (umem == NULL || uar == NULL)
		goto out;
	cqa.uar_page = uar->page_id;
	cqa.eqn = eqn;
	cqa.umem_id = umem->umem_id;
	cqa.ring_off = 0;
	cqa.dbr_off = 3 * 4096;
	cq = mlx5_tm_devx_cq_create(priv, &cqa, &cqn);
	CHECK(cq != NULL, "CQ");
	if (cq == NULL)
		goto out;
	sqa.cqn = cqn;
	sqa.tisn = priv->tisn;
	sqa.pdn = priv->pd->pdn;
	sqa.uar_page = uar->page_id;
	sqa.umem_id = umem->umem_id;
	sqa.ring_off = 4096;
	sqa.dbr_off = 3 * 4096 + 64;
	sq1 = mlx5_tm_devx_sq_create(priv, &sqa, &sqn1);
	CHECK(sq1 != NULL && mlx5_emu_sq_get(emu, sqn1, &si) == 0 &&
	      si.qos_queue_group_id == 0 &&
	      si.state == MLX5_SQC_STATE_RST, "CREATE_SQ names no group");
	sqa.ring_off = 2 * 4096;
	sqa.dbr_off = 3 * 4096 + 128;
	sq2 = mlx5_tm_devx_sq_create(priv, &sqa, &sqn2);
	s.qos_group_id = (uint16_t)grp.id;
	CHECK(sq2 != NULL && sq_group(sqn2) == 0 &&
	      mlx5_tm_devx_sq_modify_sched(priv, sq2, sqn2, MLX5_SQC_STATE_RST,
					   MLX5_SQC_STATE_RDY, &s) == 0 &&
	      mlx5_emu_sq_get(emu, sqn2, &si) == 0 &&
	      si.qos_queue_group_id == grp.id &&
	      si.state == MLX5_SQC_STATE_RDY, "RST->RDY into the group");
out:
	if (sq1 != NULL)
		g->devx_obj_destroy(sq1);
	if (sq2 != NULL)
		g->devx_obj_destroy(sq2);
	if (cq != NULL)
		g->devx_obj_destroy(cq);
	if (umem != NULL)
		g->devx_umem_dereg(umem);
	if (uar != NULL)
		g->devx_uar_free(uar);
	free(buf);
	CHECK(elem_destroy(&grp) == 0 && elem_destroy(&port) == 0,
	      "group free once its SQs are gone");
}

/* Arm a fault on the @p nth command @p opcode, syndrome 0xf00 + opcode. */
static void
fault_arm(uint16_t opcode, uint32_t nth)
{
	struct mlx5_emu_fault_cmd f = {
		.opcode = opcode,
		.nth = nth,
		.status = MLX5_CMD_STAT_NO_RES_ERR,
		.syndrome = 0xf00u + opcode,
	};

	if (mlx5_emu_fault_cmd(emu, &f) != 0)
		CHECK(false, "arm fault on 0x%x", opcode);
	log_start();
}

/* Every scheduling command and MODIFY_SQ fails at the nth call, cleanly. */
static void
test_faults(void)
{
	struct elem port, g1, g2;
	struct mlx5_emu_sched_info mi;
	int ret;

	CHECK(elem_create(&port, MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0) == 0,
	      "port TSAR");

	fault_arm(MLX5_CMD_OP_CREATE_GENERAL_OBJECT, 2);
	CHECK(elem_create(&g1, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, port.id, 1,
			  0) == 0, "1st create passes");
	ret = elem_create(&g2, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, port.id, 1,
			  0);
	CHECK(ret == -EREMOTEIO && g2.obj == NULL &&
	      mlx5_emu_sched_list(emu, NULL, 0) == 2 &&
	      log_has_syndrome(0xf00u + MLX5_CMD_OP_CREATE_GENERAL_OBJECT),
	      "2nd create fails, nothing made, logged: %d", ret);

	fault_arm(MLX5_CMD_OP_MODIFY_GENERAL_OBJECT, 1);
	CHECK(mlx5_tm_devx_sched_modify(priv, g1.obj, g1.id,
			MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
			MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE, 9,
			0) == -EREMOTEIO &&
	      mlx5_emu_sched_get(emu, g1.id, &mi) == 0 && mi.bw_share == 1 &&
	      log_has_syndrome(0xf00u + MLX5_CMD_OP_MODIFY_GENERAL_OBJECT),
	      "modify fails, value kept, logged");

	fault_arm(MLX5_CMD_OP_MODIFY_SQ, 1);
	CHECK(sq_join(0, (uint16_t)g1.id) == -EREMOTEIO &&
	      sq_group(txq[0]->sqn) == 0 &&
	      log_has_syndrome(0xf00u + MLX5_CMD_OP_MODIFY_SQ),
	      "MODIFY_SQ fails, SQ stays out, logged");
	CHECK(sq_join(0, (uint16_t)g1.id) == 0 && sq_join(0, 0) == 0,
	      "one-shot: the next MODIFY_SQ passes");

	fault_arm(MLX5_CMD_OP_DESTROY_GENERAL_OBJECT, 1);
	CHECK(elem_destroy(&g1) < 0 &&
	      mlx5_emu_sched_get(emu, g1.id, &mi) == 0 &&
	      log_has("DESTROY_GENERAL_OBJECT SCHEDULING_ELEMENT"),
	      "destroy fails, element and handle kept, logged");
	CHECK(elem_destroy(&g1) == 0 && elem_destroy(&port) == 0 &&
	      mlx5_emu_sched_list(emu, NULL, 0) == 0,
	      "retried destroy passes, nothing left");
}

/*
 * The hardware path sends no legacy scheduling opcode (0x782-0x785): with
 * each failing at its first use, elements are still created, modified,
 * queried and destroyed, and the armed fault never fires.
 */
static void
test_no_legacy(void)
{
	static const uint16_t legacy[] = {
		MLX5_CMD_OP_CREATE_SCHEDULING_ELEMENT,
		MLX5_CMD_OP_DESTROY_SCHEDULING_ELEMENT,
		MLX5_CMD_OP_QUERY_SCHEDULING_ELEMENT,
		MLX5_CMD_OP_MODIFY_SCHEDULING_ELEMENT,
	};
	struct mlx5_emu_cmd_error before, after;
	struct elem port, grp;
	unsigned int i;

	for (i = 0; i < RTE_DIM(legacy); i++) {
		fault_arm(legacy[i], 1);
		mlx5_emu_last_cmd_error(emu, &before);
		CHECK(elem_create(&port, MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0,
				  0) == 0 &&
		      elem_create(&grp, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
				  port.id, 1, 0) == 0 &&
		      mlx5_tm_devx_sched_modify(priv, grp.obj, grp.id,
				MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
				MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE, 4,
				0) == 0 &&
		      elem_holds(&grp, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
				 port.id, 4, 0, 2) &&
		      elem_destroy(&grp) == 0 && elem_destroy(&port) == 0,
		      "opcode 0x%x failing: elements made, changed, read and "
		      "destroyed all the same", legacy[i]);
		mlx5_emu_last_cmd_error(emu, &after);
		CHECK(after.count == before.count, "opcode 0x%x never sent",
		      legacy[i]);
	}
	fault_arm(0, 0);
}

/* The model's status of the last failed command (0: none failed). */
static uint8_t
last_status(void)
{
	struct mlx5_emu_cmd_error err;

	mlx5_emu_last_cmd_error(emu, &err);
	return err.status;
}

/*
 * The model's rules for the general object: its size per type, a type
 * it does not have, modify_field_select, DEVX's "an object command names
 * its own object"; and the legacy form, which it still accepts (the
 * kernel's own mlx5_core sends it) though the driver never does.
 */
static void
test_general_object_rules(void)
{
	const struct mlx5_tm_glue *g = priv->glue;
	uint32_t in[MLX5_ST_SZ_DW(create_sched_elem_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_sched_elem_out)] = { 0 };
	uint32_t lin[MLX5_ST_SZ_DW(create_scheduling_element_in)] = { 0 };
	uint32_t lout[MLX5_ST_SZ_DW(create_scheduling_element_out)] = { 0 };
	void *hdr = MLX5_ADDR_OF(create_sched_elem_in, in, hdr);
	void *elem = MLX5_ADDR_OF(create_sched_elem_in, in, sched_elem);
	struct mlx5_tm_devx_obj *o;
	struct elem a, b;
	int ret;

	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type, 0x25);
	MLX5_SET(sched_elem, elem, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	o = g->devx_obj_create(priv->gdev, in, sizeof(in), out,
			       MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	CHECK(o == NULL && errno == EREMOTEIO &&
	      last_status() == MLX5_CMD_STAT_BAD_PARAM_ERR,
	      "an object type the device does not have: BAD_PARAM");
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT);
	o = g->devx_obj_create(priv->gdev, in,
			       MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr), out,
			       MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	CHECK(o == NULL && last_status() == MLX5_CMD_STAT_BAD_INP_LEN_ERR,
	      "a create of the header alone: BAD_INP_LEN");
	CHECK(elem_create(&a, MLX5_SCHED_ELEM_TYPE_TSAR, 0, 0, 0) == 0 &&
	      elem_create(&b, MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, a.id, 1,
			  0) == 0, "a TSAR and a group");
	/* A modify through b's object naming a: DEVX refuses it. */
	memset(in, 0, sizeof(in));
	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_MODIFY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_id, a.id);
	MLX5_SET(sched_elem, elem, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	MLX5_SET64(sched_elem, elem, modify_field_select,
		   MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE);
	ret = g->devx_obj_modify(b.obj, in, sizeof(in), out,
				 MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	CHECK(ret == -EINVAL, "a modify naming another object: %d", ret);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_id, b.id);
	MLX5_SET64(sched_elem, elem, modify_field_select, 0x4);
	ret = g->devx_obj_modify(b.obj, in, sizeof(in), out,
				 MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	CHECK(ret == -EREMOTEIO &&
	      last_status() == MLX5_CMD_STAT_BAD_PARAM_ERR,
	      "modify_field_select bit 2 (no such field): %d", ret);
	memset(in, 0, sizeof(in));
	MLX5_SET(general_obj_in_cmd_hdr, hdr, opcode,
		 MLX5_CMD_OP_QUERY_GENERAL_OBJECT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_type,
		 MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT);
	MLX5_SET(general_obj_in_cmd_hdr, hdr, obj_id, b.id);
	ret = g->devx_obj_query(b.obj, in,
				MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr), out,
				MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr));
	CHECK(ret == -EREMOTEIO &&
	      last_status() == MLX5_CMD_STAT_BAD_OUTP_LEN_ERR,
	      "a query into the header alone: BAD_OUTP_LEN");
	CHECK(elem_destroy(&b) == 0 && elem_destroy(&a) == 0, "destroyed");
	/* The legacy form: still accepted, the same element. */
	MLX5_SET(create_scheduling_element_in, lin, opcode,
		 MLX5_CMD_OP_CREATE_SCHEDULING_ELEMENT);
	MLX5_SET(create_scheduling_element_in, lin, scheduling_hierarchy,
		 MLX5_SCHEDULING_HIERARCHY_NIC);
	o = g->devx_obj_create(priv->gdev, lin, sizeof(lin), lout,
			       sizeof(lout));
	CHECK(o != NULL && mlx5_emu_sched_list(emu, NULL, 0) == 1 &&
	      g->devx_obj_destroy(o) == 0 &&
	      mlx5_emu_sched_list(emu, NULL, 0) == 0,
	      "the legacy CREATE_SCHEDULING_ELEMENT still accepted");
}

static int
port_open(void)
{
	struct rte_eth_conf conf;
	uint16_t id, q;

	memset(&conf, 0, sizeof(conf));
	if (rte_vdev_init(PORT_NAME, "emu=cx6dx,clock=virtual") != 0 ||
	    rte_eth_dev_get_port_by_name(PORT_NAME, &id) != 0 ||
	    rte_eth_dev_configure(id, 0, 2, &conf) != 0)
		return -1;
	for (q = 0; q < 2; q++)
		if (rte_eth_tx_queue_setup(id, q, RING, rte_socket_id(),
					   NULL) != 0)
			return -1;
	/* Taking the model makes this program the driver of virtual time. */
	emu = rte_pmd_mlx5_tm_emu(id);
	if (emu == NULL || rte_eth_dev_start(id) != 0)
		return -1;
	priv = mlx5_tm_priv(&rte_eth_devices[id]);
	for (q = 0; q < 2; q++)
		txq[q] = rte_eth_devices[id].data->tx_queues[q];
	return txq[0]->live && txq[1]->live ? id : -1;
}

int
main(int argc, char **argv)
{
	int port;

	if (rte_eal_init(argc, argv) < 0) {
		printf("EAL init failed\n");
		return 1;
	}
	log_file = tmpfile();
	if (log_file == NULL || rte_openlog_stream(log_file) != 0) {
		printf("no log file\n");
		return 1;
	}
	port = port_open();
	CHECK(port >= 0, "port on cx6dx with 2 ready SQs");
	if (port >= 0) {
		TM_CASE(test_tree());
		TM_CASE(test_refusals());
		TM_CASE(test_sq_create());
		TM_CASE(test_faults());
		TM_CASE(test_no_legacy());
		TM_CASE(test_general_object_rules());
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	rte_vdev_uninit(PORT_NAME);
	rte_openlog_stream(NULL);
	if (tm_check_failed != 0)
		log_dump();
	fclose(log_file);
	test_eal_cleanup();
	return tm_check_report();
}
