/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TM_PORT_H
#define TM_PORT_H

/*
 * What the rte_tm test programs (test/tm, test/fuzz, test/tsan) share:
 * net_mlx5_tm ports on the device model, rte_tm calls with their error,
 * node parameters, and the PMD's telemetry. Public APIs only. The node
 * parameters are inline: test_tm_model (no EAL) uses them too.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_tm.h>

struct mlx5_emu;

/** The error of the last rte_tm call made through TM(). */
extern struct rte_tm_error terr;

/** Make rte_tm call @p call with terr cleared first. */
#define TM(call) (memset(&terr, 0, sizeof(terr)), (call))

/** Check that rte_tm call @p call succeeds (CHECK of tm_check.h). */
#define EXPECT_OK(call, ...) do { \
	int r_ = TM(call); \
	if (r_ != 0) \
		printf("  refused (%d): %s\n", r_, tmsg()); \
	CHECK(r_ == 0, __VA_ARGS__); \
} while (0)

/** The message of terr, or "(no message)". */
const char *tmsg(void);

/** A net_mlx5_tm port on its own device model. */
struct tm_port {
	uint16_t id;
	char name[32];
	struct mlx5_emu *emu;
	uint16_t nb_txq;
};

/**
 * Configure @p port with @p nb_txq Tx queues of @p ring descriptors.
 * @return 0, or the negative errno of the call that failed.
 */
int tm_port_queues(uint16_t port, uint16_t nb_txq, uint16_t ring);

/** Descriptors of each Tx queue of tm_port_setup(). */
#define TM_PORT_RING 1024

/**
 * Set up the probed port named @p p->name: @p nb_txq Tx queues, started
 * when @p start. @return 0, or -1 (said on stdout).
 */
int tm_port_setup(struct tm_port *p, uint16_t nb_txq, bool start);

/**
 * Probe a new port with devargs @p devargs, then tm_port_setup().
 * @return 0, or -1 (said on stdout).
 */
int tm_port_open(struct tm_port *p, const char *devargs, uint16_t nb_txq,
		 bool start);

/** Stop, close and remove the port. */
void tm_port_close(const struct tm_port *p);

/** Leaf parameters: shaper profile @p profile, packet and byte stats. */
static inline struct rte_tm_node_params
tm_leaf_params(uint32_t profile)
{
	struct rte_tm_node_params np;

	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = profile;
	np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
	np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
	np.stats_mask = RTE_TM_STATS_N_PKTS | RTE_TM_STATS_N_BYTES;
	return np;
}

/** Non-leaf parameters: shaper profile @p profile, one priority. */
static inline struct rte_tm_node_params
tm_nonleaf_params(uint32_t profile)
{
	struct rte_tm_node_params np;

	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = profile;
	np.nonleaf.n_sp_priorities = 1;
	return np;
}

/**
 * A connection to the telemetry socket, its greeting read.
 * @return the socket, or -1.
 */
int tm_telemetry_connect(void);

/**
 * Ask @p cmd on connection @p fd; the reply, NUL-terminated, in @p buf.
 * @return 0, or -1.
 */
int tm_telemetry_ask(int fd, const char *cmd, char *buf, size_t len);

/** tm_telemetry_ask() on a connection of its own. */
int tm_telemetry_query(const char *cmd, char *buf, size_t len);

/**
 * The integers of the array @p key ("key":[1,2]) of @p json into @p v.
 * @return how many, or -1 when the key is missing, the array malformed
 * or longer than @p max.
 */
int tm_json_u64_array(const char *json, const char *key, uint64_t *v,
		      int max);

#endif /* TM_PORT_H */
