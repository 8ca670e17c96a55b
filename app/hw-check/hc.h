/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef HC_H
#define HC_H

/**
 * @file
 * dpdk-mlx5-tm-check: the hardware self-check of the net_mlx5_tm PMD.
 * One run is a list of steps; each gets a verdict (pass, fail, skip with
 * a reason) and the evidence it was judged on, printed as text and
 * written as JSON (doc/guides/hw_check.rst).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hc_judge.h"
#include "report_file.h"
#include "rte_pmd_mlx5_tm.h"

struct mlx5_emu;
struct rte_mempool;

/** Verdict of one step. */
enum hc_verdict {
	HC_PASS,
	HC_FAIL,
	HC_SKIP,
};

/** One step of the check, as reported. */
struct hc_step {
	char name[48];           /**< Dotted id, e.g. "pacing.1G.1500". */
	char title[96];          /**< What the step proves, one line. */
	enum hc_verdict verdict;
	char reason[256];        /**< Why it failed or was skipped. */
	char *text;              /**< Evidence lines, "\n"-separated. */
	size_t text_len;
	char *json;              /**< Evidence as JSON members ("k": v, ...). */
	size_t json_len;
};

/** Options of the run. */
struct hc_options {
	const char *json_path;   /**< --json FILE, NULL for none. */
	double tolerance_pct;    /**< --tolerance: pacing error allowed. */
	uint32_t window_ms;      /**< --window-ms: real-time measurement. */
	bool quick;              /**< --quick: fewer pacing points. */
};

/** The whole run: the device under test and the steps so far. */
struct hc {
	struct hc_options opt;
	/** --json: opened before the steps, renamed into place at the end. */
	struct report_file json_out;
	/* The vdev the user gave, re-created fresh for each step. */
	char vdev_name[64];      /**< e.g. "net_mlx5_tm0". */
	char vdev_args[512];     /**< Its devargs, as given. */
	bool add_virtual_clock;  /**< emu= without clock=: use virtual. */
	/* The current port. */
	bool port_open;
	uint16_t port_id;
	struct mlx5_emu *emu;    /**< Device model, NULL on hardware. */
	bool vclock;             /**< Device time moves only when we say. */
	bool ran_vclock;         /**< Some step ran on a virtual clock. */
	uint16_t nb_txq;
	uint16_t nb_desc;
	bool started;
	struct rte_pmd_mlx5_tm_dev_info info;
	struct rte_mempool *pool;       /**< Frames up to 2 KB. */
	struct rte_mempool *jumbo_pool; /**< Frames up to 9 KB. */
	uint64_t t0_ns;          /**< Monotonic clock at start (real time). */
	/* Learnt by earlier steps. */
	bool mtu_supported;      /**< rte_eth_dev_set_mtu works. */
	uint16_t mtu;            /**< The port's MTU then. */
	int vport_fcs;           /**< vport octets count FCS: 1, not: 0,
				  *   unknown: -1. */
	/* The PMD's log while a step expects it to complain (hc_log_*). */
	FILE *log_mem;
	char *log_buf;
	size_t log_len;
	/* Steps. */
	struct hc_step *steps;
	unsigned int nb_steps;
	unsigned int cap_steps;
	struct hc_step *cur;
	bool sender_short;       /**< A rate of the step was a shortfall. */
};

/* ---- Report (hc_report.c) ---- */

/** Open step @p name; evidence and a verdict follow. */
void hc_step_begin(struct hc *hc, const char *name, const char *title);

/** Add an evidence line (text) to the current step. */
void hc_ev(struct hc *hc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** Add a JSON member to the current step's evidence (number). */
void hc_evj_num(struct hc *hc, const char *key, double v);

/** Add a JSON member (unsigned integer). */
void hc_evj_u64(struct hc *hc, const char *key, uint64_t v);

/** Add a JSON member (string). */
void hc_evj_str(struct hc *hc, const char *key, const char *v);

/** Add a JSON member (boolean). */
void hc_evj_bool(struct hc *hc, const char *key, bool v);

/** Close the current step with a verdict and, for fail or skip, why. */
void hc_step_end(struct hc *hc, enum hc_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * Open the --json report file before the steps; 0, or -errno with the
 * path and the error printed.
 */
int hc_report_open(struct hc *hc);

/**
 * Print the summary; write the JSON report if asked (to the file
 * hc_report_open() opened, renamed into place once every write
 * succeeded); 0, or -errno with the path and the error printed.
 */
int hc_report_finish(struct hc *hc, const char *device_line);

/** Counts of verdicts. */
void hc_report_counts(const struct hc *hc, unsigned int *pass,
		      unsigned int *fail, unsigned int *skip);

/* ---- Device and traffic (hc_dev.c) ---- */

/** Take the vdev of the user's EAL arguments (before rte_eal_init). */
int hc_dev_args(struct hc *hc, int argc, char **argv);

/** A fresh port on the user's device, with @p extra devargs ("" none). */
int hc_port_open(struct hc *hc, const char *extra);

/** Close and remove the current port. */
void hc_port_close(struct hc *hc);

/**
 * Keep the EAL log (the PMD's messages) in memory from now on, while a
 * step makes the PMD complain on purpose: a passing run prints no error.
 */
void hc_log_start(struct hc *hc);

/**
 * Give the log back to stderr. The first message logged since
 * hc_log_start() goes to @p buf ("" when none), to be the step's
 * evidence.
 */
void hc_log_stop(struct hc *hc, char *buf, size_t len);

/** Configure @p nb_txq Tx queues of @p nb_desc descriptors (no start). */
int hc_port_setup(struct hc *hc, uint16_t nb_txq, uint16_t nb_desc);

/** Start the port (SQs created). */
int hc_port_start(struct hc *hc);

/** Device time in ns (virtual clock) or host monotonic time. */
uint64_t hc_now_ns(const struct hc *hc);

/**
 * Wait until every packet posted on queue @p q completed (at most 1 s of
 * real time on hardware).
 *
 * @return true when they did.
 */
bool hc_drain(struct hc *hc, uint16_t q, uint64_t posted_total);

/** A flow of identical frames on one queue. */
struct hc_flow {
	uint16_t queue;
	uint32_t frame_len;     /**< L2 bytes without FCS. */
	uint64_t max_packets;   /**< Stop after this many; 0: no limit. */
	uint64_t posted;        /**< Packets accepted by tx_burst so far. */
	uint64_t expect_pps;    /**< Expected rate, to size virtual steps. */
};

/**
 * Send @p n flows for @p ns of time (device time on a virtual clock),
 * keeping every ring full (or until each flow's max_packets).
 *
 * @return 0, or a negative errno (no mbufs).
 */
int hc_send(struct hc *hc, struct hc_flow *flows, unsigned int n,
	    uint64_t ns);

/** Frame time in ns at @p bps of L2 bytes. */
double hc_pkt_ns(uint32_t frame_len, double bps);

/** Bytes of each accounting, per frame of L2 length @p len. */
#define HC_FCS_BYTES 4
#define HC_PREAMBLE_IFG_BYTES 20

/** Figures of one queue between two completion snapshots. */
struct hc_rate {
	bool valid;
	uint64_t packets;       /**< Completed between the two CQEs. */
	uint64_t bytes;         /**< Their L2 bytes (no FCS). */
	uint64_t ns;            /**< Between the CQE time stamps. */
	double l2_bps;          /**< L2 without FCS. */
	double fcs_bps;         /**< + FCS. */
	double wire_bps;        /**< + FCS + preamble + IFG. */
	double pps;
	/* Set by the step, for hc_rate_judge(): 0 = not counted. */
	uint64_t posted;        /**< Frames posted while measuring. */
	uint64_t send_ns;       /**< The sending window, ns. */
};

/** Rate between completion snapshots @p a and @p b (b later). */
void hc_rate(const struct rte_pmd_mlx5_tm_txq_completions *a,
	     const struct rte_pmd_mlx5_tm_txq_completions *b,
	     struct hc_rate *r);

/** Read the completion evidence of queue @p q (0 or negative errno). */
int hc_cmpl(struct hc *hc, uint16_t q,
	    struct rte_pmd_mlx5_tm_txq_completions *c);

/** Frames the vport sent, all classes (0 or negative errno). */
int hc_vport(struct hc *hc, uint64_t *packets, uint64_t *octets);

/** Let @p ns of time pass (advance the virtual clock, or sleep). */
void hc_wait_ns(struct hc *hc, uint64_t ns);

/** An xstat of the port by name; 0 when absent. */
uint64_t hc_xstat(struct hc *hc, const char *name);

/* ---- rte_tm helpers (hc_tm.c) ---- */

/** A leaf shaper: bytes/s (or packets/s in packet mode), 0 none. */
struct hc_shaper {
	uint64_t rate;
	bool packet_mode;
	uint64_t burst;
};

/**
 * Commit a one-level hierarchy: root, one leaf per Tx queue with shaper
 * @p sh[q] (rate 0: no shaper); same_profile shares one profile between
 * leaves of identical shapers.
 *
 * @return 0, or a negative errno with @p msg filled (the driver's words).
 */
int hc_tm_commit(struct hc *hc, const struct hc_shaper *sh, uint16_t n,
		 char *msg, size_t msglen);

/** Change leaf @p q's shaper live (rte_tm_node_shaper_update). */
int hc_tm_update(struct hc *hc, uint16_t q, const struct hc_shaper *sh,
		 char *msg, size_t msglen);

/* ---- Measurement (hc_steps_pacing.c) ---- */

/** Measurement and warm-up windows for frames of @p len at @p bps. */
void hc_windows(const struct hc *hc, uint32_t len, double bps,
		uint64_t *warm, uint64_t *win);

/** Error of @p got against @p want, in percent. */
double hc_err_pct(double got, double want);

/**
 * Send @p n flows for @p warm, then on until each flow's queue has
 * reported a CQE. @return 0 or a negative errno.
 */
int hc_warm_up(struct hc *hc, struct hc_flow *f, unsigned int n,
	       uint64_t warm);

/**
 * Send flow @p f (one queue, 60-byte frames) paced at @p pps packets/s,
 * measure its packet rate between two CQE time stamps, add the evidence
 * and end the current step: pass within the tolerance, skip on a sender
 * shortfall (hc_judge_rate()), else fail saying "packet rate off by" the
 * error followed by @p off_why.
 */
void hc_pps_step(struct hc *hc, struct hc_flow *f, double pps,
		 const char *off_why);

/**
 * Judge rate @p r of @p who against @p want_bps (hc_judge_rate()): true
 * within the tolerance. A sender shortfall (real time, fewer frames posted
 * than the rate needs) adds evidence and marks the step, so that
 * hc_step_end_rates() ends it as a skip: every step alike.
 */
bool hc_rate_judge(struct hc *hc, const char *who, const struct hc_rate *r,
		   double want_bps);

/**
 * End the current step whose rates were not all within the tolerance: a
 * skip ("not a measure of pacing") when a sender shortfall explains it,
 * else a failure with @p fmt.
 */
void hc_step_end_rates(struct hc *hc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** Evidence of one queue's rate in the three accountings. */
void hc_rate_evidence(struct hc *hc, const char *who, const struct hc_rate *r,
		      double want_bps);

/* ---- Steps ---- */

/** Environment, MTU, e-switch, capabilities (hc_steps_env.c). */
void hc_steps_env(struct hc *hc);

/** Object bring-up, one frame, ring wrap, frame above MTU. */
void hc_steps_objects(struct hc *hc);

/** Rate table: capacity, sharing, dedicated, range (hc_steps_table.c). */
void hc_steps_table(struct hc *hc);

/** Pacing accuracy, packet mode, live change, mixed queues. */
void hc_steps_pacing(struct hc *hc);

/**
 * The NIC scheduling hierarchy (TSARs, queue groups, MODIFY_SQ attach,
 * ceilings, shares, re-parenting), error recovery, and a commit with the
 * link down (hc_steps_sched.c).
 */
void hc_steps_sched(struct hc *hc);

/** Human-readable rate ("1.50 Gbit/s") into @p buf. */
const char *hc_fmt_bps(char *buf, size_t len, double bps);

#endif /* HC_H */
