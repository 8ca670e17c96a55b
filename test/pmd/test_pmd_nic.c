/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Real-NIC behaviours: one test per behaviour a ConnectX shows and the
 * device model reproduces with a devarg knob (MTU, timestamp format,
 * E-Switch mode, rate-table sharing, packet_pacing_uid, recovery, packet
 * mode, VLAN insertion and link). Each sets the knob; the PMD must cope
 * as it would on the NIC. EAL in process, virtual device time.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_tm.h>

#include "mlx5_emu.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_wqe.h"
#include "rte_pmd_mlx5_tm.h"

#include "pmd_test_emu.h"
#include "pmd_test_util.h"

static struct rte_mempool *pool;

#define PORT_NAME "net_mlx5_tm7"
#define RING 256
#define ROOT 100
#define FRAME_MAX 9100

/* ---- ports ---- */

/* Probe PORT_NAME with @p args, set up @p nb_txq queues, maybe start. */
static int
port_open(const char *args, uint16_t nb_txq, bool start, uint16_t *port,
	  struct mlx5_emu **emu)
{
	struct rte_eth_conf conf = { 0 };
	uint16_t q;

	if (rte_vdev_init(PORT_NAME, args) != 0 ||
	    rte_eth_dev_get_port_by_name(PORT_NAME, port) != 0) {
		CHECK(false, "probe %s", args);
		return -1;
	}
	*emu = rte_pmd_mlx5_tm_emu(*port);
	CHECK(*emu != NULL, "no device model");
	CHECK(rte_eth_dev_configure(*port, 0, nb_txq, &conf) == 0,
	      "configure");
	for (q = 0; q < nb_txq; q++)
		CHECK(rte_eth_tx_queue_setup(*port, q, RING, SOCKET_ID_ANY,
					     NULL) == 0, "txq %u", q);
	if (start)
		CHECK(rte_eth_dev_start(*port) == 0, "start");
	return 0;
}

static void
port_close(uint16_t port)
{
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	rte_vdev_uninit(PORT_NAME);
}

/* Send one frame of @p len bytes on queue @p q and let it complete. */
static bool
send_one(uint16_t port, uint16_t q, struct mlx5_emu *emu, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *d;
	uint16_t n;

	if (m == NULL || len > rte_pktmbuf_tailroom(m)) {
		rte_pktmbuf_free(m);
		return false;
	}
	d = (uint8_t *)rte_pktmbuf_append(m, len);
	memset(d, 0x5a, len);
	d[0] = 0x02;
	d[6] = 0x02;
	d[12] = 0x88;
	d[13] = 0xb5;
	n = rte_eth_tx_burst(port, q, &m, 1);
	if (n == 0)
		rte_pktmbuf_free(m);
	tx_settle(port, q, emu);
	return n == 1;
}

static int
sq_info(uint16_t port, uint16_t q, struct mlx5_emu *emu,
	struct mlx5_emu_sq_info *info)
{
	uint32_t sqn;

	if (rte_pmd_mlx5_tm_txq_sqn(port, q, &sqn) != 0)
		return -1;
	return mlx5_emu_sq_get(emu, sqn, info);
}

/* ---- 1. MTU ---- */

/*
 * The port drops frames longer than netdev MTU + 18 bytes (the kernel's
 * MLX5E_SW2HW_MTU adds Ethernet header, one VLAN tag and FCS), with a
 * good CQE; mtu_set raises the MTU so that jumbo frames leave.
 */
static void
test_mtu(void)
{
	struct rte_eth_dev_info info;
	struct mlx5_emu_port_stats ps;
	struct mlx5_emu_sq_info sq;
	struct mlx5_emu *emu;
	uint16_t port, mtu = 0;

	if (port_open("emu=cx6dx,clock=virtual,mtu=1500", 1, true, &port,
		      &emu) != 0)
		return;
	CHECK(rte_eth_dev_info_get(port, &info) == 0 && info.min_mtu == 68 &&
	      info.max_mtu == 9960, "MTU range %u..%u", info.min_mtu,
	      info.max_mtu);
	CHECK(rte_eth_dev_get_mtu(port, &mtu) == 0 && mtu == 1500,
	      "MTU %u", mtu);
	CHECK(send_one(port, 0, emu, 1518), "post 1518");
	CHECK(send_one(port, 0, emu, 1519), "post 1519");
	CHECK(sq_info(port, 0, emu, &sq) == 0 && sq.packets == 1 &&
	      sq.mtu_drops == 1 && sq.errors == 0,
	      "%" PRIu64 " sent, %" PRIu64 " dropped, %" PRIu64 " errors",
	      sq.packets, sq.mtu_drops, sq.errors);
	mlx5_emu_get_port_stats(emu, &ps);
	CHECK(ps.mtu_drops == 1, "port: %" PRIu64 " MTU drops", ps.mtu_drops);
	CHECK(xstat(port, "tx_q0_wire_mtu_drops") == 1 &&
	      xstat(port, "tx_q0_error_cqes") == 0,
	      "xstat %" PRIu64, xstat(port, "tx_q0_wire_mtu_drops"));
	CHECK(rte_eth_dev_set_mtu(port, 9000) == 0, "set MTU 9000");
	CHECK(mlx5_emu_mtu(emu) == 9000, "model MTU %u", mlx5_emu_mtu(emu));
	CHECK(send_one(port, 0, emu, 9018), "post 9018");
	CHECK(sq_info(port, 0, emu, &sq) == 0 && sq.packets == 2 &&
	      sq.mtu_drops == 1, "jumbo: %" PRIu64 " sent", sq.packets);
	CHECK(rte_eth_dev_set_mtu(port, 10000) != 0, "MTU 10000 accepted");
	port_close(port);
	/* A configured MTU above the netdev's raises it. */
	if (rte_vdev_init(PORT_NAME, "emu=cx6dx,clock=virtual") == 0 &&
	    rte_eth_dev_get_port_by_name(PORT_NAME, &port) == 0) {
		struct rte_eth_conf conf = { .rxmode = { .mtu = 4000 } };

		emu = rte_pmd_mlx5_tm_emu(port);
		CHECK(mlx5_emu_mtu(emu) == 1500, "default MTU %u",
		      mlx5_emu_mtu(emu));
		CHECK(rte_eth_dev_configure(port, 0, 1, &conf) == 0,
		      "configure");
		CHECK(mlx5_emu_mtu(emu) == 4000 &&
		      rte_eth_dev_get_mtu(port, &mtu) == 0 && mtu == 4000,
		      "configured MTU: model %u, port %u", mlx5_emu_mtu(emu),
		      mtu);
		port_close(port);
	} else {
		CHECK(false, "probe");
	}
}

/* ---- 2. sqc.ts_format ---- */

/* Every cap_sq_ts_format: the SQ's ts_format is one the device takes. */
static void
test_ts_format(void)
{
	static const char *const fmts[] = { "free_run", "rt", "both" };
	struct mlx5_emu_cmd_error ce;
	struct mlx5_emu *emu;
	char args[128];
	unsigned int i;
	uint16_t port;

	for (i = 0; i < RTE_DIM(fmts); i++) {
		snprintf(args, sizeof(args),
			 "emu=cx6dx,clock=virtual,cap_sq_ts_format=%s",
			 fmts[i]);
		if (port_open(args, 1, true, &port, &emu) != 0)
			return;
		mlx5_emu_last_cmd_error(emu, &ce);
		CHECK(ce.count == 0, "%s: command 0x%x failed", fmts[i],
		      ce.opcode);
		CHECK(send_one(port, 0, emu, 100), "%s: send", fmts[i]);
		port_close(port);
	}
}

/* ---- 3. E-Switch ---- */

/* switchdev: refused at probe, saying why and what to do. */
static void
test_eswitch(void)
{
	const char *log;
	uint16_t port;
	int ret;

	log_capture_start();
	ret = rte_vdev_init(PORT_NAME, "emu=cx6dx,clock=virtual,"
			    "eswitch=switchdev");
	log = log_capture_stop();
	CHECK(ret < 0, "switchdev port probed");
	CHECK(strstr(log, "switchdev mode") != NULL &&
	      strstr(log, "mode legacy") != NULL, "message: %s", log);
	if (ret == 0 && rte_eth_dev_get_port_by_name(PORT_NAME, &port) == 0)
		port_close(port);
	log_capture_start();
	ret = rte_vdev_init(PORT_NAME, "emu=cx6dx,clock=virtual,"
			    "eswitch=representor");
	log = log_capture_stop();
	CHECK(ret < 0, "representor probed");
	CHECK(strstr(log, "representor") != NULL &&
	      strstr(log, "probe the PF") != NULL &&
	      strstr(log, "mode legacy") != NULL, "message: %s", log);
	if (ret == 0 && rte_eth_dev_get_port_by_name(PORT_NAME, &port) == 0)
		port_close(port);
	ret = rte_vdev_init(PORT_NAME, "emu=cx6dx,clock=virtual,"
			    "eswitch=legacy");
	CHECK(ret == 0, "legacy port refused");
	if (ret == 0 && rte_eth_dev_get_port_by_name(PORT_NAME, &port) == 0)
		port_close(port);
}

/* ---- 4. rate table ---- */

static int
tm_commit_rates(uint16_t port, unsigned int n, struct rte_tm_error *err)
{
	struct rte_tm_node_params np;
	struct rte_tm_shaper_params sp;
	unsigned int q;

	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
	np.nonleaf.n_sp_priorities = 1;
	if (rte_tm_node_add(port, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &np,
			    err) != 0)
		return -1;
	for (q = 0; q < n; q++) {
		memset(&sp, 0, sizeof(sp));
		sp.peak.rate = 1250000ull * (q + 1);
		if (rte_tm_shaper_profile_add(port, q, &sp, err) != 0)
			return -1;
		memset(&np, 0, sizeof(np));
		np.shaper_profile_id = q;
		np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
		np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
		if (rte_tm_node_add(port, q, ROOT, 0, 1, 1, &np, err) != 0)
			return -1;
	}
	return rte_tm_hierarchy_commit(port, 0, err);
}

/*
 * A table of N has N - 1 entries (index 0 is "unlimited"), some held by
 * other users: the PMD plans with N - 1 and names a full table as such.
 */
static void
test_rate_table(void)
{
	struct rte_tm_error err;
	struct mlx5_emu *emu;
	const char *log;
	uint16_t port;
	int ret;

	/* 4 entries, 3 usable: 4 distinct rates do not fit. */
	if (port_open("emu=cx6dx,clock=virtual,cap_pp_table_size=4", 4,
		      true, &port, &emu) != 0)
		return;
	memset(&err, 0, sizeof(err));
	ret = tm_commit_rates(port, 4, &err);
	CHECK(ret == -ENOSPC && err.type == RTE_TM_ERROR_TYPE_UNSPECIFIED &&
	      err.message != NULL && strstr(err.message, "4 entries") != NULL,
	      "%d type %d: %s", ret, err.type,
	      err.message ? err.message : "");
	CHECK(mlx5_emu_pp_list(emu, NULL, 0) == 0, "entries left");
	port_close(port);
	/* 1 of 3 held by another user: the third queue rate finds none. */
	if (port_open("emu=cx6dx,clock=virtual,cap_pp_table_size=4,"
		      "pp_foreign=1", 3, true, &port, &emu) != 0)
		return;
	CHECK(mlx5_emu_pp_list(emu, NULL, 0) == 1, "foreign entry");
	CHECK(rte_eth_set_queue_rate_limit(port, 0, 100) == 0, "q0");
	CHECK(rte_eth_set_queue_rate_limit(port, 1, 200) == 0, "q1");
	log_capture_start();
	ret = rte_eth_set_queue_rate_limit(port, 2, 300);
	log = log_capture_stop();
	CHECK(ret == -ENOSPC, "q2: %d", ret);
	CHECK(strstr(log, "the device's rate table is full: 4 entries, "
			  "2 held by this port, the rest by other users")
	      != NULL, "message: %s", log);
	port_close(port);
}

/* ---- 5. packet_pacing_uid ---- */

/* Without the cap: no shaping advertised, and the refusal says why. */
static void
test_pacing_uid(void)
{
	struct rte_tm_capabilities cap;
	struct rte_tm_shaper_params sp;
	struct rte_tm_error err;
	struct mlx5_emu *emu;
	uint16_t port;
	int ret;

	if (port_open("emu=cx6dx,clock=virtual,cap_packet_pacing_uid=0", 1,
		      true, &port, &emu) != 0)
		return;
	memset(&cap, 0, sizeof(cap));
	CHECK(rte_tm_capabilities_get(port, &cap, &err) == 0 &&
	      cap.shaper_n_max == 0 && cap.shaper_private_n_max == 0,
	      "%u shapers advertised", cap.shaper_n_max);
	memset(&sp, 0, sizeof(sp));
	sp.peak.rate = 12500000;
	memset(&err, 0, sizeof(err));
	ret = rte_tm_shaper_profile_add(port, 1, &sp, &err);
	CHECK(ret != 0 && err.message != NULL &&
	      strstr(err.message, "packet_pacing_uid") != NULL,
	      "%d: %s", ret, err.message ? err.message : "");
	CHECK(rte_eth_set_queue_rate_limit(port, 0, 100) != 0,
	      "queue rate limit accepted");
	port_close(port);
}

/* ---- 6. recovery ---- */

/* A flush CQE on a ready SQ: skipped, the SQ is not reset. */
static void
test_flush_only(void)
{
	struct mlx5_emu_sq_info sq;
	struct mlx5_emu *emu;
	uint32_t sqn = 0, i, sent = 0;
	uint16_t port;

	if (port_open("emu=cx6dx,clock=virtual", 1, true, &port, &emu) != 0)
		return;
	CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 0, &sqn) == 0, "sqn");
	CHECK(mlx5_emu_fault_wqe(emu, &(struct mlx5_emu_fault_wqe){
		/*
		 * Each send_one posts the packet, then tx_settle a NOP, the
		 * WQE that asks for a completion (moderation): the 10th WQE
		 * is the 5th NOP, and a flush CQE needs a request.
		 */
		.sqn = sqn, .nth = 10,
		.syndrome = MLX5_CQE_SYNDROME_WR_FLUSH_ERR }) == 0, "arm");
	for (i = 0; i < 100; i++) {
		sent += send_one(port, 0, emu, 200);
		rte_pmd_mlx5_tm_recover(port); /* control-path step */
	}
	CHECK(sent == 100, "%u of 100 posted", sent);
	CHECK(xstat(port, "tx_q0_recoveries") == 0, "%" PRIu64 " resets",
	      xstat(port, "tx_q0_recoveries"));
	CHECK(xstat(port, "tx_q0_flush_cqes") == 1 &&
	      xstat(port, "tx_q0_error_cqes") == 0, "CQEs: %" PRIu64
	      " flush, %" PRIu64 " error", xstat(port, "tx_q0_flush_cqes"),
	      xstat(port, "tx_q0_error_cqes"));
	CHECK(sq_info(port, 0, emu, &sq) == 0 &&
	      sq.state == MLX5_SQC_STATE_RDY && sq.packets == 100,
	      "state %u, %" PRIu64 " sent", sq.state, sq.packets);
	CHECK(rte_mempool_in_use_count(pool) == 0, "%u mbufs in use",
	      rte_mempool_in_use_count(pool));
	port_close(port);
}

/*
 * The pacing index is applied by RDY->RDY after RST->RDY: with a model
 * whose RST->RDY ignores the index, a rate set during recovery holds.
 */
static void
test_recovery_pacing_index(void)
{
	struct mlx5_emu_pp_info pp[4];
	struct mlx5_emu_sq_info sq;
	struct mlx5_emu *emu;
	uint32_t sqn = 0, i;
	uint16_t port, new_index = 0;
	unsigned int n;

	if (port_open("emu=cx6dx,clock=virtual,rst2rdy_pp=ignore", 1, true,
		      &port, &emu) != 0)
		return;
	CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 0, &sqn) == 0, "sqn");
	CHECK(rte_eth_set_queue_rate_limit(port, 0, 1000) == 0, "1 Gbps");
	CHECK(mlx5_emu_fault_wqe(emu, &(struct mlx5_emu_fault_wqe){
		.sqn = sqn, .nth = 3,
		.syndrome = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR }) == 0, "arm");
	for (i = 0; i < 3; i++)
		send_one(port, 0, emu, 200);
	/* The datapath sees the error; the control path resets the SQ. */
	rte_eth_tx_burst(port, 0, NULL, 0);
	rte_pmd_mlx5_tm_recover(port);
	CHECK(sq_info(port, 0, emu, &sq) == 0 &&
	      sq.state == MLX5_SQC_STATE_RST, "state %u", sq.state);
	/* A new rate while in reset: kept for the queue. */
	CHECK(rte_eth_set_queue_rate_limit(port, 0, 2000) == 0, "2 Gbps");
	n = mlx5_emu_pp_list(emu, pp, RTE_DIM(pp));
	for (i = 0; i < n && i < RTE_DIM(pp); i++)
		if (pp[i].rate_limit == 2000000)
			new_index = pp[i].index;
	CHECK(new_index != 0, "no 2 Gbps entry");
	rte_eth_tx_burst(port, 0, NULL, 0); /* rewind */
	rte_pmd_mlx5_tm_recover(port);      /* ready again */
	CHECK(xstat(port, "tx_q0_recoveries") == 1, "%" PRIu64 " recoveries",
	      xstat(port, "tx_q0_recoveries"));
	CHECK(sq_info(port, 0, emu, &sq) == 0 &&
	      sq.state == MLX5_SQC_STATE_RDY && sq.pp_index == new_index,
	      "state %u, pacing index %u, expected %u", sq.state, sq.pp_index,
	      new_index);
	port_close(port);
}

/*
 * Recovery sets only what the queue uses and the device supports: on a
 * ConnectX-5 (whose firmware the model has refuse MODIFY_SQ bit 2, no
 * NIC scheduling) and on a device that refuses bit 2 everywhere (a VF),
 * a paced queue whose WQE failed is ready again with its pacing index,
 * and sends.
 */
static void
test_recovery_bits(void)
{
	static const char *const args[] = {
		"emu=cx5,clock=virtual",
		"emu=cx6dx,clock=virtual,sched_modify_sq_group=refuse",
	};
	struct mlx5_emu_sq_info sq;
	struct mlx5_emu *emu;
	uint32_t sqn = 0, i, a;
	uint16_t port, index;
	uint64_t before;

	for (a = 0; a < RTE_DIM(args); a++) {
		if (port_open(args[a], 1, true, &port, &emu) != 0)
			return;
		CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 0, &sqn) == 0, "sqn");
		CHECK(rte_eth_set_queue_rate_limit(port, 0, 1000) == 0 &&
		      sq_info(port, 0, emu, &sq) == 0 && sq.pp_index != 0,
		      "%s: 1 Gbps", args[a]);
		index = sq.pp_index;
		CHECK(mlx5_emu_fault_wqe(emu, &(struct mlx5_emu_fault_wqe){
			.sqn = sqn, .nth = 3,
			.syndrome = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR }) == 0,
		      "arm");
		for (i = 0; i < 3; i++)
			send_one(port, 0, emu, 200);
		/* Error seen, SQ reset, then made ready again. */
		for (i = 0; i < 3; i++) {
			rte_eth_tx_burst(port, 0, NULL, 0);
			rte_pmd_mlx5_tm_recover(port);
		}
		CHECK(xstat(port, "tx_q0_recoveries") == 1 &&
		      sq_info(port, 0, emu, &sq) == 0 &&
		      sq.state == MLX5_SQC_STATE_RDY &&
		      sq.pp_index == index && sq.qos_queue_group_id == 0,
		      "%s: %" PRIu64 " recoveries, state %u, pacing index %u "
		      "(%u expected)", args[a],
		      xstat(port, "tx_q0_recoveries"), sq.state, sq.pp_index,
		      index);
		before = sq.packets;
		CHECK(send_one(port, 0, emu, 200) &&
		      sq_info(port, 0, emu, &sq) == 0 &&
		      sq.packets == before + 1,
		      "%s: sends again (%" PRIu64 " frames left, %" PRIu64
		      " before)", args[a], sq.packets, before);
		port_close(port);
	}
}

/* MODIFY_SQ commands seen, and those with a modify_bitmask. */
struct modify_count {
	unsigned int all;
	unsigned int fields;
	uint64_t last_mask;
};

static void
count_modify_sq(void *arg, const void *in, size_t inlen __rte_unused,
		const void *out __rte_unused, size_t outlen __rte_unused,
		uint8_t status)
{
	struct modify_count *c = arg;

	if (MLX5_GET(modify_sq_in, in, opcode) != MLX5_CMD_OP_MODIFY_SQ ||
	    status != 0)
		return;
	c->all++;
	c->last_mask = MLX5_GET64(modify_sq_in, in, modify_bitmask);
	if (c->last_mask != 0)
		c->fields++;
}

/* Queue 0 (paced) of @p port: a failed WQE seen and its SQ reset. */
static void
fail_and_reset(uint16_t port, struct mlx5_emu *emu)
{
	uint32_t sqn = 0, i;

	CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 0, &sqn) == 0, "sqn");
	CHECK(mlx5_emu_fault_wqe(emu, &(struct mlx5_emu_fault_wqe){
		.sqn = sqn, .nth = 3,
		.syndrome = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR }) == 0, "arm");
	for (i = 0; i < 3; i++)
		send_one(port, 0, emu, 200);
	rte_eth_tx_burst(port, 0, NULL, 0); /* the error seen */
	rte_pmd_mlx5_tm_recover(port);      /* reset */
	rte_eth_tx_burst(port, 0, NULL, 0); /* rewound: to be re-armed */
}

/*
 * Recovery as Linux's mlx5e_health_sq_to_ready(): RST->RDY with an empty
 * bitmask; a RDY->RDY (bit 0) only where the context did not keep the
 * pacing index through the reset (sq_reset_keeps_qos=0 of the model).
 */
static void
test_recovery_kernel_way(void)
{
	static const char *const args[] = {
		"emu=cx6dx,clock=virtual",
		"emu=cx6dx,clock=virtual,sq_reset_keeps_qos=0",
	};
	struct mlx5_emu_sq_info sq;
	struct modify_count c;
	struct mlx5_emu *emu;
	uint16_t port, index;
	unsigned int a;

	for (a = 0; a < RTE_DIM(args); a++) {
		if (port_open(args[a], 1, true, &port, &emu) != 0)
			return;
		CHECK(rte_eth_set_queue_rate_limit(port, 0, 1000) == 0 &&
		      sq_info(port, 0, emu, &sq) == 0 && sq.pp_index != 0,
		      "%s: 1 Gbps", args[a]);
		index = sq.pp_index;
		fail_and_reset(port, emu);
		CHECK(sq_info(port, 0, emu, &sq) == 0 &&
		      sq.state == MLX5_SQC_STATE_RST &&
		      (sq.pp_index == index) == (a == 0),
		      "%s: in reset, pacing index %u", args[a], sq.pp_index);
		memset(&c, 0, sizeof(c));
		mlx5_emu_set_cmd_hook(emu, count_modify_sq, &c);
		rte_pmd_mlx5_tm_recover(port);
		mlx5_emu_set_cmd_hook(emu, NULL, NULL);
		CHECK(xstat(port, "tx_q0_recoveries") == 1 &&
		      sq_info(port, 0, emu, &sq) == 0 &&
		      sq.state == MLX5_SQC_STATE_RDY && sq.pp_index == index,
		      "%s: ready with pacing index %u (%u expected)", args[a],
		      sq.pp_index, index);
		CHECK(c.all == 1u + a && c.fields == a &&
		      (a == 0 || c.last_mask ==
		       MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX),
		      "%s: %u MODIFY_SQ, %u with fields (last 0x%" PRIx64
		      "), expected %u and %u", args[a], c.all, c.fields,
		      c.last_mask, 1 + a, a);
		port_close(port);
	}
}

/*
 * A RDY->RDY the re-arm needs that firmware keeps refusing: after 8
 * tries the queue sends with what its context kept (logged once), not
 * retried every 2 ms forever.
 */
static void
test_recovery_gives_up(void)
{
	struct mlx5_emu_fault_cmd fc = {
		.opcode = MLX5_CMD_OP_MODIFY_SQ,
		.status = MLX5_CMD_STAT_BAD_PARAM_ERR,
	};
	struct mlx5_emu_sq_info sq;
	struct mlx5_emu *emu;
	uint64_t before;
	uint16_t port;
	unsigned int i;

	if (port_open("emu=cx6dx,clock=virtual,sq_reset_keeps_qos=0", 1, true,
		      &port, &emu) != 0)
		return;
	CHECK(rte_eth_set_queue_rate_limit(port, 0, 1000) == 0, "1 Gbps");
	fail_and_reset(port, emu);
	for (i = 0; i < 8; i++) {
		CHECK(xstat(port, "tx_q0_recoveries") == 0,
		      "ready after %u refused re-arms", i);
		/* The first re-arm's RST->RDY goes through, then none. */
		fc.nth = i == 0 ? 2 : 1;
		mlx5_emu_fault_cmd(emu, &fc);
		rte_pmd_mlx5_tm_recover(port);
	}
	fc.nth = 0;
	mlx5_emu_fault_cmd(emu, &fc);
	CHECK(xstat(port, "tx_q0_recoveries") == 1 &&
	      sq_info(port, 0, emu, &sq) == 0 &&
	      sq.state == MLX5_SQC_STATE_RDY && sq.pp_index == 0,
	      "after 8 refusals: %" PRIu64 " recoveries, state %u, pacing "
	      "index %u", xstat(port, "tx_q0_recoveries"), sq.state,
	      sq.pp_index);
	before = sq.packets;
	CHECK(send_one(port, 0, emu, 200) && sq_info(port, 0, emu, &sq) == 0 &&
	      sq.packets == before + 1, "sends again");
	port_close(port);
}

/* ---- 7. packet mode ---- */

static unsigned int
commit_pkt_profile(uint16_t port, uint64_t size)
{
	struct rte_tm_node_params np;
	struct rte_tm_shaper_params sp;
	struct rte_tm_error err;

	memset(&sp, 0, sizeof(sp));
	sp.peak.rate = 10000;
	sp.peak.size = size;
	sp.packet_mode = 1;
	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
	np.nonleaf.n_sp_priorities = 1;
	if (rte_tm_shaper_profile_add(port, 1, &sp, &err) != 0 ||
	    rte_tm_node_add(port, ROOT, RTE_TM_NODE_ID_NULL, 0, 1, 0, &np,
			    &err) != 0)
		return 1;
	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = 1;
	np.leaf.cman = RTE_TM_CMAN_TAIL_DROP;
	np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
	if (rte_tm_node_add(port, 0, ROOT, 0, 1, 1, &np, &err) != 0 ||
	    rte_tm_hierarchy_commit(port, 0, &err) != 0)
		return 1;
	return 0;
}

/* WQE-rate pacing: burst bound 0 unless the profile gives one. */
static void
test_packet_mode_burst(void)
{
	static const uint64_t sizes[] = { 0, 32 };
	struct mlx5_emu_pp_info pp[2];
	struct mlx5_emu *emu;
	unsigned int i;
	uint16_t port;

	for (i = 0; i < RTE_DIM(sizes); i++) {
		if (port_open("emu=cx6dx,clock=virtual,tx_burst_bound=65536,"
			      "tx_typical_pkt_sz=64", 1, true, &port,
			      &emu) != 0)
			return;
		CHECK(commit_pkt_profile(port, sizes[i]) == 0, "commit");
		CHECK(mlx5_emu_pp_list(emu, pp, RTE_DIM(pp)) == 1 &&
		      pp[0].rate_mode == MLX5_PP_RATE_MODE_WQE_RATE &&
		      pp[0].burst_upper_bound == sizes[i],
		      "size %" PRIu64 ": burst %u", sizes[i],
		      pp[0].burst_upper_bound);
		port_close(port);
	}
}

/* ---- 8. VLAN insertion, link ---- */

static void
test_vlan_and_link(void)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	struct mlx5_emu_caps caps;
	struct mlx5_emu *emu;
	uint16_t port;

	if (port_open("emu=cx5,clock=virtual", 1, false, &port, &emu) != 0)
		return;
	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
	      !(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_VLAN_INSERT),
	      "VLAN insertion offered on ConnectX-5");
	port_close(port);
	/* BlueField-1's NIC is a ConnectX-5 (PCI ids 0xa2d2, 0xa2d3). */
	if (port_open("emu=cx6dx,clock=virtual,pci_device_id=0xa2d3", 1,
		      false, &port, &emu) != 0)
		return;
	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
	      !(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_VLAN_INSERT),
	      "VLAN insertion offered on BlueField-1");
	port_close(port);
	if (port_open("emu=cx6dx,clock=virtual,link=down", 1, true, &port,
		      &emu) != 0)
		return;
	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
	      (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_VLAN_INSERT),
	      "no VLAN insertion on ConnectX-6 Dx");
	rte_eth_link_get_nowait(port, &link);
	CHECK(link.link_status == RTE_ETH_LINK_DOWN, "link up");
	mlx5_emu_set_link(emu, true);
	mlx5_emu_get_caps(emu, &caps);
	rte_eth_link_get_nowait(port, &link);
	CHECK(link.link_status == RTE_ETH_LINK_UP &&
	      link.link_speed == caps.line_rate_mbps, "link %u speed %u",
	      link.link_status, link.link_speed);
	port_close(port);
}

/*
 * The line rate a NIC gives: with the link down at probe its speed is
 * unknown, so the line rate is the fastest link mode the port supports
 * (a 25G link on a port of 100G modes here: link_max_speed=100G); a flat
 * tree commits whatever it is; when the link comes up the line rate
 * becomes the link's speed, and a non-leaf ceiling above it is refused.
 */
static void
test_line_rate_link_down(void)
{
	struct rte_pmd_mlx5_tm_dev_info di;
	struct rte_tm_shaper_params sp;
	struct rte_tm_error err;
	struct rte_eth_link link;
	struct mlx5_emu *emu;
	uint16_t port;
	int ret;

	if (port_open("emu=cx6dx,clock=virtual,line_rate=25G,"
		      "link_max_speed=100G,link=down", 1, false, &port,
		      &emu) != 0)
		return;
	CHECK(rte_pmd_mlx5_tm_dev_info(port, &di) == 0 &&
	      di.line_rate_mbps == 100000, "link down at probe: line rate %u, "
	      "the fastest mode (100000) expected", di.line_rate_mbps);
	CHECK(tm_commit_rates(port, 1, &err) == 0, "flat tree commits: %s",
	      err.message != NULL ? err.message : "");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	mlx5_emu_set_link(emu, true);
	rte_eth_link_get_nowait(port, &link);
	CHECK(link.link_status == RTE_ETH_LINK_UP &&
	      link.link_speed == 25000 &&
	      rte_pmd_mlx5_tm_dev_info(port, &di) == 0 &&
	      di.line_rate_mbps == 25000, "link up: speed %u, line rate %u, "
	      "25000 expected", link.link_speed, di.line_rate_mbps);
	memset(&sp, 0, sizeof(sp));
	sp.peak.rate = 50000ull * 125000; /* 50 Gbit/s */
	CHECK(rte_tm_shaper_profile_add(port, 90, &sp, &err) == 0, "profile");
	ret = rte_tm_node_shaper_update(port, ROOT, 90, &err);
	CHECK(ret != 0 && err.message != NULL &&
	      strstr(err.message, "1..25000 Mbit/s") != NULL,
	      "a 50 Gbit/s ceiling above the 25G link refused: %d %s", ret,
	      err.message != NULL ? err.message : "");
	port_close(port);
}

/*
 * mtu_set compares against the netdev's MTU of now, not the one read at
 * probe: changed behind the PMD's back (ip link set mtu 9000), setting
 * 1500 again must reach the netdev.
 */
static void
test_mtu_fresh(void)
{
	struct mlx5_emu *emu;
	uint16_t port;

	if (port_open("emu=cx6dx,clock=virtual", 1, false, &port, &emu) != 0)
		return;
	CHECK(mlx5_emu_mtu(emu) == 1500 && mlx5_emu_set_mtu(emu, 9000) == 0,
	      "netdev MTU 9000 behind the PMD's back");
	CHECK(rte_eth_dev_set_mtu(port, 1500) == 0 && mlx5_emu_mtu(emu) == 1500,
	      "MTU 1500 set again: the netdev has %u", mlx5_emu_mtu(emu));
	port_close(port);
}

/*
 * The line rate keeps the last speed seen while the link is down (not
 * the fastest mode: 25G, not 100G), and a commit takes the link of now
 * (the link came up with no link_update since).
 */
static void
test_line_rate_last_speed(void)
{
	struct rte_pmd_mlx5_tm_dev_info di;
	struct rte_tm_error err;
	struct rte_eth_link link;
	struct mlx5_emu *emu;
	uint16_t port;

	if (port_open("emu=cx6dx,clock=virtual,line_rate=25G,"
		      "link_max_speed=100G", 1, true, &port, &emu) != 0)
		return;
	mlx5_emu_set_link(emu, false);
	rte_eth_link_get_nowait(port, &link);
	CHECK(link.link_status == RTE_ETH_LINK_DOWN &&
	      rte_pmd_mlx5_tm_dev_info(port, &di) == 0 &&
	      di.line_rate_mbps == 25000, "link down: line rate %u, the last "
	      "speed (25000) expected", di.line_rate_mbps);
	port_close(port);
	if (port_open("emu=cx6dx,clock=virtual,line_rate=25G,"
		      "link_max_speed=100G,link=down", 1, true, &port,
		      &emu) != 0)
		return;
	mlx5_emu_set_link(emu, true);
	CHECK(tm_commit_rates(port, 1, &err) == 0 &&
	      rte_pmd_mlx5_tm_dev_info(port, &di) == 0 &&
	      di.line_rate_mbps == 25000, "commit after the link came up: "
	      "line rate %u, 25000 expected", di.line_rate_mbps);
	port_close(port);
}

int
main(int argc, char **argv)
{
	static const struct pmd_test_env env = {
		.mem_mb = "256", .lcores = "0", .pmd_log = "notice",
		.pool = "test_nic", .nb_mbufs = 1023, .cache = 0,
		.data_room = RTE_PKTMBUF_HEADROOM + FRAME_MAX,
	};

	if (argc > 1)
		test_only = argv[1];
	pool = pmd_test_setup(argv[0], &env);
	if (pool == NULL)
		return 1;
	run("MTU: longer frames dropped and counted, mtu_set", test_mtu);
	run("sqc.ts_format follows cap sq_ts_format", test_ts_format);
	run("E-Switch switchdev and representors refused at probe, saying "
	    "what to do", test_eswitch);
	run("rate table: index 0 reserved, other users", test_rate_table);
	run("no packet_pacing_uid: no shaping", test_pacing_uid);
	run("flush CQE on a ready SQ: no reset", test_flush_only);
	run("recovery applies the pacing index by RDY->RDY",
	    test_recovery_pacing_index);
	run("recovery: only the bits the queue uses (cx5, bit 2 refused)",
	    test_recovery_bits);
	run("recovery as the kernel's: RST->RDY empty, RDY->RDY only for "
	    "what the reset lost (sq_reset_keeps_qos=1, 0)",
	    test_recovery_kernel_way);
	run("recovery: a re-arm refused 8 times sends without it, once",
	    test_recovery_gives_up);
	run("packet mode: burst bound 0 unless given", test_packet_mode_burst);
	run("VLAN insertion off on ConnectX-5, link", test_vlan_and_link);
	run("line rate: link down at probe, then up", test_line_rate_link_down);
	run("line rate: the last speed while down, fresh at commit",
	    test_line_rate_last_speed);
	run("mtu_set against the netdev's MTU of now", test_mtu_fresh);
	return pmd_test_report(pool);
}
