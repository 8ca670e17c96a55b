/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The wire: per-SQ and port counters, departure statistics, pcap capture
 * (libpcap, nanosecond timestamps) and the wire hook.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "emu_internal.h"

/*
 * The capture reaches the file at least this often while frames leave, so
 * that a reader (tcpdump -r, a test) sees them within a second of real
 * time instead of at close: libpcap's stdio buffer would otherwise keep
 * the last few KiB indefinitely.
 */
#define EMU_WIRE_FLUSH_NS 500000000ULL

int
emu_wire_open(struct mlx5_emu *emu, const char *path)
{
	pcap_t *p;
	pcap_dumper_t *d;

	p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 65535,
						 PCAP_TSTAMP_PRECISION_NANO);
	if (p == NULL)
		return -ENOMEM;
	d = pcap_dump_open(p, path);
	if (d == NULL) {
		emu_log(EMU_LOG_ERR, "pcap=%s: %s", path, pcap_geterr(p));
		pcap_close(p);
		return -EIO;
	}
	emu->pcap = p;
	emu->dumper = d;
	emu->pcap_dirty = false;
	emu->pcap_flushed_ns = emu_mono_ns();
	snprintf(emu->pcap_path, sizeof(emu->pcap_path), "%s", path);
	emu->pcap_frames = 0;
	__atomic_store_n(&emu->pcap_errno, 0, __ATOMIC_RELAXED);
	return 0;
}

/* Close the dumper and the handle (the capture's file with it). */
static void
wire_release(struct mlx5_emu *emu)
{
	if (emu->dumper != NULL)
		pcap_dump_close(emu->dumper);
	if (emu->pcap != NULL)
		pcap_close(emu->pcap);
	emu->dumper = NULL;
	emu->pcap = NULL;
	emu->pcap_dirty = false;
}

/*
 * A write to the capture failed with @p err: said once, kept for
 * mlx5_emu_pcap_error() and the close, and the capture ends (a file that
 * lost a write would hold a frame cut in the middle after it).
 */
static void
wire_failed(struct mlx5_emu *emu, int err)
{
	if (err == 0)
		err = EIO;
	__atomic_store_n(&emu->pcap_errno, err, __ATOMIC_RELAXED);
	emu_log(EMU_LOG_ERR,
		"pcap=%s: writing the capture failed after %" PRIu64
		" frames: %s; the capture stops (the file keeps what was "
		"written before)", emu->pcap_path, emu->pcap_frames,
		strerror(err));
	wire_release(emu);
}

/* Called after each pass of the engine, in either clock mode. */
void
emu_wire_flush_due(struct mlx5_emu *emu)
{
	uint64_t now;

	if (!emu->pcap_dirty)
		return;
	now = emu_mono_ns();
	if (now - emu->pcap_flushed_ns < EMU_WIRE_FLUSH_NS)
		return;
	errno = 0;
	if (pcap_dump_flush(emu->dumper) != 0) {
		wire_failed(emu, errno);
		return;
	}
	emu->pcap_flushed_ns = now;
	emu->pcap_dirty = false;
}

int
emu_wire_close(struct mlx5_emu *emu)
{
	int err;

	/* No capture (or one already closed): nothing to say. */
	if (emu->pcap_path[0] == '\0')
		return 0;
	if (emu->dumper != NULL) {
		errno = 0;
		if (pcap_dump_flush(emu->dumper) != 0)
			wire_failed(emu, errno);
	}
	wire_release(emu);
	err = __atomic_load_n(&emu->pcap_errno, __ATOMIC_RELAXED);
	if (err != 0)
		emu_log(EMU_LOG_ERR, "pcap=%s: the capture is incomplete: a "
			"write failed (%s) after %" PRIu64 " frames; the "
			"frames sent after them are not in it",
			emu->pcap_path, strerror(err), emu->pcap_frames);
	emu->pcap_path[0] = '\0';
	return -err;
}

/*
 * Unicast, multicast or broadcast, from the destination MAC of the
 * packet at the head of @p w (of an eMPW WQE: that packet's own).
 * emu_wire_tally_note() tells a unicast frame, the common case, from the
 * group bit of its first byte before it asks.
 */
enum emu_vport_tx_class
emu_wire_class(const struct emu_wqe *w)
{
	const struct emu_wqe_pkt *p = &w->pkts[w->pkt];
	uint8_t dmac[6];
	uint32_t i, k, n = 0;

	for (i = p->first; i < (uint32_t)p->first + p->nb && n < sizeof(dmac);
	     i++)
		for (k = 0; k < w->gather[i].len && n < sizeof(dmac); k++)
			dmac[n++] = w->gather[i].ptr[k];
	if (n < sizeof(dmac) || !(dmac[0] & 1))
		return EMU_VPORT_TX_UNICAST;
	for (i = 0; i < sizeof(dmac); i++)
		if (dmac[i] != 0xff)
			return EMU_VPORT_TX_MULTICAST;
	return EMU_VPORT_TX_BROADCAST;
}

/*
 * The current bucket of the recent-rate window is full with @p bytes
 * over @p busy_ps: store it and start the next one, empty.
 */
void
emu_rate_win_next(struct emu_rate_win *win, uint64_t bytes, uint64_t busy_ps)
{
	win->bytes[win->cur] = bytes;
	win->busy_ps[win->cur] = busy_ps;
	win->cur = (uint8_t)((win->cur + 1) % EMU_RATE_WIN_BUCKETS);
	win->bytes[win->cur] = 0;
	win->busy_ps[win->cur] = 0;
}

void
emu_wire_depart(struct mlx5_emu *emu, struct emu_sq *sq,
		const struct emu_wqe *w, uint64_t time_ps)
{
	struct emu_wire_tally y;

	emu_wire_tally_load(&y, emu, sq);
	emu_wire_tally_note(&y, w, sq->ready_ps, time_ps);
	emu_wire_tally_store(&y);
	if (emu->dumper == NULL && emu->hook == NULL)
		return;
	emu_wqe_gather(w, emu->frame);
	if (emu->dumper != NULL) {
		uint64_t ns = time_ps / EMU_PS_PER_NS;
		struct pcap_pkthdr h;

		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = (time_t)(ns / 1000000000ULL);
		/* Nanosecond precision: tv_usec holds nanoseconds. */
		h.ts.tv_usec = (suseconds_t)(ns % 1000000000ULL);
		h.len = w->len;
		h.caplen = w->len;
		pcap_dump((u_char *)emu->dumper, &h, emu->frame);
		emu->pcap_frames++;
		emu->pcap_dirty = true;
		/* A buffered write that failed sets the stream's error. */
		if (ferror(pcap_dump_file(emu->dumper)))
			wire_failed(emu, errno);
	}
	if (emu->hook != NULL)
		emu->hook(emu->hook_arg, sq->sqn, time_ps / EMU_PS_PER_NS,
			  emu->frame, w->len);
}

void
mlx5_emu_set_wire_hook(struct mlx5_emu *emu, mlx5_emu_wire_hook_t fn,
		       void *arg)
{
	emu_lock(emu);
	emu->hook = fn;
	emu->hook_arg = arg;
	emu_unlock(emu);
}

int
mlx5_emu_set_pcap(struct mlx5_emu *emu, const char *path)
{
	int ret = 0;

	emu_lock(emu);
	ret = emu_wire_close(emu);
	if (path != NULL && path[0] != '\0') {
		int r = emu_wire_open(emu, path);

		if (r < 0)
			ret = r;
	}
	emu_unlock(emu);
	return ret;
}

int
mlx5_emu_pcap_error(struct mlx5_emu *emu)
{
	return __atomic_load_n(&emu->pcap_errno, __ATOMIC_RELAXED);
}

void
mlx5_emu_get_port_stats(struct mlx5_emu *emu,
			struct mlx5_emu_port_stats *stats)
{
	emu_lock(emu);
	*stats = emu->port;
	emu_unlock(emu);
}
