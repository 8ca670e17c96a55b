/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The scheduling layer's face to the ethdev layer: its state's life
 * cycle (probe to close), the queue rate limit, reconfiguration of the
 * number of Tx queues, and the port registry telemetry reads.
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
	s->log.port_id = dev->data->port_id;
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
	tm_tree_init(&s->hier, &(struct tm_limits){
		.line_rate_mbps = priv->caps.line_rate_mbps });
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
	mlx5_tm_log_limit_clear_all(&s->log);
	/* The SQs are gone: releasing the entries is all that is left. */
	mlx5_tm_pacing_destroy(s->pacing);
	tm_tree_fini(&s->hier);
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

int
mlx5_tm_sched_set_queue_rate_limit(struct rte_eth_dev *dev, uint16_t qid,
				   uint32_t mbps)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);
	struct mlx5_tm_sched_target t = { 0 };
	struct pacing_error perr;
	struct pacing_result res;
	int ret;

	if (s == NULL)
		return -ENODEV;
	/* Refusals are logged once per kind, then counted: a retry loop. */
	pthread_mutex_lock(&s->lock);
	if (qid >= s->nb_txq) {
		if (mlx5_tm_log_limit_take(&s->log,
					   MLX5_TM_LOGK_RATE_NO_QUEUE))
			MLX5_TM_LOG(ERR, "port %u: queue %u does not exist "
				    "(%u Tx queues)", dev->data->port_id, qid,
				    s->nb_txq);
		ret = -EINVAL;
		goto out;
	}
	if (s->committed) {
		if (mlx5_tm_log_limit_take(&s->log, MLX5_TM_LOGK_RATE_BUSY))
			MLX5_TM_LOG(ERR, "port %u: queue %u: a traffic-manager "
				    "hierarchy is committed and sets the queue "
				    "rates; change leaf node %u with "
				    "rte_tm_node_shaper_update() instead",
				    dev->data->port_id, qid, qid);
		ret = -EBUSY;
		goto out;
	}
	t.change = true;
	t.source = mbps != 0 ? MLX5_TM_RATE_QUEUE : MLX5_TM_RATE_NONE;
	t.limit_mbps = mbps;
	if (mbps != 0) {
		struct pacing_shaper shaper = {
			.peak_rate = (uint64_t)mbps * 125000,
		};

		ret = mlx5_tm_pacing_convert(s->pacing, &shaper, &res, &perr);
		if (ret != 0) {
			if (mlx5_tm_log_limit_take(&s->log,
						   MLX5_TM_LOGK_RATE_BAD))
				MLX5_TM_LOG(ERR, "port %u: queue %u: rate %u "
					    "Mbps: %s", dev->data->port_id,
					    qid, mbps, perr.message);
			goto out;
		}
		t.shaped = true;
		t.ctx = res.ctx;
		t.requested = res.requested;
	}
	ret = mlx5_tm_sched_apply_one(s, qid, &t);
	if (ret != 0) {
		if (mlx5_tm_log_limit_take(&s->log, MLX5_TM_LOGK_RATE_DEVICE))
			MLX5_TM_LOG(ERR, "port %u: queue %u: rate %u Mbps: %s",
				    dev->data->port_id, qid, mbps, s->msg);
	} else {
		mlx5_tm_log_limit_clear_all(&s->log);
	}
out:
	pthread_mutex_unlock(&s->lock);
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
	ret = tm_tree_set_nb_txq(&s->hier, nb_txq);
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
