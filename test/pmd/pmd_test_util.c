/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <stdlib.h>
#include <string.h>

#include <rte_log.h>

#include "pmd_test_util.h"

bool test_ok;
unsigned int n_pass, n_fail;
const char *test_only;

static char *log_buf;
static size_t log_len;
static FILE *log_stream;

void
run(const char *name, void (*fn)(void))
{
	if (test_only != NULL && strstr(name, test_only) == NULL)
		return;
	test_ok = true;
	printf("%s\n", name);
	fflush(stdout);
	fn();
	if (test_ok)
		n_pass++;
	else
		n_fail++;
	printf("  %s\n", test_ok ? "ok" : "FAILED");
	fflush(stdout);
}

void
log_capture_start(void)
{
	free(log_buf);
	log_buf = NULL;
	log_len = 0;
	log_stream = open_memstream(&log_buf, &log_len);
	rte_openlog_stream(log_stream);
}

const char *
log_capture_stop(void)
{
	rte_openlog_stream(NULL);
	fclose(log_stream);
	log_stream = NULL;
	return log_buf != NULL ? log_buf : "";
}

void
log_capture_free(void)
{
	free(log_buf);
	log_buf = NULL;
	log_len = 0;
}
