/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Moving Tx queues to new rates, all or nothing: one pacing-library
 * transaction takes every entry needed (new ones allocated on the device
 * at prepare), then each changed queue gets its index (stored for
 * CREATE_SQ, or MODIFY_SQ on a live queue), then the entries left without
 * users are released. A failure anywhere puts every queue back.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_txq.h"
#include "mlx5_tm_sched_priv.h"

/* One queue's move in mlx5_tm_sched_apply(). */
struct apply_change {
	uint16_t qid;
	uint64_t new_entry;  /* 0: unlimited */
	uint16_t old_index;  /* to restore on failure */
};

/*
 * The queues an apply looks at: [first, end), with t[q - first] the
 * target of queue q. A single-queue change thus costs no work for the
 * other queues.
 */
struct apply_range {
	const struct mlx5_tm_sched_target *t;
	uint16_t first;
	uint16_t end;
};

static const struct mlx5_tm_sched_target *
target(const struct apply_range *r, uint16_t q)
{
	return &r->t[q - r->first];
}

/* The first changing queue that asked for @p ctx. */
static uint16_t
queue_of_ctx(const struct apply_range *r, const struct pacing_ctx *ctx)
{
	uint16_t q;

	for (q = r->first; q < r->end; q++)
		if (target(r, q)->change && target(r, q)->shaped &&
		    pacing_ctx_equal(&target(r, q)->ctx, ctx))
			return q;
	return UINT16_MAX;
}

/* Stage the acquisitions and releases; fills @p ch, returns the count. */
static int
apply_stage(struct mlx5_tm_sched *s, struct pacing_txn *txn,
	    const struct apply_range *r, struct apply_change *ch,
	    uint32_t *n)
{
	struct pacing_error perr;
	struct pacing_grant grant;
	uint16_t q;
	int ret;

	*n = 0;
	for (q = r->first; q < r->end; q++) {
		const struct mlx5_tm_sched_txq *cur = &s->txq[q];
		const struct mlx5_tm_sched_target *t = target(r, q);
		uint64_t new_entry = 0;

		if (!t->change)
			continue;
		if (t->shaped == (cur->entry_id != 0) &&
		    (!t->shaped || pacing_ctx_equal(&t->ctx, &cur->ctx)))
			continue;
		if (t->shaped) {
			ret = mlx5_tm_pacing_acquire(s->pacing, txn, q,
						     &t->ctx, &grant, &perr);
			if (ret != 0) {
				s->fail_qid = q;
				snprintf(s->msg, sizeof(s->msg), "%s",
					 perr.message);
				return ret;
			}
			new_entry = grant.entry_id;
		}
		if (cur->entry_id != 0) {
			ret = pacing_txn_release(txn, q, cur->entry_id, &perr);
			if (ret != 0) {
				s->fail_qid = q;
				snprintf(s->msg, sizeof(s->msg), "%s",
					 perr.message);
				return ret;
			}
		}
		ch[*n].qid = q;
		ch[*n].new_entry = new_entry;
		ch[*n].old_index = mlx5_tm_txq_get_pp_index(s->dev, q);
		(*n)++;
	}
	return 0;
}

/* Explain a failed prepare: capacity, or which queue's entry failed. */
static void
explain_prepare(struct mlx5_tm_sched *s, const struct apply_range *r,
		const struct pacing_error *perr, int ret)
{
	struct pacing_ctx ctx = { 0 };
	int errnum;

	uint32_t table = mlx5_tm_priv(s->dev)->caps.packet_pacing_rate_table_size;

	s->fail_qid = UINT16_MAX;
	if (perr->field == PACING_FIELD_TABLE_CAPACITY) {
		snprintf(s->msg, sizeof(s->msg),
			 "not enough pacing entries: %.160s (the device's rate table has %u entries, index 0 reserved)%s",
			 perr->message, table,
			 mlx5_tm_pacing_conf(s->pacing)->dedicated ? "" :
			 " (queues with equal rates share an entry; see "
			 "devarg rate_tolerance_ppm)");
		return;
	}
	if (perr->field != PACING_FIELD_HW ||
	    !mlx5_tm_pacing_last_failure(s->pacing, &ctx, &errnum)) {
		snprintf(s->msg, sizeof(s->msg), "%s", perr->message);
		return;
	}
	if (ret == -ENOSPC) {
		/*
		 * Within our plan, yet full: the rest of the table is held
		 * by other users (the kernel netdev, other processes), which
		 * only a failed allocation reveals.
		 */
		snprintf(s->msg, sizeof(s->msg),
			 "the device's rate table is full: %u entries, %u held by this port, the rest by other users (index 0 is reserved; queue rate limits and rte_tm shapers of this port count alike)",
			 table, mlx5_tm_pacing_hw_allocated(s->pacing));
		return;
	}
	s->fail_qid = queue_of_ctx(r, &ctx);
	snprintf(s->msg, sizeof(s->msg),
		 "the device refused a pacing entry (rate_limit %" PRIu32
		 " %s): %s", ctx.rate_limit,
		 ctx.rate_mode == PACING_RATE_MODE_WQE ? "WQEs/s" : "kbps",
		 strerror(-ret));
}

/* Record the new state of every targeted queue. */
static void
apply_record(struct mlx5_tm_sched *s, const struct apply_range *r,
	     const struct apply_change *ch, uint32_t n)
{
	uint32_t i;
	uint16_t q;

	for (i = 0; i < n; i++) {
		struct mlx5_tm_sched_txq *cur = &s->txq[ch[i].qid];

		cur->entry_id = ch[i].new_entry;
		memset(&cur->ctx, 0, sizeof(cur->ctx));
		if (cur->entry_id != 0)
			cur->ctx = target(r, ch[i].qid)->ctx;
	}
	for (q = r->first; q < r->end; q++) {
		struct mlx5_tm_sched_txq *cur = &s->txq[q];
		const struct mlx5_tm_sched_target *t = target(r, q);

		if (!t->change)
			continue;
		cur->source = t->source;
		cur->requested = t->shaped ? t->requested : 0;
		cur->profile_id = t->source == MLX5_TM_RATE_TM ?
				  t->profile_id :
				  RTE_TM_SHAPER_PROFILE_ID_NONE;
		cur->limit_mbps = t->source == MLX5_TM_RATE_QUEUE ?
				  t->limit_mbps : 0;
	}
}

static int
apply_queues(struct mlx5_tm_sched *s, const struct apply_range *r)
{
	struct apply_change *ch = NULL;
	struct pacing_error perr;
	struct pacing_txn *txn;
	uint32_t n = 0, i;
	int ret;

	s->msg[0] = '\0';
	s->fail_qid = UINT16_MAX;
	if (r->first >= r->end)
		return 0;
	ch = calloc(r->end - r->first, sizeof(*ch));
	if (ch == NULL) {
		snprintf(s->msg, sizeof(s->msg), "no memory");
		return -ENOMEM;
	}
	txn = mlx5_tm_pacing_begin(s->pacing, &perr);
	if (txn == NULL) {
		snprintf(s->msg, sizeof(s->msg), "%s", perr.message);
		free(ch);
		return perr.code != 0 ? perr.code : -ENOMEM;
	}
	ret = apply_stage(s, txn, r, ch, &n);
	if (ret != 0)
		goto abort;
	if (n == 0) {
		pacing_txn_abort(txn);
		apply_record(s, r, ch, 0);
		free(ch);
		return 0;
	}
	/* Every new entry exists on the device before any queue moves. */
	ret = pacing_txn_prepare(txn, &perr);
	if (ret != 0) {
		explain_prepare(s, r, &perr, ret);
		goto abort;
	}
	for (i = 0; i < n; i++) {
		uint16_t idx = ch[i].new_entry != 0 ?
			mlx5_tm_pacing_txn_index(txn, ch[i].new_entry) : 0;

		ret = mlx5_tm_txq_set_pp_index(s->dev, ch[i].qid, idx);
		if (ret == 0)
			continue;
		s->fail_qid = ch[i].qid;
		snprintf(s->msg, sizeof(s->msg),
			 "the device refused pacing index %u for the queue "
			 "(MODIFY_SQ): %s; every queue keeps its previous "
			 "rate", idx, strerror(-ret));
		/* Put back the queues already moved, newest first. */
		while (i-- > 0) {
			int r = mlx5_tm_txq_set_pp_index(s->dev, ch[i].qid,
							 ch[i].old_index);

			if (r != 0)
				MLX5_TM_LOG(ERR, "port %u: queue %u: cannot "
					    "restore pacing index %u: %s",
					    s->dev->data->port_id, ch[i].qid,
					    ch[i].old_index, strerror(-r));
		}
		goto abort;
	}
	/* Old entries whose last user went are freed here, after the move. */
	ret = pacing_txn_commit(txn, &perr);
	if (ret != 0) {
		/* Prepared transactions commit; this is a library bug. */
		snprintf(s->msg, sizeof(s->msg), "%s", perr.message);
		free(ch);
		return ret;
	}
	apply_record(s, r, ch, n);
	free(ch);
	return 0;
abort:
	pacing_txn_abort(txn);
	free(ch);
	return ret;
}

int
mlx5_tm_sched_apply(struct mlx5_tm_sched *s,
		    const struct mlx5_tm_sched_target *t)
{
	const struct apply_range r = { .t = t, .first = 0, .end = s->nb_txq };

	return apply_queues(s, &r);
}

int
mlx5_tm_sched_apply_one(struct mlx5_tm_sched *s, uint16_t qid,
			const struct mlx5_tm_sched_target *t)
{
	struct apply_range r = { .t = t, .first = qid, .end = qid };

	if (qid >= s->nb_txq) {
		snprintf(s->msg, sizeof(s->msg), "queue %u does not exist",
			 qid);
		s->fail_qid = qid;
		return -EINVAL;
	}
	r.end = qid + 1;
	return apply_queues(s, &r);
}

void
mlx5_tm_sched_target_of_leaf(const struct mlx5_tm_sched *s, uint16_t qid,
			     struct mlx5_tm_sched_target *t)
{
	const struct tm_node *leaf = tm_tree_leaf(&s->hier, qid);

	memset(t, 0, sizeof(*t));
	t->change = true;
	t->source = MLX5_TM_RATE_TM;
	t->profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
	if (leaf == NULL || leaf->profile == NULL)
		return;
	t->shaped = true;
	t->ctx = leaf->profile->pacing.ctx;
	t->requested = leaf->profile->pacing.requested;
	t->profile_id = leaf->profile->id;
}

void
mlx5_tm_sched_sync_suspend(struct mlx5_tm_sched *s)
{
	uint16_t q;

	for (q = 0; q < s->nb_txq; q++) {
		const struct tm_node *leaf =
			tm_tree_leaf(&s->hier, q);
		bool want = s->committed && leaf != NULL &&
			    tm_tree_node_suspended(leaf);

		if (want == s->txq[q].suspended)
			continue;
		mlx5_tm_txq_set_suspended(s->dev, q, want);
		s->txq[q].suspended = want;
	}
}
