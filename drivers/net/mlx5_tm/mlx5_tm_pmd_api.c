/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <ethdev_driver.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_tx.h"
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
