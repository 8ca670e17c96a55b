/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_RUN_H
#define PACE_RUN_H

/**
 * @file
 * One run of dpdk-tm-pace: plan, port, hierarchy, traffic and the samples
 * taken while it ran, shared by the measuring and reporting code.
 */

#include <stdbool.h>
#include <stdint.h>

#include "pace_emu.h"
#include "pace_hw.h"
#include "pace_plan.h"
#include "pace_tm.h"
#include "pace_traffic.h"

/** Where a queue's achieved rate comes from, best first. */
enum pace_source {
	PACE_SRC_WIRE = 0,  /**< Device wire counters (emulated device). */
	PACE_SRC_QSTATS,    /**< ethdev per-queue Tx statistics. */
	PACE_SRC_SENDER,    /**< Packets tx_burst accepted, counted here. */
	/** A real mlx5-tm NIC: bytes completed between CQE time stamps. */
	PACE_SRC_CQE,
	/** A real mlx5-tm NIC whose evidence cannot be read: no figure. */
	PACE_SRC_NONE,
};

/** Counters of one queue at one instant. */
struct pace_qsample {
	uint64_t wire_pkts;
	uint64_t wire_bytes;
	uint64_t wire_last_ns;      /**< Last departure, device time; 0 unknown. */
	int32_t pp_index;           /**< Device pacing entry, -1 unknown. */
	uint64_t wire_mtu_drops;    /**< Frames dropped at the port (MTU). */
	uint64_t errors;            /**< Error and flush completions. */
	uint64_t recoveries;        /**< Times the driver reset its SQ. */
	bool cqe_ok;                /**< Completion evidence read. */
	struct pace_hw_cqe cqe;     /**< Real mlx5-tm NIC (pace_hw.h). */
	uint64_t q_pkts;
	uint64_t q_bytes;
	struct pace_tx_counters tx;
	uint32_t profile_id;
	struct pace_shaper shaper;  /**< In force at this instant. */
	double expected;            /**< Expected rate at this instant. */
};

/** One sample of every planned queue. */
struct pace_sample {
	uint64_t t_ns;              /**< Since the start of traffic. */
	/** Device time when taken (departures' clock), 0 unknown. */
	uint64_t device_ns;
	uint64_t lag;               /**< Device-model late passes so far. */
	uint64_t max_lag_ns;        /**< Largest lateness so far. */
	uint64_t interval_lag_ns;   /**< Largest lateness since the last. */
	bool vport_ok;              /**< vport counters read (real NIC). */
	uint64_t vport_pkts;        /**< vport Tx frames. */
	uint64_t vport_octets;      /**< vport Tx octets. */
	struct pace_qsample q[PACE_MAX_QUEUES]; /**< By plan index. */
};

/**
 * What every planned queue and group is set to at one time, and what it
 * should then achieve with every queue backlogged.
 */
struct pace_state {
	struct pace_shaper shaper[PACE_MAX_QUEUES];   /**< By plan index. */
	uint32_t weight[PACE_MAX_QUEUES];
	int group[PACE_MAX_QUEUES];                   /**< Or PACE_GROUP_ROOT. */
	struct pace_shaper gshaper[PACE_MAX_GROUPS];
	uint32_t gweight[PACE_MAX_GROUPS];
	/** Queue: bit/s, or pkt/s for a packet-mode shaper. */
	double expected[PACE_MAX_QUEUES];
	double gexpected[PACE_MAX_GROUPS];            /**< bit/s. */
};

/** A change as it was applied. */
struct pace_applied_change {
	uint64_t t_ns;              /**< When it was applied. */
	uint64_t at_ns;             /**< When it was planned (--at). */
	const struct pace_change *ch;
	int plan_idx;               /**< Queue changed, -1 for a group. */
	char call[64];              /**< rte_tm calls made. */
	int ret;                    /**< 0 or the refusal's -errno. */
	/** Why it was refused: the call, the error and the driver's word. */
	char reason[sizeof(((struct pace_tm_failure *)0)->call) +
		    sizeof(((struct pace_tm_failure *)0)->message) + 96];
	struct pace_state before;
	struct pace_state after;    /**< Equal to before when refused. */
};

/**
 * What a row (a queue's or a group's phase) measured over its window, and
 * what explains an error: the same fields and rules for every row.
 */
struct pace_figure {
	double expected;            /**< What the configuration gives. */
	bool measured;              /**< Long enough to average. */
	double achieved;            /**< bit/s, or pkt/s for packet mode. */
	double error_pct;           /**< NAN when nothing is expected. */
	bool within;                /**< Within tolerance, or idle. */
	bool idle;                  /**< Nothing expected, nothing sent. */
	/** No departure for stopped_ns at the end of the window. */
	bool stopped;
	uint64_t stopped_ns;
	uint64_t errors;            /**< Error and flush completions. */
	uint64_t recoveries;        /**< SQ resets after an error. */
	uint64_t mtu_drops;         /**< Frames the port dropped (MTU). */
	/** Error explained by the device model's lateness, and up to what. */
	bool device_lag;
	double lag_explains_pct;
	uint64_t lag_left_out_ns;   /**< Time left out: the model was late. */
	/** Error explained by senders that fell short, and up to what. */
	bool sender_limited;
	double sender_explains_pct;
};

/** Figures of one queue over one constant-shaper phase. */
struct pace_phase {
	uint64_t planned_ns;        /**< Planned start: settle counts from it. */
	uint64_t start_ns;
	uint64_t end_ns;
	struct pace_shaper shaper;
	uint32_t profile_id;
	int32_t pp_index;           /**< Device pacing entry, -1 unknown. */
	uint32_t weight;
	uint64_t pkts;
	double ring_full_pct;       /**< Bursts that met a full ring. */
	struct pace_figure fig;
};

#define PACE_MAX_PHASES (PACE_MAX_CHANGES + 1)

/** The run. */
struct pace_run {
	struct pace_options opt;
	uint16_t port_id;
	uint16_t nb_txq;
	char driver[64];
	char port_name[64];
	struct pace_emu emu;
	struct pace_hw hw;          /**< Real mlx5-tm NIC: its evidence. */
	struct pace_tm tm;
	int tm_ret;                 /**< 0, or the hierarchy's refusal. */
	bool shaped;                /**< Hierarchy committed. */
	struct pace_txq *txq;       /**< By plan index. */
	/* Measuring. */
	bool have_wire[PACE_MAX_QUEUES];
	bool wire_from_model;       /**< Departure times known. */
	uint64_t xid_wire_pkts[PACE_MAX_QUEUES];
	uint64_t xid_wire_bytes[PACE_MAX_QUEUES];
	/** The port counts each queue's error completions and resets. */
	bool have_errors[PACE_MAX_QUEUES];
	uint64_t xid_error_cqes[PACE_MAX_QUEUES];
	uint64_t xid_flush_cqes[PACE_MAX_QUEUES];
	uint64_t xid_recoveries[PACE_MAX_QUEUES];
	bool have_lag;              /**< Emulated device in real time. */
	char lag_name[64];
	uint64_t line_bps;          /**< Port link speed, 0 unknown. */
	/**
	 * By plan index: the ceiling (L2 bit/s) of the queue group of a
	 * shaped queue whose SQ holds no pacing index (a device that
	 * refuses one inside a group, doc/guides/nics/mlx5_tm.rst), which
	 * alone holds it; 0 otherwise.
	 */
	double backstop_bps[PACE_MAX_QUEUES];
	struct pace_state initial;  /**< As committed. */
	struct pace_state now;      /**< With the changes applied so far. */
	struct pace_sample *samples;
	unsigned int nb_samples;
	unsigned int max_samples;
	struct pace_applied_change changes[PACE_MAX_CHANGES];
	unsigned int nb_changes;
	uint64_t run_ns;            /**< Actual length of the run. */
	bool interrupted;
};

/**
 * Fill the expected rates of @p st from its settings, on the tree laid
 * out in run->tm (pace_tm_layout(); none without it): with every planned
 * queue backlogged, each child gets min(its own limit, its weighted
 * max-min share of what its parent gets), shares in proportion to the
 * targets (committed rate plus a weighted part of what the committed
 * rates leave of the smallest ceiling on the path from the root, or the
 * line rate: the rule mlx5-tm programs as bw_share), in L2 bytes; a tree
 * with no scheduling element (no non-leaf shaper, every weight 1, no
 * committed rate, or a port without weighted scheduling) shares the line
 * packet-fair. The line carries max(len, 60) + 24 bytes of line time per
 * frame (run->line_bps, 0 unknown); group ceilings count in whole Mbit/s,
 * rounded down, as the device holds them; a shaped queue whose SQ holds
 * no pacing index inside a queue group (run->backstop_bps) is held by
 * that group's ceiling instead, its peak rounded up to whole Mbit/s.
 */
void pace_expect(const struct pace_run *run, struct pace_state *st);

#endif /* PACE_RUN_H */
