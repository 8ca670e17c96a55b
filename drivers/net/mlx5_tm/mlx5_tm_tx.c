/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The send datapath: WQEs into the ring, one doorbell per burst, completions
 * back into free mbufs. No lock, no syscall, no allocation and no rate here;
 * see mlx5_tm_tx.h for what it shares with the control path.
 */

#include <netinet/in.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_io.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <ethdev_driver.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_tx.h"

/** Mbufs returned per rte_mempool_put_bulk() call when freeing chains. */
#define MLX5_TM_TX_FREE_BATCH 64
/**
 * Most header bytes one WQE carries inline (inserted VLAN tag included):
 * two VLAN tags, IPv4 and TCP headers with the most options fit.
 */
#define MLX5_TM_TX_MAX_INLINE 160
/**
 * Free CQEs a burst needs before it posts: the completion it requests on
 * its last WQE, and one more: at most cqe_n - 1 completions are ever
 * requested, so that the last slot takes the error CQE the device writes
 * for a WQE that asked for none; a CQ overrun would lose it and the queue
 * would never recover.
 */
#define MLX5_TM_TX_CQ_RESERVE 2

/*
 * A counter of the queue's own: one writer (the lcore in tx_burst), read
 * by the control path (stats, xstats) with relaxed atomic loads. A plain
 * read and a relaxed store, not an atomic read-modify-write: the value
 * is the datapath's alone, the store only makes the read well defined.
 */
#define ST_ADD(txq, field, n) \
	__atomic_store_n(&(txq)->st.field, (txq)->st.field + (n), \
			 __ATOMIC_RELAXED)

/*
 * Memory the device reads and writes (doorbell records, doorbell
 * register, CQE ownership) is accessed with release stores and acquire
 * loads beside the I/O barriers: the barriers order the accesses for the
 * hardware, the atomics state the same order in the C memory model, which
 * the device model (a thread on the host) and ThreadSanitizer go by. On
 * x86 both are plain moves.
 */
#define DEV_STORE(ptr, v) __atomic_store_n((ptr), (v), __ATOMIC_RELEASE)

/**
 * Packets per eMPW WQE: upstream net/mlx5's MLX5_EMPW_MAX_PACKETS (its
 * completion threshold), 34 segments of the 63 a WQE may have.
 */
#define MLX5_TM_TX_EMPW_MAX 32
/**
 * Completion moderation, as upstream net/mlx5 (mlx5_tx_request_completion()
 * with MLX5_TX_COMP_THRESH and MLX5_TX_COMP_THRESH_INLINE_DIV): a burst
 * asks for a CQE on its last WQE when this many elts slots were posted
 * since the last request, or wqe_n / MLX5_TM_TX_COMP_WQE_DIV WQEBBs, or
 * when it found the ring full. Below both thresholds fewer slots and
 * WQEBBs than the ring holds (MLX5_TM_TXQ_MIN_DESC is 64) wait without a
 * request, so a full ring always has a requested completion coming.
 */
#define MLX5_TM_TX_COMP_THRESH 32
#define MLX5_TM_TX_COMP_WQE_DIV 8

/*
 * Offloads of a burst variant: each variant is tx_burst_tmpl() compiled
 * with one constant set, so a flag the port did not configure costs nothing
 * per packet.
 */
#define TX_OLX_INL_L2   (1u << 0) /* 18 header bytes inline (min inline L2) */
#define TX_OLX_INL_HDRS (1u << 1) /* L3/L4 headers inline (IP, TCP_UDP) */
#define TX_OLX_VLAN     (1u << 2) /* RTE_MBUF_F_TX_VLAN: insert the tag */
#define TX_OLX_CSUM     (1u << 3) /* IP and L4 checksum flags */
#define TX_OLX_FFREE    (1u << 4) /* MBUF_FAST_FREE: one pool, refcnt 1 */
#define TX_OLX_INLINE   (TX_OLX_INL_L2 | TX_OLX_INL_HDRS)

/* Bytes of a frame before an inserted VLAN tag: the MAC addresses. */
#define TX_MACS (2 * RTE_ETHER_ADDR_LEN)

/* The 16-byte unit number @p ds of the ring, wrapping at its end. */
static __rte_always_inline void *
ds_at(const struct mlx5_tm_txq *txq, uint32_t ds)
{
	uint32_t mask = (uint32_t)txq->wqe_n * MLX5_WQE_DS_PER_WQEBB - 1;

	return (uint8_t *)txq->wqes + (size_t)(ds & mask) * MLX5_WQE_DS_UNITS;
}

/* Return @p nb segments of @p batch to their pool @p mp. */
static __rte_noinline void
free_batch_put(struct rte_mempool *mp, struct rte_mbuf **batch,
	       unsigned int nb)
{
	if (nb != 0)
		rte_mempool_put_bulk(mp, (void **)batch, nb);
}

/*
 * Add segment @p m, ready for its pool, to @p batch of pool *@p mp,
 * returning the batch first when it is full or of another pool (rare:
 * out of line).
 */
static __rte_always_inline void
free_batch_add(struct rte_mbuf **batch, unsigned int *nb,
	       struct rte_mempool **mp, struct rte_mbuf *m)
{
	if (unlikely(m->pool != *mp || *nb == MLX5_TM_TX_FREE_BATCH)) {
		free_batch_put(*mp, batch, *nb);
		*mp = m->pool;
		*nb = 0;
	}
	batch[(*nb)++] = m;
}

/*
 * Free @p n posted slots, one segment each (a chain's segments have a
 * slot each, unlinked when posted if only the PMD holds them), returning
 * runs of one pool with rte_mempool_put_bulk().
 *
 * A direct segment of refcnt 1 with nb_segs 1 is what
 * rte_pktmbuf_prefree_seg() returns: its next is NULL already (a lone
 * packet's by the mbuf's rule, a chain's segment unlinked at post), so
 * it goes to the batch from the mbuf's first cache line and its second
 * line (next) is not read. Any other goes through prefree, which never
 * follows next: a shared segment loses one reference only.
 */
static __rte_noinline void
free_mbufs(struct rte_mbuf **mbufs, uint16_t n)
{
	struct rte_mbuf *batch[MLX5_TM_TX_FREE_BATCH];
	struct rte_mempool *mp = NULL;
	unsigned int nb = 0;
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = mbufs[i];

		if (likely(m->nb_segs == 1 && RTE_MBUF_DIRECT(m) &&
			   rte_mbuf_refcnt_read(m) == 1)) {
			free_batch_add(batch, &nb, &mp, m);
			continue;
		}
		m = rte_pktmbuf_prefree_seg(m);
		if (m != NULL)
			free_batch_add(batch, &nb, &mp, m);
	}
	free_batch_put(mp, batch, nb);
}

/*
 * Return slots [from, to) to their pools: as they are, to the first one's
 * pool (@p plain: lone segments of one pool, refcnt 1), or through
 * free_mbufs().
 */
static __rte_always_inline void
free_slots(struct mlx5_tm_txq *txq, uint16_t from, uint16_t to, bool plain)
{
	const uint16_t mask = txq->elts_n - 1;

	while (from != to) {
		uint16_t idx = from & mask;
		uint16_t run = RTE_MIN((uint16_t)(to - from),
				       (uint16_t)(txq->elts_n - idx));

		if (plain)
			rte_mempool_put_bulk(txq->elts[idx]->pool,
					     (void **)&txq->elts[idx], run);
		else
			free_mbufs(&txq->elts[idx], run);
		from += run;
	}
}

/*
 * Return elts [elts_tail, upto) to their pools. Return how many slots
 * (segments: one per slot; with fast free all of the first one's
 * pool). Without fast free, the slots from
 * elts_plain on were checked plain when posted; elts_plain is moved up
 * to the tail when passed (behind it, it would send plain slots through
 * prefree again).
 */
static __rte_always_inline uint32_t
free_elts_olx(struct mlx5_tm_txq *txq, uint16_t upto, const unsigned int olx)
{
	uint16_t tail = txq->elts_tail;
	uint16_t freed = (uint16_t)(upto - tail);
	uint16_t mixed;

	if (olx & TX_OLX_FFREE) {
		free_slots(txq, tail, upto, true);
	} else {
		mixed = (uint16_t)(txq->elts_plain - tail);
		if (mixed >= freed) {
			free_slots(txq, tail, upto, false);
		} else {
			free_slots(txq, tail, tail + mixed, false);
			free_slots(txq, tail + mixed, upto, true);
			txq->elts_plain = upto;
		}
	}
	txq->elts_tail = upto;
	return freed;
}

/* free_elts_olx() for the queue's own variant (slow paths). */
static __rte_noinline uint32_t
free_elts(struct mlx5_tm_txq *txq, uint16_t upto)
{
	return txq->fast_free ? free_elts_olx(txq, upto, TX_OLX_FFREE) :
				free_elts_olx(txq, upto, 0);
}

/* True when the CQE at @p ci belongs to software. */
static __rte_always_inline bool
cqe_ready(const struct mlx5_tm_txq *txq, uint32_t ci, uint8_t *op_own)
{
	volatile struct mlx5_tm_cqe64 *cqe = &txq->cqes[ci & (txq->cqe_n - 1)];
	uint8_t v = __atomic_load_n(&cqe->op_own, __ATOMIC_ACQUIRE);

	*op_own = v;
	return MLX5_CQE_OWNER(v) == ((ci >> txq->log_cqe_n) & 1) &&
	       MLX5_CQE_OPCODE(v) != MLX5_CQE_INVALID;
}

/* Whether the error CQE at @p ci is a flush (WR_FLUSH_ERR). */
static __rte_always_inline bool
is_flush_cqe(const struct mlx5_tm_txq *txq, uint32_t ci)
{
	volatile struct mlx5_tm_err_cqe64 *err = (volatile void *)
		&txq->cqes[ci & (txq->cqe_n - 1)];

	return err->syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR;
}

/*
 * Count the error CQE at @p ci: a flush, or the error itself, whose
 * syndromes the control path logs. Out of line: errors are rare.
 */
static __rte_noinline void
count_err_cqe(struct mlx5_tm_txq *txq, uint32_t ci)
{
	const volatile struct mlx5_tm_err_cqe64 *err = (const volatile void *)
		&txq->cqes[ci & (txq->cqe_n - 1)];

	if (is_flush_cqe(txq, ci)) {
		ST_ADD(txq, flush_cqes, 1);
		return;
	}
	ST_ADD(txq, err_cqes, 1);
	__atomic_store_n(&txq->err_syndrome,
			 (uint32_t)err->syndrome << 8 | err->vendor_err_synd,
			 __ATOMIC_RELAXED);
}

/*
 * A field of the completion evidence: a relaxed atomic store (a plain
 * move), as a sequence count's data must be in the C memory model, the
 * reader's loads being concurrent with it.
 */
#define CMPL_SET(c, field, v) \
	__atomic_store_n(&(c)->field, (v), __ATOMIC_RELAXED)

/*
 * Record the last of @p n good CQEs taken (time stamp @p ts, completing
 * @p f) as completion evidence, under its sequence count.
 */
static __rte_always_inline void
cmpl_note(struct mlx5_tm_txq *txq, uint32_t n, uint64_t ts,
	  const struct mlx5_tm_txq_fcq *f)
{
	struct mlx5_tm_txq_cmpl *c = &txq->cmpl;

	rte_seqcount_write_begin(&c->seq);
	if (c->cqes == 0) {
		CMPL_SET(c, first_ts, ts);
		CMPL_SET(c, first_packets, f->packets);
		CMPL_SET(c, first_bytes, f->bytes);
	}
	CMPL_SET(c, cqes, c->cqes + n);
	CMPL_SET(c, last_ts, ts);
	CMPL_SET(c, last_packets, f->packets);
	CMPL_SET(c, last_bytes, f->bytes);
	rte_seqcount_write_end(&c->seq);
}

/* The WQE index the error CQE at @p ci names. */
static __rte_always_inline uint16_t
err_cqe_wqe(const struct mlx5_tm_txq *txq, uint32_t ci)
{
	const volatile struct mlx5_tm_err_cqe64 *err = (const volatile void *)
		&txq->cqes[ci & (txq->cqe_n - 1)];

	return rte_be_to_cpu_16(err->wqe_counter);
}

/*
 * The flush CQE at @p ci: the WQEs before the one it names were sent,
 * free them (counted in @p freed) and the flushed WQE's mbufs (counted
 * unsent); take its completion request if it made one. @p upto is where
 * the completed slots end, moved past the flushed WQE.
 */
static __rte_noinline void
flush_wqe(struct mlx5_tm_txq *txq, uint32_t ci, uint16_t *upto,
	  uint32_t *freed)
{
	const uint16_t mask = txq->wqe_n - 1;
	uint16_t w = err_cqe_wqe(txq, ci), end, elts_end;
	const struct mlx5_tm_wqe_ctrl_seg *ctrl;

	if ((uint16_t)(w - txq->wqe_pi) >=
	    (uint16_t)(txq->wqe_ci - txq->wqe_pi))
		return;
	ctrl = (const void *)&txq->wqes[w & mask];
	end = w + ((rte_be_to_cpu_32(ctrl->qpn_ds) & 0x3f) +
		   MLX5_WQE_DS_PER_WQEBB - 1) / MLX5_WQE_DS_PER_WQEBB;
	elts_end = end == txq->wqe_ci ? txq->elts_head :
					txq->wqe_elts[end & mask];
	*freed += free_elts(txq, txq->wqe_elts[w & mask]);
	ST_ADD(txq, err_mbufs, free_elts(txq, elts_end));
	*upto = elts_end;
	txq->wqe_pi = end;
	if (txq->fcq_tail != txq->fcq_head &&
	    txq->fcqs[txq->fcq_tail & (txq->cqe_n - 1)].wqe_end == end)
		txq->fcq_tail++;
}

/*
 * Consume the CQEs present and free what they complete, at most @p limit
 * slots (0: all; counted in @p freed, as free_elts() counts). Return false
 * when an error CQE moved the queue to ERR.
 */
static __rte_always_inline bool
txq_complete(struct mlx5_tm_txq *txq, uint32_t *freed, uint32_t limit,
	     const unsigned int olx)
{
	uint32_t ci = txq->cq_ci;
	uint16_t upto = txq->elts_done;
	const struct mlx5_tm_txq_fcq *f = NULL;
	uint64_t ts = 0;
	uint32_t good = 0;
	uint16_t err_wqe;
	bool ok = true;
	uint8_t op_own;
	bool ready = cqe_ready(txq, ci, &op_own);

	/* Most bursts: no CQE, and nothing completed is left to free. */
	if (likely(!ready) && likely(upto == txq->elts_tail))
		return true;
	for (; ready; ready = cqe_ready(txq, ci, &op_own)) {
		rte_io_rmb();
		if (likely(MLX5_CQE_OPCODE(op_own) == MLX5_CQE_REQ)) {
			f = &txq->fcqs[txq->fcq_tail++ & (txq->cqe_n - 1)];
			ts = txq->cqes[ci & (txq->cqe_n - 1)].timestamp;
			upto = f->elts_head;
			txq->wqe_pi = f->wqe_end;
			good++;
			ci++;
			continue;
		}
		if (is_flush_cqe(txq, ci)) {
			/*
			 * A flush alone: its WQE did not run; what precedes
			 * it did, what it carries is freed unsent. The
			 * control path checks whether the SQ is in error.
			 */
			flush_wqe(txq, ci, &upto, freed);
			ST_ADD(txq, flush_cqes, 1);
			__atomic_store_n(&txq->flush_seen, 1,
					 __ATOMIC_RELEASE);
			ci++;
			continue;
		}
		/*
		 * An error: the SQ is in error, the control path resets it.
		 * The WQEs before the failed one were sent (in order), even
		 * those that asked for no completion.
		 */
		err_wqe = err_cqe_wqe(txq, ci);
		if ((uint16_t)(err_wqe - txq->wqe_pi) <
		    (uint16_t)(txq->wqe_ci - txq->wqe_pi))
			upto = txq->wqe_elts[err_wqe & (txq->wqe_n - 1)];
		count_err_cqe(txq, ci);
		ci++;
		ok = false;
		break;
	}
	if (good != 0) {
		ST_ADD(txq, completions, good);
		cmpl_note(txq, good, rte_be_to_cpu_64(ts), f);
	}
	if (ci != txq->cq_ci) {
		txq->cq_ci = ci;
		txq->elts_done = upto;
		rte_io_wmb();
		DEV_STORE(txq->cq_db, rte_cpu_to_be_32(ci & 0xffffff));
	}
	if (upto != txq->elts_tail) {
		if (limit != 0 && (uint16_t)(upto - txq->elts_tail) > limit)
			upto = txq->elts_tail + limit;
		*freed += free_elts_olx(txq, upto, olx);
	}
	if (unlikely(!ok))
		__atomic_store_n(&txq->state, MLX5_TM_TXQ_ERR,
				 __ATOMIC_RELEASE);
	return ok;
}

/*
 * Rewind the send ring to index 0, where a new or reset SQ starts: the
 * producer and consumer indexes of WQEs, mbufs and awaited completions,
 * and the doorbell record. The CQ keeps its own consumer index.
 */
static void
ring_reset(struct mlx5_tm_txq *txq)
{
	txq->wqe_ci = 0;
	txq->wqe_pi = 0;
	txq->elts_head = 0;
	txq->elts_tail = 0;
	txq->elts_plain = 0;
	txq->elts_done = 0;
	txq->elts_comp = 0;
	txq->wqe_comp = 0;
	txq->fcq_head = 0;
	txq->fcq_tail = 0;
	DEV_STORE(txq->sq_db, 0);
}

/*
 * The SQ was reset by the control path: no CQE will come for it any more.
 * Drain the CQ, free every posted mbuf (counted unsent) and rewind the ring
 * to index 0, where the SQ restarts when it is ready again.
 */
static void
txq_rewind(struct mlx5_tm_txq *txq)
{
	uint32_t ci = txq->cq_ci;
	uint8_t op_own;

	/* The flushes of the WQEs posted after the error are here too. */
	while (cqe_ready(txq, ci, &op_own)) {
		rte_io_rmb();
		if (MLX5_CQE_OPCODE(op_own) == MLX5_CQE_REQ)
			ST_ADD(txq, completions, 1);
		else
			count_err_cqe(txq, ci);
		ci++;
	}
	txq->cq_ci = ci;
	rte_io_wmb();
	DEV_STORE(txq->cq_db, rte_cpu_to_be_32(ci & 0xffffff));
	/* Completed before the error but not freed yet (cleanup limit). */
	free_elts(txq, txq->elts_done);
	ST_ADD(txq, err_mbufs, free_elts(txq, txq->elts_head));
	ring_reset(txq);
	rte_io_wmb();
	__atomic_store_n(&txq->state, MLX5_TM_TXQ_REARM, __ATOMIC_RELEASE);
}

void
mlx5_tm_tx_ring_init(struct mlx5_tm_txq *txq)
{
	uint32_t i;

	ring_reset(txq);
	txq->wqe_thres = txq->wqe_n / MLX5_TM_TX_COMP_WQE_DIV;
	txq->cq_ci = 0;
	/* Hardware owns every CQE until it writes it in the first pass. */
	for (i = 0; i < txq->cqe_n; i++)
		txq->cqes[i].op_own = (MLX5_CQE_INVALID << 4) |
				      MLX5_CQE_OWNER_MASK;
	DEV_STORE(txq->cq_db, 0);
	mlx5_tm_mr_cache_init(&txq->mr, txq->mr.ctrl);
	__atomic_store_n(&txq->flush_seen, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&txq->state, MLX5_TM_TXQ_OK, __ATOMIC_RELEASE);
}

void
mlx5_tm_tx_free_all(struct mlx5_tm_txq *txq)
{
	if (txq->elts != NULL)
		free_elts(txq, txq->elts_head);
}

/*
 * Header bytes at the start of @p m that inline mode @p mode
 * (MLX5_INLINE_MODE_IP: through the IP header; MLX5_INLINE_MODE_TCP_UDP:
 * through the TCP or UDP header) requires, or 0 when they cannot be
 * determined inside the first segment.
 *
 * The offload lengths are used when the mbuf declares its L3 type
 * (RTE_MBUF_F_TX_IPV4/IPV6, which DPDK asks for with every checksum or
 * segmentation offload) and gives every length the mode needs. Otherwise
 * the headers are parsed: Ethernet, up to two VLAN tags, IPv4 (options
 * included) or IPv6 (fixed header; extension headers count as payload),
 * TCP (options included) or UDP; a frame that is not IP needs its L2
 * header only, as does what follows an IP header other than TCP/UDP or
 * a non-first IPv4 fragment.
 */
static __rte_noinline uint32_t
tx_hdr_len(const struct rte_mbuf *m, uint8_t mode)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const uint32_t n = m->data_len;
	uint32_t l2 = TX_MACS, l3, need;
	uint16_t type;
	uint8_t proto;
	int tags = 0;

	if ((m->ol_flags & (RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IPV6)) &&
	    m->l2_len != 0 && m->l3_len != 0 &&
	    (mode == MLX5_INLINE_MODE_IP || m->l4_len != 0)) {
		need = m->l2_len + m->l3_len;
		if (mode != MLX5_INLINE_MODE_IP)
			need += m->l4_len;
		return need >= RTE_ETHER_HDR_LEN && need <= n ? need : 0;
	}
	for (;;) {
		if (l2 + 2 > n)
			return 0;
		type = (uint16_t)(p[l2] << 8 | p[l2 + 1]);
		l2 += 2;
		if (tags == 2 || (type != RTE_ETHER_TYPE_VLAN &&
				  type != RTE_ETHER_TYPE_QINQ &&
				  type != RTE_ETHER_TYPE_QINQ1))
			break;
		l2 += 2;
		tags++;
	}
	if (type == RTE_ETHER_TYPE_IPV4) {
		if (l2 + 20 > n || (p[l2] >> 4) != 4)
			return 0;
		l3 = (p[l2] & 0xfu) * 4;
		if (l3 < 20)
			return 0;
		proto = p[l2 + 9];
		/* A non-first fragment carries no L4 header. */
		if (((p[l2 + 6] & 0x1f) | p[l2 + 7]) != 0)
			proto = 0;
	} else if (type == RTE_ETHER_TYPE_IPV6) {
		if (l2 + 40 > n || (p[l2] >> 4) != 6)
			return 0;
		l3 = 40;
		proto = p[l2 + 6];
	} else {
		return l2;
	}
	need = l2 + l3;
	if (mode == MLX5_INLINE_MODE_IP)
		return need <= n ? need : 0;
	if (proto == IPPROTO_TCP) {
		if (need + 20 > n || (p[need + 12] >> 4) < 5)
			return 0;
		need += (p[need + 12] >> 4) * 4u;
	} else if (proto == IPPROTO_UDP) {
		need += 8;
	}
	return need <= n ? need : 0;
}

/* Drop a packet the device cannot send. */
static __rte_always_inline void
drop(struct mlx5_tm_txq *txq, struct rte_mbuf *m)
{
	ST_ADD(txq, dropped, 1);
	rte_pktmbuf_free(m);
}

/* Where a burst is in the ring (kept in registers by the fast paths). */
struct tx_loc {
	uint16_t wqe_ci;
	uint16_t elts_head;
	uint16_t sent;      /* Packets posted. */
	uint64_t bytes;     /* Their bytes. */
	struct mlx5_tm_wqe_ctrl_seg *last; /* Last WQE posted. */
	uint16_t wqe_room;  /* WQEBBs free in the ring. */
	uint16_t elts_room; /* elts slots free. */
};

/* Free WQEBBs and elts slots as the ring and @p loc stand. */
static __rte_always_inline void
tx_loc_room(const struct mlx5_tm_txq *txq, struct tx_loc *loc)
{
	loc->wqe_room = txq->wqe_n - (uint16_t)(loc->wqe_ci - txq->wqe_pi);
	loc->elts_room = txq->elts_n -
			 (uint16_t)(loc->elts_head - txq->elts_tail);
}

/* What the multi-segment and generic paths did with a packet. */
enum tx_verdict {
	TX_SENT,
	TX_DROPPED,
	TX_FULL,
};

/* Ethernet segment checksum flags of @p m. */
static __rte_always_inline uint8_t
tx_cs_flags(const struct rte_mbuf *m, const unsigned int olx)
{
	uint8_t cs = 0;

	if (!(olx & TX_OLX_CSUM))
		return 0;
	if (m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM)
		cs |= MLX5_ETH_WQE_L3_CSUM;
	if (m->ol_flags & RTE_MBUF_F_TX_L4_MASK)
		cs |= MLX5_ETH_WQE_L4_CSUM;
	return cs;
}

/* True when @p m asks for VLAN insertion in a variant that offers it. */
static __rte_always_inline bool
tx_vlan(const struct rte_mbuf *m, const unsigned int olx)
{
	return (olx & TX_OLX_VLAN) && (m->ol_flags & RTE_MBUF_F_TX_VLAN);
}

/*
 * Slots from @p slot on may be plain; those before it are freed through
 * prefree. Moved past every packet that is not plain, and past every
 * look-up that may change the cache's pool, which all plain slots share
 * (also for a packet then dropped: a later one takes its slot, counted
 * not plain, which is only slower).
 */
static __rte_always_inline void
tx_plain_from(struct mlx5_tm_txq *txq, uint16_t slot, const unsigned int olx)
{
	if (!(olx & TX_OLX_FFREE))
		txq->elts_plain = slot;
}

static __rte_noinline uint32_t
tx_lone_lkey_slow(struct mlx5_tm_txq *txq, const struct rte_mbuf *m,
		  uintptr_t addr, uint32_t len, uint16_t slot,
		  const unsigned int olx)
{
	tx_plain_from(txq, slot + 1, olx);
	return mlx5_tm_mr_mbuf_lkey(&txq->mr, m, addr, len);
}

/*
 * The lkey of lone segment @p m (@p len bytes at @p addr) for elts slot
 * @p slot. A direct mbuf of the cache's pool with reference count 1, the
 * common case, is plain: only the PMD holds it, so nothing can change that
 * before its completion, which returns it to the pool without reading it.
 * Anything else is looked up out of line and freed through prefree.
 */
static __rte_always_inline uint32_t
tx_lone_lkey(struct mlx5_tm_txq *txq, const struct rte_mbuf *m,
	     uintptr_t addr, uint32_t len, uint16_t slot,
	     const unsigned int olx)
{
	if (likely(m->pool == txq->mr.pool && RTE_MBUF_DIRECT(m) &&
		   ((olx & TX_OLX_FFREE) || rte_mbuf_refcnt_read(m) == 1)))
		return txq->mr.pool_lkey;
	return tx_lone_lkey_slow(txq, m, addr, len, slot, olx);
}

/*
 * Control segment of the WQE at @p wqe_ci (no completion asked), whose
 * packets start at elts slot @p elts_head.
 */
static __rte_always_inline void
tx_ctrl(struct mlx5_tm_txq *txq, struct mlx5_tm_wqe_ctrl_seg *ctrl,
	uint16_t wqe_ci, uint8_t opcode, uint32_t ds, uint16_t elts_head)
{
	uint32_t op = rte_cpu_to_be_32(
		mlx5_tm_wqe_opmod_idx_opcode(0, wqe_ci, opcode));
	uint32_t qpn_ds = rte_cpu_to_be_32(mlx5_tm_wqe_qpn_ds(txq->sqn, ds));
	/*
	 * opmod_idx_opcode and qpn_ds in one 8-byte store: the doorbell
	 * reads these 8 bytes back at once, and a load spanning two stores
	 * is not forwarded from them (it waits until they reach the cache).
	 */
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	uint64_t w0 = (uint64_t)qpn_ds << 32 | op;
#else
	uint64_t w0 = (uint64_t)op << 32 | qpn_ds;
#endif

	txq->wqe_elts[wqe_ci & (txq->wqe_n - 1)] = elts_head;
	memcpy(&ctrl->opmod_idx_opcode, &w0, sizeof(w0));
	ctrl->signature = 0;
	ctrl->rsvd[0] = 0;
	ctrl->rsvd[1] = 0;
	ctrl->fm_ce_se = 0;
	ctrl->imm = 0;
}

/* Ethernet segment without inline header: flags and VLAN insertion. */
static __rte_always_inline void
tx_eseg(struct mlx5_tm_wqe_eth_seg *eth, uint8_t cs, bool vlan,
	uint16_t vlan_tci)
{
	memset(eth, 0, offsetof(struct mlx5_tm_wqe_eth_seg, inline_hdr_word));
	eth->cs_flags = cs;
	if (vlan) {
		eth->insert_type = rte_cpu_to_be_16(MLX5_ETH_WQE_INSERT_VLAN);
		eth->vlan_tci = rte_cpu_to_be_16(vlan_tci);
	} else {
		eth->inline_hdr_word = 0;
	}
}

/* Data segment pointing to @p len bytes at @p addr. */
static __rte_always_inline void
tx_dseg(struct mlx5_tm_wqe_data_seg *d, uintptr_t addr, uint32_t len,
	uint32_t lkey)
{
	d->byte_count = rte_cpu_to_be_32(len);
	d->lkey = rte_cpu_to_be_32(lkey);
	d->addr = rte_cpu_to_be_64(addr);
}

/*
 * The first @p len bytes of the frame at @p p into @p hdr, with the VLAN
 * tag @p tci inserted after the MAC addresses when @p vlan (then @p len +
 * RTE_VLAN_HLEN bytes); @p len >= TX_MACS.
 */
static __rte_always_inline void
tx_hdr_copy(uint8_t *hdr, const uint8_t *p, uint32_t len, bool vlan,
	    uint16_t tci)
{
	if (vlan) {
		uint16_t tpid = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);

		/* The tag (RTE_VLAN_HLEN bytes): TPID, then TCI. */
		tci = rte_cpu_to_be_16(tci);
		memcpy(hdr, p, TX_MACS);
		memcpy(hdr + TX_MACS, &tpid, sizeof(tpid));
		memcpy(hdr + TX_MACS + sizeof(tpid), &tci, sizeof(tci));
		memcpy(hdr + TX_MACS + RTE_VLAN_HLEN, p + TX_MACS,
		       len - TX_MACS);
	} else {
		memcpy(hdr, p, len);
	}
}

/*
 * Bytes of the frame the minimum inline header (MLX5_ESEG_MIN_INLINE_SIZE)
 * takes: fewer by the tag's length when a VLAN tag is inserted in it.
 */
static __rte_always_inline uint16_t
tx_l2_skip(bool vlan)
{
	return MLX5_ESEG_MIN_INLINE_SIZE - (vlan ? RTE_VLAN_HLEN : 0);
}

/*
 * Ethernet segment with the minimum inline header: the first
 * MLX5_ESEG_MIN_INLINE_SIZE bytes of the frame at @p p (the first
 * segment of @p m, which the caller checked holds them), with the VLAN
 * tag @p m asks for inserted after the MAC addresses when @p vlan (then
 * only 14 bytes of @p p); 2 of them in @p eth and 16 in the unit @p next
 * that follows it.
 */
static __rte_always_inline void
tx_eseg_inline_l2(struct mlx5_tm_wqe_eth_seg *eth, void *next,
		  const struct rte_mbuf *m, const uint8_t *p, bool vlan,
		  uint8_t cs)
{
	uint8_t hdr[MLX5_ESEG_MIN_INLINE_SIZE];

	tx_hdr_copy(hdr, p, tx_l2_skip(vlan), vlan, m->vlan_tci);
	tx_eseg(eth, cs, false, 0);
	eth->inline_hdr_sz = rte_cpu_to_be_16(MLX5_ESEG_MIN_INLINE_SIZE);
	memcpy(eth->inline_hdr_start, hdr, 2);
	memcpy(next, hdr + 2, MLX5_WQE_DS_UNITS);
}

/*
 * Write @p skip bytes of the head of @p m (and the VLAN tag it asks for)
 * as the inline header of Ethernet segment @p eth, continuing in the ring
 * from 16-byte unit @p ds_idx. Return the unit after the header.
 */
static uint32_t
tx_write_inline(struct mlx5_tm_txq *txq, struct mlx5_tm_wqe_eth_seg *eth,
		const struct rte_mbuf *m, uint32_t skip, bool vlan,
		uint32_t ds_idx)
{
	uint8_t hdr[MLX5_TM_TX_MAX_INLINE + MLX5_WQE_DS_UNITS] = { 0 };
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = skip, off;

	tx_hdr_copy(hdr, p, skip, vlan, m->vlan_tci);
	if (vlan)
		len += RTE_VLAN_HLEN;
	eth->inline_hdr_sz = rte_cpu_to_be_16(len);
	memcpy(eth->inline_hdr_start, hdr, 2);
	for (off = 2; off < len; off += MLX5_WQE_DS_UNITS)
		memcpy(ds_at(txq, ds_idx++), hdr + off, MLX5_WQE_DS_UNITS);
	return ds_idx;
}

/*
 * Segment @p seg of a packet into slot @p slot of @p elts (@p mask: the
 * ring's size - 1; kept in registers by the caller): each segment of a
 * chain has a slot of its own and is freed alone at completion, so the
 * free reads no chain (upstream net/mlx5 keeps a slot per segment too).
 * A segment of refcnt 1 (with fast free, every one) is the PMD's alone:
 * it is unlinked now, in the lines the post reads anyway, as prefree
 * would at the free; a shared one keeps its links (its other holders')
 * and is not plain.
 */
static __rte_always_inline void
tx_seg_slot(struct mlx5_tm_txq *txq, struct rte_mbuf **elts, uint16_t mask,
	    struct rte_mbuf *seg, uint16_t slot, const unsigned int olx)
{
	elts[slot & mask] = seg;
	if ((olx & TX_OLX_FFREE) || likely(rte_mbuf_refcnt_read(seg) == 1)) {
		seg->next = NULL;
		seg->nb_segs = 1;
	} else {
		tx_plain_from(txq, slot + 1, olx);
	}
}

/*
 * Any packet, one SEND WQE: several segments, headers inline through
 * L3/L4 (inline mode IP or TCP_UDP): the path of the variants that inline
 * them, with its own ring-space check; @p olx, the variant's offload set,
 * is tested at run time here.
 */
static __rte_noinline enum tx_verdict
tx_send_generic(struct mlx5_tm_txq *txq, struct rte_mbuf *m,
		struct tx_loc *loc, unsigned int olx)
{
	uint32_t lkey[MLX5_TM_TX_MAX_SEGS];
	struct mlx5_tm_wqe_ctrl_seg *ctrl;
	struct mlx5_tm_wqe_eth_seg *eth;
	uint16_t nseg = m->nb_segs, nbb, ndata = 0, skip, k;
	const bool vlan = tx_vlan(m, olx);
	const uint32_t tag = vlan ? RTE_VLAN_HLEN : 0;
	uint32_t ds, ds_idx, h;
	uint16_t inl_units;
	struct rte_mbuf *seg;

	if (unlikely(nseg > MLX5_TM_TX_MAX_SEGS)) {
		drop(txq, m);
		return TX_DROPPED;
	}
	/*
	 * The headers the mode needs; at least the 18 bytes the L2 mode
	 * inlines when the first segment has them.
	 */
	h = tx_hdr_len(m, txq->inline_mode);
	if (unlikely(h == 0 || h + tag > MLX5_TM_TX_MAX_INLINE)) {
		drop(txq, m);
		return TX_DROPPED;
	}
	skip = (uint16_t)RTE_MAX(h, RTE_MIN((uint32_t)tx_l2_skip(vlan),
					    (uint32_t)m->data_len));
	inl_units = (skip + tag - 2 + MLX5_WQE_DS_UNITS - 1) /
		    MLX5_WQE_DS_UNITS;
	/* Find every lkey before writing: a miss drops the packet. */
	tx_plain_from(txq, loc->elts_head + nseg, olx);
	for (seg = m, k = 0; seg != NULL; seg = seg->next, k++) {
		uint16_t off = seg == m ? skip : 0;
		uint32_t len = seg->data_len - off;

		if (len == 0) {
			lkey[k] = MLX5_TM_LKEY_INVALID;
			continue;
		}
		lkey[k] = mlx5_tm_mr_mbuf_lkey(&txq->mr, seg,
			rte_pktmbuf_mtod_offset(seg, uintptr_t, off), len);
		if (unlikely(lkey[k] == MLX5_TM_LKEY_INVALID))
			break;
		ndata++;
	}
	if (unlikely(seg != NULL)) {
		drop(txq, m);
		return TX_DROPPED;
	}
	ds = 2 + inl_units + ndata;
	nbb = (ds + MLX5_WQE_DS_PER_WQEBB - 1) / MLX5_WQE_DS_PER_WQEBB;
	if (unlikely((uint16_t)(loc->wqe_ci - txq->wqe_pi) + nbb > txq->wqe_n ||
		     (uint16_t)(loc->elts_head - txq->elts_tail) + nseg >
		     txq->elts_n))
		return TX_FULL;
	ds_idx = (uint32_t)loc->wqe_ci * MLX5_WQE_DS_PER_WQEBB;
	ctrl = ds_at(txq, ds_idx);
	eth = ds_at(txq, ds_idx + 1);
	tx_ctrl(txq, ctrl, loc->wqe_ci, MLX5_OPCODE_SEND, ds, loc->elts_head);
	/* The tag, if any, goes into the inline header. */
	tx_eseg(eth, tx_cs_flags(m, olx), false, 0);
	ds_idx = tx_write_inline(txq, eth, m, skip, vlan, ds_idx + 2);
	loc->bytes += m->pkt_len;
	for (seg = m, k = 0; seg != NULL; k++) {
		struct rte_mbuf *next = seg->next;
		uint16_t off = seg == m ? skip : 0;

		if (lkey[k] != MLX5_TM_LKEY_INVALID)
			tx_dseg(ds_at(txq, ds_idx++),
				rte_pktmbuf_mtod_offset(seg, uintptr_t, off),
				seg->data_len - off, lkey[k]);
		if (txq->fast_free)
			tx_seg_slot(txq, txq->elts, txq->elts_n - 1, seg,
				    loc->elts_head++, TX_OLX_FFREE);
		else
			tx_seg_slot(txq, txq->elts, txq->elts_n - 1, seg,
				    loc->elts_head++, 0);
		seg = next;
	}
	/* Never plain: its look-ups may have moved the cache's pool. */
	tx_plain_from(txq, loc->elts_head, olx);
	loc->wqe_ci += nbb;
	loc->sent++;
	loc->last = ctrl;
	return TX_SENT;
}

/*
 * A single-segment packet, one SEND WQE of one WQEBB: control, Ethernet
 * segment (with the 18-byte L2 header inline in the L2 variants, then 16
 * of them in the next unit), data segment. Return false when dropped.
 */
static __rte_always_inline bool
tx_send_single(struct mlx5_tm_txq *txq, struct rte_mbuf *m,
	       struct tx_loc *loc, const unsigned int olx)
{
	struct mlx5_tm_wqe_ctrl_seg *ctrl = (void *)
		&txq->wqes[loc->wqe_ci & (txq->wqe_n - 1)];
	struct mlx5_tm_wqe_eth_seg *eth = (void *)(ctrl + 1);
	struct mlx5_tm_wqe_data_seg *d = (void *)(eth + 1);
	const bool vlan = tx_vlan(m, olx);
	uintptr_t addr = rte_pktmbuf_mtod(m, uintptr_t);
	uint32_t len = m->data_len, lkey = 0, ds = 3;
	uint16_t skip = 0;

	if (olx & TX_OLX_INL_L2) {
		skip = tx_l2_skip(vlan);
		if (unlikely(len < skip)) {
			drop(txq, m);
			return false;
		}
		ds = len > skip ? 4 : 3;
	}
	if (ds != 3 || !(olx & TX_OLX_INL_L2)) {
		lkey = tx_lone_lkey(txq, m, addr + skip, len - skip,
				    loc->elts_head, olx);
		if (unlikely(lkey == MLX5_TM_LKEY_INVALID)) {
			drop(txq, m);
			return false;
		}
	} else {
		/* All inline: nothing looked up, nothing checked. */
		tx_plain_from(txq, loc->elts_head + 1, olx);
	}
	tx_ctrl(txq, ctrl, loc->wqe_ci, MLX5_OPCODE_SEND, ds, loc->elts_head);
	if (olx & TX_OLX_INL_L2) {
		tx_eseg_inline_l2(eth, d, m, (const uint8_t *)addr, vlan,
				  tx_cs_flags(m, olx));
		d++;
		if (ds == 4)
			tx_dseg(d, addr + skip, len - skip, lkey);
	} else {
		tx_eseg(eth, tx_cs_flags(m, olx), vlan, m->vlan_tci);
		tx_dseg(d, addr, len, lkey);
	}
	txq->elts[loc->elts_head++ & (txq->elts_n - 1)] = m;
	loc->bytes += len;
	loc->sent++;
	loc->wqe_ci++;
	loc->last = ctrl;
	return true;
}

/*
 * Drop a packet whose segments before @p seg are in elts slots [@p from,
 * @p to) already (unlinked when only the PMD held them): free those one
 * by one, the rest of the chain from @p seg.
 */
static __rte_noinline void
tx_drop_posted(struct mlx5_tm_txq *txq, uint16_t from, uint16_t to,
	       struct rte_mbuf *seg)
{
	ST_ADD(txq, dropped, 1);
	for (; from != to; from++)
		rte_pktmbuf_free_seg(txq->elts[from & (txq->elts_n - 1)]);
	rte_pktmbuf_free(seg);
}

/*
 * A multi-segment packet, one SEND WQE: control, Ethernet segment (the L2
 * header inline in the L2 variants), one data segment per non-empty
 * segment, wrapping at the end of the ring; an elts slot per segment
 * (tx_seg_slot()). The chain is walked by nb_segs, as upstream does: the
 * last segment's next (its second cache line) is not read. The packet
 * checks its own room (its WQEBBs and slots are not one each).
 */
static __rte_always_inline enum tx_verdict
tx_send_multi(struct mlx5_tm_txq *txq, struct rte_mbuf *m,
	      struct tx_loc *loc, const unsigned int olx)
{
	struct mlx5_tm_wqe_ctrl_seg *ctrl = (void *)
		&txq->wqes[loc->wqe_ci & (txq->wqe_n - 1)];
	struct mlx5_tm_wqe_eth_seg *eth = (void *)(ctrl + 1);
	struct mlx5_tm_wqe_data_seg *d = (void *)(eth + 1);
	struct mlx5_tm_wqe_data_seg *ring_end =
		(void *)&txq->wqes[txq->wqe_n];
	struct rte_mbuf **elts = txq->elts;
	const uint16_t elts_mask = txq->elts_n - 1;
	const uint16_t nseg = m->nb_segs;
	const bool vlan = tx_vlan(m, olx);
	const uint16_t inl = (olx & TX_OLX_INL_L2) ? 1 : 0;
	uint16_t skip = 0, off, nbb, k = nseg;
	uint16_t elts_head = loc->elts_head;
	const struct rte_mempool *pool = txq->mr.pool;
	uint32_t pool_lkey = txq->mr.pool_lkey;
	const uint32_t pkt_len = m->pkt_len;
	struct rte_mbuf *seg, *next;
	uint32_t ds = 2 + inl;

	if (unlikely(nseg > MLX5_TM_TX_MAX_SEGS)) {
		drop(txq, m);
		return TX_DROPPED;
	}
	nbb = (2 + inl + nseg + MLX5_WQE_DS_PER_WQEBB - 1) /
	      MLX5_WQE_DS_PER_WQEBB;
	if (unlikely(nbb > loc->wqe_room || nseg > loc->elts_room))
		return TX_FULL;
	if (olx & TX_OLX_INL_L2) {
		const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

		skip = tx_l2_skip(vlan);
		if (unlikely(m->data_len < skip)) {
			drop(txq, m);
			return TX_DROPPED;
		}
		/* The WQE's second WQEBB at most: never past the ring end. */
		tx_eseg_inline_l2(eth, d, m, p, vlan, tx_cs_flags(m, olx));
		if (++d == ring_end)
			d = (void *)txq->wqes;
	} else {
		tx_eseg(eth, tx_cs_flags(m, olx), vlan, m->vlan_tci);
	}
	for (seg = m, off = skip; ; off = 0) {
		uint32_t len = seg->data_len - off;

		/* A data segment of length 0 would mean 2 GB: none. */
		if (likely(len != 0)) {
			uintptr_t addr = rte_pktmbuf_mtod_offset(seg, uintptr_t,
								 off);
			uint32_t lkey;

			/* The segments of a chain mostly share one pool. */
			if (likely(seg->pool == pool &&
				   RTE_MBUF_DIRECT(seg))) {
				lkey = pool_lkey;
			} else {
				/* The cache's pool may change, even if dropped. */
				tx_plain_from(txq, elts_head + 1, olx);
				lkey = mlx5_tm_mr_mbuf_lkey(&txq->mr, seg, addr,
							    len);
				pool = txq->mr.pool;
				pool_lkey = txq->mr.pool_lkey;
			}
			if (unlikely(lkey == MLX5_TM_LKEY_INVALID)) {
				/* Nothing is posted before the WQE is whole. */
				tx_drop_posted(txq, loc->elts_head, elts_head,
					       seg);
				return TX_DROPPED;
			}
			tx_dseg(d, addr, len, lkey);
			if (unlikely(++d == ring_end))
				d = (void *)txq->wqes;
			ds++;
		} else {
			/* Its pool unchecked: not plain. */
			tx_plain_from(txq, elts_head + 1, olx);
		}
		next = --k != 0 ? seg->next : NULL;
		tx_seg_slot(txq, elts, elts_mask, seg, elts_head++, olx);
		if (next == NULL)
			break;
		seg = next;
	}
	tx_ctrl(txq, ctrl, loc->wqe_ci, MLX5_OPCODE_SEND, ds, loc->elts_head);
	nbb = (ds + MLX5_WQE_DS_PER_WQEBB - 1) / MLX5_WQE_DS_PER_WQEBB;
	loc->elts_room -= (uint16_t)(elts_head - loc->elts_head);
	loc->elts_head = elts_head;
	loc->bytes += pkt_len;
	loc->sent++;
	loc->wqe_ci += nbb;
	loc->wqe_room -= nbb;
	loc->last = ctrl;
	return TX_SENT;
}

/* True when @p m may join an eMPW WQE whose checksum flags are @p cs. */
static __rte_always_inline bool
tx_empw_fits(const struct rte_mbuf *m, uint8_t cs, const unsigned int olx)
{
	return m->nb_segs == 1 && !tx_vlan(m, olx) &&
	       tx_cs_flags(m, olx) == cs;
}

/*
 * Single-segment packets pkts[*i, end), up to MLX5_TM_TX_EMPW_MAX, into
 * one eMPW WQE: control, one Ethernet segment for all (checksum flags),
 * one data segment per packet, wrapping at the end of the ring. Stops at
 * a packet that does not fit (several segments, VLAN insertion, other
 * checksum flags). Each WQE of n packets takes (2 + n + 3) / 4 WQEBBs, at
 * most n: the burst's room in packets covers it.
 */
static __rte_always_inline void
tx_empw(struct mlx5_tm_txq *txq, struct rte_mbuf **pkts, uint16_t *i,
	uint16_t end, struct tx_loc *loc, const unsigned int olx)
{
	struct mlx5_tm_wqe_ctrl_seg *ctrl = (void *)
		&txq->wqes[loc->wqe_ci & (txq->wqe_n - 1)];
	struct mlx5_tm_wqe_eth_seg *eth = (void *)(ctrl + 1);
	struct mlx5_tm_wqe_data_seg *d = (void *)(eth + 1);
	struct mlx5_tm_wqe_data_seg *ring_end =
		(void *)&txq->wqes[txq->wqe_n];
	struct rte_mbuf **elts = txq->elts;
	const uint16_t elts_mask = txq->elts_n - 1;
	const uint8_t cs = tx_cs_flags(pkts[*i], olx);
	uint16_t k = *i, lim = RTE_MIN((uint16_t)(end - k),
				       (uint16_t)MLX5_TM_TX_EMPW_MAX);
	uint16_t elts_head = loc->elts_head;
	uint32_t cnt = 0;
	uint64_t bytes = 0;

	tx_eseg(eth, cs, false, 0);
	do {
		struct rte_mbuf *m = pkts[k++];
		uintptr_t addr = rte_pktmbuf_mtod(m, uintptr_t);
		uint32_t len = m->data_len;
		uint32_t lkey = tx_lone_lkey(txq, m, addr, len, elts_head,
					     olx);

		if (unlikely(lkey == MLX5_TM_LKEY_INVALID)) {
			drop(txq, m);
			lim--;
			continue;
		}
		tx_dseg(d, addr, len, lkey);
		if (unlikely(++d == ring_end))
			d = (void *)txq->wqes;
		elts[elts_head++ & elts_mask] = m;
		bytes += len;
		cnt++;
	} while (cnt < lim && tx_empw_fits(pkts[k], cs, olx));
	*i = k;
	if (unlikely(cnt == 0))
		return;
	tx_ctrl(txq, ctrl, loc->wqe_ci, MLX5_OPCODE_ENHANCED_MPSW, 2 + cnt,
		loc->elts_head);
	loc->wqe_ci += (2 + cnt + MLX5_WQE_DS_PER_WQEBB - 1) /
		       MLX5_WQE_DS_PER_WQEBB;
	loc->elts_head = elts_head;
	loc->sent += cnt;
	loc->bytes += bytes;
	loc->last = ctrl;
}

/*
 * Ask for a CQE on @p last, the last WQE posted: it completes the elts,
 * WQEBBs, packets and bytes posted so far.
 */
static __rte_always_inline void
tx_request_completion(struct mlx5_tm_txq *txq,
		      struct mlx5_tm_wqe_ctrl_seg *last)
{
	struct mlx5_tm_txq_fcq *f = &txq->fcqs[txq->fcq_head++ &
					     (txq->cqe_n - 1)];

	last->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
	f->elts_head = txq->elts_head;
	f->wqe_end = txq->wqe_ci;
	f->packets = txq->st.packets;
	f->bytes = txq->st.bytes;
	txq->elts_comp = txq->elts_head;
	txq->wqe_comp = txq->wqe_ci;
}

/* Tell the device WQEs up to wqe_ci are posted, @p last the last one. */
static __rte_always_inline void
tx_doorbell(struct mlx5_tm_txq *txq, const struct mlx5_tm_wqe_ctrl_seg *last)
{
	/* WQEs, then the doorbell record, then the doorbell. */
	rte_io_wmb();
	DEV_STORE(txq->sq_db, rte_cpu_to_be_32(txq->wqe_ci));
	rte_wmb();
	DEV_STORE(txq->uar_reg, *(const volatile uint64_t *)last);
	rte_wmb();
}

/*
 * The burst, compiled once per offload set @p olx. Per burst: the queue's
 * state and completions, then one ring-space check (in packets: a
 * single-segment packet takes one WQEBB and one elts slot at most), then
 * WQEs without further checks; only a packet for the generic path checks
 * its own room. A completion is asked on the last WQE when the moderation
 * thresholds say so (MLX5_TM_TX_COMP_THRESH); one doorbell.
 */
static __rte_always_inline uint16_t
tx_burst_tmpl(void *q, struct rte_mbuf **pkts, uint16_t n,
	      const unsigned int olx)
{
	struct mlx5_tm_txq *txq = q;
	uint32_t state = __atomic_load_n(&txq->state, __ATOMIC_ACQUIRE);
	struct tx_loc loc;
	uint32_t freed = 0;
	bool empw, full = false;
	uint16_t i = 0;

	if (unlikely(state != MLX5_TM_TXQ_OK)) {
		if (state == MLX5_TM_TXQ_RST)
			txq_rewind(txq);
		return 0;
	}
	if (unlikely(!txq_complete(txq, &freed, 0, olx)))
		return 0;
	if (unlikely(__atomic_load_n(&txq->suspended, __ATOMIC_RELAXED)))
		return 0;
	if (unlikely((uint16_t)(txq->fcq_head - txq->fcq_tail) +
		     MLX5_TM_TX_CQ_RESERVE > txq->cqe_n)) {
		ST_ADD(txq, ring_full, 1);
		return 0;
	}
	mlx5_tm_mr_cache_check(&txq->mr);
	empw = !(olx & TX_OLX_INLINE) &&
	       __atomic_load_n(&txq->empw, __ATOMIC_RELAXED);
	loc.wqe_ci = txq->wqe_ci;
	loc.elts_head = txq->elts_head;
	loc.sent = 0;
	loc.bytes = 0;
	loc.last = NULL;
	tx_loc_room(txq, &loc);
	while (i < n) {
		uint16_t end = i + RTE_MIN((uint16_t)(n - i),
					   RTE_MIN(loc.wqe_room,
						   loc.elts_room));
		uint16_t wqe_ci = loc.wqe_ci, elts_head = loc.elts_head;
		enum tx_verdict v;
		struct tx_loc s;

		if (unlikely(end == i)) {
			ST_ADD(txq, ring_full, 1);
			full = true;
			break;
		}
		while (i < end) {
			struct rte_mbuf *m = pkts[i];

			if (unlikely(m->nb_segs != 1 ||
				     (olx & TX_OLX_INL_HDRS)))
				break;
			if (empw && !tx_vlan(m, olx)) {
				tx_empw(txq, pkts, &i, end, &loc, olx);
				continue;
			}
			tx_send_single(txq, m, &loc, olx);
			i++;
		}
		/* One WQEBB and one slot per packet at most, taken now. */
		if (i == end) {
			if (likely(i == n))
				break;
			loc.wqe_room -= (uint16_t)(loc.wqe_ci - wqe_ci);
			loc.elts_room -= (uint16_t)(loc.elts_head - elts_head);
			continue;
		}
		loc.wqe_room -= (uint16_t)(loc.wqe_ci - wqe_ci);
		loc.elts_room -= (uint16_t)(loc.elts_head - elts_head);
		/* Multi-segment packets, or headers to inline, in a row. */
		if (!(olx & TX_OLX_INL_HDRS)) {
			do {
				v = tx_send_multi(txq, pkts[i], &loc, olx);
				if (unlikely(v == TX_FULL))
					break;
				i++;
			} while (i < n && pkts[i]->nb_segs != 1);
		} else {
			s = loc;
			v = tx_send_generic(txq, pkts[i], &s, olx);
			loc = s;
			tx_loc_room(txq, &loc);
			if (v != TX_FULL)
				i++;
		}
		if (v == TX_FULL) {
			ST_ADD(txq, ring_full, 1);
			full = true;
			break;
		}
	}
	if (loc.last != NULL) {
		txq->wqe_ci = loc.wqe_ci;
		txq->elts_head = loc.elts_head;
		ST_ADD(txq, packets, loc.sent);
		ST_ADD(txq, bytes, loc.bytes);
		if ((uint16_t)(loc.elts_head - txq->elts_comp) >=
		    MLX5_TM_TX_COMP_THRESH ||
		    (uint16_t)(loc.wqe_ci - txq->wqe_comp) >= txq->wqe_thres ||
		    unlikely(full))
			tx_request_completion(txq, loc.last);
		tx_doorbell(txq, loc.last);
	}
	return i;
}

/* The variants: inline mode x VLAN x checksums x fast free. */
#define TX_VARIANTS(X) \
	X(none, 0) \
	X(none_ff, TX_OLX_FFREE) \
	X(none_cs, TX_OLX_CSUM) \
	X(none_cs_ff, TX_OLX_CSUM | TX_OLX_FFREE) \
	X(none_vlan, TX_OLX_VLAN) \
	X(none_vlan_ff, TX_OLX_VLAN | TX_OLX_FFREE) \
	X(none_vlan_cs, TX_OLX_VLAN | TX_OLX_CSUM) \
	X(none_vlan_cs_ff, TX_OLX_VLAN | TX_OLX_CSUM | TX_OLX_FFREE) \
	X(l2, TX_OLX_INL_L2) \
	X(l2_ff, TX_OLX_INL_L2 | TX_OLX_FFREE) \
	X(l2_cs, TX_OLX_INL_L2 | TX_OLX_CSUM) \
	X(l2_cs_ff, TX_OLX_INL_L2 | TX_OLX_CSUM | TX_OLX_FFREE) \
	X(l2_vlan, TX_OLX_INL_L2 | TX_OLX_VLAN) \
	X(l2_vlan_ff, TX_OLX_INL_L2 | TX_OLX_VLAN | TX_OLX_FFREE) \
	X(l2_vlan_cs, TX_OLX_INL_L2 | TX_OLX_VLAN | TX_OLX_CSUM) \
	X(l2_vlan_cs_ff, TX_OLX_INL_L2 | TX_OLX_VLAN | TX_OLX_CSUM | \
	  TX_OLX_FFREE) \
	X(hdrs, TX_OLX_INL_HDRS) \
	X(hdrs_ff, TX_OLX_INL_HDRS | TX_OLX_FFREE) \
	X(hdrs_cs, TX_OLX_INL_HDRS | TX_OLX_CSUM) \
	X(hdrs_cs_ff, TX_OLX_INL_HDRS | TX_OLX_CSUM | TX_OLX_FFREE) \
	X(hdrs_vlan, TX_OLX_INL_HDRS | TX_OLX_VLAN) \
	X(hdrs_vlan_ff, TX_OLX_INL_HDRS | TX_OLX_VLAN | TX_OLX_FFREE) \
	X(hdrs_vlan_cs, TX_OLX_INL_HDRS | TX_OLX_VLAN | TX_OLX_CSUM) \
	X(hdrs_vlan_cs_ff, TX_OLX_INL_HDRS | TX_OLX_VLAN | TX_OLX_CSUM | \
	  TX_OLX_FFREE)

#define TX_DEFINE(name, olx) \
static uint16_t \
mlx5_tm_tx_burst_##name(void *q, struct rte_mbuf **pkts, uint16_t n) \
{ \
	return tx_burst_tmpl(q, pkts, n, (olx)); \
}
TX_VARIANTS(TX_DEFINE)
#undef TX_DEFINE

static const struct {
	unsigned int olx;
	eth_tx_burst_t burst;
	const char *name;
} tx_variants[] = {
#define TX_ENTRY(name, olx) { (olx), mlx5_tm_tx_burst_##name, #name },
	TX_VARIANTS(TX_ENTRY)
#undef TX_ENTRY
};

eth_tx_burst_t
mlx5_tm_tx_burst_select(const struct rte_eth_dev *dev, bool *fast_free)
{
	const struct mlx5_tm_priv *priv = dev->data->dev_private;
	uint64_t offloads = dev->data->dev_conf.txmode.offloads;
	bool ffree = dev->data->nb_tx_queues != 0;
	unsigned int olx = 0, i;

	for (i = 0; i < dev->data->nb_tx_queues; i++) {
		const struct mlx5_tm_txq *txq = dev->data->tx_queues[i];

		if (txq == NULL)
			continue;
		offloads |= txq->offloads;
		/* Fast free holds for the port only if every queue says so. */
		ffree = ffree && (txq->offloads &
				  RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE);
	}
	if (priv->caps.min_inline_mode == MLX5_INLINE_MODE_L2)
		olx |= TX_OLX_INL_L2;
	else if (priv->caps.min_inline_mode >= MLX5_INLINE_MODE_IP)
		olx |= TX_OLX_INL_HDRS;
	if (offloads & RTE_ETH_TX_OFFLOAD_VLAN_INSERT)
		olx |= TX_OLX_VLAN;
	if (offloads & (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			RTE_ETH_TX_OFFLOAD_UDP_CKSUM |
			RTE_ETH_TX_OFFLOAD_TCP_CKSUM))
		olx |= TX_OLX_CSUM;
	if (ffree)
		olx |= TX_OLX_FFREE;
	*fast_free = ffree;
	for (i = 0; i < RTE_DIM(tx_variants); i++)
		if (tx_variants[i].olx == olx)
			return tx_variants[i].burst;
	return NULL;
}

const char *
mlx5_tm_tx_burst_name(eth_tx_burst_t burst)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(tx_variants); i++)
		if (tx_variants[i].burst == burst)
			return tx_variants[i].name;
	return "unknown";
}

/*
 * Ask for a CQE covering the slots posted since the last request, which
 * a burst below the moderation thresholds left without one: a NOP WQE
 * with CQ_UPDATE (as Linux's mlx5e_post_nop()), if the ring and the CQ
 * have room; if not, a requested completion is coming that makes room
 * for a later call.
 */
static void
tx_post_nop(struct mlx5_tm_txq *txq)
{
	struct mlx5_tm_wqe_ctrl_seg *ctrl = (void *)
		&txq->wqes[txq->wqe_ci & (txq->wqe_n - 1)];

	if ((uint16_t)(txq->wqe_ci - txq->wqe_pi) == txq->wqe_n ||
	    (uint16_t)(txq->fcq_head - txq->fcq_tail) +
	    MLX5_TM_TX_CQ_RESERVE > txq->cqe_n)
		return;
	tx_ctrl(txq, ctrl, txq->wqe_ci, MLX5_OPCODE_NOP, 1, txq->elts_head);
	txq->wqe_ci++;
	tx_request_completion(txq, ctrl);
	tx_doorbell(txq, ctrl);
}

int
mlx5_tm_tx_post_bad_lkey(struct mlx5_tm_txq *txq, const uint8_t *frame,
			 uint32_t len, uint32_t lkey)
{
	const uint16_t mask = txq->wqe_n - 1;
	struct mlx5_tm_wqe_ctrl_seg *ctrl = (void *)&txq->wqes[txq->wqe_ci &
							       mask];
	struct mlx5_tm_wqe_eth_seg *eth = (void *)(ctrl + 1);
	uint32_t ds = txq->wqe_ci * MLX5_WQE_DS_PER_WQEBB + 2;
	uint32_t skip = 0;

	if (__atomic_load_n(&txq->state, __ATOMIC_ACQUIRE) != MLX5_TM_TXQ_OK)
		return -EAGAIN;
	if ((uint16_t)(txq->wqe_ci - txq->wqe_pi) == txq->wqe_n ||
	    (uint16_t)(txq->fcq_head - txq->fcq_tail) +
	    MLX5_TM_TX_CQ_RESERVE > txq->cqe_n)
		return -EBUSY;
	tx_eseg(eth, 0, false, 0);
	/* The SQ's minimum inline header, as every WQE of it carries. */
	if (txq->inline_mode != MLX5_INLINE_MODE_NONE) {
		skip = MLX5_ESEG_MIN_INLINE_SIZE;
		eth->inline_hdr_sz = rte_cpu_to_be_16(skip);
		memcpy(eth->inline_hdr_start, frame, 2);
		memcpy(ds_at(txq, ds++), frame + 2, MLX5_WQE_DS_UNITS);
	}
	tx_dseg(ds_at(txq, ds++), (uintptr_t)(frame + skip), len - skip, lkey);
	tx_ctrl(txq, ctrl, txq->wqe_ci, MLX5_OPCODE_SEND,
		ds - txq->wqe_ci * MLX5_WQE_DS_PER_WQEBB, txq->elts_head);
	txq->wqe_ci++;
	tx_request_completion(txq, ctrl);
	tx_doorbell(txq, ctrl);
	return 0;
}

/* tx_done_cleanup for offload set @p olx (fast free or not). */
static __rte_always_inline int
tx_done_cleanup_olx(struct mlx5_tm_txq *txq, uint32_t free_cnt,
		    const unsigned int olx)
{
	uint32_t freed = 0;

	if (!txq_complete(txq, &freed, free_cnt, olx))
		return (int)freed;
	if (txq->elts_comp != txq->elts_head) {
		tx_post_nop(txq);
		/* The device may have completed it already. */
		if (free_cnt == 0)
			txq_complete(txq, &freed, 0, olx);
		else if (freed < free_cnt)
			txq_complete(txq, &freed, free_cnt - freed, olx);
	}
	return (int)freed;
}

int
mlx5_tm_tx_done_cleanup(void *q, uint32_t free_cnt)
{
	struct mlx5_tm_txq *txq = q;
	uint32_t state = __atomic_load_n(&txq->state, __ATOMIC_ACQUIRE);

	if (state == MLX5_TM_TXQ_RST) {
		txq_rewind(txq);
		return 0;
	}
	if (state != MLX5_TM_TXQ_OK)
		return 0;
	if (txq->fast_free)
		return tx_done_cleanup_olx(txq, free_cnt, TX_OLX_FFREE);
	return tx_done_cleanup_olx(txq, free_cnt, 0);
}

int
mlx5_tm_tx_descriptor_status(void *q, uint16_t offset)
{
	struct mlx5_tm_txq *txq = q;
	uint16_t used = txq->elts_head - txq->elts_tail;

	if (offset >= txq->elts_n)
		return -EINVAL;
	/* Slot elts_head + offset is still posted when it wrapped into use. */
	if (offset >= (uint16_t)(txq->elts_n - used))
		return RTE_ETH_TX_DESC_FULL;
	return RTE_ETH_TX_DESC_DONE;
}
