/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Firmware command interpreter: decodes PRM command buffers and answers
 * like firmware, with a PRM status and a syndrome in the output header.
 *
 * Status conventions (doc/guides/device_model.rst):
 *   unknown opcode                       BAD_OP
 *   input/output buffer too short        BAD_INP_LEN / BAD_OUTP_LEN
 *   a named object that does not exist   BAD_RES
 *   a field out of range, a log size
 *   beyond the caps, an unused pacing
 *   index, an unsupported feature        BAD_PARAM
 *   wrong current state, illegal state
 *   transition, destroying an object
 *   still in use                         BAD_RES_STATE
 *   object limit reached                 NO_RES
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "emu_internal.h"
#include "emu_sched.h"

/* A handler returns a PRM status and sets *synd when it is not OK. */
typedef uint8_t (*emu_cmd_fn)(struct mlx5_emu *emu, const void *in,
			      size_t inlen, void *out, uint32_t *synd);

struct emu_cmd {
	uint16_t opcode;
	const char *name;
	size_t in_sz;
	size_t out_sz;
	emu_cmd_fn fn;
	enum emu_cmd_kind kind;
	enum emu_obj_type type;
};

#define EMU_FAIL(st, sy) do { *synd = (sy); return (st); } while (0)
#define EMU_BAD_RES() \
	EMU_FAIL(MLX5_CMD_STAT_BAD_RES_ERR, MLX5_EMU_SYND_NO_OBJECT)
#define EMU_BAD_PARAM() \
	EMU_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_FIELD)
#define EMU_BAD_SIZE() \
	EMU_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_SIZE)
#define EMU_IN_USE() \
	EMU_FAIL(MLX5_CMD_STAT_BAD_RES_STATE_ERR, MLX5_EMU_SYND_IN_USE)
#define EMU_NO_RES() \
	EMU_FAIL(MLX5_CMD_STAT_NO_RES_ERR, MLX5_EMU_SYND_NO_RESOURCES)

/* ---- capabilities ---- */

static void
emu_fill_general_caps(const struct mlx5_emu *emu, void *cap)
{
	const struct mlx5_emu_caps *c = &emu->caps;

	MLX5_SET(cmd_hca_cap, cap, log_max_qp, c->log_max_sq);
	MLX5_SET(cmd_hca_cap, cap, log_max_cq_sz, c->log_max_cq_sz);
	MLX5_SET(cmd_hca_cap, cap, log_max_cq, c->log_max_cq);
	MLX5_SET(cmd_hca_cap, cap, log_max_eq_sz, 22);
	MLX5_SET(cmd_hca_cap, cap, log_max_eq, 4);
	/*
	 * Upstream's net/mlx5 consults the vport context (wqe_inline_mode 1)
	 * only on devices that report eth_virt.
	 */
	MLX5_SET(cmd_hca_cap, cap, eth_virt, 1);
	MLX5_SET(cmd_hca_cap, cap, port_type, MLX5_CAP_PORT_TYPE_ETH);
	MLX5_SET(cmd_hca_cap, cap, num_ports, 1);
	MLX5_SET(cmd_hca_cap, cap, log_max_msg, 30);
	MLX5_SET(cmd_hca_cap, cap, cqe_version, 1);
	MLX5_SET(cmd_hca_cap, cap, qos, 1);
	MLX5_SET(cmd_hca_cap, cap, eth_net_offloads, 1);
	MLX5_SET(cmd_hca_cap, cap, roce, 0);
	MLX5_SET(cmd_hca_cap, cap, cq_moderation, 1);
	MLX5_SET(cmd_hca_cap, cap, uar_4k, 1);
	MLX5_SET(cmd_hca_cap, cap, uar_sz, 0);
	MLX5_SET(cmd_hca_cap, cap, log_bf_reg_size, 9);
	MLX5_SET(cmd_hca_cap, cap, max_wqe_sz_sq, EMU_MAX_WQE_BYTES + 16);
	MLX5_SET(cmd_hca_cap, cap, log_max_transport_domain, 16);
	MLX5_SET(cmd_hca_cap, cap, log_max_pd, 16);
	MLX5_SET(cmd_hca_cap, cap, log_max_rq, c->log_max_sq);
	MLX5_SET(cmd_hca_cap, cap, log_max_sq, c->log_max_sq);
	MLX5_SET(cmd_hca_cap, cap, log_max_tis, 16);
	MLX5_SET(cmd_hca_cap, cap, log_max_tis_per_sq, 0);
	MLX5_SET(cmd_hca_cap, cap, log_max_wq_sz, c->log_max_wq_sz);
	MLX5_SET(cmd_hca_cap, cap, sq_ts_format, c->sq_ts_format);
	if (c->sched_elem_obj)
		MLX5_SET64(cmd_hca_cap, cap, general_obj_types,
			   1ULL << MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT);
	MLX5_SET(cmd_hca_cap, cap, log_uar_page_sz, 0);
	/* 1 GHz: device clock ticks are nanoseconds. */
	MLX5_SET(cmd_hca_cap, cap, device_frequency_mhz, 1000);
	MLX5_SET(cmd_hca_cap, cap, device_frequency_khz, 1000000);
	MLX5_SET(cmd_hca_cap, cap, num_of_uars_per_page, 1);
}

static void
emu_fill_eth_caps(const struct mlx5_emu *emu, void *cap)
{
	MLX5_SET(per_protocol_networking_offload_caps, cap, csum_cap, 1);
	MLX5_SET(per_protocol_networking_offload_caps, cap, vlan_cap, 1);
	MLX5_SET(per_protocol_networking_offload_caps, cap, lro_cap, 0);
	MLX5_SET(per_protocol_networking_offload_caps, cap, wqe_vlan_insert, 1);
	MLX5_SET(per_protocol_networking_offload_caps, cap, max_lso_cap, 0);
	MLX5_SET(per_protocol_networking_offload_caps, cap,
		 multi_pkt_send_wqe, emu->caps.mpw);
	MLX5_SET(per_protocol_networking_offload_caps, cap, wqe_inline_mode,
		 emu->caps.wqe_inline_mode);
	MLX5_SET(per_protocol_networking_offload_caps, cap,
		 enhanced_multi_pkt_send_wqe, emu->caps.empw);
	MLX5_SET(per_protocol_networking_offload_caps, cap, swp, 0);
}

static void
emu_fill_qos_caps(const struct mlx5_emu *emu, void *cap)
{
	const struct mlx5_emu_caps *c = &emu->caps;

	MLX5_SET(qos_cap, cap, packet_pacing, c->packet_pacing);
	MLX5_SET(qos_cap, cap, packet_pacing_burst_bound, c->pp_burst_bound);
	MLX5_SET(qos_cap, cap, packet_pacing_typical_size, c->pp_typical_size);
	MLX5_SET(qos_cap, cap, packet_pacing_uid, c->packet_pacing_uid);
	MLX5_SET(qos_cap, cap, wqe_rate_pp, c->wqe_rate_pp);
	MLX5_SET(qos_cap, cap, packet_pacing_max_rate, c->pp_max_rate_kbps);
	MLX5_SET(qos_cap, cap, packet_pacing_min_rate, c->pp_min_rate_kbps);
	MLX5_SET(qos_cap, cap, packet_pacing_rate_table_size,
		 c->pp_table_size);
	emu_sched_fill_caps(emu, cap);
}

static uint8_t
emu_cmd_query_hca_cap(struct mlx5_emu *emu, const void *in,
		      size_t inlen __attribute__((unused)), void *out,
		      uint32_t *synd)
{
	uint32_t op_mod = MLX5_GET(query_hca_cap_in, in, op_mod);
	void *cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);

	if (MLX5_GET(query_hca_cap_in, in, other_function))
		EMU_BAD_PARAM();
	switch (op_mod >> 1) {
	case MLX5_CAP_GENERAL:
		emu_fill_general_caps(emu, cap);
		break;
	case MLX5_CAP_ETHERNET_OFFLOADS:
		emu_fill_eth_caps(emu, cap);
		break;
	case MLX5_CAP_QOS:
		emu_fill_qos_caps(emu, cap);
		break;
	case MLX5_CAP_FLOW_TABLE:
		/*
		 * Every Ethernet device answers it (upstream reads it when
		 * eth_net_offloads is set); no steering is modelled: all 0.
		 */
		break;
	default:
		EMU_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR, MLX5_EMU_SYND_BAD_OPMOD);
	}
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_query_nic_vport(struct mlx5_emu *emu, const void *in,
			size_t inlen __attribute__((unused)), void *out,
			uint32_t *synd)
{
	void *ctx = MLX5_ADDR_OF(query_nic_vport_context_out, out,
				 nic_vport_context);

	if (MLX5_GET(query_nic_vport_context_in, in, other_vport))
		EMU_BAD_PARAM();
	MLX5_SET(nic_vport_context, ctx, min_wqe_inline_mode,
		 emu->caps.vport_inline_mode);
	return MLX5_CMD_STAT_OK;
}

/*
 * The vport's traffic counters: frames that left the wire, by destination
 * class, octets as L2 frame bytes without FCS (an assumption, see
 * device_model.rst); nothing is received, and no errors are counted.
 */
static uint8_t
emu_cmd_query_vport_counter(struct mlx5_emu *emu, const void *in,
			    size_t inlen __attribute__((unused)), void *out,
			    uint32_t *synd)
{
	static const struct {
		enum emu_vport_tx_class cls;
		size_t off; /* bit offset of the traffic_counter */
	} tx[] = {
		{ EMU_VPORT_TX_UNICAST, MLX5_BIT_OFF(query_vport_counter_out,
			transmitted_eth_unicast) },
		{ EMU_VPORT_TX_MULTICAST, MLX5_BIT_OFF(query_vport_counter_out,
			transmitted_eth_multicast) },
		{ EMU_VPORT_TX_BROADCAST, MLX5_BIT_OFF(query_vport_counter_out,
			transmitted_eth_broadcast) },
	};
	size_t i;

	if (MLX5_GET(query_vport_counter_in, in, other_vport))
		EMU_BAD_PARAM();
	emu_engine_sync(emu);
	for (i = 0; i < sizeof(tx) / sizeof(tx[0]); i++) {
		void *c = (uint8_t *)out + tx[i].off / 8;
		struct emu_vport_tx *v = &emu->vport_tx[tx[i].cls];

		MLX5_SET64(traffic_counter, c, packets, v->packets);
		MLX5_SET64(traffic_counter, c, octets, v->octets);
		if (MLX5_GET(query_vport_counter_in, in, clear))
			memset(v, 0, sizeof(*v));
	}
	return MLX5_CMD_STAT_OK;
}

/* ---- transport domain ---- */

static uint8_t
emu_cmd_alloc_td(struct mlx5_emu *emu, const void *in __attribute__((unused)),
		 size_t inlen __attribute__((unused)), void *out,
		 uint32_t *synd)
{
	struct emu_td *td;
	uint32_t id;

	td = calloc(1, sizeof(*td));
	if (td == NULL)
		EMU_NO_RES();
	if (emu_idtab_add(&emu->tds, td, &id) < 0) {
		free(td);
		EMU_NO_RES();
	}
	td->tdn = id;
	MLX5_SET(alloc_transport_domain_out, out, transport_domain, id);
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_dealloc_td(struct mlx5_emu *emu, const void *in,
		   size_t inlen __attribute__((unused)),
		   void *out __attribute__((unused)), uint32_t *synd)
{
	uint32_t id = MLX5_GET(dealloc_transport_domain_in, in,
			       transport_domain);
	struct emu_td *td = emu_idtab_get(&emu->tds, id);

	if (td == NULL)
		EMU_BAD_RES();
	if (td->users > 0)
		EMU_IN_USE();
	emu_idtab_del(&emu->tds, id);
	free(td);
	return MLX5_CMD_STAT_OK;
}

/* ---- TIS ---- */

static uint8_t
emu_cmd_create_tis(struct mlx5_emu *emu, const void *in,
		   size_t inlen __attribute__((unused)), void *out,
		   uint32_t *synd)
{
	const void *ctx = MLX5_ADDR_OF(create_tis_in, in, ctx);
	struct emu_td *td;
	struct emu_tis *tis;
	uint32_t id;

	td = emu_idtab_get(&emu->tds, MLX5_GET(tisc, ctx, transport_domain));
	if (td == NULL)
		EMU_BAD_RES();
	if (MLX5_GET(tisc, ctx, tls_en) || MLX5_GET(tisc, ctx, underlay_qpn))
		EMU_BAD_PARAM();
	tis = calloc(1, sizeof(*tis));
	if (tis == NULL)
		EMU_NO_RES();
	if (emu_idtab_add(&emu->tises, tis, &id) < 0) {
		free(tis);
		EMU_NO_RES();
	}
	tis->tisn = id;
	tis->td = td;
	tis->prio = (uint8_t)MLX5_GET(tisc, ctx, prio);
	tis->lag_tx_port_affinity =
		(uint8_t)MLX5_GET(tisc, ctx, lag_tx_port_affinity);
	tis->strict_lag_tx_port_affinity =
		MLX5_GET(tisc, ctx, strict_lag_tx_port_affinity);
	td->users++;
	MLX5_SET(create_tis_out, out, tisn, id);
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_modify_tis(struct mlx5_emu *emu, const void *in,
		   size_t inlen __attribute__((unused)),
		   void *out __attribute__((unused)), uint32_t *synd)
{
	const void *ctx = MLX5_ADDR_OF(modify_tis_in, in, ctx);
	struct emu_tis *tis;

	tis = emu_idtab_get(&emu->tises, MLX5_GET(modify_tis_in, in, tisn));
	if (tis == NULL)
		EMU_BAD_RES();
	if (MLX5_GET(modify_tis_in, in, bitmask.prio))
		tis->prio = (uint8_t)MLX5_GET(tisc, ctx, prio);
	if (MLX5_GET(modify_tis_in, in, bitmask.lag_tx_port_affinity))
		tis->lag_tx_port_affinity =
			(uint8_t)MLX5_GET(tisc, ctx, lag_tx_port_affinity);
	if (MLX5_GET(modify_tis_in, in, bitmask.strict_lag_tx_port_affinity))
		tis->strict_lag_tx_port_affinity =
			MLX5_GET(tisc, ctx, strict_lag_tx_port_affinity);
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_destroy_tis(struct mlx5_emu *emu, const void *in,
		    size_t inlen __attribute__((unused)),
		    void *out __attribute__((unused)), uint32_t *synd)
{
	uint32_t id = MLX5_GET(destroy_tis_in, in, tisn);
	struct emu_tis *tis = emu_idtab_get(&emu->tises, id);

	if (tis == NULL)
		EMU_BAD_RES();
	if (tis->users > 0)
		EMU_IN_USE();
	tis->td->users--;
	emu_idtab_del(&emu->tises, id);
	free(tis);
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_query_tis(struct mlx5_emu *emu, const void *in,
		  size_t inlen __attribute__((unused)), void *out,
		  uint32_t *synd)
{
	void *ctx = MLX5_ADDR_OF(query_tis_out, out, tis_context);
	struct emu_tis *tis;

	tis = emu_idtab_get(&emu->tises, MLX5_GET(query_tis_in, in, tisn));
	if (tis == NULL)
		EMU_BAD_RES();
	MLX5_SET(tisc, ctx, prio, tis->prio);
	MLX5_SET(tisc, ctx, lag_tx_port_affinity, tis->lag_tx_port_affinity);
	MLX5_SET(tisc, ctx, strict_lag_tx_port_affinity,
		 tis->strict_lag_tx_port_affinity);
	MLX5_SET(tisc, ctx, transport_domain, tis->td->tdn);
	return MLX5_CMD_STAT_OK;
}

/* ---- CQ ---- */

/* The umem @p id holds [off, off + len): the host address, or NULL. */
static uint8_t *
emu_umem_range(struct mlx5_emu *emu, uint32_t id, uint64_t off, uint64_t len,
	       struct emu_umem **umem, uint8_t *status, uint32_t *synd)
{
	struct emu_umem *um = emu_idtab_get(&emu->umems, id);

	if (um == NULL) {
		*status = MLX5_CMD_STAT_BAD_RES_ERR;
		*synd = MLX5_EMU_SYND_NO_OBJECT;
		return NULL;
	}
	if (off > um->size || len > um->size - off) {
		*status = MLX5_CMD_STAT_BAD_PARAM_ERR;
		*synd = MLX5_EMU_SYND_BAD_UMEM_RANGE;
		return NULL;
	}
	*umem = um;
	return um->addr + off;
}

static uint8_t
emu_cmd_create_cq(struct mlx5_emu *emu, const void *in,
		  size_t inlen __attribute__((unused)), void *out,
		  uint32_t *synd)
{
	const void *cqc = MLX5_ADDR_OF(create_cq_in, in, cq_context);
	struct emu_umem *um = NULL, *dum = NULL;
	struct emu_uar *uar;
	struct emu_cq *cq;
	uint8_t *ring, *dbrec, st = 0;
	uint32_t log_size, cqe_sz, stride, id;
	uint64_t off, dbr_addr;

	cqe_sz = MLX5_GET(cqc, cqc, cqe_sz);
	log_size = MLX5_GET(cqc, cqc, log_cq_size);
	if (cqe_sz > MLX5_CQE_SIZE_128B)
		EMU_BAD_PARAM();
	if (log_size > emu->caps.log_max_cq_sz)
		EMU_BAD_SIZE();
	if (MLX5_GET(cqc, cqc, cqe_comp_en) || MLX5_GET(cqc, cqc, cc) ||
	    MLX5_GET(cqc, cqc, st) != 0)
		EMU_BAD_PARAM();
	uar = emu_idtab_get(&emu->uars, MLX5_GET(cqc, cqc, uar_page));
	if (uar == NULL || uar->freed)
		EMU_BAD_RES();
	if (MLX5_GET(cqc, cqc, c_eqn) >= emu->caps.num_comp_vectors)
		EMU_BAD_RES();
	/* Rings live in registered user memory (DEVX umem), no PAS list. */
	if (!MLX5_GET(create_cq_in, in, cq_umem_valid) ||
	    !MLX5_GET(cqc, cqc, dbr_umem_valid))
		EMU_BAD_PARAM();
	stride = 64u << cqe_sz;
	off = MLX5_GET64(create_cq_in, in, cq_umem_offset);
	ring = emu_umem_range(emu, MLX5_GET(create_cq_in, in, cq_umem_id), off,
			      (uint64_t)stride << log_size, &um, &st, synd);
	if (ring == NULL)
		return st;
	dbr_addr = MLX5_GET64(cqc, cqc, dbr_addr);
	if (dbr_addr % 8)
		EMU_BAD_PARAM();
	dbrec = emu_umem_range(emu, MLX5_GET(cqc, cqc, dbr_umem_id), dbr_addr,
			       8, &dum, &st, synd);
	if (dbrec == NULL)
		return st;
	cq = calloc(1, sizeof(*cq));
	if (cq == NULL)
		EMU_NO_RES();
	if (emu_idtab_add(&emu->cqs, cq, &id) < 0) {
		free(cq);
		EMU_NO_RES();
	}
	cq->cqn = id;
	cq->umem = um;
	cq->ring = ring;
	cq->stride = stride;
	cq->log_size = (uint8_t)log_size;
	cq->dbr_umem = dum;
	cq->dbrec = dbrec;
	cq->uar = uar;
	cq->c_eqn = (uint8_t)MLX5_GET(cqc, cqc, c_eqn);
	cq->oi = MLX5_GET(cqc, cqc, oi);
	cq->cq_period_mode = (uint8_t)MLX5_GET(cqc, cqc, cq_period_mode);
	cq->cq_period = (uint16_t)MLX5_GET(cqc, cqc, cq_period);
	cq->cq_max_count = (uint16_t)MLX5_GET(cqc, cqc, cq_max_count);
	cq->cq_umem_offset = off;
	cq->dbr_addr = dbr_addr;
	um->users++;
	dum->users++;
	uar->users++;
	MLX5_SET(create_cq_out, out, cqn, id);
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_destroy_cq(struct mlx5_emu *emu, const void *in,
		   size_t inlen __attribute__((unused)),
		   void *out __attribute__((unused)), uint32_t *synd)
{
	uint32_t id = MLX5_GET(destroy_cq_in, in, cqn);
	struct emu_cq *cq = emu_idtab_get(&emu->cqs, id);

	if (cq == NULL)
		EMU_BAD_RES();
	if (cq->users > 0)
		EMU_IN_USE();
	cq->umem->users--;
	cq->dbr_umem->users--;
	emu_uar_put(cq->uar);
	emu_idtab_del(&emu->cqs, id);
	free(cq);
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_query_cq(struct mlx5_emu *emu, const void *in,
		 size_t inlen __attribute__((unused)), void *out,
		 uint32_t *synd)
{
	void *cqc = MLX5_ADDR_OF(query_cq_out, out, cq_context);
	struct emu_cq *cq;

	cq = emu_idtab_get(&emu->cqs, MLX5_GET(query_cq_in, in, cqn));
	if (cq == NULL)
		EMU_BAD_RES();
	MLX5_SET(cqc, cqc, status, cq->status);
	MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
	MLX5_SET(cqc, cqc, cqe_sz, cq->stride == 128);
	MLX5_SET(cqc, cqc, oi, cq->oi);
	MLX5_SET(cqc, cqc, cq_period_mode, cq->cq_period_mode);
	MLX5_SET(cqc, cqc, dbr_umem_id, cq->dbr_umem->pub.umem_id);
	MLX5_SET(cqc, cqc, log_cq_size, cq->log_size);
	MLX5_SET(cqc, cqc, uar_page, cq->uar->pub.page_id);
	MLX5_SET(cqc, cqc, cq_period, cq->cq_period);
	MLX5_SET(cqc, cqc, cq_max_count, cq->cq_max_count);
	MLX5_SET(cqc, cqc, c_eqn, cq->c_eqn);
	MLX5_SET(cqc, cqc, consumer_counter,
		 mlx5_prm_read32(cq->dbrec, MLX5_CQ_SET_CI));
	MLX5_SET(cqc, cqc, producer_counter, cq->pi);
	MLX5_SET64(cqc, cqc, dbr_addr, cq->dbr_addr);
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_modify_cq(struct mlx5_emu *emu, const void *in,
		  size_t inlen __attribute__((unused)),
		  void *out __attribute__((unused)), uint32_t *synd)
{
	const void *cqc = MLX5_ADDR_OF(modify_cq_in, in, cq_context);
	uint32_t sel = MLX5_GET(modify_cq_in, in, modify_field_select);
	struct emu_cq *cq;

	cq = emu_idtab_get(&emu->cqs, MLX5_GET(modify_cq_in, in, cqn));
	if (cq == NULL)
		EMU_BAD_RES();
	if (sel & ~(MLX5_CQ_MODIFY_PERIOD | MLX5_CQ_MODIFY_COUNT))
		EMU_BAD_PARAM();
	if (sel & MLX5_CQ_MODIFY_PERIOD)
		cq->cq_period = (uint16_t)MLX5_GET(cqc, cqc, cq_period);
	if (sel & MLX5_CQ_MODIFY_COUNT)
		cq->cq_max_count = (uint16_t)MLX5_GET(cqc, cqc, cq_max_count);
	return MLX5_CMD_STAT_OK;
}

/* ---- SQ ---- */

static uint8_t
emu_cmd_create_sq(struct mlx5_emu *emu, const void *in,
		  size_t inlen __attribute__((unused)), void *out,
		  uint32_t *synd)
{
	const void *sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	const void *wq = MLX5_ADDR_OF(sqc, sqc, wq);
	struct emu_umem *um = NULL, *dum = NULL;
	struct emu_cq *cq;
	struct emu_tis *tis;
	struct emu_pd *pd;
	struct emu_uar *uar;
	struct emu_sq *sq;
	uint8_t *ring, *dbrec, st = 0;
	uint32_t state, log_sz, ts, id, pp_index, group;
	uint64_t off, dbr_addr;

	state = MLX5_GET(sqc, sqc, state);
	if (state != MLX5_SQC_STATE_RST && state != MLX5_SQC_STATE_RDY)
		EMU_BAD_PARAM();
	if (MLX5_GET(sqc, sqc, hairpin) || MLX5_GET(sqc, sqc, non_wire) ||
	    MLX5_GET(sqc, sqc, static_sq_wq) || MLX5_GET(sqc, sqc, reg_umr) ||
	    MLX5_GET(sqc, sqc, cd_master))
		EMU_BAD_PARAM();
	/* Multi-packet WQEs allowed only where the device has them. */
	if (MLX5_GET(sqc, sqc, allow_multi_pkt_send_wqe) && emu->caps.mpw == 0)
		EMU_BAD_PARAM();
	ts = MLX5_GET(sqc, sqc, ts_format);
	/* ts_format: 0 free-running, 1 default, 2 real time. */
	if (ts > 2 || (ts == 2 && emu->caps.sq_ts_format == 0) ||
	    (ts == 0 && emu->caps.sq_ts_format == 1))
		EMU_BAD_PARAM();
	cq = emu_idtab_get(&emu->cqs, MLX5_GET(sqc, sqc, cqn));
	if (cq == NULL)
		EMU_BAD_RES();
	if (MLX5_GET(sqc, sqc, tis_lst_sz) != 1)
		EMU_BAD_PARAM();
	tis = emu_idtab_get(&emu->tises, MLX5_GET(sqc, sqc, tis_num_0));
	if (tis == NULL)
		EMU_BAD_RES();
	pp_index = MLX5_GET(sqc, sqc, packet_pacing_rate_limit_index);
	if (!emu_pp_index_valid(emu, (uint16_t)pp_index))
		EMU_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			 MLX5_EMU_SYND_BAD_PP_INDEX);
	/*
	 * Devarg sched_create_sq_group=ignore: firmware that leaves the
	 * field alone (unverified; no public code sets it in CREATE_SQ).
	 */
	group = emu->cfg.sched.create_sq_group_ignore ? 0 :
		MLX5_GET(sqc, sqc, qos_queue_group_id);
	st = emu_sched_sq_check(emu, group, (uint16_t)pp_index, synd);
	if (st != MLX5_CMD_STAT_OK)
		return st;
	if (MLX5_GET(wq, wq, wq_type) != MLX5_WQ_TYPE_CYCLIC ||
	    MLX5_GET(wq, wq, log_wq_stride) != MLX5_SEND_WQE_SHIFT ||
	    MLX5_GET(wq, wq, wq_signature))
		EMU_BAD_PARAM();
	log_sz = MLX5_GET(wq, wq, log_wq_sz);
	if (log_sz > emu->caps.log_max_wq_sz)
		EMU_BAD_SIZE();
	pd = emu_idtab_get(&emu->pds, MLX5_GET(wq, wq, pd));
	if (pd == NULL)
		EMU_BAD_RES();
	uar = emu_idtab_get(&emu->uars, MLX5_GET(wq, wq, uar_page));
	if (uar == NULL || uar->freed)
		EMU_BAD_RES();
	if (!MLX5_GET(wq, wq, wq_umem_valid) || !MLX5_GET(wq, wq, dbr_umem_valid))
		EMU_BAD_PARAM();
	off = MLX5_GET64(wq, wq, wq_umem_offset);
	ring = emu_umem_range(emu, MLX5_GET(wq, wq, wq_umem_id), off,
			      (uint64_t)MLX5_SEND_WQE_BB << log_sz, &um, &st,
			      synd);
	if (ring == NULL)
		return st;
	dbr_addr = MLX5_GET64(wq, wq, dbr_addr);
	if (dbr_addr % 8)
		EMU_BAD_PARAM();
	dbrec = emu_umem_range(emu, MLX5_GET(wq, wq, dbr_umem_id), dbr_addr, 8,
			       &dum, &st, synd);
	if (dbrec == NULL)
		return st;
	sq = calloc(1, sizeof(*sq));
	if (sq == NULL)
		EMU_NO_RES();
	if (emu_idtab_add(&emu->sqs, sq, &id) < 0) {
		free(sq);
		EMU_NO_RES();
	}
	if (emu_engine_reserve(emu, emu->sqs.count) < 0 ||
	    emu_uar_attach_sq(uar, sq) < 0) {
		emu_idtab_del(&emu->sqs, id);
		free(sq);
		EMU_NO_RES();
	}
	sq->sqn = id;
	sq->seq = ++emu->sq_seq;
	sq->state = (uint8_t)state;
	sq->cq = cq;
	sq->tis = tis;
	sq->pd = pd;
	sq->uar = uar;
	sq->umem = um;
	sq->ring = ring;
	sq->log_wq_sz = (uint8_t)log_sz;
	sq->dbr_umem = dum;
	sq->dbrec = dbrec;
	sq->pp_index = (uint16_t)pp_index;
	sq->min_inline_mode = (uint8_t)MLX5_GET(sqc, sqc, min_wqe_inline_mode);
	sq->ts_format = (uint8_t)ts;
	sq->user_index = MLX5_GET(sqc, sqc, user_index);
	sq->wq_umem_offset = off;
	sq->dbr_addr = dbr_addr;
	sq->allow_swp = MLX5_GET(sqc, sqc, allow_swp);
	sq->allow_mpw = MLX5_GET(sqc, sqc, allow_multi_pkt_send_wqe);
	sq->flush_in_error = MLX5_GET(sqc, sqc, flush_in_error_en);
	cq->users++;
	tis->users++;
	pd->users++;
	uar->users++;
	um->users++;
	dum->users++;
	emu_pp_sq_ref(emu, sq->pp_index, 1);
	emu_sq_sched_attach(emu, sq, (uint16_t)group);
	emu_engine_sq_reset(emu, sq);
	MLX5_SET(create_sq_out, out, sqn, id);
	return MLX5_CMD_STAT_OK;
}

/* SQ state transitions firmware accepts. */
static bool
emu_sq_transition_ok(uint32_t cur, uint32_t next)
{
	switch (cur) {
	case MLX5_SQC_STATE_RST:
		return next == MLX5_SQC_STATE_RDY || next == MLX5_SQC_STATE_RST;
	case MLX5_SQC_STATE_RDY:
		return next == MLX5_SQC_STATE_RDY || next == MLX5_SQC_STATE_ERR ||
		       next == MLX5_SQC_STATE_RST;
	case MLX5_SQC_STATE_ERR:
		return next == MLX5_SQC_STATE_RST || next == MLX5_SQC_STATE_ERR;
	default:
		return false;
	}
}

static uint8_t
emu_cmd_modify_sq(struct mlx5_emu *emu, const void *in,
		  size_t inlen __attribute__((unused)),
		  void *out __attribute__((unused)), uint32_t *synd)
{
	const void *sqc = MLX5_ADDR_OF(modify_sq_in, in, ctx);
	uint64_t mask = MLX5_GET64(modify_sq_in, in, modify_bitmask);
	uint32_t cur = MLX5_GET(modify_sq_in, in, sq_state);
	uint32_t next = MLX5_GET(sqc, sqc, state);
	uint32_t pp_index = MLX5_GET(sqc, sqc, packet_pacing_rate_limit_index);
	uint32_t group = MLX5_GET(sqc, sqc, qos_queue_group_id);
	bool set_pp = mask & MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX;
	bool set_group = mask & MLX5_MODIFY_SQ_BITMASK_QOS_QUEUE_GROUP_ID;
	struct emu_sq *sq;
	uint8_t st;

	sq = emu_idtab_get(&emu->sqs, MLX5_GET(modify_sq_in, in, sqn));
	if (sq == NULL)
		EMU_BAD_RES();
	if (mask & ~(MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX |
		     MLX5_MODIFY_SQ_BITMASK_QOS_QUEUE_GROUP_ID))
		EMU_BAD_PARAM();
	/*
	 * What was due before the command departs at the old settings, and
	 * the command sees the SQ as that leaves it: a WQE that failed by
	 * now has put it in error.
	 */
	emu_engine_sync(emu);
	if (cur != sq->state || !emu_sq_transition_ok(cur, next))
		EMU_FAIL(MLX5_CMD_STAT_BAD_RES_STATE_ERR,
			 MLX5_EMU_SYND_BAD_STATE);
	if (mask && next != MLX5_SQC_STATE_RDY)
		EMU_BAD_PARAM();
	if (set_pp && !emu_pp_index_valid(emu, (uint16_t)pp_index))
		EMU_FAIL(MLX5_CMD_STAT_BAD_PARAM_ERR,
			 MLX5_EMU_SYND_BAD_PP_INDEX);
	/* Bit 2 where the device has no NIC scheduling (unverified). */
	if (set_group) {
		st = emu_sched_sq_group_bit(emu, synd);
		if (st != MLX5_CMD_STAT_OK)
			return st;
	}
	st = emu_sched_sq_check(emu, set_group ? group : sq->qos_group,
				set_pp ? (uint16_t)pp_index : sq->pp_index,
				synd);
	if ((set_pp || set_group) && st != MLX5_CMD_STAT_OK)
		return st;
	/*
	 * Devarg rst2rdy_pp=ignore: RST->RDY leaves the pacing index as it
	 * was (whether firmware applies it there is unverified).
	 */
	if (set_pp && cur == MLX5_SQC_STATE_RST && emu->cfg.rst2rdy_pp_ignore)
		set_pp = false;
	if (set_pp)
		emu_engine_sq_set_pp(emu, sq, (uint16_t)pp_index);
	/* sched_modify_sq_group=ignore: accepted, nothing moves. */
	if (set_group &&
	    emu->cfg.sched.modify_sq_group != MLX5_EMU_SQ_GROUP_BIT_IGNORE)
		emu_sq_sched_attach(emu, sq, (uint16_t)group);
	if (next == MLX5_SQC_STATE_RST) {
		sq->state = MLX5_SQC_STATE_RST;
		emu_engine_sq_reset(emu, sq);
		/* sq_reset_keeps_qos=0: the reset clears both (unverified). */
		if (!emu->cfg.sq_reset_keeps_qos) {
			emu_engine_sq_set_pp(emu, sq, 0);
			emu_sq_sched_attach(emu, sq, 0);
		}
	} else if (next == MLX5_SQC_STATE_ERR) {
		if (cur == MLX5_SQC_STATE_RDY)
			emu_engine_sq_error(emu, sq, sq->ci);
	} else {
		sq->state = MLX5_SQC_STATE_RDY;
	}
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_destroy_sq(struct mlx5_emu *emu, const void *in,
		   size_t inlen __attribute__((unused)),
		   void *out __attribute__((unused)), uint32_t *synd)
{
	uint32_t id = MLX5_GET(destroy_sq_in, in, sqn);
	struct emu_sq *sq = emu_idtab_get(&emu->sqs, id);

	if (sq == NULL)
		EMU_BAD_RES();
	emu_engine_sync(emu);
	emu_engine_sq_stop(emu, sq);
	emu_uar_detach_sq(sq->uar, sq);
	emu_sq_sched_detach(emu, sq);
	emu_pp_sq_ref(emu, sq->pp_index, -1);
	sq->cq->users--;
	sq->tis->users--;
	sq->pd->users--;
	sq->umem->users--;
	sq->dbr_umem->users--;
	emu_uar_put(sq->uar);
	emu_idtab_del(&emu->sqs, id);
	free(sq);
	return MLX5_CMD_STAT_OK;
}

static uint8_t
emu_cmd_query_sq(struct mlx5_emu *emu, const void *in,
		 size_t inlen __attribute__((unused)), void *out,
		 uint32_t *synd)
{
	void *sqc = MLX5_ADDR_OF(query_sq_out, out, sq_context);
	void *wq = MLX5_ADDR_OF(sqc, sqc, wq);
	struct emu_sq *sq;

	sq = emu_idtab_get(&emu->sqs, MLX5_GET(query_sq_in, in, sqn));
	if (sq == NULL)
		EMU_BAD_RES();
	MLX5_SET(sqc, sqc, min_wqe_inline_mode, sq->min_inline_mode);
	MLX5_SET(sqc, sqc, state, sq->state);
	MLX5_SET(sqc, sqc, allow_swp, sq->allow_swp);
	MLX5_SET(sqc, sqc, allow_multi_pkt_send_wqe, sq->allow_mpw);
	MLX5_SET(sqc, sqc, flush_in_error_en, sq->flush_in_error);
	MLX5_SET(sqc, sqc, ts_format, sq->ts_format);
	MLX5_SET(sqc, sqc, user_index, sq->user_index);
	MLX5_SET(sqc, sqc, cqn, sq->cq->cqn);
	MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, sq->pp_index);
	MLX5_SET(sqc, sqc, qos_queue_group_id, sq->qos_group);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, sq->tis->tisn);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, sq->pd->pub.pdn);
	MLX5_SET(wq, wq, uar_page, sq->uar->pub.page_id);
	MLX5_SET64(wq, wq, dbr_addr, sq->dbr_addr);
	MLX5_SET(wq, wq, hw_counter, sq->ci);
	MLX5_SET(wq, wq, sw_counter, sq->rung_pi);
	MLX5_SET(wq, wq, log_wq_stride, MLX5_SEND_WQE_SHIFT);
	MLX5_SET(wq, wq, log_wq_sz, sq->log_wq_sz);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_id, sq->dbr_umem->pub.umem_id);
	MLX5_SET(wq, wq, wq_umem_id, sq->umem->pub.umem_id);
	MLX5_SET64(wq, wq, wq_umem_offset, sq->wq_umem_offset);
	return MLX5_CMD_STAT_OK;
}

#define EMU_CMD(op, nm, in_t, out_t, f, k, t) \
	{ MLX5_CMD_OP_##op, #op, MLX5_ST_SZ_BYTES(in_t), \
	  MLX5_ST_SZ_BYTES(out_t), f, k, t }

static const struct emu_cmd emu_cmds[] = {
	EMU_CMD(QUERY_HCA_CAP, "", query_hca_cap_in, query_hca_cap_out,
		emu_cmd_query_hca_cap, EMU_CMD_GENERAL, EMU_OBJ_TD),
	EMU_CMD(QUERY_NIC_VPORT_CONTEXT, "", query_nic_vport_context_in,
		query_nic_vport_context_out, emu_cmd_query_nic_vport,
		EMU_CMD_GENERAL, EMU_OBJ_TD),
	EMU_CMD(QUERY_VPORT_COUNTER, "", query_vport_counter_in,
		query_vport_counter_out, emu_cmd_query_vport_counter,
		EMU_CMD_GENERAL, EMU_OBJ_TD),
	EMU_CMD(ALLOC_TRANSPORT_DOMAIN, "", alloc_transport_domain_in,
		alloc_transport_domain_out, emu_cmd_alloc_td, EMU_CMD_CREATE,
		EMU_OBJ_TD),
	EMU_CMD(DEALLOC_TRANSPORT_DOMAIN, "", dealloc_transport_domain_in,
		dealloc_transport_domain_out, emu_cmd_dealloc_td,
		EMU_CMD_DESTROY, EMU_OBJ_TD),
	EMU_CMD(CREATE_SCHEDULING_ELEMENT, "", create_scheduling_element_in,
		create_scheduling_element_out, emu_sched_cmd_create,
		EMU_CMD_CREATE, EMU_OBJ_SCHED),
	EMU_CMD(MODIFY_SCHEDULING_ELEMENT, "", modify_scheduling_element_in,
		modify_scheduling_element_out, emu_sched_cmd_modify,
		EMU_CMD_MODIFY, EMU_OBJ_SCHED),
	EMU_CMD(QUERY_SCHEDULING_ELEMENT, "", query_scheduling_element_in,
		query_scheduling_element_out, emu_sched_cmd_query,
		EMU_CMD_QUERY, EMU_OBJ_SCHED),
	EMU_CMD(DESTROY_SCHEDULING_ELEMENT, "", destroy_scheduling_element_in,
		destroy_scheduling_element_out, emu_sched_cmd_destroy,
		EMU_CMD_DESTROY, EMU_OBJ_SCHED),
	/* Sizes of the header: each object type has its own (below). */
	EMU_CMD(CREATE_GENERAL_OBJECT, "", general_obj_in_cmd_hdr,
		general_obj_out_cmd_hdr, NULL, EMU_CMD_CREATE,
		EMU_OBJ_GENERAL),
	EMU_CMD(MODIFY_GENERAL_OBJECT, "", general_obj_in_cmd_hdr,
		general_obj_out_cmd_hdr, NULL, EMU_CMD_MODIFY,
		EMU_OBJ_GENERAL),
	EMU_CMD(QUERY_GENERAL_OBJECT, "", general_obj_in_cmd_hdr,
		general_obj_out_cmd_hdr, NULL, EMU_CMD_QUERY, EMU_OBJ_GENERAL),
	EMU_CMD(DESTROY_GENERAL_OBJECT, "", general_obj_in_cmd_hdr,
		general_obj_out_cmd_hdr, NULL, EMU_CMD_DESTROY,
		EMU_OBJ_GENERAL),
	EMU_CMD(CREATE_TIS, "", create_tis_in, create_tis_out,
		emu_cmd_create_tis, EMU_CMD_CREATE, EMU_OBJ_TIS),
	EMU_CMD(MODIFY_TIS, "", modify_tis_in, modify_tis_out,
		emu_cmd_modify_tis, EMU_CMD_MODIFY, EMU_OBJ_TIS),
	EMU_CMD(DESTROY_TIS, "", destroy_tis_in, destroy_tis_out,
		emu_cmd_destroy_tis, EMU_CMD_DESTROY, EMU_OBJ_TIS),
	EMU_CMD(QUERY_TIS, "", query_tis_in, query_tis_out,
		emu_cmd_query_tis, EMU_CMD_QUERY, EMU_OBJ_TIS),
	EMU_CMD(CREATE_CQ, "", create_cq_in, create_cq_out,
		emu_cmd_create_cq, EMU_CMD_CREATE, EMU_OBJ_CQ),
	EMU_CMD(DESTROY_CQ, "", destroy_cq_in, destroy_cq_out,
		emu_cmd_destroy_cq, EMU_CMD_DESTROY, EMU_OBJ_CQ),
	EMU_CMD(QUERY_CQ, "", query_cq_in, query_cq_out,
		emu_cmd_query_cq, EMU_CMD_QUERY, EMU_OBJ_CQ),
	EMU_CMD(MODIFY_CQ, "", modify_cq_in, modify_cq_out,
		emu_cmd_modify_cq, EMU_CMD_MODIFY, EMU_OBJ_CQ),
	EMU_CMD(CREATE_SQ, "", create_sq_in, create_sq_out,
		emu_cmd_create_sq, EMU_CMD_CREATE, EMU_OBJ_SQ),
	EMU_CMD(MODIFY_SQ, "", modify_sq_in, modify_sq_out,
		emu_cmd_modify_sq, EMU_CMD_MODIFY, EMU_OBJ_SQ),
	EMU_CMD(DESTROY_SQ, "", destroy_sq_in, destroy_sq_out,
		emu_cmd_destroy_sq, EMU_CMD_DESTROY, EMU_OBJ_SQ),
	EMU_CMD(QUERY_SQ, "", query_sq_in, query_sq_out,
		emu_cmd_query_sq, EMU_CMD_QUERY, EMU_OBJ_SQ),
};

#define EMU_NB_CMDS (sizeof(emu_cmds) / sizeof(emu_cmds[0]))

/* A general object type: its command sizes and handlers, by kind. */
struct emu_gen_obj {
	uint16_t obj_type;
	enum emu_obj_type type;
	size_t in_sz[EMU_CMD_QUERY + 1];
	size_t out_sz[EMU_CMD_QUERY + 1];
	emu_cmd_fn fn[EMU_CMD_QUERY + 1];
};

#define EMU_HDR_IN MLX5_ST_SZ_BYTES(general_obj_in_cmd_hdr)
#define EMU_HDR_OUT MLX5_ST_SZ_BYTES(general_obj_out_cmd_hdr)

static const struct emu_gen_obj emu_gen_objs[] = {
	{
		.obj_type = MLX5_GENERAL_OBJ_TYPE_SCHEDULING_ELEMENT,
		.type = EMU_OBJ_SCHED_GEN,
		.in_sz = {
			[EMU_CMD_CREATE] =
				MLX5_ST_SZ_BYTES(create_sched_elem_in),
			[EMU_CMD_MODIFY] =
				MLX5_ST_SZ_BYTES(create_sched_elem_in),
			[EMU_CMD_QUERY] = EMU_HDR_IN,
			[EMU_CMD_DESTROY] = EMU_HDR_IN,
		},
		.out_sz = {
			[EMU_CMD_CREATE] = EMU_HDR_OUT,
			[EMU_CMD_MODIFY] = EMU_HDR_OUT,
			[EMU_CMD_QUERY] =
				MLX5_ST_SZ_BYTES(query_sched_elem_out),
			[EMU_CMD_DESTROY] = EMU_HDR_OUT,
		},
		.fn = {
			[EMU_CMD_CREATE] = emu_sched_gen_create,
			[EMU_CMD_MODIFY] = emu_sched_gen_modify,
			[EMU_CMD_QUERY] = emu_sched_gen_query,
			[EMU_CMD_DESTROY] = emu_sched_gen_destroy,
		},
	},
};

/* The general object type named by @p in (a general command), or NULL. */
static const struct emu_gen_obj *
emu_gen_obj_find(const void *in)
{
	uint16_t t = (uint16_t)MLX5_GET(general_obj_in_cmd_hdr, in, obj_type);
	size_t i;

	for (i = 0; i < sizeof(emu_gen_objs) / sizeof(emu_gen_objs[0]); i++)
		if (emu_gen_objs[i].obj_type == t)
			return &emu_gen_objs[i];
	return NULL;
}

static const struct emu_gen_obj *
emu_gen_obj_of(enum emu_obj_type type)
{
	size_t i;

	for (i = 0; i < sizeof(emu_gen_objs) / sizeof(emu_gen_objs[0]); i++)
		if (emu_gen_objs[i].type == type)
			return &emu_gen_objs[i];
	return NULL;
}

static const struct emu_cmd *
emu_cmd_find(uint16_t opcode)
{
	size_t i;

	for (i = 0; i < EMU_NB_CMDS; i++)
		if (emu_cmds[i].opcode == opcode)
			return &emu_cmds[i];
	return NULL;
}

static const char *
emu_fw_opcode_name(uint16_t opcode)
{
	const struct emu_cmd *c = emu_cmd_find(opcode);

	return c != NULL ? c->name : "UNKNOWN";
}

int
emu_fw_opcode_parse(const char *s, uint16_t *opcode)
{
	char *end;
	unsigned long v;
	size_t i;

	for (i = 0; i < EMU_NB_CMDS; i++) {
		if (strcasecmp(s, emu_cmds[i].name) == 0) {
			*opcode = emu_cmds[i].opcode;
			return 0;
		}
	}
	if (*s == '\0' || *s == '-')
		return -EINVAL;
	v = strtoul(s, &end, 0);
	if (*end != '\0' || v == 0 || v > 0xffff)
		return -EINVAL;
	*opcode = (uint16_t)v;
	return 0;
}

bool
emu_fw_is_create(const void *in, enum emu_obj_type *type)
{
	const struct emu_cmd *c;
	const struct emu_gen_obj *g;

	c = emu_cmd_find((uint16_t)MLX5_GET(mbox_in, in, opcode));
	if (c == NULL || c->kind != EMU_CMD_CREATE)
		return false;
	*type = c->type;
	if (c->type == EMU_OBJ_GENERAL) {
		g = emu_gen_obj_find(in);
		/* Firmware answers a type it does not have. */
		*type = g != NULL ? g->type : EMU_OBJ_GENERAL;
	}
	return true;
}

static uint16_t
emu_fw_destroy_opcode(enum emu_obj_type type)
{
	size_t i;

	if (emu_gen_obj_of(type) != NULL)
		return MLX5_CMD_OP_DESTROY_GENERAL_OBJECT;
	for (i = 0; i < EMU_NB_CMDS; i++)
		if (emu_cmds[i].kind == EMU_CMD_DESTROY &&
		    emu_cmds[i].type == type)
			return emu_cmds[i].opcode;
	return 0;
}

enum emu_cmd_kind
emu_fw_cmd_target(const void *in, enum emu_obj_type *type, uint32_t *id)
{
	uint16_t opcode = (uint16_t)MLX5_GET(mbox_in, in, opcode);
	const struct emu_cmd *c = emu_cmd_find(opcode);
	const struct emu_gen_obj *g;

	if (c == NULL || c->kind == EMU_CMD_GENERAL ||
	    c->kind == EMU_CMD_CREATE)
		return EMU_CMD_GENERAL;
	*type = c->type;
	if (c->type == EMU_OBJ_GENERAL) {
		/* The general-object header: obj_type and obj_id. */
		g = emu_gen_obj_find(in);
		*type = g != NULL ? g->type : EMU_OBJ_GENERAL;
		*id = MLX5_GET(general_obj_in_cmd_hdr, in, obj_id);
	} else if (c->type == EMU_OBJ_SCHED) {
		/* The 32-bit scheduling_element_id at 0x60. */
		*id = MLX5_GET(destroy_scheduling_element_in, in,
			       scheduling_element_id);
	} else {
		/* Bits 0x48-0x5f. */
		*id = MLX5_GET(destroy_sq_in, in, sqn);
	}
	return c->kind;
}

/* Object number in a CREATE_* answer (0x48-0x5f; elements at 0x80). */
uint32_t
emu_fw_created_obj_id(const void *out, enum emu_obj_type type)
{
	if (type == EMU_OBJ_SCHED)
		return MLX5_GET(create_scheduling_element_out, out,
				scheduling_element_id);
	if (emu_gen_obj_of(type) != NULL)
		return MLX5_GET(general_obj_out_cmd_hdr, out, obj_id);
	return MLX5_GET(create_sq_out, out, sqn);
}

/*
 * The DESTROY_* command of object @p id of @p type, into @p in, as the
 * kernel's DEVX builds it when the object goes: DESTROY_GENERAL_OBJECT
 * with the type and obj_id for a general object.
 */
size_t
emu_fw_destroy_cmd(enum emu_obj_type type, uint32_t id, void *in,
		   size_t len)
{
	const struct emu_gen_obj *g = emu_gen_obj_of(type);
	size_t sz = type == EMU_OBJ_SCHED ?
		    MLX5_ST_SZ_BYTES(destroy_scheduling_element_in) :
		    g != NULL ? EMU_HDR_IN : MLX5_ST_SZ_BYTES(destroy_sq_in);

	if (len < sz)
		return 0;
	memset(in, 0, sz);
	MLX5_SET(mbox_in, in, opcode, emu_fw_destroy_opcode(type));
	if (type == EMU_OBJ_SCHED) {
		MLX5_SET(destroy_scheduling_element_in, in,
			 scheduling_hierarchy, MLX5_SCHEDULING_HIERARCHY_NIC);
		MLX5_SET(destroy_scheduling_element_in, in,
			 scheduling_element_id, id);
	} else if (g != NULL) {
		MLX5_SET(general_obj_in_cmd_hdr, in, obj_type, g->obj_type);
		MLX5_SET(general_obj_in_cmd_hdr, in, obj_id, id);
	} else {
		MLX5_SET(destroy_sq_in, in, sqn, id);
	}
	return sz;
}

bool
emu_fw_is_object_cmd(uint16_t opcode)
{
	const struct emu_cmd *c = emu_cmd_find(opcode);

	return c != NULL && c->kind != EMU_CMD_GENERAL;
}

int
emu_fw_exec(struct mlx5_emu *emu, const void *in, size_t inlen,
	    void *out, size_t outlen, uint64_t start)
{
	const struct emu_gen_obj *g;
	const struct emu_cmd *c;
	uint32_t synd = 0;
	uint16_t opcode;
	uint8_t status;

	if (in == NULL || out == NULL || inlen < 8 || outlen < 8)
		return -EINVAL;
	opcode = (uint16_t)MLX5_GET(mbox_in, in, opcode);
	memset(out, 0, outlen);
	c = emu_cmd_find(opcode);
	g = c != NULL && c->type == EMU_OBJ_GENERAL && inlen >= c->in_sz ?
	    emu_gen_obj_find(in) : NULL;
	if (emu_fault_cmd_hit(emu, opcode, &status, &synd)) {
		/* injected */
	} else if (c == NULL) {
		status = MLX5_CMD_STAT_BAD_OP_ERR;
		synd = MLX5_EMU_SYND_BAD_OPCODE;
	} else if (inlen < (g != NULL ? g->in_sz[c->kind] : c->in_sz)) {
		status = MLX5_CMD_STAT_BAD_INP_LEN_ERR;
		synd = MLX5_EMU_SYND_BAD_INLEN;
	} else if (outlen < (g != NULL ? g->out_sz[c->kind] : c->out_sz)) {
		status = MLX5_CMD_STAT_BAD_OUTP_LEN_ERR;
		synd = MLX5_EMU_SYND_BAD_OUTLEN;
	} else if (c->type == EMU_OBJ_GENERAL && g == NULL) {
		/* A general object type the device does not have. */
		status = MLX5_CMD_STAT_BAD_PARAM_ERR;
		synd = MLX5_EMU_SYND_BAD_FIELD;
	} else {
		status = (g != NULL ? g->fn[c->kind] : c->fn)(emu, in, inlen,
							       out, &synd);
	}
	emu->cmd_count++;
	emu->cmd_ns += emu_mono_ns() - start;
	if (status != MLX5_CMD_STAT_OK) {
		memset(out, 0, outlen);
		MLX5_SET(mbox_out, out, status, status);
		MLX5_SET(mbox_out, out, syndrome, synd);
	}
	if (emu->cmd_hook != NULL)
		emu->cmd_hook(emu->cmd_hook_arg, in, inlen, out, outlen,
			      status);
	if (status == MLX5_CMD_STAT_OK)
		return 0;
	emu->last_err.opcode = opcode;
	emu->last_err.status = status;
	emu->last_err.syndrome = synd;
	emu->last_err.count++;
	emu_log(EMU_LOG_DEBUG, "command 0x%x (%s) failed: status 0x%x "
		"syndrome 0x%08x", opcode, emu_fw_opcode_name(opcode), status,
		synd);
	return -EREMOTEIO;
}

void
mlx5_emu_set_cmd_hook(struct mlx5_emu *emu, mlx5_emu_cmd_hook_t fn, void *arg)
{
	emu_lock(emu);
	emu->cmd_hook = fn;
	emu->cmd_hook_arg = arg;
	emu_unlock(emu);
}
