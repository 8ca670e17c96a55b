/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The netdev of an mlx5 port as the kernel shows it (mlx5_tm_netdev.h):
 * E-Switch role and line rate, from sysfs, devlink (generic netlink) and
 * ethtool, each reached through an environment that tests replace.
 */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <net/if.h>
#include <linux/devlink.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/sockios.h>

#include "mlx5_tm_netdev.h"

/* ---- decisions ---- */

enum mlx5_tm_port_name_type
mlx5_tm_port_name_type(const char *name)
{
	char c1, c2, v1, v2, eol;
	int ctrl, pf, n, used = 0;
	char *end;
	long num;

	if (name == NULL || name[0] == '\0')
		return MLX5_TM_PORT_NAME_NOTSET;
	/* A controller prefix ("c1") first, as upstream skips it. */
	if (sscanf(name, "c%d%n", &ctrl, &used) == 1 && used > 0 &&
	    name[used] == 'p')
		name += used;
	if (sscanf(name, "%c%c%d%c%c%d%c", &c1, &c2, &pf, &v1, &v2, &n,
		   &eol) == 6 && c1 == 'p' && c2 == 'f') {
		if (v1 == 'v' && v2 == 'f')
			return MLX5_TM_PORT_NAME_PFVF;
		if (v1 == 's' && v2 == 'f')
			return MLX5_TM_PORT_NAME_PFSF;
	}
	if (sscanf(name, "%c%d%c", &c1, &n, &eol) == 2 && c1 == 'p')
		return MLX5_TM_PORT_NAME_UPLINK;
	if (sscanf(name, "%c%c%d%c", &c1, &c2, &pf, &eol) == 3 &&
	    c1 == 'p' && c2 == 'f')
		return MLX5_TM_PORT_NAME_PFHPF;
	errno = 0;
	num = strtol(name, &end, 0);
	(void)num;
	if (errno == 0 && end != name && *end == '\0')
		return MLX5_TM_PORT_NAME_LEGACY;
	return MLX5_TM_PORT_NAME_UNKNOWN;
}

/* The first line of sysfs file class/net/@p ifname/@p attr, or "". */
static void
sysfs_line(const struct mlx5_tm_netdev_env *env, const char *ifname,
	   const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	char *nl;

	buf[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/class/net/%s/%s", env->sysfs,
		     ifname, attr) >= (int)sizeof(path))
		return;
	f = fopen(path, "r");
	if (f == NULL)
		return;
	if (fgets(buf, (int)len, f) == NULL)
		buf[0] = '\0';
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl != NULL)
		*nl = '\0';
}

/* Whether class/net/@p ifname/device exists (a PCI function's netdev). */
static bool
has_device_dir(const struct mlx5_tm_netdev_env *env, const char *ifname)
{
	char path[PATH_MAX];
	struct stat st;

	return snprintf(path, sizeof(path), "%s/class/net/%s/device",
			env->sysfs, ifname) < (int)sizeof(path) &&
	       stat(path, &st) == 0;
}

static bool
is_representor_name(enum mlx5_tm_port_name_type t)
{
	return t == MLX5_TM_PORT_NAME_PFHPF || t == MLX5_TM_PORT_NAME_PFVF ||
	       t == MLX5_TM_PORT_NAME_PFSF;
}

/* class/net/@p ifname/dev_port, or UINT32_MAX when it has none. */
static uint32_t
dev_port_of(const struct mlx5_tm_netdev_env *env, const char *ifname)
{
	char buf[32];
	char *end;
	unsigned long v;

	sysfs_line(env, ifname, "dev_port", buf, sizeof(buf));
	errno = 0;
	v = strtoul(buf, &end, 0);
	if (buf[0] == '\0' || *end != '\0' || errno != 0 || v >= UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)v;
}

/* Rank of a candidate uplink: lower is better; -1 for a representor. */
static int
uplink_rank(enum mlx5_tm_port_name_type t)
{
	if (t == MLX5_TM_PORT_NAME_UPLINK)
		return 0;
	if (is_representor_name(t))
		return -1;
	return 1;
}

int
mlx5_tm_netdev_uplink(const struct mlx5_tm_netdev_env *env,
		      const char *net_dir, char *buf, size_t len,
		      unsigned int *representors)
{
	char best[NAME_MAX + 1] = "";
	uint32_t best_port = UINT32_MAX;
	int best_rank = INT_MAX;
	struct dirent *e;
	DIR *d;

	*representors = 0;
	d = opendir(net_dir);
	if (d == NULL)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		char name[32];
		uint32_t port;
		int rank;

		if (e->d_name[0] == '.')
			continue;
		sysfs_line(env, e->d_name, "phys_port_name", name,
			   sizeof(name));
		rank = uplink_rank(mlx5_tm_port_name_type(name));
		if (rank < 0) {
			(*representors)++;
			continue;
		}
		port = dev_port_of(env, e->d_name);
		if (rank < best_rank ||
		    (rank == best_rank && (port < best_port ||
		     (port == best_port && strcmp(e->d_name, best) < 0)))) {
			best_rank = rank;
			best_port = port;
			snprintf(best, sizeof(best), "%s", e->d_name);
		}
	}
	closedir(d);
	if (best[0] == '\0')
		return -ENODEV;
	if (snprintf(buf, len, "%s", best) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

unsigned int
mlx5_tm_netdev_ib_ports(const char *ports_dir)
{
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	d = opendir(ports_dir);
	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

void
mlx5_tm_netdev_eswitch(const struct mlx5_tm_netdev_env *env,
		       const char *ifname, const char *pci,
		       unsigned int ib_ports, unsigned int representors,
		       struct mlx5_tm_eswitch *esw)
{
	uint16_t mode;
	bool seen;
	int ret;

	memset(esw, 0, sizeof(*esw));
	esw->mode = MLX5_TM_ESW_MODE_UNKNOWN;
	esw->ib_ports = ib_ports;
	esw->representors = representors;
	sysfs_line(env, ifname, "phys_port_name", esw->port_name,
		   sizeof(esw->port_name));
	sysfs_line(env, ifname, "phys_switch_id", esw->switch_id,
		   sizeof(esw->switch_id));
	esw->name_type = mlx5_tm_port_name_type(esw->port_name);
	/* Upstream's mlx5_sysfs_check_switch_info(), for a switch id. */
	if (is_representor_name(esw->name_type))
		esw->representor = true;
	else if (esw->name_type == MLX5_TM_PORT_NAME_LEGACY)
		esw->representor = esw->switch_id[0] != '\0' &&
				   !has_device_dir(env, ifname);
	/*
	 * What needs no privilege: a switch id alone says nothing (a legacy
	 * e-switch manager has one); representors, as netdevs or as IB
	 * ports of the uplink's device, exist only in switchdev mode.
	 */
	seen = esw->representor || ib_ports > 1 || representors > 0;
	esw->switchdev = seen;
	if (pci == NULL || env->devlink_esw_mode == NULL)
		return;
	ret = env->devlink_esw_mode(env->arg, pci, &mode);
	if (ret < 0) {
		esw->devlink_err = ret;
		return;
	}
	esw->mode = mode == DEVLINK_ESWITCH_MODE_SWITCHDEV ?
		    MLX5_TM_ESW_MODE_SWITCHDEV : MLX5_TM_ESW_MODE_LEGACY;
	/* devlink's word is the kernel's own: it decides. */
	esw->switchdev = esw->mode == MLX5_TM_ESW_MODE_SWITCHDEV ||
			 esw->representor;
	esw->disagree = esw->switchdev != seen;
}

uint32_t
mlx5_tm_netdev_line_rate(const struct mlx5_tm_netdev_env *env,
			 const char *ifname)
{
	uint32_t speed = 0, max = 0;

	if (env->ethtool_speeds == NULL ||
	    env->ethtool_speeds(env->arg, ifname, &speed, &max) != 0)
		return 0;
	return speed != 0 ? speed : max;
}

/* ---- the kernel's answers ---- */

/* Append attribute @p type of @p len bytes to the message @p nlh. */
static void
nl_put(struct nlmsghdr *nlh, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)nlh +
					     NLMSG_ALIGN(nlh->nlmsg_len));

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)a + NLA_HDRLEN, data, len);
	nlh->nlmsg_len = NLMSG_ALIGN(nlh->nlmsg_len) + NLA_ALIGN(a->nla_len);
}

/*
 * Send the generic-netlink request @p req and find attribute @p want of
 * the answer into @p val (@p len bytes). 0, or a negative errno.
 */
static int
genl_ask(int fd, struct nlmsghdr *req, uint16_t want, void *val, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	union {
		struct nlmsghdr h;
		char buf[8192];
	} ans;
	struct nlmsghdr *h = &ans.h;
	struct nlattr *a;
	ssize_t n;
	int rem;

	if (sendto(fd, req, req->nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	n = recv(fd, ans.buf, sizeof(ans.buf), 0);
	if (n < 0)
		return -errno;
	if (!NLMSG_OK(h, (unsigned int)n))
		return -EBADMSG;
	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(h);

		return e->error != 0 ? e->error : -ENOENT;
	}
	a = (struct nlattr *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
	rem = (int)h->nlmsg_len - (int)NLMSG_LENGTH(GENL_HDRLEN);
	while (rem >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem) {
		if ((a->nla_type & NLA_TYPE_MASK) == want &&
		    (size_t)(a->nla_len - NLA_HDRLEN) >= len) {
			memcpy(val, (char *)a + NLA_HDRLEN, len);
			return 0;
		}
		rem -= NLA_ALIGN(a->nla_len);
		a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
	}
	return -ENOENT;
}

/* A generic-netlink request of @p family, command @p cmd, into @p buf. */
static struct nlmsghdr *
genl_req(void *buf, uint16_t family, uint8_t cmd)
{
	struct nlmsghdr *nlh = buf;
	struct genlmsghdr *g = NLMSG_DATA(nlh);

	memset(buf, 0, NLMSG_LENGTH(GENL_HDRLEN));
	nlh->nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

/* DEVLINK_CMD_ESWITCH_GET on pci/@p pci (needs CAP_NET_ADMIN). */
static int
os_devlink_esw_mode(void *arg, const char *pci, uint16_t *mode)
{
	union {
		struct nlmsghdr h;
		char buf[512];
	} req;
	uint16_t family;
	int fd, ret;

	(void)arg;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	genl_req(req.buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	nl_put(&req.h, CTRL_ATTR_FAMILY_NAME, DEVLINK_GENL_NAME,
	       sizeof(DEVLINK_GENL_NAME));
	ret = genl_ask(fd, &req.h, CTRL_ATTR_FAMILY_ID, &family,
		       sizeof(family));
	if (ret == 0) {
		genl_req(req.buf, family, DEVLINK_CMD_ESWITCH_GET);
		nl_put(&req.h, DEVLINK_ATTR_BUS_NAME, "pci", sizeof("pci"));
		nl_put(&req.h, DEVLINK_ATTR_DEV_NAME, pci, strlen(pci) + 1);
		ret = genl_ask(fd, &req.h, DEVLINK_ATTR_ESWITCH_MODE, mode,
			       sizeof(*mode));
	}
	close(fd);
	return ret;
}

/* Link mode bits of 1 Gbit/s and more, with their speed (Mbit/s). */
static const struct {
	uint16_t bit;
	uint32_t mbps;
} link_modes[] = {
	{ ETHTOOL_LINK_MODE_1000baseT_Full_BIT, 1000 },
	{ ETHTOOL_LINK_MODE_1000baseKX_Full_BIT, 1000 },
	{ ETHTOOL_LINK_MODE_1000baseX_Full_BIT, 1000 },
	{ ETHTOOL_LINK_MODE_10000baseT_Full_BIT, 10000 },
	{ ETHTOOL_LINK_MODE_10000baseKX4_Full_BIT, 10000 },
	{ ETHTOOL_LINK_MODE_10000baseKR_Full_BIT, 10000 },
	{ ETHTOOL_LINK_MODE_10000baseCR_Full_BIT, 10000 },
	{ ETHTOOL_LINK_MODE_10000baseSR_Full_BIT, 10000 },
	{ ETHTOOL_LINK_MODE_10000baseLR_Full_BIT, 10000 },
	{ ETHTOOL_LINK_MODE_25000baseCR_Full_BIT, 25000 },
	{ ETHTOOL_LINK_MODE_25000baseKR_Full_BIT, 25000 },
	{ ETHTOOL_LINK_MODE_25000baseSR_Full_BIT, 25000 },
	{ ETHTOOL_LINK_MODE_40000baseKR4_Full_BIT, 40000 },
	{ ETHTOOL_LINK_MODE_40000baseCR4_Full_BIT, 40000 },
	{ ETHTOOL_LINK_MODE_40000baseSR4_Full_BIT, 40000 },
	{ ETHTOOL_LINK_MODE_40000baseLR4_Full_BIT, 40000 },
	{ ETHTOOL_LINK_MODE_50000baseCR2_Full_BIT, 50000 },
	{ ETHTOOL_LINK_MODE_50000baseKR2_Full_BIT, 50000 },
	{ ETHTOOL_LINK_MODE_50000baseSR2_Full_BIT, 50000 },
	{ ETHTOOL_LINK_MODE_50000baseKR_Full_BIT, 50000 },
	{ ETHTOOL_LINK_MODE_50000baseSR_Full_BIT, 50000 },
	{ ETHTOOL_LINK_MODE_50000baseCR_Full_BIT, 50000 },
	{ ETHTOOL_LINK_MODE_56000baseKR4_Full_BIT, 56000 },
	{ ETHTOOL_LINK_MODE_56000baseCR4_Full_BIT, 56000 },
	{ ETHTOOL_LINK_MODE_100000baseKR4_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseSR4_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseLR4_ER4_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseKR2_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseSR2_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseCR2_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseKR_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseSR_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_100000baseCR_Full_BIT, 100000 },
	{ ETHTOOL_LINK_MODE_200000baseKR4_Full_BIT, 200000 },
	{ ETHTOOL_LINK_MODE_200000baseSR4_Full_BIT, 200000 },
	{ ETHTOOL_LINK_MODE_200000baseCR4_Full_BIT, 200000 },
	{ ETHTOOL_LINK_MODE_200000baseKR2_Full_BIT, 200000 },
	{ ETHTOOL_LINK_MODE_200000baseSR2_Full_BIT, 200000 },
	{ ETHTOOL_LINK_MODE_200000baseCR2_Full_BIT, 200000 },
	{ ETHTOOL_LINK_MODE_400000baseKR8_Full_BIT, 400000 },
	{ ETHTOOL_LINK_MODE_400000baseSR8_Full_BIT, 400000 },
	{ ETHTOOL_LINK_MODE_400000baseCR8_Full_BIT, 400000 },
	{ ETHTOOL_LINK_MODE_400000baseKR4_Full_BIT, 400000 },
	{ ETHTOOL_LINK_MODE_400000baseSR4_Full_BIT, 400000 },
	{ ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT, 400000 },
};

/* Words of one link-mode mask the kernel may use. */
#define LINK_MODE_WORDS 8

/*
 * ETHTOOL_GLINKSETTINGS with the mask-size handshake (as upstream's
 * mlx5_link_update_unlocked_gs()): the speed, and the fastest supported
 * mode from the supported mask (the first of the three masks).
 */
static int
os_ethtool_speeds(void *arg, const char *ifname, uint32_t *speed,
		  uint32_t *max)
{
	struct {
		struct ethtool_link_settings s;
		uint32_t masks[3 * LINK_MODE_WORDS];
	} ls;
	struct ifreq ifr;
	int fd, ret = 0;
	int8_t nwords;
	size_t i;

	(void)arg;
	*speed = 0;
	*max = 0;
	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	memset(&ls, 0, sizeof(ls));
	ls.s.cmd = ETHTOOL_GLINKSETTINGS;
	ifr.ifr_data = (void *)&ls;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
		ret = -errno;
		goto out;
	}
	nwords = (int8_t)-ls.s.link_mode_masks_nwords;
	if (nwords <= 0 || nwords > LINK_MODE_WORDS) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	memset(&ls, 0, sizeof(ls));
	ls.s.cmd = ETHTOOL_GLINKSETTINGS;
	ls.s.link_mode_masks_nwords = nwords;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
		ret = -errno;
		goto out;
	}
	if (ls.s.speed != 0 && ls.s.speed != (uint32_t)SPEED_UNKNOWN)
		*speed = ls.s.speed;
	for (i = 0; i < sizeof(link_modes) / sizeof(link_modes[0]); i++) {
		uint16_t b = link_modes[i].bit;

		if (b / 32 < (unsigned int)nwords &&
		    (ls.masks[b / 32] >> (b % 32) & 1) &&
		    link_modes[i].mbps > *max)
			*max = link_modes[i].mbps;
	}
out:
	close(fd);
	return ret;
}

const struct mlx5_tm_netdev_env mlx5_tm_netdev_env_os = {
	.sysfs = "/sys",
	.devlink_esw_mode = os_devlink_esw_mode,
	.ethtool_speeds = os_ethtool_speeds,
};
