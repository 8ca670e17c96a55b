/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TM_CHECK_H
#define TM_CHECK_H

/*
 * The checks of the traffic-manager suites: each CHECK counts one passed
 * or one failed assertion; tm_check_report() prints the closing line.
 */

#include <stdio.h>

extern unsigned int tm_check_passed;
extern unsigned int tm_check_failed;

#define CHECK(cond, ...) do { \
	if (cond) { \
		tm_check_passed++; \
	} else { \
		tm_check_failed++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

/* Print "N passed, N failed"; the exit status of the suite. */
static inline int
tm_check_report(void)
{
	printf("%u passed, %u failed\n", tm_check_passed, tm_check_failed);
	fflush(stdout);
	return tm_check_failed == 0 ? 0 : 1;
}

#endif /* TM_CHECK_H */
