/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_PRM_H
#define MLX5_TM_PRM_H

/**
 * @file
 * PRM (Programmer's Reference Manual) layouts of the firmware commands the
 * PMD sends and the device model decodes.
 *
 * Layouts follow the convention of the Linux mlx5 driver
 * (include/linux/mlx5/mlx5_ifc.h): struct mlx5_ifc_<name>_bits describes a
 * big-endian buffer with one u8 member per bit, so that offsetof() gives the
 * bit offset and sizeof() the width in bits. These structures are never
 * instantiated; buffers are plain arrays accessed with MLX5_SET()/MLX5_GET().
 * Only the fields this project uses are named; the others are reserved,
 * named reserved_at_<bit offset in hex>, and every structure keeps its full
 * PRM size. doc/guides/prm_layouts.rst gives the source of each offset and
 * test/prm checks them.
 *
 * This header has no dependency on DPDK or rdma-core.
 */

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One bit of a PRM layout (layout structures only). */
typedef uint8_t u8;

/* Layout arithmetic, all in bits unless the name says bytes or dwords. */

/** Bit offset of @p fld in layout @p typ. */
#define MLX5_BIT_OFF(typ, fld) offsetof(struct mlx5_ifc_##typ##_bits, fld)
/** Width of @p fld in bits. */
#define MLX5_BIT_SZ(typ, fld) (sizeof(((struct mlx5_ifc_##typ##_bits *)0)->fld))
/** Byte offset of @p fld (meaningful for byte-aligned fields). */
#define MLX5_BYTE_OFF(typ, fld) (MLX5_BIT_OFF(typ, fld) / 8)
/** Width of @p fld in bytes (meaningful for byte-sized fields). */
#define MLX5_FLD_SZ_BYTES(typ, fld) (MLX5_BIT_SZ(typ, fld) / 8)
/** Size of layout @p typ in bytes. */
#define MLX5_ST_SZ_BYTES(typ) (sizeof(struct mlx5_ifc_##typ##_bits) / 8)
/** Size of layout @p typ in 32-bit dwords. */
#define MLX5_ST_SZ_DW(typ) (sizeof(struct mlx5_ifc_##typ##_bits) / 32)
/** Size of layout @p typ in 64-bit qwords. */
#define MLX5_ST_SZ_QW(typ) (sizeof(struct mlx5_ifc_##typ##_bits) / 64)
/** Size of union layout @p typ in bytes. */
#define MLX5_UN_SZ_BYTES(typ) (sizeof(union mlx5_ifc_##typ##_bits) / 8)
/** Size of union layout @p typ in dwords. */
#define MLX5_UN_SZ_DW(typ) (sizeof(union mlx5_ifc_##typ##_bits) / 32)
/** Address of the first byte of @p fld in buffer @p p. */
#define MLX5_ADDR_OF(typ, p, fld) \
	((void *)((uint8_t *)(p) + MLX5_BYTE_OFF(typ, fld)))

/* Internal helpers of MLX5_SET/MLX5_GET: dword index, shift and mask. */
#define MLX5_PRM_DW_OFF(typ, fld) (MLX5_BIT_OFF(typ, fld) / 32)
#define MLX5_PRM_DW_SHIFT(typ, fld) \
	(32 - MLX5_BIT_SZ(typ, fld) - (MLX5_BIT_OFF(typ, fld) & 0x1f))
#define MLX5_PRM_MASK(typ, fld) \
	((uint32_t)((1ULL << MLX5_BIT_SZ(typ, fld)) - 1))

/** Read big-endian dword @p dw of buffer @p p (any alignment). */
static inline uint32_t
mlx5_prm_read32(const void *p, size_t dw)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)p + dw * 4, sizeof(v));
	return be32toh(v);
}

/** Write big-endian dword @p dw of buffer @p p (any alignment). */
static inline void
mlx5_prm_write32(void *p, size_t dw, uint32_t val)
{
	uint32_t v = htobe32(val);

	memcpy((uint8_t *)p + dw * 4, &v, sizeof(v));
}

/** Read big-endian qword @p qw of buffer @p p (any alignment). */
static inline uint64_t
mlx5_prm_read64(const void *p, size_t qw)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)p + qw * 8, sizeof(v));
	return be64toh(v);
}

/** Write big-endian qword @p qw of buffer @p p (any alignment). */
static inline void
mlx5_prm_write64(void *p, size_t qw, uint64_t val)
{
	uint64_t v = htobe64(val);

	memcpy((uint8_t *)p + qw * 8, &v, sizeof(v));
}

/**
 * Set field @p fld (at most 32 bits, within one dword) of buffer @p p,
 * layout @p typ, to @p v; bits of @p v beyond the field width are dropped.
 */
#define MLX5_SET(typ, p, fld, v) do { \
	_Static_assert(MLX5_BIT_SZ(typ, fld) <= 32, \
		       "MLX5_SET on a field wider than 32 bits"); \
	_Static_assert((MLX5_BIT_OFF(typ, fld) & 0x1f) + \
		       MLX5_BIT_SZ(typ, fld) <= 32, \
		       "MLX5_SET on a field crossing a dword"); \
	uint32_t mlx5_prm_m_ = MLX5_PRM_MASK(typ, fld); \
	uint32_t mlx5_prm_s_ = MLX5_PRM_DW_SHIFT(typ, fld); \
	uint32_t mlx5_prm_d_ = \
		mlx5_prm_read32((p), MLX5_PRM_DW_OFF(typ, fld)); \
	mlx5_prm_d_ &= ~(mlx5_prm_m_ << mlx5_prm_s_); \
	mlx5_prm_d_ |= ((uint32_t)(v) & mlx5_prm_m_) << mlx5_prm_s_; \
	mlx5_prm_write32((p), MLX5_PRM_DW_OFF(typ, fld), mlx5_prm_d_); \
} while (0)

/* Compile-time check usable in an expression: 0, or an error if !cond. */
#define MLX5_PRM_CHECK_ZERO(cond) (0 * sizeof(char[(cond) ? 1 : -1]))

/** Value of field @p fld (at most 32 bits) of buffer @p p, host order. */
#define MLX5_GET(typ, p, fld) \
	((uint32_t)((mlx5_prm_read32((p), MLX5_PRM_DW_OFF(typ, fld)) >> \
		     MLX5_PRM_DW_SHIFT(typ, fld)) & \
		    MLX5_PRM_MASK(typ, fld)) + \
	 (uint32_t)MLX5_PRM_CHECK_ZERO(MLX5_BIT_SZ(typ, fld) <= 32 && \
		(MLX5_BIT_OFF(typ, fld) & 0x1f) + MLX5_BIT_SZ(typ, fld) <= 32))

/** Set 64-bit, 64-bit-aligned field @p fld of buffer @p p to @p v. */
#define MLX5_SET64(typ, p, fld, v) do { \
	_Static_assert(MLX5_BIT_SZ(typ, fld) == 64, \
		       "MLX5_SET64 on a field that is not 64 bits"); \
	_Static_assert(MLX5_BIT_OFF(typ, fld) % 64 == 0, \
		       "MLX5_SET64 on a misaligned field"); \
	mlx5_prm_write64((p), MLX5_BIT_OFF(typ, fld) / 64, (uint64_t)(v)); \
} while (0)

/** Value of 64-bit, 64-bit-aligned field @p fld of buffer @p p. */
#define MLX5_GET64(typ, p, fld) \
	(mlx5_prm_read64((p), MLX5_BIT_OFF(typ, fld) / 64) + \
	 (uint64_t)MLX5_PRM_CHECK_ZERO(MLX5_BIT_SZ(typ, fld) == 64 && \
		MLX5_BIT_OFF(typ, fld) % 64 == 0))

/* Command opcodes (mbox_in.opcode). */
#define MLX5_CMD_OP_QUERY_HCA_CAP		0x100
#define MLX5_CMD_OP_CREATE_CQ			0x400
#define MLX5_CMD_OP_DESTROY_CQ			0x401
#define MLX5_CMD_OP_QUERY_CQ			0x402
#define MLX5_CMD_OP_MODIFY_CQ			0x403
#define MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT	0x754
#define MLX5_CMD_OP_QUERY_VPORT_COUNTER		0x770
#define MLX5_CMD_OP_CREATE_SCHEDULING_ELEMENT	0x782
#define MLX5_CMD_OP_DESTROY_SCHEDULING_ELEMENT	0x783
#define MLX5_CMD_OP_QUERY_SCHEDULING_ELEMENT	0x784
#define MLX5_CMD_OP_MODIFY_SCHEDULING_ELEMENT	0x785
#define MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN	0x816
#define MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN	0x817
#define MLX5_CMD_OP_CREATE_SQ			0x904
#define MLX5_CMD_OP_MODIFY_SQ			0x905
#define MLX5_CMD_OP_DESTROY_SQ			0x906
#define MLX5_CMD_OP_QUERY_SQ			0x907
#define MLX5_CMD_OP_CREATE_TIS			0x912
#define MLX5_CMD_OP_MODIFY_TIS			0x913
#define MLX5_CMD_OP_DESTROY_TIS			0x914
#define MLX5_CMD_OP_QUERY_TIS			0x915
#define MLX5_CMD_OP_CREATE_GENERAL_OBJECT	0xa00
#define MLX5_CMD_OP_MODIFY_GENERAL_OBJECT	0xa01
#define MLX5_CMD_OP_QUERY_GENERAL_OBJECT	0xa02
#define MLX5_CMD_OP_DESTROY_GENERAL_OBJECT	0xa03

/* general_obj_in_cmd_hdr.obj_type. */
#define MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT 0x26

/* Command status (mbox_out.status). */
#define MLX5_CMD_STAT_OK			0x0
#define MLX5_CMD_STAT_INT_ERR			0x1
#define MLX5_CMD_STAT_BAD_OP_ERR		0x2
#define MLX5_CMD_STAT_BAD_PARAM_ERR		0x3
#define MLX5_CMD_STAT_BAD_SYS_STATE_ERR		0x4
#define MLX5_CMD_STAT_BAD_RES_ERR		0x5
#define MLX5_CMD_STAT_RES_BUSY			0x6
#define MLX5_CMD_STAT_LIM_ERR			0x8
#define MLX5_CMD_STAT_BAD_RES_STATE_ERR		0x9
#define MLX5_CMD_STAT_IX_ERR			0xa
#define MLX5_CMD_STAT_NO_RES_ERR		0xf
#define MLX5_CMD_STAT_BAD_QP_STATE_ERR		0x10
#define MLX5_CMD_STAT_BAD_PKT_ERR		0x30
#define MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR	0x40
#define MLX5_CMD_STAT_BAD_INP_LEN_ERR		0x50
#define MLX5_CMD_STAT_BAD_OUTP_LEN_ERR		0x51

/* QUERY_HCA_CAP op_mod = (capability type << 1) | current. */
#define MLX5_HCA_CAP_OPMOD_GET_MAX		0x0
#define MLX5_HCA_CAP_OPMOD_GET_CUR		0x1
#define MLX5_CAP_GENERAL			0x0
#define MLX5_CAP_ETHERNET_OFFLOADS		0x1
#define MLX5_CAP_FLOW_TABLE			0x7
#define MLX5_CAP_QOS				0xc
/** op_mod of QUERY_HCA_CAP for capability type @p type. */
#define MLX5_HCA_CAP_OP_MOD(type, cur) (((type) << 1) | ((cur) & 1))
#define MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE \
	MLX5_HCA_CAP_OP_MOD(MLX5_CAP_GENERAL, MLX5_HCA_CAP_OPMOD_GET_CUR)
#define MLX5_GET_HCA_CAP_OP_MOD_ETHERNET_OFFLOAD_CAPS \
	MLX5_HCA_CAP_OP_MOD(MLX5_CAP_ETHERNET_OFFLOADS, \
			    MLX5_HCA_CAP_OPMOD_GET_CUR)
#define MLX5_GET_HCA_CAP_OP_MOD_QOS_CAP \
	MLX5_HCA_CAP_OP_MOD(MLX5_CAP_QOS, MLX5_HCA_CAP_OPMOD_GET_CUR)

/* cmd_hca_cap.port_type. */
#define MLX5_CAP_PORT_TYPE_IB			0x0
#define MLX5_CAP_PORT_TYPE_ETH			0x1

/* per_protocol_networking_offload_caps.wqe_inline_mode. */
#define MLX5_CAP_INLINE_MODE_L2			0x0
#define MLX5_CAP_INLINE_MODE_VPORT_CONTEXT	0x1
#define MLX5_CAP_INLINE_MODE_NOT_REQUIRED	0x2

/*
 * sqc.min_wqe_inline_mode and nic_vport_context.min_wqe_inline_mode:
 * how much of the packet header each WQE must carry inline.
 */
#define MLX5_INLINE_MODE_NONE			0x0
#define MLX5_INLINE_MODE_L2			0x1
#define MLX5_INLINE_MODE_IP			0x2
#define MLX5_INLINE_MODE_TCP_UDP		0x3

/* set_pp_rate_limit_context.rate_mode. */
#define MLX5_PP_RATE_MODE_DATA_RATE		0x0
#define MLX5_PP_RATE_MODE_WQE_RATE		0x1

/* sqc.state and modify_sq_in.sq_state. */
#define MLX5_SQC_STATE_RST			0x0
#define MLX5_SQC_STATE_RDY			0x1
#define MLX5_SQC_STATE_ERR			0x3

/* cmd_hca_cap.sq_ts_format: timestamp formats the device supports. */
#define MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR	0x0
#define MLX5_HCA_CAP_TIMESTAMP_FORMAT_RT	0x1
#define MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR_RT	0x2
/* sqc.ts_format. */
#define MLX5_SQC_TIMESTAMP_FORMAT_FREE_RUNNING	0x0
#define MLX5_SQC_TIMESTAMP_FORMAT_DEFAULT	0x1
#define MLX5_SQC_TIMESTAMP_FORMAT_REAL_TIME	0x2

/* modify_sq_in.modify_bitmask: which sqc fields MODIFY_SQ changes. */
#define MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX (1ULL << 0)
#define MLX5_MODIFY_SQ_BITMASK_QOS_QUEUE_GROUP_ID (1ULL << 2)

/* *_scheduling_element_in.scheduling_hierarchy. */
#define MLX5_SCHEDULING_HIERARCHY_E_SWITCH	0x2
#define MLX5_SCHEDULING_HIERARCHY_NIC		0x3

/* scheduling_context.element_type, and its bit in qos_cap.*_element_type. */
#define MLX5_SCHED_ELEM_TYPE_TSAR		0x0
#define MLX5_SCHED_ELEM_TYPE_VPORT		0x1
#define MLX5_SCHED_ELEM_TYPE_VPORT_TC		0x2
#define MLX5_SCHED_ELEM_TYPE_PARA_VPORT_TC	0x3
#define MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP	0x4
#define MLX5_SCHED_ELEM_TYPE_RATE_LIMIT		0x5
/** qos_cap.nic_element_type bit of element type @p t. */
#define MLX5_SCHED_ELEM_TYPE_CAP(t)		(1u << (t))

/* tsar_element.tsar_type, and its bit in qos_cap.*_tsar_type. */
#define MLX5_TSAR_TYPE_DWRR			0x0
#define MLX5_TSAR_TYPE_ROUND_ROBIN		0x1
#define MLX5_TSAR_TYPE_ETS			0x2
#define MLX5_TSAR_TYPE_TC_ARB			0x3
/** qos_cap.nic_tsar_type bit of TSAR type @p t. */
#define MLX5_TSAR_TYPE_CAP(t)			(1u << (t))

/*
 * modify_scheduling_element_in.modify_bitmask, and the same bits in
 * sched_elem.modify_field_select of the general object (rdma-core's
 * MLX5DV_SCHED_ELEM_ATTR_FLAGS_BW_SHARE and _MAX_AVG_BW).
 */
#define MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE		0x1u
#define MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW	0x2u

/* wq.wq_type. */
#define MLX5_WQ_TYPE_LINKED_LIST		0x0
#define MLX5_WQ_TYPE_CYCLIC			0x1

/* wq.end_padding_mode. */
#define MLX5_WQ_END_PAD_MODE_NONE		0x0
#define MLX5_WQ_END_PAD_MODE_ALIGN		0x1

/* cqc.cqe_sz. */
#define MLX5_CQE_SIZE_64B			0x0
#define MLX5_CQE_SIZE_128B			0x1

/* cqc.cq_period_mode. */
#define MLX5_CQ_PERIOD_MODE_START_FROM_EQE	0x0
#define MLX5_CQ_PERIOD_MODE_START_FROM_CQE	0x1

/* cqc.status. */
#define MLX5_CQC_STATUS_OK			0x0
#define MLX5_CQC_STATUS_CQ_OVERFLOW		0x9
#define MLX5_CQC_STATUS_CQ_WRITE_FAIL		0xa

/* modify_cq_in.modify_field_select. */
#define MLX5_CQ_MODIFY_PERIOD			(1u << 0)
#define MLX5_CQ_MODIFY_COUNT			(1u << 1)

/* modify_tis_in.bitmask (as a 64-bit value). */
#define MLX5_MODIFY_TIS_BITMASK_PRIO		(1ULL << 0)
#define MLX5_MODIFY_TIS_BITMASK_STRICT_LAG_TX_PORT_AFFINITY (1ULL << 1)
#define MLX5_MODIFY_TIS_BITMASK_LAG_TX_PORT_AFFINITY (1ULL << 2)

/* Layouts. */

struct mlx5_ifc_mbox_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_mbox_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_cmd_hca_cap_bits {
	u8 reserved_at_0[0x9b];
	u8 log_max_qp[0x5];
	u8 reserved_at_a0[0x28];
	u8 log_max_cq_sz[0x8];
	u8 reserved_at_d0[0xb];
	u8 log_max_cq[0x5];
	u8 log_max_eq_sz[0x8];
	u8 reserved_at_e8[0x14];
	u8 log_max_eq[0x4];
	u8 reserved_at_100[0xa3];
	u8 eth_virt[0x1];
	u8 reserved_at_1a4[0x12];
	u8 port_type[0x2];
	u8 num_ports[0x8];
	u8 reserved_at_1c0[0x3];
	u8 log_max_msg[0x5];
	u8 reserved_at_1c8[0x34];
	u8 cqe_version[0x4];
	u8 reserved_at_200[0x1b];
	u8 qos[0x1];
	u8 eth_net_offloads[0x1];
	u8 roce[0x1];
	u8 reserved_at_21e[0x4];
	u8 cq_moderation[0x1];
	u8 reserved_at_223[0x1d];
	u8 uar_4k[0x1];
	u8 reserved_at_241[0x9];
	u8 uar_sz[0x6];
	u8 reserved_at_250[0x1b];
	u8 log_bf_reg_size[0x5];
	u8 reserved_at_270[0x20];
	u8 max_wqe_sz_sq[0x10];
	u8 reserved_at_2a0[0x83];
	u8 log_max_transport_domain[0x5];
	u8 reserved_at_328[0x3];
	u8 log_max_pd[0x5];
	u8 reserved_at_330[0x33];
	u8 log_max_rq[0x5];
	u8 reserved_at_368[0x3];
	u8 log_max_sq[0x5];
	u8 reserved_at_370[0xb];
	u8 log_max_tis[0x5];
	u8 reserved_at_380[0x1b];
	u8 log_max_tis_per_sq[0x5];
	u8 reserved_at_3a0[0x3b];
	u8 log_max_wq_sz[0x5];
	u8 reserved_at_3e0[0x20];
	u8 general_obj_types[0x40];
	u8 sq_ts_format[0x2];
	u8 reserved_at_442[0x4e];
	u8 log_uar_page_sz[0x10];
	u8 reserved_at_4a0[0x20];
	u8 device_frequency_mhz[0x20];
	u8 device_frequency_khz[0x20];
	u8 reserved_at_500[0x20];
	u8 num_of_uars_per_page[0x20];
	u8 reserved_at_540[0x2c0];
};

struct mlx5_ifc_per_protocol_networking_offload_caps_bits {
	u8 csum_cap[0x1];
	u8 vlan_cap[0x1];
	u8 lro_cap[0x1];
	u8 reserved_at_3[0x4];
	u8 wqe_vlan_insert[0x1];
	u8 reserved_at_8[0x3];
	u8 max_lso_cap[0x5];
	u8 multi_pkt_send_wqe[0x2];
	u8 wqe_inline_mode[0x2];
	u8 rss_ind_tbl_cap[0x4];
	u8 reserved_at_18[0x2];
	u8 enhanced_multi_pkt_send_wqe[0x1];
	u8 reserved_at_1b[0x5];
	u8 swp[0x1];
	u8 swp_csum[0x1];
	u8 swp_lso[0x1];
	u8 reserved_at_23[0x7dd];
};

struct mlx5_ifc_qos_cap_bits {
	u8 packet_pacing[0x1];
	u8 esw_scheduling[0x1];
	u8 reserved_at_2[0x3];
	u8 packet_pacing_burst_bound[0x1];
	u8 packet_pacing_typical_size[0x1];
	u8 reserved_at_7[0x1];
	u8 nic_sq_scheduling[0x1];
	u8 nic_bw_share[0x1];
	u8 nic_rate_limit[0x1];
	u8 packet_pacing_uid[0x1];
	u8 reserved_at_c[0x14];
	u8 wqe_rate_pp[0x1];
	u8 reserved_at_21[0x3];
	u8 log_nic_max_sched_depth[0x4];
	u8 reserved_at_28[0x3];
	u8 log_max_qos_nic_queue_group[0x5];
	u8 reserved_at_30[0x10];
	u8 packet_pacing_max_rate[0x20];
	u8 packet_pacing_min_rate[0x20];
	u8 reserved_at_80[0x10];
	u8 packet_pacing_rate_table_size[0x10];
	u8 reserved_at_a0[0x40];
	u8 max_tsar_bw_share[0x20];
	u8 nic_element_type[0x10];
	u8 nic_tsar_type[0x10];
	u8 reserved_at_120[0x23];
	u8 log_max_qos_nic_scheduling_element[0x5];
	u8 reserved_at_148[0x6b8];
};

struct mlx5_ifc_set_pp_rate_limit_context_bits {
	u8 rate_limit[0x20];
	u8 burst_upper_bound[0x20];
	u8 reserved_at_40[0xc];
	u8 rate_mode[0x4];
	u8 typical_packet_size[0x10];
	u8 reserved_at_60[0x120];
};

union mlx5_ifc_hca_cap_union_bits {
	struct mlx5_ifc_cmd_hca_cap_bits cmd_hca_cap;
	struct mlx5_ifc_per_protocol_networking_offload_caps_bits
		per_protocol_networking_offload_caps;
	struct mlx5_ifc_qos_cap_bits qos_cap;
	u8 reserved_at_0[0x8000];
};

struct mlx5_ifc_query_hca_cap_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_function[0x1];
	u8 reserved_at_41[0xf];
	u8 function_id[0x10];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_hca_cap_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	union mlx5_ifc_hca_cap_union_bits capability;
};

struct mlx5_ifc_alloc_transport_domain_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_alloc_transport_domain_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x8];
	u8 transport_domain[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_dealloc_transport_domain_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 transport_domain[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_dealloc_transport_domain_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_tisc_bits {
	u8 strict_lag_tx_port_affinity[0x1];
	u8 tls_en[0x1];
	u8 reserved_at_2[0x2];
	u8 lag_tx_port_affinity[0x4];
	u8 reserved_at_8[0x4];
	u8 prio[0x4];
	u8 reserved_at_10[0x118];
	u8 transport_domain[0x18];
	u8 reserved_at_140[0x8];
	u8 underlay_qpn[0x18];
	u8 reserved_at_160[0x8];
	u8 pd[0x18];
	u8 reserved_at_180[0x380];
};

struct mlx5_ifc_create_tis_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_tisc_bits ctx;
};

struct mlx5_ifc_create_tis_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x8];
	u8 tisn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_modify_tis_bitmask_bits {
	u8 reserved_at_0[0x3d];
	u8 lag_tx_port_affinity[0x1];
	u8 strict_lag_tx_port_affinity[0x1];
	u8 prio[0x1];
};

struct mlx5_ifc_modify_tis_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 tisn[0x18];
	u8 reserved_at_60[0x20];
	struct mlx5_ifc_modify_tis_bitmask_bits bitmask;
	u8 reserved_at_c0[0x40];
	struct mlx5_ifc_tisc_bits ctx;
};

struct mlx5_ifc_modify_tis_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_destroy_tis_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 tisn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_destroy_tis_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_query_tis_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 tisn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_tis_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_tisc_bits tis_context;
};

struct mlx5_ifc_wq_bits {
	u8 wq_type[0x4];
	u8 wq_signature[0x1];
	u8 end_padding_mode[0x2];
	u8 cd_slave[0x1];
	u8 reserved_at_8[0x23];
	u8 page_offset[0x5];
	u8 lwm[0x10];
	u8 reserved_at_40[0x8];
	u8 pd[0x18];
	u8 reserved_at_60[0x8];
	u8 uar_page[0x18];
	u8 dbr_addr[0x40];
	u8 hw_counter[0x20];
	u8 sw_counter[0x20];
	u8 reserved_at_100[0xc];
	u8 log_wq_stride[0x4];
	u8 reserved_at_110[0x3];
	u8 log_wq_pg_sz[0x5];
	u8 reserved_at_118[0x3];
	u8 log_wq_sz[0x5];
	u8 dbr_umem_valid[0x1];
	u8 wq_umem_valid[0x1];
	u8 reserved_at_122[0x1e];
	u8 dbr_umem_id[0x20];
	u8 wq_umem_id[0x20];
	u8 wq_umem_offset[0x40];
	u8 reserved_at_1c0[0x440];
	u8 pas[][0x40];
};

struct mlx5_ifc_sqc_bits {
	u8 rlky[0x1];
	u8 cd_master[0x1];
	u8 fre[0x1];
	u8 flush_in_error_en[0x1];
	u8 allow_multi_pkt_send_wqe[0x1];
	u8 min_wqe_inline_mode[0x3];
	u8 state[0x4];
	u8 reg_umr[0x1];
	u8 allow_swp[0x1];
	u8 hairpin[0x1];
	u8 non_wire[0x1];
	u8 static_sq_wq[0x1];
	u8 reserved_at_11[0x9];
	u8 ts_format[0x2];
	u8 reserved_at_1c[0xc];
	u8 user_index[0x18];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x90];
	u8 packet_pacing_rate_limit_index[0x10];
	u8 tis_lst_sz[0x10];
	u8 qos_queue_group_id[0x10];
	u8 reserved_at_120[0x48];
	u8 tis_num_0[0x18];
	struct mlx5_ifc_wq_bits wq;
};

struct mlx5_ifc_create_sq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_sqc_bits ctx;
};

struct mlx5_ifc_create_sq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x8];
	u8 sqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_modify_sq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 sq_state[0x4];
	u8 reserved_at_44[0x4];
	u8 sqn[0x18];
	u8 reserved_at_60[0x20];
	u8 modify_bitmask[0x40];
	u8 reserved_at_c0[0x40];
	struct mlx5_ifc_sqc_bits ctx;
};

struct mlx5_ifc_modify_sq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_destroy_sq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 sqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_destroy_sq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_query_sq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 sqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_sq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_sqc_bits sq_context;
};

struct mlx5_ifc_cqc_bits {
	u8 status[0x4];
	u8 as_notify[0x1];
	u8 initiator_src_dct[0x1];
	u8 dbr_umem_valid[0x1];
	u8 reserved_at_7[0x1];
	u8 cqe_sz[0x3];
	u8 cc[0x1];
	u8 reserved_at_c[0x1];
	u8 scqe_break_moderation_en[0x1];
	u8 oi[0x1];
	u8 cq_period_mode[0x2];
	u8 cqe_comp_en[0x1];
	u8 mini_cqe_res_format[0x2];
	u8 st[0x4];
	u8 reserved_at_18[0x8];
	u8 dbr_umem_id[0x20];
	u8 reserved_at_40[0x14];
	u8 page_offset[0x6];
	u8 reserved_at_5a[0x4];
	u8 cq_timestamp_format[0x2];
	u8 reserved_at_60[0x3];
	u8 log_cq_size[0x5];
	u8 uar_page[0x18];
	u8 reserved_at_80[0x4];
	u8 cq_period[0xc];
	u8 cq_max_count[0x10];
	u8 reserved_at_a0[0x18];
	u8 c_eqn[0x8];
	u8 reserved_at_c0[0x3];
	u8 log_page_size[0x5];
	u8 reserved_at_c8[0x40];
	u8 last_notified_index[0x18];
	u8 reserved_at_120[0x8];
	u8 last_solicit_index[0x18];
	u8 reserved_at_140[0x8];
	u8 consumer_counter[0x18];
	u8 reserved_at_160[0x8];
	u8 producer_counter[0x18];
	u8 reserved_at_180[0x40];
	u8 dbr_addr[0x40];
};

struct mlx5_ifc_create_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_cqc_bits cq_context;
	u8 cq_umem_offset[0x40];
	u8 cq_umem_id[0x20];
	u8 cq_umem_valid[0x1];
	u8 reserved_at_2e1[0x59f];
	u8 pas[][0x40];
};

struct mlx5_ifc_create_cq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_destroy_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_destroy_cq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

struct mlx5_ifc_query_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_query_cq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_cqc_bits cq_context;
	u8 reserved_at_280[0x600];
	u8 pas[][0x40];
};

struct mlx5_ifc_modify_cq_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 reserved_at_40[0x8];
	u8 cqn[0x18];
	u8 modify_field_select[0x20];
	struct mlx5_ifc_cqc_bits cq_context;
	u8 reserved_at_280[0x60];
	u8 cq_umem_valid[0x1];
	u8 reserved_at_2e1[0x59f];
	u8 pas[][0x40];
};

struct mlx5_ifc_modify_cq_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
};

/*
 * NIC vport context: only min_wqe_inline_mode is named. The variable-length
 * current_uc_mac_address list that follows it in the PRM is left out.
 */
struct mlx5_ifc_nic_vport_context_bits {
	u8 reserved_at_0[0x5];
	u8 min_wqe_inline_mode[0x3];
	u8 reserved_at_8[0x7f8];
};

struct mlx5_ifc_query_nic_vport_context_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_vport[0x1];
	u8 reserved_at_41[0xf];
	u8 vport_number[0x10];
	u8 reserved_at_60[0x5];
	u8 allowed_list_type[0x3];
	u8 reserved_at_68[0x18];
};

struct mlx5_ifc_query_nic_vport_context_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_nic_vport_context_bits nic_vport_context;
};

/*
 * NIC scheduling elements (the transmit scheduling hierarchy). The command
 * headers name uid at 0x10 like every other command here; Linux names it
 * reserved_at_10 in these four layouts, and DEVX writes the uid there.
 */
struct mlx5_ifc_tsar_element_bits {
	u8 traffic_class[0x4];
	u8 reserved_at_4[0x4];
	u8 tsar_type[0x8];
	u8 reserved_at_10[0x10];
};

union mlx5_ifc_element_attributes_bits {
	struct mlx5_ifc_tsar_element_bits tsar;
	u8 reserved_at_0[0x20];
};

struct mlx5_ifc_scheduling_context_bits {
	u8 element_type[0x8];
	u8 reserved_at_8[0x18];
	union mlx5_ifc_element_attributes_bits element_attributes;
	u8 parent_element_id[0x20];
	u8 reserved_at_60[0x40];
	u8 bw_share[0x20];
	u8 max_average_bw[0x20];
	u8 reserved_at_e0[0x120];
};

struct mlx5_ifc_create_scheduling_element_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 scheduling_hierarchy[0x8];
	u8 reserved_at_48[0x18];
	u8 reserved_at_60[0xa0];
	struct mlx5_ifc_scheduling_context_bits scheduling_context;
	u8 reserved_at_300[0x100];
};

struct mlx5_ifc_create_scheduling_element_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	u8 scheduling_element_id[0x20];
	u8 reserved_at_a0[0x160];
};

struct mlx5_ifc_modify_scheduling_element_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 scheduling_hierarchy[0x8];
	u8 reserved_at_48[0x18];
	u8 scheduling_element_id[0x20];
	u8 reserved_at_80[0x20];
	u8 modify_bitmask[0x20];
	u8 reserved_at_c0[0x40];
	struct mlx5_ifc_scheduling_context_bits scheduling_context;
	u8 reserved_at_300[0x100];
};

struct mlx5_ifc_modify_scheduling_element_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x1c0];
};

struct mlx5_ifc_query_scheduling_element_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 scheduling_hierarchy[0x8];
	u8 reserved_at_48[0x18];
	u8 scheduling_element_id[0x20];
	u8 reserved_at_80[0x180];
};

/* Linux names the first dwords opcode/op_mod (an input header): a slip. */
struct mlx5_ifc_query_scheduling_element_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0xc0];
	struct mlx5_ifc_scheduling_context_bits scheduling_context;
	u8 reserved_at_300[0x100];
};

struct mlx5_ifc_destroy_scheduling_element_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 scheduling_hierarchy[0x8];
	u8 reserved_at_48[0x18];
	u8 scheduling_element_id[0x20];
	u8 reserved_at_80[0x180];
};

struct mlx5_ifc_destroy_scheduling_element_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x1c0];
};

/*
 * General objects (CREATE/MODIFY/QUERY/DESTROY_GENERAL_OBJECT): the
 * command headers, and the scheduling element as rdma-core's mlx5_ifc.h
 * lays it out (obj_type 0x26, the path libmlx5's mlx5dv_sched_node_* and
 * mlx5dv_sched_leaf_* take): the element's id is the object's obj_id.
 */
struct mlx5_ifc_general_obj_in_cmd_hdr_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 obj_type[0x10];
	u8 obj_id[0x20];
	u8 reserved_at_60[0x3];
	u8 log_obj_range[0x5];
	u8 reserved_at_68[0x18];
};

struct mlx5_ifc_general_obj_out_cmd_hdr_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 obj_id[0x20];
	u8 reserved_at_60[0x20];
};

struct mlx5_ifc_sched_elem_bits {
	u8 modify_field_select[0x40];
	u8 scheduling_hierarchy[0x8];
	u8 reserved_at_48[0x18];
	u8 reserved_at_60[0xa0];
	struct mlx5_ifc_scheduling_context_bits sched_context;
	u8 reserved_at_300[0x100];
};

/* CREATE_GENERAL_OBJECT and MODIFY_GENERAL_OBJECT of an element. */
struct mlx5_ifc_create_sched_elem_in_bits {
	struct mlx5_ifc_general_obj_in_cmd_hdr_bits hdr;
	struct mlx5_ifc_sched_elem_bits sched_elem;
};

struct mlx5_ifc_query_sched_elem_out_bits {
	struct mlx5_ifc_general_obj_out_cmd_hdr_bits hdr;
	struct mlx5_ifc_sched_elem_bits sched_elem;
};

/* QUERY_VPORT_COUNTER: the vport's traffic counters (DEVX general command). */
struct mlx5_ifc_traffic_counter_bits {
	u8 packets[0x40];
	u8 octets[0x40];
};

struct mlx5_ifc_query_vport_counter_in_bits {
	u8 opcode[0x10];
	u8 uid[0x10];
	u8 reserved_at_20[0x10];
	u8 op_mod[0x10];
	u8 other_vport[0x1];
	u8 reserved_at_41[0xb];
	u8 port_num[0x4];
	u8 vport_number[0x10];
	u8 reserved_at_60[0x60];
	u8 clear[0x1];
	u8 reserved_at_c1[0x1f];
	u8 reserved_at_e0[0x20];
};

struct mlx5_ifc_query_vport_counter_out_bits {
	u8 status[0x8];
	u8 reserved_at_8[0x18];
	u8 syndrome[0x20];
	u8 reserved_at_40[0x40];
	struct mlx5_ifc_traffic_counter_bits received_errors;
	struct mlx5_ifc_traffic_counter_bits transmit_errors;
	struct mlx5_ifc_traffic_counter_bits received_ib_unicast;
	struct mlx5_ifc_traffic_counter_bits transmitted_ib_unicast;
	struct mlx5_ifc_traffic_counter_bits received_ib_multicast;
	struct mlx5_ifc_traffic_counter_bits transmitted_ib_multicast;
	struct mlx5_ifc_traffic_counter_bits received_eth_broadcast;
	struct mlx5_ifc_traffic_counter_bits transmitted_eth_broadcast;
	struct mlx5_ifc_traffic_counter_bits received_eth_unicast;
	struct mlx5_ifc_traffic_counter_bits transmitted_eth_unicast;
	struct mlx5_ifc_traffic_counter_bits received_eth_multicast;
	struct mlx5_ifc_traffic_counter_bits transmitted_eth_multicast;
	u8 reserved_at_680[0xa00];
};

#ifdef __cplusplus
}
#endif

#endif /* MLX5_TM_PRM_H */
