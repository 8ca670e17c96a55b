/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Steps that measure pacing from the device's own evidence: bytes and
 * packets completed between the time stamps of two CQEs, per queue, with
 * the vport counters as a port-wide cross-check. Each figure is given in
 * three accountings (L2 without FCS, + FCS, + preamble and IFG) so that a
 * NIC that paces another byte count than the PMD assumes is named.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_tm.h>

#include "hc.h"

/** Packets a virtual-clock measurement window aims at. */
#define HC_WINDOW_PACKETS 3000
/** Bounds of a virtual-clock window, ns. */
#define HC_WINDOW_MIN_NS 1000000ULL
#define HC_WINDOW_MAX_NS 2000000000ULL

/* Measurement and warm-up windows for frames of @p len at @p bps. */
void
hc_windows(const struct hc *hc, uint32_t len, double bps, uint64_t *warm,
	uint64_t *win)
{
	double t;

	if (!hc->vclock) {
		*win = (uint64_t)hc->opt.window_ms * 1000000ULL;
		*warm = *win / 5;
		return;
	}
	t = hc_pkt_ns(len, bps) * HC_WINDOW_PACKETS;
	if (t < HC_WINDOW_MIN_NS)
		t = HC_WINDOW_MIN_NS;
	if (t > HC_WINDOW_MAX_NS)
		t = HC_WINDOW_MAX_NS;
	*win = (uint64_t)t;
	*warm = RTE_MAX(*win / 10, (uint64_t)(hc_pkt_ns(len, bps) * 20));
}

double
hc_err_pct(double got, double want)
{
	return want > 0 ? 100 * (got - want) / want : NAN;
}

/* Evidence of one queue's rate in the three accountings. */
void
hc_rate_evidence(struct hc *hc, const char *who, const struct hc_rate *r,
	      double want_bps)
{
	char a[32], b[32], c[32], w[32];

	hc_ev(hc, "%s: %" PRIu64 " packets, %" PRIu64 " bytes completed in "
	      "%.6f s between two CQE time stamps", who, r->packets, r->bytes,
	      (double)r->ns / 1e9);
	hc_ev(hc, "%s: L2 %s (%+.3f%%), +FCS %s (%+.3f%%), +preamble/IFG "
	      "%s (%+.3f%%) against %s", who,
	      hc_fmt_bps(a, sizeof(a), r->l2_bps),
	      hc_err_pct(r->l2_bps, want_bps),
	      hc_fmt_bps(b, sizeof(b), r->fcs_bps),
	      hc_err_pct(r->fcs_bps, want_bps),
	      hc_fmt_bps(c, sizeof(c), r->wire_bps),
	      hc_err_pct(r->wire_bps, want_bps),
	      hc_fmt_bps(w, sizeof(w), want_bps));
}

/* The reason of a step that a sender shortfall ends. */
#define HC_SHORT_REASON "the sender posted fewer frames than the rate " \
	"needs (see the evidence): not a measure of pacing"

bool
hc_rate_judge(struct hc *hc, const char *who, const struct hc_rate *r,
	      double want_bps)
{
	double needed = 0;

	if (!r->valid)
		return false;
	if (r->packets > 0 && r->bytes > 0)
		needed = want_bps * (double)r->send_ns / 1e9 /
			 ((double)r->bytes * 8 / (double)r->packets);
	switch (hc_judge_rate(hc->vclock, hc->opt.tolerance_pct, want_bps,
			      r->l2_bps, r->posted, needed)) {
	case HC_RATE_OK:
		return true;
	case HC_RATE_SHORT:
		hc_ev(hc, "%s: the sender posted %" PRIu64 " frames of the "
		      "%.0f the rate needs in %.3f s", who, r->posted, needed,
		      (double)r->send_ns / 1e9);
		hc->sender_short = true;
		return false;
	default:
		return false;
	}
}

void
hc_step_end_rates(struct hc *hc, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	if (hc->sender_short) {
		hc_step_end(hc, HC_SKIP, HC_SHORT_REASON);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	hc_step_end(hc, HC_FAIL, "%s", why);
}

/*
 * Verdict on a byte-rate measurement: the PMD turns rte_tm bytes/s into
 * the device's kbit/s of L2 bytes without FCS; a NIC counting more is
 * named by the accounting that matches.
 */
static void
judge_rate(struct hc *hc, const struct hc_rate *r, double want,
	   uint64_t posted, double expect_pkts)
{
	double tol = hc->opt.tolerance_pct;
	double e = hc_err_pct(r->l2_bps, want);

	hc_evj_num(hc, "l2_bps", r->l2_bps);
	hc_evj_num(hc, "fcs_bps", r->fcs_bps);
	hc_evj_num(hc, "wire_bps", r->wire_bps);
	hc_evj_num(hc, "error_pct", e);
	hc_evj_u64(hc, "packets", r->packets);
	hc_evj_u64(hc, "window_ns", r->ns);
	if (!r->valid) {
		hc_step_end(hc, HC_FAIL, "no completion evidence to measure "
			    "from (no CQE time stamps)");
		return;
	}
	switch (hc_judge_rate(hc->vclock, tol, want, r->l2_bps, posted,
			      expect_pkts)) {
	case HC_RATE_OK:
		hc_evj_str(hc, "accounting", "l2");
		hc_step_end(hc, HC_PASS, NULL);
		return;
	case HC_RATE_SHORT:
		hc_step_end(hc, HC_SKIP, "the sender posted %" PRIu64 " frames "
			    "of the %.0f the rate needs: not a measure of "
			    "pacing", posted, expect_pkts);
		return;
	default:
		break;
	}
	if (fabs(hc_err_pct(r->fcs_bps, want)) <= tol)
		hc_step_end(hc, HC_FAIL, "off by %+.3f%%: the device paces "
			    "L2 + FCS bytes; the PMD converts rates as L2 "
			    "without FCS", e);
	else if (fabs(hc_err_pct(r->wire_bps, want)) <= tol)
		hc_step_end(hc, HC_FAIL, "off by %+.3f%%: the device paces "
			    "wire bytes (+FCS, preamble, IFG); the PMD "
			    "converts rates as L2 without FCS", e);
	else
		hc_step_end(hc, HC_FAIL, "achieved rate off by %+.3f%% "
			    "(tolerance %.2f%%)", e, tol);
}

/*
 * Send @p n flows for @p warm, then on until each flow's queue has
 * reported a CQE (the start of a measurement is a CQE's time stamp).
 */
int
hc_warm_up(struct hc *hc, struct hc_flow *f, unsigned int n, uint64_t warm)
{
	struct rte_pmd_mlx5_tm_txq_completions c;
	unsigned int i, rounds;
	int ret = hc_send(hc, f, n, warm);

	for (rounds = 0; ret == 0 && rounds < 64; rounds++) {
		for (i = 0; i < n; i++)
			if (hc_cmpl(hc, f[i].queue, &c) != 0 || c.cqes == 0)
				break;
		if (i == n)
			return 0;
		ret = hc_send(hc, f, n, warm / 4 + 1);
	}
	return ret != 0 ? ret : -ETIMEDOUT;
}

/* Bring up a fresh port of @p n queues with shapers @p sh, started. */
static bool
paced_port(struct hc *hc, const struct hc_shaper *sh, uint16_t n)
{
	char msg[512];
	int ret = hc_port_open(hc, "");

	if (ret == 0)
		ret = hc_port_setup(hc, n, 512);
	if (ret == 0 && hc_tm_commit(hc, sh, n, msg, sizeof(msg)) != 0) {
		hc_step_end(hc, HC_FAIL, "%s", msg);
		return false;
	}
	if (ret == 0)
		ret = hc_port_start(hc);
	if (ret != 0)
		hc_step_end(hc, HC_FAIL, "port set-up failed: %s",
			    strerror(ret < 0 ? -ret : ret));
	return ret == 0;
}

/* One pacing point: queue 0 at @p bps with frames of @p len. */
static void
step_point(struct hc *hc, double bps, uint32_t len)
{
	struct rte_pmd_mlx5_tm_txq_completions a, b;
	struct hc_shaper sh = { .rate = (uint64_t)(bps / 8) };
	struct hc_flow f = { .queue = 0, .frame_len = len };
	uint64_t warm, win, vp0, vo0, vp1, vo1, t0, t1, posted0;
	char name[48], title[96], r[32];
	struct hc_rate rate;

	if (bps >= 1e9)
		snprintf(name, sizeof(name), "pacing.%gG.%u", bps / 1e9, len);
	else
		snprintf(name, sizeof(name), "pacing.%gM.%u", bps / 1e6, len);
	hc_fmt_bps(r, sizeof(r), bps);
	snprintf(title, sizeof(title), "queue paced at %s, %u-byte frames, "
		 "measured from CQE time stamps", r, len);
	hc_step_begin(hc, name, title);
	f.expect_pps = (uint64_t)(bps / (len * 8.0)) + 1;
	if (!paced_port(hc, &sh, 1))
		return;
	hc_windows(hc, len, bps, &warm, &win);
	if (hc_warm_up(hc, &f, 1, warm) != 0 || hc_cmpl(hc, 0, &a) != 0 ||
	    hc_vport(hc, &vp0, &vo0) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	t0 = hc_now_ns(hc);
	posted0 = f.posted;
	if (hc_send(hc, &f, 1, win) != 0 || hc_cmpl(hc, 0, &b) != 0 ||
	    hc_vport(hc, &vp1, &vo1) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	t1 = hc_now_ns(hc);
	hc_rate(&a, &b, &rate);
	hc_rate_evidence(hc, "queue 0", &rate, bps);
	if (t1 > t0)
		hc_ev(hc, "vport: %" PRIu64 " frames, %" PRIu64 " octets in "
		      "%.6f s of %s time (%s)", vp1 - vp0, vo1 - vo0,
		      (double)(t1 - t0) / 1e9, hc->vclock ? "device" : "host",
		      hc_fmt_bps(r, sizeof(r), (double)(vo1 - vo0) * 8e9 /
				 (double)(t1 - t0)));
	hc_evj_num(hc, "configured_bps", bps);
	hc_evj_u64(hc, "frame_len", len);
	hc_evj_u64(hc, "vport_packets", vp1 - vp0);
	hc_evj_u64(hc, "vport_octets", vo1 - vo0);
	judge_rate(hc, &rate, bps, f.posted - posted0,
		   bps * (double)win / 1e9 / (len * 8.0));
}

static void
steps_accuracy(struct hc *hc)
{
	static const double rates[] = { 0, 10e6, 100e6, 1e9, 10e9, 40e9 };
	static const uint32_t sizes[] = { 60, 512, 1500 };
	double hi = (double)hc->info.pp_max_rate_kbps * 1000;
	double lo = (double)hc->info.pp_min_rate_kbps * 1000;
	double line = (double)hc->info.line_rate_mbps * 1e6;
	unsigned int i, k;

	if (!hc->info.packet_pacing) {
		hc_step_begin(hc, "pacing", "pacing accuracy");
		hc_step_end(hc, HC_SKIP, "the device has no packet pacing");
		return;
	}
	/* A paced rate must leave room on the line for its framing. */
	if (line > 0 && hi > line * 0.8)
		hi = line * 0.8;
	for (i = 0; i < RTE_DIM(rates); i++) {
		double bps = rates[i] != 0 ? rates[i] : lo;

		if (bps > hi || (i > 0 && bps <= lo))
			continue;
		if (hc->opt.quick && i != 1 && i != 3)
			continue;
		for (k = 0; k < RTE_DIM(sizes); k++) {
			if (hc->opt.quick && k == 1)
				continue;
			step_point(hc, bps, sizes[k]);
		}
	}
}

void
hc_pps_step(struct hc *hc, struct hc_flow *f, double pps, const char *off_why)
{
	struct rte_pmd_mlx5_tm_txq_completions a, b;
	uint64_t warm, win, posted0;
	struct hc_rate r;
	double e;

	hc_windows(hc, 60, pps * 60 * 8, &warm, &win);
	if (hc_warm_up(hc, f, 1, warm) != 0 ||
	    hc_cmpl(hc, f->queue, &a) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	posted0 = f->posted;
	if (hc_send(hc, f, 1, win) != 0 || hc_cmpl(hc, f->queue, &b) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	hc_rate(&a, &b, &r);
	e = hc_err_pct(r.pps, pps);
	hc_ev(hc, "%" PRIu64 " packets of %u bytes in %.6f s between two CQE "
	      "time stamps: %.1f pkt/s (%+.3f%%) against %.0f pkt/s",
	      r.packets, f->frame_len, (double)r.ns / 1e9, r.pps, e, pps);
	hc_evj_num(hc, "configured_pps", pps);
	hc_evj_num(hc, "pps", r.pps);
	hc_evj_num(hc, "error_pct", e);
	if (!r.valid) {
		hc_step_end(hc, HC_FAIL, "no completion evidence");
		return;
	}
	switch (hc_judge_rate(hc->vclock, hc->opt.tolerance_pct, pps, r.pps,
			      f->posted - posted0, pps * (double)win / 1e9)) {
	case HC_RATE_OK:
		hc_step_end(hc, HC_PASS, NULL);
		break;
	case HC_RATE_SHORT:
		hc_step_end(hc, HC_SKIP, "the sender posted %" PRIu64 " frames "
			    "of the %.0f the rate needs: not a measure of "
			    "pacing", f->posted - posted0,
			    pps * (double)win / 1e9);
		break;
	default:
		hc_step_end(hc, HC_FAIL, "packet rate off by %+.3f%%%s", e,
			    off_why);
	}
}

static void
step_packet_mode(struct hc *hc)
{
	struct rte_tm_capabilities cap;
	struct rte_tm_error err = { 0 };
	const double pps = 20000;
	struct hc_shaper sh = { .rate = (uint64_t)pps, .packet_mode = true };
	struct hc_flow f = { .queue = 0, .frame_len = 60,
			     .expect_pps = (uint64_t)pps };
	char msg[512];
	int ret;

	hc_step_begin(hc, "packet_mode", "a packets-per-second shaper paces "
		      "frames, or is refused as the capability says");
	ret = hc_port_open(hc, "");
	memset(&cap, 0, sizeof(cap));
	if (ret == 0)
		ret = rte_tm_capabilities_get(hc->port_id, &cap, &err);
	if (ret != 0) {
		hc_step_end(hc, HC_FAIL, "rte_tm_capabilities_get: %s",
			    strerror(-ret));
		return;
	}
	hc_ev(hc, "device wqe_rate_pp %s; rte_tm packet mode %s",
	      hc->info.wqe_rate_pp ? "yes" : "no",
	      cap.shaper_private_packet_mode_supported ? "yes" : "no");
	hc_evj_bool(hc, "wqe_rate_pp", hc->info.wqe_rate_pp);
	hc_evj_bool(hc, "tm_packet_mode",
		    cap.shaper_private_packet_mode_supported);
	if (!cap.shaper_private_packet_mode_supported) {
		ret = hc_port_setup(hc, 1, 256);
		if (ret == 0)
			ret = hc_tm_commit(hc, &sh, 1, msg, sizeof(msg));
		hc_ev(hc, "packet-mode shaper of %.0f pkt/s: %s", pps,
		      ret == 0 ? "committed" : msg);
		if (ret == 0)
			hc_step_end(hc, HC_FAIL, "accepted although the port "
				    "says it has no packet mode");
		else if (hc->info.wqe_rate_pp)
			hc_step_end(hc, HC_FAIL, "the device has wqe_rate_pp "
				    "but rte_tm offers no packet mode");
		else
			hc_step_end(hc, HC_PASS, NULL);
		return;
	}
	if (!paced_port(hc, &sh, 1))
		return;
	hc_ev(hc, "the burst bound in packet mode is unverified on hardware "
	      "(the PMD leaves it to the device unless set)");
	hc_pps_step(hc, &f, pps, "");
}

static void
step_live_change(struct hc *hc)
{
	struct rte_pmd_mlx5_tm_txq_completions a, b, c, d;
	struct rte_pmd_mlx5_tm_sq_info s1, s2;
	const double r1 = 100e6, r2 = 400e6;
	struct hc_shaper sh1 = { .rate = (uint64_t)(r1 / 8) };
	struct hc_shaper sh2 = { .rate = (uint64_t)(r2 / 8) };
	struct hc_flow f = { .queue = 0, .frame_len = 1500,
			     .expect_pps = (uint64_t)(r2 / 12000) };
	uint64_t warm, win, win1, base, errs, p0, p1;
	struct hc_rate x, y;
	char msg[512];
	bool ok = true, rates_ok;
	int ret;

	hc_step_begin(hc, "live_change", "a new rate applied under traffic "
		      "(MODIFY_SQ of the index), nothing lost");
	if (!hc->info.packet_pacing) {
		hc_step_end(hc, HC_SKIP, "the device has no packet pacing");
		return;
	}
	if (!paced_port(hc, &sh1, 1))
		return;
	if (hc_cmpl(hc, 0, &a) != 0) {
		hc_step_end(hc, HC_FAIL, "no completion evidence");
		return;
	}
	base = a.last_packets;
	hc_windows(hc, 1500, r1, &warm, &win1);
	if (hc_warm_up(hc, &f, 1, warm) != 0 || hc_cmpl(hc, 0, &a) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	p0 = f.posted;
	if (hc_send(hc, &f, 1, win1) != 0 || hc_cmpl(hc, 0, &b) != 0 ||
	    rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &s1) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	/* The ring is full of posted frames: the change lands under them. */
	ret = hc_tm_update(hc, 0, &sh2, msg, sizeof(msg));
	if (ret != 0 || rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &s2) != 0) {
		hc_step_end(hc, HC_FAIL, "the change failed: %s", msg);
		return;
	}
	hc_ev(hc, "pacing index %u -> %u, SQ 0x%x -> 0x%x, state %u",
	      s1.pp_index, s2.pp_index, s1.sqn, s2.sqn, s2.state);
	p0 = f.posted - p0;
	hc_windows(hc, 1500, r2, &warm, &win);
	if (hc_send(hc, &f, 1, warm) != 0 || hc_cmpl(hc, 0, &c) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	p1 = f.posted;
	if (hc_send(hc, &f, 1, win) != 0 || hc_cmpl(hc, 0, &d) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	hc_rate(&a, &b, &x);
	hc_rate(&c, &d, &y);
	x.posted = p0;
	x.send_ns = win1;
	y.posted = f.posted - p1;
	y.send_ns = win;
	hc_rate_evidence(hc, "before", &x, r1);
	hc_rate_evidence(hc, "after", &y, r2);
	if (!hc_drain(hc, 0, base + f.posted)) {
		hc_ev(hc, "not every posted frame completed");
		ok = false;
	}
	hc_evj_u64(hc, "pp_before", s1.pp_index);
	hc_evj_u64(hc, "pp_after", s2.pp_index);
	hc_evj_num(hc, "before_bps", x.l2_bps);
	hc_evj_num(hc, "after_bps", y.l2_bps);
	hc_evj_u64(hc, "posted", f.posted);
	errs = hc_xstat(hc, "tx_q0_error_cqes");
	hc_evj_u64(hc, "error_cqes", errs);
	if (s2.pp_index == 0 || s2.pp_index == s1.pp_index ||
	    s2.sqn != s1.sqn || s2.state != 1) {
		hc_ev(hc, "expected a new index on the same ready SQ");
		ok = false;
	}
	rates_ok = hc_rate_judge(hc, "before", &x, r1);
	rates_ok &= hc_rate_judge(hc, "after", &y, r2);
	if (!rates_ok)
		hc_ev(hc, "a rate is outside the tolerance");
	if (errs != 0)
		ok = false;
	if (ok && rates_ok)
		hc_step_end(hc, HC_PASS, NULL);
	else if (ok)
		hc_step_end_rates(hc, "see the evidence");
	else
		hc_step_end(hc, HC_FAIL, "see the evidence");
}

static void
step_mixed(struct hc *hc)
{
	static const double paced[2] = { 2e9, 1e9 };
	struct rte_pmd_mlx5_tm_txq_completions a[4], b[4];
	struct rte_pmd_mlx5_tm_sq_info sq;
	struct hc_shaper sh[4] = {
		{ .rate = (uint64_t)(paced[0] / 8) },
		{ .rate = (uint64_t)(paced[1] / 8) },
	};
	struct hc_flow f[4];
	double line = (double)hc->info.line_rate_mbps * 1e6, wire = 0;
	uint64_t warm, win, p0[4];
	bool ok = true, rates_ok = true;
	uint16_t q;
	char who[32];

	hc_step_begin(hc, "mixed_queues", "two paced and two unpaced queues "
		      "together: the paced keep their rates");
	if (!hc->info.packet_pacing) {
		hc_step_end(hc, HC_SKIP, "the device has no packet pacing");
		return;
	}
	memset(f, 0, sizeof(f));
	for (q = 0; q < 4; q++) {
		f[q].queue = q;
		f[q].frame_len = 1500;
		f[q].expect_pps = q < 2 ? (uint64_t)(paced[q] / 12000) : 0;
	}
	if (!paced_port(hc, sh, 4))
		return;
	hc_windows(hc, 1500, paced[1], &warm, &win);
	if (hc_warm_up(hc, f, 4, warm) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send");
		return;
	}
	for (q = 0; q < 4; q++) {
		if (hc_cmpl(hc, q, &a[q]) != 0)
			ok = false;
		p0[q] = f[q].posted;
	}
	if (!ok || hc_send(hc, f, 4, win) != 0) {
		hc_step_end(hc, HC_FAIL, "could not send or read back");
		return;
	}
	for (q = 0; q < 4; q++)
		if (hc_cmpl(hc, q, &b[q]) != 0)
			ok = false;
	for (q = 0; q < 4 && ok; q++) {
		struct hc_rate r;

		hc_rate(&a[q], &b[q], &r);
		r.posted = f[q].posted - p0[q];
		r.send_ns = win;
		snprintf(who, sizeof(who), "queue %u (%s)", q,
			 q < 2 ? "paced" : "unpaced");
		if (q < 2) {
			hc_rate_evidence(hc, who, &r, paced[q]);
			if (!hc_rate_judge(hc, who, &r, paced[q])) {
				hc_ev(hc, "queue %u is off its rate", q);
				rates_ok = false;
			}
		} else {
			char s[32];

			hc_ev(hc, "%s: %" PRIu64 " packets, L2 %s, pacing index "
			      "%u", who, r.packets,
			      hc_fmt_bps(s, sizeof(s), r.l2_bps),
			      rte_pmd_mlx5_tm_txq_query(hc->port_id, q, &sq) ==
			      0 ? sq.pp_index : 0xffff);
			if (!r.valid || r.packets == 0 || sq.pp_index != 0) {
				hc_ev(hc, "queue %u sent nothing or is paced",
				      q);
				ok = false;
			}
		}
		wire += r.wire_bps;
		hc_evj_num(hc, q == 0 ? "q0_l2_bps" : q == 1 ? "q1_l2_bps" :
			   q == 2 ? "q2_l2_bps" : "q3_l2_bps", r.l2_bps);
	}
	hc_evj_num(hc, "total_wire_bps", wire);
	if (line > 0) {
		char s[32], l[32];

		hc_ev(hc, "all four on the wire: %s of a %s line",
		      hc_fmt_bps(s, sizeof(s), wire),
		      hc_fmt_bps(l, sizeof(l), line));
		if (wire > line * (1 + hc->opt.tolerance_pct / 100))
			ok = false;
	}
	if (ok && rates_ok)
		hc_step_end(hc, HC_PASS, NULL);
	else if (ok)
		hc_step_end_rates(hc, "see the evidence");
	else
		hc_step_end(hc, HC_FAIL, "see the evidence");
}

void
hc_steps_pacing(struct hc *hc)
{
	steps_accuracy(hc);
	step_packet_mode(hc);
	step_live_change(hc);
	step_mixed(hc);
}
