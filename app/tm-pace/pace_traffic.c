/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "pace_traffic.h"

#define HDR_LEN (sizeof(struct rte_ether_hdr) + sizeof(struct rte_ipv4_hdr) + \
		 sizeof(struct rte_udp_hdr))
#define PAYLOAD_OFF HDR_LEN

struct frame_tmpl {
	uint16_t queue;
	uint16_t size;
	uint16_t size_max;
	/* The port's own MAC: a VF's spoof check drops any other source. */
	struct rte_ether_addr src;
};

static void
fill_ip_udp(uint8_t *frame, uint16_t size)
{
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)
		(frame + sizeof(struct rte_ether_hdr));
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t ip_len = size - sizeof(struct rte_ether_hdr);

	ip->total_length = rte_cpu_to_be_16(ip_len);
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->dgram_len = rte_cpu_to_be_16(ip_len - sizeof(*ip));
}

/* Mempool object iterator: the headers are written once per mbuf. */
static void
prebuild(struct rte_mempool *mp __rte_unused, void *arg, void *obj,
	 unsigned int idx __rte_unused)
{
	const struct frame_tmpl *tm = arg;
	struct rte_mbuf *m = obj;
	uint8_t *frame = (uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM;
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)frame;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	struct pace_payload *pl = (struct pace_payload *)(udp + 1);
	static const struct rte_ether_addr dst = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 } };

	memset(frame, 0, tm->size_max);
	rte_ether_addr_copy(&dst, &eth->dst_addr);
	rte_ether_addr_copy(&tm->src, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 1));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, tm->queue & 0xff, 2));
	udp->src_port = rte_cpu_to_be_16(1024 + tm->queue);
	udp->dst_port = rte_cpu_to_be_16(5000 + tm->queue);
	pl->magic = rte_cpu_to_be_32(PACE_PAYLOAD_MAGIC);
	pl->queue = rte_cpu_to_be_16(tm->queue);
	fill_ip_udp(frame, tm->size);
}

static unsigned int
gcd(unsigned int a, unsigned int b)
{
	while (b != 0) {
		unsigned int r = a % b;

		a = b;
		b = r;
	}
	return a;
}

uint16_t
pace_size_step(unsigned int n)
{
	unsigned int s = (unsigned int)lround(n * 0.6180339887498949);

	if (n <= 1)
		return 0;
	if (s == 0)
		s = 1;
	/* s and n - s are equally good: the nearest one prime to n. */
	while (gcd(s, n) != 1)
		s++;
	return (uint16_t)s;
}

int
pace_txq_init(struct pace_txq *t, uint16_t port_id, uint16_t queue,
	      uint16_t size_min, uint16_t size_max, uint16_t burst,
	      unsigned int nb_mbufs, int socket)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct frame_tmpl tmpl = {
		.queue = queue, .size = size_min, .size_max = size_max };
	uint16_t room = RTE_PKTMBUF_HEADROOM + RTE_MAX(size_max, 128);

	memset(t, 0, sizeof(*t));
	t->port_id = port_id;
	t->queue = queue;
	t->size_min = size_min;
	t->size_max = size_max;
	t->size_step = pace_size_step((unsigned int)(size_max - size_min) + 1);
	t->burst = RTE_MIN(burst, PACE_MAX_TX_BURST);
	snprintf(name, sizeof(name), "tm_pace_p%u_q%u", port_id, queue);
	if (rte_eth_macaddr_get(port_id, &tmpl.src) != 0) {
		fprintf(stderr, "tm-pace: port %u has no MAC address\n",
			port_id);
		return -ENODEV;
	}
	t->pool = rte_pktmbuf_pool_create(name, nb_mbufs, 64, 0, room, socket);
	if (t->pool == NULL) {
		fprintf(stderr, "tm-pace: mempool for queue %u (%u mbufs of "
			"%u bytes): %s\n", queue, nb_mbufs, room,
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	rte_mempool_obj_iter(t->pool, prebuild, &tmpl);
	return 0;
}

/* Give @p m its size and its sequence number; the rest is prebuilt. */
static inline void
stamp(struct pace_txq *t, struct rte_mbuf *m)
{
	uint8_t *frame = rte_pktmbuf_mtod(m, uint8_t *);
	struct pace_payload *pl = (struct pace_payload *)(frame + PAYLOAD_OFF);
	uint16_t size = t->size_min;

	if (t->size_max != t->size_min) {
		size += t->size_off;
		t->size_off += t->size_step;
		if (t->size_off > t->size_max - t->size_min)
			t->size_off -= t->size_max - t->size_min + 1;
		fill_ip_udp(frame, size);
	}
	m->data_len = size;
	m->pkt_len = size;
	pl->seq = rte_cpu_to_be_64(t->seq);
	t->seq++;
}

static inline void
count(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/* One tx_burst; the caller counts the attempt. */
static uint16_t
push_one(struct pace_txq *t, bool *full)
{
	struct rte_mbuf **pkts;
	uint64_t bytes = 0;
	uint16_t n, sent, i;

	*full = false;
	if (t->nb_pending == 0) {
		t->pending_off = 0;
		if (rte_pktmbuf_alloc_bulk(t->pool, t->pending, t->burst)) {
			count(&t->cnt.alloc_fail, 1);
			return 0;
		}
		for (i = 0; i < t->burst; i++)
			stamp(t, t->pending[i]);
		t->nb_pending = t->burst;
	}
	pkts = &t->pending[t->pending_off];
	n = t->nb_pending;
	sent = rte_eth_tx_burst(t->port_id, t->queue, pkts, n);
	for (i = 0; i < sent; i++)
		bytes += pkts[i]->pkt_len;
	t->pending_off += sent;
	t->nb_pending -= sent;
	*full = sent < n;
	if (sent > 0) {
		count(&t->cnt.pkts, sent);
		count(&t->cnt.bytes, bytes);
	}
	return sent;
}

uint16_t
pace_txq_push(struct pace_txq *t)
{
	bool full;
	uint16_t sent = push_one(t, &full);

	count(&t->cnt.bursts, 1);
	if (full)
		count(&t->cnt.bursts_short, 1);
	return sent;
}

unsigned int
pace_txq_fill(struct pace_txq *t, unsigned int max_bursts)
{
	unsigned int k, sent = 0;
	bool full = false;

	for (k = 0; k < max_bursts && !full; k++) {
		uint16_t n = push_one(t, &full);

		sent += n;
		if (n == 0 && !full)
			break;  /* mempool empty */
	}
	count(&t->cnt.bursts, 1);
	if (full)
		count(&t->cnt.bursts_short, 1);
	return sent;
}

void
pace_txq_free(struct pace_txq *t)
{
	if (t->nb_pending > 0)
		rte_pktmbuf_free_bulk(&t->pending[t->pending_off],
				      t->nb_pending);
	t->nb_pending = 0;
	rte_mempool_free(t->pool);
	t->pool = NULL;
}

void
pace_txq_read(const struct pace_txq *t, struct pace_tx_counters *out)
{
	out->pkts = __atomic_load_n(&t->cnt.pkts, __ATOMIC_RELAXED);
	out->bytes = __atomic_load_n(&t->cnt.bytes, __ATOMIC_RELAXED);
	out->bursts = __atomic_load_n(&t->cnt.bursts, __ATOMIC_RELAXED);
	out->bursts_short = __atomic_load_n(&t->cnt.bursts_short,
					    __ATOMIC_RELAXED);
	out->alloc_fail = __atomic_load_n(&t->cnt.alloc_fail,
					  __ATOMIC_RELAXED);
}
