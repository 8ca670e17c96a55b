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
	bool cqe_ok;                /**< Completion evidence read. */
	struct pace_hw_cqe cqe;     /**< Real mlx5-tm NIC (pace_hw.h). */
	uint64_t q_pkts;
	uint64_t q_bytes;
	struct pace_tx_counters tx;
	uint32_t profile_id;
	struct pace_shaper shaper;  /**< In force at this instant. */
};

/** One sample of every planned queue. */
struct pace_sample {
	uint64_t t_ns;              /**< Since the start of traffic. */
	uint64_t lag;               /**< Device-model late passes so far. */
	uint64_t max_lag_ns;        /**< Largest lateness so far. */
	bool vport_ok;              /**< vport counters read (real NIC). */
	uint64_t vport_pkts;        /**< vport Tx frames. */
	uint64_t vport_octets;      /**< vport Tx octets. */
	struct pace_qsample q[PACE_MAX_QUEUES]; /**< By plan index. */
};

/** A rate change as it was applied. */
struct pace_applied_change {
	uint64_t t_ns;              /**< When it was applied. */
	uint64_t at_ns;             /**< When it was planned (--at). */
	unsigned int plan_idx;
	struct pace_shaper from;
	struct pace_shaper to;
	int ret;                    /**< 0 or the refusal's -errno. */
};

/** Figures of one queue over one constant-shaper phase. */
struct pace_phase {
	uint64_t planned_ns;        /**< Planned start: settle counts from it. */
	uint64_t start_ns;
	uint64_t end_ns;
	struct pace_shaper shaper;
	uint32_t profile_id;
	int32_t pp_index;           /**< Device pacing entry, -1 unknown. */
	bool measured;              /**< Long enough to average. */
	double achieved;            /**< bit/s, or pkt/s for packet mode. */
	double error_pct;
	uint64_t pkts;
	double ring_full_pct;       /**< Bursts that met a full ring. */
	bool within;
	bool sender_limited;
	bool device_lag;
	uint64_t mtu_drops;         /**< Frames the port dropped (MTU). */
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
	bool have_lag;              /**< Emulated device in real time. */
	char lag_name[64];
	struct pace_shaper current[PACE_MAX_QUEUES]; /**< By plan index. */
	struct pace_sample *samples;
	unsigned int nb_samples;
	unsigned int max_samples;
	struct pace_applied_change changes[PACE_MAX_CHANGES];
	unsigned int nb_changes;
	uint64_t run_ns;            /**< Actual length of the run. */
	bool interrupted;
};

#endif /* PACE_RUN_H */
