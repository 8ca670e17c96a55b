/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The send engine: notices doorbells, takes WQEs in ring order, paces each
 * SQ with its rate-table entry (token bucket) and shares the port's line
 * rate round-robin among the SQs that have a packet eligible.
 *
 * Departure times are computed, not observed: a packet departs at
 *   max(time its doorbell was noticed or its predecessor left,
 *       time its SQ's bucket allows it, time the line is free)
 * and the engine processes departures in time order up to a horizon (now).
 *
 * Pacing (per SQ, GCRA form of a token bucket): rate r from the entry, in
 * bytes (data-rate mode: L2 frame bytes, no FCS/preamble/IFG) or WQEs
 * (WQE-rate mode); depth b = burst_upper_bound (bytes, or WQEs in WQE-rate
 * mode; 0 = one packet). A packet of cost c may leave once the bucket
 * holds min(c, b) tokens; it then takes c. TAT (theoretical arrival time)
 * is kept in picoseconds with an exact remainder. A packet held back by
 * others (the line, the arbiter) keeps its schedule: while the SQ stays
 * backlogged its TAT falls behind by up to EMU_PACE_KEEP_BYTES (WQEs)
 * and it catches up when they let it (see emu_sq_charge).
 *
 * Line: each packet occupies the line for (max(len, 60) + 24) bytes at
 * the line rate (FCS, preamble and inter-frame gap included).
 *
 * Once scheduling elements exist, their ceilings also hold packets back
 * and their arbiter (emu_sched.c), not round robin, picks among the SQs
 * that can send when the line frees.
 *
 * The packets of an eMPW WQE depart one by one, as packets of their own;
 * the WQE completes (one CQE) with its last packet.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"
#include "emu_sched.h"

/* Picoseconds per unit of cost, times the entry's rate. */
#define EMU_PS_BYTE_KBPS 8000000000ULL   /* 8 bits * 1e12 ps / 1000 */
#define EMU_PS_WQE_PER_S 1000000000000ULL /* 1e12 ps */

static uint64_t
emu_pp_unit(const struct emu_pp_entry *e)
{
	return e->mode == MLX5_PP_RATE_MODE_WQE_RATE ? EMU_PS_WQE_PER_S
						     : EMU_PS_BYTE_KBPS;
}

/*
 * Tokens the packet at the head takes: its bytes, or in WQE-rate mode 1
 * for the first packet of a WQE and 0 for the other packets of an eMPW
 * WQE (the pacer counts WQEs).
 */
static uint64_t
emu_pp_cost(const struct emu_pp_entry *e, const struct emu_wqe *w)
{
	if (e->mode == MLX5_PP_RATE_MODE_WQE_RATE)
		return w->pkt == 0 ? 1 : 0;
	return w->len;
}

/* Room in the active list for @p nb_sqs SQs (done at CREATE_SQ). */
int
emu_engine_reserve(struct mlx5_emu *emu, uint32_t nb_sqs)
{
	uint32_t ncap = emu->cap_active ? emu->cap_active : 16;
	struct emu_sq **n;

	while (ncap < nb_sqs)
		ncap *= 2;
	if (ncap == emu->cap_active)
		return 0;
	n = realloc(emu->active, ncap * sizeof(*n));
	if (n == NULL)
		return -ENOMEM;
	emu->active = n;
	emu->cap_active = ncap;
	return 0;
}

/* @p sq has WQEs posted, from its ready_ps on. */
static void
emu_active_add(struct mlx5_emu *emu, struct emu_sq *sq)
{
	if (sq->active)
		return;
	/* Room reserved at CREATE_SQ: every SQ fits. */
	emu->active[emu->nb_active++] = sq;
	sq->active = true;
	sq->backlog_ps = sq->ready_ps;
	emu_sched_sq_backlog(emu, sq, 1);
}

static void
emu_active_del(struct mlx5_emu *emu, struct emu_sq *sq)
{
	uint32_t i;

	if (!sq->active)
		return;
	for (i = 0; i < emu->nb_active; i++) {
		if (emu->active[i] == sq) {
			emu->active[i] = emu->active[--emu->nb_active];
			break;
		}
	}
	sq->active = false;
	emu_sched_sq_backlog(emu, sq, -1);
}

/* Earliest departure of the head (a SEND) as far as the SQ is concerned. */
static uint64_t
emu_sq_eligible(struct mlx5_emu *emu, struct emu_sq *sq)
{
	const struct emu_pp_entry *e;
	uint64_t cost, depth, tol, elig;

	if (sq->elig_valid)
		return sq->elig_ps;
	elig = sq->ready_ps;
	e = emu_sq_pp(emu, sq);
	cost = e != NULL ? emu_pp_cost(e, &sq->head) : 0;
	if (cost > 0) {
		depth = e->burst > cost ? e->burst : cost;
		tol = depth == cost ? 0 :
		      (uint64_t)((unsigned __int128)(depth - cost) *
				 emu_pp_unit(e) / e->rate);
		if (sq->tat_ps > tol && sq->tat_ps - tol > elig)
			elig = sq->tat_ps - tol;
	}
	sq->elig_ps = elig;
	sq->elig_valid = true;
	return elig;
}

/*
 * The schedule of @p sq, found behind departure time @p t by more than
 * one packet (@p interval) or from before its backlog began: brought back
 * to at most EMU_PACE_KEEP_BYTES (WQEs) behind, and not before the SQ got
 * WQEs. Out of line: the usual charge stays short.
 */
static __attribute__((noinline, cold)) void
emu_sq_pace_behind(struct emu_sq *sq, const struct emu_pp_entry *e,
		   uint64_t t, uint64_t interval)
{
	uint64_t floor;

	if (sq->keep_rate != e->rate || sq->keep_mode != e->mode) {
		sq->keep_rate = e->rate;
		sq->keep_mode = e->mode;
		sq->keep_ps = (e->mode == MLX5_PP_RATE_MODE_WQE_RATE ?
			       EMU_PACE_KEEP_WQES : EMU_PACE_KEEP_BYTES) *
			      emu_pp_unit(e) / e->rate;
	}
	floor = emu_pace_floor(t, interval, sq->keep_ps, sq->backlog_ps);
	if (sq->tat_ps < floor) {
		sq->tat_ps = floor;
		sq->tat_rem = 0;
	}
}

/*
 * Charge the bucket of @p sq for the head leaving at @p t. A head that
 * others held back keeps its place in the schedule: a TAT behind @p t is
 * brought back to at most EMU_PACE_KEEP_BYTES (WQEs) behind, never less
 * than one packet, so that the SQ can catch up when the line has room
 * and never exceeds its rate over the time it has been backlogged; an
 * SQ that had nothing to send restarts its schedule from then.
 */
static void
emu_sq_charge(struct mlx5_emu *emu, struct emu_sq *sq, uint64_t t)
{
	const struct emu_pp_entry *e = emu_sq_pp(emu, sq);
	uint64_t num, interval;

	if (e == NULL || emu_pp_cost(e, &sq->head) == 0)
		return;
	/* At most 9978 bytes * 8e9 or 1e12: 64 bits are enough. */
	num = emu_pp_cost(e, &sq->head) * emu_pp_unit(e);
	interval = num / e->rate;
	if (sq->tat_ps + interval < t || sq->tat_ps < sq->backlog_ps)
		emu_sq_pace_behind(sq, e, t, interval);
	num += sq->tat_rem;
	sq->tat_ps += num / e->rate;
	sq->tat_rem = num % e->rate;
}

/*
 * Occupy the line for a frame of @p len bytes from @p t: (bytes * 8e6 +
 * remainder) / line rate picoseconds, the remainder carried. Both the
 * carried remainder and that of the frame size are below the rate, so the
 * quotient is the frame size's plus at most one. The line's state is
 * passed by pointer: the device's, or the engine's copy of it in
 * registers (emu_sq_depart_wqe).
 */
static inline void
emu_line_occupy(struct mlx5_emu *emu, uint64_t *free_ps, uint64_t *rem_io,
		uint64_t *busy_ns, uint64_t t, uint32_t len)
{
	uint32_t bytes = (len < EMU_MIN_FRAME ? EMU_MIN_FRAME : len) +
			 EMU_WIRE_OVERHEAD;
	uint32_t rate = emu->caps.line_rate_mbps;
	uint64_t busy, rem;

	if (bytes != emu->line_bytes) {
		/* At most ~1e4 bytes * 8e6: 64 bits are enough. */
		uint64_t num = (uint64_t)bytes * 8 * 1000000ULL;

		emu->line_bytes = bytes;
		emu->line_q = num / rate;
		emu->line_r = num % rate;
	}
	busy = emu->line_q;
	rem = *rem_io + emu->line_r;
	if (rem >= rate) {
		busy++;
		rem -= rate;
	}
	*rem_io = rem;
	*free_ps = t + busy;
	*busy_ns += busy / EMU_PS_PER_NS;
}

/* The head of @p sq is done: move on to the next WQE. */
static inline void
emu_sq_next(struct mlx5_emu *emu, struct emu_sq *sq, uint64_t t)
{
	sq->ci = (uint16_t)(sq->ci + sq->head.nbb);
	sq->head.valid = false;
	sq->elig_valid = false;
	sq->ready_ps = t;
	sq->st.wqes++;
	if (sq->ci == sq->rung_pi)
		emu_active_del(emu, sq);
}

/* The head of @p sq (its last packet, or a NOP) is done at @p t. */
static inline void
emu_sq_wqe_sent(struct mlx5_emu *emu, struct emu_sq *sq, uint64_t t)
{
	if (sq->head.cq_update)
		emu_cq_complete(emu, sq, &sq->head, t);
	emu_sq_next(emu, sq, t);
}

static void
emu_sq_local(struct mlx5_emu *emu, struct emu_sq *sq, uint64_t t)
{
	struct emu_wqe *w = &sq->head;

	if (w->kind == EMU_WQE_BAD &&
	    w->syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR) {
		/*
		 * Injected flush (fault_wqe=N:5): the WQE is flushed, with a
		 * CQE if it asked for one as flushes come, the SQ stays
		 * ready: a flush CQE without an error, which upstream's
		 * mlx5_tx_error_cqe_handle() ignores.
		 */
		if (w->cq_update)
			emu_cq_flush(emu, sq, w->index, w->opcode);
		emu_sq_next(emu, sq, t);
		return;
	}
	if (w->kind == EMU_WQE_BAD) {
		/* As hardware: an error CQE, then the SQ is in error. */
		emu_cq_error(emu, sq, w, t);
		emu_log(EMU_LOG_INFO, "SQ 0x%x: error CQE for WQE %u, syndrome "
			"0x%x; SQ in error", sq->sqn, w->index, w->syndrome);
		emu_engine_sq_error(emu, sq, (uint16_t)(w->index + w->nbb));
		return;
	}
	emu_sq_wqe_sent(emu, sq, t);
}

/*
 * Whether the port lets the frame out: in switchdev mode an SQ reaches
 * the wire only through an E-Switch rule (upstream adds one per SQ), which
 * this model never has; the port drops frames longer than its MTU allows
 * (netdev MTU + MLX5E_ETH_HARD_MTU, FCS included), without an error CQE.
 * Both are counted per SQ and for the port.
 */
static bool
emu_port_admits(struct mlx5_emu *emu, struct emu_sq *sq,
		const struct emu_wqe *w)
{
	if (emu->cfg.eswitch_switchdev) {
		sq->st.eswitch_drops++;
		emu->port.eswitch_drops++;
		return false;
	}
	if (w->len + EMU_FCS_LEN > emu->mtu + EMU_HARD_MTU) {
		sq->st.mtu_drops++;
		emu->port.mtu_drops++;
		return false;
	}
	return true;
}

static void
emu_sq_depart(struct mlx5_emu *emu, struct emu_sq *sq, uint64_t t, bool sched)
{
	struct emu_wqe *w = &sq->head;

	/* Paced as any frame; a dropped one never occupies the line. */
	if (emu_port_admits(emu, sq, w)) {
		emu_wire_depart(emu, sq, w, t);
		emu_line_occupy(emu, &emu->port_free_ps, &emu->port_rem,
				&emu->port.wire_busy_ns, t, w->len);
	}
	emu_sq_charge(emu, sq, t);
	if (sched)
		emu_sched_charge(emu, sq, t, w->len);
	emu->rr_last_sqn = sq->sqn;
	/* An eMPW WQE: its next packet is the head; one CQE at the last. */
	if (emu_wqe_next_packet(w)) {
		sq->ready_ps = t;
		sq->elig_valid = false;
		return;
	}
	emu_sq_wqe_sent(emu, sq, t);
}

/*
 * The packets of the head of @p sq from the current one on, in the
 * conditions of emu_sq_depart_alone() and with no capture and no E-Switch
 * drop: what emu_sq_depart() does for each, with the wire counters and the
 * line kept in registers and written back once. Each leaves at the later
 * of its pacer's eligibility (@p e: its entry, NULL for none) and the
 * line's freedom. Up to the WQE's last packet (then completed),
 * @p horizon_ps or @p *budget departures. Always inlined, so that the
 * caller's copy for an unpaced SQ (@p e NULL) has no pacer tests.
 */
static inline __attribute__((always_inline)) void
emu_sq_depart_wqe(struct mlx5_emu *emu, struct emu_sq *sq,
		  const struct emu_pp_entry *e, uint64_t horizon_ps,
		  uint32_t *budget)
{
	struct emu_wqe *w = &sq->head;
	/* What emu_port_admits() lets out: len + FCS <= MTU + hard MTU. */
	uint32_t max_len = emu->mtu + EMU_HARD_MTU - EMU_FCS_LEN;
	uint64_t free_ps = emu->port_free_ps, rem = emu->port_rem;
	uint64_t busy_ns = emu->port.wire_busy_ns;
	uint64_t ready = sq->ready_ps, sim = emu->sim_ps;
	uint32_t left = *budget;
	struct emu_wire_tally y;
	bool sent_last = false;

	emu_wire_tally_load(&y, emu, sq);
	while (left > 0) {
		uint64_t t = ready > free_ps ? ready : free_ps;

		if (e != NULL) {
			uint64_t elig;

			/* The pacer reads the head's readiness from the SQ. */
			sq->ready_ps = ready;
			elig = emu_sq_eligible(emu, sq);
			if (elig > t)
				t = elig;
		}
		if (t > horizon_ps)
			break;
		left--;
		if (t > sim)
			sim = t;
		if (w->len <= max_len) {
			emu_wire_tally_note(&y, w, ready, t);
			emu_line_occupy(emu, &free_ps, &rem, &busy_ns, t,
					w->len);
		} else {
			sq->st.mtu_drops++;
			emu->port.mtu_drops++;
		}
		if (e != NULL) {
			emu_sq_charge(emu, sq, t);
			sq->elig_valid = false;
		}
		ready = t;
		if (!emu_wqe_next_packet(w)) {
			sent_last = true;
			break;
		}
	}
	emu_wire_tally_store(&y);
	emu->port_free_ps = free_ps;
	emu->port_rem = rem;
	emu->port.wire_busy_ns = busy_ns;
	emu->sim_ps = sim;
	if (left == *budget)
		return;
	*budget = left;
	emu->rr_last_sqn = sq->sqn;
	if (sent_last) {
		emu_sq_wqe_sent(emu, sq, ready);
	} else {
		sq->ready_ps = ready;
		sq->elig_valid = false;
	}
}

/*
 * The only active SQ, @p sq, without scheduling elements: go on with its
 * packets through its WQEs, up to @p horizon_ps and @p *budget
 * departures. Each leaves when its pacer allows it and the line is free,
 * the time the full scan of emu_engine_run() would give it, without the
 * scan. Doorbells are not read here, so no other SQ can become active
 * meanwhile. When nothing captures the wire, they leave WQE by WQE
 * (emu_sq_depart_wqe).
 */
static void
emu_sq_depart_alone(struct mlx5_emu *emu, struct emu_sq *sq,
		    uint64_t horizon_ps, uint32_t *budget)
{
	struct emu_wqe *w = &sq->head;
	bool fast = emu->dumper == NULL && emu->hook == NULL &&
		    !emu->cfg.eswitch_switchdev;

	while (sq->active && emu->nb_active == 1 && *budget > 0) {
		uint64_t t;

		if (!w->valid) {
			emu_wqe_decode(emu, sq);
			sq->elig_valid = false;
			if (w->kind == EMU_WQE_SEND)
				emu_wqe_prefetch(sq);
		}
		if (w->kind != EMU_WQE_SEND)
			return;
		t = emu_sq_eligible(emu, sq);
		if (t < emu->port_free_ps)
			t = emu->port_free_ps;
		if (t > horizon_ps)
			return;
		if (fast) {
			const struct emu_pp_entry *e = emu_sq_pp(emu, sq);

			if (e == NULL)
				emu_sq_depart_wqe(emu, sq, NULL, horizon_ps,
						  budget);
			else
				emu_sq_depart_wqe(emu, sq, e, horizon_ps,
						  budget);
			continue;
		}
		(*budget)--;
		if (t > emu->sim_ps)
			emu->sim_ps = t;
		emu_sq_depart(emu, sq, t, false);
	}
}

/* Does @p a come before @p b in round-robin order after @p last? */
static inline bool
emu_rr_before(uint32_t a, uint32_t b, uint32_t last)
{
	bool a_after = a > last, b_after = b > last;

	return a_after != b_after ? a_after : a < b;
}

uint64_t
emu_engine_run(struct mlx5_emu *emu, uint64_t horizon_ps, uint32_t budget,
	       uint64_t *first_due_ps)
{
	uint64_t first_due = EMU_TIME_NEVER;
	uint64_t next = EMU_TIME_NEVER;
	bool sched = emu_sched_on(emu);

	while (emu->nb_active > 0) {
		/*
		 * One scan finds the earliest local completion, the earliest
		 * eligible SEND and, for round robin by SQ number, the first
		 * SQ after the last served among those eligible when the line
		 * frees (pick_free) and among the earliest eligible (pick_min).
		 */
		struct emu_sq *local = NULL, *pick_free = NULL, *pick_min = NULL;
		uint64_t t_local = EMU_TIME_NEVER, min_elig = EMU_TIME_NEVER;
		uint64_t port_free = emu->port_free_ps, t_send, t;
		uint32_t last = emu->rr_last_sqn;
		uint32_t i;

		for (i = 0; i < emu->nb_active; i++) {
			struct emu_sq *sq = emu->active[i];
			uint64_t e;

			if (!sq->head.valid) {
				emu_wqe_decode(emu, sq);
				sq->elig_valid = false;
				if (sq->head.kind == EMU_WQE_SEND)
					emu_wqe_prefetch(sq);
			}
			if (sq->head.kind != EMU_WQE_SEND) {
				if (sq->ready_ps < t_local) {
					t_local = sq->ready_ps;
					local = sq;
				}
				continue;
			}
			e = emu_sq_eligible(emu, sq);
			if (sched)
				e = emu_sched_sq_elig(emu, sq, e);
			if (e <= port_free &&
			    (pick_free == NULL ||
			     emu_rr_before(sq->sqn, pick_free->sqn, last)))
				pick_free = sq;
			if (e < min_elig ||
			    (e == min_elig &&
			     emu_rr_before(sq->sqn, pick_min->sqn, last))) {
				min_elig = e;
				pick_min = sq;
			}
		}
		t_send = min_elig == EMU_TIME_NEVER ? EMU_TIME_NEVER :
			 (port_free > min_elig ? port_free : min_elig);
		t = t_local <= t_send ? t_local : t_send;
		if (t > horizon_ps) {
			next = t;
			break;
		}
		if (budget == 0) {
			next = t; /* due, left for the next pass */
			break;
		}
		budget--;
		if (first_due == EMU_TIME_NEVER)
			first_due = t;
		if (t > emu->sim_ps)
			emu->sim_ps = t;
		if (t_local <= t_send) {
			emu_sq_local(emu, local, t_local);
		} else {
			struct emu_sq *pick = sched ? emu_sched_pick(emu, t) :
					      NULL;

			if (pick == NULL)
				pick = pick_free != NULL ? pick_free : pick_min;
			emu_sq_depart(emu, pick, t, sched);
			if (!sched)
				emu_sq_depart_alone(emu, pick, horizon_ps,
						    &budget);
		}
	}
	if (horizon_ps != EMU_TIME_NEVER && horizon_ps > emu->sim_ps &&
	    (next == EMU_TIME_NEVER || next > horizon_ps))
		emu->sim_ps = horizon_ps;
	if (first_due_ps != NULL)
		*first_due_ps = first_due;
	return next;
}

/* @p sq's doorbell record says WQEs were posted: take them. */
static void
emu_sq_ring(struct mlx5_emu *emu, struct emu_sq *sq, uint64_t now_ps,
	    bool named, uint16_t named_idx)
{
	uint32_t raw = __atomic_load_n((const uint32_t *)(const void *)
				       (sq->dbrec + 4 * MLX5_SND_DBR),
				       __ATOMIC_ACQUIRE);
	uint16_t pi = (uint16_t)(be32toh(raw) & 0xffff);
	uint16_t posted = (uint16_t)(pi - sq->ci);
	uint16_t covered = (uint16_t)(pi - named_idx);

	if (posted > (1u << sq->log_wq_sz)) {
		emu->port.doorbell_mismatches++;
		return;
	}
	if (named && (covered == 0 || covered > (1u << sq->log_wq_sz)))
		emu->port.doorbell_mismatches++;
	if (pi == sq->rung_pi)
		return;
	sq->db_rearmed = false;
	if (sq->rung_pi == sq->ci && sq->ready_ps < now_ps) {
		sq->ready_ps = now_ps; /* was idle: WQEs arrive now */
		sq->elig_valid = false;
	}
	sq->rung_pi = pi;
	emu_active_add(emu, sq);
}

/*
 * A NIC takes every write to its doorbell register; the model reads the
 * register's memory, so a write of the very bytes it held is invisible.
 * That happens after a reset: the ring refilled to the same index as
 * before writes the same control segment. So for an SQ reset and not rung
 * since, a register value that names it and the last WQE its doorbell
 * record covers counts as its doorbell (at worst a little early: between
 * the record's update and the register write that follows it).
 */
static void
emu_uar_rearmed(struct mlx5_emu *emu, struct emu_uar *uar, uint64_t now_ps)
{
	bool left = false;
	uint32_t i, s;

	for (i = 0; i < uar->nb_sqs; i++) {
		struct emu_sq *sq = uar->sqs[i];
		uint16_t pi, covered;

		if (!sq->db_rearmed)
			continue;
		left = true;
		if (sq->state != MLX5_SQC_STATE_RDY)
			continue;
		pi = (uint16_t)(be32toh(__atomic_load_n((const uint32_t *)
			(const void *)(sq->dbrec + 4 * MLX5_SND_DBR),
			__ATOMIC_ACQUIRE)) & 0xffff);
		for (s = 0; s < EMU_UAR_DB_SLOTS; s++) {
			uint32_t w0 = mlx5_prm_read32(&uar->last[s], 0);
			uint32_t w1 = mlx5_prm_read32(&uar->last[s], 1);

			covered = (uint16_t)(pi - (uint16_t)(w0 >> 8));
			if ((w1 >> 8) != sq->sqn || pi == sq->rung_pi ||
			    covered == 0 || covered > (1u << sq->log_wq_sz))
				continue;
			emu->port.doorbells++;
			emu_sq_ring(emu, sq, now_ps, true, (uint16_t)(w0 >> 8));
			break;
		}
	}
	uar->rearmed = left;
}

void
emu_engine_poll_doorbells(struct mlx5_emu *emu, uint64_t now_ps)
{
	uint32_t u, s, i;

	for (u = 0; u < emu->uars.cap; u++) {
		struct emu_uar *uar = emu->uars.slot[u];
		bool changed = false;
		uint64_t last = 0;

		if (uar == NULL || uar->nb_sqs == 0)
			continue;
		for (s = 0; s < EMU_UAR_DB_SLOTS; s++) {
			uint64_t v = __atomic_load_n((const uint64_t *)(const void *)
				(uar->page + MLX5_BF_OFFSET + s * EMU_UAR_DB_STRIDE),
				__ATOMIC_ACQUIRE);

			if (v != uar->last[s]) {
				uar->last[s] = v;
				last = v;
				changed = true;
			}
		}
		if (!changed) {
			if (uar->rearmed)
				emu_uar_rearmed(emu, uar, now_ps);
			continue;
		}
		emu->port.doorbells++;
		/* The write names an SQ and the index of its last WQE. */
		for (i = 0; i < uar->nb_sqs; i++) {
			struct emu_sq *sq = uar->sqs[i];
			uint32_t w0 = mlx5_prm_read32(&last, 0);
			uint32_t w1 = mlx5_prm_read32(&last, 1);

			if (sq->state != MLX5_SQC_STATE_RDY)
				continue;
			emu_sq_ring(emu, sq, now_ps, (w1 >> 8) == sq->sqn,
				    (uint16_t)(w0 >> 8));
		}
	}
}

bool
emu_engine_pending(const struct mlx5_emu *emu)
{
	return emu->nb_active > 0;
}

void
emu_engine_sq_stop(struct mlx5_emu *emu, struct emu_sq *sq)
{
	emu_active_del(emu, sq);
	sq->head.valid = false;
	sq->elig_valid = false;
}

/*
 * @p sq goes to error: with flush_in_error_en, every posted WQE from
 * @p from on that asked for a completion gets a flush error CQE.
 */
void
emu_engine_sq_error(struct mlx5_emu *emu, struct emu_sq *sq, uint16_t from)
{
	uint32_t size = 1u << sq->log_wq_sz;
	uint16_t idx = from;

	sq->state = MLX5_SQC_STATE_ERR;
	emu_engine_sq_stop(emu, sq);
	if (!sq->flush_in_error)
		return;
	while ((uint16_t)(sq->rung_pi - idx) != 0 &&
	       (uint16_t)(sq->rung_pi - idx) <= size) {
		const uint8_t *ctrl = sq->ring +
			(size_t)(idx & (size - 1)) * MLX5_SEND_WQE_BB;
		uint32_t ds = MLX5_GET(wqe_ctrl_seg, ctrl, ds) &
			      MLX5_WQE_CTRL_DS_MASK;

		if (ds == 0)
			break; /* not a WQE: nothing more to flush */
		if (MLX5_GET(wqe_ctrl_seg, ctrl, ce) >= 2)
			emu_cq_flush(emu, sq, idx,
				     (uint8_t)MLX5_GET(wqe_ctrl_seg, ctrl,
						       opcode));
		idx = (uint16_t)(idx + (ds + MLX5_WQE_DS_PER_WQEBB - 1) /
				 MLX5_WQE_DS_PER_WQEBB);
	}
}

void
emu_engine_sq_reset(struct mlx5_emu *emu, struct emu_sq *sq)
{
	emu_engine_sq_stop(emu, sq);
	sq->ci = 0;
	sq->rung_pi = 0;
	sq->tat_ps = 0;
	sq->tat_rem = 0;
	sq->ready_ps = emu->sim_ps;
	/* Its next doorbell may write the bytes the register holds. */
	sq->db_rearmed = true;
	sq->uar->rearmed = true;
}

void
emu_engine_sq_set_pp(struct mlx5_emu *emu, struct emu_sq *sq, uint16_t index)
{
	const struct emu_pp_entry *old = emu_pp_get(emu, sq->pp_index);
	const struct emu_pp_entry *new = emu_pp_get(emu, index);
	uint64_t now = emu->sim_ps;

	if (old != NULL && new != NULL && old->mode == new->mode) {
		/* The debt still to pay, in bytes or WQEs, at the new rate. */
		if (sq->tat_ps > now)
			sq->tat_ps = now + (uint64_t)((unsigned __int128)
				(sq->tat_ps - now) * old->rate / new->rate);
	} else if (sq->tat_ps > now) {
		sq->tat_ps = now;
	}
	sq->tat_rem = 0;
	emu_pp_sq_ref(emu, sq->pp_index, -1);
	emu_pp_sq_ref(emu, index, 1);
	sq->pp_index = index;
	sq->elig_valid = false;
}

void
emu_engine_sync(struct mlx5_emu *emu)
{
	emu_engine_run(emu, emu_now_ps(emu), UINT32_MAX, NULL);
}

void
emu_engine_fini(struct mlx5_emu *emu)
{
	free(emu->active);
	emu->active = NULL;
	emu->nb_active = 0;
	emu->cap_active = 0;
}
