/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Decoding of the WQE at the head of an SQ: control, Ethernet and data
 * segments, checked the way the device checks them; and gathering of the
 * packet bytes at departure. A SEND WQE carries one packet, an enhanced
 * multi-packet (eMPW) WQE one packet per data segment.
 *
 * Error syndromes (error CQE):
 *   LOCAL_QP_OP_ERR  malformed WQE: opcode other than SEND/eMPW/NOP, ds
 *                    count too small or beyond the posted WQEBBs, wrong
 *                    index or SQ number in the control segment, inline
 *                    header shorter than the SQ's inline mode requires; eMPW without the capability or
 *                    the SQ's permission, with an inline header or VLAN
 *                    insertion, or without a packet
 *   LOCAL_LENGTH_ERR frame shorter than an Ethernet header or longer than
 *                    the largest frame, zero-length data segment, inline
 *                    data past the WQE
 *   LOCAL_PROT_ERR   unknown lkey, an MR of another PD, or a data segment
 *                    outside its MR
 */

#include <string.h>

#include "emu_internal.h"

/* Copy WQEBBs [idx, idx + nbb) of the ring into @p dst, unwrapping. */
static void
emu_wqe_copy(const struct emu_sq *sq, uint16_t idx, uint32_t nbb, uint8_t *dst)
{
	uint32_t size = 1u << sq->log_wq_sz;
	uint32_t first = idx & (size - 1);
	uint32_t n1 = nbb <= size - first ? nbb : size - first;

	memcpy(dst, sq->ring + (size_t)first * MLX5_SEND_WQE_BB,
	       (size_t)n1 * MLX5_SEND_WQE_BB);
	if (n1 < nbb)
		memcpy(dst + (size_t)n1 * MLX5_SEND_WQE_BB, sq->ring,
		       (size_t)(nbb - n1) * MLX5_SEND_WQE_BB);
}

static void
emu_wqe_bad(struct emu_wqe *w, uint8_t syndrome)
{
	w->kind = EMU_WQE_BAD;
	w->syndrome = syndrome;
	w->nb_gather = 0;
}

/* L2 header length (Ethernet + up to two VLAN tags) of @p p, @p n bytes. */
static uint32_t
emu_l2_len(const uint8_t *p, uint32_t n)
{
	uint32_t off = 12;
	int tags = 0;

	while (off + 2 <= n && tags < 2) {
		uint16_t type = (uint16_t)(p[off] << 8 | p[off + 1]);

		if (type != 0x8100 && type != 0x88a8 && type != 0x9100)
			break;
		off += 4;
		tags++;
	}
	return off + 2;
}

/* Bytes of header @p mode (MLX5_INLINE_MODE_*) needs in @p p, or 0. */
static uint32_t
emu_inline_needed(const uint8_t *p, uint32_t n, uint8_t mode)
{
	uint32_t l2, l3, need;
	uint16_t type;
	uint8_t proto;

	if (mode == MLX5_INLINE_MODE_NONE)
		return 0;
	if (n < 14)
		return 14;
	l2 = emu_l2_len(p, n);
	if (mode == MLX5_INLINE_MODE_L2 || l2 > n)
		return l2;
	type = (uint16_t)(p[l2 - 2] << 8 | p[l2 - 1]);
	if (type == 0x0800) {
		if (l2 + 1 > n)
			return l2 + 20;
		l3 = (p[l2] & 0xf) * 4u;
		proto = l2 + 10 <= n ? p[l2 + 9] : 0;
		/* A non-first fragment carries no L4 header. */
		if (l2 + 8 <= n && ((p[l2 + 6] & 0x1f) | p[l2 + 7]) != 0)
			proto = 0;
	} else if (type == 0x86dd) {
		l3 = 40;
		proto = l2 + 7 <= n ? p[l2 + 6] : 0;
	} else {
		return l2; /* not IP: the L2 header is all there is */
	}
	need = l2 + l3;
	if (mode == MLX5_INLINE_MODE_IP || need > n)
		return need;
	if (proto == 6)
		return need + 13 <= n ? need + (p[need + 12] >> 4) * 4u
				      : need + 20;
	if (proto == 17)
		return need + 8;
	return need;
}

/*
 * The gather list never overflows: a WQE has at most 63 segments of 16
 * bytes (ds is 6 bits), the control and Ethernet segments take three, and
 * each entry takes at least one, beside a SEND's inline header.
 */
_Static_assert(MLX5_WQE_CTRL_DS_MASK - 3 + 1 <= EMU_MAX_GATHER,
	       "a WQE has more gather entries than emu_wqe holds");

/*
 * Take the data segment or inline data segment at @p seg (ending before
 * @p end) as the next gather entry. @p *mr is the memory region of the
 * WQE's previous data segment, NULL at first: its lkey, PD and existence
 * were checked already, so that the segments of one mempool's buffers
 * look their region up once per WQE. Returns the segment after it, or
 * NULL once @p w is marked bad.
 */
static inline const uint8_t *
emu_wqe_take_seg(const struct mlx5_emu *emu, const struct emu_sq *sq,
		 struct emu_wqe *w, const uint8_t *seg, const uint8_t *end,
		 bool *inline_seg, const struct emu_mr **mr)
{
	uint32_t bc = mlx5_prm_read32(seg, 0);
	struct emu_gather *g = &w->gather[w->nb_gather];

	*inline_seg = (bc & MLX5_INLINE_SEG) != 0;
	if (*inline_seg) {
		uint32_t n = bc & ~MLX5_INLINE_SEG;

		if (n == 0 || n > (size_t)(end - seg) - 4) {
			emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
			return NULL;
		}
		g->ptr = seg + 4;
		g->len = n;
		w->nb_gather++;
		return seg + (4 + n + MLX5_WQE_DS_UNITS - 1) /
			     MLX5_WQE_DS_UNITS * MLX5_WQE_DS_UNITS;
	} else {
		uint32_t lkey = MLX5_GET(wqe_data_seg, seg, lkey);
		uint64_t addr = MLX5_GET64(wqe_data_seg, seg, addr);
		const struct emu_mr *r = *mr;

		if (bc == 0) {
			emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
			return NULL;
		}
		if (r == NULL || r->pub.lkey != lkey) {
			r = emu_idtab_get(&emu->mrs, lkey);
			if (r == NULL || r->pd != sq->pd) {
				emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
				return NULL;
			}
			*mr = r;
		}
		if (addr < r->start || addr > r->end || bc > r->end - addr) {
			emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
			return NULL;
		}
		g->ptr = (const uint8_t *)(uintptr_t)addr;
		g->len = bc;
		w->nb_gather++;
		if (w->dseg_off == 0)
			w->dseg_off = (uint16_t)(seg - w->raw);
		return seg + MLX5_ST_SZ_BYTES(wqe_data_seg);
	}
}

/* Header inlining the SQ (or the device) requires of every packet. */
static uint8_t
emu_wqe_inline_required(const struct mlx5_emu *emu, const struct emu_sq *sq)
{
	return sq->min_inline_mode > emu->min_inline_required ?
	       sq->min_inline_mode : emu->min_inline_required;
}

/*
 * SEND: the Ethernet segment (inline header or VLAN insertion), then data
 * and inline data segments that together make one frame.
 */
static void
emu_wqe_decode_send(const struct mlx5_emu *emu, const struct emu_sq *sq,
		    struct emu_wqe *w, const uint8_t *end)
{
	const uint8_t *eseg = w->raw + MLX5_ST_SZ_BYTES(wqe_ctrl_seg);
	const uint8_t *seg = eseg + MLX5_ST_SZ_BYTES(wqe_eth_seg);
	const struct emu_mr *mr = NULL;
	uint32_t inl, len = 0;
	uint8_t required;
	bool inline_seg;

	inl = MLX5_GET(wqe_eth_seg, eseg, inline_hdr_sz);
	if (inl & MLX5_ETH_WQE_INSERT_VLAN) {
		w->vlan_insert = true;
		w->vlan_tci = (uint16_t)MLX5_GET(wqe_eth_seg_vlan, eseg,
						 vlan_tci);
		inl = 0;
	} else {
		inl &= 0x3ff;
		/* The header starts at inline_hdr_start, then 16B units. */
		if (inl > 2)
			seg += (inl - 2 + MLX5_WQE_DS_UNITS - 1) /
			       MLX5_WQE_DS_UNITS * MLX5_WQE_DS_UNITS;
		if (seg > end) {
			emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
			return;
		}
		if (inl > 0) {
			w->gather[0].ptr = eseg +
				MLX5_BYTE_OFF(wqe_eth_seg, inline_hdr_start);
			w->gather[0].len = inl;
			w->nb_gather = 1;
			len = inl;
		}
	}
	while (seg < end) {
		seg = emu_wqe_take_seg(emu, sq, w, seg, end, &inline_seg, &mr);
		if (seg == NULL)
			return;
		len += w->gather[w->nb_gather - 1].len;
		if (len > EMU_MAX_FRAME) {
			emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
			return;
		}
	}
	if (w->vlan_insert)
		len += 4;
	if (len < 14 || len > EMU_MAX_FRAME) {
		emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
		return;
	}
	required = emu_wqe_inline_required(emu, sq);
	if (required != MLX5_INLINE_MODE_NONE) {
		if (w->vlan_insert ||
		    inl < emu_inline_needed(w->gather[0].ptr, inl, required)) {
			emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
			return;
		}
	}
	w->pkts[0].first = 0;
	w->pkts[0].nb = (uint8_t)w->nb_gather;
	w->pkts[0].len = len;
	w->nb_pkts = 1;
	w->len = len;
	w->kind = EMU_WQE_SEND;
}

/*
 * Enhanced multi-packet send (eMPW), as upstream DPDK and Linux write it:
 * a control segment, one Ethernet segment shared by all packets (offload
 * flags; no inline header, no VLAN insertion), then one segment per
 * packet: a data segment pointing to the whole frame or an inline data
 * segment carrying it. The device needs enhanced_multi_pkt_send_wqe and
 * the SQ allow_multi_pkt_send_wqe.
 */
static void
emu_wqe_decode_empw(const struct mlx5_emu *emu, const struct emu_sq *sq,
		    struct emu_wqe *w, const uint8_t *end)
{
	const uint8_t *eseg = w->raw + MLX5_ST_SZ_BYTES(wqe_ctrl_seg);
	const uint8_t *seg = eseg + MLX5_ST_SZ_BYTES(wqe_eth_seg);
	uint8_t required = emu_wqe_inline_required(emu, sq);
	const struct emu_mr *mr = NULL;
	bool inline_seg;

	if (!emu->caps.empw || !sq->allow_mpw ||
	    MLX5_GET(wqe_eth_seg, eseg, inline_hdr_sz) != 0 || seg >= end) {
		emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
		return;
	}
	while (seg < end) {
		struct emu_wqe_pkt *p = &w->pkts[w->nb_pkts];
		const struct emu_gather *g;

		seg = emu_wqe_take_seg(emu, sq, w, seg, end, &inline_seg, &mr);
		if (seg == NULL)
			return;
		g = &w->gather[w->nb_gather - 1];
		if (g->len < 14 || g->len > EMU_MAX_FRAME) {
			emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
			return;
		}
		/* Only a packet inline in the WQE has its headers inline. */
		if (required != MLX5_INLINE_MODE_NONE &&
		    (!inline_seg ||
		     g->len < emu_inline_needed(g->ptr, g->len, required))) {
			emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
			return;
		}
		p->first = (uint8_t)(w->nb_gather - 1);
		p->nb = 1;
		p->len = g->len;
		w->nb_pkts++;
	}
	w->len = w->pkts[0].len;
	w->kind = EMU_WQE_SEND;
}

/*
 * Prefetch what the engine will read of the WQEs ahead of the head of
 * @p sq, which another core has just written: the frames of the head
 * after its first (an eMPW WQE's packets leave one by one), the ring line
 * of the WQE 4 x EMU_PREFETCH_AHEAD WQEs ahead, and the frame of the WQE
 * EMU_PREFETCH_AHEAD ahead (the wire reads each frame's destination MAC), read
 * from a ring line prefetched so before. The WQEs ahead are assumed laid
 * out as the head, as a sender's stream of like frames is; a wrong guess
 * costs a useless prefetch, never a fault. Called by the engine after
 * emu_wqe_decode(), not from it: GCC drops a call to a function that only
 * prefetches, as having no effect, when it sees the function's body.
 */
#define EMU_PREFETCH_AHEAD 16u

void
emu_wqe_prefetch(const struct emu_sq *sq)
{
	const struct emu_wqe *w = &sq->head;
	uint32_t size = 1u << sq->log_wq_sz;
	uint32_t ahead = (uint32_t)w->nbb * EMU_PREFETCH_AHEAD;
	uint32_t slot = (sq->ci + ahead) & (size - 1);
	const uint8_t *wqe = sq->ring + (size_t)slot * MLX5_SEND_WQE_BB;
	uint16_t posted = (uint16_t)(sq->rung_pi - sq->ci);
	uint32_t i;

	/* The frames of an eMPW WQE, which leave one after the other. */
	for (i = 1; i < w->nb_pkts; i++)
		__builtin_prefetch(w->gather[w->pkts[i].first].ptr);
	if (posted > 4 * ahead)
		__builtin_prefetch(sq->ring + (size_t)((slot + 3 * ahead) &
					(size - 1)) * MLX5_SEND_WQE_BB);
	if (posted < ahead + w->nbb || w->dseg_off == 0 ||
	    slot + w->nbb > size)
		return;
	__builtin_prefetch((const void *)(uintptr_t)
			   MLX5_GET64(wqe_data_seg, wqe + w->dseg_off, addr));
}

void
emu_wqe_decode(struct mlx5_emu *emu, struct emu_sq *sq)
{
	struct emu_wqe *w = &sq->head;
	uint16_t posted = (uint16_t)(sq->rung_pi - sq->ci);
	uint32_t size = 1u << sq->log_wq_sz;
	const uint8_t *ctrl;
	uint32_t ds;
	uint8_t inject;

	memset(w, 0, offsetof(struct emu_wqe, gather));
	w->valid = true;
	w->index = sq->ci;
	w->nbb = 1;
	/* One WQEBB never wraps: a copy of a constant size, inlined. */
	memcpy(w->raw, sq->ring + (size_t)(sq->ci & (size - 1)) *
	       MLX5_SEND_WQE_BB, MLX5_SEND_WQE_BB);
	ctrl = w->raw;
	w->opcode = (uint8_t)MLX5_GET(wqe_ctrl_seg, ctrl, opcode);
	ds = MLX5_GET(wqe_ctrl_seg, ctrl, ds) & MLX5_WQE_CTRL_DS_MASK;
	w->cq_update = MLX5_GET(wqe_ctrl_seg, ctrl, ce) >= 2;
	if (ds > 0)
		w->nbb = (uint8_t)((ds + MLX5_WQE_DS_PER_WQEBB - 1) /
				   MLX5_WQE_DS_PER_WQEBB);
	if (w->nbb > posted) {
		w->nbb = 1;
		emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
		return;
	}
	sq->wqe_seen++;
	if (emu_fault_wqe_hit(emu, sq, &inject)) {
		emu_wqe_bad(w, inject);
		return;
	}
	if (ds == 0 || MLX5_GET(wqe_ctrl_seg, ctrl, wqe_index) != sq->ci ||
	    MLX5_GET(wqe_ctrl_seg, ctrl, qpn_or_sqn) != sq->sqn) {
		emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
		return;
	}
	if (w->opcode == MLX5_OPCODE_NOP) {
		w->kind = EMU_WQE_LOCAL;
		return;
	}
	if ((w->opcode != MLX5_OPCODE_SEND &&
	     w->opcode != MLX5_OPCODE_ENHANCED_MPSW) || ds < 2) {
		emu_wqe_bad(w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
		return;
	}
	if (w->nbb > 1)
		emu_wqe_copy(sq, (uint16_t)(sq->ci + 1), w->nbb - 1u,
			     w->raw + MLX5_SEND_WQE_BB);
	if (w->opcode == MLX5_OPCODE_SEND)
		emu_wqe_decode_send(emu, sq, w, w->raw + ds * MLX5_WQE_DS_UNITS);
	else
		emu_wqe_decode_empw(emu, sq, w, w->raw + ds * MLX5_WQE_DS_UNITS);
}

uint32_t
emu_wqe_gather(const struct emu_wqe *w, uint8_t *frame)
{
	const struct emu_wqe_pkt *p = &w->pkts[w->pkt];
	uint32_t i, off = 0, skip = 0;

	for (i = p->first; i < (uint32_t)p->first + p->nb; i++) {
		const uint8_t *p = w->gather[i].ptr;
		uint32_t n = w->gather[i].len;

		if (w->vlan_insert && skip < 12) {
			/* Insert the tag after the MAC addresses. */
			uint32_t take = n < 12 - skip ? n : 12 - skip;

			memcpy(frame + off, p, take);
			off += take;
			skip += take;
			p += take;
			n -= take;
			if (skip == 12) {
				frame[off++] = 0x81;
				frame[off++] = 0x00;
				frame[off++] = (uint8_t)(w->vlan_tci >> 8);
				frame[off++] = (uint8_t)w->vlan_tci;
			}
		}
		memcpy(frame + off, p, n);
		off += n;
	}
	return off;
}
