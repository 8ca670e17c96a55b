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

#include "mlx5_emu.h"
#include "pacing_sched.h"
#include "pacing_table.h"
#include "queue_spec.h"

#define PLAN_MAX_QUEUES 1024

/* The keys of a QUEUE:SPEC. */
#define PLAN_KEYS (QSPEC_RATE | QSPEC_PEAK | QSPEC_BPS | QSPEC_PPS | \
		   QSPEC_BURST | QSPEC_CIR | QSPEC_ADJUST | QSPEC_DEDICATED)

/* Long enough for a message quoting a long specification. */
#define PLAN_ERR_LEN 512

/* How the user wrote the rate of a queue. */
enum plan_rate_unit {
	PLAN_RATE_BITS,    /* bit/s (bare number or peak=) */
	PLAN_RATE_BYTES,   /* bytes/s (Bps=) */
	PLAN_RATE_PACKETS, /* packets/s (pps=) */
};

/* One queue of the plan. */
struct plan_queue {
	uint16_t qid;
	enum plan_rate_unit unit;
	uint64_t rate_as_written;    /* in unit */
	bool bits_truncated;         /* bit/s not a multiple of 8 */
	bool dedicated;              /* ",dedicated" */
	struct pacing_shaper shaper; /* rte_tm-style, bytes/s or pkt/s */
};

/*
 * A capability set: a profile of the device model, read through its API
 * (mlx5_emu.h) so that its values are written once, in the model.
 */
struct plan_caps {
	char name[16];
	uint32_t line_rate_mbps;
	struct pacing_caps caps; /* as the PMD plans with them */
	/* The NIC scheduling hierarchy: a queue's committed rate is a share
	 * of its queue group, its pacing entry the peak alone. */
	bool sched;
};

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

/*
 * The capabilities of profile @p name as the PMD reads and plans with
 * them (mlx5_tm_pacing.c): index 0 of the rate table means "unlimited",
 * so a table of N has N - 1 usable entries; with the NIC scheduling
 * hierarchy committed rates become shares of queue groups.
 */
static int
plan_caps_of(const char *name, struct plan_caps *pc)
{
	struct mlx5_emu_config cfg;
	struct mlx5_emu_caps c;

	if (mlx5_emu_config_init(&cfg, name) != 0 ||
	    mlx5_emu_config_caps(&cfg, &c) != 0)
		return -ENODEV;
	memset(pc, 0, sizeof(*pc));
	snprintf(pc->name, sizeof(pc->name), "%s", c.profile);
	pc->line_rate_mbps = c.line_rate_mbps;
	pc->caps.packet_pacing = c.packet_pacing && c.packet_pacing_uid;
	pc->caps.burst_bound = c.pp_burst_bound;
	pc->caps.typical_size = c.pp_typical_size;
	pc->caps.wqe_rate = c.wqe_rate_pp;
	pc->caps.min_rate_kbps = c.pp_min_rate_kbps;
	pc->caps.max_rate_kbps = c.pp_max_rate_kbps;
	pc->caps.table_size = pc->caps.packet_pacing &&
			      c.pp_table_size > 0 ? c.pp_table_size - 1u : 0;
	pc->sched = c.sched.nic_sq_scheduling && c.sched.nic_bw_share &&
		    c.sched.nic_rate_limit && c.sched.max_tsar_bw_share > 0;
	return 0;
}

static void
quiet_log(int level __attribute__((unused)),
	  const char *msg __attribute__((unused)))
{
}

/* "cx5, cx6dx, cx7": the device model's profiles. */
static void
profile_list(char *buf, size_t len)
{
	const char *const *n;
	size_t off = 0;

	buf[0] = '\0';
	for (n = mlx5_emu_profile_names; *n != NULL && off < len; n++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					off ? ", " : "", *n);
}

static void
usage(FILE *f, const char *prog)
{
	char profiles[64];

	profile_list(profiles, sizeof(profiles));
	fprintf(f,
"Usage: %s [OPTIONS] [QUEUE:SPEC ...]\n"
"\n"
"Shows how the mlx5-tm PMD maps per-queue rate limits (rte_tm private\n"
"shapers) to ConnectX packet-pacing entries: requested vs applied rate,\n"
"rounding error, shared and dedicated entries, and refusals with the\n"
"message the PMD gives. No device and no DPDK needed.\n"
"\n"
"SPEC: RATE[,burst=SIZE][,cir=RATE][,adjust=N][,dedicated]\n"
"  RATE        bit/s, suffix k M G T (x1000): 1.5G, 100M, 2500k;\n"
"              or peak=RATE (the same)\n"
"  Bps=N       bytes/s (the rte_tm unit), exact: Bps=125000124\n"
"  pps=N       packets/s, packet mode (WQE-rate pacing): pps=2M\n"
"  burst=SIZE  peak bucket: bytes, suffix K M G T (x1024); with pps=\n"
"              packets, given to the device as WQEs (one per packet);\n"
"              0 or absent = the port default (--burst-bound, bytes; not\n"
"              in packet mode) or the device default\n"
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
"Capability sets: the device model's profiles (%s), read from\n"
"the model; assumed values, not read from adapters.\n"
"Exit status: 0 when the plan was computed (refusals included), 2 on a\n"
"usage error.\n",
		prog, profiles);
}

static void
print_caps(const struct plan_caps *pc, const struct pacing_caps *c)
{
	printf("%-6s line %" PRIu32 " Gbit/s, %" PRIu32 " usable pacing "
	       "entries, %s, %s\n", pc->name, pc->line_rate_mbps / 1000,
	       c->table_size, c->wqe_rate ? "WQE-rate pacing" :
	       "no WQE-rate pacing", pc->sched ? "NIC scheduling hierarchy" :
	       "no NIC scheduling hierarchy");
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
	char err[PLAN_ERR_LEN];
	uint64_t x;

	if (qspec_number(s, QSPEC_DECIMAL, opt, &x, err, sizeof(err)) != 0) {
		fprintf(stderr, "mlx5-tm-plan: %s\n", err);
		return -1;
	}
	if (x > UINT32_MAX) {
		fprintf(stderr, "mlx5-tm-plan: bad %s '%s': allowed 0..%" PRIu32
			"\n", opt, s, UINT32_MAX);
		return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

/* "Q:SPEC" into @p q. */
static int
parse_queue(const char *spec, struct plan_queue *q)
{
	static const struct qspec_syntax syn = { .keys = PLAN_KEYS };
	char buf[256], err[PLAN_ERR_LEN], *head, *items;
	struct qspec sp;

	memset(q, 0, sizeof(*q));
	if (qspec_split(spec, buf, sizeof(buf), &head, &items, err,
			sizeof(err)) != 0 ||
	    qspec_queue(spec, head, UINT16_MAX, &q->qid, err,
			sizeof(err)) != 0 ||
	    qspec_items(spec, items, &syn, &sp, err, sizeof(err)) != 0) {
		fprintf(stderr, "mlx5-tm-plan: %s\n", err);
		return -1;
	}
	if (sp.rate_key == 0) {
		fprintf(stderr, "mlx5-tm-plan: bad spec '%s': no rate (a bare "
			"rate in bit/s first, or peak=, Bps=, pps=)\n", spec);
		return -1;
	}
	q->rate_as_written = sp.rate;
	q->dedicated = (sp.given & QSPEC_DEDICATED) != 0;
	q->shaper.peak_size = sp.burst;
	q->shaper.committed_rate = sp.cir / 8;
	q->shaper.pkt_length_adjust = sp.adjust;
	switch (sp.rate_key) {
	case QSPEC_BPS:
		q->unit = PLAN_RATE_BYTES;
		q->shaper.peak_rate = sp.rate;
		break;
	case QSPEC_PPS:
		q->unit = PLAN_RATE_PACKETS;
		q->shaper.peak_rate = sp.rate;
		q->shaper.packet_mode = true;
		break;
	default:
		q->unit = PLAN_RATE_BITS;
		q->shaper.peak_rate = sp.rate / 8;
		q->bits_truncated = sp.rate % 8 != 0;
		break;
	}
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
	const char *const *name;
	struct plan_caps pc;
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

	/* The model words its refusals; the tool words its own. */
	mlx5_emu_set_log(quiet_log);
	if (plan_caps_of("cx6dx", &pc) != 0)
		return 2;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_CAPS:
			if (plan_caps_of(optarg, &pc) != 0) {
				char profiles[64];

				profile_list(profiles, sizeof(profiles));
				fprintf(stderr, "mlx5-tm-plan: bad --caps '%s':"
					" allowed %s\n", optarg, profiles);
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
			printf("Capability sets (ASSUMED values: the device "
			       "model's profiles, not read from hardware):\n");
			for (name = mlx5_emu_profile_names; *name != NULL;
			     name++) {
				if (plan_caps_of(*name, &pc) != 0)
					return 2;
				print_caps(&pc, &pc.caps);
			}
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
	caps = pc.caps;
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
		if (parse_queue(specs[i], &rows[i].q) != 0) {
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
		       "--typical %" PRIu32 " --tolerance %" PRIu32, pc.name,
		       def.typical_pkt_sz, tolerance);
		for (i = 0; i < nb; i++)
			printf(" %s", specs[i]);
		printf("\n\n");
	}
	printf("Capability set (assumed values):\n");
	print_caps(&pc, &caps);
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
		if (pc.sched && sh->committed_rate != 0 &&
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
		if (pc.sched && sh->committed_rate != 0) {
			rows[i].committed = sh->committed_rate;
			sh->committed_rate = 0;
		}
		/* As the PMD converts it (mlx5_tm_pacing_convert). */
		rows[i].ret = pacing_shaper_to_device_ctx(sh, &caps, &def,
							  &rows[i].res,
							  &rows[i].err);
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
