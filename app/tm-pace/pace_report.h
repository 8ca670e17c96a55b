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

#include <stdbool.h>

#include "pace_run.h"

/** Show the latest interval (the last two samples). */
void pace_report_live(const struct pace_run *run);

/** Print the summary table; returns true when every queue met its tolerance. */
bool pace_report_summary(const struct pace_run *run);

/** Write the JSON report; 0 or -errno (message printed). */
int pace_report_json(const struct pace_run *run, const char *path);

/** Draw the chart with gnuplot; 0 or -errno (message printed). */
int pace_report_plot(const struct pace_run *run, const char *path);

/** "peak 1.50G bit/s" or "pps 2.00M pkt/s" into @p buf. */
const char *pace_fmt_shaper(char *buf, size_t len,
			    const struct pace_shaper *sh);

#endif /* PACE_REPORT_H */
