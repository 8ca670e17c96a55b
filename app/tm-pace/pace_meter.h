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
	double expected;           /**< bit/s: sum of its queues'. */
	bool measured;
	double achieved;           /**< bit/s: sum of its queues'. */
	double error_pct;
	bool within;
	bool sender_limited;       /**< Short: a queue's sender was. */
	bool device_lag;
	uint64_t lag_left_out_ns;  /**< Time left out: the model was late. */
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
