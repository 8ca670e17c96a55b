/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_WQE_H
#define MLX5_TM_WQE_H

/**
 * @file
 * Send-queue work queue entries (WQEs) and completion queue entries (CQEs)
 * of ConnectX devices, in two forms describing the same bytes:
 *
 * - struct mlx5_ifc_<name>_bits layouts (see mlx5_tm_prm.h), for code that
 *   decodes fields with MLX5_GET(), such as the device model;
 * - plain C structures (struct mlx5_tm_wqe_*, struct mlx5_tm_*cqe64) for the
 *   datapath. Every multi-byte member holds a big-endian value: convert with
 *   htobe32()/be32toh() (or rte_cpu_to_be_32() in DPDK code).
 *
 * Static assertions below tie each C member to its layout field.
 *
 * Do not include together with <infiniband/mlx5dv.h>, which defines some of
 * the same constant names (with the same values).
 */

#include <stdint.h>

#include "mlx5_tm_prm.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Size of a WQE basic block (WQEBB); WQE ring slots have this size. */
#define MLX5_SEND_WQE_BB		64
/** log2 of MLX5_SEND_WQE_BB, for sqc.wq.log_wq_stride. */
#define MLX5_SEND_WQE_SHIFT		6
/** WQE segments are counted (qpn_ds.ds) in units of 16 bytes. */
#define MLX5_WQE_DS_UNITS		16
/** Segment units per WQEBB. */
#define MLX5_WQE_DS_PER_WQEBB	(MLX5_SEND_WQE_BB / MLX5_WQE_DS_UNITS)
/** Largest ds count a control segment can carry (6 bits). */
#define MLX5_WQE_CTRL_DS_MASK		0x3f

/* Control segment opcode (low byte of opmod_idx_opcode). */
#define MLX5_OPCODE_NOP			0x00
#define MLX5_OPCODE_SEND		0x0a
#define MLX5_OPCODE_TSO			0x0e
/**
 * Enhanced multi-packet send (eMPW): one Ethernet segment, then one data
 * or inline data segment per packet.
 */
#define MLX5_OPCODE_ENHANCED_MPSW	0x29

/* Control segment fm_ce_se byte: fence mode 7:5, CQ update 3:2, SE 1. */
#define MLX5_WQE_CTRL_SOLICITED		(1 << 1)
#define MLX5_WQE_CTRL_CQ_UPDATE		(2 << 2)
#define MLX5_WQE_CTRL_CQ_UPDATE_AND_EQE	(3 << 2)
#define MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE (1 << 5)
#define MLX5_WQE_CTRL_FENCE		(4 << 5)

/* Ethernet segment cs_flags. */
#define MLX5_ETH_WQE_L3_CSUM		(1 << 6)
#define MLX5_ETH_WQE_L4_CSUM		(1 << 7)

/**
 * VLAN insertion, as the 16-bit big-endian "insert type" at byte 12 of the
 * Ethernet segment (where inline_hdr_sz is); the TCI follows at byte 14.
 * Exclusive with an inline header.
 */
#define MLX5_ETH_WQE_INSERT_VLAN	(1u << 15)
/** The same flag seen as the 32-bit big-endian word at byte 12. */
#define MLX5_ETH_WQE_VLAN_INSERT	(1u << 31)

/** Inline data segment: flag in byte_count (the rest is the length). */
#define MLX5_INLINE_SEG			0x80000000u

/** Minimum inline header for L2 inline mode: Ethernet + one VLAN tag. */
#define MLX5_ESEG_MIN_INLINE_SIZE	18

/* Doorbell records: 32-bit big-endian words, indexes into the record. */
#define MLX5_RCV_DBR			0 /**< RQ producer counter. */
#define MLX5_SND_DBR			1 /**< SQ producer counter. */
#define MLX5_CQ_SET_CI			0 /**< CQ consumer index, 24 bits. */
#define MLX5_CQ_ARM_DB			1 /**< CQ arm word. */

/** Offset of the BlueFlame/doorbell register within a UAR page. */
#define MLX5_BF_OFFSET			0x800

/* CQE op_own byte: opcode 7:4, CQE format 3:2, SE 1, owner 0. */
#define MLX5_CQE_OWNER_MASK		0x1
#define MLX5_CQE_OPCODE(op_own)		((op_own) >> 4)
#define MLX5_CQE_FORMAT(op_own)		(((op_own) >> 2) & 0x3)
#define MLX5_CQE_OWNER(op_own)		((op_own) & MLX5_CQE_OWNER_MASK)

/* CQE opcodes. */
#define MLX5_CQE_REQ			0x0
#define MLX5_CQE_RESP_WR_IMM		0x1
#define MLX5_CQE_RESP_SEND		0x2
#define MLX5_CQE_REQ_ERR		0xd
#define MLX5_CQE_RESP_ERR		0xe
#define MLX5_CQE_INVALID		0xf

/* Error CQE syndromes (err_cqe64.syndrome). */
#define MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR	0x01
#define MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR	0x02
#define MLX5_CQE_SYNDROME_LOCAL_PROT_ERR	0x04
#define MLX5_CQE_SYNDROME_WR_FLUSH_ERR		0x05
#define MLX5_CQE_SYNDROME_MW_BIND_ERR		0x06
#define MLX5_CQE_SYNDROME_BAD_RESP_ERR		0x10
#define MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR	0x11
#define MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR	0x12
#define MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR	0x13
#define MLX5_CQE_SYNDROME_REMOTE_OP_ERR		0x14
#define MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR 0x15
#define MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR	0x16
#define MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR	0x22

/* Layouts (bit offsets), for MLX5_GET()/MLX5_SET(). */

struct mlx5_ifc_wqe_ctrl_seg_bits {
	u8 opc_mod[0x8];
	u8 wqe_index[0x10];
	u8 opcode[0x8];
	u8 qpn_or_sqn[0x18];
	u8 ds[0x8];
	u8 signature[0x8];
	u8 reserved_at_48[0x10];
	u8 fence[0x3];
	u8 reserved_at_5b[0x1];
	u8 ce[0x2];
	u8 se[0x1];
	u8 reserved_at_5f[0x1];
	u8 imm[0x20];
};

struct mlx5_ifc_wqe_eth_seg_bits {
	u8 swp_outer_l4_offset[0x8];
	u8 swp_outer_l3_offset[0x8];
	u8 swp_inner_l4_offset[0x8];
	u8 swp_inner_l3_offset[0x8];
	u8 cs_flags[0x8];
	u8 swp_flags[0x8];
	u8 mss[0x10];
	u8 flow_table_metadata[0x20];
	u8 inline_hdr_sz[0x10];
	u8 inline_hdr_start[0x10];
};

/* The same segment when it inserts a VLAN tag instead of an inline header. */
struct mlx5_ifc_wqe_eth_seg_vlan_bits {
	u8 reserved_at_0[0x60];
	u8 insert_type[0x10];
	u8 vlan_tci[0x10];
};

struct mlx5_ifc_wqe_data_seg_bits {
	u8 byte_count[0x20];
	u8 lkey[0x20];
	u8 addr[0x40];
};

struct mlx5_ifc_wqe_inline_seg_bits {
	u8 inl[0x1];
	u8 byte_count[0x1f];
};

struct mlx5_ifc_cqe64_bits {
	u8 reserved_at_0[0x100];
	u8 srqn_uidx[0x20];
	u8 imm_inval_pkey[0x20];
	u8 app[0x8];
	u8 app_op[0x8];
	u8 app_info[0x10];
	u8 byte_cnt[0x20];
	u8 timestamp[0x40];
	u8 sop_drop[0x8];
	u8 qpn[0x18];
	u8 wqe_counter[0x10];
	u8 signature[0x8];
	u8 opcode[0x4];
	u8 cqe_format[0x2];
	u8 se[0x1];
	u8 owner[0x1];
};

struct mlx5_ifc_err_cqe64_bits {
	u8 reserved_at_0[0x100];
	u8 srqn[0x20];
	u8 reserved_at_120[0x80];
	u8 hw_error_syndrome[0x8];
	u8 hw_syndrome_type[0x8];
	u8 vendor_err_synd[0x8];
	u8 syndrome[0x8];
	u8 s_wqe_opcode[0x8];
	u8 qpn[0x18];
	u8 wqe_counter[0x10];
	u8 signature[0x8];
	u8 opcode[0x4];
	u8 cqe_format[0x2];
	u8 se[0x1];
	u8 owner[0x1];
};

/* Datapath structures; multi-byte members are big-endian. */

/** Control segment: first 16 bytes of every WQE. */
struct mlx5_tm_wqe_ctrl_seg {
	/** opc_mod 31:24, wqe_index 23:8, opcode 7:0. */
	uint32_t opmod_idx_opcode;
	/** SQ number 31:8, WQE size in 16-byte units 5:0. */
	uint32_t qpn_ds;
	uint8_t signature;
	uint8_t rsvd[2];
	uint8_t fm_ce_se;          /**< MLX5_WQE_CTRL_* flags. */
	uint32_t imm;
};

/** Ethernet segment: offloads and the start of the inline header. */
struct mlx5_tm_wqe_eth_seg {
	uint8_t swp_outer_l4_offset;
	uint8_t swp_outer_l3_offset;
	uint8_t swp_inner_l4_offset;
	uint8_t swp_inner_l3_offset;
	uint8_t cs_flags;          /**< MLX5_ETH_WQE_L3_CSUM/L4_CSUM. */
	uint8_t swp_flags;
	uint16_t mss;
	uint32_t flow_table_metadata;
	union {
		struct {
			uint16_t inline_hdr_sz; /**< Bytes of inline header. */
			uint8_t inline_hdr_start[2]; /**< Its first 2 bytes. */
		};
		struct {
			uint16_t insert_type; /**< MLX5_ETH_WQE_INSERT_VLAN. */
			uint16_t vlan_tci;
		};
		uint32_t inline_hdr_word; /**< Whole word, big-endian. */
	};
};

/** Data pointer segment (gather entry). */
struct mlx5_tm_wqe_data_seg {
	uint32_t byte_count;
	uint32_t lkey;
	uint64_t addr;
};

/** Inline data segment header; the data follows it. */
struct mlx5_tm_wqe_inline_seg {
	uint32_t byte_count; /**< MLX5_INLINE_SEG | length. */
};

/** A WQE basic block. */
struct mlx5_tm_wqebb {
	uint8_t bytes[MLX5_SEND_WQE_BB];
} __attribute__((aligned(MLX5_SEND_WQE_BB)));

/** A 64-byte completion queue entry (requester view). */
struct mlx5_tm_cqe64 {
	uint8_t rsvd0[32];
	uint32_t srqn_uidx;
	uint32_t imm_inval_pkey;
	uint8_t app;
	uint8_t app_op;
	uint16_t app_info;
	uint32_t byte_cnt;
	uint64_t timestamp;
	uint32_t sop_drop_qpn;
	uint16_t wqe_counter; /**< Index of the last completed WQE. */
	uint8_t signature;
	uint8_t op_own;       /**< Opcode 7:4, format 3:2, owner bit 0. */
};

/** A 64-byte error CQE (opcode MLX5_CQE_REQ_ERR or RESP_ERR). */
struct mlx5_tm_err_cqe64 {
	uint8_t rsvd0[32];
	uint32_t srqn;
	uint8_t rsvd1[16];
	uint8_t hw_error_syndrome;
	uint8_t hw_syndrome_type;
	uint8_t vendor_err_synd;
	uint8_t syndrome;     /**< MLX5_CQE_SYNDROME_*. */
	uint32_t s_wqe_opcode_qpn;
	uint16_t wqe_counter; /**< Index of the failed WQE. */
	uint8_t signature;
	uint8_t op_own;
};

/** Host-order value of the control segment's first word. */
static inline uint32_t
mlx5_tm_wqe_opmod_idx_opcode(uint8_t opmod, uint16_t wqe_index, uint8_t opcode)
{
	return ((uint32_t)opmod << 24) | ((uint32_t)wqe_index << 8) | opcode;
}

/** Host-order value of the control segment's second word. */
static inline uint32_t
mlx5_tm_wqe_qpn_ds(uint32_t sqn, uint8_t ds)
{
	return (sqn << 8) | (ds & MLX5_WQE_CTRL_DS_MASK);
}

/* Each C member at the byte offset of its layout field, same size. */
#define MLX5_TM_WQE_ASSERT_AT(cstruct, member, typ, fld) \
	_Static_assert(offsetof(struct cstruct, member) * 8 == \
		       MLX5_BIT_OFF(typ, fld), \
		       #cstruct "." #member " offset")
#define MLX5_TM_WQE_ASSERT_SZ(cstruct, typ) \
	_Static_assert(sizeof(struct cstruct) == MLX5_ST_SZ_BYTES(typ), \
		       #cstruct " size")

MLX5_TM_WQE_ASSERT_SZ(mlx5_tm_wqe_ctrl_seg, wqe_ctrl_seg);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_ctrl_seg, opmod_idx_opcode, wqe_ctrl_seg,
		      opc_mod);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_ctrl_seg, qpn_ds, wqe_ctrl_seg, qpn_or_sqn);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_ctrl_seg, signature, wqe_ctrl_seg,
		      signature);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_ctrl_seg, fm_ce_se, wqe_ctrl_seg, fence);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_ctrl_seg, imm, wqe_ctrl_seg, imm);

MLX5_TM_WQE_ASSERT_SZ(mlx5_tm_wqe_eth_seg, wqe_eth_seg);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, swp_outer_l4_offset, wqe_eth_seg,
		      swp_outer_l4_offset);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, swp_inner_l3_offset, wqe_eth_seg,
		      swp_inner_l3_offset);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, cs_flags, wqe_eth_seg, cs_flags);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, swp_flags, wqe_eth_seg, swp_flags);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, mss, wqe_eth_seg, mss);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, flow_table_metadata, wqe_eth_seg,
		      flow_table_metadata);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, inline_hdr_sz, wqe_eth_seg,
		      inline_hdr_sz);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, inline_hdr_start, wqe_eth_seg,
		      inline_hdr_start);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, insert_type, wqe_eth_seg_vlan,
		      insert_type);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_eth_seg, vlan_tci, wqe_eth_seg_vlan,
		      vlan_tci);

MLX5_TM_WQE_ASSERT_SZ(mlx5_tm_wqe_data_seg, wqe_data_seg);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_data_seg, byte_count, wqe_data_seg,
		      byte_count);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_data_seg, lkey, wqe_data_seg, lkey);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_wqe_data_seg, addr, wqe_data_seg, addr);

MLX5_TM_WQE_ASSERT_SZ(mlx5_tm_wqe_inline_seg, wqe_inline_seg);

MLX5_TM_WQE_ASSERT_SZ(mlx5_tm_cqe64, cqe64);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_cqe64, srqn_uidx, cqe64, srqn_uidx);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_cqe64, byte_cnt, cqe64, byte_cnt);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_cqe64, timestamp, cqe64, timestamp);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_cqe64, sop_drop_qpn, cqe64, sop_drop);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_cqe64, wqe_counter, cqe64, wqe_counter);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_cqe64, signature, cqe64, signature);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_cqe64, op_own, cqe64, opcode);

MLX5_TM_WQE_ASSERT_SZ(mlx5_tm_err_cqe64, err_cqe64);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_err_cqe64, srqn, err_cqe64, srqn);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_err_cqe64, hw_error_syndrome, err_cqe64,
		      hw_error_syndrome);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_err_cqe64, vendor_err_synd, err_cqe64,
		      vendor_err_synd);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_err_cqe64, syndrome, err_cqe64, syndrome);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_err_cqe64, s_wqe_opcode_qpn, err_cqe64,
		      s_wqe_opcode);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_err_cqe64, wqe_counter, err_cqe64,
		      wqe_counter);
MLX5_TM_WQE_ASSERT_AT(mlx5_tm_err_cqe64, op_own, err_cqe64, opcode);

_Static_assert(sizeof(struct mlx5_tm_wqebb) == MLX5_SEND_WQE_BB,
	       "WQEBB size");
_Static_assert((1 << MLX5_SEND_WQE_SHIFT) == MLX5_SEND_WQE_BB,
	       "WQEBB shift");

#ifdef __cplusplus
}
#endif

#endif /* MLX5_TM_WQE_H */
