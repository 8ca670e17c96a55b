/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Unit tests of dpdk-tm-pace's meter (app/tm-pace/pace_meter.c) and its
 * JSON report, fed with synthetic samples: the rules for a device model
 * that fell behind real time (make demo's clock=realtime), which a run
 * cannot reproduce at will. No EAL, no device.
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

/* One queue of 1500-byte frames at 100 Mbit/s, a sample every 100 ms. */
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

/* A run of one byte-mode queue with no sample yet but the first. */
static struct pace_run *
run_new(void)
{
	struct pace_run *run = calloc(1, sizeof(*run));
	struct pace_queue_plan *qp;

	if (run == NULL)
		return NULL;
	run->samples = calloc(NB_INTERVALS + 1, sizeof(*run->samples));
	if (run->samples == NULL) {
		free(run);
		return NULL;
	}
	run->max_samples = NB_INTERVALS + 1;
	run->opt.nb_queues = 1;
	qp = &run->opt.queues[0];
	qp->shaper.rate = (uint64_t)RATE_BPS;
	qp->place.group = PACE_GROUP_ROOT;
	qp->place.weight = 1;
	qp->size_min = FRAME_BYTES;
	qp->size_max = FRAME_BYTES;
	run->opt.nb_txd = RING_FRAMES;
	run->opt.tolerance_pct = TOLERANCE_PCT;
	run->opt.interval_ns = INTERVAL_NS;
	run->opt.duration_ns = NB_INTERVALS * INTERVAL_NS;
	run->initial.shaper[0] = qp->shaper;
	run->initial.weight[0] = 1;
	run->initial.group[0] = PACE_GROUP_ROOT;
	run->initial.expected[0] = RATE_BPS;
	/* An emulated device in real time: wire counters, lag figures. */
	run->emu.present = true;
	run->have_wire[0] = true;
	run->have_lag = true;
	run->shaped = true;
	run->samples[0].q[0].shaper = qp->shaper;
	run->samples[0].q[0].expected = RATE_BPS;
	run->nb_samples = 1;
	return run;
}

static void
run_free(struct pace_run *run)
{
	if (run == NULL)
		return;
	free(run->samples);
	free(run);
}

/*
 * The next interval: the wire saw @p share of the expected rate, and
 * the device model's latest pass in it was @p late_ns late (0: none was
 * late). The sender met a full ring at every burst: the pacing, not the
 * sender, set the rate.
 */
static void
run_interval(struct pace_run *run, double share, uint64_t late_ns)
{
	const struct pace_sample *prev = &run->samples[run->nb_samples - 1];
	struct pace_sample *s = &run->samples[run->nb_samples];
	uint64_t bytes = (uint64_t)(share * RATE_BPS / 8 * INTERVAL_NS / 1e9);

	*s = *prev;
	s->t_ns = prev->t_ns + INTERVAL_NS;
	s->q[0].wire_bytes += bytes;
	s->q[0].wire_pkts += bytes / FRAME_BYTES;
	s->q[0].tx.pkts = s->q[0].wire_pkts;
	s->q[0].tx.bytes = s->q[0].wire_bytes;
	s->q[0].tx.bursts += 100;
	s->q[0].tx.bursts_short += 100;
	s->interval_lag_ns = late_ns;
	if (late_ns > 0)
		s->lag++;
	s->max_lag_ns = RTE_MAX(prev->max_lag_ns, late_ns);
	run->nb_samples++;
	run->run_ns = s->t_ns;
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

/* The only phase of the run's queue, checked to be the only one. */
static void
only_phase(const struct pace_run *run, struct pace_phase *ph)
{
	struct pace_phase phases[PACE_MAX_PHASES];
	unsigned int n = pace_meter_phases(run, 0, phases, PACE_MAX_PHASES);

	CHECK_EQ(n, 1);
	*ph = phases[0];
	CHECK(ph->measured, "the phase was not measured");
}

/*
 * Field @p key of the first phase of the JSON report of @p run, as
 * written (a string without its quotes), into @p val; "" when missing.
 */
static void
json_phase_field(const struct pace_run *run, const char *key, char *val,
		 size_t len)
{
	char path[] = "/tmp/test_pace_meter.XXXXXX";
	char json[1 << 16], pattern[64];
	const char *phase, *at;
	size_t n = 0, k = 0;
	FILE *f;
	int fd;

	val[0] = '\0';
	json[0] = '\0';
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp failed");
	if (fd < 0)
		return;
	close(fd);
	CHECK_EQ(pace_report_json(run, path), 0);
	f = fopen(path, "r");
	if (f != NULL) {
		n = fread(json, 1, sizeof(json) - 1, f);
		fclose(f);
	}
	unlink(path);
	json[n] = '\0';
	phase = strstr(json, "\"phases\": [");
	CHECK(phase != NULL, "no phases in the JSON report");
	if (phase == NULL)
		return;
	snprintf(pattern, sizeof(pattern), "\"%s\": ", key);
	at = strstr(phase, pattern);
	CHECK(at != NULL, "no %s in the first phase", key);
	if (at == NULL)
		return;
	at += strlen(pattern);
	if (*at == '"')
		at++;
	while (k + 1 < len && at[k] != '\0' && strchr("\",}", at[k]) == NULL) {
		val[k] = at[k];
		k++;
	}
	val[k] = '\0';
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
	char status[32];

	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(ph.achieved > RATE_BPS * (1 - 1e-9) &&
	      ph.achieved < RATE_BPS * (1 + 1e-9),
	      "achieved %.1f bit/s, want the kept intervals' %.1f",
	      ph.achieved, RATE_BPS);
	CHECK(ph.within && !ph.device_lag, "within %d device_lag %d",
	      ph.within, ph.device_lag);
	CHECK_EQ(ph.lag_left_out_ns, 2 * INTERVAL_NS);
	json_phase_field(run, "status", status, sizeof(status));
	CHECK(strcmp(status, "ok") == 0, "status %s, want ok", status);
	run_free(run);
}

/*
 * (b) Every interval 5% short, the fourth with a pass 100 ms late (left
 * out): the average of the kept intervals is outside the 2% tolerance, in
 * a window where the model was late: the row is DEVICE-LAG, not OFF.
 */
static void
test_off_in_late_window_is_device_lag(void)
{
	struct pace_run *run = run_filled(0.95, 1u << 4, 0.5, LATE_NS);
	struct pace_phase ph;
	char status[32];

	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(!ph.within && ph.device_lag, "within %d device_lag %d",
	      ph.within, ph.device_lag);
	CHECK(ph.achieved < RATE_BPS * 0.96,
	      "achieved %.1f bit/s: the kept intervals are 5%% short",
	      ph.achieved);
	CHECK_EQ(ph.lag_left_out_ns, INTERVAL_NS);
	json_phase_field(run, "status", status, sizeof(status));
	CHECK(strcmp(status, "DEVICE-LAG") == 0, "status %s, want DEVICE-LAG",
	      status);
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
	char status[32];

	if (run == NULL)
		return;
	only_phase(run, &ph);
	CHECK(!ph.within && !ph.device_lag, "within %d device_lag %d",
	      ph.within, ph.device_lag);
	CHECK_EQ(ph.lag_left_out_ns, 0);
	json_phase_field(run, "status", status, sizeof(status));
	CHECK(strcmp(status, "OFF") == 0, "status %s, want OFF", status);
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

int
main(void)
{
	RUN(test_late_interval_left_out);
	RUN(test_off_in_late_window_is_device_lag);
	RUN(test_off_without_lateness_is_off);
	RUN(test_json_reports_time_left_out);
	return test_report();
}
