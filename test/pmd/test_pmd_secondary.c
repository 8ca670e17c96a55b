/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The secondary process of suite pmd_secondary (test/pmd/secondary.py):
 * attached to a primary that sends on net_mlx5_tm0, it reads statistics
 * and extended statistics, and is refused, with a message, what only the
 * primary may do (send, set a rate, traffic management). Prints one line
 * per check and "N passed, N failed".
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_tm.h>

#include "rte_pmd_mlx5_tm.h"
#include "pmd_test_util.h"
#include "test_eal.h"


static void
check(int ok, const char *what, const char *detail)
{
	if (ok)
		n_pass++;
	else
		n_fail++;
	printf("%s: %s%s%s\n", ok ? "ok" : "FAIL", what,
	       detail != NULL && !ok ? ": " : "",
	       detail != NULL && !ok ? detail : "");
}

int
main(int argc, char **argv)
{
	struct rte_eth_xstat_name *names = NULL;
	struct rte_tm_capabilities cap;
	struct rte_tm_error terr;
	struct rte_mbuf *none[1] = { NULL };
	struct rte_eth_stats st;
	char detail[256];
	const char *log;
	uint16_t port;
	int n, i, ret;
	bool completions = false, wire = false;

	if (rte_eal_init(argc, argv) < 0) {
		printf("FAIL: EAL init as a secondary: %s\n",
		       rte_strerror(rte_errno));
		printf("0 passed, 1 failed\n");
		return 1;
	}
	check(rte_eal_process_type() == RTE_PROC_SECONDARY,
	      "runs as a secondary process", NULL);
	ret = rte_eth_dev_get_port_by_name("net_mlx5_tm0", &port);
	check(ret == 0, "port net_mlx5_tm0 attached", NULL);
	if (ret != 0)
		goto out;
	memset(&st, 0, sizeof(st));
	ret = rte_eth_stats_get(port, &st);
	snprintf(detail, sizeof(detail), "ret %d, %" PRIu64 " packets", ret,
		 st.opackets);
	check(ret == 0 && st.opackets > 0 && st.q_opackets[1] > 0,
	      "statistics read: the primary's packets", detail);
	n = rte_eth_xstats_get_names(port, NULL, 0);
	if (n > 0)
		names = calloc(n, sizeof(*names));
	if (names != NULL && rte_eth_xstats_get_names(port, names, n) == n)
		for (i = 0; i < n; i++) {
			if (strcmp(names[i].name, "tx_q1_completions") == 0)
				completions = true;
			if (strstr(names[i].name, "wire") != NULL)
				wire = true;
		}
	free(names);
	check(completions && !wire,
	      "extended statistics: queue counters, no wire figures", NULL);
	snprintf(detail, sizeof(detail), "%" PRIu64,
		 xstat(port, "tx_q1_completions"));
	check(xstat(port, "tx_q1_completions") > 0 &&
	      xstat(port, "tx_q1_completions") != UINT64_MAX,
	      "tx_q1_completions counts the primary's completions", detail);
	log_capture_start();
	ret = rte_eth_tx_burst(port, 0, none, 1);
	ret += rte_eth_tx_burst(port, 0, none, 1);
	log = log_capture_stop();
	{
		const char *first = strstr(log, "sending from a secondary "
					   "process is not supported");

		/* Two refused bursts, one message. */
		check(ret == 0 && first != NULL &&
		      strstr(first + 1, "sending from a secondary") == NULL,
		      "sending refused with one message", log);
	}
	log_capture_start();
	ret = rte_eth_set_queue_rate_limit(port, 1, 10);
	log = log_capture_stop();
	check(ret == -ENOTSUP &&
	      strstr(log, "setting a queue rate limit from a secondary "
		     "process is not supported") != NULL,
	      "queue rate limit refused with a message", log);
	memset(&terr, 0, sizeof(terr));
	ret = rte_tm_capabilities_get(port, &cap, &terr);
	check(ret != 0, "rte_tm refused", NULL);
	check(rte_pmd_mlx5_tm_emu(port) == NULL && rte_errno == ENOTSUP,
	      "no device model in a secondary", NULL);
out:
	test_eal_cleanup();
	log_capture_free();
	printf("%u passed, %u failed\n", n_pass, n_fail);
	return n_fail == 0 ? 0 : 1;
}
