/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Objects the glue creates without a firmware command: protection
 * domains, user memory (umem), UAR pages, memory regions.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"

/*
 * Give @p obj an id in @p tab under the device lock and, if @p parent_users
 * is not NULL, count one more user of its parent. Glue convention: -1 and
 * errno on failure (a full table is ENOMEM, as on a device).
 */
static int
emu_object_add(struct mlx5_emu *emu, struct emu_idtab *tab, void *obj,
	       uint32_t *id, uint32_t *parent_users)
{
	int ret;

	emu_lock(emu);
	ret = emu_idtab_add(tab, obj, id);
	if (ret == 0 && parent_users != NULL)
		(*parent_users)++;
	emu_unlock(emu);
	if (ret < 0) {
		errno = ret == -ENOSPC ? ENOMEM : -ret;
		return -1;
	}
	return 0;
}

/* Remove id @p id from @p tab under the device lock, unless still used. */
static int
emu_object_del_unused(struct mlx5_emu *emu, struct emu_idtab *tab,
		      uint32_t id, const uint32_t *users)
{
	int ret = 0;

	emu_lock(emu);
	if (*users > 0)
		ret = -EBUSY;
	else
		emu_idtab_del(tab, id);
	emu_unlock(emu);
	return ret;
}

struct mlx5_tm_pd *
emu_glue_pd_alloc(struct mlx5_tm_glue_dev *dev)
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;
	struct emu_pd *pd;

	if (emu == NULL) {
		errno = EINVAL;
		return NULL;
	}
	pd = calloc(1, sizeof(*pd));
	if (pd == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	pd->emu = emu;
	if (emu_object_add(emu, &emu->pds, pd, &pd->pub.pdn, NULL) < 0) {
		free(pd);
		return NULL;
	}
	return &pd->pub;
}

int
emu_glue_pd_free(struct mlx5_tm_pd *p)
{
	struct emu_pd *pd = (struct emu_pd *)p;
	int ret;

	if (pd == NULL)
		return -EINVAL;
	ret = emu_object_del_unused(pd->emu, &pd->emu->pds, pd->pub.pdn,
				    &pd->users);
	if (ret == 0)
		free(pd);
	return ret;
}

struct mlx5_tm_umem *
emu_glue_umem_reg(struct mlx5_tm_glue_dev *dev, void *addr, size_t size,
		  uint32_t access __attribute__((unused)))
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;
	struct emu_umem *um;

	if (emu == NULL || addr == NULL || size == 0) {
		errno = EINVAL;
		return NULL;
	}
	um = calloc(1, sizeof(*um));
	if (um == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	um->emu = emu;
	um->addr = addr;
	um->size = size;
	if (emu_object_add(emu, &emu->umems, um, &um->pub.umem_id,
			   NULL) < 0) {
		free(um);
		return NULL;
	}
	return &um->pub;
}

int
emu_glue_umem_dereg(struct mlx5_tm_umem *u)
{
	struct emu_umem *um = (struct emu_umem *)u;
	int ret;

	if (um == NULL)
		return -EINVAL;
	ret = emu_object_del_unused(um->emu, &um->emu->umems,
				    um->pub.umem_id, &um->users);
	if (ret == 0)
		free(um);
	return ret;
}

struct mlx5_tm_uar *
emu_glue_uar_alloc(struct mlx5_tm_glue_dev *dev)
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;
	struct emu_uar *uar;

	if (emu == NULL) {
		errno = EINVAL;
		return NULL;
	}
	uar = calloc(1, sizeof(*uar));
	if (uar == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	uar->page = aligned_alloc(EMU_UAR_PAGE_SIZE, EMU_UAR_PAGE_SIZE);
	if (uar->page == NULL) {
		free(uar);
		errno = ENOMEM;
		return NULL;
	}
	memset(uar->page, 0, EMU_UAR_PAGE_SIZE);
	uar->emu = emu;
	uar->pub.base_addr = uar->page;
	uar->pub.reg_addr = uar->page + MLX5_BF_OFFSET;
	if (emu_object_add(emu, &emu->uars, uar, &uar->pub.page_id,
			   NULL) < 0) {
		free(uar->page);
		free(uar);
		return NULL;
	}
	return &uar->pub;
}

static void
emu_uar_destroy(struct emu_uar *uar)
{
	emu_idtab_del(&uar->emu->uars, uar->pub.page_id);
	free(uar->sqs);
	free(uar->page);
	free(uar);
}

/* Drop a user of @p uar; the page goes once freed and unused. */
void
emu_uar_put(struct emu_uar *uar)
{
	if (--uar->users == 0 && uar->freed)
		emu_uar_destroy(uar);
}

void
emu_glue_uar_free(struct mlx5_tm_uar *u)
{
	struct emu_uar *uar = (struct emu_uar *)u;
	struct mlx5_emu *emu;

	if (uar == NULL)
		return;
	emu = uar->emu;
	emu_lock(emu);
	if (uar->users > 0) {
		/* Real pages stay mapped until the last user goes too. */
		emu_log(EMU_LOG_WARNING,
			"UAR page %u freed while %u CQ/SQ use it",
			uar->pub.page_id, uar->users);
		uar->freed = true;
	} else {
		emu_uar_destroy(uar);
	}
	emu_unlock(emu);
}

int
emu_uar_attach_sq(struct emu_uar *uar, struct emu_sq *sq)
{
	if (uar->nb_sqs == uar->cap_sqs) {
		uint32_t ncap = uar->cap_sqs ? uar->cap_sqs * 2 : 8;
		struct emu_sq **n = realloc(uar->sqs, ncap * sizeof(*n));

		if (n == NULL)
			return -ENOMEM;
		uar->sqs = n;
		uar->cap_sqs = ncap;
	}
	uar->sqs[uar->nb_sqs++] = sq;
	return 0;
}

void
emu_uar_detach_sq(struct emu_uar *uar, struct emu_sq *sq)
{
	uint32_t i;

	for (i = 0; i < uar->nb_sqs; i++) {
		if (uar->sqs[i] == sq) {
			uar->sqs[i] = uar->sqs[--uar->nb_sqs];
			return;
		}
	}
}

int
emu_glue_query_eqn(struct mlx5_tm_glue_dev *dev, uint32_t vector,
		   uint32_t *eqn)
{
	struct mlx5_emu *emu = (struct mlx5_emu *)dev;

	if (emu == NULL || eqn == NULL || vector >= emu->caps.num_comp_vectors)
		return -EINVAL;
	*eqn = vector;
	return 0;
}

struct mlx5_tm_mr *
emu_glue_reg_mr(struct mlx5_tm_pd *p, void *addr, size_t length,
		uint32_t access __attribute__((unused)))
{
	struct emu_pd *pd = (struct emu_pd *)p;
	struct mlx5_emu *emu;
	struct emu_mr *mr;

	if (pd == NULL || addr == NULL || length == 0 ||
	    (uintptr_t)addr + length < (uintptr_t)addr) {
		errno = EINVAL;
		return NULL;
	}
	emu = pd->emu;
	mr = calloc(1, sizeof(*mr));
	if (mr == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	mr->emu = emu;
	mr->pd = pd;
	mr->start = (uintptr_t)addr;
	mr->end = (uintptr_t)addr + length;
	mr->pub.addr = addr;
	mr->pub.length = length;
	if (emu_object_add(emu, &emu->mrs, mr, &mr->pub.lkey,
			   &pd->users) < 0) {
		free(mr);
		return NULL;
	}
	return &mr->pub;
}

int
emu_glue_dereg_mr(struct mlx5_tm_mr *m)
{
	struct emu_mr *mr = (struct emu_mr *)m;
	struct mlx5_emu *emu;

	if (mr == NULL)
		return -EINVAL;
	emu = mr->emu;
	emu_lock(emu);
	emu_idtab_del(&emu->mrs, mr->pub.lkey);
	mr->pd->users--;
	emu_unlock(emu);
	free(mr);
	return 0;
}
