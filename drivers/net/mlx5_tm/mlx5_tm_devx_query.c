/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <string.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devx.h"
#include "mlx5_tm_devx_query.h"
#include "rte_pmd_mlx5_tm.h"

int
mlx5_tm_devx_sq_query(struct mlx5_tm_priv *priv, struct mlx5_tm_devx_obj *sq,
		      uint32_t sqn, struct rte_pmd_mlx5_tm_sq_info *info)
{
	uint32_t in[MLX5_ST_SZ_DW(query_sq_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_sq_out)] = { 0 };
	const void *sqc = MLX5_ADDR_OF(query_sq_out, out, sq_context);
	const void *wq = MLX5_ADDR_OF(sqc, sqc, wq);
	int ret;

	MLX5_SET(query_sq_in, in, opcode, MLX5_CMD_OP_QUERY_SQ);
	MLX5_SET(query_sq_in, in, sqn, sqn);
	ret = priv->glue->devx_obj_query(sq, in, sizeof(in), out, sizeof(out));
	if (ret < 0) {
		mlx5_tm_devx_log_error("QUERY_SQ", out, -ret);
		return ret;
	}
	memset(info, 0, sizeof(*info));
	info->sqn = sqn;
	info->state = MLX5_GET(sqc, sqc, state);
	info->pp_index = MLX5_GET(sqc, sqc, packet_pacing_rate_limit_index);
	info->qos_queue_group_id = MLX5_GET(sqc, sqc, qos_queue_group_id);
	info->cqn = MLX5_GET(sqc, sqc, cqn);
	info->tisn = MLX5_GET(sqc, sqc, tis_num_0);
	info->ts_format = MLX5_GET(sqc, sqc, ts_format);
	info->min_wqe_inline_mode = MLX5_GET(sqc, sqc, min_wqe_inline_mode);
	info->user_index = MLX5_GET(sqc, sqc, user_index);
	info->log_wq_sz = MLX5_GET(wq, wq, log_wq_sz);
	info->hw_counter = MLX5_GET(wq, wq, hw_counter);
	info->sw_counter = MLX5_GET(wq, wq, sw_counter);
	return 0;
}

int
mlx5_tm_devx_sq_state(struct mlx5_tm_priv *priv, struct mlx5_tm_devx_obj *sq,
		      uint32_t sqn)
{
	struct rte_pmd_mlx5_tm_sq_info info;
	int ret = mlx5_tm_devx_sq_query(priv, sq, sqn, &info);

	return ret < 0 ? ret : info.state;
}

/* Packets and octets of the traffic counter at bit @p off of @p out. */
static void
traffic_counter(const void *out, size_t off, uint64_t *packets,
		uint64_t *octets)
{
	const uint8_t *c = (const uint8_t *)out + off / 8;

	*packets = MLX5_GET64(traffic_counter, c, packets);
	*octets = MLX5_GET64(traffic_counter, c, octets);
}

int
mlx5_tm_devx_vport_tx(struct mlx5_tm_priv *priv,
		      struct rte_pmd_mlx5_tm_vport_tx *tx)
{
	uint32_t in[MLX5_ST_SZ_DW(query_vport_counter_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_vport_counter_out)] = { 0 };
	int ret;

	MLX5_SET(query_vport_counter_in, in, opcode,
		 MLX5_CMD_OP_QUERY_VPORT_COUNTER);
	ret = priv->glue->devx_general_cmd(priv->gdev, in, sizeof(in), out,
					   sizeof(out));
	if (ret < 0) {
		mlx5_tm_devx_log_error("QUERY_VPORT_COUNTER", out, -ret);
		return ret;
	}
	memset(tx, 0, sizeof(*tx));
	traffic_counter(out, MLX5_BIT_OFF(query_vport_counter_out,
					  transmitted_eth_unicast),
			&tx->unicast_packets, &tx->unicast_octets);
	traffic_counter(out, MLX5_BIT_OFF(query_vport_counter_out,
					  transmitted_eth_multicast),
			&tx->multicast_packets, &tx->multicast_octets);
	traffic_counter(out, MLX5_BIT_OFF(query_vport_counter_out,
					  transmitted_eth_broadcast),
			&tx->broadcast_packets, &tx->broadcast_octets);
	traffic_counter(out, MLX5_BIT_OFF(query_vport_counter_out,
					  transmit_errors),
			&tx->error_packets, &tx->error_octets);
	return 0;
}
