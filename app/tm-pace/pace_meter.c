/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "pace_meter.h"

/* In real time the device thread may sleep this long between passes. */
#define RT_PASS_NS 1000000ull
/* A sender that met a full ring in fewer bursts had room: it fell short. */
#define SENDER_ROOM_PCT 50

/* Id of xstat "tx_q<queue>_<what>" of the port; false if it has none. */
static bool
xstat_id(const struct pace_run *run, uint16_t queue, const char *what,
	 uint64_t *id)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];

	snprintf(name, sizeof(name), "tx_q%u_%s", queue, what);
	return rte_eth_xstats_get_id_by_name(run->port_id, name, id) == 0;
}

void
pace_meter_init(struct pace_run *run)
{
	struct pace_emu_lag lag;
	unsigned int i;

	/*
	 * The device model's own per-SQ figures carry departure times; a
	 * real NIC (or --from-device) is measured from its own evidence.
	 */
	run->wire_from_model = run->emu.present && !run->hw.present;
	for (i = 0; i < run->opt.nb_queues && run->wire_from_model; i++) {
		struct pace_emu_wire w;

		if (!pace_emu_wire(&run->emu, run->opt.queues[i].queue, &w))
			run->wire_from_model = false;
	}
	for (i = 0; i < run->opt.nb_queues; i++) {
		uint16_t q = run->opt.queues[i].queue;

		/* The PMD's count of the queue's failed completions. */
		run->have_errors[i] =
			xstat_id(run, q, "error_cqes", &run->xid_error_cqes[i]) &&
			xstat_id(run, q, "flush_cqes", &run->xid_flush_cqes[i]) &&
			xstat_id(run, q, "recoveries", &run->xid_recoveries[i]);
		if (run->hw.present)
			continue;
		run->have_wire[i] = run->wire_from_model ||
			(xstat_id(run, q, "wire_packets", &run->xid_wire_pkts[i])
			 && xstat_id(run, q, "wire_bytes",
				     &run->xid_wire_bytes[i]));
	}
	/* The device model's lag, when the port is an emulated device. */
	/* Reading the figures starts the first interval. */
	run->have_lag = pace_emu_lag(&run->emu, &lag);
	if (run->have_lag) {
		snprintf(run->lag_name, sizeof(run->lag_name),
			 "late passes of the device thread (> %.0f us)",
			 (double)lag.threshold_ns / 1e3);
	}
}

const struct pace_sample *
pace_meter_sample(struct pace_run *run, uint64_t t_ns)
{
	uint64_t ids[5 * PACE_MAX_QUEUES], vals[5 * PACE_MAX_QUEUES];
	uint64_t *dst[5 * PACE_MAX_QUEUES];
	uint64_t flush[PACE_MAX_QUEUES] = { 0 };
	struct rte_eth_stats st;
	struct pace_sample *s;
	unsigned int i, k, n = 0;

	if (run->nb_samples == run->max_samples)
		return NULL;
	s = &run->samples[run->nb_samples];
	memset(s, 0, sizeof(*s));
	s->t_ns = t_ns;
	/* Before the departures: none can be later than it. */
	s->device_ns = run->emu.present ? pace_emu_now_ns(&run->emu) : 0;
	/* Sender counters first: the port's can then only be ahead. */
	for (i = 0; i < run->opt.nb_queues; i++)
		pace_txq_read(&run->txq[i], &s->q[i].tx);
	memset(&st, 0, sizeof(st));
	rte_eth_stats_get(run->port_id, &st);
	for (i = 0; i < run->opt.nb_queues; i++) {
		struct pace_qsample *qs = &s->q[i];
		uint16_t q = run->opt.queues[i].queue;

		if (q < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_pkts = st.q_opackets[q];
			qs->q_bytes = st.q_obytes[q];
		}
		qs->shaper = run->now.shaper[i];
		qs->expected = run->now.expected[i];
		qs->pp_index = -1;
		qs->profile_id = pace_tm_queue_profile(&run->tm, q);
		if (run->wire_from_model) {
			struct pace_emu_wire w = { 0 };

			pace_emu_wire(&run->emu, q, &w);
			qs->wire_pkts = w.pkts;
			qs->wire_bytes = w.bytes;
			qs->wire_last_ns = w.last_departure_ns;
			qs->pp_index = w.pp_index;
			qs->wire_mtu_drops = w.mtu_drops;
		} else if (run->hw.present) {
			qs->cqe_ok = pace_hw_cqe(&run->hw, q, &qs->cqe);
		} else if (run->have_wire[i]) {
			ids[n] = run->xid_wire_pkts[i];
			dst[n++] = &qs->wire_pkts;
			ids[n] = run->xid_wire_bytes[i];
			dst[n++] = &qs->wire_bytes;
		}
		if (run->have_errors[i]) {
			ids[n] = run->xid_error_cqes[i];
			dst[n++] = &qs->errors;
			ids[n] = run->xid_flush_cqes[i];
			dst[n++] = &flush[i];
			ids[n] = run->xid_recoveries[i];
			dst[n++] = &qs->recoveries;
		}
	}
	if (run->hw.present)
		s->vport_ok = pace_hw_vport(&run->hw, &s->vport_pkts,
					    &s->vport_octets);
	if (n > 0 && rte_eth_xstats_get_by_id(run->port_id, ids, vals, n) ==
	    (int)n) {
		for (k = 0; k < n; k++)
			*dst[k] = vals[k];
	}
	for (i = 0; i < run->opt.nb_queues; i++)
		s->q[i].errors += flush[i];
	if (run->have_lag) {
		const struct pace_sample *prev = run->nb_samples > 0 ?
						 s - 1 : NULL;
		struct pace_emu_lag lag;

		/* Interval by interval: the meter leaves out late ones. */
		pace_emu_lag(&run->emu, &lag);
		s->interval_lag_ns = lag.max_lag_ns;
		s->lag = (prev != NULL ? prev->lag : 0) + lag.late_passes;
		s->max_lag_ns = RTE_MAX(prev != NULL ? prev->max_lag_ns : 0,
					lag.max_lag_ns);
	}
	run->nb_samples++;
	return s;
}

enum pace_source
pace_meter_source(const struct pace_run *run, unsigned int idx)
{
	const struct pace_sample *last;
	unsigned int i;

	if (run->have_wire[idx])
		return PACE_SRC_WIRE;
	/* A real NIC: its own evidence or nothing, never what was posted. */
	if (run->hw.present) {
		for (i = 0; i < run->nb_samples; i++)
			if (run->samples[i].q[idx].cqe_ok)
				return PACE_SRC_CQE;
		return PACE_SRC_NONE;
	}
	if (run->nb_samples > 0) {
		last = &run->samples[run->nb_samples - 1];
		/* Some drivers count packets per queue but not bytes. */
		if (last->q[idx].q_pkts > 0 && last->q[idx].q_bytes > 0)
			return PACE_SRC_QSTATS;
	}
	return PACE_SRC_SENDER;
}

const char *
pace_source_name(enum pace_source src)
{
	switch (src) {
	case PACE_SRC_WIRE:
		return "device wire counters";
	case PACE_SRC_QSTATS:
		return "per-queue Tx stats";
	case PACE_SRC_CQE:
		return "device completions (bytes between CQE time stamps)";
	case PACE_SRC_NONE:
		return "nothing readable on the device (no figure given)";
	default:
		return "sender counts";
	}
}

static void
counters(const struct pace_run *run, unsigned int idx,
	 const struct pace_sample *s, uint64_t *pkts, uint64_t *bytes)
{
	const struct pace_qsample *qs = &s->q[idx];

	switch (pace_meter_source(run, idx)) {
	case PACE_SRC_WIRE:
		*pkts = qs->wire_pkts;
		*bytes = qs->wire_bytes;
		break;
	case PACE_SRC_QSTATS:
		*pkts = qs->q_pkts;
		*bytes = qs->q_bytes;
		break;
	case PACE_SRC_CQE:
		*pkts = qs->cqe.pkts;
		*bytes = qs->cqe.bytes;
		break;
	case PACE_SRC_NONE:
		*pkts = 0;
		*bytes = 0;
		break;
	default:
		*pkts = qs->tx.pkts;
		*bytes = qs->tx.bytes;
		break;
	}
}


/* The plan queues a row measures: one queue, or those under a group. */
struct members {
	unsigned int idx[PACE_MAX_QUEUES];
	unsigned int n;
	bool pkts;      /* packets (a packet-mode queue), not bits */
};

/* Group @p g is @p top or below it. */
static bool
in_group(const struct pace_options *opt, int g, int top)
{
	for (; g >= 0; g = opt->groups[g].place.group)
		if (g == top)
			return true;
	return false;
}

/* The group plan queue @p idx is in at @p t_ns (-1: none). */
static int
group_at(const struct pace_run *run, unsigned int idx, uint64_t t_ns)
{
	int g = run->initial.group[idx];
	unsigned int c;

	for (c = 0; c < run->nb_changes; c++)
		if (run->changes[c].ret == 0 && run->changes[c].t_ns <= t_ns)
			g = run->changes[c].after.group[idx];
	return g;
}

/* The top group of group @p g (-1: none). */
static int
top_group(const struct pace_options *opt, int g)
{
	while (g >= 0 && opt->groups[g].place.group >= 0)
		g = opt->groups[g].place.group;
	return g;
}

/* Plan queue @p idx alone; its packets when @p pkts. */
static void
members_of_queue(unsigned int idx, bool pkts, struct members *m)
{
	m->idx[0] = idx;
	m->n = 1;
	m->pkts = pkts;
}

/* The queues of group @p g (-1: all) in state @p st. */
static void
members_of_group(const struct pace_run *run, int g,
		 const struct pace_state *st, struct members *m)
{
	unsigned int i;

	m->n = 0;
	m->pkts = false;
	for (i = 0; i < run->opt.nb_queues; i++)
		if (g < 0 || in_group(&run->opt, st->group[i], g))
			m->idx[m->n++] = i;
}

/*
 * Device time of plan queue @p idx's last departure (or, on a real NIC,
 * of its last CQE) at sample @p s; 0 unknown.
 */
static uint64_t
last_ns(const struct pace_run *run, unsigned int idx,
	const struct pace_sample *s)
{
	switch (pace_meter_source(run, idx)) {
	case PACE_SRC_WIRE:
		return s->q[idx].wire_last_ns;
	case PACE_SRC_CQE:
		return s->q[idx].cqe_ok ? s->q[idx].cqe.last_ns : 0;
	default:
		return 0;
	}
}

/*
 * Frames (packet mode) or bits of @p m from a to b and the device time
 * they took: from the latest departure of any of them at a to the latest
 * at b (or between their latest CQEs' time stamps). Departures are
 * processed in time order, so every frame of @p m that left by the one
 * is counted at a, by the other at b: the figure is exact, and a group's
 * cannot exceed its ceiling by more than a frame whatever its queues'
 * bursts. Without departure times, over the time between the samples.
 * @p idle_ns: device time since the latest departure at b (wire figures
 * of the emulated device only). False when not measurable.
 */
static bool
members_between(const struct pace_run *run, const struct members *m,
		const struct pace_sample *a, const struct pace_sample *b,
		double *amount, double *dt, uint64_t *idle_ns)
{
	uint64_t la = 0, lb = 0;
	bool clock = m->n > 0, wire = m->n > 0;
	unsigned int k;

	*amount = 0;
	*idle_ns = 0;
	if (b->t_ns <= a->t_ns)
		return false;
	*dt = (double)(b->t_ns - a->t_ns) / 1e9;
	for (k = 0; k < m->n; k++) {
		unsigned int i = m->idx[k];
		enum pace_source src = pace_meter_source(run, i);
		uint64_t pa, ba, pb, bb;

		if (src == PACE_SRC_NONE)
			return false;
		/* Completions: bytes between two CQEs, none new is no figure. */
		if (src == PACE_SRC_CQE &&
		    (!a->q[i].cqe_ok || !b->q[i].cqe_ok ||
		     b->q[i].cqe.last_ns <= a->q[i].cqe.last_ns))
			return false;
		counters(run, i, a, &pa, &ba);
		counters(run, i, b, &pb, &bb);
		if (pb < pa || bb < ba)
			return false;
		*amount += m->pkts ? (double)(pb - pa) : (double)(bb - ba) * 8;
		wire &= src == PACE_SRC_WIRE;
		if (last_ns(run, i, a) == 0 && last_ns(run, i, b) == 0)
			continue;   /* nothing left yet: no clock to read */
		if (src != PACE_SRC_WIRE && src != PACE_SRC_CQE)
			clock = false;
		la = RTE_MAX(la, last_ns(run, i, a));
		lb = RTE_MAX(lb, last_ns(run, i, b));
	}
	/* Before the first departure: from the time of sample a. */
	if (la == 0 && wire)
		la = a->device_ns;
	if (clock && la != 0 && lb >= la)
		*dt = (double)(lb - la) / 1e9;
	if (wire && b->device_ns > lb)
		*idle_ns = b->device_ns - lb;
	return true;
}

/*
 * How long @p m may go without a departure at the end of the window from
 * a to b before it has stopped: PACE_STOP_FRAMES frames of its slowest
 * queue at its expected rate, at least PACE_STOP_MIN_NS, at least what
 * moves its rate over the window by half the tolerance (a scheduler's
 * round may keep a queue waiting, and a shorter silence, counted or not,
 * cannot move the figure by more); in real time plus the device thread's
 * sleep and lateness. 0 when it is expected to send nothing.
 */
static uint64_t
stop_allowance_ns(const struct pace_run *run, const struct members *m,
		  const struct pace_sample *a, const struct pace_sample *b)
{
	double frame_ns = 0, window_ns = (double)(b->t_ns - a->t_ns);
	unsigned int k;

	for (k = 0; k < m->n; k++) {
		unsigned int i = m->idx[k];
		const struct pace_queue_plan *qp = &run->opt.queues[i];
		double e = b->q[i].expected, ns;

		if (!(e > 0))
			continue;
		ns = b->q[i].shaper.packet_mode ? 1e9 / e :
		     1e9 * 4.0 * (qp->size_min + qp->size_max) / e;
		frame_ns = RTE_MAX(frame_ns, ns);
	}
	if (frame_ns == 0)
		return 0;
	return (uint64_t)RTE_MAX(RTE_MAX(PACE_STOP_FRAMES * frame_ns,
					 (double)PACE_STOP_MIN_NS),
				 window_ns * run->opt.tolerance_pct / 200) +
	       (run->have_lag ? RT_PASS_NS + b->interval_lag_ns : 0);
}

/*
 * Half the time plan queue @p idx needs to send a full Tx ring at its
 * expected rate in sample @p s, with its smallest frames. The sender
 * refills a ring at least every quarter of it (main.c), so a device
 * thread that is late by less than this leaves the ring not yet dry: the
 * departures, computed from the pacing, are those of a NIC.
 */
static double
ring_half_ns(const struct pace_run *run, unsigned int idx,
	     const struct pace_sample *s)
{
	const struct pace_qsample *qs = &s->q[idx];
	double frames = run->opt.nb_txd;

	if (!(qs->expected > 0))
		return 0;
	if (qs->shaper.packet_mode)
		return 1e9 * frames / qs->expected / 2;
	return 1e9 * frames * 8.0 * run->opt.queues[idx].size_min /
	       qs->expected / 2;
}

/*
 * Lateness of the model in the interval that ends at sample @p s that
 * still leaves the figures of @p m a NIC's: half the ring time of each of
 * its queues, or of any queue under their top groups, for a scheduling
 * element gives the share of a queue whose ring ran dry to the others,
 * so one late queue moves them all.
 */
static double
kept_up_bound_ns(const struct pace_run *run, const struct members *m,
		 const struct pace_sample *s)
{
	double bound = INFINITY;
	unsigned int k, j;

	for (k = 0; k < m->n; k++) {
		unsigned int i = m->idx[k];
		int top = top_group(&run->opt, group_at(run, i, s[-1].t_ns));

		for (j = 0; j < run->opt.nb_queues; j++)
			if ((j == i || (top >= 0 && top_group(&run->opt,
				group_at(run, j, s[-1].t_ns)) == top)) &&
			    s->q[j].expected > 0)
				bound = RTE_MIN(bound, ring_half_ns(run, j, s));
	}
	return bound;
}

/* The device model had late passes between samples @p a and @p b. */
static bool
late_between(const struct pace_run *run, const struct pace_sample *a,
	     const struct pace_sample *b)
{
	return run->have_lag && b->lag > a->lag;
}

/* What one window of one row measured. */
struct window {
	double rate;            /* < 0: not measurable */
	uint64_t left_out_ns;   /* late intervals left out */
	double lag_lost;        /* share of the time lateness may have cost */
	bool stopped;
	uint64_t stopped_ns;
};

/*
 * The rate of @p m from a to b. Where the model had late passes, over
 * the sample intervals in which it kept up for them (no pass later than
 * kept_up_bound_ns(): a later model writes completions so late that the
 * ring runs dry, and the departures have gaps that a NIC, which is never
 * late, would not leave); the intervals left out add their time to
 * left_out_ns. When none kept up, over the whole window, and lag_lost is
 * then the share of it that the lateness may have cost: in each interval
 * at most its late passes (at least one) times its worst lateness, for a
 * late pass delays what it notices by its lateness and no more. A row
 * with no departure at b for longer than stop_allowance_ns() has
 * stopped: the time since its last departure counts.
 */
static void
window_measure(const struct pace_run *run, const struct members *m,
	       const struct pace_sample *a, const struct pace_sample *b,
	       struct window *w)
{
	bool late = late_between(run, a, b), b_used = false;
	double sum = 0, time = 0, amount, dt, lost = 0;
	const struct pace_sample *s;
	uint64_t idle = 0, allow;
	unsigned int kept = 0;

	memset(w, 0, sizeof(*w));
	w->rate = -1;
	for (s = a + 1; s <= b; s++) {
		if (!members_between(run, m, s - 1, s, &amount, &dt, &idle))
			return;
		if (late && (double)s->interval_lag_ns >=
		    kept_up_bound_ns(run, m, s)) {
			w->left_out_ns += s->t_ns - s[-1].t_ns;
			lost += RTE_MIN((double)(s->t_ns - s[-1].t_ns),
					(double)RTE_MAX(s->lag - s[-1].lag,
							(uint64_t)1) *
					(double)s->interval_lag_ns);
			continue;
		}
		sum += amount;
		time += dt;
		kept++;
		b_used = s == b;
	}
	if (kept == 0) {
		/* No interval kept up: the whole window, lateness counted. */
		if (!members_between(run, m, a, b, &sum, &time, &idle))
			return;
		w->left_out_ns = 0;
		w->lag_lost = lost / ((double)(b->t_ns - a->t_ns));
		b_used = true;
	}
	allow = stop_allowance_ns(run, m, a, b);
	if (allow > 0 && idle > allow) {
		w->stopped = true;
		w->stopped_ns = idle;
		if (b_used)
			time += (double)idle / 1e9;
	}
	w->rate = time > 0 ? sum / time : 0;
}

double
pace_meter_rate(const struct pace_run *run, unsigned int idx,
		const struct pace_sample *a, const struct pace_sample *b)
{
	struct members m;
	struct window w;

	members_of_queue(idx, b->q[idx].shaper.packet_mode, &m);
	window_measure(run, &m, a, b, &w);
	return w.rate;
}

double
pace_meter_ring_full_pct(unsigned int idx, const struct pace_sample *a,
			 const struct pace_sample *b)
{
	uint64_t bursts = b->q[idx].tx.bursts - a->q[idx].tx.bursts;
	uint64_t full = b->q[idx].tx.bursts_short - a->q[idx].tx.bursts_short;

	return bursts == 0 ? 0 : 100.0 * (double)full / (double)bursts;
}

/*
 * First and last sample of a phase's measuring window, from its planned
 * start plus the settle time (a change lands a little after its time, and
 * samples are due on the same grid as --at times) to its end. False when
 * the window holds fewer than two samples.
 */
static bool
phase_window(const struct pace_run *run, uint64_t planned_ns, uint64_t end_ns,
	     const struct pace_sample **a, const struct pace_sample **b)
{
	uint64_t from = planned_ns + run->opt.settle_ns;
	unsigned int i;

	*a = NULL;
	*b = NULL;
	for (i = 0; i < run->nb_samples; i++) {
		const struct pace_sample *s = &run->samples[i];

		if (s->t_ns < from || s->t_ns > end_ns)
			continue;
		if (*a == NULL)
			*a = s;
		*b = s;
	}
	return *a != NULL && *b != *a;
}

/*
 * bit/s (or pkt/s, @p pkts) by which the sender of plan queue @p idx
 * fell short of its expected rate from a to b although its ring had room
 * (fewer than SENDER_ROOM_PCT % of its bursts met a full ring): what it
 * did not post, the pacing could not send. 0 when it posted enough, or
 * its ring was full (the device, not the sender, set the rate).
 */
static double
sender_shortfall(const struct pace_run *run, unsigned int idx,
		 const struct pace_sample *a, const struct pace_sample *b,
		 bool pkts)
{
	double expected = b->q[idx].expected, posted, dt;

	if (!run->shaped || !(expected > 0) || b->t_ns <= a->t_ns ||
	    pace_meter_ring_full_pct(idx, a, b) >= SENDER_ROOM_PCT)
		return 0;
	dt = (double)(b->t_ns - a->t_ns) / 1e9;
	if (!pkts && b->q[idx].shaper.packet_mode)
		expected *= 4.0 * (run->opt.queues[idx].size_min +
				   run->opt.queues[idx].size_max);
	posted = pkts ? (double)(b->q[idx].tx.pkts - a->q[idx].tx.pkts) / dt :
		 (double)(b->q[idx].tx.bytes - a->q[idx].tx.bytes) * 8 / dt;
	return posted < expected ? expected - posted : 0;
}

/* Plan queue @p i is one of @p m. */
static bool
is_member(const struct members *m, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < m->n; k++)
		if (m->idx[k] == i)
			return true;
	return false;
}

/*
 * The queues whose unused share @p m may have got: those outside it under
 * the same top groups (queues of no group: the other queues of no group,
 * with which they share the line).
 */
static bool
is_rival(const struct pace_run *run, const struct members *m, unsigned int j,
	 uint64_t t_ns)
{
	int top = top_group(&run->opt, group_at(run, j, t_ns));
	unsigned int k;

	if (is_member(m, j))
		return false;
	for (k = 0; k < m->n; k++)
		if (top_group(&run->opt, group_at(run, m->idx[k], t_ns)) == top)
			return true;
	return false;
}

/*
 * The verdict on @p f (expected, achieved and lag_lost's share set):
 * its error and tolerance, and whether the device model's lateness or a
 * sender's shortfall accounts for an error beyond tolerance. A shortfall
 * is explained up to the share of the time the lateness may have cost
 * (@p lag_lost) and what the row's own senders did not post
 * (@p short_bps); a rate above expected up to what its rivals lost the
 * same ways (@p rivals_lag_bps, @p rivals_short_bps), which a
 * work-conserving scheduler gives to the others. Together they must
 * cover the error beyond tolerance; the larger names it.
 */
static void
judge(const struct pace_run *run, struct pace_figure *f, double lag_lost,
      double short_bps, double rivals_lag_bps, double rivals_short_bps)
{
	double tol = run->opt.tolerance_pct, off, lag_pct, sender_pct;

	if (!(f->expected > 0)) {
		f->error_pct = NAN;
		f->idle = !(f->achieved > 0);
		f->within = f->idle;
		return;
	}
	f->error_pct = 100 * (f->achieved - f->expected) / f->expected;
	f->within = fabs(f->error_pct) <= tol;
	if (f->error_pct < 0) {
		lag_pct = 100 * lag_lost;
		sender_pct = 100 * short_bps / f->expected;
	} else {
		lag_pct = 100 * rivals_lag_bps / f->expected;
		sender_pct = 100 * rivals_short_bps / f->expected;
	}
	f->lag_explains_pct = lag_pct;
	f->sender_explains_pct = sender_pct;
	off = fabs(f->error_pct);
	if (f->within || (lag_pct == 0 && sender_pct == 0) ||
	    off > lag_pct + sender_pct + tol)
		return;
	f->device_lag = lag_pct >= sender_pct;
	f->sender_limited = !f->device_lag;
}

/* Errors, resets and drops of @p m from sample a to sample b. */
static void
count_trouble(const struct members *m, const struct pace_sample *a,
	      const struct pace_sample *b, struct pace_figure *f)
{
	unsigned int k;

	for (k = 0; k < m->n; k++) {
		const struct pace_qsample *x = &a->q[m->idx[k]];
		const struct pace_qsample *y = &b->q[m->idx[k]];

		f->mtu_drops += y->wire_mtu_drops - x->wire_mtu_drops;
		f->errors += y->errors - x->errors;
		f->recoveries += y->recoveries - x->recoveries;
	}
}

/* Measure @p f (expected set) of @p m over the window from a to b. */
static void
measure_between(const struct pace_run *run, const struct members *m,
		const struct pace_sample *a, const struct pace_sample *b,
		struct pace_figure *f)
{
	double short_bps = 0, rivals_short = 0, rivals_expected = 0;
	struct window w;
	unsigned int i, k;

	window_measure(run, m, a, b, &w);
	if (w.rate < 0)
		return;
	f->measured = true;
	f->achieved = w.rate;
	f->lag_left_out_ns = w.left_out_ns;
	f->stopped = w.stopped;
	f->stopped_ns = w.stopped_ns;
	for (k = 0; k < m->n; k++)
		short_bps += sender_shortfall(run, m->idx[k], a, b, m->pkts);
	for (i = 0; i < run->opt.nb_queues; i++) {
		double e = b->q[i].expected;

		if (!is_rival(run, m, i, a->t_ns))
			continue;
		if (b->q[i].shaper.packet_mode)
			e *= 4.0 * (run->opt.queues[i].size_min +
				    run->opt.queues[i].size_max);
		rivals_expected += e;
		rivals_short += sender_shortfall(run, i, a, b, false);
	}
	if (m->pkts) {
		/* The rivals' bits in this queue's packets. */
		double bits = 4.0 * (run->opt.queues[m->idx[0]].size_min +
				     run->opt.queues[m->idx[0]].size_max);

		rivals_expected /= bits;
		rivals_short /= bits;
	}
	judge(run, f, w.lag_lost, short_bps, w.lag_lost * rivals_expected,
	      rivals_short);
}

/*
 * Measure @p f (expected set) of @p m over the window of a phase
 * (planned start plus settle time, to its end; @p wa, @p wb: its first
 * and last sample, NULL when too short), the errors and drops over the
 * whole phase (start to end), settling included.
 */
static void
measure_phase(const struct pace_run *run, const struct members *m,
	      uint64_t planned_ns, uint64_t start_ns, uint64_t end_ns,
	      struct pace_figure *f, const struct pace_sample **wa,
	      const struct pace_sample **wb)
{
	const struct pace_sample *first = NULL, *last = NULL;
	unsigned int i;

	for (i = 0; i < run->nb_samples; i++) {
		const struct pace_sample *s = &run->samples[i];

		if (s->t_ns < start_ns || s->t_ns > end_ns)
			continue;
		if (first == NULL)
			first = s;
		last = s;
	}
	if (first != NULL)
		count_trouble(m, first, last, f);
	if (!phase_window(run, planned_ns, end_ns, wa, wb)) {
		*wa = NULL;
		*wb = NULL;
		return;
	}
	measure_between(run, m, *wa, *wb, f);
	if (!f->measured) {
		*wa = NULL;
		*wb = NULL;
	}
}

void
pace_meter_interval(const struct pace_run *run, unsigned int idx,
		    const struct pace_sample *a, const struct pace_sample *b,
		    struct pace_figure *f)
{
	struct members m;

	memset(f, 0, sizeof(*f));
	members_of_queue(idx, b->q[idx].shaper.packet_mode, &m);
	f->expected = b->q[idx].expected;
	count_trouble(&m, a, b, f);
	measure_between(run, &m, a, b, f);
}

/* Queue @p idx is set up, or should achieve, differently in @p b. */
static bool
queue_differs(const struct pace_run *run __rte_unused,
	      const struct pace_state *a, const struct pace_state *b, int idx)
{
	return memcmp(&a->shaper[idx], &b->shaper[idx],
		      sizeof(a->shaper[idx])) != 0 ||
	       a->weight[idx] != b->weight[idx] ||
	       a->group[idx] != b->group[idx] ||
	       fabs(a->expected[idx] - b->expected[idx]) >
	       1e-9 * a->expected[idx];
}

/* When one phase of a queue or a group runs, and its settings. */
struct phase_span {
	uint64_t planned_ns;
	uint64_t start_ns;
	uint64_t end_ns;
	const struct pace_state *state;
};

/*
 * Split the run into the phases of a queue or a group (@p node), at the
 * applied changes for which @p differs holds; at most @p max (and
 * PACE_MAX_PHASES).
 *
 * @return number of phases written to @p span.
 */
static unsigned int
phase_spans(const struct pace_run *run,
	    bool (*differs)(const struct pace_run *run,
			    const struct pace_state *a,
			    const struct pace_state *b, int node),
	    int node, struct phase_span *span, unsigned int max)
{
	unsigned int n = 1, i;

	if (max == 0)
		return 0;
	max = RTE_MIN(max, (unsigned int)PACE_MAX_PHASES);
	span[0] = (struct phase_span){ .state = &run->initial };
	for (i = 0; i < run->nb_changes && n < max; i++) {
		const struct pace_applied_change *c = &run->changes[i];

		if (c->ret != 0 || !differs(run, &c->before, &c->after, node))
			continue;
		/* Changes applied at one instant make one phase. */
		if (n > 1 && span[n - 1].start_ns == c->t_ns)
			n--;
		span[n - 1].end_ns = c->t_ns;
		span[n] = (struct phase_span){
			.planned_ns = c->at_ns,
			.start_ns = c->t_ns,
			.state = &c->after,
		};
		n++;
	}
	span[n - 1].end_ns = run->run_ns;
	return n;
}

unsigned int
pace_meter_phases(const struct pace_run *run, unsigned int idx,
		  struct pace_phase *ph, unsigned int max)
{
	struct phase_span span[PACE_MAX_PHASES];
	unsigned int n = phase_spans(run, queue_differs, (int)idx, span, max);
	unsigned int i;

	memset(ph, 0, sizeof(*ph) * max);
	for (i = 0; i < n; i++) {
		const struct pace_state *st = span[i].state;
		const struct pace_sample *a, *b;
		struct members m;
		uint64_t pa, ba, pb, bb;
		unsigned int k;

		ph[i].planned_ns = span[i].planned_ns;
		ph[i].start_ns = span[i].start_ns;
		ph[i].end_ns = span[i].end_ns;
		ph[i].shaper = st->shaper[idx];
		ph[i].fig.expected = st->expected[idx];
		ph[i].weight = st->weight[idx];
		/* Profile and pacing entry from the phase's last sample. */
		ph[i].profile_id = i == 0 ?
			(run->nb_samples > 0 ?
			 run->samples[0].q[idx].profile_id : 0) :
			pace_tm_queue_profile(&run->tm,
					      run->opt.queues[idx].queue);
		ph[i].pp_index = -1;
		for (k = 0; k < run->nb_samples; k++) {
			const struct pace_sample *s = &run->samples[k];

			/* A sample at a change still shows the old state. */
			if (s->t_ns > ph[i].start_ns && s->t_ns <= ph[i].end_ns) {
				ph[i].profile_id = s->q[idx].profile_id;
				ph[i].pp_index = s->q[idx].pp_index;
			}
		}
		members_of_queue(idx, st->shaper[idx].packet_mode, &m);
		measure_phase(run, &m, ph[i].planned_ns, ph[i].start_ns,
			ph[i].end_ns, &ph[i].fig, &a, &b);
		if (a == NULL)
			continue;
		counters(run, idx, a, &pa, &ba);
		counters(run, idx, b, &pb, &bb);
		ph[i].pkts = pb - pa;
		ph[i].ring_full_pct = pace_meter_ring_full_pct(idx, a, b);
	}
	return n;
}

uint64_t
pace_meter_packets(const struct pace_run *run, unsigned int idx,
		   const struct pace_sample *s)
{
	uint64_t pkts, bytes;

	counters(run, idx, s, &pkts, &bytes);
	return pkts;
}

/* Group @p g (-1: the root) is set up or should achieve differently. */
static bool
group_differs(const struct pace_run *run, const struct pace_state *a,
	      const struct pace_state *b, int g)
{
	unsigned int i;

	if (g >= 0 && (memcmp(&a->gshaper[g], &b->gshaper[g],
			      sizeof(a->gshaper[g])) != 0 ||
		       a->gweight[g] != b->gweight[g]))
		return true;
	for (i = 0; i < run->opt.nb_queues; i++) {
		bool ina = g < 0 || in_group(&run->opt, a->group[i], g);
		bool inb = g < 0 || in_group(&run->opt, b->group[i], g);

		if (ina != inb || (ina && fabs(a->expected[i] -
		    b->expected[i]) > 1e-9 * a->expected[i]))
			return true;
	}
	return false;
}

/* Expected bit/s of the queues of group @p g (-1: all) in state @p st. */
static double
group_expected(const struct pace_run *run, const struct pace_state *st, int g)
{
	const struct pace_options *opt = &run->opt;
	double sum = 0;
	unsigned int i;

	for (i = 0; i < opt->nb_queues; i++) {
		if (g >= 0 && !in_group(opt, st->group[i], g))
			continue;
		sum += st->expected[i] * (st->shaper[i].packet_mode ? 4.0 *
			(opt->queues[i].size_min + opt->queues[i].size_max) :
			1.0);
	}
	return sum;
}

unsigned int
pace_meter_group_phases(const struct pace_run *run, int g,
			struct pace_group_phase *ph, unsigned int max)
{
	struct phase_span span[PACE_MAX_PHASES];
	unsigned int n = phase_spans(run, group_differs, g, span, max);
	unsigned int i;

	memset(ph, 0, sizeof(*ph) * max);
	for (i = 0; i < n; i++) {
		const struct pace_sample *a, *b;
		struct members m;

		ph[i].planned_ns = span[i].planned_ns;
		ph[i].start_ns = span[i].start_ns;
		ph[i].end_ns = span[i].end_ns;
		ph[i].state = *span[i].state;
		ph[i].fig.expected = group_expected(run, span[i].state, g);
		members_of_group(run, g, span[i].state, &m);
		measure_phase(run, &m, ph[i].planned_ns, ph[i].start_ns,
			ph[i].end_ns, &ph[i].fig, &a, &b);
	}
	return n;
}
