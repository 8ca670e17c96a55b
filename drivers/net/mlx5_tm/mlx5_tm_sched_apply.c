/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The executor of a plan difference (lib/tm): the steps in the order of
 * the difference: elements created top-down and modified, new pacing
 * entries taken, each moved queue's MODIFY_SQ (group and pacing index
 * together) and suspension, through mlx5_tm_sched_queue_set() (its one
 * step into the queue layer), unused elements destroyed bottom-up (or
 * kept while an SQ in error recovery is still in them: it joins its new
 * group when made ready again), old pacing entries released (freed with
 * their last user). A failure undoes the steps taken, newest first; a
 * release, last, cannot fail.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devx_sched.h"
#include "mlx5_tm_sched_priv.h"

/*
 * The executor's own step: a queue out of its old group, its pacing
 * kept, before that group is destroyed to make room (capacity_order()).
 */
#define EXEC_OP_EVICT 0x80

/* One apply: the two plans and their difference (the port's buffers). */
struct exec {
	struct mlx5_tm_sched *s;
	struct tm_plan *old;
	struct tm_plan *new;
	struct tm_diff d;
	const struct tm_op *ops;  /* the steps in the order taken */
	uint32_t n_ops;
	struct tm_op *reordered;  /* allocated when capacity needs it */
	struct pacing_error perr; /* of a refused pacing entry */
	uint32_t wide_id;         /* a queue group's id beyond 16 bits */
};

/*
 * Distinct pacing entries the new plan holds once every queue moved, as
 * the port's table would share them: a shaped queue takes an entry of its
 * own unless one an earlier queue took serves it (pacing_ctx_serves()).
 * Counted without allocating (a refusal may be for want of memory), in
 * time quadratic in the queues, which only a refusal pays.
 */
static uint32_t
entries_needed(const struct exec *x)
{
	const struct mlx5_tm_pacing_args *conf =
		mlx5_tm_pacing_conf(x->s->pacing);
	const struct tm_queue *t = x->new->queues;
	uint64_t taker[MLX5_TM_MAX_TXQ / 64] = { 0 };
	uint32_t n = 0;
	uint16_t q, r;

	for (q = 0; q < RTE_MIN(x->new->nb_txq, MLX5_TM_MAX_TXQ); q++) {
		if (!t[q].shaped)
			continue;
		for (r = 0; !conf->dedicated && r < q; r++)
			if ((taker[r / 64] >> (r % 64) & 1) &&
			    pacing_ctx_serves(&t[r].ctx, &t[q].ctx,
					      conf->rate_tolerance_ppm))
				break;
		if (conf->dedicated || r == q) {
			taker[q / 64] |= 1ull << (q % 64);
			n++;
		}
	}
	return n;
}

/* Explain a refused pacing entry: capacity, or the queue's entry. */
static void
explain_pace(struct exec *x, uint16_t q, int ret)
{
	struct mlx5_tm_sched *s = x->s;
	uint32_t table =
		mlx5_tm_priv(s->dev)->caps.packet_pacing_rate_table_size;
	struct pacing_table *t = mlx5_tm_pacing_table(s->pacing);

	if (x->perr.field == PACING_FIELD_TABLE_CAPACITY) {
		snprintf(s->msg, sizeof(s->msg),
			 "not enough pacing entries: the new rates need %u distinct entries (the old ones stay until their queues moved), %u fit (the device's rate table has %u entries, index 0 reserved)%s",
			 entries_needed(x), pacing_table_capacity(t), table,
			 mlx5_tm_pacing_conf(s->pacing)->dedicated ? "" :
			 " (queues with equal rates share an entry; see "
			 "devarg rate_tolerance_ppm)");
		return;
	}
	if (x->perr.field == PACING_FIELD_HW && ret == -ENOSPC) {
		/*
		 * Within our plan, yet full: the rest of the table is held
		 * by other users (the kernel netdev, other processes), which
		 * only a failed allocation reveals.
		 */
		snprintf(s->msg, sizeof(s->msg),
			 "the device's rate table is full: %u entries, %u held by this port, the rest by other users (index 0 is reserved; queue rate limits and rte_tm shapers of this port count alike)",
			 table, pacing_table_in_use(t));
		return;
	}
	s->fail_qid = q;
	snprintf(s->msg, sizeof(s->msg), "%s", x->perr.message);
}

/* Element @p e of @p p on the device, under its parent's device id. */
static int
elem_create(struct exec *x, struct tm_plan *p, struct tm_elem *e)
{
	const struct mlx5_tm_sched_elem_attr a = {
		.element_type = e->type == TM_ELEM_TSAR ?
			MLX5_SCHED_ELEM_TYPE_TSAR :
			MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
		.parent_id = e->parent == TM_PLAN_NONE ? 0 :
			     p->elems[e->parent].hw_id,
		.bw_share = e->bw_share,
		.max_average_bw = e->max_average_bw,
	};
	struct mlx5_tm_devx_obj *obj;
	int ret;

	ret = mlx5_tm_devx_sched_create(mlx5_tm_priv(x->s->dev), &a, &obj,
					&e->hw_id);
	/*
	 * An SQ names its group in 16 bits (sqc.qos_queue_group_id): a
	 * group firmware numbered above cannot hold one.
	 */
	if (ret == 0 && e->type == TM_ELEM_GROUP && e->hw_id > UINT16_MAX) {
		x->wide_id = e->hw_id;
		mlx5_tm_devx_sched_destroy(mlx5_tm_priv(x->s->dev), obj,
					   e->hw_id);
		ret = -ERANGE;
	} else if (ret == 0 && e->type == TM_ELEM_GROUP &&
		   mlx5_tm_sched_group_track(x->s, e->hw_id) != 0) {
		mlx5_tm_devx_sched_destroy(mlx5_tm_priv(x->s->dev), obj,
					   e->hw_id);
		ret = -ENOMEM;
	}
	if (ret == 0)
		e->hw = obj;
	return ret;
}

static int
elem_modify(struct exec *x, const struct tm_elem *e, const struct tm_elem *to)
{
	uint32_t mask = 0;

	if (e->bw_share != to->bw_share)
		mask |= MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE;
	if (e->max_average_bw != to->max_average_bw)
		mask |= MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW;
	return mlx5_tm_devx_sched_modify(mlx5_tm_priv(x->s->dev), e->hw,
					 e->hw_id, e->type == TM_ELEM_TSAR ?
					 MLX5_SCHED_ELEM_TYPE_TSAR :
					 MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP,
					 mask, to->bw_share,
					 to->max_average_bw);
}

/* Element @p e of @p p off the device, now or once no SQ is in it. */
static int
elem_destroy(struct exec *x, const struct tm_plan *p, struct tm_elem *e)
{
	int ret = mlx5_tm_sched_elem_release(x->s, e->hw, e->hw_id,
					     e->parent == TM_PLAN_NONE ? 0 :
					     p->elems[e->parent].hw_id);

	if (ret == 0)
		e->hw = NULL;
	return ret;
}

/* Element @p e of the old plan back: kept, or created again. */
static int
elem_restore(struct exec *x, struct tm_elem *e)
{
	e->hw = mlx5_tm_sched_elem_unkeep(x->s, e->hw_id);
	return e->hw != NULL ? 0 : elem_create(x, x->old, e);
}

/* Take queue @p q's new pacing entry. */
static int
pace(struct exec *x, uint16_t q)
{
	struct pacing_grant grant;
	int ret;

	ret = mlx5_tm_pacing_acquire(x->s->pacing,
				     mlx5_tm_pacing_table(x->s->pacing),
				     &x->new->queues[q].ctx, &grant, &x->perr);
	if (ret == 0)
		x->new->queues[q].entry = grant.entry_id;
	return ret;
}

/* Take step @p op forward (@p undo false) or back. */
static int
step(struct exec *x, const struct tm_op *op, bool undo)
{
	struct tm_elem *e;
	uint16_t q = (uint16_t)op->index;

	switch (op->type) {
	case TM_OP_CREATE:
		e = &x->new->elems[op->index];
		return undo ? elem_destroy(x, x->new, e) :
		       elem_create(x, x->new, e);
	case TM_OP_MODIFY:
		e = &x->new->elems[op->index];
		return undo ? elem_modify(x, e,
					  &x->old->elems[x->d.match[op->index]]) :
		       elem_modify(x, &x->old->elems[x->d.match[op->index]],
				   e);
	case TM_OP_PACE:
		if (undo) {
			mlx5_tm_pacing_release(x->s->pacing,
					       x->new->queues[q].entry);
			return 0;
		}
		return pace(x, q);
	case TM_OP_MOVE:
	case TM_OP_SUSPEND:
		return mlx5_tm_sched_queue_set(x->s, undo ? x->old : x->new, q);
	case EXEC_OP_EVICT:
		return undo ? mlx5_tm_sched_queue_set(x->s, x->old, q) :
		       mlx5_tm_sched_queue_evict(x->s, x->old, q);
	case TM_OP_DESTROY:
		/* Undone top-down: the old parent exists again first. */
		e = &x->old->elems[op->index];
		return undo ? elem_restore(x, e) : elem_destroy(x, x->old, e);
	default:
		/* The last steps: never undone, nothing after can fail. */
		mlx5_tm_pacing_release(x->s->pacing, x->old->queues[q].entry);
		return 0;
	}
}

static const char *const step_names[EXEC_OP_EVICT + 1] = {
	[TM_OP_CREATE] = "CREATE_GENERAL_OBJECT (scheduling element)",
	[TM_OP_MODIFY] = "MODIFY_GENERAL_OBJECT (scheduling element)",
	[TM_OP_MOVE] = "MODIFY_SQ",
	[TM_OP_SUSPEND] = "MODIFY_SQ (suspension)",
	[TM_OP_DESTROY] = "DESTROY_GENERAL_OBJECT (scheduling element)",
	[EXEC_OP_EVICT] = "MODIFY_SQ (out of its queue group)",
};

/* Say which step failed: the element's node, or the queue. */
static void
explain_step(struct exec *x, const struct tm_op *op, int ret)
{
	struct mlx5_tm_sched *s = x->s;
	const struct tm_elem *e;
	const struct tm_queue *t;

	if (op->type == TM_OP_PACE) {
		explain_pace(x, (uint16_t)op->index, ret);
		return;
	}
	if (op->type == TM_OP_MOVE) {
		t = tm_plan_queue(x->new, (uint16_t)op->index);
		s->fail_qid = (uint16_t)op->index;
		snprintf(s->msg, sizeof(s->msg), "the device refused "
			 "MODIFY_SQ (%s%s%s) for the queue: %s; every queue "
			 "keeps its previous rate",
			 t->group != TM_PLAN_NONE ? "into a queue group" : "",
			 t->group != TM_PLAN_NONE && t->shaped ? " with " : "",
			 t->shaped ? "a pacing index" :
			 t->group == TM_PLAN_NONE ? "pacing index 0" : "",
			 strerror(-ret));
		return;
	}
	if (op->type == EXEC_OP_EVICT) {
		s->fail_qid = (uint16_t)op->index;
		snprintf(s->msg, sizeof(s->msg), "the device refused "
			 "MODIFY_SQ out of the queue's group (to make room for "
			 "new groups: the device has too few for the old and "
			 "the new at once): %s; every queue keeps its previous "
			 "rate", strerror(-ret));
		return;
	}
	if (op->type == TM_OP_SUSPEND) {
		t = tm_plan_queue(x->new, (uint16_t)op->index);
		s->fail_qid = (uint16_t)op->index;
		snprintf(s->msg, sizeof(s->msg), "the device refused "
			 "MODIFY_SQ for the queue (%s it): %s; every queue "
			 "keeps its previous rate and suspension",
			 t->suspended ? "suspending" : "resuming",
			 strerror(-ret));
		return;
	}
	e = op->type == TM_OP_DESTROY ? &x->old->elems[op->index] :
	    &x->new->elems[op->index];
	if (op->type == TM_OP_CREATE && ret == -ERANGE) {
		snprintf(s->msg, sizeof(s->msg), "firmware numbered the queue "
			 "group of node %" PRIu32 " %" PRIu32 ", beyond the 16 "
			 "bits of an SQ's qos_queue_group_id (0..65535), so no "
			 "SQ can join it: destroyed, the previous hierarchy "
			 "stays", e->node_id, x->wide_id);
		return;
	}
	snprintf(s->msg, sizeof(s->msg), "the device refused %s (%s of node "
		 "%" PRIu32 ", bw_share %" PRIu32 ", max_average_bw %" PRIu32
		 " Mbit/s): %s; the previous hierarchy stays",
		 step_names[op->type],
		 e->type == TM_ELEM_TSAR ? "TSAR" : "queue group", e->node_id,
		 e->bw_share, e->max_average_bw, strerror(-ret));
}

void
mlx5_tm_sched_explain(struct mlx5_tm_sched *s, const struct tm_op *op,
		      int ret)
{
	struct exec x = { .s = s, .old = &s->applied, .new = &s->next,
			  .d = s->diff };

	s->msg[0] = '\0';
	s->fail_qid = UINT16_MAX;
	explain_step(&x, op, ret);
}

/* What the new plan continues: elements and pacing entries. */
static void
inherit(struct exec *x)
{
	uint32_t i;
	uint16_t q;

	/* A live change: the rest of the copy has them already. */
	if (x->new->partial) {
		for (i = 0; i < x->new->n_touched_q; i++) {
			q = x->new->touched_q[i];
			x->new->queues[q].entry = x->new->queues[q].shaped ?
				tm_plan_queue(x->old, q)->entry : 0;
		}
		return;
	}
	for (i = 0; i < x->new->n_elems; i++)
		if (x->d.match[i] != TM_PLAN_NONE) {
			x->new->elems[i].hw = x->old->elems[x->d.match[i]].hw;
			x->new->elems[i].hw_id =
				x->old->elems[x->d.match[i]].hw_id;
		}
	/* A queue whose pacing changes gets its entry at TM_OP_PACE. */
	for (q = 0; q < x->new->nb_txq; q++)
		x->new->queues[q].entry = x->new->queues[q].shaped ?
					  tm_plan_queue(x->old, q)->entry : 0;
}

/*
 * Order the steps so that the device holds enough queue groups and
 * elements at every point. Make-before-break (the difference's order)
 * holds the old elements and the new ones at once; where that peak is
 * more than the device has, old queue groups that go are destroyed first,
 * their queues out of them meanwhile (break-before-make for those
 * queues alone), as many as make room. What still does not fit is
 * refused: -ENOSPC, s->msg naming the resource, the need and the limit.
 */
static int
capacity_order(struct exec *x)
{
	const struct tm_limits *lim = &x->s->hier.lim;
	uint32_t groups = x->old->n_groups, elems = x->old->n_elems;
	uint32_t i, n = 0, peak_g, peak_e;
	struct tm_op *ops;
	bool *early;
	uint16_t q;

	x->ops = x->d.ops;
	x->n_ops = x->d.n_ops;
	for (i = 0; i < x->d.n_ops; i++)
		if (x->d.ops[i].type == TM_OP_CREATE) {
			elems++;
			groups += x->new->elems[x->d.ops[i].index].type ==
				  TM_ELEM_GROUP;
		}
	if (!lim->sched || (groups <= lim->groups_max &&
			    elems <= lim->elements_max))
		return 0;
	peak_g = groups;
	peak_e = elems;
	ops = malloc(((size_t)x->d.n_ops + x->old->nb_txq) * sizeof(*ops));
	early = calloc(x->d.n_ops, sizeof(*early));
	if (ops == NULL || early == NULL) {
		free(ops);
		free(early);
		snprintf(x->s->msg, sizeof(x->s->msg), "no memory");
		return -ENOMEM;
	}
	for (i = 0; i < x->d.n_ops && (groups > lim->groups_max ||
				       elems > lim->elements_max); i++) {
		const struct tm_op *op = &x->d.ops[i];

		if (op->type != TM_OP_DESTROY ||
		    x->old->elems[op->index].type != TM_ELEM_GROUP)
			continue;
		for (q = 0; q < x->old->nb_txq; q++)
			if (x->old->queues[q].group == op->index)
				ops[n++] = (struct tm_op){
					.type = EXEC_OP_EVICT, .index = q };
		ops[n++] = *op;
		early[i] = true;
		groups--;
		elems--;
	}
	if (groups > lim->groups_max || elems > lim->elements_max) {
		snprintf(x->s->msg, sizeof(x->s->msg),
			 "not enough %s: the change needs %u at once even with the old queue groups destroyed first (%u with make-before-break), the device has %u",
			 groups > lim->groups_max ? "queue groups" :
			 "scheduling elements",
			 groups > lim->groups_max ? groups : elems,
			 groups > lim->groups_max ? peak_g : peak_e,
			 groups > lim->groups_max ? lim->groups_max :
			 lim->elements_max);
		free(ops);
		free(early);
		return -ENOSPC;
	}
	for (i = 0; i < x->d.n_ops; i++)
		if (!early[i])
			ops[n++] = x->d.ops[i];
	free(early);
	x->reordered = ops;
	x->ops = ops;
	x->n_ops = n;
	MLX5_TM_PORT_LOG(DEBUG, x->s->dev->data->port_id,
			 "%u queue groups and %u elements at once are more than the device has (%u, %u): old groups destroyed first",
			 peak_g, peak_e, lim->groups_max, lim->elements_max);
	return 0;
}

static int
execute(struct exec *x)
{
	struct mlx5_tm_sched *s = x->s;
	uint32_t i, j;
	int ret;

	/* Any element this apply destroys or undoes may have to be kept. */
	ret = mlx5_tm_sched_kept_reserve(s, x->n_ops);
	if (ret != 0) {
		snprintf(s->msg, sizeof(s->msg), "no memory");
		return ret;
	}
	for (i = 0; i < x->n_ops; i++) {
		ret = step(x, &x->ops[i], false);
		if (ret == 0)
			continue;
		explain_step(x, &x->ops[i], ret);
		for (j = i; j-- > 0;) {
			int r = step(x, &x->ops[j], true);

			if (r != 0)
				MLX5_TM_PORT_LOG(ERR, s->dev->data->port_id,
						 "undoing %s of element or queue %u: %s",
						 step_names[x->ops[j].type] ?
						 step_names[x->ops[j].type] :
						 "a step", x->ops[j].index,
						 strerror(-r));
		}
		return ret;
	}
	return 0;
}

int
mlx5_tm_sched_apply(struct mlx5_tm_sched *s)
{
	struct exec x = { .s = s, .old = &s->applied, .new = &s->next,
			  .d = s->diff };
	struct tm_plan done;
	int ret;

	s->msg[0] = '\0';
	s->fail_qid = UINT16_MAX;
	ret = tm_plan_diff(x.old, x.new, &x.d);
	if (ret != 0)
		snprintf(s->msg, sizeof(s->msg), "no memory");
	if (ret == 0)
		inherit(&x);
	if (ret == 0 && x.d.n_ops > 0)
		ret = capacity_order(&x);
	if (ret == 0 && x.d.n_ops > 0)
		ret = execute(&x);
	free(x.reordered);
	s->diff = x.d;
	/* After a live change, s->next is s->applied's copy again. */
	if (ret != 0) {
		if (s->next.partial)
			tm_plan_mirror(&s->next, &s->applied);
		return ret;
	}
	/* The old plan's buffers serve the next change. */
	done = s->applied;
	s->applied = s->next;
	s->next = done;
	if (s->applied.partial)
		tm_plan_mirror(&s->next, &s->applied);
	return 0;
}
