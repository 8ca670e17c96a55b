/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Unit tests of the pacing library (no DPDK, no device).
 * Usage: test-pacing-lib [--seed N] [--ops N]
 * The last line is "N passed, N failed".
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_common.h"
#include "test_lib.h"

#define DEFAULT_SEED 20261130u
#define DEFAULT_OPS 50000u

static uint64_t seed = DEFAULT_SEED;
static unsigned int nb_ops = DEFAULT_OPS;

static void
random_fixed(void)
{
	test_random(seed, nb_ops);
}

/* Random families of siblings: shares within 1% of the rule. */
static void
sched_families(void)
{
	test_sched_families(seed, 2000);
}

static void
random_more(void)
{
	/* Three further seeds derived from the first, smaller runs. */
	unsigned int i;

	for (i = 1; i <= 3 && !test_case_failed; i++)
		test_random(seed * 6364136223846793005ull + i, nb_ops / 4);
}

int
main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
		} else if (strcmp(argv[i], "--ops") == 0 && i + 1 < argc) {
			nb_ops = (unsigned int)strtoul(argv[++i], NULL, 0);
		} else {
			fprintf(stderr, "usage: %s [--seed N] [--ops N]\n",
				argv[0]);
			return 2;
		}
	}
	RUN(test_rate_zero);
	RUN(test_rate_one_byte);
	RUN(test_rate_min);
	RUN(test_rate_max);
	RUN(test_rate_rounding);
	RUN(test_rate_overflow);
	RUN(test_bucket);
	RUN(test_bucket_unsupported);
	RUN(test_typical_size);
	RUN(test_packet_mode);
	RUN(test_packet_mode_bucket);
	RUN(test_packet_mode_device_bucket);
	RUN(test_single_rate);
	RUN(test_pkt_len_adjust);
	RUN(test_no_pacing);
	RUN(test_rate_range);
	RUN(test_error_ppm);
	RUN(test_ctx_order);
	RUN(test_share_identical);
	RUN(test_dedicated);
	RUN(test_table_full);
	RUN(test_tolerance_boundary);
	RUN(test_tolerance_tie);
	RUN(test_hw_failure);
	RUN(test_release_unknown);
	RUN(test_hitless_update);
	RUN(test_bad_args);
	RUN(test_queries);
	RUN(test_large);
	RUN(test_destroy_frees);
	RUN(test_sched_ceiling);
	RUN(test_sched_weights_exact);
	RUN(test_sched_weights_rounded);
	RUN(test_sched_committed);
	RUN(test_sched_committed_over);
	RUN(test_sched_committed_full);
	RUN(test_sched_bad_args);
	RUN(test_sched_many_children);
	RUN(test_sched_committed_unholdable);
	RUN(test_sched_committed_sibling_at_fault);
	RUN(sched_families);
	RUN(random_fixed);
	RUN(random_more);
	return test_report();
}
