/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACING_SHAPER_H
#define PACING_SHAPER_H

/**
 * @file
 * From an rte_tm-style private shaper to a packet-pacing context.
 *
 * A pacing context holds the four values of the PRM
 * set_pp_rate_limit_context that the device acts on (rate_limit,
 * burst_upper_bound, typical_packet_size, rate_mode), in host order. This
 * library never builds the PRM byte layout: the caller encodes the context.
 *
 * Rounding rule (data-rate mode): the PRM rate_limit unit is the kbps,
 * 1 kbps = 1000 bit/s = 125 bytes/s. A peak rate in bytes/s is rounded
 * DOWN to a whole kbps: rate_limit = floor(bytes_per_s / 125). A shaper's
 * peak rate is a ceiling ("never more than"), so the applied rate never
 * exceeds the request; the shortfall is below 125 bytes/s (below 0.1% at
 * the smallest rate a ConnectX accepts, 1000 kbps) and is reported to the
 * caller as the applied rate and the error in ppm. Rates that are a whole
 * number of kbit/s (every Mbit/s or Gbit/s figure) are exact.
 *
 * In packet mode (WQE-rate pacing, rate_mode 1) rate_limit is the rate in
 * packets (WQEs) per second, exact, with the same [min, max] bounds as the
 * device reports in kbps.
 */

#include <stdbool.h>
#include <stdint.h>

#include "pacing_error.h"

/** Bytes per second in one kbps (1000 bit/s). */
#define PACING_BYTES_PER_KBPS 125u

/** Parts per million in one: rate errors and tolerances are in ppm. */
#define PACING_PPM 1000000u

/** rate_mode: data rate, rate_limit in kbps. */
#define PACING_RATE_MODE_DATA 0
/** rate_mode: WQE rate, rate_limit in WQEs (packets) per second. */
#define PACING_RATE_MODE_WQE 1

/** The device's packet-pacing capabilities (QUERY_HCA_CAP QoS). */
struct pacing_caps {
	bool packet_pacing;   /**< Rate limiting present at all. */
	bool burst_bound;     /**< burst_upper_bound honoured. */
	bool typical_size;    /**< typical_packet_size honoured. */
	bool wqe_rate;        /**< WQE-rate (packets/s) mode supported. */
	uint32_t min_rate_kbps; /**< Lowest rate_limit accepted. */
	uint32_t max_rate_kbps; /**< Highest rate_limit accepted. */
	uint32_t table_size;  /**< Number of pacing entries (1..size). */
};

/** Port-wide defaults, from devargs (0 = let the device choose). */
struct pacing_defaults {
	uint32_t burst_bound;    /**< tx_burst_bound: bytes. */
	uint32_t typical_pkt_sz; /**< tx_typical_pkt_sz: bytes (<= 65535). */
	/**
	 * Refuse a non-zero peak bucket size when the device cannot honour
	 * it (no burst_bound capability). When false (the default), the
	 * bucket is ignored and PACING_WARN_BUCKET_IGNORED is reported.
	 */
	bool strict_bucket;
};

/** An rte_tm-style shaper, rates and sizes in 64 bits (no truncation). */
struct pacing_shaper {
	uint64_t peak_rate;      /**< bytes/s, or packets/s in packet mode. */
	uint64_t peak_size;      /**< bytes, or packets in packet mode. */
	uint64_t committed_rate; /**< Must be 0 (single-rate hardware). */
	uint64_t committed_size; /**< Must be 0 (single-rate hardware). */
	int32_t pkt_length_adjust; /**< Must be 0 in byte mode. */
	bool packet_mode;        /**< Rates and sizes count packets. */
};

/** The four values of set_pp_rate_limit_context, host order. */
struct pacing_ctx {
	uint32_t rate_limit;          /**< kbps, or WQEs/s (rate_mode 1). */
	uint32_t burst_upper_bound;   /**< bytes, 0 = device default. */
	uint16_t typical_packet_size; /**< bytes, 0 = device default. */
	uint8_t rate_mode;            /**< PACING_RATE_MODE_*. */
};

/**
 * Warning: a peak bucket size (the shaper's, or the burst_bound default)
 * was dropped because the device does not honour burst_upper_bound.
 */
#define PACING_WARN_BUCKET_IGNORED (1u << 0)
/** Warning: a typical packet size default exists but is not honoured. */
#define PACING_WARN_TYPICAL_IGNORED (1u << 1)
/** Warning: pkt_length_adjust was given in packet mode (no effect). */
#define PACING_WARN_ADJUST_IGNORED (1u << 2)

/** A shaper, as the device will apply it. */
struct pacing_result {
	struct pacing_ctx ctx; /**< What to give the device. */
	uint64_t requested;    /**< The peak rate asked, caller's units. */
	uint64_t applied;      /**< The rate ctx gives, caller's units. */
	/**
	 * (applied - requested) / requested in parts per million, rounded
	 * toward zero; never positive in data-rate mode (rounding down).
	 */
	int64_t error_ppm;
	uint32_t warnings;     /**< PACING_WARN_* flags. */
};

/**
 * Convert a shaper to a pacing context for a device.
 *
 * Refusals (nothing written to @p res):
 * - -ENOTSUP: the device has no packet pacing (DEVICE); committed rate or
 *   size not 0 (COMMITTED_RATE, COMMITTED_SIZE); packet mode without WQE-
 *   rate support (PACKET_MODE); pkt_length_adjust not 0 in byte mode
 *   (PKT_LEN_ADJUST); a bucket without burst_bound support when
 *   @p def->strict_bucket (PEAK_SIZE).
 * - -EINVAL: a peak rate that is 0, rounds to 0 kbps, falls outside
 *   [min, max] or does not fit the 32-bit rate_limit (PEAK_RATE); a bucket
 *   above 2^32-1 bytes, or given in packets with no typical packet size to
 *   convert it to bytes (PEAK_SIZE); a typical size above 65535
 *   (TYPICAL_SIZE); NULL pointers (ARGUMENT).
 * The message names the field, says why, and gives the allowed range in
 * the caller's units (bytes/s, or packets/s in packet mode).
 *
 * Peak bucket size 0 means "device default": @p def->burst_bound (bytes)
 * if set and honoured, else 0. In packet mode a bucket of N packets becomes
 * N * typical packet size bytes. The typical packet size comes from
 * @p def when the device honours it, else 0.
 *
 * @param def
 *   Defaults; NULL means all zero.
 * @return
 *   0, or a negative errno with @p err filled.
 */
int
pacing_shaper_to_ctx(const struct pacing_shaper *shaper,
		     const struct pacing_caps *caps,
		     const struct pacing_defaults *def,
		     struct pacing_result *res, struct pacing_error *err);

/**
 * Convert a shaper as mlx5-tm gives it to the device: as
 * pacing_shaper_to_ctx(), except that in packet mode (WQE-rate pacing) a
 * peak bucket counts WQEs, one per packet, and goes to burst_upper_bound
 * unconverted, while @p def's byte bucket does not apply (0: the device
 * default). WQE-rate mode has no upstream precedent on a wire SQ and what
 * its burst bound counts is unverified: nothing is converted on a guess.
 *
 * Refusals: those of pacing_shaper_to_ctx(), and a bucket in packets
 * without burst_bound support (-ENOTSUP) or above 2^32-1 (-EINVAL), both
 * PEAK_SIZE.
 *
 * @return
 *   0, or a negative errno with @p err filled.
 */
int
pacing_shaper_to_device_ctx(const struct pacing_shaper *shaper,
			    const struct pacing_caps *caps,
			    const struct pacing_defaults *def,
			    struct pacing_result *res,
			    struct pacing_error *err);

/**
 * The range of rates a device applies, in the caller's units: for data
 * rate [max(min_rate_kbps, 1) * 125, max_rate_kbps * 125] bytes/s, for
 * packet mode [max(min_rate_kbps, 1), max_rate_kbps] packets/s. These are
 * the bounds refusal messages give and the values to report as rte_tm
 * shaper rate capabilities. (A byte rate up to 124 bytes/s above the
 * maximum is still accepted: it rounds down to the maximum.)
 *
 * @return
 *   0; -ENOTSUP when the device has no packet pacing, or for packet mode
 *   without WQE-rate support; -EINVAL for a NULL argument or an empty
 *   range (min > max). *min and *max are set to 0 on failure.
 */
int
pacing_rate_range(const struct pacing_caps *caps, bool packet_mode,
		  uint64_t *min, uint64_t *max);

/**
 * The rate a context applies: bytes/s in data-rate mode (rate_limit * 125),
 * packets/s in WQE-rate mode.
 */
uint64_t
pacing_ctx_rate(const struct pacing_ctx *ctx);

/** True when two contexts are identical (all four values). */
bool
pacing_ctx_equal(const struct pacing_ctx *a, const struct pacing_ctx *b);

/**
 * A total order of contexts: by rate mode, then rate, bucket and typical
 * packet size. 0 exactly when pacing_ctx_equal().
 *
 * @return
 *   -1, 0 or 1 as @p a is before, the same as or after @p b.
 */
int
pacing_ctx_cmp(const struct pacing_ctx *a, const struct pacing_ctx *b);

/**
 * Signed error of @p applied against @p requested, in ppm, rounded toward
 * zero, computed without overflow. 0 when @p requested is 0.
 */
int64_t
pacing_error_ppm(uint64_t requested, uint64_t applied);

#endif /* PACING_SHAPER_H */
