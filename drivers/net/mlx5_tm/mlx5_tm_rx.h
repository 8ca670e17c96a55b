/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_RX_H
#define MLX5_TM_RX_H

/**
 * @file
 * Rx of a net_mlx5_tm port. Without rx_port= the port is Tx-only: its Rx
 * queues exist (applications pair them with Tx queues) and never receive.
 * With rx_port=, the port receives through a companion ethdev port that it
 * owns: Rx queues, rx_burst, promiscuous and allmulticast modes, MAC
 * addresses, RSS, rte_flow and the Rx statistics are the companion's.
 */

#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>

struct mlx5_tm_rx;

/** An Rx queue: where its packets come from, fixed at setup. */
struct mlx5_tm_rxq {
	uint16_t port_id;   /**< Companion port, RTE_MAX_ETHPORTS if none. */
	uint16_t queue_id;  /**< Companion queue. */
	bool deferred;      /**< Not started with the port (rx_deferred_start). */
};

/**
 * Take the port named by rx_port= (@p value: an ethdev name or a port id)
 * as the companion of @p dev: own it, take its MAC address, install the
 * companion-mode operations and Rx burst. Called at the end of probe.
 *
 * @return
 *   0, or a negative errno with a message naming the value and the ports
 *   available; nothing is kept on failure.
 */
int mlx5_tm_rx_attach(struct rte_eth_dev *dev, const char *value);

/**
 * Stop the companion and give it back (ownership released); the port is
 * Tx-only afterwards. No-op without a companion. Called at close.
 */
void mlx5_tm_rx_detach(struct rte_eth_dev *dev);

/** ethdev rx_queue_setup: a companion queue, or a queue that never fills. */
int mlx5_tm_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
			   uint16_t nb_desc, unsigned int socket,
			   const struct rte_eth_rxconf *conf,
			   struct rte_mempool *mp);

/** ethdev rx_queue_release. */
void mlx5_tm_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid);

/** Rx burst of a Tx-only port: nothing, ever. */
uint16_t mlx5_tm_rx_burst_none(void *rxq, struct rte_mbuf **pkts,
			       uint16_t n);

/** The rte_flow operations forwarding to the companion (mlx5_tm_rx_flow.c). */
extern const struct rte_flow_ops mlx5_tm_rx_flow_ops;

/** Companion port id of @p dev, or -ENODEV without a usable companion. */
int mlx5_tm_rx_companion(const struct rte_eth_dev *dev);

#endif /* MLX5_TM_RX_H */
