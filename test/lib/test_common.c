/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <stdio.h>

#include "test_common.h"

int test_case_failed;

static unsigned int passed;
static unsigned int failed;

void
test_run(const char *name, void (*fn)(void))
{
	test_case_failed = 0;
	fn();
	if (test_case_failed) {
		failed++;
		printf("FAIL %s\n", name);
	} else {
		passed++;
		printf("ok   %s\n", name);
	}
}

int
test_report(void)
{
	printf("%u passed, %u failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
