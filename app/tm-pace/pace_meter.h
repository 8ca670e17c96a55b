/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_METER_H
#define PACE_METER_H

/**
 * @file
 * Measuring achieved rates: samples of the port's counters (device wire
 * xstats, per-queue Tx stats) and of the sender's, and the figures of
 * every constant-shaper phase computed from them.
 */

#include "pace_run.h"

/**
 * A row (a queue, a group) that sent nothing at the end of its window for
 * longer than PACE_STOP_FRAMES of its frames take at its expected rate,
 * PACE_STOP_MIN_NS, and half the tolerance of the window, has stopped
 * (emulated device's wire).
 */
#define PACE_STOP_FRAMES 8
#define PACE_STOP_MIN_NS 2000000ull

/** Look up the xstats the port offers (wire counters, lag). */
void pace_meter_init(struct pace_run *run);

/** Take one sample at @p t_ns (run time); returns it, NULL when full. */
const struct pace_sample *pace_meter_sample(struct pace_run *run,
					    uint64_t t_ns);

/** Best source of achieved figures for plan queue @p idx. */
enum pace_source pace_meter_source(const struct pace_run *run,
				   unsigned int idx);

/** Name of a source, as printed and written to JSON. */
const char *pace_source_name(enum pace_source src);

/**
 * Achieved rate of plan queue @p idx between two samples: bit/s, or
 * packets/s for a packet-mode shaper; negative when not measurable.
 */
double pace_meter_rate(const struct pace_run *run, unsigned int idx,
		       const struct pace_sample *a,
		       const struct pace_sample *b);

/**
 * Measure plan queue @p idx from sample @p a to sample @p b (one live
 * interval) into @p f, against its expected rate at @p b.
 */
void pace_meter_interval(const struct pace_run *run, unsigned int idx,
			 const struct pace_sample *a,
			 const struct pace_sample *b, struct pace_figure *f);

/**
 * Packets of plan queue @p idx at sample @p s, from the queue's source
 * (what the device says it sent or completed, where it can say).
 */
uint64_t pace_meter_packets(const struct pace_run *run, unsigned int idx,
			    const struct pace_sample *s);

/** Share of bursts that met a full Tx ring between two samples, %. */
double pace_meter_ring_full_pct(unsigned int idx, const struct pace_sample *a,
				const struct pace_sample *b);

/**
 * Split plan queue @p idx's run into phases of constant shaper and
 * measure each (the settle time after each start is left out).
 *
 * @return number of phases written to @p ph.
 */
unsigned int pace_meter_phases(const struct pace_run *run, unsigned int idx,
			       struct pace_phase *ph, unsigned int max);

/** Figures of a group (or the root) over one constant phase. */
struct pace_group_phase {
	uint64_t planned_ns;
	uint64_t start_ns;
	uint64_t end_ns;
	struct pace_state state;   /**< Settings in force. */
	/**
	 * Expected: the sum of its queues'; achieved: their bytes over the
	 * group's own departures (the latest of its queues').
	 */
	struct pace_figure fig;
};

/**
 * Split the run of group @p g (-1: the root, every queue) into phases in
 * which its settings, its queues and their expected rates stay the same,
 * and measure each: the sum of its queues' rates over the same samples.
 *
 * @return number of phases written to @p ph.
 */
unsigned int pace_meter_group_phases(const struct pace_run *run, int g,
				     struct pace_group_phase *ph,
				     unsigned int max);

#endif /* PACE_METER_H */
