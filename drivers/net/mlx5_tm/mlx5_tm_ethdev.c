/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The net_mlx5_tm virtual device: probe and remove, port objects (PD,
 * transport domain, TIS) and the ethdev operations of the port (its Rx,
 * Tx-only or through a companion port, is mlx5_tm_rx.c's).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_alarm.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <bus_vdev_driver.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devargs.h"
#include "mlx5_tm_caps_read.h"
#include "mlx5_tm_devx.h"
#include "mlx5_tm_mr.h"
#include "mlx5_tm_rx.h"
#include "mlx5_tm_tx.h"
#include "mlx5_tm_txq.h"
#include "mlx5_tm_stats.h"
#include "mlx5_tm_rte_tm.h"
#include "mlx5_tm_sched.h"

RTE_LOG_REGISTER_DEFAULT(mlx5_tm_logtype, NOTICE);

/** Period of the error-recovery alarm while a port is started. */
#define MLX5_TM_RECOVERY_PERIOD_US 2000

static const struct eth_dev_ops mlx5_tm_ops;

/*
 * The reconciler's period on the EAL's alarm thread, which every alarm
 * and interrupt callback of the process shares: it never waits on the
 * sched lock, which an rte_tm call holds across every firmware command
 * of a commit; held, the period is skipped and counted (alarm_busy).
 */
static void
recovery_alarm(void *arg)
{
	struct rte_eth_dev *dev = arg;
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);

	if (mlx5_tm_sched_trylock(dev)) {
		mlx5_tm_sched_converge(dev, true);
		mlx5_tm_sched_unlock(dev);
	} else {
		__atomic_fetch_add(&priv->alarm_busy, 1, __ATOMIC_RELAXED);
	}
	/* Stop clears it, then cancels (which waits for this callback). */
	if (__atomic_load_n(&priv->alarm_armed, __ATOMIC_ACQUIRE) &&
	    rte_eal_alarm_set(MLX5_TM_RECOVERY_PERIOD_US, recovery_alarm,
			      dev) != 0)
		__atomic_store_n(&priv->alarm_armed, false, __ATOMIC_RELEASE);
	/* The callback's last access to the port: stop acquires it. */
	__atomic_fetch_add(&priv->alarm_runs, 1, __ATOMIC_RELEASE);
}

/*
 * Set the netdev MTU (hardware: SIOCSIFMTU) and remember it. The netdev's
 * MTU is read first: another program (ip link set mtu) may have changed
 * it since probe, and a set skipped against a stale copy would leave it.
 */
static int
mlx5_tm_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_port_info port;
	int ret;

	if (priv->glue->port_query(priv->gdev, &port) == 0)
		priv->port.mtu = port.mtu;
	if (mtu == priv->port.mtu)
		return 0;
	ret = priv->glue->port_set_mtu(priv->gdev, mtu);
	if (ret < 0) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "cannot set MTU %u on netdev %s: %s%s", mtu,
				 priv->port.ifname[0] ? priv->port.ifname : priv->dev_name,
				 strerror(-ret),
				 ret == -EPERM ? " (setting the MTU needs CAP_NET_ADMIN)" : "");
		return ret;
	}
	MLX5_TM_PORT_LOG(INFO, dev->data->port_id, "MTU %u -> %u",
			 priv->port.mtu, mtu);
	priv->port.mtu = mtu;
	return 0;
}

/* Tx offloads the device offers (from its capabilities). */
static uint64_t
mlx5_tm_tx_offload_capa(const struct rte_eth_dev *dev)
{
	const struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	uint64_t capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
			RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;

	if (priv->caps.csum_cap)
		capa |= RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
			RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	if (priv->caps.vlan_cap)
		capa |= RTE_ETH_TX_OFFLOAD_VLAN_INSERT;
	return capa;
}

static int
mlx5_tm_dev_configure(struct rte_eth_dev *dev)
{
	const struct rte_eth_conf *conf = &dev->data->dev_conf;
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);

	if (conf->txmode.offloads & ~mlx5_tm_tx_offload_capa(dev)) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id, "Tx offloads 0x%"
				 PRIx64 " not supported (device offers 0x%"
				 PRIx64 ")", conf->txmode.offloads,
				 mlx5_tm_tx_offload_capa(dev));
		return -ENOTSUP;
	}
	/*
	 * ethdev put rxmode.mtu (1500 unless the application gave one) in
	 * data->mtu. The netdev MTU is what the NIC enforces: raised to a
	 * larger MTU asked for, never lowered here (rte_eth_dev_set_mtu
	 * does that), and what data->mtu reports.
	 */
	if (dev->data->mtu > priv->port.mtu &&
	    mlx5_tm_mtu_set(dev, dev->data->mtu) < 0)
		return -EINVAL;
	dev->data->mtu = priv->port.mtu;
	return mlx5_tm_sched_txq_count_changed(dev, dev->data->nb_tx_queues);
}

static uint32_t
speed_capa(uint32_t mbps)
{
	switch (mbps) {
	case RTE_ETH_SPEED_NUM_10G: return RTE_ETH_LINK_SPEED_10G;
	case RTE_ETH_SPEED_NUM_25G: return RTE_ETH_LINK_SPEED_25G;
	case RTE_ETH_SPEED_NUM_40G: return RTE_ETH_LINK_SPEED_40G;
	case RTE_ETH_SPEED_NUM_50G: return RTE_ETH_LINK_SPEED_50G;
	case RTE_ETH_SPEED_NUM_100G: return RTE_ETH_LINK_SPEED_100G;
	case RTE_ETH_SPEED_NUM_200G: return RTE_ETH_LINK_SPEED_200G;
	default: return RTE_ETH_LINK_SPEED_FIXED; /* 400G: unnamed in 22.11 */
	}
}

static int
mlx5_tm_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	uint32_t max_sq = 1u << priv->caps.log_max_sq;
	uint16_t ring_max = mlx5_tm_txq_ring_size(dev, UINT16_MAX);

	info->max_tx_queues = RTE_MIN(max_sq, (uint32_t)MLX5_TM_MAX_TXQ);
	info->max_rx_queues = info->max_tx_queues; /* Never receive. */
	info->rx_desc_lim.nb_max = UINT16_MAX;
	info->rx_desc_lim.nb_min = 1;
	info->rx_desc_lim.nb_align = 1;
	info->max_mac_addrs = 1;
	/* The netdev's range; a frame may be MTU + 18 bytes (see mtu_set). */
	info->min_mtu = priv->port.min_mtu;
	info->max_mtu = priv->port.max_mtu;
	info->max_rx_pktlen = priv->port.max_mtu + RTE_ETHER_HDR_LEN +
			      RTE_ETHER_CRC_LEN;
	info->tx_offload_capa = mlx5_tm_tx_offload_capa(dev);
	info->tx_queue_offload_capa = info->tx_offload_capa;
	info->tx_desc_lim.nb_max = ring_max;
	info->tx_desc_lim.nb_min = RTE_MIN(64, ring_max);
	info->tx_desc_lim.nb_align = 1;
	info->tx_desc_lim.nb_seg_max = MLX5_TM_TX_MAX_SEGS;
	info->tx_desc_lim.nb_mtu_seg_max = MLX5_TM_TX_MAX_SEGS;
	info->default_txportconf.ring_size = RTE_MIN(1024, ring_max);
	info->default_txportconf.nb_queues = 1;
	info->default_txconf.tx_free_thresh = 0;
	info->speed_capa = speed_capa(priv->caps.line_rate_mbps);
	info->dev_capa = 0;
	return 0;
}

/*
 * The port's line rate as its netdev says it: the link speed (kept in
 * @p priv), else (link down: speed unknown) the last speed seen, so that
 * a link that drops does not move every share to a speed it never had;
 * before any, the fastest link mode it supports, as upstream mlx5 reads
 * the speed capabilities from the supported link modes; 0 when none is
 * known.
 */
static uint32_t
port_line_rate(struct mlx5_tm_priv *priv, const struct mlx5_tm_port_info *port)
{
	if (port->link_up && port->speed_mbps != 0)
		priv->last_speed_mbps = port->speed_mbps;
	return priv->last_speed_mbps != 0 ? priv->last_speed_mbps :
	       port->max_speed_mbps;
}

/*
 * Follow the line rate of @p port (read just now): capabilities and the
 * scheduling limits. Takes the sched lock: call with no lock held.
 */
static void
line_rate_refresh(struct rte_eth_dev *dev,
		  const struct mlx5_tm_port_info *port)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	uint32_t mbps = port_line_rate(priv, port);

	if (mbps == 0 || mbps == priv->caps.line_rate_mbps)
		return;
	MLX5_TM_PORT_LOG(INFO, dev->data->port_id,
			 "line rate %u -> %u Mbit/s (link %s)",
			 priv->caps.line_rate_mbps, mbps,
			 port->link_up ? "up" : priv->last_speed_mbps != 0 ?
			 "down: its last speed" : "down: its fastest mode");
	priv->caps.line_rate_mbps = mbps;
	mlx5_tm_sched_line_rate(dev, mbps);
}

void
mlx5_tm_line_rate_refresh(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_port_info port;

	if (priv->glue->port_query(priv->gdev, &port) == 0)
		line_rate_refresh(dev, &port);
}

/* Link of @p port (NULL: unreadable) while the port is started. */
static int
link_status_set(struct rte_eth_dev *dev, const struct mlx5_tm_port_info *port)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct rte_eth_link link = {
		.link_speed = RTE_ETH_SPEED_NUM_NONE,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
		.link_status = RTE_ETH_LINK_DOWN,
	};

	if (priv->started && port != NULL && port->link_up) {
		link.link_status = RTE_ETH_LINK_UP;
		link.link_speed = port->speed_mbps != 0 ? port->speed_mbps :
				  RTE_ETH_SPEED_NUM_UNKNOWN;
	}
	return rte_eth_linkstatus_set(dev, &link);
}

/*
 * Link of the netdev (hardware) or of the model's port, while started;
 * the line rate follows a link change. The primary's (secondary_link_update
 * is a secondary's).
 */
static int
mlx5_tm_link_update(struct rte_eth_dev *dev, int wait __rte_unused)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_port_info port;
	bool read;

	/* The link alone where the glue can read it alone (no MTU, MAC). */
	read = (priv->glue->link_query != NULL ?
		priv->glue->link_query(priv->gdev, &port) :
		priv->glue->port_query(priv->gdev, &port)) == 0;
	if (read)
		line_rate_refresh(dev, &port);
	return link_status_set(dev, read ? &port : NULL);
}

static void
stop_queues(struct rte_eth_dev *dev)
{
	uint16_t i;

	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		mlx5_tm_sched_txq_stop(dev, i);
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	}
}

static int
mlx5_tm_dev_start(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_port_info port;
	eth_tx_burst_t burst;
	bool fast_free, read;
	uint16_t i;
	int ret;

	if (priv->emu != NULL && !priv->emu_taken &&
	    priv->glue->clock_is_virtual != NULL &&
	    priv->glue->clock_is_virtual(priv->gdev)) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "clock=virtual: device time moves only when the application advances it (mlx5_emu_advance() on the model of rte_pmd_mlx5_tm_emu()), and this application never took the model, so no packet would ever leave; start refused. Use clock=realtime (the default) with testpmd and other applications");
		return -ENOTSUP;
	}
	/* The line rate of now, before the locks its refresh takes. */
	read = priv->glue->port_query(priv->gdev, &port) == 0;
	if (read)
		line_rate_refresh(dev, &port);
	mlx5_tm_sched_lock(dev);
	pthread_mutex_lock(&priv->lock);
	ret = mlx5_tm_mr_register_all(priv);
	if (ret < 0)
		goto out;
	burst = mlx5_tm_tx_burst_select(dev, &fast_free);
	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		struct mlx5_tm_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL) {
			MLX5_TM_TXQ_LOG(ERR, dev->data->port_id, i,
					"not set up");
			ret = -EINVAL;
			goto fail;
		}
		txq->fast_free = fast_free;
		ret = mlx5_tm_sched_txq_start(dev, i);
		if (ret < 0)
			goto fail;
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	}
	dev->tx_pkt_burst = burst;
	MLX5_TM_PORT_LOG(DEBUG, dev->data->port_id, "Tx burst %s",
			 mlx5_tm_tx_burst_name(burst));
	priv->started = true;
	link_status_set(dev, read ? &port : NULL);
	__atomic_store_n(&priv->alarm_armed, true, __ATOMIC_RELEASE);
	if (rte_eal_alarm_set(MLX5_TM_RECOVERY_PERIOD_US, recovery_alarm,
			      dev) != 0)
		__atomic_store_n(&priv->alarm_armed, false, __ATOMIC_RELEASE);
	if (!__atomic_load_n(&priv->alarm_armed, __ATOMIC_ACQUIRE))
		MLX5_TM_PORT_LOG(WARNING, dev->data->port_id,
				 "no recovery alarm: a queue that hits an error recovers only when the application calls rte_pmd_mlx5_tm_recover()");
	ret = 0;
	goto out;
fail:
	stop_queues(dev);
out:
	pthread_mutex_unlock(&priv->lock);
	mlx5_tm_sched_unlock(dev);
	return ret;
}

static int
mlx5_tm_dev_stop(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);

	/* Outside the lock: cancelling waits for a running alarm. */
	__atomic_store_n(&priv->alarm_armed, false, __ATOMIC_RELEASE);
	rte_eal_alarm_cancel(recovery_alarm, dev);
	/*
	 * The EAL's cancel waits for a running callback with a flag of its
	 * own; this acquire of the callback's last release states that
	 * order in the C memory model (ThreadSanitizer goes by it): nothing
	 * after, close's free of the port included, races the callback.
	 */
	(void)__atomic_load_n(&priv->alarm_runs, __ATOMIC_ACQUIRE);
	/*
	 * The sched lock too, in the lock order, as start takes them: it
	 * also orders this after an alarm that was running (its last
	 * unlock), which the EAL's cancel waits for out of TSan's sight.
	 */
	mlx5_tm_sched_lock(dev);
	pthread_mutex_lock(&priv->lock);
	stop_queues(dev);
	mlx5_tm_sched_reap(dev); /* No SQ holds a kept element now. */
	mlx5_tm_mr_gc(priv);
	priv->started = false;
	dev->data->dev_started = 0;
	/* Down; no line-rate refresh here: it takes the sched lock. */
	link_status_set(dev, NULL);
	pthread_mutex_unlock(&priv->lock);
	mlx5_tm_sched_unlock(dev);
	return 0;
}

/* Transport domain and TIS of the port (in its PD). */
static int
port_tis_create(struct mlx5_tm_priv *priv)
{
	priv->td = mlx5_tm_devx_td_create(priv, &priv->tdn);
	if (priv->td == NULL)
		return -(errno ? errno : EIO);
	priv->tis = mlx5_tm_devx_tis_create(priv, priv->tdn, &priv->tisn);
	if (priv->tis == NULL)
		return -(errno ? errno : EIO);
	return 0;
}

static void
port_tis_destroy(struct mlx5_tm_priv *priv)
{
	if (priv->tis != NULL)
		priv->glue->devx_obj_destroy(priv->tis);
	priv->tis = NULL;
	if (priv->td != NULL)
		priv->glue->devx_obj_destroy(priv->td);
	priv->td = NULL;
}

/* PD, transport domain and TIS of the port. */
static int
port_objs_create(struct mlx5_tm_priv *priv)
{
	priv->pd = priv->glue->pd_alloc(priv->gdev);
	if (priv->pd == NULL) {
		/* Taken before logging, which may change errno. */
		int err = errno ? errno : EIO;

		MLX5_TM_PORT_LOG(ERR, priv->dev->data->port_id,
				 "no protection domain: %s", strerror(err));
		return -err;
	}
	return port_tis_create(priv);
}

static void
port_objs_destroy(struct mlx5_tm_priv *priv)
{
	port_tis_destroy(priv);
	if (priv->pd != NULL)
		priv->glue->pd_free(priv->pd);
	priv->pd = NULL;
}

/*
 * Release everything the port holds; safe on a half-built port. Best
 * effort: what the device refuses stays, and the first refusal is
 * returned.
 */
static int
port_teardown(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	uint16_t i;
	int first, ret;

	for (i = 0; i < dev->data->nb_tx_queues; i++)
		mlx5_tm_txq_release(dev, i);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		mlx5_tm_rx_queue_release(dev, i);
	first = mlx5_tm_sched_uninit(dev);
	if (priv->mr != NULL)
		mlx5_tm_mr_uninit(priv);
	port_objs_destroy(priv);
	if (priv->gdev != NULL) {
		ret = priv->glue->close_device(priv->gdev);
		if (ret < 0)
			MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
					 "closing device %s: %s",
					 priv->dev_name, strerror(-ret));
		if (first == 0)
			first = ret;
	}
	priv->gdev = NULL;
	priv->emu = NULL;
	return first;
}

static int
mlx5_tm_dev_close(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY || priv->closed)
		return 0;
	mlx5_tm_rx_detach(dev); /* Stops receiving first. */
	if (priv->started)
		mlx5_tm_dev_stop(dev);
	/* Converges: what the device refused stays, and is said. */
	ret = port_teardown(dev);
	pthread_mutex_destroy(&priv->lock);
	priv->closed = true;
	if (ret != 0)
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "closed, the device keeping objects it refused to destroy: %s",
				 strerror(-ret));
	else
		MLX5_TM_PORT_LOG(INFO, dev->data->port_id, "closed");
	return ret;
}

static int
mlx5_tm_dev_reset(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	int ret;

	/* ethdev stopped the port: rebuild the TIS and transport domain. */
	pthread_mutex_lock(&priv->lock);
	port_tis_destroy(priv);
	ret = port_tis_create(priv);
	pthread_mutex_unlock(&priv->lock);
	return ret;
}

/* What the queue was set up with (shared memory: any process). */
static void
mlx5_tm_txq_info_get(struct rte_eth_dev *dev, uint16_t qid,
		     struct rte_eth_txq_info *info)
{
	const struct mlx5_tm_txq *txq = dev->data->tx_queues[qid];

	info->nb_desc = txq->nb_desc;
	info->conf.offloads = txq->offloads;
	info->conf.tx_free_thresh = 0; /* completions as the PMD decides */
	info->conf.tx_deferred_start = 0;
	info->queue_state = dev->data->tx_queue_state[qid];
}

static const struct eth_dev_ops mlx5_tm_ops = {
	.dev_configure = mlx5_tm_dev_configure,
	.dev_infos_get = mlx5_tm_dev_infos_get,
	.dev_start = mlx5_tm_dev_start,
	.dev_stop = mlx5_tm_dev_stop,
	.dev_close = mlx5_tm_dev_close,
	.dev_reset = mlx5_tm_dev_reset,
	.link_update = mlx5_tm_link_update,
	.stats_get = mlx5_tm_stats_get,
	.stats_reset = mlx5_tm_stats_reset,
	.xstats_get = mlx5_tm_xstats_get,
	.xstats_get_names = mlx5_tm_xstats_get_names,
	.xstats_reset = mlx5_tm_xstats_reset,
	.tx_queue_setup = mlx5_tm_txq_setup,
	.tx_queue_release = mlx5_tm_txq_release,
	.rx_queue_setup = mlx5_tm_rx_queue_setup,
	.rx_queue_release = mlx5_tm_rx_queue_release,
	.tx_done_cleanup = mlx5_tm_tx_done_cleanup,
	.set_queue_rate_limit = mlx5_tm_sched_set_queue_rate_limit,
	.mtu_set = mlx5_tm_mtu_set,
	.tm_ops_get = mlx5_tm_rte_tm_ops_get,
	.txq_info_get = mlx5_tm_txq_info_get,
};

/*
 * A secondary process (dpdk-proc-info, an application's monitor) reads
 * the port from shared memory: device information, the link as the
 * primary last saw it, queue information, statistics and extended
 * statistics (queue counters). The device (its context, queues, the
 * device model) belongs to the primary process, whose pointers mean
 * nothing here: a secondary neither configures, starts nor sends, and
 * every operation it may call reads shared memory only. Operations not
 * in its table (reset, MTU, queue release, Rx setup, Tx done cleanup)
 * are refused by ethdev with -ENOTSUP.
 */
static int
secondary_refused(const struct rte_eth_dev *dev, const char *what)
{
	MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
			 "%s from a secondary process is not supported: the primary process owns the device and its send queues; a secondary reads statistics, extended statistics and telemetry",
			 what);
	return -ENOTSUP;
}

static int
secondary_configure(struct rte_eth_dev *dev)
{
	return secondary_refused(dev, "configuring");
}

static int
secondary_start(struct rte_eth_dev *dev)
{
	return secondary_refused(dev, "starting");
}

static int
secondary_stop(struct rte_eth_dev *dev)
{
	return secondary_refused(dev, "stopping");
}

static int
secondary_close(struct rte_eth_dev *dev __rte_unused)
{
	return 0; /* The primary closes the port. */
}

/*
 * The link as the primary process last set it in shared memory (at
 * start, stop and its own link queries): the netdev or the model is the
 * primary's to ask.
 */
static int
secondary_link_update(struct rte_eth_dev *dev __rte_unused,
		      int wait __rte_unused)
{
	return 0;
}

static int
secondary_txq_setup(struct rte_eth_dev *dev, uint16_t qid __rte_unused,
		    uint16_t nb_desc __rte_unused,
		    unsigned int socket __rte_unused,
		    const struct rte_eth_txconf *conf __rte_unused)
{
	return secondary_refused(dev, "setting up a Tx queue");
}

static int
secondary_rate_limit(struct rte_eth_dev *dev, uint16_t qid __rte_unused,
		     uint32_t mbps __rte_unused)
{
	return secondary_refused(dev, "setting a queue rate limit");
}

static int
secondary_tm_ops_get(struct rte_eth_dev *dev, void *ops __rte_unused)
{
	return secondary_refused(dev, "traffic management (rte_tm)");
}

/* Burst function of a secondary process: nothing is sent. */
static uint16_t
mlx5_tm_tx_burst_secondary(void *txq __rte_unused,
			   struct rte_mbuf **pkts __rte_unused,
			   uint16_t n __rte_unused)
{
	static bool logged;

	/* Once per process: a sending loop must not flood the log. */
	if (!__atomic_exchange_n(&logged, true, __ATOMIC_RELAXED))
		MLX5_TM_LOG(ERR,
			    "sending from a secondary process is not supported: the primary process owns the send queues; rte_eth_tx_burst() returns 0 here");
	return 0;
}

static const struct eth_dev_ops mlx5_tm_secondary_ops = {
	.dev_configure = secondary_configure,
	.dev_infos_get = mlx5_tm_dev_infos_get,
	.dev_start = secondary_start,
	.dev_stop = secondary_stop,
	.dev_close = secondary_close,
	.link_update = secondary_link_update,
	.stats_get = mlx5_tm_stats_get,
	.stats_reset = mlx5_tm_stats_reset,
	.xstats_get = mlx5_tm_xstats_get,
	.xstats_get_names = mlx5_tm_xstats_get_names,
	.xstats_reset = mlx5_tm_xstats_reset,
	.tx_queue_setup = secondary_txq_setup,
	.set_queue_rate_limit = secondary_rate_limit,
	.tm_ops_get = secondary_tm_ops_get,
	.txq_info_get = mlx5_tm_txq_info_get,
};

static int
probe_secondary(struct rte_vdev_device *vdev, const char *name)
{
	struct rte_eth_dev *dev = rte_eth_dev_attach_secondary(name);

	if (dev == NULL) {
		MLX5_TM_LOG(ERR,
			    "%s: secondary process: the primary process has no such port",
			    name);
		return -ENODEV;
	}
	dev->dev_ops = &mlx5_tm_secondary_ops;
	dev->device = &vdev->device;
	dev->rx_pkt_burst = mlx5_tm_rx_burst_none;
	dev->tx_pkt_burst = mlx5_tm_tx_burst_secondary;
	rte_eth_dev_probing_finish(dev);
	MLX5_TM_PORT_LOG(INFO, dev->data->port_id,
			 "%s attached by a secondary process (statistics only)",
			 name);
	return 0;
}

/* Why dev= found nothing, with the devices that exist. */
static void
log_no_device(const char *name, const char *dev)
{
	char list[512];
	int n = mlx5_tm_glue_rdma_list(list, sizeof(list));

	if (n <= 0)
		MLX5_TM_LOG(ERR,
			    "%s: no mlx5 device found (dev=%s; devices present: none); to run without hardware use emu=cx5|cx6dx|cx7",
			    name, dev);
	else
		MLX5_TM_LOG(ERR,
			    "%s: no mlx5 device found (dev=%s; devices present: %s); to run without hardware use emu=cx5|cx6dx|cx7",
			    name, dev, list);
}

/* Messages of the device model go to the PMD's log type. */
static void
emu_log(int level, const char *msg)
{
	/* The model speaks syslog levels; rte_log's are one higher. */
	rte_log(RTE_MIN((uint32_t)level + 1, (uint32_t)RTE_LOG_DEBUG),
		mlx5_tm_logtype, "mlx5_tm: device model: %s\n", msg);
}


/*
 * ConnectX-5 PCI device ids (PF, VF, Ex, Ex VF), and BlueField-1 (PF,
 * VF), whose NIC is a ConnectX-5 (upstream's CONNECTX5BF ids).
 */
static bool
is_connectx5(uint16_t pci_device_id)
{
	return (pci_device_id >= 0x1017 && pci_device_id <= 0x101a) ||
	       pci_device_id == 0xa2d2 || pci_device_id == 0xa2d3;
}

/*
 * Say once, at probe, where the E-Switch role could not be confirmed by
 * devlink (DEVLINK_CMD_ESWITCH_GET needs CAP_NET_ADMIN in the initial
 * user namespace, and the devlink instance in the caller's network
 * namespace), or where devlink contradicts what sysfs shows.
 */
static void
esw_role_warn(const struct mlx5_tm_priv *priv)
{
	const struct mlx5_tm_port_info *p = &priv->port;
	uint16_t port_id = priv->dev->data->port_id;
	int err = -p->esw_devlink_err;

	if (p->esw_disagree)
		MLX5_TM_PORT_LOG(WARNING, port_id,
				 "devlink says the E-Switch of %s is in %s mode, but %u IB port%s and %u representor netdev%s say otherwise; devlink's word taken",
				 priv->dev_name,
				 p->esw_mode == 1 ? "switchdev" : "legacy",
				 p->ib_ports, p->ib_ports == 1 ? "" : "s",
				 p->esw_representors,
				 p->esw_representors == 1 ? "" : "s");
	if (err == 0)
		return;
	MLX5_TM_PORT_LOG(WARNING, port_id,
			 "devlink cannot say the E-Switch mode of %s: %s%s; taken as %s from %u IB port%s and %u representor netdev%s beside netdev %s",
			 priv->dev_name, strerror(err),
			 err == EPERM ? " (DEVLINK_CMD_ESWITCH_GET needs CAP_NET_ADMIN in the initial user namespace)" :
			 err == ENODEV ? " (the devlink instance is in another network namespace than this process)" :
			 "",
			 p->switchdev ? "switchdev" : "legacy", p->ib_ports,
			 p->ib_ports == 1 ? "" : "s", p->esw_representors,
			 p->esw_representors == 1 ? "" : "s",
			 p->ifname[0] ? p->ifname : "(none)");
}

/*
 * Read the netdev: MTU, link, MAC, E-Switch role. A representor, or a
 * port in switchdev mode, is refused: its SQs reach the wire only through
 * a per-SQ E-Switch rule (upstream mlx5 adds one), which this PMD does
 * not create. The role is decided as upstream decides it (the port name,
 * the devlink mode: mlx5_tm_netdev.h), not by a switch id alone.
 */
static int
port_read(struct mlx5_tm_priv *priv)
{
	static const uint8_t zero[RTE_ETHER_ADDR_LEN];
	struct rte_eth_dev *dev = priv->dev;
	int ret;

	ret = priv->glue->port_query(priv->gdev, &priv->port);
	if (ret < 0) {
		MLX5_TM_PORT_LOG(WARNING, dev->data->port_id,
				 "cannot read the netdev of %s: %s; MTU assumed 1500, link unknown",
				 priv->dev_name, strerror(-ret));
		memset(&priv->port, 0, sizeof(priv->port));
		priv->port.esw_mode = -1;
		priv->port.mtu = RTE_ETHER_MTU;
		priv->port.min_mtu = RTE_ETHER_MIN_MTU;
		priv->port.max_mtu = RTE_ETHER_MTU;
		return 0;
	}
	esw_role_warn(priv);
	if (priv->port.representor) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "netdev%s%s of %s is an E-Switch representor (phys_port_name %s): it stands for another function's port in switchdev mode, its send queues do not reach that port's wire; probe the PF (uplink) or the VF itself, with its E-Switch in legacy mode (devlink dev eswitch set pci/<address> mode legacy)",
				 priv->port.ifname[0] ? " " : "",
				 priv->port.ifname, priv->dev_name,
				 priv->port.phys_port_name);
		return -ENOTSUP;
	}
	if (priv->port.switchdev) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "the E-Switch of %s%s%s is in switchdev mode: its send queues reach the wire only through a per-queue E-Switch rule, which net_mlx5_tm does not create, so every frame would be dropped; set the E-Switch to legacy mode (devlink dev eswitch set pci/<address> mode legacy) or use the mlx5 PMD",
				 priv->dev_name,
				 priv->port.ifname[0] ? " netdev " : "",
				 priv->port.ifname);
		return -ENOTSUP;
	}
	dev->data->mtu = priv->port.mtu;
	if (memcmp(priv->port.mac, zero, sizeof(zero)) != 0)
		memcpy(dev->data->mac_addrs->addr_bytes, priv->port.mac,
		       RTE_ETHER_ADDR_LEN);
	return 0;
}

/*
 * The CPUs of EAL's worker lcores, where an application's senders poll:
 * the device model's thread keeps off them unless cpus= says otherwise.
 */
static void
worker_cpus(rte_cpuset_t *cpus)
{
	unsigned int lcore;

	CPU_ZERO(cpus);
	RTE_LCORE_FOREACH_WORKER(lcore) {
		rte_cpuset_t lc = rte_lcore_cpuset(lcore);

		CPU_OR(cpus, cpus, &lc);
	}
}

static int
open_device(struct mlx5_tm_priv *priv, const char *name,
	    const struct mlx5_tm_devargs *da)
{
	priv->glue = da->emulated ? da->emu_glue : &mlx5_tm_glue_rdma;
	if (priv->glue->set_log != NULL)
		priv->glue->set_log(emu_log);
	if (da->emulated) {
		rte_cpuset_t busy;

		worker_cpus(&busy);
		priv->glue->opts_busy_cpus(da->emu_opts, &busy);
	}
	priv->gdev = priv->glue->open_device(da->dev, da->emu_opts);
	if (priv->gdev == NULL) {
		int err = errno ? errno : ENODEV;

		if (!da->emulated && err == ENODEV)
			log_no_device(name, da->dev);
		else
			MLX5_TM_LOG(ERR, "%s: cannot open %s device %s: %s",
				    name, priv->glue->name, da->dev,
				    strerror(err));
		return -err;
	}
	priv->emu = priv->glue->model != NULL ?
		    priv->glue->model(priv->gdev) : NULL;
	return 0;
}

static int
mlx5_tm_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct mlx5_tm_devargs *da;
	struct rte_eth_dev *dev;
	struct mlx5_tm_priv *priv;
	struct rte_ether_addr *mac;
	char err[1024];
	bool fast_free;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return probe_secondary(vdev, name);
	da = calloc(1, sizeof(*da));
	if (da == NULL)
		return -ENOMEM;
	ret = mlx5_tm_devargs_parse(rte_vdev_device_args(vdev), da, err,
				    sizeof(err));
	if (ret < 0) {
		MLX5_TM_LOG(ERR, "%s: %s", name, err);
		mlx5_tm_devargs_free(da);
		free(da);
		return ret;
	}
	dev = rte_eth_vdev_allocate(vdev, sizeof(*priv));
	if (dev == NULL) {
		mlx5_tm_devargs_free(da);
		free(da);
		return -ENOMEM;
	}
	priv = mlx5_tm_priv(dev);
	priv->dev = dev;
	priv->pacing = da->pacing;
	priv->txq_mpw_en = da->txq_mpw_en;
	snprintf(priv->dev_name, sizeof(priv->dev_name), "%s", da->dev);
	pthread_mutex_init(&priv->lock, NULL);
	rte_spinlock_init(&priv->stats_lock);
	mac = rte_zmalloc_socket(name, sizeof(*mac), 0, rte_socket_id());
	if (mac == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	/* Locally administered, unique per port. */
	*mac = (struct rte_ether_addr){
		{ 0x02, 0x6d, 0x6c, 0x35, 0x00, dev->data->port_id & 0xff } };
	dev->data->mac_addrs = mac;
	ret = open_device(priv, name, da);
	if (ret < 0)
		goto fail;
	ret = port_read(priv);
	if (ret < 0)
		goto fail;
	ret = mlx5_tm_caps_read(priv, port_line_rate(priv, &priv->port));
	if (ret < 0)
		goto fail;
	/*
	 * As upstream mlx5 (mlx5_set_min_inline): ConnectX-5 reports
	 * wqe_vlan_insert, "but there is the bug and PFC control may be
	 * broken". Upstream disables it where it identifies the NIC by PCI
	 * id; here it is off on every ConnectX-5.
	 */
	if (priv->caps.vlan_cap && is_connectx5(priv->port.pci_device_id)) {
		priv->caps.vlan_cap = false;
		MLX5_TM_PORT_LOG(INFO, dev->data->port_id,
				 "VLAN insertion off on ConnectX-5");
	}
	ret = port_objs_create(priv);
	if (ret < 0)
		goto fail;
	ret = mlx5_tm_mr_init(priv);
	if (ret < 0)
		goto fail;
	ret = mlx5_tm_sched_init(dev);
	if (ret < 0) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "scheduling layer: %s", strerror(-ret));
		goto fail;
	}
	dev->dev_ops = &mlx5_tm_ops;
	dev->rx_pkt_burst = mlx5_tm_rx_burst_none;
	dev->tx_pkt_burst = mlx5_tm_tx_burst_select(dev, &fast_free);
	dev->tx_descriptor_status = mlx5_tm_tx_descriptor_status;
	dev->data->dev_flags |= RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	dev->data->dev_link.link_status = RTE_ETH_LINK_DOWN;
	if (da->rx_port[0] != '\0') {
		ret = mlx5_tm_rx_attach(dev, da->rx_port);
		if (ret < 0)
			goto fail;
	}
	rte_eth_dev_probing_finish(dev);
	MLX5_TM_PORT_LOG(INFO, dev->data->port_id, "%s on %s device %s%s%s",
			 name, priv->glue->name, da->dev,
			 priv->pacing.dedicated ? ", dedicated pacing indices" : "",
			 priv->caps.packet_pacing ? "" : ", no packet pacing");
	mlx5_tm_devargs_free(da);
	free(da);
	return 0;
fail:
	port_teardown(dev);
	pthread_mutex_destroy(&priv->lock);
	rte_eth_dev_release_port(dev);
	mlx5_tm_devargs_free(da);
	free(da);
	return ret;
}

static int
mlx5_tm_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev;

	dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));
	if (dev == NULL)
		return 0; /* Already closed. */
	mlx5_tm_dev_close(dev);
	return rte_eth_dev_release_port(dev);
}

static struct rte_vdev_driver mlx5_tm_vdev_driver = {
	.probe = mlx5_tm_probe,
	.remove = mlx5_tm_remove,
};

RTE_PMD_REGISTER_VDEV(net_mlx5_tm, mlx5_tm_vdev_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_mlx5_tm, MLX5_TM_DEVARGS_PARAMS);
