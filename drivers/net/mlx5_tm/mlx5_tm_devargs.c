/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_kvargs.h>

#include "mlx5_tm_devargs.h"
#include "pacing_shaper.h"

#define KEY_DEV "dev"
#define KEY_EMU "emu"
#define KEY_BURST_BOUND "tx_burst_bound"
#define KEY_TYPICAL_SZ "tx_typical_pkt_sz"
#define KEY_PACING_INDEX "pacing_index"
#define KEY_TOLERANCE "rate_tolerance_ppm"
#define KEY_RX_PORT "rx_port"
#define KEY_MPW "txq_mpw_en"

static const char *const pmd_keys[] = {
	KEY_DEV, KEY_EMU, KEY_BURST_BOUND, KEY_TYPICAL_SZ, KEY_PACING_INDEX,
	KEY_TOLERANCE, KEY_RX_PORT, KEY_MPW, NULL,
};

/*
 * "dev, emu, ..., <device-model keys>" into @p buf: the model's keys come
 * from the loaded model (@p emu_keys), which dev= never loads.
 */
static void
list_keys(char *buf, size_t len, const char *const *emu_keys)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; pmd_keys[i] != NULL && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s",
				i ? ", " : "", pmd_keys[i]);
	if (emu_keys == NULL && off < len)
		snprintf(buf + off, len - off,
			 "; a device-model option needs emu=cx5|cx6dx|cx7, not dev=");
	for (i = 0; emu_keys != NULL && emu_keys[i] != NULL && off < len; i++)
		off += snprintf(buf + off, len - off, ", %s", emu_keys[i]);
}

static bool
is_pmd_key(const char *key)
{
	unsigned int i;

	for (i = 0; pmd_keys[i] != NULL; i++)
		if (strcmp(key, pmd_keys[i]) == 0)
			return true;
	return false;
}

static bool
is_emu_key(const char *const *emu_keys, const char *key)
{
	unsigned int i;

	for (i = 0; emu_keys != NULL && emu_keys[i] != NULL; i++)
		if (strcmp(key, emu_keys[i]) == 0)
			return true;
	return false;
}

/* The value of the device key (dev= or emu=) in @p kv, NULL if none. */
static const char *
find_value(const struct rte_kvargs *kv, const char *key)
{
	unsigned int i;

	for (i = 0; kv != NULL && i < kv->count; i++)
		if (strcmp(kv->pairs[i].key, key) == 0)
			return kv->pairs[i].value;
	return NULL;
}

/* A decimal integer in [min, max], nothing else. */
static int
parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int
parse_pmd_key(struct mlx5_tm_devargs *da, const char *key, const char *value,
	      char *err, size_t errlen)
{
	uint64_t v;

	if (strcmp(key, KEY_BURST_BOUND) == 0) {
		if (parse_u64(value, 0, UINT32_MAX, &v) < 0)
			goto bad_int;
		da->pacing.burst_bound = v;
		return 0;
	}
	if (strcmp(key, KEY_TYPICAL_SZ) == 0) {
		if (parse_u64(value, 0, UINT16_MAX, &v) < 0)
			goto bad_int;
		da->pacing.typical_pkt_sz = v;
		return 0;
	}
	if (strcmp(key, KEY_TOLERANCE) == 0) {
		if (parse_u64(value, 0, PACING_PPM, &v) < 0)
			goto bad_int;
		da->pacing.rate_tolerance_ppm = v;
		return 0;
	}
	if (strcmp(key, KEY_PACING_INDEX) == 0) {
		if (value != NULL && strcmp(value, "shared") == 0) {
			da->pacing.dedicated = false;
			return 0;
		}
		if (value != NULL && strcmp(value, "dedicated") == 0) {
			da->pacing.dedicated = true;
			return 0;
		}
		snprintf(err, errlen,
			 "bad value '%s' for devarg %s; accepted: shared, dedicated",
			 value ? value : "", key);
		return -EINVAL;
	}
	if (strcmp(key, KEY_MPW) == 0) {
		if (parse_u64(value, 0, 1, &v) < 0)
			goto bad_int;
		da->txq_mpw_en = v != 0;
		return 0;
	}
	if (strcmp(key, KEY_RX_PORT) == 0) {
		/* Resolved to a port at probe (mlx5_tm_rx.c). */
		if (value == NULL || *value == '\0' ||
		    strlen(value) >= sizeof(da->rx_port)) {
			snprintf(err, errlen,
				 "bad value '%s' for devarg %s; accepted: an ethdev port name or port id (up to %zu characters)",
				 value ? value : "", key,
				 sizeof(da->rx_port) - 1);
			return -EINVAL;
		}
		snprintf(da->rx_port, sizeof(da->rx_port), "%s", value);
		return 0;
	}
	/* dev= and emu= are handled by the caller. */
	return 0;
bad_int:
	snprintf(err, errlen, "bad value '%s' for devarg %s; accepted: %s",
		 value ? value : "", key,
		 strcmp(key, KEY_BURST_BOUND) == 0 ? "0..4294967295 (bytes)" :
		 strcmp(key, KEY_TYPICAL_SZ) == 0 ? "0..65535 (bytes)" :
		 strcmp(key, KEY_MPW) == 0 ? "0 or 1" :
		 "0..1000000 (ppm)");
	return -EINVAL;
}

/*
 * Keys a user may have mistyped in a way that hides them: a key given
 * twice (the last one would silently win) or a key with blanks (the
 * shell kept a space after a comma).
 */
static int
check_key_spelling(const struct rte_kvargs *kv, char *err, size_t errlen)
{
	unsigned int i, j;

	for (i = 0; i < kv->count; i++) {
		const char *key = kv->pairs[i].key;
		size_t lead = strspn(key, " \t");

		if (lead > 0 || key[strcspn(key, " \t")] != '\0') {
			snprintf(err, errlen,
				 "devarg key '%s' has blanks in it; devargs are key=value pairs separated by commas without spaces (did you mean '%.*s'?)",
				 key, (int)strcspn(key + lead, " \t"),
				 key + lead);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (strcmp(kv->pairs[j].key, key) != 0)
				continue;
			snprintf(err, errlen,
				 "devarg %s given twice (%s=%s and %s=%s); give each devarg once",
				 key, key, kv->pairs[j].value ?
				 kv->pairs[j].value : "", key,
				 kv->pairs[i].value ? kv->pairs[i].value : "");
			return -EINVAL;
		}
	}
	return 0;
}

int
mlx5_tm_devargs_parse(const char *args, struct mlx5_tm_devargs *da,
		      char *err, size_t errlen)
{
	struct rte_kvargs *kv = NULL;
	const char *const *emu_keys = NULL;
	char keys[1024];
	const char *dev = NULL, *emu = NULL;
	unsigned int i;
	int ret = -EINVAL;

	memset(da, 0, sizeof(*da));
	da->txq_mpw_en = true;
	err[0] = '\0';
	if (args != NULL && *args != '\0') {
		kv = rte_kvargs_parse(args, NULL);
		if (kv == NULL) {
			list_keys(keys, sizeof(keys), NULL);
			snprintf(err, errlen,
				 "cannot parse devargs '%s' (key=value,...); accepted keys: %s",
				 args, keys);
			return -EINVAL;
		}
	}
	if (kv != NULL && check_key_spelling(kv, err, errlen) < 0)
		goto out;
	/* With emu=, the model (loaded now) tells its keys from ours. */
	if (find_value(kv, KEY_EMU) != NULL && find_value(kv, KEY_DEV) == NULL) {
		da->emu_glue = mlx5_tm_glue_emu_load(err, errlen);
		if (da->emu_glue == NULL) {
			ret = -errno;
			goto out;
		}
		emu_keys = da->emu_glue->opt_keys;
	}
	list_keys(keys, sizeof(keys), emu_keys);
	/* First pass: the keys themselves, and the device. */
	for (i = 0; kv != NULL && i < kv->count; i++) {
		const char *key = kv->pairs[i].key;
		const char *value = kv->pairs[i].value;

		if (!is_pmd_key(key) && !is_emu_key(emu_keys, key)) {
			snprintf(err, errlen,
				 "unknown devarg '%s'; accepted keys: %s",
				 key, keys);
			goto out;
		}
		if (strcmp(key, KEY_DEV) == 0 || strcmp(key, KEY_EMU) == 0) {
			if (value == NULL || *value == '\0' ||
			    strlen(value) >= sizeof(da->dev)) {
				snprintf(err, errlen,
					 "bad value for devarg %s; accepted: %s",
					 key, strcmp(key, KEY_DEV) == 0 ?
					 "an ibdev name or PCI address" :
					 "cx5, cx6dx, cx7");
				goto out;
			}
			/* Each key once (checked above): both were given. */
			if (dev != NULL || emu != NULL) {
				snprintf(err, errlen,
					 "devargs dev= and emu= both given; give exactly one of dev=<ibdev|PCI> or emu=cx5|cx6dx|cx7");
				goto out;
			}
			if (strcmp(key, KEY_DEV) == 0)
				dev = value;
			else
				emu = value;
		}
	}
	if (dev == NULL && emu == NULL) {
		snprintf(err, errlen,
			 "no device given: give exactly one of dev=<ibdev|PCI address> or emu=cx5|cx6dx|cx7; accepted keys: %s",
			 keys);
		goto out;
	}
	if (emu != NULL) {
		da->emulated = true;
		snprintf(da->dev, sizeof(da->dev), "%s", emu);
		da->emu_opts = da->emu_glue->opts_new(emu, err, errlen);
		if (da->emu_opts == NULL)
			goto out;
	} else {
		snprintf(da->dev, sizeof(da->dev), "%s", dev);
	}
	/* Second pass: options; the model's pass through to it. */
	for (i = 0; kv != NULL && i < kv->count; i++) {
		const char *key = kv->pairs[i].key;
		const char *value = kv->pairs[i].value;

		/* ret of each key: an accepted one must not hide a refusal. */
		if (is_pmd_key(key)) {
			ret = parse_pmd_key(da, key, value, err, errlen);
			if (ret < 0)
				goto out;
			continue;
		}
		ret = da->emu_glue->opts_set(da->emu_opts, key,
					     value ? value : "", err, errlen);
		if (ret < 0) {
			if (err[0] == '\0')
				snprintf(err, errlen,
					 "bad value '%s' for devarg %s",
					 value ? value : "", key);
			ret = -EINVAL;
			goto out;
		}
	}
	ret = 0;
out:
	rte_kvargs_free(kv);
	return ret;
}

void
mlx5_tm_devargs_free(struct mlx5_tm_devargs *da)
{
	if (da->emu_opts != NULL)
		da->emu_glue->opts_free(da->emu_opts);
	da->emu_opts = NULL;
}
