/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * The device under test: a fresh net_mlx5_tm port per step on the device
 * the user named, frames sent on its queues, and what the device reports
 * back (completion time stamps, vport counters). On the emulated device
 * with a virtual clock, time moves only when the check says so: measured
 * rates are then exact whatever the machine's load.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "mlx5_emu.h"
#include "hc.h"

/** Frames per tx_burst call. */
#define HC_BURST 32
/** Data room of the mbufs of ordinary frames. */
#define HC_POOL_ROOM (2048 + RTE_PKTMBUF_HEADROOM)
/** Ethertype of the check's frames: IEEE local experimental. */
#define HC_ETHERTYPE 0x88b5

/* Keep @p s (the value of --vdev) if it names a net_mlx5_tm device. */
static int
take_vdev(struct hc *hc, const char *s)
{
	const char *comma = strchr(s, ',');
	size_t n = comma != NULL ? (size_t)(comma - s) : strlen(s);

	if (strncmp(s, "net_mlx5_tm", 11) != 0 || hc->vdev_name[0] != '\0')
		return 0;
	if (n >= sizeof(hc->vdev_name) ||
	    (comma != NULL && strlen(comma + 1) >= sizeof(hc->vdev_args))) {
		fprintf(stderr, "hw-check: --vdev %s: too long\n", s);
		return -EINVAL;
	}
	memcpy(hc->vdev_name, s, n);
	hc->vdev_name[n] = '\0';
	snprintf(hc->vdev_args, sizeof(hc->vdev_args), "%s",
		 comma != NULL ? comma + 1 : "");
	return 0;
}

/* True when devargs @p args have key @p key. */
static bool
has_key(const char *args, const char *key)
{
	size_t n = strlen(key);
	const char *p = args;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, n) == 0 && p[n] == '=')
			return true;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return false;
}

int
hc_dev_args(struct hc *hc, int argc, char **argv)
{
	int i, ret;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--vdev") == 0 && i + 1 < argc)
			ret = take_vdev(hc, argv[++i]);
		else if (strncmp(argv[i], "--vdev=", 7) == 0)
			ret = take_vdev(hc, argv[i] + 7);
		else
			continue;
		if (ret < 0)
			return ret;
	}
	hc->add_virtual_clock = has_key(hc->vdev_args, "emu") &&
				!has_key(hc->vdev_args, "clock");
	return 0;
}

void
hc_port_close(struct hc *hc)
{
	if (!hc->port_open)
		return;
	if (hc->started)
		rte_eth_dev_stop(hc->port_id);
	rte_eth_dev_close(hc->port_id);
	rte_vdev_uninit(hc->vdev_name);
	hc->port_open = false;
	hc->started = false;
	hc->emu = NULL;
	hc->vclock = false;
}

void
hc_log_start(struct hc *hc)
{
	hc->log_buf = NULL;
	hc->log_len = 0;
	hc->log_mem = open_memstream(&hc->log_buf, &hc->log_len);
	if (hc->log_mem != NULL)
		rte_openlog_stream(hc->log_mem);
}

void
hc_log_stop(struct hc *hc, char *buf, size_t len)
{
	buf[0] = '\0';
	if (hc->log_mem == NULL)
		return;
	rte_openlog_stream(NULL);
	if (fclose(hc->log_mem) == 0 && hc->log_buf != NULL)
		snprintf(buf, len, "%.*s", (int)strcspn(hc->log_buf, "\n"),
			 hc->log_buf);
	free(hc->log_buf);
	hc->log_mem = NULL;
	hc->log_buf = NULL;
}

int
hc_port_open(struct hc *hc, const char *extra)
{
	char args[1024];
	uint16_t port;
	int ret;

	hc_port_close(hc);
	/* EAL probed the user's vdev at start-up: it goes too. */
	if (rte_eth_dev_get_port_by_name(hc->vdev_name, &port) == 0) {
		rte_eth_dev_close(port);
		rte_vdev_uninit(hc->vdev_name);
	}
	snprintf(args, sizeof(args), "%s%s%s%s", hc->vdev_args,
		 hc->add_virtual_clock ? ",clock=virtual" : "",
		 extra[0] != '\0' ? "," : "", extra);
	ret = rte_vdev_init(hc->vdev_name, args);
	if (ret != 0)
		return ret < 0 ? ret : -ENODEV;
	ret = rte_eth_dev_get_port_by_name(hc->vdev_name, &port);
	if (ret != 0)
		return -ENODEV;
	hc->port_id = port;
	hc->port_open = true;
	hc->started = false;
	hc->nb_txq = 0;
	ret = rte_pmd_mlx5_tm_dev_info(port, &hc->info);
	if (ret != 0) {
		hc_port_close(hc);
		return ret;
	}
	hc->emu = rte_pmd_mlx5_tm_emu(port);
	hc->vclock = hc->emu != NULL &&
		     mlx5_emu_clock(hc->emu) == MLX5_EMU_CLOCK_VIRTUAL;
	hc->ran_vclock |= hc->vclock;
	return 0;
}

int
hc_port_setup(struct hc *hc, uint16_t nb_txq, uint16_t nb_desc)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(hc->port_id, 0, nb_txq, &conf);
	if (ret != 0)
		return ret;
	hc->nb_txq = nb_txq;
	hc->nb_desc = nb_desc;
	for (q = 0; q < nb_txq && nb_desc != 0; q++) {
		ret = rte_eth_tx_queue_setup(hc->port_id, q, nb_desc,
					     rte_eth_dev_socket_id(hc->port_id),
					     NULL);
		if (ret != 0)
			return ret;
	}
	return 0;
}

int
hc_port_start(struct hc *hc)
{
	int ret = rte_eth_dev_start(hc->port_id);

	if (ret == 0)
		hc->started = true;
	return ret;
}

uint64_t
hc_now_ns(const struct hc *hc)
{
	struct timespec ts;

	if (hc->vclock)
		return mlx5_emu_now_ns(hc->emu);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec -
	       hc->t0_ns;
}

void
hc_wait_ns(struct hc *hc, uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	if (hc->vclock)
		mlx5_emu_advance(hc->emu, ns);
	else
		nanosleep(&ts, NULL);
}

int
hc_cmpl(struct hc *hc, uint16_t q, struct rte_pmd_mlx5_tm_txq_completions *c)
{
	/* Completions are taken by the datapath: let it run once. */
	rte_eth_tx_done_cleanup(hc->port_id, q, 0);
	return rte_pmd_mlx5_tm_txq_completions(hc->port_id, q, c);
}

bool
hc_drain(struct hc *hc, uint16_t q, uint64_t posted_total)
{
	struct rte_pmd_mlx5_tm_txq_completions c;
	uint64_t until = hc_now_ns(hc) + 1000000000ULL;

	/*
	 * The last frames of a burst below the completion threshold asked
	 * for no CQE: tx_done_cleanup asks for one (a NOP WQE).
	 */
	rte_eth_tx_done_cleanup(hc->port_id, q, 0);
	if (hc->vclock)
		mlx5_emu_drain(hc->emu);
	do {
		if (hc_cmpl(hc, q, &c) == 0 && c.last_packets >= posted_total)
			return true;
		if (hc->vclock)
			return false;
		hc_wait_ns(hc, 100000);
	} while (hc_now_ns(hc) < until);
	return false;
}

int
hc_vport(struct hc *hc, uint64_t *packets, uint64_t *octets)
{
	struct rte_pmd_mlx5_tm_vport_tx tx;
	int ret;

	if (hc->vclock)
		mlx5_emu_poll(hc->emu);
	ret = rte_pmd_mlx5_tm_vport_tx(hc->port_id, &tx);
	if (ret != 0)
		return ret;
	*packets = tx.unicast_packets + tx.multicast_packets +
		   tx.broadcast_packets;
	*octets = tx.unicast_octets + tx.multicast_octets +
		  tx.broadcast_octets;
	return 0;
}

uint64_t
hc_xstat(struct hc *hc, const char *name)
{
	uint64_t id, v = 0;

	if (rte_eth_xstats_get_id_by_name(hc->port_id, name, &id) != 0 ||
	    rte_eth_xstats_get_by_id(hc->port_id, &id, &v, 1) != 1)
		return 0;
	return v;
}

double
hc_pkt_ns(uint32_t frame_len, double bps)
{
	return bps > 0 ? (double)frame_len * 8e9 / bps : 0;
}

void
hc_rate(const struct rte_pmd_mlx5_tm_txq_completions *a,
	const struct rte_pmd_mlx5_tm_txq_completions *b, struct hc_rate *r)
{
	double s;

	memset(r, 0, sizeof(*r));
	/* Without a CQE before the window, its start is unknown. */
	if (a->cqes == 0 || !a->ts_valid || !b->ts_valid ||
	    b->last_ns <= a->last_ns ||
	    b->last_packets <= a->last_packets)
		return;
	r->valid = true;
	r->packets = b->last_packets - a->last_packets;
	r->bytes = b->last_bytes - a->last_bytes;
	r->ns = b->last_ns - a->last_ns;
	s = (double)r->ns / 1e9;
	r->l2_bps = (double)r->bytes * 8 / s;
	r->fcs_bps = (double)(r->bytes + r->packets * HC_FCS_BYTES) * 8 / s;
	r->wire_bps = (double)(r->bytes + r->packets *
			       (HC_FCS_BYTES + HC_PREAMBLE_IFG_BYTES)) * 8 / s;
	r->pps = (double)r->packets / s;
}

/* Fill @p m with a frame of @p len bytes from the port's own MAC. */
static int
make_frame(struct hc *hc, struct rte_mbuf *m, uint32_t len)
{
	struct rte_ether_hdr *eh;
	uint8_t *p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);

	if (p == NULL || len < sizeof(*eh))
		return -EINVAL;
	memset(p, 0, len);
	eh = (struct rte_ether_hdr *)p;
	/* Locally administered unicast: never leaves a lab switch. */
	eh->dst_addr.addr_bytes[0] = 0x02;
	eh->dst_addr.addr_bytes[5] = 0x01;
	rte_eth_macaddr_get(hc->port_id, &eh->src_addr);
	eh->ether_type = rte_cpu_to_be_16(HC_ETHERTYPE);
	return 0;
}

/* Post up to @p n frames of flow @p f; return how many were taken. */
static int
post(struct hc *hc, struct hc_flow *f, uint16_t n)
{
	struct rte_mempool *mp = f->frame_len + RTE_PKTMBUF_HEADROOM >
				 HC_POOL_ROOM ? hc->jumbo_pool : hc->pool;
	struct rte_mbuf *m[HC_BURST];
	uint16_t i, sent;

	if (rte_pktmbuf_alloc_bulk(mp, m, n) != 0)
		return -ENOBUFS;
	for (i = 0; i < n; i++) {
		if (make_frame(hc, m[i], f->frame_len) != 0) {
			rte_pktmbuf_free_bulk(m, n);
			return -EINVAL;
		}
	}
	sent = rte_eth_tx_burst(hc->port_id, f->queue, m, n);
	for (i = sent; i < n; i++)
		rte_pktmbuf_free(m[i]);
	f->posted += sent;
	return sent;
}

/* Virtual-clock step: a quarter of a ring at the fastest flow's pace. */
static uint64_t
vstep_ns(const struct hc *hc, const struct hc_flow *flows, unsigned int n)
{
	double line_bps = (double)hc->info.line_rate_mbps * 1e6;
	double step = 10e6;
	unsigned int i;

	for (i = 0; i < n; i++) {
		double pps = (double)flows[i].expect_pps;
		double t;

		if (pps == 0 && line_bps > 0)
			pps = line_bps / ((double)(flows[i].frame_len +
				HC_FCS_BYTES + HC_PREAMBLE_IFG_BYTES) * 8);
		if (pps == 0)
			continue;
		t = (double)hc->nb_desc / 4 * 1e9 / pps / n;
		if (t < step)
			step = t;
	}
	return step < 200 ? 200 : (uint64_t)step;
}

int
hc_send(struct hc *hc, struct hc_flow *flows, unsigned int n, uint64_t ns)
{
	uint64_t now = hc_now_ns(hc), end = now + ns;
	uint64_t step = hc->vclock ? vstep_ns(hc, flows, n) : 0;
	unsigned int i;

	while (now < end) {
		bool active = false;

		for (i = 0; i < n; i++) {
			struct hc_flow *f = &flows[i];
			unsigned int k;

			/* Fill the ring (bounded: a ring's worth). */
			for (k = 0; k <= hc->nb_desc / HC_BURST; k++) {
				uint64_t left = f->max_packets ?
					f->max_packets - f->posted : HC_BURST;
				uint16_t want = left < HC_BURST ?
						(uint16_t)left : HC_BURST;
				int r;

				if (want == 0)
					break;
				active = true;
				r = post(hc, f, want);
				if (r < 0)
					return r;
				if (r < want)
					break;
			}
		}
		if (!active)
			break;
		if (hc->vclock)
			hc_wait_ns(hc, RTE_MIN(step, end - now));
		else
			rte_pause();
		now = hc_now_ns(hc);
	}
	return 0;
}

const char *
hc_fmt_bps(char *buf, size_t len, double bps)
{
	static const char *const unit[] = { "", "K", "M", "G", "T" };
	unsigned int u = 0;

	while (bps >= 1000 && u < 4) {
		bps /= 1000;
		u++;
	}
	snprintf(buf, len, "%.4g %sbit/s", bps, unit[u]);
	return buf;
}
