/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TEST_COMMON_H
#define TEST_COMMON_H

/*
 * A minimal test harness: each test case is a function; a case fails when
 * one of its CHECKs fails. main() runs each with test_run() and prints
 * "N passed, N failed" last with test_report().
 */

#include <stdio.h>
#include <string.h>

extern int test_case_failed;

/** Run test case @p fn, named @p name, and count it passed or failed. */
void test_run(const char *name, void (*fn)(void));

/** Print "N passed, N failed"; returns the exit status (0: all passed). */
int test_report(void);

#define RUN(fn) test_run(#fn, fn)

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("  FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		test_case_failed = 1; \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long va_ = (long long)(a), vb_ = (long long)(b); \
	CHECK(va_ == vb_, "%s = %lld, expected %lld", #a, va_, vb_); \
} while (0)

#define CHECK_STR(hay, needle) \
	CHECK(strstr((hay), (needle)) != NULL, "\"%s\" lacks \"%s\"", \
	      (hay), (needle))

#endif /* TEST_COMMON_H */
