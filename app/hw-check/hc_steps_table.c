/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Steps about the device's rate table: how many entries this port can
 * hold (probed to ENOSPC through rte_tm), shared and dedicated entries
 * read back from the SQs, and the edges of the rate range through rte_tm
 * and rte_eth_set_queue_rate_limit.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_tm.h>

#include "hc.h"

/*
 * Commit @p k distinct shapers (1 Mbit/s apart from the lowest rate) on a
 * fresh stopped port of @p nb_txq queues: the pacing entries are taken at
 * commit. 0, or the refusal's -errno with @p msg.
 */
static int
try_entries(struct hc *hc, uint16_t nb_txq, uint16_t k, char *msg,
	    size_t msglen)
{
	uint64_t base = ((uint64_t)hc->info.pp_min_rate_kbps * 1000 + 7) / 8;
	struct hc_shaper *sh;
	uint16_t q;
	int ret;

	ret = hc_port_open(hc, "");
	if (ret == 0)
		ret = hc_port_setup(hc, nb_txq, 0);
	if (ret != 0) {
		snprintf(msg, msglen, "port set-up: %s", strerror(-ret));
		return ret;
	}
	sh = calloc(nb_txq, sizeof(*sh));
	if (sh == NULL)
		return -ENOMEM;
	for (q = 0; q < k; q++)
		sh[q].rate = base + (uint64_t)q * 125000;
	ret = hc_tm_commit(hc, sh, nb_txq, msg, msglen);
	free(sh);
	return ret;
}

static void
step_capacity(struct hc *hc)
{
	struct rte_eth_dev_info di;
	uint16_t size = hc->info.pp_table_size, maxq, lo, hi;
	char msg[512], fail_msg[512] = "";
	int ret;

	hc_step_begin(hc, "ratetable.capacity", "entries this port can hold, "
		      "probed to ENOSPC (index 0 is no entry)");
	if (!hc->info.packet_pacing || size == 0) {
		hc_step_end(hc, HC_SKIP, "the device has no packet pacing");
		return;
	}
	if (!hc->port_open || rte_eth_dev_info_get(hc->port_id, &di) != 0)
		di.max_tx_queues = 1;
	maxq = RTE_MIN((uint32_t)di.max_tx_queues, (uint32_t)size);
	if ((uint64_t)hc->info.pp_min_rate_kbps + (uint64_t)maxq * 1000 >
	    hc->info.pp_max_rate_kbps) {
		hc_step_end(hc, HC_SKIP, "the rate range holds fewer than %u "
			    "rates 1 Mbit/s apart", maxq);
		return;
	}
	ret = try_entries(hc, maxq, maxq, msg, sizeof(msg));
	hc_ev(hc, "rate table of %u entries; %u queues, each a distinct "
	      "rate: %s", size, maxq, ret == 0 ? "committed" : msg);
	hc_evj_u64(hc, "table_size", size);
	hc_evj_u64(hc, "queues", maxq);
	if (ret == 0) {
		if (maxq >= size)
			hc_step_end(hc, HC_FAIL, "%u entries held in a table of "
				    "%u: index 0 (unlimited) was counted as an "
				    "entry", maxq, size);
		else
			hc_step_end(hc, HC_SKIP, "the port has %u Tx queues, "
				    "fewer than the table's entries", maxq);
		return;
	}
	if (ret != -ENOSPC) {
		hc_step_end(hc, HC_FAIL, "refused, but not for lack of entries "
			    "(ENOSPC): %s", msg);
		return;
	}
	/* Largest count that commits: lo commits, hi does not. */
	lo = 0;
	hi = maxq;
	snprintf(fail_msg, sizeof(fail_msg), "%s", msg);
	while (hi - lo > 1) {
		uint16_t mid = lo + (hi - lo) / 2;

		ret = try_entries(hc, maxq, mid, msg, sizeof(msg));
		if (ret == 0) {
			lo = mid;
		} else if (ret == -ENOSPC) {
			hi = mid;
			snprintf(fail_msg, sizeof(fail_msg), "%s", msg);
		} else {
			hc_step_end(hc, HC_FAIL, "%u entries refused, not for "
				    "lack of entries: %s", mid, msg);
			return;
		}
	}
	hc_ev(hc, "%u distinct rates commit, %u do not: %s", lo, hi,
	      fail_msg);
	hc_ev(hc, "usable: %u of %u (index 0 is unlimited: at most %u); "
	      "held by other users (kernel, other processes): %d", lo, size,
	      size - 1, (int)size - 1 - (int)lo);
	hc_evj_u64(hc, "usable", lo);
	hc_evj_num(hc, "held_by_others", (double)size - 1 - lo);
	hc_evj_str(hc, "enospc_message", fail_msg);
	if (lo >= size)
		hc_step_end(hc, HC_FAIL, "more entries than the table holds");
	else if (lo == 0)
		hc_step_end(hc, HC_FAIL, "no entry at all could be taken");
	else
		hc_step_end(hc, HC_PASS, NULL);
}

/*
 * Queues 0 and 1 at one rate, queue 2 at another, on a fresh started
 * port with @p extra devargs; their pacing indexes from QUERY_SQ.
 */
static int
indexes(struct hc *hc, const char *extra, uint16_t pp[3], char *msg,
	size_t msglen)
{
	uint64_t r = ((uint64_t)hc->info.pp_min_rate_kbps * 1000 + 7) / 8;
	struct hc_shaper sh[3] = {
		{ .rate = r * 10 }, { .rate = r * 10 }, { .rate = r * 20 },
	};
	struct rte_pmd_mlx5_tm_sq_info sq;
	uint16_t q;
	int ret;

	ret = hc_port_open(hc, extra);
	if (ret == 0)
		ret = hc_port_setup(hc, 3, 256);
	if (ret != 0) {
		snprintf(msg, msglen, "port set-up: %s", strerror(-ret));
		return ret;
	}
	ret = hc_tm_commit(hc, sh, 3, msg, msglen);
	if (ret == 0)
		ret = hc_port_start(hc);
	for (q = 0; ret == 0 && q < 3; q++) {
		ret = rte_pmd_mlx5_tm_txq_query(hc->port_id, q, &sq);
		pp[q] = sq.pp_index;
	}
	if (ret != 0 && msg[0] == '\0')
		snprintf(msg, msglen, "%s", strerror(-ret));
	return ret;
}

static void
step_sharing(struct hc *hc)
{
	uint16_t pp[3] = { 0 };
	char msg[512];

	hc_step_begin(hc, "ratetable.sharing", "two queues at one rate share "
		      "an entry; another rate takes another");
	if (!hc->info.packet_pacing) {
		hc_step_end(hc, HC_SKIP, "the device has no packet pacing");
		return;
	}
	if (indexes(hc, "", pp, msg, sizeof(msg)) != 0) {
		hc_step_end(hc, HC_FAIL, "%s", msg);
		return;
	}
	hc_ev(hc, "pacing indexes from QUERY_SQ: queue 0 %u, queue 1 %u "
	      "(same rate), queue 2 %u", pp[0], pp[1], pp[2]);
	hc_evj_u64(hc, "pp_q0", pp[0]);
	hc_evj_u64(hc, "pp_q1", pp[1]);
	hc_evj_u64(hc, "pp_q2", pp[2]);
	if (pp[0] == 0 || pp[0] != pp[1] || pp[2] == 0 || pp[2] == pp[0])
		hc_step_end(hc, HC_FAIL, "expected queues 0 and 1 on one "
			    "entry, queue 2 on another");
	else
		hc_step_end(hc, HC_PASS, NULL);
}

static void
step_dedicated(struct hc *hc)
{
	uint16_t pp[3] = { 0 };
	char msg[512];

	hc_step_begin(hc, "ratetable.dedicated", "with pacing_index=dedicated "
		      "no two queues share an entry");
	if (!hc->info.packet_pacing) {
		hc_step_end(hc, HC_SKIP, "the device has no packet pacing");
		return;
	}
	if (indexes(hc, "pacing_index=dedicated", pp, msg, sizeof(msg)) !=
	    0) {
		hc_step_end(hc, HC_FAIL, "%s", msg);
		return;
	}
	hc_ev(hc, "pacing indexes from QUERY_SQ: queue 0 %u, queue 1 %u "
	      "(same rate), queue 2 %u", pp[0], pp[1], pp[2]);
	hc_evj_u64(hc, "pp_q0", pp[0]);
	hc_evj_u64(hc, "pp_q1", pp[1]);
	hc_evj_u64(hc, "pp_q2", pp[2]);
	if (pp[0] == 0 || pp[1] == 0 || pp[2] == 0 || pp[0] == pp[1] ||
	    pp[0] == pp[2] || pp[1] == pp[2])
		hc_step_end(hc, HC_FAIL, "expected three distinct entries");
	else
		hc_step_end(hc, HC_PASS, NULL);
}

/* Commit one queue at @p rate bytes/s on a fresh port: 0 or -errno. */
static int
try_rate(struct hc *hc, uint64_t rate, char *msg, size_t msglen)
{
	struct hc_shaper sh = { .rate = rate };
	int ret = hc_port_open(hc, "");

	if (ret == 0)
		ret = hc_port_setup(hc, 1, 0);
	if (ret != 0) {
		snprintf(msg, msglen, "port set-up: %s", strerror(-ret));
		return ret;
	}
	return hc_tm_commit(hc, &sh, 1, msg, msglen);
}

static void
step_range(struct hc *hc)
{
	struct rte_tm_capabilities cap;
	struct rte_tm_error err = { 0 };
	struct rte_pmd_mlx5_tm_sq_info sq;
	struct rte_eth_link link;
	uint64_t prm_min, prm_max;
	uint32_t mbps[2];
	const struct {
		const char *what;
		int64_t delta;
		bool max;
		bool ok;
	} edge[] = {
		{ "lowest rate", 0, false, true },
		{ "lowest rate - 1 B/s", -1, false, false },
		{ "highest rate", 0, true, true },
		{ "highest rate + 1 B/s", 1, true, false },
	};
	bool good = true;
	char msg[512];
	unsigned int i;
	int ret;

	hc_step_begin(hc, "ratetable.range", "the edges of the rate range: "
		      "accepted inside, refused outside");
	if (!hc->info.packet_pacing) {
		hc_step_end(hc, HC_SKIP, "the device has no packet pacing");
		return;
	}
	memset(&cap, 0, sizeof(cap));
	ret = rte_tm_capabilities_get(hc->port_id, &cap, &err);
	if (ret != 0 || cap.shaper_private_rate_max == 0) {
		hc_step_end(hc, HC_FAIL, "rte_tm_capabilities_get: %s",
			    err.message ? err.message : strerror(-ret));
		return;
	}
	prm_min = ((uint64_t)hc->info.pp_min_rate_kbps * 1000 + 7) / 8;
	prm_max = (uint64_t)hc->info.pp_max_rate_kbps * 1000 / 8;
	hc_ev(hc, "rte_tm private shaper range [%" PRIu64 ", %" PRIu64 "] "
	      "B/s; device [%u, %u] kbit/s = [%" PRIu64 ", %" PRIu64 "] B/s",
	      cap.shaper_private_rate_min, cap.shaper_private_rate_max,
	      hc->info.pp_min_rate_kbps, hc->info.pp_max_rate_kbps, prm_min,
	      prm_max);
	hc_evj_u64(hc, "tm_rate_min", cap.shaper_private_rate_min);
	hc_evj_u64(hc, "tm_rate_max", cap.shaper_private_rate_max);
	hc_evj_u64(hc, "pp_min_rate_kbps", hc->info.pp_min_rate_kbps);
	hc_evj_u64(hc, "pp_max_rate_kbps", hc->info.pp_max_rate_kbps);
	if (cap.shaper_private_rate_min < prm_min ||
	    cap.shaper_private_rate_max > prm_max) {
		hc_ev(hc, "rte_tm advertises rates outside the device's range");
		good = false;
	}
	for (i = 0; i < RTE_DIM(edge); i++) {
		uint64_t r = (edge[i].max ? cap.shaper_private_rate_max :
			      cap.shaper_private_rate_min) + edge[i].delta;

		ret = try_rate(hc, r, msg, sizeof(msg));
		hc_ev(hc, "rte_tm, %s (%" PRIu64 " B/s): %s", edge[i].what, r,
		      ret == 0 ? "committed" : msg);
		if ((ret == 0) != edge[i].ok) {
			good = false;
			hc_ev(hc, "  expected %s", edge[i].ok ? "accepted" :
			      "refused");
		} else if (ret != 0 && msg[0] == '\0') {
			good = false;
			hc_ev(hc, "  refused without a message");
		}
	}
	/* The queue-rate API, in Mbit/s, on a started port. */
	mbps[0] = (hc->info.pp_min_rate_kbps + 999) / 1000;
	mbps[1] = hc->info.pp_max_rate_kbps / 1000;
	ret = hc_port_open(hc, "");
	if (ret == 0)
		ret = hc_port_setup(hc, 1, 256);
	if (ret == 0)
		ret = hc_port_start(hc);
	if (ret == 0 && rte_eth_link_get_nowait(hc->port_id, &link) == 0 &&
	    link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN &&
	    link.link_speed < mbps[1])
		mbps[1] = link.link_speed;
	for (i = 0; ret == 0 && i < 2; i++) {
		int r = rte_eth_set_queue_rate_limit(hc->port_id, 0, mbps[i]);

		if (r == 0)
			r = rte_pmd_mlx5_tm_txq_query(hc->port_id, 0, &sq);
		hc_ev(hc, "rte_eth_set_queue_rate_limit(%u Mbit/s): %s, "
		      "pacing index %u", mbps[i], r == 0 ? "ok" :
		      strerror(-r), r == 0 ? sq.pp_index : 0);
		if (r != 0 || sq.pp_index == 0)
			good = false;
	}
	if (ret != 0)
		good = false;
	if (good)
		hc_step_end(hc, HC_PASS, NULL);
	else
		hc_step_end(hc, HC_FAIL, "an edge was not honoured (see the "
			    "evidence)");
}

void
hc_steps_table(struct hc *hc)
{
	step_capacity(hc);
	step_sharing(hc);
	step_dedicated(hc);
	step_range(hc);
}
