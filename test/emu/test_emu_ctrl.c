/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Device-model control-path tests: devargs, capabilities, firmware
 * commands and their error statuses, the rate table.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_test_util.h"
#include "test_emu.h"

/* ---- devargs ---- */

static void
test_config_values(void)
{
	struct mlx5_emu_config cfg;
	char err[256];
	size_t i;

	CHECK(mlx5_emu_config_init(&cfg, "cx9") == -EINVAL, "bad profile");
	for (i = 0; mlx5_emu_profile_names[i] != NULL; i++)
		CHECK(mlx5_emu_config_init(&cfg, mlx5_emu_profile_names[i]) == 0,
		      "profile %s", mlx5_emu_profile_names[i]);
	CHECK(i == 3, "three profiles");
	CHECK(mlx5_emu_config_init(&cfg, "cx6dx") == 0, "init");
	CHECK(cfg.clock == MLX5_EMU_CLOCK_REALTIME && cfg.packet_pacing < 0 &&
	      cfg.line_rate_mbps < 0, "defaults: realtime, no overrides");
	CHECK(mlx5_emu_config_set(&cfg, "clock", "virtual", err,
				  sizeof(err)) == 0 &&
	      cfg.clock == MLX5_EMU_CLOCK_VIRTUAL, "clock=virtual");
	CHECK(mlx5_emu_config_set(&cfg, "clock", "slow", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "clock") && strstr(err, "realtime") &&
	      strstr(err, "virtual"), "clock=slow: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "line_rate", "25G", err,
				  sizeof(err)) == 0 &&
	      cfg.line_rate_mbps == 25000, "line_rate=25G");
	CHECK(mlx5_emu_config_set(&cfg, "line_rate", "40000", err,
				  sizeof(err)) == 0 &&
	      cfg.line_rate_mbps == 40000, "line_rate=40000");
	CHECK(mlx5_emu_config_set(&cfg, "line_rate", "fast", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "line_rate"), "line_rate=fast: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "cap_pp_table_size", "0", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "cap_pp_table_size") && strstr(err, "1..65535"),
	      "table 0: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "cap_wqe_rate_pp", "2", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "0 or 1"), "wqe_rate_pp=2: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "cap_inline_mode", "-1", err,
				  sizeof(err)) == -EINVAL, "inline -1");
	CHECK(mlx5_emu_config_set(&cfg, "cap_pp_max_rate", "200000000", err,
				  sizeof(err)) == 0 &&
	      cfg.pp_max_rate_kbps == 200000000, "max rate");
	CHECK(mlx5_emu_config_set(&cfg, "pcap", "", err, sizeof(err)) ==
	      -EINVAL && strstr(err, "pcap"), "empty pcap");
	CHECK(mlx5_emu_config_set(&cfg, "fault_cmd", "MODIFY_SQ:2:bad_param",
				  err, sizeof(err)) == 0 &&
	      cfg.fault_cmd.opcode == MLX5_CMD_OP_MODIFY_SQ &&
	      cfg.fault_cmd.nth == 2 &&
	      cfg.fault_cmd.status == MLX5_CMD_STAT_BAD_PARAM_ERR,
	      "fault_cmd by name");
	CHECK(mlx5_emu_config_set(&cfg, "fault_cmd", "0x904:1:5:0x1234", err,
				  sizeof(err)) == 0 &&
	      cfg.fault_cmd.opcode == MLX5_CMD_OP_CREATE_SQ &&
	      cfg.fault_cmd.syndrome == 0x1234, "fault_cmd by number");
	CHECK(mlx5_emu_config_set(&cfg, "fault_cmd", "MODIFY_SQ:0:3", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "fault_cmd"), "fault_cmd nth 0: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "fault_pp_alloc", "3:EIO", err,
				  sizeof(err)) == 0 &&
	      cfg.fault_pp.nth == 3 && cfg.fault_pp.err == EIO, "fault_pp");
	CHECK(mlx5_emu_config_set(&cfg, "fault_pp_alloc", "3:EPERM", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "ENOSPC"), "fault_pp EPERM: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "fault_wqe", "5", err,
				  sizeof(err)) == 0 && cfg.fault_wqe.nth == 5 &&
	      cfg.fault_wqe.syndrome == MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
	      "fault_wqe");
	/* CPU 0 is online on every machine; the syntax of a list. */
	CHECK(mlx5_emu_config_set(&cfg, "cpus", "0-0,0", err,
				  sizeof(err)) == 0 &&
	      strcmp(cfg.cpus, "0-0,0") == 0, "cpus list: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "cpus", "1023", err,
				  sizeof(err)) == -EINVAL &&
	      strstr(err, "cpus='1023'") && strstr(err, "online CPUs: 0"),
	      "cpus off line: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "cpus", "3-1", err,
				  sizeof(err)) == -EINVAL && strstr(err, "cpus"),
	      "cpus reversed range: %s", err);
	CHECK(mlx5_emu_config_set(&cfg, "no_such_key", "1", err,
				  sizeof(err)) == -ENOENT, "unknown key");
	/* Every key but pcap (any non-empty path is a path). */
	for (i = 0; mlx5_emu_config_keys[i] != NULL; i++) {
		int r;

		if (strcmp(mlx5_emu_config_keys[i], "pcap") == 0)
			continue;
		r = mlx5_emu_config_set(&cfg, mlx5_emu_config_keys[i],
					"\x01" "bad", err, sizeof(err));

		CHECK(r == -EINVAL && strstr(err, mlx5_emu_config_keys[i]),
		      "key %s refuses garbage naming itself: %d '%s'",
		      mlx5_emu_config_keys[i], r, err);
	}
}

static void
test_config_open(void)
{
	static const char *const bad_range[] = {
		"cap_pp_min_rate=5000", "cap_pp_max_rate=4000", NULL };
	struct mlx5_emu_config cfg;
	struct mlx5_tm_glue_dev *dev;
	struct t_dev d;

	errno = 0;
	dev = mlx5_tm_glue_emu.open_device("cx9", NULL);
	CHECK(dev == NULL && errno == ENODEV, "unknown device: ENODEV");
	mlx5_emu_config_init(&cfg, "cx5");
	dev = mlx5_tm_glue_emu.open_device("cx7", &cfg);
	CHECK(dev == NULL && errno == EINVAL, "name/profile mismatch");
	CHECK(t_open(&d, "cx6dx", bad_range) == -EINVAL, "empty rate range");
	t_close(&d);
	CHECK(mlx5_emu_from_glue(NULL) == NULL, "from_glue(NULL)");
}

void
test_emu_config(void)
{
	T_RUN(test_config_values());
	T_RUN(test_config_open());
}

/* ---- firmware commands ---- */

static int
query_cap(struct t_dev *d, uint16_t type, uint32_t *out, size_t outlen)
{
	uint32_t in[MLX5_ST_SZ_DW(query_hca_cap_in)];

	memset(in, 0, sizeof(in));
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	MLX5_SET(query_hca_cap_in, in, op_mod,
		 MLX5_HCA_CAP_OP_MOD(type, MLX5_HCA_CAP_OPMOD_GET_CUR));
	return d->g->devx_general_cmd(d->dev, in, sizeof(in), out, outlen);
}

static void
test_caps(void)
{
	static const struct {
		const char *profile;
		uint32_t min, max, table;
		bool wqe_rate;
		uint8_t inline_mode;
	} want[] = {
		{ "cx5", 1000, 100000000, 128, false,
		  MLX5_CAP_INLINE_MODE_VPORT_CONTEXT },
		{ "cx6dx", 1000, 100000000, 512, true,
		  MLX5_CAP_INLINE_MODE_VPORT_CONTEXT },
		{ "cx7", 1000, 400000000, 1024, true,
		  MLX5_CAP_INLINE_MODE_NOT_REQUIRED },
	};
	static uint32_t out[MLX5_ST_SZ_DW(query_hca_cap_out)];
	static const char *const kv[] = { "clock=virtual",
		"cap_pp_table_size=7", "cap_wqe_rate_pp=1",
		"cap_log_max_wq_sz=12", NULL };
	struct mlx5_emu_caps caps;
	struct t_dev d;
	void *cap = MLX5_ADDR_OF(query_hca_cap_out, out, capability);
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		static const char *const v[] = { "clock=virtual", NULL };

		CHECK(t_open(&d, want[i].profile, v) == 0, "open %s",
		      want[i].profile);
		CHECK(query_cap(&d, MLX5_CAP_QOS, out, sizeof(out)) == 0,
		      "QoS caps");
		CHECK(MLX5_GET(qos_cap, cap, packet_pacing) == 1 &&
		      MLX5_GET(qos_cap, cap, packet_pacing_min_rate) ==
		      want[i].min &&
		      MLX5_GET(qos_cap, cap, packet_pacing_max_rate) ==
		      want[i].max &&
		      MLX5_GET(qos_cap, cap, packet_pacing_rate_table_size) ==
		      want[i].table &&
		      MLX5_GET(qos_cap, cap, wqe_rate_pp) == want[i].wqe_rate &&
		      MLX5_GET(qos_cap, cap, packet_pacing_burst_bound) == 1 &&
		      MLX5_GET(qos_cap, cap, packet_pacing_typical_size) == 1,
		      "%s QoS values", want[i].profile);
		CHECK(query_cap(&d, MLX5_CAP_GENERAL, out, sizeof(out)) == 0,
		      "general caps");
		CHECK(MLX5_GET(cmd_hca_cap, cap, log_max_wq_sz) == 15 &&
		      MLX5_GET(cmd_hca_cap, cap, log_max_cq_sz) == 22 &&
		      MLX5_GET(cmd_hca_cap, cap, port_type) ==
		      MLX5_CAP_PORT_TYPE_ETH &&
		      MLX5_GET(cmd_hca_cap, cap, qos) == 1 &&
		      MLX5_GET(cmd_hca_cap, cap, eth_virt) == 1 &&
		      MLX5_GET(cmd_hca_cap, cap, device_frequency_khz) ==
		      1000000, "%s general values", want[i].profile);
		CHECK(query_cap(&d, MLX5_CAP_ETHERNET_OFFLOADS, out,
				sizeof(out)) == 0, "eth caps");
		CHECK(MLX5_GET(per_protocol_networking_offload_caps, cap,
			       wqe_inline_mode) == want[i].inline_mode,
		      "%s inline mode", want[i].profile);
		/* NIC flow table caps: answered (upstream reads them), 0. */
		memset(out, 0xff, sizeof(out));
		CHECK(query_cap(&d, MLX5_CAP_FLOW_TABLE, out, sizeof(out)) == 0 &&
		      MLX5_GET(cmd_hca_cap, cap, log_max_qp) == 0 &&
		      MLX5_GET(qos_cap, cap, packet_pacing_rate_table_size) == 0,
		      "%s flow table caps all 0", want[i].profile);
		/* ROCE caps (type 0x4): no RoCE, refused. */
		CHECK(query_cap(&d, 0x4, out, sizeof(out)) == -EREMOTEIO &&
		      t_status(out) == MLX5_CMD_STAT_BAD_PARAM_ERR,
		      "unsupported cap type");
		t_close(&d);
	}
	CHECK(t_open(&d, "cx5", kv) == 0, "open cx5 with overrides");
	query_cap(&d, MLX5_CAP_QOS, out, sizeof(out));
	CHECK(MLX5_GET(qos_cap, cap, packet_pacing_rate_table_size) == 7 &&
	      MLX5_GET(qos_cap, cap, wqe_rate_pp) == 1, "QoS overrides");
	query_cap(&d, MLX5_CAP_GENERAL, out, sizeof(out));
	CHECK(MLX5_GET(cmd_hca_cap, cap, log_max_wq_sz) == 12,
	      "log_max_wq_sz override");
	mlx5_emu_get_caps(d.emu, &caps);
	CHECK(caps.pp_table_size == 7 && caps.line_rate_mbps == 100000 &&
	      strcmp(caps.profile, "cx5") == 0, "get_caps");
	t_close(&d);
}

/* Run a raw command through the general door. */
static int
gen(struct t_dev *d, const void *in, size_t inlen, void *out, size_t outlen)
{
	return d->g->devx_general_cmd(d->dev, in, inlen, out, outlen);
}

static struct mlx5_tm_devx_obj *
create(struct t_dev *d, const void *in, size_t inlen, void *out,
       size_t outlen)
{
	return d->g->devx_obj_create(d->dev, in, inlen, out, outlen);
}

/* CREATE_SQ input from a working template with one field broken. */
enum sq_break {
	SQ_OK, SQ_BAD_CQ, SQ_BAD_TIS, SQ_BAD_PD, SQ_BAD_UAR, SQ_BAD_UMEM,
	SQ_BIG_LOG, SQ_BAD_PP, SQ_BAD_RANGE, SQ_BAD_STATE,
};

static void
sq_in(struct t_dev *d, struct t_sq *s, uint32_t *in, enum sq_break brk)
{
	void *sqc = MLX5_ADDR_OF(create_sq_in, in, ctx);
	void *wq = MLX5_ADDR_OF(sqc, sqc, wq);

	memset(in, 0, MLX5_ST_SZ_BYTES(create_sq_in));
	MLX5_SET(create_sq_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	MLX5_SET(sqc, sqc, state, brk == SQ_BAD_STATE ? MLX5_SQC_STATE_ERR :
		 MLX5_SQC_STATE_RST);
	MLX5_SET(sqc, sqc, cqn, brk == SQ_BAD_CQ ? 0x7777 : s->cqn);
	MLX5_SET(sqc, sqc, tis_lst_sz, 1);
	MLX5_SET(sqc, sqc, tis_num_0, brk == SQ_BAD_TIS ? 0x7777 : d->tisn);
	MLX5_SET(sqc, sqc, packet_pacing_rate_limit_index,
		 brk == SQ_BAD_PP ? 5 : 0);
	MLX5_SET(wq, wq, wq_type, MLX5_WQ_TYPE_CYCLIC);
	MLX5_SET(wq, wq, pd, brk == SQ_BAD_PD ? 0x7777 : d->pd->pdn);
	MLX5_SET(wq, wq, uar_page, brk == SQ_BAD_UAR ? 0x7777 :
		 d->uar->page_id);
	MLX5_SET64(wq, wq, dbr_addr, 8);
	MLX5_SET(wq, wq, log_wq_stride, MLX5_SEND_WQE_SHIFT);
	MLX5_SET(wq, wq, log_wq_sz, brk == SQ_BIG_LOG ? 16 :
		 brk == SQ_BAD_RANGE ? 10 : s->log_sq);
	MLX5_SET(wq, wq, dbr_umem_valid, 1);
	MLX5_SET(wq, wq, wq_umem_valid, 1);
	MLX5_SET(wq, wq, dbr_umem_id, s->db_umem->umem_id);
	MLX5_SET(wq, wq, wq_umem_id, brk == SQ_BAD_UMEM ? 0x7777 :
		 s->sq_umem->umem_id);
}

static void
test_fw_errors(void)
{
	static const char *const kv[] = { "clock=virtual", NULL };
	static const struct {
		enum sq_break brk;
		uint8_t status;
		const char *what;
	} sq_cases[] = {
		{ SQ_BAD_CQ, MLX5_CMD_STAT_BAD_RES_ERR, "unknown cqn" },
		{ SQ_BAD_TIS, MLX5_CMD_STAT_BAD_RES_ERR, "unknown tisn" },
		{ SQ_BAD_PD, MLX5_CMD_STAT_BAD_RES_ERR, "unknown pdn" },
		{ SQ_BAD_UAR, MLX5_CMD_STAT_BAD_RES_ERR, "unknown uar page" },
		{ SQ_BAD_UMEM, MLX5_CMD_STAT_BAD_RES_ERR, "unknown umem" },
		{ SQ_BIG_LOG, MLX5_CMD_STAT_BAD_PARAM_ERR, "log_wq_sz > cap" },
		{ SQ_BAD_PP, MLX5_CMD_STAT_BAD_PARAM_ERR, "unused pp index" },
		{ SQ_BAD_RANGE, MLX5_CMD_STAT_BAD_PARAM_ERR, "ring > umem" },
		{ SQ_BAD_STATE, MLX5_CMD_STAT_BAD_PARAM_ERR, "create in ERR" },
	};
	uint32_t in[MLX5_ST_SZ_DW(create_sq_in)];
	uint32_t out[MLX5_ST_SZ_DW(query_sq_out)];
	struct mlx5_emu_cmd_error ce;
	struct mlx5_tm_devx_obj *obj;
	struct t_dev d;
	struct t_sq s;
	size_t i;
	uint8_t st;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	/* Unknown opcode. */
	memset(in, 0, sizeof(in));
	MLX5_SET(mbox_in, in, opcode, 0x7ff);
	CHECK(gen(&d, in, 16, out, 16) == -EREMOTEIO && errno == EREMOTEIO &&
	      t_status(out) == MLX5_CMD_STAT_BAD_OP_ERR &&
	      MLX5_GET(mbox_out, out, syndrome) == MLX5_EMU_SYND_BAD_OPCODE,
	      "unknown opcode: BAD_OP");
	mlx5_emu_last_cmd_error(d.emu, &ce);
	CHECK(ce.opcode == 0x7ff && ce.status == MLX5_CMD_STAT_BAD_OP_ERR &&
	      ce.count == 1, "last command error");
	/* Object commands do not go through the general door. */
	MLX5_SET(mbox_in, in, opcode, MLX5_CMD_OP_CREATE_SQ);
	CHECK(gen(&d, in, sizeof(in), out, 16) == -EINVAL,
	      "CREATE_SQ through general_cmd");
	/* Short buffers. */
	memset(in, 0, sizeof(in));
	MLX5_SET(query_hca_cap_in, in, opcode, MLX5_CMD_OP_QUERY_HCA_CAP);
	CHECK(gen(&d, in, 8, out, 16) == -EREMOTEIO &&
	      t_status(out) == MLX5_CMD_STAT_BAD_INP_LEN_ERR, "BAD_INP_LEN");
	CHECK(gen(&d, in, 16, out, 64) == -EREMOTEIO &&
	      t_status(out) == MLX5_CMD_STAT_BAD_OUTP_LEN_ERR, "BAD_OUTP_LEN");
	CHECK(t_sq_create(&d, &s, 6, 4, 0, MLX5_SQC_STATE_RST) == 0,
	      "SQ (template)");
	for (i = 0; i < sizeof(sq_cases) / sizeof(sq_cases[0]); i++) {
		sq_in(&d, &s, in, sq_cases[i].brk);
		obj = create(&d, in, MLX5_ST_SZ_BYTES(create_sq_in), out, 16);
		CHECK(obj == NULL && errno == EREMOTEIO &&
		      t_status(out) == sq_cases[i].status,
		      "CREATE_SQ %s: status 0x%x", sq_cases[i].what,
		      t_status(out));
		if (obj != NULL)
			d.g->devx_obj_destroy(obj);
	}
	/* CQ: log size beyond caps, unknown EQ, unknown uar. */
	{
		uint32_t cin[MLX5_ST_SZ_DW(create_cq_in)];
		void *cqc = MLX5_ADDR_OF(create_cq_in, cin, cq_context);

		memset(cin, 0, sizeof(cin));
		MLX5_SET(create_cq_in, cin, opcode, MLX5_CMD_OP_CREATE_CQ);
		MLX5_SET(cqc, cqc, log_cq_size, 23);
		MLX5_SET(cqc, cqc, uar_page, d.uar->page_id);
		MLX5_SET(cqc, cqc, dbr_umem_valid, 1);
		MLX5_SET(cqc, cqc, dbr_umem_id, s.db_umem->umem_id);
		MLX5_SET(create_cq_in, cin, cq_umem_valid, 1);
		MLX5_SET(create_cq_in, cin, cq_umem_id, s.cq_umem->umem_id);
		obj = create(&d, cin, sizeof(cin), out, 16);
		CHECK(obj == NULL && t_status(out) ==
		      MLX5_CMD_STAT_BAD_PARAM_ERR, "CQ log size > cap");
		MLX5_SET(cqc, cqc, log_cq_size, 2);
		MLX5_SET(cqc, cqc, c_eqn, 200);
		obj = create(&d, cin, sizeof(cin), out, 16);
		CHECK(obj == NULL && t_status(out) == MLX5_CMD_STAT_BAD_RES_ERR,
		      "CQ unknown EQ");
		MLX5_SET(cqc, cqc, c_eqn, 0);
		MLX5_SET(cqc, cqc, uar_page, 0x7777);
		obj = create(&d, cin, sizeof(cin), out, 16);
		CHECK(obj == NULL && t_status(out) == MLX5_CMD_STAT_BAD_RES_ERR,
		      "CQ unknown uar");
		MLX5_SET(cqc, cqc, uar_page, d.uar->page_id);
		obj = create(&d, cin, sizeof(cin), out, 16);
		CHECK(obj != NULL, "CQ ok");
		if (obj != NULL)
			d.g->devx_obj_destroy(obj);
	}
	/* TIS over an unknown transport domain. */
	{
		uint32_t tin[MLX5_ST_SZ_DW(create_tis_in)];

		memset(tin, 0, sizeof(tin));
		MLX5_SET(create_tis_in, tin, opcode, MLX5_CMD_OP_CREATE_TIS);
		MLX5_SET(tisc, MLX5_ADDR_OF(create_tis_in, tin, ctx),
			 transport_domain, 0x7777);
		obj = create(&d, tin, sizeof(tin), out, 16);
		CHECK(obj == NULL && t_status(out) == MLX5_CMD_STAT_BAD_RES_ERR,
		      "TIS unknown TD");
	}
	/* State machine. */
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == -EREMOTEIO &&
	      st == MLX5_CMD_STAT_BAD_RES_STATE_ERR, "wrong current state");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_ERR, false, 0,
			  &st) == -EREMOTEIO &&
	      st == MLX5_CMD_STAT_BAD_RES_STATE_ERR, "RST->ERR illegal");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, true, 9,
			  &st) == -EREMOTEIO &&
	      st == MLX5_CMD_STAT_BAD_PARAM_ERR, "unused pp index in MODIFY");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == 0, "RST->RDY");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == 0, "RDY->RDY");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_ERR, false, 0,
			  &st) == 0, "RDY->ERR");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_ERR, MLX5_SQC_STATE_RST, false, 0,
			  &st) == 0, "ERR->RST");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == 0, "RST->RDY again");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RST, false, 0,
			  &st) == 0, "RDY->RST");
	/* QUERY_SQ reflects the context. */
	{
		uint32_t qin[MLX5_ST_SZ_DW(query_sq_in)];
		void *sqc = MLX5_ADDR_OF(query_sq_out, out, sq_context);

		memset(qin, 0, sizeof(qin));
		MLX5_SET(query_sq_in, qin, opcode, MLX5_CMD_OP_QUERY_SQ);
		MLX5_SET(query_sq_in, qin, sqn, s.sqn);
		CHECK(d.g->devx_obj_query(s.sq, qin, sizeof(qin), out,
					  sizeof(out)) == 0, "QUERY_SQ");
		CHECK(MLX5_GET(sqc, sqc, state) == MLX5_SQC_STATE_RST &&
		      MLX5_GET(sqc, sqc, cqn) == s.cqn &&
		      MLX5_GET(sqc, sqc, tis_num_0) == d.tisn, "SQ context");
		/* A query aimed at another SQ number is refused. */
		MLX5_SET(query_sq_in, qin, sqn, s.sqn + 1);
		CHECK(d.g->devx_obj_query(s.sq, qin, sizeof(qin), out,
					  sizeof(out)) == -EINVAL,
		      "query of another object");
		MLX5_SET(query_sq_in, qin, opcode, MLX5_CMD_OP_QUERY_CQ);
		MLX5_SET(query_sq_in, qin, sqn, s.sqn);
		CHECK(d.g->devx_obj_query(s.sq, qin, sizeof(qin), out,
					  sizeof(out)) == -EINVAL,
		      "QUERY_CQ on an SQ");
	}
	/* Destroying what is in use. */
	CHECK(d.g->devx_obj_destroy(s.cq) == -EREMOTEIO, "CQ used by an SQ");
	mlx5_emu_last_cmd_error(d.emu, &ce);
	CHECK(ce.opcode == MLX5_CMD_OP_DESTROY_CQ &&
	      ce.status == MLX5_CMD_STAT_BAD_RES_STATE_ERR &&
	      ce.syndrome == MLX5_EMU_SYND_IN_USE, "BAD_RES_STATE");
	CHECK(d.g->devx_obj_destroy(d.tis) == -EREMOTEIO, "TIS used by SQ");
	CHECK(d.g->devx_obj_destroy(d.td) == -EREMOTEIO, "TD used by TIS");
	CHECK(d.g->devx_umem_dereg(s.sq_umem) == -EBUSY, "umem in use");
	CHECK(d.g->pd_free(d.pd) == -EBUSY, "PD in use");
	CHECK(d.g->close_device(d.dev) == -EBUSY, "close with objects");
	{
		uint32_t eqn;

		CHECK(d.g->devx_query_eqn(d.dev, 0, &eqn) == 0 && eqn == 0,
		      "eqn 0");
		CHECK(d.g->devx_query_eqn(d.dev, 1000, &eqn) == -EINVAL,
		      "eqn out of range");
	}
	t_sq_destroy(&s);
	t_close(&d);
}

static void
test_fw_faults(void)
{
	static const char *const kv[] = { "clock=virtual",
		"fault_cmd=MODIFY_SQ:2:bad_res_state:0xabc", NULL };
	struct mlx5_emu_fault_cmd fc;
	struct t_dev d;
	struct t_sq s;
	uint8_t st;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open with fault_cmd");
	CHECK(t_sq_create(&d, &s, 6, 4, 0, MLX5_SQC_STATE_RST) == 0, "SQ");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == 0, "1st MODIFY_SQ ok");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == -EREMOTEIO &&
	      st == MLX5_CMD_STAT_BAD_RES_STATE_ERR, "2nd fails as injected");
	CHECK(t_sq_modify(&s, MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY, false, 0,
			  &st) == 0, "one-shot");
	fc.opcode = MLX5_CMD_OP_DESTROY_SQ;
	fc.nth = 1;
	fc.status = MLX5_CMD_STAT_INT_ERR;
	fc.syndrome = 1;
	CHECK(mlx5_emu_fault_cmd(d.emu, &fc) == 0, "arm by API");
	CHECK(d.g->devx_obj_destroy(s.sq) == -EREMOTEIO, "DESTROY_SQ fails");
	t_sq_destroy(&s);
	t_close(&d);
}

void
test_emu_fw(void)
{
	T_RUN(test_caps());
	T_RUN(test_fw_errors());
	T_RUN(test_fw_faults());
}

/* ---- rate table ---- */

static void
test_pp_semantics(void)
{
	static const char *const kv[] = { "clock=virtual",
		"cap_pp_table_size=5", NULL };  /* 4 entries: index 0 reserved */
	struct mlx5_tm_pp *a, *b, *c, *x, *full[4];
	struct mlx5_emu_pp_info info[8];
	struct mlx5_emu_fault_pp fp;
	struct t_dev d;
	unsigned int n, i;

	CHECK(t_open(&d, "cx6dx", kv) == 0, "open");
	errno = 0;
	CHECK(t_pp(&d, 0, 0, 0, 0, 0) == NULL && errno == EINVAL, "rate 0");
	CHECK(t_pp(&d, 999, 0, 0, 0, 0) == NULL && errno == EINVAL,
	      "below min");
	CHECK(t_pp(&d, 100000001, 0, 0, 0, 0) == NULL && errno == EINVAL,
	      "above max");
	CHECK(t_pp(&d, 5000, 0, 2, 0, 0) == NULL && errno == EINVAL,
	      "rate mode 2");
	CHECK(d.g->pp_alloc(d.dev, 100, info, 0) == NULL && errno == EINVAL,
	      "context too big");
	a = t_pp(&d, 5000, 0, 0, 0, 0);
	b = t_pp(&d, 5000, 0, 0, 0, 0);
	c = t_pp(&d, 5000, 0, 0, 0, MLX5_TM_PP_FLAG_DEDICATED_INDEX);
	CHECK(a != NULL && b != NULL && c != NULL, "allocs");
	if (a == NULL || b == NULL || c == NULL)
		goto out;
	CHECK(a->index == 1 && b->index == 1, "identical contexts share 1");
	CHECK(c->index == 2, "dedicated gets its own: %u", c->index);
	x = t_pp(&d, 5000, 0, 0, 0, 0);
	CHECK(x != NULL && x->index == 1, "shared never joins dedicated");
	n = mlx5_emu_pp_list(d.emu, info, 8);
	CHECK(n == 2 && info[0].index == 1 && info[0].refcount == 3 &&
	      !info[0].dedicated && info[1].dedicated &&
	      info[1].refcount == 1 && info[0].rate_limit == 5000,
	      "table contents");
	d.g->pp_free(x);
	d.g->pp_free(b);
	n = mlx5_emu_pp_list(d.emu, info, 8);
	CHECK(n == 2 && info[0].refcount == 1, "refcount down");
	/* Fill the table: 2 used, 2 free. */
	full[0] = t_pp(&d, 6000, 0, 0, 0, 0);
	full[1] = t_pp(&d, 7000, 0, 0, 0, 0);
	CHECK(full[0] != NULL && full[1] != NULL, "fill");
	errno = 0;
	full[2] = t_pp(&d, 8000, 0, 0, 0, 0);
	CHECK(full[2] == NULL && errno == ENOSPC, "table full: ENOSPC");
	full[3] = t_pp(&d, 6000, 0, 0, 0, 0);
	CHECK(full[3] != NULL && full[3]->index == full[0]->index,
	      "sharing still works when full");
	d.g->pp_free(a);
	CHECK(mlx5_emu_pp_list(d.emu, NULL, 0) == 3, "entry 1 cleared");
	full[2] = t_pp(&d, 8000, 0, 0, 0, 0);
	CHECK(full[2] != NULL && full[2]->index == 1, "index 1 reused");
	/* Injected failures. */
	fp.nth = 2;
	fp.err = EIO;
	CHECK(mlx5_emu_fault_pp_alloc(d.emu, &fp) == 0, "arm");
	x = t_pp(&d, 8000, 0, 0, 0, 0);
	CHECK(x != NULL, "1st after arming ok");
	if (x != NULL)
		d.g->pp_free(x);
	errno = 0;
	CHECK(t_pp(&d, 8000, 0, 0, 0, 0) == NULL && errno == EIO,
	      "2nd fails EIO");
	for (i = 0; i < 4; i++)
		if (full[i] != NULL)
			d.g->pp_free(full[i]);
	d.g->pp_free(c);
	CHECK(mlx5_emu_pp_list(d.emu, NULL, 0) == 0, "all cleared");
out:
	t_close(&d);
}

static void
test_pp_caps(void)
{
	static const char *const no_pp[] = { "clock=virtual",
		"cap_packet_pacing=0", NULL };
	static const char *const no_bb[] = { "clock=virtual",
		"cap_pp_burst_bound=0", "cap_pp_typical_size=0",
		"fault_pp_alloc=1:ENOSPC", NULL };
	struct mlx5_tm_pp *p;
	struct t_dev d;

	CHECK(t_open(&d, "cx6dx", no_pp) == 0, "open no pacing");
	errno = 0;
	CHECK(t_pp(&d, 5000, 0, 0, 0, 0) == NULL && errno == EOPNOTSUPP,
	      "no packet pacing: EOPNOTSUPP");
	t_close(&d);
	CHECK(t_open(&d, "cx5", no_bb) == 0, "open cx5");
	errno = 0;
	CHECK(t_pp(&d, 5000, 0, 0, 0, 0) == NULL && errno == ENOSPC,
	      "devarg fault: ENOSPC");
	CHECK(t_pp(&d, 5000, 0, MLX5_PP_RATE_MODE_WQE_RATE, 0, 0) == NULL &&
	      errno == EINVAL, "WQE rate without wqe_rate_pp");
	CHECK(t_pp(&d, 5000, 3000, 0, 0, 0) == NULL && errno == EINVAL,
	      "burst bound unsupported");
	CHECK(t_pp(&d, 5000, 0, 0, 512, 0) == NULL && errno == EINVAL,
	      "typical size unsupported");
	p = t_pp(&d, 5000, 0, 0, 0, 0);
	CHECK(p != NULL, "plain ok");
	if (p != NULL)
		d.g->pp_free(p);
	t_close(&d);
}

void
test_emu_rate_table(void)
{
	T_RUN(test_pp_semantics());
	T_RUN(test_pp_caps());
}
