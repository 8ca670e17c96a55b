/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef REPORT_FILE_H
#define REPORT_FILE_H

/**
 * @file
 * A report file of the tree's programs (dpdk-tm-pace --json and --plot,
 * dpdk-mlx5-tm-check --json): opened before the work that fills it, so
 * that a path that cannot be written is refused before a run starts;
 * written to a temporary file beside it, which is flushed, synced, closed,
 * and renamed over the path only when every write succeeded, so that a
 * failed write (a full disk, a file-size limit) leaves no partial report
 * under the path and is reported with the path and the error. A path
 * that exists and is not a regular file (/dev/stdout, a FIFO, /dev/full)
 * is written in place. Plain C, no DPDK.
 */

#include <limits.h>
#include <stdio.h>

/** One report file being written. */
struct report_file {
	FILE *f;		 /**< write the report here; NULL once closed */
	int fd;			 /**< the file @p f writes to */
	int err;		 /**< errno of the first failed write, 0 none */
	char path[PATH_MAX];	 /**< where the report goes */
	char tmp[PATH_MAX + 8]; /**< the temporary file beside it, "" if none */
};

/**
 * Open @p path for a report: a temporary file beside it (mode of a new
 * file, or of the file it replaces), or @p path itself when it exists and
 * is not a regular file. The stream keeps the errno of its first failed
 * write (stdio's error indicator alone would lose it). @p rf must stay
 * where it is until the commit or the discard.
 *
 * @return
 *   0, or -errno with nothing created (@p rf->f NULL).
 */
int report_file_open(struct report_file *rf, const char *path);

/**
 * Finish the report: flush, sync and close the stream, then rename the
 * temporary file over the path. On any failure the temporary file is
 * removed and the error returned; an error of an earlier write (the
 * stream's error indicator) fails it too.
 *
 * @return
 *   0, or -errno of the first failure.
 */
int report_file_commit(struct report_file *rf);

/** Close the stream and remove the temporary file (no report written). */
void report_file_discard(struct report_file *rf);

#endif /* REPORT_FILE_H */
