/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * PMD suite: net_mlx5_tm on the device model, EAL in process.
 *
 * Ports are created and removed with rte_vdev_init()/rte_vdev_uninit() so
 * that each test gets the devargs it needs; messages are checked by
 * capturing the log. Every packet carries a header (queue, sequence number,
 * length, position-weighted sum of its payload) that the wire hook checks
 * as the device model sends it.
 */

#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <netinet/in.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_tm.h>

#include "mlx5_emu.h"
#include "mlx5_tm_prm.h"
#include "mlx5_tm_wqe.h"
#include "rte_pmd_mlx5_tm.h"

#include "pmd_test_emu.h"
#include "pmd_test_util.h"


#define NB_TXQ 4
#define RING 512
#define POOL_SZ 8191
#define MAX_SEGS 4
#define SEG_ROOM 512
#define PAYLOAD_MAGIC 0x6d6c3574u
#define ETHERTYPE_TEST 0x88b5

static struct rte_mempool *pool;

/* Every mbuf is back in the pool. */
#define CHECK_POOL_EMPTY() \
	CHECK(rte_mempool_in_use_count(pool) == 0, "%u mbufs in use", \
	      rte_mempool_in_use_count(pool))

/* The device sent @p n frames of queue 0. */
#define CHECK_Q0_WIRE(port, n) \
	CHECK(xstat(port, "tx_q0_wire_packets") == (n), "wire %" PRIu64, \
	      xstat(port, "tx_q0_wire_packets"))

/* ---- packets ---- */

/* What follows the Ethernet header of every test packet. */
struct test_hdr {
	uint32_t magic;
	uint16_t queue;
	uint16_t vlan;   /* 1: the PMD was asked to insert a VLAN tag. */
	uint32_t seq;
	uint32_t len;    /* Frame length as built (without the tag). */
	uint64_t sum;    /* Position-weighted sum of the filler. */
} __attribute__((packed));

#define HDR_OFF 14
#define FILL_OFF (HDR_OFF + sizeof(struct test_hdr))

static uint8_t
fill_byte(uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 31u + i * 7u + (i >> 8));
}

static uint64_t
fill_sum(const uint8_t *p, uint32_t n)
{
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		s += (uint64_t)p[i] * (i + 1);
	return s;
}

/* Build a frame of @p len bytes for queue @p q, sequence @p seq. */
static void
build_frame(uint8_t *f, uint32_t len, uint16_t q, uint32_t seq, bool vlan)
{
	struct test_hdr h = {
		.magic = PAYLOAD_MAGIC, .queue = q, .vlan = vlan, .seq = seq,
		.len = len,
	};
	uint32_t i;

	memset(f, 0, HDR_OFF);
	f[0] = 0x02;
	f[5] = (uint8_t)q;
	f[6] = 0x02;
	f[11] = 0x01;
	f[12] = ETHERTYPE_TEST >> 8;
	f[13] = ETHERTYPE_TEST & 0xff;
	for (i = FILL_OFF; i < len; i++)
		f[i] = fill_byte(seq, i);
	h.sum = fill_sum(f + FILL_OFF, len - FILL_OFF);
	memcpy(f + HDR_OFF, &h, sizeof(h));
}

/* An mbuf chain of @p nseg segments of pool @p mp holding frame @p f. */
static struct rte_mbuf *
frame_to_mbuf_from(struct rte_mempool *mp, const uint8_t *f, uint32_t len,
		   unsigned int nseg)
{
	struct rte_mbuf *head = NULL, *last = NULL;
	uint32_t off = 0;
	unsigned int k;

	if (nseg > len / 32)
		nseg = 1;
	for (k = 0; k < nseg; k++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
		uint32_t part = k + 1 == nseg ? len - off : len / nseg;
		char *d;

		if (m == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		d = rte_pktmbuf_append(m, part);
		memcpy(d, f + off, part);
		off += part;
		if (head == NULL) {
			head = m;
		} else {
			last->next = m;
			head->nb_segs++;
			head->pkt_len += part;
		}
		last = m;
	}
	return head;
}

/* An mbuf chain of @p nseg segments of the test's pool holding @p f. */
static struct rte_mbuf *
frame_to_mbuf(const uint8_t *f, uint32_t len, unsigned int nseg)
{
	return frame_to_mbuf_from(pool, f, len, nseg);
}

/* ---- wire hook: checks every departing frame ---- */

struct wire_check {
	uint32_t sqn[NB_TXQ];
	uint64_t packets[NB_TXQ];
	uint64_t bytes[NB_TXQ];
	uint32_t next_seq[NB_TXQ];
	uint64_t bad;        /* Wrong magic, length, sum, tag or queue. */
	uint64_t out_of_seq; /* Lost, duplicated or reordered. */
	char first_error[160];
};

static struct wire_check wire;

static void
wire_error(const char *fmt, ...)
{
	va_list ap;

	if (wire.first_error[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(wire.first_error, sizeof(wire.first_error), fmt, ap);
	va_end(ap);
}

static void
wire_hook(void *arg __rte_unused, uint32_t sqn, uint64_t t __rte_unused,
	  const uint8_t *b, uint32_t len)
{
	struct test_hdr h;
	uint32_t off = HDR_OFF, flen = len;
	uint8_t exp[2048];
	uint16_t q;

	for (q = 0; q < NB_TXQ; q++)
		if (wire.sqn[q] == sqn)
			break;
	if (q == NB_TXQ) {
		wire.bad++;
		wire_error("frame from unknown SQ 0x%x", sqn);
		return;
	}
	if (len >= 18 && b[12] == 0x81 && b[13] == 0x00) {
		/* Inserted tag: TCI is the queue number plus 100. */
		if ((uint32_t)((b[14] << 8) | b[15]) != 100u + q) {
			wire.bad++;
			wire_error("bad VLAN TCI on queue %u", q);
			return;
		}
		off += 4;
		flen -= 4;
	}
	if (len < off + sizeof(h)) {
		wire.bad++;
		wire_error("runt frame of %u bytes", len);
		return;
	}
	memcpy(&h, b + off, sizeof(h));
	if (h.magic != PAYLOAD_MAGIC || h.queue != q || h.len != flen ||
	    h.vlan != (off != HDR_OFF) || flen > sizeof(exp)) {
		wire.bad++;
		wire_error("bad frame on queue %u: seq %u len %u/%u", q, h.seq,
			   h.len, flen);
		return;
	}
	/* Byte for byte: the frame its header names, rebuilt, tag aside. */
	build_frame(exp, flen, q, h.seq, h.vlan != 0);
	if (memcmp(b, exp, 12) != 0 ||
	    memcmp(b + 12 + (len - flen), exp + 12, flen - 12) != 0) {
		wire.bad++;
		wire_error("queue %u: frame seq %u (%u bytes) differs from "
			   "the one sent", q, h.seq, flen);
		return;
	}
	if (h.seq != wire.next_seq[q]) {
		wire.out_of_seq++;
		wire_error("queue %u: seq %u, expected %u", q, h.seq,
			   wire.next_seq[q]);
	}
	wire.next_seq[q] = h.seq + 1;
	wire.packets[q]++;
	wire.bytes[q] += len;
}

/* ---- ports ---- */

static int
port_create(const char *name, const char *args, uint16_t *port)
{
	int ret = rte_vdev_init(name, args);

	if (ret < 0)
		return ret;
	return rte_eth_dev_get_port_by_name(name, port);
}

/* Stop, close and remove a port: the device must be left empty. */
static void
port_destroy(const char *name, uint16_t port)
{
	const char *log;

	log_capture_start();
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	rte_vdev_uninit(name);
	log = log_capture_stop();
	CHECK(strstr(log, "objects left") == NULL &&
	      strstr(log, "closing device") == NULL,
	      "%s not released: %s", name, log);
}

static int
port_setup(uint16_t port, uint16_t nb_txq, uint64_t offloads)
{
	struct rte_eth_conf conf = { .txmode = { .offloads = offloads } };
	uint16_t q;
	int ret;

	ret = rte_eth_dev_configure(port, 0, nb_txq, &conf);
	if (ret < 0)
		return ret;
	for (q = 0; q < nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(port, q, RING, SOCKET_ID_ANY,
					     NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * Probe port @p name with @p args (a CHECK) and find its device model.
 * Returns -1 when the test has failed by the probe (no port to destroy),
 * 0 otherwise.
 */
static int
probe_port(const char *name, const char *args, uint16_t *port,
	   struct mlx5_emu **emu)
{
	CHECK(port_create(name, args, port) == 0, "probe");
	if (!test_ok)
		return -1;
	*emu = rte_pmd_mlx5_tm_emu(*port);
	return 0;
}

/*
 * probe_port(), then configure @p nb_txq queues with @p offloads and start
 * the port; with @p sqn, read the SQ number of queue @p sqn_q. Each step
 * is a CHECK. Returns -1 when the test has failed by the probe (no port to
 * destroy), 0 otherwise: test_ok then says whether the later steps passed,
 * and the caller destroys the port.
 */
static int
start_port(const char *name, const char *args, uint16_t nb_txq,
	   uint64_t offloads, uint16_t *port, struct mlx5_emu **emu,
	   uint16_t sqn_q, uint32_t *sqn)
{
	if (probe_port(name, args, port, emu) != 0)
		return -1;
	CHECK(port_setup(*port, nb_txq, offloads) == 0, "setup");
	CHECK(rte_eth_dev_start(*port) == 0, "start");
	if (sqn != NULL)
		CHECK(rte_pmd_mlx5_tm_txq_sqn(*port, sqn_q, sqn) == 0, "sqn");
	return 0;
}

/* Send @p n packets of @p len bytes on queue @p q, moving virtual time. */
static uint32_t
send_simple(uint16_t port, uint16_t q, struct mlx5_emu *emu, uint32_t n,
	    uint32_t len, uint32_t *seq)
{
	uint8_t f[2048];
	uint32_t sent = 0, spins = 0;

	while (sent < n && spins < 1000000) {
		struct rte_mbuf *m;

		build_frame(f, len, q, *seq, false);
		m = frame_to_mbuf(f, len, 1);
		if (m == NULL) {
			rte_eth_tx_done_cleanup(port, q, 0);
			mlx5_emu_advance(emu, 1000);
			spins++;
			continue;
		}
		while (rte_eth_tx_burst(port, q, &m, 1) == 0 &&
		       spins++ < 1000000)
			mlx5_emu_advance(emu, 1000);
		(*seq)++;
		sent++;
	}
	return sent;
}

/*
 * Send @p n frames of @p len bytes on queue 1 and let the device send
 * them; returns the queue's wire rate (over its last second of sending).
 */
static uint64_t
send_q1_rate(uint16_t port, struct mlx5_emu *emu, uint32_t n, uint32_t len,
	     uint32_t *seq)
{
	CHECK(send_simple(port, 1, emu, n, len, seq) == n, "send");
	mlx5_emu_drain(emu);
	return xstat(port, "tx_q1_wire_rate_bps");
}

/*
 * @p bps is within 0.5 % of @p want: the pacer's precision in virtual
 * time, as the device model's.
 */
static bool
rate_near(uint64_t bps, uint64_t want)
{
	return bps > want - want / 200 && bps < want + want / 200;
}

/*
 * Poll queue 0 (datapath, then control path) while virtual time moves
 * @p step_ns a round, until it has recovered from its error CQE: one
 * error CQE, one recovery.
 */
static void
wait_one_recovery(uint16_t port, struct mlx5_emu *emu, uint64_t step_ns)
{
	uint64_t rec = 0;
	unsigned int i;

	for (i = 0; i < 100000 && rec == 0; i++) {
		rte_eth_tx_burst(port, 0, NULL, 0);
		rte_pmd_mlx5_tm_recover(port);
		mlx5_emu_advance(emu, step_ns);
		rec = xstat(port, "tx_q0_recoveries");
	}
	CHECK(rec == 1, "%" PRIu64 " recoveries", rec);
	CHECK(xstat(port, "tx_q0_error_cqes") == 1, "%" PRIu64 " error CQEs",
	      xstat(port, "tx_q0_error_cqes"));
}

/*
 * After queue 0's recovery it sends again, and each of the @p seq frames
 * posted is on the wire or counted unsent, one per mbuf (the frames
 * posted before the recovery of @p segs segments each); every mbuf is
 * back. Returns the mbufs counted unsent.
 */
static uint64_t
check_sends_after_recovery(uint16_t port, struct mlx5_emu *emu,
			   uint32_t *seq, unsigned int segs)
{
	uint64_t wire_pkts, err_mbufs;

	CHECK(send_simple(port, 0, emu, 100, 300, seq) == 100, "send");
	tx_settle(port, 0, emu);
	wire_pkts = xstat(port, "tx_q0_wire_packets");
	err_mbufs = xstat(port, "tx_q0_error_mbufs");
	CHECK(err_mbufs % segs == 0 && wire_pkts + err_mbufs / segs == *seq,
	      "%" PRIu64 " sent + %" PRIu64 " mbufs of %u segments unsent"
	      " != %u posted", wire_pkts, err_mbufs, segs, *seq);
	CHECK_POOL_EMPTY();
	return err_mbufs;
}

/* ---- tests ---- */

struct refusal {
	const char *args;
	const char *expect[3];
};

/* @p r's devargs refused at probe, with each of its expected words. */
static void
check_refused(const struct refusal *r)
{
	const char *log;
	uint16_t port;
	unsigned int k;
	int ret;

	log_capture_start();
	ret = rte_vdev_init("net_mlx5_tm9", r->args);
	log = log_capture_stop();
	CHECK(ret < 0, "devargs '%s' accepted", r->args);
	if (ret == 0) {
		if (rte_eth_dev_get_port_by_name("net_mlx5_tm9", &port) == 0)
			port_destroy("net_mlx5_tm9", port);
		return;
	}
	for (k = 0; k < RTE_DIM(r->expect) && r->expect[k] != NULL; k++)
		CHECK(strstr(log, r->expect[k]) != NULL,
		      "devargs '%s': no '%s' in the message: %s",
		      r->args, r->expect[k], log);
}

static void
test_devarg_refusals(void)
{
	static const struct refusal cases[] = {
		{ "emu=cx6dx,foo=1", { "unknown devarg 'foo'",
				       "accepted keys", "tx_burst_bound" } },
		{ "emu=cx9", { "bad value 'cx9' for devarg emu",
			       "cx5, cx6dx, cx7" } },
		{ "", { "no device given", "dev=", "emu=" } },
		{ "emu=cx6dx,dev=mlx5_0", { "dev= and emu= both given",
					    "exactly one of" } },
		{ "emu=cx6dx,emu=cx7", { "devarg emu given twice",
					 "emu=cx6dx and emu=cx7" } },
		{ "emu=cx6dx,tx_burst_bound=1,tx_burst_bound=2",
		  { "devarg tx_burst_bound given twice" } },
		{ "emu=cx6dx,pacing_index=shared,pacing_index=dedicated",
		  { "devarg pacing_index given twice" } },
		{ "emu=cx6dx,clock=virtual,clock=realtime",
		  { "devarg clock given twice" } },
		{ "emu=cx6dx,cap_pp_table_size=8,cap_pp_table_size=16",
		  { "devarg cap_pp_table_size given twice" } },
		{ "emu=cx6dx, clock=virtual",
		  { "devarg key ' clock' has blanks", "did you mean 'clock'" } },
		{ "emu=cx6dx,cpus=99",
		  { "cpus='99'", "not every CPU of the list is online",
		    "online CPUs: 0" } },
		{ "emu=cx6dx,pacing_index=sometimes",
		  { "pacing_index", "shared, dedicated" } },
		{ "emu=cx6dx,tx_burst_bound=abc",
		  { "bad value 'abc' for devarg tx_burst_bound" } },
		{ "emu=cx6dx,tx_typical_pkt_sz=70000",
		  { "tx_typical_pkt_sz", "0..65535" } },
		{ "emu=cx6dx,rate_tolerance_ppm=2000000",
		  { "rate_tolerance_ppm", "0..1000000" } },
		{ "emu=cx6dx,txq_mpw_en=2",
		  { "bad value '2' for devarg txq_mpw_en", "0 or 1" } },
		{ "dev=mlx5_0,clock=virtual", { "clock", "needs emu=" } },
		{ "emu=cx6dx,clock=sometimes", { "clock" } },
		{ "dev=mlx5_tm_no_such_device",
		  { "no mlx5 device found",
		    "to run without hardware use emu=cx5|cx6dx|cx7" } },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++)
		check_refused(&cases[i]);
}

/*
 * A bad value of each driver devarg, and where it stands among the device
 * model's keys: the driver's keys are checked in a pass of their own after
 * the model's, and a model key accepted before them must not hide their
 * refusal (it did: the probe succeeded).
 */
static const struct {
	const char *arg;
	const char *expect;
} bad_pmd_devargs[] = {
	{ "pacing_index=foo", "bad value 'foo' for devarg pacing_index" },
	{ "txq_mpw_en=2", "bad value '2' for devarg txq_mpw_en" },
	{ "rate_tolerance_ppm=1000001",
	  "bad value '1000001' for devarg rate_tolerance_ppm" },
	{ "tx_burst_bound=-5", "bad value '-5' for devarg tx_burst_bound" },
	{ "tx_typical_pkt_sz=99999999999",
	  "bad value '99999999999' for devarg tx_typical_pkt_sz" },
	{ "rx_port=", "bad value '' for devarg rx_port" },
	{ "rx_port=a_port_name_of_64_characters_or_more_is_longer_than_any_ethdev_name",
	  "for devarg rx_port" },
};

/* %s: the bad devarg. pcap=/dev/null: a capture that opens anywhere. */
static const struct {
	const char *where;
	const char *fmt;
} devarg_positions[] = {
	{ "before emu=", "%s,emu=cx6dx,clock=virtual" },
	{ "before clock=virtual", "emu=cx6dx,%s,clock=virtual" },
	{ "between clock=virtual and pcap=",
	  "emu=cx6dx,clock=virtual,%s,pcap=/dev/null" },
	{ "after clock=virtual,pcap=",
	  "emu=cx6dx,clock=virtual,pcap=/dev/null,%s" },
	{ "after clock=realtime", "emu=cx6dx,clock=realtime,%s" },
};

static unsigned int bad_devarg_case; /* the case run() runs */

static void
test_bad_pmd_devarg_at(void)
{
	unsigned int d = bad_devarg_case / RTE_DIM(devarg_positions);
	unsigned int p = bad_devarg_case % RTE_DIM(devarg_positions);
	char args[256];
	struct refusal r = { args, { bad_pmd_devargs[d].expect } };

	snprintf(args, sizeof(args), devarg_positions[p].fmt,
		 bad_pmd_devargs[d].arg);
	check_refused(&r);
}

/*
 * pcap= on a full device (/dev/full: the open succeeds, every write fails
 * with ENOSPC): the model logs the failure once and the xstat
 * emu_pcap_errno holds the errno (it stayed silent, with an empty
 * capture); frames still leave. A capture in a directory that does not
 * exist is refused at probe.
 */
static void
test_pcap_write_failure(void)
{
	static const struct refusal nodir = {
		"emu=cx6dx,clock=virtual,pcap=/nonexistent-dir/c.pcap",
		{ "pcap=/nonexistent-dir/c.pcap", "No such file or directory" } };
	const char *log, *first;
	struct mlx5_emu *emu;
	uint32_t seq = 0;
	uint16_t port;

	check_refused(&nodir);
	if (start_port("net_mlx5_tm1", "emu=cx6dx,clock=virtual,pcap=/dev/full",
		       1, 0, &port, &emu, 0, NULL) != 0)
		return;
	CHECK(xstat(port, "emu_pcap_errno") == 0, "errno %" PRIu64
	      " before any frame", xstat(port, "emu_pcap_errno"));
	log_capture_start();
	/* 64 KB of frames: more than the capture's stdio buffer. */
	CHECK(send_simple(port, 0, emu, 64, 1000, &seq) == 64, "sent");
	tx_settle(port, 0, emu);
	log = log_capture_stop();
	CHECK(xstat(port, "emu_pcap_errno") == ENOSPC, "emu_pcap_errno %"
	      PRIu64, xstat(port, "emu_pcap_errno"));
	CHECK(strstr(log, "pcap=/dev/full: writing the capture failed") !=
	      NULL && strstr(log, "No space left on device") != NULL,
	      "message: %s", log);
	first = strstr(log, "writing the capture failed");
	CHECK(first == NULL ||
	      strstr(first + 1, "writing the capture failed") == NULL,
	      "logged more than once: %s", log);
	CHECK(xstat(port, "tx_q0_wire_packets") == 64, "%" PRIu64
	      " frames left", xstat(port, "tx_q0_wire_packets"));
	port_destroy("net_mlx5_tm1", port);
}

/* One case per bad driver devarg and position. */
static void
run_bad_pmd_devargs(void)
{
	char name[256];

	for (bad_devarg_case = 0;
	     bad_devarg_case < RTE_DIM(bad_pmd_devargs) *
			       RTE_DIM(devarg_positions);
	     bad_devarg_case++) {
		unsigned int d = bad_devarg_case / RTE_DIM(devarg_positions);
		unsigned int p = bad_devarg_case % RTE_DIM(devarg_positions);

		snprintf(name, sizeof(name), "devarg %s %s: refused naming it",
			 bad_pmd_devargs[d].arg, devarg_positions[p].where);
		run(name, test_bad_pmd_devarg_at);
	}
}

static void
test_infos_and_link(void)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	struct mlx5_emu_caps caps;
	struct mlx5_emu *emu;
	uint16_t port;
	uint32_t sqn;

	if (probe_port("net_mlx5_tm1", "emu=cx6dx,clock=virtual", &port,
		       &emu) != 0)
		return;
	CHECK(emu != NULL, "no device model");
	if (emu == NULL)
		goto out;
	mlx5_emu_get_caps(emu, &caps);
	CHECK(rte_eth_dev_info_get(port, &info) == 0, "info");
	/* Rx queues exist (testpmd pairs them with Tx queues), never fill. */
	CHECK(info.max_rx_queues == info.max_tx_queues, "%u Rx queues",
	      info.max_rx_queues);
	CHECK(info.max_tx_queues == RTE_MIN(1u << caps.log_max_sq,
					    (unsigned int)RTE_MAX_QUEUES_PER_PORT),
	      "max_tx_queues %u", info.max_tx_queues);
	CHECK(info.tx_desc_lim.nb_max ==
	      RTE_MIN(1u << caps.log_max_wq_sz, 32768u),
	      "nb_max %u", info.tx_desc_lim.nb_max);
	CHECK(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS,
	      "no MULTI_SEGS");
	CHECK(info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE,
	      "no FAST_FREE");
	CHECK(port_setup(port, 2, 0) == 0, "setup");
	{
		/* No per-queue start: a deferred start is refused. */
		struct rte_eth_txconf txc = info.default_txconf;

		txc.tx_deferred_start = 1;
		CHECK(rte_eth_tx_queue_setup(port, 1, RING, SOCKET_ID_ANY,
					     &txc) == -ENOTSUP,
		      "deferred start accepted");
		CHECK(rte_eth_tx_queue_setup(port, 1, RING, SOCKET_ID_ANY,
					     NULL) == 0, "setup again");
	}
	CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 0, &sqn) == -EAGAIN,
	      "SQN before start");
	CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 0, NULL) == -EINVAL &&
	      rte_errno == EINVAL, "NULL sqn");
	rte_eth_link_get_nowait(port, &link);
	CHECK(link.link_status == RTE_ETH_LINK_DOWN, "link up before start");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	rte_eth_link_get_nowait(port, &link);
	CHECK(link.link_status == RTE_ETH_LINK_UP, "link down after start");
	CHECK(link.link_speed == caps.line_rate_mbps, "speed %u",
	      link.link_speed);
	CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 1, &sqn) == 0, "no SQN");
	CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 2, &sqn) == -EINVAL,
	      "SQN of a queue that does not exist");
	CHECK(rte_pmd_mlx5_tm_emu(RTE_MAX_ETHPORTS - 1) == NULL,
	      "a model for a port that is not ours");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	/* With Rx queues: accepted, and they never receive. */
	{
		struct rte_eth_conf conf = { 0 };
		struct rte_mbuf *rx[4];

		CHECK(rte_eth_dev_configure(port, 2, 2, &conf) == 0,
		      "Rx queues refused");
		CHECK(rte_eth_rx_queue_setup(port, 1, 64, SOCKET_ID_ANY, NULL,
					     pool) == 0, "rx setup");
		CHECK(rte_eth_rx_queue_setup(port, 0, 64, SOCKET_ID_ANY, NULL,
					     pool) == 0, "rx setup");
		CHECK(rte_eth_dev_start(port) == 0, "start with Rx queues");
		CHECK(rte_eth_rx_burst(port, 1, rx, 4) == 0, "received");
	}
out:
	port_destroy("net_mlx5_tm1", port);
}

/* The big one: mixed packets over 4 queues from 2 lcores. */

#define BIG_PACKETS 1000000u
#define BURST 32

struct sender {
	uint16_t port;
	uint16_t q[2];
	uint32_t n;               /* Packets to send per queue. */
	struct mlx5_emu *emu;
	uint64_t sent[2];
	uint64_t bytes[2];
	uint64_t vlan[2];
	uint64_t alloc_fail;
};

static struct sender senders[2];

static int
sender_main(void *arg)
{
	struct sender *s = arg;
	struct rte_mbuf *pend[2][BURST];
	unsigned int npend[2] = { 0, 0 };
	uint32_t seq[2] = { 0, 0 };
	uint32_t rnd = 0x12345u + s->q[0];
	uint8_t f[2048];
	unsigned int j;

	while (seq[0] < s->n || seq[1] < s->n || npend[0] || npend[1]) {
		for (j = 0; j < 2; j++) {
			uint16_t done;

			while (npend[j] < BURST && seq[j] < s->n) {
				uint32_t len, nseg;
				bool vlan;
				struct rte_mbuf *m;

				rnd = rnd * 1103515245u + 12345u;
				len = 60 + (rnd >> 8) % 1455;
				nseg = 1 + (rnd >> 4) % MAX_SEGS;
				vlan = ((rnd >> 20) & 7) == 0;
				build_frame(f, len, s->q[j], seq[j], vlan);
				m = frame_to_mbuf(f, len, nseg);
				if (m == NULL) {
					s->alloc_fail++;
					break;
				}
				if (vlan) {
					m->ol_flags |= RTE_MBUF_F_TX_VLAN;
					m->vlan_tci = 100 + s->q[j];
					s->vlan[j]++;
				}
				s->bytes[j] += len;
				pend[j][npend[j]++] = m;
				seq[j]++;
			}
			done = rte_eth_tx_burst(s->port, s->q[j], pend[j],
						npend[j]);
			s->sent[j] += done;
			memmove(pend[j], pend[j] + done,
				(npend[j] - done) * sizeof(pend[j][0]));
			npend[j] -= done;
			if (npend[j] != 0)
				mlx5_emu_advance(s->emu, 2000);
		}
	}
	return 0;
}

static void
big_run(const char *args, uint32_t packets, uint64_t offloads)
{
	struct mlx5_emu *emu;
	struct rte_eth_stats st;
	uint64_t tot = 0, bytes = 0, wire_bytes = 0;
	unsigned int worker, q;
	uint16_t port;
	char name[64];

	if (start_port("net_mlx5_tm2", args, NB_TXQ, offloads, &port, &emu,
		       0, NULL) != 0)
		return;
	if (!test_ok)
		goto out;
	memset(&wire, 0, sizeof(wire));
	for (q = 0; q < NB_TXQ; q++)
		CHECK(rte_pmd_mlx5_tm_txq_sqn(port, q, &wire.sqn[q]) == 0,
		      "sqn");
	mlx5_emu_set_wire_hook(emu, wire_hook, NULL);
	for (q = 0; q < 2; q++) {
		senders[q] = (struct sender){
			.port = port, .q = { q, q + 2 }, .emu = emu,
			.n = packets / NB_TXQ,
		};
	}
	worker = rte_get_next_lcore(-1, 1, 0);
	CHECK(worker < RTE_MAX_LCORE, "no worker lcore");
	if (!test_ok)
		goto out;
	rte_eal_remote_launch(sender_main, &senders[1], worker);
	sender_main(&senders[0]);
	rte_eal_wait_lcore(worker);
	for (q = 0; q < NB_TXQ; q++)
		tx_settle(port, q, emu);
	mlx5_emu_set_wire_hook(emu, NULL, NULL);

	CHECK(wire.bad == 0 && wire.out_of_seq == 0,
	      "%" PRIu64 " bad, %" PRIu64 " out of sequence; first: %s",
	      wire.bad, wire.out_of_seq, wire.first_error);
	for (q = 0; q < 2; q++) {
		unsigned int j;

		for (j = 0; j < 2; j++) {
			uint16_t qq = senders[q].q[j];

			CHECK(senders[q].sent[j] == packets / NB_TXQ,
			      "queue %u sent %" PRIu64, qq,
			      senders[q].sent[j]);
			CHECK(wire.packets[qq] == senders[q].sent[j],
			      "queue %u: %" PRIu64 " on the wire, %" PRIu64
			      " sent", qq, wire.packets[qq],
			      senders[q].sent[j]);
			CHECK(wire.bytes[qq] == senders[q].bytes[j] +
			      4 * senders[q].vlan[j],
			      "queue %u: %" PRIu64 " bytes on the wire",
			      qq, wire.bytes[qq]);
			snprintf(name, sizeof(name), "tx_q%u_wire_packets",
				 qq);
			CHECK(xstat(port, name) == wire.packets[qq],
			      "%s %" PRIu64, name, xstat(port, name));
			tot += senders[q].sent[j];
			bytes += senders[q].bytes[j];
			wire_bytes += wire.bytes[qq];
		}
	}
	CHECK(rte_eth_stats_get(port, &st) == 0, "stats");
	CHECK(st.opackets == tot, "opackets %" PRIu64 " sent %" PRIu64,
	      st.opackets, tot);
	CHECK(st.obytes == bytes, "obytes %" PRIu64 " built %" PRIu64,
	      st.obytes, bytes);
	CHECK(st.oerrors == 0, "oerrors %" PRIu64, st.oerrors);
	CHECK_POOL_EMPTY();
	printf("  %" PRIu64 " packets, %" PRIu64 " bytes on the wire\n", tot,
	       wire_bytes);
out:
	port_destroy("net_mlx5_tm2", port);
}

/*
 * cx6dx whose vport asks for the L2 header inline (its profile asks for
 * none): the first 18 bytes go inline, the VLAN tag built into them.
 */
static void
test_million_packets(void)
{
	big_run("emu=cx6dx,clock=virtual,cap_vport_inline=l2", BIG_PACKETS,
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_VLAN_INSERT);
}

/* ---- vport inline modes (min_wqe_inline_mode IP / TCP_UDP) ---- */

#define INL_PACKETS 3000u
#define INL_FRAME_MAX 1100u
#define INL_KINDS 12u

/* Frames expected on the wire, in order, byte for byte. */
struct inl_wire {
	uint8_t *frames;   /* INL_PACKETS slots of INL_FRAME_MAX bytes */
	uint32_t *lens;
	uint32_t expected; /* frames recorded as expected */
	uint32_t seen;     /* frames that left */
	uint64_t bytes;
	uint32_t bad;
	char first_error[120];
};

static struct inl_wire inl;

static void
inl_hook(void *arg __rte_unused, uint32_t sqn __rte_unused,
	 uint64_t t __rte_unused, const uint8_t *b, uint32_t len)
{
	uint32_t i = inl.seen++;

	inl.bytes += len;
	if (i >= inl.expected || inl.lens[i] != len ||
	    memcmp(inl.frames + (size_t)i * INL_FRAME_MAX, b, len) != 0) {
		if (inl.bad++ == 0)
			snprintf(inl.first_error, sizeof(inl.first_error),
				 "frame %u (%u bytes) differs from the one sent",
				 i, len);
	}
}

/*
 * Frame @p seq of kind @p kind (headers below), @p len bytes (at least
 * 128), into @p f. Sets the mbuf fields it needs in @p m (offload lengths,
 * VLAN insertion) and returns the length of the first segment (every other
 * frame has two). *@p drop tells whether the PMD must drop it in mode
 * @p mode: its headers cannot be determined in the first segment.
 */
static uint32_t
inl_frame(uint8_t *f, uint32_t len, uint32_t seq, unsigned int kind,
	  uint8_t mode, struct rte_mbuf *m, bool *drop)
{
	uint32_t i, l2 = 14, l3 = 0, hdrs = 0;

	for (i = 0; i < len; i++)
		f[i] = (uint8_t)(seq * 13 + i * 7);
	memset(f, 0x02, 6);
	memset(f + 6, 0x04, 6);
	*drop = false;
	if (kind == 4) { /* a tag already in the data */
		f[12] = 0x81;
		f[13] = 0x00;
		l2 = 18;
	}
	f[l2 - 2] = 0x08; /* IPv4 unless changed below */
	f[l2 - 1] = 0x00;
	switch (kind) {
	case 0: /* IPv4/UDP */
	case 7: /* IPv4/UDP, VLAN inserted by the PMD */
		f[l2] = 0x45;
		f[l2 + 6] = 0x40;
		f[l2 + 7] = 0;
		f[l2 + 9] = IPPROTO_UDP;
		hdrs = l2 + 28;
		break;
	case 1: /* IPv4 with options / TCP with options */
	case 4:
	case 8: /* same headers, offload lengths given */
	case 9: /* TCP header cut by the segment boundary */
		l3 = kind == 4 ? 20 : 28;
		f[l2] = (uint8_t)(0x40 | l3 / 4);
		f[l2 + 6] = 0x40;
		f[l2 + 7] = 0;
		f[l2 + 9] = IPPROTO_TCP;
		f[l2 + l3 + 12] = kind == 4 ? 0x50 : 0xa0;
		if (kind == 8) {
			m->ol_flags |= RTE_MBUF_F_TX_IPV4;
			m->l2_len = l2;
			m->l3_len = l3;
			m->l4_len = 40;
		}
		hdrs = l2 + l3 + (kind == 4 ? 20 : 40);
		if (kind == 9) {
			/* First segment: Ethernet, IP, 10 bytes of TCP. */
			*drop = mode == MLX5_INLINE_MODE_TCP_UDP;
			return l2 + l3 + 10;
		}
		break;
	case 2: /* IPv6/TCP */
	case 3: /* IPv6/UDP */
		f[12] = 0x86;
		f[13] = 0xdd;
		f[14] = 0x60;
		f[14 + 6] = kind == 2 ? IPPROTO_TCP : IPPROTO_UDP;
		f[14 + 40 + 12] = 0x50;
		hdrs = 14 + 40 + (kind == 2 ? 20 : 8);
		break;
	case 5: /* not IP */
		f[12] = ETHERTYPE_TEST >> 8;
		f[13] = ETHERTYPE_TEST & 0xff;
		hdrs = 14;
		break;
	case 6: /* IPv4 non-first fragment of a TCP datagram */
		f[l2] = 0x45;
		f[l2 + 6] = 0x00;
		f[l2 + 7] = 0xb9;
		f[l2 + 9] = IPPROTO_TCP;
		hdrs = l2 + 20;
		break;
	case 10: /* IPv4 header length 12: malformed */
		f[l2] = 0x43;
		*drop = true;
		hdrs = l2 + 20;
		break;
	default: /* 11: offload lengths shorter than an Ethernet header */
		f[l2] = 0x45;
		f[l2 + 9] = IPPROTO_UDP;
		m->ol_flags |= RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_VLAN;
		m->l2_len = 4;
		m->l3_len = 4;
		m->l4_len = 4;
		*drop = true;
		hdrs = l2 + 28;
		break;
	}
	if (kind == 7) {
		m->ol_flags |= RTE_MBUF_F_TX_VLAN;
		m->vlan_tci = (uint16_t)(seq & 0xfff);
	}
	/* Two segments: the first holds the headers and a little more. */
	return seq % 2 ? hdrs + (seq % 3) * 8 : len;
}

/* Copy @p len bytes of @p f into @p m, the first @p first of them in the
 * first segment, keeping the fields already set.
 */
static int
inl_fill(struct rte_mbuf *m, const uint8_t *f, uint32_t len, uint32_t first)
{
	struct rte_mbuf *m2;

	memcpy(rte_pktmbuf_append(m, first), f, first);
	if (first == len)
		return 0;
	m2 = rte_pktmbuf_alloc(pool);
	if (m2 == NULL)
		return -ENOMEM;
	memcpy(rte_pktmbuf_append(m2, len - first), f + first, len - first);
	m->next = m2;
	m->nb_segs = 2;
	m->pkt_len = len;
	return 0;
}

static void
vport_inline_run(const char *mode_name, uint8_t mode)
{
	char args[96], name[32] = "net_mlx5_tm8";
	uint64_t sent_bytes = 0, drops = 0, sent = 0;
	struct rte_eth_stats st;
	struct mlx5_emu *emu;
	uint32_t seq = 0, spins = 0;
	uint8_t f[INL_FRAME_MAX];
	uint16_t port;

	memset(&inl, 0, sizeof(inl));
	inl.frames = malloc((size_t)INL_PACKETS * INL_FRAME_MAX);
	inl.lens = calloc(INL_PACKETS, sizeof(*inl.lens));
	CHECK(inl.frames != NULL && inl.lens != NULL, "memory");
	snprintf(args, sizeof(args),
		 "emu=cx6dx,clock=virtual,cap_vport_inline=%s", mode_name);
	CHECK(port_create(name, args, &port) == 0, "probe %s", args);
	if (!test_ok)
		goto free_mem;
	emu = rte_pmd_mlx5_tm_emu(port);
	CHECK(port_setup(port, 1, RTE_ETH_TX_OFFLOAD_MULTI_SEGS |
			 RTE_ETH_TX_OFFLOAD_VLAN_INSERT) == 0, "setup");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	if (!test_ok)
		goto out;
	mlx5_emu_set_wire_hook(emu, inl_hook, NULL);
	while (seq < INL_PACKETS && spins < 100000) {
		uint32_t len = 128 + (seq * 37) % (INL_FRAME_MAX - 132);
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
		uint32_t first;
		bool drop;

		if (m == NULL) {
			rte_eth_tx_done_cleanup(port, 0, 0);
			mlx5_emu_advance(emu, 10000);
			spins++;
			continue;
		}
		first = inl_frame(f, len, seq, seq % INL_KINDS, mode, m,
				  &drop);
		if (inl_fill(m, f, len, first) < 0) {
			rte_pktmbuf_free(m);
			mlx5_emu_advance(emu, 10000);
			spins++;
			continue;
		}
		if (!drop) {
			/* What the wire must show: the tag after the MACs. */
			uint8_t *w = inl.frames +
				     (size_t)inl.expected * INL_FRAME_MAX;
			uint32_t wl = len;

			if (m->ol_flags & RTE_MBUF_F_TX_VLAN) {
				memcpy(w, f, 12);
				w[12] = 0x81;
				w[13] = 0x00;
				w[14] = (uint8_t)(m->vlan_tci >> 8);
				w[15] = (uint8_t)m->vlan_tci;
				memcpy(w + 16, f + 12, len - 12);
				wl += 4;
			} else {
				memcpy(w, f, len);
			}
			inl.lens[inl.expected++] = wl;
			sent_bytes += len;
			sent++;
		} else {
			drops++;
		}
		while (rte_eth_tx_burst(port, 0, &m, 1) == 0 &&
		       spins++ < 100000)
			mlx5_emu_advance(emu, 10000);
		seq++;
	}
	tx_settle(port, 0, emu);
	mlx5_emu_set_wire_hook(emu, NULL, NULL);
	CHECK(seq == INL_PACKETS, "%u of %u packets posted", seq, INL_PACKETS);
	CHECK(inl.bad == 0 && inl.seen == inl.expected,
	      "%s: %u frames left, %u expected, %u bad; first: %s", mode_name,
	      inl.seen, inl.expected, inl.bad, inl.first_error);
	CHECK(drops > 0 && sent > 0, "both outcomes exercised");
	CHECK(xstat(port, "tx_q0_error_cqes") == 0, "%" PRIu64 " error CQEs",
	      xstat(port, "tx_q0_error_cqes"));
	CHECK(xstat(port, "tx_q0_dropped") == drops,
	      "dropped %" PRIu64 ", expected %" PRIu64,
	      xstat(port, "tx_q0_dropped"), drops);
	CHECK(xstat(port, "tx_q0_wire_packets") == sent,
	      "wire_packets %" PRIu64 ", sent %" PRIu64,
	      xstat(port, "tx_q0_wire_packets"), sent);
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.opackets == sent &&
	      st.obytes == sent_bytes && st.oerrors == drops,
	      "opackets %" PRIu64 "/%" PRIu64 " obytes %" PRIu64 "/%" PRIu64
	      " oerrors %" PRIu64 "/%" PRIu64, st.opackets, sent, st.obytes,
	      sent_bytes, st.oerrors, drops);
	CHECK_POOL_EMPTY();
	printf("  %s: %" PRIu64 " frames on the wire, %" PRIu64 " dropped\n",
	       mode_name, sent, drops);
out:
	port_destroy(name, port);
free_mem:
	free(inl.frames);
	free(inl.lens);
}

/*
 * A vport that asks for IP, then TCP/UDP headers inline (cx6dx with
 * cap_vport_inline; ConnectX-5 has no VLAN insertion here): frames of
 * every header shape leave byte for byte, those whose headers are not in
 * the first segment are dropped and counted, no error CQE.
 */
static void
test_vport_inline(void)
{
	vport_inline_run("ip", MLX5_INLINE_MODE_IP);
	if (test_ok)
		vport_inline_run("tcp_udp", MLX5_INLINE_MODE_TCP_UDP);
}

/* cx7: no inline header (VLAN insertion field), mbuf fast free. */
static void
test_no_inline_fast_free(void)
{
	big_run("emu=cx7,clock=virtual", BIG_PACKETS / 10,
		RTE_ETH_TX_OFFLOAD_MULTI_SEGS | RTE_ETH_TX_OFFLOAD_VLAN_INSERT |
		RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE);
}

static void
test_rate_limit(void)
{
	struct mlx5_emu_pp_info pp[8];
	struct mlx5_emu *emu;
	uint32_t seq = 0, sqn;
	uint64_t rate;
	unsigned int n;
	uint16_t port;
	int ret;

	if (start_port("net_mlx5_tm3", "emu=cx6dx,clock=virtual", 2, 0,
		       &port, &emu, 1, &sqn) != 0)
		return;
	if (!test_ok)
		goto out;
	ret = rte_eth_set_queue_rate_limit(port, 1, 1000);
	CHECK(ret == 0, "rate limit 1000 Mbps: %d", ret);
	if (ret != 0)
		goto out;
	rte_eth_xstats_reset(port);
	rate = send_q1_rate(port, emu, 2000, 1000, &seq);
	CHECK(rate_near(rate, 1000000000ull),
	      "rate %" PRIu64 " b/s at 1000 Mbps", rate);
	ret = rte_eth_set_queue_rate_limit(port, 1, 2000);
	CHECK(ret == 0, "rate limit 2000 Mbps: %d", ret);
	n = mlx5_emu_pp_list(emu, pp, RTE_DIM(pp));
	CHECK(n == 1 && pp[0].rate_limit == 2000000 && pp[0].sq_users == 1,
	      "%u entries in use (first %u kbps): the 1000 Mbps one must "
	      "be released", n, n ? pp[0].rate_limit : 0);
	rte_eth_xstats_reset(port);
	rate = send_q1_rate(port, emu, 2000, 1000, &seq);
	CHECK(rate_near(rate, 2000000000ull),
	      "rate %" PRIu64 " b/s at 2000 Mbps", rate);
	/* Rate 0 lifts the limit: the last entry is released too. */
	CHECK(rte_eth_set_queue_rate_limit(port, 1, 0) == 0, "rate 0");
	CHECK(mlx5_emu_pp_list(emu, pp, RTE_DIM(pp)) == 0,
	      "pacing entries left after rate 0");
	rte_eth_tx_done_cleanup(port, 1, 0);
	CHECK_POOL_EMPTY();
out:
	port_destroy("net_mlx5_tm3", port);
}

/*
 * tx_qN_wire_rate_bps is the rate of the queue's last second of sending
 * time: 5 s idle between two runs at 10 Mbit/s leave it at 10 Mbit/s (an
 * average from the first departure read 0.6 Mbit/s), and after 2 s at
 * 20 Mbit/s it reads 20 Mbit/s, the 10 Mbit/s runs out of its window.
 */
static void
test_wire_rate_window(void)
{
	struct mlx5_emu *emu;
	uint32_t seq = 0, sqn;
	unsigned int i;
	uint64_t rate;
	uint16_t port;

	if (start_port("net_mlx5_tm8", "emu=cx6dx,clock=virtual", 2, 0,
		       &port, &emu, 1, &sqn) != 0)
		return;
	if (!test_ok)
		goto out;
	CHECK(rte_eth_set_queue_rate_limit(port, 1, 10) == 0, "10 Mbps");
	send_q1_rate(port, emu, 200, 1000, &seq);
	mlx5_emu_advance(emu, 5000000000ull);
	rate = send_q1_rate(port, emu, 200, 1000, &seq);
	CHECK(rate_near(rate, 10000000ull),
	      "rate %" PRIu64 " b/s at 10 Mbps after 5 s idle", rate);
	CHECK(rte_eth_set_queue_rate_limit(port, 1, 20) == 0, "20 Mbps");
	/* 2 s of sending at 20 Mbit/s: 5000 frames of 1000 bytes. */
	for (i = 0; i < 3; i++)
		CHECK(send_simple(port, 1, emu, 1250, 1000, &seq) == 1250,
		      "send");
	rate = send_q1_rate(port, emu, 1250, 1000, &seq);
	CHECK(rate_near(rate, 20000000ull),
	      "rate %" PRIu64 " b/s at 20 Mbps: the window is the last "
	      "second", rate);
	rte_eth_tx_done_cleanup(port, 1, 0);
out:
	port_destroy("net_mlx5_tm8", port);
}

/*
 * The model's lag reaches the xstats: a pass made 5 ms late
 * (mlx5_emu_account_pass()) counts in emu_late_passes, raises
 * emu_lagging for the second after it and emu_max_lag_ns to 5 ms.
 */
static void
test_lag_xstats(void)
{
	struct mlx5_emu *emu;
	uint64_t now;
	uint16_t port;

	if (probe_port("net_mlx5_tm8", "emu=cx6dx,clock=virtual", &port,
		       &emu) != 0)
		return;
	CHECK(xstat(port, "emu_late_passes") == 0 &&
	      xstat(port, "emu_lagging") == 0, "late passes %" PRIu64
	      " before", xstat(port, "emu_late_passes"));
	mlx5_emu_advance(emu, 10000000);
	now = mlx5_emu_now_ns(emu);
	CHECK(mlx5_emu_account_pass(emu, now, now - 5000000) == 0, "pass");
	CHECK(xstat(port, "emu_late_passes") == 1 &&
	      xstat(port, "emu_lagging") == 1 &&
	      xstat(port, "emu_max_lag_ns") == 5000000,
	      "late %" PRIu64 ", lagging %" PRIu64 ", max %" PRIu64,
	      xstat(port, "emu_late_passes"), xstat(port, "emu_lagging"),
	      xstat(port, "emu_max_lag_ns"));
	mlx5_emu_advance(emu, 1000000000);
	CHECK(xstat(port, "emu_lagging") == 0 &&
	      xstat(port, "emu_late_passes") == 1,
	      "a second later: lagging %" PRIu64,
	      xstat(port, "emu_lagging"));
	port_destroy("net_mlx5_tm8", port);
}

/*
 * Three unshaped queues on one 100G port share the line, in virtual time.
 * tx_qN_wire_rate_bps must agree within 1 % with the device's own
 * counters (wire bytes over the time from the queue's first departure to
 * its last) and with what the queue was offered, computed from the
 * frames posted per step of virtual time:
 * - senders that keep their rings full: each gets a third of the line
 *   (by the line's framing: each frame takes its length plus 24 bytes of
 *   line time);
 * - senders that post 4 frames a queue every 2 us (24 Gbit/s each, the
 *   line three quarters busy): each ring runs dry between two posts, as
 *   behind a sender that cannot fill the line (testpmd's txonly on one
 *   core), and the rate is still what the queue sent.
 * tx_qN_wire_ran_dry counts the frames that left after their ring ran
 * dry: none in the first run, some in the second.
 */
#define SHARE_NB_Q 3
#define SHARE_LEN 1500
#define SHARE_STEP_NS 2000ull
#define SHARE_NS 20000000ull /* 20 ms of device time */

/* Post up to @p max frames on queue @p q; returns how many it took. */
static uint16_t
share_post(uint16_t port, uint16_t q, uint32_t *seq, uint16_t max)
{
	struct rte_mbuf *m[32];
	uint8_t f[SHARE_LEN];
	uint16_t i, n;

	rte_eth_tx_done_cleanup(port, q, 0);
	for (n = 0; n < RTE_MIN(max, (uint16_t)RTE_DIM(m)); n++) {
		build_frame(f, SHARE_LEN, q, *seq + n, false);
		m[n] = frame_to_mbuf(f, SHARE_LEN, 1);
		if (m[n] == NULL)
			break;
	}
	i = rte_eth_tx_burst(port, q, m, n);
	*seq += i;
	rte_pktmbuf_free_bulk(m + i, n - i);
	return i;
}

/*
 * Run three queues for SHARE_NS, each posting @p per_step frames a step
 * (0: as many as its ring takes), and check each queue's wire rate against
 * the device's counters and against @p want_bps.
 */
static void
share_run(uint16_t per_step, uint64_t want_bps)
{
	uint32_t seq[SHARE_NB_Q] = { 0 }, sqn;
	struct mlx5_emu *emu;
	uint16_t port, q;
	uint64_t t0;

	if (start_port("net_mlx5_tm9", "emu=cx6dx,clock=virtual", SHARE_NB_Q,
		       0, &port, &emu, 0, &sqn) != 0)
		return;
	if (!test_ok)
		goto out;
	t0 = mlx5_emu_now_ns(emu);
	while (mlx5_emu_now_ns(emu) - t0 < SHARE_NS && test_ok) {
		for (q = 0; q < SHARE_NB_Q; q++) {
			uint16_t n = share_post(port, q, &seq[q],
						per_step ? per_step : 32);

			CHECK(per_step == 0 || n == per_step,
			      "queue %u took %u of %u frames: its ring is "
			      "full", q, n, per_step);
		}
		mlx5_emu_advance(emu, SHARE_STEP_NS);
	}
	for (q = 0; q < SHARE_NB_Q && test_ok; q++) {
		struct mlx5_emu_sq_info info;
		uint64_t rate, dev_bps;
		char name[64];
		uint32_t s;

		CHECK(rte_pmd_mlx5_tm_txq_sqn(port, q, &s) == 0 &&
		      mlx5_emu_sq_get(emu, s, &info) == 0 &&
		      info.last_departure_ns > info.first_departure_ns,
		      "queue %u: no departures", q);
		if (!test_ok)
			break;
		dev_bps = (uint64_t)((double)info.bytes * 8e9 /
			(double)(info.last_departure_ns -
				 info.first_departure_ns));
		snprintf(name, sizeof(name), "tx_q%u_wire_rate_bps", q);
		rate = xstat(port, name);
		printf("  queue %u: %s %" PRIu64 ", device counters %" PRIu64
		       ", offered %" PRIu64 " b/s\n", q, name, rate, dev_bps,
		       want_bps);
		CHECK(rate > dev_bps - dev_bps / 100 &&
		      rate < dev_bps + dev_bps / 100,
		      "queue %u: %s %" PRIu64 ", the device's counters %"
		      PRIu64 " b/s", q, name, rate, dev_bps);
		CHECK(rate > want_bps - want_bps / 100 &&
		      rate < want_bps + want_bps / 100,
		      "queue %u: %s %" PRIu64 ", offered %" PRIu64 " b/s",
		      q, name, rate, want_bps);
		/* A full ring never runs dry; 4 frames a step always do. */
		snprintf(name, sizeof(name), "tx_q%u_wire_ran_dry", q);
		CHECK(per_step == 0 ? xstat(port, name) == 0 :
		      xstat(port, name) > 0 &&
		      xstat(port, name) == info.ran_dry,
		      "queue %u: %s %" PRIu64, q, name, xstat(port, name));
	}
	for (q = 0; q < SHARE_NB_Q; q++)
		tx_settle(port, q, emu);
	CHECK_POOL_EMPTY();
out:
	port_destroy("net_mlx5_tm9", port);
}

static void
test_wire_rate_shared_line(void)
{
	/* Rings full: a third of the line of 1500-byte frames each. */
	share_run(0, (uint64_t)(100e9 * SHARE_LEN / (SHARE_LEN + 24) / 3));
	/* 4 frames every 2 us: 24 Gbit/s each. */
	share_run(4, 4ull * SHARE_LEN * 8 * 1000000000ull / SHARE_STEP_NS);
}

/*
 * Statistics never wait for firmware: while a rate change of queue 1
 * waits for its firmware command (held by the model, outside its device
 * lock), another thread reads and resets the port's statistics and
 * extended statistics, and each call returns with the queues' counts
 * before the command is let go. The deadline only turns a hang (the
 * statistics waiting for the held command) into a failure.
 */
#define HELD_DEADLINE_S 30

struct held_rate {
	uint16_t port;
	int ret;
};

static void *
held_rate_main(void *arg)
{
	struct held_rate *h = arg;

	h->ret = rte_eth_set_queue_rate_limit(h->port, 1, 500);
	return NULL;
}

struct held_reader {
	uint16_t port;
	uint64_t opackets;
	int xstats;
	int resets;
	bool done;          /* atomic: the reads returned */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void *
held_reader_main(void *arg)
{
	struct held_reader *r = arg;
	struct rte_eth_xstat xs[64];
	struct rte_eth_stats st;

	memset(&st, 0, sizeof(st));
	if (rte_eth_stats_get(r->port, &st) == 0)
		r->opackets = st.opackets;
	r->xstats = rte_eth_xstats_get(r->port, xs, RTE_DIM(xs));
	r->resets = (rte_eth_stats_reset(r->port) == 0) +
		    (rte_eth_xstats_reset(r->port) == 0);
	pthread_mutex_lock(&r->lock);
	__atomic_store_n(&r->done, true, __ATOMIC_RELEASE);
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

static void
test_stats_while_firmware_held(void)
{
	struct held_reader r = { .lock = PTHREAD_MUTEX_INITIALIZER,
				 .cond = PTHREAD_COND_INITIALIZER };
	struct held_rate h = { 0 };
	pthread_t rate_thread, reader_thread;
	bool reader_started = false;
	struct timespec deadline;
	struct mlx5_emu *emu;
	uint32_t seq = 0, sqn;
	uint16_t port;

	if (start_port("net_mlx5_tm10", "emu=cx6dx,clock=virtual", 2, 0,
		       &port, &emu, 1, &sqn) != 0)
		return;
	if (!test_ok)
		goto out;
	CHECK(send_simple(port, 1, emu, 10, 500, &seq) == 10, "send");
	mlx5_emu_drain(emu);
	mlx5_emu_cmd_hold(emu, true);
	h.port = port;
	r.port = port;
	CHECK(pthread_create(&rate_thread, NULL, held_rate_main, &h) == 0,
	      "rate thread");
	if (!test_ok) {
		mlx5_emu_cmd_hold(emu, false);
		goto out;
	}
	mlx5_emu_cmd_wait_held(emu, 1); /* its firmware command waits */
	reader_started = pthread_create(&reader_thread, NULL, held_reader_main,
					&r) == 0;
	CHECK(reader_started, "reader thread");
	if (reader_started) {
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += HELD_DEADLINE_S;
		pthread_mutex_lock(&r.lock);
		while (!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE) &&
		       pthread_cond_timedwait(&r.cond, &r.lock,
					      &deadline) == 0)
			;
		pthread_mutex_unlock(&r.lock);
		CHECK(__atomic_load_n(&r.done, __ATOMIC_ACQUIRE),
		      "statistics still waiting after %d s: they wait for "
		      "the held firmware command", HELD_DEADLINE_S);
	}
	mlx5_emu_cmd_hold(emu, false);
	pthread_join(rate_thread, NULL);
	if (reader_started)
		pthread_join(reader_thread, NULL);
	CHECK(r.opackets == 10, "opackets %" PRIu64 " while held", r.opackets);
	CHECK(r.xstats > 0 && r.resets == 2, "xstats %d, resets %d",
	      r.xstats, r.resets);
	CHECK(h.ret == 0, "the held rate change: %d", h.ret);
	CHECK(xstat(port, "tx_q1_completions") == 0, "xstats reset: %" PRIu64,
	      xstat(port, "tx_q1_completions"));
	tx_settle(port, 1, emu);
out:
	port_destroy("net_mlx5_tm10", port);
}

/*
 * The line rate follows the link: a port whose link renegotiated at 25G
 * and then went down stops (the stop sets the link down; it must not
 * refresh the line rate under the locks it holds, which would take the
 * scheduler's lock twice), and its next link query reads the last speed
 * seen, 25G (not the 100G it started with).
 */
static void
test_stop_after_link_change(void)
{
	struct rte_pmd_mlx5_tm_dev_info info;
	struct rte_eth_link link;
	struct mlx5_emu *emu;
	uint32_t sqn;
	uint16_t port;

	if (start_port("net_mlx5_tm11",
		       "emu=cx6dx,clock=virtual,link_max_speed=25G", 1, 0,
		       &port, &emu, 0, &sqn) != 0)
		return;
	if (!test_ok)
		goto out;
	CHECK(mlx5_emu_set_link_speed(emu, 25000) == 0, "link at 25G");
	rte_eth_link_get_nowait(port, &link);
	mlx5_emu_set_link(emu, false);
	CHECK(rte_eth_dev_stop(port) == 0, "stop with the link down");
	rte_eth_link_get_nowait(port, &link);
	CHECK(link.link_status == RTE_ETH_LINK_DOWN, "link %u",
	      link.link_status);
	CHECK(rte_pmd_mlx5_tm_dev_info(port, &info) == 0 &&
	      info.line_rate_mbps == 25000, "line rate %u Mbit/s",
	      info.line_rate_mbps);
out:
	port_destroy("net_mlx5_tm11", port);
}

static void
test_error_recovery(void)
{
	struct mlx5_emu *emu;
	uint32_t seq = 0, sqn, i;
	uint16_t port;

	if (start_port("net_mlx5_tm4", "emu=cx6dx,clock=virtual", 1, 0,
		       &port, &emu, 0, &sqn) != 0)
		return;
	if (!test_ok)
		goto out;
	CHECK(mlx5_emu_fault_wqe(emu, &(struct mlx5_emu_fault_wqe){
		.sqn = sqn, .nth = 20,
		.syndrome = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR }) == 0, "arm");
	/* Queue 0 is stuck while in error: post without waiting. */
	for (i = 0; i < 200; i++) {
		uint8_t f[256];
		struct rte_mbuf *m;

		build_frame(f, 200, 0, seq, false);
		m = frame_to_mbuf(f, 200, 2);
		if (m == NULL)
			break;
		if (rte_eth_tx_burst(port, 0, &m, 1) == 1)
			seq++;
		else
			rte_pktmbuf_free(m);
		mlx5_emu_advance(emu, 500);
	}
	wait_one_recovery(port, emu, 1000);
	CHECK(check_sends_after_recovery(port, emu, &seq, 2) >= 2,
	      "no mbuf counted unsent");
out:
	port_destroy("net_mlx5_tm4", port);
}

/*
 * rte_pmd_mlx5_tm_txq_post_bad_lkey() on a queue that sent: its WQE
 * completes with a local protection error (the model checks the lkey as
 * a NIC does: the key was deregistered), the queue recovers and sends
 * again; with and without the minimum inline header (cx5: vport inline
 * mode L2; cx6dx: none). Bad arguments are refused.
 */
static void
test_bad_lkey_recovery(void)
{
	static const char *const args[] = {
		"emu=cx6dx,clock=virtual", "emu=cx5,clock=virtual",
	};
	struct mlx5_emu *emu;
	const char *log;
	unsigned int k;
	uint32_t seq;
	uint16_t port;

	for (k = 0; k < RTE_DIM(args); k++) {
		seq = 0;
		if (start_port("net_mlx5_tm4", args[k], 2, 0, &port, &emu, 0,
			       NULL) != 0)
			return;
		if (!test_ok)
			goto out;
		CHECK(send_simple(port, 0, emu, 10, 300, &seq) == 10, "send");
		tx_settle(port, 0, emu);
		log_capture_start();
		CHECK(rte_pmd_mlx5_tm_txq_post_bad_lkey(port, 0) == 0,
		      "%s: post: %s", args[k], rte_strerror(rte_errno));
		wait_one_recovery(port, emu, 1000);
		log = log_capture_stop();
		CHECK(strstr(log, "syndrome 0x4: local protection") != NULL,
		      "%s: the error's syndrome not logged: %s", args[k], log);
		CHECK(xstat(port, "tx_q1_error_cqes") == 0 &&
		      xstat(port, "tx_q0_error_mbufs") == 0,
		      "%s: queue 1 untouched, no mbuf freed unsent", args[k]);
		check_sends_after_recovery(port, emu, &seq, 1);
		CHECK(rte_pmd_mlx5_tm_txq_post_bad_lkey(RTE_MAX_ETHPORTS - 1,
							0) == -ENODEV &&
		      rte_pmd_mlx5_tm_txq_post_bad_lkey(port, 2) == -EINVAL &&
		      rte_errno == EINVAL, "%s: bad arguments refused",
		      args[k]);
		CHECK(rte_eth_dev_stop(port) == 0, "stop");
		CHECK(rte_pmd_mlx5_tm_txq_post_bad_lkey(port, 0) == -EAGAIN,
		      "%s: no SQ after stop", args[k]);
out:
		port_destroy("net_mlx5_tm4", port);
	}
}

/*
 * An error on a WQE that asked for no completion, while every CQE the
 * queue may have requested is outstanding: the device writes the error
 * CQE on top of those. The PMD must have kept it a slot (a CQ overrun
 * would lose it, and the queue would never recover).
 */
static void
test_error_cqe_on_full_cq(void)
{
	struct mlx5_emu_port_stats ps;
	struct mlx5_emu *emu;
	uint32_t seq = 0, sqn, i;
	uint16_t port, sent;

	/*
	 * 512 WQEBBs but 64 CQEs: the CQ, not the ring, limits posting.
	 * One packet per WQE (no eMPW), so that a burst of 2 is 2 WQEs; the
	 * burst asks for no completion (moderation), tx_done_cleanup after
	 * it posts a NOP that does: 3 WQEs and one request per round.
	 */
	if (start_port("net_mlx5_tm10",
		       "emu=cx6dx,clock=virtual,cap_log_max_cq_sz=6,"
		       "txq_mpw_en=0", 1, 0,
		       &port, &emu, 0, &sqn) != 0)
		return;
	/* Slow enough that nothing completes while the CQ fills. */
	CHECK(rte_eth_set_queue_rate_limit(port, 0, 1) == 0, "1 Mbps");
	if (!test_ok)
		goto out;
	/* The first packet of the second round fails. */
	CHECK(mlx5_emu_fault_wqe(emu, &(struct mlx5_emu_fault_wqe){
		.sqn = sqn, .nth = 4,
		.syndrome = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR }) == 0, "arm");
	for (i = 0; i < 256; i++) {
		struct rte_mbuf *m[2];
		uint8_t f[256];

		build_frame(f, 200, 0, seq, false);
		m[0] = frame_to_mbuf(f, 200, 1);
		build_frame(f, 200, 0, seq + 1, false);
		m[1] = frame_to_mbuf(f, 200, 1);
		if (m[0] == NULL || m[1] == NULL) {
			rte_pktmbuf_free(m[0]);
			rte_pktmbuf_free(m[1]);
			break;
		}
		sent = rte_eth_tx_burst(port, 0, m, 2);
		seq += sent;
		rte_pktmbuf_free_bulk(m + sent, 2 - sent);
		if (sent < 2)
			break;
		rte_eth_tx_done_cleanup(port, 0, 0);
	}
	CHECK(xstat(port, "tx_q0_ring_full") >= 1 && seq < 2 * 64 + 2,
	      "posting must stop on the CQ limit (%u posted)", seq);
	wait_one_recovery(port, emu, 100000);
	mlx5_emu_get_port_stats(emu, &ps);
	CHECK(ps.cq_overruns == 0, "%" PRIu64 " CQEs lost to a CQ overrun",
	      ps.cq_overruns);
	/* The case is the one meant: the CQ (2^6 CQEs) was filled. */
	CHECK(xstat(port, "tx_q0_completions") +
	      xstat(port, "tx_q0_error_cqes") +
	      xstat(port, "tx_q0_flush_cqes") == 64,
	      "%" PRIu64 " completions + %" PRIu64 " flushes + 1 error: "
	      "not the 64 CQEs of the CQ", xstat(port, "tx_q0_completions"),
	      xstat(port, "tx_q0_flush_cqes"));
	CHECK(rte_eth_set_queue_rate_limit(port, 0, 0) == 0, "no limit");
	check_sends_after_recovery(port, emu, &seq, 1);
out:
	port_destroy("net_mlx5_tm10", port);
}

static void
ext_free(void *addr __rte_unused, void *opaque)
{
	(*(int *)opaque)++;
}

/* Send @p n single-segment 100-byte frames on queue 0, one burst. */
static uint16_t
send_burst(uint16_t port, uint16_t n, uint32_t *seq)
{
	struct rte_mbuf *m[64];
	uint16_t i, sent;

	for (i = 0; i < n && i < RTE_DIM(m); i++) {
		uint8_t f[128];

		build_frame(f, 100, 0, *seq + i, false);
		m[i] = frame_to_mbuf(f, 100, 1);
		if (m[i] == NULL)
			break;
	}
	sent = rte_eth_tx_burst(port, 0, m, i);
	rte_pktmbuf_free_bulk(m + sent, i - sent);
	*seq += sent;
	return sent;
}

/*
 * An empty burst on queue 0, which takes the completions present: then
 * @p cqes completions in all and @p held mbufs still posted (@p when).
 */
static void
check_after_empty_burst(uint16_t port, uint32_t *seq, uint64_t cqes,
			unsigned int held, const char *when)
{
	CHECK(send_burst(port, 0, seq) == 0, "empty burst");
	CHECK(xstat(port, "tx_q0_completions") == cqes &&
	      rte_mempool_in_use_count(pool) == held,
	      "%" PRIu64 " CQEs, %u mbufs held %s",
	      xstat(port, "tx_q0_completions"),
	      rte_mempool_in_use_count(pool), when);
}

/*
 * Completion moderation: bursts below 32 packets ask for no CQE, so the
 * device sends them and the mbufs stay posted; a burst reaching 32 asks
 * for one. An idle queue's mbufs come back through tx_done_cleanup, which
 * asks for the missing completion (a NOP) and frees at most free_cnt.
 * Virtual clock: the model sends only in mlx5_emu_drain().
 */
static void
test_cleanup_moderation(void)
{
	struct mlx5_emu *emu;
	uint32_t seq = 0, i;
	uint16_t port;

	if (start_port("net_mlx5_tm11", "emu=cx6dx,clock=virtual", 1, 0,
		       &port, &emu, 0, NULL) != 0)
		return;
	for (i = 0; i < 10; i++)
		CHECK(send_burst(port, 1, &seq) == 1, "send");
	mlx5_emu_drain(emu);
	CHECK_Q0_WIRE(port, 10);
	/* None was asked. */
	check_after_empty_burst(port, &seq, 0, 10, "after 10 bursts of 1");
	/* The first call asks for the completion the model has not run. */
	CHECK(rte_eth_tx_done_cleanup(port, 0, 3) == 0, "nothing completed");
	mlx5_emu_drain(emu);
	CHECK(rte_eth_tx_done_cleanup(port, 0, 3) == 3 &&
	      rte_mempool_in_use_count(pool) == 7,
	      "free_cnt 3: %u mbufs in use", rte_mempool_in_use_count(pool));
	CHECK(rte_eth_tx_done_cleanup(port, 0, 0) == 7 &&
	      rte_mempool_in_use_count(pool) == 0,
	      "free_cnt 0: %u mbufs in use", rte_mempool_in_use_count(pool));
	CHECK(rte_eth_tx_done_cleanup(port, 0, 0) == 0, "nothing left");
	/* 32 packets since the last request: this burst asks for a CQE. */
	CHECK(send_burst(port, 31, &seq) == 31 &&
	      send_burst(port, 1, &seq) == 1, "send 32");
	mlx5_emu_drain(emu);
	check_after_empty_burst(port, &seq, 2, 0, "after 32 packets");
	CHECK_Q0_WIRE(port, seq);
	port_destroy("net_mlx5_tm11", port);
}

/* Memory the device does not know: dropped and counted, mbuf freed. */
static void
test_unregistered_memory(void)
{
	struct rte_mbuf_ext_shared_info *shinfo;
	struct rte_mbuf *m;
	struct mlx5_emu *emu;
	uint8_t *buf = malloc(2048);
	uint16_t len = 2048, port;
	uint32_t seq = 0, i;
	int freed = 0;

	CHECK(buf != NULL, "malloc");
	if (start_port("net_mlx5_tm7", "emu=cx6dx,clock=virtual", 1, 0,
		       &port, &emu, 0, NULL) != 0) {
		free(buf);
		return;
	}
	shinfo = rte_pktmbuf_ext_shinfo_init_helper(buf, &len, ext_free,
						    &freed);
	m = rte_pktmbuf_alloc(pool);
	CHECK(shinfo != NULL && m != NULL, "extbuf");
	if (!test_ok)
		goto out;
	rte_pktmbuf_attach_extbuf(m, buf, 0, len, shinfo);
	m->data_off = 0;
	build_frame(buf, 100, 0, 0, false);
	m->data_len = 100;
	m->pkt_len = 100;
	CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "not consumed");
	CHECK(freed == 1, "external buffer not freed");
	CHECK(xstat(port, "tx_q0_dropped") == 1, "dropped %" PRIu64,
	      xstat(port, "tx_q0_dropped"));
	/* Descriptor status: posted slots are in use until completed. */
	CHECK(rte_eth_tx_descriptor_status(port, 0, 0) ==
	      RTE_ETH_TX_DESC_DONE, "slot 0 busy on an empty ring");
	for (i = 0; i < 10; i++) {
		uint8_t f[128];

		build_frame(f, 100, 0, seq, false);
		m = frame_to_mbuf(f, 100, 1);
		CHECK(m != NULL && rte_eth_tx_burst(port, 0, &m, 1) == 1,
		      "send");
		seq++;
	}
	CHECK(rte_eth_tx_descriptor_status(port, 0, RING - 1) ==
	      RTE_ETH_TX_DESC_FULL, "posted slot reported free");
	CHECK(rte_eth_tx_descriptor_status(port, 0, RING - 11) ==
	      RTE_ETH_TX_DESC_DONE, "free slot reported posted");
	CHECK(rte_eth_tx_descriptor_status(port, 0, RING) < 0,
	      "offset beyond the ring");
	rte_eth_tx_done_cleanup(port, 0, 0);
	mlx5_emu_drain(emu);
	CHECK(rte_eth_tx_done_cleanup(port, 0, 0) == 10, "cleanup");
	CHECK(rte_eth_tx_descriptor_status(port, 0, RING - 1) ==
	      RTE_ETH_TX_DESC_DONE, "completed slot reported posted");
	CHECK_Q0_WIRE(port, 10);
	CHECK_POOL_EMPTY();
out:
	port_destroy("net_mlx5_tm7", port);
	free(buf);
}

/*
 * A chain whose middle segment is in memory the device does not know:
 * found after the first segment took its slot, the whole chain is
 * dropped and every segment freed once (the first one unlinked already,
 * the rest as the chain it still is), the external buffer released.
 */
static void
test_unregistered_mid_chain(void)
{
	struct rte_mbuf_ext_shared_info *shinfo;
	struct rte_mbuf *m = NULL, *e = NULL, *mid;
	struct mlx5_emu *emu;
	uint8_t *buf = malloc(2048), f[600];
	uint16_t len = 2048, port;
	int freed = 0;

	CHECK(buf != NULL, "malloc");
	if (start_port("net_mlx5_tm14", "emu=cx6dx,clock=virtual", 1,
		       RTE_ETH_TX_OFFLOAD_MULTI_SEGS, &port, &emu, 0,
		       NULL) != 0) {
		free(buf);
		return;
	}
	shinfo = rte_pktmbuf_ext_shinfo_init_helper(buf, &len, ext_free,
						    &freed);
	build_frame(f, 600, 0, 0, false);
	m = frame_to_mbuf(f, 600, 3);
	e = rte_pktmbuf_alloc(pool);
	CHECK(shinfo != NULL && m != NULL && e != NULL && m->nb_segs == 3,
	      "mbufs");
	if (!test_ok) {
		rte_pktmbuf_free(m);
		rte_pktmbuf_free(e);
		goto out;
	}
	/* The second segment's bytes, from the external buffer instead. */
	mid = m->next;
	rte_pktmbuf_attach_extbuf(e, buf, 0, len, shinfo);
	e->data_off = 0;
	memcpy(buf, rte_pktmbuf_mtod(mid, void *), mid->data_len);
	e->data_len = mid->data_len;
	e->next = mid->next;
	m->next = e;
	mid->next = NULL;
	rte_pktmbuf_free_seg(mid);
	CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "not consumed");
	CHECK(freed == 1, "external buffer not freed");
	CHECK(xstat(port, "tx_q0_dropped") == 1, "dropped %" PRIu64,
	      xstat(port, "tx_q0_dropped"));
	mlx5_emu_drain(emu);
	CHECK_Q0_WIRE(port, 0);
	CHECK_POOL_EMPTY();
out:
	port_destroy("net_mlx5_tm14", port);
	free(buf);
}

/*
 * Mbufs the application still holds: a one-segment packet and a
 * three-segment chain with reference count 2 (every segment), and a clone
 * (an indirect mbuf) of a one-segment packet. Once completed, the PMD has
 * dropped its own reference only: the application's mbufs are intact with
 * reference count 1, the clone is back in the pool and its parent is
 * released, and freeing what the application holds returns everything.
 * tx_done_cleanup counts the slots it frees, one per mbuf (segment).
 */
static void
test_shared_mbufs(void)
{
	struct rte_mbuf *m[3] = { NULL }, *parent, *seg;
	struct mlx5_emu *emu;
	unsigned int in_use = rte_mempool_in_use_count(pool), k, shared = 0;
	uint16_t port, sent = 0;
	uint8_t f[600];

	if (start_port("net_mlx5_tm12", "emu=cx6dx,clock=virtual", 1,
		       RTE_ETH_TX_OFFLOAD_MULTI_SEGS, &port, &emu, 0,
		       NULL) != 0)
		return;
	build_frame(f, 100, 0, 0, false);
	m[0] = frame_to_mbuf(f, 100, 1);
	build_frame(f, 600, 0, 1, false);
	m[1] = frame_to_mbuf(f, 600, 3);
	build_frame(f, 100, 0, 2, false);
	parent = frame_to_mbuf(f, 100, 1);
	m[2] = parent != NULL ? rte_pktmbuf_clone(parent, pool) : NULL;
	CHECK(m[0] != NULL && m[1] != NULL && m[2] != NULL, "mbufs");
	if (!test_ok)
		goto out;
	CHECK(m[1]->nb_segs == 3, "chain of %u segments", m[1]->nb_segs);
	rte_pktmbuf_refcnt_update(m[0], 1);
	rte_pktmbuf_refcnt_update(m[1], 1);
	shared = 1;
	sent = rte_eth_tx_burst(port, 0, m, 3);
	CHECK(sent == 3, "sent %u of 3", sent);
	/* Below the moderation threshold: cleanup asks for the CQE. */
	rte_eth_tx_done_cleanup(port, 0, 0);
	mlx5_emu_drain(emu);
	/* A slot per mbuf: the chain's three segments count three. */
	k = rte_eth_tx_done_cleanup(port, 0, 0);
	CHECK(k == 5, "cleanup freed %u slots, not 1 + 3 + 1", k);
	CHECK(xstat(port, "tx_q0_wire_packets") == sent, "wire %" PRIu64,
	      xstat(port, "tx_q0_wire_packets"));
	CHECK(rte_mbuf_refcnt_read(m[0]) == 1 && m[0]->nb_segs == 1,
	      "one segment: refcnt %u, %u segments",
	      rte_mbuf_refcnt_read(m[0]), m[0]->nb_segs);
	CHECK(m[1]->nb_segs == 3, "chain now of %u segments",
	      m[1]->nb_segs);
	for (seg = m[1], k = 0; seg != NULL && k < 3; seg = seg->next, k++)
		CHECK(rte_mbuf_refcnt_read(seg) == 1,
		      "chain segment %u: refcnt %u", k,
		      rte_mbuf_refcnt_read(seg));
	CHECK(k == 3 && seg == NULL, "chain broken at segment %u", k);
	CHECK(rte_mbuf_refcnt_read(parent) == 1, "clone's parent: refcnt %u",
	      rte_mbuf_refcnt_read(parent));
	/* Held: m[0], the chain's 3 segments, the parent; not the clone. */
	CHECK(rte_mempool_in_use_count(pool) == in_use + 5,
	      "%u mbufs in use, %u expected",
	      rte_mempool_in_use_count(pool), in_use + 5);
out:
	/* The application's references, and the PMD's of what it refused. */
	for (k = 0; k < 3; k++) {
		unsigned int refs = (k < 2 ? shared : 0) + (k >= sent);

		while (m[k] != NULL && refs-- > 0)
			rte_pktmbuf_free(m[k]);
	}
	rte_pktmbuf_free(parent);
	CHECK(rte_mempool_in_use_count(pool) == in_use, "%u mbufs in use",
	      rte_mempool_in_use_count(pool));
	port_destroy("net_mlx5_tm12", port);
}

#define PLAIN_BURSTS 400
#define PLAIN_DRAIN_EVERY 4
#define PLAIN_HELD 512

/*
 * What packet @p seq of test_plain_free() is, by stretches of 1024: 0-6
 * lone of pool A, 7 the same held (refcnt 2), 8 lone of pool B, 9 the
 * same held, 10 a clone, 11 a chain held. Long plain runs with a shared
 * mbuf now and then; pools alternating every 16 packets; everything
 * mixed.
 */
static uint32_t
plain_kind(uint32_t seq)
{
	switch ((seq / 1024) % 3) {
	case 0:
		return seq % 97 == 0 ? 7 : 0;
	case 1:
		return (seq / 16) % 2 == 0 ? 0 : seq % 101 == 0 ? 9 : 8;
	default:
		return (seq / 3 + seq * seq) % 12;
	}
}

/*
 * The completion returns lone direct mbufs of reference count 1 of one
 * pool in bulk without reading them (checked when posted), and frees the
 * rest through prefree. Bursts mix both, across many ring wraps and pool
 * changes: lone mbufs of two pools, lone mbufs and chains the application
 * also holds (refcnt 2), clones, chains. The device drains every few
 * bursts, so that an mbuf freed while still posted would be reused by a
 * later packet before the device reads it: every frame is checked byte
 * for byte on the wire. Each pool gets exactly its own mbufs back and the
 * application's references are intact.
 */
static void
test_plain_free(void)
{
	struct rte_mbuf *held[PLAIN_HELD], *pkts[BURST], *parent;
	unsigned int base_a = rte_mempool_in_use_count(pool), base_b = 0;
	unsigned int nheld = 0, held_a = 0, held_b = 0, b, k;
	struct rte_mempool *pool_b;
	struct mlx5_emu *emu;
	uint32_t seq = 0, sent = 0, kind, len;
	uint16_t port, n;
	uint8_t f[600];

	pool_b = rte_pktmbuf_pool_create("test_pmd_b", 1023, 0, 0,
					 RTE_PKTMBUF_HEADROOM + SEG_ROOM,
					 SOCKET_ID_ANY);
	CHECK(pool_b != NULL, "second pool: %s", rte_strerror(rte_errno));
	if (!test_ok)
		return;
	base_b = rte_mempool_in_use_count(pool_b);
	if (start_port("net_mlx5_tm13", "emu=cx6dx,clock=virtual", 1,
		       RTE_ETH_TX_OFFLOAD_MULTI_SEGS, &port, &emu, 0,
		       NULL) != 0)
		goto free_pool;
	memset(&wire, 0, sizeof(wire));
	CHECK(rte_pmd_mlx5_tm_txq_sqn(port, 0, &wire.sqn[0]) == 0, "sqn");
	if (!test_ok)
		goto out;
	mlx5_emu_set_wire_hook(emu, wire_hook, NULL);
	for (b = 0; b < PLAIN_BURSTS && test_ok; b++) {
		for (k = 0; k < BURST; k++, seq++) {
			struct rte_mbuf *m;

			kind = plain_kind(seq);
			len = kind == 11 ? 600 : 64 + seq % 64;
			build_frame(f, len, 0, seq, false);
			m = frame_to_mbuf_from(kind == 8 || kind == 9 ?
					       pool_b : pool, f, len,
					       kind == 11 ? 2 : 1);
			if (kind == 10) {
				parent = m;
				m = parent != NULL ?
				    rte_pktmbuf_clone(parent, pool) : NULL;
				/* The clone alone holds the parent now. */
				rte_pktmbuf_free(parent);
			}
			CHECK(m != NULL, "mbuf for packet %u", seq);
			if (m == NULL)
				break;
			if ((kind == 7 || kind == 11 || kind == 9) &&
			    nheld < PLAIN_HELD) {
				rte_pktmbuf_refcnt_update(m, 1);
				held[nheld++] = m;
				if (m->pool == pool)
					held_a += m->nb_segs;
				else
					held_b++;
			}
			pkts[k] = m;
		}
		if (k < BURST) {
			rte_pktmbuf_free_bulk(pkts, k);
			break;
		}
		n = rte_eth_tx_burst(port, 0, pkts, BURST);
		CHECK(n == BURST, "burst %u took %u of %u", b, n, BURST);
		sent += n;
		if (n < BURST) {
			rte_pktmbuf_free_bulk(pkts + n, BURST - n);
			break;
		}
		if (b % PLAIN_DRAIN_EVERY == PLAIN_DRAIN_EVERY - 1)
			mlx5_emu_drain(emu);
	}
	tx_settle(port, 0, emu);
	mlx5_emu_set_wire_hook(emu, NULL, NULL);
	CHECK(wire.bad == 0 && wire.out_of_seq == 0 && wire.packets[0] == sent,
	      "%" PRIu64 " on the wire of %u sent, %" PRIu64 " bad, %" PRIu64
	      " out of sequence; first: %s", wire.packets[0], sent, wire.bad,
	      wire.out_of_seq, wire.first_error);
	for (k = 0; k < nheld; k++) {
		struct rte_mbuf *seg;

		for (seg = held[k]; seg != NULL; seg = seg->next)
			if (rte_mbuf_refcnt_read(seg) != 1)
				break;
		CHECK(seg == NULL, "held mbuf %u: a segment of refcnt %u", k,
		      rte_mbuf_refcnt_read(seg));
	}
	/* The application holds its mbufs; each pool has the rest back. */
	CHECK(rte_mempool_in_use_count(pool) == base_a + held_a &&
	      rte_mempool_in_use_count(pool_b) == base_b + held_b,
	      "%u and %u mbufs in use, %u and %u held",
	      rte_mempool_in_use_count(pool) - base_a,
	      rte_mempool_in_use_count(pool_b) - base_b, held_a, held_b);
out:
	while (nheld > 0)
		rte_pktmbuf_free(held[--nheld]);
	port_destroy("net_mlx5_tm13", port);
free_pool:
	CHECK(rte_mempool_in_use_count(pool) == base_a &&
	      rte_mempool_in_use_count(pool_b) == base_b,
	      "%u and %u mbufs in use, %u and %u before",
	      rte_mempool_in_use_count(pool),
	      rte_mempool_in_use_count(pool_b), base_a, base_b);
	rte_mempool_free(pool_b);
}

/* Failures half-way through probe and start release what was taken. */
static void
test_halfway_failures(void)
{
	static const char *const probe_faults[] = {
		"emu=cx6dx,clock=virtual,fault_cmd=ALLOC_TRANSPORT_DOMAIN:1:3",
		"emu=cx6dx,clock=virtual,fault_cmd=CREATE_TIS:1:3",
		"emu=cx6dx,clock=virtual,fault_cmd=QUERY_HCA_CAP:2:3",
	};
	static const char *const start_faults[] = {
		"emu=cx6dx,clock=virtual,fault_cmd=CREATE_CQ:3:3",
		"emu=cx6dx,clock=virtual,fault_cmd=CREATE_SQ:2:3",
		"emu=cx6dx,clock=virtual,fault_cmd=MODIFY_SQ:3:3",
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(probe_faults); i++) {
		const char *log;
		int ret;

		log_capture_start();
		ret = rte_vdev_init("net_mlx5_tm6", probe_faults[i]);
		log = log_capture_stop();
		CHECK(ret < 0, "probe with %s succeeded", probe_faults[i]);
		CHECK(strstr(log, "objects left") == NULL &&
		      strstr(log, "failed") != NULL,
		      "%s: %s", probe_faults[i], log);
		if (ret == 0)
			rte_vdev_uninit("net_mlx5_tm6");
	}
	for (i = 0; i < RTE_DIM(start_faults); i++) {
		struct mlx5_emu *emu;
		uint32_t sqns[4], seq = 0;
		uint16_t port;

		if (port_create("net_mlx5_tm6", start_faults[i], &port) != 0) {
			CHECK(false, "probe with %s", start_faults[i]);
			continue;
		}
		emu = rte_pmd_mlx5_tm_emu(port);
		CHECK(port_setup(port, 3, 0) == 0, "setup");
		log_capture_start();
		CHECK(rte_eth_dev_start(port) < 0, "start with %s",
		      start_faults[i]);
		log_capture_stop();
		CHECK(mlx5_emu_sq_list(emu, sqns, RTE_DIM(sqns)) == 0,
		      "%s: SQs left after a failed start", start_faults[i]);
		/* The fault was one-shot: the port starts and sends now. */
		CHECK(rte_eth_dev_start(port) == 0, "second start");
		CHECK(send_simple(port, 2, emu, 10, 100, &seq) == 10, "send");
		mlx5_emu_drain(emu);
		CHECK(xstat(port, "tx_q2_wire_packets") == 10, "not sent");
		port_destroy("net_mlx5_tm6", port);
		CHECK(rte_mempool_in_use_count(pool) == 0, "%u mbufs in use",
		      rte_mempool_in_use_count(pool));
	}
}

static void
test_start_stop_cycles(void)
{
	struct mlx5_emu *emu;
	uint32_t seq = 0, sqns[8];
	uint16_t port;
	int cycle;

	if (probe_port("net_mlx5_tm5", "emu=cx5,clock=virtual", &port,
		       &emu) != 0)
		return;
	CHECK(port_setup(port, 3, RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE |
			 RTE_ETH_TX_OFFLOAD_MULTI_SEGS) == 0, "setup");
	for (cycle = 0; cycle < 3 && test_ok; cycle++) {
		CHECK(rte_eth_dev_start(port) == 0, "start %d", cycle);
		CHECK(mlx5_emu_sq_list(emu, sqns, RTE_DIM(sqns)) == 3,
		      "SQs after start");
		/* Leave packets posted and unsent: stop must free them. */
		send_simple(port, cycle % 3, emu, 300, 700, &seq);
		CHECK(rte_eth_dev_stop(port) == 0, "stop %d", cycle);
		CHECK(mlx5_emu_sq_list(emu, sqns, RTE_DIM(sqns)) == 0,
		      "SQs left after stop");
		CHECK(rte_mempool_in_use_count(pool) == 0,
		      "%u mbufs in use after stop %d",
		      rte_mempool_in_use_count(pool), cycle);
	}
	/* Fewer queues: the port follows. */
	CHECK(port_setup(port, 1, 0) == 0, "reconfigure");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	CHECK(mlx5_emu_sq_list(emu, sqns, RTE_DIM(sqns)) == 1, "one SQ");
	/* Reset (ethdev stops the port first), then it works again. */
	CHECK(rte_eth_dev_reset(port) == 0, "reset");
	CHECK(mlx5_emu_sq_list(emu, sqns, RTE_DIM(sqns)) == 0,
	      "SQs left after reset");
	CHECK(port_setup(port, 2, 0) == 0, "reconfigure after reset");
	CHECK(rte_eth_dev_start(port) == 0, "start after reset");
	CHECK(send_simple(port, 1, emu, 50, 100, &seq) == 50, "send");
	mlx5_emu_drain(emu);
	CHECK(xstat(port, "tx_q1_wire_packets") == 50, "not sent after reset");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK_POOL_EMPTY();
	CHECK(rte_eth_dev_close(port) == 0, "close");
	CHECK(rte_pmd_mlx5_tm_emu(port) == NULL, "model after close");
	rte_vdev_uninit("net_mlx5_tm5");
}

/*
 * The read-back API: QUERY_SQ as the device has it, completion evidence
 * (packets and bytes completed at CQE time stamps) and the vport counters
 * agree with the device model's own view of the same SQ.
 */
static void
test_read_back(void)
{
	struct rte_pmd_mlx5_tm_txq_completions c;
	struct rte_pmd_mlx5_tm_dev_info di;
	struct rte_pmd_mlx5_tm_sq_info sq;
	struct rte_pmd_mlx5_tm_vport_tx vt;
	struct mlx5_emu_sq_info info;
	struct mlx5_emu *emu;
	uint32_t seq = 0, sqn;
	double bps;
	uint16_t port;

	if (start_port("net_mlx5_tm6", "emu=cx6dx,clock=virtual", 2, 0,
		       &port, &emu, 1, &sqn) != 0)
		return;
	if (!test_ok)
		goto out;
	CHECK(rte_pmd_mlx5_tm_dev_info(port, &di) == 0 && di.emulated &&
	      strcmp(di.device, "cx6dx") == 0 && di.pp_table_size == 512 &&
	      di.device_frequency_khz == 1000000, "device info");
	CHECK(rte_eth_set_queue_rate_limit(port, 1, 1000) == 0, "rate");
	CHECK(rte_pmd_mlx5_tm_txq_query(port, 1, &sq) == 0, "QUERY_SQ");
	CHECK(mlx5_emu_sq_get(emu, sqn, &info) == 0, "model's SQ");
	CHECK(sq.sqn == sqn && sq.state == 1 && sq.pp_index != 0 &&
	      sq.pp_index == info.pp_index && sq.cqn == info.cqn &&
	      sq.tisn == info.tisn && sq.log_wq_sz == info.log_wq_sz &&
	      sq.user_index == 1, "QUERY_SQ: SQ 0x%x state %u index %u",
	      sq.sqn, sq.state, sq.pp_index);
	CHECK(rte_pmd_mlx5_tm_txq_completions(port, 1, &c) == 0 &&
	      c.cqes == 0, "completions before any send");
	CHECK(send_simple(port, 1, emu, 2000, 1000, &seq) == 2000, "send");
	tx_settle(port, 1, emu);
	CHECK(rte_pmd_mlx5_tm_txq_completions(port, 1, &c) == 0, "read");
	CHECK(mlx5_emu_sq_get(emu, sqn, &info) == 0, "model's SQ");
	CHECK(c.ts_valid && c.cqes > 1 && c.cqes == info.cqes &&
	      c.last_packets == 2000 && c.last_bytes == 2000000,
	      "%" PRIu64 " CQEs, %" PRIu64 " packets, %" PRIu64 " bytes",
	      c.cqes, c.last_packets, c.last_bytes);
	/* The last CQE is the last departure's, in the model's ns. */
	CHECK(c.last_ns == info.last_departure_ns, "last CQE at %" PRIu64
	      " ns, last departure at %" PRIu64, c.last_ns,
	      info.last_departure_ns);
	bps = c.last_ns > c.first_ns ? (double)(c.last_bytes - c.first_bytes) *
	      8e9 / (double)(c.last_ns - c.first_ns) : 0;
	CHECK(bps > 0.995e9 && bps < 1.005e9, "%.0f b/s between CQEs", bps);
	CHECK(rte_pmd_mlx5_tm_vport_tx(port, &vt) == 0 &&
	      vt.unicast_packets + vt.multicast_packets +
	      vt.broadcast_packets == 2000 &&
	      vt.unicast_octets + vt.multicast_octets +
	      vt.broadcast_octets == 2000000, "vport counters");
	CHECK(rte_pmd_mlx5_tm_txq_completions(port, 2, &c) == -EINVAL &&
	      rte_pmd_mlx5_tm_txq_completions(port, 1, NULL) == -EINVAL &&
	      rte_pmd_mlx5_tm_txq_query(RTE_MAX_ETHPORTS - 1, 0, &sq) ==
	      -ENODEV && rte_pmd_mlx5_tm_vport_tx(port, NULL) == -EINVAL,
	      "bad arguments refused");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_pmd_mlx5_tm_txq_query(port, 1, &sq) == -EAGAIN &&
	      rte_pmd_mlx5_tm_txq_completions(port, 1, &c) == -EAGAIN,
	      "no SQ after stop");
out:
	port_destroy("net_mlx5_tm6", port);
}

/* Lines of @p log that contain @p what. */
static unsigned int
count_lines(const char *log, const char *what)
{
	unsigned int n = 0;
	const char *p = log;

	while ((p = strstr(p, what)) != NULL) {
		n++;
		p += strlen(what);
	}
	return n;
}

/*
 * A program retrying rte_eth_set_queue_rate_limit() under a committed
 * hierarchy: 1400 refusals log the message once and the count of repeats
 * at 10, 100 and 1000, then the total when the port closes.
 */
static void
test_refusal_log_limited(void)
{
	struct rte_tm_node_params np;
	struct rte_tm_error terr;
	struct mlx5_emu *emu;
	unsigned int i, busy = 0;
	const char *log;
	uint16_t port, q;

	if (start_port("net_mlx5_tm6", "emu=cx6dx,clock=virtual", 2, 0,
		       &port, &emu, 0, NULL) != 0)
		return;
	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
	np.nonleaf.n_sp_priorities = 1;
	CHECK(rte_tm_node_add(port, 100, RTE_TM_NODE_ID_NULL, 0, 1,
			      RTE_TM_NODE_LEVEL_ID_ANY, &np, &terr) == 0,
	      "root");
	memset(&np, 0, sizeof(np));
	np.shaper_profile_id = RTE_TM_SHAPER_PROFILE_ID_NONE;
	np.leaf.wred.wred_profile_id = RTE_TM_WRED_PROFILE_ID_NONE;
	for (q = 0; q < 2; q++)
		CHECK(rte_tm_node_add(port, q, 100, 0, 1,
				      RTE_TM_NODE_LEVEL_ID_ANY, &np,
				      &terr) == 0, "leaf %u", q);
	CHECK(rte_tm_hierarchy_commit(port, 0, &terr) == 0, "commit");
	log_capture_start();
	for (i = 0; i < 1400; i++)
		if (rte_eth_set_queue_rate_limit(port, i % 2, 100) == -EBUSY)
			busy++;
	log = log_capture_stop();
	CHECK(busy == 1400, "%u of 1400 refused with EBUSY", busy);
	CHECK(count_lines(log, "hierarchy is committed") == 1,
	      "refusal logged %u times: %s",
	      count_lines(log, "hierarchy is committed"), log);
	CHECK(strstr(log, "port ") != NULL &&
	      strstr(log, ": 10 more times since") != NULL &&
	      strstr(log, ": 100 more times since") != NULL &&
	      strstr(log, ": 1000 more times since") != NULL &&
	      count_lines(log, "mlx5_tm:") == 4,
	      "repeat counts: %s", log);
	log_capture_start();
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	log = log_capture_stop();
	CHECK(strstr(log, "hierarchy committed: 1399 more times in all") !=
	      NULL, "total at close: %s", log);
	port_destroy("net_mlx5_tm6", port);
}

/*
 * An application that never takes the device model (testpmd, any plain
 * DPDK program) cannot move virtual time: starting a clock=virtual port
 * is refused with what to use instead; once taken, the port starts.
 */
static void
test_virtual_clock_plain_app(void)
{
	const char *log;
	uint16_t port;
	int ret;

	CHECK(port_create("net_mlx5_tm7", "emu=cx6dx,clock=virtual",
			  &port) == 0, "probe");
	if (!test_ok)
		return;
	CHECK(port_setup(port, 2, 0) == 0, "setup");
	log_capture_start();
	ret = rte_eth_dev_start(port);
	log = log_capture_stop();
	CHECK(ret == -ENOTSUP, "start in virtual time without a driver: %d",
	      ret);
	CHECK(strstr(log, "clock=virtual") != NULL &&
	      strstr(log, "start refused") != NULL &&
	      strstr(log, "Use clock=realtime") != NULL,
	      "refusal message: %s", log);
	CHECK(rte_pmd_mlx5_tm_emu(port) != NULL, "model");
	CHECK(rte_eth_dev_start(port) == 0, "start once the model is taken");
	port_destroy("net_mlx5_tm7", port);
	/* Real time moves by itself: no model needed. */
	CHECK(port_create("net_mlx5_tm7", "emu=cx6dx", &port) == 0,
	      "probe realtime");
	if (!test_ok)
		return;
	CHECK(port_setup(port, 2, 0) == 0, "setup realtime");
	CHECK(rte_eth_dev_start(port) == 0, "start realtime");
	port_destroy("net_mlx5_tm7", port);
}

int
main(int argc, char **argv)
{
	static const struct pmd_test_env env = {
		.mem_mb = "512", .lcores = "0-1", .pmd_log = "notice",
		.pool = "test_pmd", .nb_mbufs = POOL_SZ, .cache = 256,
		.data_room = RTE_PKTMBUF_HEADROOM + SEG_ROOM * 4,
	};

	pool = pmd_test_setup(argv[0], &env);
	if (pool == NULL)
		return 1;
	if (argc > 1)
		test_only = argv[1]; /* run the cases whose name has it */
	run("devarg refusals", test_devarg_refusals);
	run_bad_pmd_devargs();
	run("pcap= on a full device: the error logged once and in an xstat",
	    test_pcap_write_failure);
	run("device infos and link", test_infos_and_link);
	run("1M mixed packets, 4 queues, 2 lcores", test_million_packets);
	run("100k mixed packets on cx7: no inline header, fast free",
	    test_no_inline_fast_free);
	run("vport inline modes IP and TCP/UDP", test_vport_inline);
	run("queue rate limit on a started queue", test_rate_limit);
	run("read-back: QUERY_SQ, CQE evidence, vport counters",
	    test_read_back);
	run("wire rate over the last second of sending",
	    test_wire_rate_window);
	run("the model's lag in the xstats: late passes, lagging",
	    test_lag_xstats);
	run("three unshaped queues: wire rate a third of the line each",
	    test_wire_rate_shared_line);
	run("statistics answer while a firmware command is held",
	    test_stats_while_firmware_held);
	run("stop after the link went down at another line rate",
	    test_stop_after_link_change);
	run("error CQE recovery", test_error_recovery);
	run("a WQE naming an unregistered key: error CQE, recovery",
	    test_bad_lkey_recovery);
	run("error CQE on a full CQ recovers", test_error_cqe_on_full_cq);
	run("unregistered memory, descriptor status",
	    test_unregistered_memory);
	run("completion moderation, tx_done_cleanup free_cnt",
	    test_cleanup_moderation);
	run("shared and cloned mbufs: the free drops the PMD's reference only",
	    test_shared_mbufs);
	run("a chain with unregistered memory in its middle: dropped whole",
	    test_unregistered_mid_chain);
	run("plain and shared mbufs of two pools freed in one stream",
	    test_plain_free);
	run("failures half-way release everything", test_halfway_failures);
	run("start/stop/close cycles", test_start_stop_cycles);
	run("repeated refusals logged once, then counted",
	    test_refusal_log_limited);
	run("clock=virtual in an application that does not drive it",
	    test_virtual_clock_plain_app);
	return pmd_test_report(pool);
}
