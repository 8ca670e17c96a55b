/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * dpdk-mlx5-tm-check: runs the steps of the hardware self-check on the
 * net_mlx5_tm port the user names with --vdev, prints each step's verdict
 * and evidence, and writes the JSON report to send back.
 *
 * Exit status: 0 every step passed or was skipped, 1 a step failed,
 * 2 the check could not run (no device, bad arguments, a --json path that
 * cannot be written), 3 the JSON report could not be written.
 */

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "hc.h"

static void
usage(const char *prog)
{
	printf("Usage: %s [EAL options] --vdev net_mlx5_tm0,dev=<ibdev|PCI> "
	       "-- [options]\n"
	       "       %s [EAL options] --vdev net_mlx5_tm0,emu=<cx5|cx6dx|"
	       "cx7>[,...] -- [options]\n\n"
	       "Checks a ConnectX NIC (dev=) or the emulated one (emu=, in "
	       "virtual time unless clock= is given) step by step.\n\n"
	       "Options (after --):\n"
	       "  --json FILE       write the report as JSON to FILE\n"
	       "  --tolerance PCT   pacing error allowed (default 1.0)\n"
	       "  --window-ms MS    measurement window in real time "
	       "(default 1000)\n"
	       "  --quick           fewer pacing points\n"
	       "  --help            this text (also before --)\n"
	       "  --eal-help        the EAL options (before --), DPDK's own "
	       "help\n\n"
	       "Exit status: 0 every step passed or was skipped, 1 a step "
	       "failed, 2 the check could not run (a --json path that cannot "
	       "be written: refused before the steps), 3 the JSON report "
	       "could not be written (a full disk: no partial file).\n",
	       prog, prog);
}

/*
 * --help or -h, before "--" or after it: the tool's own help, without
 * starting EAL (which would print its own, or need hugepages first).
 * --eal-help before "--" becomes EAL's --help.
 */
static void
help_before_eal(int argc, char **argv)
{
	static char eal_help[] = "--help";
	bool tool_args = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			usage(argv[0]);
			exit(0);
		}
		if (strcmp(argv[i], "--") == 0) {
			tool_args = true;
		} else if (strcmp(argv[i], "--eal-help") == 0) {
			if (tool_args) {
				fprintf(stderr, "hw-check: --eal-help goes "
					"before --: %s --eal-help\n",
					argv[0]);
				exit(2);
			}
			argv[i] = eal_help;
		}
	}
}

static int
parse_args(struct hc *hc, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "window-ms", required_argument, NULL, 'w' },
		{ "quick", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	hc->opt.tolerance_pct = 1.0;
	hc->opt.window_ms = 1000;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			hc->opt.json_path = optarg;
			break;
		case 't':
			hc->opt.tolerance_pct = strtod(optarg, &end);
			if (*end != '\0' || hc->opt.tolerance_pct <= 0 ||
			    hc->opt.tolerance_pct > 50) {
				fprintf(stderr, "hw-check: --tolerance %s: a "
					"percentage in (0, 50] is needed\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'w':
			hc->opt.window_ms = (uint32_t)strtoul(optarg, &end, 10);
			if (*end != '\0' || hc->opt.window_ms < 10 ||
			    hc->opt.window_ms > 60000) {
				fprintf(stderr, "hw-check: --window-ms %s: "
					"10..60000 is needed\n", optarg);
				return -EINVAL;
			}
			break;
		case 'q':
			hc->opt.quick = true;
			break;
		default: /* --help: help_before_eal() */
			usage(argv[0]);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hw-check: unexpected argument '%s'\n",
			argv[optind]);
		return -EINVAL;
	}
	return 0;
}

/* Say what the check needs to run on hardware, and what is there. */
static void
explain_no_device(const struct hc *hc)
{
	struct dirent *e;
	DIR *d;
	int n = 0;

	fprintf(stderr, "hw-check: no net_mlx5_tm port on '%s%s%s'.\n",
		hc->vdev_name, hc->vdev_args[0] ? "," : "", hc->vdev_args);
	fprintf(stderr,
		"The check needs one of:\n"
		"  - a ConnectX-5/6/7 NIC bound to its kernel driver "
		"(mlx5_core, mlx5_ib), rdma-core's libibverbs and libmlx5\n"
		"    (DEVX), /dev/infiniband/uverbs* readable, and root or "
		"CAP_NET_RAW + CAP_SYS_RAWIO (CAP_NET_ADMIN to set the MTU);\n"
		"    name it with --vdev net_mlx5_tm0,dev=<ibdev name, e.g. "
		"mlx5_0, or PCI address, e.g. 0000:08:00.0>\n"
		"  - or the emulated ConnectX: --vdev net_mlx5_tm0,"
		"emu=cx5|cx6dx|cx7\n");
	d = opendir("/sys/class/infiniband");
	if (d != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			fprintf(stderr, "%s %s", n++ ? "," : "RDMA devices "
				"present:", e->d_name);
		}
		closedir(d);
	}
	fprintf(stderr, "%s\n", n ? "" : "No RDMA device present "
		"(/sys/class/infiniband is empty or missing).");
}

int
main(int argc, char **argv)
{
	static struct hc hc;
	unsigned int pass, fail, skip;
	char device_line[640];
	struct timespec ts;
	int ret, used;

	help_before_eal(argc, argv);
	if (hc_dev_args(&hc, argc, argv) != 0)
		return 2;
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		/* Some EAL failures leave rte_errno 0 ("Success"). */
		fprintf(stderr, "hw-check: EAL initialisation failed: %s\n",
			rte_errno != 0 ? rte_strerror(rte_errno) :
			"EAL's own message above says why");
		return 2;
	}
	used = ret;
	argv[used] = argv[0];
	if (parse_args(&hc, argc - used, argv + used) != 0) {
		rte_eal_cleanup();
		return 2;
	}
	if (hc.vdev_name[0] == '\0') {
		fprintf(stderr, "hw-check: no device: give --vdev "
			"net_mlx5_tm0,dev=<ibdev|PCI> (a ConnectX NIC) or "
			"--vdev net_mlx5_tm0,emu=cx6dx (the emulated one)\n");
		rte_eal_cleanup();
		return 2;
	}
	/* A report that cannot be written is refused before the steps. */
	if (hc_report_open(&hc) != 0) {
		rte_eal_cleanup();
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	hc.t0_ns = (uint64_t)ts.tv_sec * 1000000000ULL +
		   (uint64_t)ts.tv_nsec;
	hc.vport_fcs = -1;
	hc.pool = rte_pktmbuf_pool_create("hc_pool", 8191, 256, 0,
					  2048 + RTE_PKTMBUF_HEADROOM,
					  SOCKET_ID_ANY);
	hc.jumbo_pool = rte_pktmbuf_pool_create("hc_jumbo", 511, 32, 0,
						9216 + RTE_PKTMBUF_HEADROOM,
						SOCKET_ID_ANY);
	if (hc.pool == NULL || hc.jumbo_pool == NULL) {
		fprintf(stderr, "hw-check: no memory for frames: %s\n",
			rte_strerror(rte_errno));
		report_file_discard(&hc.json_out);
		rte_eal_cleanup();
		return 2;
	}
	ret = hc_port_open(&hc, "");
	if (ret != 0) {
		explain_no_device(&hc);
		report_file_discard(&hc.json_out);
		rte_eal_cleanup();
		return 2;
	}
	snprintf(device_line, sizeof(device_line), "%s,%s%s", hc.vdev_name,
		 hc.vdev_args, hc.add_virtual_clock ? ",clock=virtual" : "");
	printf("dpdk-mlx5-tm-check on %s (%s)\n\n", device_line,
	       hc.info.emulated ? "emulated device" : "hardware");
	hc_steps_env(&hc);
	hc_steps_objects(&hc);
	hc_steps_table(&hc);
	hc_steps_pacing(&hc);
	hc_steps_sched(&hc);
	hc_port_close(&hc);
	hc_report_counts(&hc, &pass, &fail, &skip);
	ret = hc_report_finish(&hc, device_line);
	rte_mempool_free(hc.pool);
	rte_mempool_free(hc.jumbo_pool);
	rte_eal_cleanup();
	if (ret != 0)
		return 3;
	return fail != 0 ? 1 : 0;
}
