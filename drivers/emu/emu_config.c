/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Device-model devargs: parsing into struct mlx5_emu_config. */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "emu_internal.h"
#include "emu_sched.h"

const char *const mlx5_emu_config_keys[] = {
	"clock",
	"pcap",
	"cap_packet_pacing",
	"cap_pp_min_rate",
	"cap_pp_max_rate",
	"cap_pp_table_size",
	"cap_pp_burst_bound",
	"cap_pp_typical_size",
	"cap_wqe_rate_pp",
	"line_rate",
	"link_max_speed",
	"pci_device_id",
	"mtu_set",
	"cap_log_max_wq_sz",
	"cap_log_max_cq_sz",
	"cap_inline_mode",
	"cap_vport_inline_mode",
	"cap_vport_inline",
	"cap_empw",
	"cap_mpw",
	"lag_threshold_us",
	"fault_cmd",
	"fault_pp_alloc",
	"fault_wqe",
	"cpus",
	"cap_nic_sq_scheduling",
	"cap_nic_bw_share",
	"cap_nic_rate_limit",
	"cap_nic_element_type",
	"cap_nic_tsar_type",
	"cap_max_tsar_bw_share",
	"cap_log_max_qos_nic_queue_group",
	"cap_log_max_qos_nic_sched_elem",
	"cap_sched_max_depth",
	"sched_unattached",
	"sched_zero_bw_share",
	"sched_sq_pp_and_group",
	"sched_root_values",
	"sched_id_base",
	"sched_create_sq_group",
	"sched_modify_sq_group",
	"cap_sq_ts_format",
	"cap_packet_pacing_uid",
	"cap_sched_elem_obj",
	"mtu",
	"link",
	"eswitch",
	"pp_foreign",
	"rst2rdy_pp",
	"sq_reset_keeps_qos",
	NULL,
};

int
mlx5_emu_config_init(struct mlx5_emu_config *cfg, const char *profile)
{
	if (cfg == NULL)
		return -EINVAL;
	memset(cfg, 0, sizeof(*cfg));
	if (!emu_profile_known(profile))
		return -EINVAL;
	snprintf(cfg->profile, sizeof(cfg->profile), "%s", profile);
	cfg->clock = MLX5_EMU_CLOCK_REALTIME;
	cfg->packet_pacing = -1;
	cfg->pp_min_rate_kbps = -1;
	cfg->pp_max_rate_kbps = -1;
	cfg->pp_table_size = -1;
	cfg->pp_burst_bound = -1;
	cfg->pp_typical_size = -1;
	cfg->wqe_rate_pp = -1;
	cfg->line_rate_mbps = -1;
	cfg->link_max_speed_mbps = -1;
	cfg->pci_device_id = -1;
	cfg->log_max_wq_sz = -1;
	cfg->log_max_cq_sz = -1;
	cfg->wqe_inline_mode = -1;
	cfg->vport_inline_mode = -1;
	cfg->empw = -1;
	cfg->mpw = -1;
	cfg->lag_threshold_us = -1;
	emu_sched_config_init(cfg);
	cfg->sq_ts_format = -1;
	cfg->packet_pacing_uid = -1;
	cfg->sched_elem_obj = -1;
	cfg->mtu = 1500;
	cfg->link_up = 1;
	cfg->eswitch_switchdev = 0;
	cfg->pp_foreign = 0;
	cfg->rst2rdy_pp_ignore = 0;
	cfg->sq_reset_keeps_qos = 1;
	cfg->mtu_set_ignore = 0;
	return 0;
}

static int
emu_cfg_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* An unsigned decimal (or 0x hex) integer within [min, max]. */
static bool
emu_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (s == NULL || *s == '\0' || *s == '-' || *s == '+')
		return false;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0' || x < min || x > max)
		return false;
	*v = x;
	return true;
}

/* A line rate: MBPS, or a number with suffix M or G (25G, 400G). */
static bool
emu_parse_rate_mbps(const char *s, uint64_t *mbps)
{
	char buf[32];
	size_t n;
	uint64_t mult = 1;

	if (s == NULL)
		return false;
	n = strlen(s);
	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == 'G' || buf[n - 1] == 'g') {
		mult = 1000;
		buf[n - 1] = '\0';
	} else if (buf[n - 1] == 'M' || buf[n - 1] == 'm') {
		buf[n - 1] = '\0';
	}
	if (!emu_parse_u64(buf, 1, UINT32_MAX / mult, mbps))
		return false;
	*mbps *= mult;
	return true;
}

/* A command status by number or by name (bad_param, bad_res, ...). */
static bool
emu_parse_status(const char *s, uint8_t *status)
{
	static const struct {
		const char *name;
		uint8_t status;
	} names[] = {
		{ "int_err", MLX5_CMD_STAT_INT_ERR },
		{ "bad_op", MLX5_CMD_STAT_BAD_OP_ERR },
		{ "bad_param", MLX5_CMD_STAT_BAD_PARAM_ERR },
		{ "bad_sys_state", MLX5_CMD_STAT_BAD_SYS_STATE_ERR },
		{ "bad_res", MLX5_CMD_STAT_BAD_RES_ERR },
		{ "res_busy", MLX5_CMD_STAT_RES_BUSY },
		{ "lim", MLX5_CMD_STAT_LIM_ERR },
		{ "bad_res_state", MLX5_CMD_STAT_BAD_RES_STATE_ERR },
		{ "no_res", MLX5_CMD_STAT_NO_RES_ERR },
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcasecmp(s, names[i].name) == 0) {
			*status = names[i].status;
			return true;
		}
	}
	if (!emu_parse_u64(s, 1, 0xff, &v))
		return false;
	*status = (uint8_t)v;
	return true;
}

/* Split "a:b:c" in place into at most @p max fields. */
static unsigned int
emu_split(char *s, char **fields, unsigned int max)
{
	unsigned int n = 0;

	while (n < max) {
		fields[n++] = s;
		s = strchr(s, ':');
		if (s == NULL)
			return n;
		*s++ = '\0';
	}
	return n + 1; /* too many */
}

static int
emu_cfg_fault_cmd(struct mlx5_emu_config *cfg, const char *value,
		  char *err, size_t errlen)
{
	char buf[64];
	char *f[4];
	unsigned int n;
	uint64_t nth, synd = MLX5_EMU_SYND_INJECTED;
	uint16_t opcode;
	uint8_t status;

	if (strlen(value) >= sizeof(buf))
		goto bad;
	strcpy(buf, value);
	n = emu_split(buf, f, 4);
	if (n < 3 || n > 4)
		goto bad;
	if (emu_fw_opcode_parse(f[0], &opcode) < 0 ||
	    !emu_parse_u64(f[1], 1, UINT32_MAX, &nth) ||
	    !emu_parse_status(f[2], &status) ||
	    (n == 4 && !emu_parse_u64(f[3], 0, UINT32_MAX, &synd)))
		goto bad;
	cfg->fault_cmd.opcode = opcode;
	cfg->fault_cmd.nth = (uint32_t)nth;
	cfg->fault_cmd.status = status;
	cfg->fault_cmd.syndrome = (uint32_t)synd;
	return 0;
bad:
	return emu_cfg_error(err, errlen,
		"fault_cmd='%s': expected OPCODE:NTH:STATUS[:SYNDROME], "
		"OPCODE a number (0x905) or a name (MODIFY_SQ), NTH >= 1, "
		"STATUS a number or bad_param|bad_res|bad_res_state|bad_op|"
		"int_err|res_busy|lim|no_res|bad_sys_state", value);
}

static int
emu_cfg_fault_pp(struct mlx5_emu_config *cfg, const char *value,
		 char *err, size_t errlen)
{
	char buf[64];
	char *f[2];
	unsigned int n;
	uint64_t nth;
	int e;

	if (strlen(value) >= sizeof(buf))
		goto bad;
	strcpy(buf, value);
	n = emu_split(buf, f, 2);
	if (n != 2 || !emu_parse_u64(f[0], 1, UINT32_MAX, &nth))
		goto bad;
	if (strcasecmp(f[1], "ENOSPC") == 0)
		e = ENOSPC;
	else if (strcasecmp(f[1], "EIO") == 0)
		e = EIO;
	else
		goto bad;
	cfg->fault_pp.nth = (uint32_t)nth;
	cfg->fault_pp.err = e;
	return 0;
bad:
	return emu_cfg_error(err, errlen,
		"fault_pp_alloc='%s': expected NTH:ENOSPC or NTH:EIO "
		"(NTH >= 1)", value);
}

static int
emu_cfg_fault_wqe(struct mlx5_emu_config *cfg, const char *value,
		  char *err, size_t errlen)
{
	char buf[64];
	char *f[2];
	unsigned int n;
	uint64_t nth, synd = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;

	if (strlen(value) >= sizeof(buf))
		goto bad;
	strcpy(buf, value);
	n = emu_split(buf, f, 2);
	if (n < 1 || n > 2 || !emu_parse_u64(f[0], 1, UINT32_MAX, &nth) ||
	    (n == 2 && !emu_parse_u64(f[1], 1, 0xff, &synd)))
		goto bad;
	cfg->fault_wqe.sqn = 0;
	cfg->fault_wqe.nth = (uint32_t)nth;
	cfg->fault_wqe.syndrome = (uint8_t)synd;
	return 0;
bad:
	return emu_cfg_error(err, errlen,
		"fault_wqe='%s': expected NTH[:SYNDROME] (NTH >= 1, "
		"SYNDROME 1..255, default 4 local protection)", value);
}

int
emu_parse_cpus(const char *s, cpu_set_t *set)
{
	char buf[64];
	char *tok, *save = NULL;
	int n = 0;

	if (s == NULL || *s == '\0' || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	CPU_ZERO(set);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint64_t lo, hi, c;

		if (dash != NULL)
			*dash = '\0';
		if (!emu_parse_u64(tok, 0, CPU_SETSIZE - 1, &lo))
			return -EINVAL;
		hi = lo;
		if (dash != NULL &&
		    (!emu_parse_u64(dash + 1, lo, CPU_SETSIZE - 1, &hi)))
			return -EINVAL;
		for (c = lo; c <= hi; c++)
			CPU_SET(c, set);
		n++;
	}
	return n > 0 ? 0 : -EINVAL;
}

/*
 * The CPUs online, as a set and as the kernel writes the list ("0-3,6"):
 * /sys/devices/system/cpu/online, else 0 .. _SC_NPROCESSORS_ONLN - 1.
 */
void
emu_cpus_online(cpu_set_t *set, char *list, size_t len)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	long n, c;

	if (f != NULL) {
		if (fgets(list, (int)len, f) != NULL) {
			list[strcspn(list, "\n")] = '\0';
			if (emu_parse_cpus(list, set) == 0) {
				fclose(f);
				return;
			}
		}
		fclose(f);
	}
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	CPU_ZERO(set);
	for (c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET(c, set);
	snprintf(list, len, n > 1 ? "0-%ld" : "0", n - 1);
}

/* Keys taking an integer in [min, max] into an int64_t field. */
struct emu_int_key {
	const char *key;
	size_t off;
	uint64_t min;
	uint64_t max;
	const char *accepted;
};

#define EMU_KEY(k, field, mn, mx, acc) \
	{ k, offsetof(struct mlx5_emu_config, field), mn, mx, acc }

static const struct emu_int_key emu_int_keys[] = {
	EMU_KEY("cap_packet_pacing", packet_pacing, 0, 1, "0 or 1"),
	EMU_KEY("cap_pp_min_rate", pp_min_rate_kbps, 1, UINT32_MAX,
		"a rate in kbps, 1..4294967295"),
	EMU_KEY("cap_pp_max_rate", pp_max_rate_kbps, 1, UINT32_MAX,
		"a rate in kbps, 1..4294967295"),
	EMU_KEY("cap_pp_table_size", pp_table_size, 1, UINT16_MAX,
		"a number of entries, 1..65535"),
	EMU_KEY("cap_pp_burst_bound", pp_burst_bound, 0, 1, "0 or 1"),
	EMU_KEY("cap_pp_typical_size", pp_typical_size, 0, 1, "0 or 1"),
	EMU_KEY("cap_wqe_rate_pp", wqe_rate_pp, 0, 1, "0 or 1"),
	EMU_KEY("cap_log_max_wq_sz", log_max_wq_sz, 1, 16, "1..16"),
	EMU_KEY("cap_log_max_cq_sz", log_max_cq_sz, 1, 24, "1..24"),
	EMU_KEY("cap_inline_mode", wqe_inline_mode, 0, 2,
		"0 (L2), 1 (vport context) or 2 (not required)"),
	EMU_KEY("cap_vport_inline_mode", vport_inline_mode, 0, 3,
		"0 (none), 1 (L2), 2 (IP) or 3 (TCP/UDP)"),
	EMU_KEY("cap_empw", empw, 0, 1, "0 or 1"),
	EMU_KEY("cap_mpw", mpw, 0, 3, "0..3"),
	EMU_KEY("lag_threshold_us", lag_threshold_us, 1, 60000000,
		"microseconds, 1..60000000"),
	EMU_KEY("cap_packet_pacing_uid", packet_pacing_uid, 0, 1, "0 or 1"),
	EMU_KEY("cap_sched_elem_obj", sched_elem_obj, 0, 1, "0 or 1"),
	EMU_KEY("pci_device_id", pci_device_id, 0, UINT16_MAX,
		"a PCI device id, 0..0xffff (0xa2d2: BlueField)"),
	EMU_KEY("mtu", mtu, EMU_MIN_MTU, EMU_MAX_MTU,
		"a netdev MTU in bytes, 68..9960"),
	EMU_KEY("pp_foreign", pp_foreign, 0, UINT16_MAX,
		"a number of rate-table entries, 0..65535"),
	EMU_KEY("sq_reset_keeps_qos", sq_reset_keeps_qos, 0, 1, "0 or 1"),
};

/* Keys taking one of a few names into an int64_t field (index = value). */
struct emu_name_key {
	const char *key;
	size_t off;
	const char *names[4];
};

#define EMU_NAMES(k, field, ...) \
	{ k, offsetof(struct mlx5_emu_config, field), { __VA_ARGS__ } }

static const struct emu_name_key emu_name_keys[] = {
	EMU_NAMES("cap_sq_ts_format", sq_ts_format, "free_run", "rt", "both"),
	EMU_NAMES("link", link_up, "down", "up"),
	EMU_NAMES("eswitch", eswitch_switchdev, "legacy", "switchdev",
		  "representor"),
	EMU_NAMES("rst2rdy_pp", rst2rdy_pp_ignore, "apply", "ignore"),
	EMU_NAMES("mtu_set", mtu_set_ignore, "apply", "ignore"),
};

/*
 * Set speed key @p key (line_rate, link_max_speed) to Mb/s from @p value;
 * "unknown" (0) too where @p unknown_ok.
 */
static int
emu_cfg_speed(const char *key, const char *value, bool unknown_ok,
	      int64_t *mbps, char *err, size_t errlen)
{
	uint64_t v;

	if (unknown_ok && strcmp(value, "unknown") == 0) {
		*mbps = 0;
		return 0;
	}
	if (!emu_parse_rate_mbps(value, &v))
		return emu_cfg_error(err, errlen, "%s='%s': expected Mb/s "
			"(100000) or a number with suffix M or G (25G, 400G), "
			"above 0%s", key, value,
			unknown_ok ? ", or unknown" : "");
	*mbps = (int64_t)v;
	return 0;
}

/* Set a named-value key; -ENOENT when @p key is not one. */
static int
emu_cfg_name(struct mlx5_emu_config *cfg, const char *key, const char *value,
	     char *err, size_t errlen)
{
	size_t i, j;

	for (i = 0; i < sizeof(emu_name_keys) / sizeof(emu_name_keys[0]); i++) {
		const struct emu_name_key *k = &emu_name_keys[i];
		char list[64] = "";

		if (strcmp(key, k->key) != 0)
			continue;
		for (j = 0; j < 4 && k->names[j] != NULL; j++) {
			if (strcmp(value, k->names[j]) == 0) {
				*(int64_t *)((uint8_t *)cfg + k->off) =
					(int64_t)j;
				return 0;
			}
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", j > 0 ? ", " : "", k->names[j]);
		}
		return emu_cfg_error(err, errlen,
			"%s='%s': accepted values are %s", key, value, list);
	}
	return -ENOENT;
}

int
mlx5_emu_config_set(struct mlx5_emu_config *cfg, const char *key,
		    const char *value, char *err, size_t errlen)
{
	uint64_t v;
	size_t i;
	int ret;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (cfg == NULL || key == NULL)
		return -EINVAL;
	if (value == NULL)
		value = "";
	if (strcmp(key, "clock") == 0) {
		if (strcmp(value, "realtime") == 0)
			cfg->clock = MLX5_EMU_CLOCK_REALTIME;
		else if (strcmp(value, "virtual") == 0)
			cfg->clock = MLX5_EMU_CLOCK_VIRTUAL;
		else
			return emu_cfg_error(err, errlen,
				"clock='%s': accepted values are realtime, "
				"virtual", value);
		return 0;
	}
	if (strcmp(key, "pcap") == 0) {
		if (value[0] == '\0' || strlen(value) >= sizeof(cfg->pcap_path))
			return emu_cfg_error(err, errlen,
				"pcap='%s': expected a file path of 1..%zu "
				"characters", value,
				sizeof(cfg->pcap_path) - 1);
		snprintf(cfg->pcap_path, sizeof(cfg->pcap_path), "%s", value);
		return 0;
	}
	if (strcmp(key, "line_rate") == 0)
		return emu_cfg_speed(key, value, false, &cfg->line_rate_mbps,
				     err, errlen);
	/* A port that reports no link mode: 0, unknown. */
	if (strcmp(key, "link_max_speed") == 0)
		return emu_cfg_speed(key, value, true,
				     &cfg->link_max_speed_mbps, err, errlen);
	if (strcmp(key, "cpus") == 0) {
		cpu_set_t set;

		if (strlen(value) >= sizeof(cfg->cpus) ||
		    emu_parse_cpus(value, &set) < 0)
			return emu_cfg_error(err, errlen,
				"cpus='%s': expected a CPU list such as 1 or "
				"0-3,6 (CPUs 0..%d)", value, CPU_SETSIZE - 1);
		/* A CPU that is not online would only fail at open. */
		{
			cpu_set_t online, both;
			char list[256];

			emu_cpus_online(&online, list, sizeof(list));
			CPU_AND(&both, &set, &online);
			if (!CPU_EQUAL(&both, &set))
				return emu_cfg_error(err, errlen,
					"cpus='%s': not every CPU of the list "
					"is online; online CPUs: %s", value,
					list);
		}
		snprintf(cfg->cpus, sizeof(cfg->cpus), "%s", value);
		return 0;
	}
	if (strcmp(key, "cap_vport_inline") == 0) {
		static const char *const names[] = {
			"none", "l2", "ip", "tcp_udp",
		};

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strcmp(value, names[i]) == 0) {
				cfg->vport_inline_mode = (int64_t)i;
				return 0;
			}
		return emu_cfg_error(err, errlen,
			"cap_vport_inline='%s': accepted values are none, l2, "
			"ip, tcp_udp", value);
	}
	ret = emu_cfg_name(cfg, key, value, err, errlen);
	if (ret != -ENOENT)
		return ret;
	if (strcmp(key, "fault_cmd") == 0)
		return emu_cfg_fault_cmd(cfg, value, err, errlen);
	if (strcmp(key, "fault_pp_alloc") == 0)
		return emu_cfg_fault_pp(cfg, value, err, errlen);
	if (strcmp(key, "fault_wqe") == 0)
		return emu_cfg_fault_wqe(cfg, value, err, errlen);
	for (i = 0; i < sizeof(emu_int_keys) / sizeof(emu_int_keys[0]); i++) {
		const struct emu_int_key *k = &emu_int_keys[i];

		if (strcmp(key, k->key) != 0)
			continue;
		if (!emu_parse_u64(value, k->min, k->max, &v))
			return emu_cfg_error(err, errlen,
				"%s='%s': accepted values are %s", key, value,
				k->accepted);
		*(int64_t *)((uint8_t *)cfg + k->off) = (int64_t)v;
		return 0;
	}
	return emu_sched_config_set(cfg, key, value, err, errlen);
}
