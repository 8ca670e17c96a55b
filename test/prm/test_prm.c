/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Checks of the PRM layouts (mlx5_tm_prm.h, mlx5_tm_wqe.h), of the
 * MLX5_SET/MLX5_GET accessors and of the rdma-core glue on a machine with
 * no ConnectX device.
 *
 * The expected offsets and widths below are the facts being checked. They
 * were read from the public PRM headers named in each group's comment:
 * - DPDK drivers/common/mlx5/mlx5_prm.h;
 * - rdma-core providers/mlx5/mlx5_ifc.h;
 * - Linux include/linux/mlx5/mlx5_ifc.h (command headers shared by every
 *   command: mbox_in/mbox_out, and modify_cq_in);
 * where two of them hold a field they agree. WQE and CQE layouts are also
 * compared with rdma-core's <infiniband/mlx5dv.h> (test_prm_dv.c).
 *
 * Offsets, widths, sizes and constants are compile-time facts, checked
 * with _Static_assert: a wrong one fails the build. At run time a test
 * case is one named behaviour and counts once, failed if any of its
 * checks failed: one case per layout (MLX5_SET/MLX5_GET place every
 * listed field of it exactly), and one per function run by main().
 */

#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlx5_tm_glue.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_wqe.h"
#include "test_prm_dv.h"
#include "test_prm_structs.h"

/* A run-time case: its name, the fields it placed, whether it failed. */
struct prm_case {
	const char *name;
	unsigned int n_fields;
	bool failed;
};

/* Room for every layout and function case. */
#define PRM_CASES_MAX 96

static struct prm_case cases[PRM_CASES_MAX];
static unsigned int n_cases;
/* The case the checks count for now, NULL between cases. */
static struct prm_case *cur_case;
/* Checks that failed outside any case: each a failed case of its own. */
static unsigned int stray_failed;

/* Make case @p name (a literal) the current one, opening it if new. */
static struct prm_case *
case_enter(const char *name)
{
	unsigned int i;

	for (i = 0; i < n_cases; i++)
		if (strcmp(cases[i].name, name) == 0)
			return cur_case = &cases[i];
	if (n_cases == PRM_CASES_MAX) {
		printf("FAIL more than %d cases: raise PRM_CASES_MAX\n",
		       PRM_CASES_MAX);
		stray_failed++;
		return cur_case = NULL;
	}
	cases[n_cases].name = name;
	return cur_case = &cases[n_cases++];
}

static void
expect(bool ok, const char *what, const char *file, int line)
{
	if (ok)
		return;
	printf("FAIL %s:%d: %s\n", file, line, what);
	if (cur_case != NULL)
		cur_case->failed = true;
	else
		stray_failed++;
}

#define EXPECT(cond) expect((cond), #cond, __FILE__, __LINE__)

/* Expect @p got == @p want, printing both on failure. */
static void
expect_eq(unsigned long long got, unsigned long long want, const char *what,
	  const char *file, int line)
{
	if (got != want)
		printf("  %s: got 0x%llx, want 0x%llx\n", what, got, want);
	expect(got == want, what, file, line);
}

#define EXPECT_EQ(got, want) \
	expect_eq((unsigned long long)(got), (unsigned long long)(want), \
		  #got " == " #want, __FILE__, __LINE__)

/* Scratch buffer, larger than any layout; bytes past the layout must stay
 * untouched by MLX5_SET.
 */
static uint8_t buf[0x1100 + 64];

static int
bit_at(const uint8_t *p, size_t bit)
{
	return (p[bit / 8] >> (7 - bit % 8)) & 1;
}

/*
 * Check every bit of buf: bits [off, off + w) of the layout must hold
 * @p val (most significant bit first), the other bits of the layout
 * @p rest, and the bytes past the layout @p fill.
 */
static bool
bits_are(size_t layout_bytes, size_t off, size_t w, unsigned long long val,
	 int rest, uint8_t fill)
{
	size_t i;

	for (i = 0; i < layout_bytes * 8; i++) {
		int want = rest;

		if (i >= off && i < off + w)
			want = (val >> (w - 1 - (i - off))) & 1;
		if (bit_at(buf, i) != want)
			return false;
	}
	for (i = layout_bytes; i < sizeof(buf); i++)
		if (buf[i] != fill)
			return false;
	return true;
}

static unsigned long long
mask_of(size_t w)
{
	return w >= 64 ? ~0ULL : (1ULL << w) - 1;
}

/* A fact the compiler checks: @p a == @p b, or the build fails. */
#define STATIC_EQ(a, b) _Static_assert((a) == (b), #a " == " #b)

/* Offset and width of a field against the published layout (build time). */
#define FIELD(typ, fld, off, w) \
	STATIC_EQ(MLX5_BIT_OFF(typ, fld), (off)); \
	STATIC_EQ(MLX5_BIT_SZ(typ, fld), (w))

/* The checks that follow count for the case of layout @p typ. */
#define LAYOUT_CASE(typ) (case_enter("layout " #typ)->n_fields++)

/*
 * A field of at most 32 bits: offset and width (build time), and, in the
 * case of its layout, MLX5_SET/MLX5_GET placing exactly its bits,
 * big-endian, without touching any other bit.
 */
#define FIELD32(typ, fld, off, w) do { \
	const size_t sz_ = MLX5_ST_SZ_BYTES(typ); \
	const unsigned long long pat_ = 0xa5c3f00fULL & mask_of(w); \
	FIELD(typ, fld, off, w); \
	LAYOUT_CASE(typ); \
	memset(buf, 0, sizeof(buf)); \
	MLX5_SET(typ, buf, fld, 0xffffffffu); \
	EXPECT(bits_are(sz_, (off), (w), mask_of(w), 0, 0)); \
	EXPECT_EQ(MLX5_GET(typ, buf, fld), mask_of(w)); \
	memset(buf, 0xff, sizeof(buf)); \
	MLX5_SET(typ, buf, fld, 0); \
	EXPECT(bits_are(sz_, (off), (w), 0, 1, 0xff)); \
	EXPECT_EQ(MLX5_GET(typ, buf, fld), 0); \
	memset(buf, 0, sizeof(buf)); \
	MLX5_SET(typ, buf, fld, pat_); \
	EXPECT(bits_are(sz_, (off), (w), pat_, 0, 0)); \
	EXPECT_EQ(MLX5_GET(typ, buf, fld), pat_); \
} while (0)

/* A 64-bit field: offset (build time), and MLX5_SET64/MLX5_GET64 across
 * two dwords in the case of its layout.
 */
#define FIELD64(typ, fld, off) do { \
	const size_t sz_ = MLX5_ST_SZ_BYTES(typ); \
	const unsigned long long v_ = 0x0123456789abcdefULL; \
	FIELD(typ, fld, off, 64); \
	LAYOUT_CASE(typ); \
	memset(buf, 0, sizeof(buf)); \
	MLX5_SET64(typ, buf, fld, v_); \
	EXPECT(bits_are(sz_, (off), 64, v_, 0, 0)); \
	EXPECT_EQ(MLX5_GET64(typ, buf, fld), v_); \
	memset(buf, 0xff, sizeof(buf)); \
	MLX5_SET64(typ, buf, fld, 0); \
	EXPECT(bits_are(sz_, (off), 64, 0, 1, 0xff)); \
} while (0)

#define SIZE(typ, bits) \
	STATIC_EQ(MLX5_ST_SZ_BYTES(typ) * 8, (bits)); \
	STATIC_EQ(MLX5_ST_SZ_DW(typ) * 32, (bits))

#define UNION_SIZE(typ, bits) \
	STATIC_EQ(MLX5_UN_SZ_BYTES(typ) * 8, (bits)); \
	STATIC_EQ(MLX5_UN_SZ_DW(typ) * 32, (bits))

/* Full sizes of the layouts, in bits (build time). */
SIZE(mbox_in, 0x80); /* rdma-core */
SIZE(mbox_out, 0x80); /* rdma-core */
SIZE(cmd_hca_cap, 0x800); /* rdma-core */
SIZE(per_protocol_networking_offload_caps, 0x800); /* DPDK */
SIZE(qos_cap, 0x800); /* rdma-core */
SIZE(set_pp_rate_limit_context, 0x180); /* DPDK */
UNION_SIZE(hca_cap_union, 0x8000); /* rdma-core */
SIZE(query_hca_cap_in, 0x80); /* rdma-core */
SIZE(query_hca_cap_out, 0x8080); /* rdma-core */
SIZE(alloc_transport_domain_in, 0x80); /* DPDK */
SIZE(alloc_transport_domain_out, 0x80); /* rdma-core */
SIZE(dealloc_transport_domain_in, 0x80); /* rdma-core */
SIZE(dealloc_transport_domain_out, 0x80); /* Linux */
SIZE(tisc, 0x500); /* rdma-core */
SIZE(create_tis_in, 0x600); /* DPDK */
SIZE(create_tis_out, 0x80); /* rdma-core */
SIZE(modify_tis_bitmask, 0x40); /* rdma-core */
SIZE(modify_tis_in, 0x600); /* rdma-core */
SIZE(modify_tis_out, 0x80); /* rdma-core */
SIZE(destroy_tis_in, 0x80); /* rdma-core */
SIZE(destroy_tis_out, 0x80); /* Linux */
SIZE(query_tis_in, 0x80); /* rdma-core */
SIZE(query_tis_out, 0x580); /* rdma-core */
SIZE(wq, 0x600); /* DPDK */
SIZE(sqc, 0x780); /* rdma-core */
SIZE(create_sq_in, 0x880); /* DPDK */
SIZE(create_sq_out, 0x80); /* rdma-core */
SIZE(modify_sq_in, 0x880); /* rdma-core */
SIZE(modify_sq_out, 0x80); /* rdma-core */
SIZE(destroy_sq_in, 0x80); /* rdma-core */
SIZE(destroy_sq_out, 0x80); /* Linux */
SIZE(query_sq_in, 0x80); /* DPDK */
SIZE(query_sq_out, 0x880); /* DPDK */
SIZE(cqc, 0x200); /* DPDK */
SIZE(create_cq_in, 0x880); /* DPDK */
SIZE(create_cq_out, 0x80); /* rdma-core */
SIZE(destroy_cq_in, 0x80); /* rdma-core */
SIZE(destroy_cq_out, 0x80); /* Linux */
SIZE(query_cq_in, 0x80); /* DPDK */
SIZE(query_cq_out, 0x880); /* DPDK */
SIZE(modify_cq_in, 0x880); /* Linux */
SIZE(modify_cq_out, 0x80); /* Linux */
SIZE(nic_vport_context, 0x800); /* Linux (without the MAC list) */
SIZE(query_nic_vport_context_in, 0x80); /* Linux */
SIZE(query_nic_vport_context_out, 0x880); /* Linux */
SIZE(tsar_element, 0x20); /* Linux */
UNION_SIZE(element_attributes, 0x20); /* Linux */
SIZE(scheduling_context, 0x200); /* Linux */
SIZE(create_scheduling_element_in, 0x400); /* Linux */
SIZE(create_scheduling_element_out, 0x200); /* Linux */
SIZE(modify_scheduling_element_in, 0x400); /* Linux */
SIZE(modify_scheduling_element_out, 0x200); /* Linux */
SIZE(query_scheduling_element_in, 0x200); /* Linux */
SIZE(query_scheduling_element_out, 0x400); /* Linux */
SIZE(destroy_scheduling_element_in, 0x200); /* Linux */
SIZE(destroy_scheduling_element_out, 0x200); /* Linux */
SIZE(general_obj_in_cmd_hdr, 0x80); /* rdma-core */
SIZE(general_obj_out_cmd_hdr, 0x80); /* rdma-core */
SIZE(sched_elem, 0x400); /* rdma-core */
SIZE(create_sched_elem_in, 0x480); /* rdma-core */
SIZE(query_sched_elem_out, 0x480); /* rdma-core layout of a query */
SIZE(traffic_counter, 0x80); /* Linux */
SIZE(query_vport_counter_in, 0x100); /* Linux */
SIZE(query_vport_counter_out, 0x1080); /* Linux */

/* WQE and CQE layouts: rdma-core mlx5dv.h, Linux qp.h/cq.h. */
SIZE(wqe_ctrl_seg, 0x80);
SIZE(wqe_eth_seg, 0x80);
SIZE(wqe_eth_seg_vlan, 0x80);
SIZE(wqe_data_seg, 0x80);
SIZE(wqe_inline_seg, 0x20);
SIZE(cqe64, 0x200);
SIZE(err_cqe64, 0x200);

/* Offsets and widths of every named field, with SET/GET placement. */
static void
test_fields(void)
{
	/* mbox_in: rdma-core mlx5_ifc.h */
	FIELD32(mbox_in, opcode, 0x0, 0x10);
	FIELD32(mbox_in, uid, 0x10, 0x10);
	FIELD32(mbox_in, op_mod, 0x30, 0x10);

	/* mbox_out: rdma-core mlx5_ifc.h */
	FIELD32(mbox_out, status, 0x0, 0x8);
	FIELD32(mbox_out, syndrome, 0x20, 0x20);

	/* cmd_hca_cap: DPDK mlx5_prm.h */
	FIELD32(cmd_hca_cap, log_max_qp, 0x9b, 0x5);
	FIELD32(cmd_hca_cap, log_max_cq_sz, 0xc8, 0x8);
	FIELD32(cmd_hca_cap, log_max_cq, 0xdb, 0x5);
	FIELD32(cmd_hca_cap, log_max_eq_sz, 0xe0, 0x8);
	FIELD32(cmd_hca_cap, log_max_eq, 0xfc, 0x4);
	FIELD32(cmd_hca_cap, port_type, 0x1b6, 0x2);
	FIELD32(cmd_hca_cap, num_ports, 0x1b8, 0x8);
	FIELD32(cmd_hca_cap, log_max_msg, 0x1c3, 0x5);
	FIELD32(cmd_hca_cap, cqe_version, 0x1fc, 0x4);
	FIELD32(cmd_hca_cap, qos, 0x21b, 0x1);
	FIELD32(cmd_hca_cap, eth_net_offloads, 0x21c, 0x1);
	FIELD32(cmd_hca_cap, roce, 0x21d, 0x1);
	FIELD32(cmd_hca_cap, cq_moderation, 0x222, 0x1);
	FIELD32(cmd_hca_cap, uar_4k, 0x240, 0x1);
	FIELD32(cmd_hca_cap, uar_sz, 0x24a, 0x6);
	FIELD32(cmd_hca_cap, log_bf_reg_size, 0x26b, 0x5);
	FIELD32(cmd_hca_cap, max_wqe_sz_sq, 0x290, 0x10);
	FIELD32(cmd_hca_cap, log_max_transport_domain, 0x323, 0x5);
	FIELD32(cmd_hca_cap, log_max_pd, 0x32b, 0x5);
	FIELD32(cmd_hca_cap, log_max_rq, 0x363, 0x5);
	FIELD32(cmd_hca_cap, log_max_sq, 0x36b, 0x5);
	FIELD32(cmd_hca_cap, log_max_tis, 0x37b, 0x5);
	FIELD32(cmd_hca_cap, log_max_tis_per_sq, 0x39b, 0x5);
	FIELD32(cmd_hca_cap, log_max_wq_sz, 0x3db, 0x5);
	FIELD32(cmd_hca_cap, sq_ts_format, 0x440, 0x2);
	FIELD32(cmd_hca_cap, log_uar_page_sz, 0x490, 0x10);
	FIELD32(cmd_hca_cap, device_frequency_mhz, 0x4c0, 0x20);
	FIELD32(cmd_hca_cap, device_frequency_khz, 0x4e0, 0x20);
	FIELD32(cmd_hca_cap, num_of_uars_per_page, 0x520, 0x20);

	/* per_protocol_networking_offload_caps: DPDK mlx5_prm.h */
	FIELD32(per_protocol_networking_offload_caps, csum_cap, 0x0, 0x1);
	FIELD32(per_protocol_networking_offload_caps, vlan_cap, 0x1, 0x1);
	FIELD32(per_protocol_networking_offload_caps, lro_cap, 0x2, 0x1);
	FIELD32(per_protocol_networking_offload_caps, wqe_vlan_insert, 0x7, 0x1);
	FIELD32(per_protocol_networking_offload_caps, max_lso_cap, 0xb, 0x5);
	FIELD32(per_protocol_networking_offload_caps, multi_pkt_send_wqe, 0x10, 0x2);
	FIELD32(per_protocol_networking_offload_caps, wqe_inline_mode, 0x12, 0x2);
	FIELD32(per_protocol_networking_offload_caps, rss_ind_tbl_cap, 0x14, 0x4);
	FIELD32(per_protocol_networking_offload_caps, enhanced_multi_pkt_send_wqe, 0x1a, 0x1);
	FIELD32(per_protocol_networking_offload_caps, swp, 0x20, 0x1);
	FIELD32(per_protocol_networking_offload_caps, swp_csum, 0x21, 0x1);
	FIELD32(per_protocol_networking_offload_caps, swp_lso, 0x22, 0x1);

	/* qos_cap: DPDK mlx5_prm.h, rdma-core mlx5_ifc.h */
	FIELD32(qos_cap, packet_pacing, 0x0, 0x1);
	FIELD32(qos_cap, esw_scheduling, 0x1, 0x1);
	FIELD32(qos_cap, packet_pacing_burst_bound, 0x5, 0x1);
	FIELD32(qos_cap, packet_pacing_typical_size, 0x6, 0x1);
	FIELD32(qos_cap, nic_sq_scheduling, 0x8, 0x1);
	/* rdma-core tests/mlx5_prm_structs.py (QosCaps). */
	FIELD32(qos_cap, log_nic_max_sched_depth, 0x24, 0x4);
	FIELD32(qos_cap, nic_bw_share, 0x9, 0x1);
	FIELD32(qos_cap, nic_rate_limit, 0xa, 0x1);
	FIELD32(qos_cap, wqe_rate_pp, 0x20, 0x1);
	FIELD32(qos_cap, packet_pacing_max_rate, 0x40, 0x20);
	FIELD32(qos_cap, packet_pacing_min_rate, 0x60, 0x20);
	FIELD32(qos_cap, packet_pacing_rate_table_size, 0x90, 0x10);
	/* qos_cap, NIC scheduling: Linux mlx5_ifc.h, DPDK mlx5_prm.h */
	FIELD32(qos_cap, log_max_qos_nic_queue_group, 0x2b, 0x5);
	FIELD32(qos_cap, max_tsar_bw_share, 0xe0, 0x20);
	FIELD32(qos_cap, nic_element_type, 0x100, 0x10);
	FIELD32(qos_cap, nic_tsar_type, 0x110, 0x10);
	/* rdma-core tests/mlx5_prm_structs.py (QueryQosCapOut) */
	FIELD32(qos_cap, log_max_qos_nic_scheduling_element, 0x143, 0x5);

	/* set_pp_rate_limit_context: DPDK mlx5_prm.h */
	FIELD32(set_pp_rate_limit_context, rate_limit, 0x0, 0x20);
	FIELD32(set_pp_rate_limit_context, burst_upper_bound, 0x20, 0x20);
	FIELD32(set_pp_rate_limit_context, rate_mode, 0x4c, 0x4);
	FIELD32(set_pp_rate_limit_context, typical_packet_size, 0x50, 0x10);

	/* hca_cap_union: Linux mlx5_ifc.h */
	FIELD(query_hca_cap_out, capability.cmd_hca_cap, 0x80, 0x800);
	FIELD(query_hca_cap_out, capability.per_protocol_networking_offload_caps, 0x80, 0x800);
	FIELD(query_hca_cap_out, capability.qos_cap, 0x80, 0x800);

	/* query_hca_cap_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h, rdma-core mlx5_ifc.h */
	FIELD32(query_hca_cap_in, opcode, 0x0, 0x10);
	FIELD32(query_hca_cap_in, uid, 0x10, 0x10);
	FIELD32(query_hca_cap_in, op_mod, 0x30, 0x10);
	FIELD32(query_hca_cap_in, other_function, 0x40, 0x1);
	FIELD32(query_hca_cap_in, function_id, 0x50, 0x10);

	/* query_hca_cap_out: DPDK mlx5_prm.h */
	FIELD32(query_hca_cap_out, status, 0x0, 0x8);
	FIELD32(query_hca_cap_out, syndrome, 0x20, 0x20);
	FIELD(query_hca_cap_out, capability, 0x80, 0x8000);

	/* alloc_transport_domain_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(alloc_transport_domain_in, opcode, 0x0, 0x10);
	FIELD32(alloc_transport_domain_in, uid, 0x10, 0x10);
	FIELD32(alloc_transport_domain_in, op_mod, 0x30, 0x10);

	/* alloc_transport_domain_out: DPDK mlx5_prm.h */
	FIELD32(alloc_transport_domain_out, status, 0x0, 0x8);
	FIELD32(alloc_transport_domain_out, syndrome, 0x20, 0x20);
	FIELD32(alloc_transport_domain_out, transport_domain, 0x48, 0x18);

	/* dealloc_transport_domain_in: Linux mlx5_ifc.h, rdma-core mlx5_ifc.h */
	FIELD32(dealloc_transport_domain_in, opcode, 0x0, 0x10);
	FIELD32(dealloc_transport_domain_in, uid, 0x10, 0x10);
	FIELD32(dealloc_transport_domain_in, op_mod, 0x30, 0x10);
	FIELD32(dealloc_transport_domain_in, transport_domain, 0x48, 0x18);

	/* dealloc_transport_domain_out: Linux mlx5_ifc.h */
	FIELD32(dealloc_transport_domain_out, status, 0x0, 0x8);
	FIELD32(dealloc_transport_domain_out, syndrome, 0x20, 0x20);

	/* tisc: DPDK mlx5_prm.h, rdma-core mlx5_ifc.h */
	FIELD32(tisc, strict_lag_tx_port_affinity, 0x0, 0x1);
	FIELD32(tisc, tls_en, 0x1, 0x1);
	FIELD32(tisc, lag_tx_port_affinity, 0x4, 0x4);
	FIELD32(tisc, prio, 0xc, 0x4);
	FIELD32(tisc, transport_domain, 0x128, 0x18);
	FIELD32(tisc, underlay_qpn, 0x148, 0x18);
	FIELD32(tisc, pd, 0x168, 0x18);

	/* create_tis_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(create_tis_in, opcode, 0x0, 0x10);
	FIELD32(create_tis_in, uid, 0x10, 0x10);
	FIELD32(create_tis_in, op_mod, 0x30, 0x10);
	FIELD(create_tis_in, ctx, 0x100, 0x500);

	/* create_tis_out: DPDK mlx5_prm.h */
	FIELD32(create_tis_out, status, 0x0, 0x8);
	FIELD32(create_tis_out, syndrome, 0x20, 0x20);
	FIELD32(create_tis_out, tisn, 0x48, 0x18);

	/* modify_tis_bitmask: rdma-core mlx5_ifc.h */
	FIELD32(modify_tis_bitmask, lag_tx_port_affinity, 0x3d, 0x1);
	FIELD32(modify_tis_bitmask, strict_lag_tx_port_affinity, 0x3e, 0x1);
	FIELD32(modify_tis_bitmask, prio, 0x3f, 0x1);

	/* modify_tis_in: Linux mlx5_ifc.h, rdma-core mlx5_ifc.h */
	FIELD32(modify_tis_in, opcode, 0x0, 0x10);
	FIELD32(modify_tis_in, uid, 0x10, 0x10);
	FIELD32(modify_tis_in, op_mod, 0x30, 0x10);
	FIELD32(modify_tis_in, tisn, 0x48, 0x18);
	FIELD(modify_tis_in, bitmask, 0x80, 0x40);
	FIELD(modify_tis_in, ctx, 0x100, 0x500);

	/* modify_tis_out: rdma-core mlx5_ifc.h */
	FIELD32(modify_tis_out, status, 0x0, 0x8);
	FIELD32(modify_tis_out, syndrome, 0x20, 0x20);

	/* destroy_tis_in: Linux mlx5_ifc.h, rdma-core mlx5_ifc.h */
	FIELD32(destroy_tis_in, opcode, 0x0, 0x10);
	FIELD32(destroy_tis_in, uid, 0x10, 0x10);
	FIELD32(destroy_tis_in, op_mod, 0x30, 0x10);
	FIELD32(destroy_tis_in, tisn, 0x48, 0x18);

	/* destroy_tis_out: Linux mlx5_ifc.h */
	FIELD32(destroy_tis_out, status, 0x0, 0x8);
	FIELD32(destroy_tis_out, syndrome, 0x20, 0x20);

	/* query_tis_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(query_tis_in, opcode, 0x0, 0x10);
	FIELD32(query_tis_in, uid, 0x10, 0x10);
	FIELD32(query_tis_in, op_mod, 0x30, 0x10);
	FIELD32(query_tis_in, tisn, 0x48, 0x18);

	/* query_tis_out: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(query_tis_out, status, 0x0, 0x8);
	FIELD32(query_tis_out, syndrome, 0x20, 0x20);
	FIELD(query_tis_out, tis_context, 0x80, 0x500);

	/* wq: DPDK mlx5_prm.h */
	FIELD32(wq, wq_type, 0x0, 0x4);
	FIELD32(wq, wq_signature, 0x4, 0x1);
	FIELD32(wq, end_padding_mode, 0x5, 0x2);
	FIELD32(wq, cd_slave, 0x7, 0x1);
	FIELD32(wq, page_offset, 0x2b, 0x5);
	FIELD32(wq, lwm, 0x30, 0x10);
	FIELD32(wq, pd, 0x48, 0x18);
	FIELD32(wq, uar_page, 0x68, 0x18);
	FIELD64(wq, dbr_addr, 0x80);
	FIELD32(wq, hw_counter, 0xc0, 0x20);
	FIELD32(wq, sw_counter, 0xe0, 0x20);
	FIELD32(wq, log_wq_stride, 0x10c, 0x4);
	FIELD32(wq, log_wq_pg_sz, 0x113, 0x5);
	FIELD32(wq, log_wq_sz, 0x11b, 0x5);
	FIELD32(wq, dbr_umem_valid, 0x120, 0x1);
	FIELD32(wq, wq_umem_valid, 0x121, 0x1);
	FIELD32(wq, dbr_umem_id, 0x140, 0x20);
	FIELD32(wq, wq_umem_id, 0x160, 0x20);
	FIELD64(wq, wq_umem_offset, 0x180);

	/* sqc: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(sqc, rlky, 0x0, 0x1);
	FIELD32(sqc, cd_master, 0x1, 0x1);
	FIELD32(sqc, fre, 0x2, 0x1);
	FIELD32(sqc, flush_in_error_en, 0x3, 0x1);
	FIELD32(sqc, allow_multi_pkt_send_wqe, 0x4, 0x1);
	FIELD32(sqc, min_wqe_inline_mode, 0x5, 0x3);
	FIELD32(sqc, state, 0x8, 0x4);
	FIELD32(sqc, reg_umr, 0xc, 0x1);
	FIELD32(sqc, allow_swp, 0xd, 0x1);
	FIELD32(sqc, hairpin, 0xe, 0x1);
	FIELD32(sqc, non_wire, 0xf, 0x1);
	FIELD32(sqc, static_sq_wq, 0x10, 0x1);
	FIELD32(sqc, ts_format, 0x1a, 0x2);
	FIELD32(sqc, user_index, 0x28, 0x18);
	FIELD32(sqc, cqn, 0x48, 0x18);
	FIELD32(sqc, packet_pacing_rate_limit_index, 0xf0, 0x10);
	FIELD32(sqc, tis_lst_sz, 0x100, 0x10);
	FIELD32(sqc, qos_queue_group_id, 0x110, 0x10); /* Linux, rdma-core */
	FIELD32(sqc, tis_num_0, 0x168, 0x18);
	FIELD(sqc, wq, 0x180, 0x600);

	/* create_sq_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(create_sq_in, opcode, 0x0, 0x10);
	FIELD32(create_sq_in, uid, 0x10, 0x10);
	FIELD32(create_sq_in, op_mod, 0x30, 0x10);
	FIELD(create_sq_in, ctx, 0x100, 0x780);

	/* create_sq_out: DPDK mlx5_prm.h */
	FIELD32(create_sq_out, status, 0x0, 0x8);
	FIELD32(create_sq_out, syndrome, 0x20, 0x20);
	FIELD32(create_sq_out, sqn, 0x48, 0x18);

	/* modify_sq_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(modify_sq_in, opcode, 0x0, 0x10);
	FIELD32(modify_sq_in, uid, 0x10, 0x10);
	FIELD32(modify_sq_in, op_mod, 0x30, 0x10);
	FIELD32(modify_sq_in, sq_state, 0x40, 0x4);
	FIELD32(modify_sq_in, sqn, 0x48, 0x18);
	FIELD64(modify_sq_in, modify_bitmask, 0x80);
	FIELD(modify_sq_in, ctx, 0x100, 0x780);

	/* modify_sq_out: DPDK mlx5_prm.h */
	FIELD32(modify_sq_out, status, 0x0, 0x8);
	FIELD32(modify_sq_out, syndrome, 0x20, 0x20);

	/* destroy_sq_in: Linux mlx5_ifc.h, rdma-core mlx5_ifc.h */
	FIELD32(destroy_sq_in, opcode, 0x0, 0x10);
	FIELD32(destroy_sq_in, uid, 0x10, 0x10);
	FIELD32(destroy_sq_in, op_mod, 0x30, 0x10);
	FIELD32(destroy_sq_in, sqn, 0x48, 0x18);

	/* destroy_sq_out: Linux mlx5_ifc.h */
	FIELD32(destroy_sq_out, status, 0x0, 0x8);
	FIELD32(destroy_sq_out, syndrome, 0x20, 0x20);

	/* query_sq_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(query_sq_in, opcode, 0x0, 0x10);
	FIELD32(query_sq_in, uid, 0x10, 0x10);
	FIELD32(query_sq_in, op_mod, 0x30, 0x10);
	FIELD32(query_sq_in, sqn, 0x48, 0x18);

	/* query_sq_out: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(query_sq_out, status, 0x0, 0x8);
	FIELD32(query_sq_out, syndrome, 0x20, 0x20);
	FIELD(query_sq_out, sq_context, 0x100, 0x780);

	/* cqc: DPDK mlx5_prm.h */
	FIELD32(cqc, status, 0x0, 0x4);
	FIELD32(cqc, as_notify, 0x4, 0x1);
	FIELD32(cqc, initiator_src_dct, 0x5, 0x1);
	FIELD32(cqc, dbr_umem_valid, 0x6, 0x1);
	FIELD32(cqc, cqe_sz, 0x8, 0x3);
	FIELD32(cqc, cc, 0xb, 0x1);
	FIELD32(cqc, scqe_break_moderation_en, 0xd, 0x1);
	FIELD32(cqc, oi, 0xe, 0x1);
	FIELD32(cqc, cq_period_mode, 0xf, 0x2);
	FIELD32(cqc, cqe_comp_en, 0x11, 0x1);
	FIELD32(cqc, mini_cqe_res_format, 0x12, 0x2);
	FIELD32(cqc, st, 0x14, 0x4);
	FIELD32(cqc, dbr_umem_id, 0x20, 0x20);
	FIELD32(cqc, page_offset, 0x54, 0x6);
	FIELD32(cqc, cq_timestamp_format, 0x5e, 0x2);
	FIELD32(cqc, log_cq_size, 0x63, 0x5);
	FIELD32(cqc, uar_page, 0x68, 0x18);
	FIELD32(cqc, cq_period, 0x84, 0xc);
	FIELD32(cqc, cq_max_count, 0x90, 0x10);
	FIELD32(cqc, c_eqn, 0xb8, 0x8);
	FIELD32(cqc, log_page_size, 0xc3, 0x5);
	FIELD32(cqc, last_notified_index, 0x108, 0x18);
	FIELD32(cqc, last_solicit_index, 0x128, 0x18);
	FIELD32(cqc, consumer_counter, 0x148, 0x18);
	FIELD32(cqc, producer_counter, 0x168, 0x18);
	FIELD64(cqc, dbr_addr, 0x1c0);

	/* create_cq_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(create_cq_in, opcode, 0x0, 0x10);
	FIELD32(create_cq_in, uid, 0x10, 0x10);
	FIELD32(create_cq_in, op_mod, 0x30, 0x10);
	FIELD(create_cq_in, cq_context, 0x80, 0x200);
	FIELD64(create_cq_in, cq_umem_offset, 0x280);
	FIELD32(create_cq_in, cq_umem_id, 0x2c0, 0x20);
	FIELD32(create_cq_in, cq_umem_valid, 0x2e0, 0x1);

	/* create_cq_out: DPDK mlx5_prm.h */
	FIELD32(create_cq_out, status, 0x0, 0x8);
	FIELD32(create_cq_out, syndrome, 0x20, 0x20);
	FIELD32(create_cq_out, cqn, 0x48, 0x18);

	/* destroy_cq_in: Linux mlx5_ifc.h, rdma-core mlx5_ifc.h */
	FIELD32(destroy_cq_in, opcode, 0x0, 0x10);
	FIELD32(destroy_cq_in, uid, 0x10, 0x10);
	FIELD32(destroy_cq_in, op_mod, 0x30, 0x10);
	FIELD32(destroy_cq_in, cqn, 0x48, 0x18);

	/* destroy_cq_out: Linux mlx5_ifc.h */
	FIELD32(destroy_cq_out, status, 0x0, 0x8);
	FIELD32(destroy_cq_out, syndrome, 0x20, 0x20);

	/* query_cq_in: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(query_cq_in, opcode, 0x0, 0x10);
	FIELD32(query_cq_in, uid, 0x10, 0x10);
	FIELD32(query_cq_in, op_mod, 0x30, 0x10);
	FIELD32(query_cq_in, cqn, 0x48, 0x18);

	/* query_cq_out: DPDK mlx5_prm.h, Linux mlx5_ifc.h */
	FIELD32(query_cq_out, status, 0x0, 0x8);
	FIELD32(query_cq_out, syndrome, 0x20, 0x20);
	FIELD(query_cq_out, cq_context, 0x80, 0x200);

	/* modify_cq_in: Linux mlx5_ifc.h */
	FIELD32(modify_cq_in, opcode, 0x0, 0x10);
	FIELD32(modify_cq_in, uid, 0x10, 0x10);
	FIELD32(modify_cq_in, op_mod, 0x30, 0x10);
	FIELD32(modify_cq_in, cqn, 0x48, 0x18);
	FIELD32(modify_cq_in, modify_field_select, 0x60, 0x20);
	FIELD(modify_cq_in, cq_context, 0x80, 0x200);
	FIELD32(modify_cq_in, cq_umem_valid, 0x2e0, 0x1);

	/* modify_cq_out: Linux mlx5_ifc.h */
	FIELD32(modify_cq_out, status, 0x0, 0x8);
	FIELD32(modify_cq_out, syndrome, 0x20, 0x20);

	/* nic_vport_context: Linux mlx5_ifc.h, DPDK mlx5_prm.h */
	FIELD32(nic_vport_context, min_wqe_inline_mode, 0x5, 0x3);

	/* query_vport_counter_in/out, traffic_counter: Linux mlx5_ifc.h */
	FIELD32(query_vport_counter_in, opcode, 0x0, 0x10);
	FIELD32(query_vport_counter_in, other_vport, 0x40, 0x1);
	FIELD32(query_vport_counter_in, port_num, 0x4c, 0x4);
	FIELD32(query_vport_counter_in, vport_number, 0x50, 0x10);
	FIELD32(query_vport_counter_in, clear, 0xc0, 0x1);
	FIELD64(traffic_counter, packets, 0x0);
	FIELD64(traffic_counter, octets, 0x40);
	FIELD32(query_vport_counter_out, status, 0x0, 0x8);
	FIELD32(query_vport_counter_out, syndrome, 0x20, 0x20);
	FIELD(query_vport_counter_out, transmitted_eth_broadcast, 0x400, 0x80);
	FIELD(query_vport_counter_out, transmitted_eth_unicast, 0x500, 0x80);
	FIELD(query_vport_counter_out, transmitted_eth_multicast, 0x600, 0x80);

	/* query_nic_vport_context_in: Linux mlx5_ifc.h, DPDK mlx5_prm.h */
	FIELD32(query_nic_vport_context_in, opcode, 0x0, 0x10);
	FIELD32(query_nic_vport_context_in, uid, 0x10, 0x10);
	FIELD32(query_nic_vport_context_in, op_mod, 0x30, 0x10);
	FIELD32(query_nic_vport_context_in, other_vport, 0x40, 0x1);
	FIELD32(query_nic_vport_context_in, vport_number, 0x50, 0x10);
	FIELD32(query_nic_vport_context_in, allowed_list_type, 0x65, 0x3);

	/* scheduling_context, tsar_element: Linux mlx5_ifc.h, rdma-core */
	FIELD32(scheduling_context, element_type, 0x0, 0x8);
	FIELD(scheduling_context, element_attributes, 0x20, 0x20);
	FIELD32(scheduling_context, element_attributes.tsar.traffic_class,
		0x20, 0x4);
	FIELD32(scheduling_context, element_attributes.tsar.tsar_type,
		0x28, 0x8);
	FIELD32(scheduling_context, parent_element_id, 0x40, 0x20);
	FIELD32(scheduling_context, bw_share, 0xa0, 0x20);
	FIELD32(scheduling_context, max_average_bw, 0xc0, 0x20);

	/* create_scheduling_element_in/out: Linux mlx5_ifc.h */
	FIELD32(create_scheduling_element_in, opcode, 0x0, 0x10);
	FIELD32(create_scheduling_element_in, uid, 0x10, 0x10);
	FIELD32(create_scheduling_element_in, op_mod, 0x30, 0x10);
	FIELD32(create_scheduling_element_in, scheduling_hierarchy,
		0x40, 0x8);
	FIELD(create_scheduling_element_in, scheduling_context, 0x100, 0x200);
	FIELD32(create_scheduling_element_out, status, 0x0, 0x8);
	FIELD32(create_scheduling_element_out, syndrome, 0x20, 0x20);
	FIELD32(create_scheduling_element_out, scheduling_element_id,
		0x80, 0x20);

	/* modify_scheduling_element_in/out: Linux mlx5_ifc.h */
	FIELD32(modify_scheduling_element_in, opcode, 0x0, 0x10);
	FIELD32(modify_scheduling_element_in, uid, 0x10, 0x10);
	FIELD32(modify_scheduling_element_in, scheduling_hierarchy,
		0x40, 0x8);
	FIELD32(modify_scheduling_element_in, scheduling_element_id,
		0x60, 0x20);
	FIELD32(modify_scheduling_element_in, modify_bitmask, 0xa0, 0x20);
	FIELD(modify_scheduling_element_in, scheduling_context, 0x100, 0x200);
	FIELD32(modify_scheduling_element_out, status, 0x0, 0x8);
	FIELD32(modify_scheduling_element_out, syndrome, 0x20, 0x20);

	/* query_scheduling_element_in/out: Linux mlx5_ifc.h */
	FIELD32(query_scheduling_element_in, opcode, 0x0, 0x10);
	FIELD32(query_scheduling_element_in, scheduling_hierarchy, 0x40, 0x8);
	FIELD32(query_scheduling_element_in, scheduling_element_id,
		0x60, 0x20);
	FIELD32(query_scheduling_element_out, status, 0x0, 0x8);
	FIELD32(query_scheduling_element_out, syndrome, 0x20, 0x20);
	FIELD(query_scheduling_element_out, scheduling_context, 0x100, 0x200);

	/* destroy_scheduling_element_in/out: Linux mlx5_ifc.h, rdma-core */
	FIELD32(destroy_scheduling_element_in, opcode, 0x0, 0x10);
	FIELD32(destroy_scheduling_element_in, scheduling_hierarchy,
		0x40, 0x8);
	FIELD32(destroy_scheduling_element_in, scheduling_element_id,
		0x60, 0x20);
	FIELD32(destroy_scheduling_element_out, status, 0x0, 0x8);
	FIELD32(destroy_scheduling_element_out, syndrome, 0x20, 0x20);

	/* General objects: rdma-core mlx5_ifc.h (general_obj_in_cmd_hdr,
	 * general_obj_out_cmd_hdr, sched_elem, create_sched_elem_in). */
	FIELD32(general_obj_in_cmd_hdr, opcode, 0x0, 0x10);
	FIELD32(general_obj_in_cmd_hdr, uid, 0x10, 0x10);
	FIELD32(general_obj_in_cmd_hdr, obj_type, 0x30, 0x10);
	FIELD32(general_obj_in_cmd_hdr, obj_id, 0x40, 0x20);
	FIELD32(general_obj_in_cmd_hdr, log_obj_range, 0x63, 0x5);
	FIELD32(general_obj_out_cmd_hdr, status, 0x0, 0x8);
	FIELD32(general_obj_out_cmd_hdr, syndrome, 0x20, 0x20);
	FIELD32(general_obj_out_cmd_hdr, obj_id, 0x40, 0x20);
	FIELD(sched_elem, modify_field_select, 0x0, 0x40);
	FIELD32(sched_elem, scheduling_hierarchy, 0x40, 0x8);
	FIELD(sched_elem, sched_context, 0x100, 0x200);
	FIELD(create_sched_elem_in, hdr, 0x0, 0x80);
	FIELD(create_sched_elem_in, sched_elem, 0x80, 0x400);
	FIELD32(create_sched_elem_in, sched_elem.scheduling_hierarchy,
		0xc0, 0x8);
	FIELD32(create_sched_elem_in, sched_elem.sched_context.element_type,
		0x180, 0x8);
	FIELD32(create_sched_elem_in,
		sched_elem.sched_context.parent_element_id, 0x1c0, 0x20);
	FIELD32(create_sched_elem_in, sched_elem.sched_context.bw_share,
		0x220, 0x20);
	FIELD32(create_sched_elem_in, sched_elem.sched_context.max_average_bw,
		0x240, 0x20);
	FIELD(query_sched_elem_out, sched_elem, 0x80, 0x400);

	/* query_nic_vport_context_out: Linux mlx5_ifc.h, DPDK mlx5_prm.h */
	FIELD32(query_nic_vport_context_out, status, 0x0, 0x8);
	FIELD32(query_nic_vport_context_out, syndrome, 0x20, 0x20);
	FIELD(query_nic_vport_context_out, nic_vport_context, 0x80, 0x800);
	FIELD32(query_nic_vport_context_out,
		nic_vport_context.min_wqe_inline_mode, 0x85, 0x3);

	/* WQE and CQE: rdma-core mlx5dv.h (struct mlx5_wqe_ctrl_seg,
	 * mlx5_wqe_eth_seg, mlx5_wqe_data_seg, mlx5_cqe64, mlx5_err_cqe),
	 * Linux qp.h (struct mlx5_wqe_eth_seg insert.type/vlan_tci) and DPDK
	 * mlx5_prm.h (error CQE hw_err_synd/hw_synd_type).
	 */
	FIELD32(wqe_ctrl_seg, opc_mod, 0x0, 0x8);
	FIELD32(wqe_ctrl_seg, wqe_index, 0x8, 0x10);
	FIELD32(wqe_ctrl_seg, opcode, 0x18, 0x8);
	FIELD32(wqe_ctrl_seg, qpn_or_sqn, 0x20, 0x18);
	FIELD32(wqe_ctrl_seg, ds, 0x38, 0x8);
	FIELD32(wqe_ctrl_seg, signature, 0x40, 0x8);
	FIELD32(wqe_ctrl_seg, fence, 0x58, 0x3);
	FIELD32(wqe_ctrl_seg, ce, 0x5c, 0x2);
	FIELD32(wqe_ctrl_seg, se, 0x5e, 0x1);
	FIELD32(wqe_ctrl_seg, imm, 0x60, 0x20);
	FIELD32(wqe_eth_seg, swp_outer_l4_offset, 0x0, 0x8);
	FIELD32(wqe_eth_seg, swp_outer_l3_offset, 0x8, 0x8);
	FIELD32(wqe_eth_seg, swp_inner_l4_offset, 0x10, 0x8);
	FIELD32(wqe_eth_seg, swp_inner_l3_offset, 0x18, 0x8);
	FIELD32(wqe_eth_seg, cs_flags, 0x20, 0x8);
	FIELD32(wqe_eth_seg, swp_flags, 0x28, 0x8);
	FIELD32(wqe_eth_seg, mss, 0x30, 0x10);
	FIELD32(wqe_eth_seg, flow_table_metadata, 0x40, 0x20);
	FIELD32(wqe_eth_seg, inline_hdr_sz, 0x60, 0x10);
	FIELD32(wqe_eth_seg, inline_hdr_start, 0x70, 0x10);
	FIELD32(wqe_eth_seg_vlan, insert_type, 0x60, 0x10);
	FIELD32(wqe_eth_seg_vlan, vlan_tci, 0x70, 0x10);
	FIELD32(wqe_data_seg, byte_count, 0x0, 0x20);
	FIELD32(wqe_data_seg, lkey, 0x20, 0x20);
	FIELD64(wqe_data_seg, addr, 0x40);
	FIELD32(wqe_inline_seg, inl, 0x0, 0x1);
	FIELD32(wqe_inline_seg, byte_count, 0x1, 0x1f);
	FIELD32(cqe64, srqn_uidx, 0x100, 0x20);
	FIELD32(cqe64, imm_inval_pkey, 0x120, 0x20);
	FIELD32(cqe64, app, 0x140, 0x8);
	FIELD32(cqe64, app_op, 0x148, 0x8);
	FIELD32(cqe64, app_info, 0x150, 0x10);
	FIELD32(cqe64, byte_cnt, 0x160, 0x20);
	FIELD64(cqe64, timestamp, 0x180);
	FIELD32(cqe64, sop_drop, 0x1c0, 0x8);
	FIELD32(cqe64, qpn, 0x1c8, 0x18);
	FIELD32(cqe64, wqe_counter, 0x1e0, 0x10);
	FIELD32(cqe64, signature, 0x1f0, 0x8);
	FIELD32(cqe64, opcode, 0x1f8, 0x4);
	FIELD32(cqe64, cqe_format, 0x1fc, 0x2);
	FIELD32(cqe64, se, 0x1fe, 0x1);
	FIELD32(cqe64, owner, 0x1ff, 0x1);
	FIELD32(err_cqe64, srqn, 0x100, 0x20);
	FIELD32(err_cqe64, hw_error_syndrome, 0x1a0, 0x8);
	FIELD32(err_cqe64, hw_syndrome_type, 0x1a8, 0x8);
	FIELD32(err_cqe64, vendor_err_synd, 0x1b0, 0x8);
	FIELD32(err_cqe64, syndrome, 0x1b8, 0x8);
	FIELD32(err_cqe64, s_wqe_opcode, 0x1c0, 0x8);
	FIELD32(err_cqe64, qpn, 0x1c8, 0x18);
	FIELD32(err_cqe64, wqe_counter, 0x1e0, 0x10);
	FIELD32(err_cqe64, opcode, 0x1f8, 0x4);
	FIELD32(err_cqe64, owner, 0x1ff, 0x1);
}

/* Helpers of the accessor family on nested layouts. */
static void
test_nested(void)
{
	uint8_t in[MLX5_ST_SZ_BYTES(create_sq_in)];
	uint8_t out[MLX5_ST_SZ_BYTES(query_hca_cap_out)];
	uint8_t cq[MLX5_ST_SZ_BYTES(create_cq_in)];
	void *sqc;
	void *wq;
	void *cap;
	void *cqc;

	STATIC_EQ(MLX5_BYTE_OFF(create_sq_in, ctx), 0x20);
	STATIC_EQ(MLX5_BYTE_OFF(sqc, wq), 0x30);
	STATIC_EQ(MLX5_FLD_SZ_BYTES(sqc, wq), 0xc0);
	STATIC_EQ(MLX5_FLD_SZ_BYTES(wq, dbr_addr), 8);
	STATIC_EQ(MLX5_FLD_SZ_BYTES(mbox_out, syndrome), 4);
	STATIC_EQ(MLX5_ST_SZ_QW(sqc), 0x780 / 64);

	/* Fields set through MLX5_ADDR_OF land at outer offset + inner one. */
	memset(in, 0, sizeof(in));
	sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	EXPECT(sqc == (void *)(in + 0x20));
	wq = MLX5_ADDR_OF(sqc, sqc, wq);
	EXPECT(wq == (void *)(in + 0x20 + 0x30));
	MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index, 0xbeef);
	MLX5_SET(sqc, sqc, state, MLX5_SQC_STATE_RDY);
	MLX5_SET(wq, wq, pd, 0x123456);
	MLX5_SET64(wq, wq, dbr_addr, 0x1122334455667788ULL);
	EXPECT_EQ(MLX5_GET(create_sq_in, in,
			   ctx.packet_pacing_rate_limit_index), 0xbeef);
	EXPECT_EQ(MLX5_GET(create_sq_in, in, ctx.state), MLX5_SQC_STATE_RDY);
	EXPECT_EQ(MLX5_GET(create_sq_in, in, ctx.wq.pd), 0x123456);
	EXPECT_EQ(MLX5_GET64(create_sq_in, in, ctx.wq.dbr_addr),
		  0x1122334455667788ULL);
	/* packet_pacing_rate_limit_index: bits 0x100 + 0xf0 of the command,
	 * that is bytes 0x3e-0x3f, big-endian.
	 */
	EXPECT_EQ(in[0x3e], 0xbe);
	EXPECT_EQ(in[0x3f], 0xef);
	/* dbr_addr: byte 0x20 + 0x30 + 0x10. */
	EXPECT_EQ(in[0x60], 0x11);
	EXPECT_EQ(in[0x67], 0x88);

	/* Capabilities read through the query_hca_cap_out union. */
	memset(out, 0, sizeof(out));
	cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	EXPECT(cap == (void *)(out + 0x10));
	MLX5_SET(qos_cap, cap, packet_pacing_max_rate, 100000000);
	MLX5_SET(qos_cap, cap, packet_pacing_rate_table_size, 128);
	EXPECT_EQ(MLX5_GET(query_hca_cap_out, out,
			   capability.qos_cap.packet_pacing_max_rate),
		  100000000);
	EXPECT_EQ(MLX5_GET(query_hca_cap_out, out,
			   capability.qos_cap.packet_pacing_rate_table_size),
		  128);
	MLX5_SET(cmd_hca_cap, cap, log_max_sq, 23);
	EXPECT_EQ(MLX5_GET(query_hca_cap_out, out,
			   capability.cmd_hca_cap.log_max_sq), 23);

	/* create_cq_in: context and umem fields. */
	memset(cq, 0, sizeof(cq));
	cqc = MLX5_ADDR_OF(create_cq_in, cq, cq_context);
	EXPECT(cqc == (void *)(cq + 0x10));
	MLX5_SET(cqc, cqc, log_cq_size, 10);
	MLX5_SET(cqc, cqc, c_eqn, 7);
	MLX5_SET(create_cq_in, cq, cq_umem_valid, 1);
	MLX5_SET(create_cq_in, cq, cq_umem_id, 0xabc);
	MLX5_SET64(create_cq_in, cq, cq_umem_offset, 0x1000);
	EXPECT_EQ(MLX5_GET(create_cq_in, cq, cq_context.log_cq_size), 10);
	EXPECT_EQ(MLX5_GET(create_cq_in, cq, cq_context.c_eqn), 7);
	EXPECT_EQ(cq[0x5c], 0x80); /* cq_umem_valid: bit 0x2e0. */
	EXPECT_EQ(MLX5_GET64(create_cq_in, cq, cq_umem_offset), 0x1000);

	/* Fields sharing a dword keep each other's value. */
	memset(in, 0, sizeof(in));
	MLX5_SET(modify_sq_in, in, sq_state, MLX5_SQC_STATE_RDY);
	MLX5_SET(modify_sq_in, in, sqn, 0xffffff);
	MLX5_SET(modify_sq_in, in, sq_state, MLX5_SQC_STATE_ERR);
	EXPECT_EQ(MLX5_GET(modify_sq_in, in, sqn), 0xffffff);
	EXPECT_EQ(MLX5_GET(modify_sq_in, in, sq_state), MLX5_SQC_STATE_ERR);
	MLX5_SET64(modify_sq_in, in, modify_bitmask,
		   MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX);
	EXPECT_EQ(in[0x17], 0x01); /* Bit 0 of the 64-bit bitmask at 0x10. */
	EXPECT_EQ(in[0x10], 0x00);

	/* A value wider than the field is truncated to it. */
	memset(in, 0, sizeof(in));
	MLX5_SET(sqc, in, state, 0x1f);
	EXPECT_EQ(MLX5_GET(sqc, in, state), 0xf);
	EXPECT_EQ(MLX5_GET(sqc, in, reg_umr), 0);
	EXPECT_EQ(MLX5_GET(sqc, in, min_wqe_inline_mode), 0);
}

/* A packet-pacing context as bytes: DESIGN.md "Hardware facts used". */
static void
test_pp_context(void)
{
	static const uint8_t want[16] = {
		0x00, 0x0f, 0x42, 0x40, /* rate_limit 1000000 (kbps). */
		0x00, 0x00, 0x10, 0x00, /* burst_upper_bound 4096. */
		0x00, 0x01, 0x05, 0xdc, /* rate_mode 1, typical size 1500. */
		0x00, 0x00, 0x00, 0x00,
	};
	uint8_t pp[MLX5_ST_SZ_BYTES(set_pp_rate_limit_context)];

	STATIC_EQ(sizeof(pp), 0x30);
	memset(pp, 0, sizeof(pp));
	MLX5_SET(set_pp_rate_limit_context, pp, rate_limit, 1000000);
	MLX5_SET(set_pp_rate_limit_context, pp, burst_upper_bound, 4096);
	MLX5_SET(set_pp_rate_limit_context, pp, rate_mode,
		 MLX5_PP_RATE_MODE_WQE_RATE);
	MLX5_SET(set_pp_rate_limit_context, pp, typical_packet_size, 1500);
	EXPECT(memcmp(pp, want, sizeof(want)) == 0);
	for (size_t i = sizeof(want); i < sizeof(pp); i++)
		EXPECT_EQ(pp[i], 0);
}

/*
 * Constants against their published values: command opcodes and status
 * (Linux mlx5_ifc.h and device.h, rdma-core mlx5_ifc.h), QUERY_HCA_CAP
 * op_mod (DPDK mlx5_prm.h MLX5_GET_HCA_CAP_OP_MOD_*), SQ states and the
 * MODIFY_SQ bitmask (DPDK mlx5_prm.h, Linux mlx5_ifc.h). Build time.
 */
STATIC_EQ(MLX5_CMD_OP_QUERY_HCA_CAP, 0x100);
STATIC_EQ(MLX5_CMD_OP_CREATE_CQ, 0x400);
STATIC_EQ(MLX5_CMD_OP_DESTROY_CQ, 0x401);
STATIC_EQ(MLX5_CMD_OP_QUERY_CQ, 0x402);
STATIC_EQ(MLX5_CMD_OP_MODIFY_CQ, 0x403);
STATIC_EQ(MLX5_CMD_OP_QUERY_NIC_VPORT_CONTEXT, 0x754);
STATIC_EQ(MLX5_CMD_OP_CREATE_SCHEDULING_ELEMENT, 0x782);
STATIC_EQ(MLX5_CMD_OP_DESTROY_SCHEDULING_ELEMENT, 0x783);
STATIC_EQ(MLX5_CMD_OP_QUERY_SCHEDULING_ELEMENT, 0x784);
STATIC_EQ(MLX5_CMD_OP_MODIFY_SCHEDULING_ELEMENT, 0x785);
STATIC_EQ(MLX5_CMD_OP_ALLOC_TRANSPORT_DOMAIN, 0x816);
STATIC_EQ(MLX5_CMD_OP_DEALLOC_TRANSPORT_DOMAIN, 0x817);
STATIC_EQ(MLX5_CMD_OP_CREATE_SQ, 0x904);
STATIC_EQ(MLX5_CMD_OP_MODIFY_SQ, 0x905);
STATIC_EQ(MLX5_CMD_OP_DESTROY_SQ, 0x906);
STATIC_EQ(MLX5_CMD_OP_QUERY_SQ, 0x907);
STATIC_EQ(MLX5_CMD_OP_CREATE_TIS, 0x912);
STATIC_EQ(MLX5_CMD_OP_MODIFY_TIS, 0x913);
STATIC_EQ(MLX5_CMD_OP_DESTROY_TIS, 0x914);
STATIC_EQ(MLX5_CMD_OP_QUERY_TIS, 0x915);

STATIC_EQ(MLX5_CMD_STAT_OK, 0x0);
STATIC_EQ(MLX5_CMD_STAT_INT_ERR, 0x1);
STATIC_EQ(MLX5_CMD_STAT_BAD_OP_ERR, 0x2);
STATIC_EQ(MLX5_CMD_STAT_BAD_PARAM_ERR, 0x3);
STATIC_EQ(MLX5_CMD_STAT_BAD_SYS_STATE_ERR, 0x4);
STATIC_EQ(MLX5_CMD_STAT_BAD_RES_ERR, 0x5);
STATIC_EQ(MLX5_CMD_STAT_RES_BUSY, 0x6);
STATIC_EQ(MLX5_CMD_STAT_LIM_ERR, 0x8);
STATIC_EQ(MLX5_CMD_STAT_BAD_RES_STATE_ERR, 0x9);
STATIC_EQ(MLX5_CMD_STAT_IX_ERR, 0xa);
STATIC_EQ(MLX5_CMD_STAT_NO_RES_ERR, 0xf);
STATIC_EQ(MLX5_CMD_STAT_BAD_QP_STATE_ERR, 0x10);
STATIC_EQ(MLX5_CMD_STAT_BAD_PKT_ERR, 0x30);
STATIC_EQ(MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES_ERR, 0x40);
STATIC_EQ(MLX5_CMD_STAT_BAD_INP_LEN_ERR, 0x50);
STATIC_EQ(MLX5_CMD_STAT_BAD_OUTP_LEN_ERR, 0x51);

STATIC_EQ(MLX5_HCA_CAP_OP_MOD(MLX5_CAP_GENERAL, MLX5_HCA_CAP_OPMOD_GET_MAX),
	  0x0);
STATIC_EQ(MLX5_GET_HCA_CAP_OP_MOD_GENERAL_DEVICE, 0x1);
STATIC_EQ(MLX5_GET_HCA_CAP_OP_MOD_ETHERNET_OFFLOAD_CAPS, 0x3);
STATIC_EQ(MLX5_GET_HCA_CAP_OP_MOD_QOS_CAP, 0x19);
STATIC_EQ(MLX5_HCA_CAP_OP_MOD(MLX5_CAP_QOS, MLX5_HCA_CAP_OPMOD_GET_MAX),
	  0x18);

STATIC_EQ(MLX5_SQC_STATE_RST, 0);
STATIC_EQ(MLX5_SQC_STATE_RDY, 1);
STATIC_EQ(MLX5_SQC_STATE_ERR, 3);
STATIC_EQ(MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX, 1);
/* Linux en_main.c mlx5e_modify_sq, rdma-core mlx5_ifc.h */
STATIC_EQ(MLX5_MODIFY_SQ_BITMASK_QOS_QUEUE_GROUP_ID, 4);
/* Linux mlx5_ifc.h: SCHEDULING_HIERARCHY_*, SCHEDULING_CONTEXT_*,
 * ELEMENT_TYPE_CAP_MASK_*, TSAR_ELEMENT_TSAR_TYPE_*,
 * TSAR_TYPE_CAP_MASK_*, MODIFY_SCHEDULING_ELEMENT_IN_MODIFY_BITMASK_*.
 */
STATIC_EQ(MLX5_SCHEDULING_HIERARCHY_E_SWITCH, 2);
STATIC_EQ(MLX5_SCHEDULING_HIERARCHY_NIC, 3);
STATIC_EQ(MLX5_SCHED_ELEM_TYPE_TSAR, 0);
STATIC_EQ(MLX5_SCHED_ELEM_TYPE_VPORT, 1);
STATIC_EQ(MLX5_SCHED_ELEM_TYPE_VPORT_TC, 2);
STATIC_EQ(MLX5_SCHED_ELEM_TYPE_PARA_VPORT_TC, 3);
STATIC_EQ(MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP, 4);
STATIC_EQ(MLX5_SCHED_ELEM_TYPE_RATE_LIMIT, 5);
STATIC_EQ(MLX5_SCHED_ELEM_TYPE_CAP(MLX5_SCHED_ELEM_TYPE_TSAR), 0x1);
STATIC_EQ(MLX5_SCHED_ELEM_TYPE_CAP(MLX5_SCHED_ELEM_TYPE_QUEUE_GROUP), 0x10);
STATIC_EQ(MLX5_TSAR_TYPE_DWRR, 0);
STATIC_EQ(MLX5_TSAR_TYPE_ROUND_ROBIN, 1);
STATIC_EQ(MLX5_TSAR_TYPE_ETS, 2);
STATIC_EQ(MLX5_TSAR_TYPE_TC_ARB, 3);
STATIC_EQ(MLX5_TSAR_TYPE_CAP(MLX5_TSAR_TYPE_DWRR), 0x1);
STATIC_EQ(MLX5_TSAR_TYPE_CAP(MLX5_TSAR_TYPE_ETS), 0x4);
STATIC_EQ(MLX5_MODIFY_SCHED_ELEM_BITMASK_BW_SHARE, 1);
STATIC_EQ(MLX5_MODIFY_SCHED_ELEM_BITMASK_MAX_AVERAGE_BW, 2);
/* Linux mlx5_ifc.h: MLX5_CAP_INLINE_MODE_*, enum mlx5_inline_modes. */
STATIC_EQ(MLX5_CAP_INLINE_MODE_L2, 0);
STATIC_EQ(MLX5_CAP_INLINE_MODE_VPORT_CONTEXT, 1);
STATIC_EQ(MLX5_CAP_INLINE_MODE_NOT_REQUIRED, 2);
STATIC_EQ(MLX5_INLINE_MODE_NONE, 0);
STATIC_EQ(MLX5_INLINE_MODE_L2, 1);
STATIC_EQ(MLX5_INLINE_MODE_IP, 2);
STATIC_EQ(MLX5_INLINE_MODE_TCP_UDP, 3);
STATIC_EQ(MLX5_PP_RATE_MODE_DATA_RATE, 0);
STATIC_EQ(MLX5_PP_RATE_MODE_WQE_RATE, 1);
STATIC_EQ(MLX5_WQ_TYPE_CYCLIC, 1);
STATIC_EQ(MLX5_CQ_MODIFY_PERIOD, 1);
STATIC_EQ(MLX5_CQ_MODIFY_COUNT, 2);

/* The datapath structures and the layouts describe the same bytes. */
static void
test_datapath(void)
{
	struct mlx5_tm_wqe_ctrl_seg ctrl;
	struct mlx5_tm_wqe_eth_seg eth;
	struct mlx5_tm_wqe_data_seg data;
	struct mlx5_tm_wqe_inline_seg inl;
	struct mlx5_tm_cqe64 cqe;
	struct mlx5_tm_err_cqe64 err;

	memset(&ctrl, 0, sizeof(ctrl));
	ctrl.opmod_idx_opcode = htobe32(mlx5_tm_wqe_opmod_idx_opcode(0,
			0x1234, MLX5_OPCODE_SEND));
	ctrl.qpn_ds = htobe32(mlx5_tm_wqe_qpn_ds(0xabcdef, 3));
	ctrl.fm_ce_se = MLX5_WQE_CTRL_CQ_UPDATE;
	EXPECT_EQ(be32toh(ctrl.opmod_idx_opcode), 0x0012340a);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, opcode), MLX5_OPCODE_SEND);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, wqe_index), 0x1234);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, opc_mod), 0);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, qpn_or_sqn), 0xabcdef);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, ds), 3);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, ce), 2);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, se), 0);
	ctrl.fm_ce_se = MLX5_WQE_CTRL_FENCE | MLX5_WQE_CTRL_SOLICITED;
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, fence), 4);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, se), 1);
	EXPECT_EQ(MLX5_GET(wqe_ctrl_seg, &ctrl, ce), 0);

	memset(&eth, 0, sizeof(eth));
	eth.cs_flags = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
	eth.mss = htobe16(1460);
	eth.inline_hdr_sz = htobe16(MLX5_ESEG_MIN_INLINE_SIZE);
	eth.inline_hdr_start[0] = 0xaa;
	EXPECT_EQ(MLX5_GET(wqe_eth_seg, &eth, cs_flags), 0xc0);
	EXPECT_EQ(MLX5_GET(wqe_eth_seg, &eth, mss), 1460);
	EXPECT_EQ(MLX5_GET(wqe_eth_seg, &eth, inline_hdr_sz), 18);
	EXPECT_EQ(MLX5_GET(wqe_eth_seg, &eth, inline_hdr_start), 0xaa00);
	eth.insert_type = htobe16(MLX5_ETH_WQE_INSERT_VLAN);
	eth.vlan_tci = htobe16(0x0123);
	EXPECT_EQ(be32toh(eth.inline_hdr_word),
		  MLX5_ETH_WQE_VLAN_INSERT | 0x0123);
	EXPECT_EQ(MLX5_GET(wqe_eth_seg_vlan, &eth, insert_type), 0x8000);
	EXPECT_EQ(MLX5_GET(wqe_eth_seg_vlan, &eth, vlan_tci), 0x0123);

	data.byte_count = htobe32(1514);
	data.lkey = htobe32(0x55aa);
	data.addr = htobe64(0x7f0011223344ULL);
	EXPECT_EQ(MLX5_GET(wqe_data_seg, &data, byte_count), 1514);
	EXPECT_EQ(MLX5_GET(wqe_data_seg, &data, lkey), 0x55aa);
	EXPECT_EQ(MLX5_GET64(wqe_data_seg, &data, addr), 0x7f0011223344ULL);

	inl.byte_count = htobe32(MLX5_INLINE_SEG | 100);
	EXPECT_EQ(MLX5_GET(wqe_inline_seg, &inl, inl), 1);
	EXPECT_EQ(MLX5_GET(wqe_inline_seg, &inl, byte_count), 100);

	memset(&cqe, 0, sizeof(cqe));
	cqe.wqe_counter = htobe16(0xfffe);
	cqe.op_own = (MLX5_CQE_REQ << 4) | 1;
	cqe.timestamp = htobe64(123456789012345ULL);
	cqe.sop_drop_qpn = htobe32(0x00abcdef);
	EXPECT_EQ(MLX5_GET(cqe64, &cqe, wqe_counter), 0xfffe);
	EXPECT_EQ(MLX5_GET(cqe64, &cqe, opcode), MLX5_CQE_REQ);
	EXPECT_EQ(MLX5_GET(cqe64, &cqe, owner), 1);
	EXPECT_EQ(MLX5_GET64(cqe64, &cqe, timestamp), 123456789012345ULL);
	EXPECT_EQ(MLX5_GET(cqe64, &cqe, qpn), 0xabcdef);
	EXPECT_EQ(MLX5_CQE_OPCODE(cqe.op_own), MLX5_CQE_REQ);
	EXPECT_EQ(MLX5_CQE_OWNER(cqe.op_own), 1);

	memset(&err, 0, sizeof(err));
	err.op_own = (MLX5_CQE_REQ_ERR << 4);
	err.syndrome = MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
	err.vendor_err_synd = 0x42;
	err.wqe_counter = htobe16(7);
	EXPECT_EQ(MLX5_GET(err_cqe64, &err, opcode), 0xd);
	EXPECT_EQ(MLX5_GET(err_cqe64, &err, owner), 0);
	EXPECT_EQ(MLX5_GET(err_cqe64, &err, syndrome), 0x1);
	EXPECT_EQ(MLX5_GET(err_cqe64, &err, vendor_err_synd), 0x42);
	EXPECT_EQ(MLX5_GET(err_cqe64, &err, wqe_counter), 7);
	EXPECT_EQ(MLX5_CQE_FORMAT(0x0c), 3);
}

/* Our WQE/CQE offsets and constants, named as in test_prm_dv.c. */
static const struct prm_dv_fact our_facts[] = {
	PRM_DV_FACTS(mlx5_tm_cqe64, mlx5_tm_err_cqe64, mlx5_tm_wqe_ctrl_seg,
		     mlx5_tm_wqe_eth_seg, mlx5_tm_wqe_data_seg,
		     mlx5_tm_wqe_inline_seg)
};

/* Same facts from rdma-core's own definitions. */
static void
test_vs_mlx5dv(void)
{
	size_t i;
	size_t j;

	EXPECT_EQ(prm_dv_facts_n, sizeof(our_facts) / sizeof(our_facts[0]));
	for (i = 0; i < sizeof(our_facts) / sizeof(our_facts[0]); i++) {
		const struct prm_dv_fact *dv = NULL;

		for (j = 0; j < prm_dv_facts_n; j++)
			if (strcmp(prm_dv_facts[j].name, our_facts[i].name) == 0)
				dv = &prm_dv_facts[j];
		expect(dv != NULL, our_facts[i].name, __FILE__, __LINE__);
		if (dv != NULL)
			expect_eq(our_facts[i].value, dv->value,
				  our_facts[i].name, __FILE__, __LINE__);
	}
}

/* Number of mlx5 ibdevs in sysfs (driver mlx5_core), counted here without
 * rdma-core, as the reference for the glue.
 */
static int
sysfs_mlx5_devices(void)
{
	DIR *dir = opendir("/sys/class/infiniband");
	struct dirent *de;
	int count = 0;

	if (dir == NULL)
		return 0;
	while ((de = readdir(dir)) != NULL) {
		char path[PATH_MAX];
		char link[PATH_MAX];
		const char *base;
		ssize_t n;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband/%s/device/driver", de->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			continue;
		link[n] = '\0';
		base = strrchr(link, '/');
		base = base != NULL ? base + 1 : link;
		if (strcmp(base, "mlx5_core") == 0)
			count++;
	}
	closedir(dir);
	return count;
}

/* The rdma-core glue where no device matches. */
static void
test_glue_rdma(void)
{
	const struct mlx5_tm_glue *g = &mlx5_tm_glue_rdma;
	int present = sysfs_mlx5_devices();
	char list[256];
	int n;

	EXPECT(strcmp(g->name, "rdma-core") == 0);
	EXPECT(g->open_device != NULL && g->close_device != NULL &&
	       g->pd_alloc != NULL && g->pd_free != NULL &&
	       g->devx_general_cmd != NULL && g->devx_obj_create != NULL &&
	       g->devx_obj_modify != NULL && g->devx_obj_query != NULL &&
	       g->devx_obj_destroy != NULL && g->devx_umem_reg != NULL &&
	       g->devx_umem_dereg != NULL && g->devx_uar_alloc != NULL &&
	       g->devx_uar_free != NULL && g->devx_query_eqn != NULL &&
	       g->pp_alloc != NULL && g->pp_free != NULL &&
	       g->reg_mr != NULL && g->dereg_mr != NULL);

	memset(list, 'x', sizeof(list));
	n = mlx5_tm_glue_rdma_list(list, sizeof(list));
	EXPECT_EQ(n, present);
	EXPECT(memchr(list, '\0', sizeof(list)) != NULL);
	if (present == 0)
		EXPECT(list[0] == '\0');
	EXPECT_EQ(mlx5_tm_glue_rdma_list(NULL, 8), -EINVAL);
	EXPECT_EQ(mlx5_tm_glue_rdma_list(list, 0), -EINVAL);

	errno = 0;
	EXPECT(g->open_device("mlx5_tm_no_such_device", NULL) == NULL);
	EXPECT_EQ(errno, ENODEV);
	errno = 0;
	EXPECT(g->open_device("mlx5_0", &present) == NULL);
	EXPECT_EQ(errno, EINVAL);
	errno = 0;
	EXPECT(g->open_device(NULL, NULL) == NULL);
	EXPECT_EQ(errno, EINVAL);
	if (present == 0) {
		printf("no mlx5 device: checking open_device fails with ENODEV\n");
		errno = 0;
		EXPECT(g->open_device("mlx5_0", NULL) == NULL);
		EXPECT_EQ(errno, ENODEV);
		errno = 0;
		EXPECT(g->open_device("0000:08:00.0", NULL) == NULL);
		EXPECT_EQ(errno, ENODEV);
		errno = 0;
		EXPECT(g->open_device("08:00.0", NULL) == NULL);
		EXPECT_EQ(errno, ENODEV);
	} else {
		printf("%d mlx5 device(s) present: %s\n", present, list);
	}
}

/* Run case @p fn named @p name. */
static void
run(const char *name, void (*fn)(void))
{
	case_enter(name);
	fn();
	cur_case = NULL;
}

#define RUN(fn) run(#fn, fn)

int
main(void)
{
	unsigned int passed = 0;
	unsigned int failed = 0;
	unsigned int i;

	/* One case per layout, opened by its first field. */
	test_fields();
	cur_case = NULL;
	RUN(test_nested);
	RUN(test_pp_context);
	RUN(test_datapath);
	RUN(test_vs_mlx5dv);
	RUN(test_glue_rdma);
	for (i = 0; i < n_cases; i++) {
		if (cases[i].n_fields > 0)
			printf("%s %s (%u field%s)\n",
			       cases[i].failed ? "FAIL" : "ok  ", cases[i].name,
			       cases[i].n_fields, cases[i].n_fields > 1 ? "s" : "");
		else
			printf("%s %s\n", cases[i].failed ? "FAIL" : "ok  ",
			       cases[i].name);
		if (cases[i].failed)
			failed++;
		else
			passed++;
	}
	failed += stray_failed;
	printf("%u passed, %u failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
