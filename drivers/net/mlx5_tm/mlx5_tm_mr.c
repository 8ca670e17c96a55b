/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal_memconfig.h>
#include <rte_errno.h>
#include <rte_memory.h>
#include <rte_spinlock.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_mr.h"

/*
 * Control-path view of the registration state. Allocations here use the
 * C library: memory event callbacks run with the DPDK heap locked.
 */
struct mr_ctrl {
	struct mlx5_tm_mr_ctrl pub;     /* First: what the datapath reads. */
	struct mlx5_tm_priv *priv;
	rte_spinlock_t lock;            /* Start vs memory events. */
	struct mlx5_tm_mr **mrs;        /* Registered regions. */
	uint32_t n_mrs;
	uint32_t cap_mrs;
	struct mlx5_tm_mr_table **retired; /* Replaced tables to free. */
	uint32_t n_retired;
	uint32_t cap_retired;
	bool registered;                /* Walk done, callback in place. */
	bool callback;                  /* Memory event callback registered. */
	char cb_name[32];
};

static struct mr_ctrl *
ctrl_of(const struct mlx5_tm_priv *priv)
{
	return (struct mr_ctrl *)priv->mr;
}

void
mlx5_tm_mr_cache_init(struct mlx5_tm_mr_cache *c,
		      const struct mlx5_tm_mr_ctrl *ctrl)
{
	memset(c, 0, sizeof(*c));
	c->ctrl = ctrl;
	c->gen = __atomic_load_n(&ctrl->gen, __ATOMIC_ACQUIRE);
}

uint32_t
mlx5_tm_mr_lookup_table(struct mlx5_tm_mr_cache *c, uintptr_t addr,
			uint32_t len)
{
	const struct mlx5_tm_mr_table *t =
		__atomic_load_n(&c->ctrl->table, __ATOMIC_ACQUIRE);
	uint32_t lo = 0, hi = t->n;

	/* Last range starting at or before addr. */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (t->r[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return MLX5_TM_LKEY_INVALID;
	if (addr + len > t->r[lo - 1].end)
		return MLX5_TM_LKEY_INVALID;
	c->r[c->next] = t->r[lo - 1];
	c->last = c->next;
	c->next = (c->next + 1) % MLX5_TM_MR_CACHE_N;
	return t->r[lo - 1].lkey;
}

uint32_t
mlx5_tm_mr_lookup_pool(struct mlx5_tm_mr_cache *c,
		       const struct rte_mempool *mp)
{
	const struct rte_mempool_memhdr *hdr;
	uint32_t lkey = MLX5_TM_LKEY_INVALID;

	STAILQ_FOREACH(hdr, &mp->mem_list, next) {
		uint32_t k = mlx5_tm_mr_lookup_table(c, (uintptr_t)hdr->addr,
						     hdr->len);

		if (k == MLX5_TM_LKEY_INVALID ||
		    (lkey != MLX5_TM_LKEY_INVALID && k != lkey)) {
			lkey = MLX5_TM_LKEY_INVALID;
			break;
		}
		lkey = k;
	}
	if (lkey == MLX5_TM_LKEY_INVALID) {
		c->pool_split = mp;
	} else {
		c->pool = mp;
		c->pool_lkey = lkey;
	}
	return lkey;
}

static int
cmp_mr(const void *a, const void *b)
{
	const struct mlx5_tm_mr *x = *(struct mlx5_tm_mr *const *)a;
	const struct mlx5_tm_mr *y = *(struct mlx5_tm_mr *const *)b;

	if ((uintptr_t)x->addr < (uintptr_t)y->addr)
		return -1;
	return (uintptr_t)x->addr > (uintptr_t)y->addr;
}

/* Rebuild the datapath table from the list of regions and publish it. */
static int
publish(struct mr_ctrl *m, bool removed)
{
	struct mlx5_tm_mr_table *t, *old;
	uint32_t i;

	t = calloc(1, sizeof(*t) + m->n_mrs * sizeof(t->r[0]));
	if (t == NULL)
		return -ENOMEM;
	if (m->n_retired == m->cap_retired) {
		uint32_t cap = m->cap_retired ? m->cap_retired * 2 : 8;
		void *p = realloc(m->retired, cap * sizeof(*m->retired));

		if (p == NULL) {
			free(t);
			return -ENOMEM;
		}
		m->retired = p;
		m->cap_retired = cap;
	}
	qsort(m->mrs, m->n_mrs, sizeof(*m->mrs), cmp_mr);
	for (i = 0; i < m->n_mrs; i++) {
		t->r[i].start = (uintptr_t)m->mrs[i]->addr;
		t->r[i].end = t->r[i].start + m->mrs[i]->length;
		t->r[i].lkey = m->mrs[i]->lkey;
	}
	t->n = m->n_mrs;
	old = m->pub.table;
	__atomic_store_n(&m->pub.table, t, __ATOMIC_RELEASE);
	m->retired[m->n_retired++] = old;
	if (removed)
		__atomic_store_n(&m->pub.gen, m->pub.gen + 1, __ATOMIC_RELEASE);
	return 0;
}

/* Register [addr, addr + len) unless already covered; lock held. */
static int
add_range(struct mr_ctrl *m, void *addr, size_t len)
{
	const struct mlx5_tm_priv *priv = m->priv;
	struct mlx5_tm_mr *mr;
	uint32_t i;

	for (i = 0; i < m->n_mrs; i++) {
		uintptr_t s = (uintptr_t)m->mrs[i]->addr;

		if ((uintptr_t)addr >= s &&
		    (uintptr_t)addr + len <= s + m->mrs[i]->length)
			return 0;
	}
	if (m->n_mrs == m->cap_mrs) {
		uint32_t cap = m->cap_mrs ? m->cap_mrs * 2 : 16;
		void *p = realloc(m->mrs, cap * sizeof(*m->mrs));

		if (p == NULL)
			return -ENOMEM;
		m->mrs = p;
		m->cap_mrs = cap;
	}
	mr = priv->glue->reg_mr(priv->pd, addr, len,
				MLX5_TM_ACCESS_LOCAL_WRITE);
	if (mr == NULL) {
		int err = errno ? errno : EIO;

		MLX5_TM_PORT_LOG(ERR, priv->dev->data->port_id,
				 "cannot register memory %p+%zu: %s", addr, len,
				 strerror(err));
		return -err;
	}
	m->mrs[m->n_mrs++] = mr;
	MLX5_TM_PORT_LOG(DEBUG, priv->dev->data->port_id,
			 "registered %p+%zu lkey 0x%x", addr, len, mr->lkey);
	return 0;
}

/*
 * Memory [addr, addr + len) was freed: deregister the regions that overlap
 * it and register again what remains of them. Lock held.
 */
static void
remove_range(struct mr_ctrl *m, uintptr_t addr, size_t len)
{
	const struct mlx5_tm_priv *priv = m->priv;
	uintptr_t end = addr + len;
	uint32_t i = 0;

	while (i < m->n_mrs) {
		struct mlx5_tm_mr *mr = m->mrs[i];
		uintptr_t s = (uintptr_t)mr->addr;
		uintptr_t e = s + mr->length;

		if (e <= addr || s >= end) {
			i++;
			continue;
		}
		m->mrs[i] = m->mrs[--m->n_mrs];
		priv->glue->dereg_mr(mr);
		if (s < addr)
			add_range(m, (void *)s, addr - s);
		if (e > end)
			add_range(m, (void *)end, e - end);
	}
}

static void
mem_event_cb(enum rte_mem_event type, const void *addr, size_t len,
	     void *arg)
{
	struct mr_ctrl *m = arg;

	rte_spinlock_lock(&m->lock);
	if (type == RTE_MEM_EVENT_ALLOC) {
		if (add_range(m, (void *)(uintptr_t)addr, len) == 0)
			publish(m, false);
	} else {
		remove_range(m, (uintptr_t)addr, len);
		publish(m, true);
	}
	rte_spinlock_unlock(&m->lock);
}

static int
walk_cb(const struct rte_memseg_list *msl __rte_unused,
	const struct rte_memseg *ms, size_t len, void *arg)
{
	return add_range(arg, ms->addr, len) < 0 ? -1 : 0;
}

int
mlx5_tm_mr_init(struct mlx5_tm_priv *priv)
{
	struct mr_ctrl *m = calloc(1, sizeof(*m));

	if (m == NULL)
		return -ENOMEM;
	m->pub.table = calloc(1, sizeof(*m->pub.table));
	if (m->pub.table == NULL) {
		free(m);
		return -ENOMEM;
	}
	m->priv = priv;
	rte_spinlock_init(&m->lock);
	snprintf(m->cb_name, sizeof(m->cb_name), "mlx5_tm_mr_%u",
		 priv->dev->data->port_id);
	priv->mr = &m->pub;
	return 0;
}

int
mlx5_tm_mr_register_all(struct mlx5_tm_priv *priv)
{
	struct mr_ctrl *m = ctrl_of(priv);
	int ret = 0;

	if (m->registered)
		return 0;
	/* Hold the hotplug lock so no memory comes between walk and hook. */
	rte_mcfg_mem_read_lock();
	rte_spinlock_lock(&m->lock);
	if (rte_memseg_contig_walk_thread_unsafe(walk_cb, m) < 0)
		ret = -ENOMEM;
	if (ret == 0)
		ret = publish(m, false);
	rte_spinlock_unlock(&m->lock);
	if (ret == 0) {
		if (rte_mem_event_callback_register(m->cb_name, mem_event_cb,
						    m) == 0)
			m->callback = true;
		else if (rte_errno != ENOTSUP)
			MLX5_TM_PORT_LOG(WARNING, priv->dev->data->port_id,
					 "no memory event callback (%s): memory added later is not registered",
					 rte_strerror(rte_errno));
		m->registered = true;
	}
	rte_mcfg_mem_read_unlock();
	if (ret < 0)
		MLX5_TM_PORT_LOG(ERR, priv->dev->data->port_id,
				 "memory registration failed");
	return ret;
}

void
mlx5_tm_mr_gc(struct mlx5_tm_priv *priv)
{
	struct mr_ctrl *m = ctrl_of(priv);
	uint32_t i;

	if (m == NULL)
		return;
	rte_spinlock_lock(&m->lock);
	for (i = 0; i < m->n_retired; i++)
		free(m->retired[i]);
	m->n_retired = 0;
	rte_spinlock_unlock(&m->lock);
}

void
mlx5_tm_mr_uninit(struct mlx5_tm_priv *priv)
{
	struct mr_ctrl *m = ctrl_of(priv);
	uint32_t i;

	if (m == NULL)
		return;
	if (m->callback)
		rte_mem_event_callback_unregister(m->cb_name, m);
	for (i = 0; i < m->n_mrs; i++)
		priv->glue->dereg_mr(m->mrs[i]);
	free(m->mrs);
	mlx5_tm_mr_gc(priv);
	free(m->retired);
	free(m->pub.table);
	free(m);
	priv->mr = NULL;
}
