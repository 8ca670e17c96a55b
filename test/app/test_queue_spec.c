/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Unit tests of the queue-specification parser of the tools
 * (app/queue-spec): numbers exact with their suffixes, the keys each tool
 * allows, bare rates and flags, refusals that name the part and what is
 * allowed. Expected values are written out by hand.
 * Usage: test_queue_spec. The last line is "N passed, N failed".
 */

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "queue_spec.h"
#include "test_common.h"

/* dpdk-tm-pace's queue lines and mlx5-tm-plan's arguments. */
static const struct qspec_syntax pace_queue = {
	.keys = QSPEC_PEAK | QSPEC_PPS | QSPEC_BURST | QSPEC_SIZE |
		QSPEC_CIR | QSPEC_WEIGHT | QSPEC_GROUP,
	.frame_min = 60,
	.frame_max = 9000,
};
static const struct qspec_syntax plan_queue = {
	.keys = QSPEC_RATE | QSPEC_PEAK | QSPEC_BPS | QSPEC_PPS | QSPEC_BURST |
		QSPEC_CIR | QSPEC_ADJUST | QSPEC_DEDICATED,
};

static char err[512];

/* Parse the items of "HEAD:ITEMS" @p spec; 0 or -EINVAL. */
static int
items(const char *spec, const struct qspec_syntax *syn, struct qspec *q)
{
	char buf[256], *head, *list;

	err[0] = '\0';
	if (qspec_split(spec, buf, sizeof(buf), &head, &list, err,
			sizeof(err)) != 0)
		return -1;
	return qspec_items(spec, list, syn, q, err, sizeof(err));
}

static void
numbers_are_exact(void)
{
	uint64_t v = 0;

	CHECK(qspec_number("1.5G", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) == 0, "%s", err);
	CHECK_EQ(v, 1500000000ull);
	CHECK(qspec_number("99.95M", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) == 0, "%s", err);
	CHECK_EQ(v, 99950000ull);
	CHECK(qspec_number("2.5g", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) == 0, "%s", err);
	CHECK_EQ(v, 2500000000ull);
	CHECK(qspec_number("3T", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) == 0, "%s", err);
	CHECK_EQ(v, 3000000000000ull);
	CHECK(qspec_number("64K", QSPEC_BINARY, "burst", &v, err,
			   sizeof(err)) == 0, "%s", err);
	CHECK_EQ(v, 65536);
	CHECK(qspec_number("1.5k", QSPEC_BINARY, "burst", &v, err,
			   sizeof(err)) == 0, "%s", err);
	CHECK_EQ(v, 1536);
	CHECK(qspec_number("18446744073709551615", QSPEC_DECIMAL, "n", &v,
			   err, sizeof(err)) == 0, "%s", err);
	CHECK(v == UINT64_MAX, "%llu", (unsigned long long)v);
}

static void
numbers_refused_with_the_reason(void)
{
	uint64_t v;

	CHECK(qspec_number("1.5", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) != 0, "1.5 accepted");
	CHECK_STR(err, "bad rate '1.5': not a whole number");
	CHECK(qspec_number("18446744073709551616", QSPEC_DECIMAL, "rate", &v,
			   err, sizeof(err)) != 0, "2^64 accepted");
	CHECK_STR(err, "too large");
	CHECK(qspec_number("20000000T", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) != 0, "2e19 accepted");
	CHECK(qspec_number("1Q", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) != 0, "1Q accepted");
	CHECK_STR(err, "unknown suffix; allowed: a whole number, suffix k, M");
	CHECK(qspec_number("1MB", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) != 0, "1MB accepted");
	CHECK(qspec_number("", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) != 0, "empty accepted");
	CHECK(qspec_number("-1", QSPEC_DECIMAL, "rate", &v, err,
			   sizeof(err)) != 0, "-1 accepted");
	CHECK_STR(err, "not a number");
}

static void
tm_pace_queue_line(void)
{
	struct qspec q;

	CHECK(items("3:peak=2.5G,burst=64K,size=64..1500,cir=1G,weight=7,"
		    "group=g_1", &pace_queue, &q) == 0, "%s", err);
	CHECK_EQ(q.rate_key, QSPEC_PEAK);
	CHECK_EQ(q.rate, 2500000000ull);
	CHECK_EQ(q.burst, 65536);
	CHECK_EQ(q.size_min, 64);
	CHECK_EQ(q.size_max, 1500);
	CHECK_EQ(q.cir, 1000000000ull);
	CHECK_EQ(q.weight, 7);
	CHECK(strcmp(q.group, "g_1") == 0, "group '%s'", q.group);
	CHECK_EQ(q.given, QSPEC_PEAK | QSPEC_BURST | QSPEC_SIZE | QSPEC_CIR |
		 QSPEC_WEIGHT | QSPEC_GROUP);
	CHECK(items("5:pps=10K,size=64", &pace_queue, &q) == 0, "%s", err);
	CHECK_EQ(q.rate_key, QSPEC_PPS);
	CHECK_EQ(q.rate, 10000);
	CHECK_EQ(q.size_min, 64);
	CHECK_EQ(q.size_max, 64);
}

static void
tm_pace_refusals_name_the_key(void)
{
	struct qspec q;

	CHECK(items("0:1G", &pace_queue, &q) != 0, "bare rate accepted");
	CHECK_STR(err, "items are key=value");
	CHECK(items("0:peak=1G,dedicated", &pace_queue, &q) != 0,
	      "dedicated accepted");
	CHECK_STR(err, "bad key 'dedicated' in '0:peak=1G,dedicated'");
	CHECK_STR(err, "known keys here: peak, pps, burst, cir, size, weight, "
		  "group");
	CHECK(items("0:peak=1G,pps=1K", &pace_queue, &q) != 0,
	      "two rates accepted");
	CHECK_STR(err, "two rates");
	CHECK(items("0:peak=1G,peak=2G", &pace_queue, &q) != 0,
	      "a key twice accepted");
	CHECK(items("0:peak=1G,size=59", &pace_queue, &q) != 0,
	      "size 59 accepted");
	CHECK_STR(err, "bad size '59' in '0:peak=1G,size=59': expected N or "
		  "A..B within 60..9000");
	CHECK(items("0:peak=1G,size=1500..64", &pace_queue, &q) != 0,
	      "size 1500..64 accepted");
	CHECK(items("0:peak=1G,weight=0", &pace_queue, &q) != 0,
	      "weight 0 accepted");
	CHECK(items("0:peak=1G,weight=65536", &pace_queue, &q) != 0,
	      "weight 65536 accepted");
	CHECK_STR(err, "expected 1..65535");
	CHECK(items("0:peak=1G,group=9lives", &pace_queue, &q) != 0,
	      "group 9lives accepted");
	CHECK(items("0:peak=1G,group=a_name_too_long_", &pace_queue, &q) != 0,
	      "a 16-character group name accepted");
}

static void
plan_bare_rate_and_flag(void)
{
	struct qspec q;

	CHECK(items("6:10M,dedicated", &plan_queue, &q) == 0, "%s", err);
	CHECK_EQ(q.rate_key, QSPEC_RATE);
	CHECK_EQ(q.rate, 10000000);
	CHECK(q.given & QSPEC_DEDICATED, "dedicated not given");
	CHECK(items("5:Bps=125000124", &plan_queue, &q) == 0, "%s", err);
	CHECK_EQ(q.rate_key, QSPEC_BPS);
	CHECK_EQ(q.rate, 125000124);
	CHECK(items("11:1G,adjust=-24", &plan_queue, &q) == 0, "%s", err);
	CHECK_EQ(q.adjust, -24);
	CHECK(items("11:1G,adjust=2147483648", &plan_queue, &q) != 0,
	      "adjust 2^31 accepted");
	CHECK(items("1:peak=1G,10M", &plan_queue, &q) != 0,
	      "a bare rate after the first item accepted");
	CHECK(items("1:dedicated=1,1G", &plan_queue, &q) != 0,
	      "dedicated=1 accepted");
	CHECK(items("1:1G,RATE=5", &plan_queue, &q) != 0, "RATE=5 accepted");
}

static void
heads(void)
{
	char buf[8], big[64], *head, *list;
	uint16_t queue;

	CHECK(qspec_split("  63 :peak=1G", big, sizeof(big), &head, &list, err,
			  sizeof(err)) == 0, "%s", err);
	CHECK(strcmp(head, "63") == 0, "head '%s'", head);
	CHECK(qspec_queue("63:x", "63", 63, &queue, err, sizeof(err)) == 0,
	      "%s", err);
	CHECK_EQ(queue, 63);
	CHECK(qspec_queue("64:x", "64", 63, &queue, err, sizeof(err)) != 0,
	      "64 accepted");
	CHECK_STR(err, "bad queue number '64' in '64:x': expected 0..63");
	CHECK(qspec_queue("1k:x", "1k", 65535, &queue, err,
			  sizeof(err)) != 0, "1k accepted as a queue");
	CHECK(qspec_split("nocolon", buf, sizeof(buf), &head, &list, err,
			  sizeof(err)) != 0, "no colon accepted");
	CHECK(qspec_split("0:peak=100M", buf, sizeof(buf), &head, &list, err,
			  sizeof(err)) != 0, "too long accepted");
	CHECK_STR(err, "longer than 7 characters");
}

int
main(void)
{
	RUN(numbers_are_exact);
	RUN(numbers_refused_with_the_reason);
	RUN(tm_pace_queue_line);
	RUN(tm_pace_refusals_name_the_key);
	RUN(plan_bare_rate_and_flag);
	RUN(heads);
	return test_report();
}
