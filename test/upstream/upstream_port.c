/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Upstream net/mlx5's Tx burst behind an ethdev port (see upstream_port.h).
 *
 * The burst functions are instantiated here from upstream's templates with
 * MLX5_TXOFF_DECL and the offload sets of upstream's own table
 * (mlx5_tx.c, txoff_func): what upstream's mlx5_select_tx_function()
 * picks for a single queue on a ConnectX-6 Dx without metadata or
 * checksum offloads. The queue is filled as upstream's mlx5_txq_new(),
 * txq_set_params() and mlx5_txq_devx_obj_new() fill it.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mlx5_tx.h"

#include <dev_driver.h>
#include <ethdev_driver.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include "upstream_dev.h"
#include "upstream_port.h"
#include "upstream_shims.h"

/* Upstream's burst functions, with upstream's names and offload sets. */
MLX5_TXOFF_DECL(none, MLX5_TXOFF_CONFIG_NONE)
MLX5_TXOFF_DECL(i, MLX5_TXOFF_CONFIG_INLINE | MLX5_TXOFF_CONFIG_METADATA)
MLX5_TXOFF_DECL(mt, MLX5_TXOFF_CONFIG_MULTI | MLX5_TXOFF_CONFIG_TSO |
		MLX5_TXOFF_CONFIG_METADATA)
MLX5_TXOFF_DECL(none_empw, MLX5_TXOFF_CONFIG_NONE | MLX5_TXOFF_CONFIG_EMPW)
MLX5_TXOFF_DECL(i_empw, MLX5_TXOFF_CONFIG_INLINE |
		MLX5_TXOFF_CONFIG_METADATA | MLX5_TXOFF_CONFIG_EMPW)
MLX5_TXOFF_DECL(mt_empw, MLX5_TXOFF_CONFIG_MULTI | MLX5_TXOFF_CONFIG_TSO |
		MLX5_TXOFF_CONFIG_METADATA | MLX5_TXOFF_CONFIG_EMPW)

static const struct {
	const char *name;
	eth_tx_burst_t burst;
	bool inline_data;
	bool multi_seg;
	bool empw;
} up_variants[UPSTREAM_NB_VARIANTS] = {
	[UPSTREAM_NONE] = { "none", mlx5_tx_burst_none, false, false, false },
	[UPSTREAM_INLINE] = { "i", mlx5_tx_burst_i, true, false, false },
	[UPSTREAM_MULTI] = { "mt", mlx5_tx_burst_mt, false, true, false },
	[UPSTREAM_EMPW] = { "none_empw", mlx5_tx_burst_none_empw, false,
			    false, true },
	[UPSTREAM_EMPW_INLINE] = { "i_empw", mlx5_tx_burst_i_empw, true,
				   false, true },
	[UPSTREAM_EMPW_MULTI] = { "mt_empw", mlx5_tx_burst_mt_empw, false,
				  true, true },
};

/* ethdev wants a device with a driver name (rte_eth_dev_info_get). */
static const struct rte_driver up_driver = { .name = "upstream_mlx5_tx" };

/* The port's private data. */
struct up_port {
	struct rte_device device;
	char name[RTE_ETH_NAME_MAX_LEN];
	enum upstream_variant v;
	uint32_t dev_gen;               /* MR generation: never changes */
	struct upstream_dev dev;        /* the model, its SQ, CQ and MRs */
	/*
	 * The queue in its control structure, and a private data with only
	 * what upstream's error-CQE handling reads (the port, no dump
	 * files): it reaches them from the queue with container_of().
	 */
	struct mlx5_txq_ctrl *ctrl;
	struct mlx5_txq_data *txq;
	struct mlx5_priv *priv;
};

const char *
upstream_variant_name(enum upstream_variant v)
{
	return (unsigned int)v < UPSTREAM_NB_VARIANTS ?
	       up_variants[v].name : NULL;
}

int
upstream_variant_multi_seg(enum upstream_variant v)
{
	return (unsigned int)v < UPSTREAM_NB_VARIANTS &&
	       up_variants[v].multi_seg;
}

uint64_t
upstream_port_mr_misses(void)
{
	return upstream_mr_misses;
}

static unsigned int
up_log2above(unsigned int v)
{
	unsigned int l = 0;

	while ((1u << l) < v)
		l++;
	return l;
}

/*
 * Bytes upstream inlines at least (txq_inline_min) for the device's
 * required inline mode, aligned as txq_set_params() aligns them.
 */
static unsigned int
up_inline_min(uint8_t mode)
{
	unsigned int len;

	switch (mode) {
	case MLX5_INLINE_MODE_NONE:
		return 0;
	case MLX5_INLINE_MODE_L2:
		len = MLX5_INLINE_HSIZE_L2;
		break;
	case MLX5_INLINE_MODE_IP:
		len = MLX5_INLINE_HSIZE_L3;
		break;
	default:
		len = MLX5_INLINE_HSIZE_L4;
		break;
	}
	if (len <= MLX5_ESEG_MIN_INLINE_SIZE)
		return MLX5_ESEG_MIN_INLINE_SIZE;
	len = RTE_ALIGN(len - MLX5_ESEG_MIN_INLINE_SIZE, MLX5_WSEG_SIZE) +
	      MLX5_ESEG_MIN_INLINE_SIZE;
	return RTE_MIN(len, MLX5_SEND_MAX_INLINE_LEN);
}

/*
 * Inline lengths of txq_set_params() for an inlining queue with the
 * default txq_inline_max and txq_inline_mpw and @p inlen_mode bytes of
 * required inline header: aligned so that inlined data fills whole WQEBBs.
 */
static void
up_inline_lengths(bool empw, uint16_t inlen_mode, uint16_t *inlen_send,
		  uint16_t *inlen_empw)
{
	unsigned int send = MLX5_SEND_DEF_INLINE_LEN;
	unsigned int mpw = MLX5_EMPW_DEF_INLINE_LEN;
	unsigned int hdr = MLX5_ESEG_MIN_INLINE_SIZE + MLX5_WQE_DSEG_SIZE;

	send = RTE_MAX(send, hdr) - hdr;
	send = RTE_ALIGN(send, MLX5_WQE_SIZE) + hdr;
	send = RTE_MIN(send, MLX5_WQE_SIZE_MAX + MLX5_ESEG_MIN_INLINE_SIZE -
		       MLX5_WQE_CSEG_SIZE - MLX5_WQE_ESEG_SIZE -
		       MLX5_WQE_DSEG_SIZE * 2);
	send = RTE_MIN(send, MLX5_SEND_MAX_INLINE_LEN);
	*inlen_send = (uint16_t)RTE_MAX(send, inlen_mode);
	*inlen_empw = 0;
	if (!empw)
		return;
	mpw = RTE_MAX(mpw, MLX5_WQE_SIZE + MLX5_DSEG_MIN_INLINE_SIZE) -
	      MLX5_DSEG_MIN_INLINE_SIZE;
	mpw = RTE_ALIGN(mpw, MLX5_WQE_SIZE) + MLX5_DSEG_MIN_INLINE_SIZE;
	mpw = RTE_MIN(mpw, MLX5_WQE_SIZE_MAX + MLX5_DSEG_MIN_INLINE_SIZE -
		      MLX5_WQE_CSEG_SIZE - MLX5_WQE_ESEG_SIZE -
		      MLX5_WQE_DSEG_SIZE);
	mpw = RTE_MIN(mpw, MLX5_EMPW_MAX_INLINE_LEN);
	*inlen_empw = (uint16_t)mpw;
}

/* Register every memseg list with the queue's PD (mbufs live there). */
static int
up_reg_memseg_list(const struct rte_memseg_list *msl, void *arg)
{
	struct up_port *p = arg;

	if (msl->base_va == NULL || msl->len == 0)
		return 0;
	return upstream_dev_reg(&p->dev, msl->base_va, msl->len) == 0 ? 0 : -1;
}

static void
up_queue_free(struct up_port *p)
{
	if (p->txq != NULL) {
		/* Mbufs still waiting for their completion. */
		while (p->txq->elts_tail != p->txq->elts_head) {
			struct rte_mbuf *m =
				p->txq->elts[p->txq->elts_tail & p->txq->elts_m];

			rte_pktmbuf_free_seg(m);
			p->txq->elts_tail++;
		}
		rte_free(p->txq->fcqs);
		rte_free(p->ctrl);
		p->ctrl = NULL;
		p->txq = NULL;
	}
	rte_free(p->priv);
	p->priv = NULL;
}

static int
up_tx_queue_setup(struct rte_eth_dev *dev, uint16_t idx, uint16_t desc,
		  unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct up_port *p = dev->data->dev_private;
	uint64_t offloads = dev->data->dev_conf.txmode.offloads |
			    (conf != NULL ? conf->offloads : 0);
	uint16_t inlen_mode = up_inline_min(p->dev.min_inline);
	uint16_t inlen_send = 0, inlen_empw = 0;
	struct mlx5_txq_data *txq;
	unsigned int elts_n, cqe_n, wqe_size, wqe_n, i;
	int ret;

	if (idx != 0 || p->txq != NULL)
		return -EINVAL;
	elts_n = up_log2above(desc);
	if (up_variants[p->v].inline_data)
		up_inline_lengths(up_variants[p->v].empw, inlen_mode,
				  &inlen_send, &inlen_empw);
	/* mlx5_txq_devx_obj_new(): CQ and SQ sizes. */
	cqe_n = (1u << elts_n) / MLX5_TX_COMP_THRESH + 1 +
		MLX5_TX_COMP_THRESH_INLINE_DIV;
	cqe_n = 1u << up_log2above(cqe_n);
	wqe_size = MLX5_WQE_CSEG_SIZE + MLX5_WQE_ESEG_SIZE +
		   MLX5_WQE_DSEG_SIZE;
	if (inlen_send)
		wqe_size = RTE_MAX(wqe_size, MLX5_WQE_CSEG_SIZE +
				   MLX5_WQE_ESEG_SIZE +
				   RTE_ALIGN(inlen_send + sizeof(uint32_t),
					     MLX5_WSEG_SIZE));
	wqe_size = RTE_ALIGN(wqe_size, MLX5_WQE_SIZE) / MLX5_WQE_SIZE;
	wqe_n = RTE_MIN((1u << elts_n) * wqe_size, 1u << 15);
	ret = upstream_dev_queue(&p->dev, up_log2above(wqe_n),
				 up_log2above(cqe_n));
	if (ret < 0)
		return ret;
	if (p->dev.nb_mr == 0 &&
	    (rte_memseg_list_walk(up_reg_memseg_list, p) != 0 ||
	     p->dev.nb_mr == 0))
		return -ENOSPC;
	p->priv = rte_zmalloc_socket("upstream_priv", sizeof(*p->priv),
				     RTE_CACHE_LINE_SIZE, socket);
	p->ctrl = rte_zmalloc_socket("upstream_txq", sizeof(*p->ctrl) +
				     (sizeof(p->ctrl->txq.elts[0]) << elts_n),
				     RTE_CACHE_LINE_SIZE, socket);
	if (p->priv == NULL || p->ctrl == NULL) {
		up_queue_free(p);
		return -ENOMEM;
	}
	p->priv->dev_data = dev->data;
	p->ctrl->priv = p->priv;
	txq = &p->ctrl->txq;
	p->txq = txq;
	txq->fcqs = rte_zmalloc_socket("upstream_fcqs",
				       sizeof(txq->fcqs[0]) * cqe_n,
				       RTE_CACHE_LINE_SIZE, socket);
	if (txq->fcqs == NULL) {
		up_queue_free(p);
		return -ENOMEM;
	}
	txq->elts_n = elts_n;
	txq->elts_s = 1u << elts_n;
	txq->elts_m = txq->elts_s - 1;
	txq->offloads = offloads;
	txq->port_id = dev->data->port_id;
	txq->idx = idx;
	txq->fast_free = (offloads & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE) &&
			 !(offloads & RTE_ETH_TX_OFFLOAD_MULTI_SEGS);
	txq->inlen_send = inlen_send;
	txq->inlen_empw = inlen_empw;
	txq->inlen_mode = inlen_mode;
	txq->cqe_n = up_log2above(cqe_n);
	txq->cqe_s = cqe_n;
	txq->cqe_m = cqe_n - 1;
	txq->cqes = p->dev.cq_ring;
	txq->cq_db = p->dev.cq_dbrec;
	txq->wqe_n = p->dev.log_sq;
	txq->wqe_s = 1u << p->dev.log_sq;
	txq->wqe_m = txq->wqe_s - 1;
	txq->wqes = p->dev.sq_ring;
	txq->wqes_end = txq->wqes + txq->wqe_s;
	txq->wqe_thres = txq->wqe_s / MLX5_TX_COMP_THRESH_INLINE_DIV;
	txq->qp_db = &p->dev.sq_dbrec[MLX5_SND_DBR];
	txq->qp_num_8s = p->dev.sqn << 8;
	/* The MR cache holds every MR: look-ups never miss. */
	txq->mr_ctrl.dev_gen_ptr = &p->dev_gen;
	txq->mr_ctrl.cur_gen = p->dev_gen;
	for (i = 0; i < p->dev.nb_mr && i < MLX5_MR_CACHE_N; i++) {
		txq->mr_ctrl.cache[i].start = p->dev.mr_start[i];
		txq->mr_ctrl.cache[i].end = p->dev.mr_end[i];
		txq->mr_ctrl.cache[i].lkey =
			rte_cpu_to_be_32(p->dev.mr_lkey[i]);
	}
	upstream_mr_fallback_lkey = rte_cpu_to_be_32(p->dev.mr_lkey[0]);
	MLX5_PROC_PRIV(dev->data->port_id)->uar_table[idx].db =
		p->dev.uar_reg;
	dev->data->tx_queues[idx] = txq;
	return 0;
}

static void
up_tx_queue_release(struct rte_eth_dev *dev, uint16_t idx)
{
	struct up_port *p = dev->data->dev_private;

	if (idx == 0)
		up_queue_free(p);
	dev->data->tx_queues[idx] = NULL;
}

static int
up_dev_infos_get(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct up_port *p = dev->data->dev_private;

	info->max_rx_queues = 1;
	info->max_tx_queues = 1;
	info->max_rx_pktlen = 9978;
	info->max_mac_addrs = 1;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (up_variants[p->v].multi_seg)
		info->tx_offload_capa |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	info->tx_desc_lim.nb_max = 1u << 15;
	info->tx_desc_lim.nb_min = 1;
	info->tx_desc_lim.nb_align = 1;
	return 0;
}

static int
up_dev_configure(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

static int
up_dev_start(struct rte_eth_dev *dev)
{
	dev->data->tx_queue_state[0] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

static int
up_dev_stop(struct rte_eth_dev *dev)
{
	dev->data->tx_queue_state[0] = RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

static int
up_link_update(struct rte_eth_dev *dev __rte_unused, int wait __rte_unused)
{
	return 0;
}

static int
up_dev_close(struct rte_eth_dev *dev)
{
	struct up_port *p = dev->data->dev_private;

	up_queue_free(p);
	upstream_dev_close(&p->dev);
	rte_free(dev->process_private);
	dev->process_private = NULL;
	return 0;
}

static const struct eth_dev_ops up_ops = {
	.dev_configure = up_dev_configure,
	.dev_start = up_dev_start,
	.dev_stop = up_dev_stop,
	.dev_close = up_dev_close,
	.dev_infos_get = up_dev_infos_get,
	.link_update = up_link_update,
	.tx_queue_setup = up_tx_queue_setup,
	.tx_queue_release = up_tx_queue_release,
};

int
upstream_port_create(const char *tag, const char *profile,
		     enum upstream_variant v, uint16_t *port_id)
{
	struct rte_eth_dev *dev;
	struct up_port *p;
	char name[RTE_ETH_NAME_MAX_LEN];
	int ret;

	if ((unsigned int)v >= UPSTREAM_NB_VARIANTS || profile == NULL)
		return -EINVAL;
	p = rte_zmalloc("upstream_port", sizeof(*p), RTE_CACHE_LINE_SIZE);
	if (p == NULL)
		return -ENOMEM;
	ret = upstream_dev_open(&p->dev, profile);
	if (ret < 0) {
		rte_free(p);
		return ret;
	}
	/*
	 * Where the device requires inline headers, upstream inlines in
	 * every WQE and leaves eMPW (mlx5_select_tx_function()): it never
	 * runs the other variants there.
	 */
	if (p->dev.min_inline != MLX5_INLINE_MODE_NONE &&
	    (!up_variants[v].inline_data || up_variants[v].empw)) {
		upstream_dev_close(&p->dev);
		rte_free(p);
		return -ENOTSUP;
	}
	snprintf(name, sizeof(name), "upstream_mlx5_%s", tag);
	dev = rte_eth_dev_allocate(name);
	if (dev == NULL) {
		upstream_dev_close(&p->dev);
		rte_free(p);
		return -ENOSPC;
	}
	dev->data->mac_addrs = rte_zmalloc("upstream_mac",
					   sizeof(struct rte_ether_addr), 0);
	dev->process_private = rte_zmalloc("upstream_ppriv",
		sizeof(struct mlx5_proc_priv) + sizeof(struct mlx5_uar_data),
		RTE_CACHE_LINE_SIZE);
	if (dev->data->mac_addrs == NULL || dev->process_private == NULL) {
		upstream_dev_close(&p->dev);
		rte_free(p);
		rte_free(dev->process_private);
		dev->process_private = NULL;
		rte_eth_dev_release_port(dev);
		return -ENOMEM;
	}
	p->v = v;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->device.name = p->name;
	p->device.driver = &up_driver;
	p->device.numa_node = SOCKET_ID_ANY;
	dev->device = &p->device;
	((struct mlx5_proc_priv *)dev->process_private)->uar_table_sz = 1;
	dev->data->dev_private = p;
	dev->dev_ops = &up_ops;
	dev->tx_pkt_burst = up_variants[v].burst;
	rte_eth_dev_probing_finish(dev);
	*port_id = dev->data->port_id;
	return 0;
}

struct mlx5_emu *
upstream_port_emu(uint16_t port_id)
{
	struct up_port *p;

	if (!rte_eth_dev_is_valid_port(port_id))
		return NULL;
	if (rte_eth_devices[port_id].dev_ops != &up_ops)
		return NULL;
	p = rte_eth_devices[port_id].data->dev_private;
	return p != NULL ? p->dev.emu : NULL;
}

void
upstream_port_destroy(uint16_t port_id)
{
	if (!rte_eth_dev_is_valid_port(port_id))
		return;
	rte_eth_dev_stop(port_id);
	rte_eth_dev_close(port_id);
}
