/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PACING_H
#define PACING_H

/**
 * @file
 * The pacing library: rte_tm-style shapers to packet-pacing contexts
 * (pacing_shaper.h), and a table of pacing entries with sharing,
 * reference counts and capacity (pacing_table.h). Plain C11, no DPDK,
 * no device access.
 */

#include "pacing_error.h"
#include "pacing_shaper.h"
#include "pacing_sched.h"
#include "pacing_table.h"

#endif /* PACING_H */
