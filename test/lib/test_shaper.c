/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Shaper to pacing context: ranges, rounding, overflow, capabilities. */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "pacing_sched.h"
#include "pacing_table.h"
#include "test_common.h"
#include "test_lib.h"

/* A cx5-like device: 1000..100000000 kbps, bucket and typical size. */
static const struct pacing_caps caps5 = {
	.packet_pacing = true, .burst_bound = true, .typical_size = true,
	.wqe_rate = false, .min_rate_kbps = 1000, .max_rate_kbps = 100000000,
	.table_size = 128,
};

static struct pacing_caps
caps_wqe(void)
{
	struct pacing_caps c = caps5;

	c.wqe_rate = true;
	return c;
}

static int
convert(uint64_t rate, const struct pacing_caps *c, struct pacing_result *r,
	struct pacing_error *e)
{
	struct pacing_shaper s = { .peak_rate = rate };

	return pacing_shaper_to_ctx(&s, c, NULL, r, e);
}

void
test_rate_zero(void)
{
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(convert(0, &caps5, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
	CHECK_EQ(e.code, -EINVAL);
	CHECK_STR(e.message, "allowed 125000..12500000000 bytes/s");
}

void
test_rate_one_byte(void)
{
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(convert(1, &caps5, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
	CHECK_STR(e.message, "rounds down to 0 kbps");
	CHECK_STR(e.message, "allowed 125000..12500000000 bytes/s");
	/* 124 bytes/s is the largest rate that rounds to 0 kbps. */
	CHECK_EQ(convert(124, &caps5, &r, &e), -EINVAL);
	CHECK_STR(e.message, "rounds down to 0 kbps");
	CHECK_EQ(convert(125, &caps5, &r, &e), -EINVAL);
	CHECK_STR(e.message, "below the device minimum of 1000 kbps");
}

void
test_rate_min(void)
{
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(convert(125000, &caps5, &r, &e), 0);
	CHECK_EQ(r.ctx.rate_limit, 1000);
	CHECK_EQ(r.ctx.rate_mode, PACING_RATE_MODE_DATA);
	CHECK_EQ(r.applied, 125000);
	CHECK_EQ(r.requested, 125000);
	CHECK_EQ(r.error_ppm, 0);
	CHECK_EQ(e.field, PACING_FIELD_NONE);
	/* One byte/s less is 999 kbps once rounded down: refused. */
	CHECK_EQ(convert(124999, &caps5, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
	CHECK_STR(e.message, "(999 kbps)");
	CHECK_STR(e.message, "allowed 125000..12500000000 bytes/s");
}

void
test_rate_max(void)
{
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(convert(12500000000ull, &caps5, &r, &e), 0);
	CHECK_EQ(r.ctx.rate_limit, 100000000);
	CHECK_EQ(r.error_ppm, 0);
	/* max + 1 byte/s still rounds down to max kbps. */
	CHECK_EQ(convert(12500000001ull, &caps5, &r, &e), 0);
	CHECK_EQ(r.ctx.rate_limit, 100000000);
	CHECK_EQ(r.applied, 12500000000ull);
	CHECK_EQ(r.error_ppm, 0); /* 1e-4 ppm, truncated */
	CHECK_EQ(convert(12500000124ull, &caps5, &r, &e), 0);
	CHECK_EQ(r.ctx.rate_limit, 100000000);
	/* max + 1 kbps is refused. */
	CHECK_EQ(convert(12500000125ull, &caps5, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
	CHECK_STR(e.message, "(100000001 kbps) is above the device maximum "
		  "of 100000000 kbps");
	CHECK_STR(e.message, "allowed 125000..12500000000 bytes/s");
}

void
test_rate_rounding(void)
{
	struct pacing_result r;
	struct pacing_error e;
	uint64_t k;

	/* Whole kbit/s rates are exact: 1.5 Gbit/s, 100 Mbit/s. */
	CHECK_EQ(convert(187500000, &caps5, &r, &e), 0);
	CHECK_EQ(r.ctx.rate_limit, 1500000);
	CHECK_EQ(r.error_ppm, 0);
	for (k = 1000; k < 1000000000; k = k * 7 + 3) {
		if (k > caps5.max_rate_kbps)
			break;
		/* 125k + 124 rounds down to k: the largest shortfall. */
		CHECK_EQ(convert(125 * k + 124, &caps5, &r, &e), 0);
		CHECK_EQ(r.ctx.rate_limit, k);
		CHECK_EQ(r.applied, 125 * k);
		CHECK(r.applied <= r.requested, "rounding must not exceed");
		CHECK_EQ(r.error_ppm,
			 -(int64_t)(124000000ull / (125 * k + 124)));
		/* 125k + 125 is exactly k + 1. */
		if (k + 1 <= caps5.max_rate_kbps) {
			CHECK_EQ(convert(125 * k + 125, &caps5, &r, &e), 0);
			CHECK_EQ(r.ctx.rate_limit, k + 1);
			CHECK_EQ(r.error_ppm, 0);
		}
	}
	/* At the minimum rate the shortfall is at most 992 ppm. */
	CHECK_EQ(convert(125124, &caps5, &r, &e), 0);
	CHECK_EQ(r.error_ppm, -991);
}

void
test_rate_overflow(void)
{
	struct pacing_caps c = caps5;
	struct pacing_result r;
	struct pacing_error e;

	c.max_rate_kbps = UINT32_MAX;
	/* Largest representable rate_limit. */
	CHECK_EQ(convert(125ull * UINT32_MAX + 124, &c, &r, &e), 0);
	CHECK_EQ(r.ctx.rate_limit, UINT32_MAX);
	CHECK_EQ(r.applied, 125ull * UINT32_MAX);
	/* 2^32 kbps does not fit the 32-bit field. */
	CHECK_EQ(convert(125ull << 32, &c, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
	CHECK_STR(e.message, "4294967296 kbps, beyond the 32-bit rate_limit");
	CHECK_STR(e.message, "allowed 125000..536870911875 bytes/s");
	CHECK_EQ(convert(UINT64_MAX, &c, &r, &e), -EINVAL);
	CHECK_STR(e.message, "18446744073709551615 bytes/s");
	CHECK_STR(e.message, "32-bit rate_limit");
	/* On a normal device the same rates are above max too. */
	CHECK_EQ(convert(UINT64_MAX, &caps5, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
}

void
test_bucket(void)
{
	struct pacing_shaper s = { .peak_rate = 12500000 };
	struct pacing_defaults d = { .burst_bound = 9000 };
	struct pacing_result r;
	struct pacing_error e;

	/* 0 = device default: the devarg, or 0 without it. */
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 9000);
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, NULL, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 0);
	s.peak_size = 65536;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 65536);
	CHECK_EQ(r.warnings, 0);
	s.peak_size = UINT32_MAX;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, UINT32_MAX);
	s.peak_size = (uint64_t)UINT32_MAX + 1;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, &d, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_SIZE);
	CHECK_STR(e.message, "allowed 0..4294967295 bytes");
	s.peak_size = UINT64_MAX;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, &d, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_SIZE);
}

void
test_bucket_unsupported(void)
{
	struct pacing_caps c = caps5;
	struct pacing_shaper s = { .peak_rate = 12500000, .peak_size = 4096 };
	struct pacing_defaults d = { 0 };
	struct pacing_result r;
	struct pacing_error e;

	c.burst_bound = false;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &c, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 0);
	CHECK_EQ(r.warnings, PACING_WARN_BUCKET_IGNORED);
	d.strict_bucket = true;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &c, &d, &r, &e), -ENOTSUP);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_SIZE);
	CHECK_STR(e.message, "does not support a burst bound");
	/* The default devarg is dropped too, with the warning. */
	s.peak_size = 0;
	d.burst_bound = 9000;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &c, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 0);
	CHECK_EQ(r.warnings, PACING_WARN_BUCKET_IGNORED);
	/* An oversized bucket is refused even where it would be ignored. */
	d.strict_bucket = false;
	s.peak_size = (uint64_t)UINT32_MAX + 1;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &c, &d, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_SIZE);
}

void
test_typical_size(void)
{
	struct pacing_caps c = caps5;
	struct pacing_shaper s = { .peak_rate = 12500000 };
	struct pacing_defaults d = { .typical_pkt_sz = 1500 };
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(pacing_shaper_to_ctx(&s, &c, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.typical_packet_size, 1500);
	CHECK_EQ(r.warnings, 0);
	c.typical_size = false;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &c, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.typical_packet_size, 0);
	CHECK_EQ(r.warnings, PACING_WARN_TYPICAL_IGNORED);
	d.typical_pkt_sz = 65535;
	c.typical_size = true;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &c, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.typical_packet_size, 65535);
	d.typical_pkt_sz = 65536;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &c, &d, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_TYPICAL_SIZE);
	CHECK_STR(e.message, "allowed 0..65535 bytes");
}

void
test_packet_mode(void)
{
	struct pacing_caps w = caps_wqe();
	struct pacing_shaper s = { .peak_rate = 2000000, .packet_mode = true };
	struct pacing_defaults d = { 0 };
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, &d, &r, &e), -ENOTSUP);
	CHECK_EQ(e.field, PACING_FIELD_PACKET_MODE);
	CHECK_STR(e.message, "WQE-rate");
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.rate_mode, PACING_RATE_MODE_WQE);
	CHECK_EQ(r.ctx.rate_limit, 2000000);
	CHECK_EQ(r.applied, 2000000);
	CHECK_EQ(r.error_ppm, 0);
	CHECK_EQ(pacing_ctx_rate(&r.ctx), 2000000);
	/* Bounds in packets/s, no rounding. */
	s.peak_rate = 999;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_RATE);
	CHECK_STR(e.message, "allowed 1000..100000000 packets/s");
	s.peak_rate = 1000;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.rate_limit, 1000);
	s.peak_rate = 100000001;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), -EINVAL);
	CHECK_STR(e.message, "allowed 1000..100000000 packets/s");
	s.peak_rate = 0;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), -EINVAL);
	CHECK_STR(e.message, "packets/s");
	/* pkt_length_adjust has no meaning in packet mode. */
	s.peak_rate = 5000;
	s.pkt_length_adjust = 24;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), 0);
	CHECK_EQ(r.warnings, PACING_WARN_ADJUST_IGNORED);
}

void
test_packet_mode_bucket(void)
{
	struct pacing_caps w = caps_wqe();
	struct pacing_shaper s = { .peak_rate = 2000000, .peak_size = 64,
				   .packet_mode = true };
	struct pacing_defaults d = { 0 };
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_SIZE);
	CHECK_STR(e.message, "tx_typical_pkt_sz");
	d.typical_pkt_sz = 1500;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 96000);
	CHECK_EQ(r.ctx.typical_packet_size, 1500);
	s.peak_size = UINT32_MAX / 1500;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), 0);
	s.peak_size = UINT32_MAX / 1500 + 1;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &w, &d, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_SIZE);
	CHECK_STR(e.message, "allowed 0..2863311 packets");
}

/* As the PMD gives it to the device: a bucket of WQEs, unconverted. */
void
test_packet_mode_device_bucket(void)
{
	struct pacing_caps w = caps_wqe();
	struct pacing_shaper s = { .peak_rate = 2000000, .peak_size = 64,
				   .packet_mode = true };
	struct pacing_defaults d = { .burst_bound = 4096 };
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(pacing_shaper_to_device_ctx(&s, &w, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 64);
	CHECK_EQ(r.ctx.rate_mode, PACING_RATE_MODE_WQE);
	s.peak_size = 0;
	CHECK_EQ(pacing_shaper_to_device_ctx(&s, &w, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 0); /* not the byte default */
	s.peak_size = (uint64_t)UINT32_MAX + 1;
	CHECK_EQ(pacing_shaper_to_device_ctx(&s, &w, &d, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_PEAK_SIZE);
	CHECK_STR(e.message, "allowed 0..4294967295 packets");
	w.burst_bound = false;
	s.peak_size = 64;
	CHECK_EQ(pacing_shaper_to_device_ctx(&s, &w, &d, &r, &e), -ENOTSUP);
	CHECK_STR(e.message, "does not support a burst bound");
	/* Byte mode: exactly pacing_shaper_to_ctx(). */
	s.packet_mode = false;
	s.peak_rate = 125000;
	s.peak_size = 0;
	w.burst_bound = true;
	CHECK_EQ(pacing_shaper_to_device_ctx(&s, &w, &d, &r, &e), 0);
	CHECK_EQ(r.ctx.burst_upper_bound, 4096);
}

void
test_single_rate(void)
{
	struct pacing_shaper s = { .peak_rate = 12500000,
				   .committed_rate = 12500000 };
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, NULL, &r, &e), -ENOTSUP);
	CHECK_EQ(e.field, PACING_FIELD_COMMITTED_RATE);
	CHECK_STR(e.message, "single-rate");
	s.committed_rate = 0;
	s.committed_size = 1500;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, NULL, &r, &e), -ENOTSUP);
	CHECK_EQ(e.field, PACING_FIELD_COMMITTED_SIZE);
}

void
test_pkt_len_adjust(void)
{
	struct pacing_shaper s = { .peak_rate = 12500000,
				   .pkt_length_adjust = 24 };
	struct pacing_result r;
	struct pacing_error e;

	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, NULL, &r, &e), -ENOTSUP);
	CHECK_EQ(e.field, PACING_FIELD_PKT_LEN_ADJUST);
	CHECK_STR(e.message, "allowed 0");
	s.pkt_length_adjust = -4;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, NULL, &r, &e), -ENOTSUP);
	s.pkt_length_adjust = 0;
	CHECK_EQ(pacing_shaper_to_ctx(&s, &caps5, NULL, &r, &e), 0);
}

void
test_no_pacing(void)
{
	struct pacing_caps c = caps5;
	struct pacing_result r;
	struct pacing_error e;

	c.packet_pacing = false;
	CHECK_EQ(convert(12500000, &c, &r, &e), -ENOTSUP);
	CHECK_EQ(e.field, PACING_FIELD_DEVICE);
	CHECK_EQ(convert(12500000, NULL, &r, &e), -EINVAL);
	CHECK_EQ(e.field, PACING_FIELD_ARGUMENT);
	CHECK_EQ(pacing_shaper_to_ctx(NULL, &caps5, NULL, &r, NULL), -EINVAL);
	/* A refusal leaves the result untouched. */
	r.ctx.rate_limit = 77;
	CHECK_EQ(convert(1, &caps5, &r, NULL), -EINVAL);
	CHECK_EQ(r.ctx.rate_limit, 77);
}

void
test_rate_range(void)
{
	struct pacing_caps c = caps_wqe();
	uint64_t lo = 1, hi = 1;

	CHECK_EQ(pacing_rate_range(&c, false, &lo, &hi), 0);
	CHECK_EQ(lo, 125000);
	CHECK_EQ(hi, 12500000000ull);
	CHECK_EQ(pacing_rate_range(&c, true, &lo, &hi), 0);
	CHECK_EQ(lo, 1000);
	CHECK_EQ(hi, 100000000);
	CHECK_EQ(pacing_rate_range(&caps5, true, &lo, &hi), -ENOTSUP);
	CHECK(lo == 0 && hi == 0, "cleared on failure");
	c.min_rate_kbps = 0;
	c.max_rate_kbps = UINT32_MAX;
	CHECK_EQ(pacing_rate_range(&c, false, &lo, &hi), 0);
	CHECK_EQ(lo, 125);
	CHECK_EQ(hi, 125ull * UINT32_MAX);
	c.min_rate_kbps = 10;
	c.max_rate_kbps = 9;
	CHECK_EQ(pacing_rate_range(&c, false, &lo, &hi), -EINVAL);
	c.packet_pacing = false;
	CHECK_EQ(pacing_rate_range(&c, false, &lo, &hi), -ENOTSUP);
	CHECK_EQ(pacing_rate_range(NULL, false, &lo, &hi), -EINVAL);
}

/*
 * Contexts in order of rate mode, rate, bucket and typical size, each
 * field deciding only where those before it are equal: every pair
 * compares as its positions do, and 0 exactly when pacing_ctx_equal().
 */
void
test_ctx_order(void)
{
	static const struct pacing_ctx c[] = {
		{ 1000, 0, 0, PACING_RATE_MODE_DATA },
		{ 1000, 1500, 0, PACING_RATE_MODE_DATA },
		{ 1000, 1500, 64, PACING_RATE_MODE_DATA },
		{ 1000, 9000, 0, PACING_RATE_MODE_DATA },
		{ 2000, 0, 0, PACING_RATE_MODE_DATA },
		{ 5, 0, 0, PACING_RATE_MODE_WQE },
		{ 5, 0, 1500, PACING_RATE_MODE_WQE },
	};
	unsigned int i, j;

	for (i = 0; i < (sizeof(c) / sizeof(c[0])); i++)
		for (j = 0; j < (sizeof(c) / sizeof(c[0])); j++) {
			CHECK_EQ(pacing_ctx_cmp(&c[i], &c[j]),
				 i < j ? -1 : i > j);
			CHECK_EQ(pacing_ctx_equal(&c[i], &c[j]), i == j);
		}
}

void
test_error_ppm(void)
{
	CHECK_EQ(pacing_error_ppm(1000000, 1000001), 1);
	CHECK_EQ(pacing_error_ppm(1000000, 999999), -1);
	CHECK_EQ(pacing_error_ppm(3, 2), -333333);
	CHECK_EQ(pacing_error_ppm(0, 5), 0);
	CHECK_EQ(pacing_error_ppm(1, UINT64_MAX), INT64_MAX);
	CHECK_EQ(pacing_error_ppm(UINT64_MAX, 0), -1000000);
	CHECK_EQ(pacing_error_ppm(UINT64_MAX, UINT64_MAX - 1), 0);
	CHECK_EQ(pacing_error_ppm(9223372036854ull, 2 * 9223372036854ull + 1),
		 1000000);
	/* Saturation at INT64_MAX, from the quotient or the fraction. */
	CHECK_EQ(pacing_error_ppm(1, 9223372036855ull), 9223372036854000000);
	CHECK_EQ(pacing_error_ppm(1, 9223372036856ull), INT64_MAX);
	CHECK_EQ(pacing_error_ppm(1000000, 1000000 + 9223372036854775807ull),
		 INT64_MAX);
	CHECK_EQ(pacing_error_ppm(1000000, 1000000 + 9223372036854775806ull),
		 INT64_MAX - 1);
	CHECK_EQ(pacing_error_ppm(1000000, 1000000 + 9223372036854900000ull),
		 INT64_MAX);
	CHECK_EQ(pacing_error_ppm(1000000000000ull, 9223372036854999999ull),
		 9223371036854);
#ifdef __SIZEOF_INT128__
	{
		/* Against 128-bit arithmetic, on random magnitudes. */
		uint64_t x = 88172645463325252ull;
		int i;

		for (i = 0; i < 20000; i++) {
			uint64_t r, a, d;
			unsigned __int128 want;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			r = x >> (x & 63);
			a = (x * 0x9e3779b97f4a7c15ull) >> ((x >> 8) & 63);
			if (r == 0)
				continue;
			d = a > r ? a - r : r - a;
			want = (unsigned __int128)d * 1000000u / r;
			if (want > INT64_MAX)
				want = INT64_MAX;
			if ((uint64_t)llabs(pacing_error_ppm(r, a)) !=
			    (uint64_t)want) {
				CHECK(0, "ppm of %llu vs %llu",
				      (unsigned long long)r,
				      (unsigned long long)a);
				break;
			}
		}
	}
#endif
	CHECK(strcmp(pacing_field_name(PACING_FIELD_PEAK_RATE),
		     "peak rate") == 0, "field name");
	CHECK(strcmp(pacing_field_name(PACING_FIELD_TABLE_CAPACITY),
		     "table capacity") == 0, "field name");
}
