/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_ETHDEV_H
#define MLX5_TM_ETHDEV_H

/**
 * @file
 * Private data of one net_mlx5_tm port, shared by the files of the PMD
 * (ethdev layer, queue layer and scheduling layer). Control path only.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_log.h>
#include <rte_spinlock.h>
#include <ethdev_driver.h>

#include "mlx5_tm_glue.h"
#include "mlx5_tm_caps.h"

struct mlx5_emu;
struct mlx5_tm_txq;
struct mlx5_tm_mr_ctrl;
struct mlx5_tm_rx;

extern int mlx5_tm_logtype;

/**
 * Log a message of the PMD. A message about a port or a Tx queue goes
 * through MLX5_TM_PORT_LOG() or MLX5_TM_TXQ_LOG(), which write its prefix;
 * this one is for the rest (probe before a port exists: the vdev name
 * first; firmware commands: their name first).
 */
#define MLX5_TM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, mlx5_tm_logtype, \
		"mlx5_tm: " fmt "\n", ## __VA_ARGS__)

/** Log a message about port @p port_id: "port <port_id>: <message>". */
#define MLX5_TM_PORT_LOG(level, port_id, fmt, ...) \
	MLX5_TM_LOG(level, "port %u: " fmt, (unsigned int)(port_id), \
		    ## __VA_ARGS__)

/** Log a message about Tx queue @p qid: "port <p> txq <q>: <message>". */
#define MLX5_TM_TXQ_LOG(level, port_id, qid, fmt, ...) \
	MLX5_TM_LOG(level, "port %u txq %u: " fmt, (unsigned int)(port_id), \
		    (unsigned int)(qid), ## __VA_ARGS__)

/** Largest number of Tx queues a port may have (ethdev's own bound). */
#define MLX5_TM_MAX_TXQ RTE_MAX_QUEUES_PER_PORT

/** Pacing options from devargs, for the scheduling layer. */
struct mlx5_tm_pacing_args {
	/** tx_burst_bound: burst_upper_bound in bytes, 0 = device default. */
	uint32_t burst_bound;
	/** tx_typical_pkt_sz: typical_packet_size in bytes, 0 = default. */
	uint32_t typical_pkt_sz;
	/** pacing_index=dedicated: never share a pacing entry. */
	bool dedicated;
	/** rate_tolerance_ppm: reuse an entry within this many ppm. */
	uint32_t rate_tolerance_ppm;
};

/** Per-port private data (dev->data->dev_private). */
struct mlx5_tm_priv {
	struct rte_eth_dev *dev;             /**< Back pointer. */
	const struct mlx5_tm_glue *glue;     /**< Real or emulated device. */
	struct mlx5_tm_glue_dev *gdev;       /**< Open device context. */
	struct mlx5_emu *emu;                /**< Device model, NULL if real. */
	char dev_name[64];                   /**< dev= or emu= value. */
	struct mlx5_tm_caps caps;            /**< Read at probe. */
	/** The netdev: read at probe, MTU kept current by mtu_set. */
	struct mlx5_tm_port_info port;
	struct mlx5_tm_pacing_args pacing;   /**< Pacing devargs. */
	bool txq_mpw_en;                     /**< eMPW allowed (devarg). */
	/**
	 * Serialises queue-object changes (ethdev calls, alarm, sched);
	 * not recursive: no holder calls back into a taker. Lock order:
	 * the sched registry lock, then the port's sched lock
	 * (mlx5_tm_sched_priv.h), then this one; the device's own locks
	 * are taken inside glue calls, innermost. A queue's pacing index,
	 * group and suspension are the scheduler's to give (the applied
	 * plan, what each SQ holds), under the sched lock: so port start
	 * and stop and recovery (the reconciler: the alarm, which only tries
	 * both locks, and rte_pmd_mlx5_tm_recover()) take the sched lock
	 * first (mlx5_tm_sched_lock()). Statistics take neither.
	 */
	pthread_mutex_t lock;
	/**
	 * Orders statistics reads and resets, and the publication of a Tx
	 * queue (setup, release), against each other, in every process (a
	 * spinlock in shared memory); never held across a firmware command
	 * (mlx5_tm_stats.h).
	 */
	rte_spinlock_t stats_lock;
	/* Port objects, created at probe, released at close. */
	struct mlx5_tm_pd *pd;
	struct mlx5_tm_devx_obj *td;
	uint32_t tdn;
	struct mlx5_tm_devx_obj *tis;
	uint32_t tisn;
	struct mlx5_tm_mr_ctrl *mr;          /**< Registered memory. */
	bool started;
	bool closed;
	/** The application took the device model: it drives virtual time. */
	bool emu_taken;
	/** Recovery alarm armed while the port is started (atomic). */
	bool alarm_armed;
	/** Alarm periods skipped: the sched lock was held (atomic). */
	uint64_t alarm_busy;
	/** Alarm periods run, released last by each (atomic). */
	uint64_t alarm_runs;
	/** Rx companion port (mlx5_tm_rx.c), NULL for a Tx-only port. */
	struct mlx5_tm_rx *rx;
	/** Last link speed seen with the link up (Mbit/s), 0 none yet. */
	uint32_t last_speed_mbps;
};

/**
 * Read the port's link now and follow its line rate (a commit takes it
 * fresh). Takes the sched lock: call with no lock held.
 */
void mlx5_tm_line_rate_refresh(struct rte_eth_dev *dev);

/** The private data of @p dev. */
static inline struct mlx5_tm_priv *
mlx5_tm_priv(const struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

#endif /* MLX5_TM_ETHDEV_H */
