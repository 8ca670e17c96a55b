/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pace_plan.h"
#include "queue_spec.h"

#define NS_PER_S 1000000000ULL

void
pace_usage(FILE *out, const char *prog)
{
	fprintf(out,
"Usage: %s [EAL options] -- [options] --queue Q:SPEC [--queue Q:SPEC ...]\n"
"\n"
"Paces Tx queues of a DPDK port through the rte_tm API (root node, leaf\n"
"node per queue with a private shaper, and the groups of the plan as\n"
"non-leaf nodes), sends UDP/IPv4 traffic on every planned queue with the\n"
"Tx rings kept full, and measures the achieved rate of each queue and\n"
"group against what its configuration gives it.\n"
"\n"
"Rate plan:\n"
"  --queue Q:SPEC     plan Tx queue Q (a leaf); SPEC is a comma list of\n"
"                       peak=RATE   shaper peak rate in BITS per second\n"
"                                   (K, M, G = 10^3, 10^6, 10^9; like\n"
"                                   testpmd's Mbps figures). rte_tm wants\n"
"                                   bytes/s: the tool passes RATE / 8,\n"
"                                   rounded down.\n"
"                       pps=RATE    packet-mode shaper, packets per second\n"
"                                   (K, M, G as above)\n"
"                       burst=SIZE  bucket size: bytes for peak= (K, M =\n"
"                                   1024, 1024^2), packets for pps=;\n"
"                                   0 or absent = the device default\n"
"                       size=N|A..B frame size(s) of this queue, bytes\n"
"                                   without FCS (overrides --pkt-size)\n"
"                       group=NAME  the queue's parent is group NAME (a\n"
"                                   queue in a group may have no rate:\n"
"                                   it takes its share of the group)\n"
"                       weight=N    its share among its siblings (1..65535,\n"
"                                   default 1): rte_tm node weight; the\n"
"                                   port refuses more than it holds\n"
"                                   (1..100 on cx6dx/cx7, 1 on cx5)\n"
"                       cir=RATE    committed rate, bits/s: guaranteed\n"
"                                   under contention, peak= its ceiling\n"
"  --group NAME:SPEC  a non-leaf node NAME; SPEC takes\n"
"                       peak=RATE   the group's ceiling, bits/s\n"
"                       weight=N    its share among its siblings\n"
"                       cir=RATE    committed rate, bits/s (needs peak=)\n"
"                       parent=NAME under group NAME (defined before it)\n"
"                                   instead of the root\n"
"                     Queues without group= hang under a pass-through\n"
"                     node beside the groups; each level is padded with\n"
"                     pass-through nodes so that all leaves share a level\n"
"  --plan FILE        read the plan from FILE: one 'Q:SPEC' per line (a\n"
"                     leading 'queue' or '--queue' is allowed), 'group\n"
"                     NAME:SPEC' lines, 'at T:queue Q:SPEC' and 'at\n"
"                     T:group NAME:SPEC' lines for changes; '#' starts a\n"
"                     comment\n"
"  --at T:queue Q:SPEC  at time T of the run, change queue Q: a new shaper\n"
"                     (peak=, pps=, burst=, cir=: new profile +\n"
"                     rte_tm_node_shaper_update), a new weight= or a new\n"
"                     group= (rte_tm_node_parent_update); quote it, or\n"
"                     write T:Q:SPEC\n"
"  --at T:group NAME:SPEC  the same for a group: peak=, cir=, weight=\n"
"  --share            queues with identical shapers use ONE shaper profile\n"
"                     (on mlx5-tm: one hardware pacing entry); without it\n"
"                     every queue gets a profile of its own\n"
"  --levels 2|3       depth of a plan without groups: root + leaves (2,\n"
"                     default), or root, one pass-through middle node,\n"
"                     leaves (3)\n"
"\n"
"Traffic:\n"
"  --pkt-size N|A..B  frame size, bytes without FCS, %d..%d (default\n"
"                     1500); a range A..B sends every size from A to B\n"
"                     once in B-A+1 frames, spread (a golden-ratio\n"
"                     stride) so that any run of frames has about the\n"
"                     mean size; above 1514 the port's MTU is raised\n"
"                     to fit the largest\n"
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
"  --tolerance PCT    allowed error of an achieved rate (default 1 in\n"
"                     virtual device time, the rate promise of mlx5-tm;\n"
"                     5 otherwise)\n"
"  --json FILE        write configured and achieved rates over time, the\n"
"                     phases of every queue and a summary as JSON\n"
"  --plot FILE        draw configured and achieved rates over time with\n"
"                     gnuplot into FILE (.png or .svg; FILE.dat, FILE.gp)\n"
"                     (a path that cannot be written: refused before the\n"
"                     run; a failed write: no partial file, exit 6)\n"
"  --quiet            no live display, summary only\n"
"  --keep-going       if the port refuses the rte_tm hierarchy, send\n"
"                     unshaped traffic anyway (reported as UNSHAPED)\n"
"  --from-device      on an emulated mlx5-tm device, measure as on a real\n"
"                     NIC: from its completions and vport counters\n"
"  --help, -h         this text (also before --)\n"
"  --eal-help         DPDK's EAL options (before --)\n"
"\n"
"Achieved rates come from the port: on a real mlx5-tm NIC (dev=) from the\n"
"device only: bytes completed between the time stamps of two CQEs per\n"
"queue, the vport counters for the port, and no figure where neither can\n"
"be read; the emulated mlx5-tm device's wire\n"
"counters when present (exact departure times), otherwise the per-queue\n"
"Tx statistics (with a full ring, accepted = departed), otherwise the\n"
"sender's own counts. Each queue and group is checked against its\n"
"expected rate (doc/guides/tm_pace.rst): every child gets min(its own\n"
"limit, its weighted max-min share of what its parent gets), in\n"
"proportion to its committed rate plus a weighted part of what the\n"
"committed rates leave (as mlx5-tm programs bw_share); a tree with no\n"
"scheduling element (no group shaper, every weight 1, no committed rate)\n"
"shares the line packet-fair; a frame takes max(len, 60) + 24 bytes of\n"
"line time. A group's achieved rate is its queues' bytes over its own\n"
"departures. Statuses: ok, OFF, idle (nothing expected), ERRORS (error\n"
"completions), STOPPED (no departure at the end of a phase), MTU-DROPS,\n"
"and, where they account for the error (the note says how much),\n"
"SENDER-LIMITED (a sender posted less with room in its ring) and\n"
"DEVICE-LAG (the emulated device fell behind real time). Sample\n"
"intervals in which the device model was late by more than half a\n"
"queue's ring are left out of its average.\n"
"\n"
"Exit status: 0 every queue and group within tolerance, 1 one is not,\n"
"2 a usage error (EAL's arguments included, a report path that cannot\n"
"be written), 3 the port cannot carry out the plan (no such port, a\n"
"queue or frame size it does not have, the rte_tm hierarchy refused,\n"
"configure or start failed), 4 a live change was refused, 5 out of\n"
"memory, 6 a report file (--json, --plot) or the device model's pcap=\n"
"capture could not be written; each but 0 says why.\n",
		prog, PACE_MIN_PKT_SIZE, PACE_MAX_PKT_SIZE);
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

static void
bad(const char *what, const char *arg, const char *why)
{
	fprintf(stderr, "tm-pace: bad %s '%s': %s\n", what, arg, why);
}


/* Keys of a SPEC; each kind of line allows some of them. */
#define QUEUE_KEYS (QSPEC_PEAK | QSPEC_PPS | QSPEC_BURST | QSPEC_SIZE | \
		    QSPEC_CIR | QSPEC_WEIGHT | QSPEC_GROUP)
#define QUEUE_CHANGE_KEYS (QUEUE_KEYS & ~QSPEC_SIZE)
#define GROUP_KEYS (QSPEC_PEAK | QSPEC_CIR | QSPEC_WEIGHT | QSPEC_PARENT)
#define GROUP_CHANGE_KEYS (QSPEC_PEAK | QSPEC_CIR | QSPEC_WEIGHT)

/* A plan line, its terminating NUL included (the old fgets() buffer). */
#define PLAN_LINE_MAX 512

/* Long enough for a message quoting a 255-character spec. */
#define ERR_LEN 640

/*
 * The items of @p arg (cut up in place) into @p sp, and its shaper as the
 * plan keeps it into @p sh.
 */
static int
parse_items(const char *arg, char *items, unsigned int keys,
	    struct qspec *sp, struct pace_shaper *sh)
{
	const struct qspec_syntax syn = {
		.keys = keys,
		.frame_min = PACE_MIN_PKT_SIZE,
		.frame_max = PACE_MAX_PKT_SIZE,
	};
	char err[ERR_LEN];

	if (qspec_items(arg, items, &syn, sp, err, sizeof(err)) < 0) {
		fprintf(stderr, "tm-pace: %s\n", err);
		return -EINVAL;
	}
	if (sp->rate_key != 0 && sp->rate == 0) {
		bad("rate", arg, "expected a positive number with k/M/G");
		return -EINVAL;
	}
	memset(sh, 0, sizeof(*sh));
	sh->packet_mode = sp->rate_key == QSPEC_PPS;
	sh->rate = sp->rate;
	sh->burst = sp->burst;
	sh->committed = sp->cir;
	if (sp->given & QSPEC_CIR) {
		if (sp->cir == 0) {
			bad("committed rate (cir=)", arg, "expected a positive "
			    "number of bits/s with k/M/G");
			return -EINVAL;
		}
		if (!(sp->given & QSPEC_PEAK)) {
			bad("spec", arg, "a committed rate (cir=) needs a peak "
			    "rate (peak=), its ceiling, in bits/s");
			return -EINVAL;
		}
		if (sp->cir > sp->rate) {
			bad("spec", arg, "the committed rate (cir=) is above "
			    "the peak rate (peak=)");
			return -EINVAL;
		}
	}
	return 0;
}

/* "HEAD:k=v,..." : @p head and @p items point into @p buf. */
static int
split_head(const char *arg, char *buf, size_t len, char **head,
	   char **items)
{
	char err[ERR_LEN];

	if (qspec_split(arg, buf, len, head, items, err, sizeof(err)) < 0) {
		fprintf(stderr, "tm-pace: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

static int
parse_queue_number(const char *arg, const char *s, uint16_t *queue)
{
	char err[ERR_LEN];

	if (qspec_queue(arg, s, PACE_MAX_QUEUES - 1, queue, err,
			sizeof(err)) < 0) {
		fprintf(stderr, "tm-pace: %s\n", err);
		return -EINVAL;
	}
	return 0;
}

static void
place_from_spec(struct pace_place *pl, const struct qspec *sp)
{
	pl->group = PACE_GROUP_ROOT;
	pl->weight = sp->given & QSPEC_WEIGHT ? sp->weight : 1;
	snprintf(pl->group_name, sizeof(pl->group_name), "%s", sp->group);
}

static int
add_queue(struct pace_options *opt, const char *arg)
{
	struct pace_queue_plan qp = { 0 };
	struct qspec sp;
	char buf[256], *head, *items;
	unsigned int i;

	if (split_head(arg, buf, sizeof(buf), &head, &items) < 0 ||
	    parse_queue_number(arg, head, &qp.queue) < 0 ||
	    parse_items(arg, items, QUEUE_KEYS, &sp, &qp.shaper) < 0)
		return -EINVAL;
	if (!(sp.given & (QSPEC_PEAK | QSPEC_PPS)) &&
	    (!(sp.given & QSPEC_GROUP) || sp.given & QSPEC_BURST)) {
		bad("queue spec", arg, "no peak= or pps= rate (only a queue "
		    "in a group= may go without a shaper of its own)");
		return -EINVAL;
	}
	qp.size_min = sp.size_min;
	qp.size_max = sp.size_max;
	place_from_spec(&qp.place, &sp);
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

/* "NAME:k=v,..." */
static int
add_group(struct pace_options *opt, const char *arg)
{
	struct pace_group_plan *g;
	struct qspec sp;
	char buf[256], *head, *items;

	if (opt->nb_groups == PACE_MAX_GROUPS) {
		bad("group", arg, "too many groups (16 at most)");
		return -EINVAL;
	}
	g = &opt->groups[opt->nb_groups];
	memset(g, 0, sizeof(*g));
	if (strchr(arg, ':') == NULL) {
		bad("group", arg, "expected NAME:SETTINGS, the group's name, "
		    "a colon, then its settings peak=, cir=, weight=, "
		    "parent= (none given: NAME:)");
		return -EINVAL;
	}
	if (split_head(arg, buf, sizeof(buf), &head, &items) < 0)
		return -EINVAL;
	if (qspec_name(head, g->name) < 0) {
		bad("group", arg, "expected NAME:peak=RATE,weight=N,...; "
		    "NAME a letter or _, then letters, digits, _ or -");
		return -EINVAL;
	}
	if (pace_plan_group(opt, g->name) >= 0) {
		bad("group", arg, "group defined twice");
		return -EINVAL;
	}
	if (parse_items(arg, items, GROUP_KEYS, &sp, &g->shaper) < 0)
		return -EINVAL;
	place_from_spec(&g->place, &sp);
	opt->nb_groups++;
	return 0;
}

/* "T:queue Q:SPEC", "T:Q:SPEC" or "T:group NAME:SPEC" */
static int
add_change(struct pace_options *opt, const char *arg)
{
	struct pace_change *ch;
	struct qspec sp;
	char tbuf[32], buf[256], *head, *items;
	const char *colon = strchr(arg, ':');
	const char *what;
	size_t tlen;

	if (opt->nb_changes == PACE_MAX_CHANGES) {
		bad("change", arg, "too many changes");
		return -EINVAL;
	}
	ch = &opt->changes[opt->nb_changes];
	memset(ch, 0, sizeof(*ch));
	tlen = colon != NULL ? (size_t)(colon - arg) : 0;
	if (colon == NULL || tlen >= sizeof(tbuf)) {
		bad("change", arg, "expected T:queue Q:SPEC or "
		    "T:group NAME:SPEC");
		return -EINVAL;
	}
	memcpy(tbuf, arg, tlen);
	tbuf[tlen] = '\0';
	if (pace_parse_duration(tbuf, &ch->at_ns) < 0) {
		bad("change time", arg, "expected a time such as 5s");
		return -EINVAL;
	}
	what = colon + 1;
	while (isspace((unsigned char)*what))
		what++;
	if (strncmp(what, "group", 5) == 0 &&
	    isspace((unsigned char)what[5]))
		ch->is_group = true;
	if (strncmp(what, "queue", 5) == 0 || ch->is_group) {
		what += 5;
		while (isspace((unsigned char)*what))
			what++;
	}
	if (*what == '\0' || strchr(what, ':') == NULL) {
		bad("change", arg, "expected T:queue Q:SPEC or T:group "
		    "NAME:SPEC in one argument (quote it: --at '5s:queue "
		    "2:peak=200M', or write --at 5s:2:peak=200M)");
		return -EINVAL;
	}
	if (split_head(what, buf, sizeof(buf), &head, &items) < 0)
		return -EINVAL;
	if (ch->is_group) {
		if (qspec_name(head, ch->group_name) < 0) {
			bad("change", arg, "expected a group name after "
			    "'group'");
			return -EINVAL;
		}
	} else if (parse_queue_number(arg, head, &ch->queue) < 0) {
		return -EINVAL;
	}
	if (parse_items(arg, items, ch->is_group ? GROUP_CHANGE_KEYS :
			QUEUE_CHANGE_KEYS, &sp, &ch->shaper) < 0)
		return -EINVAL;
	if (sp.given & (QSPEC_PEAK | QSPEC_PPS | QSPEC_CIR))
		ch->what |= PACE_SET_SHAPER;
	if (sp.given & QSPEC_WEIGHT)
		ch->what |= PACE_SET_WEIGHT;
	if (sp.given & QSPEC_GROUP)
		ch->what |= PACE_SET_GROUP;
	if (ch->what == 0 || (!ch->is_group && sp.given & QSPEC_BURST &&
			      !(ch->what & PACE_SET_SHAPER))) {
		bad("change", arg, "nothing to change: give a new shaper "
		    "(peak=, pps=), weight= or group=");
		return -EINVAL;
	}
	ch->weight = sp.weight;
	snprintf(ch->new_group_name, sizeof(ch->new_group_name), "%s",
		 sp.group);
	opt->nb_changes++;
	return 0;
}

/*
 * Line @p lineno of plan @p f into @p line (PLAN_LINE_MAX bytes), without
 * its newline: 1, or 0 at the end of the file, or a message and -EINVAL
 * for a line too long or holding a NUL byte (which would cut it short).
 */
static int
read_plan_line(FILE *f, const char *path, unsigned int lineno, char *line)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0') {
			fprintf(stderr, "tm-pace: plan %s line %u: a NUL byte "
				"at column %zu (a plan is text)\n", path,
				lineno, n + 1);
			return -EINVAL;
		}
		if (n == PLAN_LINE_MAX - 1) {
			fprintf(stderr, "tm-pace: plan %s line %u: longer than "
				"%d characters\n", path, lineno,
				PLAN_LINE_MAX - 1);
			return -EINVAL;
		}
		line[n++] = (char)c;
	}
	line[n] = '\0';
	if (ferror(f)) {
		fprintf(stderr, "tm-pace: cannot read plan %s: %s\n", path,
			strerror(errno));
		return -EINVAL;
	}
	return c == EOF && n == 0 ? 0 : 1;
}

/*
 * A plan is a regular file: a directory, a device (/dev/zero, which never
 * ends) or a pipe is refused before reading.
 */
static FILE *
open_plan(const char *path)
{
	struct stat st;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		fprintf(stderr, "tm-pace: cannot open plan %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) < 0) {
		fprintf(stderr, "tm-pace: cannot read plan %s: %s\n", path,
			strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tm-pace: plan %s is a directory; give a "
			"plan file\n", path);
	} else if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "tm-pace: plan %s is not a regular file "
			"(a device, pipe or socket); give a plan file\n",
			path);
	} else {
		return f;
	}
	fclose(f);
	return NULL;
}

static int
read_plan_file(struct pace_options *opt, const char *path)
{
	char line[PLAN_LINE_MAX];
	unsigned int lineno = 0;
	FILE *f = open_plan(path);
	int ret = 0;

	if (f == NULL)
		return -EINVAL;
	while (ret == 0) {
		char *hash, *s;

		ret = read_plan_line(f, path, ++lineno, line);
		if (ret <= 0)
			break;
		ret = 0;
		hash = strchr(line, '#');
		if (hash != NULL)
			*hash = '\0';
		s = qspec_trim(line);
		if (*s == '\0')
			continue;
		if (strncmp(s, "--queue", 7) == 0)
			s = qspec_trim(s + 7);
		else if (strncmp(s, "queue", 5) == 0)
			s = qspec_trim(s + 5);
		if (strncmp(s, "--group", 7) == 0)
			ret = add_group(opt, qspec_trim(s + 7));
		else if (strncmp(s, "group", 5) == 0 &&
			 isspace((unsigned char)s[5]))
			ret = add_group(opt, qspec_trim(s + 5));
		else if (strncmp(s, "--at", 4) == 0)
			ret = add_change(opt, qspec_trim(s + 4));
		else if (strncmp(s, "at", 2) == 0 &&
			 isspace((unsigned char)s[2]))
			ret = add_change(opt, qspec_trim(s + 2));
		else
			ret = add_queue(opt, s);
		if (ret < 0)
			fprintf(stderr, "tm-pace: in %s line %u\n", path,
				lineno);
	}
	fclose(f);
	return ret;
}

int
pace_plan_group(const struct pace_options *opt, const char *name)
{
	unsigned int i;

	for (i = 0; i < opt->nb_groups; i++)
		if (strcmp(opt->groups[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The group index of @p name ("" = the root), or a message and -EINVAL. */
static int
resolve_group(const struct pace_options *opt, const char *name,
	      const char *who, int *out)
{
	if (name[0] == '\0') {
		*out = PACE_GROUP_ROOT;
		return 0;
	}
	*out = pace_plan_group(opt, name);
	if (*out >= 0)
		return 0;
	fprintf(stderr, "tm-pace: %s names group '%s', which is not in the "
		"plan (define it with 'group %s:...' or --group)\n", who, name,
		name);
	return -EINVAL;
}

/* Group @p g or one above it has a ceiling. */
static bool
capped(const struct pace_options *opt, int g)
{
	for (; g >= 0; g = opt->groups[g].place.group)
		if (opt->groups[g].shaper.rate != 0)
			return true;
	return false;
}

/*
 * Group names to indexes, depths (a group's parent is defined before it,
 * so no cycle), and what changes may do.
 */
static int
check_groups(struct pace_options *opt)
{
	char who[64];
	unsigned int i;

	for (i = 0; i < opt->nb_groups; i++) {
		struct pace_group_plan *g = &opt->groups[i];

		snprintf(who, sizeof(who), "group %s", g->name);
		if (resolve_group(opt, g->place.group_name, who,
				  &g->place.group) < 0)
			return -EINVAL;
		if (g->place.group >= (int)i) {
			fprintf(stderr, "tm-pace: group %s: its parent %s must "
				"be defined before it\n", g->name,
				g->place.group_name);
			return -EINVAL;
		}
		g->depth = g->place.group == PACE_GROUP_ROOT ? 1 :
			   opt->groups[g->place.group].depth + 1;
		if (g->depth > opt->group_depth)
			opt->group_depth = g->depth;
	}
	for (i = 0; i < opt->nb_queues; i++) {
		struct pace_queue_plan *qp = &opt->queues[i];

		snprintf(who, sizeof(who), "queue %u", qp->queue);
		if (resolve_group(opt, qp->place.group_name, who,
				  &qp->place.group) < 0)
			return -EINVAL;
		if (qp->shaper.rate == 0 && !capped(opt, qp->place.group)) {
			fprintf(stderr, "tm-pace: queue %u has no rate and no "
				"group above it has a ceiling: it would send as "
				"fast as the port goes; give it peak= or its "
				"group a peak=\n", qp->queue);
			return -EINVAL;
		}
	}
	for (i = 0; i < opt->nb_changes; i++) {
		struct pace_change *ch = &opt->changes[i];

		if (ch->is_group) {
			snprintf(who, sizeof(who), "change at %.3fs",
				 (double)ch->at_ns / 1e9);
			if (resolve_group(opt, ch->group_name, who,
					  &ch->group) < 0)
				return -EINVAL;
		}
		if (ch->what & PACE_SET_GROUP) {
			snprintf(who, sizeof(who), "change of queue %u",
				 ch->queue);
			if (resolve_group(opt, ch->new_group_name, who,
					  &ch->new_group) < 0)
				return -EINVAL;
		}
	}
	if (opt->nb_groups > 0)
		opt->levels = opt->group_depth + 2;
	return 0;
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
	OPT_QUEUE = 256, OPT_GROUP, OPT_PLAN, OPT_AT, OPT_SHARE, OPT_LEVELS,
	OPT_PKT_SIZE, OPT_TXD, OPT_TX_BURST, OPT_PORT, OPT_DURATION,
	OPT_INTERVAL, OPT_SETTLE, OPT_TOLERANCE, OPT_JSON, OPT_PLOT,
	OPT_QUIET, OPT_KEEP_GOING, OPT_FROM_DEVICE, OPT_HELP,
};

static const struct option long_opts[] = {
	{ "queue", required_argument, NULL, OPT_QUEUE },
	{ "group", required_argument, NULL, OPT_GROUP },
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
check_options(struct pace_options *opt, bool settle_given, bool levels_given)
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
	if (levels_given && opt->nb_groups > 0) {
		fprintf(stderr, "tm-pace: --levels is for plans without "
			"groups; with groups the levels follow them\n");
		return -EINVAL;
	}
	if (check_groups(opt) < 0)
		return -EINVAL;
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

		if (ch->is_group) {
			if (ch->at_ns >= opt->duration_ns) {
				fprintf(stderr, "tm-pace: --at change of group "
					"%s falls after the end of the run\n",
					ch->group_name);
				return -EINVAL;
			}
			continue;
		}
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
	bool settle_given = false, levels_given = false;
	char err[ERR_LEN];
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
		case OPT_GROUP:
			if (add_group(opt, optarg) < 0)
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
			levels_given = true;
			break;
		case OPT_PKT_SIZE:
			if (qspec_range(optarg, PACE_MIN_PKT_SIZE,
					PACE_MAX_PKT_SIZE, "--pkt-size",
					&opt->size_min, &opt->size_max, err,
					sizeof(err)) < 0) {
				fprintf(stderr, "tm-pace: %s\n", err);
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
	return check_options(opt, settle_given, levels_given);
}
