/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_TX_H
#define MLX5_TM_TX_H

/**
 * @file
 * The Tx datapath (mlx5_tm_tx.c): a Tx queue, its ring state written by
 * the lcore that sends on it and its device objects owned by the control
 * path (mlx5_tm_txq.h), and the burst functions.
 *
 * The two sides share four things only: the suspend and eMPW flags
 * (control writes, datapath reads once per burst), the recovery state (a
 * handshake, below) and the memory-registration generation.
 *
 * Error recovery handshake (the datapath makes no firmware call):
 *  OK    --datapath sees an error CQE-->            ERR
 *  ERR   --control path: QUERY_SQ; if firmware
 *          says ERR, MODIFY_SQ to RST-->              RST
 *  RST   --datapath: drains the CQ, frees every
 *          posted mbuf, rewinds its ring-->          REARM
 *  REARM --control path: MODIFY_SQ RST->RDY, then
 *          RDY->RDY with the pacing index and
 *          queue group the scheduler gives-->       OK
 * A flush CQE alone (syndrome WR_FLUSH_ERR) is not an error: the datapath
 * consumes it, frees what it covers (counted unsent) and raises flush_seen;
 * the control path moves the queue to ERR only if QUERY_SQ says the SQ
 * is in error (upstream's mlx5_tx_error_cqe_handle() ignores flushes).
 * The control path steps are taken by the reconciler: a periodic EAL
 * alarm while the port is started (skipped for a period when the sched
 * lock is busy) and rte_pmd_mlx5_tm_recover(); statistics reads take no
 * step. The datapath steps by the next tx_burst or tx_done_cleanup on
 * the queue. While not OK, tx_burst accepts nothing (returns 0).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_seqcount.h>
#include <ethdev_driver.h>

#include "mlx5_tm_wqe.h"
#include "mlx5_tm_mr.h"

struct mlx5_tm_priv;

/**
 * Most segments of one packet (one WQE holds at most 63 16-byte units):
 * the limit the port reports (nb_seg_max) and the burst enforces.
 */
#define MLX5_TM_TX_MAX_SEGS 40

/** Recovery state of a queue (see the file comment). */
enum mlx5_tm_txq_state {
	MLX5_TM_TXQ_OK = 0,
	MLX5_TM_TXQ_ERR,
	MLX5_TM_TXQ_RST,
	MLX5_TM_TXQ_REARM,
};

/** What a requested completion frees, and what it proves was sent. */
struct mlx5_tm_txq_fcq {
	uint16_t elts_head; /**< elts_head after the completed WQE. */
	uint16_t wqe_end;   /**< wqe_ci after the completed WQE. */
	uint64_t packets;   /**< Packets posted up to the completed WQE. */
	uint64_t bytes;     /**< Their bytes (pkt_len: L2, no FCS). */
};

/**
 * Completion evidence: what the device reported done, with its own time.
 * Written by the datapath once per completion pass, read by the control
 * path, under a sequence count (rte_seqcount, experimental in DPDK 22.11
 * but inline only: one writer, whose side is plain stores and fences, no
 * read-modify-write).
 */
struct mlx5_tm_txq_cmpl {
	rte_seqcount_t seq;
	uint64_t cqes;        /**< Good CQEs taken. */
	uint64_t first_ts;    /**< Raw timestamp of the first good CQE. */
	uint64_t first_packets; /**< Packets completed at the first CQE. */
	uint64_t first_bytes;
	uint64_t last_ts;     /**< Raw timestamp of the last good CQE. */
	uint64_t last_packets; /**< Packets completed at the last CQE. */
	uint64_t last_bytes;
};

/** Counters written by the datapath only. */
struct mlx5_tm_txq_stats {
	uint64_t packets;     /**< Packets posted. */
	uint64_t bytes;       /**< Bytes posted. */
	uint64_t completions; /**< Good CQEs. */
	uint64_t err_cqes;    /**< Error CQEs (not counting flushes). */
	uint64_t flush_cqes;  /**< Flush-in-error CQEs. */
	uint64_t ring_full;   /**< Bursts cut short by a full ring. */
	uint64_t dropped;     /**< Packets refused (memory unknown, shape). */
	uint64_t err_mbufs;   /**< Posted mbufs freed unsent after an error. */
};

/** A Tx queue. */
struct mlx5_tm_txq {
	/* Read-only on the datapath once the queue is started. */
	struct mlx5_tm_wqebb *wqes;        /**< WQE ring. */
	volatile struct mlx5_tm_cqe64 *cqes; /**< CQ ring. */
	volatile uint32_t *sq_db;          /**< SQ doorbell record (send). */
	volatile uint32_t *cq_db;          /**< CQ doorbell record (ci). */
	volatile uint64_t *uar_reg;        /**< Doorbell register. */
	struct rte_mbuf **elts;            /**< Posted mbufs. */
	struct mlx5_tm_txq_fcq *fcqs;      /**< Requested completions. */
	/** Per WQEBB: the elts slot where its WQE's packets start. */
	uint16_t *wqe_elts;
	uint32_t sqn;
	uint16_t wqe_n;                    /**< WQEBBs in the ring. */
	uint16_t elts_n;                   /**< Slots in elts. */
	uint16_t cqe_n;                    /**< CQEs in the CQ. */
	uint8_t log_cqe_n;
	uint8_t inline_mode;               /**< MLX5_INLINE_MODE_* of the SQ. */
	/**
	 * MBUF_FAST_FREE in the port's burst variant: every slot returned to
	 * the first slot's pool in bulk. Either way one elts slot per
	 * segment, unlinked from its chain when posted if only the PMD
	 * holds it.
	 */
	bool fast_free;
	/** The SQ may take eMPW WQEs (device, inline mode, txq_mpw_en). */
	bool empw_cap;
	/* Written by the datapath only. */
	uint16_t wqe_ci;                   /**< Next WQEBB to write. */
	uint16_t wqe_pi;                   /**< WQEBBs completed up to here. */
	uint16_t elts_head;
	uint16_t elts_tail;
	/**
	 * Slots from here to elts_head hold lone direct segments of
	 * reference count 1 from one pool, checked when posted: they go
	 * back to the pool in bulk without being read (the slots before it
	 * through rte_pktmbuf_prefree_seg()). Unused with fast_free.
	 */
	uint16_t elts_plain;
	uint16_t elts_done;                /**< Completed up to here. */
	uint16_t elts_comp;                /**< elts_head at the last request. */
	uint16_t wqe_comp;                 /**< wqe_ci at the last request. */
	/** WQEBBs posted without a completion request that force one. */
	uint16_t wqe_thres;
	uint16_t fcq_head;
	uint16_t fcq_tail;
	uint32_t cq_ci;
	struct mlx5_tm_mr_cache mr;
	struct mlx5_tm_txq_stats st;
	struct mlx5_tm_txq_cmpl cmpl;
	/* Shared: see the file comment. */
	uint32_t state;                    /**< enum mlx5_tm_txq_state. */
	/** Non-zero: a flush CQE came while OK; the control path checks. */
	uint32_t flush_seen;
	/**
	 * The last error CQE's syndrome (bits 15:8) and vendor syndrome
	 * (7:0), for the control path's log; written before state is ERR.
	 */
	uint32_t err_syndrome;
	uint32_t suspended;                /**< Non-zero: accept nothing. */
	/**
	 * Non-zero: single-segment packets go several per eMPW WQE. Set by
	 * the control path from empw_cap and the pacing entry's mode (not
	 * on WQE-rate entries, which count a WQE as one packet); read once
	 * per burst, so a burst running when it is cleared still posts eMPW
	 * WQEs (mlx5_tm_txq_set_sched() says what follows).
	 */
	uint32_t empw;

	/* Control path only. */
	struct mlx5_tm_priv *priv;
	/* In the cache line of priv and live: what MODIFY_SQ reads. */
	struct mlx5_tm_devx_obj *sq_obj;
	uint16_t qid;
	uint16_t nb_desc;
	unsigned int socket;
	uint64_t offloads;
	bool live;                         /**< SQ created and ready. */
	uint64_t recoveries;
	/** Failed re-attaches of this recovery (mlx5_tm_txq_rearm()). */
	uint32_t rearm_fails;
	struct mlx5_tm_txq_stats base;     /**< Counters at the last reset. */
	uint64_t recoveries_base;
	void *buf;                         /**< Rings and doorbell records. */
	size_t buf_sz;
	struct mlx5_tm_umem *umem;
	struct mlx5_tm_uar *uar;
	struct mlx5_tm_devx_obj *cq_obj;
	uint32_t cqn;
};

/** Name of inline mode @p mode (MLX5_INLINE_MODE_*), for messages. */
static inline const char *
mlx5_tm_inline_mode_name(uint8_t mode)
{
	static const char *const names[] = { "none", "L2", "IP", "TCP/UDP" };

	return mode < RTE_DIM(names) ? names[mode] : "unknown";
}

/**
 * The ethdev tx_pkt_burst for the queues of @p dev, chosen when the port
 * starts: a variant compiled for the port's offloads (VLAN insertion,
 * checksums, fast free, every queue's included) and the device's inline
 * mode, so that the burst tests no offload flag it does not need.
 * @p fast_free tells whether it frees as MBUF_FAST_FREE (every queue
 * asked for it): each queue's fast_free must be set to it.
 */
eth_tx_burst_t mlx5_tm_tx_burst_select(const struct rte_eth_dev *dev,
				       bool *fast_free);

/** Name of the burst variant mlx5_tm_tx_burst_select() chose, for logs. */
const char *mlx5_tm_tx_burst_name(eth_tx_burst_t burst);

/**
 * ethdev tx_done_cleanup: process completions and free at most @p free_cnt
 * completed elts slots (mbufs: a chain has one per segment), 0 = all.
 * Posted mbufs not covered by a requested completion get one: a NOP WQE
 * asking for a CQE, so that an idle queue's mbufs come back on a later
 * call at the latest.
 *
 * @return
 *   The number of slots freed.
 */
int mlx5_tm_tx_done_cleanup(void *txq, uint32_t free_cnt);

/**
 * Post on @p txq one send WQE of the @p len bytes at @p frame (at least
 * MLX5_ESEG_MIN_INLINE_SIZE, which go inline where the SQ's inline mode
 * asks for a header) whose data segment names memory key @p lkey, and
 * ring the doorbell; the WQE asks for a completion and carries no mbuf.
 * With an lkey that is not registered the device completes it in error
 * (local protection), which the queue recovers from as from any error.
 * Runs as tx_burst does: on the lcore that sends on the queue, or while
 * none does.
 *
 * @return
 *   0, -EAGAIN the queue is in recovery, -EBUSY its ring or CQ is full.
 */
int mlx5_tm_tx_post_bad_lkey(struct mlx5_tm_txq *txq, const uint8_t *frame,
			     uint32_t len, uint32_t lkey);

/** ethdev tx_descriptor_status. */
int mlx5_tm_tx_descriptor_status(void *txq, uint16_t offset);

/** Reset the datapath state of a queue whose SQ was just created. */
void mlx5_tm_tx_ring_init(struct mlx5_tm_txq *txq);

/** Free every posted mbuf (queue stopped, no datapath running). */
void mlx5_tm_tx_free_all(struct mlx5_tm_txq *txq);

#endif /* MLX5_TM_TX_H */
