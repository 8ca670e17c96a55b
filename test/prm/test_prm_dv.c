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

#include "test_prm_structs.h"

const struct prm_dv_fact prm_dv_facts[] = {
	PRM_DV_FACTS(mlx5_cqe64, mlx5_err_cqe, mlx5_wqe_ctrl_seg,
		     mlx5_wqe_eth_seg, mlx5_wqe_data_seg, mlx5_wqe_inl_data_seg)
};

const size_t prm_dv_facts_n = sizeof(prm_dv_facts) / sizeof(prm_dv_facts[0]);
