/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Telemetry command /ethdev/mlx5_tm/pacing,<port_id>: the pacing entries a
 * net_mlx5_tm port holds. Telemetry containers nest one level only, so the
 * entries come as parallel arrays (one column per attribute, one row per
 * entry, in creation order).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_sched_priv.h"

#define TEL_CMD "/ethdev/mlx5_tm/pacing"

/* Columns of the entry table. */
enum tel_col {
	COL_INDEX,
	COL_RATE_LIMIT,
	COL_RATE_KBPS,
	COL_RATE_BYTES,
	COL_RATE_PKTS,
	COL_BURST,
	COL_TYPICAL,
	COL_DEDICATED,
	COL_REFS,
	COL_U64_COUNT,
};

static const char *const col_names[COL_U64_COUNT] = {
	[COL_INDEX] = "index",
	[COL_RATE_LIMIT] = "rate_limit",
	[COL_RATE_KBPS] = "rate_kbps",
	[COL_RATE_BYTES] = "rate_bytes_per_s",
	[COL_RATE_PKTS] = "rate_pkts_per_s",
	[COL_BURST] = "burst",
	[COL_TYPICAL] = "typical_size",
	[COL_DEDICATED] = "dedicated",
	[COL_REFS] = "refs",
};

static const char *
source_name(uint8_t source)
{
	switch (source) {
	case MLX5_TM_RATE_QUEUE:
		return "queue_rate_limit";
	case MLX5_TM_RATE_TM:
		return "rte_tm";
	default:
		return "none";
	}
}

/* "0,3,5" from the holders of one entry. */
static void
users_string(const struct pacing_table *table, uint64_t id, char *buf,
	     size_t len)
{
	uint64_t users[64];
	int64_t n;
	size_t off = 0;
	int64_t i;

	buf[0] = '\0';
	n = pacing_table_entry_users(table, id, users, RTE_DIM(users));
	for (i = 0; i < n && i < (int64_t)RTE_DIM(users) && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%" PRIu64,
				i ? "," : "", users[i]);
	if (n > (int64_t)RTE_DIM(users) && off < len)
		snprintf(buf + off, len - off, ",...");
}

static int
fill_entries(struct mlx5_tm_sched *s, struct rte_tel_data *d)
{
	struct pacing_table *table = mlx5_tm_pacing_table(s->pacing);
	struct rte_tel_data *cols[COL_U64_COUNT] = { NULL };
	struct rte_tel_data *modes, *users;
	struct pacing_entry_info info;
	char buf[RTE_TEL_MAX_STRING_LEN];
	uint64_t cursor = 0, v[COL_U64_COUNT];
	unsigned int c;
	int rows = 0;

	modes = rte_tel_data_alloc();
	users = rte_tel_data_alloc();
	for (c = 0; c < COL_U64_COUNT; c++)
		cols[c] = rte_tel_data_alloc();
	for (c = 0; c < COL_U64_COUNT; c++)
		if (cols[c] == NULL)
			goto nomem;
	if (modes == NULL || users == NULL)
		goto nomem;
	for (c = 0; c < COL_U64_COUNT; c++)
		rte_tel_data_start_array(cols[c], RTE_TEL_U64_VAL);
	rte_tel_data_start_array(modes, RTE_TEL_STRING_VAL);
	rte_tel_data_start_array(users, RTE_TEL_STRING_VAL);
	while (pacing_table_entry_next(table, &cursor, &info) == 1 &&
	       rows < RTE_TEL_MAX_ARRAY_ENTRIES) {
		const struct mlx5_tm_pp *pp = info.hw;
		bool wqe = info.ctx.rate_mode == PACING_RATE_MODE_WQE;

		v[COL_INDEX] = pp != NULL ? pp->index : 0;
		v[COL_RATE_LIMIT] = info.ctx.rate_limit;
		v[COL_RATE_KBPS] = wqe ? 0 : info.ctx.rate_limit;
		v[COL_RATE_BYTES] = wqe ? 0 : pacing_ctx_rate(&info.ctx);
		v[COL_RATE_PKTS] = wqe ? pacing_ctx_rate(&info.ctx) : 0;
		v[COL_BURST] = info.ctx.burst_upper_bound;
		v[COL_TYPICAL] = info.ctx.typical_packet_size;
		v[COL_DEDICATED] = info.dedicated;
		v[COL_REFS] = info.refcnt;
		for (c = 0; c < COL_U64_COUNT; c++)
			rte_tel_data_add_array_u64(cols[c], v[c]);
		rte_tel_data_add_array_string(modes, wqe ? "wqe_rate" :
					      "data_rate");
		users_string(table, info.id, buf, sizeof(buf));
		rte_tel_data_add_array_string(users, buf);
		rows++;
	}
	for (c = 0; c < COL_U64_COUNT; c++)
		rte_tel_data_add_dict_container(d, col_names[c], cols[c], 0);
	rte_tel_data_add_dict_container(d, "mode", modes, 0);
	rte_tel_data_add_dict_container(d, "users", users, 0);
	return 0;
nomem:
	for (c = 0; c < COL_U64_COUNT; c++)
		rte_tel_data_free(cols[c]);
	rte_tel_data_free(modes);
	rte_tel_data_free(users);
	return -ENOMEM;
}

/* Per-queue view: what set each queue's rate, and its pacing index. */
static int
fill_queues(struct mlx5_tm_sched *s, struct rte_tel_data *d)
{
	struct rte_tel_data *src = rte_tel_data_alloc();
	struct rte_tel_data *idx = rte_tel_data_alloc();
	uint16_t q;

	if (src == NULL || idx == NULL) {
		rte_tel_data_free(src);
		rte_tel_data_free(idx);
		return -ENOMEM;
	}
	rte_tel_data_start_array(src, RTE_TEL_STRING_VAL);
	rte_tel_data_start_array(idx, RTE_TEL_U64_VAL);
	for (q = 0; q < s->nb_txq && q < RTE_TEL_MAX_ARRAY_ENTRIES; q++) {
		rte_tel_data_add_array_string(src,
			source_name(s->txq[q].source));
		rte_tel_data_add_array_u64(idx, s->txq[q].entry_id != 0 ?
			mlx5_tm_pacing_index(s->pacing, s->txq[q].entry_id) :
			0);
	}
	rte_tel_data_add_dict_container(d, "queue_rate_source", src, 0);
	rte_tel_data_add_dict_container(d, "queue_pacing_index", idx, 0);
	return 0;
}

static int
tel_pacing(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct mlx5_tm_pacing_conf *conf;
	struct mlx5_tm_sched *s;
	struct pacing_table *table;
	unsigned long port;
	char *end;
	int ret;

	(void)cmd;
	if (params == NULL || *params == '\0')
		return -EINVAL;
	errno = 0;
	port = strtoul(params, &end, 10);
	if (errno != 0 || *end != '\0' || port >= RTE_MAX_ETHPORTS)
		return -EINVAL;
	mlx5_tm_sched_registry_lock();
	s = mlx5_tm_sched_by_port(port);
	if (s == NULL) {
		mlx5_tm_sched_registry_unlock();
		return -EINVAL;
	}
	pthread_mutex_lock(&s->lock);
	table = mlx5_tm_pacing_table(s->pacing);
	conf = mlx5_tm_pacing_conf(s->pacing);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "port", port);
	rte_tel_data_add_dict_string(d, "pacing_index",
				     conf->dedicated ? "dedicated" : "shared");
	rte_tel_data_add_dict_u64(d, "rate_tolerance_ppm",
				  conf->rate_tolerance_ppm);
	rte_tel_data_add_dict_u64(d, "table_size",
				  pacing_table_capacity(table));
	rte_tel_data_add_dict_u64(d, "in_use", pacing_table_in_use(table));
	rte_tel_data_add_dict_string(d, "hierarchy", s->committed ?
		"committed" : s->hier.n_nodes > 0 ? "not committed" : "none");
	ret = fill_entries(s, d);
	if (ret == 0)
		ret = fill_queues(s, d);
	pthread_mutex_unlock(&s->lock);
	mlx5_tm_sched_registry_unlock();
	return ret;
}

void
mlx5_tm_telemetry_register(void)
{
	static bool registered;

	if (registered)
		return;
	registered = true;
	rte_telemetry_register_cmd(TEL_CMD, tel_pacing,
		"Pacing entries of a net_mlx5_tm port, one column per "
		"attribute, and the rate source of each Tx queue. "
		"Parameters: int port_id");
}
