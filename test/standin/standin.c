/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * A test-only stand-in for the kernel and rdma-core as the rdma glue sees
 * them (drivers/common/mlx5_tm/mlx5_tm_glue_rdma.c, mlx5_tm_netdev.c), so
 * that the hardware path runs in make test:
 *
 * - libibverbs/libmlx5: the functions the glue calls, each answered by the
 *   device model's glue table (mlx5_tm_glue_emu): device list, open, PD,
 *   MR, DEVX commands and objects, umem, UAR, EQN, pacing entries, with
 *   the symbol versions the driver references (standin.map).
 * - The kernel's other answers: socket(), ioctl() (SIOCGIFMTU, SIOCSIFMTU,
 *   SIOCGIFFLAGS, SIOCGIFHWADDR, SIOCETHTOOL) for the netdevs of the fake
 *   sysfs tree, and generic netlink (the devlink family,
 *   DEVLINK_CMD_ESWITCH_GET). Every other socket, ioctl and message goes
 *   to the C library.
 *
 * Loaded with LD_PRELOAD, so that its definitions come before rdma-core's
 * and the C library's in every lookup (rdma-core stays loaded for the
 * programs that link it, such as Debian's testpmd with its mlx5 drivers;
 * with --no-pci they never reach a device).
 *
 * The sysfs tree is the test's (a directory laid out as /sys is); its
 * devices are class/infiniband/<name>, whose ibdev_path points into it, so
 * the glue reads the tree where it would read rdma-core's sysfs.
 *
 * Environment:
 *   MLX5_TM_STANDIN_SYSFS    root of the fake sysfs tree (required)
 *   MLX5_TM_STANDIN_EMU      device model: "PROFILE[,KEY=VALUE...]",
 *                            default "cx6dx" (devargs of emu=)
 *   MLX5_TM_STANDIN_DEVLINK  devlink's answer: legacy (default),
 *                            switchdev, eperm, absent (no devlink family)
 *   MLX5_TM_STANDIN_COUNTS   file the counters are written to at exit
 *                            ("netlink_sockets N", "devlink_queries N",
 *                            "inet_sockets N", "ioctls N")
 */

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/devlink.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sockios.h>

#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#include "mlx5_tm_glue.h"

#undef ibv_reg_mr

#define STANDIN_EXPORT __attribute__((visibility("default")))

/* The family id the fake generic netlink gives devlink. */
#define STANDIN_DEVLINK_FAMILY 0x2a

static const struct mlx5_tm_glue *emu = &mlx5_tm_glue_emu;

/* ---- counters ---- */

static atomic_uint netlink_sockets;
static atomic_uint devlink_queries;
static atomic_uint inet_sockets;
static atomic_uint ioctls;

/** The counters, for tests linked with the stand-in. */
STANDIN_EXPORT void
mlx5_tm_standin_counts(unsigned int *netlink, unsigned int *devlink,
		       unsigned int *inet, unsigned int *ioctl_calls)
{
	*netlink = atomic_load(&netlink_sockets);
	*devlink = atomic_load(&devlink_queries);
	*inet = atomic_load(&inet_sockets);
	*ioctl_calls = atomic_load(&ioctls);
}

__attribute__((destructor)) static void
write_counts(void)
{
	const char *path = getenv("MLX5_TM_STANDIN_COUNTS");
	FILE *f;

	if (path == NULL || path[0] == '\0')
		return;
	f = fopen(path, "w");
	if (f == NULL)
		return;
	fprintf(f, "netlink_sockets %u\ndevlink_queries %u\n"
		"inet_sockets %u\nioctls %u\n",
		atomic_load(&netlink_sockets), atomic_load(&devlink_queries),
		atomic_load(&inet_sockets), atomic_load(&ioctls));
	fclose(f);
}

/* ---- libibverbs ---- */

struct standin_ctx {
	struct ibv_context ibv; /* First: handed out as ibv_context. */
	struct mlx5_tm_glue_dev *dev;
};

struct standin_pd {
	struct ibv_pd ibv;
	struct mlx5_tm_pd *pd;
};

struct standin_mr {
	struct ibv_mr ibv;
	struct mlx5_tm_mr *mr;
};

struct mlx5dv_devx_obj {
	struct mlx5_tm_devx_obj *obj;
};

struct standin_umem {
	struct mlx5dv_devx_umem dv;
	struct mlx5_tm_umem *umem;
};

struct standin_uar {
	struct mlx5dv_devx_uar dv;
	struct mlx5_tm_uar *uar;
};

struct standin_pp {
	struct mlx5dv_pp dv;
	struct mlx5_tm_pp *pp;
};

static pthread_mutex_t standin_lock = PTHREAD_MUTEX_INITIALIZER;
/* The device opened last: the netdev ioctls answer from its port. */
static struct standin_ctx *current;

static const char *
sysfs_root(void)
{
	return getenv("MLX5_TM_STANDIN_SYSFS");
}

STANDIN_EXPORT struct ibv_device **
ibv_get_device_list(int *num)
{
	const char *root = sysfs_root();
	char path[PATH_MAX];
	struct ibv_device **list;
	struct dirent *e;
	int n = 0, cap = 8;
	DIR *d;

	if (num != NULL)
		*num = 0;
	if (root == NULL) {
		errno = ENOSYS; /* No RDMA subsystem. */
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	list = calloc(cap + 1, sizeof(*list));
	if (list == NULL)
		return NULL;
	d = opendir(path);
	while (d != NULL && (e = readdir(d)) != NULL && n < cap) {
		struct ibv_device *dev;

		if (e->d_name[0] == '.')
			continue;
		/* Names and paths as long as libibverbs' fields hold. */
		if (strlen(e->d_name) >= sizeof(dev->name) ||
		    strlen(path) + 1 + strlen(e->d_name) >=
		    sizeof(dev->ibdev_path))
			continue;
		dev = calloc(1, sizeof(*dev));
		if (dev == NULL)
			break;
		dev->node_type = IBV_NODE_CA;
		dev->transport_type = IBV_TRANSPORT_IB;
		memcpy(dev->name, e->d_name, strlen(e->d_name) + 1);
		snprintf(dev->dev_name, sizeof(dev->dev_name), "uverbs%d", n);
		memcpy(dev->ibdev_path, path, strlen(path));
		dev->ibdev_path[strlen(path)] = '/';
		memcpy(dev->ibdev_path + strlen(path) + 1, e->d_name,
		       strlen(e->d_name) + 1);
		list[n++] = dev;
	}
	if (d != NULL)
		closedir(d);
	if (num != NULL)
		*num = n;
	return list;
}

STANDIN_EXPORT void
ibv_free_device_list(struct ibv_device **list)
{
	int i;

	for (i = 0; list != NULL && list[i] != NULL; i++)
		free(list[i]);
	free(list);
}

STANDIN_EXPORT const char *
ibv_get_device_name(struct ibv_device *dev)
{
	return dev->name;
}

STANDIN_EXPORT bool
mlx5dv_is_supported(struct ibv_device *dev)
{
	return dev != NULL;
}

/* The device-model options of MLX5_TM_STANDIN_EMU. */
static void *
emu_opts(void)
{
	const char *spec = getenv("MLX5_TM_STANDIN_EMU");
	char buf[1024], err[256];
	char *save = NULL, *tok;
	void *opts;

	snprintf(buf, sizeof(buf), "%s",
		 spec != NULL && spec[0] != '\0' ? spec : "cx6dx");
	tok = strtok_r(buf, ",", &save);
	opts = emu->opts_new(tok, err, sizeof(err));
	if (opts == NULL) {
		fprintf(stderr, "standin: %s\n", err);
		return NULL;
	}
	while ((tok = strtok_r(NULL, ",", &save)) != NULL) {
		char *eq = strchr(tok, '=');

		if (eq == NULL) {
			fprintf(stderr, "standin: '%s' is not KEY=VALUE\n", tok);
			emu->opts_free(opts);
			return NULL;
		}
		*eq = '\0';
		if (emu->opts_set(opts, tok, eq + 1, err, sizeof(err)) != 0) {
			fprintf(stderr, "standin: %s\n", err);
			emu->opts_free(opts);
			return NULL;
		}
	}
	return opts;
}

STANDIN_EXPORT struct ibv_context *
mlx5dv_open_device(struct ibv_device *device, struct mlx5dv_context_attr *attr)
{
	struct standin_ctx *ctx;
	void *opts;

	if (device == NULL || attr == NULL ||
	    !(attr->flags & MLX5DV_CONTEXT_FLAGS_DEVX)) {
		errno = EOPNOTSUPP; /* This PMD needs DEVX. */
		return NULL;
	}
	ctx = calloc(1, sizeof(*ctx) + sizeof(*device));
	if (ctx == NULL)
		return NULL;
	opts = emu_opts();
	if (opts == NULL) {
		free(ctx);
		errno = EINVAL;
		return NULL;
	}
	ctx->dev = emu->open_device(NULL, opts);
	emu->opts_free(opts);
	if (ctx->dev == NULL) {
		int err = errno;

		free(ctx);
		errno = err;
		return NULL;
	}
	/* The context outlives the device list: a copy of the device. */
	ctx->ibv.device = (struct ibv_device *)(ctx + 1);
	memcpy(ctx->ibv.device, device, sizeof(*device));
	ctx->ibv.num_comp_vectors = 1;
	pthread_mutex_lock(&standin_lock);
	current = ctx;
	pthread_mutex_unlock(&standin_lock);
	return &ctx->ibv;
}

STANDIN_EXPORT int
ibv_close_device(struct ibv_context *context)
{
	struct standin_ctx *ctx = (struct standin_ctx *)context;
	int ret = emu->close_device(ctx->dev);

	if (ret != 0)
		return -ret; /* As rdma-core: a positive errno. */
	pthread_mutex_lock(&standin_lock);
	if (current == ctx)
		current = NULL;
	pthread_mutex_unlock(&standin_lock);
	free(ctx);
	return 0;
}

STANDIN_EXPORT struct ibv_pd *
ibv_alloc_pd(struct ibv_context *context)
{
	struct standin_ctx *ctx = (struct standin_ctx *)context;
	struct standin_pd *pd = calloc(1, sizeof(*pd));

	if (pd == NULL)
		return NULL;
	pd->pd = emu->pd_alloc(ctx->dev);
	if (pd->pd == NULL) {
		free(pd);
		return NULL;
	}
	pd->ibv.context = context;
	pd->ibv.handle = pd->pd->pdn;
	return &pd->ibv;
}

STANDIN_EXPORT int
ibv_dealloc_pd(struct ibv_pd *ibv)
{
	struct standin_pd *pd = (struct standin_pd *)ibv;
	int ret = emu->pd_free(pd->pd);

	if (ret != 0)
		return -ret;
	free(pd);
	return 0;
}

STANDIN_EXPORT int
mlx5dv_init_obj(struct mlx5dv_obj *obj, uint64_t obj_type)
{
	if (obj_type != MLX5DV_OBJ_PD)
		return EOPNOTSUPP; /* The glue asks for nothing else. */
	obj->pd.out->pdn = ((struct standin_pd *)obj->pd.in)->pd->pdn;
	return 0;
}

/*
 * verbs.h's ibv_reg_mr() macro calls ibv_reg_mr_iova2() where it cannot
 * prove at compile time that the access flags need no new entry point
 * (it depends on the compiler's optimisation): both are stood in for.
 */
static struct ibv_mr *
reg_mr(struct ibv_pd *ibv, void *addr, size_t length, unsigned int access)
{
	struct standin_pd *pd = (struct standin_pd *)ibv;
	struct standin_mr *mr;

	if (access & ~(unsigned int)IBV_ACCESS_LOCAL_WRITE) {
		errno = EINVAL;
		return NULL;
	}
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL)
		return NULL;
	mr->mr = emu->reg_mr(pd->pd, addr, length,
			     access & IBV_ACCESS_LOCAL_WRITE ?
			     MLX5_TM_ACCESS_LOCAL_WRITE : 0);
	if (mr->mr == NULL) {
		free(mr);
		return NULL;
	}
	mr->ibv.context = ibv->context;
	mr->ibv.pd = ibv;
	mr->ibv.addr = mr->mr->addr;
	mr->ibv.length = mr->mr->length;
	mr->ibv.lkey = mr->mr->lkey;
	mr->ibv.rkey = mr->mr->lkey;
	return &mr->ibv;
}

STANDIN_EXPORT struct ibv_mr *
ibv_reg_mr(struct ibv_pd *ibv, void *addr, size_t length, int access)
{
	return reg_mr(ibv, addr, length, (unsigned int)access);
}

/* The device addresses memory by its virtual address only here. */
STANDIN_EXPORT struct ibv_mr *
ibv_reg_mr_iova2(struct ibv_pd *ibv, void *addr, size_t length,
		 uint64_t iova, unsigned int access)
{
	if (iova != (uintptr_t)addr) {
		errno = EINVAL;
		return NULL;
	}
	return reg_mr(ibv, addr, length, access);
}

STANDIN_EXPORT int
ibv_dereg_mr(struct ibv_mr *ibv)
{
	struct standin_mr *mr = (struct standin_mr *)ibv;
	int ret = emu->dereg_mr(mr->mr);

	if (ret != 0)
		return -ret;
	free(mr);
	return 0;
}

/* ---- libmlx5 DEVX ---- */

/* rdma-core's return of a failed DEVX ioctl: the positive errno. */
static int
dv_ret(int ret)
{
	if (ret == 0)
		return 0;
	errno = -ret;
	return -ret;
}

STANDIN_EXPORT int
mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in,
			size_t inlen, void *out, size_t outlen)
{
	struct standin_ctx *ctx = (struct standin_ctx *)context;

	return dv_ret(emu->devx_general_cmd(ctx->dev, in, inlen, out, outlen));
}

STANDIN_EXPORT struct mlx5dv_devx_obj *
mlx5dv_devx_obj_create(struct ibv_context *context, const void *in,
		       size_t inlen, void *out, size_t outlen)
{
	struct standin_ctx *ctx = (struct standin_ctx *)context;
	struct mlx5dv_devx_obj *obj = calloc(1, sizeof(*obj));

	if (obj == NULL)
		return NULL;
	obj->obj = emu->devx_obj_create(ctx->dev, in, inlen, out, outlen);
	if (obj->obj == NULL) {
		int err = errno;

		free(obj);
		errno = err;
		return NULL;
	}
	return obj;
}

STANDIN_EXPORT int
mlx5dv_devx_obj_modify(struct mlx5dv_devx_obj *obj, const void *in,
		       size_t inlen, void *out, size_t outlen)
{
	return dv_ret(emu->devx_obj_modify(obj->obj, in, inlen, out, outlen));
}

STANDIN_EXPORT int
mlx5dv_devx_obj_query(struct mlx5dv_devx_obj *obj, const void *in,
		      size_t inlen, void *out, size_t outlen)
{
	return dv_ret(emu->devx_obj_query(obj->obj, in, inlen, out, outlen));
}

STANDIN_EXPORT int
mlx5dv_devx_obj_destroy(struct mlx5dv_devx_obj *obj)
{
	int ret = emu->devx_obj_destroy(obj->obj);

	if (ret != 0)
		return dv_ret(ret);
	free(obj);
	return 0;
}

STANDIN_EXPORT struct mlx5dv_devx_umem *
mlx5dv_devx_umem_reg(struct ibv_context *context, void *addr, size_t size,
		     uint32_t access)
{
	struct standin_ctx *ctx = (struct standin_ctx *)context;
	struct standin_umem *umem;

	if (access & ~IBV_ACCESS_LOCAL_WRITE) {
		errno = EINVAL;
		return NULL;
	}
	umem = calloc(1, sizeof(*umem));
	if (umem == NULL)
		return NULL;
	umem->umem = emu->devx_umem_reg(ctx->dev, addr, size,
					access & IBV_ACCESS_LOCAL_WRITE ?
					MLX5_TM_ACCESS_LOCAL_WRITE : 0);
	if (umem->umem == NULL) {
		free(umem);
		return NULL;
	}
	umem->dv.umem_id = umem->umem->umem_id;
	return &umem->dv;
}

STANDIN_EXPORT int
mlx5dv_devx_umem_dereg(struct mlx5dv_devx_umem *dv)
{
	struct standin_umem *umem = (struct standin_umem *)dv;
	int ret = emu->devx_umem_dereg(umem->umem);

	if (ret != 0)
		return dv_ret(ret);
	free(umem);
	return 0;
}

STANDIN_EXPORT struct mlx5dv_devx_uar *
mlx5dv_devx_alloc_uar(struct ibv_context *context, uint32_t flags)
{
	struct standin_ctx *ctx = (struct standin_ctx *)context;
	struct standin_uar *uar;

	if (flags != MLX5DV_UAR_ALLOC_TYPE_BF &&
	    flags != MLX5DV_UAR_ALLOC_TYPE_NC) {
		errno = EINVAL;
		return NULL;
	}
	uar = calloc(1, sizeof(*uar));
	if (uar == NULL)
		return NULL;
	uar->uar = emu->devx_uar_alloc(ctx->dev);
	if (uar->uar == NULL) {
		free(uar);
		return NULL;
	}
	uar->dv.reg_addr = uar->uar->reg_addr;
	uar->dv.base_addr = uar->uar->base_addr;
	uar->dv.page_id = uar->uar->page_id;
	return &uar->dv;
}

STANDIN_EXPORT void
mlx5dv_devx_free_uar(struct mlx5dv_devx_uar *dv)
{
	struct standin_uar *uar = (struct standin_uar *)dv;

	if (uar == NULL)
		return;
	emu->devx_uar_free(uar->uar);
	free(uar);
}

STANDIN_EXPORT int
mlx5dv_devx_query_eqn(struct ibv_context *context, uint32_t vector,
		      uint32_t *eqn)
{
	struct standin_ctx *ctx = (struct standin_ctx *)context;

	return dv_ret(emu->devx_query_eqn(ctx->dev, vector, eqn));
}

STANDIN_EXPORT struct mlx5dv_pp *
mlx5dv_pp_alloc(struct ibv_context *context, size_t pp_context_sz,
		const void *pp_context, uint32_t flags)
{
	struct standin_ctx *ctx = (struct standin_ctx *)context;
	struct standin_pp *pp;

	if (flags & ~MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX) {
		errno = EINVAL;
		return NULL;
	}
	pp = calloc(1, sizeof(*pp));
	if (pp == NULL)
		return NULL;
	pp->pp = emu->pp_alloc(ctx->dev, pp_context_sz, pp_context,
			       flags & MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX ?
			       MLX5_TM_PP_FLAG_DEDICATED_INDEX : 0);
	if (pp->pp == NULL) {
		int err = errno;

		free(pp);
		errno = err;
		return NULL;
	}
	pp->dv.index = pp->pp->index;
	return &pp->dv;
}

STANDIN_EXPORT void
mlx5dv_pp_free(struct mlx5dv_pp *dv)
{
	struct standin_pp *pp = (struct standin_pp *)dv;

	if (pp == NULL)
		return;
	emu->pp_free(pp->pp);
	free(pp);
}

/* ---- the kernel: sockets, netdev ioctls, generic netlink ---- */

#define MAX_FAKE_FDS 64

/* Generic-netlink sockets handed out, with the answer each one owes. */
static struct {
	int fd;
	char answer[512];
	size_t len;
} nl_fds[MAX_FAKE_FDS];

static int (*real_socket)(int, int, int);
static int (*real_close)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static ssize_t (*real_sendto)(int, const void *, size_t, int,
			      const struct sockaddr *, socklen_t);
static ssize_t (*real_recv)(int, void *, size_t, int);

__attribute__((constructor)) static void
resolve_libc(void)
{
	real_socket = dlsym(RTLD_NEXT, "socket");
	real_close = dlsym(RTLD_NEXT, "close");
	real_ioctl = dlsym(RTLD_NEXT, "ioctl");
	real_sendto = dlsym(RTLD_NEXT, "sendto");
	real_recv = dlsym(RTLD_NEXT, "recv");
}

static int
nl_slot(int fd)
{
	int i;

	for (i = 0; i < MAX_FAKE_FDS; i++)
		if (nl_fds[i].fd == fd + 1)
			return i;
	return -1;
}

STANDIN_EXPORT int
socket(int domain, int type, int protocol)
{
	int fd, i;

	if (domain == AF_INET)
		atomic_fetch_add(&inet_sockets, 1);
	if (domain != AF_NETLINK || protocol != NETLINK_GENERIC ||
	    sysfs_root() == NULL)
		return real_socket(domain, type, protocol);
	atomic_fetch_add(&netlink_sockets, 1);
	/* A descriptor of its own, which close() releases as any other. */
	fd = real_socket(AF_UNIX, SOCK_DGRAM | (type & SOCK_CLOEXEC), 0);
	if (fd < 0)
		return fd;
	pthread_mutex_lock(&standin_lock);
	for (i = 0; i < MAX_FAKE_FDS; i++) {
		if (nl_fds[i].fd == 0) {
			nl_fds[i].fd = fd + 1;
			nl_fds[i].len = 0;
			break;
		}
	}
	pthread_mutex_unlock(&standin_lock);
	return fd;
}

STANDIN_EXPORT int
close(int fd)
{
	int i;

	pthread_mutex_lock(&standin_lock);
	i = nl_slot(fd);
	if (i >= 0)
		nl_fds[i].fd = 0;
	pthread_mutex_unlock(&standin_lock);
	return real_close(fd);
}

/* Attribute @p type of the generic-netlink request @p h, or NULL. */
static const struct nlattr *
nl_attr(const struct nlmsghdr *h, uint16_t type)
{
	const struct nlattr *a = (const void *)((const char *)NLMSG_DATA(h) +
						GENL_HDRLEN);
	int rem = (int)h->nlmsg_len - (int)NLMSG_LENGTH(GENL_HDRLEN);

	while (rem >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem) {
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		rem -= NLA_ALIGN(a->nla_len);
		a = (const void *)((const char *)a + NLA_ALIGN(a->nla_len));
	}
	return NULL;
}

/* An answer of @p type with one attribute, or an error of @p err. */
static size_t
nl_answer(char *buf, const struct nlmsghdr *req, int err, uint16_t attr,
	  const void *val, size_t len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct nlattr *a;

	memset(buf, 0, 512);
	h->nlmsg_seq = req->nlmsg_seq;
	if (err != 0) {
		struct nlmsgerr *e = NLMSG_DATA(h);

		h->nlmsg_type = NLMSG_ERROR;
		h->nlmsg_len = NLMSG_LENGTH(sizeof(*e));
		e->error = err;
		e->msg = *req;
		return h->nlmsg_len;
	}
	h->nlmsg_type = req->nlmsg_type;
	h->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	a = (struct nlattr *)((char *)h + h->nlmsg_len);
	a->nla_type = attr;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, val, len);
	h->nlmsg_len += NLA_ALIGN(a->nla_len);
	return h->nlmsg_len;
}

/* What the fake kernel answers to generic-netlink request @p h. */
static size_t
genl_answer(const struct nlmsghdr *h, char *buf)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	const char *devlink = getenv("MLX5_TM_STANDIN_DEVLINK");
	uint16_t family = STANDIN_DEVLINK_FAMILY;
	uint16_t mode;

	if (devlink == NULL)
		devlink = "legacy";
	if (h->nlmsg_type == GENL_ID_CTRL && g->cmd == CTRL_CMD_GETFAMILY) {
		const struct nlattr *a = nl_attr(h, CTRL_ATTR_FAMILY_NAME);

		if (a == NULL || strcmp((const char *)a + NLA_HDRLEN,
					DEVLINK_GENL_NAME) != 0 ||
		    strcmp(devlink, "absent") == 0)
			return nl_answer(buf, h, -ENOENT, 0, NULL, 0);
		return nl_answer(buf, h, 0, CTRL_ATTR_FAMILY_ID, &family,
				 sizeof(family));
	}
	if (h->nlmsg_type != STANDIN_DEVLINK_FAMILY ||
	    g->cmd != DEVLINK_CMD_ESWITCH_GET)
		return nl_answer(buf, h, -EOPNOTSUPP, 0, NULL, 0);
	atomic_fetch_add(&devlink_queries, 1);
	/* The kernel's answer without CAP_NET_ADMIN (GENL_ADMIN_PERM). */
	if (strcmp(devlink, "eperm") == 0)
		return nl_answer(buf, h, -EPERM, 0, NULL, 0);
	mode = strcmp(devlink, "switchdev") == 0 ?
	       DEVLINK_ESWITCH_MODE_SWITCHDEV : DEVLINK_ESWITCH_MODE_LEGACY;
	return nl_answer(buf, h, 0, DEVLINK_ATTR_ESWITCH_MODE, &mode,
			 sizeof(mode));
}

STANDIN_EXPORT ssize_t
sendto(int fd, const void *msg, size_t len, int flags,
       const struct sockaddr *to, socklen_t tolen)
{
	const struct nlmsghdr *h = msg;
	int i;

	pthread_mutex_lock(&standin_lock);
	i = nl_slot(fd);
	if (i >= 0) {
		if (len < NLMSG_LENGTH(GENL_HDRLEN) || h->nlmsg_len > len) {
			pthread_mutex_unlock(&standin_lock);
			errno = EINVAL;
			return -1;
		}
		nl_fds[i].len = genl_answer(h, nl_fds[i].answer);
	}
	pthread_mutex_unlock(&standin_lock);
	if (i >= 0)
		return (ssize_t)len;
	return real_sendto(fd, msg, len, flags, to, tolen);
}

STANDIN_EXPORT ssize_t
recv(int fd, void *buf, size_t len, int flags)
{
	ssize_t n;
	int i;

	pthread_mutex_lock(&standin_lock);
	i = nl_slot(fd);
	if (i >= 0) {
		n = (ssize_t)(nl_fds[i].len < len ? nl_fds[i].len : len);
		memcpy(buf, nl_fds[i].answer, (size_t)n);
		nl_fds[i].len = 0;
	}
	pthread_mutex_unlock(&standin_lock);
	if (i >= 0) {
		if (n == 0) {
			errno = EAGAIN;
			return -1;
		}
		return n;
	}
	return real_recv(fd, buf, len, flags);
}

/* Whether @p ifname is a netdev of the fake sysfs tree. */
static bool
fake_netdev(const char *ifname)
{
	const char *root = sysfs_root();
	char path[PATH_MAX];

	if (root == NULL || ifname[0] == '\0' || strchr(ifname, '/') != NULL)
		return false;
	snprintf(path, sizeof(path), "%s/class/net/%s", root, ifname);
	return access(path, F_OK) == 0;
}

/* ETHTOOL_GLINKSETTINGS: the size handshake, then speed and one mode. */
static int
ethtool_glinksettings(struct ifreq *ifr, const struct mlx5_tm_port_info *p)
{
	struct ethtool_link_settings *s = (void *)ifr->ifr_data;
	uint32_t *masks = (uint32_t *)(s + 1);
	const int words = 3; /* As a 6.x kernel: 96 link modes per mask. */
	int bit;

	if (s->link_mode_masks_nwords != words) {
		memset(s, 0, sizeof(*s));
		s->cmd = ETHTOOL_GLINKSETTINGS;
		s->link_mode_masks_nwords = -words;
		return 0;
	}
	s->speed = p->link_up ? p->speed_mbps : (uint32_t)SPEED_UNKNOWN;
	switch (p->max_speed_mbps) {
	case 400000: bit = ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT; break;
	case 200000: bit = ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT; break;
	case 100000: bit = ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT; break;
	case 50000: bit = ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT; break;
	case 40000: bit = ETHTOOL_LINK_MODE_40000baseCR4_Full_BIT; break;
	case 25000: bit = ETHTOOL_LINK_MODE_25000baseCR_Full_BIT; break;
	case 10000: bit = ETHTOOL_LINK_MODE_10000baseCR_Full_BIT; break;
	default: bit = -1; break;
	}
	memset(masks, 0, 3 * words * sizeof(*masks));
	if (bit >= 0)
		masks[bit / 32] |= 1u << (bit % 32);
	return 0;
}

/* A netdev ioctl on the fake netdev @p ifr: 0, or -1 with errno. */
static int
netdev_ioctl(unsigned long req, struct ifreq *ifr)
{
	static const uint8_t mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };
	struct mlx5_tm_port_info p;
	int ret = 0;

	pthread_mutex_lock(&standin_lock);
	if (current == NULL) {
		pthread_mutex_unlock(&standin_lock);
		errno = ENODEV;
		return -1;
	}
	if (req == SIOCSIFMTU) {
		ret = emu->port_set_mtu(current->dev, (uint32_t)ifr->ifr_mtu);
		pthread_mutex_unlock(&standin_lock);
		if (ret < 0) {
			errno = -ret;
			return -1;
		}
		return 0;
	}
	emu->port_query(current->dev, &p);
	pthread_mutex_unlock(&standin_lock);
	switch (req) {
	case SIOCGIFMTU:
		ifr->ifr_mtu = (int)p.mtu;
		break;
	case SIOCGIFFLAGS:
		ifr->ifr_flags = IFF_UP | IFF_BROADCAST |
				 (p.link_up ? IFF_RUNNING : 0);
		break;
	case SIOCGIFHWADDR:
		memcpy(ifr->ifr_hwaddr.sa_data, mac, sizeof(mac));
		break;
	case SIOCETHTOOL:
		if (*(uint32_t *)ifr->ifr_data != ETHTOOL_GLINKSETTINGS) {
			errno = EOPNOTSUPP;
			return -1;
		}
		return ethtool_glinksettings(ifr, &p);
	default:
		errno = ENOTTY;
		return -1;
	}
	return 0;
}

STANDIN_EXPORT int
ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	switch (req) {
	case SIOCGIFMTU:
	case SIOCSIFMTU:
	case SIOCGIFFLAGS:
	case SIOCGIFHWADDR:
	case SIOCETHTOOL:
		if (arg != NULL && fake_netdev(((struct ifreq *)arg)->ifr_name)) {
			atomic_fetch_add(&ioctls, 1);
			return netdev_ioctl(req, arg);
		}
		break;
	default:
		break;
	}
	return real_ioctl(fd, req, arg);
}
