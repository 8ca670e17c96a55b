/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Control state of the PMD: bytes per Tx queue, per rte_tm node and per
 * pacing entry, from heap deltas: rte_malloc (socket statistics) and the C
 * library heap (mallinfo2). The PMD uses both (queues and rings from
 * rte_malloc, the scheduling layer from the C heap); the device model,
 * which stands in for the NIC and its firmware, uses the C heap. Its share
 * of a pacing entry is measured alone, with pp_alloc on a device opened
 * through the glue, and subtracted: on hardware that memory is the NIC's.
 */

#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_tm.h>

#include "bench.h"

#ifdef BENCH_HAVE_MLX5_TM
#include <mlx5_emu.h>
#include <mlx5_tm_glue.h>
#include <mlx5_tm_prm.h>
#endif

#define MEM_ROOT_ID (1u << 20)

/** Heap use at one moment. */
struct mem_snap {
	int64_t rte;   /**< rte_malloc bytes in use, all sockets. */
	int64_t libc;  /**< C library heap bytes in use. */
};

static void
snap(struct mem_snap *m)
{
	struct rte_malloc_socket_stats st;
	struct mallinfo2 mi = mallinfo2();
	unsigned int i;

	m->rte = 0;
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
						&st) == 0)
			m->rte += (int64_t)st.heap_allocsz_bytes;
	m->libc = (int64_t)(mi.uordblks + mi.hblkhd);
}

static struct mem_snap
delta(const struct mem_snap *a, const struct mem_snap *b)
{
	return (struct mem_snap){ b->rte - a->rte, b->libc - a->libc };
}

/*
 * Heap growth of creating + configuring a port with @p nb_txq queues, and
 * more when it is started (SQ, CQ and their device objects).
 */
static int
port_cost(uint16_t nb_txq, uint16_t nb_desc, struct mem_snap *d,
	  struct mem_snap *started)
{
	struct mem_snap a, b, c;
	uint16_t port;
	int ret;

	snap(&a);
	ret = bench_mlx5_tm_port("mem", nb_txq, nb_desc, &port);
	if (ret != 0)
		return ret;
	snap(&b);
	ret = rte_eth_dev_start(port);
	snap(&c);
	*d = delta(&a, &b);
	*started = delta(&b, &c);
	bench_mlx5_tm_destroy(port);
	return ret;
}

/*
 * The device model's own C-heap growth per pacing entry: @p k distinct
 * entries allocated on a model opened through the glue, no PMD involved.
 */
static int
model_pp_cost(const char *profile __rte_unused, uint32_t k __rte_unused,
	      double *bytes)
{
#ifdef BENCH_HAVE_MLX5_TM
	const struct mlx5_tm_glue *g = &mlx5_tm_glue_emu;
	uint8_t ctx[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)];
	struct mlx5_emu_config cfg;
	struct mlx5_tm_glue_dev *dev;
	struct mlx5_tm_pp **pp;
	struct mem_snap a, b;
	uint32_t i, n = 0;
	int ret = 0;

	pp = calloc(k, sizeof(*pp));
	if (pp == NULL)
		return -ENOMEM;
	if (mlx5_emu_config_init(&cfg, profile) != 0) {
		free(pp);
		return -EINVAL;
	}
	cfg.clock = MLX5_EMU_CLOCK_VIRTUAL;
	dev = g->open_device(profile, &cfg);
	if (dev == NULL) {
		free(pp);
		return -errno;
	}
	snap(&a);
	for (i = 0; i < k; i++) {
		memset(ctx, 0, sizeof(ctx));
		MLX5_SET(set_pp_rate_limit_context, ctx, rate_limit,
			 10000 + 1000 * i);
		pp[n] = g->pp_alloc(dev, sizeof(ctx), ctx, 0);
		if (pp[n] == NULL) {
			ret = -errno;
			break;
		}
		n++;
	}
	snap(&b);
	*bytes = n ? (double)(b.libc - a.libc) / n : NAN;
	for (i = 0; i < n; i++)
		g->pp_free(pp[i]);
	g->close_device(dev);
	free(pp);
	return ret;
#else
	*bytes = NAN;
	return -ENOTSUP;
#endif
}

/*
 * On a stopped port with @p leaves queues: growth of adding the hierarchy
 * (@p nodes) and of committing it with @p rates distinct rates (@p commit).
 */
static int
tm_cost(uint16_t leaves, uint32_t rates, struct mem_snap *nodes,
	struct mem_snap *commit)
{
	struct rte_tm_node_params np;
	struct rte_tm_shaper_params sp;
	struct rte_tm_error err;
	struct mem_snap a, b, c;
	uint16_t port;
	uint32_t i;
	int ret;

	ret = bench_mlx5_tm_port("mem", leaves, 64, &port);
	if (ret != 0)
		return ret;
	for (i = 0; ret == 0 && i < rates; i++) {
		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = 1250000ull + 125000ull * i;
		ret = rte_tm_shaper_profile_add(port, 1 + i, &sp, &err);
	}
	snap(&a);
	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
	np.nonleaf.n_sp_priorities = 1;
	if (ret == 0)
		ret = rte_tm_node_add(port, MEM_ROOT_ID, RTE_TM_NODE_ID_NULL,
				      0, 1, RTE_TM_NODE_LEVEL_ID_ANY, &np,
				      &err);
	for (i = 0; ret == 0 && i < leaves; i++) {
		memset(&np, 0, sizeof(np));
		np.shaper_profile_id = 1 + i % rates;
		np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
		np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
		ret = rte_tm_node_add(port, i, MEM_ROOT_ID, 0, 1,
				      RTE_TM_NODE_LEVEL_ID_ANY, &np, &err);
	}
	snap(&b);
	if (ret == 0)
		ret = rte_tm_hierarchy_commit(port, 1, &err);
	snap(&c);
	*nodes = delta(&a, &b);
	*commit = delta(&b, &c);
	if (ret != 0)
		fprintf(stderr, "memory: hierarchy of %u leaves: %s\n", leaves,
			err.message ? err.message : strerror(-ret));
	bench_mlx5_tm_destroy(port);
	return ret;
}

static void
record(struct bench_json *js, const char *key, double rte, double libc,
       const char *how)
{
	printf("  %-26s %10.1f %10.1f   %s\n", key, rte, libc, how);
	bench_json_obj_begin(js, key);
	bench_json_num(js, "pmd_rte_malloc_bytes", rte);
	bench_json_num(js, "device_model_libc_bytes", libc);
	bench_json_str(js, "how", how);
	bench_json_obj_end(js);
}

int
bench_memory_run(const struct bench_opts *o, struct bench_json *js)
{
	uint16_t big = (uint16_t)RTE_MIN(o->max_leaves, 1024u);
	uint32_t table = bench_mlx5_tm_table_size();
	struct mem_snap p1, s1, pn64, sn64, pn1k, sn1k, n1, c1, nk, ck;
	double model_pp = NAN, entry_rte = NAN, entry_libc = NAN;
	uint32_t k;
	int ret;

	bench_json_obj_begin(js, "memory");
	if (!bench_have_mlx5_tm()) {
		printf("\nMemory: mlx5_tm PMD not linked, skipped\n");
		bench_json_str(js, "skipped", "mlx5_tm PMD not linked");
		bench_json_obj_end(js);
		return -ENOTSUP;
	}
	if (big < 2)
		big = 2;
	k = RTE_MIN(table ? table : 511u, (uint32_t)big);
	ret = port_cost(1, 64, &p1, &s1);
	if (ret == 0)
		ret = port_cost(big, 64, &pn64, &sn64);
	if (ret == 0)
		ret = port_cost(big, 1024, &pn1k, &sn1k);
	if (ret == 0)
		ret = tm_cost(big, 1, &n1, &c1);
	if (ret == 0)
		ret = tm_cost(big, k, &nk, &ck);
	if (ret == 0 && k > 1)
		ret = model_pp_cost(o->profile, k, &model_pp);
	if (ret != 0) {
		bench_json_str(js, "failed", strerror(-ret));
		bench_json_obj_end(js);
		return ret;
	}
	printf("\nMemory: heap bytes (rte_malloc, C library heap), %u queues,"
	       " %u distinct rates\n  %-26s %10s %10s\n", big, k, "",
	       "rte_malloc", "C heap");
	bench_json_int(js, "queues", big);
	bench_json_int(js, "distinct_rates", k);
	bench_json_str(js, "columns", "rte_malloc: PMD queues and rings;"
		       " C heap: PMD scheduling layer and the device model");
	record(js, "port_with_1_queue", p1.rte, p1.libc,
	       "create + configure + 1 Tx queue (64 desc), not started");
	record(js, "per_queue_setup",
	       (double)(pn64.rte - p1.rte) / (big - 1),
	       (double)(pn64.libc - p1.libc) / (big - 1),
	       "(N-queue port - 1-queue port) / (N - 1), 64 desc");
	record(js, "per_queue_start",
	       (double)(sn64.rte - s1.rte) / (big - 1),
	       (double)(sn64.libc - s1.libc) / (big - 1),
	       "same for rte_eth_dev_start (SQ, CQ, device objects)");
	record(js, "per_queue_per_desc",
	       (double)(pn1k.rte + sn1k.rte - pn64.rte - sn64.rte) /
	       big / (1024 - 64),
	       (double)(pn1k.libc + sn1k.libc - pn64.libc - sn64.libc) /
	       big / (1024 - 64),
	       "ring share: (1024-desc - 64-desc) / N / 960");
	record(js, "per_tm_node", (double)n1.rte / (big + 1),
	       (double)n1.libc / (big + 1),
	       "rte_tm node_add of root + N leaves / (N + 1)");
	record(js, "commit_1_rate_per_leaf", (double)c1.rte / big,
	       (double)c1.libc / big,
	       "commit, every leaf on one shared entry, / N");
	if (k > 1) {
		entry_rte = (double)(ck.rte - c1.rte) / (k - 1);
		entry_libc = (double)(ck.libc - c1.libc) / (k - 1);
		record(js, "per_pacing_entry", entry_rte, entry_libc,
		       "(commit with K rates - with 1) / (K - 1)");
		record(js, "per_pacing_entry_model", 0, model_pp,
		       "device model alone: K pp_alloc through the glue / K");
		record(js, "per_pacing_entry_pmd", entry_rte,
		       entry_libc - model_pp,
		       "per_pacing_entry - per_pacing_entry_model");
	}
	bench_json_obj_end(js);
	return 0;
}
