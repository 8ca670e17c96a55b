/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The rte_tm calls of the check: a one-level hierarchy (root, a leaf per
 * Tx queue) and live shaper changes. A refusal comes back with the
 * driver's own message for the report.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_tm.h>

#include "hc.h"

/* Root node id: above every queue id. */
#define HC_TM_ROOT 100000u
/* Profile ids of live changes start here (hierarchy ones: 1..n). */
#define HC_TM_UPDATE_PROFILE 60000u

static uint32_t next_update_profile = HC_TM_UPDATE_PROFILE;

/* Keep the driver's message about a refusal. */
static int
refusal(int ret, const struct rte_tm_error *err, const char *call,
	char *msg, size_t msglen)
{
	snprintf(msg, msglen, "%s: %s (errno %d)%s%s", call,
		 strerror(ret < 0 ? -ret : ret), ret < 0 ? -ret : ret,
		 err->message != NULL ? ": " : "",
		 err->message != NULL ? err->message : "");
	return ret < 0 ? ret : -EIO;
}

static void
to_params(const struct hc_shaper *sh, struct rte_tm_shaper_params *p)
{
	memset(p, 0, sizeof(*p));
	p->peak.rate = sh->rate;
	p->peak.size = sh->burst;
	p->packet_mode = sh->packet_mode ? 1 : 0;
}

static bool
same(const struct hc_shaper *a, const struct hc_shaper *b)
{
	return a->rate == b->rate && a->packet_mode == b->packet_mode &&
	       a->burst == b->burst;
}

int
hc_tm_commit(struct hc *hc, const struct hc_shaper *sh, uint16_t n,
	     char *msg, size_t msglen)
{
	struct rte_tm_error err = { 0 };
	struct rte_tm_shaper_params p;
	struct rte_tm_node_params np;
	uint32_t *profile;
	uint16_t q, k;
	int ret = 0;

	msg[0] = '\0';
	profile = calloc(n ? n : 1, sizeof(*profile));
	if (profile == NULL)
		return -ENOMEM;
	for (q = 0; q < n; q++) {
		profile[q] = RTE_TM_SHAPER_PROFILE_ID_NONE;
		if (sh[q].rate == 0)
			continue;
		for (k = 0; k < q; k++)
			if (sh[k].rate != 0 && same(&sh[k], &sh[q]))
				break;
		if (k < q) {
			profile[q] = profile[k];
			continue;
		}
		to_params(&sh[q], &p);
		profile[q] = q + 1u;
		ret = rte_tm_shaper_profile_add(hc->port_id, profile[q], &p,
						&err);
		if (ret != 0) {
			char call[96];

			snprintf(call, sizeof(call), "rte_tm_shaper_profile_add"
				 "(peak %" PRIu64 " %s)", sh[q].rate,
				 sh[q].packet_mode ? "pkt/s" : "B/s");
			ret = refusal(ret, &err, call, msg, msglen);
			goto out;
		}
	}
	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
	np.nonleaf.n_sp_priorities = 1;
	ret = rte_tm_node_add(hc->port_id, HC_TM_ROOT, RTE_TM_NODE_ID_NULL, 0,
			      1, 0, &np, &err);
	if (ret != 0) {
		ret = refusal(ret, &err, "rte_tm_node_add(root)", msg, msglen);
		goto out;
	}
	for (q = 0; q < n; q++) {
		memset(&np, 0, sizeof(np));
		np.shaper_profile_id = profile[q];
		np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
		np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
		ret = rte_tm_node_add(hc->port_id, q, HC_TM_ROOT, 0, 1, 1, &np,
				      &err);
		if (ret != 0) {
			ret = refusal(ret, &err, "rte_tm_node_add(leaf)", msg,
				      msglen);
			goto out;
		}
	}
	ret = rte_tm_hierarchy_commit(hc->port_id, 1, &err);
	if (ret != 0)
		ret = refusal(ret, &err, "rte_tm_hierarchy_commit", msg,
			      msglen);
out:
	free(profile);
	return ret;
}

int
hc_tm_update(struct hc *hc, uint16_t q, const struct hc_shaper *sh,
	     char *msg, size_t msglen)
{
	struct rte_tm_error err = { 0 };
	struct rte_tm_shaper_params p;
	uint32_t id = next_update_profile++;
	int ret;

	msg[0] = '\0';
	to_params(sh, &p);
	ret = rte_tm_shaper_profile_add(hc->port_id, id, &p, &err);
	if (ret != 0)
		return refusal(ret, &err, "rte_tm_shaper_profile_add", msg,
			       msglen);
	ret = rte_tm_node_shaper_update(hc->port_id, q, id, &err);
	if (ret != 0)
		return refusal(ret, &err, "rte_tm_node_shaper_update", msg,
			       msglen);
	return 0;
}
