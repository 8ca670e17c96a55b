/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TM_CHECK_H
#define TM_CHECK_H

/*
 * The checks of the traffic-manager suites. A test case is one named
 * behaviour: TM_CASE(test_x()) runs it, and it counts once, failed if any
 * of its CHECKs failed. A CHECK that fails outside any case counts as a
 * failed case of its own. A case that cannot check its behaviour here
 * calls tm_case_skip() and counts as skipped, never as passed.
 * tm_check_report() prints the closing line.
 */

#include <stdbool.h>
#include <stdio.h>

/** Cases passed and failed so far (each suite defines them). */
extern unsigned int tm_check_passed;
extern unsigned int tm_check_failed;

/* The case running now (one program is one unit: the state is its own). */
static const char *tm_case_name;
static bool tm_case_failed;
static bool tm_case_skipped;
static unsigned int tm_check_skipped;

/* Record a failed CHECK: the current case fails, or one of its own. */
static inline void
tm_check_fail(void)
{
	if (tm_case_name != NULL)
		tm_case_failed = true;
	else
		tm_check_failed++;
}

/** Fail the current case (and say why) unless @p cond holds. */
#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		tm_check_fail(); \
	} \
} while (0)

static inline void
tm_case_begin(const char *name)
{
	tm_case_name = name;
	tm_case_failed = false;
	tm_case_skipped = false;
}

/* The current case cannot run here: say @p why; it counts as skipped. */
static inline void
tm_case_skip(const char *why)
{
	tm_case_skipped = true;
	printf("SKIP %s: %s\n", tm_case_name, why);
}

static inline void
tm_case_end(void)
{
	if (tm_case_failed)
		tm_check_failed++;
	else if (tm_case_skipped)
		tm_check_skipped++;
	else
		tm_check_passed++;
	if (tm_case_failed || !tm_case_skipped)
		printf("%s %s\n", tm_case_failed ? "FAIL" : "ok  ",
		       tm_case_name);
	fflush(stdout);
	tm_case_name = NULL;
}

/** Run the call @p call as one case named after it. */
#define TM_CASE(call) do { \
	tm_case_begin(#call); \
	call; \
	tm_case_end(); \
} while (0)

/*
 * Print "N passed, N failed" (cases), with ", N skipped" when any were;
 * return the exit status of the suite.
 */
static inline int
tm_check_report(void)
{
	if (tm_check_skipped != 0)
		printf("%u passed, %u failed, %u skipped\n", tm_check_passed,
		       tm_check_failed, tm_check_skipped);
	else
		printf("%u passed, %u failed\n", tm_check_passed,
		       tm_check_failed);
	fflush(stdout);
	return tm_check_failed == 0 ? 0 : 1;
}

#endif /* TM_CHECK_H */
