/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_TXQ_H
#define MLX5_TM_TXQ_H

/**
 * @file
 * Control of a Tx queue (mlx5_tm_txq.c): its life cycle for the ethdev
 * layer (setup and release: memory; start and stop: device objects; the
 * control-path steps of error recovery), and the one live step the
 * scheduling layer takes on it (mlx5_tm_txq_set_sched()). What the SQ's
 * context holds (pacing index, queue group) comes from the caller, the
 * scheduling layer (mlx5_tm_sched_txq.c), at start, at a re-arm and in
 * that step: this layer keeps no plan and reads none. Control path only;
 * the datapath never sees a rate. The queue itself and its burst
 * functions are in mlx5_tm_tx.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include <ethdev_driver.h>

#include "mlx5_tm_devx.h"

struct mlx5_tm_txq;

/** What the scheduling layer sets for a Tx queue. */
struct mlx5_tm_txq_sched {
	/**
	 * The SQ context's pacing index and queue group, and which of them
	 * a MODIFY_SQ sends (the caller knows what the SQ holds).
	 */
	struct mlx5_tm_sq_sched sq;
	bool wqe_rate;  /**< The pacing entry counts WQEs: no eMPW. */
	/**
	 * tx_burst accepts no packet (returns 0, the application keeps its
	 * mbufs); what is posted leaves at the queue's rate.
	 */
	bool suspended;
};

/** ethdev tx_queue_setup. */
int mlx5_tm_txq_setup(struct rte_eth_dev *dev, uint16_t qid,
		      uint16_t nb_desc, unsigned int socket,
		      const struct rte_eth_txconf *conf);

/** ethdev tx_queue_release (of a stopped queue). */
void mlx5_tm_txq_release(struct rte_eth_dev *dev, uint16_t qid);

/**
 * Create the CQ and SQ of a set-up queue and make the SQ ready, holding
 * @p sched: its pacing index in CREATE_SQ, its queue group (if any) by
 * MODIFY_SQ RDY->RDY bit 2 before anything is posted, as Linux and
 * rdma-core attach theirs; its suspension and eMPW flags set.
 *
 * @return
 *   0, or a negative errno (the queue's device objects destroyed).
 */
int mlx5_tm_txq_start(struct mlx5_tm_txq *txq,
		      const struct mlx5_tm_txq_sched *sched);

/** Destroy the queue's device objects and free its posted mbufs. */
void mlx5_tm_txq_stop(struct mlx5_tm_txq *txq);

/**
 * Take the control-path step of an error recovery that needs nothing
 * from the scheduling layer, if one is due: a flush CQE checked, an SQ
 * firmware reports in error reset.
 *
 * @return
 *   true when the SQ is reset and waits for mlx5_tm_txq_rearm().
 */
bool mlx5_tm_txq_recover(struct mlx5_tm_txq *txq);

/**
 * Make the reset SQ of @p txq ready again (the last step of an error
 * recovery) holding @p sched's pacing index and queue group, as Linux
 * does it: RST->RDY with an empty bitmask, QUERY_SQ, then a RDY->RDY only
 * for what the context did not keep; its flags as @p sched sets them.
 * What the SQ then holds goes to @p held.
 *
 * @return
 *   0: ready, holding @p sched's values; 1: ready, but the RDY->RDY that
 *   would set them failed too often (logged once): it holds @p held; a
 *   negative errno: not yet (retried at the next mlx5_tm_txq_recover()).
 */
int mlx5_tm_txq_rearm(struct mlx5_tm_txq *txq,
		      const struct mlx5_tm_txq_sched *sched,
		      struct mlx5_tm_sq_sched *held);

/** Ring sizes a queue of @p nb_desc descriptors gets (for infos). */
uint16_t mlx5_tm_txq_ring_size(const struct rte_eth_dev *dev,
			       uint16_t nb_desc);

/**
 * Give Tx queue @p qid what @p sched sets: on a ready SQ one MODIFY_SQ
 * RDY->RDY with the fields it names (none: no command), then its
 * suspension and eMPW flags.
 *
 * eMPW and WQE-rate pacing: a WQE-rate entry counts each WQE as one
 * packet, so the queue stops posting eMPW WQEs before its SQ goes to one
 * (the flag is cleared first; a burst reads it once, when it starts). The
 * eMPW WQEs posted before, and those of a burst already running, leave
 * under the new entry each as one packet: doc/guides/nics/mlx5_tm.rst
 * (Datapath, the move to packet mode) says how many packets that can be
 * and for how long.
 *
 * The caller holds the sched lock and keeps the old pacing entry and
 * group until this returned 0 or 1.
 *
 * @return
 *   0: the SQ holds @p sched's fields now; 1: not written, the queue has
 *   no SQ, or its SQ is in error recovery (firmware put it in error and
 *   refused the RDY->RDY, or the datapath saw the error first) and keeps
 *   what it holds until the re-arm; a negative errno: the device refused
 *   (-EIO/-EREMOTEIO), the queue keeps its previous values and flags.
 */
int mlx5_tm_txq_set_sched(struct rte_eth_dev *dev, uint16_t qid,
			  const struct mlx5_tm_txq_sched *sched);

/**
 * Packets and bytes posted on Tx queue @p qid since it was set up
 * (ethdev stats_reset does not clear them), read under the port's stats
 * lock as every statistics reader.
 */
void mlx5_tm_txq_counters(struct rte_eth_dev *dev, uint16_t qid,
			  uint64_t *packets, uint64_t *bytes);

#endif /* MLX5_TM_TXQ_H */
