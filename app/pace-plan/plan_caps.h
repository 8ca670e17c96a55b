/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef PLAN_CAPS_H
#define PLAN_CAPS_H

/**
 * @file
 * The built-in capability sets of mlx5-tm-plan.
 */

#include <stdbool.h>

#include "pacing_shaper.h"

/** A named capability set. */
struct plan_caps {
	const char *name;        /**< "cx5", "cx6dx", "cx7". */
	const char *description; /**< One line for --list-caps. */
	struct pacing_caps caps; /**< Packet-pacing capabilities. */
	/** The NIC scheduling hierarchy: a queue's committed rate is a
	 *  share of its queue group, its pacing entry the peak alone. */
	bool sched;
};

/** The set called @p name, or NULL. */
const struct plan_caps *plan_caps_find(const char *name);

/** The sets, terminated by an entry with a NULL name. */
extern const struct plan_caps plan_caps_sets[];

#endif /* PLAN_CAPS_H */
