/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PMD_TEST_EMU_H
#define PMD_TEST_EMU_H

/**
 * @file
 * Helpers of the suites that run the port on the device model in process.
 */

#include <stdint.h>

#include <rte_ethdev.h>

#include "mlx5_emu.h"

/**
 * Give back every mbuf Tx queue @p q of @p port holds: tx_done_cleanup
 * asks for a completion covering what the last bursts posted without one
 * (completion moderation), the model sends everything, a second
 * tx_done_cleanup takes the completions. When the ring or the CQ is full,
 * the request finds no room until the model has sent what is queued and
 * the completions already requested are taken: hence two rounds.
 */
static inline void
tx_settle(uint16_t port, uint16_t q, struct mlx5_emu *emu)
{
	unsigned int round;

	for (round = 0; round < 2; round++) {
		rte_eth_tx_done_cleanup(port, q, 0);
		mlx5_emu_drain(emu);
	}
	rte_eth_tx_done_cleanup(port, q, 0);
}

#endif /* PMD_TEST_EMU_H */
