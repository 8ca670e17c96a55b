/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * What upstream's Tx burst and completion code (mlx5_tx.h, mlx5_tx.c) call
 * outside themselves, for the comparison port: the MR cache's slow paths
 * (the port fills the cache with every MR at queue set-up, so they run
 * only on a miss, counted) and the error recovery, which the port does
 * not model (an error CQE stops the queue, and the comparison fails).
 */

#include "mlx5_tx.h"

#include "upstream_shims.h"

int mlx5_logtype;
/* No mbuf asks for "do not inline": the dynamic flag is not registered. */
uint64_t rte_net_mlx5_dynf_inline_mask;
/*
 * Checksum and software-parser tables: the variants compiled here take
 * neither offload, but an unoptimised build keeps their references.
 */
uint8_t mlx5_cksum_table[1 << 10] __rte_cache_aligned;
uint8_t mlx5_swp_types_table[1 << 10] __rte_cache_aligned;

uint64_t upstream_mr_misses;
uint32_t upstream_mr_fallback_lkey; /* big-endian, as cached */

uint32_t
mlx5_mr_mb2mr_bh(struct mlx5_mr_ctrl *mr_ctrl __rte_unused,
		 struct rte_mbuf *mbuf __rte_unused)
{
	upstream_mr_misses++;
	return upstream_mr_fallback_lkey;
}

void
mlx5_mr_flush_local_cache(struct mlx5_mr_ctrl *mr_ctrl)
{
	/* The generation never changes: nothing to flush. */
	mr_ctrl->cur_gen = *mr_ctrl->dev_gen_ptr;
}

int
mlx5_queue_state_modify(struct rte_eth_dev *dev __rte_unused,
			struct mlx5_mp_arg_queue_state_modify *sm __rte_unused)
{
	return -ENOTSUP;
}

void
mlx5_dump_debug_information(const char *path __rte_unused,
			    const char *title __rte_unused,
			    const void *buf __rte_unused,
			    unsigned int len __rte_unused)
{
}

void
txq_free_elts(struct mlx5_txq_ctrl *txq_ctrl __rte_unused)
{
}
