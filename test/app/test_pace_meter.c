/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Unit tests of dpdk-tm-pace's meter (app/tm-pace/pace_meter.c) and its
 * JSON report, fed with synthetic samples: what explains an error (a
 * device model that fell behind real time, senders that fell short), a
 * queue that stopped or failed, a group measured on its own departures:
 * cases a run cannot reproduce at will. No EAL, no device.
 * Usage: test_pace_meter. The last line is "N passed, N failed".
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pace_meter.h"
#include "pace_report.h"
#include "test_common.h"

/* Queues of 1500-byte frames at 100 Mbit/s, a sample every 100 ms. */
#define RATE_BPS 100000000.0
#define FRAME_BYTES 1500
#define RING_FRAMES 1024
#define INTERVAL_NS 100000000ull
#define NB_INTERVALS 10
#define TOLERANCE_PCT 2.0
/*
 * Half the ring's time at that rate (pace_meter.c, ring_half_ns()) is
 * 61.44 ms: a pass 100 ms late leaves the interval out.
 */
#define LATE_NS 100000000ull
/* Device time at the start of traffic (the departures' clock). */
#define ORIGIN_NS 1000000000ull

/* A run of @p nb queues at @p rate bit/s each, no sample yet but the first. */
static struct pace_run *
run_new_n(unsigned int nb, double rate)
{
	struct pace_run *run = calloc(1, sizeof(*run));
	unsigned int i;

	if (run == NULL)
		return NULL;
	run->samples = calloc(NB_INTERVALS + 1, sizeof(*run->samples));
	if (run->samples == NULL) {
		free(run);
		return NULL;
	}
	run->max_samples = NB_INTERVALS + 1;
	run->opt.nb_queues = nb;
	run->opt.nb_txd = RING_FRAMES;
	run->opt.tolerance_pct = TOLERANCE_PCT;
	run->opt.interval_ns = INTERVAL_NS;
	run->opt.duration_ns = NB_INTERVALS * INTERVAL_NS;
	for (i = 0; i < nb; i++) {
		struct pace_queue_plan *qp = &run->opt.queues[i];

		qp->queue = (uint16_t)i;
		qp->shaper.rate = (uint64_t)rate;
		qp->place.group = PACE_GROUP_ROOT;
		qp->place.weight = 1;
		qp->size_min = FRAME_BYTES;
		qp->size_max = FRAME_BYTES;
		run->initial.shaper[i] = qp->shaper;
		run->initial.weight[i] = 1;
		run->initial.group[i] = PACE_GROUP_ROOT;
		run->initial.expected[i] = rate;
		run->have_wire[i] = true;
		run->samples[0].q[i].shaper = qp->shaper;
		run->samples[0].q[i].expected = rate;
	}
	/* An emulated device in real time: wire counters, lag figures. */
	run->emu.present = true;
	run->have_lag = true;
	run->shaped = true;
	run->samples[0].device_ns = ORIGIN_NS;
	run->nb_samples = 1;
	return run;
}

/* One queue at RATE_BPS. */
static struct pace_run *
run_new(void)
{
	return run_new_n(1, RATE_BPS);
}

static void
run_free(struct pace_run *run)
{
	if (run == NULL)
		return;
	free(run->samples);
	free(run);
}

/* The next sample, INTERVAL_NS after the last, counters carried over. */
static struct pace_sample *
run_next(struct pace_run *run)
{
	const struct pace_sample *prev = &run->samples[run->nb_samples - 1];
	struct pace_sample *s = &run->samples[run->nb_samples];

	*s = *prev;
	s->t_ns = prev->t_ns + INTERVAL_NS;
	s->device_ns = ORIGIN_NS + s->t_ns;
	s->interval_lag_ns = 0;
	run->nb_samples++;
	run->run_ns = s->t_ns;
	return s;
}

/*
 * Queue @p i of sample @p s sent @p bytes more, its last departure at
 * @p last_ns of run time; its sender posted them too, and met a full
 * ring at every burst (@p full) or at none.
 */
static void
sent(struct pace_sample *s, unsigned int i, uint64_t bytes, uint64_t last_ns,
     bool full)
{
	struct pace_qsample *q = &s->q[i];

	q->wire_bytes += bytes;
	q->wire_pkts += bytes / FRAME_BYTES;
	if (bytes > 0)
		q->wire_last_ns = ORIGIN_NS + last_ns;
	q->tx.pkts = q->wire_pkts;
	q->tx.bytes = q->wire_bytes;
	q->tx.bursts += 100;
	q->tx.bursts_short += full ? 100 : 0;
}

/* The device model's worst lateness in sample @p s's interval: one pass. */
static void
late(struct pace_sample *s, uint64_t late_ns)
{
	s->interval_lag_ns = late_ns;
	if (late_ns > 0)
		s->lag++;
	s->max_lag_ns = RTE_MAX(s->max_lag_ns, late_ns);
}

/*
 * The next interval of a one-queue run: the wire saw @p share of the
 * expected rate, up to the sample, and the device model's latest pass
 * in it was @p late_ns late (0: none was late). The sender met a full
 * ring at every burst: the pacing, not the sender, set the rate.
 */
static void
run_interval(struct pace_run *run, double share, uint64_t late_ns)
{
	struct pace_sample *s = run_next(run);

	sent(s, 0, (uint64_t)(share * RATE_BPS / 8 * INTERVAL_NS / 1e9),
	     s->t_ns, true);
	late(s, late_ns);
}

/*
 * A run of NB_INTERVALS intervals at @p share of the rate, the ones in
 * @p late_mask (bit k: interval k, from 1) at @p late_share and
 * @p late_ns late; NULL (the case failed) when out of memory.
 */
static struct pace_run *
run_filled(double share, unsigned int late_mask, double late_share,
	   uint64_t late_ns)
{
	struct pace_run *run = run_new();
	unsigned int k;

	CHECK(run != NULL, "out of memory");
	for (k = 1; k <= NB_INTERVALS && run != NULL; k++) {
		if (late_mask & (1u << k))
			run_interval(run, late_share, late_ns);
		else
			run_interval(run, share, 0);
	}
	return run;
}

/*
 * Intervals 3 and 7 with a pass 100 ms late, their rings dry (half the
 * rate), the other eight at the exact rate.
 */
static struct pace_run *
run_two_late(void)
{
	return run_filled(1.0, 1u << 3 | 1u << 7, 0.5, LATE_NS);
}

/* The only phase of queue @p idx, checked to be the only one. */
static void
only_phase_of(const struct pace_run *run, unsigned int idx,
	      struct pace_phase *ph)
{
	struct pace_phase phases[PACE_MAX_PHASES];
	unsigned int n = pace_meter_phases(run, idx, phases, PACE_MAX_PHASES);

	CHECK_EQ(n, 1);
	*ph = phases[0];
	CHECK(ph->fig.measured, "the phase was not measured");
}

static void
only_phase(const struct pace_run *run, struct pace_phase *ph)
{
	only_phase_of(run, 0, ph);
}

/*
 * Field @p key of the @p nth object holding it after the "@p section"
 * key of the JSON report of @p run, as written (a string without its
 * quotes), into @p val; "" when missing.
 */
static void
json_field_in(const struct pace_run *run, const char *section,
	      unsigned int nth, const char *key, char *val, size_t len)
{
	char *json = NULL, pattern[64];
	const char *at;
	size_t n = 0, k = 0;
	FILE *f;

	val[0] = '\0';
	f = open_memstream(&json, &n);
	CHECK(f != NULL, "open_memstream failed");
	if (f == NULL)
		return;
	pace_report_json(run, f);
	CHECK_EQ(fclose(f), 0);
	at = strstr(json, section);
	CHECK(at != NULL, "no %s in the JSON report", section);
	if (at == NULL)
		goto out;
	snprintf(pattern, sizeof(pattern), "\"%s\": ", key);
	do {
		at = strstr(at + 1, pattern);
	} while (at != NULL && nth-- > 0);
	CHECK(at != NULL, "no %s in %s", key, section);
	if (at == NULL)
		goto out;
	at += strlen(pattern);
	if (*at == '"')
		at++;
	while (k + 1 < len && at[k] != '\0' && strchr("\",}", at[k]) == NULL) {
		val[k] = at[k];
		k++;
	}
	val[k] = '\0';
out:
	free(json);
}

/* Field @p key of the first queue phase of the JSON report. */
static void
json_phase_field(const struct pace_run *run, const char *key, char *val,
		 size_t len)
{
	json_field_in(run, "\"phases\": [", 0, key, val, len);
}

/* A queue phase's status in the JSON report is @p want. */
static void
check_status(const struct pace_run *run, unsigned int queue, const char *want)
{
	char status[32];

	json_field_in(run, "\"queues\": [", queue, "status", status,
		      sizeof(status));
	CHECK(strcmp(status, want) == 0, "queue %u: status %s, want %s",
	      queue, status, want);
}

/*
 * (a) The two intervals of run_two_late() in which the model was late are
 * left out; the other eight, at the exact rate, make the average: the
 * row is ok, not short.
 */
static void
test_late_interval_left_out(void)
{
	struct pace_run *run = run_two_late();
	struct pace_phase ph;

	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(ph.fig.achieved > RATE_BPS * (1 - 1e-9) &&
	      ph.fig.achieved < RATE_BPS * (1 + 1e-9),
	      "achieved %.1f bit/s, want the kept intervals' %.1f",
	      ph.fig.achieved, RATE_BPS);
	CHECK(ph.fig.within && !ph.fig.device_lag, "within %d device_lag %d",
	      ph.fig.within, ph.fig.device_lag);
	CHECK_EQ(ph.fig.lag_left_out_ns, 2 * INTERVAL_NS);
	check_status(run, 0, "ok");
	run_free(run);
}

/*
 * (b) Every interval 5% short, the fourth with a pass 100 ms late (left
 * out): the nine kept intervals, in which the model kept up, are 5%
 * short: its lateness explains none of that, the row is OFF (it was
 * DEVICE-LAG before: any late window excused any error).
 */
static void
test_off_in_late_window_is_off(void)
{
	struct pace_run *run = run_filled(0.95, 1u << 4, 0.5, LATE_NS);
	struct pace_phase ph;

	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(!ph.fig.within && !ph.fig.device_lag,
	      "within %d device_lag %d", ph.fig.within, ph.fig.device_lag);
	CHECK(ph.fig.achieved < RATE_BPS * 0.96,
	      "achieved %.1f bit/s: the kept intervals are 5%% short",
	      ph.fig.achieved);
	CHECK_EQ(ph.fig.lag_left_out_ns, INTERVAL_NS);
	CHECK(ph.fig.lag_explains_pct == 0, "lateness explains %.2f%%",
	      ph.fig.lag_explains_pct);
	check_status(run, 0, "OFF");
	run_free(run);
}

/*
 * (c) Every interval 5% short and the model never late: a pacing error,
 * the row is OFF, nothing left out.
 */
static void
test_off_without_lateness_is_off(void)
{
	struct pace_run *run = run_filled(0.95, 0, 0, 0);
	struct pace_phase ph;

	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(!ph.fig.within && !ph.fig.device_lag,
	      "within %d device_lag %d", ph.fig.within, ph.fig.device_lag);
	CHECK_EQ(ph.fig.lag_left_out_ns, 0);
	check_status(run, 0, "OFF");
	run_free(run);
}

/* (d) The JSON report gives the time left out of a row, in seconds. */
static void
test_json_reports_time_left_out(void)
{
	struct pace_run *run = run_two_late();
	char left_out[32];

	if (run == NULL)
		return;
	json_phase_field(run, "lag_left_out_s", left_out, sizeof(left_out));
	CHECK(strcmp(left_out, "0.2") == 0, "lag_left_out_s %s, want 0.2",
	      left_out);
	run_free(run);
}

/*
 * (e) DEVICE-LAG only where the lateness accounts for the error, and by
 * how much: a row 65% short with one pass 2 ms late (the ring covers
 * 61 ms) is OFF, lateness explaining nothing; every interval with a pass
 * 70 ms late (dry rings: none kept) explains up to 70% of each: 50% short
 * is DEVICE-LAG (explained up to 70%), 80% short is OFF.
 */
static void
test_lag_explains_only_its_share(void)
{
	struct pace_run *run = run_filled(0.35, 1u << 5, 0.35, 2000000);
	struct pace_phase ph;
	char pct[32];

	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(!ph.fig.device_lag && ph.fig.lag_explains_pct == 0,
	      "65%% short, one pass 2 ms late: device_lag %d, explains "
	      "%.2f%%", ph.fig.device_lag, ph.fig.lag_explains_pct);
	check_status(run, 0, "OFF");
	run_free(run);

	run = run_filled(0.5, 0x7fe, 0.5, 70000000);
	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(ph.fig.device_lag && ph.fig.lag_explains_pct > 69.99 &&
	      ph.fig.lag_explains_pct < 70.01,
	      "50%% short, every interval 70 ms late: device_lag %d, "
	      "explains %.2f%%", ph.fig.device_lag, ph.fig.lag_explains_pct);
	check_status(run, 0, "DEVICE-LAG");
	json_phase_field(run, "lag_explains_pct", pct, sizeof(pct));
	CHECK(strcmp(pct, "70.00") == 0, "JSON lag_explains_pct %s", pct);
	run_free(run);

	run = run_filled(0.2, 0x7fe, 0.2, 70000000);
	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(!ph.fig.device_lag, "80%% short, 70 ms late: device_lag %d",
	      ph.fig.device_lag);
	check_status(run, 0, "OFF");
	run_free(run);
}

/* Queues 0 and 1 in group 0 ("g", ceiling @p ceiling bit/s). */
static void
run_group(struct pace_run *run, double ceiling)
{
	struct pace_group_plan *g = &run->opt.groups[0];
	unsigned int i;

	run->opt.nb_groups = 1;
	run->opt.group_depth = 1;
	snprintf(g->name, sizeof(g->name), "g");
	g->shaper.rate = (uint64_t)ceiling;
	g->place.group = PACE_GROUP_ROOT;
	g->place.weight = 1;
	g->depth = 1;
	run->initial.gshaper[0] = g->shaper;
	run->initial.gweight[0] = 1;
	run->initial.gexpected[0] = ceiling;
	for (i = 0; i < 2; i++) {
		run->opt.queues[i].shaper.rate = 0;
		run->opt.queues[i].place.group = 0;
		run->initial.shaper[i].rate = 0;
		run->initial.group[i] = 0;
		run->samples[0].q[i].shaper.rate = 0;
	}
}

/* The only phase of group 0, checked to be the only one. */
static void
only_group_phase(const struct pace_run *run, struct pace_group_phase *ph)
{
	static struct pace_group_phase phases[PACE_MAX_PHASES];
	unsigned int n = pace_meter_group_phases(run, 0, phases,
						 PACE_MAX_PHASES);

	CHECK_EQ(n, 1);
	*ph = phases[0];
	CHECK(ph->fig.measured, "the group's phase was not measured");
}

/*
 * (f) SENDER-LIMITED only where the senders' shortfall accounts for the
 * error: in a group, queue 0's sender posts 5% short with room in its
 * ring (SENDER-LIMITED, explained up to 5%); queue 1 is 60% above its
 * share with a full ring: its sibling's 2.5 Mbit/s explain 5% of it,
 * the row is OFF (it was SENDER-LIMITED: any short sibling excused any
 * excess).
 */
static void
test_sender_explains_only_its_share(void)
{
	struct pace_run *run = run_new_n(2, RATE_BPS / 2);
	unsigned int k;
	struct pace_phase ph;

	CHECK(run != NULL, "out of memory");
	if (run == NULL)
		return;
	run_group(run, RATE_BPS);
	for (k = 1; k <= NB_INTERVALS; k++) {
		struct pace_sample *s = run_next(run);

		sent(s, 0, (uint64_t)(0.95 * RATE_BPS / 2 / 8 / 10), s->t_ns,
		     false);
		sent(s, 1, (uint64_t)(1.6 * RATE_BPS / 2 / 8 / 10), s->t_ns,
		     true);
	}
	only_phase_of(run, 0, &ph);
	CHECK(ph.fig.sender_limited && ph.fig.sender_explains_pct > 4.99 &&
	      ph.fig.sender_explains_pct < 5.01,
	      "queue 0: sender_limited %d, explains %.2f%%",
	      ph.fig.sender_limited, ph.fig.sender_explains_pct);
	only_phase_of(run, 1, &ph);
	CHECK(!ph.fig.sender_limited && ph.fig.sender_explains_pct > 4.99 &&
	      ph.fig.sender_explains_pct < 5.01,
	      "queue 1, 60%% above: sender_limited %d, explains %.2f%%",
	      ph.fig.sender_limited, ph.fig.sender_explains_pct);
	check_status(run, 0, "SENDER-LIMITED");
	check_status(run, 1, "OFF");
	run_free(run);
}

/*
 * (g) A queue that sends its rate until 0.75 s, then nothing: over its
 * window (0.1 s to 1 s, after one interval of settling) it is STOPPED,
 * its rate counting the time since its last departure (65 Mbit in
 * 0.9 s), not ok at 100 (the departures' clock stopped with it); and a
 * queue whose device completed a WQE in error reads ERRORS, whatever its
 * rate.
 */
static void
test_stopped_or_errored_queue(void)
{
	struct pace_run *run = run_new();
	struct pace_phase ph;
	unsigned int k;

	CHECK(run != NULL, "out of memory");
	if (run == NULL)
		return;
	run->opt.settle_ns = INTERVAL_NS;
	for (k = 1; k <= NB_INTERVALS; k++) {
		struct pace_sample *s = run_next(run);
		uint64_t until = RTE_MIN(s->t_ns, 750000000ull);

		sent(s, 0, (uint64_t)(RATE_BPS / 8 * (double)(until -
		     RTE_MIN(s[-1].t_ns, until)) / 1e9), until, true);
	}
	only_phase(run, &ph);
	CHECK(ph.fig.stopped && ph.fig.stopped_ns == 250000000 &&
	      ph.fig.achieved > 0.65 / 0.9 * RATE_BPS * (1 - 1e-9) &&
	      ph.fig.achieved < 0.65 / 0.9 * RATE_BPS * (1 + 1e-9),
	      "stopped %d for %llu ns, achieved %.1f", ph.fig.stopped,
	      (unsigned long long)ph.fig.stopped_ns, ph.fig.achieved);
	check_status(run, 0, "STOPPED");
	run_free(run);

	run = run_filled(1.0, 0, 0, 0);
	if (run == NULL)
		return;
	run->samples[6].q[0].errors = 1;
	run->samples[6].q[0].recoveries = 1;
	for (k = 7; k <= NB_INTERVALS; k++) {
		run->samples[k].q[0].errors = 1;
		run->samples[k].q[0].recoveries = 1;
	}
	only_phase(run, &ph);
	CHECK(ph.fig.errors == 1 && ph.fig.recoveries == 1 && ph.fig.within,
	      "errors %llu recoveries %llu within %d",
	      (unsigned long long)ph.fig.errors,
	      (unsigned long long)ph.fig.recoveries, ph.fig.within);
	check_status(run, 0, "ERRORS");
	run_free(run);
}

/*
 * Bits queue @p first (the one served first in each round) or the other
 * of a two-queue round robin has sent by @p t_ns, and its last departure:
 * rounds of @p round_ns, each queue sending at RATE_BPS half of it.
 */
static double
rr_sent(uint64_t t_ns, uint64_t round_ns, bool first, uint64_t *last_ns)
{
	uint64_t k = t_ns / round_ns, r = t_ns % round_ns, half = round_ns / 2;
	uint64_t part = first ? RTE_MIN(r, half) : (r > half ? r - half : 0);

	if (first)
		*last_ns = r < half ? t_ns : k * round_ns + half;
	else
		*last_ns = r >= half ? t_ns : k * round_ns;
	return RATE_BPS * (double)(k * half + part) / 1e9;
}

/*
 * (h) A group that sends steadily at its 100 Mbit/s ceiling, its two
 * queues taking turns in rounds of 540 ms (longer than the interval):
 * over the window (0.1 s to 1 s), each queue's own departures make one
 * look faster than it is, and the sum of the two read 8% above the
 * ceiling. The group's figure over its own departures is its ceiling.
 */
static void
test_group_within_its_ceiling(void)
{
	const uint64_t round_ns = 540000000;
	struct pace_run *run = run_new_n(2, RATE_BPS / 2);
	struct pace_group_phase gph;
	unsigned int k, i;
	char status[32];

	CHECK(run != NULL, "out of memory");
	if (run == NULL)
		return;
	run_group(run, RATE_BPS);
	run->opt.settle_ns = INTERVAL_NS;
	for (k = 1; k <= NB_INTERVALS; k++) {
		struct pace_sample *s = run_next(run);

		for (i = 0; i < 2; i++) {
			uint64_t last, last0;
			double now = rr_sent(s->t_ns, round_ns, i == 0, &last);
			double before = rr_sent(s[-1].t_ns, round_ns, i == 0,
						&last0);

			sent(s, i, (uint64_t)((now - before) / 8), last, true);
		}
	}
	only_group_phase(run, &gph);
	CHECK(gph.fig.achieved < RATE_BPS * 1.0001 &&
	      gph.fig.achieved > RATE_BPS * 0.9999,
	      "group: achieved %.1f bit/s, its ceiling %.1f",
	      gph.fig.achieved, RATE_BPS);
	json_field_in(run, "\"groups\": [", 0, "status", status,
		      sizeof(status));
	CHECK(strcmp(status, "ok") == 0, "group status %s", status);
	run_free(run);
}

int
main(void)
{
	RUN(test_late_interval_left_out);
	RUN(test_off_in_late_window_is_off);
	RUN(test_off_without_lateness_is_off);
	RUN(test_json_reports_time_left_out);
	RUN(test_lag_explains_only_its_share);
	RUN(test_sender_explains_only_its_share);
	RUN(test_stopped_or_errored_queue);
	RUN(test_group_within_its_ceiling);
	return test_report();
}
