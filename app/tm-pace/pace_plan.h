/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_PLAN_H
#define PACE_PLAN_H

/**
 * @file
 * The rate plan and the options of dpdk-tm-pace, parsed from the
 * application arguments (after EAL's "--") and from plan files.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PACE_MAX_QUEUES 64
#define PACE_MAX_CHANGES 64
#define PACE_MIN_PKT_SIZE 60
#define PACE_MAX_PKT_SIZE 9000

/** One shaper as the user wrote it. */
struct pace_shaper {
	bool packet_mode; /**< Rate in packets/s (pps=) instead of bits/s. */
	uint64_t rate;    /**< bits/s (peak=) or packets/s (pps=). */
	uint64_t burst;   /**< Bucket size: bytes, or packets; 0 = default. */
};

/** The plan of one Tx queue. */
struct pace_queue_plan {
	uint16_t queue;
	struct pace_shaper shaper;
	uint16_t size_min; /**< Frame size without FCS, bytes. */
	uint16_t size_max; /**< Equal to size_min for a fixed size. */
};

/** A rate change applied while traffic runs (--at). */
struct pace_change {
	uint64_t at_ns;
	uint16_t queue;
	struct pace_shaper shaper;
};

/** Everything the command line says. */
struct pace_options {
	struct pace_queue_plan queues[PACE_MAX_QUEUES];
	unsigned int nb_queues;
	struct pace_change changes[PACE_MAX_CHANGES];
	unsigned int nb_changes;
	uint16_t port_id;
	bool port_given;
	uint64_t duration_ns;
	uint64_t interval_ns;
	uint64_t settle_ns;     /**< Excluded from a phase's average. */
	uint16_t size_min;      /**< --pkt-size, default for every queue. */
	uint16_t size_max;
	bool share;             /**< Same shaper, same profile. */
	unsigned int levels;    /**< 2: root + leaves; 3: + a middle node. */
	double tolerance_pct;
	uint16_t nb_txd;
	uint16_t tx_burst;
	bool keep_going;        /**< Send unshaped if rte_tm refuses. */
	bool from_device;       /**< Emulated: measure as on a real NIC. */
	bool quiet;             /**< No live display. */
	const char *json_path;
	const char *plot_path;
};

/**
 * Parse the application arguments into @p opt (defaults first).
 *
 * @return
 *   0 to run, 1 when --help was printed, -EINVAL on a bad argument (a
 *   message naming it was printed on stderr).
 */
int pace_options_parse(struct pace_options *opt, int argc, char **argv);

/** Print the usage text on @p out. */
void pace_usage(FILE *out, const char *prog);

/** Parse "1.5G", "200M", "10000": bits/s or packets/s, SI multipliers. */
int pace_parse_rate(const char *s, uint64_t *out);

/** Parse "64K", "1M", "1500": bytes, binary multipliers. */
int pace_parse_size(const char *s, uint64_t *out);

/** Parse "10s", "500ms", "250us", "1m", "2.5" (seconds) into ns. */
int pace_parse_duration(const char *s, uint64_t *out_ns);

/** Format @p v with an SI suffix ("1.50G") into @p buf. */
const char *pace_fmt_si(char *buf, size_t len, double v);

/** The plan of @p queue, NULL when the queue is not in the plan. */
const struct pace_queue_plan *
pace_plan_find(const struct pace_options *opt, uint16_t queue);

#endif /* PACE_PLAN_H */
