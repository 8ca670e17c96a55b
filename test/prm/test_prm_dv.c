/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * WQE/CQE offsets and constants taken from rdma-core's public header
 * <infiniband/mlx5dv.h>, in a unit of their own because that header
 * defines the same constant names as mlx5_tm_wqe.h.
 */

#include <stddef.h>

#include <infiniband/mlx5dv.h>

#include "test_prm_dv.h"

#define OFF(s, m) offsetof(struct s, m)

const struct prm_dv_fact prm_dv_facts[] = {
	{ "cqe64.srqn_uidx", OFF(mlx5_cqe64, srqn_uidx) },
	{ "cqe64.byte_cnt", OFF(mlx5_cqe64, byte_cnt) },
	{ "cqe64.timestamp", OFF(mlx5_cqe64, timestamp) },
	{ "cqe64.sop_drop_qpn", OFF(mlx5_cqe64, sop_drop_qpn) },
	{ "cqe64.wqe_counter", OFF(mlx5_cqe64, wqe_counter) },
	{ "cqe64.signature", OFF(mlx5_cqe64, signature) },
	{ "cqe64.op_own", OFF(mlx5_cqe64, op_own) },
	{ "cqe64.size", sizeof(struct mlx5_cqe64) },
	{ "err_cqe.srqn", OFF(mlx5_err_cqe, srqn) },
	{ "err_cqe.vendor_err_synd", OFF(mlx5_err_cqe, vendor_err_synd) },
	{ "err_cqe.syndrome", OFF(mlx5_err_cqe, syndrome) },
	{ "err_cqe.s_wqe_opcode_qpn", OFF(mlx5_err_cqe, s_wqe_opcode_qpn) },
	{ "err_cqe.wqe_counter", OFF(mlx5_err_cqe, wqe_counter) },
	{ "err_cqe.op_own", OFF(mlx5_err_cqe, op_own) },
	{ "err_cqe.size", sizeof(struct mlx5_err_cqe) },
	{ "ctrl.opmod_idx_opcode", OFF(mlx5_wqe_ctrl_seg, opmod_idx_opcode) },
	{ "ctrl.qpn_ds", OFF(mlx5_wqe_ctrl_seg, qpn_ds) },
	{ "ctrl.signature", OFF(mlx5_wqe_ctrl_seg, signature) },
	{ "ctrl.fm_ce_se", OFF(mlx5_wqe_ctrl_seg, fm_ce_se) },
	{ "ctrl.imm", OFF(mlx5_wqe_ctrl_seg, imm) },
	{ "ctrl.size", sizeof(struct mlx5_wqe_ctrl_seg) },
	{ "eth.cs_flags", OFF(mlx5_wqe_eth_seg, cs_flags) },
	{ "eth.mss", OFF(mlx5_wqe_eth_seg, mss) },
	{ "eth.inline_hdr_sz", OFF(mlx5_wqe_eth_seg, inline_hdr_sz) },
	{ "eth.inline_hdr_start", OFF(mlx5_wqe_eth_seg, inline_hdr_start) },
	{ "data.byte_count", OFF(mlx5_wqe_data_seg, byte_count) },
	{ "data.lkey", OFF(mlx5_wqe_data_seg, lkey) },
	{ "data.addr", OFF(mlx5_wqe_data_seg, addr) },
	{ "data.size", sizeof(struct mlx5_wqe_data_seg) },
	{ "inline.size", sizeof(struct mlx5_wqe_inl_data_seg) },
	{ "MLX5_SEND_WQE_BB", MLX5_SEND_WQE_BB },
	{ "MLX5_OPCODE_NOP", MLX5_OPCODE_NOP },
	{ "MLX5_OPCODE_SEND", MLX5_OPCODE_SEND },
	{ "MLX5_OPCODE_TSO", MLX5_OPCODE_TSO },
	{ "MLX5_WQE_CTRL_CQ_UPDATE", MLX5_WQE_CTRL_CQ_UPDATE },
	{ "MLX5_WQE_CTRL_SOLICITED", MLX5_WQE_CTRL_SOLICITED },
	{ "MLX5_WQE_CTRL_FENCE", MLX5_WQE_CTRL_FENCE },
	{ "MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE",
	  MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE },
	{ "MLX5_INLINE_SEG", MLX5_INLINE_SEG },
	{ "MLX5_ETH_WQE_L3_CSUM", MLX5_ETH_WQE_L3_CSUM },
	{ "MLX5_ETH_WQE_L4_CSUM", MLX5_ETH_WQE_L4_CSUM },
	{ "MLX5_CQE_OWNER_MASK", MLX5_CQE_OWNER_MASK },
	{ "MLX5_CQE_REQ", MLX5_CQE_REQ },
	{ "MLX5_CQE_RESP_WR_IMM", MLX5_CQE_RESP_WR_IMM },
	{ "MLX5_CQE_RESP_SEND", MLX5_CQE_RESP_SEND },
	{ "MLX5_CQE_REQ_ERR", MLX5_CQE_REQ_ERR },
	{ "MLX5_CQE_RESP_ERR", MLX5_CQE_RESP_ERR },
	{ "MLX5_CQE_INVALID", MLX5_CQE_INVALID },
	{ "MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR",
	  MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
	{ "MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR",
	  MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
	{ "MLX5_CQE_SYNDROME_LOCAL_PROT_ERR", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
	{ "MLX5_CQE_SYNDROME_WR_FLUSH_ERR", MLX5_CQE_SYNDROME_WR_FLUSH_ERR },
	{ "MLX5_CQE_SYNDROME_MW_BIND_ERR", MLX5_CQE_SYNDROME_MW_BIND_ERR },
	{ "MLX5_CQE_SYNDROME_BAD_RESP_ERR", MLX5_CQE_SYNDROME_BAD_RESP_ERR },
	{ "MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR",
	  MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR },
	{ "MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR",
	  MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR },
	{ "MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR",
	  MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR },
	{ "MLX5_CQE_SYNDROME_REMOTE_OP_ERR", MLX5_CQE_SYNDROME_REMOTE_OP_ERR },
	{ "MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR",
	  MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR },
	{ "MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR",
	  MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR },
	{ "MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR",
	  MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR },
};

const size_t prm_dv_facts_n = sizeof(prm_dv_facts) / sizeof(prm_dv_facts[0]);
