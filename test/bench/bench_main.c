/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * mlx5-tm-bench: datapath, control-path and memory benchmarks of the
 * mlx5-tm PMD, each beside a reference measured in the same run.
 *
 *   mlx5-tm-bench [options] [-- extra EAL options]
 *
 * The program starts EAL itself (one lcore, --no-huge --no-pci -m 1024
 * --no-shconf --no-telemetry, vdevs net_null0 and net_ring0: nothing
 * shared with other DPDK processes) and creates its mlx5-tm ports on the
 * device model with rte_vdev_init().
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_version.h>

#include "bench.h"
#include "test_eal.h"

#define BENCH_EAL_MAX_ARGS 64

static const char *const pmd_names[BENCH_PMD_COUNT] = {
	[BENCH_PMD_MLX5_TM] = "mlx5_tm",
	[BENCH_PMD_NULL] = "null",
	[BENCH_PMD_RING] = "ring",
	[BENCH_PMD_UPSTREAM] = "upstream",
};

const char *
bench_pmd_name(enum bench_pmd pmd)
{
	return pmd < BENCH_PMD_COUNT ? pmd_names[pmd] : "?";
}

uint64_t
bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t
bench_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
usage(const char *prog)
{
	printf("Usage: %s [options] [-- extra EAL options]\n"
	       "  --json FILE       write the results as JSON to FILE\n"
	       "  --packets N       packets per datapath case and round"
	       " (default 100000)\n"
	       "  --rounds N        rounds per datapath case, the PMDs'"
	       " rounds interleaved,\n"
	       "                    median kept (default 9)\n"
	       "  --reps N          repetitions of each commit case"
	       " (default 5)\n"
	       "  --updates N       live changes measured per update case"
	       " (default 2000)\n"
	       "  --max-leaves N    largest leaf count of the commit cases"
	       " (default 1024)\n"
	       "  --profile NAME    device-model profile (default cx6dx)\n"
	       "  --only LIST       comma list of datapath,control,memory,"
	       "model,\n"
	       "                    updates (the live changes of control"
	       " alone)\n"
	       "  --shapes LIST     datapath shapes only: comma list of"
	       " 64B,1500B,3seg\n"
	       "  --bursts LIST     datapath bursts only: comma list of"
	       " 1,8,32,64\n"
	       "  --callgrind       count instructions: run under\n"
	       "                    valgrind --tool=callgrind"
	       " --collect-atstart=no;\n"
	       "                    collection is on inside"
	       " rte_eth_tx_burst and\n"
	       "                    rte_tm_hierarchy_commit only; each"
	       " datapath case\n"
	       "                    and each commit case is one dump\n"
	       "  --fast-free       datapath ports with MBUF_FAST_FREE where"
	       " offered\n"
	       "  --smoke           tiny counts, to check that it runs\n"
	       "  --help            this text\n", prog);
}

static int
parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 0);
	if (errno != 0 || *end != '\0' || end == s || x == 0 || x > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

static int
parse_only(struct bench_opts *o, const char *list)
{
	char buf[128];
	char *tok, *save = NULL;

	if (strlen(list) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, list);
	o->run_datapath = o->run_control = o->run_memory = false;
	o->run_commits = false;
	o->run_model = false;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "datapath") == 0)
			o->run_datapath = true;
		else if (strcmp(tok, "control") == 0)
			o->run_control = o->run_commits = true;
		else if (strcmp(tok, "updates") == 0)
			o->run_control = true;
		else if (strcmp(tok, "memory") == 0)
			o->run_memory = true;
		else if (strcmp(tok, "model") == 0)
			o->run_model = true;
		else
			return -EINVAL;
	}
	return 0;
}

/* Bench options come first; "--" starts extra EAL options. */
static int
parse_args(int argc, char **argv, struct bench_opts *o, int *eal_first)
{
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "packets", required_argument, NULL, 'p' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "reps", required_argument, NULL, 'R' },
		{ "updates", required_argument, NULL, 'u' },
		{ "max-leaves", required_argument, NULL, 'L' },
		{ "profile", required_argument, NULL, 'P' },
		{ "only", required_argument, NULL, 'o' },
		{ "shapes", required_argument, NULL, 'S' },
		{ "bursts", required_argument, NULL, 'B' },
		{ "callgrind", no_argument, NULL, 'c' },
		{ "smoke", no_argument, NULL, 's' },
		{ "fast-free", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret = 0;

	*o = (struct bench_opts){
		.packets = 100000, .rounds = 9, .reps = 5, .updates = 2000,
		.max_leaves = 1024, .profile = "cx6dx",
		.run_datapath = true, .run_control = true, .run_commits = true,
		.run_memory = true,
		.run_model = true,
	};
	while (ret == 0 &&
	       (c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j': o->json_path = optarg; break;
		case 'p': ret = parse_u32(optarg, &o->packets); break;
		case 'r': ret = parse_u32(optarg, &o->rounds); break;
		case 'R': ret = parse_u32(optarg, &o->reps); break;
		case 'u': ret = parse_u32(optarg, &o->updates); break;
		case 'L': ret = parse_u32(optarg, &o->max_leaves); break;
		case 'P': o->profile = optarg; break;
		case 'o': ret = parse_only(o, optarg); break;
		case 'S': o->shapes = optarg; break;
		case 'B': o->bursts = optarg; break;
		case 'c': o->callgrind = true; break;
		case 's': o->smoke = true; break;
		case 'f': o->fast_free = true; break;
		case 'h': usage(argv[0]); exit(0);
		default: ret = -EINVAL; break;
		}
	}
	if (ret != 0) {
		fprintf(stderr, "bad option value\n");
		return ret;
	}
	if (o->smoke) {
		o->packets = 512;
		o->rounds = 1;
		o->reps = 1;
		o->updates = 50;
		if (o->max_leaves > 16)
			o->max_leaves = 16;
	}
	*eal_first = optind;
	return 0;
}

static void
cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || colon == NULL)
			continue;
		colon += 2;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

/* 1-minute load average: how much else ran on the machine. */
static double
load_average(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load = NAN;

	if (f == NULL)
		return load;
	if (fscanf(f, "%lf", &load) != 1)
		load = NAN;
	fclose(f);
	return load;
}

static void
json_machine(struct bench_json *js, const struct bench_opts *o,
	     int argc, char **argv)
{
	char cpu[128], cmd[1024] = "";
	size_t used = 0;
	int i;

	for (i = 0; i < argc && used < sizeof(cmd); i++)
		used += snprintf(cmd + used, sizeof(cmd) - used, "%s%s",
				 i ? " " : "", argv[i]);
	cpu_model(cpu, sizeof(cpu));
	bench_json_str(js, "command", cmd);
	bench_json_str(js, "mode", o->callgrind ? "callgrind" : "timing");
	bench_json_bool(js, "smoke", o->smoke);
	bench_json_bool(js, "fast_free", o->fast_free);
	bench_json_obj_begin(js, "machine");
	bench_json_int(js, "nproc", sysconf(_SC_NPROCESSORS_ONLN));
	bench_json_str(js, "cpu", cpu);
	bench_json_int(js, "tsc_hz", (int64_t)rte_get_tsc_hz());
	bench_json_str(js, "dpdk", rte_version());
	bench_json_num(js, "loadavg_1min_at_start", load_average());
	bench_json_obj_end(js);
	printf("machine: %ld cpus, %s, TSC %.3f GHz, %s, load average %.2f\n",
	       sysconf(_SC_NPROCESSORS_ONLN), cpu,
	       rte_get_tsc_hz() / 1e9, rte_version(), load_average());
}

int
main(int argc, char **argv)
{
	static char *eal_argv[BENCH_EAL_MAX_ARGS];
	static char *defaults[] = {
		"-l", "0", "--no-huge", "--no-pci", "-m", "1024",
		"--no-shconf", "--no-telemetry", "--log-level=warning",
		"--vdev", "net_null0", "--vdev", "net_ring0",
	};
	struct bench_opts o;
	struct bench_json js;
	int eal_argc = 0, first, i, ret, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &o, &first) != 0) {
		usage(argv[0]);
		return 2;
	}
	eal_argv[eal_argc++] = argv[0];
	for (i = 0; i < (int)RTE_DIM(defaults); i++)
		eal_argv[eal_argc++] = defaults[i];
	for (i = first; i < argc && eal_argc < BENCH_EAL_MAX_ARGS - 1; i++)
		eal_argv[eal_argc++] = argv[i];
	eal_argv[eal_argc] = NULL;
	ret = rte_eal_init(eal_argc, eal_argv);
	if (ret < 0) {
		fprintf(stderr, "EAL init failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	if (bench_json_init(&js) != 0) {
		test_eal_cleanup();
		return 1;
	}
	bench_mlx5_tm_set_profile(o.profile);
	json_machine(&js, &o, argc, argv);
	bench_json_bool(&js, "mlx5_tm_linked", bench_have_mlx5_tm());
	bench_json_bool(&js, "upstream_linked", bench_have_upstream());
	if (o.run_datapath && bench_datapath_run(&o, &js) != 0)
		failed++;
	if (o.run_control && bench_control_run(&o, &js) != 0)
		failed++;
	if (o.run_memory && bench_memory_run(&o, &js) != 0)
		failed++;
	if (o.run_model && bench_model_run(&o, &js) != 0)
		failed++;
	bench_json_int(&js, "parts_failed", failed);
	ret = bench_json_finish(&js, o.json_path);
	if (ret != 0) {
		fprintf(stderr, "cannot write %s: %s\n", o.json_path,
			strerror(-ret));
		failed++;
	}
	test_eal_cleanup();
	return failed ? 1 : 0;
}
