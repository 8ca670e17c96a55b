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
 * - each entry carries an opaque hardware handle that the caller owns.
 *
 * The library never calls the device. Changes go through a transaction:
 * stage acquisitions and releases, prepare (capacity check, then the
 * caller's alloc hook for every NEW entry), let the caller use the entries
 * (program its queues), then commit (apply; the caller's free hook for
 * every entry whose last reference went) or abort. A refusal or a hook
 * failure at any point leaves the table exactly as it was: same entries,
 * same reference counts, same holders, same next entry id.
 *
 * Holders are identified by a 64-bit user id (a queue id, or an opaque
 * tag). A user may hold several references, also to the same entry (the
 * new and the old entry of a queue during a hitless rate change).
 *
 * Cost: an exact-context acquisition or a release is O(1) (hash index),
 * one with a rate tolerance scans the entries, and a commit of N changes
 * is O(N), amortised.
 *
 * Not thread-safe: the caller serialises all calls on one table.
 */

#include <stdbool.h>
#include <stdint.h>

#include "pacing_error.h"
#include "pacing_shaper.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A table of pacing entries (opaque). */
struct pacing_table;

/** A batch of staged changes to one table (opaque). */
struct pacing_txn;

/** The caller's hardware hooks; any may be NULL (planning only). */
struct pacing_hw_ops {
	/**
	 * Create the hardware entry for a new pacing entry.
	 *
	 * @param hw
	 *   Receives the caller's handle, kept in the entry.
	 * @return
	 *   0, or a negative errno: the transaction is rolled back.
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
	uint64_t entry_id;     /**< Entry held (ids start at 1, never reused). */
	struct pacing_ctx ctx; /**< The entry's context (rate applied). */
	bool created;          /**< A new entry: alloc hook called at prepare. */
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
 * @return
 *   The table, or NULL with @p err filled (-ENOMEM).
 */
struct pacing_table *
pacing_table_create(uint32_t capacity, struct pacing_error *err);

/**
 * Destroy a table. The free hook of @p ops (if any) is called for every
 * remaining entry. An open transaction must be ended first.
 */
void
pacing_table_destroy(struct pacing_table *table,
		     const struct pacing_hw_ops *ops, void *opaque);

/** Number of entries the table may hold. */
uint32_t
pacing_table_capacity(const struct pacing_table *table);

/** Number of entries in use (committed). */
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
 * Iterate over the entries in use, in creation order. Start with
 * *cursor = 0; each call fills @p info and advances the cursor. The table
 * must not change during an iteration.
 *
 * @return
 *   1 when @p info was filled, 0 at the end.
 */
int
pacing_table_entry_next(const struct pacing_table *table, uint64_t *cursor,
			struct pacing_entry_info *info);

/**
 * The holders of entry @p entry_id, one user id per reference, a user's
 * references together, users in the order of their first reference to
 * the entry. At most @p max are written to @p users.
 *
 * @return
 *   The number of references (may exceed @p max), or -ENOENT.
 */
int64_t
pacing_table_entry_users(const struct pacing_table *table, uint64_t entry_id,
			 uint64_t *users, uint32_t max);

/**
 * Open a transaction. One transaction at a time per table; the table
 * must not be changed otherwise until it ends (commit or abort). The
 * queries show the committed table meanwhile.
 *
 * @param ops
 *   Hardware hooks used by prepare, commit and abort; NULL for none.
 * @return
 *   The transaction, or NULL with @p err filled (-EBUSY: one is already
 *   open).
 */
struct pacing_txn *
pacing_txn_begin(struct pacing_table *table, const struct pacing_hw_ops *ops,
		 void *opaque, struct pacing_error *err);

/**
 * Stage an acquisition of context @p ctx by @p user.
 *
 * Resolution: with PACING_ACQ_DEDICATED, always a new dedicated entry.
 * Otherwise a shared entry with an identical context (committed or staged
 * in this transaction); else, if @p tolerance_ppm > 0, the shared entry of
 * the same rate_mode, burst_upper_bound and typical_packet_size whose
 * rate_limit r satisfies |r - req| * 10^6 <= tolerance_ppm * req (the
 * closest; on a tie the lower rate, then the older entry); else a new
 * shared entry. Capacity is checked at prepare, for the whole batch.
 *
 * A refused call stages nothing; the transaction stays usable.
 *
 * @return
 *   0 with @p grant filled, or a negative errno (-EINVAL: NULL pointer,
 *   unknown flag, rate_limit 0, unknown rate_mode, or a transaction no
 *   longer staging; -ENOMEM).
 */
int
pacing_txn_acquire(struct pacing_txn *txn, uint64_t user,
		   const struct pacing_ctx *ctx, uint32_t flags,
		   uint32_t tolerance_ppm, struct pacing_grant *grant,
		   struct pacing_error *err);

/**
 * Stage the release of one reference of @p user to @p entry_id (an entry
 * of the table or one staged in this transaction). The reference goes at
 * commit; the entry, if that was its last reference, goes after all the
 * transaction's acquisitions were applied (make before break).
 *
 * @return
 *   0, or -ENOENT (no such entry, or @p user holds no more references to
 *   it once earlier staged releases are counted), -EINVAL, -ENOMEM.
 */
int
pacing_txn_release(struct pacing_txn *txn, uint64_t user, uint64_t entry_id,
		   struct pacing_error *err);

/**
 * Check capacity and create the hardware of every new entry.
 *
 * The batch needs every entry in use now plus every new entry still
 * referenced at the end of the batch (entries freed by the batch are freed
 * only after the new ones exist). More than the capacity: -ENOSPC with a
 * message giving both counts. Then the alloc hook is called for each new
 * entry in staging order; if one fails, the hardware already created by
 * this call is freed and its errno returned (field HW).
 *
 * After a failure only pacing_txn_abort() is allowed. After a success,
 * staging is closed; calling prepare again does nothing and returns 0.
 *
 * @return
 *   0, or a negative errno.
 */
int
pacing_txn_prepare(struct pacing_txn *txn, struct pacing_error *err);

/**
 * The hardware handle of an entry, as seen by the transaction: the handle
 * of a table entry, or of a new entry after a successful prepare.
 *
 * @return
 *   The handle, or NULL (unknown entry, not prepared yet, or no hook).
 */
void *
pacing_txn_entry_hw(const struct pacing_txn *txn, uint64_t entry_id);

/**
 * Apply the transaction and end it. Prepares first if not done yet; if
 * that fails the transaction is rolled back (table unchanged, hardware
 * created by it freed) and the error returned. Else the staged references
 * are applied, then the free hook runs for every entry whose last
 * reference went. @p txn ends in both cases (do not use it again).
 *
 * @return
 *   0, or a negative errno from prepare.
 */
int
pacing_txn_commit(struct pacing_txn *txn, struct pacing_error *err);

/**
 * Discard the transaction and end it: the free hook runs for the hardware
 * it created; the table is left exactly as before. @p txn ends.
 * A NULL @p txn is accepted.
 */
void
pacing_txn_abort(struct pacing_txn *txn);

#ifdef __cplusplus
}
#endif

#endif /* PACING_TABLE_H */
