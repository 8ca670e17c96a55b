/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Upstream net/mlx5's Tx burst and mlx5-tm's on the device model: the same
 * packets through both must leave as the same frames, byte for byte. Each
 * case is an upstream burst variant (upstream_port.h: none, i, mt,
 * none_empw, i_empw, mt_empw) and a packet shape (64 B, 1500 B, and three
 * segments of 500 B, and a mix of one- and three-segment packets, for the
 * multi-segment variants), 2048 of them (the
 * send queue wraps around) in bursts of 32 on an emulated ConnectX-6 Dx
 * in virtual time; and on a ConnectX-5 whose vport asks for L2, then for
 * TCP/UDP headers inline, the variant upstream runs there (i, with
 * txq_inline_min). Every WQE upstream writes
 * must be accepted by the model (no error CQE), and the eMPW variants must
 * have packed several packets per WQE. Upstream's code is compiled from the
 * Debian DPDK source package at build time (test/upstream/meson.build).
 *
 * mlx5-tm sends each case twice: with eMPW where the device allows it (the
 * default) and with one WQE per packet (txq_mpw_en=0); both must leave the
 * same frames as upstream, and the eMPW port must have packed single-segment
 * packets several per WQE where the device allows it.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_pmd_mlx5_tm.h>

#include "mlx5_emu.h"
#include "upstream_port.h"
#include "test_eal.h"

#define NB_PKTS 2048
#define BURST 32
#define MAX_SEGS 3
#define FRAME_MAX 1536
#define STALL_LIMIT 1000

/*
 * A test case is one named behaviour (a profile, variant and frame shape
 * sent by both drivers; a refusal; a property of a whole run), between
 * case_begin() and case_end(): it counts once, failed if any of its
 * CHECKs failed.
 */
static unsigned int passed, failed;
static char case_name[96];
static bool case_failed;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		case_failed = true; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

static void __attribute__((format(printf, 1, 2)))
case_begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(case_name, sizeof(case_name), fmt, ap);
	va_end(ap);
	case_failed = false;
}

static void
case_end(void)
{
	if (case_failed)
		failed++;
	else
		passed++;
	printf("%s %s\n", case_failed ? "FAIL" : "ok  ", case_name);
	fflush(stdout);
}

struct shape {
	const char *name;
	uint16_t nb_segs;           /**< Most segments of a packet. */
	uint16_t seg_len[MAX_SEGS];
	bool mixed;                 /**< Packet i has shape mix[i % 5]. */
};

static const struct shape shapes[] = {
	{ "64B", 1, { 64 } },
	{ "1500B", 1, { 1500 } },
	{ "3seg", 3, { 500, 500, 500 } },
	/* One-segment runs cut by chains: eMPW WQEs end and start again. */
	{ "mixed", 3, { 0 }, true },
};

static const struct shape mix[] = {
	{ "", 1, { 64 } },
	{ "", 1, { 200 } },
	{ "", 3, { 100, 300, 500 } },
	{ "", 1, { 1500 } },
	{ "", 1, { 60 } },
};

/* The shape of packet @p seq of a case of shape @p s. */
static const struct shape *
shape_of(const struct shape *s, uint32_t seq)
{
	return s->mixed ? &mix[seq % RTE_DIM(mix)] : s;
}

/* Frames a device model put on its wire. */
struct capture {
	uint32_t n;
	uint32_t len[NB_PKTS];
	uint8_t bytes[NB_PKTS][FRAME_MAX];
};

static struct capture cap_upstream, cap_ours;

/* mlx5-tm's two ports of a profile: eMPW allowed, and one WQE per packet. */
struct ours {
	uint16_t port[2];
	struct mlx5_emu *emu[2];
	bool empw; /* The device allows eMPW: port[0] must use it. */
};

static const char *const ours_mode[2] = { "eMPW", "single" };
static uint8_t expected[NB_PKTS][FRAME_MAX];
static uint32_t expected_len[NB_PKTS];
static struct rte_mempool *pool;

static void
capture_hook(void *arg, uint32_t sqn __rte_unused,
	     uint64_t time_ns __rte_unused, const uint8_t *bytes, uint32_t len)
{
	struct capture *c = arg;

	if (c->n < NB_PKTS && len <= FRAME_MAX) {
		memcpy(c->bytes[c->n], bytes, len);
		c->len[c->n] = len;
	}
	c->n++;
}

/* Packet @p seq of shape @p s: Ethernet, IPv4, UDP, then a pattern. */
static uint32_t
fill_expected(const struct shape *s, uint32_t seq)
{
	uint8_t *p = expected[seq];
	uint32_t len = 0, i;

	for (i = 0; i < s->nb_segs; i++)
		len += s->seg_len[i];
	expected_len[seq] = len;
	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seq * 13 + i * 7);
	memcpy(p, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01"
	       "\x08\x00\x45\x00", 16);
	p[16] = (uint8_t)((len - 14) >> 8);
	p[17] = (uint8_t)(len - 14);
	p[22] = 64;
	p[23] = 17;
	return len;
}

static struct rte_mbuf *
build_packet(const struct shape *shape, uint32_t seq)
{
	const struct shape *s = shape_of(shape, seq);
	struct rte_mbuf *segs[MAX_SEGS];
	uint32_t off = 0, len = fill_expected(s, seq);
	uint16_t k;

	if (rte_pktmbuf_alloc_bulk(pool, segs, s->nb_segs) != 0)
		return NULL;
	for (k = 0; k < s->nb_segs; k++) {
		memcpy(rte_pktmbuf_mtod(segs[k], void *), expected[seq] + off,
		       s->seg_len[k]);
		segs[k]->data_len = s->seg_len[k];
		segs[k]->next = k + 1 < s->nb_segs ? segs[k + 1] : NULL;
		off += s->seg_len[k];
	}
	segs[0]->nb_segs = s->nb_segs;
	segs[0]->pkt_len = len;
	return segs[0];
}

static int
start_port(uint16_t port, bool multi_seg)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	if (multi_seg)
		conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	ret = rte_eth_dev_configure(port, 0, 1, &conf);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, 512, SOCKET_ID_ANY,
					     NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

/* Send the NB_PKTS packets of shape @p s in bursts, the model draining. */
static int
send_all(uint16_t port, struct mlx5_emu *emu, const struct shape *s)
{
	struct rte_mbuf *pkts[BURST];
	uint32_t seq = 0, stalls = 0;

	while (seq < NB_PKTS) {
		uint16_t want = NB_PKTS - seq < BURST ? NB_PKTS - seq : BURST;
		uint16_t i, n;

		for (i = 0; i < want; i++) {
			pkts[i] = build_packet(s, seq + i);
			if (pkts[i] == NULL) {
				rte_pktmbuf_free_bulk(pkts, i);
				return -ENOMEM;
			}
		}
		n = rte_eth_tx_burst(port, 0, pkts, want);
		rte_pktmbuf_free_bulk(pkts + n, want - n);
		seq += n;
		if (n == 0 && ++stalls > STALL_LIMIT)
			return -EIO;
		mlx5_emu_drain(emu);
	}
	mlx5_emu_drain(emu);
	return 0;
}

static bool
capture_matches(const struct capture *c)
{
	uint32_t i;

	if (c->n != NB_PKTS)
		return false;
	for (i = 0; i < NB_PKTS; i++)
		if (c->len[i] != expected_len[i] ||
		    memcmp(c->bytes[i], expected[i], expected_len[i]))
			return false;
	return true;
}

static uint64_t
error_cqes(struct mlx5_emu *emu)
{
	struct mlx5_emu_port_stats st;

	mlx5_emu_get_port_stats(emu, &st);
	return st.error_cqes;
}

static void
run_case(const char *label, const char *profile, enum upstream_variant v,
	 const struct shape *s, const struct ours *ours)
{
	const char *name = upstream_variant_name(v);
	struct mlx5_emu_sq_info info;
	struct mlx5_emu *emu;
	uint32_t sqn = 0, i;
	uint16_t up;
	char tag[64];
	int ret;

	snprintf(tag, sizeof(tag), "%s_%s_%s", label, name, s->name);
	case_begin("%s: identical frames", tag);
	ret = upstream_port_create(tag, profile, v, &up);
	CHECK(ret == 0, "%s: upstream port: %s", tag, strerror(-ret));
	if (ret != 0)
		goto out;
	ret = start_port(up, upstream_variant_multi_seg(v));
	emu = upstream_port_emu(up);
	CHECK(ret == 0 && emu != NULL, "%s: upstream queue: %s", tag,
	      strerror(-ret));
	if (ret != 0 || emu == NULL) {
		upstream_port_destroy(up);
		goto out;
	}
	memset(&cap_upstream, 0, sizeof(cap_upstream));
	mlx5_emu_set_wire_hook(emu, capture_hook, &cap_upstream);
	ret = send_all(up, emu, s);
	CHECK(ret == 0 && error_cqes(emu) == 0,
	      "%s: upstream sent everything without an error CQE (%d)", tag,
	      ret);
	CHECK(capture_matches(&cap_upstream),
	      "%s: upstream's frames on the wire as built (%u frames)", tag,
	      cap_upstream.n);
	mlx5_emu_sq_list(emu, &sqn, 1);
	mlx5_emu_sq_get(emu, sqn, &info);
	if ((v == UPSTREAM_EMPW || v == UPSTREAM_EMPW_INLINE ||
	     v == UPSTREAM_EMPW_MULTI) && s->nb_segs == 1)
		CHECK(info.wqes < info.packets,
		      "%s: upstream packed packets in eMPW WQEs (%llu WQEs, "
		      "%llu packets)", tag, (unsigned long long)info.wqes,
		      (unsigned long long)info.packets);
	mlx5_emu_set_wire_hook(emu, NULL, NULL);
	upstream_port_destroy(up);

	for (i = 0; i < 2; i++) {
		struct mlx5_emu_sq_info before, after;

		sqn = 0;
		mlx5_emu_sq_list(ours->emu[i], &sqn, 1);
		mlx5_emu_sq_get(ours->emu[i], sqn, &before);
		memset(&cap_ours, 0, sizeof(cap_ours));
		mlx5_emu_set_wire_hook(ours->emu[i], capture_hook, &cap_ours);
		ret = send_all(ours->port[i], ours->emu[i], s);
		mlx5_emu_set_wire_hook(ours->emu[i], NULL, NULL);
		mlx5_emu_sq_get(ours->emu[i], sqn, &after);
		CHECK(ret == 0 && capture_matches(&cap_ours),
		      "%s: mlx5-tm (%s)'s frames on the wire as built "
		      "(%u frames)", tag, ours_mode[i], cap_ours.n);
		CHECK(cap_upstream.n == cap_ours.n &&
		      memcmp(cap_upstream.len, cap_ours.len,
			     sizeof(cap_ours.len)) == 0 &&
		      memcmp(cap_upstream.bytes, cap_ours.bytes,
			     sizeof(cap_ours.bytes)) == 0,
		      "%s: upstream and mlx5-tm (%s) frames identical", tag,
		      ours_mode[i]);
		if (i == 0 && ours->empw && (s->nb_segs == 1 || s->mixed))
			CHECK(after.wqes - before.wqes <
			      after.packets - before.packets,
			      "%s: mlx5-tm packed packets in eMPW WQEs "
			      "(%llu WQEs, %llu packets)", tag,
			      (unsigned long long)(after.wqes - before.wqes),
			      (unsigned long long)(after.packets -
						   before.packets));
		else
			CHECK(after.wqes - before.wqes ==
			      after.packets - before.packets,
			      "%s: mlx5-tm (%s) one WQE per packet (%llu WQEs, "
			      "%llu packets)", tag, ours_mode[i],
			      (unsigned long long)(after.wqes - before.wqes),
			      (unsigned long long)(after.packets -
						   before.packets));
	}
out:
	case_end();
}

/* An mlx5-tm port on the device model of @p profile, started. */
static int
ours_port(unsigned int i, const char *profile, const char *extra,
	  uint16_t *port, struct mlx5_emu **emu)
{
	char name[64], args[160];

	snprintf(name, sizeof(name), "net_mlx5_tm_upwire%u", i);
	snprintf(args, sizeof(args), "emu=%s,clock=virtual%s", profile,
		 extra);
	/* Take the model before start: this program drives virtual time. */
	if (rte_vdev_init(name, args) != 0 ||
	    rte_eth_dev_get_port_by_name(name, port) != 0)
		return -1;
	*emu = rte_pmd_mlx5_tm_emu(*port);
	if (*emu == NULL || start_port(*port, true) != 0)
		return -1;
	return 0;
}

static void
ours_close(unsigned int i, uint16_t port)
{
	char name[64];

	snprintf(name, sizeof(name), "net_mlx5_tm_upwire%u", i);
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	rte_vdev_uninit(name);
}

/*
 * Every variant where no inline header is required; where one is, the
 * variant upstream runs there (inline without eMPW), the others refused.
 */
static void
run_profile(unsigned int i, const char *label, const char *profile,
	    bool inline_required)
{
	struct ours ours = { .empw = !inline_required };
	unsigned int v, s;
	uint16_t up;

	if (ours_port(2 * i, profile, "", &ours.port[0], &ours.emu[0]) != 0 ||
	    ours_port(2 * i + 1, profile, ",txq_mpw_en=0", &ours.port[1],
		      &ours.emu[1]) != 0) {
		case_begin("%s: mlx5-tm ports on the device model", label);
		CHECK(false, "%s: mlx5-tm ports on the device model", label);
		case_end();
		return;
	}
	for (v = 0; v < UPSTREAM_NB_VARIANTS; v++) {
		if (inline_required && v != UPSTREAM_INLINE) {
			case_begin("%s: upstream refuses %s", label,
				   upstream_variant_name(v));
			CHECK(upstream_port_create("refused", profile, v, &up) ==
			      -ENOTSUP, "%s: upstream never runs %s there",
			      label, upstream_variant_name(v));
			case_end();
			continue;
		}
		for (s = 0; s < RTE_DIM(shapes); s++)
			if (shapes[s].nb_segs == 1 ||
			    upstream_variant_multi_seg(v))
				run_case(label, profile, v, &shapes[s], &ours);
	}
	for (v = 0; v < 2; v++) {
		case_begin("%s: mlx5-tm (%s) sent every case without an "
			   "error CQE", label, ours_mode[v]);
		CHECK(error_cqes(ours.emu[v]) == 0,
		      "%s: mlx5-tm (%s): no error CQE", label, ours_mode[v]);
		case_end();
		ours_close(2 * i + v, ours.port[v]);
	}
}

int
main(int argc __rte_unused, char **argv)
{
	char prefix[64];
	char *eal_argv[] = {
		argv[0], "-l", "0", "--no-huge", "--no-pci", "-m", "256",
		"--no-shconf", "--no-telemetry", "--log-level=warning",
		prefix, NULL,
	};
	int ret;

	snprintf(prefix, sizeof(prefix), "--file-prefix=upwire_%d",
		 (int)getpid());
	ret = rte_eal_init(RTE_DIM(eal_argv) - 1, eal_argv);
	if (ret < 0) {
		printf("EAL init failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	pool = rte_pktmbuf_pool_create("upwire", 4095, 256, 0,
				       RTE_MBUF_DEFAULT_BUF_SIZE,
				       SOCKET_ID_ANY);
	if (pool == NULL) {
		printf("FAIL: no mbuf pool\n");
		test_eal_cleanup();
		return 1;
	}
	run_profile(0, "cx6dx", "cx6dx", false);
	run_profile(1, "cx5", "cx5", true);
	run_profile(2, "cx5-l4", "cx5,cap_vport_inline=tcp_udp", true);
	case_begin("upstream's MR cache never missed");
	CHECK(upstream_port_mr_misses() == 0,
	      "upstream's MR cache never missed (%llu)",
	      (unsigned long long)upstream_port_mr_misses());
	case_end();
	rte_mempool_free(pool);
	test_eal_cleanup();
	printf("%u passed, %u failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
