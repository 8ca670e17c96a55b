/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_TRAFFIC_H
#define PACE_TRAFFIC_H

/**
 * @file
 * Traffic of one Tx queue: a mempool of prebuilt UDP/IPv4 frames, a
 * sequence number written into each payload, and bursts that keep the Tx
 * ring full. One queue is pushed by one lcore only.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#define PACE_MAX_TX_BURST 512

/** Magic at the start of every payload ("TMPC"). */
#define PACE_PAYLOAD_MAGIC 0x544d5043u

/** What a frame carries after its UDP header. */
struct pace_payload {
	rte_be32_t magic;
	rte_be16_t queue;
	rte_be16_t reserved;
	rte_be64_t seq;
} __rte_packed;

/** Sender-side counters, written by the sending lcore only. */
struct pace_tx_counters {
	uint64_t pkts;         /**< Accepted by rte_eth_tx_burst. */
	uint64_t bytes;        /**< Their frame bytes (no FCS). */
	uint64_t bursts;       /**< Send attempts (tx_burst calls, fills). */
	uint64_t bursts_short; /**< Of which met a full ring. */
	uint64_t alloc_fail;   /**< Mempool empty (mbufs still in flight). */
};

/** One Tx queue's traffic. */
struct pace_txq {
	uint16_t port_id;
	uint16_t queue;
	uint16_t size_min;
	uint16_t size_max;
	/**
	 * A range's next size is size_min + size_off; size_off steps by
	 * size_step modulo the range's width (see pace_size_step()).
	 */
	uint16_t size_off;
	uint16_t size_step;
	uint16_t burst;
	uint16_t nb_pending;       /**< Built, not yet accepted. */
	uint16_t pending_off;
	uint64_t seq;
	struct rte_mempool *pool;
	struct pace_tx_counters cnt;  /**< Read by others with atomics. */
	struct rte_mbuf *pending[PACE_MAX_TX_BURST];
} __rte_cache_aligned;

/**
 * The stride through a range of @p n frame sizes: the whole number
 * closest to n / phi (phi the golden ratio) that is prime to @p n, so
 * that size_min + (k x step mod n), k = 0, 1, ..., sends every size once
 * in n frames and any run of frames has close to the mean size (a
 * golden-ratio sequence spreads the sizes evenly; A, A + 1, ..., B would
 * swing the byte rate of a packet-mode queue over a cycle of n frames).
 *
 * @return the stride, 0 for @p n of 1.
 */
uint16_t pace_size_step(unsigned int n);

/**
 * Create the mempool of @p t (frames prebuilt) for Tx queue @p queue.
 *
 * @return 0 or a negative errno (message printed).
 */
int pace_txq_init(struct pace_txq *t, uint16_t port_id, uint16_t queue,
		  uint16_t size_min, uint16_t size_max, uint16_t burst,
		  unsigned int nb_mbufs, int socket);

/**
 * One rte_eth_tx_burst() on the queue, refilling the burst first.
 *
 * @return packets accepted.
 */
uint16_t pace_txq_push(struct pace_txq *t);

/**
 * Burst until the Tx ring is full (at most @p max_bursts calls), counted
 * as one attempt: for a sender whose device time stands still meanwhile.
 *
 * @return packets accepted.
 */
unsigned int pace_txq_fill(struct pace_txq *t, unsigned int max_bursts);

/** Free what @p t holds (the port must be stopped). */
void pace_txq_free(struct pace_txq *t);

/** Read the counters of @p t from another lcore. */
void pace_txq_read(const struct pace_txq *t, struct pace_tx_counters *out);

#endif /* PACE_TRAFFIC_H */
