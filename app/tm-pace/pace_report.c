/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>

#include "json_str.h"

#include "pace_meter.h"
#include "pace_report.h"

extern char **environ;

const char *
pace_fmt_shaper(char *buf, size_t len, const struct pace_shaper *sh)
{
	char r[32], c[32];

	pace_fmt_si(r, sizeof(r), (double)sh->rate);
	if (sh->rate == 0)
		snprintf(buf, len, "no shaper");
	else if (sh->packet_mode)
		snprintf(buf, len, "pps  %s pkt/s", r);
	else if (sh->committed != 0)
		snprintf(buf, len, "peak %s cir %s", r,
			 pace_fmt_si(c, sizeof(c), (double)sh->committed));
	else
		snprintf(buf, len, "peak %s bit/s", r);
	return buf;
}

/* Shaper, weight (when @p weight) and group (when @p g >= 0). */
static const char *
fmt_config(char *buf, size_t len, const struct pace_shaper *sh,
	   uint32_t weight, int g, const struct pace_options *opt)
{
	size_t off;

	pace_fmt_shaper(buf, len, sh);
	off = strlen(buf);
	if (weight != 0 && off < len)
		off += snprintf(buf + off, len - off, " w%u", weight);
	if (g >= 0 && opt != NULL && off < len)
		snprintf(buf + off, len - off, " in %s", opt->groups[g].name);
	return buf;
}

static const char *
unit(const struct pace_shaper *sh)
{
	return sh->packet_mode ? "pkt/s" : "bit/s";
}

/* An error in % as printed: no "-0.00". */
static double
shown_pct(double v)
{
	return fabs(v) < 0.005 ? 0.0 : v;
}

static void
fmt_profile(char *buf, size_t len, uint32_t id)
{
	if (id == RTE_TM_SHAPER_PROFILE_ID_NONE)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%u", id);
}

static void
fmt_rate(char *buf, size_t len, double v, const struct pace_shaper *sh)
{
	char r[32];

	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s %s", pace_fmt_si(r, sizeof(r), v),
			 unit(sh));
}

/* An error in % as printed, "-" when there is none (nothing expected). */
static const char *
fmt_error(char *buf, size_t len, const struct pace_figure *f)
{
	if (!f->measured || isnan(f->error_pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.2f%%", shown_pct(f->error_pct));
	return buf;
}

/*
 * The status of a row (a queue's or a group's phase, or a live interval):
 * what makes its figure no measure of pacing first, then its verdict.
 * @p unreadable: a queue whose device gives no evidence it can be read
 * from.
 */
static const char *
figure_status(const struct pace_run *run, const struct pace_figure *f,
	      bool unreadable)
{
	if (f->mtu_drops > 0)
		return "MTU-DROPS";
	if (f->errors > 0)
		return "ERRORS";
	if (f->stopped)
		return "STOPPED";
	if (!run->shaped)
		return "UNSHAPED";
	if (!f->measured)
		return unreadable ? "UNREADABLE" : "too short";
	if (f->idle)
		return "idle";
	return f->device_lag ? "DEVICE-LAG" : f->sender_limited ?
	       "SENDER-LIMITED" : f->within ? "ok" : "OFF";
}

/* A row that measures pacing within tolerance (or has nothing to). */
static bool
figure_ok(const struct pace_run *run, const struct pace_figure *f)
{
	const char *st = figure_status(run, f, false);

	return strcmp(st, "ok") == 0 || strcmp(st, "idle") == 0;
}

/* Why a row's status is what it is: after its figures. */
static void
figure_note(const struct pace_figure *f, char *buf, size_t len)
{
	buf[0] = '\0';
	if (f->errors > 0)
		snprintf(buf, len, "  %" PRIu64 " error or flush completion(s),"
			 " %" PRIu64 " queue reset(s)", f->errors,
			 f->recoveries);
	else if (f->stopped)
		snprintf(buf, len, "  no departure in its last %.1f ms",
			 (double)f->stopped_ns / 1e6);
	else if (f->device_lag || f->sender_limited)
		snprintf(buf, len, "  explained: lateness up to %.1f%%, "
			 "senders %.1f%%", f->lag_explains_pct,
			 f->sender_explains_pct);
	else if (f->measured && !f->within && !f->idle &&
		 (f->lag_explains_pct > 0 || f->sender_explains_pct > 0))
		snprintf(buf, len, "  not explained: lateness at most %.1f%%, "
			 "senders %.1f%%", f->lag_explains_pct,
			 f->sender_explains_pct);
}

void
pace_report_live(const struct pace_run *run)
{
	static unsigned int drawn;
	const struct pace_sample *a, *b;
	bool tty = isatty(STDOUT_FILENO);
	char shaper[48], ach[48], prof[16], err[16];
	unsigned int i;

	if (run->opt.quiet || run->nb_samples < 2)
		return;
	a = &run->samples[run->nb_samples - 2];
	b = &run->samples[run->nb_samples - 1];
	if (tty) {
		if (drawn > 0)
			printf("\033[%uA", drawn);
		printf("\033[2K t=%.1fs of %.1fs  (%s time)\n",
		       (double)b->t_ns / 1e9,
		       (double)run->opt.duration_ns / 1e9,
		       run->emu.virtual_clock ? "device" : "real");
		printf("\033[2K %5s  %-24s %7s  %-18s %8s %12s %5s\n",
		       "queue", "configured", "profile", "achieved", "error",
		       "packets", "full");
		drawn = 2;
	}
	for (i = 0; i < run->opt.nb_queues; i++) {
		const struct pace_qsample *qs = &b->q[i];
		uint64_t pkts = pace_meter_packets(run, i, b);
		double full = pace_meter_ring_full_pct(i, a, b);
		struct pace_figure f;
		const char *st;

		pace_meter_interval(run, i, a, b, &f);
		st = figure_status(run, &f, false);
		/* Only what says the figure is no measure of pacing. */
		if (strcmp(st, "ok") == 0 || strcmp(st, "OFF") == 0 ||
		    strcmp(st, "idle") == 0 || strcmp(st, "too short") == 0)
			st = "";
		fmt_config(shaper, sizeof(shaper), &qs->shaper, 0, -1, NULL);
		fmt_rate(ach, sizeof(ach), f.measured ? f.achieved : -1,
			 &qs->shaper);
		fmt_profile(prof, sizeof(prof), qs->profile_id);
		fmt_error(err, sizeof(err), &f);
		if (tty) {
			printf("\033[2K %5u  %-24s %7s  %-18s %8s %12" PRIu64
			       " %4.0f%%%s%s\n", run->opt.queues[i].queue,
			       shaper, prof, ach, err, pkts, full,
			       st[0] ? "  " : "", st);
			drawn++;
		} else {
			printf("t=%.1fs queue %u %s achieved %s error %s "
			       "packets %" PRIu64 " ring-full %.0f%%%s%s\n",
			       (double)b->t_ns / 1e9, run->opt.queues[i].queue,
			       shaper, ach, err, pkts, full, st[0] ? "  " : "",
			       st);
		}
	}
	fflush(stdout);
}

/* Queues sharing @p profile with plan queue @p idx, as "4,5". */
static void
sharers(const struct pace_run *run, unsigned int idx, uint32_t profile,
	char *buf, size_t len)
{
	const struct pace_sample *last;
	unsigned int i;
	size_t off = 0;

	buf[0] = '\0';
	if (run->nb_samples == 0 || profile == RTE_TM_SHAPER_PROFILE_ID_NONE)
		return;
	last = &run->samples[run->nb_samples - 1];
	for (i = 0; i < run->opt.nb_queues && off < len; i++) {
		if (i == idx || last->q[i].profile_id != profile)
			continue;
		off += snprintf(buf + off, len - off, "%s%u", off ? "," : "",
				run->opt.queues[i].queue);
	}
}

/* The port's own figure on a real NIC: vport counters over the run. */
static void
report_vport(const struct pace_run *run)
{
	const struct pace_sample *a = NULL, *b = NULL;
	unsigned int k;
	char r[32];

	for (k = 0; k < run->nb_samples; k++) {
		if (!run->samples[k].vport_ok)
			continue;
		if (a == NULL)
			a = &run->samples[k];
		b = &run->samples[k];
	}
	if (a == NULL || b == a || b->t_ns <= a->t_ns) {
		printf("port: the vport counters (QUERY_VPORT_COUNTER) could "
		       "not be read: no port figure\n");
		return;
	}
	printf("port: vport counters (QUERY_VPORT_COUNTER): %" PRIu64
	       " frames, %" PRIu64 " octets in %.1fs of %s time: %sbit/s "
	       "(every sender on the vport)\n",
	       b->vport_pkts - a->vport_pkts,
	       b->vport_octets - a->vport_octets,
	       (double)(b->t_ns - a->t_ns) / 1e9,
	       run->emu.virtual_clock ? "device" : "real",
	       pace_fmt_si(r, sizeof(r), (double)(b->vport_octets -
			   a->vport_octets) * 8e9 / (double)(b->t_ns - a->t_ns)));
}

/* "queue 2 peak 200M -> peak 800M" or "group A w1 -> w3". */
static void
fmt_change(const struct pace_run *run, const struct pace_applied_change *c,
	   char *buf, size_t len)
{
	const struct pace_state *a = &c->before, *b = &c->after;
	const struct pace_change *ch = c->ch;
	char from[64], to[64];
	int i = c->plan_idx, g = ch->group;

	if (i >= 0) {
		fmt_config(from, sizeof(from), &a->shaper[i],
			   ch->what & PACE_SET_WEIGHT ? a->weight[i] : 0,
			   ch->what & PACE_SET_GROUP ? a->group[i] : -1,
			   &run->opt);
		if (c->ret == 0)
			fmt_config(to, sizeof(to), &b->shaper[i],
				   ch->what & PACE_SET_WEIGHT ? b->weight[i] :
				   0, ch->what & PACE_SET_GROUP ?
				   b->group[i] : -1, &run->opt);
		else
			fmt_config(to, sizeof(to), ch->what & PACE_SET_SHAPER ?
				   &ch->shaper : &a->shaper[i],
				   ch->what & PACE_SET_WEIGHT ? ch->weight : 0,
				   ch->what & PACE_SET_GROUP ? ch->new_group :
				   -1, &run->opt);
		snprintf(buf, len, "queue %u %s -> %s",
			 run->opt.queues[i].queue, from, to);
		return;
	}
	fmt_config(from, sizeof(from), &a->gshaper[g], a->gweight[g], -1, NULL);
	fmt_config(to, sizeof(to), ch->what & PACE_SET_SHAPER ? &ch->shaper :
		   &a->gshaper[g], ch->what & PACE_SET_WEIGHT ? ch->weight :
		   a->gweight[g], -1, NULL);
	snprintf(buf, len, "group %s %s -> %s", run->opt.groups[g].name, from,
		 to);
}

static void
print_change(const struct pace_run *run, const struct pace_applied_change *c)
{
	char what[160];

	fmt_change(run, c, what, sizeof(what));
	if (c->ret == 0)
		printf("change at %.3fs: %s: applied (%s)\n",
		       (double)c->t_ns / 1e9, what, c->call);
	else
		printf("change at %.3fs: %s: REFUSED: %s\n",
		       (double)c->t_ns / 1e9, what, c->reason);
}

/* What the summary found, over all rows. */
struct verdict {
	bool all_ok;
	bool lag;
	bool sender;
	bool lag_left_out;  /* some average leaves a late interval out */
	bool errors;
	bool stopped;
};

/* Count one row in @p v. */
static void
verdict_add(const struct pace_run *run, struct verdict *v,
	    const struct pace_figure *f)
{
	v->all_ok &= figure_ok(run, f);
	v->lag |= f->device_lag;
	v->sender |= f->sender_limited;
	v->lag_left_out |= f->lag_left_out_ns > 0;
	v->errors |= strcmp(figure_status(run, f, false), "ERRORS") == 0;
	v->stopped |= strcmp(figure_status(run, f, false), "STOPPED") == 0;
}

#define ROW_FMT "%-22s %6.1fs  %-28s %7s %7s %4s  %-16s %-16s %8s %10" \
	PRIu64 " %4.0f%%  %s%s%s%s\n"
/* A group's row: no packets or ring of its own. */
#define GROUP_ROW_FMT "%-22s %6.1fs  %-28s %7s %7s %4s  %-16s %-16s " \
	"%8s %10s %5s  %s%s\n"

/* A queue whose device gives no figure it can be read from. */
static bool
unreadable(const struct pace_run *run, unsigned int idx)
{
	enum pace_source src = pace_meter_source(run, idx);

	return src == PACE_SRC_NONE || src == PACE_SRC_CQE;
}

static void
summary_queue(const struct pace_run *run, unsigned int i, unsigned int depth,
	      struct verdict *v)
{
	struct pace_phase ph[PACE_MAX_PHASES];
	char name[40], cfg[64], ach[32], exp[32], with[64], burst[32];
	char prof[16], pp[16], err[16], note[128];
	unsigned int k, n = pace_meter_phases(run, i, ph, PACE_MAX_PHASES);
	bool grouped = run->opt.nb_groups > 0;

	snprintf(name, sizeof(name), "%*squeue %u", 2 * depth, "",
		 run->opt.queues[i].queue);
	for (k = 0; k < n; k++) {
		const struct pace_figure *f = &ph[k].fig;
		const char *st = figure_status(run, f, unreadable(run, i));
		int g = run->initial.group[i];
		unsigned int c;

		/* The group it is in during this phase, if it moved. */
		for (c = 0; c < run->nb_changes; c++)
			if (run->changes[c].ret == 0 &&
			    run->changes[c].t_ns <= ph[k].start_ns)
				g = run->changes[c].after.group[i];
		fmt_config(cfg, sizeof(cfg), &ph[k].shaper,
			   grouped ? ph[k].weight : 0,
			   g != run->initial.group[i] ? g : -1, &run->opt);
		fmt_rate(ach, sizeof(ach), f->measured ? f->achieved : -1,
			 &ph[k].shaper);
		fmt_rate(exp, sizeof(exp), f->expected, &ph[k].shaper);
		if (ph[k].shaper.burst == 0)
			snprintf(burst, sizeof(burst), "default");
		else
			snprintf(burst, sizeof(burst), "%" PRIu64,
				 ph[k].shaper.burst);
		fmt_profile(prof, sizeof(prof), ph[k].profile_id);
		sharers(run, i, ph[k].profile_id, with, sizeof(with));
		if (ph[k].pp_index < 0)
			snprintf(pp, sizeof(pp), "-");
		else
			snprintf(pp, sizeof(pp), "%d", ph[k].pp_index);
		figure_note(f, note, sizeof(note));
		printf(ROW_FMT, k == 0 ? name : "", (double)ph[k].start_ns / 1e9,
		       cfg, burst, prof, pp, exp, ach, fmt_error(err,
		       sizeof(err), f), ph[k].pkts, ph[k].ring_full_pct, st,
		       note, k == n - 1 && with[0] ?
		       "  shares profile with queue " : "",
		       k == n - 1 ? with : "");
		verdict_add(run, v, f);
	}
}

/* The row(s) of group @p g, or of the root when g < 0. */
static void
summary_group(const struct pace_run *run, int g, unsigned int depth,
	      struct verdict *v)
{
	static struct pace_group_phase ph[PACE_MAX_PHASES];
	const struct pace_shaper none = { 0 };
	char name[40], cfg[64], ach[32], exp[32], err[16], note[128];
	unsigned int k, n = pace_meter_group_phases(run, g, ph,
						     PACE_MAX_PHASES);

	if (g < 0)
		snprintf(name, sizeof(name), "root");
	else
		snprintf(name, sizeof(name), "%*sgroup %s", 2 * depth, "",
			 run->opt.groups[g].name);
	for (k = 0; k < n; k++) {
		const struct pace_figure *f = &ph[k].fig;

		if (g < 0)
			snprintf(cfg, sizeof(cfg), "no shaper (port %s)",
				 run->line_bps ? "line rate" : "unknown");
		else
			fmt_config(cfg, sizeof(cfg), &ph[k].state.gshaper[g],
				   ph[k].state.gweight[g], -1, NULL);
		fmt_rate(exp, sizeof(exp), f->expected, &none);
		fmt_rate(ach, sizeof(ach), f->measured ? f->achieved : -1,
			 &none);
		figure_note(f, note, sizeof(note));
		printf(GROUP_ROW_FMT, k == 0 ? name : "",
		       (double)ph[k].start_ns / 1e9, cfg, "", "", "", exp, ach,
		       fmt_error(err, sizeof(err), f), "", "",
		       figure_status(run, f, false), note);
		verdict_add(run, v, f);
	}
}

/* Group @p g (-1: root level) and what hangs below it, in plan order. */
static void
summary_tree(const struct pace_run *run, int g, unsigned int depth,
	     struct verdict *v)
{
	unsigned int i;

	for (i = 0; i < run->opt.nb_queues; i++)
		if (run->initial.group[i] == g)
			summary_queue(run, i, depth, v);
	for (i = 0; i < run->opt.nb_groups; i++) {
		if (run->opt.groups[i].place.group != g)
			continue;
		summary_group(run, (int)i, depth, v);
		summary_tree(run, (int)i, depth + 1, v);
	}
}

bool
pace_report_summary(const struct pace_run *run)
{
	struct verdict v = { .all_ok = true };
	bool all_ok, lag, sender;
	unsigned int i, refused = 0;

	printf("\nSummary: port %u (%s, driver %s), %.1fs of %s time, "
	       "tolerance %.1f%%%s\n", run->port_id, run->port_name,
	       run->driver, (double)run->run_ns / 1e9,
	       run->emu.virtual_clock ? "device" : "real",
	       run->opt.tolerance_pct, run->interrupted ?
	       ", INTERRUPTED" : "");
	printf("%-22s %7s  %-28s %7s %7s %4s  %-16s %-16s %8s %10s %5s  %s\n",
	       "node", "from", "configured", "burst", "profile", "pp",
	       "expected", "achieved", "error", "packets", "full", "status");
	if (run->opt.nb_groups > 0) {
		summary_group(run, -1, 0, &v);
		summary_tree(run, PACE_GROUP_ROOT, 1, &v);
	} else {
		summary_tree(run, PACE_GROUP_ROOT, 0, &v);
	}
	all_ok = v.all_ok;
	lag = v.lag;
	sender = v.sender;
	for (i = 0; i < run->nb_changes; i++) {
		print_change(run, &run->changes[i]);
		refused += run->changes[i].ret != 0;
	}
	if (run->opt.nb_groups > 0)
		printf("expected: what the settings give with every queue "
		       "backlogged (doc/guides/tm_pace.rst); a group's and "
		       "the root's expected rates are the sums of their "
		       "queues', their achieved rates their queues' bytes "
		       "over their own departures\n");
	for (i = 0; i < run->opt.nb_queues; i++) {
		if (pace_meter_source(run, i) != pace_meter_source(run, 0))
			break;
	}
	printf("achieved rates from %s%s; frame bytes without FCS\n",
	       pace_source_name(pace_meter_source(run, 0)),
	       i < run->opt.nb_queues ? " (queue 0; others differ)" : "");
	if (run->hw.present)
		report_vport(run);
	for (i = 0; i < run->opt.nb_queues; i++)
		if (pace_meter_source(run, i) == PACE_SRC_NONE)
			printf("UNREADABLE: queue %u: the device gave no "
			       "completion with a time stamp it could be "
			       "read from: no rate is given for it\n",
			       run->opt.queues[i].queue);
	if (v.errors)
		printf("ERRORS: the device completed WQEs of the queues marked "
		       "ERRORS in error (error or flush completions; the "
		       "driver reset their send queues): frames were lost, "
		       "whatever the rate\n");
	if (v.stopped)
		printf("STOPPED: the queues and groups marked STOPPED sent "
		       "nothing at the end of their phase for longer than %u "
		       "of their frames take, %.0f ms and half the tolerance "
		       "of the phase: the time since their last departure "
		       "counts in their rate\n", PACE_STOP_FRAMES,
		       (double)PACE_STOP_MIN_NS / 1e6);
	if (sender && run->shaped)
		printf("SENDER-LIMITED: the senders posted less than the "
		       "expected rate while their Tx rings had room (or, above "
		       "its share, a row's rivals' did, and the scheduler "
		       "gave their share away), and that shortfall accounts "
		       "for the error (the row's note says how much): this "
		       "machine could not send fast enough; those figures do "
		       "not measure pacing (use more lcores, bigger frames or "
		       "lower rates)\n");
	if (run->have_lag && run->nb_samples > 0 &&
	    run->samples[run->nb_samples - 1].lag > 0) {
		const struct pace_sample *last =
			&run->samples[run->nb_samples - 1];

		if (lag)
			printf("DEVICE-LAG: the emulated device fell behind "
			       "real time (%" PRIu64 " %s, worst %.0f us late), "
			       "and that lateness accounts for the error of the "
			       "rows marked DEVICE-LAG (the row's note says how "
			       "much it can): they do not measure pacing (fewer "
			       "or slower queues, a less busy machine, or "
			       "clock=virtual)\n", last->lag, run->lag_name,
			       (double)last->max_lag_ns / 1e3);
		else
			printf("note: the emulated device was late %" PRIu64
			       " times (%s, worst %.0f us); that lateness "
			       "accounts for no row's error: the figures "
			       "stand\n", last->lag, run->lag_name,
			       (double)last->max_lag_ns / 1e3);
		if (v.lag_left_out)
			printf("averages over the sample intervals in which "
			       "the device kept up: those in which it was "
			       "later than half a queue's ring are left out of "
			       "that queue's (a late model leaves gaps in the "
			       "departures that a NIC would not; JSON "
			       "lag_left_out_s)\n");
	}
	if (!run->shaped)
		printf("UNSHAPED: the port refused the rte_tm hierarchy; the "
		       "rates are what the port took unshaped, not pacing\n");
	if (!run->shaped)
		printf("RESULT: no pacing measured (the plan was refused)\n");
	else
		printf("RESULT: %s%s%s%s%s\n", all_ok ?
		       "every queue within tolerance" :
		       "NOT every queue within tolerance", lag || sender ?
		       ", but NOT a measure of pacing (" : "",
		       lag ? "DEVICE-LAG" : sender ? "SENDER-LIMITED" : "",
		       lag || sender ? ")" : "", refused > 0 ?
		       "; a change was REFUSED: the plan was not carried "
		       "out" : "");
	fflush(stdout);
	return all_ok && run->shaped && !lag && !sender;
}

static void
json_shaper(FILE *f, const struct pace_shaper *sh)
{
	fprintf(f, "{\"mode\": \"%s\", \"rate\": %" PRIu64 ", \"unit\": "
		"\"%s\", \"burst\": %" PRIu64 ", \"tm_peak_rate\": %" PRIu64
		"}", sh->packet_mode ? "packets" : "bytes", sh->rate,
		unit(sh), sh->burst,
		sh->packet_mode ? sh->rate : pace_bytes_per_s(sh->rate));
}

/*
 * The fields of a row's figure, every row alike; @p *all_ok and
 * @p *reliable cleared by a row that is not ok, or no measure of pacing.
 */
static void
json_figure(FILE *f, const struct pace_run *run, const struct pace_figure *x,
	    const char *status, bool *all_ok, bool *reliable)
{
	/* An expectation with no finite figure (a refused plan): null. */
	fprintf(f, "\"expected\": ");
	json_double_write(f, "%.1f", x->expected);
	fprintf(f, ", \"measured\": %s, \"achieved\": ",
		x->measured ? "true" : "false");
	json_double_write(f, "%.1f", x->measured ? x->achieved : NAN);
	fprintf(f, ", \"error_pct\": ");
	json_double_write(f, "%.4f", x->measured ? x->error_pct : NAN);
	fprintf(f, ", \"within_tolerance\": %s, \"idle\": %s, "
		"\"errors\": %" PRIu64 ", \"recoveries\": %" PRIu64 ", "
		"\"mtu_drops\": %" PRIu64 ", \"stopped\": %s, "
		"\"stopped_s\": %.6f, \"sender_limited\": %s, "
		"\"sender_explains_pct\": ",
		x->within ? "true" : "false", x->idle ? "true" : "false",
		x->errors, x->recoveries, x->mtu_drops,
		x->stopped ? "true" : "false", (double)x->stopped_ns / 1e9,
		x->sender_limited ? "true" : "false");
	json_double_write(f, "%.2f", x->sender_explains_pct);
	fprintf(f, ", \"device_lag\": %s, \"lag_explains_pct\": ",
		x->device_lag ? "true" : "false");
	json_double_write(f, "%.2f", x->lag_explains_pct);
	fprintf(f, ", \"lag_left_out_s\": %.1f, \"status\": \"%s\"}",
		(double)x->lag_left_out_ns / 1e9, status);
	if (!figure_ok(run, x))
		*all_ok = false;
	if (x->device_lag || x->sender_limited)
		*reliable = false;
}

static void
json_phases(FILE *f, const struct pace_run *run, unsigned int idx,
	    bool *all_ok, bool *reliable)
{
	struct pace_phase ph[PACE_MAX_PHASES];
	unsigned int k, n = pace_meter_phases(run, idx, ph, PACE_MAX_PHASES);

	fprintf(f, "      \"phases\": [\n");
	for (k = 0; k < n; k++) {
		fprintf(f, "        {\"start_s\": %.6f, \"end_s\": %.6f, "
			"\"configured\": %" PRIu64 ", \"unit\": \"%s\", "
			"\"burst\": %" PRIu64 ", \"profile_id\": %u, "
			"\"pp_index\": %d, \"committed\": %" PRIu64 ", "
			"\"weight\": %u, \"packets\": %" PRIu64 ", "
			"\"ring_full_pct\": ",
			(double)ph[k].start_ns / 1e9,
			(double)ph[k].end_ns / 1e9, ph[k].shaper.rate,
			unit(&ph[k].shaper), ph[k].shaper.burst,
			ph[k].profile_id, ph[k].pp_index,
			ph[k].shaper.committed, ph[k].weight, ph[k].pkts);
		json_double_write(f, "%.2f", ph[k].ring_full_pct);
		fprintf(f, ", ");
		json_figure(f, run, &ph[k].fig, figure_status(run, &ph[k].fig,
			    unreadable(run, idx)), all_ok, reliable);
		fprintf(f, "%s\n", k + 1 < n ? "," : "");
	}
	fprintf(f, "      ],\n");
}

static void
json_samples(FILE *f, const struct pace_run *run, unsigned int idx)
{
	unsigned int k;

	fprintf(f, "      \"samples\": [");
	for (k = 1; k < run->nb_samples; k++) {
		const struct pace_sample *a = &run->samples[k - 1];
		const struct pace_sample *b = &run->samples[k];
		double r = pace_meter_rate(run, idx, a, b);
		uint64_t pkts = pace_meter_packets(run, idx, b);

		fprintf(f, "%s\n        {\"t_s\": %.6f, \"configured\": %"
			PRIu64 ", \"expected\": ",
			k > 1 ? "," : "", (double)b->t_ns / 1e9,
			b->q[idx].shaper.rate);
		json_double_write(f, "%.1f", b->q[idx].expected);
		fprintf(f, ", \"achieved\": ");
		json_double_write(f, "%.1f", r < 0 ? NAN : r);
		fprintf(f, ", \"packets\": %" PRIu64 ", \"sent_packets\": %"
			PRIu64 ", \"ring_full_pct\": ", pkts, b->q[idx].tx.pkts);
		json_double_write(f, "%.2f",
				  pace_meter_ring_full_pct(idx, a, b));
		fprintf(f, ", \"profile_id\": %u}", b->q[idx].profile_id);
	}
	fprintf(f, "\n      ]\n");
}

/* A group (or the root, g < 0) with its phases. */
static void
json_group(FILE *f, const struct pace_run *run, int g, bool comma,
	   bool *all_ok, bool *reliable)
{
	static struct pace_group_phase ph[PACE_MAX_PHASES];
	unsigned int k, n = pace_meter_group_phases(run, g, ph,
						     PACE_MAX_PHASES);

	if (g >= 0) {
		const struct pace_group_plan *gp = &run->opt.groups[g];

		fprintf(f, "%s\n    {\"name\": ", comma ? "," : "");
		json_str_write(f, gp->name);
		fprintf(f, ", \"parent\": ");
		if (gp->place.group < 0)
			fprintf(f, "null");
		else
			json_str_write(f, run->opt.groups[gp->place.group].name);
		fprintf(f, ", \"phases\": [");
	} else {
		fprintf(f, "{\"line_rate\": %" PRIu64 ", \"phases\": [",
			run->line_bps);
	}
	for (k = 0; k < n; k++) {
		fprintf(f, "%s\n      {\"start_s\": %.6f, \"end_s\": %.6f, ",
			k ? "," : "", (double)ph[k].start_ns / 1e9,
			(double)ph[k].end_ns / 1e9);
		if (g >= 0)
			fprintf(f, "\"peak\": %" PRIu64 ", \"committed\": %"
				PRIu64 ", \"weight\": %u, ",
				ph[k].state.gshaper[g].rate,
				ph[k].state.gshaper[g].committed,
				ph[k].state.gweight[g]);
		fprintf(f, "\"unit\": \"bit/s\", ");
		json_figure(f, run, &ph[k].fig, figure_status(run, &ph[k].fig,
			    false), all_ok, reliable);
	}
	fprintf(f, "]}");
}

void
pace_report_json(const struct pace_run *run, FILE *f)
{
	bool all_ok = true, reliable = true;
	unsigned int i;

	fprintf(f, "{\n  \"tool\": \"dpdk-tm-pace\",\n  \"port\": {\"id\": %u, "
		"\"name\": ", run->port_id);
	json_str_write(f, run->port_name);
	fprintf(f, ", \"driver\": ");
	json_str_write(f, run->driver);
	fprintf(f, ", \"tx_queues\": %u, \"emulated\": %s},\n", run->nb_txq,
		run->emu.present ? "true" : "false");
	fprintf(f, "  \"clock\": \"%s\",\n  \"duration_s\": %.6f,\n"
		"  \"run_s\": %.6f,\n  \"interval_s\": %.6f,\n"
		"  \"settle_s\": %.6f,\n  \"tolerance_pct\": %.3f,\n"
		"  \"share\": %s,\n  \"levels\": %u,\n  \"interrupted\": %s,\n",
		run->emu.virtual_clock ? "virtual" : "realtime",
		(double)run->opt.duration_ns / 1e9, (double)run->run_ns / 1e9,
		(double)run->opt.interval_ns / 1e9,
		(double)run->opt.settle_ns / 1e9, run->opt.tolerance_pct,
		run->opt.share ? "true" : "false", run->opt.levels,
		run->interrupted ? "true" : "false");
	fprintf(f, "  \"tm\": {\"committed\": %s, \"errors\": [",
		run->shaped ? "true" : "false");
	for (i = 0; i < run->tm.nb_failures; i++) {
		const struct pace_tm_failure *e = &run->tm.failures[i];

		fprintf(f, "%s\n    {\"call\": ", i ? "," : "");
		json_str_write(f, e->call);
		fprintf(f, ", \"errno\": %d, \"error\": ", e->errnum);
		json_str_write(f, strerror(e->errnum));
		fprintf(f, ", \"type\": ");
		json_str_write(f, pace_tm_error_type_name(e->type));
		fprintf(f, ", \"message\": ");
		json_str_write(f, e->message);
		fprintf(f, "}");
	}
	fprintf(f, "]},\n  \"changes\": [");
	for (i = 0; i < run->nb_changes; i++) {
		const struct pace_applied_change *c = &run->changes[i];

		char what[160];
		int q = c->plan_idx;

		fmt_change(run, c, what, sizeof(what));
		fprintf(f, "%s\n    {\"t_s\": %.6f, ", i ? "," : "",
			(double)c->t_ns / 1e9);
		if (q >= 0) {
			fprintf(f, "\"queue\": %u, \"from\": ",
				run->opt.queues[q].queue);
			json_shaper(f, &c->before.shaper[q]);
			fprintf(f, ", \"to\": ");
			json_shaper(f, c->ch->what & PACE_SET_SHAPER ?
				    &c->ch->shaper : &c->before.shaper[q]);
		} else {
			fprintf(f, "\"group\": ");
			json_str_write(f, run->opt.groups[c->ch->group].name);
		}
		fprintf(f, ", \"change\": ");
		json_str_write(f, what);
		fprintf(f, ", \"calls\": ");
		json_str_write(f, c->call);
		fprintf(f, ", \"applied\": %s, \"errno\": %d, \"reason\": ",
			c->ret == 0 ? "true" : "false", -c->ret);
		json_str_write(f, c->reason);
		fprintf(f, "}");
	}
	fprintf(f, "],\n  \"queues\": [\n");
	for (i = 0; i < run->opt.nb_queues; i++) {
		const struct pace_queue_plan *qp = &run->opt.queues[i];
		char with[64];

		sharers(run, i, run->nb_samples ?
			run->samples[run->nb_samples - 1].q[i].profile_id :
			RTE_TM_SHAPER_PROFILE_ID_NONE, with, sizeof(with));
		fprintf(f, "    {\n      \"queue\": %u,\n      \"shaper\": ",
			qp->queue);
		json_shaper(f, &qp->shaper);
		fprintf(f, ",\n      \"size_min\": %u, \"size_max\": %u,\n"
			"      \"source\": \"%s\",\n      \"shares_profile_with\""
			": [%s],\n", qp->size_min, qp->size_max,
			pace_source_name(pace_meter_source(run, i)), with);
		json_phases(f, run, i, &all_ok, &reliable);
		json_samples(f, run, i);
		fprintf(f, "    }%s\n", i + 1 < run->opt.nb_queues ? "," : "");
	}
	fprintf(f, "  ],\n  \"groups\": [");
	for (i = 0; i < run->opt.nb_groups; i++)
		json_group(f, run, (int)i, i > 0, &all_ok, &reliable);
	fprintf(f, "%s],\n", run->opt.nb_groups ? "\n  " : "");
	if (run->opt.nb_groups > 0) {
		fprintf(f, "  \"root\": ");
		json_group(f, run, -1, false, &all_ok, &reliable);
		fprintf(f, ",\n");
	}
	fprintf(f, "  \"summary\": {\"all_within_tolerance\": %s, "
		"\"shaped\": %s, \"reliable\": %s, \"device_lag\": ",
		all_ok && run->shaped ? "true" : "false",
		run->shaped ? "true" : "false", reliable ? "true" : "false");
	if (run->have_lag && run->nb_samples > 0)
		fprintf(f, "{\"late_passes\": %" PRIu64 ", \"max_lag_ns\": %"
			PRIu64 "}", run->samples[run->nb_samples - 1].lag,
			run->samples[run->nb_samples - 1].max_lag_ns);
	else
		fprintf(f, "null");
	fprintf(f, "}\n}\n");
}

/* The data file: time, then configured and achieved of every queue. */
static void
write_plot_data(const struct pace_run *run, FILE *f)
{
	unsigned int i, k;

	fprintf(f, "# t_s");
	for (i = 0; i < run->opt.nb_queues; i++)
		fprintf(f, " q%u_configured q%u_achieved",
			run->opt.queues[i].queue, run->opt.queues[i].queue);
	fprintf(f, "\n");
	for (k = 1; k < run->nb_samples; k++) {
		const struct pace_sample *a = &run->samples[k - 1];
		const struct pace_sample *b = &run->samples[k];

		fprintf(f, "%.6f", (double)b->t_ns / 1e9);
		for (i = 0; i < run->opt.nb_queues; i++) {
			double r = pace_meter_rate(run, i, a, b);
			double e = b->q[i].expected;

			/* gnuplot's missing value: NaN. */
			if (isfinite(e))
				fprintf(f, " %.1f", e);
			else
				fprintf(f, " NaN");
			if (r > 0)
				fprintf(f, " %.1f", r);
			else
				fprintf(f, " NaN");
		}
		fprintf(f, "\n");
	}
}

static const char *const plot_colors[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#aec7e8",
	"#ffbb78", "#98df8a", "#ff9896", "#c5b0d5",
};

/* Log-scale range of one axis: @p margin times around the rates. */
static void
plot_range(FILE *f, const char *axis, const struct pace_run *run, bool pps,
	   double margin)
{
	double lo = 0, hi = 0;
	unsigned int i, k;

	for (i = 0; i < run->opt.nb_queues; i++) {
		for (k = 0; k < run->nb_samples; k++) {
			const struct pace_shaper *sh = &run->samples[k].q[i].shaper;
			double r = run->samples[k].q[i].expected;

			if (sh->packet_mode != pps)
				continue;
			if (lo == 0 || r < lo)
				lo = r;
			if (r > hi)
				hi = r;
		}
	}
	if (hi > 0)
		fprintf(f, "set %srange [%g:%g]\n", axis, lo / margin,
			hi * margin);
}

/*
 * The script draws into @p out unless the variable out is set (the tool
 * sets it to /dev/stdout and writes what gnuplot draws itself).
 */
static void
write_plot_script(const struct pace_run *run, FILE *f, const char *data,
		  const char *out)
{
	bool svg = strcmp(out + strlen(out) - 4, ".svg") == 0;
	bool any_pps = false;
	unsigned int i;

	for (i = 0; i < run->opt.nb_queues; i++)
		any_pps |= run->opt.queues[i].shaper.packet_mode;
	fprintf(f, "set terminal %s size 1200,700 noenhanced\n", svg ?
		"svg dynamic" : "pngcairo");
	fprintf(f, "if (!exists(\"out\")) out = '%s'\nset output out\n", out);
	fprintf(f, "set title 'dpdk-tm-pace: port %u (%s), expected "
		"(dashed) and achieved (solid) rate per Tx queue'\n",
		run->port_id, run->driver);
	fprintf(f, "set xlabel 'time (s, %s)'\nset ylabel 'bit/s'\n"
		"set xrange [0:%g]\nset logscale y\nset format y '%%.0s%%c'\n"
		"set grid\nset key outside right\n",
		run->emu.virtual_clock ? "device time" : "real time",
		(double)run->run_ns / 1e9);
	plot_range(f, "y", run, false, 2);
	if (any_pps) {
		fprintf(f, "set logscale y2\nset y2label 'packets/s'\n"
			"set y2tics\nset format y2 '%%.0s%%c'\n");
		/* Wide enough for a decade tic on each side. */
		plot_range(f, "y2", run, true, 10);
	}
	fprintf(f, "plot ");
	for (i = 0; i < run->opt.nb_queues; i++) {
		const struct pace_queue_plan *qp = &run->opt.queues[i];
		const char *axes = qp->shaper.packet_mode ? "x1y2" : "x1y1";
		const char *color = plot_colors[i % RTE_DIM(plot_colors)];

		/* A value at t holds for the interval that ends at t. */
		fprintf(f, "%s'%s' using 1:%u axes %s with fsteps dt 2 lc rgb "
			"'%s' notitle, '%s' using 1:%u axes %s with fsteps lw 2 "
			"lc rgb '%s' title 'queue %u%s'", i ? ", \\\n     " : "",
			data, 2 + 2 * i, axes, color, data, 3 + 2 * i, axes,
			color, qp->queue, qp->shaper.packet_mode ?
			" (pkt/s, right)" : "");
	}
	fprintf(f, "\n");
}

/* Open @p rf for @p path; the path and the error printed on failure. */
static int
output_open(struct report_file *rf, const char *opt, const char *path)
{
	int ret = report_file_open(rf, path);

	if (ret < 0)
		fprintf(stderr, "tm-pace: %s: cannot write %s: %s\n", opt, path,
			strerror(-ret));
	return ret;
}

/* Rename @p rf into place; the path and the error printed on failure. */
static int
output_commit(struct report_file *rf, const char *opt)
{
	char path[sizeof(rf->path)];
	int ret;

	snprintf(path, sizeof(path), "%s", rf->path);
	ret = report_file_commit(rf);
	if (ret < 0)
		fprintf(stderr, "tm-pace: %s: writing %s failed: %s\n", opt,
			path, strerror(-ret));
	return ret;
}

int
pace_outputs_open(struct pace_outputs *out, const struct pace_run *run)
{
	const char *plot = run->opt.plot_path;
	size_t n;
	int ret;

	memset(out, 0, sizeof(*out));
	if (run->opt.json_path != NULL) {
		ret = output_open(&out->json, "--json", run->opt.json_path);
		if (ret < 0)
			return ret;
	}
	if (plot == NULL)
		return 0;
	/* FILE.png: FILE.dat and FILE.gp beside it (.png/.svg checked). */
	n = strlen(plot);
	if (n + 1 > sizeof(out->plot_data_path)) {
		fprintf(stderr, "tm-pace: --plot: cannot write %s: %s\n", plot,
			strerror(ENAMETOOLONG));
		pace_outputs_discard(out);
		return -ENAMETOOLONG;
	}
	snprintf(out->plot_data_path, sizeof(out->plot_data_path), "%.*s.dat",
		 (int)(n - 4), plot);
	snprintf(out->plot_script_path, sizeof(out->plot_script_path),
		 "%.*s.gp", (int)(n - 4), plot);
	ret = output_open(&out->plot_image, "--plot", plot);
	if (ret == 0)
		ret = output_open(&out->plot_data, "--plot",
				  out->plot_data_path);
	if (ret == 0)
		ret = output_open(&out->plot_script, "--plot",
				  out->plot_script_path);
	if (ret < 0)
		pace_outputs_discard(out);
	return ret;
}

void
pace_outputs_discard(struct pace_outputs *out)
{
	report_file_discard(&out->json);
	report_file_discard(&out->plot_data);
	report_file_discard(&out->plot_script);
	report_file_discard(&out->plot_image);
}

int
pace_report_json_file(const struct pace_run *run, struct pace_outputs *out)
{
	int ret;

	if (out->json.f == NULL)
		return 0;
	pace_report_json(run, out->json.f);
	ret = output_commit(&out->json, "--json");
	if (ret == 0)
		printf("JSON report written to %s\n", run->opt.json_path);
	return ret;
}

/*
 * gnuplot @p script, its standard output (the chart) copied to @p f;
 * 1 when gnuplot cannot be run, 0 when it drew, -errno.
 */
static int
run_gnuplot(const char *script, FILE *f)
{
	char *argv[] = { (char *)"gnuplot", (char *)"-e",
			 (char *)"out='/dev/stdout'", (char *)script, NULL };
	posix_spawn_file_actions_t fa;
	char buf[65536];
	int pipefd[2], ret, status;
	ssize_t n;
	pid_t pid;

	if (pipe(pipefd) != 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	ret = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (ret != 0) {
		close(pipefd[0]);
		fprintf(stderr, "tm-pace: cannot run gnuplot (%s); install "
			"gnuplot-nox, or run 'gnuplot %s' later\n",
			strerror(ret), script);
		return 1;
	}
	/* Read to the end even after a failed write: gnuplot must finish. */
	while ((n = read(pipefd[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		fwrite(buf, 1, (size_t)n, f);
	}
	ret = n < 0 ? -errno : 0;
	if (ret < 0)
		fprintf(stderr, "tm-pace: --plot: reading the chart from "
			"gnuplot: %s\n", strerror(-ret));
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (ret == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		fprintf(stderr, "tm-pace: gnuplot %s failed\n", script);
		return -EIO;
	}
	return ret;
}

int
pace_report_plot(const struct pace_run *run, struct pace_outputs *out)
{
	const char *path = run->opt.plot_path;
	int ret;

	if (out->plot_image.f == NULL)
		return 0;
	if (run->nb_samples < 2) {
		fprintf(stderr, "tm-pace: --plot: no plot (fewer than two "
			"samples)\n");
		pace_outputs_discard(out);
		return 0;
	}
	write_plot_data(run, out->plot_data.f);
	write_plot_script(run, out->plot_script.f, out->plot_data_path, path);
	ret = output_commit(&out->plot_data, "--plot");
	if (ret == 0)
		ret = output_commit(&out->plot_script, "--plot");
	if (ret == 0)
		ret = run_gnuplot(out->plot_script_path, out->plot_image.f);
	if (ret != 0) {
		report_file_discard(&out->plot_image);
		/* 1: no gnuplot here, the data and the script are written. */
		return ret > 0 ? 0 : ret;
	}
	ret = output_commit(&out->plot_image, "--plot");
	if (ret == 0)
		printf("plot written to %s (data %s, script %s)\n", path,
		       out->plot_data_path, out->plot_script_path);
	return ret;
}
