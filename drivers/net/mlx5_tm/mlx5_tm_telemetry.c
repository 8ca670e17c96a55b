/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Telemetry command
 * /ethdev/mlx5_tm/pacing,<port_id>[,<first_queue>[,<first_tsar>]]: the
 * pacing entries a net_mlx5_tm port holds and the rate source of each Tx
 * queue. Telemetry containers nest one level only, so the entries come as
 * parallel arrays (one column per attribute, one row per entry, in
 * creation order).
 *
 * A reply is at most 16 KB (the library drops what does not fit, without
 * a word), so the port is shown a page of TEL_PAGE_QUEUES queues at a
 * time: queues first_queue.. and the entries they hold, each entry with
 * its users among them; "next" gives the first queue of the next page.
 * The page size keeps the worst case (every queue of the page on an entry
 * of its own, users strings at their longest) well inside both the 16 KB
 * and the 128-character string limit. The scheduling elements (TSARs) are
 * paged the same way, TEL_PAGE_TSARS from first_tsar, "next_tsar" the
 * first of the next page.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_sched_priv.h"
#include "mlx5_tm_telemetry.h"

#define TEL_CMD "/ethdev/mlx5_tm/pacing"

/** Queues per page: see above. */
#define TEL_PAGE_QUEUES 32u

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

/* What set the rate of queue @p q. */
static const char *
source_name(const struct mlx5_tm_sched *s, uint16_t q)
{
	if (s->committed)
		return "rte_tm";
	return s->applied.queues[q].shaped ? "queue_rate_limit" : "none";
}

/* TSARs per page: six numbers each, beside a page of queues. */
#define TEL_PAGE_TSARS 64u

/* The page [first, first + n). */
struct tel_page {
	uint16_t first;
	uint16_t n;
};

static bool
in_page(const struct tel_page *pg, uint64_t q)
{
	return q >= pg->first && q < (uint64_t)pg->first + pg->n;
}

/*
 * The holders of entry @p users[0..n) that are queues of the page, as
 * ranges ("0-3,5"), into @p buf. Users come in the order they took the
 * entry; the ranges are in queue order.
 */
static void
users_string(const struct tel_page *pg, const uint64_t *users, int64_t n,
	     char *buf, size_t len)
{
	bool held[TEL_PAGE_QUEUES] = { false };
	size_t off = 0;
	unsigned int i, j;
	int64_t k;

	buf[0] = '\0';
	for (k = 0; k < n; k++)
		if (in_page(pg, users[k]))
			held[users[k] - pg->first] = true;
	for (i = 0; i < pg->n && off < len; i = j) {
		if (!held[i]) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < pg->n && held[j]; j++)
			;
		if (j - i == 1)
			off += snprintf(buf + off, len - off, "%s%u",
					off ? "," : "", pg->first + i);
		else
			off += snprintf(buf + off, len - off, "%s%u-%u",
					off ? "," : "", pg->first + i,
					pg->first + j - 1);
	}
}

/*
 * Whether entry @p users[0..n) belongs on page @p pg: a user of it is a
 * queue of the page, or (first page) no user is a queue of the port.
 */
static bool
entry_on_page(const struct tel_page *pg, uint16_t nb_txq,
	      const uint64_t *users, int64_t n)
{
	bool any_queue = false;
	int64_t k;

	for (k = 0; k < n; k++) {
		if (in_page(pg, users[k]))
			return true;
		if (users[k] < nb_txq)
			any_queue = true;
	}
	return pg->first == 0 && !any_queue;
}

/* The queues of the applied plan that hold entry @p id, in order. */
static int64_t
entry_holders(const struct tm_plan *p, uint64_t id, uint64_t *holders)
{
	int64_t n = 0;
	uint16_t q;

	for (q = 0; q < p->nb_txq; q++)
		if (p->queues[q].shaped && p->queues[q].entry == id)
			holders[n++] = q;
	return n;
}

static int
fill_entries(struct mlx5_tm_sched *s, const struct tel_page *pg,
	     struct rte_tel_data *d)
{
	struct pacing_table *table = mlx5_tm_pacing_table(s->pacing);
	struct rte_tel_data *cols[COL_U64_COUNT] = { NULL };
	struct rte_tel_data *modes, *users;
	struct pacing_entry_info info;
	char buf[RTE_TEL_MAX_STRING_LEN];
	uint64_t cursor = 0, v[COL_U64_COUNT];
	uint64_t *holders;
	unsigned int c;
	int ret = -ENOMEM;

	/* One reference per holder: at most every queue of the port. */
	holders = calloc(MLX5_TM_MAX_TXQ, sizeof(*holders));
	modes = rte_tel_data_alloc();
	users = rte_tel_data_alloc();
	for (c = 0; c < COL_U64_COUNT; c++)
		cols[c] = rte_tel_data_alloc();
	for (c = 0; c < COL_U64_COUNT; c++)
		if (cols[c] == NULL)
			goto out;
	if (holders == NULL || modes == NULL || users == NULL)
		goto out;
	for (c = 0; c < COL_U64_COUNT; c++)
		rte_tel_data_start_array(cols[c], RTE_TEL_U64_VAL);
	rte_tel_data_start_array(modes, RTE_TEL_STRING_VAL);
	rte_tel_data_start_array(users, RTE_TEL_STRING_VAL);
	while (pacing_table_entry_next(table, &cursor, &info) == 1) {
		const struct mlx5_tm_pp *pp = info.hw;
		bool wqe = info.ctx.rate_mode == PACING_RATE_MODE_WQE;
		int64_t n;

		n = entry_holders(&s->applied, info.id, holders);
		if (!entry_on_page(pg, s->applied.nb_txq, holders, n))
			continue;
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
		users_string(pg, holders, n, buf, sizeof(buf));
		rte_tel_data_add_array_string(users, buf);
	}
	for (c = 0; c < COL_U64_COUNT; c++)
		rte_tel_data_add_dict_container(d, col_names[c], cols[c], 0);
	rte_tel_data_add_dict_container(d, "mode", modes, 0);
	rte_tel_data_add_dict_container(d, "users", users, 0);
	free(holders);
	return 0;
out:
	for (c = 0; c < COL_U64_COUNT; c++)
		rte_tel_data_free(cols[c]);
	rte_tel_data_free(modes);
	rte_tel_data_free(users);
	free(holders);
	return ret;
}

/* Columns of u64 named @p names (n of them), started as arrays. */
static int
alloc_cols(struct rte_tel_data **cols, unsigned int n)
{
	unsigned int c;

	for (c = 0; c < n; c++) {
		cols[c] = rte_tel_data_alloc();
		if (cols[c] == NULL) {
			while (c-- > 0)
				rte_tel_data_free(cols[c]);
			return -ENOMEM;
		}
		rte_tel_data_start_array(cols[c], RTE_TEL_U64_VAL);
	}
	return 0;
}

static void
add_cols(struct rte_tel_data *d, struct rte_tel_data **cols,
	 const char *const *names, unsigned int n)
{
	unsigned int c;

	for (c = 0; c < n; c++)
		rte_tel_data_add_dict_container(d, names[c], cols[c], 0);
}

/*
 * Per-queue view: what set each queue's rate, its pacing index, and its
 * queue group (device id and bw_share, 0 for none).
 */
static int
fill_queues(struct mlx5_tm_sched *s, const struct tel_page *pg,
	    struct rte_tel_data *d)
{
	static const char *const names[] = { "queue_pacing_index",
		"queue_group", "queue_group_bw_share" };
	struct rte_tel_data *src = rte_tel_data_alloc();
	struct rte_tel_data *cols[RTE_DIM(names)];
	uint32_t q;

	if (src == NULL || alloc_cols(cols, RTE_DIM(names)) != 0) {
		rte_tel_data_free(src);
		return -ENOMEM;
	}
	rte_tel_data_start_array(src, RTE_TEL_STRING_VAL);
	for (q = pg->first; q < (uint32_t)pg->first + pg->n; q++) {
		const struct tm_queue *t = &s->applied.queues[q];
		const struct tm_elem *g = tm_plan_elem(&s->applied, t->group);

		rte_tel_data_add_array_string(src, source_name(s, q));
		rte_tel_data_add_array_u64(cols[0], t->shaped ?
			mlx5_tm_pacing_index(s->pacing, t->entry) : 0);
		rte_tel_data_add_array_u64(cols[1], g != NULL ? g->hw_id : 0);
		rte_tel_data_add_array_u64(cols[2], g != NULL ? g->bw_share : 0);
	}
	rte_tel_data_add_dict_container(d, "queue_rate_source", src, 0);
	add_cols(d, cols, names, RTE_DIM(names));
	return 0;
}

/* The number of TSARs of the applied plan. */
static uint32_t
tsar_count(const struct mlx5_tm_sched *s)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->applied.n_elems; i++)
		if (s->applied.elems[i].type == TM_ELEM_TSAR)
			n++;
	return n;
}

/*
 * The TSARs of the applied plan from the @p first th, parents first: the
 * node each stands for (its parent's for the port element), device ids,
 * the applied bw_share and ceiling (Mbit/s, 0 unlimited); a page of them.
 */
static int
fill_tree(struct mlx5_tm_sched *s, uint32_t first, struct rte_tel_data *d)
{
	static const char *const names[] = { "tsar_node", "tsar_id",
		"tsar_parent_id", "tsar_weight", "tsar_bw_share",
		"tsar_max_average_bw_mbps" };
	struct rte_tel_data *cols[RTE_DIM(names)];
	uint32_t i, t = 0, n = 0, total = tsar_count(s);

	if (alloc_cols(cols, RTE_DIM(names)) != 0)
		return -ENOMEM;
	for (i = 0; i < s->applied.n_elems && n < TEL_PAGE_TSARS; i++) {
		const struct tm_elem *e = &s->applied.elems[i];
		const struct tm_elem *p = tm_plan_elem(&s->applied, e->parent);

		if (e->type != TM_ELEM_TSAR || t++ < first)
			continue;
		rte_tel_data_add_array_u64(cols[0], e->node_id);
		rte_tel_data_add_array_u64(cols[1], e->hw_id);
		rte_tel_data_add_array_u64(cols[2], p != NULL ? p->hw_id : 0);
		rte_tel_data_add_array_u64(cols[3], e->weight);
		rte_tel_data_add_array_u64(cols[4], e->bw_share);
		rte_tel_data_add_array_u64(cols[5], e->max_average_bw);
		n++;
	}
	add_cols(d, cols, names, RTE_DIM(names));
	rte_tel_data_add_dict_u64(d, "nb_tsar", total);
	rte_tel_data_add_dict_u64(d, "first_tsar", first);
	rte_tel_data_add_dict_u64(d, "tsars", n);
	if (first + n < total)
		rte_tel_data_add_dict_u64(d, "next_tsar", first + n);
	rte_tel_data_add_dict_u64(d, "elements", s->applied.n_elems);
	rte_tel_data_add_dict_u64(d, "queue_groups", s->applied.n_groups);
	return 0;
}

/*
 * Answer a bad request with {"error": "<why>"}: DPDK 22.11's telemetry
 * turns a callback's failure into a bare null, which names nothing.
 * Messages fit RTE_TEL_MAX_STRING_LEN.
 */
static int __rte_format_printf(2, 3)
tel_error(struct rte_tel_data *d, const char *fmt, ...)
{
	char msg[RTE_TEL_MAX_STRING_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "error", msg);
	return 0;
}

/* A decimal number at @p s; false if there is none or it overflows. */
static bool
parse_decimal(const char *s, char **end, unsigned long *v)
{
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoul(s, end, 10);
	return errno == 0;
}

/*
 * "<port>[,<first_queue>[,<first_tsar>]]", decimal. A bad one gets the
 * error answer, naming the parameter, its value and what is allowed: true.
 */
static bool
parse_params(const char *params, unsigned long *port, unsigned long *first,
	     unsigned long *first_tsar, struct rte_tel_data *d)
{
	char *end;

	*first = 0;
	*first_tsar = 0;
	if (params == NULL || *params == '\0') {
		tel_error(d, "no parameters: expected "
			  "port_id[,first_queue[,first_tsar]]");
		return true;
	}
	if (!parse_decimal(params, &end, port) || *port >= RTE_MAX_ETHPORTS ||
	    (*end != '\0' && *end != ',')) {
		tel_error(d, "port_id '%.*s': expected a decimal port id below %u",
			  (int)RTE_MIN(strcspn(params, ","), (size_t)32),
			  params, RTE_MAX_ETHPORTS);
		return true;
	}
	if (*end == '\0')
		return false;
	params = end + 1;
	if (!parse_decimal(params, &end, first) ||
	    (*end != '\0' && *end != ',') || *first > UINT16_MAX) {
		tel_error(d, "first_queue '%.*s': expected a decimal queue number",
			  (int)RTE_MIN(strcspn(params, ","), (size_t)32),
			  params);
		return true;
	}
	if (*end == '\0')
		return false;
	params = end + 1;
	if (!parse_decimal(params, &end, first_tsar) || *end != '\0' ||
	    *first_tsar > UINT32_MAX) {
		tel_error(d, "first_tsar '%.32s': expected a decimal TSAR "
			  "number", params);
		return true;
	}
	return false;
}

static int
tel_pacing(const char *cmd __rte_unused, const char *params,
	   struct rte_tel_data *d)
{
	const struct mlx5_tm_pacing_args *conf;
	struct mlx5_tm_sched *s;
	struct pacing_table *table;
	unsigned long port, first, first_tsar;
	struct tel_page pg;
	uint32_t nb_tsar;
	int ret;

	if (parse_params(params, &port, &first, &first_tsar, d))
		return 0;
	s = mlx5_tm_sched_by_port_lock(port);
	if (s == NULL) {
		mlx5_tm_sched_registry_unlock();
		return tel_error(d, "port_id %lu: not a net_mlx5_tm port of this process",
				 port);
	}
	pthread_mutex_lock(&s->lock);
	/* A first queue past the last: no such page (queue 0 always is). */
	if (first > 0 && first >= s->applied.nb_txq) {
		ret = tel_error(d, "first_queue %lu: port %lu has %u Tx queues",
				first, port, s->applied.nb_txq);
		goto out;
	}
	nb_tsar = tsar_count(s);
	if (first_tsar > 0 && first_tsar >= nb_tsar) {
		ret = tel_error(d, "first_tsar %lu: port %lu has %u TSARs",
				first_tsar, port, nb_tsar);
		goto out;
	}
	pg.first = first;
	pg.n = RTE_MIN((unsigned long)TEL_PAGE_QUEUES,
		       (unsigned long)s->applied.nb_txq - first);
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
	rte_tel_data_add_dict_u64(d, "nb_txq", s->applied.nb_txq);
	rte_tel_data_add_dict_u64(d, "first_queue", pg.first);
	rte_tel_data_add_dict_u64(d, "queues", pg.n);
	if ((uint32_t)pg.first + pg.n < s->applied.nb_txq)
		rte_tel_data_add_dict_u64(d, "next", pg.first + pg.n);
	ret = fill_entries(s, &pg, d);
	if (ret == 0)
		ret = fill_queues(s, &pg, d);
	if (ret == 0)
		ret = fill_tree(s, (uint32_t)first_tsar, d);
out:
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
	/* At most RTE_TEL_MAX_STRING_LEN - 1 characters of help. */
	if (rte_telemetry_register_cmd(TEL_CMD, tel_pacing,
		"Pacing entries, queue rates and groups, TSARs of a "
		"net_mlx5_tm port. Params: int port_id[,int first_queue[,int "
		"first_tsar]]") != 0)
		MLX5_TM_LOG(WARNING, "telemetry command %s not registered",
			    TEL_CMD);
}
