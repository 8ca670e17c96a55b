/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_HW_H
#define PACE_HW_H

/**
 * @file
 * What dpdk-tm-pace reads from a real mlx5-tm NIC (dev=): the evidence
 * the device itself gives, never what was posted. Per queue, the packets
 * and bytes completed by the last CQE and that CQE's device time stamp;
 * for the port, the vport's Tx counters (QUERY_VPORT_COUNTER). On any
 * other port (or a build without the mlx5-tm PMD) nothing here applies.
 */

#include <stdbool.h>
#include <stdint.h>

/** A hardware mlx5-tm port, if the port is one. */
struct pace_hw {
	bool present;      /**< net_mlx5_tm on a real device. */
	uint16_t port_id;
};

/** Completion evidence of one queue at one instant. */
struct pace_hw_cqe {
	uint64_t pkts;     /**< Packets completed up to the last CQE. */
	uint64_t bytes;    /**< Their L2 bytes, without FCS. */
	uint64_t last_ns;  /**< Device time stamp of that CQE. */
};

/**
 * Find out whether @p port_id is a hardware mlx5-tm port; with
 * @p emulated_too, an emulated one counts as well (measured the same way).
 */
void pace_hw_attach(struct pace_hw *h, uint16_t port_id, bool emulated_too);

/**
 * Read the completion evidence of Tx queue @p queue without touching the
 * datapath (safe while another lcore sends on the queue).
 *
 * @return false when it cannot be read (no CQE yet, clock unknown, ...).
 */
bool pace_hw_cqe(const struct pace_hw *h, uint16_t queue,
		 struct pace_hw_cqe *c);

/**
 * The ceiling (bit/s) of the queue group of Tx queue @p queue of port
 * @p port_id when its SQ is in a group without a pacing index (read back
 * from the device); 0 otherwise, or when it cannot be read (no SQ, not
 * an mlx5-tm port).
 */
double pace_hw_backstop_bps(uint16_t port_id, uint16_t queue);

/** Read the vport's Tx frames and octets; false when not readable. */
bool pace_hw_vport(const struct pace_hw *h, uint64_t *pkts,
		   uint64_t *octets);

#endif /* PACE_HW_H */
