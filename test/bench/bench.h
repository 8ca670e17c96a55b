/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_BENCH_H
#define MLX5_TM_BENCH_H

/**
 * @file
 * mlx5-tm-bench: what the parts of the benchmark program share.
 *
 * The program measures, in one run, the transmit datapath of the mlx5-tm
 * PMD on the device model beside DPDK's net_null and net_ring, the cost of
 * the rte_tm control path as the number of leaves grows, and the control
 * state the PMD keeps per queue and per pacing entry.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_json.h"

/** Options of one run. */
struct bench_opts {
	uint32_t packets;        /**< Packets per datapath case and round. */
	uint32_t rounds;         /**< Rounds per datapath case (median kept). */
	uint32_t reps;           /**< Repetitions of each commit case. */
	uint32_t updates;        /**< Live changes measured per case. */
	uint32_t max_leaves;     /**< Largest leaf count of the commit cases. */
	bool callgrind;          /**< Toggle callgrind collection per burst. */
	bool smoke;              /**< Tiny counts: check that it runs. */
	bool fast_free;          /**< Ask for RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE. */
	bool run_datapath;       /**< Run the datapath part. */
	bool run_control;        /**< Run the control-path part. */
	bool run_commits;        /**< Its commits (else its updates alone). */
	bool run_memory;         /**< Run the memory part. */
	bool run_model;          /**< Run the device-model part. */
	const char *shapes;      /**< --shapes: datapath shapes, NULL all. */
	const char *bursts;      /**< --bursts: datapath bursts, NULL all. */
	const char *profile;     /**< Device-model profile (emu=). */
	const char *json_path;   /**< --json FILE, NULL for none. */
};

/** A transmit PMD under test. */
enum bench_pmd {
	BENCH_PMD_MLX5_TM = 0, /**< Ours, on the device model. */
	BENCH_PMD_NULL,        /**< net_null: frees the mbufs (the floor). */
	BENCH_PMD_RING,        /**< net_ring: enqueues to an rte_ring. */
	/**
	 * Upstream net/mlx5's Tx burst (compiled at build time from the
	 * Debian DPDK source package) on the same device model.
	 */
	BENCH_PMD_UPSTREAM,
	BENCH_PMD_COUNT,
};

/** Name of @p pmd in tables and JSON. */
const char *bench_pmd_name(enum bench_pmd pmd);

/** Nanoseconds from the monotonic clock. */
uint64_t bench_now_ns(void);

/** Nanoseconds of CPU time used by the calling thread. */
uint64_t bench_thread_cpu_ns(void);

/** Whether the mlx5-tm PMD is linked into this program. */
bool bench_have_mlx5_tm(void);

/** Whether upstream net/mlx5's Tx burst is compiled into this program. */
bool bench_have_upstream(void);

/**
 * Create the upstream port (test/upstream/upstream_port.h) on a device
 * model of profile @p profile: the burst variant upstream's selector
 * picks for the benchmark's offloads (MULTI_SEGS) on an eMPW-capable
 * device with no required inline header, "mt_empw".
 *
 * @return
 *   0 or a negative errno (-ENOTSUP: not compiled in).
 */
int bench_upstream_create(const char *profile, uint16_t *port_id);

/** Run the upstream port's device model until every WQE has left. */
void bench_upstream_drain(uint16_t port_id);

/** Packets on the upstream port's wire and error CQEs, as _mlx5_tm_wire. */
int bench_upstream_wire(uint16_t port_id, uint64_t *packets,
			uint64_t *error_cqes);

/** Stop and close the upstream port. */
void bench_upstream_destroy(uint16_t port_id);

/** Upstream's burst variant in the benchmark ("mt_empw"). */
const char *bench_upstream_variant(void);

/**
 * Create an mlx5-tm port on the device model in virtual-clock mode.
 *
 * @param tag
 *   Makes the vdev name unique (net_mlx5_tm_<tag>).
 * @param extra
 *   More devargs (may be NULL or "").
 * @param[out] port_id
 *   The new port.
 * @return
 *   0 or a negative errno.
 */
int bench_mlx5_tm_create(const char *tag, const char *extra,
			 uint16_t *port_id);

/**
 * Create an mlx5-tm port (bench_mlx5_tm_create) and configure it with no
 * Rx queue and @p nb_txq Tx queues of @p nb_desc descriptors, set up but
 * not started.
 */
int bench_mlx5_tm_port(const char *tag, uint16_t nb_txq, uint16_t nb_desc,
		       uint16_t *port_id);

/** Choose the device-model profile of the ports created from now on. */
void bench_mlx5_tm_set_profile(const char *profile);

/** Usable rate-table entries of the current profile (size - 1), 0 if unknown. */
uint32_t bench_mlx5_tm_table_size(void);

/**
 * Stop (under valgrind, in the EAL interrupt thread), close and remove a
 * port made by bench_mlx5_tm_create().
 */
void bench_mlx5_tm_destroy(uint16_t port_id);

/**
 * Let the device model run until every posted WQE has left and its CQE is
 * written (virtual clock). Not timed by the callers.
 */
void bench_mlx5_tm_drain(uint16_t port_id);

/**
 * Packets that left on the wire of a port's device model and error CQEs
 * written, since the device was opened.
 *
 * @return
 *   0 or a negative errno.
 */
int bench_mlx5_tm_wire(uint16_t port_id, uint64_t *packets,
		       uint64_t *error_cqes);

/**
 * Device command statistics of a port's device model.
 *
 * @return
 *   true with @p count and @p ns filled (cumulative since the device was
 *   opened); false when the model does not report them.
 */
bool bench_mlx5_tm_cmd_stats(uint16_t port_id, uint64_t *count,
			     uint64_t *ns);

/** Run the datapath cases; add "datapath" to @p js. */
int bench_datapath_run(const struct bench_opts *o, struct bench_json *js);

/** Run the control-path cases; add "control" to @p js. */
int bench_control_run(const struct bench_opts *o, struct bench_json *js);

/** Run the memory measurements; add "memory" to @p js. */
int bench_memory_run(const struct bench_opts *o, struct bench_json *js);

/** Measure the device model's cost per frame; add "model" to @p js. */
int bench_model_run(const struct bench_opts *o, struct bench_json *js);

#endif /* MLX5_TM_BENCH_H */
