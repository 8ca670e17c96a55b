/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef MLX5_TM_NETDEV_H
#define MLX5_TM_NETDEV_H

/**
 * @file
 * What the kernel says about the netdev of an mlx5 port, for the rdma
 * glue: which netdev of the PCI function is the uplink, its E-Switch
 * role, decided as upstream DPDK mlx5 decides it (the IB device's port
 * count; since v21.08, commit 6b157f3bfa, "fix switchdev mode
 * recognition", the port name, not the mere presence of a switch id,
 * which current kernels publish for an e-switch manager in legacy mode
 * too) with the devlink e-switch mode where it answers, and its line
 * rate (the link speed, or the fastest link mode it supports while the
 * link is down, as upstream's speed capabilities).
 *
 * Every input comes through struct mlx5_tm_netdev_env: the sysfs root
 * and the answers of devlink and ethtool, so that tests give their own
 * (a directory tree, fixed answers); mlx5_tm_netdev_env_os is the
 * kernel's.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Form of a netdev's phys_port_name (upstream mlx5_translate_port_name). */
enum mlx5_tm_port_name_type {
	MLX5_TM_PORT_NAME_NOTSET,  /**< None published. */
	MLX5_TM_PORT_NAME_LEGACY,  /**< A number: old kernels' names. */
	MLX5_TM_PORT_NAME_UPLINK,  /**< "p0" ("c1p0"): the uplink. */
	MLX5_TM_PORT_NAME_PFHPF,   /**< "pf0": host PF representor (BF). */
	MLX5_TM_PORT_NAME_PFVF,    /**< "pf0vf1": VF representor. */
	MLX5_TM_PORT_NAME_PFSF,    /**< "pf0sf1": SF representor. */
	MLX5_TM_PORT_NAME_UNKNOWN, /**< Anything else. */
};

/** devlink e-switch mode (DEVLINK_ESWITCH_MODE_*), or unknown. */
enum mlx5_tm_esw_mode {
	MLX5_TM_ESW_MODE_UNKNOWN = -1, /**< No answer (no devlink, no right). */
	MLX5_TM_ESW_MODE_LEGACY = 0,
	MLX5_TM_ESW_MODE_SWITCHDEV = 1,
};

/** Where the glue reads the kernel. */
struct mlx5_tm_netdev_env {
	/** Root of sysfs: "/sys" (class/net/<ifname>/...). */
	const char *sysfs;
	/**
	 * DEVLINK_CMD_ESWITCH_GET of pci/@p pci: 0 with the mode
	 * (DEVLINK_ESWITCH_MODE_*) in @p mode, or a negative errno.
	 */
	int (*devlink_esw_mode)(void *arg, const char *pci, uint16_t *mode);
	/**
	 * ETHTOOL_GLINKSETTINGS of @p ifname: 0 with the link speed in
	 * @p speed (Mbit/s, 0 unknown) and the fastest supported link mode
	 * in @p max (0 unknown), or a negative errno.
	 */
	int (*ethtool_speeds)(void *arg, const char *ifname, uint32_t *speed,
			      uint32_t *max);
	void *arg;
};

/** The kernel's: /sys, generic netlink (devlink), SIOCETHTOOL. */
extern const struct mlx5_tm_netdev_env mlx5_tm_netdev_env_os;

/** The E-Switch role of a netdev. */
struct mlx5_tm_eswitch {
	enum mlx5_tm_port_name_type name_type;
	char port_name[32];       /**< phys_port_name, "" when none. */
	char switch_id[40];       /**< phys_switch_id, "" when none. */
	enum mlx5_tm_esw_mode mode; /**< devlink's answer. */
	/** Why devlink gave none: 0, or its negative errno (-EPERM, ...). */
	int devlink_err;
	unsigned int ib_ports;     /**< IB ports of the device (0 unknown). */
	unsigned int representors; /**< Representor netdevs beside it. */
	/** A representor netdev (VF, SF, host PF; legacy-named, no device). */
	bool representor;
	/** The e-switch is in switchdev mode (see mlx5_tm_netdev_eswitch()). */
	bool switchdev;
	/** devlink's mode contradicts the IB ports and netdevs. */
	bool disagree;
};

/** The form of port name @p name (NULL or "": not set). */
enum mlx5_tm_port_name_type mlx5_tm_port_name_type(const char *name);

/**
 * The uplink netdev among the entries of @p net_dir (a PCI function's
 * net/ directory, where VF representors sit too in switchdev mode): the
 * one whose phys_port_name is an uplink's ("p<N>"), else the one with no
 * representor name; the lowest dev_port, then the smallest name, among
 * several. Never the first directory entry as such.
 *
 * @param representors
 *   Set to the number of representor netdevs (pf<N>vf<M>, pf<N>sf<M>,
 *   pf<N>) found beside it.
 * @return
 *   0 with the name in @p buf, or a negative errno (-ENODEV: none).
 */
int mlx5_tm_netdev_uplink(const struct mlx5_tm_netdev_env *env,
			  const char *net_dir, char *buf, size_t len,
			  unsigned int *representors);

/**
 * The number of IB ports of an IB device: the entries of @p ports_dir
 * (its sysfs ports/ directory, one per port as the RDMA netlink's
 * RDMA_NLDEV_ATTR_PORT_INDEX counts them); 0 when it cannot be read.
 */
unsigned int mlx5_tm_netdev_ib_ports(const char *ports_dir);

/**
 * The E-Switch role of netdev @p ifname of PCI function @p pci, decided
 * once, at probe, as upstream DPDK mlx5 decides it: more than one IB
 * port on the device (the kernel gives the uplink's IB device a port per
 * representor in switchdev mode), representor netdevs beside the uplink,
 * or a representor's own port name mean switchdev. devlink's mode,
 * where it can be had, confirms and decides (a contradiction is flagged
 * in @p esw->disagree); where it cannot (DEVLINK_CMD_ESWITCH_GET needs
 * CAP_NET_ADMIN in the initial user namespace and the devlink instance's
 * network namespace), its error is kept in @p esw->devlink_err for the
 * caller's warning and the role rests on the rest.
 *
 * @param ib_ports
 *   mlx5_tm_netdev_ib_ports() of the device (0 unknown).
 * @param representors
 *   Representor netdevs beside @p ifname (mlx5_tm_netdev_uplink()).
 */
void mlx5_tm_netdev_eswitch(const struct mlx5_tm_netdev_env *env,
			    const char *ifname, const char *pci,
			    unsigned int ib_ports, unsigned int representors,
			    struct mlx5_tm_eswitch *esw);

/**
 * The line rate of netdev @p ifname in Mbit/s: its link speed, else
 * (link down: speed unknown) the fastest link mode it supports; 0 when
 * neither is known.
 */
uint32_t mlx5_tm_netdev_line_rate(const struct mlx5_tm_netdev_env *env,
				  const char *ifname);

#endif /* MLX5_TM_NETDEV_H */
