/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Rx of a net_mlx5_tm port: Tx-only queues that never fill, or a companion
 * port (rx_port=) that receives for us, composed into our port as DPDK's
 * failsafe and bonding PMDs compose theirs. The companion is owned by our
 * port so that applications neither see it (RTE_ETH_FOREACH_DEV skips
 * owned ports) nor configure it under us. Its operations are reached
 * through a copy of our operations table with the Rx entries replaced.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_rx.h"

/** Our driver's name: a port of ours cannot be a companion. */
#define MLX5_TM_DRIVER_NAME "net_mlx5_tm"

/** MAC addresses a companion-mode port keeps (its companion's, capped). */
#define MLX5_TM_RX_MAX_MACS 128

/** The companion of one port (mlx5_tm_priv.rx), control path only. */
struct mlx5_tm_rx {
	uint16_t port_id;                 /**< Companion port. */
	char name[RTE_ETH_NAME_MAX_LEN];  /**< Its ethdev name. */
	struct rte_eth_dev_owner owner;   /**< Our ownership of it. */
	bool configured;  /**< Configured with our Rx queues (> 0). */
	bool started;     /**< Started by our dev_start. */
	bool gone;        /**< Removed under us (RTE_ETH_EVENT_DESTROY). */
	/** Our operations without a companion (restored at detach). */
	const struct eth_dev_ops *base;
	/** Our operations in companion mode: base with the Rx ops replaced. */
	struct eth_dev_ops ops;
};

static struct mlx5_tm_rx *
rx_of(const struct rte_eth_dev *dev)
{
	return mlx5_tm_priv(dev)->rx;
}

int
mlx5_tm_rx_companion(const struct rte_eth_dev *dev)
{
	const struct mlx5_tm_rx *rx = rx_of(dev);

	if (rx == NULL || rx->gone)
		return -ENODEV;
	return rx->port_id;
}

/* ---- Rx queues and burst ---- */

uint16_t
mlx5_tm_rx_burst_none(void *rxq __rte_unused,
		      struct rte_mbuf **pkts __rte_unused,
		      uint16_t n __rte_unused)
{
	return 0;
}

/* The companion's queue, mapped at setup: no lookup per burst. */
static uint16_t
rx_burst_companion(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	const struct mlx5_tm_rxq *rxq = q;

	return rte_eth_rx_burst(rxq->port_id, rxq->queue_id, pkts, n);
}

static uint32_t
rx_queue_count_companion(void *q)
{
	const struct mlx5_tm_rxq *rxq = q;
	int ret = rte_eth_rx_queue_count(rxq->port_id, rxq->queue_id);

	return ret < 0 ? 0 : (uint32_t)ret;
}

static int
rx_descriptor_status_companion(void *q, uint16_t offset)
{
	const struct mlx5_tm_rxq *rxq = q;

	return rte_eth_rx_descriptor_status(rxq->port_id, rxq->queue_id,
					    offset);
}

int
mlx5_tm_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		       uint16_t nb_desc, unsigned int socket,
		       const struct rte_eth_rxconf *conf,
		       struct rte_mempool *mp)
{
	struct mlx5_tm_rx *rx = rx_of(dev);
	struct mlx5_tm_rxq *rxq;
	int ret;

	mlx5_tm_rx_queue_release(dev, qid);
	rxq = rte_zmalloc_socket("mlx5_tm_rxq", sizeof(*rxq), 0, socket);
	if (rxq == NULL)
		return -ENOMEM;
	rxq->port_id = RTE_MAX_ETHPORTS;
	rxq->queue_id = qid;
	rxq->deferred = conf != NULL && conf->rx_deferred_start;
	if (rx == NULL) {
		/*
		 * Accepted: applications that pair Rx and Tx queues (testpmd
		 * forwards on min(rxq, txq) streams) need them to use
		 * several Tx queues.
		 */
		if (qid == 0)
			MLX5_TM_PORT_LOG(NOTICE, dev->data->port_id,
					 "Rx queues of a Tx-only port never receive; to receive, give devarg rx_port=<ethdev name or port id> (the net_mlx5 port of the same NIC)");
	} else {
		ret = mlx5_tm_rx_companion(dev);
		if (ret >= 0)
			ret = rte_eth_rx_queue_setup(rx->port_id, qid, nb_desc,
						     socket, conf, mp);
		if (ret < 0) {
			MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
					 "Rx queue %u (%u descriptors): companion %s (port %u) refused it: %s",
					 qid, nb_desc, rx->name, rx->port_id,
					 strerror(-ret));
			rte_free(rxq);
			return ret;
		}
		rxq->port_id = rx->port_id;
	}
	dev->data->rx_queues[qid] = rxq;
	return 0;
}

void
mlx5_tm_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid)
{
	/* The companion's queue goes with its next configure or close. */
	rte_free(dev->data->rx_queues[qid]);
	dev->data->rx_queues[qid] = NULL;
}

static int
rx_queue_start(struct rte_eth_dev *dev, uint16_t qid)
{
	int ret = mlx5_tm_rx_companion(dev);

	if (ret >= 0)
		ret = rte_eth_dev_rx_queue_start(ret, qid);
	if (ret == 0)
		dev->data->rx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STARTED;
	return ret;
}

static int
rx_queue_stop(struct rte_eth_dev *dev, uint16_t qid)
{
	int ret = mlx5_tm_rx_companion(dev);

	if (ret >= 0)
		ret = rte_eth_dev_rx_queue_stop(ret, qid);
	if (ret == 0)
		dev->data->rx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STOPPED;
	return ret;
}

static void
rxq_info_get(struct rte_eth_dev *dev, uint16_t qid,
	     struct rte_eth_rxq_info *qinfo)
{
	int port = mlx5_tm_rx_companion(dev);

	if (port >= 0)
		rte_eth_rx_queue_info_get(port, qid, qinfo);
	/* Ours: not every PMD keeps its queue states. */
	qinfo->queue_state = dev->data->rx_queue_state[qid];
}

/* ---- port life cycle: ours first up, the companion first down ---- */

static int
rx_dev_configure(struct rte_eth_dev *dev)
{
	struct mlx5_tm_rx *rx = rx_of(dev);
	struct rte_eth_conf conf;
	int ret;

	ret = rx->base->dev_configure(dev);
	if (ret < 0)
		return ret;
	rx->configured = false;
	if (dev->data->nb_rx_queues == 0)
		return 0; /* Tx only for now: the companion is left alone. */
	ret = mlx5_tm_rx_companion(dev);
	if (ret < 0) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "companion %s was removed: no Rx", rx->name);
		return ret;
	}
	/* Our Rx configuration; Tx is ours alone. */
	conf = dev->data->dev_conf;
	memset(&conf.txmode, 0, sizeof(conf.txmode));
	conf.intr_conf.lsc = 0;
	ret = rte_eth_dev_configure(rx->port_id, dev->data->nb_rx_queues, 0,
				    &conf);
	if (ret < 0) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "companion %s (port %u) refused %u Rx queues with Rx offloads 0x%"
				 PRIx64 ": %s", rx->name, rx->port_id,
				 dev->data->nb_rx_queues, conf.rxmode.offloads,
				 strerror(-ret));
		return ret;
	}
	rx->configured = true;
	return 0;
}

static int
rx_dev_start(struct rte_eth_dev *dev)
{
	struct mlx5_tm_rx *rx = rx_of(dev);
	uint16_t i;
	int ret;

	for (i = 0; i < dev->data->nb_rx_queues; i++)
		if (dev->data->rx_queues[i] == NULL) {
			MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
					 "Rx queue %u is not set up", i);
			return -EINVAL;
		}
	ret = rx->base->dev_start(dev);
	if (ret < 0 || !rx->configured)
		return ret;
	ret = mlx5_tm_rx_companion(dev);
	if (ret >= 0)
		ret = rte_eth_dev_start(rx->port_id);
	if (ret < 0) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "companion %s (port %u) did not start: %s",
				 rx->name, rx->port_id, strerror(-ret));
		rx->base->dev_stop(dev);
		return ret;
	}
	rx->started = true;
	for (i = 0; i < dev->data->nb_rx_queues; i++) {
		const struct mlx5_tm_rxq *rxq = dev->data->rx_queues[i];

		dev->data->rx_queue_state[i] = rxq->deferred ?
			RTE_ETH_QUEUE_STATE_STOPPED :
			RTE_ETH_QUEUE_STATE_STARTED;
	}
	return 0;
}

/* Stop receiving; safe when the companion is stopped or gone. */
static void
companion_stop(struct rte_eth_dev *dev)
{
	struct mlx5_tm_rx *rx = rx_of(dev);
	uint16_t i;
	int ret;

	if (rx->started && !rx->gone) {
		ret = rte_eth_dev_stop(rx->port_id);
		if (ret < 0)
			MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
					 "stopping companion %s (port %u): %s",
					 rx->name, rx->port_id, strerror(-ret));
	}
	rx->started = false;
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
}

static int
rx_dev_stop(struct rte_eth_dev *dev)
{
	companion_stop(dev);
	return rx_of(dev)->base->dev_stop(dev);
}

/* ---- what the companion answers for ---- */

static int
rx_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct mlx5_tm_rx *rx = rx_of(dev);
	struct rte_eth_dev_info ci;
	int ret;

	ret = rx->base->dev_infos_get(dev, info);
	if (ret < 0)
		return ret;
	ret = mlx5_tm_rx_companion(dev);
	if (ret >= 0)
		ret = rte_eth_dev_info_get(rx->port_id, &ci);
	if (ret < 0) {
		info->max_rx_queues = 0;
		return 0;
	}
	info->max_rx_queues = RTE_MIN(ci.max_rx_queues,
				      (uint16_t)RTE_MAX_QUEUES_PER_PORT);
	info->rx_desc_lim = ci.rx_desc_lim;
	info->rx_offload_capa = ci.rx_offload_capa;
	info->rx_queue_offload_capa = ci.rx_queue_offload_capa;
	info->default_rxconf = ci.default_rxconf;
	info->default_rxportconf = ci.default_rxportconf;
	info->rx_seg_capa = ci.rx_seg_capa;
	info->min_rx_bufsize = ci.min_rx_bufsize;
	info->max_rx_pktlen = ci.max_rx_pktlen;
	info->max_lro_pkt_size = ci.max_lro_pkt_size;
	info->flow_type_rss_offloads = ci.flow_type_rss_offloads;
	info->hash_key_size = ci.hash_key_size;
	info->reta_size = ci.reta_size;
	info->max_mac_addrs = RTE_MIN(RTE_MAX(ci.max_mac_addrs, 1u),
				      (uint32_t)MLX5_TM_RX_MAX_MACS);
	/* One MTU for both directions: what both ports accept. */
	info->min_mtu = RTE_MAX(info->min_mtu, ci.min_mtu);
	info->max_mtu = RTE_MIN(info->max_mtu, ci.max_mtu);
	return 0;
}

static int
rx_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct mlx5_tm_rx *rx = rx_of(dev);
	struct rte_eth_stats cs;
	unsigned int i;
	int ret;

	ret = rx->base->stats_get(dev, st);
	if (ret < 0)
		return ret;
	/* Rx from the companion, Tx (above) from us. */
	st->ipackets = 0;
	st->ibytes = 0;
	st->imissed = 0;
	st->ierrors = 0;
	st->rx_nombuf = 0;
	if (mlx5_tm_rx_companion(dev) < 0 ||
	    rte_eth_stats_get(rx->port_id, &cs) != 0)
		return 0;
	st->ipackets = cs.ipackets;
	st->ibytes = cs.ibytes;
	st->imissed = cs.imissed;
	st->ierrors = cs.ierrors;
	st->rx_nombuf = cs.rx_nombuf;
	for (i = 0; i < RTE_ETHDEV_QUEUE_STAT_CNTRS; i++) {
		st->q_ipackets[i] = cs.q_ipackets[i];
		st->q_ibytes[i] = cs.q_ibytes[i];
	}
	return 0;
}

static int
rx_stats_reset(struct rte_eth_dev *dev)
{
	struct mlx5_tm_rx *rx = rx_of(dev);
	int ret = rx->base->stats_reset(dev);

	if (ret == 0 && mlx5_tm_rx_companion(dev) >= 0)
		ret = rte_eth_stats_reset(rx->port_id);
	return ret;
}

static int
rx_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct mlx5_tm_rx *rx = rx_of(dev);
	uint16_t old;
	int ret;

	ret = mlx5_tm_rx_companion(dev);
	if (ret < 0)
		return ret;
	ret = rte_eth_dev_get_mtu(rx->port_id, &old);
	if (ret == 0)
		ret = rte_eth_dev_set_mtu(rx->port_id, mtu);
	if (ret < 0 || rx->base->mtu_set == NULL)
		return ret;
	ret = rx->base->mtu_set(dev, mtu);
	if (ret < 0)
		rte_eth_dev_set_mtu(rx->port_id, old); /* Both or neither. */
	return ret;
}

/* Forward a call taking only the companion's port id. */
#define FORWARD(fn, call) \
static int \
fn(struct rte_eth_dev *dev) \
{ \
	int port = mlx5_tm_rx_companion(dev); \
\
	return port < 0 ? port : call(port); \
}

FORWARD(rx_promiscuous_enable, rte_eth_promiscuous_enable)
FORWARD(rx_promiscuous_disable, rte_eth_promiscuous_disable)
FORWARD(rx_allmulticast_enable, rte_eth_allmulticast_enable)
FORWARD(rx_allmulticast_disable, rte_eth_allmulticast_disable)

static int
rx_mac_addr_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? port : rte_eth_dev_default_mac_addr_set(port, addr);
}

static int
rx_mac_addr_add(struct rte_eth_dev *dev, struct rte_ether_addr *addr,
		uint32_t index __rte_unused, uint32_t vmdq)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? port : rte_eth_dev_mac_addr_add(port, addr, vmdq);
}

static void
rx_mac_addr_remove(struct rte_eth_dev *dev, uint32_t index)
{
	int port = mlx5_tm_rx_companion(dev);

	/* ethdev clears our copy after this call. */
	if (port >= 0)
		rte_eth_dev_mac_addr_remove(port, &dev->data->mac_addrs[index]);
}

static int
rx_set_mc_addr_list(struct rte_eth_dev *dev, struct rte_ether_addr *list,
		    uint32_t n)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? port : rte_eth_dev_set_mc_addr_list(port, list, n);
}

static int
rx_reta_update(struct rte_eth_dev *dev,
	       struct rte_eth_rss_reta_entry64 *conf, uint16_t size)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? port : rte_eth_dev_rss_reta_update(port, conf, size);
}

static int
rx_reta_query(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
	      uint16_t size)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? port : rte_eth_dev_rss_reta_query(port, conf, size);
}

static int
rx_rss_hash_update(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? port : rte_eth_dev_rss_hash_update(port, conf);
}

static int
rx_rss_hash_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *conf)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? port : rte_eth_dev_rss_hash_conf_get(port, conf);
}

static int
rx_flow_ops_get(struct rte_eth_dev *dev __rte_unused,
		const struct rte_flow_ops **ops)
{
	/* Never the companion's own ops: they would be given our dev. */
	*ops = &mlx5_tm_rx_flow_ops;
	return 0;
}

/* ---- attach and detach ---- */

/* The companion was removed under us (its vdev removed first). */
static int
companion_event(uint16_t port_id, enum rte_eth_event_type event __rte_unused,
		void *arg, void *ret_param __rte_unused)
{
	struct rte_eth_dev *dev = arg;
	struct mlx5_tm_rx *rx = rx_of(dev);

	if (rx == NULL || rx->gone || port_id != rx->port_id)
		return 0;
	rx->gone = true;
	rx->started = false;
	rx->configured = false;
	MLX5_TM_PORT_LOG(WARNING, dev->data->port_id,
			 "companion %s (port %u) removed: no more Rx", rx->name,
			 port_id);
	return 0;
}

/* rx_port= value: a port id (digits) or an ethdev name. */
static int
resolve(const char *value, uint16_t *port)
{
	char *end;
	unsigned long id;

	if (value[0] >= '0' && value[0] <= '9') {
		errno = 0;
		id = strtoul(value, &end, 10);
		if (errno != 0 || *end != '\0' || id >= RTE_MAX_ETHPORTS ||
		    !rte_eth_dev_is_valid_port(id))
			return -ENODEV;
		*port = id;
		return 0;
	}
	return rte_eth_dev_get_port_by_name(value, port) == 0 ? 0 : -ENODEV;
}

/* "net_ring0 (port 0), ..." of the ports an application may use. */
static void
list_ports(char *buf, size_t len)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	size_t off = 0;
	uint16_t p;

	buf[0] = '\0';
	RTE_ETH_FOREACH_DEV(p) {
		if (off >= len || rte_eth_dev_get_name_by_port(p, name) != 0)
			continue;
		off += snprintf(buf + off, len - off, "%s%s (port %u)",
				off ? ", " : "", name, p);
	}
	if (off == 0)
		snprintf(buf, len, "none");
}

/* Why @p port cannot be our companion, or NULL if it can. */
static const char *
refuse_reason(const struct rte_eth_dev *dev, uint16_t port, char *buf,
	      size_t len)
{
	struct rte_eth_dev_owner owner;
	struct rte_eth_dev_info ci;

	if (port == dev->data->port_id)
		return "it is this port";
	if (rte_eth_dev_info_get(port, &ci) != 0)
		return "its device information cannot be read";
	if (ci.driver_name != NULL &&
	    strcmp(ci.driver_name, MLX5_TM_DRIVER_NAME) == 0)
		return "it is a net_mlx5_tm port, which does not receive";
	if (rte_eth_dev_owner_get(port, &owner) != 0)
		return "its owner cannot be read";
	if (owner.id != RTE_ETH_DEV_NO_OWNER) {
		snprintf(buf, len, "it is already owned by '%s'", owner.name);
		return buf;
	}
	if (rte_eth_devices[port].data->dev_started)
		return "it is started (a companion must be stopped)";
	return NULL;
}

int
mlx5_tm_rx_attach(struct rte_eth_dev *dev, const char *value)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	const char *name = dev->data->name;
	struct rte_ether_addr *macs = NULL;
	struct mlx5_tm_rx *rx = NULL;
	struct rte_eth_dev_info ci;
	const char *why;
	char buf[512];
	uint16_t port;
	uint32_t nb_macs;
	int ret;

	if (resolve(value, &port) < 0) {
		list_ports(buf, sizeof(buf));
		MLX5_TM_LOG(ERR,
			    "%s: bad value '%s' for devarg rx_port: no such ethdev port; ports available: %s (a --vdev companion must come before %s on the command line)",
			    name, value, buf, name);
		return -ENODEV;
	}
	why = refuse_reason(dev, port, buf, sizeof(buf));
	if (why != NULL) {
		MLX5_TM_LOG(ERR,
			    "%s: bad value '%s' for devarg rx_port: port %u cannot be the companion: %s",
			    name, value, port, why);
		return -EINVAL;
	}
	ret = rte_eth_dev_info_get(port, &ci);
	if (ret != 0)
		return ret;
	nb_macs = RTE_MIN(RTE_MAX(ci.max_mac_addrs, 1u),
			  (uint32_t)MLX5_TM_RX_MAX_MACS);
	rx = rte_zmalloc_socket("mlx5_tm_rx", sizeof(*rx), 0,
				dev->data->numa_node);
	macs = rte_zmalloc_socket("mlx5_tm_rx_macs", sizeof(*macs) * nb_macs,
				  0, dev->data->numa_node);
	if (rx == NULL || macs == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	rx->port_id = port;
	rte_eth_dev_get_name_by_port(port, rx->name);
	ret = rte_eth_macaddr_get(port, &macs[0]);
	if (ret != 0)
		goto fail;
	ret = rte_eth_dev_owner_new(&rx->owner.id);
	if (ret != 0)
		goto fail;
	snprintf(rx->owner.name, sizeof(rx->owner.name), "%s", name);
	ret = rte_eth_dev_owner_set(port, &rx->owner);
	if (ret != 0) {
		MLX5_TM_PORT_LOG(ERR, dev->data->port_id,
				 "cannot own companion %s (port %u): %s",
				 rx->name, port, strerror(-ret));
		goto fail;
	}
	ret = rte_eth_dev_callback_register(RTE_ETH_ALL, RTE_ETH_EVENT_DESTROY,
					    companion_event, dev);
	if (ret != 0) {
		rte_eth_dev_owner_delete(rx->owner.id);
		goto fail;
	}
	rx->base = dev->dev_ops;
	rx->ops = *dev->dev_ops;
	rx->ops.dev_configure = rx_dev_configure;
	rx->ops.dev_start = rx_dev_start;
	rx->ops.dev_stop = rx_dev_stop;
	rx->ops.dev_infos_get = rx_dev_infos_get;
	rx->ops.stats_get = rx_stats_get;
	rx->ops.stats_reset = rx_stats_reset;
	rx->ops.mtu_set = rx_mtu_set;
	rx->ops.rx_queue_start = rx_queue_start;
	rx->ops.rx_queue_stop = rx_queue_stop;
	rx->ops.rxq_info_get = rxq_info_get;
	rx->ops.promiscuous_enable = rx_promiscuous_enable;
	rx->ops.promiscuous_disable = rx_promiscuous_disable;
	rx->ops.allmulticast_enable = rx_allmulticast_enable;
	rx->ops.allmulticast_disable = rx_allmulticast_disable;
	rx->ops.mac_addr_set = rx_mac_addr_set;
	rx->ops.mac_addr_add = rx_mac_addr_add;
	rx->ops.mac_addr_remove = rx_mac_addr_remove;
	rx->ops.set_mc_addr_list = rx_set_mc_addr_list;
	rx->ops.reta_update = rx_reta_update;
	rx->ops.reta_query = rx_reta_query;
	rx->ops.rss_hash_update = rx_rss_hash_update;
	rx->ops.rss_hash_conf_get = rx_rss_hash_conf_get;
	rx->ops.flow_ops_get = rx_flow_ops_get;
	priv->rx = rx;
	dev->dev_ops = &rx->ops;
	rte_free(dev->data->mac_addrs);
	dev->data->mac_addrs = macs;
	dev->rx_pkt_burst = rx_burst_companion;
	dev->rx_queue_count = rx_queue_count_companion;
	dev->rx_descriptor_status = rx_descriptor_status_companion;
	MLX5_TM_PORT_LOG(INFO, dev->data->port_id,
			 "receives through companion %s (port %u)", rx->name,
			 port);
	return 0;
fail:
	rte_free(macs);
	rte_free(rx);
	return ret;
}

void
mlx5_tm_rx_detach(struct rte_eth_dev *dev)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_rx *rx = priv->rx;

	if (rx == NULL)
		return;
	companion_stop(dev);
	rte_eth_dev_callback_unregister(RTE_ETH_ALL, RTE_ETH_EVENT_DESTROY,
					companion_event, dev);
	/* Given back stopped: the application sees it again. */
	rte_eth_dev_owner_delete(rx->owner.id);
	dev->dev_ops = rx->base;
	dev->rx_pkt_burst = mlx5_tm_rx_burst_none;
	dev->rx_queue_count = NULL;
	dev->rx_descriptor_status = NULL;
	priv->rx = NULL;
	MLX5_TM_PORT_LOG(INFO, dev->data->port_id,
			 "companion %s (port %u) released", rx->name,
			 rx->port_id);
	rte_free(rx);
}
