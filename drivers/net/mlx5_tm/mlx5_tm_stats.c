/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_spinlock.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_stats.h"
#include "mlx5_tm_tx.h"

/* A datapath counter, read from another thread. */
#define RD(v) __atomic_load_n(&(v), __ATOMIC_RELAXED)

/* Per-queue extended statistics (packets and bytes come from ethdev). */
enum {
	XQ_COMPLETIONS,
	XQ_ERROR_CQES,
	XQ_FLUSH_CQES,
	XQ_RING_FULL,
	XQ_DROPPED,
	XQ_ERROR_MBUFS,
	XQ_RECOVERIES,
	XQ_NB,                  /* Every device. */
	XQ_WIRE_PACKETS = XQ_NB,
	XQ_WIRE_BYTES,
	XQ_WIRE_RATE_BPS,
	XQ_WIRE_FIRST_NS,
	XQ_WIRE_LAST_NS,
	XQ_WIRE_MTU_DROPS,
	XQ_WIRE_RAN_DRY,
	XQ_NB_EMU,              /* The emulated device adds the wire's view. */
};

static const char *const xq_names[XQ_NB_EMU] = {
	[XQ_COMPLETIONS] = "completions",
	[XQ_ERROR_CQES] = "error_cqes",
	[XQ_FLUSH_CQES] = "flush_cqes",
	[XQ_RING_FULL] = "ring_full",
	[XQ_DROPPED] = "dropped",
	[XQ_ERROR_MBUFS] = "error_mbufs",
	[XQ_RECOVERIES] = "recoveries",
	[XQ_WIRE_PACKETS] = "wire_packets",
	[XQ_WIRE_BYTES] = "wire_bytes",
	[XQ_WIRE_RATE_BPS] = "wire_rate_bps",
	[XQ_WIRE_FIRST_NS] = "wire_first_ns",
	[XQ_WIRE_LAST_NS] = "wire_last_ns",
	[XQ_WIRE_MTU_DROPS] = "wire_mtu_drops",
	[XQ_WIRE_RAN_DRY] = "wire_ran_dry",
};

/* Port figures of the emulated device (before the per-queue ones). */
enum {
	XP_LAG_NS,
	XP_MAX_LAG_NS,
	XP_LAGGING,
	XP_LATE_PASSES,
	XP_PCAP_ERRNO,
	XP_NB_EMU,
};

static const char *const xp_names[XP_NB_EMU] = {
	[XP_LAG_NS] = "emu_lag_ns",
	[XP_MAX_LAG_NS] = "emu_max_lag_ns",
	[XP_LAGGING] = "emu_lagging",
	[XP_LATE_PASSES] = "emu_late_passes",
	/* The pcap= capture's failed write, 0 none (it ended there). */
	[XP_PCAP_ERRNO] = "emu_pcap_errno",
};

/*
 * The device model lives in the primary process: a secondary process
 * (statistics readers such as dpdk-proc-info) sees the queue counters,
 * which are in shared memory, and not the wire's figures.
 */
static bool
has_wire(const struct mlx5_tm_priv *priv)
{
	return priv->emu != NULL &&
	       rte_eal_process_type() == RTE_PROC_PRIMARY;
}

static unsigned int
xq_count(const struct mlx5_tm_priv *priv)
{
	return has_wire(priv) ? XQ_NB_EMU : XQ_NB;
}

static unsigned int
xp_count(const struct mlx5_tm_priv *priv)
{
	return has_wire(priv) ? XP_NB_EMU : 0;
}

/*
 * Statistics read what the datapath counts (and, on the device model,
 * the wire) under the port's stats lock alone: a spinlock in shared
 * memory, which a secondary process takes too, and which no control path
 * holds across a firmware command. So a read never waits for a commit or
 * a recovery, and a reset, from any process, never tears a read.
 */
static struct mlx5_tm_txq *
stats_txq(struct rte_eth_dev *dev, uint16_t qid)
{
	return dev->data->tx_queues != NULL ? dev->data->tx_queues[qid] : NULL;
}

void
mlx5_tm_stats_txq_publish(struct rte_eth_dev *dev, uint16_t qid,
			  struct mlx5_tm_txq *txq)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);

	rte_spinlock_lock(&priv->stats_lock);
	dev->data->tx_queues[qid] = txq;
	rte_spinlock_unlock(&priv->stats_lock);
}

int
mlx5_tm_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	uint16_t i;

	rte_spinlock_lock(&priv->stats_lock);
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		const struct mlx5_tm_txq *txq = stats_txq(dev, i);
		uint64_t pkts, bytes, errs;

		if (txq == NULL)
			continue;
		pkts = RD(txq->st.packets) - txq->base.packets;
		bytes = RD(txq->st.bytes) - txq->base.bytes;
		errs = RD(txq->st.dropped) - txq->base.dropped +
		       RD(txq->st.err_mbufs) - txq->base.err_mbufs;
		st->opackets += pkts;
		st->obytes += bytes;
		st->oerrors += errs;
		if (i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			st->q_opackets[i] = pkts;
			st->q_obytes[i] = bytes;
		}
	}
	rte_spinlock_unlock(&priv->stats_lock);
	return 0;
}

/*
 * Make the counters of every queue start from now: the basic ones, and
 * with @p extended the extended ones and the wire's.
 */
static void
stats_reset(struct rte_eth_dev *dev, bool extended)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	uint16_t i;

	rte_spinlock_lock(&priv->stats_lock);
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5_tm_txq *txq = stats_txq(dev, i);

		if (txq == NULL)
			continue;
		txq->base.packets = RD(txq->st.packets);
		txq->base.bytes = RD(txq->st.bytes);
		txq->base.dropped = RD(txq->st.dropped);
		txq->base.err_mbufs = RD(txq->st.err_mbufs);
		if (!extended)
			continue;
		txq->base.completions = RD(txq->st.completions);
		txq->base.err_cqes = RD(txq->st.err_cqes);
		txq->base.flush_cqes = RD(txq->st.flush_cqes);
		txq->base.ring_full = RD(txq->st.ring_full);
		txq->recoveries_base = RD(txq->recoveries);
		if (has_wire(priv) && RD(txq->live))
			priv->glue->sq_wire_clear(priv->gdev, txq->sqn);
	}
	rte_spinlock_unlock(&priv->stats_lock);
}

int
mlx5_tm_stats_reset(struct rte_eth_dev *dev)
{
	stats_reset(dev, false);
	return 0;
}

/* The wire's figures for a queue's SQ (emulated device). */
static void
wire_figures(struct mlx5_tm_priv *priv, const struct mlx5_tm_txq *txq,
	     uint64_t *v)
{
	struct mlx5_tm_glue_sq_wire info;

	v[XQ_WIRE_PACKETS] = 0;
	v[XQ_WIRE_BYTES] = 0;
	v[XQ_WIRE_RATE_BPS] = 0;
	v[XQ_WIRE_FIRST_NS] = 0;
	v[XQ_WIRE_LAST_NS] = 0;
	v[XQ_WIRE_MTU_DROPS] = 0;
	v[XQ_WIRE_RAN_DRY] = 0;
	if (!RD(txq->live) ||
	    priv->glue->sq_wire_get(priv->gdev, txq->sqn, &info) < 0)
		return;
	v[XQ_WIRE_PACKETS] = info.packets;
	v[XQ_WIRE_BYTES] = info.bytes;
	v[XQ_WIRE_FIRST_NS] = info.first_departure_ns;
	v[XQ_WIRE_LAST_NS] = info.last_departure_ns;
	v[XQ_WIRE_MTU_DROPS] = info.mtu_drops;
	v[XQ_WIRE_RAN_DRY] = info.ran_dry;
	/*
	 * The device's recent window: the last second of the SQ's sending
	 * time, idle and suspended stretches left out.
	 */
	if (info.recent_ns > 0)
		v[XQ_WIRE_RATE_BPS] = (uint64_t)((double)info.recent_bytes *
			8e9 / (double)info.recent_ns);
}

int
mlx5_tm_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		   unsigned int n)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	unsigned int per_q = xq_count(priv);
	unsigned int total = xp_count(priv) + per_q * dev->data->nb_tx_queues;
	unsigned int k = 0, j;
	uint16_t i;

	if (xs == NULL || n < total)
		return total;
	rte_spinlock_lock(&priv->stats_lock);
	if (has_wire(priv)) {
		struct mlx5_tm_glue_lag lag;

		priv->glue->lag_get(priv->gdev, &lag);
		xs[k].id = k;
		xs[k++].value = lag.lag_ns;
		xs[k].id = k;
		xs[k++].value = lag.max_lag_ns;
		xs[k].id = k;
		xs[k++].value = lag.lagging;
		xs[k].id = k;
		xs[k++].value = lag.late_passes;
		xs[k].id = k;
		xs[k++].value = (uint64_t)priv->glue->pcap_error(priv->gdev);
	}
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		const struct mlx5_tm_txq *txq = stats_txq(dev, i);
		uint64_t v[XQ_NB_EMU] = { 0 };

		if (txq != NULL) {
			v[XQ_COMPLETIONS] = RD(txq->st.completions) -
					    txq->base.completions;
			v[XQ_ERROR_CQES] = RD(txq->st.err_cqes) -
					   txq->base.err_cqes;
			v[XQ_FLUSH_CQES] = RD(txq->st.flush_cqes) -
					   txq->base.flush_cqes;
			v[XQ_RING_FULL] = RD(txq->st.ring_full) -
					  txq->base.ring_full;
			v[XQ_DROPPED] = RD(txq->st.dropped) -
					txq->base.dropped;
			v[XQ_ERROR_MBUFS] = RD(txq->st.err_mbufs) -
					    txq->base.err_mbufs;
			v[XQ_RECOVERIES] = RD(txq->recoveries) -
					   txq->recoveries_base;
			if (has_wire(priv))
				wire_figures(priv, txq, v);
		}
		for (j = 0; j < per_q; j++, k++) {
			xs[k].id = k;
			xs[k].value = v[j];
		}
	}
	rte_spinlock_unlock(&priv->stats_lock);
	return total;
}

int
mlx5_tm_xstats_get_names(struct rte_eth_dev *dev,
			 struct rte_eth_xstat_name *names, unsigned int n)
{
	const struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	unsigned int per_q = xq_count(priv);
	unsigned int total = xp_count(priv) + per_q * dev->data->nb_tx_queues;
	unsigned int k = 0, j;
	uint16_t i;

	if (names == NULL || n < total)
		return total;
	for (j = 0; j < xp_count(priv); j++, k++)
		snprintf(names[k].name, sizeof(names[k].name), "%s",
			 xp_names[j]);
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		for (j = 0; j < per_q; j++, k++)
			snprintf(names[k].name, sizeof(names[k].name),
				 "tx_q%u_%s", i, xq_names[j]);
	return total;
}

int
mlx5_tm_xstats_reset(struct rte_eth_dev *dev)
{
	stats_reset(dev, true);
	return 0;
}
