/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_MR_H
#define MLX5_TM_MR_H

/**
 * @file
 * Memory registration: every DPDK memory segment is registered with the
 * device (a memory region, MR, with an lkey), at the first start and then
 * as memory is added or freed (memory event callback).
 *
 * The datapath finds the lkey of an mbuf by its mempool: a queue remembers
 * the last pool it saw and the lkey of the one range holding all of that
 * pool's memory (one compare per packet in the common case). Buffers
 * outside their pool (indirect, external) and pools spread over several
 * ranges go by address, through a per-queue cache of a few ranges (no
 * lock, no allocation, no syscall; the queue's lcore alone writes it); on
 * a miss it binary-searches the port's sorted table, which
 * the control path replaces as a whole (copy, then publish the pointer) and
 * never modifies in place. Tables replaced while the port runs are freed
 * when the port stops. A removal bumps a generation number that makes
 * every queue drop its cache at its next burst.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_branch_prediction.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

struct mlx5_tm_priv;

/** One registered range [start, end) and its lkey. */
struct mlx5_tm_mr_range {
	uintptr_t start;
	uintptr_t end;
	uint32_t lkey;
};

/** A published table of ranges, sorted by start, disjoint. */
struct mlx5_tm_mr_table {
	uint32_t n;
	struct mlx5_tm_mr_range r[];
};

/** Port-wide registration state; the datapath reads table and gen. */
struct mlx5_tm_mr_ctrl {
	struct mlx5_tm_mr_table *table; /**< Current table (never NULL). */
	uint32_t gen;                   /**< Bumped when a range goes. */
	/* Control-path-only fields follow in mlx5_tm_mr.c's view. */
};

/** Number of ranges in a queue's cache. */
#define MLX5_TM_MR_CACHE_N 4
/** Returned by the lookup for memory the device does not know. */
#define MLX5_TM_LKEY_INVALID UINT32_MAX

/** A queue's cache of ranges (written by the queue's lcore only). */
struct mlx5_tm_mr_cache {
	const struct mlx5_tm_mr_ctrl *ctrl;
	uint32_t gen;
	uint32_t last;  /**< Slot of the last hit. */
	uint32_t next;  /**< Slot to replace at the next miss. */
	/** Last mempool whose memory one range holds, NULL for none. */
	const struct rte_mempool *pool;
	uint32_t pool_lkey;                 /**< That range's lkey. */
	/** Last mempool spread over ranges: its mbufs go by address. */
	const struct rte_mempool *pool_split;
	struct mlx5_tm_mr_range r[MLX5_TM_MR_CACHE_N];
};

/** Slow part of the lookup: search the port's table, fill the cache. */
uint32_t mlx5_tm_mr_lookup_table(struct mlx5_tm_mr_cache *c,
				 uintptr_t addr, uint32_t len);

/**
 * Slow part of the mempool look-up: the lkey of the one range holding
 * every memory chunk of @p mp (remembered as the queue's pool), or
 * MLX5_TM_LKEY_INVALID when there is none (remembered as pool_split).
 */
uint32_t mlx5_tm_mr_lookup_pool(struct mlx5_tm_mr_cache *c,
				const struct rte_mempool *mp);

/** Drop the cache if the port's table lost a range (once per burst). */
static inline void
mlx5_tm_mr_cache_check(struct mlx5_tm_mr_cache *c)
{
	uint32_t gen = __atomic_load_n(&c->ctrl->gen, __ATOMIC_ACQUIRE);
	unsigned int i;

	if (likely(gen == c->gen))
		return;
	for (i = 0; i < MLX5_TM_MR_CACHE_N; i++)
		c->r[i].start = c->r[i].end = 0;
	c->pool = NULL;
	c->pool_split = NULL;
	c->gen = gen;
}

/** The lkey covering [addr, addr + len), or MLX5_TM_LKEY_INVALID. */
static __rte_always_inline uint32_t
mlx5_tm_mr_lookup(struct mlx5_tm_mr_cache *c, uintptr_t addr, uint32_t len)
{
	const struct mlx5_tm_mr_range *r = &c->r[c->last];
	unsigned int i;

	if (likely(addr >= r->start && addr + len <= r->end))
		return r->lkey;
	for (i = 0; i < MLX5_TM_MR_CACHE_N; i++) {
		r = &c->r[i];
		if (addr >= r->start && addr + len <= r->end) {
			c->last = i;
			return r->lkey;
		}
	}
	return mlx5_tm_mr_lookup_table(c, addr, len);
}

/**
 * The lkey of the data of mbuf segment @p m, @p len
 * bytes from address @p addr, or MLX5_TM_LKEY_INVALID.
 */
static __rte_always_inline uint32_t
mlx5_tm_mr_mbuf_lkey(struct mlx5_tm_mr_cache *c, const struct rte_mbuf *m,
		     uintptr_t addr, uint32_t len)
{
	uint32_t lkey;

	/* The buffer of a direct mbuf is in the mbuf's pool. */
	if (likely(m->pool == c->pool && RTE_MBUF_DIRECT(m)))
		return c->pool_lkey;
	if (RTE_MBUF_DIRECT(m) && m->pool != c->pool_split) {
		lkey = mlx5_tm_mr_lookup_pool(c, m->pool);
		if (lkey != MLX5_TM_LKEY_INVALID)
			return lkey;
	}
	return mlx5_tm_mr_lookup(c, addr, len);
}

/** Set up a queue's cache for the port's registrations. */
void mlx5_tm_mr_cache_init(struct mlx5_tm_mr_cache *c,
			   const struct mlx5_tm_mr_ctrl *ctrl);

/** Create the port's registration state (empty table). */
int mlx5_tm_mr_init(struct mlx5_tm_priv *priv);

/**
 * Register all DPDK memory (first start) and follow memory events.
 * Idempotent: a second call does nothing.
 */
int mlx5_tm_mr_register_all(struct mlx5_tm_priv *priv);

/** Free the tables replaced while the port ran (port stopped). */
void mlx5_tm_mr_gc(struct mlx5_tm_priv *priv);

/** Deregister everything and free the state (port close). */
void mlx5_tm_mr_uninit(struct mlx5_tm_priv *priv);

#endif /* MLX5_TM_MR_H */
