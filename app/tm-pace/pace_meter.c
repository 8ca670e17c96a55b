/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>

#include "pace_meter.h"

void
pace_meter_init(struct pace_run *run)
{
	char name[RTE_ETH_XSTATS_NAME_SIZE];
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
	for (i = 0; i < run->opt.nb_queues && !run->hw.present; i++) {
		uint16_t q = run->opt.queues[i].queue;

		if (run->wire_from_model) {
			run->have_wire[i] = true;
			continue;
		}
		snprintf(name, sizeof(name), "tx_q%u_wire_packets", q);
		if (rte_eth_xstats_get_id_by_name(run->port_id, name,
					&run->xid_wire_pkts[i]) != 0)
			continue;
		snprintf(name, sizeof(name), "tx_q%u_wire_bytes", q);
		if (rte_eth_xstats_get_id_by_name(run->port_id, name,
					&run->xid_wire_bytes[i]) != 0)
			continue;
		run->have_wire[i] = true;
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
	uint64_t ids[2 * PACE_MAX_QUEUES + 1], vals[2 * PACE_MAX_QUEUES + 1];
	struct rte_eth_stats st;
	struct pace_sample *s;
	unsigned int i, n = 0;

	if (run->nb_samples == run->max_samples)
		return NULL;
	s = &run->samples[run->nb_samples];
	memset(s, 0, sizeof(*s));
	s->t_ns = t_ns;
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
			ids[n++] = run->xid_wire_pkts[i];
			ids[n++] = run->xid_wire_bytes[i];
		}
	}
	if (run->hw.present)
		s->vport_ok = pace_hw_vport(&run->hw, &s->vport_pkts,
					    &s->vport_octets);
	if (n > 0 && rte_eth_xstats_get_by_id(run->port_id, ids, vals, n) ==
	    (int)n) {
		n = 0;
		for (i = 0; i < run->opt.nb_queues; i++) {
			if (!run->have_wire[i] || run->wire_from_model)
				continue;
			s->q[i].wire_pkts = vals[n++];
			s->q[i].wire_bytes = vals[n++];
		}
	}
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

/*
 * Frames (@p pkts) or bits of plan queue @p idx from a to b, and the
 * seconds they took; false when not measurable.
 */
static bool
amount_between(const struct pace_run *run, unsigned int idx,
	       const struct pace_sample *a, const struct pace_sample *b,
	       bool pkts, double *amount, double *dt)
{
	uint64_t pa, ba, pb, bb;

	if (b->t_ns <= a->t_ns)
		return false;
	*dt = (double)(b->t_ns - a->t_ns) / 1e9;
	switch (pace_meter_source(run, idx)) {
	case PACE_SRC_NONE:
		return false;
	case PACE_SRC_CQE:
		/* Bytes completed between two CQEs over their time stamps. */
		if (!a->q[idx].cqe_ok || !b->q[idx].cqe_ok ||
		    b->q[idx].cqe.last_ns <= a->q[idx].cqe.last_ns)
			return false;
		*dt = (double)(b->q[idx].cqe.last_ns -
			       a->q[idx].cqe.last_ns) / 1e9;
		break;
	default:
		break;
	}
	counters(run, idx, a, &pa, &ba);
	counters(run, idx, b, &pb, &bb);
	if (pb < pa || bb < ba)
		return false;
	/*
	 * With departure times, the frames that left after a's last one
	 * took exactly the time between the two last departures.
	 */
	if (pace_meter_source(run, idx) == PACE_SRC_WIRE &&
	    a->q[idx].wire_last_ns != 0 &&
	    b->q[idx].wire_last_ns > a->q[idx].wire_last_ns)
		*dt = (double)(b->q[idx].wire_last_ns -
			       a->q[idx].wire_last_ns) / 1e9;
	*amount = pkts ? (double)(pb - pa) : (double)(bb - ba) * 8;
	return true;
}

/* bit/s, or pkt/s when @p pkts, of plan queue @p idx from a to b. */
static double
rate_between(const struct pace_run *run, unsigned int idx,
	     const struct pace_sample *a, const struct pace_sample *b,
	     bool pkts)
{
	double amount, dt;

	if (!amount_between(run, idx, a, b, pkts, &amount, &dt))
		return -1;
	return amount / dt;
}

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
 * still leaves plan queue @p idx's figures a NIC's: half its ring time,
 * or the least of those of the queues under its top group, for that
 * group's scheduling element gives the share of a queue whose ring ran
 * dry to the others.
 */
static double
kept_up_bound_ns(const struct pace_run *run, unsigned int idx,
		 const struct pace_sample *s)
{
	int g = group_at(run, idx, s[-1].t_ns);
	double bound = ring_half_ns(run, idx, s);
	unsigned int j;

	while (g >= 0 && run->opt.groups[g].place.group >= 0)
		g = run->opt.groups[g].place.group;
	for (j = 0; j < run->opt.nb_queues && g >= 0; j++)
		if (j != idx && s->q[j].expected > 0 &&
		    in_group(&run->opt, group_at(run, j, s[-1].t_ns), g))
			bound = RTE_MIN(bound, ring_half_ns(run, j, s));
	return bound;
}

/*
 * Rate of plan queue @p idx from a to b over the sample intervals in
 * which the device model kept up with real time for it (no pass later
 * than kept_up_bound_ns()): a later model writes completions so late that the
 * ring runs dry, and the departures have gaps that a NIC, which is never
 * late, would not leave. The intervals left out add their time to
 * @p *left_out_ns. Negative when no interval is measurable, or every one
 * had a pass that late.
 */
static double
rate_kept_up(const struct pace_run *run, unsigned int idx,
	     const struct pace_sample *a, const struct pace_sample *b,
	     bool pkts, uint64_t *left_out_ns)
{
	double sum = 0, time = 0, amount, dt;
	const struct pace_sample *s;

	for (s = a + 1; s <= b; s++) {
		if (!amount_between(run, idx, s - 1, s, pkts, &amount, &dt))
			return -1;
		if ((double)s->interval_lag_ns >=
		    kept_up_bound_ns(run, idx, s)) {
			*left_out_ns += s->t_ns - s[-1].t_ns;
			continue;
		}
		sum += amount;
		time += dt;
	}
	return time > 0 ? sum / time : -1;
}

/* The device model had late passes between samples @p a and @p b. */
static bool
late_between(const struct pace_run *run, const struct pace_sample *a,
	     const struct pace_sample *b)
{
	return run->have_lag && b->lag > a->lag;
}

/*
 * Achieved rate of plan queue @p idx over a window: where the model had
 * late passes, over the intervals in which it kept up for the queue
 * (@p *left_out_ns: the time left out), else, or when it kept up in none,
 * over the whole window.
 */
static double
window_rate(const struct pace_run *run, unsigned int idx,
	    const struct pace_sample *a, const struct pace_sample *b,
	    bool pkts, uint64_t *left_out_ns)
{
	*left_out_ns = 0;
	if (late_between(run, a, b)) {
		double r = rate_kept_up(run, idx, a, b, pkts, left_out_ns);

		if (r >= 0)
			return r;
		*left_out_ns = 0;
	}
	return rate_between(run, idx, a, b, pkts);
}

double
pace_meter_rate(const struct pace_run *run, unsigned int idx,
		const struct pace_sample *a, const struct pace_sample *b)
{
	return rate_between(run, idx, a, b, b->q[idx].shaper.packet_mode);
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
 * The verdict on an achieved rate: its error against @p expected, whether
 * it is within tolerance, and whether a late device thread explains it
 * (@p late: the model was late in the window). A late device thread can
 * only lower a queue's rate (departure times are computed, completions
 * come late), and raise a queue's under a group (@p grouped), which gets
 * the share of a sibling whose ring ran dry. Even the intervals kept as
 * the model's best (rate_kept_up()) are not beyond doubt then: a verdict
 * outside tolerance in a late window stays DEVICE-LAG, never OFF.
 */
static void
judge(const struct pace_run *run, double achieved, double expected,
      bool late, bool grouped, double *error_pct, bool *within,
      bool *device_lag)
{
	double tol = run->opt.tolerance_pct / 100;

	*error_pct = 100 * (achieved - expected) / expected;
	*within = fabs(*error_pct) <= 100 * tol;
	*device_lag = late && (achieved < expected * (1 - tol) ||
			       (grouped && achieved > expected * (1 + tol)));
}

/*
 * Plan queue @p idx achieved less than expected from a to b although its
 * ring had room: its sender, not its pacing, set the rate. In virtual
 * time a send attempt fills the ring: same measure.
 */
static bool
sender_short(const struct pace_run *run, unsigned int idx,
	     const struct pace_sample *a, const struct pace_sample *b,
	     double achieved)
{
	double tol = run->opt.tolerance_pct / 100;

	return run->shaped && achieved >= 0 &&
	       achieved < b->q[idx].expected * (1 - tol) &&
	       pace_meter_ring_full_pct(idx, a, b) < 50;
}

/*
 * Another queue of plan queue @p idx's group was sender-short from a to
 * b: its weighted share went to its siblings (the NIC's scheduling
 * element is work-conserving), whose expected rates assume every queue
 * backlogged.
 */
static bool
sibling_short(const struct pace_run *run, unsigned int idx,
	      const struct pace_sample *a, const struct pace_sample *b)
{
	int g = group_at(run, idx, a->t_ns);
	unsigned int j;

	if (g < 0)
		return false;
	for (j = 0; j < run->opt.nb_queues; j++)
		if (j != idx && group_at(run, j, a->t_ns) == g &&
		    sender_short(run, j, a, b, pace_meter_rate(run, j, a, b)))
			return true;
	return false;
}

/* Measure one phase of plan queue @p idx over its window. */
static void
measure_phase(const struct pace_run *run, unsigned int idx,
	      struct pace_phase *ph)
{
	const struct pace_sample *a, *b, *first = NULL;
	double tol = run->opt.tolerance_pct / 100;
	uint64_t pa, ba, pb, bb;
	unsigned int i;

	/* Frames the port dropped never count as sent. */
	for (i = 0; i < run->nb_samples; i++) {
		const struct pace_sample *s = &run->samples[i];

		if (s->t_ns < ph->start_ns || s->t_ns > ph->end_ns)
			continue;
		if (first == NULL)
			first = s;
		ph->mtu_drops = s->q[idx].wire_mtu_drops -
				first->q[idx].wire_mtu_drops;
	}
	if (!phase_window(run, ph->planned_ns, ph->end_ns, &a, &b))
		return;
	ph->achieved = window_rate(run, idx, a, b,
				   b->q[idx].shaper.packet_mode,
				   &ph->lag_left_out_ns);
	if (ph->achieved < 0)
		return;
	ph->measured = true;
	counters(run, idx, a, &pa, &ba);
	counters(run, idx, b, &pb, &bb);
	ph->pkts = pb - pa;
	judge(run, ph->achieved, ph->expected, late_between(run, a, b),
	      group_at(run, idx, a->t_ns) >= 0, &ph->error_pct, &ph->within,
	      &ph->device_lag);
	ph->ring_full_pct = pace_meter_ring_full_pct(idx, a, b);
	ph->sender_limited = sender_short(run, idx, a, b, ph->achieved) ||
			     (run->shaped &&
			      ph->achieved > ph->expected * (1 + tol) &&
			      sibling_short(run, idx, a, b));
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
		unsigned int k;

		ph[i].planned_ns = span[i].planned_ns;
		ph[i].start_ns = span[i].start_ns;
		ph[i].end_ns = span[i].end_ns;
		ph[i].shaper = st->shaper[idx];
		ph[i].expected = st->expected[idx];
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
		measure_phase(run, idx, &ph[i]);
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

static void
measure_group(const struct pace_run *run, int g, struct pace_group_phase *ph)
{
	const struct pace_sample *a, *b;
	bool sender = false;
	unsigned int i;
	double sum = 0;

	if (!phase_window(run, ph->planned_ns, ph->end_ns, &a, &b))
		return;
	for (i = 0; i < run->opt.nb_queues; i++) {
		uint64_t left_out;
		double r;

		if (g >= 0 && !in_group(&run->opt, ph->state.group[i], g))
			continue;
		r = window_rate(run, i, a, b, false, &left_out);
		if (r < 0)
			return;
		sum += r;
		sender |= sender_short(run, i, a, b,
				       pace_meter_rate(run, i, a, b));
		ph->lag_left_out_ns = RTE_MAX(ph->lag_left_out_ns, left_out);
	}
	ph->measured = true;
	ph->achieved = sum;
	/* A group's ceiling holds whatever its queues' lateness. */
	judge(run, sum, ph->expected, late_between(run, a, b), false,
	      &ph->error_pct, &ph->within, &ph->device_lag);
	/* A queue's sender fell short: so did the sum. */
	ph->sender_limited = sender && !ph->within &&
			     sum < ph->expected;
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
		ph[i].planned_ns = span[i].planned_ns;
		ph[i].start_ns = span[i].start_ns;
		ph[i].end_ns = span[i].end_ns;
		ph[i].state = *span[i].state;
		ph[i].expected = group_expected(run, span[i].state, g);
		measure_group(run, g, &ph[i]);
	}
	return n;
}
