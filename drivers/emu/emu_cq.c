/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Completion queue entries. The device writes CQE number pi at slot
 * pi & (size - 1) with owner bit (pi >> log_size) & 1, the op_own byte
 * last (release order), so that a driver polling its ring sees a complete
 * CQE when the owner bit matches its own wrap counter. A CQ whose consumer
 * counter (doorbell record word 0) says it is full overflows, unless
 * created with oi (overrun ignore): the CQE is lost and the CQ status
 * becomes CQ_OVERFLOW, as on hardware. Fullness is judged on the counters'
 * low log_size + 1 bits (slot and owner bit): upstream DPDK's Tx writes a
 * 16-bit consumer counter into the 24-bit record and runs on hardware.
 */

#include <string.h>

#include "emu_internal.h"

/* Slot for the next CQE of @p cq, or NULL when it cannot take one. */
static uint8_t *
emu_cq_slot(struct mlx5_emu *emu, struct emu_cq *cq)
{
	uint32_t size = 1u << cq->log_size;
	uint32_t wrap = (2u << cq->log_size) - 1;
	uint32_t ci;

	if (cq->status != MLX5_CQC_STATUS_OK) {
		emu->port.cq_overruns++;
		return NULL;
	}
	ci = __atomic_load_n((const uint32_t *)(const void *)cq->dbrec,
			     __ATOMIC_ACQUIRE);
	ci = be32toh(ci) & 0xffffff;
	if (!cq->oi && ((cq->pi - ci) & wrap) >= size) {
		cq->status = MLX5_CQC_STATUS_CQ_OVERFLOW;
		emu->port.cq_overruns++;
		emu_log(EMU_LOG_ERR, "CQ 0x%x overrun: producer %u, consumer "
			"%u, size %u", cq->cqn, cq->pi & 0xffffff, ci, size);
		return NULL;
	}
	/* A 128-byte CQE carries the 64-byte CQE in its second half. */
	return cq->ring + (size_t)(cq->pi & (size - 1)) * cq->stride +
	       (cq->stride - 64);
}

/*
 * wqe_counter shares its dword with op_own, which the driver may be
 * reading: a dword read-modify-write (MLX5_SET) would write op_own too
 * before its release store. Its two bytes alone (the same offset in the
 * good and the error CQE).
 */
static void
emu_cq_set_wqe_counter(uint8_t *cqe, uint16_t index)
{
	uint16_t be = htobe16(index);

	_Static_assert(MLX5_BYTE_OFF(cqe64, wqe_counter) ==
		       MLX5_BYTE_OFF(err_cqe64, wqe_counter),
		       "wqe_counter at one offset");
	memcpy(cqe + MLX5_BYTE_OFF(cqe64, wqe_counter), &be, sizeof(be));
}

/* Publish @p cqe: everything but op_own is written; op_own last. */
static void
emu_cq_publish(struct emu_cq *cq, uint8_t *cqe, uint8_t opcode)
{
	uint8_t owner = (cq->pi >> cq->log_size) & 1;

	__atomic_store_n(&cqe[63], (uint8_t)(opcode << 4 | owner),
			 __ATOMIC_RELEASE);
	cq->pi++;
}

static uint64_t
emu_cq_timestamp(const struct emu_sq *sq, uint64_t time_ps)
{
	uint64_t ns = time_ps / EMU_PS_PER_NS;

	/*
	 * Real-time format: seconds in 63:32, nanoseconds in 31:0; asked
	 * for (2), or the device's default (1): the model's clock runs in
	 * real-time mode, which its device_frequency_khz of 1 000 000 says
	 * (upstream DPDK infers real-time time stamps from that frequency
	 * when it cannot read the MTUTC register). Free running (0): ticks
	 * of that 1 GHz clock.
	 */
	if (sq->ts_format == 2 || sq->ts_format == 1)
		return (ns / 1000000000ULL) << 32 | (ns % 1000000000ULL);
	return ns;
}

void
emu_cq_complete(struct mlx5_emu *emu, struct emu_sq *sq,
		const struct emu_wqe *w, uint64_t time_ps)
{
	uint8_t *cqe = emu_cq_slot(emu, sq->cq);

	if (cqe == NULL)
		return;
	memset(cqe, 0, 63);
	MLX5_SET(cqe64, cqe, srqn_uidx, sq->user_index);
	MLX5_SET64(cqe64, cqe, timestamp, emu_cq_timestamp(sq, time_ps));
	MLX5_SET(cqe64, cqe, sop_drop, w->opcode);
	MLX5_SET(cqe64, cqe, qpn, sq->sqn);
	emu_cq_set_wqe_counter(cqe, w->index);
	emu_cq_publish(sq->cq, cqe, MLX5_CQE_REQ);
	sq->st.cqes++;
	emu->port.cqes++;
}

void
emu_cq_error(struct mlx5_emu *emu, struct emu_sq *sq, const struct emu_wqe *w,
	     uint64_t time_ps __attribute__((unused)))
{
	uint8_t *cqe = emu_cq_slot(emu, sq->cq);

	sq->st.errors++;
	sq->st.last_syndrome = w->syndrome;
	emu->port.error_cqes++;
	if (cqe == NULL)
		return;
	memset(cqe, 0, 63);
	MLX5_SET(err_cqe64, cqe, srqn, sq->user_index);
	MLX5_SET(err_cqe64, cqe, syndrome, w->syndrome);
	MLX5_SET(err_cqe64, cqe, vendor_err_synd, w->syndrome);
	MLX5_SET(err_cqe64, cqe, s_wqe_opcode, w->opcode);
	MLX5_SET(err_cqe64, cqe, qpn, sq->sqn);
	emu_cq_set_wqe_counter(cqe, w->index);
	emu_cq_publish(sq->cq, cqe, MLX5_CQE_REQ_ERR);
	sq->st.cqes++;
}

/* Flush error CQE for WQE @p index of an SQ that went to error. */
void
emu_cq_flush(struct mlx5_emu *emu, struct emu_sq *sq, uint16_t index,
	     uint8_t opcode)
{
	uint8_t *cqe = emu_cq_slot(emu, sq->cq);

	emu->port.error_cqes++;
	if (cqe == NULL)
		return;
	memset(cqe, 0, 63);
	MLX5_SET(err_cqe64, cqe, srqn, sq->user_index);
	MLX5_SET(err_cqe64, cqe, syndrome, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
	MLX5_SET(err_cqe64, cqe, s_wqe_opcode, opcode);
	MLX5_SET(err_cqe64, cqe, qpn, sq->sqn);
	MLX5_SET(err_cqe64, cqe, wqe_counter, index);
	emu_cq_publish(sq->cq, cqe, MLX5_CQE_REQ_ERR);
	sq->st.cqes++;
}
