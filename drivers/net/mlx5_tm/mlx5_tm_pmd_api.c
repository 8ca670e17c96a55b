/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <ethdev_driver.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devx_query.h"
#include "mlx5_tm_tx.h"
#include "mlx5_tm_devx_sched.h"
#include "mlx5_tm_sched.h"
#include "mlx5_tm_sched_priv.h"
#include "rte_pmd_mlx5_tm.h"

/* The port's device if it is one of ours and open, else NULL. */
static struct rte_eth_dev *
our_port(uint16_t port_id)
{
	struct rte_eth_dev *dev;

	if (!rte_eth_dev_is_valid_port(port_id))
		return NULL;
	dev = &rte_eth_devices[port_id];
	if (dev->device == NULL || dev->device->driver == NULL ||
	    strcmp(dev->device->driver->name, "net_mlx5_tm") != 0 ||
	    mlx5_tm_priv(dev)->closed)
		return NULL;
	return dev;
}

struct mlx5_emu *
rte_pmd_mlx5_tm_emu(uint16_t port_id)
{
	struct rte_eth_dev *dev = our_port(port_id);

	if (dev == NULL) {
		rte_errno = ENODEV;
		return NULL;
	}
	/* The model lives in the primary process. */
	if (mlx5_tm_priv(dev)->emu == NULL ||
	    rte_eal_process_type() != RTE_PROC_PRIMARY) {
		rte_errno = ENOTSUP;
		return NULL;
	}
	mlx5_tm_priv(dev)->emu_taken = true;
	return mlx5_tm_priv(dev)->emu;
}

int
rte_pmd_mlx5_tm_txq_sqn(uint16_t port_id, uint16_t qid, uint32_t *sqn)
{
	struct rte_eth_dev *dev = our_port(port_id);
	const struct mlx5_tm_txq *txq;
	int ret = 0;

	if (dev == NULL)
		ret = -ENODEV;
	else if (sqn == NULL || qid >= dev->data->nb_tx_queues ||
		 dev->data->tx_queues[qid] == NULL)
		ret = -EINVAL;
	if (ret < 0) {
		rte_errno = -ret;
		return ret;
	}
	txq = dev->data->tx_queues[qid];
	if (!txq->live) {
		rte_errno = EAGAIN;
		return -EAGAIN;
	}
	*sqn = txq->sqn;
	return 0;
}

/* Fail with @p ret (a negative errno), also in rte_errno. */
static int
api_fail(int ret)
{
	rte_errno = -ret;
	return ret;
}

/*
 * Port @p port_id, for a call that talks to the device: the primary
 * process's (a secondary has no device context, only shared memory).
 * NULL with the errno in @p ret otherwise.
 */
static struct rte_eth_dev *
device_port(uint16_t port_id, int *ret)
{
	struct rte_eth_dev *dev = our_port(port_id);

	*ret = dev == NULL ? -ENODEV :
	       rte_eal_process_type() != RTE_PROC_PRIMARY ? -ENOTSUP : 0;
	return *ret == 0 ? dev : NULL;
}

int
rte_pmd_mlx5_tm_dev_info(uint16_t port_id,
			 struct rte_pmd_mlx5_tm_dev_info *info)
{
	struct rte_eth_dev *dev = our_port(port_id);
	const struct mlx5_tm_priv *priv;
	const struct mlx5_tm_caps *c;

	if (dev == NULL)
		return api_fail(-ENODEV);
	if (info == NULL)
		return api_fail(-EINVAL);
	priv = mlx5_tm_priv(dev);
	c = &priv->caps;
	memset(info, 0, sizeof(*info));
	info->emulated = priv->emu != NULL;
	snprintf(info->device, sizeof(info->device), "%s", priv->dev_name);
	info->packet_pacing = c->packet_pacing;
	info->pp_burst_bound = c->packet_pacing_burst_bound;
	info->pp_typical_size = c->packet_pacing_typical_size;
	info->wqe_rate_pp = c->wqe_rate_pp;
	info->pp_min_rate_kbps = c->packet_pacing_min_rate;
	info->pp_max_rate_kbps = c->packet_pacing_max_rate;
	info->pp_table_size = c->packet_pacing_rate_table_size;
	info->log_max_sq = c->log_max_sq;
	info->log_max_cq = c->log_max_cq;
	info->log_max_wq_sz = c->log_max_wq_sz;
	info->log_max_cq_sz = c->log_max_cq_sz;
	info->wqe_inline_mode = c->wqe_inline_mode;
	info->min_inline_mode = c->min_inline_mode;
	info->csum_cap = c->csum_cap;
	info->vlan_cap = c->vlan_cap;
	info->device_frequency_khz = c->device_frequency_khz;
	info->line_rate_mbps = c->line_rate_mbps;
	info->packet_pacing_uid = c->packet_pacing_uid;
	info->nic_sq_scheduling = c->nic_sq_scheduling;
	info->nic_bw_share = c->nic_bw_share;
	info->nic_rate_limit = c->nic_rate_limit;
	info->max_tsar_bw_share = c->max_tsar_bw_share;
	info->log_max_qos_nic_queue_group = c->log_max_qos_nic_queue_group;
	info->log_max_qos_nic_scheduling_element =
		c->log_max_qos_nic_scheduling_element;
	info->log_nic_max_sched_depth = c->log_nic_max_sched_depth;
	info->nic_element_type = c->nic_element_type;
	info->nic_tsar_type = c->nic_tsar_type;
	info->general_obj_types = c->general_obj_types;
	info->sq_ts_format = c->sq_ts_format_cap;
	info->sqc_ts_format = c->sq_ts_format;
	info->esw_mode = priv->port.esw_mode;
	snprintf(info->phys_port_name, sizeof(info->phys_port_name), "%s",
		 priv->port.phys_port_name);
	snprintf(info->phys_switch_id, sizeof(info->phys_switch_id), "%s",
		 priv->port.phys_switch_id);
	info->link_max_speed_mbps = priv->port.max_speed_mbps;
	return 0;
}

/* The started queue @p qid of @p dev, or NULL with the errno in @p ret. */
static struct mlx5_tm_txq *
live_txq(struct rte_eth_dev *dev, uint16_t qid, int *ret)
{
	struct mlx5_tm_txq *txq;

	if (qid >= dev->data->nb_tx_queues ||
	    dev->data->tx_queues[qid] == NULL) {
		*ret = -EINVAL;
		return NULL;
	}
	txq = dev->data->tx_queues[qid];
	if (!txq->live) {
		*ret = -EAGAIN;
		return NULL;
	}
	return txq;
}

int
rte_pmd_mlx5_tm_txq_query(uint16_t port_id, uint16_t qid,
			  struct rte_pmd_mlx5_tm_sq_info *info)
{
	struct mlx5_tm_priv *priv;
	struct mlx5_tm_txq *txq;
	struct rte_eth_dev *dev;
	int ret;

	dev = device_port(port_id, &ret);
	if (dev == NULL)
		return api_fail(ret);
	if (info == NULL)
		return api_fail(-EINVAL);
	priv = mlx5_tm_priv(dev);
	pthread_mutex_lock(&priv->lock);
	txq = live_txq(dev, qid, &ret);
	if (txq != NULL)
		ret = mlx5_tm_devx_sq_query(priv, txq->sq_obj, txq->sqn, info);
	pthread_mutex_unlock(&priv->lock);
	return ret < 0 ? api_fail(ret) : 0;
}

/*
 * The fields of @p c into @p snap, each a relaxed atomic load: the
 * datapath may be writing them (the sequence count says whether it did).
 */
static void
cmpl_snapshot(const struct mlx5_tm_txq_cmpl *c, struct mlx5_tm_txq_cmpl *snap)
{
	snap->cqes = __atomic_load_n(&c->cqes, __ATOMIC_RELAXED);
	snap->first_ts = __atomic_load_n(&c->first_ts, __ATOMIC_RELAXED);
	snap->first_packets = __atomic_load_n(&c->first_packets,
					      __ATOMIC_RELAXED);
	snap->first_bytes = __atomic_load_n(&c->first_bytes,
					    __ATOMIC_RELAXED);
	snap->last_ts = __atomic_load_n(&c->last_ts, __ATOMIC_RELAXED);
	snap->last_packets = __atomic_load_n(&c->last_packets,
					     __ATOMIC_RELAXED);
	snap->last_bytes = __atomic_load_n(&c->last_bytes, __ATOMIC_RELAXED);
}

/* sqc.ts_format values (PRM): the device's default, real time. */
#define SQC_TS_FORMAT_DEFAULT 1
#define SQC_TS_FORMAT_REAL_TIME 2
/* device_frequency_khz of a clock in real-time mode. */
#define RT_CLOCK_KHZ 1000000

/*
 * Device time of raw CQE time stamp @p ts in ns; false if unknown. The
 * default format is the clock's mode: real time when the device reports a
 * 1 GHz clock, as upstream DPDK infers when it cannot read the MTUTC
 * register.
 */
static bool
cqe_ts_ns(uint8_t ts_format, uint32_t freq_khz, uint64_t ts, uint64_t *ns)
{
	if (ts_format == SQC_TS_FORMAT_REAL_TIME ||
	    (ts_format == SQC_TS_FORMAT_DEFAULT && freq_khz == RT_CLOCK_KHZ)) {
		*ns = (ts >> 32) * 1000000000ULL + (ts & 0xffffffffULL);
		return true;
	}
	if (freq_khz == 0)
		return false;
	/* Ticks to ns, without overflow for any 64-bit tick count. */
	*ns = ts / freq_khz * 1000000ULL +
	      ts % freq_khz * 1000000ULL / freq_khz;
	return true;
}

/* Reads of the completion evidence before giving up on a busy writer. */
#define CMPL_READ_TRIES 1000

int
rte_pmd_mlx5_tm_txq_completions(uint16_t port_id, uint16_t qid,
				struct rte_pmd_mlx5_tm_txq_completions *c)
{
	struct rte_pmd_mlx5_tm_sq_info sq;
	struct mlx5_tm_txq_cmpl snap = { .cqes = 0 };
	struct mlx5_tm_priv *priv;
	struct mlx5_tm_txq *txq;
	struct rte_eth_dev *dev;
	uint32_t seq, tries;
	int ret;

	dev = device_port(port_id, &ret);
	if (dev == NULL)
		return api_fail(ret);
	if (c == NULL)
		return api_fail(-EINVAL);
	priv = mlx5_tm_priv(dev);
	pthread_mutex_lock(&priv->lock);
	txq = live_txq(dev, qid, &ret);
	if (txq != NULL)
		ret = mlx5_tm_devx_sq_query(priv, txq->sq_obj, txq->sqn, &sq);
	for (tries = 0; ret == 0 && tries < CMPL_READ_TRIES; tries++) {
		seq = rte_seqcount_read_begin(&txq->cmpl.seq);
		cmpl_snapshot(&txq->cmpl, &snap);
		if (!rte_seqcount_read_retry(&txq->cmpl.seq, seq))
			break;
	}
	pthread_mutex_unlock(&priv->lock);
	if (ret == 0 && tries == CMPL_READ_TRIES)
		ret = -EAGAIN;
	if (ret < 0)
		return api_fail(ret);
	memset(c, 0, sizeof(*c));
	c->cqes = snap.cqes;
	c->ts_format = sq.ts_format;
	c->first_packets = snap.first_packets;
	c->first_bytes = snap.first_bytes;
	c->last_packets = snap.last_packets;
	c->last_bytes = snap.last_bytes;
	c->ts_valid = cqe_ts_ns(sq.ts_format, priv->caps.device_frequency_khz,
				snap.first_ts, &c->first_ns) &&
		      cqe_ts_ns(sq.ts_format, priv->caps.device_frequency_khz,
				snap.last_ts, &c->last_ns);
	return 0;
}

int
rte_pmd_mlx5_tm_vport_tx(uint16_t port_id, struct rte_pmd_mlx5_tm_vport_tx *tx)
{
	struct rte_eth_dev *dev;
	int ret;

	dev = device_port(port_id, &ret);
	if (dev == NULL)
		return api_fail(ret);
	if (tx == NULL)
		return api_fail(-EINVAL);
	ret = mlx5_tm_devx_vport_tx(mlx5_tm_priv(dev), tx);
	return ret < 0 ? api_fail(ret) : 0;
}

int
rte_pmd_mlx5_tm_node_query(uint16_t port_id, uint32_t node_id,
			   struct rte_pmd_mlx5_tm_elem_info *info)
{
	struct mlx5_tm_sched_elem_attr a;
	const struct tm_elem *e = NULL;
	struct rte_eth_dev *dev;
	struct mlx5_tm_sched *s;
	int ret;

	dev = device_port(port_id, &ret);
	if (dev == NULL)
		return api_fail(ret);
	if (info == NULL)
		return api_fail(-EINVAL);
	ret = -ENOENT;
	s = mlx5_tm_sched_get(dev);
	if (s == NULL)
		return api_fail(-ENOENT);
	pthread_mutex_lock(&s->lock);
	if (node_id < s->applied.nb_txq)
		e = tm_plan_elem(&s->applied,
				 tm_plan_queue(&s->applied,
					       (uint16_t)node_id)->group);
	else
		e = tm_plan_node_elem(&s->applied, node_id);
	if (e != NULL && e->hw != NULL)
		ret = mlx5_tm_devx_sched_query(mlx5_tm_priv(dev), e->hw,
					       e->hw_id, &a);
	if (ret == 0) {
		memset(info, 0, sizeof(*info));
		info->element_id = e->hw_id;
		info->element_type = a.element_type;
		info->parent_id = a.parent_id;
		info->bw_share = a.bw_share;
		info->max_average_bw = a.max_average_bw;
	}
	pthread_mutex_unlock(&s->lock);
	return ret == 0 ? 0 : api_fail(ret);
}

/*
 * The frame of rte_pmd_mlx5_tm_txq_post_bad_lkey(): never sent, but
 * memory that stays valid whatever the device does with it (writable
 * data, which ibv_reg_mr() pins as it pins any). Zero MAC addresses,
 * EtherType 0x88b5 (local experimental): no header beyond L2 whatever
 * the SQ's inline mode.
 */
static uint8_t bad_lkey_frame[RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN]
	__rte_aligned(RTE_CACHE_LINE_SIZE) = { [12] = 0x88, [13] = 0xb5 };

int
rte_pmd_mlx5_tm_txq_post_bad_lkey(uint16_t port_id, uint16_t qid)
{
	struct mlx5_tm_priv *priv;
	struct mlx5_tm_txq *txq;
	struct rte_eth_dev *dev;
	struct mlx5_tm_mr *mr;
	uint32_t lkey;
	int ret;

	dev = device_port(port_id, &ret);
	if (dev == NULL)
		return api_fail(ret);
	priv = mlx5_tm_priv(dev);
	pthread_mutex_lock(&priv->lock);
	txq = live_txq(dev, qid, &ret);
	if (txq == NULL)
		goto out;
	/* A key the device knew and no longer does. */
	mr = priv->glue->reg_mr(priv->pd, bad_lkey_frame,
				sizeof(bad_lkey_frame), 0);
	if (mr == NULL) {
		ret = -(errno ? errno : EIO);
		MLX5_TM_TXQ_LOG(ERR, port_id, qid,
				"cannot register the frame whose key is then unregistered: %s",
				strerror(-ret));
		goto out;
	}
	lkey = mr->lkey;
	ret = priv->glue->dereg_mr(mr);
	if (ret < 0) {
		MLX5_TM_TXQ_LOG(ERR, port_id, qid,
				"cannot deregister memory key 0x%x: %s", lkey,
				strerror(-ret));
		goto out;
	}
	ret = mlx5_tm_tx_post_bad_lkey(txq, bad_lkey_frame,
				       sizeof(bad_lkey_frame), lkey);
	if (ret == 0)
		MLX5_TM_TXQ_LOG(DEBUG, port_id, qid,
				"posted a WQE naming unregistered memory key 0x%x on SQ 0x%x: it completes in error, the queue recovers",
				lkey, txq->sqn);
out:
	pthread_mutex_unlock(&priv->lock);
	return ret < 0 ? api_fail(ret) : 0;
}

int
rte_pmd_mlx5_tm_recover(uint16_t port_id)
{
	struct rte_eth_dev *dev;
	int ret;

	dev = device_port(port_id, &ret);
	if (dev == NULL)
		return api_fail(ret);
	/* The recovery alarm's period, waiting for the locks. */
	mlx5_tm_sched_lock(dev);
	mlx5_tm_sched_converge(dev, false);
	mlx5_tm_sched_unlock(dev);
	return 0;
}
