/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACING_TABLE_H
#define PACING_TABLE_H

/**
 * @file
 * The pacing-entry table, with the device's rate-table semantics:
 * - an identical context shares one entry, counted by reference; a
 *   dedicated entry is never shared;
 * - at most "capacity" entries exist at once (the device's table size);
 * - optional tolerance sharing: reuse an existing shared entry whose rate is
 *   within N ppm of the request (same rate mode, burst bound and typical
 *   packet size);
 * - each entry carries an opaque hardware handle: the caller's alloc hook
 *   makes it when an acquisition creates the entry, its free hook drops it
 *   with the last reference.
 *
 * Who holds which entry is the caller's to know (the PMD's plan says it):
 * the table only counts references. Undoing a change is the caller's too:
 * an acquisition is undone by a release. A refused call changes nothing.
 *
 * Cost: an exact-context acquisition or a release is O(1) (hash chains),
 * one with a rate tolerance scans the entries.
 *
 * Not thread-safe: the caller serialises all calls on one table.
 */

#include <stdbool.h>
#include <stdint.h>

#include "pacing_error.h"
#include "pacing_shaper.h"

/** A table of pacing entries (opaque). */
struct pacing_table;

/** The caller's hardware hooks; any may be NULL (planning only). */
struct pacing_hw_ops {
	/**
	 * Create the hardware entry for a new pacing entry.
	 *
	 * @param hw
	 *   Receives the caller's handle, kept in the entry.
	 * @return
	 *   0, or a negative errno: the acquisition is refused.
	 */
	int (*alloc)(void *opaque, const struct pacing_ctx *ctx,
		     bool dedicated, void **hw);
	/** Release the hardware entry of an entry that is going away. */
	void (*free)(void *opaque, const struct pacing_ctx *ctx, void *hw);
};

/** Acquire flag: a dedicated entry, never shared with anyone. */
#define PACING_ACQ_DEDICATED (1u << 0)

/** What one acquisition obtained. */
struct pacing_grant {
	uint64_t entry_id;     /**< Entry held (from 1; reused once freed). */
	struct pacing_ctx ctx; /**< The entry's context (rate applied). */
	bool created;          /**< A new entry: the alloc hook ran. */
	/**
	 * Entry rate vs requested rate, ppm, toward zero: 0 for an identical
	 * context, within +/- tolerance when shared by tolerance.
	 */
	int64_t deviation_ppm;
};

/** A snapshot of one entry. */
struct pacing_entry_info {
	uint64_t id;           /**< Entry id. */
	struct pacing_ctx ctx; /**< Its context. */
	bool dedicated;        /**< Never shared. */
	uint32_t refcnt;       /**< References held (>= 1). */
	void *hw;              /**< The caller's handle. */
};

/**
 * Create an empty table of @p capacity entries (0 is valid: every
 * acquisition is then refused for capacity).
 *
 * @param ops
 *   Hardware hooks (copied), NULL for none.
 * @return
 *   The table, or NULL with @p err filled (-ENOMEM).
 */
struct pacing_table *
pacing_table_create(uint32_t capacity, const struct pacing_hw_ops *ops,
		    void *opaque, struct pacing_error *err);

/**
 * Destroy a table; the free hook runs for every remaining entry. NULL is
 * accepted.
 */
void
pacing_table_destroy(struct pacing_table *table);

/** Number of entries the table may hold. */
uint32_t
pacing_table_capacity(const struct pacing_table *table);

/** Number of entries in use. */
uint32_t
pacing_table_in_use(const struct pacing_table *table);

/**
 * Snapshot of entry @p entry_id.
 *
 * @return
 *   0, or -ENOENT.
 */
int
pacing_table_entry_get(const struct pacing_table *table, uint64_t entry_id,
		       struct pacing_entry_info *info);

/**
 * Iterate over the entries in use, by id. Start with *cursor = 0; each
 * call fills @p info and advances the cursor. The table must not change
 * during an iteration.
 *
 * @return
 *   1 when @p info was filled, 0 at the end.
 */
int
pacing_table_entry_next(const struct pacing_table *table, uint64_t *cursor,
			struct pacing_entry_info *info);

/**
 * Acquire a reference to an entry of context @p ctx.
 *
 * Resolution: with PACING_ACQ_DEDICATED, always a new dedicated entry.
 * Otherwise a shared entry with an identical context; else, if
 * @p tolerance_ppm > 0, the shared entry of the same rate_mode,
 * burst_upper_bound and typical_packet_size whose rate_limit r satisfies
 * |r - req| * 10^6 <= tolerance_ppm * req (the closest; on a tie the lower
 * rate, then the lower id); else a new shared entry, when the table has
 * room (-ENOSPC otherwise, with both counts), made by the alloc hook.
 *
 * @return
 *   0 with @p grant filled, or a negative errno, the table unchanged
 *   (-EINVAL: NULL pointer, unknown flag, rate_limit 0, unknown rate_mode;
 *   -ENOSPC; -ENOMEM; the alloc hook's errno, field PACING_FIELD_HW).
 */
int
pacing_table_acquire(struct pacing_table *table, const struct pacing_ctx *ctx,
		     uint32_t flags, uint32_t tolerance_ppm,
		     struct pacing_grant *grant, struct pacing_error *err);

/**
 * Whether a shared entry of context @p entry serves a request for @p req
 * under a rate tolerance of @p tolerance_ppm (0: exact), by the rule of
 * pacing_table_acquire(): same rate_mode, burst_upper_bound and
 * typical_packet_size, rate_limit within the tolerance. For counting what
 * a set of requests needs without a table.
 */
bool
pacing_ctx_serves(const struct pacing_ctx *entry, const struct pacing_ctx *req,
		  uint32_t tolerance_ppm);

/**
 * Release one reference to entry @p entry_id; with the last one the free
 * hook runs and the entry goes.
 *
 * @return
 *   0, or -ENOENT (no such entry).
 */
int
pacing_table_release(struct pacing_table *table, uint64_t entry_id,
		     struct pacing_error *err);

#endif /* PACING_TABLE_H */
