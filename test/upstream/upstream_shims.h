/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef UPSTREAM_SHIMS_H
#define UPSTREAM_SHIMS_H

#include <stdint.h>

/** Lkey look-ups that missed the MR cache (upstream_shims.c). */
extern uint64_t upstream_mr_misses;
/** What a miss answers: the lkey of the first MR, big-endian. */
extern uint32_t upstream_mr_fallback_lkey;

#endif /* UPSTREAM_SHIMS_H */
