/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pace_plan.h"

#define NS_PER_S 1000000000ULL

void
pace_usage(FILE *out, const char *prog)
{
	fprintf(out,
"Usage: %s [EAL options] -- [options] --queue Q:SPEC [--queue Q:SPEC ...]\n"
"\n"
"Paces Tx queues of a DPDK port through the rte_tm API (root node, leaf\n"
"node per queue with a private shaper), sends UDP/IPv4 traffic on every\n"
"planned queue with the Tx rings kept full, and measures the achieved\n"
"rate of each queue against its configured rate.\n"
"\n"
"Rate plan:\n"
"  --queue Q:SPEC     plan Tx queue Q; SPEC is a comma list of\n"
"                       peak=RATE   shaper peak rate in BITS per second\n"
"                                   (K, M, G = 10^3, 10^6, 10^9; like\n"
"                                   testpmd's Mbps figures). rte_tm wants\n"
"                                   bytes/s: the tool passes RATE / 8.\n"
"                       pps=RATE    packet-mode shaper, packets per second\n"
"                                   (K, M, G as above)\n"
"                       burst=SIZE  bucket size: bytes for peak= (K, M =\n"
"                                   1024, 1024^2), packets for pps=;\n"
"                                   0 or absent = the device default\n"
"                       size=N|A..B frame size(s) of this queue, bytes\n"
"                                   without FCS (overrides --pkt-size)\n"
"  --plan FILE        read queues from FILE: one 'Q:SPEC' per line (a\n"
"                     leading 'queue' or '--queue' is allowed), 'at T:queue\n"
"                     Q:SPEC' lines for changes, '#' starts a comment\n"
"  --at T:queue Q:SPEC  at time T of the run, give queue Q a new shaper\n"
"                     (new profile + rte_tm_node_shaper_update); SPEC takes\n"
"                     peak=, pps=, burst=; quote it, or write T:Q:SPEC\n"
"  --share            queues with identical shapers use ONE shaper profile\n"
"                     (on mlx5-tm: one hardware pacing entry); without it\n"
"                     every queue gets a profile of its own\n"
"  --levels 2|3       hierarchy depth: root + leaves (2, default), or root,\n"
"                     one pass-through middle node, leaves (3)\n"
"\n"
"Traffic:\n"
"  --pkt-size N|A..B  frame size, bytes without FCS, %d..%d (default\n"
"                     1500); a range A..B spreads sizes evenly over it;\n"
"                     above 1514 the port's MTU is raised to fit\n"
"  --txd N            Tx descriptors per queue (default 1024)\n"
"  --tx-burst N       packets per rte_eth_tx_burst call (default 32)\n"
"  --port N           port to use (default: the first port)\n"
"\n"
"Run and report:\n"
"  --duration T       length of the run (default 10s); T takes s, ms, us,\n"
"                     m suffixes, plain numbers are seconds\n"
"  --interval T       sampling and live display period (default 1s)\n"
"  --settle T         time after the start and after each change left out\n"
"                     of the averages (default: one interval)\n"
"  --tolerance PCT    allowed error of an achieved rate (default 5)\n"
"  --json FILE        write configured and achieved rates over time, the\n"
"                     phases of every queue and a summary as JSON\n"
"  --plot FILE        draw configured and achieved rates over time with\n"
"                     gnuplot into FILE (.png or .svg)\n"
"  --quiet            no live display, summary only\n"
"  --keep-going       if the port refuses the rte_tm hierarchy, send\n"
"                     unshaped traffic anyway (reported as UNSHAPED)\n"
"  --from-device      on an emulated mlx5-tm device, measure as on a real\n"
"                     NIC: from its completions and vport counters\n"
"  --help             this text\n"
"\n"
"Achieved rates come from the port: on a real mlx5-tm NIC (dev=) from the\n"
"device only: bytes completed between the time stamps of two CQEs per\n"
"queue, the vport counters for the port, and no figure where neither can\n"
"be read; the emulated mlx5-tm device's wire\n"
"counters when present (exact departure times), otherwise the per-queue\n"
"Tx statistics (with a full ring, accepted = departed), otherwise the\n"
"sender's own counts. A queue whose ring never filled while it fell short\n"
"is reported as SENDER-LIMITED, a device model that lagged behind real\n"
"time as DEVICE-LAG: the numbers are then not a measure of pacing.\n"
"\n"
"Exit status: 0 when every queue met its tolerance, 1 when one did not,\n"
"2 on a usage error, 3 when the port refused the plan.\n",
		prog, PACE_MIN_PKT_SIZE, PACE_MAX_PKT_SIZE);
}

/* Number with an optional fractional part and a multiplier suffix. */
static int
parse_scaled(const char *s, const char *suffixes, const double *mult,
	     double *out)
{
	char *end;
	double v;
	const char *p;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || v < 0 || !isfinite(v))
		return -EINVAL;
	if (*end != '\0') {
		p = strchr(suffixes, *end);
		if (p == NULL || end[1] != '\0')
			return -EINVAL;
		v *= mult[p - suffixes];
	}
	*out = v;
	return 0;
}

int
pace_parse_rate(const char *s, uint64_t *out)
{
	static const double mult[] = { 1e3, 1e3, 1e6, 1e9, 1e9 };
	double v;

	if (parse_scaled(s, "kKMGg", mult, &v) < 0 || v > 1e15)
		return -EINVAL;
	*out = (uint64_t)llround(v);
	return 0;
}

int
pace_parse_size(const char *s, uint64_t *out)
{
	static const double mult[] = { 1024, 1024, 1048576, 1073741824.0 };
	double v;

	if (parse_scaled(s, "kKMG", mult, &v) < 0 || v > 1e12)
		return -EINVAL;
	*out = (uint64_t)llround(v);
	return 0;
}

int
pace_parse_duration(const char *s, uint64_t *out_ns)
{
	char *end;
	double v, mult;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || v < 0 || !isfinite(v))
		return -EINVAL;
	if (*end == '\0' || strcmp(end, "s") == 0)
		mult = 1e9;
	else if (strcmp(end, "ms") == 0)
		mult = 1e6;
	else if (strcmp(end, "us") == 0)
		mult = 1e3;
	else if (strcmp(end, "m") == 0)
		mult = 60e9;
	else
		return -EINVAL;
	if (v * mult > 1e15)
		return -EINVAL;
	*out_ns = (uint64_t)llround(v * mult);
	return 0;
}

const char *
pace_fmt_si(char *buf, size_t len, double v)
{
	static const char sfx[] = { ' ', 'K', 'M', 'G', 'T' };
	unsigned int i = 0;

	while (v >= 999.995 && i < sizeof(sfx) - 1) {
		v /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f%c", v, sfx[i]);
	return buf;
}

/* "N" or "A..B", within the frame size limits. */
static int
parse_size_range(const char *s, uint16_t *min, uint16_t *max)
{
	char *end;
	unsigned long a, b;

	errno = 0;
	a = strtoul(s, &end, 10);
	if (errno != 0 || end == s)
		return -EINVAL;
	if (strncmp(end, "..", 2) == 0) {
		const char *t = end + 2;

		b = strtoul(t, &end, 10);
		if (errno != 0 || end == t)
			return -EINVAL;
	} else {
		b = a;
	}
	if (*end != '\0' || a > b || a < PACE_MIN_PKT_SIZE ||
	    b > PACE_MAX_PKT_SIZE)
		return -EINVAL;
	*min = (uint16_t)a;
	*max = (uint16_t)b;
	return 0;
}

static void
bad(const char *what, const char *arg, const char *why)
{
	fprintf(stderr, "tm-pace: bad %s '%s': %s\n", what, arg, why);
}

/*
 * "Q:k=v,k=v" into @p queue and @p sh (and sizes when @p allow_size).
 * A copy of @p arg is cut up; messages quote the original.
 */
static int
parse_queue_spec(const char *arg, bool allow_size, uint16_t *queue,
		 struct pace_shaper *sh, uint16_t *size_min, uint16_t *size_max)
{
	char buf[256];
	char *colon, *item, *save = NULL, *end;
	unsigned long q;
	bool have_rate = false;

	if (strlen(arg) >= sizeof(buf)) {
		bad("queue spec", arg, "too long");
		return -EINVAL;
	}
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	if (colon == NULL) {
		bad("queue spec", arg, "expected Q:peak=RATE or Q:pps=RATE");
		return -EINVAL;
	}
	*colon = '\0';
	errno = 0;
	q = strtoul(buf, &end, 10);
	if (errno != 0 || end == buf || *end != '\0' || q >= PACE_MAX_QUEUES) {
		bad("queue number", arg, "expected 0..63");
		return -EINVAL;
	}
	*queue = (uint16_t)q;
	memset(sh, 0, sizeof(*sh));
	for (item = strtok_r(colon + 1, ",", &save); item != NULL;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		const char *val;

		if (eq == NULL) {
			bad("queue spec", arg, "items are key=value");
			return -EINVAL;
		}
		*eq = '\0';
		val = eq + 1;
		if (strcmp(item, "peak") == 0 || strcmp(item, "pps") == 0) {
			if (have_rate) {
				bad("queue spec", arg,
				    "give one of peak= or pps=");
				return -EINVAL;
			}
			if (pace_parse_rate(val, &sh->rate) < 0 ||
			    sh->rate == 0) {
				bad("rate", arg,
				    "expected a positive number with K/M/G");
				return -EINVAL;
			}
			sh->packet_mode = item[1] == 'p';
			have_rate = true;
		} else if (strcmp(item, "burst") == 0) {
			if (pace_parse_size(val, &sh->burst) < 0) {
				bad("burst", arg, "expected a size with K/M");
				return -EINVAL;
			}
		} else if (strcmp(item, "size") == 0 && allow_size) {
			if (parse_size_range(val, size_min, size_max) < 0) {
				bad("size", arg, "expected N or A..B within "
				    "60..9000");
				return -EINVAL;
			}
		} else {
			bad("queue spec key", item, allow_size ?
			    "known keys: peak, pps, burst, size" :
			    "known keys: peak, pps, burst");
			return -EINVAL;
		}
	}
	if (!have_rate) {
		bad("queue spec", arg, "no peak= or pps= rate");
		return -EINVAL;
	}
	return 0;
}

static int
add_queue(struct pace_options *opt, const char *arg)
{
	struct pace_queue_plan qp = { 0 };
	unsigned int i;

	if (parse_queue_spec(arg, true, &qp.queue, &qp.shaper, &qp.size_min,
			     &qp.size_max) < 0)
		return -EINVAL;
	for (i = 0; i < opt->nb_queues; i++) {
		if (opt->queues[i].queue == qp.queue) {
			bad("queue spec", arg, "queue planned twice");
			return -EINVAL;
		}
	}
	if (opt->nb_queues == PACE_MAX_QUEUES) {
		bad("queue spec", arg, "too many queues");
		return -EINVAL;
	}
	opt->queues[opt->nb_queues++] = qp;
	return 0;
}

/* "T:queue Q:SPEC" */
static int
add_change(struct pace_options *opt, const char *arg)
{
	struct pace_change *ch;
	char tbuf[32];
	const char *colon = strchr(arg, ':');
	const char *rest;
	uint16_t dummy_min = 0, dummy_max = 0;
	size_t tlen;

	if (opt->nb_changes == PACE_MAX_CHANGES) {
		bad("change", arg, "too many changes");
		return -EINVAL;
	}
	ch = &opt->changes[opt->nb_changes];
	tlen = colon != NULL ? (size_t)(colon - arg) : 0;
	if (colon == NULL || tlen >= sizeof(tbuf)) {
		bad("change", arg, "expected T:queue Q:SPEC");
		return -EINVAL;
	}
	memcpy(tbuf, arg, tlen);
	tbuf[tlen] = '\0';
	if (pace_parse_duration(tbuf, &ch->at_ns) < 0) {
		bad("change time", arg, "expected a time such as 5s");
		return -EINVAL;
	}
	/* "T:queue Q:SPEC", or "T:Q:SPEC" which needs no quotes. */
	rest = colon + 1;
	while (isspace((unsigned char)*rest))
		rest++;
	if (strncmp(rest, "queue", 5) == 0) {
		rest += 5;
		while (isspace((unsigned char)*rest))
			rest++;
	}
	if (*rest == '\0') {
		bad("change", arg, "expected T:queue Q:SPEC in one argument "
		    "(quote it: --at '5s:queue 2:peak=200M', or write "
		    "--at 5s:2:peak=200M)");
		return -EINVAL;
	}
	if (parse_queue_spec(rest, false, &ch->queue, &ch->shaper,
			     &dummy_min, &dummy_max) < 0)
		return -EINVAL;
	opt->nb_changes++;
	return 0;
}

static char *
trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int
read_plan_file(struct pace_options *opt, const char *path)
{
	char line[512];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (f == NULL) {
		fprintf(stderr, "tm-pace: cannot open plan %s: %s\n", path,
			strerror(errno));
		return -EINVAL;
	}
	while (ret == 0 && fgets(line, sizeof(line), f) != NULL) {
		char *hash = strchr(line, '#');
		char *s;

		lineno++;
		if (hash != NULL)
			*hash = '\0';
		s = trim(line);
		if (*s == '\0')
			continue;
		if (strncmp(s, "--queue", 7) == 0)
			s = trim(s + 7);
		else if (strncmp(s, "queue", 5) == 0)
			s = trim(s + 5);
		if (strncmp(s, "--at", 4) == 0)
			ret = add_change(opt, trim(s + 4));
		else if (strncmp(s, "at", 2) == 0 &&
			 isspace((unsigned char)s[2]))
			ret = add_change(opt, trim(s + 2));
		else
			ret = add_queue(opt, s);
		if (ret < 0)
			fprintf(stderr, "tm-pace: in %s line %u\n", path,
				lineno);
	}
	fclose(f);
	return ret;
}

const struct pace_queue_plan *
pace_plan_find(const struct pace_options *opt, uint16_t queue)
{
	unsigned int i;

	for (i = 0; i < opt->nb_queues; i++)
		if (opt->queues[i].queue == queue)
			return &opt->queues[i];
	return NULL;
}

static int
cmp_change(const void *a, const void *b)
{
	const struct pace_change *x = a, *y = b;

	return x->at_ns < y->at_ns ? -1 : x->at_ns > y->at_ns;
}

static int
cmp_queue(const void *a, const void *b)
{
	const struct pace_queue_plan *x = a, *y = b;

	return (int)x->queue - (int)y->queue;
}

enum {
	OPT_QUEUE = 256, OPT_PLAN, OPT_AT, OPT_SHARE, OPT_LEVELS,
	OPT_PKT_SIZE, OPT_TXD, OPT_TX_BURST, OPT_PORT, OPT_DURATION,
	OPT_INTERVAL, OPT_SETTLE, OPT_TOLERANCE, OPT_JSON, OPT_PLOT,
	OPT_QUIET, OPT_KEEP_GOING, OPT_FROM_DEVICE, OPT_HELP,
};

static const struct option long_opts[] = {
	{ "queue", required_argument, NULL, OPT_QUEUE },
	{ "plan", required_argument, NULL, OPT_PLAN },
	{ "at", required_argument, NULL, OPT_AT },
	{ "share", no_argument, NULL, OPT_SHARE },
	{ "levels", required_argument, NULL, OPT_LEVELS },
	{ "pkt-size", required_argument, NULL, OPT_PKT_SIZE },
	{ "txd", required_argument, NULL, OPT_TXD },
	{ "tx-burst", required_argument, NULL, OPT_TX_BURST },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "settle", required_argument, NULL, OPT_SETTLE },
	{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "keep-going", no_argument, NULL, OPT_KEEP_GOING },
	{ "from-device", no_argument, NULL, OPT_FROM_DEVICE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int
parse_uint(const char *s, unsigned long min, unsigned long max,
	   unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || *out < min ||
	    *out > max)
		return -EINVAL;
	return 0;
}

static int
check_options(struct pace_options *opt, bool settle_given)
{
	unsigned int i;

	if (opt->nb_queues == 0) {
		fprintf(stderr, "tm-pace: no queue planned (--queue or "
			"--plan); see --help\n");
		return -EINVAL;
	}
	if (opt->interval_ns == 0 || opt->duration_ns == 0) {
		fprintf(stderr, "tm-pace: --duration and --interval must "
			"be positive\n");
		return -EINVAL;
	}
	if (!settle_given)
		opt->settle_ns = opt->interval_ns;
	for (i = 0; i < opt->nb_queues; i++) {
		struct pace_queue_plan *qp = &opt->queues[i];

		if (qp->size_min == 0) {
			qp->size_min = opt->size_min;
			qp->size_max = opt->size_max;
		}
	}
	qsort(opt->queues, opt->nb_queues, sizeof(opt->queues[0]), cmp_queue);
	for (i = 0; i < opt->nb_changes; i++) {
		const struct pace_change *ch = &opt->changes[i];

		if (pace_plan_find(opt, ch->queue) == NULL) {
			fprintf(stderr, "tm-pace: --at changes queue %u, "
				"which is not in the plan\n", ch->queue);
			return -EINVAL;
		}
		if (ch->at_ns >= opt->duration_ns) {
			fprintf(stderr, "tm-pace: --at change of queue %u "
				"falls after the end of the run\n", ch->queue);
			return -EINVAL;
		}
	}
	/* Stable order in time: same-time changes keep their order. */
	for (i = 1; i < opt->nb_changes; i++) {
		unsigned int j = i;

		while (j > 0 && cmp_change(&opt->changes[j - 1],
					   &opt->changes[j]) > 0) {
			struct pace_change t = opt->changes[j];

			opt->changes[j] = opt->changes[j - 1];
			opt->changes[j - 1] = t;
			j--;
		}
	}
	return 0;
}

int
pace_options_parse(struct pace_options *opt, int argc, char **argv)
{
	const char *prog = argc > 0 ? argv[0] : "dpdk-tm-pace";
	bool settle_given = false;
	unsigned long v;
	double d;
	char *end;
	int c;

	memset(opt, 0, sizeof(*opt));
	opt->duration_ns = 10 * NS_PER_S;
	opt->interval_ns = NS_PER_S;
	opt->size_min = 1500;
	opt->size_max = 1500;
	opt->levels = 2;
	opt->tolerance_pct = 5.0;
	opt->nb_txd = 1024;
	opt->tx_burst = 32;

	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_QUEUE:
			if (add_queue(opt, optarg) < 0)
				return -EINVAL;
			break;
		case OPT_PLAN:
			if (read_plan_file(opt, optarg) < 0)
				return -EINVAL;
			break;
		case OPT_AT:
			if (add_change(opt, optarg) < 0)
				return -EINVAL;
			break;
		case OPT_SHARE:
			opt->share = true;
			break;
		case OPT_LEVELS:
			if (parse_uint(optarg, 2, 3, &v) < 0) {
				bad("--levels", optarg, "expected 2 or 3");
				return -EINVAL;
			}
			opt->levels = (unsigned int)v;
			break;
		case OPT_PKT_SIZE:
			if (parse_size_range(optarg, &opt->size_min,
					     &opt->size_max) < 0) {
				bad("--pkt-size", optarg,
				    "expected N or A..B within 60..9000");
				return -EINVAL;
			}
			break;
		case OPT_TXD:
			if (parse_uint(optarg, 64, 32768, &v) < 0) {
				bad("--txd", optarg, "expected 64..32768");
				return -EINVAL;
			}
			opt->nb_txd = (uint16_t)v;
			break;
		case OPT_TX_BURST:
			if (parse_uint(optarg, 1, 512, &v) < 0) {
				bad("--tx-burst", optarg, "expected 1..512");
				return -EINVAL;
			}
			opt->tx_burst = (uint16_t)v;
			break;
		case OPT_PORT:
			if (parse_uint(optarg, 0, UINT16_MAX - 1, &v) < 0) {
				bad("--port", optarg, "expected a port id");
				return -EINVAL;
			}
			opt->port_id = (uint16_t)v;
			opt->port_given = true;
			break;
		case OPT_DURATION:
			if (pace_parse_duration(optarg, &opt->duration_ns)) {
				bad("--duration", optarg, "expected e.g. 10s");
				return -EINVAL;
			}
			break;
		case OPT_INTERVAL:
			if (pace_parse_duration(optarg, &opt->interval_ns)) {
				bad("--interval", optarg, "expected e.g. 1s");
				return -EINVAL;
			}
			break;
		case OPT_SETTLE:
			if (pace_parse_duration(optarg, &opt->settle_ns)) {
				bad("--settle", optarg, "expected e.g. 500ms");
				return -EINVAL;
			}
			settle_given = true;
			break;
		case OPT_TOLERANCE:
			errno = 0;
			d = strtod(optarg, &end);
			if (errno != 0 || end == optarg ||
			    (*end != '\0' && strcmp(end, "%") != 0) ||
			    !(d > 0 && d < 100)) {
				bad("--tolerance", optarg,
				    "expected a percentage in (0, 100)");
				return -EINVAL;
			}
			opt->tolerance_pct = d;
			break;
		case OPT_JSON:
			opt->json_path = optarg;
			break;
		case OPT_PLOT:
			opt->plot_path = optarg;
			break;
		case OPT_QUIET:
			opt->quiet = true;
			break;
		case OPT_KEEP_GOING:
			opt->keep_going = true;
			break;
		case OPT_FROM_DEVICE:
			opt->from_device = true;
			break;
		case OPT_HELP:
		case 'h':
			pace_usage(stdout, prog);
			return 1;
		default:
			fprintf(stderr, "tm-pace: see --help\n");
			return -EINVAL;
		}
	}
	if (optind < argc) {
		bad("argument", argv[optind], "unexpected; see --help");
		return -EINVAL;
	}
	if (opt->plot_path != NULL) {
		size_t n = strlen(opt->plot_path);

		if (n < 4 || (strcmp(opt->plot_path + n - 4, ".png") != 0 &&
			      strcmp(opt->plot_path + n - 4, ".svg") != 0)) {
			bad("--plot", opt->plot_path,
			    "the file name must end in .png or .svg");
			return -EINVAL;
		}
	}
	return check_options(opt, settle_given);
}
