/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The scheduling layer's side of its seam with the queue layer: the one
 * writer of an SQ's pacing index and queue group. It gives each queue the
 * applied plan's values when the queue starts and when its SQ is re-armed
 * after an error, and the executor's (mlx5_tm_sched_apply.c) values when
 * the plan changes; it records what each SQ's context then holds, and
 * from that how many SQs each queue group holds (firmware refuses to
 * destroy a group an SQ is in). The queue layer (mlx5_tm_txq.h) takes the
 * values as arguments and reads no plan. Under the sched lock.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_txq.h"
#include "mlx5_tm_sched.h"
#include "mlx5_tm_sched_priv.h"

/*
 * What plan @p p sets for queue @p q, and the fields a MODIFY_SQ sends to
 * its SQ, which holds s->sqs[q]: those that change. A queue can only be
 * in a group on a device with NIC scheduling, so bit 2 never goes to one
 * without (ConnectX-5, a VF), whose firmware may refuse it; a queue
 * without pacing whose SQ holds none sends no bit 0.
 */
static void
queue_want(const struct mlx5_tm_sched *s, const struct tm_plan *p,
	   uint16_t q, struct mlx5_tm_txq_sched *t)
{
	const struct tm_queue *tq = tm_plan_queue(p, q);
	const struct mlx5_tm_sched_sq *held = &s->sqs[q];
	struct mlx5_tm_sq_sched *sq = &t->sq;

	memset(t, 0, sizeof(*t));
	/* Where firmware refuses both, the group's ceiling holds it. */
	if (tq->shaped && !(s->pp_group_refused && tq->group != TM_PLAN_NONE))
		sq->pp_index = mlx5_tm_pacing_index(s->pacing, tq->entry);
	if (tq->group != TM_PLAN_NONE)
		/* Checked when created (elem_create): 16 bits. */
		sq->qos_group_id = (uint16_t)p->elems[tq->group].hw_id;
	t->wqe_rate = tq->shaped && tq->ctx.rate_mode == PACING_RATE_MODE_WQE;
	t->suspended = tq->suspended;
	sq->set_pp = sq->pp_index != held->pp_index;
	sq->set_group = sq->qos_group_id != held->group;
}

/* The SQ of queue @p q now holds @p sq's values (0, 0: no SQ). */
static void
sq_holds(struct mlx5_tm_sched *s, uint16_t q, const struct mlx5_tm_sq_sched *sq)
{
	struct mlx5_tm_sched_sq *held;

	if (s == NULL)
		return; /* Port closed: nothing is tracked any more. */
	held = &s->sqs[q];
	if (held->group != 0)
		s->group_sqs[held->group]--;
	if (sq->qos_group_id != 0)
		s->group_sqs[sq->qos_group_id]++;
	held->pp_index = sq->pp_index;
	held->group = sq->qos_group_id;
}

/*
 * The device refused (@p ret) to give queue @p q both a queue group and
 * a pacing index (@p t): whether no SQ in a group is to have an index
 * from now on, said once in the log (and in telemetry). No public code
 * shows firmware taking an index inside a group (Linux's HTB gives its
 * SQs none, rdma-core attaches with bit 2 alone); the group's ceiling,
 * the leaf's peak rounded up to whole Mbit/s, holds the queue then.
 */
static bool
pp_group_refused(struct mlx5_tm_sched *s, uint16_t q,
		 const struct mlx5_tm_txq_sched *t, int ret)
{
	/* BAD_PARAM (-EINVAL), not any failure: a fault is no refusal. */
	if (ret != -EINVAL || s->pp_group_refused || t->sq.pp_index == 0 ||
	    t->sq.qos_group_id == 0)
		return false;
	s->pp_group_refused = true;
	MLX5_TM_TXQ_LOG(WARNING, s->dev->data->port_id, q,
			"the device refused a pacing index on an SQ in a queue group (%s): SQs in queue groups join them without one, each shaped leaf held by its group's ceiling alone, its peak rounded up to whole Mbit/s",
			strerror(-ret));
	return true;
}

/* The refusal was not that one: as before it. */
static void
pp_group_unrefused(struct mlx5_tm_sched *s)
{
	s->pp_group_refused = false;
	MLX5_TM_PORT_LOG(WARNING, s->dev->data->port_id,
			 "the device refused the SQ without a pacing index too: not the pacing index's refusal, SQs in queue groups keep theirs");
}

int
mlx5_tm_sched_txq_start(struct rte_eth_dev *dev, uint16_t qid)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);
	struct mlx5_tm_txq_sched t;
	int ret;

	queue_want(s, &s->applied, qid, &t);
	ret = mlx5_tm_txq_start(dev->data->tx_queues[qid], &t);
	if (pp_group_refused(s, qid, &t, ret)) {
		queue_want(s, &s->applied, qid, &t);
		ret = mlx5_tm_txq_start(dev->data->tx_queues[qid], &t);
		if (ret < 0)
			pp_group_unrefused(s);
	}
	if (ret == 0)
		sq_holds(s, qid, &t.sq);
	return ret;
}

void
mlx5_tm_sched_txq_stop(struct rte_eth_dev *dev, uint16_t qid)
{
	static const struct mlx5_tm_sq_sched none;

	if (dev->data->tx_queues[qid] != NULL)
		mlx5_tm_txq_stop(dev->data->tx_queues[qid]);
	sq_holds(mlx5_tm_sched_get(dev), qid, &none);
}

void
mlx5_tm_sched_recover(struct rte_eth_dev *dev)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);
	struct mlx5_tm_sq_sched held;
	struct mlx5_tm_txq_sched t;
	uint16_t q;

	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct mlx5_tm_txq *txq = dev->data->tx_queues[q];

		if (txq == NULL || !mlx5_tm_txq_recover(txq))
			continue;
		queue_want(s, &s->applied, q, &t);
		if (mlx5_tm_txq_rearm(txq, &t, &held) >= 0)
			sq_holds(s, q, &held);
	}
	/* Groups that SQs made ready again have left. */
	mlx5_tm_sched_reap(dev);
}

int
mlx5_tm_sched_queue_set(struct mlx5_tm_sched *s, const struct tm_plan *p,
			uint16_t q)
{
	struct mlx5_tm_txq_sched t;
	int ret;

	queue_want(s, p, q, &t);
	ret = mlx5_tm_txq_set_sched(s->dev, q, &t);
	if (pp_group_refused(s, q, &t, ret)) {
		int r;

		queue_want(s, p, q, &t);
		r = mlx5_tm_txq_set_sched(s->dev, q, &t);
		if (r < 0)
			pp_group_unrefused(s);
		else
			ret = r;
	}
	if (ret == 0)
		sq_holds(s, q, &t.sq);
	return ret < 0 ? ret : 0;
}

int
mlx5_tm_sched_queue_evict(struct mlx5_tm_sched *s, const struct tm_plan *p,
			  uint16_t q)
{
	struct mlx5_tm_txq_sched t;
	int ret;

	queue_want(s, p, q, &t);
	t.sq.qos_group_id = 0;
	t.sq.set_group = s->sqs[q].group != 0;
	ret = mlx5_tm_txq_set_sched(s->dev, q, &t);
	if (ret == 0)
		sq_holds(s, q, &t.sq);
	return ret < 0 ? ret : 0;
}

int
mlx5_tm_sched_group_track(struct mlx5_tm_sched *s, uint32_t hw_id)
{
	uint32_t n = s->group_sqs_cap;
	uint16_t *c;

	/* Callers pass 16-bit ids only (elem_create): n stays finite. */
	if (hw_id < n)
		return 0;
	if (hw_id > UINT16_MAX)
		return -ERANGE;
	while (n <= hw_id)
		n = n != 0 ? n * 2 : 64;
	c = realloc(s->group_sqs, n * sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	memset(c + s->group_sqs_cap, 0, (n - s->group_sqs_cap) * sizeof(*c));
	s->group_sqs = c;
	s->group_sqs_cap = n;
	return 0;
}
