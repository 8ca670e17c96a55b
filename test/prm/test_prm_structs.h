/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TEST_PRM_STRUCTS_H
#define TEST_PRM_STRUCTS_H

/*
 * The WQE/CQE facts compared between mlx5_tm_wqe.h and rdma-core's
 * <infiniband/mlx5dv.h>, listed once. The two headers cannot share a unit
 * (they define the same constant names), so each unit expands this list
 * with its own struct names; the constants resolve to whichever header
 * the unit includes. This header includes neither.
 */

#include <stddef.h>

#include "test_prm_dv.h"

/* One struct prm_dv_fact initializer per kind of fact. */
#define PRM_DV_FIELD(name, s, m) { name, offsetof(struct s, m) },
#define PRM_DV_SIZE(name, s) { name, sizeof(struct s) },
#define PRM_DV_CONST(c) { #c, (c) },

/*
 * Initializers of every fact, given the unit's names of the CQE, error
 * CQE, control, Ethernet, data and inline segment structs.
 */
#define PRM_DV_FACTS(CQE, ERR_CQE, CTRL, ETH, DATA, INL) \
	PRM_DV_FIELD("cqe64.srqn_uidx", CQE, srqn_uidx) \
	PRM_DV_FIELD("cqe64.byte_cnt", CQE, byte_cnt) \
	PRM_DV_FIELD("cqe64.timestamp", CQE, timestamp) \
	PRM_DV_FIELD("cqe64.sop_drop_qpn", CQE, sop_drop_qpn) \
	PRM_DV_FIELD("cqe64.wqe_counter", CQE, wqe_counter) \
	PRM_DV_FIELD("cqe64.signature", CQE, signature) \
	PRM_DV_FIELD("cqe64.op_own", CQE, op_own) \
	PRM_DV_SIZE("cqe64.size", CQE) \
	PRM_DV_FIELD("err_cqe.srqn", ERR_CQE, srqn) \
	PRM_DV_FIELD("err_cqe.vendor_err_synd", ERR_CQE, vendor_err_synd) \
	PRM_DV_FIELD("err_cqe.syndrome", ERR_CQE, syndrome) \
	PRM_DV_FIELD("err_cqe.s_wqe_opcode_qpn", ERR_CQE, s_wqe_opcode_qpn) \
	PRM_DV_FIELD("err_cqe.wqe_counter", ERR_CQE, wqe_counter) \
	PRM_DV_FIELD("err_cqe.op_own", ERR_CQE, op_own) \
	PRM_DV_SIZE("err_cqe.size", ERR_CQE) \
	PRM_DV_FIELD("ctrl.opmod_idx_opcode", CTRL, opmod_idx_opcode) \
	PRM_DV_FIELD("ctrl.qpn_ds", CTRL, qpn_ds) \
	PRM_DV_FIELD("ctrl.signature", CTRL, signature) \
	PRM_DV_FIELD("ctrl.fm_ce_se", CTRL, fm_ce_se) \
	PRM_DV_FIELD("ctrl.imm", CTRL, imm) \
	PRM_DV_SIZE("ctrl.size", CTRL) \
	PRM_DV_FIELD("eth.cs_flags", ETH, cs_flags) \
	PRM_DV_FIELD("eth.mss", ETH, mss) \
	PRM_DV_FIELD("eth.inline_hdr_sz", ETH, inline_hdr_sz) \
	PRM_DV_FIELD("eth.inline_hdr_start", ETH, inline_hdr_start) \
	PRM_DV_FIELD("data.byte_count", DATA, byte_count) \
	PRM_DV_FIELD("data.lkey", DATA, lkey) \
	PRM_DV_FIELD("data.addr", DATA, addr) \
	PRM_DV_SIZE("data.size", DATA) \
	PRM_DV_SIZE("inline.size", INL) \
	PRM_DV_CONST(MLX5_SEND_WQE_BB) \
	PRM_DV_CONST(MLX5_OPCODE_NOP) \
	PRM_DV_CONST(MLX5_OPCODE_SEND) \
	PRM_DV_CONST(MLX5_OPCODE_TSO) \
	PRM_DV_CONST(MLX5_WQE_CTRL_CQ_UPDATE) \
	PRM_DV_CONST(MLX5_WQE_CTRL_SOLICITED) \
	PRM_DV_CONST(MLX5_WQE_CTRL_FENCE) \
	PRM_DV_CONST(MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE) \
	PRM_DV_CONST(MLX5_INLINE_SEG) \
	PRM_DV_CONST(MLX5_ETH_WQE_L3_CSUM) \
	PRM_DV_CONST(MLX5_ETH_WQE_L4_CSUM) \
	PRM_DV_CONST(MLX5_CQE_OWNER_MASK) \
	PRM_DV_CONST(MLX5_CQE_REQ) \
	PRM_DV_CONST(MLX5_CQE_RESP_WR_IMM) \
	PRM_DV_CONST(MLX5_CQE_RESP_SEND) \
	PRM_DV_CONST(MLX5_CQE_REQ_ERR) \
	PRM_DV_CONST(MLX5_CQE_RESP_ERR) \
	PRM_DV_CONST(MLX5_CQE_INVALID) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_LOCAL_PROT_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_WR_FLUSH_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_MW_BIND_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_BAD_RESP_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_REMOTE_OP_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR) \
	PRM_DV_CONST(MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR)

#endif /* TEST_PRM_STRUCTS_H */
