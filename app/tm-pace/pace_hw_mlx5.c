/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * A real mlx5-tm NIC, through the PMD's exported read-back functions:
 * completion evidence (rte_pmd_mlx5_tm_txq_completions) and the vport
 * counters (rte_pmd_mlx5_tm_vport_tx).
 */

#include <string.h>

#include "rte_pmd_mlx5_tm.h"

#include "pace_hw.h"

void
pace_hw_attach(struct pace_hw *h, uint16_t port_id, bool emulated_too)
{
	struct rte_pmd_mlx5_tm_dev_info info;

	memset(h, 0, sizeof(*h));
	h->port_id = port_id;
	h->present = rte_pmd_mlx5_tm_dev_info(port_id, &info) == 0 &&
		     (!info.emulated || emulated_too);
}

bool
pace_hw_cqe(const struct pace_hw *h, uint16_t queue, struct pace_hw_cqe *c)
{
	struct rte_pmd_mlx5_tm_txq_completions e;

	if (!h->present ||
	    rte_pmd_mlx5_tm_txq_completions(h->port_id, queue, &e) != 0 ||
	    e.cqes == 0 || !e.ts_valid)
		return false;
	c->pkts = e.last_packets;
	c->bytes = e.last_bytes;
	c->last_ns = e.last_ns;
	return true;
}

double
pace_hw_backstop_bps(uint16_t port_id, uint16_t queue)
{
	struct rte_pmd_mlx5_tm_sq_info sq;
	struct rte_pmd_mlx5_tm_elem_info g;

	/* A leaf's node is its queue: node_query gives its group. */
	if (rte_pmd_mlx5_tm_txq_query(port_id, queue, &sq) != 0 ||
	    sq.qos_queue_group_id == 0 || sq.pp_index != 0 ||
	    rte_pmd_mlx5_tm_node_query(port_id, queue, &g) != 0)
		return 0;
	return (double)g.max_average_bw * 1e6;
}

bool
pace_hw_vport(const struct pace_hw *h, uint64_t *pkts, uint64_t *octets)
{
	struct rte_pmd_mlx5_tm_vport_tx tx;

	if (!h->present || rte_pmd_mlx5_tm_vport_tx(h->port_id, &tx) != 0)
		return false;
	*pkts = tx.unicast_packets + tx.multicast_packets +
		tx.broadcast_packets;
	*octets = tx.unicast_octets + tx.multicast_octets +
		  tx.broadcast_octets;
	return true;
}
