/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Conformance with upstream mlx5 (doc/guides/device_model.rst,
 * "Conformance with upstream mlx5"). Upstream's mlx5_glue is pointed at
 * the device model, then for each profile (and capability devargs):
 *   caps:    every capability the model reports reads back identically
 *            through mlx5_devx_cmd_query_hca_attr();
 *   objects: objects built by upstream's builders are what their
 *            attributes say, read back with the model's introspection;
 *   fields:  the PMD's command buffers equal upstream's for the same
 *            attributes, field by field in upstream's PRM layouts;
 *            differences are listed below with their reason.
 * One line per comparison; the closing line counts them.
 *
 * Usage: test_conform <EAL args> (EAL for upstream's rte_malloc).
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "conform.h"
#include "conform_model.h"
#include "conform_rdma.h"
#include "conform_upstream.h"
#include "test_eal.h"

unsigned int c_passed, c_failed, c_skipped;

/* The open case: its name, whether a comparison of it failed. */
static char case_name[192];
static bool case_open;
static bool case_failed;

void
conform_case(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (!case_open) {
		if (ok)
			c_passed++;
		else
			c_failed++;
	} else if (!ok) {
		case_failed = true;
	}
	printf("%s%s ", case_open ? "  " : "", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void
conform_begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(case_name, sizeof(case_name), fmt, ap);
	va_end(ap);
	case_open = true;
	case_failed = false;
}

void
conform_end(void)
{
	if (case_failed)
		c_failed++;
	else
		c_passed++;
	printf("%s %s\n", case_failed ? "FAIL" : "ok  ", case_name);
	case_open = false;
}

static void
note(const char *fmt, ...)
{
	va_list ap;

	printf("     ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void
quiet_log(int level, const char *msg)
{
	if (level <= 3 && getenv("CONFORM_VERBOSE") != NULL)
		printf("model: %s\n", msg);
}

/* ---- the devices compared ---- */

struct conform_config {
	const char *profile;
	const char *devargs[4];
	bool objects; /**< Also build objects (parts b and c). */
};

static const struct conform_config configs[] = {
	{ "cx5", { NULL }, true },
	{ "cx6dx", { NULL }, true },
	{ "cx7", { NULL }, true },
	{ "cx5", { "cap_vport_inline=tcp_udp", NULL }, true },
	{ "cx6dx", { "cap_packet_pacing=0", NULL }, false },
	{ "cx6dx", { "cap_wqe_rate_pp=0", "cap_pp_burst_bound=0",
		     "cap_pp_typical_size=0", NULL }, false },
	{ "cx7", { "cap_pp_min_rate=2000", "cap_pp_max_rate=50000000",
		   "cap_pp_table_size=64", NULL }, false },
	{ "cx6dx", { "cap_log_max_wq_sz=12", "cap_log_max_cq_sz=16", NULL },
	  false },
	{ "cx6dx", { "cap_inline_mode=0", NULL }, false },
	{ "cx7", { "cap_inline_mode=1", "cap_vport_inline=ip", NULL }, true },
};

static void
config_name(const struct conform_config *c, char *buf, size_t len)
{
	const char *const *kv;
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", c->profile);
	for (kv = c->devargs; *kv != NULL && n < len; kv++)
		n += (size_t)snprintf(buf + n, len - n, ",%s", *kv);
}

static void diff_cmd(const char *cfg, const char *step,
		     const struct conform_cmd *ours,
		     const struct conform_cmd *up);

/* ---- (a) capabilities ---- */

/* MLX5_CAP_INLINE_MODE_VPORT_CONTEXT (PRM). */
#define INLINE_MODE_VPORT_CONTEXT 1

static void
cap_case(const char *cfg, const char *name, uint64_t model, uint64_t up,
	 const char *via)
{
	conform_case(model == up, "%s caps %s: model %llu, upstream %llu (%s)",
		     cfg, name, (unsigned long long)model,
		     (unsigned long long)up, via);
}

static void
compare_caps(const char *cfg, struct conform_dev *d, struct up_hca *h)
{
	struct mlx5_emu_caps c;
	char mods[128] = "";
	size_t n = 0;
	unsigned int i;

	static struct conform_cmd up_cmds[CONFORM_REC_MAX];
	unsigned int nb_up, j;

	mlx5_emu_get_caps(d->emu, &c);
	up_query_hca_attr(d, h);
	nb_up = conform_rec_count();
	for (j = 0; j < nb_up; j++)
		up_cmds[j] = *conform_rec_get(j);
	for (i = 0; i < h->nb_op_mods && n < sizeof(mods); i++)
		n += (size_t)snprintf(mods + n, sizeof(mods) - n, "%s0x%x",
				      i ? " " : "", h->op_mods[i]);
	conform_case(h->ret == 0,
		     "%s caps mlx5_devx_cmd_query_hca_attr() returns 0: %d "
		     "(QUERY_HCA_CAP op_mods %s; first refused command 0x%x "
		     "op_mod 0x%x)", cfg, h->ret, mods, h->failed_opcode,
		     h->failed_op_mod);

	/* mlx5_emu_get_caps(), field by field. */
	cap_case(cfg, "packet_pacing", c.packet_pacing, h->packet_pacing,
		 "mlx5_hca_attr.qos.packet_pacing");
	cap_case(cfg, "wqe_rate_pp", c.wqe_rate_pp, h->wqe_rate_pp,
		 "mlx5_hca_attr.qos.wqe_rate_pp");
	cap_case(cfg, "pp_burst_bound", c.pp_burst_bound, h->pp_burst_bound,
		 "qos_cap.packet_pacing_burst_bound, upstream layout");
	cap_case(cfg, "pp_typical_size", c.pp_typical_size,
		 h->pp_typical_size,
		 "qos_cap.packet_pacing_typical_size, upstream layout");
	cap_case(cfg, "pp_min_rate_kbps", c.pp_min_rate_kbps, h->pp_min_rate,
		 "qos_cap.packet_pacing_min_rate, upstream layout");
	cap_case(cfg, "pp_max_rate_kbps", c.pp_max_rate_kbps, h->pp_max_rate,
		 "qos_cap.packet_pacing_max_rate, upstream layout");
	cap_case(cfg, "pp_table_size", c.pp_table_size, h->pp_table_size,
		 "qos_cap.packet_pacing_rate_table_size, upstream layout");
	cap_case(cfg, "log_max_wq_sz", c.log_max_wq_sz, h->log_max_wq_sz,
		 "mlx5_hca_attr.log_max_wq_sz");
	cap_case(cfg, "log_max_cq_sz", c.log_max_cq_sz, h->log_max_cq_sz,
		 "mlx5_hca_attr.log_max_cq_sz");
	cap_case(cfg, "log_max_cq", c.log_max_cq, h->log_max_cq,
		 "mlx5_hca_attr.log_max_cq");
	cap_case(cfg, "log_max_sq", c.log_max_sq, h->log_max_sq,
		 "cmd_hca_cap.log_max_sq, upstream layout");
	cap_case(cfg, "wqe_inline_mode", c.wqe_inline_mode,
		 h->wqe_inline_mode, "mlx5_hca_attr.wqe_inline_mode");
	if (c.wqe_inline_mode == INLINE_MODE_VPORT_CONTEXT)
		cap_case(cfg, "vport_inline_mode", c.vport_inline_mode,
			 h->vport_inline_mode,
			 "mlx5_hca_attr.vport_inline_mode, from "
			 "QUERY_NIC_VPORT_CONTEXT");
	else
		note("%s caps vport_inline_mode: not compared: upstream reads "
		     "the vport context only when wqe_inline_mode is 1, as "
		     "the device does", cfg);
	cap_case(cfg, "sq_ts_format", c.sq_ts_format, h->sq_ts_format,
		 "mlx5_hca_attr.sq_ts_format");
	note("%s caps line_rate_mbps, num_comp_vectors: not compared: no "
	     "QUERY_HCA_CAP field (port speed and EQs come from elsewhere)",
	     cfg);

	/* The fixed capabilities doc/guides/device_model.rst lists. */
	cap_case(cfg, "qos (doc: 1)", 1, h->qos_sup, "mlx5_hca_attr.qos.sup");
	cap_case(cfg, "eth_net_offloads (doc: 1)", 1, h->eth_net_offloads,
		 "mlx5_hca_attr.eth_net_offloads");
	cap_case(cfg, "eth_virt (doc: 1)", 1, h->eth_virt,
		 "mlx5_hca_attr.eth_virt");
	cap_case(cfg, "roce (doc: 0)", 0, h->roce, "mlx5_hca_attr.roce");
	cap_case(cfg, "port_type (doc: Ethernet, 1)", 1, h->port_type,
		 "cmd_hca_cap.port_type, upstream layout");
	cap_case(cfg, "cqe_version (doc: 1)", 1, h->cqe_version,
		 "cmd_hca_cap.cqe_version, upstream layout");
	cap_case(cfg, "max_wqe_sz_sq (doc: 1024)", 1024, h->max_wqe_sz_sq,
		 "mlx5_hca_attr.max_wqe_sz_sq");
	cap_case(cfg, "log_max_tis_per_sq (doc: 0)", 0, h->log_max_tis_per_sq,
		 "cmd_hca_cap.log_max_tis_per_sq, upstream layout");
	cap_case(cfg, "device_frequency_khz (doc: 1000000)", 1000000,
		 h->dev_freq_khz, "mlx5_hca_attr.dev_freq_khz");
	cap_case(cfg, "csum_cap (doc: 1)", 1, h->csum_cap,
		 "mlx5_hca_attr.csum_cap");
	cap_case(cfg, "vlan_cap (doc: 1)", 1, h->vlan_cap,
		 "mlx5_hca_attr.vlan_cap");
	cap_case(cfg, "wqe_vlan_insert (doc: 1)", 1, h->wqe_vlan_insert,
		 "mlx5_hca_attr.wqe_vlan_insert");
	cap_case(cfg, "lro_cap (doc: 0)", 0, h->lro_cap,
		 "mlx5_hca_attr.lro_cap");
	cap_case(cfg, "max_lso_cap (doc: 0)", 0, h->max_lso_cap,
		 "mlx5_hca_attr.max_lso_cap");
	cap_case(cfg, "swp (doc: 0)", 0, h->swp, "mlx5_hca_attr.swp");

	/* The PMD's capability queries beside upstream's. */
	conform_rec_clear();
	conform_case(ours_caps_read(d) == 0, "%s caps the PMD's "
		     "mlx5_tm_caps_read() returns 0", cfg);
	for (i = 0; i < conform_rec_count(); i++) {
		const struct conform_cmd *o = conform_rec_get(i);
		const struct conform_cmd *u = NULL;
		char step[64];

		for (j = 0; j < nb_up && u == NULL; j++)
			if (up_cmds[j].opcode == o->opcode &&
			    up_cmds[j].op_mod == o->op_mod)
				u = &up_cmds[j];
		snprintf(step, sizeof(step), "%s(op_mod 0x%x)",
			 o->opcode == 0x100 ? "QUERY_HCA_CAP" :
			 o->opcode == 0x754 ? "QUERY_NIC_VPORT_CONTEXT" :
			 "command", o->op_mod);
		diff_cmd(cfg, step, o, u);
	}
}

/* ---- (b) objects built by upstream, read back from the model ---- */

#define RATE1_KBPS 100000u
#define RATE2_KBPS 250000u

static void
sq_info(struct conform_dev *d, uint32_t sqn, struct mlx5_emu_sq_info *si)
{
	memset(si, 0, sizeof(*si));
	if (mlx5_emu_sq_get(d->emu, sqn, si) < 0)
		si->state = 0xff;
}

static uint32_t
pp_sq_users(struct conform_dev *d, uint16_t index)
{
	struct mlx5_emu_pp_info e[64];
	unsigned int i, n;

	n = mlx5_emu_pp_list(d->emu, e, 64);
	for (i = 0; i < n && i < 64; i++)
		if (e[i].index == index)
			return e[i].sq_users;
	return 0;
}

#define OBJ_CASE(cfg, what, model, want) do { \
	unsigned long long m_ = (model), w_ = (want); \
	conform_case(m_ == w_, "%s objects %s: model %llu, attribute %llu", \
		     (cfg), (what), m_, w_); \
} while (0)

/* MLX5_SQC_STATE_* (PRM). */
enum { SQ_RST = 0, SQ_RDY = 1 };

static void
compare_objects(const char *cfg, const struct conform_config *conf,
		const struct up_hca *h)
{
	struct conform_dev d;
	struct conform_txq_attr a = { 0 };
	struct mlx5_emu_caps caps;
	struct mlx5_emu_sq_info si;
	struct up_tis_ctx tc = { 0 };
	struct up_cq_ctx cc = { 0 };
	struct up_sq_ctx sc = { 0 };
	struct mlx5_tm_pp *pp1 = NULL, *pp2 = NULL;
	struct up_cq *cq = NULL;
	struct up_sq *sq = NULL, *bad;
	void *td, *tis, *sq_obj = NULL;
	uint32_t tdn = 0, tisn = 0, cqn = 0, sqn = 0, bad_id = 0;
	char err[256];

	if (conform_dev_open(&d, conf->profile, conf->devargs, err,
			     sizeof(err)) < 0) {
		conform_case(false, "%s objects: device opens: %s", cfg, err);
		return;
	}
	mlx5_emu_get_caps(d.emu, &caps);
	td = up_create_td(&d, &tdn);
	conform_case(td != NULL, "%s objects mlx5_devx_cmd_create_td() "
		     "accepted: tdn %u", cfg, tdn);
	tis = up_create_tis(&d, tdn, 5, &tisn);
	conform_case(tis != NULL, "%s objects mlx5_devx_cmd_create_tis() "
		     "accepted: tisn %u", cfg, tisn);
	if (tis != NULL && up_query_tis(tis, &tc) == 0) {
		OBJ_CASE(cfg, "TIS transport_domain", tc.transport_domain, tdn);
		OBJ_CASE(cfg, "TIS prio", tc.prio, 5);
	}
	cq = up_cq_create_full(&d, 6, &cqn);
	conform_case(cq != NULL, "%s objects mlx5_devx_cq_create() accepted: "
		     "cqn %u", cfg, cqn);
	if (cq != NULL && ours_query_cq(up_glue_obj(up_cq_obj(cq)), cqn, &cc) == 0) {
		OBJ_CASE(cfg, "CQ log_cq_size", cc.log_cq_size, 6);
		OBJ_CASE(cfg, "CQ uar_page", cc.uar_page, d.uar->page_id);
		OBJ_CASE(cfg, "CQ c_eqn", cc.c_eqn, d.eqn);
		OBJ_CASE(cfg, "CQ cqe_sz (64 bytes)", cc.cqe_sz, 0);
	}
	if (caps.packet_pacing) {
		pp1 = up_pp_alloc(&d, RATE1_KBPS);
		pp2 = up_pp_alloc(&d, RATE2_KBPS);
		conform_case(pp1 != NULL && pp2 != NULL, "%s objects pacing "
			     "entries from upstream-built contexts: %u, %u",
			     cfg, pp1 ? pp1->index : 0, pp2 ? pp2->index : 0);
	}
	a.pdn = d.pd->pdn;
	a.uar_page = d.uar->page_id;
	a.cqn = cqn;
	a.tisn = tisn;
	a.log_wq_sz = 8;
	a.pp_index = pp1 != NULL ? pp1->index : 0;
	a.min_inline = h->vport_inline_mode;
	a.ts_format = up_ts_format_conv(h->sq_ts_format);
	a.user_index = 7;
	/* A WQ larger than the device allows is refused, as firmware does. */
	a.log_wq_sz = caps.log_max_wq_sz + 1;
	bad = up_sq_create_full(&d, &a, &sq_obj, &bad_id);
	conform_case(bad == NULL, "%s objects mlx5_devx_sq_create() with "
		     "log_wq_sz %u > log_max_wq_sz %u refused", cfg,
		     a.log_wq_sz, caps.log_max_wq_sz);
	up_sq_destroy_full(bad);
	a.log_wq_sz = 8;
	sq = up_sq_create_full(&d, &a, &sq_obj, &sqn);
	conform_case(sq != NULL, "%s objects mlx5_devx_sq_create() accepted: "
		     "sqn %u", cfg, sqn);
	if (sq == NULL)
		goto out;
	sq_info(&d, sqn, &si);
	OBJ_CASE(cfg, "SQ state after create (RST)", si.state, SQ_RST);
	OBJ_CASE(cfg, "SQ cqn", si.cqn, cqn);
	OBJ_CASE(cfg, "SQ tisn", si.tisn, tisn);
	OBJ_CASE(cfg, "SQ pacing index", si.pp_index, a.pp_index);
	OBJ_CASE(cfg, "SQ log_wq_sz", si.log_wq_sz, a.log_wq_sz);
	if (ours_query_sq(up_glue_obj(sq_obj), sqn, &sc) == 0) {
		OBJ_CASE(cfg, "SQ ts_format", sc.ts_format, a.ts_format);
		OBJ_CASE(cfg, "SQ min_wqe_inline_mode", sc.min_wqe_inline_mode,
			 a.min_inline);
		OBJ_CASE(cfg, "SQ user_index", sc.user_index, a.user_index);
		OBJ_CASE(cfg, "SQ flush_in_error_en", sc.flush_in_error_en, 1);
		OBJ_CASE(cfg, "SQ pd", sc.pd, a.pdn);
		OBJ_CASE(cfg, "SQ uar_page", sc.uar_page, a.uar_page);
		OBJ_CASE(cfg, "SQ log_wq_stride (64-byte WQEBB)",
			 sc.log_wq_stride, 6);
		OBJ_CASE(cfg, "SQ doorbell record after the ring",
			 sc.dbr_addr, 64u << a.log_wq_sz);
	} else {
		conform_case(false, "%s objects QUERY_SQ answered", cfg);
	}
	conform_case(up_modify_sq(sq_obj, SQ_RST, SQ_RDY) == 0,
		     "%s objects mlx5_devx_cmd_modify_sq() RST->RDY accepted",
		     cfg);
	sq_info(&d, sqn, &si);
	OBJ_CASE(cfg, "SQ state after MODIFY_SQ RST->RDY", si.state, SQ_RDY);
	if (pp2 != NULL) {
		conform_case(up_modify_sq_rate(sq_obj, pp2->index) == 0,
			     "%s objects MODIFY_SQ RDY->RDY rate-limit index "
			     "(kernel recipe, upstream layout) accepted", cfg);
		sq_info(&d, sqn, &si);
		OBJ_CASE(cfg, "SQ pacing index after MODIFY_SQ", si.pp_index,
			 pp2->index);
		OBJ_CASE(cfg, "SQ state after the index change", si.state,
			 SQ_RDY);
		OBJ_CASE(cfg, "SQs on the new entry", pp_sq_users(&d,
			 pp2->index), 1);
		OBJ_CASE(cfg, "SQs on the old entry", pp_sq_users(&d,
			 pp1->index), 0);
	}
	/* net/mlx5's recovery: RDY->RST, then RST->RDY. */
	conform_case(up_modify_sq(sq_obj, SQ_RDY, SQ_RST) == 0,
		     "%s objects mlx5_devx_cmd_modify_sq() RDY->RST accepted",
		     cfg);
	sq_info(&d, sqn, &si);
	OBJ_CASE(cfg, "SQ state after MODIFY_SQ RDY->RST", si.state, SQ_RST);
	conform_case(up_modify_sq(sq_obj, SQ_RST, SQ_RDY) == 0,
		     "%s objects mlx5_devx_cmd_modify_sq() RST->RDY again "
		     "accepted", cfg);
	sq_info(&d, sqn, &si);
	OBJ_CASE(cfg, "SQ state after recovery", si.state, SQ_RDY);
	if (pp2 != NULL)
		OBJ_CASE(cfg, "SQ pacing index kept across RST", si.pp_index,
			 pp2->index);
out:
	up_sq_destroy_full(sq);
	OBJ_CASE(cfg, "SQs left after mlx5_devx_sq_destroy()",
		 mlx5_emu_sq_list(d.emu, NULL, 0), 0);
	up_cq_destroy_full(cq);
	if (tis != NULL)
		conform_case(up_destroy(tis) == 0, "%s objects TIS destroyed",
			     cfg);
	if (td != NULL)
		conform_case(up_destroy(td) == 0, "%s objects TD destroyed",
			     cfg);
	if (pp1 != NULL)
		conform_glue()->pp_free(pp1);
	if (pp2 != NULL)
		conform_glue()->pp_free(pp2);
	conform_dev_close(&d);
}

/* ---- (c) the PMD's command buffers beside upstream's ---- */

/*
 * Every field where the PMD's buffer may differ from upstream's, with
 * the reason (doc/guides/device_model.rst lists the same). A listed
 * field that is found equal only gets a note.
 */
/* Which side sets a listed field: the difference must have this shape. */
enum known_shape {
	ONLY_PMD_SETS,      /**< PMD non-zero, upstream 0. */
	ONLY_UPSTREAM_SETS, /**< PMD 0, upstream non-zero. */
};

struct known_diff {
	const char *cmd;
	const char *field;
	enum known_shape shape;
	const char *reason;
};

static const struct known_diff known_diffs[] = {
	{ "CREATE_TIS", "tisc.pd", ONLY_PMD_SETS,
	  "the PMD sets the TIS's PD; upstream DPDK leaves 0 (its layout "
	  "reserves the bits); the kernel's mlx5_ifc.h names the field and "
	  "mlx5e sets it for TLS; firmware reads it only with tls_en" },
};

static const struct known_diff *
known_diff(const char *cmd, const char *field)
{
	size_t i;

	for (i = 0; i < sizeof(known_diffs) / sizeof(known_diffs[0]); i++)
		if (strcmp(known_diffs[i].cmd, cmd) == 0 &&
		    strcmp(known_diffs[i].field, field) == 0)
			return &known_diffs[i];
	return NULL;
}

/* Bits [off, off + sz) of a PRM buffer (bit 0: MSB of byte 0), sz <= 64. */
static uint64_t
prm_bits(const uint8_t *buf, size_t len, uint32_t off, uint32_t sz)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = off; i < off + sz; i++) {
		uint8_t bit = 0;

		if (i / 8 < len)
			bit = (buf[i / 8] >> (7 - i % 8)) & 1;
		v = v << 1 | bit;
	}
	return v;
}

static void
field_case(const char *cfg, const char *cmd, const char *field,
	   const char *layout, uint64_t ours, uint64_t up)
{
	const struct known_diff *k = known_diff(cmd, field);

	if (ours == up) {
		conform_case(true, "%s fields %s %s: PMD 0x%llx = upstream "
			     "(%s)", cfg, cmd, field, (unsigned long long)ours,
			     layout);
		if (k != NULL)
			note("%s fields %s %s: listed difference not seen here",
			     cfg, cmd, field);
		return;
	}
	if (k != NULL)
		conform_case(k->shape == ONLY_PMD_SETS ? up == 0 : ours == 0,
			     "%s fields %s %s: PMD 0x%llx, upstream 0x%llx: "
			     "listed difference (%s): %s", cfg, cmd, field,
			     (unsigned long long)ours, (unsigned long long)up,
			     k->shape == ONLY_PMD_SETS ?
			     "only the PMD sets it" : "only upstream sets it",
			     k->reason);
	else
		conform_case(false, "%s fields %s %s: PMD 0x%llx, upstream "
			     "0x%llx (%s)", cfg, cmd, field,
			     (unsigned long long)ours, (unsigned long long)up,
			     layout);
}

/*
 * Compare two recorded inputs of one command: every field of upstream's
 * layout, the fields only our layout names, then any other bit.
 */
static void
diff_cmd(const char *cfg, const char *step, const struct conform_cmd *ours,
	 const struct conform_cmd *up)
{
	const struct up_cmd_layout *l;
	const struct up_field *extra;
	static bool covered[CONFORM_CMD_MAX * 8];
	size_t i, n_extra, len;
	unsigned int runs;
	uint32_t b;

	if (ours == NULL || up == NULL) {
		conform_case(false, "%s fields %s: both builders sent it (PMD "
			     "%s, upstream %s)", cfg, step,
			     ours ? "yes" : "no", up ? "yes" : "no");
		return;
	}
	l = up_cmd_layout(up->opcode);
	if (l == NULL || ours->opcode != up->opcode) {
		conform_case(false, "%s fields %s: same opcode with a known "
			     "layout: PMD 0x%x, upstream 0x%x", cfg, step,
			     ours->opcode, up->opcode);
		return;
	}
	conform_case(ours->inlen >= l->in_sz && up->inlen >= l->in_sz,
		     "%s fields %s input length: PMD %zu, upstream %zu bytes "
		     "(layout %zu)", cfg, step, ours->inlen, up->inlen,
		     l->in_sz);
	len = l->in_sz < CONFORM_CMD_MAX ? l->in_sz : CONFORM_CMD_MAX;
	memset(covered, 0, sizeof(covered));
	for (i = 0; i < l->nb_fields; i++) {
		const struct up_field *f = &l->fields[i];
		uint64_t vo, vu;

		for (b = f->off; b < f->off + f->sz && b < len * 8; b++)
			covered[b] = true;
		if (f->sz > 64) {
			/* Wider than a value: compare the bytes. */
			bool same = memcmp(ours->in + f->off / 8,
					   up->in + f->off / 8,
					   f->sz / 8) == 0;

			conform_case(same, "%s fields %s %s: %s", cfg, step,
				     f->name, same ? "equal" : "differ");
			continue;
		}
		vo = prm_bits(ours->in, len, f->off, f->sz);
		vu = prm_bits(up->in, len, f->off, f->sz);
		field_case(cfg, step, f->name, "upstream's mlx5_prm.h", vo, vu);
	}
	extra = ours_extra_fields(up->opcode, &n_extra);
	for (i = 0; i < n_extra; i++) {
		const struct up_field *f = &extra[i];

		for (b = f->off; b < f->off + f->sz && b < len * 8; b++)
			covered[b] = true;
		field_case(cfg, step, f->name,
			   "reserved in upstream's layout, named in ours",
			   prm_bits(ours->in, len, f->off, f->sz),
			   prm_bits(up->in, len, f->off, f->sz));
	}
	/* Bits neither layout names must be equal (both 0, normally). */
	runs = 0;
	for (b = 0; b < len * 8; ) {
		uint32_t e;

		if (covered[b] || prm_bits(ours->in, len, b, 1) ==
		    prm_bits(up->in, len, b, 1)) {
			b++;
			continue;
		}
		for (e = b; e < len * 8 && !covered[e] &&
		     prm_bits(ours->in, len, e, 1) !=
		     prm_bits(up->in, len, e, 1); e++)
			;
		note("%s fields %s: reserved bits 0x%x-0x%x differ", cfg, step,
		     b, e - 1);
		runs++;
		b = e;
	}
	conform_case(runs == 0, "%s fields %s: no reserved bit differs (%zu "
		     "bytes; %u runs differ)", cfg, step, len, runs);
}

/* Step @p step of one side: its recorded command, copied. */
struct side {
	struct conform_dev d;
	struct mlx5_tm_umem *umem;
	void *buf;
	struct mlx5_tm_pp *pp1, *pp2;
	void *td, *tis, *cq, *sq;
	uint32_t tdn, tisn, cqn, sqn;
	struct conform_cmd cmd[6];
};

enum { STEP_TD, STEP_TIS, STEP_CQ, STEP_SQ, STEP_RDY, STEP_RATE, STEPS };

static const char *const step_names[STEPS] = {
	"ALLOC_TRANSPORT_DOMAIN", "CREATE_TIS", "CREATE_CQ", "CREATE_SQ",
	"MODIFY_SQ(RST->RDY)", "MODIFY_SQ(RDY->RDY,index)",
};

static void
keep(struct side *s, int step, uint16_t opcode)
{
	const struct conform_cmd *c = conform_rec_last(opcode);

	if (c != NULL)
		s->cmd[step] = *c;
	else
		s->cmd[step].opcode = 0;
}

/* MLX5_CMD_OP_* (PRM). */
enum {
	OP_CREATE_CQ = 0x400, OP_CREATE_SQ = 0x904, OP_MODIFY_SQ = 0x905,
	OP_CREATE_TIS = 0x912, OP_ALLOC_TD = 0x816,
};

#define LOG_CQ 6
#define LOG_WQ 8

static int
side_open(struct side *s, const struct conform_config *conf,
	  struct conform_txq_attr *a)
{
	const struct mlx5_tm_glue *g = conform_glue();
	size_t wq = 64u << LOG_WQ, cq = 64u << LOG_CQ;
	struct mlx5_emu_caps caps;
	char err[256];

	memset(s, 0, sizeof(*s));
	if (conform_dev_open(&s->d, conf->profile, conf->devargs, err,
			     sizeof(err)) < 0)
		return -1;
	mlx5_emu_get_caps(s->d.emu, &caps);
	if (posix_memalign(&s->buf, 4096, wq + cq + 128) != 0)
		return -1;
	memset(s->buf, 0, wq + cq + 128);
	s->umem = g->devx_umem_reg(s->d.gdev, s->buf, wq + cq + 128,
				   MLX5_TM_ACCESS_LOCAL_WRITE);
	if (s->umem == NULL)
		return -1;
	if (caps.packet_pacing) {
		s->pp1 = up_pp_alloc(&s->d, RATE1_KBPS);
		s->pp2 = up_pp_alloc(&s->d, RATE2_KBPS);
	}
	/* The PMD's ring layout (mlx5_tm_txq.c): WQEs, CQEs, records. */
	a->pdn = s->d.pd->pdn;
	a->uar_page = s->d.uar->page_id;
	a->eqn = s->d.eqn;
	a->umem_id = s->umem->umem_id;
	a->sq_ring_off = 0;
	a->cq_ring_off = wq;
	a->sq_dbr_off = wq + cq;
	a->cq_dbr_off = wq + cq + 64;
	a->log_cq_size = LOG_CQ;
	a->log_wq_sz = LOG_WQ;
	a->pp_index = s->pp1 != NULL ? s->pp1->index : 0;
	a->user_index = 3;
	return 0;
}

static void
side_close(struct side *s, bool upstream)
{
	const struct mlx5_tm_glue *g = conform_glue();

	if (upstream) {
		if (s->sq != NULL)
			up_destroy(s->sq);
		if (s->cq != NULL)
			up_destroy(s->cq);
		if (s->tis != NULL)
			up_destroy(s->tis);
		if (s->td != NULL)
			up_destroy(s->td);
	} else {
		if (s->sq != NULL)
			g->devx_obj_destroy(s->sq);
		if (s->cq != NULL)
			g->devx_obj_destroy(s->cq);
		if (s->tis != NULL)
			g->devx_obj_destroy(s->tis);
		if (s->td != NULL)
			g->devx_obj_destroy(s->td);
	}
	if (s->pp1 != NULL)
		g->pp_free(s->pp1);
	if (s->pp2 != NULL)
		g->pp_free(s->pp2);
	if (s->umem != NULL)
		g->devx_umem_dereg(s->umem);
	if (s->d.gdev != NULL)
		conform_dev_close(&s->d);
	free(s->buf);
}

static void
compare_fields(const char *cfg, const struct conform_config *conf,
	       const struct up_hca *h)
{
	struct side o, u;
	struct conform_txq_attr ao = { 0 }, au = { 0 };
	int step;

	if (side_open(&o, conf, &ao) < 0 || side_open(&u, conf, &au) < 0) {
		conform_case(false, "%s fields: devices, umem and pacing "
			     "entries set up", cfg);
		goto out;
	}
	ao.min_inline = au.min_inline = h->vport_inline_mode;
	au.ts_format = up_ts_format_conv(h->sq_ts_format);
	/* As mlx5_tm_txq.c sets it from the caps it read. */
	ao.ts_format = ours_sq_ts_format(h->sq_ts_format);

	/* The PMD's builders, as mlx5_tm_txq.c calls them. */
	conform_rec_clear();
	o.td = ours_create_td(&o.d, &o.tdn);
	keep(&o, STEP_TD, OP_ALLOC_TD);
	o.tis = ours_create_tis(&o.d, o.tdn, &o.tisn);
	keep(&o, STEP_TIS, OP_CREATE_TIS);
	o.cq = ours_create_cq(&o.d, &ao, &o.cqn);
	keep(&o, STEP_CQ, OP_CREATE_CQ);
	ao.cqn = o.cqn;
	ao.tisn = o.tisn;
	o.sq = ours_create_sq(&o.d, &ao, &o.sqn);
	keep(&o, STEP_SQ, OP_CREATE_SQ);
	if (o.sq != NULL) {
		ours_modify_sq(&o.d, o.sq, o.sqn, SQ_RST, SQ_RDY, false, 0);
		keep(&o, STEP_RDY, OP_MODIFY_SQ);
		if (o.pp2 != NULL) {
			ours_modify_sq(&o.d, o.sq, o.sqn, SQ_RDY, SQ_RDY, true,
				       o.pp2->index);
			keep(&o, STEP_RATE, OP_MODIFY_SQ);
		}
		conform_case(ours_sq_state(&o.d, o.sq, o.sqn) == SQ_RDY,
			     "%s fields the PMD's QUERY_SQ reads RDY", cfg);
	}

	/* Upstream's builders, the same attributes. */
	conform_rec_clear();
	u.td = up_create_td(&u.d, &u.tdn);
	keep(&u, STEP_TD, OP_ALLOC_TD);
	u.tis = up_create_tis(&u.d, u.tdn, 0, &u.tisn);
	keep(&u, STEP_TIS, OP_CREATE_TIS);
	u.cq = up_create_cq(&u.d, &au, &u.cqn);
	keep(&u, STEP_CQ, OP_CREATE_CQ);
	au.cqn = u.cqn;
	au.tisn = u.tisn;
	u.sq = up_create_sq(&u.d, &au, &u.sqn);
	keep(&u, STEP_SQ, OP_CREATE_SQ);
	if (u.sq != NULL) {
		up_modify_sq(u.sq, SQ_RST, SQ_RDY);
		keep(&u, STEP_RDY, OP_MODIFY_SQ);
		if (u.pp2 != NULL) {
			up_modify_sq_rate(u.sq, u.pp2->index);
			keep(&u, STEP_RATE, OP_MODIFY_SQ);
		}
	}
	for (step = 0; step < STEPS; step++) {
		if (step == STEP_RATE && o.pp2 == NULL)
			continue;
		conform_begin("%s fields %s: the PMD's command as upstream's",
			      cfg, step_names[step]);
		conform_case(o.cmd[step].opcode != 0 &&
			     o.cmd[step].ret == 0 && u.cmd[step].opcode != 0 &&
			     u.cmd[step].ret == 0,
			     "%s fields %s: the model accepted both (PMD %d, "
			     "upstream %d)", cfg, step_names[step],
			     o.cmd[step].ret, u.cmd[step].ret);
		diff_cmd(cfg, step_names[step],
			 o.cmd[step].opcode ? &o.cmd[step] : NULL,
			 u.cmd[step].opcode ? &u.cmd[step] : NULL);
		conform_end();
	}
out:
	side_close(&o, false);
	side_close(&u, true);
}

/* ---- (d) scheduling elements against rdma-core's layouts ---- */

/* Opcodes and values (the PRM's), this file seeing no layout. */
#define OP_CREATE_GENERAL_OBJECT 0xa00
#define OP_MODIFY_GENERAL_OBJECT 0xa01
#define OP_QUERY_GENERAL_OBJECT 0xa02
#define OP_DESTROY_GENERAL_OBJECT 0xa03
#define OBJ_TYPE_SCHEDULING_ELEMENT 0x26
#define ELEM_TSAR 0
#define ELEM_QUEUE_GROUP 4
#define HIERARCHY_NIC 3
#define SEL_BW_SHARE 0x1
#define SEL_MAX_AVG_BW 0x2

/* The cases of compare_sched(), counted skipped without rdma-core. */
#define SCHED_CASES 6

/* The last DESTROY_GENERAL_OBJECT the model ran (the glue builds it). */
static uint8_t destroy_in[64];
static size_t destroy_len;

static void
destroy_hook(void *arg, const void *in, size_t inlen, const void *out,
	     size_t outlen, uint8_t status)
{
	const uint8_t *b = in;

	(void)arg;
	(void)out;
	(void)outlen;
	(void)status;
	if (inlen >= 2 && (b[0] << 8 | b[1]) == OP_DESTROY_GENERAL_OBJECT &&
	    inlen <= sizeof(destroy_in)) {
		memcpy(destroy_in, in, inlen);
		destroy_len = inlen;
	}
}

/*
 * Compare the PMD's last recorded @p opcode command with libmlx5's for
 * @p a (element @p id), field by field in rdma-core's layout.
 */
static void
sched_cmd_case(const char *cfg, const char *what, uint16_t opcode,
	       enum rdma_sched_cmd cmd, uint32_t id,
	       const struct rdma_sched_attr *a)
{
	const struct conform_cmd *o = conform_rec_last(opcode);
	uint8_t want[512];
	size_t len = rdma_sched_build(cmd, id, a, want);
	char names[256];
	unsigned int n;

	if (o == NULL) {
		conform_case(false, "%s sched %s: no command 0x%x recorded",
			     cfg, what, opcode);
		return;
	}
	n = rdma_sched_diff(cmd, o->in, want, names, sizeof(names));
	conform_case(o->inlen == len && n == 0, "%s sched %s: the PMD's "
		     "0x%x as libmlx5's (%zu bytes, rdma-core's layout %zu)%s%s",
		     cfg, what, opcode, o->inlen, len, n ? ": differ in " : "",
		     names);
}

/* Element @p id in the model holds these values. */
static bool
model_holds(struct conform_dev *d, uint32_t id, uint8_t type,
	    uint32_t parent, uint32_t bw, uint32_t max)
{
	struct mlx5_emu_sched_info mi;

	return mlx5_emu_sched_get(d->emu, id, &mi) == 0 &&
	       mi.element_type == type && mi.parent_id == parent &&
	       mi.bw_share == bw && mi.max_average_bw == max;
}

/* The captured destroy of element @p id is rdma-core's. */
static void
destroy_case(const char *cfg, const char *what, uint32_t id)
{
	uint8_t want[64];
	size_t len = rdma_sched_build(RDMA_SCHED_DESTROY, id, NULL, want);
	char names[128];
	unsigned int n = destroy_len == len ?
		rdma_sched_diff(RDMA_SCHED_DESTROY, destroy_in, want, names,
				sizeof(names)) : 1;

	conform_case(destroy_len == len && n == 0, "%s sched destroy %s: the "
		     "model's DESTROY_GENERAL_OBJECT (as the kernel builds it) "
		     "in rdma-core's layout (%zu bytes)%s%s", cfg, what,
		     destroy_len, n ? ": differ in " : "", n ? names : "");
	destroy_len = 0;
}

/*
 * Scheduling elements on @p profile: the PMD's create, modify and query
 * buffers against libmlx5's in rdma-core's layouts, the destroy the
 * model runs, libmlx5's own buffers decoded by the model, a query answer
 * read with rdma-core's layouts, and the comparison naming a mutated
 * field.
 */
static void
compare_sched(const char *profile)
{
	const struct mlx5_tm_glue *g = conform_glue();
	struct rdma_sched_attr a, q;
	struct conform_dev d;
	void *port, *tsar, *grp, *lib;
	uint32_t port_id = 0, tsar_id = 0, grp_id = 0, lib_id, parent = 0;
	uint32_t bw = 0, max = 0;
	uint8_t in[512], out[512], type = 0, hier = 0, mutated[512];
	const struct conform_cmd *o;
	char err[256], names[256];
	const char *why;
	int ret;

	printf("== %s scheduling elements\n", profile);
	if (!rdma_ifc_present(&why)) {
		printf("SKIP %s scheduling elements against rdma-core's "
		       "layouts (%u cases): %s\n", profile, SCHED_CASES, why);
		c_skipped += SCHED_CASES;
		return;
	}
	if (conform_dev_open(&d, profile, NULL, err, sizeof(err)) < 0) {
		conform_case(false, "%s sched: device opens: %s", profile,
			     err);
		return;
	}
	mlx5_emu_set_cmd_hook(d.emu, destroy_hook, NULL);
	destroy_len = 0;

	conform_begin("%s sched create: the PMD's CREATE_GENERAL_OBJECT as "
		      "libmlx5's mlx5dv_sched_node/leaf_create()", profile);
	conform_rec_clear();
	port = ours_sched_create(&d, ELEM_TSAR, 0, 0, 0, &port_id);
	a = (struct rdma_sched_attr){ .element_type = ELEM_TSAR };
	sched_cmd_case(profile, "create TSAR under the device root (no "
		       "flags)", OP_CREATE_GENERAL_OBJECT, RDMA_SCHED_CREATE,
		       0, &a);
	tsar = ours_sched_create(&d, ELEM_TSAR, port_id, 3, 400, &tsar_id);
	a = (struct rdma_sched_attr){ .element_type = ELEM_TSAR,
		.parent_id = port_id, .flags = SEL_BW_SHARE | SEL_MAX_AVG_BW,
		.bw_share = 3, .max_avg_bw = 400 };
	sched_cmd_case(profile, "create TSAR (bw_share 3, 400 Mbit/s)",
		       OP_CREATE_GENERAL_OBJECT, RDMA_SCHED_CREATE, 0, &a);
	grp = ours_sched_create(&d, ELEM_QUEUE_GROUP, tsar_id, 5, 0, &grp_id);
	a = (struct rdma_sched_attr){ .element_type = ELEM_QUEUE_GROUP,
		.parent_id = tsar_id, .flags = SEL_BW_SHARE | SEL_MAX_AVG_BW,
		.bw_share = 5 };
	sched_cmd_case(profile, "create queue group (bw_share 5)",
		       OP_CREATE_GENERAL_OBJECT, RDMA_SCHED_CREATE, 0, &a);
	o = conform_rec_last(OP_CREATE_GENERAL_OBJECT);
	conform_case(port != NULL && tsar != NULL && grp != NULL &&
		     o != NULL && rdma_out_obj_id(o->out) == grp_id &&
		     model_holds(&d, port_id, ELEM_TSAR, 0, 0, 0) &&
		     model_holds(&d, tsar_id, ELEM_TSAR, port_id, 3, 400) &&
		     model_holds(&d, grp_id, ELEM_QUEUE_GROUP, tsar_id, 5, 0),
		     "%s sched create: the model decoded them (ids %u %u %u, "
		     "the id read from rdma-core's out header obj_id)",
		     profile, port_id, tsar_id, grp_id);
	conform_end();

	conform_begin("%s sched modify: the PMD's MODIFY_GENERAL_OBJECT as "
		      "libmlx5's mlx5dv_sched_node/leaf_modify()", profile);
	conform_rec_clear();
	ret = ours_sched_modify(&d, grp, grp_id, ELEM_QUEUE_GROUP,
				SEL_BW_SHARE, 7, 0);
	a = (struct rdma_sched_attr){ .element_type = ELEM_QUEUE_GROUP,
		.flags = SEL_BW_SHARE, .bw_share = 7 };
	sched_cmd_case(profile, "modify bw_share alone",
		       OP_MODIFY_GENERAL_OBJECT, RDMA_SCHED_MODIFY, grp_id, &a);
	conform_case(ret == 0 &&
		     model_holds(&d, grp_id, ELEM_QUEUE_GROUP, tsar_id, 7, 0),
		     "%s sched modify bw_share: the model holds 7", profile);
	conform_rec_clear();
	ret = ours_sched_modify(&d, tsar, tsar_id, ELEM_TSAR,
				SEL_BW_SHARE | SEL_MAX_AVG_BW, 2, 250);
	a = (struct rdma_sched_attr){ .element_type = ELEM_TSAR,
		.flags = SEL_BW_SHARE | SEL_MAX_AVG_BW, .bw_share = 2,
		.max_avg_bw = 250 };
	sched_cmd_case(profile, "modify both", OP_MODIFY_GENERAL_OBJECT,
		       RDMA_SCHED_MODIFY, tsar_id, &a);
	conform_case(ret == 0 &&
		     model_holds(&d, tsar_id, ELEM_TSAR, port_id, 2, 250),
		     "%s sched modify both: the model holds 2 and 250",
		     profile);
	conform_end();

	conform_begin("%s sched query: the PMD's QUERY_GENERAL_OBJECT and the "
		      "model's answer in rdma-core's layouts", profile);
	conform_rec_clear();
	ret = ours_sched_query(&d, grp, grp_id, &type, &parent, &bw, &max);
	sched_cmd_case(profile, "query", OP_QUERY_GENERAL_OBJECT,
		       RDMA_SCHED_QUERY, grp_id, NULL);
	o = conform_rec_last(OP_QUERY_GENERAL_OBJECT);
	if (o != NULL)
		rdma_query_read(o->out, &q, &hier);
	conform_case(ret == 0 && o != NULL &&
		     o->outlen == rdma_sched_query_out_size() &&
		     rdma_out_obj_id(o->out) == grp_id &&
		     hier == HIERARCHY_NIC &&
		     q.element_type == ELEM_QUEUE_GROUP &&
		     q.parent_id == tsar_id && q.bw_share == 7 &&
		     q.max_avg_bw == 0 && type == q.element_type &&
		     parent == q.parent_id && bw == q.bw_share &&
		     max == q.max_avg_bw,
		     "%s sched query: answer (%zu bytes) read with rdma-core's "
		     "out header and sched_elem: group under %u, bw_share %u, "
		     "max_average_bw %u, hierarchy %u; the PMD read the same",
		     profile, o != NULL ? o->outlen : 0, q.parent_id,
		     q.bw_share, q.max_avg_bw, hier);
	conform_end();

	conform_begin("%s sched: libmlx5's own commands decoded by the model",
		      profile);
	a = (struct rdma_sched_attr){ .element_type = ELEM_QUEUE_GROUP,
		.parent_id = tsar_id, .flags = SEL_BW_SHARE | SEL_MAX_AVG_BW,
		.bw_share = 9, .max_avg_bw = 100 };
	memset(out, 0, sizeof(out));
	lib = g->devx_obj_create(d.gdev, in, rdma_sched_build(
				 RDMA_SCHED_CREATE, 0, &a, in), out,
				 16);
	lib_id = rdma_out_obj_id(out);
	conform_case(lib != NULL && model_holds(&d, lib_id, ELEM_QUEUE_GROUP,
						tsar_id, 9, 100),
		     "%s sched libmlx5's create: group %u under %u, 9, 100 "
		     "Mbit/s", profile, lib_id, tsar_id);
	a = (struct rdma_sched_attr){ .element_type = ELEM_QUEUE_GROUP,
		.flags = SEL_MAX_AVG_BW, .max_avg_bw = 50 };
	ret = lib == NULL ? -1 : g->devx_obj_modify(lib, in,
		rdma_sched_build(RDMA_SCHED_MODIFY, lib_id, &a, in), out, 16);
	conform_case(ret == 0 && model_holds(&d, lib_id, ELEM_QUEUE_GROUP,
					     tsar_id, 9, 50),
		     "%s sched libmlx5's modify (max_avg_bw alone): 9, 50 "
		     "Mbit/s", profile);
	ret = lib == NULL ? -1 : g->devx_obj_destroy(lib);
	conform_case(ret == 0 && mlx5_emu_sched_get(d.emu, lib_id,
		     &(struct mlx5_emu_sched_info){ 0 }) != 0,
		     "%s sched destroy of libmlx5's group: gone", profile);
	destroy_case(profile, "of libmlx5's group", lib_id);
	conform_end();

	conform_begin("%s sched: a mutated field is named", profile);
	conform_rec_clear();
	o = NULL;
	{
		void *g2;
		uint32_t g2_id = 0;

		g2 = ours_sched_create(&d, ELEM_QUEUE_GROUP, tsar_id, 4, 0,
				       &g2_id);
		o = conform_rec_last(OP_CREATE_GENERAL_OBJECT);
		a = (struct rdma_sched_attr){ .element_type = ELEM_QUEUE_GROUP,
			.parent_id = tsar_id,
			.flags = SEL_BW_SHARE | SEL_MAX_AVG_BW, .bw_share = 4 };
		rdma_sched_build(RDMA_SCHED_CREATE, 0, &a, in);
		if (o != NULL) {
			memcpy(mutated, o->in, o->inlen);
			rdma_sched_mutate(RDMA_SCHED_CREATE, mutated,
					  "sched_context.parent_element_id");
		}
		conform_case(o != NULL && rdma_sched_diff(RDMA_SCHED_CREATE,
			     mutated, in, names, sizeof(names)) == 1 &&
			     strcmp(names, "sched_context.parent_element_id") ==
			     0, "%s sched: our create with parent_element_id "
			     "flipped differs in exactly that field: %s",
			     profile, names);
		if (o != NULL) {
			memcpy(mutated, o->in, o->inlen);
			mutated[o->inlen - 1] ^= 1; /* reserved_at_300 */
		}
		conform_case(o != NULL && rdma_sched_diff(RDMA_SCHED_CREATE,
			     mutated, in, names, sizeof(names)) == 1 &&
			     strcmp(names, "other bits") == 0,
			     "%s sched: a reserved bit set is seen: %s",
			     profile, names);
		if (g2 != NULL) {
			ours_sched_destroy(&d, g2, g2_id);
			destroy_len = 0;
		}
	}
	conform_end();

	conform_begin("%s sched destroy: the PMD's elements go as rdma-core "
		      "lays out DESTROY_GENERAL_OBJECT", profile);
	conform_case(ours_sched_destroy(&d, grp, grp_id) == 0, "%s sched "
		     "destroy group", profile);
	destroy_case(profile, "group", grp_id);
	conform_case(ours_sched_destroy(&d, tsar, tsar_id) == 0, "%s sched "
		     "destroy TSAR", profile);
	destroy_case(profile, "TSAR", tsar_id);
	conform_case(ours_sched_destroy(&d, port, port_id) == 0, "%s sched "
		     "destroy port TSAR", profile);
	destroy_case(profile, "port TSAR", port_id);
	conform_case(mlx5_emu_sched_list(d.emu, NULL, 0) == 0, "%s sched: "
		     "none left", profile);
	conform_end();
	mlx5_emu_set_cmd_hook(d.emu, NULL, NULL);
	conform_dev_close(&d);
}

int
main(int argc, char **argv)
{
	size_t i;
	int ret;

	/* Line by line, so upstream's log lines (stderr) fall in place. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	mlx5_emu_set_log(quiet_log);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("FAIL EAL init: %s\n", rte_strerror(rte_errno));
		printf("0 passed, 1 failed\n");
		return 1;
	}
	up_glue_install();
	conform_case(strcmp(up_glue_version(), "emulated") == 0,
		     "upstream's mlx5_glue leads to the device model: '%s'",
		     up_glue_version());
	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		const struct conform_config *conf = &configs[i];
		struct conform_dev d;
		struct up_hca h;
		char cfg[160], err[256];

		config_name(conf, cfg, sizeof(cfg));
		printf("== %s\n", cfg);
		if (conform_dev_open(&d, conf->profile, conf->devargs, err,
				     sizeof(err)) < 0) {
			conform_case(false, "%s: device opens: %s", cfg, err);
			continue;
		}
		conform_begin("%s caps: the model's as upstream reads them",
			      cfg);
		compare_caps(cfg, &d, &h);
		conform_dev_close(&d);
		conform_end();
		if (!conf->objects)
			continue;
		conform_begin("%s objects: upstream's builders accepted and "
			      "answered", cfg);
		compare_objects(cfg, conf, &h);
		conform_end();
		compare_fields(cfg, conf, &h);
	}
	compare_sched("cx6dx");
	compare_sched("cx7");
	up_glue_restore();
	test_eal_cleanup();
	printf("%u passed, %u failed, %u skipped\n", c_passed, c_failed,
	       c_skipped);
	return c_failed == 0 ? 0 : 1;
}
