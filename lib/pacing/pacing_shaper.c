/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "pacing_shaper.h"

int64_t
pacing_error_ppm(uint64_t requested, uint64_t applied)
{
	unsigned __int128 ppm;
	uint64_t diff;

	if (requested == 0)
		return 0;
	diff = applied >= requested ? applied - requested :
		requested - applied;
	/* floor(diff * 10^6 / requested), saturated to INT64_MAX. */
	ppm = (unsigned __int128)diff * PACING_PPM / requested;
	if (ppm > INT64_MAX)
		ppm = INT64_MAX;
	return applied >= requested ? (int64_t)ppm : -(int64_t)ppm;
}

int
pacing_rate_range(const struct pacing_caps *caps, bool packet_mode,
		  uint64_t *min, uint64_t *max)
{
	uint64_t scale = packet_mode ? 1 : PACING_BYTES_PER_KBPS;
	uint64_t lo, hi;

	if (min == NULL || max == NULL)
		return -EINVAL;
	*min = 0;
	*max = 0;
	if (caps == NULL)
		return -EINVAL;
	if (!caps->packet_pacing || (packet_mode && !caps->wqe_rate))
		return -ENOTSUP;
	lo = caps->min_rate_kbps ? caps->min_rate_kbps : 1;
	hi = caps->max_rate_kbps;
	if (lo > hi)
		return -EINVAL;
	*min = lo * scale;
	*max = hi * scale;
	return 0;
}

uint64_t
pacing_ctx_rate(const struct pacing_ctx *ctx)
{
	if (ctx->rate_mode == PACING_RATE_MODE_WQE)
		return ctx->rate_limit;
	return (uint64_t)ctx->rate_limit * PACING_BYTES_PER_KBPS;
}

int
pacing_ctx_cmp(const struct pacing_ctx *a, const struct pacing_ctx *b)
{
	if (a->rate_mode != b->rate_mode)
		return a->rate_mode < b->rate_mode ? -1 : 1;
	if (a->rate_limit != b->rate_limit)
		return a->rate_limit < b->rate_limit ? -1 : 1;
	if (a->burst_upper_bound != b->burst_upper_bound)
		return a->burst_upper_bound < b->burst_upper_bound ? -1 : 1;
	if (a->typical_packet_size != b->typical_packet_size)
		return a->typical_packet_size < b->typical_packet_size ?
		       -1 : 1;
	return 0;
}

bool
pacing_ctx_equal(const struct pacing_ctx *a, const struct pacing_ctx *b)
{
	return pacing_ctx_cmp(a, b) == 0;
}

/* Converts the peak rate to rate_limit units and checks the range. */
static int
convert_rate(const struct pacing_shaper *s, const struct pacing_caps *caps,
	     uint32_t *rate_limit, struct pacing_error *err)
{
	const bool pkt = s->packet_mode;
	const char *unit = pkt ? "packets/s" : "bytes/s";
	const char *dev_unit = pkt ? "WQEs/s" : "kbps";
	const uint64_t scale = pkt ? 1 : PACING_BYTES_PER_KBPS;
	/* rate_limit 0 is not a rate: the lowest usable value is 1. */
	const uint64_t min_u = caps->min_rate_kbps ? caps->min_rate_kbps : 1;
	const uint64_t max_u = caps->max_rate_kbps;
	const uint64_t lo = min_u * scale;
	const uint64_t hi = max_u * scale;
	uint64_t units;

	if (max_u < min_u)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
			"peak rate: the device reports an empty rate range "
			"(min %" PRIu64 " kbps > max %" PRIu64 " kbps)",
			min_u, max_u);
	if (s->peak_rate == 0)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
			"peak rate 0 %s is not a pacing rate (remove the "
			"shaper for an unlimited queue); allowed %" PRIu64
			"..%" PRIu64 " %s", unit, lo, hi, unit);
	units = s->peak_rate / scale; /* rounds down: never above request */
	if (units == 0)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
			"peak rate %" PRIu64 " bytes/s rounds down to 0 kbps "
			"(1 kbps = 125 bytes/s); allowed %" PRIu64 "..%" PRIu64
			" bytes/s", s->peak_rate, lo, hi);
	if (units > UINT32_MAX)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
			"peak rate %" PRIu64 " %s is %" PRIu64 " %s, beyond the "
			"32-bit rate_limit field (at most 4294967295 %s); "
			"allowed %" PRIu64 "..%" PRIu64 " %s", s->peak_rate,
			unit, units, dev_unit, dev_unit, lo, hi, unit);
	if (units < min_u)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
			"peak rate %" PRIu64 " %s (%" PRIu64 " %s) is below the "
			"device minimum of %" PRIu64 " %s; allowed %" PRIu64
			"..%" PRIu64 " %s", s->peak_rate, unit, units, dev_unit,
			min_u, dev_unit, lo, hi, unit);
	if (units > max_u)
		return pacing_error_set(err, PACING_FIELD_PEAK_RATE, -EINVAL,
			"peak rate %" PRIu64 " %s (%" PRIu64 " %s) is above the "
			"device maximum of %" PRIu64 " %s; allowed %" PRIu64
			"..%" PRIu64 " %s", s->peak_rate, unit, units, dev_unit,
			max_u, dev_unit, lo, hi, unit);
	*rate_limit = (uint32_t)units;
	return 0;
}

/* Converts the peak bucket to burst_upper_bound bytes (0 = default). */
static int
convert_bucket(const struct pacing_shaper *s, const struct pacing_caps *caps,
	       const struct pacing_defaults *def, uint32_t *burst,
	       uint32_t *warnings, struct pacing_error *err)
{
	uint64_t bytes;

	*burst = 0;
	if (s->peak_size == 0) {
		if (def->burst_bound != 0 && !caps->burst_bound)
			*warnings |= PACING_WARN_BUCKET_IGNORED;
		else
			*burst = def->burst_bound;
		return 0;
	}
	if (s->packet_mode) {
		const uint64_t sz = def->typical_pkt_sz;

		if (sz == 0)
			return pacing_error_set(err, PACING_FIELD_PEAK_SIZE,
				-EINVAL, "peak size %" PRIu64 " packets: a "
				"bucket in packets needs a typical packet size "
				"(tx_typical_pkt_sz) to become bytes; allowed 0 "
				"(device default)", s->peak_size);
		if (s->peak_size > UINT32_MAX / sz)
			return pacing_error_set(err, PACING_FIELD_PEAK_SIZE,
				-EINVAL, "peak size %" PRIu64 " packets of %"
				PRIu64 " bytes exceeds the 32-bit "
				"burst_upper_bound (4294967295 bytes); allowed "
				"0..%" PRIu64 " packets", s->peak_size, sz,
				(uint64_t)UINT32_MAX / sz);
		bytes = s->peak_size * sz;
	} else {
		if (s->peak_size > UINT32_MAX)
			return pacing_error_set(err, PACING_FIELD_PEAK_SIZE,
				-EINVAL, "peak size %" PRIu64 " bytes exceeds "
				"the 32-bit burst_upper_bound; allowed "
				"0..4294967295 bytes", s->peak_size);
		bytes = s->peak_size;
	}
	if (!caps->burst_bound) {
		if (def->strict_bucket)
			return pacing_error_set(err, PACING_FIELD_PEAK_SIZE,
				-ENOTSUP, "peak size %" PRIu64 " %s: the device "
				"does not support a burst bound; allowed 0 "
				"(device default)", s->peak_size,
				s->packet_mode ? "packets" : "bytes");
		*warnings |= PACING_WARN_BUCKET_IGNORED;
		return 0;
	}
	*burst = (uint32_t)bytes;
	return 0;
}

int
pacing_shaper_to_ctx(const struct pacing_shaper *shaper,
		     const struct pacing_caps *caps,
		     const struct pacing_defaults *def,
		     struct pacing_result *res, struct pacing_error *err)
{
	static const struct pacing_defaults no_defaults;
	struct pacing_result r;
	int ret;

	pacing_error_clear(err);
	if (shaper == NULL || caps == NULL || res == NULL)
		return pacing_error_set(err, PACING_FIELD_ARGUMENT, -EINVAL,
			"shaper, capabilities and result must not be NULL");
	if (def == NULL)
		def = &no_defaults;
	memset(&r, 0, sizeof(r));
	if (!caps->packet_pacing)
		return pacing_error_set(err, PACING_FIELD_DEVICE, -ENOTSUP,
			"the device has no packet pacing (no per-queue rate "
			"limiting)");
	if (shaper->committed_rate != 0)
		return pacing_error_set(err, PACING_FIELD_COMMITTED_RATE,
			-ENOTSUP, "committed rate %" PRIu64 " %s: the pacer "
			"is single-rate, give the rate as peak rate; allowed 0",
			shaper->committed_rate,
			shaper->packet_mode ? "packets/s" : "bytes/s");
	if (shaper->committed_size != 0)
		return pacing_error_set(err, PACING_FIELD_COMMITTED_SIZE,
			-ENOTSUP, "committed size %" PRIu64 " %s: the pacer "
			"is single-rate, it has no committed bucket; allowed 0",
			shaper->committed_size,
			shaper->packet_mode ? "packets" : "bytes");
	if (shaper->packet_mode && !caps->wqe_rate)
		return pacing_error_set(err, PACING_FIELD_PACKET_MODE,
			-ENOTSUP, "packet mode (packets/s) needs WQE-rate "
			"pacing, which the device does not support; give the "
			"rate in bytes/s");
	if (!shaper->packet_mode && shaper->pkt_length_adjust != 0)
		return pacing_error_set(err, PACING_FIELD_PKT_LEN_ADJUST,
			-ENOTSUP, "packet length adjust %" PRId32 ": the pacer "
			"counts the bytes of each packet as posted and cannot "
			"add a per-packet overhead; allowed 0",
			shaper->pkt_length_adjust);
	if (def->typical_pkt_sz > UINT16_MAX)
		return pacing_error_set(err, PACING_FIELD_TYPICAL_SIZE,
			-EINVAL, "typical packet size %" PRIu32 " bytes does "
			"not fit the 16-bit typical_packet_size; allowed "
			"0..65535 bytes", def->typical_pkt_sz);
	ret = convert_rate(shaper, caps, &r.ctx.rate_limit, err);
	if (ret != 0)
		return ret;
	ret = convert_bucket(shaper, caps, def, &r.ctx.burst_upper_bound,
			     &r.warnings, err);
	if (ret != 0)
		return ret;
	if (def->typical_pkt_sz != 0 && !caps->typical_size)
		r.warnings |= PACING_WARN_TYPICAL_IGNORED;
	else
		r.ctx.typical_packet_size = (uint16_t)def->typical_pkt_sz;
	if (shaper->packet_mode && shaper->pkt_length_adjust != 0)
		r.warnings |= PACING_WARN_ADJUST_IGNORED;
	r.ctx.rate_mode = shaper->packet_mode ? PACING_RATE_MODE_WQE :
		PACING_RATE_MODE_DATA;
	r.requested = shaper->peak_rate;
	r.applied = pacing_ctx_rate(&r.ctx);
	r.error_ppm = pacing_error_ppm(r.requested, r.applied);
	*res = r;
	return 0;
}

int
pacing_shaper_to_device_ctx(const struct pacing_shaper *shaper,
			    const struct pacing_caps *caps,
			    const struct pacing_defaults *def,
			    struct pacing_result *res,
			    struct pacing_error *err)
{
	struct pacing_defaults d = { 0 };
	struct pacing_shaper s;
	int ret;

	if (shaper == NULL || !shaper->packet_mode)
		return pacing_shaper_to_ctx(shaper, caps, def, res, err);
	if (def != NULL)
		d = *def;
	s = *shaper;
	s.peak_size = 0;
	d.burst_bound = 0;
	ret = pacing_shaper_to_ctx(&s, caps, &d, res, err);
	if (ret != 0 || shaper->peak_size == 0)
		return ret;
	if (!caps->burst_bound)
		return pacing_error_set(err, PACING_FIELD_PEAK_SIZE, -ENOTSUP,
			"peak size %" PRIu64 " packets: the device does not "
			"support a burst bound; allowed 0 (device default)",
			shaper->peak_size);
	if (shaper->peak_size > UINT32_MAX)
		return pacing_error_set(err, PACING_FIELD_PEAK_SIZE, -EINVAL,
			"peak size %" PRIu64 " packets exceeds the 32-bit "
			"burst_upper_bound; allowed 0..4294967295 packets",
			shaper->peak_size);
	res->ctx.burst_upper_bound = (uint32_t)shaper->peak_size;
	return 0;
}
