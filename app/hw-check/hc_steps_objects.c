/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Steps about the queue objects and frames: bring-up one step at a time
 * with the SQ read back from the device (QUERY_SQ), one frame checked
 * against the vport counters, a ring that wraps, a frame above the MTU.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_ethdev.h>

#include "hc.h"

/* SQ states of sqc.state (PRM). */
#define HC_SQ_RST 0
#define HC_SQ_RDY 1

static const char *
sq_state_name(uint8_t s)
{
	return s == HC_SQ_RST ? "RST" : s == HC_SQ_RDY ? "RDY" :
	       s == 3 ? "ERR" : "?";
}

static const char *
ts_format_name(uint8_t f)
{
	return f == 0 ? "free running" : f == 1 ? "default" :
	       f == 2 ? "real time" : "?";
}

/* QUERY_SQ of queue @p q as evidence; the call's result. */
static int
show_sq(struct hc *hc, uint16_t q, struct rte_pmd_mlx5_tm_sq_info *sq)
{
	int ret = rte_pmd_mlx5_tm_txq_query(hc->port_id, q, sq);

	if (ret != 0) {
		hc_ev(hc, "QUERY_SQ of queue %u: %s", q, strerror(-ret));
		return ret;
	}
	hc_ev(hc, "QUERY_SQ queue %u: SQ 0x%x state %s, CQ 0x%x, TIS 0x%x, "
	      "pacing index %u, ts_format %u (%s), log_wq_sz %u, "
	      "user_index %u, hw_counter %u, sw_counter %u", q, sq->sqn,
	      sq_state_name(sq->state), sq->cqn, sq->tisn, sq->pp_index,
	      sq->ts_format, ts_format_name(sq->ts_format), sq->log_wq_sz,
	      sq->user_index, sq->hw_counter, sq->sw_counter);
	return 0;
}

static void
sq_json(struct hc *hc, const struct rte_pmd_mlx5_tm_sq_info *sq)
{
	hc_evj_u64(hc, "sqn", sq->sqn);
	hc_evj_u64(hc, "state", sq->state);
	hc_evj_u64(hc, "cqn", sq->cqn);
	hc_evj_u64(hc, "tisn", sq->tisn);
	hc_evj_u64(hc, "pp_index", sq->pp_index);
	hc_evj_u64(hc, "ts_format", sq->ts_format);
	hc_evj_u64(hc, "log_wq_sz", sq->log_wq_sz);
}

static bool
fresh(struct hc *hc, const char *extra, uint16_t nb_txq, uint16_t nb_desc,
      bool start)
{
	int ret = hc_port_open(hc, extra);

	if (ret == 0)
		ret = hc_port_setup(hc, nb_txq, nb_desc);
	if (ret == 0 && start)
		ret = hc_port_start(hc);
	if (ret != 0)
		hc_step_end(hc, HC_FAIL, "port set-up failed: %s",
			    strerror(ret < 0 ? -ret : ret));
	return ret == 0;
}

static void
steps_bringup(struct hc *hc)
{
	struct rte_pmd_mlx5_tm_sq_info sq, sq2;
	struct hc_shaper sh = { .rate = 12500000 }; /* 100 Mbit/s */
	char msg[512];
	int ret;

	hc_step_begin(hc, "objects.setup", "queue set-up creates no device "
		      "object (QUERY_SQ has no SQ to read)");
	if (!fresh(hc, "", 1, 256, false))
		return;
	ret = rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &sq);
	hc_ev(hc, "rte_pmd_mlx5_tm_txq_query before start: %s",
	      ret == 0 ? "an SQ exists" : strerror(-ret));
	hc_evj_num(hc, "query_ret", ret);
	if (ret != -EAGAIN)
		hc_step_end(hc, HC_FAIL, "expected no SQ before start (EAGAIN), "
			    "got %s", ret == 0 ? "an SQ" : strerror(-ret));
	else
		hc_step_end(hc, HC_PASS, NULL);

	hc_step_begin(hc, "objects.start", "start creates CQ and SQ and "
		      "moves the SQ RST->RDY, as QUERY_SQ reads it");
	ret = hc_port_start(hc);
	if (ret != 0) {
		hc_step_end(hc, HC_FAIL, "rte_eth_dev_start: %s",
			    strerror(-ret));
		return;
	}
	if (show_sq(hc, 0, &sq) != 0) {
		hc_step_end(hc, HC_FAIL, "QUERY_SQ failed");
		return;
	}
	sq_json(hc, &sq);
	if (sq.state != HC_SQ_RDY || sq.cqn == 0 || sq.tisn == 0 ||
	    sq.log_wq_sz != 8 || sq.pp_index != 0 || sq.user_index != 0 ||
	    sq.hw_counter != sq.sw_counter)
		hc_step_end(hc, HC_FAIL, "expected RDY, a CQ and a TIS, 2^8 "
			    "WQEBBs, pacing index 0, user_index 0, nothing "
			    "posted");
	else
		hc_step_end(hc, HC_PASS, NULL);

	hc_step_begin(hc, "objects.modify_pp", "a rate on a ready SQ is "
		      "MODIFY_SQ RDY->RDY of its pacing index, and back to 0");
	ret = rte_eth_set_queue_rate_limit(hc->port_id, 0, 100);
	hc_ev(hc, "rte_eth_set_queue_rate_limit(queue 0, 100 Mbit/s): %s",
	      ret == 0 ? "ok" : strerror(-ret));
	if (ret != 0 || show_sq(hc, 0, &sq) != 0) {
		hc_step_end(hc, HC_FAIL, "rate not applied: %s",
			    strerror(ret < 0 ? -ret : EIO));
		return;
	}
	ret = rte_eth_set_queue_rate_limit(hc->port_id, 0, 0);
	hc_ev(hc, "rte_eth_set_queue_rate_limit(queue 0, 0 = unlimited): %s",
	      ret == 0 ? "ok" : strerror(-ret));
	if (ret != 0 || show_sq(hc, 0, &sq2) != 0) {
		hc_step_end(hc, HC_FAIL, "unlimiting failed");
		return;
	}
	hc_evj_u64(hc, "pp_index_limited", sq.pp_index);
	hc_evj_u64(hc, "pp_index_unlimited", sq2.pp_index);
	if (sq.pp_index == 0 || sq.state != HC_SQ_RDY || sq2.pp_index != 0 ||
	    sq2.state != HC_SQ_RDY || sq2.sqn != sq.sqn)
		hc_step_end(hc, HC_FAIL, "expected a non-zero index then 0, "
			    "same SQ, RDY throughout");
	else
		hc_step_end(hc, HC_PASS, NULL);

	hc_step_begin(hc, "objects.create_pp", "a rate committed before "
		      "start goes into CREATE_SQ");
	if (!fresh(hc, "", 1, 256, false))
		return;
	ret = hc_tm_commit(hc, &sh, 1, msg, sizeof(msg));
	hc_ev(hc, "rte_tm hierarchy, queue 0 at 100 Mbit/s, port stopped: "
	      "%s", ret == 0 ? "committed" : msg);
	if (ret != 0) {
		hc_step_end(hc, HC_FAIL, "commit refused: %s", msg);
		return;
	}
	ret = hc_port_start(hc);
	if (ret != 0 || show_sq(hc, 0, &sq) != 0) {
		hc_step_end(hc, HC_FAIL, "start failed");
		return;
	}
	sq_json(hc, &sq);
	if (sq.pp_index == 0 || sq.state != HC_SQ_RDY)
		hc_step_end(hc, HC_FAIL, "the new SQ has pacing index %u, "
			    "state %s", sq.pp_index, sq_state_name(sq.state));
	else
		hc_step_end(hc, HC_PASS, NULL);

	hc_step_begin(hc, "objects.stop", "stop destroys the SQ; a restart "
		      "creates a new one with the same pacing index");
	ret = rte_eth_dev_stop(hc->port_id);
	hc->started = false;
	ret = ret == 0 ? rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &sq2) :
			 ret;
	hc_ev(hc, "after rte_eth_dev_stop, QUERY_SQ: %s",
	      ret == 0 ? "an SQ is still there" : strerror(-ret));
	if (ret != -EAGAIN) {
		hc_step_end(hc, HC_FAIL, "the SQ outlived the stop");
		return;
	}
	if (hc_port_start(hc) != 0 || show_sq(hc, 0, &sq2) != 0) {
		hc_step_end(hc, HC_FAIL, "restart failed");
		return;
	}
	hc_evj_u64(hc, "pp_index_before", sq.pp_index);
	hc_evj_u64(hc, "pp_index_after", sq2.pp_index);
	if (sq2.state != HC_SQ_RDY || sq2.pp_index != sq.pp_index)
		hc_step_end(hc, HC_FAIL, "after restart: state %s, pacing "
			    "index %u (was %u)", sq_state_name(sq2.state),
			    sq2.pp_index, sq.pp_index);
	else
		hc_step_end(hc, HC_PASS, NULL);
}

/*
 * Send @p n frames of @p len bytes on queue 0 of the started port and
 * wait for them; the completion and vport deltas in the last arguments.
 */
static int
send_counted(struct hc *hc, uint64_t n, uint32_t len,
	     struct rte_pmd_mlx5_tm_txq_completions *c0,
	     struct rte_pmd_mlx5_tm_txq_completions *c1, uint64_t *vp,
	     uint64_t *vo)
{
	struct hc_flow f = { .queue = 0, .frame_len = len, .max_packets = n };
	uint64_t p0, o0, p1, o1;
	int ret;

	ret = hc_cmpl(hc, 0, c0);
	if (ret == 0)
		ret = hc_vport(hc, &p0, &o0);
	if (ret == 0)
		ret = hc_send(hc, &f, 1, 10ULL * 1000000000ULL);
	if (ret != 0)
		return ret;
	if (!hc_drain(hc, 0, c0->last_packets + f.posted) || f.posted != n)
		hc_ev(hc, "posted %" PRIu64 " of %" PRIu64 " frames; not all "
		      "completed", f.posted, n);
	ret = hc_cmpl(hc, 0, c1);
	if (ret == 0)
		ret = hc_vport(hc, &p1, &o1);
	if (ret != 0)
		return ret;
	*vp = p1 - p0;
	*vo = o1 - o0;
	return 0;
}

static void
step_one_frame(struct hc *hc)
{
	struct rte_pmd_mlx5_tm_txq_completions c0, c1;
	const uint32_t len = 100;
	uint64_t vp = 0, vo = 0;
	int ret;

	hc_step_begin(hc, "smoke.one_frame", "one frame completes and the "
		      "vport counters count it (which bytes they count)");
	if (!fresh(hc, "", 1, 256, true))
		return;
	ret = send_counted(hc, 1, len, &c0, &c1, &vp, &vo);
	if (ret != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back: %s",
			    strerror(-ret));
		return;
	}
	hc_ev(hc, "one frame of %u bytes (L2, no FCS): %" PRIu64 " CQE, "
	      "completed %" PRIu64 " packet(s) / %" PRIu64 " bytes, CQE "
	      "time %" PRIu64 " ns (%s)", len, c1.cqes - c0.cqes,
	      c1.last_packets - c0.last_packets,
	      c1.last_bytes - c0.last_bytes, c1.last_ns,
	      c1.ts_valid ? "valid" : "unknown clock");
	hc_ev(hc, "vport Tx counters: +%" PRIu64 " frame(s), +%" PRIu64
	      " octets", vp, vo);
	hc_evj_u64(hc, "cqes", c1.cqes - c0.cqes);
	hc_evj_u64(hc, "completed_bytes", c1.last_bytes - c0.last_bytes);
	hc_evj_u64(hc, "vport_packets", vp);
	hc_evj_u64(hc, "vport_octets", vo);
	hc_evj_bool(hc, "ts_valid", c1.ts_valid);
	if (c1.cqes - c0.cqes != 1 || c1.last_packets - c0.last_packets != 1 ||
	    c1.last_bytes - c0.last_bytes != len || !c1.ts_valid) {
		hc_step_end(hc, HC_FAIL, "the frame's completion is not as "
			    "expected (one CQE, %u bytes, a time stamp)", len);
		return;
	}
	if (vp != 1) {
		hc_step_end(hc, HC_FAIL, "the vport counted %" PRIu64 " frames "
			    "for one sent%s", vp, vp > 1 ? ": another sender "
			    "(the kernel netdev?) used the vport" : "");
		return;
	}
	if (vo == len)
		hc->vport_fcs = 0;
	else if (vo == len + HC_FCS_BYTES)
		hc->vport_fcs = 1;
	else {
		hc_step_end(hc, HC_FAIL, "the vport counted %" PRIu64 " octets "
			    "for a frame of %u", vo, len);
		return;
	}
	hc_ev(hc, "vport octets count %s", hc->vport_fcs ?
	      "the FCS (L2 + 4)" : "L2 bytes without FCS");
	hc_evj_str(hc, "vport_octets_accounting",
		   hc->vport_fcs ? "l2+fcs" : "l2");
	hc_step_end(hc, HC_PASS, NULL);
}

static void
step_ring_wrap(struct hc *hc)
{
	struct rte_pmd_mlx5_tm_txq_completions c0, c1;
	struct rte_pmd_mlx5_tm_sq_info sq;
	/*
	 * Five wraps of WQEBBs whatever the WQEs: an eMPW WQE carries up to
	 * 32 frames in 9 WQEBBs, so four frames per WQEBB are enough.
	 */
	const uint64_t n = 4 * (64 * 5 + 7);
	uint64_t vp = 0, vo = 0;
	int ret;

	hc_step_begin(hc, "ring.wrap", "a 64-WQEBB ring wraps five times: "
		      "every frame completes and leaves");
	if (!fresh(hc, "", 1, 64, true))
		return;
	ret = send_counted(hc, n, 60, &c0, &c1, &vp, &vo);
	if (ret != 0 || show_sq(hc, 0, &sq) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	hc_ev(hc, "%" PRIu64 " frames of 60 bytes: completed %" PRIu64
	      " in %" PRIu64 " CQEs; vport +%" PRIu64 " frames; error CQEs "
	      "%" PRIu64, n, c1.last_packets - c0.last_packets,
	      c1.cqes - c0.cqes, vp, hc_xstat(hc, "tx_q0_error_cqes"));
	hc_evj_u64(hc, "frames", n);
	hc_evj_u64(hc, "completed", c1.last_packets - c0.last_packets);
	hc_evj_u64(hc, "vport_packets", vp);
	hc_evj_u64(hc, "wqebb_counter", sq.sw_counter);
	if (c1.last_packets - c0.last_packets != n || vp != n ||
	    hc_xstat(hc, "tx_q0_error_cqes") != 0 || sq.state != HC_SQ_RDY ||
	    sq.hw_counter != sq.sw_counter || sq.sw_counter < 64 * 5)
		hc_step_end(hc, HC_FAIL, "frames lost or the SQ not idle and "
			    "ready after the wraps");
	else
		hc_step_end(hc, HC_PASS, NULL);
}

/*
 * The NIC's port MTU is the netdev MTU + 22 with FCS (the kernel's
 * MLX5E_SW2HW_MTU: Ethernet header, one VLAN tag, FCS): the longest frame
 * that leaves is MTU + 18 bytes without FCS.
 */
#define HC_MTU_L2_OVERHEAD 18

static void
step_over_mtu(struct hc *hc)
{
	struct rte_pmd_mlx5_tm_txq_completions c0, c1, c2, c3;
	uint64_t vp[3] = { 0 }, vo[3] = { 0 };
	uint32_t edge;
	int ret;

	hc_step_begin(hc, "mtu.oversize", "the longest frame the MTU allows "
		      "leaves, one byte more does not, the next frame does");
	if (!hc->mtu_supported) {
		hc_step_end(hc, HC_SKIP, "not supported by this driver build "
			    "(no mtu_set: the PMD does not know the MTU the "
			    "NIC enforces)");
		return;
	}
	if (!fresh(hc, "", 1, 256, true))
		return;
	edge = (uint32_t)hc->mtu + HC_MTU_L2_OVERHEAD;
	if (edge + 1 > 9216) {
		hc_step_end(hc, HC_SKIP, "MTU %u: a larger frame does not fit "
			    "the check's buffers", hc->mtu);
		return;
	}
	ret = send_counted(hc, 1, edge, &c0, &c1, &vp[0], &vo[0]);
	if (ret == 0)
		ret = send_counted(hc, 1, edge + 1, &c1, &c2, &vp[1], &vo[1]);
	if (ret == 0)
		ret = send_counted(hc, 1, 100, &c2, &c3, &vp[2], &vo[2]);
	if (ret != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back: %s",
			    strerror(-ret));
		return;
	}
	hc_ev(hc, "MTU %u: frame of %u bytes (MTU + %u): completed %" PRIu64
	      ", vport +%" PRIu64, hc->mtu, edge, HC_MTU_L2_OVERHEAD,
	      c1.last_packets - c0.last_packets, vp[0]);
	hc_ev(hc, "frame of %u bytes: completed %" PRIu64 ", vport +%" PRIu64,
	      edge + 1, c2.last_packets - c1.last_packets, vp[1]);
	hc_ev(hc, "then 100 bytes: completed %" PRIu64 ", vport +%" PRIu64,
	      c3.last_packets - c2.last_packets, vp[2]);
	hc_evj_u64(hc, "mtu", hc->mtu);
	hc_evj_u64(hc, "edge_vport_packets", vp[0]);
	hc_evj_u64(hc, "oversize_vport_packets", vp[1]);
	hc_evj_u64(hc, "next_vport_packets", vp[2]);
	hc_evj_u64(hc, "error_cqes", hc_xstat(hc, "tx_q0_error_cqes"));
	if (vp[0] != 1)
		hc_step_end(hc, HC_FAIL, "the longest frame the MTU allows did "
			    "not leave the port");
	else if (vp[1] != 0)
		hc_step_end(hc, HC_FAIL, "the frame above the MTU left the "
			    "port");
	else if (vp[2] != 1 || c3.last_packets - c2.last_packets != 1)
		hc_step_end(hc, HC_FAIL, "the queue did not send the next "
			    "frame");
	else
		hc_step_end(hc, HC_PASS, NULL);
}

void
hc_steps_objects(struct hc *hc)
{
	steps_bringup(hc);
	step_one_frame(hc);
	step_ring_wrap(hc);
	step_over_mtu(hc);
}
