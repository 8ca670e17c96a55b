/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Control-path cost of the rte_tm backend as the hierarchy grows:
 * rte_tm_hierarchy_commit() for a root and N leaves (Tx queues) with 1, 16
 * and rate-table-size distinct rates, on a stopped port (the pacing index
 * goes into CREATE_SQ at start) and on a started one (MODIFY_SQ per leaf);
 * then the latency of live changes on a started port (shaper and parent
 * updates, queue rate limits) at 16, 256 and N leaves, each beside its
 * 16-leaf figure (a live change should cost the same at any N). Each
 * figure is split into the device model's command time (when the model
 * reports it) and the rest, which is our software.
 *
 * Reference in the same run: the port start itself (N CREATE_SQ without a
 * hierarchy), which any PMD with N hardware queues pays.
 *
 * Then the same for a 3-level tree (root, N / 16 groups with a ceiling,
 * N leaves of two weights): on the NIC scheduling hierarchy, TSARs, queue
 * groups and SQ attachments on top of the pacing entries; printed beside
 * the leaf-only commit of the same N, measured in the same run.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <rte_ethdev.h>
#include <rte_tm.h>

#ifdef BENCH_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

#include "bench.h"

#define CTL_ROOT_ID (1u << 20)
#define CTL_NB_DESC 64
#define CTL_MAX_REPS 16
#define CTL_UPDATE_LEAVES 16
#define CTL_TREE_FANOUT 16          /* leaves per group of the 3-level tree */
#define CTL_TREE_GROUP_RATE 12500000 /* bytes/s: a group's 100 Mbit/s */

static const uint32_t ctl_leaves[] = { 1, 16, 64, 256, 512, 1024 };
/* No more sizes than ctl_leaves: fit() has room for as many. */
static const uint32_t ctl_tree_leaves[] = { 16, 64, 256, 512, 1024 };

enum ctl_kind { CTL_ONE_RATE, CTL_16_RATES, CTL_TABLE_RATES, CTL_NB_KINDS };
static const char *const ctl_kind_names[CTL_NB_KINDS] = {
	"1", "16", "table",
};

enum ctl_when { CTL_BEFORE_START, CTL_AFTER_START, CTL_NB_WHEN };
static const char *const ctl_when_names[CTL_NB_WHEN] = {
	"before_start", "after_start",
};

/**
 * Time of one control operation, split. The total is the CPU time of the
 * calling thread: the device model runs its commands in the caller (the
 * firmware of a virtual-clock device has no thread of its own), and
 * descheduled time, common on a shared machine, is left out. Wall time
 * is kept beside it.
 */
struct ctl_time {
	double total_us;
	double wall_us;
	double device_us;
	uint64_t device_cmds;
	uint64_t faults;  /**< Page faults of the thread (minor). */
};

/** Median over the repetitions of one commit case. */
struct ctl_commit {
	bool valid;
	uint32_t leaves;
	uint32_t groups;           /**< Level-1 nodes; 0: root + leaves. */
	uint32_t rates;
	struct ctl_time commit;
	struct ctl_time start;     /**< Port start (before_start: after commit). */
};

static bool ctl_have_cmd_stats;
static bool ctl_callgrind;

/* Under --callgrind: count from here (a commit's instructions alone). */
static void
cg_begin(void)
{
#ifdef BENCH_HAVE_CALLGRIND
	if (ctl_callgrind) {
		CALLGRIND_ZERO_STATS;
		CALLGRIND_TOGGLE_COLLECT;
	}
#endif
}

/* Stop counting; one dump named @p what. */
static void
cg_end(const char *what)
{
#ifdef BENCH_HAVE_CALLGRIND
	if (ctl_callgrind) {
		CALLGRIND_TOGGLE_COLLECT;
		CALLGRIND_DUMP_STATS_AT(what);
	}
#else
	(void)what;
#endif
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? v[n / 2] : NAN;
}

static double
percentile(double *v, unsigned int n, double p)
{
	unsigned int i;

	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	i = (unsigned int)ceil(p * n) - 1;
	return v[RTE_MIN(i, n - 1)];
}

/* Measure one call: CPU, wall and device command time around it. */
#define CTL_TIMED(port, out, call) do { \
	uint64_t c0_, c1_, d0_, d1_, t0_, t1_, w0_, w1_; \
	struct rusage r0_, r1_; \
	getrusage(RUSAGE_THREAD, &r0_); \
	ctl_have_cmd_stats = bench_mlx5_tm_cmd_stats((port), &c0_, &d0_); \
	w0_ = bench_now_ns(); \
	t0_ = bench_thread_cpu_ns(); \
	(call); \
	t1_ = bench_thread_cpu_ns(); \
	w1_ = bench_now_ns(); \
	bench_mlx5_tm_cmd_stats((port), &c1_, &d1_); \
	getrusage(RUSAGE_THREAD, &r1_); \
	(out)->faults = (uint64_t)(r1_.ru_minflt - r0_.ru_minflt); \
	(out)->total_us = (double)(t1_ - t0_) / 1e3; \
	(out)->wall_us = (double)(w1_ - w0_) / 1e3; \
	(out)->device_us = (double)(d1_ - d0_) / 1e3; \
	(out)->device_cmds = c1_ - c0_; \
} while (0)

/* Bytes per second of the i-th distinct rate: 10 Mbit/s + i Mbit/s. */
static uint64_t
rate_of(uint32_t i, const struct rte_tm_capabilities *cap)
{
	uint64_t r = 1250000ull + 125000ull * i;

	if (cap->shaper_private_rate_min > r)
		r = cap->shaper_private_rate_min + 125000ull * i;
	if (cap->shaper_private_rate_max != 0 &&
	    r > cap->shaper_private_rate_max)
		r = cap->shaper_private_rate_max;
	return r;
}

static int
add_profiles(uint16_t port, uint32_t first_id, uint32_t n,
	     const struct rte_tm_capabilities *cap)
{
	struct rte_tm_shaper_params sp;
	struct rte_tm_error err;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = rate_of(i, cap);
		ret = rte_tm_shaper_profile_add(port, first_id + i, &sp, &err);
		if (ret != 0) {
			fprintf(stderr, "shaper_profile_add(%u): %s\n", i,
				err.message ? err.message : strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/*
 * Root CTL_ROOT_ID, leaves 0..n-1, leaf i on profile 1 + i % rates.
 * With @p groups > 0, a level of groups between them (ids CTL_ROOT_ID +
 * 1 + g, each with the ceiling of profile @p rates + 1): leaf i in group
 * i / (n / groups), the first half of each group's leaves of weight 1,
 * the second of weight 2, each half on one profile (1 + half % rates), so
 * that beyond the device's queue groups each half can share one exactly.
 */
static int
add_hierarchy(uint16_t port, uint32_t n, uint32_t groups, uint32_t rates)
{
	struct rte_tm_node_params np;
	struct rte_tm_error err;
	uint32_t i, per = groups ? n / groups : n;
	int ret;

	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
	np.nonleaf.n_sp_priorities = 1;
	ret = rte_tm_node_add(port, CTL_ROOT_ID, RTE_TM_NODE_ID_NULL, 0, 1,
			      RTE_TM_NODE_LEVEL_ID_ANY, &np, &err);
	np.shaper_profile_id = rates + 1;
	for (i = 0; ret == 0 && i < groups; i++)
		ret = rte_tm_node_add(port, CTL_ROOT_ID + 1 + i, CTL_ROOT_ID,
				      0, 1 + i % 2, RTE_TM_NODE_LEVEL_ID_ANY,
				      &np, &err);
	for (i = 0; ret == 0 && i < n; i++) {
		memset(&np, 0, sizeof(np));
		np.shaper_profile_id = 1 + (groups ? i / (per / 2) : i) %
					 rates;
		np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
		np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
		ret = rte_tm_node_add(port, i, groups ? CTL_ROOT_ID + 1 +
				      i / per : CTL_ROOT_ID, 0, groups ?
				      1 + (i % per) * 2 / per : 1,
				      RTE_TM_NODE_LEVEL_ID_ANY, &np, &err);
	}
	if (ret != 0)
		fprintf(stderr, "node_add: %s\n",
			err.message ? err.message : strerror(-ret));
	return ret;
}

static uint32_t
rates_of(enum ctl_kind kind, uint32_t leaves, uint32_t table)
{
	uint32_t k = kind == CTL_ONE_RATE ? 1 :
		     kind == CTL_16_RATES ? 16 : table;

	return RTE_MIN(k, leaves);
}

/* One repetition of one commit case on a fresh port. */
static int
commit_once(uint32_t leaves, uint32_t groups, uint32_t rates,
	    enum ctl_when when, struct ctl_time *commit,
	    struct ctl_time *start)
{
	struct rte_tm_capabilities cap;
	struct rte_tm_error err;
	uint16_t port;
	int ret, r = 0;

	ret = bench_mlx5_tm_port("ctl", leaves, CTL_NB_DESC, &port);
	if (ret != 0)
		return ret;
	ret = rte_tm_capabilities_get(port, &cap, &err);
	if (ret == 0 && when == CTL_AFTER_START) {
		CTL_TIMED(port, start, r = rte_eth_dev_start(port));
		ret = r;
	}
	if (ret == 0)
		ret = add_profiles(port, 1, rates, &cap);
	if (ret == 0 && groups > 0) {
		struct rte_tm_shaper_params sp = {
			.peak = { .rate = CTL_TREE_GROUP_RATE },
		};

		ret = rte_tm_shaper_profile_add(port, rates + 1, &sp, &err);
		if (ret != 0)
			fprintf(stderr, "group profile: %s\n", err.message ?
				err.message : strerror(-ret));
	}
	if (ret == 0)
		ret = add_hierarchy(port, leaves, groups, rates);
	if (ret == 0) {
		char what[64];

		/* Read by bench_callgrind.py: when, rates, groups, leaves. */
		snprintf(what, sizeof(what), "ctl:commit:%s:%u:%u:%u",
			 ctl_when_names[when], rates, groups, leaves);
		CTL_TIMED(port, commit, (cg_begin(),
			  r = rte_tm_hierarchy_commit(port, 1, &err),
			  cg_end(what)));
		ret = r;
		if (ret != 0)
			fprintf(stderr, "commit %u leaves %u groups %u rates: "
				"%s\n", leaves, groups, rates,
				err.message ? err.message : strerror(-ret));
	}
	if (ret == 0 && when == CTL_BEFORE_START) {
		CTL_TIMED(port, start, r = rte_eth_dev_start(port));
		ret = r;
	}
	bench_mlx5_tm_destroy(port);
	return ret;
}

static void
commit_case(const struct bench_opts *o, uint32_t leaves, uint32_t groups,
	    uint32_t rates, enum ctl_when when, struct ctl_commit *c)
{
	double ct[CTL_MAX_REPS], cd[CTL_MAX_REPS], st[CTL_MAX_REPS],
	       sd[CTL_MAX_REPS], cw[CTL_MAX_REPS], sw[CTL_MAX_REPS];
	uint32_t reps = RTE_MIN(o->reps, (uint32_t)CTL_MAX_REPS), i;
	struct ctl_time commit, start;

	memset(c, 0, sizeof(*c));
	c->leaves = leaves;
	c->groups = groups;
	c->rates = rates;
	for (i = 0; i < reps; i++) {
		memset(&commit, 0, sizeof(commit));
		memset(&start, 0, sizeof(start));
		if (commit_once(leaves, groups, rates, when, &commit,
				&start) != 0)
			return;
		ct[i] = commit.total_us;
		cw[i] = commit.wall_us;
		sw[i] = start.wall_us;
		cd[i] = commit.device_us;
		st[i] = start.total_us;
		sd[i] = start.device_us;
		c->commit.device_cmds = commit.device_cmds;
		c->commit.faults = commit.faults;
		c->start.device_cmds = start.device_cmds;
	}
	c->commit.total_us = median(ct, reps);
	c->commit.wall_us = median(cw, reps);
	c->start.wall_us = median(sw, reps);
	c->commit.device_us = median(cd, reps);
	c->start.total_us = median(st, reps);
	c->start.device_us = median(sd, reps);
	c->valid = true;
}

/* Least squares y = a + b x over @p n points; returns r2. */
static double
least_squares(const double *x, const double *y, unsigned int n, double *a,
	      double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0, den;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
		syy += y[i] * y[i];
	}
	den = n * sxx - sx * sx;
	*b = den != 0 ? (n * sxy - sx * sy) / den : NAN;
	*a = (sy - *b * sx) / n;
	return pow(n * sxy - sx * sy, 2) / (den * (n * syy - sy * sy));
}

/*
 * Growth of commit time with the number of leaves: a straight-line fit
 * over every N, and the exponent e of time ~ N^e from a log-log fit over
 * N >= 64 (where fixed costs no longer dominate). Linear: 0.8 < e < 1.2.
 */
static void
fit(const struct ctl_commit *c, unsigned int n, bool software,
    struct bench_json *js, const char *key, char *verdict, size_t vlen)
{
	double x[RTE_DIM(ctl_leaves)], y[RTE_DIM(ctl_leaves)];
	double lx[RTE_DIM(ctl_leaves)], ly[RTE_DIM(ctl_leaves)];
	double a, b, r2, la, e = NAN;
	unsigned int i, m = 0, lm = 0;
	const char *shape;

	for (i = 0; i < n; i++) {
		if (!c[i].valid)
			continue;
		x[m] = c[i].leaves;
		y[m] = c[i].commit.total_us -
		       (software ? c[i].commit.device_us : 0);
		if (x[m] >= 64 && y[m] > 0) {
			lx[lm] = log(x[m]);
			ly[lm] = log(y[m]);
			lm++;
		}
		m++;
	}
	if (m < 3) {
		snprintf(verdict, vlen, "%s: too few points", key);
		return;
	}
	r2 = least_squares(x, y, m, &a, &b);
	if (lm >= 2)
		least_squares(lx, ly, lm, &la, &e);
	shape = !isfinite(e) ? "unknown" : e <= 0.8 ? "sub-linear" :
		e >= 1.2 ? "super-linear" : "linear";
	snprintf(verdict, vlen, "%-8s %7.3f us/leaf %+8.1f us (r2 %.3f);"
		 " time ~ N^%.2f for N >= 64: %s", key, b, a, r2, e, shape);
	bench_json_obj_begin(js, key);
	bench_json_num(js, "slope_us_per_leaf", b);
	bench_json_num(js, "intercept_us", a);
	bench_json_num(js, "r2", r2);
	bench_json_num(js, "exponent", e);
	bench_json_str(js, "growth", shape);
	bench_json_obj_end(js);
}

static void
json_time(struct bench_json *js, const char *key, const struct ctl_time *t)
{
	bench_json_obj_begin(js, key);
	bench_json_num(js, "total_us", t->total_us);
	bench_json_num(js, "wall_us", t->wall_us);
	bench_json_num(js, "device_us",
		       ctl_have_cmd_stats ? t->device_us : NAN);
	bench_json_num(js, "software_us", ctl_have_cmd_stats ?
		       t->total_us - t->device_us : NAN);
	bench_json_int(js, "device_cmds", (int64_t)t->device_cmds);
	bench_json_int(js, "page_faults", (int64_t)t->faults);
	bench_json_obj_end(js);
}

static int
run_commits(const struct bench_opts *o, struct bench_json *js,
	    uint32_t table)
{
	static struct ctl_commit res[CTL_NB_WHEN][CTL_NB_KINDS]
				    [RTE_DIM(ctl_leaves)];
	unsigned int w, k, l, nl = 0, valid = 0;
	char verdict[256];

	while (nl < RTE_DIM(ctl_leaves) && ctl_leaves[nl] <= o->max_leaves)
		nl++;
	/* Warm-up: the first port of the process pays one-time costs. */
	commit_case(o, 1, 0, 1, CTL_AFTER_START, &res[0][0][0]);
	for (l = 0; l < nl; l++)
		for (k = 0; k < CTL_NB_KINDS; k++)
			for (w = 0; w < CTL_NB_WHEN; w++) {
				commit_case(o, ctl_leaves[l], 0,
					    rates_of(k, ctl_leaves[l], table),
					    w, &res[w][k][l]);
				valid += res[w][k][l].valid;
			}
	printf("\nControl path: rte_tm_hierarchy_commit, root + N leaves,"
	       " median of %u, microseconds of\nthread CPU time (device ="
	       " device-model command time%s;\nstart = rte_eth_dev_start of"
	       " the same port)\n",
	       o->reps, ctl_have_cmd_stats ? "" : ": NOT REPORTED by the model");
	printf("%-12s %-5s %6s %5s | %9s %8s %9s %9s %5s | %9s %9s\n",
	       "when", "kind", "leaves", "rates", "commit", "us/leaf",
	       "device", "software", "cmds", "start", "st.device");
	bench_json_arr_begin(js, "commit");
	for (w = 0; w < CTL_NB_WHEN; w++)
		for (k = 0; k < CTL_NB_KINDS; k++)
			for (l = 0; l < nl; l++) {
				const struct ctl_commit *c = &res[w][k][l];

				if (!c->valid) {
					printf("%-12s %-5s %6u | failed\n",
					       ctl_when_names[w],
					       ctl_kind_names[k], ctl_leaves[l]);
					continue;
				}
				printf("%-12s %-5s %6u %5u | %9.1f %8.2f"
				       " %9.1f %9.1f %5" PRIu64 " | %9.1f"
				       " %9.1f\n",
				       ctl_when_names[w], ctl_kind_names[k],
				       c->leaves, c->rates,
				       c->commit.total_us,
				       c->commit.total_us / c->leaves,
				       c->commit.device_us,
				       c->commit.total_us -
				       c->commit.device_us,
				       c->commit.device_cmds,
				       c->start.total_us, c->start.device_us);
				bench_json_obj_begin(js, NULL);
				bench_json_str(js, "when", ctl_when_names[w]);
				bench_json_int(js, "leaves", c->leaves);
				bench_json_str(js, "rates_kind",
					       ctl_kind_names[k]);
				bench_json_int(js, "rates", c->rates);
				json_time(js, "commit", &c->commit);
				json_time(js, "start", &c->start);
				bench_json_obj_end(js);
			}
	bench_json_arr_end(js);
	printf("\nGrowth of commit time with the number of leaves N"
	       " (least squares over N = 1..%u):\n",
	       ctl_leaves[nl ? nl - 1 : 0]);
	bench_json_arr_begin(js, "commit_fit");
	for (w = 0; w < CTL_NB_WHEN; w++)
		for (k = 0; k < CTL_NB_KINDS; k++) {
			bench_json_obj_begin(js, NULL);
			bench_json_str(js, "when", ctl_when_names[w]);
			bench_json_str(js, "rates_kind", ctl_kind_names[k]);
			fit(res[w][k], nl, false, js, "total", verdict,
			    sizeof(verdict));
			printf("  %-12s rates %-5s %s\n", ctl_when_names[w],
			       ctl_kind_names[k], verdict);
			if (ctl_have_cmd_stats) {
				fit(res[w][k], nl, true, js, "software",
				    verdict, sizeof(verdict));
				printf("  %-12s rates %-5s %s\n",
				       ctl_when_names[w], ctl_kind_names[k],
				       verdict);
			}
			bench_json_obj_end(js);
		}
	bench_json_arr_end(js);
	return valid > 0 ? 0 : -EIO;
}

/*
 * The 3-level tree (root, N / CTL_TREE_FANOUT groups, N leaves, 16 leaf
 * rates) and root + N leaves with the same rates, each N, before and
 * after start, in the same run.
 */
static int
run_tree_commits(const struct bench_opts *o, struct bench_json *js)
{
	static struct ctl_commit tree[CTL_NB_WHEN][RTE_DIM(ctl_tree_leaves)];
	static struct ctl_commit flat[CTL_NB_WHEN][RTE_DIM(ctl_tree_leaves)];
	unsigned int w, l, nl = 0, valid = 0;
	char verdict[256];

	while (nl < RTE_DIM(ctl_tree_leaves) &&
	       ctl_tree_leaves[nl] <= o->max_leaves)
		nl++;
	for (l = 0; l < nl; l++)
		for (w = 0; w < CTL_NB_WHEN; w++) {
			uint32_t n = ctl_tree_leaves[l];

			commit_case(o, n, 0, 16, w, &flat[w][l]);
			commit_case(o, n, n / CTL_TREE_FANOUT, 16, w,
				    &tree[w][l]);
			valid += tree[w][l].valid;
		}
	printf("\nControl path: rte_tm_hierarchy_commit of a 3-level tree"
	       " (root, N/%u groups with a\n100 Mbit/s ceiling and weights"
	       " 1 and 2, N leaves of weights 1 and 2, 16 leaf rates)\n"
	       "beside root + N leaves (same rates), same run, median of %u,"
	       " microseconds of thread\nCPU time; software = total - device"
	       " model command time (monotonic clock,\nits descheduled time"
	       " counts as device); faults = the thread's page faults\n",
	       CTL_TREE_FANOUT, o->reps);
	printf("%-12s %6s %6s | %9s %9s %5s | %9s %9s %9s %5s %6s\n",
	       "when", "leaves", "groups", "flat", "flat.sw", "cmds", "tree",
	       "tree.sw", "tree/flat", "cmds", "faults");
	bench_json_arr_begin(js, "commit_tree");
	for (w = 0; w < CTL_NB_WHEN; w++)
		for (l = 0; l < nl; l++) {
			const struct ctl_commit *t = &tree[w][l];
			const struct ctl_commit *f = &flat[w][l];

			printf("%-12s %6u %6u | ", ctl_when_names[w],
			       ctl_tree_leaves[l],
			       ctl_tree_leaves[l] / CTL_TREE_FANOUT);
			if (f->valid)
				printf("%9.1f %9.1f %5" PRIu64 " | ",
				       f->commit.total_us, f->commit.total_us -
				       f->commit.device_us,
				       f->commit.device_cmds);
			else
				printf("%9s %9s %5s | ", "failed", "", "");
			if (t->valid)
				printf("%9.1f %9.1f %9.2f %5" PRIu64 " %6"
				       PRIu64 "\n", t->commit.total_us,
				       t->commit.total_us - t->commit.device_us,
				       f->valid ? t->commit.total_us /
				       f->commit.total_us : NAN,
				       t->commit.device_cmds, t->commit.faults);
			else
				printf("%9s (refused: see the message above)\n",
				       "failed");
			bench_json_obj_begin(js, NULL);
			bench_json_str(js, "when", ctl_when_names[w]);
			bench_json_int(js, "leaves", ctl_tree_leaves[l]);
			bench_json_int(js, "groups",
				       ctl_tree_leaves[l] / CTL_TREE_FANOUT);
			bench_json_bool(js, "tree_valid", t->valid);
			if (t->valid)
				json_time(js, "tree", &t->commit);
			bench_json_bool(js, "flat_valid", f->valid);
			if (f->valid)
				json_time(js, "flat", &f->commit);
			bench_json_obj_end(js);
		}
	bench_json_arr_end(js);
	printf("\nGrowth of the 3-level tree's commit time with N (N = %u..%u):"
	       "\n", ctl_tree_leaves[0], ctl_tree_leaves[nl ? nl - 1 : 0]);
	bench_json_arr_begin(js, "commit_tree_fit");
	for (w = 0; w < CTL_NB_WHEN; w++) {
		bench_json_obj_begin(js, NULL);
		bench_json_str(js, "when", ctl_when_names[w]);
		fit(tree[w], nl, false, js, "total", verdict, sizeof(verdict));
		printf("  %-12s %s\n", ctl_when_names[w], verdict);
		if (ctl_have_cmd_stats) {
			fit(tree[w], nl, true, js, "software", verdict,
			    sizeof(verdict));
			printf("  %-12s %s\n", ctl_when_names[w], verdict);
		}
		bench_json_obj_end(js);
	}
	bench_json_arr_end(js);
	return valid > 0 ? 0 : -EIO;
}

/* The live changes measured on a started port. */
enum ctl_upd {
	CTL_UPD_LEAF,   /* shaper update of a leaf under the root */
	CTL_UPD_GROUP,  /* shaper update of a group of the 3-level tree */
	CTL_UPD_WEIGHT, /* parent update of a leaf: same group, new weight */
	CTL_UPD_MOVE,   /* parent update of a leaf: to the next group */
	CTL_UPD_RATE,   /* queue rate limit, no hierarchy */
	CTL_NB_UPD,
};
static const char *const ctl_upd_call[CTL_NB_UPD] = {
	"shaper_update", "shaper_update", "parent_update", "parent_update",
	"queue_rate_limit",
};
static const char *const ctl_upd_node[CTL_NB_UPD] = {
	"leaf", "group", "weight", "move", "queue",
};

/* Percentiles of one update case, microseconds. */
struct ctl_upd_res {
	bool valid;
	double w50, w99, p50, p99, d50, d99, s50, s99;
};

/* Groups of the tree of update case @p op with @p leaves (0: flat). */
static uint32_t
upd_groups(enum ctl_upd op, uint32_t leaves)
{
	if (op == CTL_UPD_LEAF || op == CTL_UPD_RATE)
		return 0;
	/* A move needs a second group. */
	if (op == CTL_UPD_MOVE && leaves / CTL_TREE_FANOUT < 2)
		return 2;
	return RTE_MAX(leaves / CTL_TREE_FANOUT, 1u);
}

/* Change @p i of case @p op; @p cur keeps the moved leaves' state. */
static int
upd_call(uint16_t port, enum ctl_upd op, uint32_t i, uint32_t moved,
	 uint32_t groups, uint32_t leaves, uint32_t nprof, uint32_t *cur,
	 struct rte_tm_error *err)
{
	uint32_t l = i % moved, per = leaves / RTE_MAX(groups, 1u), g;

	switch (op) {
	case CTL_UPD_LEAF:
		return rte_tm_node_shaper_update(port, l, 1 + i % nprof, err);
	case CTL_UPD_GROUP:
		return rte_tm_node_shaper_update(port, CTL_ROOT_ID + 1 +
						 i % groups, 1 + i % nprof,
						 err);
	case CTL_UPD_WEIGHT:
		/* Weights 1, 2, 3 in turn, in the leaf's group. */
		cur[l] = cur[l] % 3 + 1;
		return rte_tm_node_parent_update(port, l, CTL_ROOT_ID + 1 +
						 l / per, 0, cur[l], err);
	case CTL_UPD_MOVE:
		/* To the next group and back; its weight as added. */
		cur[l] ^= 1;
		g = (l / per + cur[l]) % groups;
		return rte_tm_node_parent_update(port, l, CTL_ROOT_ID + 1 + g,
						 0, 1 + (l % per) * 2 / per,
						 err);
	default:
		return rte_eth_set_queue_rate_limit(port, (uint16_t)l,
						    10 + i % nprof);
	}
}

/*
 * Latency of live change @p op on a started port with @p leaves leaves
 * (Tx queues), into @p res.
 */
static int
run_updates(const struct bench_opts *o, uint32_t leaves, enum ctl_upd op,
	    struct ctl_upd_res *res)
{
	uint32_t moved = RTE_MIN(leaves, (uint32_t)CTL_UPDATE_LEAVES);
	uint32_t groups = upd_groups(op, leaves);
	uint32_t per = leaves / RTE_MAX(groups, 1u);
	uint32_t nprof = moved + 1, i, n = o->updates;
	uint32_t cur[CTL_UPDATE_LEAVES];
	double *tot, *dev, *sw, *wall;
	struct rte_tm_capabilities cap;
	struct rte_tm_error err;
	struct ctl_time t;
	uint16_t port;
	int ret, r = 0;

	memset(res, 0, sizeof(*res));
	/* A moved leaf starts in its group, with the weight it was given. */
	for (i = 0; i < moved; i++)
		cur[i] = op == CTL_UPD_MOVE ? 0 : 1 + (i % per) * 2 / per;
	tot = calloc(4 * (size_t)n, sizeof(double));
	if (tot == NULL)
		return -ENOMEM;
	dev = tot + n;
	sw = dev + n;
	wall = sw + n;
	ret = bench_mlx5_tm_port("upd", leaves, CTL_NB_DESC, &port);
	if (ret != 0) {
		free(tot);
		return ret;
	}
	memset(&err, 0, sizeof(err));
	ret = rte_tm_capabilities_get(port, &cap, &err);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0 && op != CTL_UPD_RATE)
		ret = add_profiles(port, 1, nprof + 1, &cap);
	if (ret == 0 && op != CTL_UPD_RATE)
		ret = add_hierarchy(port, leaves, groups, groups ? nprof : 1);
	if (ret == 0 && op != CTL_UPD_RATE)
		ret = rte_tm_hierarchy_commit(port, 1, &err);
	for (i = 0; ret == 0 && i < n; i++) {
		CTL_TIMED(port, &t, r = upd_call(port, op, i, moved, groups,
						 leaves, nprof, cur, &err));
		ret = r;
		tot[i] = t.total_us;
		wall[i] = t.wall_us;
		dev[i] = t.device_us;
		sw[i] = t.total_us - t.device_us;
	}
	if (ret != 0)
		fprintf(stderr, "%s (%s) on %u leaves: %s\n", ctl_upd_call[op],
			ctl_upd_node[op], leaves, err.message ? err.message :
			strerror(-ret));
	bench_mlx5_tm_destroy(port);
	if (ret == 0) {
		res->valid = true;
		res->w50 = percentile(wall, n, 0.5);
		res->w99 = percentile(wall, n, 0.99);
		res->p50 = percentile(tot, n, 0.5);
		res->p99 = percentile(tot, n, 0.99);
		res->d50 = percentile(dev, n, 0.5);
		res->d99 = percentile(dev, n, 0.99);
		res->s50 = percentile(sw, n, 0.5);
		res->s99 = percentile(sw, n, 0.99);
	}
	free(tot);
	return ret;
}

/* Row of @p r, its software percentiles against @p base (16 leaves). */
static void
print_update(struct bench_json *js, enum ctl_upd op, uint32_t leaves,
	     uint32_t n, const struct ctl_upd_res *r,
	     const struct ctl_upd_res *base)
{
	double x50 = base->valid ? r->s50 / base->s50 : NAN;
	double x99 = base->valid ? r->s99 / base->s99 : NAN;

	printf("%-16s %-6s %6u %7u | %8.2f %8.2f | %8.2f %8.2f | %8.2f"
	       " %8.2f | %8.2f %8.2f | %6.2f %6.2f\n", ctl_upd_call[op],
	       ctl_upd_node[op], leaves, n, r->w50, r->w99, r->p50, r->p99,
	       r->d50, r->d99, r->s50, r->s99, x50, x99);
	bench_json_obj_begin(js, NULL);
	bench_json_str(js, "call", ctl_upd_call[op]);
	bench_json_str(js, "node", ctl_upd_node[op]);
	bench_json_int(js, "leaves", leaves);
	bench_json_int(js, "updates", n);
	bench_json_num(js, "wall_p50_us", r->w50);
	bench_json_num(js, "wall_p99_us", r->w99);
	bench_json_num(js, "p50_us", r->p50);
	bench_json_num(js, "p99_us", r->p99);
	bench_json_num(js, "device_p50_us", ctl_have_cmd_stats ? r->d50 : NAN);
	bench_json_num(js, "device_p99_us", ctl_have_cmd_stats ? r->d99 : NAN);
	bench_json_num(js, "software_p50_us",
		       ctl_have_cmd_stats ? r->s50 : NAN);
	bench_json_num(js, "software_p99_us",
		       ctl_have_cmd_stats ? r->s99 : NAN);
	bench_json_num(js, "software_p50_vs_16", x50);
	bench_json_num(js, "software_p99_vs_16", x99);
	bench_json_obj_end(js);
}

/*
 * Every live change at 16 leaves, 256 and the largest count, each beside
 * its 16-leaf row, in one run.
 */
static int
run_update_table(const struct bench_opts *o, struct bench_json *js)
{
	const uint32_t sizes[] = {
		RTE_MIN(o->max_leaves, (uint32_t)CTL_UPDATE_LEAVES),
		RTE_MIN(o->max_leaves, 256u), o->max_leaves,
	};
	struct ctl_upd_res base, r;
	unsigned int op, i;
	int ret, failed = 0;

	printf("\nControl path: live changes on a started port, microseconds"
	       "\n(wall = latency seen by the caller; cpu = thread CPU time ="
	       " device + software;\nx16 = software time / the same change's"
	       " at %u leaves); node: shaper_update of\na leaf under the root"
	       " or of a group of the 3-level tree (N/%u groups);\n"
	       "parent_update of a leaf: a new weight in its group, or a move"
	       " to the next group\nand back; queue_rate_limit without a"
	       " hierarchy\n", sizes[0], CTL_TREE_FANOUT);
	printf("%-16s %-6s %6s %7s | %8s %8s | %8s %8s | %8s %8s | %8s %8s |"
	       " %6s %6s\n", "call", "node", "leaves", "updates", "wall.p50",
	       "wall.p99", "cpu.p50", "cpu.p99", "dev.p50", "dev.p99",
	       "sw.p50", "sw.p99", "x16.50", "x16.99");
	bench_json_arr_begin(js, "shaper_update");
	for (op = 0; op < CTL_NB_UPD; op++) {
		memset(&base, 0, sizeof(base));
		for (i = 0; i < RTE_DIM(sizes); i++) {
			if (i > 0 && sizes[i] <= sizes[i - 1])
				continue;
			ret = run_updates(o, sizes[i], op, &r);
			/*
			 * A move makes its new queue group before the old
			 * one goes: with a group per leaf at the device's
			 * limit, one too many (issue 30, item 2).
			 */
			if (ret == -EREMOTEIO && op == CTL_UPD_MOVE) {
				printf("%-16s %-6s %6u | refused by the device"
				       " (the message above)\n",
				       ctl_upd_call[op], ctl_upd_node[op],
				       sizes[i]);
				continue;
			}
			if (ret != 0) {
				failed++;
				continue;
			}
			if (i == 0)
				base = r;
			print_update(js, op, sizes[i], o->updates, &r, &base);
		}
	}
	bench_json_arr_end(js);
	return failed ? -EIO : 0;
}

int
bench_control_run(const struct bench_opts *o, struct bench_json *js)
{
	uint32_t table = bench_mlx5_tm_table_size();
	int failed = 0;

	bench_json_obj_begin(js, "control");
	if (!bench_have_mlx5_tm()) {
		printf("\nControl path: mlx5_tm PMD not linked, skipped\n");
		bench_json_str(js, "skipped", "mlx5_tm PMD not linked");
		bench_json_obj_end(js);
		return -ENOTSUP;
	}
	if (table == 0)
		table = 511;
	ctl_callgrind = o->callgrind;
	bench_json_str(js, "profile", o->profile);
	bench_json_int(js, "rate_table_size", table);
	bench_json_int(js, "tx_desc_per_queue", CTL_NB_DESC);
	bench_json_int(js, "max_leaves", o->max_leaves);
	bench_json_str(js, "max_leaves_note",
		       "Tx queues per port are bounded by"
		       " RTE_MAX_QUEUES_PER_PORT (1024 in Debian's DPDK)");
	if (o->run_commits && run_commits(o, js, table) != 0)
		failed++;
	if (o->run_commits && run_tree_commits(o, js) != 0)
		failed++;
	/* Under callgrind only commits are counted: no update is. */
	if (!o->callgrind && run_update_table(o, js) != 0)
		failed++;
	bench_json_bool(js, "device_time_reported", ctl_have_cmd_stats);
	bench_json_obj_end(js);
	return failed ? -EIO : 0;
}
