/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * A recording glue: mlx5_tm_glue_emu with every firmware command's input
 * and output kept, so that the buffers upstream's builders and the PMD's
 * builders send can be compared field by field.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "conform.h"

static struct conform_cmd rec[CONFORM_REC_MAX];
static unsigned int rec_n;
static struct mlx5_tm_glue rec_glue;

static uint32_t
be_bits(const uint8_t *b, unsigned int byte, unsigned int shift,
	uint32_t mask)
{
	uint32_t v = (uint32_t)b[byte] << 24 | (uint32_t)b[byte + 1] << 16 |
		     (uint32_t)b[byte + 2] << 8 | b[byte + 3];

	return (v >> shift) & mask;
}

static void
record(const void *in, size_t inlen, const void *out, size_t outlen, int ret)
{
	struct conform_cmd *c;

	if (rec_n >= CONFORM_REC_MAX)
		return;
	c = &rec[rec_n++];
	memset(c, 0, sizeof(*c));
	c->inlen = inlen < CONFORM_CMD_MAX ? inlen : CONFORM_CMD_MAX;
	c->outlen = outlen < CONFORM_CMD_MAX ? outlen : CONFORM_CMD_MAX;
	memcpy(c->in, in, c->inlen);
	if (out != NULL)
		memcpy(c->out, out, c->outlen);
	/* Every PRM command starts with opcode (0x00) and op_mod (0x30). */
	c->opcode = (uint16_t)be_bits(c->in, 0, 16, 0xffff);
	c->op_mod = (uint16_t)be_bits(c->in, 4, 0, 0xffff);
	c->ret = ret;
}

static int
rec_general_cmd(struct mlx5_tm_glue_dev *dev, const void *in, size_t inlen,
		void *out, size_t outlen)
{
	int ret = mlx5_tm_glue_emu.devx_general_cmd(dev, in, inlen, out,
						    outlen);

	record(in, inlen, out, outlen, ret);
	return ret;
}

static struct mlx5_tm_devx_obj *
rec_obj_create(struct mlx5_tm_glue_dev *dev, const void *in, size_t inlen,
	       void *out, size_t outlen)
{
	struct mlx5_tm_devx_obj *obj;
	int err;

	obj = mlx5_tm_glue_emu.devx_obj_create(dev, in, inlen, out, outlen);
	err = errno;
	record(in, inlen, out, outlen, obj != NULL ? 0 : -err);
	errno = err;
	return obj;
}

static int
rec_obj_modify(struct mlx5_tm_devx_obj *obj, const void *in, size_t inlen,
	       void *out, size_t outlen)
{
	int ret = mlx5_tm_glue_emu.devx_obj_modify(obj, in, inlen, out,
						   outlen);

	record(in, inlen, out, outlen, ret);
	return ret;
}

static int
rec_obj_query(struct mlx5_tm_devx_obj *obj, const void *in, size_t inlen,
	      void *out, size_t outlen)
{
	int ret = mlx5_tm_glue_emu.devx_obj_query(obj, in, inlen, out,
						  outlen);

	record(in, inlen, out, outlen, ret);
	return ret;
}

const struct mlx5_tm_glue *
conform_glue(void)
{
	if (rec_glue.name == NULL) {
		rec_glue = mlx5_tm_glue_emu;
		rec_glue.devx_general_cmd = rec_general_cmd;
		rec_glue.devx_obj_create = rec_obj_create;
		rec_glue.devx_obj_modify = rec_obj_modify;
		rec_glue.devx_obj_query = rec_obj_query;
	}
	return &rec_glue;
}

void
conform_rec_clear(void)
{
	rec_n = 0;
}

unsigned int
conform_rec_count(void)
{
	return rec_n;
}

const struct conform_cmd *
conform_rec_get(unsigned int i)
{
	return i < rec_n ? &rec[i] : NULL;
}

const struct conform_cmd *
conform_rec_last(uint16_t opcode)
{
	unsigned int i;

	for (i = rec_n; i > 0; i--)
		if (rec[i - 1].opcode == opcode)
			return &rec[i - 1];
	return NULL;
}

int
conform_dev_open(struct conform_dev *d, const char *profile,
		 const char *const *kv, char *err, size_t errlen)
{
	const struct mlx5_tm_glue *g = conform_glue();
	struct mlx5_emu_config cfg;
	int ret;

	memset(d, 0, sizeof(*d));
	err[0] = '\0';
	ret = mlx5_emu_config_init(&cfg, profile);
	if (ret < 0) {
		snprintf(err, errlen, "unknown profile '%s'", profile);
		return ret;
	}
	ret = mlx5_emu_config_set(&cfg, "clock", "virtual", err, errlen);
	for (; ret == 0 && kv != NULL && *kv != NULL; kv++) {
		char key[64];
		const char *eq = strchr(*kv, '=');

		if (eq == NULL || (size_t)(eq - *kv) >= sizeof(key)) {
			snprintf(err, errlen, "bad devarg '%s'", *kv);
			return -EINVAL;
		}
		memcpy(key, *kv, eq - *kv);
		key[eq - *kv] = '\0';
		ret = mlx5_emu_config_set(&cfg, key, eq + 1, err, errlen);
	}
	if (ret < 0)
		return ret;
	d->gdev = g->open_device(profile, &cfg);
	if (d->gdev == NULL) {
		snprintf(err, errlen, "open_device(%s): %s", profile,
			 strerror(errno));
		return -errno;
	}
	d->emu = mlx5_emu_from_glue(d->gdev);
	d->pd = g->pd_alloc(d->gdev);
	d->uar = g->devx_uar_alloc(d->gdev);
	ret = g->devx_query_eqn(d->gdev, 0, &d->eqn);
	if (d->pd == NULL || d->uar == NULL || ret < 0) {
		snprintf(err, errlen, "PD, UAR or EQ refused");
		conform_dev_close(d);
		return -EIO;
	}
	return 0;
}

void
conform_dev_close(struct conform_dev *d)
{
	const struct mlx5_tm_glue *g = conform_glue();

	if (d->uar != NULL)
		g->devx_uar_free(d->uar);
	if (d->pd != NULL)
		g->pd_free(d->pd);
	if (d->gdev != NULL)
		conform_case(g->close_device(d->gdev) == 0,
			     "device closes with every object released");
	memset(d, 0, sizeof(*d));
}
