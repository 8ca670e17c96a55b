/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_caps_read.h"

/* Run QUERY_HCA_CAP for @p op_mod; the capability block lands in @p out. */
uint8_t
mlx5_tm_sq_ts_format(uint8_t cap)
{
	return cap == MLX5_HCA_CAP_TIMESTAMP_FORMAT_FR ?
	       MLX5_SQC_TIMESTAMP_FORMAT_FREE_RUNNING :
	       MLX5_SQC_TIMESTAMP_FORMAT_DEFAULT;
}

static int
query_cap(struct mlx5_tm_priv *priv, uint16_t op_mod, void *out,
	  size_t outlen)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)] = { 0 };
	int ret;

	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod, op_mod);
	memset(out, 0, outlen);
	ret = priv->glue->devx_general_cmd(priv->gdev, in, sizeof(in),
					   out, outlen);
	if (ret < 0)
		MLX5_TM_LOG(ERR,
			    "QUERY_HCA_CAP op_mod 0x%x failed: %s (status 0x%x syndrome 0x%x)",
			    op_mod, strerror(-ret),
			    MLX5_GET(query_hca_cap_out, out, status),
			    MLX5_GET(query_hca_cap_out, out, syndrome));
	return ret;
}

/*
 * Read the minimum inline mode of our own NIC vport
 * (QUERY_NIC_VPORT_CONTEXT), asked for when the device reports
 * wqe_inline_mode = vport context.
 */
static int
query_vport_inline(struct mlx5_tm_priv *priv, uint8_t *mode)
{
	uint32_t in[MLX5_ST_SZ_DW(query_nic_vport_context_in)] = { 0 };
	uint32_t out[MLX5_ST_SZ_DW(query_nic_vport_context_out)] = { 0 };
	int ret;

	MLX5_SET(query_nic_vport_context_in, in, opcode,
		 MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT);
	ret = priv->glue->devx_general_cmd(priv->gdev, in, sizeof(in),
					   out, sizeof(out));
	if (ret < 0) {
		MLX5_TM_LOG(ERR,
			    "QUERY_NIC_VPORT_CONTEXT failed: %s (status 0x%x syndrome 0x%x)",
			    strerror(-ret),
			    MLX5_GET(query_nic_vport_context_out, out, status),
			    MLX5_GET(query_nic_vport_context_out, out,
				     syndrome));
		return ret;
	}
	*mode = MLX5_GET(query_nic_vport_context_out, out,
			 nic_vport_context.min_wqe_inline_mode);
	if (*mode > MLX5_INLINE_MODE_TCP_UDP) {
		/* Inner-header modes: tunnels are not offloaded here. */
		MLX5_TM_PORT_LOG(ERR, priv->dev->data->port_id,
				 "vport min_wqe_inline_mode %u not supported",
				 *mode);
		return -ENOTSUP;
	}
	return 0;
}

int
mlx5_tm_caps_read(struct mlx5_tm_priv *priv, uint32_t default_line_rate)
{
	size_t outlen = MLX5_ST_SZ_BYTES(query_hca_cap_out);
	struct mlx5_tm_caps *c = &priv->caps;
	void *out, *cap;
	bool has_qos, has_eth;
	int ret;

	out = calloc(1, outlen);
	if (out == NULL)
		return -ENOMEM;
	cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	memset(c, 0, sizeof(*c));

	ret = query_cap(priv, MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE, out,
			outlen);
	if (ret < 0)
		goto out;
	if (MLX5_GET(cmd_hca_cap, cap, port_type) != MLX5_CAP_PORT_TYPE_ETH) {
		MLX5_TM_PORT_LOG(ERR, priv->dev->data->port_id,
				 "device %s is not an Ethernet port",
				 priv->dev_name);
		ret = -ENOTSUP;
		goto out;
	}
	c->general_obj_types = MLX5_GET64(cmd_hca_cap, cap,
					  general_obj_types);
	c->log_max_sq = MLX5_GET(cmd_hca_cap, cap, log_max_sq);
	c->log_max_cq = MLX5_GET(cmd_hca_cap, cap, log_max_cq);
	c->log_max_wq_sz = MLX5_GET(cmd_hca_cap, cap, log_max_wq_sz);
	c->log_max_cq_sz = MLX5_GET(cmd_hca_cap, cap, log_max_cq_sz);
	c->sq_ts_format_cap = MLX5_GET(cmd_hca_cap, cap, sq_ts_format);
	c->sq_ts_format = mlx5_tm_sq_ts_format(c->sq_ts_format_cap);
	c->device_frequency_khz = MLX5_GET(cmd_hca_cap, cap,
					   device_frequency_khz);
	has_qos = MLX5_GET(cmd_hca_cap, cap, qos);
	has_eth = MLX5_GET(cmd_hca_cap, cap, eth_net_offloads);

	c->wqe_inline_mode = MLX5_CAP_INLINE_MODE_L2;
	if (has_eth) {
		ret = query_cap(priv,
				MLX5_GET_HCA_CAP_OP_MOD_ETHERNET_OFFLOAD_CAPS,
				out, outlen);
		if (ret < 0)
			goto out;
		c->csum_cap = MLX5_GET(per_protocol_networking_offload_caps,
				       cap, csum_cap);
		c->vlan_cap = MLX5_GET(per_protocol_networking_offload_caps,
				       cap, wqe_vlan_insert);
		c->wqe_inline_mode =
			MLX5_GET(per_protocol_networking_offload_caps, cap,
				 wqe_inline_mode);
		c->mpw = MLX5_GET(per_protocol_networking_offload_caps, cap,
				  multi_pkt_send_wqe) != 0;
		c->empw = c->mpw &&
			  MLX5_GET(per_protocol_networking_offload_caps, cap,
				   enhanced_multi_pkt_send_wqe);
	}
	switch (c->wqe_inline_mode) {
	case MLX5_CAP_INLINE_MODE_L2:
		c->min_inline_mode = MLX5_INLINE_MODE_L2;
		break;
	case MLX5_CAP_INLINE_MODE_VPORT_CONTEXT:
		ret = query_vport_inline(priv, &c->min_inline_mode);
		if (ret < 0)
			goto out;
		break;
	default:
		c->min_inline_mode = MLX5_INLINE_MODE_NONE;
		break;
	}
	if (has_qos) {
		ret = query_cap(priv, MLX5_GET_HCA_CAP_OP_MOD_QOS_CAP, out,
				outlen);
		if (ret < 0)
			goto out;
		c->packet_pacing = MLX5_GET(qos_cap, cap, packet_pacing);
		c->packet_pacing_burst_bound =
			MLX5_GET(qos_cap, cap, packet_pacing_burst_bound);
		c->packet_pacing_typical_size =
			MLX5_GET(qos_cap, cap, packet_pacing_typical_size);
		c->wqe_rate_pp = MLX5_GET(qos_cap, cap, wqe_rate_pp);
		c->packet_pacing_max_rate =
			MLX5_GET(qos_cap, cap, packet_pacing_max_rate);
		c->packet_pacing_min_rate =
			MLX5_GET(qos_cap, cap, packet_pacing_min_rate);
		c->packet_pacing_rate_table_size =
			MLX5_GET(qos_cap, cap, packet_pacing_rate_table_size);
		c->packet_pacing_uid = MLX5_GET(qos_cap, cap,
						packet_pacing_uid);
		c->nic_sq_scheduling = MLX5_GET(qos_cap, cap,
						nic_sq_scheduling);
		c->nic_bw_share = MLX5_GET(qos_cap, cap, nic_bw_share);
		c->nic_rate_limit = MLX5_GET(qos_cap, cap, nic_rate_limit);
		c->log_max_qos_nic_queue_group =
			MLX5_GET(qos_cap, cap, log_max_qos_nic_queue_group);
		c->log_max_qos_nic_scheduling_element = MLX5_GET(qos_cap, cap,
				log_max_qos_nic_scheduling_element);
		c->max_tsar_bw_share = MLX5_GET(qos_cap, cap,
						max_tsar_bw_share);
		c->log_nic_max_sched_depth = MLX5_GET(qos_cap, cap,
						      log_nic_max_sched_depth);
		c->nic_element_type = MLX5_GET(qos_cap, cap, nic_element_type);
		c->nic_tsar_type = MLX5_GET(qos_cap, cap, nic_tsar_type);
		MLX5_TM_PORT_LOG(DEBUG, priv->dev->data->port_id,
				 "NIC scheduling: sq %u bw_share %u rate_limit %u max_tsar_bw_share %u queue groups 2^%u elements 2^%u depth 2^%u element types 0x%x TSAR types 0x%x general object types 0x%" PRIx64,
				 c->nic_sq_scheduling, c->nic_bw_share,
				 c->nic_rate_limit, c->max_tsar_bw_share,
				 c->log_max_qos_nic_queue_group,
				 c->log_max_qos_nic_scheduling_element,
				 c->log_nic_max_sched_depth,
				 c->nic_element_type, c->nic_tsar_type,
				 c->general_obj_types);
		if (c->packet_pacing && !c->packet_pacing_uid)
			MLX5_TM_PORT_LOG(WARNING, priv->dev->data->port_id,
					 "packet pacing without qos_cap.packet_pacing_uid: the kernel gives DEVX applications no pacing entries, no shaping on this port");
	}
	c->line_rate_mbps = default_line_rate;
	MLX5_TM_PORT_LOG(INFO, priv->dev->data->port_id,
			 "log_max_sq %u log_max_wq_sz %u log_max_cq_sz %u inline mode %u (min %u) csum %u vlan %u empw %u pacing %u [%u..%u kbps, %u entries%s%s%s] line %u Mbps",
			 c->log_max_sq, c->log_max_wq_sz, c->log_max_cq_sz,
			 c->wqe_inline_mode, c->min_inline_mode, c->csum_cap,
			 c->vlan_cap, c->empw, c->packet_pacing,
			 c->packet_pacing_min_rate, c->packet_pacing_max_rate,
			 c->packet_pacing_rate_table_size,
			 c->packet_pacing_burst_bound ? ", burst bound" : "",
			 c->packet_pacing_typical_size ? ", typical size" : "",
			 c->wqe_rate_pp ? ", WQE rate" : "", c->line_rate_mbps);
	ret = 0;
out:
	free(out);
	return ret;
}
