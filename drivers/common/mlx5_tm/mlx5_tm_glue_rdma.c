/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The device glue over rdma-core: libibverbs for the device, PD and MR,
 * libmlx5 (mlx5dv) for DEVX commands, umem, UAR, EQN and packet pacing.
 * Each function is a thin wrapper; the only logic added is device lookup
 * by ibdev name or PCI address and the mapping of failures onto the
 * conventions of mlx5_tm_glue.h. Nothing here logs: callers report.
 */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include "mlx5_tm_glue.h"
#include "mlx5_tm_netdev.h"
#include "mlx5_tm_prm.h"

/*
 * An open device: the verbs context, opened with DEVX, and its uplink
 * netdev with the E-Switch role, both read once at open.
 */
struct mlx5_tm_glue_dev {
	struct ibv_context *ctx;
	char ifname[IFNAMSIZ]; /* "" when none was found (ifname_err). */
	int ifname_err;
	uint16_t pci_device_id;
	struct mlx5_tm_eswitch esw;
};

static void rdma_netdev_probe(struct mlx5_tm_glue_dev *dev);

struct rdma_pd {
	struct mlx5_tm_pd pub; /* First: the table hands out &pub. */
	struct ibv_pd *pd;
};

struct mlx5_tm_devx_obj {
	struct mlx5dv_devx_obj *obj;
};

struct rdma_umem {
	struct mlx5_tm_umem pub;
	struct mlx5dv_devx_umem *umem;
};

struct rdma_uar {
	struct mlx5_tm_uar pub;
	struct mlx5dv_devx_uar *uar;
};

struct rdma_pp {
	struct mlx5_tm_pp pub;
	struct mlx5dv_pp *pp;
};

struct rdma_mr {
	struct mlx5_tm_mr pub;
	struct ibv_mr *mr;
};

/* Negative errno from an rdma-core int return (errno value or -1). */
static int
rdma_err(int ret)
{
	if (ret > 0)
		return -ret;
	if (errno != 0)
		return -errno;
	return -EIO;
}

/*
 * Failure of an rdma-core call that returned NULL: free the wrapper that
 * was to hold the object and return NULL, errno kept (EIO if none set).
 */
static void *
rdma_null(void *wrapper)
{
	int err = errno != 0 ? errno : EIO;

	free(wrapper);
	errno = err;
	return NULL;
}

/* Whether the out buffer of a command carries a firmware failure. */
static bool
fw_failed(const void *out, size_t outlen)
{
	if (out == NULL || outlen < MLX5_ST_SZ_BYTES(mbox_out))
		return false;
	return MLX5_GET(mbox_out, out, status) != MLX5_CMD_STAT_OK;
}

/* Result of a command call, with the EREMOTEIO rule of mlx5_tm_glue.h. */
static int
cmd_result(int ret, const void *out, size_t outlen)
{
	if (fw_failed(out, outlen)) {
		errno = EREMOTEIO;
		return -EREMOTEIO;
	}
	if (ret != 0) {
		ret = rdma_err(ret);
		errno = -ret;
		return ret;
	}
	return 0;
}

/*
 * PCI address of an ibdev, from the basename of the sysfs "device" link
 * (/sys/class/infiniband/<ibdev>/device -> ../../../0000:08:00.0).
 */
static int
ibdev_pci_addr(const struct ibv_device *dev, char *buf, size_t len)
{
	char path[PATH_MAX];
	char link[PATH_MAX];
	const char *base;
	ssize_t n;

	if (snprintf(path, sizeof(path), "%s/device", dev->ibdev_path) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base != NULL ? base + 1 : link;
	if (snprintf(buf, len, "%s", base) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* Whether @p name designates @p dev: ibdev name, or PCI address with or
 * without the "0000:" domain.
 */
static bool
ibdev_matches(struct ibv_device *dev, const char *name)
{
	char pci[64];
	size_t plen;
	size_t nlen;

	if (strcmp(ibv_get_device_name(dev), name) == 0)
		return true;
	if (ibdev_pci_addr(dev, pci, sizeof(pci)) != 0)
		return false;
	if (strcasecmp(pci, name) == 0)
		return true;
	/* "08:00.0" stands for "0000:08:00.0". */
	plen = strlen(pci);
	nlen = strlen(name);
	return nlen < plen && strncmp(pci, "0000:", 5) == 0 &&
	       plen - nlen == 5 && strcasecmp(pci + 5, name) == 0;
}

static struct mlx5_tm_glue_dev *
rdma_open_device(const char *name, const void *opts)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct mlx5_tm_glue_dev *dev;
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int err = ENODEV;
	int n = 0;
	int i;

	if (name == NULL || opts != NULL) {
		errno = EINVAL;
		return NULL;
	}
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL)
		return NULL;
	list = ibv_get_device_list(&n);
	/* No RDMA subsystem at all (ENOSYS) means no such device too. */
	for (i = 0; list != NULL && i < n; i++) {
		if (!mlx5dv_is_supported(list[i]) ||
		    !ibdev_matches(list[i], name))
			continue;
		errno = 0;
		ctx = mlx5dv_open_device(list[i], &attr);
		if (ctx == NULL)
			err = errno != 0 ? errno : EIO;
		break;
	}
	if (list != NULL)
		ibv_free_device_list(list);
	if (ctx == NULL) {
		free(dev);
		errno = err;
		return NULL;
	}
	dev->ctx = ctx;
	rdma_netdev_probe(dev);
	return dev;
}

static int
rdma_close_device(struct mlx5_tm_glue_dev *dev)
{
	int ret;

	if (dev == NULL)
		return -EINVAL;
	ret = ibv_close_device(dev->ctx);
	if (ret != 0)
		return rdma_err(ret);
	free(dev);
	return 0;
}

static struct mlx5_tm_pd *
rdma_pd_alloc(struct mlx5_tm_glue_dev *dev)
{
	struct mlx5dv_pd dv_pd = { 0 };
	struct mlx5dv_obj obj = { 0 };
	struct rdma_pd *pd;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (pd == NULL)
		return NULL;
	errno = 0;
	pd->pd = ibv_alloc_pd(dev->ctx);
	if (pd->pd == NULL)
		goto error;
	obj.pd.in = pd->pd;
	obj.pd.out = &dv_pd;
	ret = mlx5dv_init_obj(&obj, MLX5DV_OBJ_PD);
	if (ret != 0) {
		ret = rdma_err(ret);
		ibv_dealloc_pd(pd->pd);
		errno = -ret;
		goto error;
	}
	pd->pub.pdn = dv_pd.pdn;
	return &pd->pub;
error:
	return rdma_null(pd);
}

static int
rdma_pd_free(struct mlx5_tm_pd *pub)
{
	struct rdma_pd *pd = (struct rdma_pd *)pub;
	int ret;

	if (pd == NULL)
		return -EINVAL;
	ret = ibv_dealloc_pd(pd->pd);
	if (ret != 0)
		return rdma_err(ret);
	free(pd);
	return 0;
}

static int
rdma_devx_general_cmd(struct mlx5_tm_glue_dev *dev, const void *in,
		      size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	return cmd_result(mlx5dv_devx_general_cmd(dev->ctx, in, inlen,
						  out, outlen),
			  out, outlen);
}

static struct mlx5_tm_devx_obj *
rdma_devx_obj_create(struct mlx5_tm_glue_dev *dev, const void *in,
		     size_t inlen, void *out, size_t outlen)
{
	struct mlx5_tm_devx_obj *obj;

	obj = calloc(1, sizeof(*obj));
	if (obj == NULL)
		return NULL;
	memset(out, 0, outlen);
	errno = 0;
	obj->obj = mlx5dv_devx_obj_create(dev->ctx, in, inlen, out, outlen);
	if (obj->obj == NULL) {
		if (fw_failed(out, outlen))
			errno = EREMOTEIO;
		return rdma_null(obj);
	}
	return obj;
}

static int
rdma_devx_obj_modify(struct mlx5_tm_devx_obj *obj, const void *in,
		     size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	return cmd_result(mlx5dv_devx_obj_modify(obj->obj, in, inlen,
						 out, outlen),
			  out, outlen);
}

static int
rdma_devx_obj_query(struct mlx5_tm_devx_obj *obj, const void *in,
		    size_t inlen, void *out, size_t outlen)
{
	memset(out, 0, outlen);
	return cmd_result(mlx5dv_devx_obj_query(obj->obj, in, inlen,
						out, outlen),
			  out, outlen);
}

static int
rdma_devx_obj_destroy(struct mlx5_tm_devx_obj *obj)
{
	int ret;

	if (obj == NULL)
		return -EINVAL;
	ret = mlx5dv_devx_obj_destroy(obj->obj);
	if (ret != 0)
		return rdma_err(ret);
	free(obj);
	return 0;
}

/* Verbs access flags for MLX5_TM_ACCESS_* bits; -1 for unknown bits. */
static int
access_flags(uint32_t access)
{
	int flags = 0;

	if (access & ~MLX5_TM_ACCESS_LOCAL_WRITE)
		return -1;
	if (access & MLX5_TM_ACCESS_LOCAL_WRITE)
		flags |= IBV_ACCESS_LOCAL_WRITE;
	return flags;
}

static struct mlx5_tm_umem *
rdma_devx_umem_reg(struct mlx5_tm_glue_dev *dev, void *addr, size_t size,
		   uint32_t access)
{
	int flags = access_flags(access);
	struct rdma_umem *umem;

	if (flags < 0) {
		errno = EINVAL;
		return NULL;
	}
	umem = calloc(1, sizeof(*umem));
	if (umem == NULL)
		return NULL;
	errno = 0;
	umem->umem = mlx5dv_devx_umem_reg(dev->ctx, addr, size, flags);
	if (umem->umem == NULL)
		return rdma_null(umem);
	umem->pub.umem_id = umem->umem->umem_id;
	return &umem->pub;
}

static int
rdma_devx_umem_dereg(struct mlx5_tm_umem *pub)
{
	struct rdma_umem *umem = (struct rdma_umem *)pub;
	int ret;

	if (umem == NULL)
		return -EINVAL;
	ret = mlx5dv_devx_umem_dereg(umem->umem);
	if (ret != 0)
		return rdma_err(ret);
	free(umem);
	return 0;
}

static struct mlx5_tm_uar *
rdma_devx_uar_alloc(struct mlx5_tm_glue_dev *dev)
{
	struct rdma_uar *uar;

	uar = calloc(1, sizeof(*uar));
	if (uar == NULL)
		return NULL;
	/* Write-combining (BlueFlame) first, as DPDK's mlx5 does by default;
	 * non-cached where the kernel offers no BF page.
	 */
	errno = 0;
	uar->uar = mlx5dv_devx_alloc_uar(dev->ctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (uar->uar == NULL)
		uar->uar = mlx5dv_devx_alloc_uar(dev->ctx,
						 MLX5DV_UAR_ALLOC_TYPE_NC);
	if (uar->uar == NULL)
		return rdma_null(uar);
	uar->pub.reg_addr = uar->uar->reg_addr;
	uar->pub.base_addr = uar->uar->base_addr;
	uar->pub.page_id = uar->uar->page_id;
	return &uar->pub;
}

static void
rdma_devx_uar_free(struct mlx5_tm_uar *pub)
{
	struct rdma_uar *uar = (struct rdma_uar *)pub;

	if (uar == NULL)
		return;
	mlx5dv_devx_free_uar(uar->uar);
	free(uar);
}

static int
rdma_devx_query_eqn(struct mlx5_tm_glue_dev *dev, uint32_t vector,
		    uint32_t *eqn)
{
	int ret = mlx5dv_devx_query_eqn(dev->ctx, vector, eqn);

	return ret != 0 ? rdma_err(ret) : 0;
}

static struct mlx5_tm_pp *
rdma_pp_alloc(struct mlx5_tm_glue_dev *dev, size_t pp_context_sz,
	      const void *pp_context, uint32_t flags)
{
	uint32_t dv_flags = 0;
	struct rdma_pp *pp;

	if (flags & ~MLX5_TM_PP_FLAG_DEDICATED_INDEX) {
		errno = EINVAL;
		return NULL;
	}
	if (flags & MLX5_TM_PP_FLAG_DEDICATED_INDEX)
		dv_flags |= MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX;
	pp = calloc(1, sizeof(*pp));
	if (pp == NULL)
		return NULL;
	errno = 0;
	pp->pp = mlx5dv_pp_alloc(dev->ctx, pp_context_sz, pp_context,
				 dv_flags);
	if (pp->pp == NULL)
		return rdma_null(pp);
	pp->pub.index = pp->pp->index;
	return &pp->pub;
}

static void
rdma_pp_free(struct mlx5_tm_pp *pub)
{
	struct rdma_pp *pp = (struct rdma_pp *)pub;

	if (pp == NULL)
		return;
	mlx5dv_pp_free(pp->pp);
	free(pp);
}

static struct mlx5_tm_mr *
rdma_reg_mr(struct mlx5_tm_pd *pub_pd, void *addr, size_t length,
	    uint32_t access)
{
	struct rdma_pd *pd = (struct rdma_pd *)pub_pd;
	int flags = access_flags(access);
	struct rdma_mr *mr;

	if (pd == NULL || flags < 0) {
		errno = EINVAL;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL)
		return NULL;
	errno = 0;
	mr->mr = ibv_reg_mr(pd->pd, addr, length, flags);
	if (mr->mr == NULL)
		return rdma_null(mr);
	mr->pub.addr = mr->mr->addr;
	mr->pub.length = mr->mr->length;
	mr->pub.lkey = mr->mr->lkey;
	return &mr->pub;
}

static int
rdma_dereg_mr(struct mlx5_tm_mr *pub)
{
	struct rdma_mr *mr = (struct rdma_mr *)pub;
	int ret;

	if (mr == NULL)
		return -EINVAL;
	ret = ibv_dereg_mr(mr->mr);
	if (ret != 0)
		return rdma_err(ret);
	free(mr);
	return 0;
}

int
mlx5_tm_glue_rdma_list(char *buf, size_t len)
{
	struct ibv_device **list;
	size_t used = 0;
	int found = 0;
	int n = 0;
	int i;

	if (buf == NULL || len == 0)
		return -EINVAL;
	buf[0] = '\0';
	list = ibv_get_device_list(&n);
	if (list == NULL)
		return 0; /* No RDMA subsystem: no device. */
	for (i = 0; i < n; i++) {
		char pci[64];
		int w;

		if (!mlx5dv_is_supported(list[i]))
			continue;
		if (ibdev_pci_addr(list[i], pci, sizeof(pci)) != 0)
			snprintf(pci, sizeof(pci), "?");
		w = snprintf(buf + used, len - used, "%s%s (%s)",
			     found > 0 ? ", " : "",
			     ibv_get_device_name(list[i]), pci);
		found++;
		if (w < 0 || (size_t)w >= len - used)
			used = len - 1; /* Truncated; keep counting. */
		else
			used += w;
	}
	ibv_free_device_list(list);
	return found;
}

/*
 * The sysfs root libibverbs read the device from: its ibdev_path is
 * <root>/class/infiniband/<name>, <root> being /sys unless SYSFS_PATH
 * says otherwise (rdma-core's ibv_get_sysfs_path()). Every sysfs path
 * the glue reads starts there, so that it reads the tree the device came
 * from (the test stand-in's, under make test).
 */
static void
rdma_sysfs_root(const struct ibv_device *dev, char *buf, size_t len)
{
	char tail[PATH_MAX];
	size_t plen = strlen(dev->ibdev_path);
	int tlen;

	tlen = snprintf(tail, sizeof(tail), "/class/infiniband/%s", dev->name);
	if (tlen > 0 && (size_t)tlen < plen && (size_t)tlen < sizeof(tail) &&
	    strcmp(dev->ibdev_path + plen - (size_t)tlen, tail) == 0 &&
	    plen - (size_t)tlen < len) {
		memcpy(buf, dev->ibdev_path, plen - (size_t)tlen);
		buf[plen - (size_t)tlen] = '\0';
		return;
	}
	snprintf(buf, len, "/sys");
}

/* A sysfs attribute of @p ifname (or of the ibdev's PCI device). */
static int
rdma_sysfs_read(const char *fmt, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	char *nl;

	if (snprintf(path, sizeof(path), fmt, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fgets(buf, (int)len, f) == NULL) {
		int err = ferror(f) ? EIO : ENODATA;

		fclose(f);
		return -err;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl != NULL)
		*nl = '\0';
	return 0;
}

/* The mlx5e netdev's MTU range (min_mtu, max_mtu = 9978 on ConnectX). */
#define RDMA_NETDEV_MIN_MTU 68u
#define RDMA_NETDEV_MAX_MTU 9978u

/*
 * Once, at open: the PCI id, the uplink netdev among those of the PCI
 * function (mlx5_tm_netdev_uplink()) and the E-Switch role (IB ports,
 * representors, devlink: mlx5_tm_netdev_eswitch()), from the sysfs tree
 * libibverbs read the device from.
 */
static void
rdma_netdev_probe(struct mlx5_tm_glue_dev *dev)
{
	struct mlx5_tm_netdev_env env = mlx5_tm_netdev_env_os;
	const struct ibv_device *ibdev = dev->ctx->device;
	unsigned int representors = 0;
	char sysfs[PATH_MAX];
	char path[PATH_MAX];
	char buf[64];
	char pci[64];

	rdma_sysfs_root(ibdev, sysfs, sizeof(sysfs));
	env.sysfs = sysfs;
	if (rdma_sysfs_read("%s/device/device", ibdev->ibdev_path, buf,
			    sizeof(buf)) == 0)
		dev->pci_device_id = (uint16_t)strtoul(buf, NULL, 16);
	if (snprintf(path, sizeof(path), "%s/device/net",
		     ibdev->ibdev_path) >= (int)sizeof(path)) {
		dev->ifname_err = -ENAMETOOLONG;
		return;
	}
	dev->ifname_err = mlx5_tm_netdev_uplink(&env, path, dev->ifname,
						sizeof(dev->ifname),
						&representors);
	if (dev->ifname_err < 0) {
		dev->ifname[0] = '\0';
		return;
	}
	snprintf(path, sizeof(path), "%s/ports", ibdev->ibdev_path);
	mlx5_tm_netdev_eswitch(&env, dev->ifname,
			       ibdev_pci_addr(ibdev, pci, sizeof(pci)) == 0 ?
			       pci : NULL, mlx5_tm_netdev_ib_ports(path),
			       representors, &dev->esw);
}

/* The flags of the uplink netdev (SIOCGIFFLAGS) and its speeds. */
static int
rdma_link_query(struct mlx5_tm_glue_dev *dev, struct mlx5_tm_port_info *info)
{
	const struct mlx5_tm_netdev_env *env = &mlx5_tm_netdev_env_os;
	uint32_t speed = 0, max = 0;
	struct ifreq ifr;
	int fd, ret;

	if (dev == NULL || info == NULL)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	if (dev->ifname_err < 0)
		return dev->ifname_err;
	snprintf(info->ifname, sizeof(info->ifname), "%s", dev->ifname);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, dev->ifname, strlen(dev->ifname));
	ret = ioctl(fd, SIOCGIFFLAGS, &ifr) < 0 ? -errno : 0;
	close(fd);
	if (ret < 0)
		return ret;
	info->link_up = (ifr.ifr_flags & IFF_UP) && (ifr.ifr_flags & IFF_RUNNING);
	/* Unknown while the link is down: then the fastest supported mode. */
	if (env->ethtool_speeds(env->arg, info->ifname, &speed, &max) == 0) {
		info->speed_mbps = info->link_up ? speed : 0;
		info->max_speed_mbps = max;
	}
	return 0;
}

static int
rdma_port_query(struct mlx5_tm_glue_dev *dev, struct mlx5_tm_port_info *info)
{
	const struct mlx5_tm_eswitch *esw;
	struct ifreq ifr;
	int fd, ret;

	ret = rdma_link_query(dev, info);
	if (info != NULL && dev != NULL) {
		info->min_mtu = RDMA_NETDEV_MIN_MTU;
		info->max_mtu = RDMA_NETDEV_MAX_MTU;
		info->pci_device_id = dev->pci_device_id;
	}
	if (ret < 0)
		return ret;
	esw = &dev->esw;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, dev->ifname, strlen(dev->ifname));
	if (ioctl(fd, SIOCGIFMTU, &ifr) < 0)
		goto fail;
	info->mtu = (uint32_t)ifr.ifr_mtu;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		goto fail;
	memcpy(info->mac, ifr.ifr_hwaddr.sa_data, sizeof(info->mac));
	close(fd);
	/* The role decided at open (rdma_netdev_probe()). */
	info->switchdev = esw->switchdev;
	info->representor = esw->representor;
	info->esw_mode = (int8_t)esw->mode;
	info->esw_devlink_err = esw->devlink_err;
	info->ib_ports = (uint16_t)esw->ib_ports;
	info->esw_representors = (uint16_t)esw->representors;
	info->esw_disagree = esw->disagree;
	snprintf(info->phys_port_name, sizeof(info->phys_port_name), "%s",
		 esw->port_name);
	snprintf(info->phys_switch_id, sizeof(info->phys_switch_id), "%s",
		 esw->switch_id);
	return 0;
fail:
	ret = -errno;
	close(fd);
	return ret;
}

static int
rdma_port_set_mtu(struct mlx5_tm_glue_dev *dev, uint32_t mtu)
{
	struct ifreq ifr;
	int fd, ret;

	if (dev == NULL)
		return -EINVAL;
	if (dev->ifname_err < 0)
		return dev->ifname_err;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev->ifname);
	ifr.ifr_mtu = (int)mtu;
	ret = ioctl(fd, SIOCSIFMTU, &ifr) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

const struct mlx5_tm_glue mlx5_tm_glue_rdma = {
	.name = "rdma-core",
	.version = MLX5_TM_VERSION,
	.open_device = rdma_open_device,
	.close_device = rdma_close_device,
	.pd_alloc = rdma_pd_alloc,
	.pd_free = rdma_pd_free,
	.devx_general_cmd = rdma_devx_general_cmd,
	.devx_obj_create = rdma_devx_obj_create,
	.devx_obj_modify = rdma_devx_obj_modify,
	.devx_obj_query = rdma_devx_obj_query,
	.devx_obj_destroy = rdma_devx_obj_destroy,
	.devx_umem_reg = rdma_devx_umem_reg,
	.devx_umem_dereg = rdma_devx_umem_dereg,
	.devx_uar_alloc = rdma_devx_uar_alloc,
	.devx_uar_free = rdma_devx_uar_free,
	.devx_query_eqn = rdma_devx_query_eqn,
	.pp_alloc = rdma_pp_alloc,
	.pp_free = rdma_pp_free,
	.reg_mr = rdma_reg_mr,
	.dereg_mr = rdma_dereg_mr,
	.port_query = rdma_port_query,
	.link_query = rdma_link_query,
	.port_set_mtu = rdma_port_set_mtu,
};
