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

#include "mlx5_tm_tx.h"

/** Segments of one packet we accept (bounded by the WQE size). */
#define MLX5_TM_TX_MAX_SEGS 40
/** Mbufs freed per rte_pktmbuf_free_bulk() call. */
#define MLX5_TM_TX_FREE_BATCH 64
/**
 * Most header bytes one WQE carries inline (inserted VLAN tag included):
 * two VLAN tags, IPv4 and TCP headers with the most options fit.
 */
#define MLX5_TM_TX_MAX_INLINE 160
/**
 * Free CQEs a WQE needs before it is posted: its own completion and the
 * one requested on the last WQE of the burst. A posted WQE adds only one
 * of the two, so at most cqe_n - 1 completions are ever requested: the
 * last slot takes the error CQE the device writes for a WQE that asked
 * for none; a CQ overrun would lose it and the queue would never recover.
 */
#define MLX5_TM_TX_CQ_RESERVE 2

/* The 16-byte unit number @p ds of the ring, wrapping at its end. */
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

static __rte_always_inline void *
ds_at(const struct mlx5_tm_txq *txq, uint32_t ds)
{
	uint32_t mask = (uint32_t)txq->wqe_n * MLX5_WQE_DS_PER_WQEBB - 1;

	return (uint8_t *)txq->wqes + (size_t)(ds & mask) * MLX5_WQE_DS_UNITS;
}

/*
 * Return elts [elts_tail, upto) to their pools. Return how many: packets,
 * or segments with fast free (unchained at post, so one per slot).
 */
static uint32_t
free_elts(struct mlx5_tm_txq *txq, uint16_t upto)
{
	const uint16_t mask = txq->elts_n - 1;
	uint16_t tail = txq->elts_tail;
	uint32_t freed = 0;

	if (txq->fast_free) {
		freed = (uint16_t)(upto - tail);
		while (tail != upto) {
			uint16_t idx = tail & mask;
			uint16_t run = RTE_MIN((uint16_t)(upto - tail),
					       (uint16_t)(txq->elts_n - idx));

			rte_mempool_put_bulk(txq->elts[idx]->pool,
					     (void **)&txq->elts[idx], run);
			tail += run;
		}
	} else {
		struct rte_mbuf *batch[MLX5_TM_TX_FREE_BATCH];
		unsigned int n = 0;

		while (tail != upto) {
			struct rte_mbuf *m = txq->elts[tail & mask];

			tail++;
			if (m == NULL)
				continue;
			freed++;
			batch[n++] = m;
			if (n == MLX5_TM_TX_FREE_BATCH) {
				rte_pktmbuf_free_bulk(batch, n);
				n = 0;
			}
		}
		if (n != 0)
			rte_pktmbuf_free_bulk(batch, n);
	}
	txq->elts_tail = tail;
	return freed;
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

/* Count the error CQE at @p ci: a flush, or the error itself. */
static void
count_err_cqe(struct mlx5_tm_txq *txq, uint32_t ci)
{
	if (is_flush_cqe(txq, ci))
		ST_ADD(txq, flush_cqes, 1);
	else
		ST_ADD(txq, err_cqes, 1);
}

/*
 * Record the last of @p n good CQEs taken (time stamp @p ts, completing
 * @p f) as completion evidence, under its sequence count.
 */
static __rte_always_inline void
cmpl_note(struct mlx5_tm_txq *txq, uint32_t n, uint64_t ts,
	  const struct mlx5_tm_txq_fcq *f)
{
	struct mlx5_tm_txq_cmpl *c = &txq->cmpl;
	uint32_t seq = c->seq;

	__atomic_store_n(&c->seq, seq + 1, __ATOMIC_RELAXED);
	rte_smp_wmb();
	if (c->cqes == 0) {
		c->first_ts = ts;
		c->first_packets = f->packets;
		c->first_bytes = f->bytes;
	}
	c->cqes += n;
	c->last_ts = ts;
	c->last_packets = f->packets;
	c->last_bytes = f->bytes;
	__atomic_store_n(&c->seq, seq + 2, __ATOMIC_RELEASE);
}

/*
 * Consume the CQEs present and free what they complete (counted in
 * @p freed, as free_elts() counts). Return false when an error CQE moved
 * the queue to ERR.
 */
static __rte_always_inline bool
txq_complete(struct mlx5_tm_txq *txq, uint32_t *freed)
{
	uint32_t ci = txq->cq_ci;
	uint16_t upto = txq->elts_tail;
	const struct mlx5_tm_txq_fcq *f = NULL;
	uint64_t ts = 0;
	uint32_t good = 0;
	bool ok = true;
	uint8_t op_own;

	while (cqe_ready(txq, ci, &op_own)) {
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
			 * A flush alone: its WQE asked for a completion and
			 * did not run; what it covers is freed unsent. The
			 * control path checks whether the SQ is in error.
			 */
			if (txq->fcq_tail != txq->fcq_head) {
				const struct mlx5_tm_txq_fcq *f =
					&txq->fcqs[txq->fcq_tail++ &
						   (txq->cqe_n - 1)];

				if (upto != txq->elts_tail)
					*freed += free_elts(txq, upto);
				ST_ADD(txq, err_mbufs,
				       free_elts(txq, f->elts_head));
				upto = f->elts_head;
				txq->wqe_pi = f->wqe_end;
			}
			ST_ADD(txq, flush_cqes, 1);
			__atomic_store_n(&txq->flush_seen, 1,
					 __ATOMIC_RELEASE);
			ci++;
			continue;
		}
		/* An error: the SQ is in error, the control path resets it. */
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
		rte_io_wmb();
		DEV_STORE(txq->cq_db, rte_cpu_to_be_32(ci & 0xffffff));
	}
	*freed += upto != txq->elts_tail ? free_elts(txq, upto) : 0;
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
	txq->wqe_comp = 0;
	txq->elts_head = 0;
	txq->elts_tail = 0;
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
	uint32_t l2 = 12, l3, need;
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

/*
 * Write @p skip bytes of the head of @p m (and the VLAN tag it asks for)
 * as the inline header of Ethernet segment @p eth, continuing in the ring
 * from 16-byte unit @p ds_idx. Return the unit after the header.
 */
static __rte_noinline uint32_t
tx_write_inline(struct mlx5_tm_txq *txq, struct mlx5_tm_wqe_eth_seg *eth,
		const struct rte_mbuf *m, uint32_t skip, bool vlan,
		uint32_t ds_idx)
{
	uint8_t hdr[MLX5_TM_TX_MAX_INLINE + MLX5_WQE_DS_UNITS] = { 0 };
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = skip, off;

	if (vlan) {
		uint16_t tpid = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		uint16_t tci = rte_cpu_to_be_16(m->vlan_tci);

		memcpy(hdr, p, 12);
		memcpy(hdr + 12, &tpid, 2);
		memcpy(hdr + 14, &tci, 2);
		memcpy(hdr + 16, p + 12, skip - 12);
		len += 4;
	} else {
		memcpy(hdr, p, skip);
	}
	eth->inline_hdr_sz = rte_cpu_to_be_16(len);
	memcpy(eth->inline_hdr_start, hdr, 2);
	for (off = 2; off < len; off += MLX5_WQE_DS_UNITS)
		memcpy(ds_at(txq, ds_idx++), hdr + off, MLX5_WQE_DS_UNITS);
	return ds_idx;
}

/* Drop a packet the device cannot send. */
static __rte_always_inline void
drop(struct mlx5_tm_txq *txq, struct rte_mbuf *m)
{
	ST_ADD(txq, dropped, 1);
	rte_pktmbuf_free(m);
}

uint16_t
mlx5_tm_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct mlx5_tm_txq *txq = q;
	uint32_t state = __atomic_load_n(&txq->state, __ATOMIC_ACQUIRE);
	const uint16_t elts_mask = txq->elts_n - 1;
	struct mlx5_tm_wqe_ctrl_seg *last = NULL;
	uint16_t wqe_ci, elts_head, i;
	uint64_t bytes = 0, packets = 0;
	bool last_ce = false;
	uint32_t freed = 0;

	if (unlikely(state != MLX5_TM_TXQ_OK)) {
		if (state == MLX5_TM_TXQ_RST)
			txq_rewind(txq);
		return 0;
	}
	if (unlikely(!txq_complete(txq, &freed)))
		return 0;
	if (unlikely(__atomic_load_n(&txq->suspended, __ATOMIC_RELAXED)))
		return 0;
	mlx5_tm_mr_cache_check(&txq->mr);
	wqe_ci = txq->wqe_ci;
	elts_head = txq->elts_head;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *seg;
		uint32_t lkey[MLX5_TM_TX_MAX_SEGS];
		struct mlx5_tm_wqe_ctrl_seg *ctrl;
		struct mlx5_tm_wqe_eth_seg *eth;
		uint16_t nseg = m->nb_segs, nbb, ndata = 0, skip = 0, k;
		uint16_t inl_units = 0;
		uint32_t ds, ds_idx;
		bool vlan = m->ol_flags & RTE_MBUF_F_TX_VLAN;
		bool ce;

		if (unlikely(nseg > txq->max_segs)) {
			drop(txq, m);
			continue;
		}
		if (txq->inline_l2) {
			skip = vlan ? MLX5_ESEG_MIN_INLINE_SIZE - 4 :
				      MLX5_ESEG_MIN_INLINE_SIZE;
			if (unlikely(m->data_len < skip)) {
				drop(txq, m);
				continue;
			}
			inl_units = 1;
		} else if (unlikely(txq->inline_hdrs)) {
			/* The headers the mode needs; at least the 18 bytes
			 * the L2 mode inlines when the first segment has them.
			 */
			uint32_t h = tx_hdr_len(m, txq->inline_mode);
			uint32_t min = vlan ? MLX5_ESEG_MIN_INLINE_SIZE - 4 :
					      MLX5_ESEG_MIN_INLINE_SIZE;

			if (unlikely(h == 0 || h + (vlan ? 4 : 0) >
					       MLX5_TM_TX_MAX_INLINE)) {
				drop(txq, m);
				continue;
			}
			h = RTE_MAX(h, RTE_MIN(min, (uint32_t)m->data_len));
			skip = (uint16_t)h;
			inl_units = (skip + (vlan ? 4 : 0) - 2 +
				     MLX5_WQE_DS_UNITS - 1) / MLX5_WQE_DS_UNITS;
		}
		/* Find every lkey before writing: a miss drops the packet. */
		for (seg = m, k = 0; seg != NULL; seg = seg->next, k++) {
			uint16_t off = seg == m ? skip : 0;
			uint32_t len = seg->data_len - off;

			if (len == 0) {
				lkey[k] = MLX5_TM_LKEY_INVALID;
				continue;
			}
			lkey[k] = mlx5_tm_mr_lookup(&txq->mr,
				rte_pktmbuf_mtod_offset(seg, uintptr_t, off),
				len);
			if (unlikely(lkey[k] == MLX5_TM_LKEY_INVALID))
				break;
			ndata++;
		}
		if (unlikely(seg != NULL)) {
			drop(txq, m);
			continue;
		}
		ds = 2 + inl_units + ndata;
		nbb = (ds + MLX5_WQE_DS_PER_WQEBB - 1) / MLX5_WQE_DS_PER_WQEBB;
		if (unlikely((uint16_t)(wqe_ci - txq->wqe_pi) + nbb >
			     txq->wqe_n ||
			     (uint16_t)(elts_head - txq->elts_tail) + nseg >
			     txq->elts_n ||
			     (uint16_t)(txq->fcq_head - txq->fcq_tail) +
			     MLX5_TM_TX_CQ_RESERVE > txq->cqe_n)) {
			ST_ADD(txq, ring_full, 1);
			break;
		}
		ds_idx = (uint32_t)wqe_ci * MLX5_WQE_DS_PER_WQEBB;
		ctrl = ds_at(txq, ds_idx);
		eth = ds_at(txq, ds_idx + 1);
		ce = (uint16_t)(wqe_ci + nbb - txq->wqe_comp) >=
		     txq->comp_thresh;
		ctrl->opmod_idx_opcode = rte_cpu_to_be_32(
			mlx5_tm_wqe_opmod_idx_opcode(0, wqe_ci,
						     MLX5_OPCODE_SEND));
		ctrl->qpn_ds = rte_cpu_to_be_32(
			mlx5_tm_wqe_qpn_ds(txq->sqn, ds));
		ctrl->signature = 0;
		ctrl->rsvd[0] = 0;
		ctrl->rsvd[1] = 0;
		ctrl->fm_ce_se = ce ? MLX5_WQE_CTRL_CQ_UPDATE : 0;
		ctrl->imm = 0;
		memset(eth, 0, offsetof(struct mlx5_tm_wqe_eth_seg,
					inline_hdr_word));
		if (m->ol_flags & RTE_MBUF_F_TX_IP_CKSUM)
			eth->cs_flags |= MLX5_ETH_WQE_L3_CSUM;
		if (m->ol_flags & RTE_MBUF_F_TX_L4_MASK)
			eth->cs_flags |= MLX5_ETH_WQE_L4_CSUM;
		ds_idx += 2;
		if (txq->inline_l2) {
			uint8_t hdr[MLX5_ESEG_MIN_INLINE_SIZE];
			const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

			if (vlan) {
				uint16_t tpid = rte_cpu_to_be_16(0x8100);
				uint16_t tci = rte_cpu_to_be_16(m->vlan_tci);

				memcpy(hdr, p, 12);
				memcpy(hdr + 12, &tpid, 2);
				memcpy(hdr + 14, &tci, 2);
				memcpy(hdr + 16, p + 12, 2);
			} else {
				memcpy(hdr, p, MLX5_ESEG_MIN_INLINE_SIZE);
			}
			eth->inline_hdr_sz =
				rte_cpu_to_be_16(MLX5_ESEG_MIN_INLINE_SIZE);
			memcpy(eth->inline_hdr_start, hdr, 2);
			memcpy(ds_at(txq, ds_idx), hdr + 2,
			       MLX5_WQE_DS_UNITS);
			ds_idx++;
		} else if (unlikely(txq->inline_hdrs)) {
			ds_idx = tx_write_inline(txq, eth, m, skip, vlan,
						 ds_idx);
		} else if (vlan) {
			eth->insert_type =
				rte_cpu_to_be_16(MLX5_ETH_WQE_INSERT_VLAN);
			eth->vlan_tci = rte_cpu_to_be_16(m->vlan_tci);
		} else {
			eth->inline_hdr_word = 0;
		}
		bytes += m->pkt_len;
		for (seg = m, k = 0; seg != NULL; k++) {
			struct rte_mbuf *next = seg->next;
			uint16_t off = seg == m ? skip : 0;

			if (lkey[k] != MLX5_TM_LKEY_INVALID) {
				struct mlx5_tm_wqe_data_seg *d =
					ds_at(txq, ds_idx++);

				d->byte_count = rte_cpu_to_be_32(
					seg->data_len - off);
				d->lkey = rte_cpu_to_be_32(lkey[k]);
				d->addr = rte_cpu_to_be_64(
					rte_pktmbuf_mtod_offset(seg, uintptr_t,
								off));
			}
			if (txq->fast_free) {
				/* Back to the pool as a lone segment. */
				if (next != NULL || seg->nb_segs != 1) {
					seg->next = NULL;
					seg->nb_segs = 1;
				}
				txq->elts[elts_head++ & elts_mask] = seg;
			} else {
				txq->elts[elts_head++ & elts_mask] =
					seg == m ? m : NULL;
			}
			seg = next;
		}
		wqe_ci += nbb;
		packets++;
		if (ce) {
			struct mlx5_tm_txq_fcq *f = &txq->fcqs[txq->fcq_head++ &
							     (txq->cqe_n - 1)];

			f->elts_head = elts_head;
			f->wqe_end = wqe_ci;
			f->packets = txq->st.packets + packets;
			f->bytes = txq->st.bytes + bytes;
			txq->wqe_comp = wqe_ci;
		}
		last = ctrl;
		last_ce = ce;
	}
	if (last != NULL) {
		/* Ask for a completion on the last WQE: no mbuf waits forever. */
		if (!last_ce) {
			struct mlx5_tm_txq_fcq *f = &txq->fcqs[txq->fcq_head++ &
							     (txq->cqe_n - 1)];

			last->fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
			f->elts_head = elts_head;
			f->wqe_end = wqe_ci;
			f->packets = txq->st.packets + packets;
			f->bytes = txq->st.bytes + bytes;
			txq->wqe_comp = wqe_ci;
		}
		txq->wqe_ci = wqe_ci;
		txq->elts_head = elts_head;
		/* WQEs, then the doorbell record, then the doorbell. */
		rte_io_wmb();
		DEV_STORE(txq->sq_db, rte_cpu_to_be_32(wqe_ci));
		rte_wmb();
		DEV_STORE(txq->uar_reg, *(volatile uint64_t *)last);
		rte_wmb();
		ST_ADD(txq, packets, packets);
		ST_ADD(txq, bytes, bytes);
	}
	return i;
}

int
mlx5_tm_tx_done_cleanup(void *q, uint32_t free_cnt __rte_unused)
{
	struct mlx5_tm_txq *txq = q;
	uint32_t state = __atomic_load_n(&txq->state, __ATOMIC_ACQUIRE);
	uint32_t freed = 0;

	/* Completions free in completion order: free_cnt is no bound here. */
	if (state == MLX5_TM_TXQ_RST) {
		txq_rewind(txq);
		return 0;
	}
	if (state != MLX5_TM_TXQ_OK)
		return 0;
	txq_complete(txq, &freed);
	return (int)freed;
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
