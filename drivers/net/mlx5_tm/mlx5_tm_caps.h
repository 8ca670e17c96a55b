/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_CAPS_H
#define MLX5_TM_CAPS_H

/**
 * @file
 * Device capabilities the PMD uses, read once at probe with QUERY_HCA_CAP
 * (general and QoS op_mods) and kept in the port's private data.
 */

#include <stdbool.h>
#include <stdint.h>

/** Capabilities of one device, in host order. */
struct mlx5_tm_caps {
	/* QoS capabilities (QUERY_HCA_CAP op_mod QoS). */
	bool packet_pacing;             /**< Per-SQ rate limiting present. */
	bool packet_pacing_burst_bound; /**< burst_upper_bound honoured. */
	bool packet_pacing_typical_size;/**< typical_packet_size honoured. */
	bool wqe_rate_pp;               /**< WQE-rate (packets/s) pacing. */
	uint32_t packet_pacing_max_rate;/**< Highest rate, kbps. */
	uint32_t packet_pacing_min_rate;/**< Lowest rate, kbps. */
	/**
	 * qos_cap.packet_pacing_rate_table_size: index 0 is "unlimited",
	 * entries 1..size - 1 exist, shared with other users of the device.
	 */
	uint16_t packet_pacing_rate_table_size;
	/**
	 * qos_cap.packet_pacing_uid: without it the kernel does not expose
	 * pacing entries to DEVX applications (mlx5dv_pp_alloc fails).
	 */
	bool packet_pacing_uid;
	/*
	 * NIC scheduling hierarchy (SCHEDULING_HIERARCHY_NIC): TSARs and
	 * queue groups that the rte_tm non-leaf levels map onto.
	 */
	bool nic_sq_scheduling;         /**< SQs attach to queue groups. */
	bool nic_bw_share;              /**< bw_share honoured. */
	bool nic_rate_limit;            /**< max_average_bw honoured. */
	uint8_t log_max_qos_nic_queue_group;
	uint8_t log_max_qos_nic_scheduling_element;
	/** Elements from the device's root to a queue group, log2. */
	uint8_t log_nic_max_sched_depth;
	uint32_t max_tsar_bw_share;     /**< Largest bw_share of a child. */
	uint16_t nic_element_type;      /**< Bit per element type. */
	uint16_t nic_tsar_type;         /**< Bit per TSAR type. */
	/* General capabilities (QUERY_HCA_CAP op_mod general). */
	/** Bit per general object type (1 << 0x26: SCHEDULING_ELEMENT). */
	uint64_t general_obj_types;
	uint8_t log_max_sq;             /**< log2 of the number of SQs. */
	uint8_t log_max_cq;             /**< log2 of the number of CQs. */
	uint8_t log_max_wq_sz;          /**< log2 of the largest SQ, WQEBBs. */
	uint8_t log_max_cq_sz;          /**< log2 of the largest CQ, CQEs. */
	/** Free-running clock of CQE time stamps (ts_format 0), kHz. */
	uint32_t device_frequency_khz;
	uint8_t wqe_inline_mode;        /**< 0 L2, 1 vport context, 2 none. */
	/**
	 * Header bytes every WQE must carry inline (MLX5_INLINE_MODE_*):
	 * L2 when wqe_inline_mode is L2, the NIC vport context's
	 * min_wqe_inline_mode when it is vport context, none otherwise.
	 */
	uint8_t min_inline_mode;
	bool csum_cap;                  /**< L3/L4 checksum offload. */
	bool vlan_cap;                  /**< VLAN insertion offload. */
	/** multi_pkt_send_wqe: SQs may allow multi-packet WQEs. */
	bool mpw;
	/**
	 * Enhanced multi-packet WQEs (eMPW): enhanced_multi_pkt_send_wqe
	 * with multi_pkt_send_wqe, as rdma-core's ENHANCED_MPW flag.
	 */
	bool empw;
	/**
	 * sqc.ts_format for our SQs, converted from cmd_hca_cap.sq_ts_format
	 * as upstream's mlx5_ts_format_conv(): free-running on devices that
	 * have only that, the default (real time where supported) otherwise.
	 */
	uint8_t sq_ts_format;
	/** cmd_hca_cap.sq_ts_format as read (0 free run, 1 rt, 2 both). */
	uint8_t sq_ts_format_cap;
	/**
	 * Line rate (Mbit/s): the link speed, else (link down) the fastest
	 * link mode the port supports; followed on link changes; 0 unknown.
	 */
	uint32_t line_rate_mbps;
};

/**
 * The sqc.ts_format for SQs of a device whose cmd_hca_cap.sq_ts_format is
 * @p cap, as upstream's mlx5_ts_format_conv(): free running on a device
 * that has only that, the default (real time where supported) otherwise.
 */
uint8_t
mlx5_tm_sq_ts_format(uint8_t cap);

#endif /* MLX5_TM_CAPS_H */
