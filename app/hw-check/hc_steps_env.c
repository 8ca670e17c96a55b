/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Steps about the setting: the environment (device, netdev, link,
 * permissions), the MTU, the e-switch mode, and the capabilities beside
 * the emulated profiles with the devargs that make the model match.
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_ethdev.h>

#include "mlx5_emu.h"
#include "hc.h"

/* Capability bits of /proc/self/status CapEff. */
#define HC_CAP_NET_ADMIN 12
#define HC_CAP_NET_RAW 13
#define HC_CAP_SYS_RAWIO 17

/* The value of key @p key in devargs @p args into @p buf ("" if none). */
static void
devarg(const char *args, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);
	const char *p = args;

	buf[0] = '\0';
	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, n) == 0 && p[n] == '=') {
			const char *end = strchr(p + n + 1, ',');
			size_t l = end ? (size_t)(end - p - n - 1) :
					 strlen(p + n + 1);

			if (l >= len)
				l = len - 1;
			memcpy(buf, p + n + 1, l);
			buf[l] = '\0';
			return;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
}

/* The netdev of a real device (ibdev name or PCI address) from sysfs. */
static bool
find_netdev(const char *dev, char *ifname, size_t len)
{
	char path[256];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/device/net",
		 dev);
	d = opendir(path);
	if (d == NULL) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/net",
			 dev);
		d = opendir(path);
	}
	if (d == NULL)
		return false;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		strncpy(ifname, e->d_name, len - 1);
		ifname[len - 1] = '\0';
		closedir(d);
		return true;
	}
	closedir(d);
	return false;
}

/* First line of file @p path into @p buf; false when unreadable. */
static bool
read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (f == NULL)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* Effective capabilities of the process (CapEff), 0 when unknown. */
static uint64_t
cap_eff(void)
{
	char line[256];
	uint64_t v = 0;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "CapEff:", 7) == 0)
			v = strtoull(line + 7, NULL, 16);
	fclose(f);
	return v;
}

static void
step_environment(struct hc *hc)
{
	char dev[128], ifname[64] = "", path[160], val[64];
	struct rte_eth_link link;
	uint64_t caps = cap_eff();
	bool root = geteuid() == 0;

	hc_step_begin(hc, "environment", "device, netdev, link and "
		      "permissions");
	hc_evj_bool(hc, "emulated", hc->info.emulated);
	hc_evj_str(hc, "device", hc->info.device);
	hc_ev(hc, "device %s (%s)", hc->info.device,
	      hc->info.emulated ? "emulated ConnectX: the device model" :
	      "real NIC through rdma-core DEVX");
	devarg(hc->vdev_args, "dev", dev, sizeof(dev));
	if (!hc->info.emulated && find_netdev(dev, ifname, sizeof(ifname))) {
		hc_ev(hc, "netdev %s", ifname);
		snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", ifname);
		if (read_line(path, val, sizeof(val)))
			hc_ev(hc, "netdev MTU %s (sysfs)", val);
		snprintf(path, sizeof(path), "/sys/class/net/%s/operstate",
			 ifname);
		if (read_line(path, val, sizeof(val)))
			hc_ev(hc, "netdev operstate %s (sysfs)", val);
	} else if (!hc->info.emulated) {
		hc_ev(hc, "netdev: none found under /sys/class/infiniband/%s "
		      "or /sys/bus/pci/devices/%s", dev, dev);
	} else {
		hc_ev(hc, "netdev: none (emulated device)");
	}
	hc_evj_str(hc, "netdev", ifname);
	memset(&link, 0, sizeof(link));
	if (hc_port_setup(hc, 1, 256) == 0 && hc_port_start(hc) == 0 &&
	    rte_eth_link_get_nowait(hc->port_id, &link) == 0) {
		hc_ev(hc, "link %s, %u Mbit/s (port started, "
		      "rte_eth_link_get_nowait)",
		      link.link_status ? "up" : "down", link.link_speed);
		hc_evj_bool(hc, "link_up", link.link_status);
		hc_evj_u64(hc, "link_speed_mbps", link.link_speed);
	}
	hc_ev(hc, "user id %u%s; CapEff 0x%" PRIx64 " (NET_RAW %s, "
	      "SYS_RAWIO %s, NET_ADMIN %s)", (unsigned int)geteuid(),
	      root ? " (root)" : "", caps,
	      caps >> HC_CAP_NET_RAW & 1 ? "yes" : "no",
	      caps >> HC_CAP_SYS_RAWIO & 1 ? "yes" : "no",
	      caps >> HC_CAP_NET_ADMIN & 1 ? "yes" : "no");
	hc_evj_bool(hc, "root", root);
	hc_evj_u64(hc, "cap_eff", caps);
	if (!hc->started) {
		hc_step_end(hc, HC_FAIL, "the port does not start: see the "
			    "driver's messages above");
		return;
	}
	if (!hc->info.emulated && !root &&
	    !(caps >> HC_CAP_NET_RAW & 1 && caps >> HC_CAP_SYS_RAWIO & 1))
		hc_ev(hc, "note: rdma-core asks for root or CAP_NET_RAW and "
		      "CAP_SYS_RAWIO; the port opened, so these sufficed");
	hc_step_end(hc, HC_PASS, NULL);
}

/*
 * The MTU the NIC's port holds: the netdev's (sysfs) on hardware, the
 * model's port on the device model; 0 when it cannot be read.
 */
static uint32_t
port_mtu(struct hc *hc)
{
	char dev[128], ifname[64], path[160], val[32];

	if (hc->emu != NULL)
		return mlx5_emu_mtu(hc->emu);
	devarg(hc->vdev_args, "dev", dev, sizeof(dev));
	if (!find_netdev(dev, ifname, sizeof(ifname)))
		return 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", ifname);
	return read_line(path, val, sizeof(val)) ? (uint32_t)atoi(val) : 0;
}

/*
 * A different MTU set (SIOCSIFMTU on the netdev: the port's MTU changes)
 * and read back from the NIC's side, then the first one restored.
 */
static void
step_mtu(struct hc *hc)
{
	uint16_t mtu = 0, other, after = 0;
	uint32_t nic_other, nic_back;
	int ret;

	hc_step_begin(hc, "mtu", "another MTU set through "
		      "rte_eth_dev_set_mtu, seen on the NIC's port, then the "
		      "first restored");
	ret = rte_eth_dev_get_mtu(hc->port_id, &mtu);
	hc_ev(hc, "rte_eth_dev_get_mtu: %u (%s)", mtu,
	      ret == 0 ? "ok" : strerror(-ret));
	hc_evj_u64(hc, "mtu", mtu);
	/* 100 bytes less (more for a small MTU): a real change. */
	other = mtu > 1280 ? mtu - 100 : mtu + 100;
	ret = rte_eth_dev_set_mtu(hc->port_id, other);
	hc_ev(hc, "rte_eth_dev_set_mtu(%u): %s", other,
	      ret == 0 ? "ok" : strerror(-ret));
	hc_evj_num(hc, "set_mtu_ret", ret);
	if (ret == -ENOTSUP) {
		hc->mtu_supported = false;
		hc_step_end(hc, HC_SKIP, "not supported by this driver build "
			    "(the PMD has no mtu_set: the MTU the NIC "
			    "enforces is unknown to it)");
		return;
	}
	if (ret != 0) {
		hc_step_end(hc, HC_FAIL, "rte_eth_dev_set_mtu(%u) failed: %s%s",
			    other, strerror(-ret), ret == -EPERM ||
			    ret == -EACCES ? " (setting the netdev MTU needs "
			    "CAP_NET_ADMIN)" : "");
		return;
	}
	rte_eth_dev_get_mtu(hc->port_id, &after);
	nic_other = port_mtu(hc);
	ret = rte_eth_dev_set_mtu(hc->port_id, mtu);
	nic_back = port_mtu(hc);
	hc_ev(hc, "the NIC's port: MTU %u after setting %u, %u after "
	      "restoring %u%s", nic_other, other, nic_back, mtu,
	      hc->emu != NULL ? " (the device model's port)" :
	      " (the netdev, sysfs)");
	hc_evj_u64(hc, "mtu_set", other);
	hc_evj_u64(hc, "mtu_after", after);
	hc_evj_u64(hc, "port_mtu_after", nic_other);
	hc_evj_u64(hc, "port_mtu_restored", nic_back);
	if (after != other || ret != 0) {
		hc_step_end(hc, HC_FAIL, "MTU %u set, %u read back; restore: "
			    "%s", other, after, strerror(-ret));
		return;
	}
	if (nic_other != other || nic_back != mtu) {
		hc_step_end(hc, HC_FAIL, "the NIC's port holds MTU %u after "
			    "%u was set and %u after %u was restored: the "
			    "MTU does not reach the port (SIOCSIFMTU)",
			    nic_other, other, nic_back, mtu);
		return;
	}
	hc->mtu_supported = true;
	hc->mtu = mtu;
	hc_step_end(hc, HC_PASS, NULL);
}

/* The e-switch mode in words. */
static const char *
esw_mode_name(int8_t mode)
{
	return mode == 0 ? "legacy" : mode == 1 ? "switchdev" :
	       "unknown (devlink gave no answer)";
}

/*
 * The e-switch role the PMD read, as upstream DPDK decides it: the
 * devlink e-switch mode, the netdev's phys_port_name (a representor's
 * name) and phys_switch_id (published in legacy mode too: no proof of
 * switchdev). On the device model, ports in switchdev mode and
 * representors are refused at probe.
 */
static void
step_eswitch(struct hc *hc)
{
	static const char *const refused[] = {
		"eswitch=switchdev", "eswitch=representor",
	};
	char err[256];
	struct mlx5_emu_config cfg;
	unsigned int i;
	bool ok = true;
	int ret;

	hc_step_begin(hc, "eswitch", "the e-switch mode (devlink), port name "
		      "and switch id, and whether the PMD reaches the wire");
	hc_ev(hc, "devlink e-switch mode %s; phys_port_name '%s'; "
	      "phys_switch_id '%s'", esw_mode_name(hc->info.esw_mode),
	      hc->info.phys_port_name, hc->info.phys_switch_id);
	hc_evj_str(hc, "esw_mode", esw_mode_name(hc->info.esw_mode));
	hc_evj_str(hc, "phys_port_name", hc->info.phys_port_name);
	hc_evj_str(hc, "phys_switch_id", hc->info.phys_switch_id);
	/* A build that knows switchdev has the model knob for it. */
	mlx5_emu_config_init(&cfg, "cx6dx");
	if (mlx5_emu_config_set(&cfg, "eswitch", "representor", err,
				sizeof(err)) != 0) {
		hc_step_end(hc, HC_SKIP, "not supported by this driver build "
			    "(the PMD does not tell representors apart)");
		return;
	}
	if (!hc->info.emulated) {
		/* The port opened: the PMD found it no representor and
		 * its e-switch not in switchdev mode. */
		hc_ev(hc, "the PMD accepted the port%s", hc->info.
		      phys_switch_id[0] != '\0' ? " although it has a switch "
		      "id (an e-switch manager in legacy mode has one)" : "");
		if (hc->info.esw_mode == 1)
			hc_step_end(hc, HC_FAIL, "devlink says switchdev but "
				    "the PMD took the port: its frames would "
				    "not reach the wire");
		else if (hc->info.esw_mode != 0)
			/* Taken as legacy from its IB ports: not proven. */
			hc_step_end(hc, HC_SKIP, "mode unknown: devlink needs "
				    "CAP_NET_ADMIN in the initial user "
				    "namespace and the device's network "
				    "namespace (or the kernel has no devlink); "
				    "run the check with them to confirm the "
				    "mode");
		else
			hc_step_end(hc, HC_PASS, NULL);
		return;
	}
	for (i = 0; i < RTE_DIM(refused); i++) {
		char why[512];

		/* The refusal's message is evidence, not an alarm. */
		hc_log_start(hc);
		ret = hc_port_open(hc, refused[i]);
		hc_log_stop(hc, why, sizeof(why));
		hc_ev(hc, "a port with %s: %s%s%s", refused[i],
		      ret == 0 ? "probed" : "refused at probe",
		      why[0] != '\0' ? ": " : "", why);
		if (ret == 0) {
			hc_port_close(hc);
			ok = false;
		}
	}
	hc_evj_bool(hc, "switchdev_refused", ok);
	if (!ok) {
		hc_step_end(hc, HC_FAIL, "the PMD took a port whose frames "
			    "would not reach the wire (switchdev, or a "
			    "representor)");
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

/* One capability: this device's value, a profile's, and its devarg. */
struct cap_row {
	const char *name;
	const char *devarg;     /* NULL: not a device-model option */
	uint64_t nic;
	bool compare;           /* false: not comparable on this device */
	const char *const *names; /* the devarg's value names, or NULL */
};

/* cap_sq_ts_format takes names. */
static const char *const ts_format_names[] = { "free_run", "rt", "both" };

/* log2 of @p v, rounded down; 0 for 0. */
static uint64_t
log2_floor(uint64_t v)
{
	return v == 0 ? 0 : 63 - (uint64_t)__builtin_clzll(v);
}

/* The profile's value of row @p i (same order as fill_rows). */
static uint64_t
profile_value(const struct mlx5_emu_caps *c, unsigned int i)
{
	const uint64_t v[] = {
		c->packet_pacing, c->pp_burst_bound, c->pp_typical_size,
		c->wqe_rate_pp, c->pp_min_rate_kbps, c->pp_max_rate_kbps,
		c->pp_table_size, c->log_max_wq_sz, c->log_max_cq_sz,
		c->wqe_inline_mode, c->vport_inline_mode, c->line_rate_mbps,
		c->log_max_sq, c->log_max_cq, c->packet_pacing_uid,
		c->sq_ts_format, c->sched.nic_sq_scheduling,
		c->sched.nic_bw_share, c->sched.nic_rate_limit,
		c->sched.max_tsar_bw_share, c->sched.log_max_queue_group,
		c->sched.log_max_elements, log2_floor(c->sched.max_depth),
		c->sched.nic_element_type, c->sched.nic_tsar_type,
		c->sched_elem_obj,
	};

	return i < RTE_DIM(v) ? v[i] : 0;
}

#define HC_NB_CAP_ROWS 26

static void
fill_rows(const struct rte_pmd_mlx5_tm_dev_info *d, struct cap_row *r)
{
	const struct cap_row rows[HC_NB_CAP_ROWS] = {
		{ "packet_pacing", "cap_packet_pacing", d->packet_pacing,
		  true },
		{ "packet_pacing_burst_bound", "cap_pp_burst_bound",
		  d->pp_burst_bound, true },
		{ "packet_pacing_typical_size", "cap_pp_typical_size",
		  d->pp_typical_size, true },
		{ "wqe_rate_pp", "cap_wqe_rate_pp", d->wqe_rate_pp, true },
		{ "packet_pacing_min_rate (kbps)", "cap_pp_min_rate",
		  d->pp_min_rate_kbps, true },
		{ "packet_pacing_max_rate (kbps)", "cap_pp_max_rate",
		  d->pp_max_rate_kbps, true },
		{ "packet_pacing_rate_table_size", "cap_pp_table_size",
		  d->pp_table_size, true },
		{ "log_max_wq_sz", "cap_log_max_wq_sz", d->log_max_wq_sz,
		  true },
		{ "log_max_cq_sz", "cap_log_max_cq_sz", d->log_max_cq_sz,
		  true },
		{ "wqe_inline_mode", "cap_inline_mode", d->wqe_inline_mode,
		  true },
		/* The vport's mode matters only when the WQE mode defers. */
		{ "vport min_wqe_inline_mode", "cap_vport_inline_mode",
		  d->min_inline_mode, d->wqe_inline_mode == 1 },
		/* Hardware: the PMD does not know the speed (0). */
		{ "line rate (Mbit/s)", "line_rate", d->line_rate_mbps,
		  d->line_rate_mbps != 0 },
		{ "log_max_sq", NULL, d->log_max_sq, true },
		{ "log_max_cq", NULL, d->log_max_cq, true },
		{ "packet_pacing_uid", "cap_packet_pacing_uid",
		  d->packet_pacing_uid, true },
		{ "sq_ts_format", "cap_sq_ts_format", d->sq_ts_format,
		  d->sq_ts_format < RTE_DIM(ts_format_names),
		  ts_format_names },
		{ "nic_sq_scheduling", "cap_nic_sq_scheduling",
		  d->nic_sq_scheduling, true },
		{ "nic_bw_share", "cap_nic_bw_share", d->nic_bw_share, true },
		{ "nic_rate_limit", "cap_nic_rate_limit", d->nic_rate_limit,
		  true },
		{ "max_tsar_bw_share", "cap_max_tsar_bw_share",
		  d->max_tsar_bw_share, d->max_tsar_bw_share != 0 },
		{ "log_max_qos_nic_queue_group",
		  "cap_log_max_qos_nic_queue_group",
		  d->log_max_qos_nic_queue_group, true },
		{ "log_max_qos_nic_scheduling_element",
		  "cap_log_max_qos_nic_sched_elem",
		  d->log_max_qos_nic_scheduling_element, true },
		/* The model takes a depth, the cap its log2. */
		{ "log_nic_max_sched_depth", NULL,
		  d->log_nic_max_sched_depth, true },
		{ "nic_element_type", "cap_nic_element_type",
		  d->nic_element_type, true },
		{ "nic_tsar_type", "cap_nic_tsar_type", d->nic_tsar_type,
		  true },
		/* general_obj_types bit 0x26: elements as general objects. */
		{ "general_obj_types.sched_elem", "cap_sched_elem_obj",
		  (d->general_obj_types >> 0x26) & 1, true },
	};

	memcpy(r, rows, sizeof(rows));
}

static void
step_capabilities(struct hc *hc)
{
	struct mlx5_emu_caps pc[8], check;
	struct mlx5_emu_config cfg;
	struct cap_row rows[HC_NB_CAP_ROWS];
	char line[1024], suggest[512], err[256];
	unsigned int np = 0, best = 0, best_diff = UINT32_MAX, i, k;
	bool reproduces = true;
	int n;

	hc_step_begin(hc, "capabilities", "the device's capabilities beside "
		      "the emulated profiles, and devargs to match them");
	fill_rows(&hc->info, rows);
	for (k = 0; mlx5_emu_profile_names[k] != NULL && np < RTE_DIM(pc);
	     k++) {
		if (mlx5_emu_config_init(&cfg, mlx5_emu_profile_names[k]) ||
		    mlx5_emu_config_caps(&cfg, &pc[np]) != 0)
			continue;
		np++;
	}
	n = snprintf(line, sizeof(line), "%-34s %12s", "capability",
		     "this device");
	for (k = 0; k < np; k++)
		n += snprintf(line + n, sizeof(line) - n, " %12s",
			      pc[k].profile);
	hc_ev(hc, "%s", line);
	for (i = 0; i < HC_NB_CAP_ROWS; i++) {
		n = snprintf(line, sizeof(line), "%-34s %12" PRIu64,
			     rows[i].name, rows[i].nic);
		for (k = 0; k < np; k++)
			n += snprintf(line + n, sizeof(line) - n,
				      " %11" PRIu64 "%s",
				      profile_value(&pc[k], i),
				      rows[i].compare &&
				      profile_value(&pc[k], i) != rows[i].nic ?
				      "*" : " ");
		hc_ev(hc, "%s", line);
		hc_evj_u64(hc, rows[i].name, rows[i].nic);
	}
	hc_ev(hc, "(* differs from this device); not modelled: "
	      "csum %s, VLAN insertion %s, device_frequency_khz %u",
	      hc->info.csum_cap ? "yes" : "no",
	      hc->info.vlan_cap ? "yes" : "no",
	      hc->info.device_frequency_khz);
	hc_evj_u64(hc, "device_frequency_khz", hc->info.device_frequency_khz);
	/* The closest profile: fewest differences a devarg must fix. */
	for (k = 0; k < np; k++) {
		unsigned int diff = 0;

		for (i = 0; i < HC_NB_CAP_ROWS; i++)
			diff += rows[i].compare && rows[i].devarg != NULL &&
				profile_value(&pc[k], i) != rows[i].nic;
		if (diff < best_diff) {
			best_diff = diff;
			best = k;
		}
	}
	if (np == 0) {
		hc_step_end(hc, HC_FAIL, "no emulated profile to compare with");
		return;
	}
	n = snprintf(suggest, sizeof(suggest), "emu=%s", pc[best].profile);
	for (i = 0; i < HC_NB_CAP_ROWS; i++) {
		if (!rows[i].compare || rows[i].devarg == NULL ||
		    profile_value(&pc[best], i) == rows[i].nic)
			continue;
		if (rows[i].names != NULL)
			n += snprintf(suggest + n, sizeof(suggest) - n,
				      ",%s=%s", rows[i].devarg,
				      rows[i].names[rows[i].nic]);
		else
			n += snprintf(suggest + n, sizeof(suggest) - n,
				      ",%s=%" PRIu64, rows[i].devarg,
				      rows[i].nic);
	}
	hc_ev(hc, "closest profile %s (%u differences); device model "
	      "matching this device: %s", pc[best].profile, best_diff,
	      suggest);
	hc_evj_str(hc, "closest_profile", pc[best].profile);
	hc_evj_str(hc, "suggested_devargs", suggest);
	/* The suggestion, read back by the model, must give these caps. */
	mlx5_emu_config_init(&cfg, pc[best].profile);
	for (i = 0; i < HC_NB_CAP_ROWS; i++) {
		char v[24];

		if (!rows[i].compare || rows[i].devarg == NULL ||
		    profile_value(&pc[best], i) == rows[i].nic)
			continue;
		if (rows[i].names != NULL)
			snprintf(v, sizeof(v), "%s", rows[i].names[rows[i].nic]);
		else
			snprintf(v, sizeof(v), "%" PRIu64, rows[i].nic);
		if (mlx5_emu_config_set(&cfg, rows[i].devarg, v, err,
					sizeof(err)) != 0) {
			hc_ev(hc, "the model refuses %s=%s: %s",
			      rows[i].devarg, v, err);
			reproduces = false;
		}
	}
	if (reproduces && mlx5_emu_config_caps(&cfg, &check) == 0) {
		for (i = 0; i < HC_NB_CAP_ROWS; i++)
			if (rows[i].compare && rows[i].devarg != NULL &&
			    profile_value(&check, i) != rows[i].nic) {
				hc_ev(hc, "the suggestion gives %s %" PRIu64
				      ", this device %" PRIu64, rows[i].name,
				      profile_value(&check, i), rows[i].nic);
				reproduces = false;
			}
	} else {
		reproduces = false;
	}
	hc_evj_bool(hc, "suggestion_reproduces", reproduces);
	if (!reproduces) {
		hc_step_end(hc, HC_FAIL, "the device model cannot be set to "
			    "this device's capabilities (see the evidence)");
		return;
	}
	if (!hc->info.packet_pacing) {
		hc_step_end(hc, HC_FAIL, "the device reports no packet pacing: "
			    "the PMD cannot shape its queues");
		return;
	}
	hc_step_end(hc, HC_PASS, NULL);
}

void
hc_steps_env(struct hc *hc)
{
	step_environment(hc);
	step_mtu(hc);
	step_eswitch(hc);
	step_capabilities(hc);
}
