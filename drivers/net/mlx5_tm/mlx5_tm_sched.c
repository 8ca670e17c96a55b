/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The scheduling layer's face to the ethdev layer: its state's life
 * cycle (probe to close), the queue rate limit, reconfiguration of the
 * number of Tx queues, the elements kept until error recovery leaves
 * them, and the port registry telemetry reads.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <pthread.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devx_sched.h"
#include "mlx5_tm_sched.h"
#include "mlx5_tm_sched_priv.h"
#include "mlx5_tm_telemetry.h"

/*
 * The scheduling state of each port, process-local; changed under the
 * lock, which telemetry (another thread) holds while it reads a port's.
 */
static struct mlx5_tm_sched *registry[RTE_MAX_ETHPORTS];
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

struct mlx5_tm_sched *
mlx5_tm_sched_get(const struct rte_eth_dev *dev)
{
	return registry[dev->data->port_id];
}

struct mlx5_tm_sched *
mlx5_tm_sched_by_port_lock(uint16_t port_id)
{
	pthread_mutex_lock(&registry_lock);
	return port_id < RTE_MAX_ETHPORTS ? registry[port_id] : NULL;
}

void
mlx5_tm_sched_registry_unlock(void)
{
	pthread_mutex_unlock(&registry_lock);
}

/* What the device can schedule, for the hardware-independent model. */
static void
limits_of(const struct mlx5_tm_priv *priv, struct tm_limits *lim)
{
	const struct mlx5_tm_caps *c = &priv->caps;
	const uint16_t types =
		MLX5_SCHED_ELEM_TYPE_CAP(MLX5_SCHED_ELEM_TYPE_TSAR) |
		MLX5_SCHED_ELEM_TYPE_CAP(MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP);
	bool caps_ok = c->nic_sq_scheduling && c->nic_bw_share &&
		       c->nic_rate_limit && c->max_tsar_bw_share > 0 &&
		       (c->nic_element_type & types) == types &&
		       (c->nic_tsar_type &
			MLX5_TSAR_TYPE_CAP(MLX5_TSAR_TYPE_DWRR)) != 0;
	/* The elements are general objects of this type (libmlx5's path). */
	bool obj_ok = (c->general_obj_types >>
		       MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT) & 1;

	lim->line_rate_mbps = c->line_rate_mbps;
	/* A frame may be MTU + 18 bytes (mtu_set); the largest MTU, so
	 * that no MTU set later makes a backstop too low. */
	lim->max_frame = (uint32_t)priv->port.max_mtu + RTE_ETHER_HDR_LEN +
			 RTE_VLAN_HLEN;
	/* Without sched, the limits after it are never read. */
	lim->sched = caps_ok && obj_ok;
	/*
	 * Linux says "Missing QoS capabilities. Try disabling SRIOV" where
	 * they are missing (en/qos.c); a ConnectX-5 has none anyway.
	 */
	lim->no_sched_hint = lim->sched ? "" : !caps_ok ?
		" (qos_cap reports no NIC scheduling: none on a ConnectX-5; "
		"on a newer NIC, Linux's mlx5 says \"Missing QoS "
		"capabilities. Try disabling SRIOV\")" :
		" (firmware too old? cmd_hca_cap.general_obj_types lacks "
		"SCHEDULING_ELEMENT (0x26), the general object the elements "
		"are created as: update the NIC's firmware)";
	lim->max_share = c->max_tsar_bw_share;
	lim->groups_max = 1u << c->log_max_qos_nic_queue_group;
	lim->elements_max = 1u << c->log_max_qos_nic_scheduling_element;
	/*
	 * qos_cap.log_nic_max_sched_depth (rdma-core's PRM structures name
	 * it; a published ConnectX-6 Dx dump reads 2: 4 elements from the
	 * root to a queue group), taken as Linux takes its e-switch twin;
	 * 0, which Linux reads there as "no groups" and counts no leaves
	 * against, as unknown: firmware refuses what is too deep, and the
	 * commit rolls back.
	 */
	lim->depth_max = c->log_nic_max_sched_depth == 0 ? UINT32_MAX :
			 1u << c->log_nic_max_sched_depth;
}

int
mlx5_tm_sched_init(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct pacing_error perr;
	struct mlx5_tm_sched *s;
	struct tm_limits lim;

	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	limits_of(priv, &lim);
	tm_tree_init(&s->hier, &lim);
	s->log.port_id = dev->data->port_id;
	s->pacing = mlx5_tm_pacing_create(priv->glue, priv->gdev, &priv->caps,
					  &priv->pacing, &perr);
	if (s->pacing == NULL) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id, "pacing manager: %s",
				 perr.message);
		free(s);
		return perr.code != 0 ? perr.code : -ENOMEM;
	}
	s->dev = dev;
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_lock(&registry_lock);
	registry[dev->data->port_id] = s;
	pthread_mutex_unlock(&registry_lock);
	mlx5_tm_telemetry_register();
	return 0;
}

void
mlx5_tm_sched_lock(struct rte_eth_dev *dev)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);

	if (s != NULL)
		pthread_mutex_lock(&s->lock);
}

void
mlx5_tm_sched_unlock(struct rte_eth_dev *dev)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);

	if (s != NULL)
		pthread_mutex_unlock(&s->lock);
}

bool
mlx5_tm_sched_trylock(struct rte_eth_dev *dev)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);

	return s != NULL && pthread_mutex_trylock(&s->lock) == 0;
}

static void reap(struct mlx5_tm_sched *s, bool all);

/*
 * Close: every element off the device, children first, as far as the
 * device lets; what it refuses stays, with its ancestors (firmware
 * refuses a parent with a child), and nothing is created again. The SQs
 * are gone, so no element holds one. Pacing entries are released.
 */
static int
teardown(struct mlx5_tm_sched *s)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(s->dev);
	struct tm_plan *p = &s->applied;
	uint32_t i, left = 0;
	bool *stays;
	int first = 0, ret;
	uint16_t q;

	pthread_mutex_lock(&priv->lock);
	reap(s, true);
	left = s->n_kept;
	/* A kept child stays: so do the plan's elements above it. */
	stays = calloc(p->n_elems + 1, sizeof(*stays));
	for (i = p->n_elems; i-- > 0;) {
		struct tm_elem *e = &p->elems[i];
		uint32_t k;

		if (e->hw == NULL)
			continue;
		for (k = 0; k < s->n_kept && stays != NULL && !stays[i]; k++)
			stays[i] = s->kept[k].parent_hw_id == e->hw_id;
		ret = stays != NULL && stays[i] ? -EBUSY :
		      mlx5_tm_devx_sched_destroy(priv, e->hw, e->hw_id);
		if (ret == 0) {
			e->hw = NULL;
			continue;
		}
		left++;
		if (first == 0)
			first = ret;
		if (stays != NULL && e->parent != TM_PLAN_NONE)
			stays[e->parent] = true;
	}
	free(stays);
	pthread_mutex_unlock(&priv->lock);
	for (q = 0; q < p->nb_txq; q++)
		if (p->queues[q].shaped)
			mlx5_tm_pacing_release(s->pacing, p->queues[q].entry);
	if (left != 0)
		MLX5_TM_PORT_LOG(ERR, s->dev->data->port_id,
				 "%u scheduling elements stay on the device: it refused to destroy them or a child of theirs (errors above)",
				 left);
	return left != 0 && first == 0 ? -EBUSY : first;
}

int
mlx5_tm_sched_uninit(struct rte_eth_dev *dev)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);
	int ret;

	if (s == NULL)
		return 0;
	pthread_mutex_lock(&registry_lock);
	registry[dev->data->port_id] = NULL;
	pthread_mutex_unlock(&registry_lock);
	mlx5_tm_log_limit_clear_all(&s->log);
	/* Best effort, never undone: the all-or-nothing executor is not. */
	ret = teardown(s);
	free(s->kept);
	free(s->group_sqs);
	mlx5_tm_pacing_destroy(s->pacing);
	tm_plan_fini(&s->applied);
	tm_plan_fini(&s->next);
	tm_diff_fini(&s->diff);
	tm_tree_fini(&s->hier);
	pthread_mutex_destroy(&s->lock);
	free(s);
	return ret;
}

/* Whether element @p hw_id holds an SQ or a kept child (both locks). */
static bool
elem_in_use(struct mlx5_tm_sched *s, uint32_t hw_id)
{
	uint32_t i;

	if (hw_id < s->group_sqs_cap && s->group_sqs[hw_id] != 0)
		return true;
	for (i = 0; i < s->n_kept; i++)
		if (s->kept[i].parent_hw_id == hw_id)
			return true;
	return false;
}

/* Kept element @p i leaves the list (port lock). */
static void
kept_drop(struct mlx5_tm_sched *s, uint32_t i)
{
	memmove(&s->kept[i], &s->kept[i + 1],
		(s->n_kept - i - 1) * sizeof(s->kept[0]));
	s->n_kept--;
}

int
mlx5_tm_sched_kept_reserve(struct mlx5_tm_sched *s, uint32_t n)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(s->dev);
	struct mlx5_tm_sched_kept *k;
	int ret = 0;

	pthread_mutex_lock(&priv->lock);
	if (s->n_kept + n > s->kept_cap) {
		k = realloc(s->kept, (size_t)(s->n_kept + n) * sizeof(*k));
		if (k == NULL) {
			ret = -ENOMEM;
		} else {
			s->kept = k;
			s->kept_cap = s->n_kept + n;
		}
	}
	pthread_mutex_unlock(&priv->lock);
	return ret;
}

int
mlx5_tm_sched_elem_release(struct mlx5_tm_sched *s,
			   struct mlx5_tm_devx_obj *hw, uint32_t hw_id,
			   uint32_t parent_hw_id)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(s->dev);
	int ret = 0;

	pthread_mutex_lock(&priv->lock);
	if (!elem_in_use(s, hw_id)) {
		ret = mlx5_tm_devx_sched_destroy(priv, hw, hw_id);
	} else if (s->n_kept == s->kept_cap) {
		ret = -ENOMEM; /* Not reserved: a caller's bug. */
	} else {
		s->kept[s->n_kept++] = (struct mlx5_tm_sched_kept){
			.hw = hw, .hw_id = hw_id, .parent_hw_id = parent_hw_id,
			.due = s->period,
		};
		MLX5_TM_PORT_LOG(INFO, s->dev->data->port_id,
				 "scheduling element %u kept until the SQs in error recovery leave it",
				 hw_id);
	}
	pthread_mutex_unlock(&priv->lock);
	return ret;
}

struct mlx5_tm_devx_obj *
mlx5_tm_sched_elem_unkeep(struct mlx5_tm_sched *s, uint32_t hw_id)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(s->dev);
	struct mlx5_tm_devx_obj *hw = NULL;
	uint32_t i;

	pthread_mutex_lock(&priv->lock);
	for (i = s->n_kept; i-- > 0;)
		if (s->kept[i].hw_id == hw_id) {
			hw = s->kept[i].hw;
			kept_drop(s, i);
			break;
		}
	pthread_mutex_unlock(&priv->lock);
	return hw;
}

/* Periods to wait after a refusal that followed a wait of @p wait. */
static uint32_t
backoff_next(uint32_t wait)
{
	return wait == 0 ? 1 : RTE_MIN(wait * 2, MLX5_TM_SCHED_BACKOFF_MAX);
}

/*
 * Destroy the kept elements nothing uses, those whose back-off is due
 * (@p all: every one, at close); port lock held.
 */
static void
reap(struct mlx5_tm_sched *s, bool all)
{
	struct rte_eth_dev *dev = s->dev;
	uint32_t i = 0;
	int ret;

	/* Children come first: one pass frees a kept subtree. */
	while (i < s->n_kept) {
		struct mlx5_tm_sched_kept *k = &s->kept[i];

		if (elem_in_use(s, k->hw_id) || (!all && k->due > s->period)) {
			i++;
			continue;
		}
		ret = mlx5_tm_devx_sched_destroy(mlx5_tm_priv(dev), k->hw,
						 k->hw_id);
		if (ret != 0) {
			k->wait = backoff_next(k->wait);
			k->due = s->period + k->wait;
			if (mlx5_tm_log_limit_take(&s->log,
						   MLX5_TM_LOGK_KEPT_DESTROY))
				MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
						 "kept scheduling element %u: the device refused to destroy it (%s); tried again with back-off, at most every %u periods of the reconciler",
						 k->hw_id, strerror(-ret),
						 MLX5_TM_SCHED_BACKOFF_MAX);
			i++;
			continue;
		}
		MLX5_TM_PORT_LOG(DEBUG, dev->data->port_id,
				 "kept scheduling element %u destroyed",
				 k->hw_id);
		kept_drop(s, i); /* The entries after k move down. */
	}
	if (s->n_kept == 0)
		mlx5_tm_log_limit_clear(&s->log, MLX5_TM_LOGK_KEPT_DESTROY);
}

void
mlx5_tm_sched_reap(struct rte_eth_dev *dev)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);

	if (s != NULL)
		reap(s, false);
}

/* Apply s->next; on failure @p error says what, naming @p what. */
static int
apply_next(struct mlx5_tm_sched *s, const char *what,
	   struct rte_tm_error *error)
{
	int ret = mlx5_tm_sched_apply(s);

	if (ret == 0)
		return 0;
	/*
	 * A full rate table is a shortage of a shared resource, not a
	 * missing capability nor one node's fault: rte_tm has no type for
	 * it, the message says what.
	 */
	if (s->fail_qid != UINT16_MAX)
		return tm_error(error, RTE_TM_ERROR_TYPE_NODE_ID, -ret,
				"%s: node %u (Tx queue %u): %s", what,
				s->fail_qid, s->fail_qid, s->msg);
	return tm_error(error, ret == -ENOSPC ?
			RTE_TM_ERROR_TYPE_UNSPECIFIED :
			RTE_TM_ERROR_TYPE_NODE_ID, -ret, "%s: %s", what,
			s->msg);
}

int
mlx5_tm_sched_sync(struct mlx5_tm_sched *s, const char *what,
		   struct rte_tm_error *error)
{
	int ret;

	ret = tm_plan_build(&s->hier, s->committed, &s->next, error);
	if (ret != 0)
		return ret;
	return apply_next(s, what, error);
}

/*
 * s->next as a copy of s->applied, where a live change starts: copied
 * once after each whole plan applied, kept a copy by tm_plan_mirror().
 */
static int
next_copy(struct mlx5_tm_sched *s)
{
	if (s->next.stamp == s->applied.stamp && !s->next.partial)
		return 0;
	return tm_plan_copy(&s->next, &s->applied, s->applied.nb_txq);
}

int
mlx5_tm_sched_sync_change(struct mlx5_tm_sched *s,
			  const struct tm_plan_change *change,
			  const char *what, struct rte_tm_error *error)
{
	int ret = next_copy(s);

	if (ret != 0)
		return tm_error(error, RTE_TM_ERROR_TYPE_UNSPECIFIED, -ret,
				"%s: no memory", what);
	ret = tm_plan_update(&s->next, &s->applied, &s->hier, change, error);
	if (ret == -EAGAIN)
		return mlx5_tm_sched_sync(s, what, error);
	if (ret != 0)
		return ret;
	return apply_next(s, what, error);
}

/* s->next: the applied plan with queue @p qid at @p mbps (0: unlimited). */
static int
rate_limit_plan(struct mlx5_tm_sched *s, uint16_t qid, uint32_t mbps)
{
	struct pacing_error perr;
	struct pacing_result res;
	int ret;

	ret = next_copy(s);
	if (ret != 0) {
		snprintf(s->msg, sizeof(s->msg), "no memory");
		return ret;
	}
	if (mbps == 0) {
		tm_plan_update_queue(&s->next, qid, NULL);
		return 0;
	}
	ret = mlx5_tm_pacing_convert(s->pacing, &(struct pacing_shaper){
			.peak_rate = (uint64_t)mbps * PACING_BYTES_PER_MBPS,
		}, &res, &perr);
	if (ret != 0) {
		snprintf(s->msg, sizeof(s->msg), "%s", perr.message);
		return ret;
	}
	tm_plan_update_queue(&s->next, qid, &res.ctx);
	return 0;
}

int
mlx5_tm_sched_set_queue_rate_limit(struct rte_eth_dev *dev, uint16_t qid,
				   uint32_t mbps)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);
	enum mlx5_tm_log_kind kind;
	int ret;

	if (s == NULL)
		return -ENODEV;
	/* Refusals are logged once per kind, then counted: a retry loop. */
	pthread_mutex_lock(&s->lock);
	if (qid >= s->applied.nb_txq) {
		if (mlx5_tm_log_limit_take(&s->log,
					   MLX5_TM_LOGK_RATE_NO_QUEUE))
			MLX5_TM_TXQ_LOG(ERR, dev->data->port_id, qid,
					"does not exist (%u Tx queues)",
					s->applied.nb_txq);
		ret = -EINVAL;
		goto out;
	}
	if (s->committed) {
		if (mlx5_tm_log_limit_take(&s->log, MLX5_TM_LOGK_RATE_BUSY))
			MLX5_TM_TXQ_LOG(ERR, dev->data->port_id, qid,
					"a traffic-manager hierarchy is committed and sets the queue rates; change leaf node %u with rte_tm_node_shaper_update() instead",
					qid);
		ret = -EBUSY;
		goto out;
	}
	/* A refused rate, then a refusal by the device: limited apart. */
	kind = MLX5_TM_LOGK_RATE_BAD;
	ret = rate_limit_plan(s, qid, mbps);
	if (ret == 0) {
		kind = MLX5_TM_LOGK_RATE_DEVICE;
		ret = mlx5_tm_sched_apply(s);
	}
	if (ret == 0)
		mlx5_tm_log_limit_clear_all(&s->log);
	else if (mlx5_tm_log_limit_take(&s->log, kind))
		MLX5_TM_TXQ_LOG(ERR, dev->data->port_id, qid,
				"rate %u Mbps: %s", mbps, s->msg);
out:
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/*
 * Re-sync a committed hierarchy to the line rate wanted, when its
 * back-off is due (sched lock). Refused, the tree keeps the line rate of
 * the applied plan, so that no later call fails on the refused one.
 */
static void
line_rate_converge(struct mlx5_tm_sched *s)
{
	uint32_t before = s->hier.lim.line_rate_mbps;
	uint32_t mbps = s->line_rate_want;

	if (!s->line_rate_pending || s->line_rate_due > s->period)
		return;
	s->hier.lim.line_rate_mbps = mbps;
	/* Shares and ceilings follow; a flat tree needs none. */
	if (before == mbps || !s->committed ||
	    mlx5_tm_sched_sync(s, "line rate change", NULL) == 0) {
		s->line_rate_pending = false;
		s->line_rate_wait = 0;
		mlx5_tm_log_limit_clear(&s->log, MLX5_TM_LOGK_LINE_RATE);
		return;
	}
	s->hier.lim.line_rate_mbps = before;
	s->line_rate_wait = backoff_next(s->line_rate_wait);
	s->line_rate_due = s->period + s->line_rate_wait;
	if (mlx5_tm_log_limit_take(&s->log, MLX5_TM_LOGK_LINE_RATE))
		MLX5_TM_PORT_LOG(ERR, s->dev->data->port_id,
				 "line rate now %u Mbit/s: %s; the hierarchy keeps %u Mbit/s, tried again with back-off",
				 mbps, s->msg, before);
}

void
mlx5_tm_sched_line_rate(struct rte_eth_dev *dev, uint32_t mbps)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);

	if (s == NULL)
		return;
	pthread_mutex_lock(&s->lock);
	s->line_rate_want = mbps;
	s->line_rate_pending = true;
	s->line_rate_wait = 0;
	s->line_rate_due = s->period;
	line_rate_converge(s);
	pthread_mutex_unlock(&s->lock);
}

void
mlx5_tm_sched_converge(struct rte_eth_dev *dev, bool try_lock)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);

	if (s == NULL)
		return;
	if (try_lock) {
		if (pthread_mutex_trylock(&priv->lock) != 0)
			return;
	} else {
		pthread_mutex_lock(&priv->lock);
	}
	s->period++;
	if (priv->started)
		mlx5_tm_sched_recover(dev);
	else
		reap(s, false);
	pthread_mutex_unlock(&priv->lock);
	/* The executor takes the port lock itself. */
	line_rate_converge(s);
}

int
mlx5_tm_sched_txq_count_changed(struct rte_eth_dev *dev, uint16_t nb_txq)
{
	struct mlx5_tm_sched *s = mlx5_tm_sched_get(dev);
	bool cleared;
	int ret;

	if (s == NULL)
		return -ENODEV;
	pthread_mutex_lock(&s->lock);
	/* After a refusal the tree has the count, the device not yet. */
	if (nb_txq == s->applied.nb_txq && nb_txq == s->hier.nb_txq) {
		ret = 0;
		goto out;
	}
	/* Room for a tree with as many non-leaf nodes as leaves, now. */
	if (tm_plan_reserve(&s->applied, &s->diff, nb_txq, 2u * nb_txq) != 0 ||
	    tm_plan_reserve(&s->next, &s->diff, nb_txq, 2u * nb_txq) != 0)
		MLX5_TM_PORT_LOG(WARNING, dev->data->port_id,
				 "no memory for the plans of %u Tx queues "
				 "ahead: changes allocate it", nb_txq);
	ret = tm_tree_set_nb_txq(&s->hier, nb_txq);
	if (ret < 0) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "no memory to resize the hierarchy to %u Tx queues",
				 nb_txq);
		goto out;
	}
	cleared = ret == 1 && s->committed;
	if (cleared)
		MLX5_TM_PORT_LOG(WARNING, dev->data->port_id,
				 "now %u Tx queues: the traffic-manager hierarchy no longer fits (a non-leaf node id names a queue) and is deleted; queues are unlimited",
				 nb_txq);
	if (ret == 1)
		s->committed = false;
	/*
	 * Queues that go lose their entries; no SQ exists to move. Elements
	 * applied with no hierarchy committed are those of one deleted
	 * here by a call the device refused: the tree's plan again.
	 */
	if (s->committed || cleared || s->applied.n_elems != 0)
		ret = mlx5_tm_sched_sync(s, "Tx queues reconfigured", NULL);
	else if (tm_plan_copy(&s->next, &s->applied, nb_txq) == 0)
		ret = mlx5_tm_sched_apply(s);
	else
		ret = -ENOMEM;
	if (ret != 0)
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "%u Tx queues: %s; the device keeps the traffic-manager state of %u queues until the port is configured again",
				 nb_txq, s->msg, s->applied.nb_txq);
out:
	pthread_mutex_unlock(&s->lock);
	return ret;
}
