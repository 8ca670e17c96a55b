/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TEST_LIB_H
#define TEST_LIB_H

#include <stdint.h>

/* Shaper conversion (test_shaper.c). */
void test_rate_zero(void);
void test_rate_one_byte(void);
void test_rate_min(void);
void test_rate_max(void);
void test_rate_rounding(void);
void test_rate_overflow(void);
void test_bucket(void);
void test_bucket_unsupported(void);
void test_typical_size(void);
void test_packet_mode(void);
void test_packet_mode_bucket(void);
void test_packet_mode_device_bucket(void);
void test_single_rate(void);
void test_pkt_len_adjust(void);
void test_no_pacing(void);
void test_rate_range(void);
void test_ctx_order(void);
void test_error_ppm(void);

/* Scheduling-element arithmetic (test_sched.c). */
void test_sched_ceiling(void);
void test_sched_weights_exact(void);
void test_sched_weights_rounded(void);
void test_sched_committed(void);
void test_sched_committed_over(void);
void test_sched_committed_full(void);
void test_sched_bad_args(void);
void test_sched_many_children(void);
void test_sched_committed_unholdable(void);
void test_sched_committed_sibling_at_fault(void);
void test_sched_families(uint64_t seed, unsigned int nb_families);

/* Entry table (test_table.c). */
void test_share_identical(void);
void test_dedicated(void);
void test_table_full(void);
void test_tolerance_boundary(void);
void test_tolerance_tie(void);
void test_hw_failure(void);
void test_release_unknown(void);
void test_hitless_update(void);
void test_bad_args(void);
void test_queries(void);
void test_large(void);
void test_destroy_frees(void);

/* Randomized sequences against a reference model (test_random.c). */
void test_random(uint64_t seed, unsigned int nb_ops);

#endif /* TEST_LIB_H */
