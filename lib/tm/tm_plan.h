/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TM_PLAN_H
#define TM_PLAN_H

/**
 * @file
 * What the device must hold for a hierarchy (the plan), and the ordered
 * steps that take the device from one plan to another (the difference).
 *
 * A plan has scheduling elements, each a DWRR TSAR or a queue group under
 * a parent element (or the device's root), with bw_share and
 * max_average_bw (Mbit/s, 0 = unlimited), and per Tx queue: its pacing
 * context (the leaf's private shaper), its queue group and whether it is
 * suspended. Mapping (tm_limits.sched):
 * - the root node is a TSAR under the device root with zeros; a shaped
 *   root is a zero-valued port TSAR under the device root and the root's
 *   TSAR, carrying the ceiling, under it;
 * - every other non-leaf node is a TSAR under its parent's TSAR;
 * - every leaf has a queue group of its own while the tree has no more
 *   leaves than the device has groups (the way Linux's mlx5 HTB offload
 *   maps classes: only DWRR between elements is relied on). Beyond that,
 *   leaves share a group where that is exact (plan.shared_groups): the
 *   leaves of one parent with the same weight, no committed rate and the
 *   same byte-mode pacing context or none (packet-mode leaves never), or
 *   all the children of a parent when they are leaves of one weight
 *   without committed rates; a group weighs the sum of its leaves'
 *   weights (the SQs of a group share it equally);
 * - bw_share from the weights and committed rates of siblings
 *   (pacing_sched_shares) against the parent's effective ceiling: the
 *   smallest ceiling on its path, or the port's line rate; shares that
 *   cannot hold every child within 1% of its target, whatever its
 *   siblings do (PACING_SCHED_TOLERANCE_PPM), are refused naming the two
 *   children; the 1% is a queue's from the root down, so a family gets
 *   what the fits of the families above it leave (tm_elem.path_ppm);
 *   ceilings by pacing_sched_ceiling (rounded down).
 * Without tm_limits.sched, or for a tree that asks for no element (no
 * non-leaf shaper, every weight 1, no committed rate:
 * tm_plan_tree_needs_elements()), a plan has no element: leaf shapers
 * only, pacing indexes only.
 */

#include <stdbool.h>
#include <stdint.h>

#include "tm_tree.h"

/** No element: the device's root as a parent, no group for a queue. */
#define TM_PLAN_NONE UINT32_MAX

/** Type of a scheduling element. */
enum tm_elem_type {
	TM_ELEM_TSAR,  /**< DWRR TSAR. */
	TM_ELEM_GROUP, /**< Queue group. */
};

/** One scheduling element of a plan. */
struct tm_elem {
	uint64_t key;            /**< What it stands for (same in two plans). */
	uint32_t parent;         /**< Index in the plan, or TM_PLAN_NONE. */
	uint32_t node_id;        /**< Node (TSAR), parent node (group). */
	uint8_t type;            /**< enum tm_elem_type. */
	uint32_t weight;         /**< Weight it stands for (x count). */
	uint32_t bw_share;       /**< Applied weight, 0 under the root. */
	uint32_t max_average_bw; /**< Ceiling, Mbit/s, 0 = unlimited. */
	uint32_t error_ppm;      /**< Share error against the weights. */
	/**
	 * Bound of its rate's error against the rule, ppm: its family's fit
	 * compounded with those of the families above it.
	 */
	uint32_t path_ppm;
	uint32_t hw_id;          /**< Device id, kept by the executor. */
	void *hw;                /**< Device handle, kept by the executor. */
};

/** One Tx queue of a plan. */
struct tm_queue {
	bool shaped;           /**< False: unlimited (no pacing entry). */
	bool suspended;        /**< Its leaf or an ancestor is suspended. */
	uint32_t group;        /**< Queue group element, or TM_PLAN_NONE. */
	struct pacing_ctx ctx; /**< Pacing context when shaped. */
	uint64_t entry;        /**< Pacing entry, kept by the executor. */
};

/** A node and its place in the order the plan is built in. */
struct tm_plan_order {
	uint64_t key;
	struct tm_node *node;
};

/**
 * What the device holds, or must hold. Its buffers are kept from plan to
 * plan (sized for the largest tree so far): no allocation per change.
 */
struct tm_plan {
	struct tm_elem *elems; /**< Parents before children. */
	uint32_t n_elems;
	uint32_t n_groups;
	/** Leaves share queue groups (more leaves than the device's groups). */
	bool shared_groups;
	struct tm_queue *queues;
	uint16_t nb_txq;
	uint16_t queues_cap;
	uint32_t nodes_cap;              /**< Of elems and the scratch. */
	uint64_t *eff;                   /**< Scratch: effective ceilings. */
	struct pacing_sched_child *kids; /**< Scratch: shares of a family. */
	struct tm_plan_order *order;     /**< Scratch: nodes in plan order. */
	struct tm_plan_order *order_tmp; /**< Scratch of the sort. */
};

/** Kinds of steps of a difference, in the order they are taken. */
enum tm_op_type {
	TM_OP_CREATE,  /**< New element (top-down). */
	TM_OP_MODIFY,  /**< Element kept, bw_share or ceiling changed. */
	TM_OP_PACE,    /**< Take the queue's new pacing entry. */
	TM_OP_MOVE,    /**< Queue to its new group and/or pacing index. */
	TM_OP_SUSPEND, /**< Queue suspended or resumed. */
	TM_OP_DESTROY, /**< Old element unused (bottom-up). */
	TM_OP_RELEASE, /**< Release the queue's old pacing entry. */
};

/** One step: an element of the new plan (CREATE, MODIFY), of the old one
 * (DESTROY), or a queue. */
struct tm_op {
	uint8_t type;   /**< enum tm_op_type. */
	uint32_t index; /**< Element index or queue id. */
};

/** An element's key and index, sorted by key for look-ups. */
struct tm_keyed {
	uint64_t key;
	uint32_t index;
};

/** Difference between two plans; buffers kept from diff to diff. */
struct tm_diff {
	struct tm_op *ops;
	uint32_t n_ops;
	uint32_t ops_cap;
	/** Per element of the new plan: the old one it continues, or NONE. */
	uint32_t *match;
	uint32_t elems_cap;     /**< Of match, keys and kept. */
	struct tm_keyed *keys;  /**< Scratch: old elements by key. */
	bool *kept;             /**< Scratch: old element continued. */
	uint8_t *qsteps;        /**< Scratch: per queue, its steps' bits. */
	uint32_t queues_cap;    /**< Of qsteps. */
};

/**
 * Compute the plan of hierarchy @p t (validated) into @p plan, empty
 * (zeroed) or built before, whose buffers are reused. With @p active
 * false (no hierarchy in force) every queue is unlimited, in no group,
 * not suspended.
 *
 * @return
 *   0, or a negative errno with @p error saying what does not fit, with
 *   the numbers (depth, groups, elements, committed rates); @p plan then
 *   holds no valid plan but keeps its buffers (tm_plan_fini frees them).
 */
int tm_plan_build(struct tm_tree *t, bool active, struct tm_plan *plan,
		  struct rte_tm_error *error);

/**
 * Whether the plan of hierarchy @p t has scheduling elements: the device
 * has the hierarchy and the tree asks for it (a non-leaf shaper, a weight
 * other than 1 or a committed rate). A flat tree of leaf shapers does not.
 */
bool tm_plan_tree_needs_elements(const struct tm_tree *t);

/**
 * Make @p dst (empty or built before) a copy of @p src (executor fields
 * included) for @p nb_txq queues: those beyond @p src are unlimited, in
 * no group.
 *
 * @return
 *   0 or -ENOMEM.
 */
int tm_plan_copy(struct tm_plan *dst, const struct tm_plan *src,
		 uint16_t nb_txq);

/**
 * Make @p plan the @p applied plan of tree @p t with node @p node's
 * private shaper changed, without rebuilding it (a copy, no sort): a
 * leaf's pacing, or a non-root node's ceiling. Only when the node's
 * committed rate was @p committed_before, the tree still asks for
 * elements exactly when @p applied has some, and, for a non-leaf node, no
 * node below it has a committed rate: no share changes; for a leaf, when
 * leaves have groups of their own (with shared groups it may move).
 *
 * @return
 *   0; -EAGAIN when that does not hold (build the whole plan), -ENOMEM.
 */
int tm_plan_node_update(struct tm_plan *plan, const struct tm_plan *applied,
			const struct tm_tree *t, const struct tm_node *node,
			uint64_t committed_before);

/**
 * Grow @p plan and @p diff (empty or used before) for @p nb_txq queues
 * and @p n_nodes nodes, their memory touched now: a change within these
 * sizes allocates nothing and takes no page fault.
 *
 * @return
 *   0 or -ENOMEM (what was grown stays).
 */
int tm_plan_reserve(struct tm_plan *plan, struct tm_diff *diff,
		    uint16_t nb_txq, uint32_t n_nodes);

/** Free what @p plan holds; it becomes empty. */
void tm_plan_fini(struct tm_plan *plan);

/** Element @p index of @p plan, or NULL for TM_PLAN_NONE. */
static inline const struct tm_elem *
tm_plan_elem(const struct tm_plan *plan, uint32_t index)
{
	return index == TM_PLAN_NONE ? NULL : &plan->elems[index];
}

/** Queue @p q of @p plan; for a queue beyond it: unlimited, in no group,
 * not suspended. */
const struct tm_queue *tm_plan_queue(const struct tm_plan *plan, uint16_t q);

/** The element of non-leaf node @p node_id, or NULL. */
const struct tm_elem *tm_plan_node_elem(const struct tm_plan *plan,
					uint32_t node_id);

/**
 * The steps that take the device from @p old to @p new, in order (see
 * enum tm_op_type), into @p diff (empty or used before); an element
 * continues an old one when it stands for the same thing under the
 * continued parent. Linear when both plans have the same elements.
 *
 * @return
 *   0 or -ENOMEM.
 */
int tm_plan_diff(const struct tm_plan *old, const struct tm_plan *new,
		 struct tm_diff *diff);

/** Free what @p diff holds. */
void tm_diff_fini(struct tm_diff *diff);

#endif /* TM_PLAN_H */
