/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACE_REPORT_H
#define PACE_REPORT_H

/**
 * @file
 * What dpdk-tm-pace shows and writes: the live display (ANSI redraw on a
 * terminal, plain lines otherwise), the summary table, the JSON report
 * and the gnuplot chart.
 */

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "report_file.h"

#include "pace_run.h"

/** Show the latest interval (the last two samples). */
void pace_report_live(const struct pace_run *run);

/** Print the summary table; returns true when every queue met its tolerance. */
bool pace_report_summary(const struct pace_run *run);

/**
 * The files --json and --plot write: opened before the run (a path that
 * cannot be written is refused then), renamed into place only when every
 * write to them succeeded (lib/json/report_file.h).
 */
struct pace_outputs {
	struct report_file json;
	struct report_file plot_data;	/**< FILE.dat */
	struct report_file plot_script;	/**< FILE.gp */
	struct report_file plot_image;	/**< FILE (.png or .svg) */
	char plot_data_path[PATH_MAX];
	char plot_script_path[PATH_MAX];
};

/**
 * Open the report files @p run->opt asks for; 0, or -errno with the path
 * and the error printed and nothing left behind.
 */
int pace_outputs_open(struct pace_outputs *out, const struct pace_run *run);

/** Close and remove what pace_outputs_open() opened and is not written. */
void pace_outputs_discard(struct pace_outputs *out);

/** Write the JSON report to @p f (an infinite or unknown figure: null). */
void pace_report_json(const struct pace_run *run, FILE *f);

/**
 * Write the JSON report to @p out->json and rename it into place; 0, or
 * -errno with the path and the error printed.
 */
int pace_report_json_file(const struct pace_run *run,
			  struct pace_outputs *out);

/**
 * Write the chart's data and gnuplot script, and the chart gnuplot draws
 * (read from its standard output), each renamed into place once complete;
 * 0 (also when gnuplot cannot be run: the data and the script are there,
 * the message says so), or -errno with the path and the error printed.
 */
int pace_report_plot(const struct pace_run *run, struct pace_outputs *out);

/** "peak 1.50G bit/s" or "pps 2.00M pkt/s" into @p buf. */
const char *pace_fmt_shaper(char *buf, size_t len,
			    const struct pace_shaper *sh);

#endif /* PACE_REPORT_H */
