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

#include "queue_spec.h"

#define PACE_MAX_QUEUES 64
#define PACE_MAX_CHANGES 64
#define PACE_MAX_GROUPS 16
#define PACE_GROUP_NAME_LEN QSPEC_NAME_LEN
/** Group index of a queue or group directly under the root. */
#define PACE_GROUP_ROOT (-1)
#define PACE_MIN_PKT_SIZE 60
#define PACE_MAX_PKT_SIZE 9000

/** One shaper as the user wrote it. */
struct pace_shaper {
	bool packet_mode; /**< Rate in packets/s (pps=) instead of bits/s. */
	uint64_t rate;    /**< bits/s (peak=) or packets/s (pps=). */
	uint64_t burst;   /**< Bucket size: bytes, or packets; 0 = default. */
	uint64_t committed; /**< Committed rate, bits/s; 0 = none. */
};

/** Where a node sits: its group and its weight among its siblings. */
struct pace_place {
	char group_name[PACE_GROUP_NAME_LEN]; /**< As written; "" = root. */
	int group;          /**< Group index, or PACE_GROUP_ROOT. */
	uint32_t weight;    /**< >= 1; 1 when not given. */
};

/** The plan of one Tx queue (a leaf). */
struct pace_queue_plan {
	uint16_t queue;
	struct pace_shaper shaper; /**< rate 0: no shaper of its own. */
	struct pace_place place;
	uint16_t size_min; /**< Frame size without FCS, bytes. */
	uint16_t size_max; /**< Equal to size_min for a fixed size. */
};

/** A group (--group): a non-leaf node that queues and groups share. */
struct pace_group_plan {
	char name[PACE_GROUP_NAME_LEN];
	struct pace_shaper shaper; /**< Ceiling (peak), bits/s; 0 = none. */
	struct pace_place place;   /**< place.group: the parent group. */
	unsigned int depth;        /**< 1 under the root, 2 below that... */
};

/** What a change (--at) sets; the rest stays as it was. */
enum pace_change_what {
	PACE_SET_SHAPER = 1 << 0, /**< New shaper (peak=, pps=, burst=, cir=). */
	PACE_SET_WEIGHT = 1 << 1, /**< New weight among the same siblings. */
	PACE_SET_GROUP = 1 << 2,  /**< New parent group (queues only). */
};

/** A change applied while traffic runs (--at): to a queue or a group. */
struct pace_change {
	uint64_t at_ns;
	bool is_group;
	uint16_t queue;            /**< When !is_group. */
	int group;                 /**< Group index when is_group. */
	unsigned int what;         /**< enum pace_change_what bits. */
	struct pace_shaper shaper; /**< With PACE_SET_SHAPER. */
	uint32_t weight;           /**< With PACE_SET_WEIGHT. */
	char group_name[PACE_GROUP_NAME_LEN];     /**< When is_group. */
	char new_group_name[PACE_GROUP_NAME_LEN]; /**< With PACE_SET_GROUP. */
	int new_group;             /**< With PACE_SET_GROUP. */
};

/** Everything the command line says. */
struct pace_options {
	struct pace_queue_plan queues[PACE_MAX_QUEUES];
	unsigned int nb_queues;
	struct pace_group_plan groups[PACE_MAX_GROUPS];
	unsigned int nb_groups;
	unsigned int group_depth;  /**< Deepest group, 0 without groups. */
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
	/**
	 * Levels of the hierarchy: without groups 2 (root + leaves) or 3
	 * (+ a pass-through node); with groups, the deepest group + 2.
	 */
	unsigned int levels;
	/**
	 * Allowed error, percent; 0 until the port is known when not given
	 * (pace_default_tolerance()).
	 */
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
 * Default --tolerance in virtual device time: the 1% mlx5-tm promises
 * between the rule and the device (doc/guides/rte_tm.rst), which the
 * emulated device's exact departures measure.
 */
#define PACE_TOLERANCE_VIRTUAL_PCT 1.0
/**
 * Default --tolerance in real time: a real NIC's own pacing accuracy, the
 * real-time model's and the senders' jitter come on top of the promise.
 */
#define PACE_TOLERANCE_REAL_PCT 5.0

/** The default --tolerance for a run in virtual time or not. */
static inline double
pace_default_tolerance(bool virtual_clock)
{
	return virtual_clock ? PACE_TOLERANCE_VIRTUAL_PCT :
	       PACE_TOLERANCE_REAL_PCT;
}

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

/**
 * A rate in bits/s as rte_tm takes it, in bytes/s: rounded down, so that
 * a shaper never allows more than the plan asked.
 */
static inline uint64_t
pace_bytes_per_s(uint64_t bits_per_s)
{
	return bits_per_s / 8;
}

/** Parse "10s", "500ms", "250us", "1m", "2.5" (seconds) into ns. */
int pace_parse_duration(const char *s, uint64_t *out_ns);

/** Format @p v with an SI suffix ("1.50G") into @p buf. */
const char *pace_fmt_si(char *buf, size_t len, double v);

/** Index of the group called @p name, or -1. */
int pace_plan_group(const struct pace_options *opt, const char *name);

/** The plan of @p queue, NULL when the queue is not in the plan. */
const struct pace_queue_plan *
pace_plan_find(const struct pace_options *opt, uint16_t queue);

#endif /* PACE_PLAN_H */
