/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <pthread.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_txq.h"
#include "mlx5_tm_sched.h"
#include "mlx5_tm_sched_priv.h"
#include "mlx5_tm_tm.h"

/* Ports with scheduling state, for telemetry (other thread). */
static struct mlx5_tm_sched *registry[RTE_MAX_ETHPORTS];
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

struct mlx5_tm_sched *
mlx5_tm_sched_get(const struct rte_eth_dev *dev)
{
	return mlx5_tm_priv(dev)->sched;
}

uint32_t
mlx5_tm_sched_txq_max(void)
{
	return MLX5_TM_MAX_TXQ;
}

void
mlx5_tm_sched_registry_lock(void)
{
	pthread_mutex_lock(&registry_lock);
}

void
mlx5_tm_sched_registry_unlock(void)
{
	pthread_mutex_unlock(&registry_lock);
}

struct mlx5_tm_sched *
mlx5_tm_sched_by_port(uint16_t port_id)
{
	return port_id < RTE_MAX_ETHPORTS ? registry[port_id] : NULL;
}

int
mlx5_tm_sched_init(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_pacing_conf conf = {
		.burst_bound = priv->pacing.burst_bound,
		.typical_pkt_sz = priv->pacing.typical_pkt_sz,
		.dedicated = priv->pacing.dedicated,
		.rate_tolerance_ppm = priv->pacing.rate_tolerance_ppm,
	};
	struct pacing_error perr;
	struct mlx5_tm_sched *s;

	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	s->txq = calloc(MLX5_TM_MAX_TXQ, sizeof(*s->txq));
	if (s->txq == NULL) {
		free(s);
		return -ENOMEM;
	}
	s->pacing = mlx5_tm_pacing_create(priv->glue, priv->gdev, &priv->caps,
					  &conf, &perr);
	if (s->pacing == NULL) {
		MLX5_TM_LOG(ERR, "port %u: pacing manager: %s",
			    dev->data->port_id, perr.message);
		free(s->txq);
		free(s);
		return perr.code != 0 ? perr.code : -ENOMEM;
	}
	s->dev = dev;
	pthread_mutex_init(&s->lock, NULL);
	mlx5_tm_hier_init(&s->hier);
	priv->sched = s;
	pthread_mutex_lock(&registry_lock);
	registry[dev->data->port_id] = s;
	pthread_mutex_unlock(&registry_lock);
	mlx5_tm_telemetry_register();
	return 0;
}

void
mlx5_tm_sched_uninit(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_sched *s = priv->sched;

	if (s == NULL)
		return;
	pthread_mutex_lock(&registry_lock);
	if (registry[dev->data->port_id] == s)
		registry[dev->data->port_id] = NULL;
	pthread_mutex_unlock(&registry_lock);
	/* The SQs are gone: releasing the entries is all that is left. */
	mlx5_tm_pacing_destroy(s->pacing);
	mlx5_tm_hier_fini(&s->hier);
	pthread_mutex_destroy(&s->lock);
	free(s->txq);
	free(s);
	priv->sched = NULL;
}

int
mlx5_tm_sched_tm_ops_get(struct rte_eth_dev *dev, void *ops)
{
	(void)dev;
	if (ops == NULL)
		return -EINVAL;
	*(const struct rte_tm_ops **)ops = &mlx5_tm_tm_ops;
	return 0;
}

/* One queue's move in mlx5_tm_sched_apply(). */
struct apply_change {
	uint16_t qid;
	uint64_t new_entry;  /* 0: unlimited */
	uint16_t old_index;  /* to restore on failure */
};

/* The first changing queue that asked for @p ctx. */
static uint16_t
queue_of_ctx(const struct mlx5_tm_sched *s,
	     const struct mlx5_tm_sched_target *t,
	     const struct pacing_ctx *ctx)
{
	uint16_t q;

	for (q = 0; q < s->nb_txq; q++)
		if (t[q].change && t[q].shaped &&
		    pacing_ctx_equal(&t[q].ctx, ctx))
			return q;
	return UINT16_MAX;
}

/* Stage the acquisitions and releases; fills @p ch, returns the count. */
static int
apply_stage(struct mlx5_tm_sched *s, struct pacing_txn *txn,
	    const struct mlx5_tm_sched_target *t, struct apply_change *ch,
	    uint32_t *n)
{
	struct pacing_error perr;
	struct pacing_grant grant;
	uint16_t q;
	int ret;

	*n = 0;
	for (q = 0; q < s->nb_txq; q++) {
		const struct mlx5_tm_sched_txq *cur = &s->txq[q];
		uint64_t new_entry = 0;

		if (!t[q].change)
			continue;
		if (t[q].shaped == (cur->entry_id != 0) &&
		    (!t[q].shaped || pacing_ctx_equal(&t[q].ctx, &cur->ctx)))
			continue;
		if (t[q].shaped) {
			ret = mlx5_tm_pacing_acquire(s->pacing, txn, q,
						     &t[q].ctx, &grant, &perr);
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
explain_prepare(struct mlx5_tm_sched *s, const struct mlx5_tm_sched_target *t,
		const struct pacing_error *perr, int ret)
{
	struct pacing_ctx ctx = { 0 };
	int errnum;

	s->fail_qid = UINT16_MAX;
	if (perr->field == PACING_FIELD_TABLE_CAPACITY) {
		snprintf(s->msg, sizeof(s->msg),
			 "not enough pacing entries: %.160s%s", perr->message,
			 mlx5_tm_pacing_conf(s->pacing)->dedicated ? "" :
			 " (queues with equal rates share an entry; see "
			 "devarg rate_tolerance_ppm)");
		return;
	}
	if (mlx5_tm_pacing_last_failure(s->pacing, &ctx, &errnum))
		s->fail_qid = queue_of_ctx(s, t, &ctx);
	snprintf(s->msg, sizeof(s->msg),
		 "the device refused a pacing entry "
		 "(rate_limit %" PRIu32 " %s): %s", ctx.rate_limit, ctx.rate_mode == PACING_RATE_MODE_WQE ?
		 "WQEs/s" : "kbps", strerror(-ret));
}

/* Record the new state of every targeted queue. */
static void
apply_record(struct mlx5_tm_sched *s, const struct mlx5_tm_sched_target *t,
	     const struct apply_change *ch, uint32_t n)
{
	uint32_t i;
	uint16_t q;

	for (i = 0; i < n; i++) {
		struct mlx5_tm_sched_txq *cur = &s->txq[ch[i].qid];

		cur->entry_id = ch[i].new_entry;
		memset(&cur->ctx, 0, sizeof(cur->ctx));
		if (cur->entry_id != 0)
			cur->ctx = t[ch[i].qid].ctx;
	}
	for (q = 0; q < s->nb_txq; q++) {
		struct mlx5_tm_sched_txq *cur = &s->txq[q];

		if (!t[q].change)
			continue;
		cur->source = t[q].source;
		cur->requested = t[q].shaped ? t[q].requested : 0;
		cur->profile_id = t[q].source == MLX5_TM_RATE_TM ?
				  t[q].profile_id :
				  RTE_TM_SHAPER_PROFILE_ID_NONE;
		cur->limit_mbps = t[q].source == MLX5_TM_RATE_QUEUE ?
				  t[q].limit_mbps : 0;
	}
}

int
mlx5_tm_sched_apply(struct mlx5_tm_sched *s,
		    const struct mlx5_tm_sched_target *t)
{
	struct apply_change *ch = NULL;
	struct pacing_error perr;
	struct pacing_txn *txn;
	uint32_t n = 0, i;
	int ret;

	s->msg[0] = '\0';
	s->fail_qid = UINT16_MAX;
	if (s->nb_txq == 0)
		return 0;
	ch = calloc(s->nb_txq, sizeof(*ch));
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
	ret = apply_stage(s, txn, t, ch, &n);
	if (ret != 0)
		goto abort;
	if (n == 0) {
		pacing_txn_abort(txn);
		apply_record(s, t, ch, 0);
		free(ch);
		return 0;
	}
	/* Every new entry exists on the device before any queue moves. */
	ret = pacing_txn_prepare(txn, &perr);
	if (ret != 0) {
		explain_prepare(s, t, &perr, ret);
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
	apply_record(s, t, ch, n);
	free(ch);
	return 0;
abort:
	pacing_txn_abort(txn);
	free(ch);
	return ret;
}

void
mlx5_tm_sched_target_of_leaf(const struct mlx5_tm_sched *s, uint16_t qid,
			     struct mlx5_tm_sched_target *t)
{
	const struct mlx5_tm_node *leaf = mlx5_tm_hier_leaf(&s->hier, qid);

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
		const struct mlx5_tm_node *leaf =
			mlx5_tm_hier_leaf(&s->hier, q);
		bool want = s->committed && leaf != NULL &&
			    mlx5_tm_hier_node_suspended(leaf);

		if (want == s->txq[q].suspended)
			continue;
		mlx5_tm_txq_set_suspended(s->dev, q, want);
		s->txq[q].suspended = want;
	}
}

int
mlx5_tm_sched_set_queue_rate_limit(struct rte_eth_dev *dev, uint16_t qid,
				   uint32_t mbps)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);
	struct mlx5_tm_sched_target *t;
	struct pacing_error perr;
	struct pacing_result res;
	int ret;

	if (s == NULL)
		return -ENODEV;
	if (qid >= s->nb_txq) {
		MLX5_TM_LOG(ERR, "port %u: queue %u does not exist (%u Tx "
			    "queues)", dev->data->port_id, qid, s->nb_txq);
		return -EINVAL;
	}
	pthread_mutex_lock(&s->lock);
	if (s->committed) {
		pthread_mutex_unlock(&s->lock);
		MLX5_TM_LOG(ERR, "port %u: queue %u: a traffic-manager "
			    "hierarchy is committed and sets the queue rates; "
			    "change leaf node %u with rte_tm_node_shaper_update"
			    "() instead", dev->data->port_id, qid, qid);
		return -EBUSY;
	}
	t = calloc(s->nb_txq, sizeof(*t));
	if (t == NULL) {
		pthread_mutex_unlock(&s->lock);
		return -ENOMEM;
	}
	t[qid].change = true;
	t[qid].source = mbps != 0 ? MLX5_TM_RATE_QUEUE : MLX5_TM_RATE_NONE;
	t[qid].limit_mbps = mbps;
	if (mbps != 0) {
		struct pacing_shaper shaper = {
			.peak_rate = (uint64_t)mbps * 125000,
		};

		ret = mlx5_tm_pacing_convert(s->pacing, &shaper, &res, &perr);
		if (ret != 0) {
			MLX5_TM_LOG(ERR, "port %u: queue %u: rate %u Mbps: %s",
				    dev->data->port_id, qid, mbps,
				    perr.message);
			goto out;
		}
		t[qid].shaped = true;
		t[qid].ctx = res.ctx;
		t[qid].requested = res.requested;
	}
	ret = mlx5_tm_sched_apply(s, t);
	if (ret != 0)
		MLX5_TM_LOG(ERR, "port %u: queue %u: rate %u Mbps: %s",
			    dev->data->port_id, qid, mbps, s->msg);
out:
	pthread_mutex_unlock(&s->lock);
	free(t);
	return ret;
}

void
mlx5_tm_sched_txq_count_changed(struct rte_eth_dev *dev, uint16_t nb_txq)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);
	uint16_t q;
	int ret;

	if (s == NULL || nb_txq == s->nb_txq)
		return;
	pthread_mutex_lock(&s->lock);
	/* Queues that go: no SQ exists, their entries are simply dropped. */
	for (q = nb_txq; q < s->nb_txq; q++) {
		struct mlx5_tm_sched_txq *cur = &s->txq[q];

		mlx5_tm_pacing_release_all(s->pacing, q);
		if (mlx5_tm_txq_get_pp_index(dev, q) != 0)
			mlx5_tm_txq_set_pp_index(dev, q, 0);
		if (cur->suspended)
			mlx5_tm_txq_set_suspended(dev, q, false);
		memset(cur, 0, sizeof(*cur));
	}
	ret = mlx5_tm_hier_set_nb_txq(&s->hier, nb_txq);
	s->nb_txq = nb_txq;
	if (ret == 1) {
		struct mlx5_tm_sched_target *t;

		MLX5_TM_LOG(WARNING, "port %u: now %u Tx queues: the "
			    "traffic-manager hierarchy no longer fits (a "
			    "non-leaf node id names a queue) and is deleted; "
			    "queues are unlimited", dev->data->port_id, nb_txq);
		s->committed = false;
		t = calloc(RTE_MAX(nb_txq, 1), sizeof(*t));
		if (t != NULL) {
			for (q = 0; q < nb_txq; q++)
				if (s->txq[q].source == MLX5_TM_RATE_TM)
					t[q].change = true;
			if (mlx5_tm_sched_apply(s, t) != 0)
				MLX5_TM_LOG(ERR, "port %u: %s",
					    dev->data->port_id, s->msg);
			free(t);
		}
		mlx5_tm_sched_sync_suspend(s);
	} else if (ret < 0) {
		MLX5_TM_LOG(ERR, "port %u: no memory to resize the hierarchy",
			    dev->data->port_id);
	}
	pthread_mutex_unlock(&s->lock);
}
