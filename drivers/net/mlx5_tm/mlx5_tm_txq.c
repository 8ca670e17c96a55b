/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Tx queue control: memory at setup, CQ and SQ at start (holding what the
 * scheduling layer passes), teardown at stop, the control-path half of
 * error recovery, and the scheduling layer's live step (mlx5_tm_txq.h).
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "mlx5_tm_prm.h"
#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_devx.h"
#include "mlx5_tm_devx_query.h"
#include "mlx5_tm_tx.h"
#include "mlx5_tm_txq.h"
#include "mlx5_tm_stats.h"
#include "rte_pmd_mlx5_tm.h"

/** Smallest ring, in WQEBBs. */
#define MLX5_TM_TXQ_MIN_DESC 64
/** Largest ring: 16-bit ring indexes must not wrap inside it. */
#define MLX5_TM_TXQ_MAX_DESC 32768
/** Bytes of a doorbell record slot in the ring memory. */
#define MLX5_TM_DBR_SLOT 64
/** Failed RDY->RDY of a recovery before the queue sends without them. */
#define MLX5_TM_REARM_TRIES 8

uint16_t
mlx5_tm_txq_ring_size(const struct rte_eth_dev *dev, uint16_t nb_desc)
{
	const struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	uint32_t max = RTE_MIN(1u << priv->caps.log_max_wq_sz,
			       (uint32_t)MLX5_TM_TXQ_MAX_DESC);
	uint32_t n = rte_align32pow2(RTE_MAX(nb_desc,
					     (uint16_t)MLX5_TM_TXQ_MIN_DESC));

	return RTE_MIN(n, max);
}

static struct mlx5_tm_txq *
txq_of(struct rte_eth_dev *dev, uint16_t qid)
{
	if (qid >= dev->data->nb_tx_queues || dev->data->tx_queues == NULL)
		return NULL;
	return dev->data->tx_queues[qid];
}

/*
 * Whether @p txq may send eMPW WQEs under @p sched: not under a WQE-rate
 * entry, which counts each WQE as one packet (packet-mode shaping would
 * let a whole eMPW WQE through per token).
 */
static uint32_t
txq_empw_ok(const struct mlx5_tm_txq *txq,
	    const struct mlx5_tm_txq_sched *sched)
{
	return txq->empw_cap && !sched->wqe_rate;
}

/* The flags @p sched sets, which the datapath reads once per burst. */
static void
txq_flags_set(struct mlx5_tm_txq *txq, const struct mlx5_tm_txq_sched *sched)
{
	__atomic_store_n(&txq->empw, txq_empw_ok(txq, sched),
			 __ATOMIC_RELEASE);
	__atomic_store_n(&txq->suspended, sched->suspended ? 1 : 0,
			 __ATOMIC_RELEASE);
}

static void
txq_free(struct mlx5_tm_txq *txq)
{
	if (txq == NULL)
		return;
	rte_free(txq->elts);
	rte_free(txq->fcqs);
	rte_free(txq->wqe_elts);
	rte_free(txq);
}

int
mlx5_tm_txq_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		  unsigned int socket, const struct rte_eth_txconf *conf)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_txq *txq;
	uint32_t cqe_max = 1u << priv->caps.log_max_cq_sz;
	uint16_t n = mlx5_tm_txq_ring_size(dev, nb_desc);

	/* No tx_queue_start op: every queue starts with the port. */
	if (conf->tx_deferred_start) {
		MLX5_TM_TXQ_LOG(ERR, dev->data->port_id, qid,
				"deferred start is not supported");
		return -ENOTSUP;
	}
	if (nb_desc > n)
		MLX5_TM_TXQ_LOG(WARNING, dev->data->port_id, qid,
				"%u descriptors asked, the device allows %u",
				nb_desc, n);
	mlx5_tm_txq_release(dev, qid);
	txq = rte_zmalloc_socket("mlx5_tm_txq", sizeof(*txq),
				 RTE_CACHE_LINE_SIZE, socket);
	if (txq == NULL)
		goto nomem;
	txq->priv = priv;
	txq->qid = qid;
	txq->nb_desc = n;
	txq->socket = socket;
	txq->offloads = conf->offloads | dev->data->dev_conf.txmode.offloads;
	txq->wqe_n = n;
	txq->elts_n = n;
	txq->cqe_n = RTE_MIN((uint32_t)n, cqe_max);
	txq->log_cqe_n = rte_log2_u32(txq->cqe_n);
	/* The burst variant follows it (mlx5_tm_tx_burst_select()). */
	txq->inline_mode = priv->caps.min_inline_mode;
	/* eMPW carries no inline header: only where none is required. */
	txq->empw_cap = priv->caps.empw && priv->txq_mpw_en &&
			txq->inline_mode == MLX5_INLINE_MODE_NONE;
	txq->mr.ctrl = priv->mr;
	txq->elts = rte_zmalloc_socket("mlx5_tm_txq_elts",
				       n * sizeof(*txq->elts),
				       RTE_CACHE_LINE_SIZE, socket);
	txq->fcqs = rte_zmalloc_socket("mlx5_tm_txq_fcqs",
				       txq->cqe_n * sizeof(*txq->fcqs),
				       RTE_CACHE_LINE_SIZE, socket);
	txq->wqe_elts = rte_zmalloc_socket("mlx5_tm_txq_wqe_elts",
					   n * sizeof(*txq->wqe_elts),
					   RTE_CACHE_LINE_SIZE, socket);
	if (txq->elts == NULL || txq->fcqs == NULL || txq->wqe_elts == NULL)
		goto nomem;
	mlx5_tm_stats_txq_publish(dev, qid, txq);
	MLX5_TM_TXQ_LOG(DEBUG, dev->data->port_id, qid,
			"%u WQEBBs, %u CQEs, inline %s", n, txq->cqe_n,
			mlx5_tm_inline_mode_name(txq->inline_mode));
	return 0;
nomem:
	txq_free(txq);
	MLX5_TM_TXQ_LOG(ERR, dev->data->port_id, qid, "out of memory");
	return -ENOMEM;
}

void
mlx5_tm_txq_release(struct rte_eth_dev *dev, uint16_t qid)
{
	struct mlx5_tm_txq *txq = txq_of(dev, qid);

	if (txq == NULL)
		return;
	/* Out of statistics reads first: they take no control lock. */
	mlx5_tm_stats_txq_publish(dev, qid, NULL);
	if (txq->live)
		mlx5_tm_txq_stop(txq);
	txq_free(txq);
}

int
mlx5_tm_txq_start(struct mlx5_tm_txq *txq,
		  const struct mlx5_tm_txq_sched *sched)
{
	struct mlx5_tm_priv *priv = txq->priv;
	const struct mlx5_tm_glue *g = priv->glue;
	size_t wq_sz = (size_t)txq->wqe_n * MLX5_SEND_WQE_BB;
	size_t cq_sz = (size_t)txq->cqe_n * sizeof(struct mlx5_tm_cqe64);
	struct mlx5_tm_cq_attr cqa = { 0 };
	struct mlx5_tm_sq_attr sqa = { 0 };
	uint32_t eqn = 0;
	int ret;

	txq->buf_sz = RTE_ALIGN_CEIL(wq_sz + cq_sz + 2 * MLX5_TM_DBR_SLOT,
				     4096);
	txq->buf = rte_zmalloc_socket("mlx5_tm_txq_ring", txq->buf_sz, 4096,
				      txq->socket);
	if (txq->buf == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	txq->umem = g->devx_umem_reg(priv->gdev, txq->buf, txq->buf_sz,
				     MLX5_TM_ACCESS_LOCAL_WRITE);
	if (txq->umem == NULL) {
		ret = -(errno ? errno : EIO);
		MLX5_TM_TXQ_LOG(ERR, priv->dev->data->port_id, txq->qid,
				"umem registration failed: %s", strerror(-ret));
		goto fail;
	}
	txq->uar = g->devx_uar_alloc(priv->gdev);
	if (txq->uar == NULL) {
		ret = -(errno ? errno : EIO);
		MLX5_TM_TXQ_LOG(ERR, priv->dev->data->port_id, txq->qid,
				"no UAR: %s", strerror(-ret));
		goto fail;
	}
	ret = g->devx_query_eqn(priv->gdev, 0, &eqn);
	if (ret < 0) {
		MLX5_TM_TXQ_LOG(ERR, priv->dev->data->port_id, txq->qid,
				"no event queue: %s", strerror(-ret));
		goto fail;
	}
	txq->wqes = txq->buf;
	txq->cqes = (void *)((uint8_t *)txq->buf + wq_sz);
	txq->sq_db = (uint32_t *)((uint8_t *)txq->buf + wq_sz + cq_sz) +
		     MLX5_SND_DBR;
	txq->cq_db = (uint32_t *)((uint8_t *)txq->buf + wq_sz + cq_sz +
				  MLX5_TM_DBR_SLOT) + MLX5_CQ_SET_CI;
	txq->uar_reg = txq->uar->reg_addr;
	mlx5_tm_tx_ring_init(txq);

	cqa.log_size = txq->log_cqe_n;
	cqa.uar_page = txq->uar->page_id;
	cqa.eqn = eqn;
	cqa.umem_id = txq->umem->umem_id;
	cqa.ring_off = wq_sz;
	cqa.dbr_off = wq_sz + cq_sz + MLX5_TM_DBR_SLOT;
	txq->cq_obj = mlx5_tm_devx_cq_create(priv, &cqa, &txq->cqn);
	if (txq->cq_obj == NULL) {
		ret = -(errno ? errno : EIO);
		goto fail;
	}
	sqa.log_size = rte_log2_u32(txq->wqe_n);
	sqa.cqn = txq->cqn;
	sqa.tisn = priv->tisn;
	sqa.pdn = priv->pd->pdn;
	sqa.uar_page = txq->uar->page_id;
	sqa.umem_id = txq->umem->umem_id;
	sqa.ring_off = 0;
	sqa.dbr_off = wq_sz + cq_sz;
	sqa.pp_index = sched->sq.pp_index;
	sqa.min_inline = txq->inline_mode;
	sqa.user_index = txq->qid;
	sqa.ts_format = priv->caps.sq_ts_format;
	/* As Linux's mlx5_ib for raw packet SQs of such devices. */
	sqa.allow_mpw = txq->empw_cap;
	txq->sq_obj = mlx5_tm_devx_sq_create(priv, &sqa, &txq->sqn);
	if (txq->sq_obj == NULL) {
		ret = -(errno ? errno : EIO);
		goto fail;
	}
	ret = mlx5_tm_devx_sq_modify(priv, txq->sq_obj, txq->sqn,
				     MLX5_SQC_STATE_RST, MLX5_SQC_STATE_RDY,
				     false, 0);
	if (ret < 0)
		goto fail;
	/*
	 * Its queue group by RDY->RDY bit 2 of its own, as rdma-core's
	 * mlx5dv_modify_qp_sched_elem() attaches a ready raw-packet QP:
	 * nothing is posted yet.
	 */
	if (sched->sq.qos_group_id != 0) {
		struct mlx5_tm_sq_sched g = {
			.set_group = true,
			.qos_group_id = sched->sq.qos_group_id,
		};

		ret = mlx5_tm_devx_sq_modify_sched(priv, txq->sq_obj,
						   txq->sqn,
						   MLX5_SQC_STATE_RDY,
						   MLX5_SQC_STATE_RDY, &g);
		if (ret < 0)
			goto fail;
	}
	txq_flags_set(txq, sched);
	__atomic_store_n(&txq->live, true, __ATOMIC_RELAXED); /* stats read it */
	MLX5_TM_TXQ_LOG(DEBUG, priv->dev->data->port_id, txq->qid,
			"SQ 0x%x CQ 0x%x pacing index %u queue group %u",
			txq->sqn, txq->cqn, sqa.pp_index,
			sched->sq.qos_group_id);
	return 0;
fail:
	mlx5_tm_txq_stop(txq);
	return ret;
}

void
mlx5_tm_txq_stop(struct mlx5_tm_txq *txq)
{
	const struct mlx5_tm_glue *g = txq->priv->glue;

	__atomic_store_n(&txq->live, false, __ATOMIC_RELAXED);
	if (txq->sq_obj != NULL)
		g->devx_obj_destroy(txq->sq_obj);
	txq->sq_obj = NULL;
	if (txq->cq_obj != NULL)
		g->devx_obj_destroy(txq->cq_obj);
	txq->cq_obj = NULL;
	if (txq->umem != NULL)
		g->devx_umem_dereg(txq->umem);
	txq->umem = NULL;
	if (txq->uar != NULL)
		g->devx_uar_free(txq->uar);
	txq->uar = NULL;
	/* The device is gone from the ring: its mbufs are ours again. */
	if (txq->wqes != NULL)
		mlx5_tm_tx_free_all(txq);
	rte_free(txq->buf);
	txq->buf = NULL;
	txq->wqes = NULL;
	txq->cqes = NULL;
	txq->sq_db = NULL;
	txq->cq_db = NULL;
	txq->uar_reg = NULL;
}

/*
 * A flush CQE came while the queue was OK: if firmware says the SQ is in
 * error, start the recovery; a flush on a ready SQ is left alone.
 */
static void
txq_check_flush(struct mlx5_tm_txq *txq)
{
	struct mlx5_tm_priv *priv = txq->priv;
	uint32_t ok = MLX5_TM_TXQ_OK;
	int hw;

	if (!__atomic_exchange_n(&txq->flush_seen, 0, __ATOMIC_ACQ_REL))
		return;
	hw = mlx5_tm_devx_sq_state(priv, txq->sq_obj, txq->sqn);
	if (hw == MLX5_SQC_STATE_ERR) {
		__atomic_compare_exchange_n(&txq->state, &ok, MLX5_TM_TXQ_ERR,
					    false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
		return;
	}
	MLX5_TM_TXQ_LOG(INFO, priv->dev->data->port_id, txq->qid,
			"flush CQE while SQ 0x%x is %s: ignored", txq->sqn,
			hw == MLX5_SQC_STATE_RDY ? "ready" : "not in error");
}

/* ": <name>" of the send errors a CQE reports (PRM), else "". */
static const char *
syndrome_name(uint32_t syndrome)
{
	switch (syndrome) {
	case MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR:
		return ": local length";
	case MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR:
		return ": local QP operation";
	case MLX5_CQE_SYNDROME_LOCAL_PROT_ERR:
		return ": local protection";
	case MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR:
		return ": local access";
	default:
		return "";
	}
}

/* ERR: reset the SQ, unless firmware does not report it in error. */
static void
txq_recover_err(struct mlx5_tm_txq *txq)
{
	struct mlx5_tm_priv *priv = txq->priv;
	uint32_t syn;
	int hw;

	hw = mlx5_tm_devx_sq_state(priv, txq->sq_obj, txq->sqn);
	if (hw < 0)
		return;
	if (hw == MLX5_SQC_STATE_RDY) {
		/* Not in error (yet): a reset would drop what is posted. */
		MLX5_TM_TXQ_LOG(DEBUG, priv->dev->data->port_id, txq->qid,
				"error CQE but SQ 0x%x is ready: not reset, checked again",
				txq->sqn);
		return;
	}
	if (hw != MLX5_SQC_STATE_RST &&
	    mlx5_tm_devx_sq_modify(priv, txq->sq_obj, txq->sqn, hw,
				   MLX5_SQC_STATE_RST, false, 0) < 0)
		return;
	syn = __atomic_load_n(&txq->err_syndrome, __ATOMIC_RELAXED);
	MLX5_TM_TXQ_LOG(WARNING, priv->dev->data->port_id, txq->qid,
			"error completion (syndrome 0x%x%s, vendor syndrome 0x%x), SQ 0x%x reset",
			syn >> 8, syndrome_name(syn >> 8), syn & 0xff,
			txq->sqn);
	__atomic_store_n(&txq->state, MLX5_TM_TXQ_RST, __ATOMIC_RELEASE);
}

/*
 * RDY->RDY on the SQ of @p txq setting what @p sq names, one field a
 * command: bits 0 and 2 each have precedent alone (upstream DPDK's rate
 * limit, rdma-core's and Linux's attach), never together. The group goes
 * first, so that the queue is under its new group's ceiling (its
 * backstop) before its pacing changes -- except where the SQ drops its
 * pacing index, which goes first: it never holds an index in a group it
 * was not in (firmware may refuse both). If the second command fails, the
 * first is undone (values read back before it): the SQ keeps what it
 * held. Returns 0 or the negative errno of the failed command.
 */
static int
txq_modify_fields(struct mlx5_tm_txq *txq, const struct mlx5_tm_sq_sched *sq)
{
	struct mlx5_tm_priv *priv = txq->priv;
	struct rte_pmd_mlx5_tm_sq_info info;
	struct mlx5_tm_sq_sched first = *sq, second = *sq, undo = { 0 };
	bool pp_first = sq->pp_index == 0;
	int ret;

	if (!sq->set_pp || !sq->set_group)
		return mlx5_tm_devx_sq_modify_sched(priv, txq->sq_obj, txq->sqn,
						    MLX5_SQC_STATE_RDY,
						    MLX5_SQC_STATE_RDY, sq);
	ret = mlx5_tm_devx_sq_query(priv, txq->sq_obj, txq->sqn, &info);
	if (ret < 0)
		return ret;
	first.set_group = !pp_first;
	first.set_pp = pp_first;
	second.set_group = pp_first;
	second.set_pp = !pp_first;
	ret = mlx5_tm_devx_sq_modify_sched(priv, txq->sq_obj, txq->sqn,
					   MLX5_SQC_STATE_RDY,
					   MLX5_SQC_STATE_RDY, &first);
	if (ret < 0)
		return ret;
	ret = mlx5_tm_devx_sq_modify_sched(priv, txq->sq_obj, txq->sqn,
					   MLX5_SQC_STATE_RDY,
					   MLX5_SQC_STATE_RDY, &second);
	if (ret == 0)
		return 0;
	undo.set_pp = first.set_pp;
	undo.pp_index = info.pp_index;
	undo.set_group = first.set_group;
	undo.qos_group_id = info.qos_queue_group_id;
	if (mlx5_tm_devx_sq_modify_sched(priv, txq->sq_obj, txq->sqn,
					 MLX5_SQC_STATE_RDY, MLX5_SQC_STATE_RDY,
					 &undo) < 0)
		MLX5_TM_TXQ_LOG(ERR, priv->dev->data->port_id, txq->qid,
				"SQ 0x%x: undoing its %s failed: it holds pacing index %u, queue group %u",
				txq->sqn, first.set_group ? "queue group" :
				"pacing index", first.set_pp ? sq->pp_index :
				info.pp_index, first.set_group ?
				sq->qos_group_id : info.qos_queue_group_id);
	return ret;
}

/*
 * REARM, as Linux's mlx5e_health_sq_to_ready() does it: RST->RDY with an
 * empty modify_bitmask, relying on the context keeping its pacing index
 * and queue group through the reset; then QUERY_SQ, and a RDY->RDY only
 * for a field that differs from @p sched (a context that did not keep
 * it, devarg sq_reset_keeps_qos=0 of the device model, or a change made
 * while the SQ was in reset). The SQ sends nothing before that: the ring
 * is empty and the queue accepts no packet until it is OK. A failed step
 * is retried next time, from the state firmware reports; after
 * MLX5_TM_REARM_TRIES failed RDY->RDY the queue sends with what its
 * context holds, said once.
 */
int
mlx5_tm_txq_rearm(struct mlx5_tm_txq *txq,
		  const struct mlx5_tm_txq_sched *sched,
		  struct mlx5_tm_sq_sched *held)
{
	struct mlx5_tm_priv *priv = txq->priv;
	struct rte_pmd_mlx5_tm_sq_info info;
	struct mlx5_tm_sq_sched fix;
	int ret, done = 0;

	ret = mlx5_tm_devx_sq_query(priv, txq->sq_obj, txq->sqn, &info);
	if (ret < 0)
		return ret;
	if (info.state == MLX5_SQC_STATE_RST) {
		ret = mlx5_tm_devx_sq_modify(priv, txq->sq_obj, txq->sqn,
					     MLX5_SQC_STATE_RST,
					     MLX5_SQC_STATE_RDY, false, 0);
		if (ret == 0)
			ret = mlx5_tm_devx_sq_query(priv, txq->sq_obj,
						    txq->sqn, &info);
		if (ret < 0)
			return ret;
	}
	if (info.state != MLX5_SQC_STATE_RDY)
		return -EAGAIN;
	fix = (struct mlx5_tm_sq_sched){
		.set_pp = info.pp_index != sched->sq.pp_index,
		.pp_index = sched->sq.pp_index,
		.set_group = info.qos_queue_group_id != sched->sq.qos_group_id,
		.qos_group_id = sched->sq.qos_group_id,
	};
	*held = (struct mlx5_tm_sq_sched){
		.pp_index = info.pp_index,
		.qos_group_id = info.qos_queue_group_id,
	};
	if (fix.set_pp || fix.set_group) {
		ret = txq_modify_fields(txq, &fix);
		if (ret < 0 && ++txq->rearm_fails < MLX5_TM_REARM_TRIES)
			return ret;
		if (ret < 0) {
			MLX5_TM_TXQ_LOG(ERR, priv->dev->data->port_id, txq->qid,
					"SQ 0x%x ready again, but %u tries to set its pacing index %u and queue group %u failed (%s): it sends with what its context kept, pacing index %u, queue group %u",
					txq->sqn, txq->rearm_fails,
					sched->sq.pp_index,
					sched->sq.qos_group_id, strerror(-ret),
					info.pp_index,
					info.qos_queue_group_id);
			done = 1;
		} else {
			*held = fix;
		}
	}
	txq->rearm_fails = 0;
	txq_flags_set(txq, sched);
	__atomic_store_n(&txq->recoveries, txq->recoveries + 1,
			 __ATOMIC_RELAXED); /* stats read it */
	MLX5_TM_TXQ_LOG(INFO, priv->dev->data->port_id, txq->qid,
			"SQ 0x%x ready again, pacing index %u, queue group %u%s",
			txq->sqn, held->pp_index, held->qos_group_id,
			fix.set_pp || fix.set_group ? "" :
			" (kept through the reset)");
	__atomic_store_n(&txq->state, MLX5_TM_TXQ_OK, __ATOMIC_RELEASE);
	return done;
}

bool
mlx5_tm_txq_recover(struct mlx5_tm_txq *txq)
{
	uint32_t state;

	if (!txq->live)
		return false;
	if (__atomic_load_n(&txq->state, __ATOMIC_ACQUIRE) == MLX5_TM_TXQ_OK)
		txq_check_flush(txq);
	state = __atomic_load_n(&txq->state, __ATOMIC_ACQUIRE);
	if (state == MLX5_TM_TXQ_ERR)
		txq_recover_err(txq);
	return state == MLX5_TM_TXQ_REARM;
}

/*
 * RDY->RDY on @p txq failed. Firmware refuses it on an SQ that a failed
 * WQE has put in error before the datapath saw the error CQE: when
 * QUERY_SQ says so (as upstream's recovery asks), the values wait for the
 * re-arm, which carries them, and the recovery starts. Returns 1 then,
 * else @p ret.
 */
static int
txq_defer_to_rearm(struct mlx5_tm_txq *txq, int ret)
{
	uint32_t ok = MLX5_TM_TXQ_OK;

	if (mlx5_tm_devx_sq_state(txq->priv, txq->sq_obj, txq->sqn) !=
	    MLX5_SQC_STATE_ERR)
		return ret;
	__atomic_compare_exchange_n(&txq->state, &ok, MLX5_TM_TXQ_ERR, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	/* Said where the refusal was logged: the change did not fail. */
	MLX5_TM_TXQ_LOG(NOTICE, txq->priv->dev->data->port_id, txq->qid,
			"SQ 0x%x went to error (hence the MODIFY_SQ refusal): its pacing index and queue group are set when it is ready again",
			txq->sqn);
	return 1;
}

int
mlx5_tm_txq_set_sched(struct rte_eth_dev *dev, uint16_t qid,
		      const struct mlx5_tm_txq_sched *sched)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	const struct mlx5_tm_sq_sched *sq = &sched->sq;
	struct mlx5_tm_txq *txq = txq_of(dev, qid);
	uint32_t empw;
	int ret = 1;

	if (txq == NULL)
		return 1;
	pthread_mutex_lock(&priv->lock);
	empw = __atomic_load_n(&txq->empw, __ATOMIC_RELAXED);
	/* Bursts that start from now on post no eMPW WQE (mlx5_tm_txq.h). */
	if (!txq_empw_ok(txq, sched))
		__atomic_store_n(&txq->empw, 0, __ATOMIC_RELEASE);
	if (txq->live &&
	    __atomic_load_n(&txq->state, __ATOMIC_ACQUIRE) == MLX5_TM_TXQ_OK) {
		ret = 0;
		if (sq->set_pp || sq->set_group)
			ret = txq_modify_fields(txq, sq);
		if (ret < 0)
			ret = txq_defer_to_rearm(txq, ret);
	}
	if (ret < 0)
		__atomic_store_n(&txq->empw, empw, __ATOMIC_RELEASE);
	else
		txq_flags_set(txq, sched);
	if (ret >= 0 && (sq->set_pp || sq->set_group))
		MLX5_TM_TXQ_LOG(DEBUG, dev->data->port_id, qid,
				"pacing index %s%u, queue group %s%u (%s)",
				sq->set_pp ? "now " : "", sq->pp_index,
				sq->set_group ? "now " : "", sq->qos_group_id,
				ret == 0 ? "live" : "when its SQ is ready");
	pthread_mutex_unlock(&priv->lock);
	return ret;
}

void
mlx5_tm_txq_counters(struct rte_eth_dev *dev, uint16_t qid,
		     uint64_t *packets, uint64_t *bytes)
{
	struct mlx5_tm_priv *priv = mlx5_tm_priv(dev);
	struct mlx5_tm_txq *txq;

	*packets = 0;
	*bytes = 0;
	/* As every statistics reader: the queue is not released meanwhile. */
	rte_spinlock_lock(&priv->stats_lock);
	txq = txq_of(dev, qid);
	if (txq != NULL) {
		*packets = __atomic_load_n(&txq->st.packets, __ATOMIC_RELAXED);
		*bytes = __atomic_load_n(&txq->st.bytes, __ATOMIC_RELAXED);
	}
	rte_spinlock_unlock(&priv->stats_lock);
}
