/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef RTE_PMD_MLX5_TM_H
#define RTE_PMD_MLX5_TM_H

/**
 * @file
 * Functions of the net_mlx5_tm PMD beyond ethdev, for programs that look at
 * or steer the device behind a port (tests, demos, benchmarks).
 */

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mlx5_emu;

/**
 * The device model behind port @p port_id.
 *
 * On a device model in virtual time (devarg clock=virtual), device time
 * moves only when the application moves it (mlx5_emu_advance() and the
 * like on the model returned here): taking the model says the application
 * does, and a port whose model was never taken refuses to start in
 * virtual time (its packets would never leave).
 *
 * @return
 *   The model's handle, for the API of the device-model library
 *   (mlx5_emu.h, librte_net_mlx5_tm_emu.so, which the caller links), or
 *   NULL with rte_errno set: ENODEV when the port is not a net_mlx5_tm
 *   port, ENOTSUP when it runs on hardware or in a secondary process (the
 *   model lives in the primary).
 */
struct mlx5_emu *rte_pmd_mlx5_tm_emu(uint16_t port_id);

/**
 * The send queue number (SQN) of Tx queue @p qid of port @p port_id.
 *
 * @return
 *   0, or a negative errno (also in rte_errno): -ENODEV not a net_mlx5_tm
 *   port, -EINVAL no such queue or @p sqn NULL, -EAGAIN the queue has no SQ
 *   (port not started).
 */
int rte_pmd_mlx5_tm_txq_sqn(uint16_t port_id, uint16_t qid, uint32_t *sqn);

/** The device behind a port and the capabilities the PMD read from it. */
struct rte_pmd_mlx5_tm_dev_info {
	bool emulated;                  /**< Device model (emu=), not dev=. */
	char device[64];                /**< The dev= or emu= value. */
	/* QUERY_HCA_CAP, QoS. */
	bool packet_pacing;             /**< Per-SQ rate limiting. */
	bool pp_burst_bound;            /**< burst_upper_bound honoured. */
	bool pp_typical_size;           /**< typical_packet_size honoured. */
	bool wqe_rate_pp;               /**< Packet-rate (WQE-rate) pacing. */
	uint32_t pp_min_rate_kbps;      /**< Lowest pacing rate. */
	uint32_t pp_max_rate_kbps;      /**< Highest pacing rate. */
	uint16_t pp_table_size;         /**< packet_pacing_rate_table_size. */
	/* QUERY_HCA_CAP, general device and Ethernet offloads. */
	uint8_t log_max_sq;
	uint8_t log_max_cq;
	uint8_t log_max_wq_sz;          /**< log2 of the largest SQ, WQEBBs. */
	uint8_t log_max_cq_sz;          /**< log2 of the largest CQ, CQEs. */
	uint8_t wqe_inline_mode;        /**< 0 L2, 1 vport context, 2 none. */
	uint8_t min_inline_mode;        /**< Header bytes inlined: 0 none,
					 *   1 L2, 2 IP, 3 TCP/UDP. */
	bool csum_cap;                  /**< L3/L4 checksum offload. */
	bool vlan_cap;                  /**< VLAN insertion. */
	uint32_t device_frequency_khz;  /**< Free-running CQE clock. */
	/**
	 * Line rate the PMD uses: the link speed, else (link down) the
	 * fastest link mode the port supports; 0 unknown.
	 */
	uint32_t line_rate_mbps;
	/* QUERY_HCA_CAP, QoS: pacing objects for DEVX, NIC scheduling. */
	bool packet_pacing_uid;         /**< Pacing entries given to DEVX. */
	bool nic_sq_scheduling;         /**< SQs join queue groups. */
	bool nic_bw_share;              /**< bw_share honoured. */
	bool nic_rate_limit;            /**< max_average_bw honoured. */
	uint32_t max_tsar_bw_share;     /**< Largest bw_share. */
	uint8_t log_max_qos_nic_queue_group;
	uint8_t log_max_qos_nic_scheduling_element;
	uint8_t log_nic_max_sched_depth; /**< Elements root to group, log2. */
	uint16_t nic_element_type;      /**< Bit per element type. */
	uint16_t nic_tsar_type;         /**< Bit per TSAR type. */
	/** cmd_hca_cap.sq_ts_format: 0 free running, 1 real time, 2 both. */
	uint8_t sq_ts_format;
	/** sqc.ts_format the PMD's SQs use: 0 free running, 1 default. */
	uint8_t sqc_ts_format;
	/* The port's netdev (hardware; the device model's port). */
	/** devlink e-switch mode: -1 unknown, 0 legacy, 1 switchdev. */
	int8_t esw_mode;
	char phys_port_name[32];        /**< "" when none. */
	char phys_switch_id[40];        /**< "" when none. */
	/** Fastest supported link mode (Mbit/s), 0 unknown. */
	uint32_t link_max_speed_mbps;
	/**
	 * cmd_hca_cap.general_obj_types: bit per general object type; bit
	 * 0x26 (SCHEDULING_ELEMENT) is needed for a scheduling hierarchy.
	 */
	uint64_t general_obj_types;
};

/**
 * The device behind port @p port_id and its capabilities.
 *
 * @return
 *   0, or -ENODEV (also in rte_errno) when the port is not a net_mlx5_tm
 *   port, -EINVAL when @p info is NULL.
 */
int rte_pmd_mlx5_tm_dev_info(uint16_t port_id,
			     struct rte_pmd_mlx5_tm_dev_info *info);

/** A send queue as the device reports it (QUERY_SQ). */
struct rte_pmd_mlx5_tm_sq_info {
	uint32_t sqn;
	uint8_t state;                  /**< 0 RST, 1 RDY, 3 ERR. */
	uint16_t pp_index;              /**< packet_pacing_rate_limit_index. */
	uint32_t cqn;
	uint32_t tisn;                  /**< tis_num_0. */
	uint8_t ts_format;              /**< 0 free running, 1 default,
					 *   2 real time. */
	uint8_t min_wqe_inline_mode;
	uint8_t log_wq_sz;              /**< log2 of the ring, WQEBBs. */
	uint32_t user_index;
	uint32_t hw_counter;            /**< WQEBB counter the device is at. */
	uint32_t sw_counter;
	uint16_t qos_queue_group_id;    /**< Queue group element, 0 none. */
};

/**
 * Read the send queue of Tx queue @p qid back from the device (QUERY_SQ).
 *
 * @return
 *   0, or a negative errno (also in rte_errno): -ENODEV not a net_mlx5_tm
 *   port, -ENOTSUP a secondary process (the device is the primary's),
 *   -EINVAL no such queue or @p info NULL, -EAGAIN the queue has no SQ
 *   (port not started), -EREMOTEIO the device refused the query.
 */
int rte_pmd_mlx5_tm_txq_query(uint16_t port_id, uint16_t qid,
			      struct rte_pmd_mlx5_tm_sq_info *info);

/** A scheduling element as the device reports it (general-object query). */
struct rte_pmd_mlx5_tm_elem_info {
	uint32_t element_id;            /**< The object's obj_id. */
	uint8_t element_type;           /**< 0 TSAR, 4 queue group. */
	uint32_t parent_id;             /**< Parent element, 0 the root. */
	uint32_t bw_share;
	uint32_t max_average_bw;        /**< Mbit/s, 0 unlimited. */
};

/**
 * Read back from the device (QUERY_GENERAL_OBJECT) the scheduling element
 * of rte_tm node @p node_id in the committed hierarchy: a non-leaf
 * node's TSAR, a leaf's queue group.
 * @return
 *   0, or a negative errno (also in rte_errno): -ENODEV not a net_mlx5_tm
 *   port, -EINVAL @p info NULL, -ENOTSUP a secondary process, -ENOENT no
 *   element (no such node, nothing committed, or a tree of leaf shapers
 *   alone, which has none), -EREMOTEIO the device refused the query.
 */
int rte_pmd_mlx5_tm_node_query(uint16_t port_id, uint32_t node_id,
			       struct rte_pmd_mlx5_tm_elem_info *info);

/**
 * Completion evidence of a Tx queue: what the device reported done, with
 * the device's own time stamps. Each good CQE the queue asks for (one per
 * 32 WQEBBs at most, and on the last WQE of every burst) carries the time
 * its WQE completed; the PMD records how many packets and bytes were
 * posted up to that WQE. The rate the device achieved between two reads is
 * (last_bytes - last_bytes') / (last_ns - last_ns'): bytes completed
 * between the time stamps of two CQEs. Bytes are the mbufs' pkt_len: the
 * L2 frame without FCS (and without a VLAN tag the device inserts).
 */
struct rte_pmd_mlx5_tm_txq_completions {
	uint64_t cqes;           /**< Good CQEs since the queue was set up. */
	bool ts_valid;           /**< Time stamps convertible to ns. */
	uint8_t ts_format;       /**< The SQ's ts_format (QUERY_SQ). */
	uint64_t first_ns;       /**< Device time of the first good CQE. */
	uint64_t first_packets;  /**< Packets completed by then. */
	uint64_t first_bytes;    /**< Bytes completed by then. */
	uint64_t last_ns;        /**< Device time of the last good CQE. */
	uint64_t last_packets;   /**< Packets completed by then. */
	uint64_t last_bytes;     /**< Bytes completed by then. */
};

/**
 * Completion evidence of Tx queue @p qid (control path; the datapath may
 * run at the same time on another lcore). Time stamps are converted to
 * nanoseconds: real-time format as seconds (63:32) and nanoseconds
 * (31:0), free-running format with the device_frequency_khz capability,
 * the default format as real time when that frequency is 1 GHz (a clock
 * in real-time mode, as upstream DPDK infers) and as free running else;
 * ts_valid is false when neither applies (the raw values are then
 * clock ticks of unknown frequency).
 *
 * @return
 *   0, or a negative errno (also in rte_errno): -ENODEV not a net_mlx5_tm
 *   port, -ENOTSUP a secondary process, -EINVAL no such queue or @p c
 *   NULL, -EAGAIN the queue has no SQ or the datapath kept writing while
 *   it was read.
 */
int rte_pmd_mlx5_tm_txq_completions(uint16_t port_id, uint16_t qid,
				    struct rte_pmd_mlx5_tm_txq_completions *c);

/** The vport's Tx counters (QUERY_VPORT_COUNTER), since device reset. */
struct rte_pmd_mlx5_tm_vport_tx {
	uint64_t unicast_packets;
	uint64_t unicast_octets;
	uint64_t multicast_packets;
	uint64_t multicast_octets;
	uint64_t broadcast_packets;
	uint64_t broadcast_octets;
	uint64_t error_packets;    /**< transmit_errors. */
	uint64_t error_octets;
};

/**
 * Read the Tx counters of the port's vport from the device
 * (QUERY_VPORT_COUNTER through DEVX). They count every sender on the
 * vport (the kernel netdev included) and frames that left, not frames
 * posted.
 *
 * @return
 *   0, or a negative errno (also in rte_errno): -ENODEV not a net_mlx5_tm
 *   port, -ENOTSUP a secondary process, -EINVAL @p tx NULL, -EREMOTEIO
 *   the device refused the query.
 */
int rte_pmd_mlx5_tm_vport_tx(uint16_t port_id,
			     struct rte_pmd_mlx5_tm_vport_tx *tx);

/**
 * Make Tx queue @p qid fail as a faulty send would, to see its error
 * recovery on a NIC (dpdk-mlx5-tm-check's recovery step): post one send
 * WQE whose data segment names a memory key that is not registered (one
 * the PMD registers and deregisters just before), so that the device
 * completes it in error (syndrome 0x4, local protection, on every mlx5
 * NIC). Nothing is sent by it; WQEs posted before it are. Then the next
 * rte_eth_tx_burst() or rte_eth_tx_done_cleanup() on the queue takes the
 * error CQE, and the port's alarm or rte_pmd_mlx5_tm_recover() takes the
 * recovery steps; the queue sends again with its pacing index and queue
 * group. Writes the queue's ring as rte_eth_tx_burst() does: call it on
 * the lcore that sends on the queue, or while none does.
 *
 * @return
 *   0, or a negative errno (also in rte_errno): -ENODEV not a net_mlx5_tm
 *   port, -ENOTSUP a secondary process, -EINVAL no such queue, -EAGAIN
 *   the queue has no SQ (port not started) or is in recovery, -EBUSY its
 *   ring or completion queue is full, or the errno of the memory
 *   registration.
 */
int rte_pmd_mlx5_tm_txq_post_bad_lkey(uint16_t port_id, uint16_t qid);

/**
 * Take the control-path steps of every Tx queue's error recovery now
 * (reset an SQ in error, make it ready again with its pacing index and
 * queue group), as the port's alarm does every 2 ms while it is started.
 * For programs that move device time themselves (clock=virtual) and want
 * the steps at a known point; statistics never take them (they wait for
 * no firmware command). Issues firmware commands: waits for the port's
 * control path.
 *
 * @return
 *   0 (nothing to do on a stopped port), or a negative errno (also in
 *   rte_errno): -ENODEV not a net_mlx5_tm port, -ENOTSUP a secondary
 *   process.
 */
int rte_pmd_mlx5_tm_recover(uint16_t port_id);

#ifdef __cplusplus
}
#endif

#endif /* RTE_PMD_MLX5_TM_H */
