/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The rdma glue's reading of an mlx5 netdev (mlx5_tm_netdev.c), on
 * inputs the test lays out: a sysfs tree in a directory of its own and
 * fixed devlink and ethtool answers. The E-Switch role as upstream DPDK
 * decides it (port name, devlink mode; a switch id alone proves nothing:
 * a legacy e-switch manager publishes one too) and the line rate (link
 * speed, else the fastest supported link mode). Plain C, no EAL.
 *
 * Usage: test_netdev
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/devlink.h>

#include "mlx5_tm_netdev.h"

static unsigned int passed, failed;
static bool case_failed;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("  FAIL %s:%d: ", __func__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		case_failed = true; \
	} \
} while (0)

static void
run(const char *name, void (*fn)(void))
{
	case_failed = false;
	fn();
	printf("%s %s\n", case_failed ? "FAIL" : "ok  ", name);
	if (case_failed)
		failed++;
	else
		passed++;
}

/* What the fake kernel answers. */
static struct {
	int devlink_ret;   /* 0 or -errno */
	uint16_t mode;     /* DEVLINK_ESWITCH_MODE_* */
	char pci[64];      /* the PCI address devlink was asked about */
	int ethtool_ret;
	uint32_t speed;
	uint32_t max;
} fake;

static int
fake_devlink(void *arg, const char *pci, uint16_t *mode)
{
	(void)arg;
	snprintf(fake.pci, sizeof(fake.pci), "%s", pci);
	*mode = fake.mode;
	return fake.devlink_ret;
}

static int
fake_ethtool(void *arg, const char *ifname, uint32_t *speed, uint32_t *max)
{
	(void)arg;
	(void)ifname;
	*speed = fake.speed;
	*max = fake.max;
	return fake.ethtool_ret;
}

static char root[256];
static struct mlx5_tm_netdev_env env = {
	.devlink_esw_mode = fake_devlink,
	.ethtool_speeds = fake_ethtool,
};

/* class/net/@p ifname with the attributes given (NULL: absent). */
static void
netdev(const char *ifname, const char *port_name, const char *switch_id,
       bool device_dir)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/class/net/%s'", root, ifname);
	if (system(cmd) != 0)
		CHECK(false, "%s", cmd);
	snprintf(path, sizeof(path), "%s/class/net/%s/device", root, ifname);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	if (system(cmd) != 0)
		CHECK(false, "%s", cmd);
	if (!device_dir)
		rmdir(path);
	if (port_name != NULL) {
		snprintf(path, sizeof(path), "%s/class/net/%s/phys_port_name",
			 root, ifname);
		f = fopen(path, "w");
		if (f != NULL) {
			fprintf(f, "%s\n", port_name);
			fclose(f);
		}
	}
	if (switch_id != NULL) {
		snprintf(path, sizeof(path), "%s/class/net/%s/phys_switch_id",
			 root, ifname);
		f = fopen(path, "w");
		if (f != NULL) {
			fprintf(f, "%s\n", switch_id);
			fclose(f);
		}
	}
}

static void
test_port_names(void)
{
	static const struct {
		const char *name;
		enum mlx5_tm_port_name_type type;
	} t[] = {
		{ NULL, MLX5_TM_PORT_NAME_NOTSET },
		{ "", MLX5_TM_PORT_NAME_NOTSET },
		{ "p0", MLX5_TM_PORT_NAME_UPLINK },
		{ "p1", MLX5_TM_PORT_NAME_UPLINK },
		{ "c1p0", MLX5_TM_PORT_NAME_UPLINK },
		{ "pf0", MLX5_TM_PORT_NAME_PFHPF },
		{ "pf0vf3", MLX5_TM_PORT_NAME_PFVF },
		{ "c1pf0vf2", MLX5_TM_PORT_NAME_PFVF },
		{ "pf1sf7", MLX5_TM_PORT_NAME_PFSF },
		{ "3", MLX5_TM_PORT_NAME_LEGACY },
		{ "eth0", MLX5_TM_PORT_NAME_UNKNOWN },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK(mlx5_tm_port_name_type(t[i].name) == t[i].type,
		      "'%s': type %d, %d expected", t[i].name ? t[i].name :
		      "(null)", mlx5_tm_port_name_type(t[i].name), t[i].type);
}

/*
 * A ConnectX-6 Dx/7 PF whose e-switch is in legacy mode: a switch id is
 * published (current kernels do for an e-switch manager); with devlink
 * saying legacy, or not answering (no CAP_NET_ADMIN), it probes.
 */
static void
test_legacy_pf_with_switch_id(void)
{
	static const char *const names[] = { NULL, "p0" };
	struct mlx5_tm_eswitch e;
	size_t i;

	for (i = 0; i < 2; i++) {
		netdev("enp8s0f0", names[i], "5c82b80003e7a5b8", true);
		fake.devlink_ret = 0;
		fake.mode = DEVLINK_ESWITCH_MODE_LEGACY;
		mlx5_tm_netdev_eswitch(&env, "enp8s0f0", "0000:08:00.0", 1, 0, &e);
		CHECK(!e.switchdev && !e.representor &&
		      e.mode == MLX5_TM_ESW_MODE_LEGACY &&
		      strcmp(e.switch_id, "5c82b80003e7a5b8") == 0 &&
		      strcmp(fake.pci, "0000:08:00.0") == 0,
		      "port name %s, devlink legacy: switchdev %d representor "
		      "%d mode %d", names[i] ? names[i] : "none", e.switchdev,
		      e.representor, e.mode);
		fake.devlink_ret = -EPERM;
		mlx5_tm_netdev_eswitch(&env, "enp8s0f0", "0000:08:00.0", 1, 0, &e);
		CHECK(!e.switchdev && !e.representor &&
		      e.mode == MLX5_TM_ESW_MODE_UNKNOWN,
		      "port name %s, devlink unanswered: switchdev %d",
		      names[i] ? names[i] : "none", e.switchdev);
	}
}

/* The uplink of an e-switch in switchdev mode, and representors. */
static void
test_switchdev(void)
{
	struct mlx5_tm_eswitch e;

	netdev("enp8s0f0", "p0", "5c82b80003e7a5b8", true);
	fake.devlink_ret = 0;
	fake.mode = DEVLINK_ESWITCH_MODE_SWITCHDEV;
	mlx5_tm_netdev_eswitch(&env, "enp8s0f0", "0000:08:00.0", 1, 0, &e);
	CHECK(e.switchdev && !e.representor &&
	      e.name_type == MLX5_TM_PORT_NAME_UPLINK,
	      "uplink, devlink switchdev: switchdev %d", e.switchdev);
	fake.devlink_ret = -EPERM;
	netdev("enp8s0f0v1", "pf0vf1", "5c82b80003e7a5b8", false);
	mlx5_tm_netdev_eswitch(&env, "enp8s0f0v1", "0000:08:00.0", 1, 0, &e);
	CHECK(e.switchdev && e.representor &&
	      e.name_type == MLX5_TM_PORT_NAME_PFVF,
	      "VF representor, devlink unanswered: switchdev %d "
	      "representor %d", e.switchdev, e.representor);
	netdev("eth5", "1", "5c82b80003e7a5b8", false);
	mlx5_tm_netdev_eswitch(&env, "eth5", NULL, 1, 0, &e);
	CHECK(e.representor && e.name_type == MLX5_TM_PORT_NAME_LEGACY,
	      "legacy-named, no PCI device: representor %d", e.representor);
	netdev("eth6", "1", "5c82b80003e7a5b8", true);
	mlx5_tm_netdev_eswitch(&env, "eth6", NULL, 1, 0, &e);
	CHECK(!e.representor && !e.switchdev,
	      "legacy-named with its PCI device: representor %d",
	      e.representor);
}

/*
 * Without devlink's word (EPERM), more than one IB port or representor
 * netdevs beside the uplink mean switchdev, as upstream decides it;
 * devlink's answer, where it comes, decides and a contradiction is
 * flagged.
 */
static void
test_role_without_devlink(void)
{
	struct mlx5_tm_eswitch e;

	netdev("enp8s0f0", "p0", "5c82b80003e7a5b8", true);
	fake.devlink_ret = -EPERM;
	mlx5_tm_netdev_eswitch(&env, "enp8s0f0", "0000:08:00.0", 2, 0, &e);
	CHECK(e.switchdev && !e.representor && e.devlink_err == -EPERM &&
	      e.mode == MLX5_TM_ESW_MODE_UNKNOWN && e.ib_ports == 2,
	      "2 IB ports, devlink EPERM: switchdev %d err %d",
	      e.switchdev, e.devlink_err);
	mlx5_tm_netdev_eswitch(&env, "enp8s0f0", "0000:08:00.0", 1, 3, &e);
	CHECK(e.switchdev && e.representors == 3,
	      "3 representors beside, devlink EPERM: switchdev %d",
	      e.switchdev);
	mlx5_tm_netdev_eswitch(&env, "enp8s0f0", "0000:08:00.0", 1, 0, &e);
	CHECK(!e.switchdev && e.devlink_err == -EPERM,
	      "1 IB port, no representor, devlink EPERM: switchdev %d",
	      e.switchdev);
	fake.devlink_ret = 0;
	fake.mode = DEVLINK_ESWITCH_MODE_LEGACY;
	mlx5_tm_netdev_eswitch(&env, "enp8s0f0", "0000:08:00.0", 2, 0, &e);
	CHECK(!e.switchdev && e.disagree && e.devlink_err == 0,
	      "2 IB ports, devlink legacy: switchdev %d disagree %d",
	      e.switchdev, e.disagree);
}

/* The uplink by phys_port_name p<N>, else dev_port, never readdir order. */
static void
test_uplink(void)
{
	char net[300], name[32], path[512];
	unsigned int reps;
	FILE *f;
	int ret;

	snprintf(net, sizeof(net), "%s/class/net", root);
	snprintf(path, sizeof(path), "rm -rf '%s'/class/net/*", root);
	if (system(path) != 0)
		CHECK(false, "%s", path);
	netdev("a0", "pf0vf0", "5c82b80003e7a5b8", false);
	netdev("a1", "pf0sf1", "5c82b80003e7a5b8", false);
	netdev("zz", "p0", "5c82b80003e7a5b8", true);
	ret = mlx5_tm_netdev_uplink(&env, net, name, sizeof(name), &reps);
	CHECK(ret == 0 && strcmp(name, "zz") == 0 && reps == 2,
	      "uplink among representors: %d '%s' %u", ret, name, reps);
	/* No port names at all (old kernels): the lowest dev_port. */
	snprintf(path, sizeof(path), "rm -rf '%s'/class/net/*", root);
	if (system(path) != 0)
		CHECK(false, "%s", path);
	netdev("b0", NULL, NULL, true);
	netdev("b1", NULL, NULL, true);
	snprintf(path, sizeof(path), "%s/class/net/b0/dev_port", root);
	f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f, "1\n");
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/class/net/b1/dev_port", root);
	f = fopen(path, "w");
	if (f != NULL) {
		fprintf(f, "0\n");
		fclose(f);
	}
	ret = mlx5_tm_netdev_uplink(&env, net, name, sizeof(name), &reps);
	CHECK(ret == 0 && strcmp(name, "b1") == 0 && reps == 0,
	      "no port names: lowest dev_port: %d '%s'", ret, name);
	snprintf(path, sizeof(path), "rm -rf '%s'/class/net/*", root);
	if (system(path) != 0)
		CHECK(false, "%s", path);
	netdev("c0", "pf0vf0", NULL, false);
	ret = mlx5_tm_netdev_uplink(&env, net, name, sizeof(name), &reps);
	CHECK(ret == -ENODEV && reps == 1, "only a representor: %d", ret);
	CHECK(mlx5_tm_netdev_uplink(&env, "/nonexistent/net", name,
				    sizeof(name), &reps) == -ENOENT,
	      "no net directory");
	CHECK(mlx5_tm_netdev_ib_ports("/nonexistent/ports") == 0,
	      "no ports directory: 0");
	CHECK(mlx5_tm_netdev_ib_ports(net) == 1, "one entry: 1 port");
}

/* Link speed, else the fastest supported mode while down, else 0. */
static void
test_line_rate(void)
{
	fake.ethtool_ret = 0;
	fake.speed = 25000;
	fake.max = 100000;
	CHECK(mlx5_tm_netdev_line_rate(&env, "enp8s0f0") == 25000,
	      "link up at 25G");
	fake.speed = 0;
	CHECK(mlx5_tm_netdev_line_rate(&env, "enp8s0f0") == 100000,
	      "link down: the fastest supported mode");
	fake.ethtool_ret = -EOPNOTSUPP;
	CHECK(mlx5_tm_netdev_line_rate(&env, "enp8s0f0") == 0,
	      "no ethtool answer: unknown");
}

/* The kernel's own answers run (an error for what does not exist). */
static void
test_os(void)
{
	const struct mlx5_tm_netdev_env *os = &mlx5_tm_netdev_env_os;
	uint32_t speed = 1, max = 1;
	uint16_t mode;
	int ret;

	ret = os->devlink_esw_mode(os->arg, "0000:ff:1f.7", &mode);
	CHECK(ret < 0, "devlink of a PCI address that does not exist: %d",
	      ret);
	ret = os->ethtool_speeds(os->arg, "mlx5tm-none0", &speed, &max);
	CHECK(ret < 0 && speed == 0 && max == 0,
	      "ethtool of a netdev that does not exist: %d", ret);
}

int
main(void)
{
	char cmd[300];

	snprintf(root, sizeof(root), "%s/mlx5tm-sysfs-XXXXXX",
		 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(root) == NULL) {
		printf("no directory\n0 passed, 1 failed\n");
		return 1;
	}
	env.sysfs = root;
	run("phys_port_name forms, as upstream's mlx5_translate_port_name()",
	    test_port_names);
	run("legacy PF with a switch id: not switchdev (probes)",
	    test_legacy_pf_with_switch_id);
	run("switchdev by devlink; representors by their names",
	    test_switchdev);
	run("role without devlink: IB ports and representors; devlink decides",
	    test_role_without_devlink);
	run("uplink by phys_port_name, else dev_port; representors counted",
	    test_uplink);
	run("line rate: link speed, else the fastest supported mode",
	    test_line_rate);
	run("the kernel's devlink and ethtool answer", test_os);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		printf("could not remove %s\n", root);
	printf("%u passed, %u failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
