/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The secondary process of suite pmd_secondary (test/pmd/secondary.py):
 * attached to a primary that has sent on net_mlx5_tm0 and stopped
 * forwarding (its counters hold still; its port stays started), it
 * calls each operation a secondary can reach, one case each: what it
 * reads comes from shared memory (device information, link, MTU and MAC,
 * queue information, statistics, extended statistics and their resets,
 * the PMD's device information and SQ numbers); what only the primary
 * may do (send, stop, set a rate, traffic management, ask the device) is
 * refused, with a message where the PMD gives one. Prints one line per
 * case and "N passed, N failed".
 */

#include <errno.h>
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

/* What the port reads from shared memory. */
static void
check_reads(uint16_t port)
{
	struct rte_pmd_mlx5_tm_dev_info pinfo;
	struct rte_eth_dev_info info;
	struct rte_eth_txq_info qinfo;
	struct rte_ether_addr mac;
	struct rte_eth_link link;
	char detail[256];
	uint16_t mtu = 0;
	uint32_t sqn = 0;
	int ret;

	memset(&info, 0, sizeof(info));
	ret = rte_eth_dev_info_get(port, &info);
	snprintf(detail, sizeof(detail), "ret %d, driver %s, %u Tx queues",
		 ret, info.driver_name ? info.driver_name : "(none)",
		 info.nb_tx_queues);
	check(ret == 0 && info.driver_name != NULL &&
	      strcmp(info.driver_name, "net_mlx5_tm") == 0 &&
	      info.nb_tx_queues == 2 && info.max_tx_queues >= 2,
	      "dev_infos_get: driver and queues", detail);
	memset(&link, 0, sizeof(link));
	ret = rte_eth_link_get(port, &link);
	snprintf(detail, sizeof(detail), "ret %d, status %u, %u Mbit/s", ret,
		 link.link_status, link.link_speed);
	check(ret == 0 && link.link_status == RTE_ETH_LINK_UP &&
	      link.link_speed == RTE_ETH_SPEED_NUM_100G,
	      "link_update: the primary's link, up at 100G", detail);
	ret = rte_eth_dev_get_mtu(port, &mtu);
	ret += rte_eth_macaddr_get(port, &mac);
	snprintf(detail, sizeof(detail), "ret %d, MTU %u, MAC %02x:%02x",
		 ret, mtu, mac.addr_bytes[0], mac.addr_bytes[1]);
	check(ret == 0 && mtu == 1500 && mac.addr_bytes[0] == 0x02 &&
	      mac.addr_bytes[1] == 0x6d, "MTU and MAC of the port", detail);
	memset(&qinfo, 0, sizeof(qinfo));
	ret = rte_eth_tx_queue_info_get(port, 1, &qinfo);
	snprintf(detail, sizeof(detail), "ret %d, %u descriptors", ret,
		 qinfo.nb_desc);
	check(ret == 0 && qinfo.nb_desc >= 64 &&
	      qinfo.queue_state == RTE_ETH_QUEUE_STATE_STARTED,
	      "txq_info_get: queue 1 set up and started", detail);
	memset(&pinfo, 0, sizeof(pinfo));
	ret = rte_pmd_mlx5_tm_dev_info(port, &pinfo);
	snprintf(detail, sizeof(detail), "ret %d, device %s, %u Mbit/s", ret,
		 pinfo.device, pinfo.line_rate_mbps);
	check(ret == 0 && pinfo.emulated && strcmp(pinfo.device, "cx6dx") == 0
	      && pinfo.line_rate_mbps == 100000,
	      "rte_pmd_mlx5_tm_dev_info: the capabilities read at probe",
	      detail);
	ret = rte_pmd_mlx5_tm_txq_sqn(port, 1, &sqn);
	snprintf(detail, sizeof(detail), "ret %d, SQ 0x%x", ret, sqn);
	check(ret == 0 && sqn != 0, "rte_pmd_mlx5_tm_txq_sqn", detail);
}

/* Statistics and extended statistics: read, then reset to zero. */
static void
check_stats(uint16_t port)
{
	struct rte_eth_xstat_name *names = NULL;
	bool completions = false, wire = false;
	struct rte_eth_stats st;
	char detail[256];
	int n, i, ret;

	memset(&st, 0, sizeof(st));
	ret = rte_eth_stats_get(port, &st);
	snprintf(detail, sizeof(detail), "ret %d, %" PRIu64 " packets", ret,
		 st.opackets);
	check(ret == 0 && st.opackets > 0 && st.q_opackets[1] > 0,
	      "stats_get: the primary's packets", detail);
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
	      "xstats_get_names: queue counters, no wire figures", NULL);
	snprintf(detail, sizeof(detail), "%" PRIu64,
		 xstat(port, "tx_q1_completions"));
	check(xstat(port, "tx_q1_completions") > 0 &&
	      xstat(port, "tx_q1_completions") != UINT64_MAX,
	      "xstats_get: tx_q1_completions counts the primary's completions",
	      detail);
	memset(&st, 0, sizeof(st));
	ret = rte_eth_stats_reset(port);
	ret += rte_eth_stats_get(port, &st);
	snprintf(detail, sizeof(detail), "ret %d, %" PRIu64 " packets", ret,
		 st.opackets);
	check(ret == 0 && st.opackets == 0 && st.q_opackets[1] == 0,
	      "stats_reset: the primary's counters start from zero", detail);
	ret = rte_eth_xstats_reset(port);
	snprintf(detail, sizeof(detail), "ret %d, %" PRIu64, ret,
		 xstat(port, "tx_q1_completions"));
	check(ret == 0 && xstat(port, "tx_q1_completions") == 0,
	      "xstats_reset: tx_q1_completions from zero", detail);
}

/* What only the primary may do. */
static void
check_refusals(uint16_t port)
{
	struct rte_pmd_mlx5_tm_txq_completions cc;
	struct rte_pmd_mlx5_tm_elem_info elem;
	struct rte_pmd_mlx5_tm_vport_tx vport;
	struct rte_pmd_mlx5_tm_sq_info sq;
	struct rte_mbuf *none[1] = { NULL };
	struct rte_tm_capabilities cap;
	struct rte_tm_error terr;
	const char *log, *first;
	char detail[128];
	int ret;

	log_capture_start();
	ret = rte_eth_tx_burst(port, 0, none, 1);
	ret += rte_eth_tx_burst(port, 0, none, 1);
	log = log_capture_stop();
	first = strstr(log, "sending from a secondary process is not "
		       "supported");
	/* Two refused bursts, one message. */
	check(ret == 0 && first != NULL &&
	      strstr(first + 1, "sending from a secondary") == NULL,
	      "tx_burst refused with one message", log);
	log_capture_start();
	ret = rte_eth_set_queue_rate_limit(port, 1, 10);
	log = log_capture_stop();
	check(ret == -ENOTSUP &&
	      strstr(log, "setting a queue rate limit from a secondary "
		     "process is not supported") != NULL,
	      "set_queue_rate_limit refused with a message", log);
	memset(&terr, 0, sizeof(terr));
	log_capture_start();
	ret = rte_tm_capabilities_get(port, &cap, &terr);
	log = log_capture_stop();
	check(ret != 0 && strstr(log, "traffic management (rte_tm) from a "
				 "secondary process") != NULL,
	      "tm_ops_get refused with a message", log);
	ret = rte_eth_dev_set_mtu(port, 1400);
	ret += rte_eth_tx_done_cleanup(port, 0, 0) == -ENOTSUP ? 0 : 1;
	snprintf(detail, sizeof(detail), "%d", ret);
	check(ret == -ENOTSUP, "mtu_set and tx_done_cleanup: none here",
	      detail);
	ret = rte_pmd_mlx5_tm_txq_query(port, 1, &sq) == -ENOTSUP;
	ret += rte_pmd_mlx5_tm_txq_completions(port, 1, &cc) == -ENOTSUP;
	ret += rte_pmd_mlx5_tm_vport_tx(port, &vport) == -ENOTSUP;
	ret += rte_pmd_mlx5_tm_node_query(port, 0, &elem) == -ENOTSUP;
	ret += rte_pmd_mlx5_tm_recover(port) == -ENOTSUP;
	snprintf(detail, sizeof(detail), "%d of 5 refused", ret);
	check(ret == 5, "rte_pmd_mlx5_tm functions that ask the device: "
	      "-ENOTSUP", detail);
	check(rte_pmd_mlx5_tm_emu(port) == NULL && rte_errno == ENOTSUP,
	      "no device model in a secondary", NULL);
	/* Last: ethdev points this process's burst functions at dummies. */
	log_capture_start();
	ret = rte_eth_dev_stop(port);
	log = log_capture_stop();
	check(ret == -ENOTSUP &&
	      strstr(log, "stopping from a secondary process is not "
		     "supported") != NULL,
	      "dev_stop refused with a message", log);
}

int
main(int argc, char **argv)
{
	uint16_t port;
	int ret;

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
	if (ret == 0) {
		check_reads(port);
		check_stats(port);
		check_refusals(port);
	}
	test_eal_cleanup();
	log_capture_free();
	printf("%u passed, %u failed\n", n_pass, n_fail);
	return n_fail == 0 ? 0 : 1;
}
