/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * mlx5-tm-plan: what the mlx5-tm PMD would program for a set of per-queue
 * rate limits on a given device, without a device or DPDK: each queue's
 * requested and applied rate, the pacing entries and who shares them, and
 * every refusal with the message the PMD would give.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pacing_sched.h"
#include "pacing_table.h"
#include "plan_caps.h"
#include "plan_spec.h"

#define PLAN_MAX_QUEUES 1024

/* The outcome for one queue. */
struct plan_row {
	struct plan_queue q;
	int ret;                   /* 0, or the refusal's errno */
	struct pacing_error err;   /* refusal details */
	struct pacing_result res;  /* conversion, when ret == 0 */
	struct pacing_grant grant; /* table entry, when applied */
	bool applied;
	uint64_t committed;        /* bytes/s left to the NIC hierarchy */
};

static const char *const example_args[] = {
	"0:1.5G", "1:100M", "2:100M", "3:99.95M", "4:pps=2M,burst=64",
	"5:Bps=125000124", "6:10M,dedicated", "7:10M,dedicated",
	"8:500k", "9:150G", "10:10M,cir=5M", "11:1G,adjust=24",
};

static void
usage(FILE *f, const char *prog)
{
	const struct plan_caps *c;

	fprintf(f,
"Usage: %s [OPTIONS] [QUEUE:SPEC ...]\n"
"\n"
"Shows how the mlx5-tm PMD maps per-queue rate limits (rte_tm private\n"
"shapers) to ConnectX packet-pacing entries: requested vs applied rate,\n"
"rounding error, shared and dedicated entries, and refusals with the\n"
"message the PMD gives. No device and no DPDK needed.\n"
"\n"
"SPEC: RATE[,burst=SIZE][,cir=RATE][,adjust=N][,dedicated]\n"
"  RATE        bit/s, suffix k M G T (x1000): 1.5G, 100M, 2500k\n"
"  Bps=N       bytes/s (the rte_tm unit), exact: Bps=125000124\n"
"  pps=N       packets/s, packet mode (WQE-rate pacing): pps=2M\n"
"  burst=SIZE  peak bucket: bytes (packets with pps=), suffix K M G\n"
"              (x1024); 0 or absent = device default\n"
"  cir=RATE    committed rate, bit/s: with the NIC scheduling hierarchy\n"
"              (cx6dx, cx7) a share of the queue's group, not a pacing\n"
"              entry (the entry is the peak alone; the share is not\n"
"              computed here: dpdk-tm-pace groups show it); refused\n"
"              without it (cx5: the pacer is single-rate)\n"
"  adjust=N    rte_tm pkt_length_adjust, bytes\n"
"  dedicated   a pacing entry of its own, never shared\n"
"\n"
"Options:\n"
"  --caps NAME         capability set (default cx6dx), see --list-caps\n"
"  --table-size N      override the number of pacing entries\n"
"  --burst-bound B     default bucket, bytes (devarg tx_burst_bound)\n"
"  --typical B         typical packet size, bytes (tx_typical_pkt_sz)\n"
"  --tolerance PPM     share an entry within PPM of the request\n"
"  --strict-bucket     refuse a bucket the device cannot honour\n"
"  --incremental       apply queue by queue (like\n"
"                      rte_eth_set_queue_rate_limit) instead of one\n"
"                      all-or-nothing commit (rte_tm hierarchy commit)\n"
"  --list-caps         print the capability sets and exit\n"
"  --help              this text\n"
"\n"
"Without QUEUE:SPEC arguments an example plan is shown.\n"
"Capability sets (assumed values, those of the device model):",
		prog);
	for (c = plan_caps_sets; c->name != NULL; c++)
		fprintf(f, " %s", c->name);
	fprintf(f, "\nExit status: 0 when the plan was computed (refusals "
		"included), 2 on a usage error.\n");
}

static void
print_caps(const struct plan_caps *pc, const struct pacing_caps *c)
{
	printf("%-6s %s\n", pc->name, pc->description);
	printf("       packet pacing %s, rate %" PRIu32 "..%" PRIu32
	       " kbps, %" PRIu32 " entries, burst bound %s, typical size "
	       "%s, WQE rate %s\n", c->packet_pacing ? "yes" : "no",
	       c->min_rate_kbps, c->max_rate_kbps, c->table_size,
	       c->burst_bound ? "yes" : "no", c->typical_size ? "yes" : "no",
	       c->wqe_rate ? "yes" : "no");
}

/* Exact decimal rendering with an SI prefix: 1500000000 -> "1.5 G". */
static void
fmt_si(char *buf, size_t size, uint64_t v, const char *unit)
{
	static const struct {
		uint64_t scale;
		int digits;
		const char *prefix;
	} si[] = {
		{ 1000000000000ull, 12, "T" }, { 1000000000ull, 9, "G" },
		{ 1000000ull, 6, "M" }, { 1000ull, 3, "k" }, { 1, 0, "" },
	};
	size_t i;

	for (i = 0; i + 1 < sizeof(si) / sizeof(si[0]); i++)
		if (v >= si[i].scale)
			break;
	if (si[i].digits == 0 || v % si[i].scale == 0) {
		snprintf(buf, size, "%" PRIu64 " %s%s", v / si[i].scale,
			 si[i].prefix, unit);
	} else {
		char frac[16];
		int n;

		n = snprintf(frac, sizeof(frac), "%0*" PRIu64, si[i].digits,
			     v % si[i].scale);
		while (n > 0 && frac[n - 1] == '0')
			frac[--n] = '\0';
		snprintf(buf, size, "%" PRIu64 ".%s %s%s", v / si[i].scale,
			 frac, si[i].prefix, unit);
	}
}

/* A rate in the unit the user wrote it in. */
static void
fmt_rate(char *buf, size_t size, enum plan_rate_unit unit, uint64_t v)
{
	switch (unit) {
	case PLAN_RATE_BITS:
		fmt_si(buf, size, v, "bit/s");
		break;
	case PLAN_RATE_BYTES:
		snprintf(buf, size, "%" PRIu64 " B/s", v);
		break;
	case PLAN_RATE_PACKETS:
		fmt_si(buf, size, v, "pkt/s");
		break;
	}
}

static const char *
mode_name(uint8_t mode)
{
	return mode == PACING_RATE_MODE_WQE ? "wqe" : "data";
}

static void
print_rows(const struct pacing_table *t, struct plan_row *rows, size_t n)
{
	size_t i;

	printf("\n%-5s  %-22s %-22s %13s  %-16s %s\n", "queue", "requested",
	       "applied", "error", "pacing entry", "notes");
	for (i = 0; i < n; i++) {
		struct plan_row *r = &rows[i];
		char req[48], app[48], ent[32], err[24];
		uint64_t applied;
		struct pacing_entry_info info;

		fmt_rate(req, sizeof(req), r->q.unit, r->q.rate_as_written);
		if (r->ret != 0) {
			printf("%5u  %-22s REFUSED (%s): %s\n", r->q.qid, req,
			       pacing_field_name(r->err.field),
			       r->err.message);
			continue;
		}
		if (!r->applied) {
			printf("%5u  %-22s not applied: the commit was "
			       "refused\n", r->q.qid, req);
			continue;
		}
		/* The entry may be shared within tolerance: its rate. */
		applied = pacing_ctx_rate(&r->grant.ctx);
		if (r->q.unit == PLAN_RATE_BITS)
			applied *= 8;
		fmt_rate(app, sizeof(app), r->q.unit, applied);
		/* Display only: three decimals show sub-ppm rounding. */
		snprintf(err, sizeof(err), "%+.3f ppm",
			 ((double)applied - (double)r->q.rate_as_written) *
			 1e6 / (double)r->q.rate_as_written);
		pacing_table_entry_get(t, r->grant.entry_id, &info);
		if (info.dedicated)
			snprintf(ent, sizeof(ent), "#%" PRIu64 " dedicated",
				 info.id);
		else if (info.refcnt > 1)
			snprintf(ent, sizeof(ent), "#%" PRIu64 " shared by %"
				 PRIu32, info.id, info.refcnt);
		else
			snprintf(ent, sizeof(ent), "#%" PRIu64 " one user",
				 info.id);
		printf("%5u  %-22s %-22s %13s  %-16s", r->q.qid, req, app, err,
		       ent);
		if (r->grant.deviation_ppm != 0)
			printf(" tolerance: entry %+" PRId64 " ppm from the "
			       "request;", r->grant.deviation_ppm);
		if (r->q.bits_truncated)
			printf(" bit/s not a multiple of 8: rounded down to "
			       "bytes/s;");
		if (r->res.warnings & PACING_WARN_BUCKET_IGNORED)
			printf(" bucket ignored (no burst bound on device);");
		if (r->res.warnings & PACING_WARN_TYPICAL_IGNORED)
			printf(" typical size ignored (not supported);");
		if (r->res.warnings & PACING_WARN_ADJUST_IGNORED)
			printf(" adjust ignored in packet mode;");
		if (r->committed != 0)
			printf(" committed %" PRIu64 " bytes/s: a share of the "
			       "queue's group (NIC hierarchy), not modelled "
			       "here;", r->committed);
		printf("\n");
	}
}

static void
print_entries(const struct pacing_table *t, const struct plan_row *rows,
	      size_t n)
{
	struct pacing_entry_info info;
	uint64_t cursor = 0;

	printf("\npacing entries: %" PRIu32 " of %" PRIu32 " in use, %" PRIu32
	       " free\n", pacing_table_in_use(t), pacing_table_capacity(t),
	       pacing_table_capacity(t) - pacing_table_in_use(t));
	if (pacing_table_in_use(t) == 0)
		return;
	printf("%5s  %-20s %-5s %-10s %-8s %-10s %s\n", "entry", "rate_limit",
	       "mode", "burst", "typical", "kind", "queues");
	while (pacing_table_entry_next(t, &cursor, &info)) {
		char rate[32];
		size_t i;

		snprintf(rate, sizeof(rate), "%" PRIu32 " %s",
			 info.ctx.rate_limit,
			 info.ctx.rate_mode == PACING_RATE_MODE_WQE ?
			 "WQE/s" : "kbps");
		printf("%5" PRIu64 "  %-20s %-5s %-10" PRIu32 " %-8u %-10s",
		       info.id, rate, mode_name(info.ctx.rate_mode),
		       info.ctx.burst_upper_bound,
		       info.ctx.typical_packet_size,
		       info.dedicated ? "dedicated" : "shared");
		for (i = 0; i < n; i++)
			if (rows[i].applied && rows[i].grant.entry_id == info.id)
				printf(" %u", rows[i].q.qid);
		printf("\n");
	}
}

static int
parse_u32(const char *opt, const char *s, uint32_t *v)
{
	char err[128];
	uint64_t x;

	if (plan_parse_number(s, false, &x, err, sizeof(err)) != 0 ||
	    x > UINT32_MAX) {
		fprintf(stderr, "mlx5-tm-plan: %s: bad value \"%s\"\n", opt, s);
		return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

int
main(int argc, char **argv)
{
	enum { OPT_CAPS = 256, OPT_TABLE, OPT_BURST, OPT_TYPICAL, OPT_TOL,
	       OPT_STRICT, OPT_INCR, OPT_LIST, OPT_HELP };
	static const struct option longopts[] = {
		{ "caps", required_argument, NULL, OPT_CAPS },
		{ "table-size", required_argument, NULL, OPT_TABLE },
		{ "burst-bound", required_argument, NULL, OPT_BURST },
		{ "typical", required_argument, NULL, OPT_TYPICAL },
		{ "tolerance", required_argument, NULL, OPT_TOL },
		{ "strict-bucket", no_argument, NULL, OPT_STRICT },
		{ "incremental", no_argument, NULL, OPT_INCR },
		{ "list-caps", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	const struct plan_caps *pc = plan_caps_find("cx6dx");
	struct pacing_defaults def = { 0 };
	struct pacing_caps caps;
	struct pacing_table *table;
	struct pacing_error err;
	struct plan_row *rows;
	const char *const *specs;
	uint32_t tolerance = 0, table_size = 0;
	bool incremental = false, has_table_size = false, example = false;
	size_t nb, i, j;
	int opt, ret = 0;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_CAPS:
			pc = plan_caps_find(optarg);
			if (pc == NULL) {
				fprintf(stderr, "mlx5-tm-plan: unknown "
					"capability set \"%s\" (cx5, cx6dx, "
					"cx7)\n", optarg);
				return 2;
			}
			break;
		case OPT_TABLE:
			if (parse_u32("--table-size", optarg,
				      &table_size) != 0)
				return 2;
			has_table_size = true;
			break;
		case OPT_BURST:
			if (parse_u32("--burst-bound", optarg,
				      &def.burst_bound) != 0)
				return 2;
			break;
		case OPT_TYPICAL:
			if (parse_u32("--typical", optarg,
				      &def.typical_pkt_sz) != 0)
				return 2;
			break;
		case OPT_TOL:
			if (parse_u32("--tolerance", optarg, &tolerance) != 0)
				return 2;
			break;
		case OPT_STRICT:
			def.strict_bucket = true;
			break;
		case OPT_INCR:
			incremental = true;
			break;
		case OPT_LIST:
			printf("Capability sets (ASSUMED values: those of the "
			       "device model's profiles, not read from "
			       "hardware):\n");
			for (pc = plan_caps_sets; pc->name != NULL; pc++)
				print_caps(pc, &pc->caps);
			return 0;
		case 'h':
		case OPT_HELP:
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	caps = pc->caps;
	if (has_table_size)
		caps.table_size = table_size;
	if (optind < argc) {
		specs = (const char *const *)&argv[optind];
		nb = (size_t)(argc - optind);
	} else {
		example = true;
		specs = example_args;
		nb = sizeof(example_args) / sizeof(example_args[0]);
		if (def.typical_pkt_sz == 0)
			def.typical_pkt_sz = 1500;
		if (tolerance == 0)
			tolerance = 1000;
	}
	if (nb > PLAN_MAX_QUEUES) {
		fprintf(stderr, "mlx5-tm-plan: at most %d queues\n",
			PLAN_MAX_QUEUES);
		return 2;
	}
	rows = calloc(nb, sizeof(*rows));
	if (rows == NULL) {
		fprintf(stderr, "mlx5-tm-plan: out of memory\n");
		return 2;
	}
	for (i = 0; i < nb; i++) {
		char perr[160];

		if (plan_parse_queue(specs[i], &rows[i].q, perr,
				     sizeof(perr)) != 0) {
			fprintf(stderr, "mlx5-tm-plan: %s\n", perr);
			free(rows);
			return 2;
		}
		for (j = 0; j < i; j++) {
			if (rows[j].q.qid == rows[i].q.qid) {
				fprintf(stderr, "mlx5-tm-plan: queue %u given "
					"twice\n", rows[i].q.qid);
				free(rows);
				return 2;
			}
		}
	}

	if (example) {
		printf("Example plan (give QUEUE:SPEC arguments for your own; "
		       "--help). Equivalent to:\n  mlx5-tm-plan --caps %s "
		       "--typical %" PRIu32 " --tolerance %" PRIu32, pc->name,
		       def.typical_pkt_sz, tolerance);
		for (i = 0; i < nb; i++)
			printf(" %s", specs[i]);
		printf("\n\n");
	}
	printf("Capability set (assumed values):\n");
	print_caps(pc, &caps);
	printf("Defaults: tx_burst_bound %" PRIu32 ", tx_typical_pkt_sz %"
	       PRIu32 " (0 = device default), tolerance %" PRIu32 " ppm, %s"
	       "\n", def.burst_bound, def.typical_pkt_sz, tolerance,
	       incremental ? "queue by queue" : "one all-or-nothing commit");
	printf("Rounding: bytes/s down to whole kbps (1 kbps = 125 B/s): the "
	       "applied rate never exceeds the request.\n");

	table = pacing_table_create(caps.table_size, NULL, NULL, &err);
	if (table == NULL) {
		fprintf(stderr, "mlx5-tm-plan: %s\n", err.message);
		free(rows);
		return 2;
	}
	for (i = 0; i < nb; i++) {
		struct pacing_shaper *sh = &rows[i].q.shaper;

		/* As the PMD: the pacing entry is made from the peak alone. */
		if (pc->sched && sh->committed_rate != 0 &&
		    (sh->packet_mode || sh->committed_rate > sh->peak_rate)) {
			rows[i].ret = pacing_error_set(&rows[i].err,
				PACING_FIELD_COMMITTED_RATE, -EINVAL,
				"committed rate %" PRIu64 " bytes/s: with the "
				"NIC hierarchy a committed rate is in byte mode "
				"and at most the peak rate (%" PRIu64 " %s)",
				sh->committed_rate, sh->peak_rate,
				sh->packet_mode ? "packets/s" : "bytes/s");
			continue;
		}
		if (pc->sched && sh->committed_rate != 0) {
			rows[i].committed = sh->committed_rate;
			sh->committed_rate = 0;
		}
		rows[i].ret = pacing_shaper_to_ctx(sh, &caps, &def,
						   &rows[i].res, &rows[i].err);
	}
	for (i = 0; ret == 0 && i < nb; i++) {
		struct plan_row *r = &rows[i];

		if (r->ret != 0)
			continue;
		ret = pacing_table_acquire(table, &r->res.ctx,
			r->q.dedicated ? PACING_ACQ_DEDICATED : 0, tolerance,
			&r->grant, incremental ? &r->err : &err);
		r->applied = ret == 0;
		/* Queue by queue, a refusal is the queue's alone. */
		if (incremental) {
			r->ret = ret;
			ret = 0;
		}
	}
	if (ret != 0) {
		printf("\nCOMMIT REFUSED (%s): %s; nothing was applied\n",
		       pacing_field_name(err.field), err.message);
		/* All or nothing: what the commit took goes back. */
		for (i = 0; i < nb; i++) {
			if (rows[i].applied)
				pacing_table_release(table,
						     rows[i].grant.entry_id,
						     NULL);
			rows[i].applied = false;
		}
	}
	print_rows(table, rows, nb);
	print_entries(table, rows, nb);
	pacing_table_destroy(table);
	free(rows);
	return 0;
}
