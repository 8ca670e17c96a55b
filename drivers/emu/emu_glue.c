/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The device glue of the emulated device (mlx5_tm_glue_emu): device
 * open/close and DEVX objects over the firmware command interpreter,
 * plus the device registry behind mlx5_emu_from_glue().
 *
 * DEVX conventions kept from rdma-core and the kernel: devx_general_cmd
 * refuses object commands (create/modify/query/destroy need an object:
 * -EINVAL); devx_obj_modify/query refuse a command for another object type
 * or number (-EINVAL); a firmware failure is -EREMOTEIO (errno EREMOTEIO)
 * with the status and syndrome in the output buffer.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"
#include "emu_sched.h"

/* Entry points in emu_objects.c and emu_rate_table.c. */
struct mlx5_tm_pd *emu_glue_pd_alloc(struct mlx5_tm_glue_dev *dev);
int emu_glue_pd_free(struct mlx5_tm_pd *pd);
struct mlx5_tm_umem *emu_glue_umem_reg(struct mlx5_tm_glue_dev *dev,
				       void *addr, size_t size,
				       uint32_t access);
int emu_glue_umem_dereg(struct mlx5_tm_umem *umem);
struct mlx5_tm_uar *emu_glue_uar_alloc(struct mlx5_tm_glue_dev *dev);
void emu_glue_uar_free(struct mlx5_tm_uar *uar);
int emu_glue_query_eqn(struct mlx5_tm_glue_dev *dev, uint32_t vector,
		       uint32_t *eqn);
struct mlx5_tm_mr *emu_glue_reg_mr(struct mlx5_tm_pd *pd, void *addr,
				   size_t length, uint32_t access);
int emu_glue_dereg_mr(struct mlx5_tm_mr *mr);
struct mlx5_tm_pp *emu_glue_pp_alloc(struct mlx5_tm_glue_dev *dev,
				     size_t pp_context_sz,
				     const void *pp_context, uint32_t flags);
void emu_glue_pp_free(struct mlx5_tm_pp *pp);
/* Device-model operations, in emu_glue_pmd.c. */
void *emu_glue_opts_new(const char *name, char *err, size_t errlen);
int emu_glue_opts_set(void *opts, const char *key, const char *value,
		      char *err, size_t errlen);
void emu_glue_opts_busy_cpus(void *opts, const cpu_set_t *cpus);
void emu_glue_opts_free(void *opts);
uint32_t emu_glue_line_rate_mbps(struct mlx5_tm_glue_dev *dev);
int emu_glue_sq_wire_get(struct mlx5_tm_glue_dev *dev, uint32_t sqn,
			 struct mlx5_tm_glue_sq_wire *wire);
int emu_glue_sq_wire_clear(struct mlx5_tm_glue_dev *dev, uint32_t sqn);
void emu_glue_lag_get(struct mlx5_tm_glue_dev *dev,
		      struct mlx5_tm_glue_lag *lag);
int emu_glue_pcap_error(struct mlx5_tm_glue_dev *dev);
bool emu_glue_clock_is_virtual(struct mlx5_tm_glue_dev *dev);
struct mlx5_emu *emu_glue_model(struct mlx5_tm_glue_dev *dev);

static pthread_mutex_t emu_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mlx5_emu *emu_registry;
static uint64_t emu_next_dev_id = 1;

struct mlx5_emu *
mlx5_emu_from_glue(struct mlx5_tm_glue_dev *dev)
{
	struct mlx5_emu *e;

	pthread_mutex_lock(&emu_registry_lock);
	for (e = emu_registry; e != NULL; e = e->next)
		if ((struct mlx5_tm_glue_dev *)e == dev)
			break;
	pthread_mutex_unlock(&emu_registry_lock);
	return e;
}

unsigned int
mlx5_emu_devices_open(void)
{
	const struct mlx5_emu *e;
	unsigned int n = 0;

	pthread_mutex_lock(&emu_registry_lock);
	for (e = emu_registry; e != NULL; e = e->next)
		n++;
	pthread_mutex_unlock(&emu_registry_lock);
	return n;
}

static void
emu_free(struct mlx5_emu *emu)
{
	emu_wire_close(emu);
	emu_engine_fini(emu);
	emu_pp_table_fini(emu);
	emu_sched_fini(emu);
	emu_idtab_fini(&emu->pds);
	emu_idtab_fini(&emu->tds);
	emu_idtab_fini(&emu->tises);
	emu_idtab_fini(&emu->cqs);
	emu_idtab_fini(&emu->sqs);
	emu_idtab_fini(&emu->umems);
	emu_idtab_fini(&emu->uars);
	emu_idtab_fini(&emu->mrs);
	pthread_mutex_destroy(&emu->lock);
	pthread_cond_destroy(&emu->gate_cond);
	pthread_mutex_destroy(&emu->gate_lock);
	free(emu);
}

static struct mlx5_tm_glue_dev *
emu_open_device(const char *name, const void *opts)
{
	const struct mlx5_emu_config *cfg = opts;
	struct mlx5_emu_config defaults;
	pthread_mutexattr_t attr;
	struct mlx5_emu *emu;
	int ret;

	if (cfg == NULL) {
		if (mlx5_emu_config_init(&defaults, name) < 0) {
			emu_log(EMU_LOG_ERR, "no emulated device '%s' "
				"(profiles: cx5, cx6dx, cx7)",
				name != NULL ? name : "");
			errno = ENODEV;
			return NULL;
		}
		cfg = &defaults;
	} else if (name != NULL && name[0] != '\0' &&
		   strcmp(name, cfg->profile) != 0) {
		emu_log(EMU_LOG_ERR, "device '%s' opened with options of "
			"profile '%s'", name, cfg->profile);
		errno = EINVAL;
		return NULL;
	}
	emu = calloc(1, sizeof(*emu));
	if (emu == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	emu->cfg = *cfg;
	ret = emu_caps_resolve(cfg, &emu->caps);
	if (ret < 0) {
		free(emu);
		errno = -ret;
		return NULL;
	}
	emu->caps.num_comp_vectors = EMU_NUM_COMP_VECTORS;
	/* Inline the device requires whatever the SQ context says. */
	if (emu->caps.wqe_inline_mode == MLX5_CAP_INLINE_MODE_L2)
		emu->min_inline_required = MLX5_INLINE_MODE_L2;
	else if (emu->caps.wqe_inline_mode ==
		 MLX5_CAP_INLINE_MODE_VPORT_CONTEXT)
		emu->min_inline_required = emu->caps.vport_inline_mode;
	else
		emu->min_inline_required = MLX5_INLINE_MODE_NONE;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&emu->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	pthread_mutex_init(&emu->gate_lock, NULL);
	pthread_cond_init(&emu->gate_cond, NULL);
	emu_idtab_init(&emu->pds, EMU_BASE_PDN, 1u << 16);
	emu_idtab_init(&emu->tds, EMU_BASE_TDN, 1u << 16);
	emu_idtab_init(&emu->tises, EMU_BASE_TISN, 1u << 16);
	emu_idtab_init(&emu->cqs, EMU_BASE_CQN, 1u << emu->caps.log_max_cq);
	emu_idtab_init(&emu->sqs, EMU_BASE_SQN, 1u << emu->caps.log_max_sq);
	emu_idtab_init(&emu->umems, EMU_BASE_UMEM, 1u << 20);
	emu_idtab_init(&emu->uars, EMU_BASE_UAR, 1u << 16);
	emu_idtab_init(&emu->mrs, EMU_BASE_LKEY, 1u << 20);
	emu->mtu = (uint32_t)cfg->mtu;
	emu->link_up = cfg->link_up != 0;
	emu->fault_cmd = cfg->fault_cmd;
	emu->fault_pp = cfg->fault_pp;
	emu->fault_wqe = cfg->fault_wqe;
	ret = emu_pp_table_init(emu);
	if (ret == 0)
		ret = emu_sched_init(emu);
	if (ret == 0 && cfg->pcap_path[0] != '\0')
		ret = emu_wire_open(emu, cfg->pcap_path);
	if (ret == 0)
		ret = emu_clock_start(emu);
	if (ret < 0) {
		emu_free(emu);
		errno = -ret;
		return NULL;
	}
	pthread_mutex_lock(&emu_registry_lock);
	emu->dev_id = emu_next_dev_id++;
	emu->next = emu_registry;
	emu_registry = emu;
	pthread_mutex_unlock(&emu_registry_lock);
	emu_log(EMU_LOG_INFO, "emulated %s opened: %s clock, line %u Mb/s, "
		"rate table %u", emu->caps.profile,
		emu->cfg.clock == MLX5_EMU_CLOCK_VIRTUAL ? "virtual" :
		"realtime", emu->caps.line_rate_mbps, emu->caps.pp_table_size);
	return (struct mlx5_tm_glue_dev *)emu;
}

static int
emu_close_device(struct mlx5_tm_glue_dev *dev)
{
	struct mlx5_emu *emu = mlx5_emu_from_glue(dev);
	struct mlx5_emu **pp;
	uint32_t objects;

	if (emu == NULL)
		return -EINVAL;
	emu_lock(emu);
	objects = emu->pds.count + emu->tds.count + emu->tises.count +
		  emu->cqs.count + emu->sqs.count + emu->umems.count +
		  emu->mrs.count + emu->pp_handles + emu_sched_count(emu);
	if (objects > 0) {
		emu_log(EMU_LOG_ERR, "close with objects left: %u PD, %u TD, "
			"%u TIS, %u CQ, %u SQ, %u umem, %u MR, %u pacing, "
			"%u scheduling elements",
			emu->pds.count, emu->tds.count, emu->tises.count,
			emu->cqs.count, emu->sqs.count, emu->umems.count,
			emu->mrs.count, emu->pp_handles, emu_sched_count(emu));
		emu_unlock(emu);
		return -EBUSY;
	}
	emu_unlock(emu);
	pthread_mutex_lock(&emu_registry_lock);
	for (pp = &emu_registry; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == emu) {
			*pp = emu->next;
			break;
		}
	}
	pthread_mutex_unlock(&emu_registry_lock);
	emu_clock_stop(emu);
	/* UAR pages never freed by their owner go with the device. */
	{
		uint32_t i;

		for (i = 0; i < emu->uars.cap; i++) {
			struct emu_uar *uar = emu->uars.slot[i];

			if (uar == NULL)
				continue;
			free(uar->sqs);
			free(uar->page);
			free(uar);
		}
	}
	emu_free(emu);
	return 0;
}

static int
emu_general_cmd(struct mlx5_tm_glue_dev *dev, const void *in, size_t inlen,
		void *out, size_t outlen)
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;
	uint64_t start = emu_mono_ns();
	int ret;

	if (emu == NULL || in == NULL || inlen < 8 ||
	    emu_fw_is_object_cmd((uint16_t)MLX5_GET(mbox_in, in, opcode))) {
		errno = EINVAL;
		return -EINVAL;
	}
	emu_cmd_gate(emu);
	emu_lock(emu);
	ret = emu_fw_exec(emu, in, inlen, out, outlen, start);
	emu_unlock(emu);
	if (ret < 0)
		errno = -ret;
	return ret;
}

static struct mlx5_tm_devx_obj *
emu_obj_create(struct mlx5_tm_glue_dev *dev, const void *in, size_t inlen,
	       void *out, size_t outlen)
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;
	struct emu_devx_obj *obj;
	enum emu_obj_type type;
	uint64_t start = emu_mono_ns();
	int ret;

	if (emu == NULL || in == NULL || inlen < 16 ||
	    !emu_fw_is_create(in, &type)) {
		errno = EINVAL;
		return NULL;
	}
	obj = calloc(1, sizeof(*obj));
	if (obj == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	emu_cmd_gate(emu);
	emu_lock(emu);
	ret = emu_fw_exec(emu, in, inlen, out, outlen, start);
	emu_unlock(emu);
	if (ret < 0) {
		free(obj);
		errno = -ret;
		return NULL;
	}
	obj->emu = emu;
	obj->type = type;
	obj->id = emu_fw_created_obj_id(out, type);
	return (struct mlx5_tm_devx_obj *)obj;
}

/* Run a MODIFY/QUERY command on @p o after checking what it targets. */
static int
emu_obj_cmd(struct mlx5_tm_devx_obj *o, const void *in, size_t inlen,
	    void *out, size_t outlen, bool want_modify)
{
	struct emu_devx_obj *obj = (struct emu_devx_obj *)o;
	uint64_t start = emu_mono_ns();
	enum emu_obj_type type;
	enum emu_cmd_kind kind;
	uint32_t id = 0;
	int ret;

	if (obj == NULL || in == NULL || inlen < 16)
		return -EINVAL;
	/* As the kernel: the command must name this very object. */
	kind = emu_fw_cmd_target(in, &type, &id);
	if (kind != (want_modify ? EMU_CMD_MODIFY : EMU_CMD_QUERY) ||
	    type != obj->type || id != obj->id)
		return -EINVAL;
	emu_cmd_gate(obj->emu);
	emu_lock(obj->emu);
	ret = emu_fw_exec(obj->emu, in, inlen, out, outlen, start);
	emu_unlock(obj->emu);
	if (ret < 0)
		errno = -ret;
	return ret;
}

static int
emu_obj_modify(struct mlx5_tm_devx_obj *obj, const void *in, size_t inlen,
	       void *out, size_t outlen)
{
	return emu_obj_cmd(obj, in, inlen, out, outlen, true);
}

static int
emu_obj_query(struct mlx5_tm_devx_obj *obj, const void *in, size_t inlen,
	      void *out, size_t outlen)
{
	return emu_obj_cmd(obj, in, inlen, out, outlen, false);
}

static int
emu_obj_destroy(struct mlx5_tm_devx_obj *o)
{
	struct emu_devx_obj *obj = (struct emu_devx_obj *)o;
	uint32_t in[MLX5_ST_SZ_DW(destroy_scheduling_element_in)];
	uint32_t out[MLX5_ST_SZ_DW(destroy_scheduling_element_out)];
	uint64_t start = emu_mono_ns();
	size_t inlen;
	int ret;

	if (obj == NULL)
		return -EINVAL;
	inlen = emu_fw_destroy_cmd(obj->type, obj->id, in, sizeof(in));
	emu_cmd_gate(obj->emu);
	emu_lock(obj->emu);
	ret = emu_fw_exec(obj->emu, in, inlen, out, sizeof(out),
			  start);
	emu_unlock(obj->emu);
	if (ret < 0) {
		errno = -ret;
		return ret;
	}
	free(obj);
	return 0;
}

static int
emu_port_query(struct mlx5_tm_glue_dev *dev, struct mlx5_tm_port_info *info)
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;

	if (emu == NULL || info == NULL)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	emu_lock(emu);
	info->mtu = emu->mtu;
	info->min_mtu = EMU_MIN_MTU;
	info->max_mtu = EMU_MAX_MTU;
	info->link_up = emu->link_up;
	info->speed_mbps = emu->link_up ? emu->caps.line_rate_mbps : 0;
	/* Unknown while the link is down, as a NIC's (ethtool, sysfs). */
	info->max_speed_mbps = emu->cfg.link_max_speed_mbps >= 0 ?
		(uint32_t)emu->cfg.link_max_speed_mbps :
		emu->caps.line_rate_mbps;
	/* eswitch=legacy|switchdev|representor (a VF's representor). */
	info->switchdev = emu->cfg.eswitch_switchdev != 0;
	info->representor = emu->cfg.eswitch_switchdev == 2;
	info->esw_mode = emu->cfg.eswitch_switchdev != 0;
	if (info->representor)
		snprintf(info->phys_port_name, sizeof(info->phys_port_name),
			 "pf0vf0");
	info->pci_device_id = emu->caps.pci_device_id;
	emu_unlock(emu);
	return 0;
}

static int
emu_port_set_mtu(struct mlx5_tm_glue_dev *dev, uint32_t mtu)
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;

	if (emu == NULL)
		return -EINVAL;
	/* The kernel refuses what is outside [min_mtu, max_mtu]. */
	if (mtu < EMU_MIN_MTU || mtu > EMU_MAX_MTU)
		return -EINVAL;
	emu_lock(emu);
	emu_engine_sync(emu);
	/* mtu_set=ignore: a netdev that says yes and keeps its MTU. */
	if (!emu->cfg.mtu_set_ignore)
		emu->mtu = mtu;
	emu_unlock(emu);
	return 0;
}

uint32_t
mlx5_emu_mtu(struct mlx5_emu *emu)
{
	uint32_t mtu;

	emu_lock(emu);
	mtu = emu->mtu;
	emu_unlock(emu);
	return mtu;
}

void
mlx5_emu_set_link(struct mlx5_emu *emu, bool up)
{
	emu_lock(emu);
	emu->link_up = up;
	emu_unlock(emu);
}

int
mlx5_emu_set_link_speed(struct mlx5_emu *emu, uint32_t mbps)
{
	if (mbps == 0 || (emu->cfg.link_max_speed_mbps >= 0 &&
			  mbps > (uint32_t)emu->cfg.link_max_speed_mbps))
		return -EINVAL;
	emu_lock(emu);
	emu->caps.line_rate_mbps = mbps;
	emu_unlock(emu);
	return 0;
}

int
mlx5_emu_set_mtu(struct mlx5_emu *emu, uint32_t mtu)
{
	if (mtu < EMU_MIN_MTU || mtu > EMU_MAX_MTU)
		return -EINVAL;
	emu_lock(emu);
	emu->mtu = mtu;
	emu_unlock(emu);
	return 0;
}

const struct mlx5_tm_glue mlx5_tm_glue_emu = {
	.name = "emulated",
	.version = MLX5_TM_VERSION,
	.open_device = emu_open_device,
	.close_device = emu_close_device,
	.pd_alloc = emu_glue_pd_alloc,
	.pd_free = emu_glue_pd_free,
	.devx_general_cmd = emu_general_cmd,
	.devx_obj_create = emu_obj_create,
	.devx_obj_modify = emu_obj_modify,
	.devx_obj_query = emu_obj_query,
	.devx_obj_destroy = emu_obj_destroy,
	.devx_umem_reg = emu_glue_umem_reg,
	.devx_umem_dereg = emu_glue_umem_dereg,
	.devx_uar_alloc = emu_glue_uar_alloc,
	.devx_uar_free = emu_glue_uar_free,
	.devx_query_eqn = emu_glue_query_eqn,
	.pp_alloc = emu_glue_pp_alloc,
	.pp_free = emu_glue_pp_free,
	.reg_mr = emu_glue_reg_mr,
	.dereg_mr = emu_glue_dereg_mr,
	.port_query = emu_port_query,
	.port_set_mtu = emu_port_set_mtu,
	.opt_keys = mlx5_emu_config_keys,
	.opts_new = emu_glue_opts_new,
	.opts_set = emu_glue_opts_set,
	.opts_busy_cpus = emu_glue_opts_busy_cpus,
	.opts_free = emu_glue_opts_free,
	.set_log = mlx5_emu_set_log,
	.line_rate_mbps = emu_glue_line_rate_mbps,
	.sq_wire_get = emu_glue_sq_wire_get,
	.sq_wire_clear = emu_glue_sq_wire_clear,
	.lag_get = emu_glue_lag_get,
	.pcap_error = emu_glue_pcap_error,
	.clock_is_virtual = emu_glue_clock_is_virtual,
	.model = emu_glue_model,
};
