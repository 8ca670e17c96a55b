/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * Datapath cost on the sending lcore: TSC cycles spent inside
 * rte_eth_tx_burst() per packet sent, for mlx5-tm on the device model, for
 * DPDK's net_null (the floor: it only frees the mbufs) and net_ring (a real
 * software PMD: one rte_ring enqueue per burst), and for upstream
 * net/mlx5's own Tx burst on the same device model (compiled at build
 * time from the Debian DPDK source package, never committed; see
 * test/upstream): the code people would otherwise run on this NIC.
 *
 * Everything else happens outside the measured region: building the
 * packets, freeing what a burst did not take, and draining the wire (the
 * device model in virtual clock runs until every WQE has left; the ring is
 * emptied through the port's Rx queue). mlx5-tm frees the mbufs of earlier
 * bursts when it reaps their completions, inside tx_burst, so that cost is
 * counted, as it is for net_null which frees at once.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#ifdef BENCH_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

#include "bench.h"

#define DP_MAX_BURST 64
#define DP_MAX_SEGS 3
#define DP_POOL_SIZE 16383
#define DP_POOL_CACHE 256
#define DP_RING_DESC 1024
#define DP_STALL_LIMIT 100000
#define DP_MAX_ROUNDS 64
/* A burst longer than this was preempted (no burst of <= 64 takes it). */
#define DP_PREEMPT_US 100

static const uint16_t dp_bursts[] = { 1, 8, 32, 64 };

/** A packet shape: segment lengths (the packet is their sum). */
struct dp_shape {
	const char *name;
	uint16_t nb_segs;
	uint16_t seg_len[DP_MAX_SEGS];
};

static const struct dp_shape dp_shapes[] = {
	{ "64B", 1, { 64 } },
	{ "1500B", 1, { 1500 } },
	{ "3seg", 3, { 500, 500, 500 } },
};

#define DP_NB_SHAPES RTE_DIM(dp_shapes)
#define DP_NB_BURSTS RTE_DIM(dp_bursts)

/** One PMD's port for the datapath cases. */
struct dp_port {
	enum bench_pmd pmd;
	uint16_t port_id;
	bool ready;
	bool created;     /**< Made by bench_mlx5_tm_create, to destroy. */
	uint64_t sent;    /**< Packets tx_burst took, warm-up included. */
};

/** Result of one case. */
struct dp_result {
	bool valid;
	double cycles_per_pkt;     /**< Median over rounds. */
	double cycles_per_pkt_min; /**< Best round. */
	double cycles_per_pkt_max; /**< Worst round. */
	uint32_t rounds;           /**< Rounds measured. */
	double per_round[DP_MAX_ROUNDS]; /**< In the order run. */
	uint64_t packets;          /**< Packets sent over all rounds. */
	uint64_t bursts;           /**< Calls of rte_eth_tx_burst. */
	uint64_t short_bursts;     /**< Bursts that took fewer than asked. */
	uint64_t preempted;        /**< Bursts left out of the timing. */
};

static struct rte_mempool *dp_pool;
static uint8_t dp_header[64];
static double dp_timer_overhead;
static double dp_core_per_tsc;
static uint64_t dp_preempt_cycles;
static bool dp_callgrind;

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Cycles of an empty rte_rdtsc_precise() pair, subtracted per burst. The
 * mean (the slowest 1% left out), since the results are sums over many
 * bursts; the TSC of a virtual machine may tick coarsely, and the mean
 * keeps the subtraction unbiased then.
 */
static double
timer_overhead(void)
{
	static double samples[8192];
	unsigned int i, n = RTE_DIM(samples) * 99 / 100;
	double sum = 0;

	for (i = 0; i < RTE_DIM(samples); i++) {
		uint64_t t0 = rte_rdtsc_precise();
		uint64_t t1 = rte_rdtsc_precise();

		samples[i] = (double)(t1 - t0);
	}
	qsort(samples, RTE_DIM(samples), sizeof(samples[0]), cmp_double);
	for (i = 0; i < n; i++)
		sum += samples[i];
	return sum / n;
}

/*
 * Core clock cycles per TSC tick. The TSC ticks at the nominal frequency
 * while the core runs at its boost clock (on this EPYC virtual machine
 * 1.74 to 1.79 times faster), so TSC cycles understate core cycles and an IPC
 * computed from them comes out impossibly high. A chain of dependent
 * adds retires one per core cycle; its fastest run over many samples is
 * the one the scheduler left alone, which makes the ratio load-independent.
 */
#ifdef RTE_ARCH_X86_64
#define DP_CLOCK_ADDS 4096
static double
core_per_tsc(void)
{
	uint64_t best = UINT64_MAX, x = 0;
	unsigned int i, k;

	for (i = 0; i < 2000; i++) {
		uint64_t t0 = rte_rdtsc_precise();

		for (k = 0; k < DP_CLOCK_ADDS; k++)
			__asm__ volatile("add $1, %0" : "+r" (x));
		t0 = rte_rdtsc_precise() - t0;
		if (t0 < best)
			best = t0;
	}
	if ((double)best <= dp_timer_overhead)
		return NAN;
	return DP_CLOCK_ADDS / ((double)best - dp_timer_overhead);
}
#endif

/* Ethernet + IPv4 + UDP header written at the start of every packet. */
static void
build_header(void)
{
	struct rte_ether_hdr *eth = (void *)dp_header;
	struct rte_ipv4_hdr *ip = (void *)(eth + 1);
	struct rte_udp_hdr *udp = (void *)(ip + 1);
	static const struct rte_ether_addr dst = {
		.addr_bytes = { 0x02, 0, 0, 0, 0, 2 } };
	static const struct rte_ether_addr src = {
		.addr_bytes = { 0x02, 0, 0, 0, 0, 1 } };

	memset(dp_header, 0, sizeof(dp_header));
	rte_ether_addr_copy(&dst, &eth->dst_addr);
	rte_ether_addr_copy(&src, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(RTE_IPV4(198, 18, 0, 1));
	ip->dst_addr = rte_cpu_to_be_32(RTE_IPV4(198, 18, 0, 2));
	udp->src_port = rte_cpu_to_be_16(9);
	udp->dst_port = rte_cpu_to_be_16(9);
}

/* Allocate and fill @p n packets of shape @p s. */
static int
build_burst(const struct dp_shape *s, struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mbuf *segs[DP_MAX_BURST * DP_MAX_SEGS];
	uint16_t i, k;
	uint32_t total = 0;

	if (rte_pktmbuf_alloc_bulk(dp_pool, segs, n * s->nb_segs) != 0)
		return -ENOMEM;
	for (k = 0; k < s->nb_segs; k++)
		total += s->seg_len[k];
	for (i = 0; i < n; i++) {
		struct rte_mbuf *head = segs[i * s->nb_segs];

		for (k = 0; k < s->nb_segs; k++) {
			struct rte_mbuf *m = segs[i * s->nb_segs + k];

			m->data_len = s->seg_len[k];
			m->next = k + 1 < s->nb_segs ?
				segs[i * s->nb_segs + k + 1] : NULL;
		}
		head->nb_segs = s->nb_segs;
		head->pkt_len = total;
		rte_memcpy(rte_pktmbuf_mtod(head, void *), dp_header,
			   sizeof(dp_header));
		pkts[i] = head;
	}
	return 0;
}

/* Whether comma list @p list (NULL: everything) names @p item. */
static bool
list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	const char *p = list;

	if (list == NULL)
		return true;
	while (*p != '\0') {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, item, n) == 0)
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

/*
 * Every item of comma list @p list (option @p opt) is one of the @p n
 * names @p names; otherwise say which is not, and what is allowed.
 */
static int
list_check(const char *opt, const char *list, const char *const *names,
	   unsigned int n)
{
	char item[32], allowed[64] = "";
	const char *p = list;
	unsigned int i;

	if (list == NULL)
		return 0;
	for (i = 0; i < n; i++)
		snprintf(allowed + strlen(allowed),
			 sizeof(allowed) - strlen(allowed), "%s%s",
			 i ? "," : "", names[i]);
	do {
		size_t len = strcspn(p, ",");

		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		for (i = 0; i < n; i++)
			if (strcmp(item, names[i]) == 0)
				break;
		if (i == n) {
			fprintf(stderr, "datapath: %s: '%s' is not one of %s\n",
				opt, item, allowed);
			return -EINVAL;
		}
		p += len;
	} while (*p++ == ',');
	return 0;
}

/* The --shapes and --bursts lists name known shapes and bursts. */
static int
check_case_lists(const struct bench_opts *o)
{
	const char *shapes[DP_NB_SHAPES], *bursts[DP_NB_BURSTS];
	static char burst_names[DP_NB_BURSTS][8];
	unsigned int i;

	for (i = 0; i < DP_NB_SHAPES; i++)
		shapes[i] = dp_shapes[i].name;
	for (i = 0; i < DP_NB_BURSTS; i++) {
		snprintf(burst_names[i], sizeof(burst_names[i]), "%u",
			 dp_bursts[i]);
		bursts[i] = burst_names[i];
	}
	if (list_check("--shapes", o->shapes, shapes, DP_NB_SHAPES) != 0 ||
	    list_check("--bursts", o->bursts, bursts, DP_NB_BURSTS) != 0)
		return -EINVAL;
	return 0;
}

/* Whether case (@p s, @p b) is in the run (--shapes, --bursts). */
static bool
case_selected(const struct bench_opts *o, unsigned int s, unsigned int b)
{
	char burst[8];

	snprintf(burst, sizeof(burst), "%u", dp_bursts[b]);
	return list_has(o->shapes, dp_shapes[s].name) &&
	       list_has(o->bursts, burst);
}

#ifdef BENCH_HAVE_CALLGRIND
/*
 * Instructions of the collection toggles themselves: the same toggle pair
 * around nothing, dumped as "dp:calib:-:0:0:<pairs>", subtracted per burst
 * when the dumps are read.
 */
static void
callgrind_calibrate(void)
{
	char what[64];
	unsigned int i, pairs = 10000;

	CALLGRIND_ZERO_STATS;
	for (i = 0; i < pairs; i++) {
		if (unlikely(dp_callgrind))
			CALLGRIND_TOGGLE_COLLECT;
		rte_compiler_barrier();
		if (unlikely(dp_callgrind))
			CALLGRIND_TOGGLE_COLLECT;
	}
	snprintf(what, sizeof(what), "dp:calib:-:0:0:%u", pairs);
	CALLGRIND_DUMP_STATS_AT(what);
}
#endif

static void
drain(const struct dp_port *p)
{
	struct rte_mbuf *rx[DP_MAX_BURST];
	uint16_t n;

	switch (p->pmd) {
	case BENCH_PMD_MLX5_TM:
		bench_mlx5_tm_drain(p->port_id);
		break;
	case BENCH_PMD_UPSTREAM:
		bench_upstream_drain(p->port_id);
		break;
	case BENCH_PMD_RING:
		do {
			n = rte_eth_rx_burst(p->port_id, 0, rx, DP_MAX_BURST);
			rte_pktmbuf_free_bulk(rx, n);
		} while (n > 0);
		break;
	default:
		break;
	}
}

/** What one round measured. */
struct dp_round {
	uint64_t sent;        /**< Packets tx_burst took. */
	uint64_t bursts;      /**< tx_burst calls. */
	uint64_t short_bursts;/**< Calls that took fewer than asked. */
	uint64_t timed_pkts;  /**< Packets of the bursts kept for timing. */
	uint64_t timed_bursts;/**< Bursts kept for timing. */
	uint64_t preempted;   /**< Bursts left out: the lcore was taken away. */
	double cycles;        /**< Cycles of the kept bursts, overhead removed. */
};

/*
 * Send @p packets packets in bursts of @p burst. A burst that took longer
 * than dp_preempt_cycles was interrupted by the scheduler (another process
 * ran on this CPU): its time says nothing about the PMD, so it is left out
 * of the timing and counted. The cycles can come out slightly negative
 * where a burst costs less than the timer's noise.
 */
static int
run_round(struct dp_port *p, const struct dp_shape *s, uint16_t burst,
	  uint64_t packets, bool measure, struct dp_round *rd)
{
	struct rte_mbuf *pkts[DP_MAX_BURST];
	uint64_t cycles = 0;
	uint32_t stalls = 0;

	memset(rd, 0, sizeof(*rd));
	while (rd->sent < packets) {
		uint64_t t0, t1;
		uint16_t n;

		if (build_burst(s, pkts, burst) != 0) {
			fprintf(stderr, "%s: mbuf pool empty\n",
				bench_pmd_name(p->pmd));
			return -1;
		}
		t0 = rte_rdtsc_precise();
#ifdef BENCH_HAVE_CALLGRIND
		if (unlikely(measure && dp_callgrind))
			CALLGRIND_TOGGLE_COLLECT;
#endif
		n = rte_eth_tx_burst(p->port_id, 0, pkts, burst);
#ifdef BENCH_HAVE_CALLGRIND
		if (unlikely(measure && dp_callgrind))
			CALLGRIND_TOGGLE_COLLECT;
#endif
		t1 = rte_rdtsc_precise();
		rd->bursts++;
		if (t1 - t0 > dp_preempt_cycles) {
			rd->preempted++;
		} else {
			cycles += t1 - t0;
			rd->timed_bursts++;
			rd->timed_pkts += n;
		}
		if (n < burst) {
			rte_pktmbuf_free_bulk(pkts + n, burst - n);
			rd->short_bursts++;
			if (n == 0 && ++stalls > DP_STALL_LIMIT) {
				fprintf(stderr, "%s: tx_burst takes nothing\n",
					bench_pmd_name(p->pmd));
				return -1;
			}
		}
		if (n > 0)
			stalls = 0;
		rd->sent += n;
		p->sent += n;
		drain(p);
	}
	rd->cycles = (double)cycles -
		     dp_timer_overhead * (double)rd->timed_bursts;
	return 0;
}

/* The warm-up of a case: 20000 packets (fewer with --packets), untimed. */
static bool
case_warm(const struct bench_opts *o, struct dp_port *p,
	  const struct dp_shape *s, uint16_t burst, struct dp_result *r)
{
	uint64_t warm = RTE_MIN((uint64_t)o->packets, (uint64_t)20000);
	struct dp_round rd;

	memset(r, 0, sizeof(*r));
	return run_round(p, s, burst, warm, false, &rd) == 0;
}

/* One measured round of a case, appended to @p r. */
static bool
case_round(const struct bench_opts *o, struct dp_port *p,
	   const struct dp_shape *s, uint16_t burst, struct dp_result *r)
{
	struct dp_round rd;

	if (run_round(p, s, burst, o->packets, true, &rd) != 0)
		return false;
	r->per_round[r->rounds++] = rd.timed_pkts ?
		rd.cycles / (double)rd.timed_pkts : NAN;
	r->packets += rd.sent;
	r->bursts += rd.bursts;
	r->short_bursts += rd.short_bursts;
	r->preempted += rd.preempted;
	return true;
}

/* Median of @p n values, and their extremes. */
static double
median(const double *v, uint32_t n, double *min, double *max)
{
	double tmp[DP_MAX_ROUNDS];

	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(tmp[0]), cmp_double);
	if (min != NULL)
		*min = tmp[0];
	if (max != NULL)
		*max = tmp[n - 1];
	return tmp[n / 2];
}

static void
case_finish(struct dp_result *r)
{
	r->cycles_per_pkt = median(r->per_round, r->rounds,
				   &r->cycles_per_pkt_min,
				   &r->cycles_per_pkt_max);
	r->valid = true;
}

#ifdef BENCH_HAVE_CALLGRIND
/* Under callgrind: one PMD's rounds in a row, one profile dumped. */
static void
case_callgrind(const struct bench_opts *o, uint32_t rounds, struct dp_port *p,
	       const struct dp_shape *s, uint16_t burst, struct dp_result *r)
{
	char what[96];
	uint32_t i;

	if (!case_warm(o, p, s, burst, r))
		return;
	CALLGRIND_ZERO_STATS;
	for (i = 0; i < rounds; i++)
		if (!case_round(o, p, s, burst, r))
			return;
	snprintf(what, sizeof(what), "dp:%s:%s:%u:%" PRIu64 ":%" PRIu64,
		 bench_pmd_name(p->pmd), s->name, burst, r->packets,
		 r->bursts);
	CALLGRIND_DUMP_STATS_AT(what);
	case_finish(r);
}
#endif

/*
 * One case (shape, burst) for every PMD. Each warms up, then the rounds
 * are interleaved: round i of every PMD, the PMDs in an order rotated by
 * one each round, so that a slow phase of the loaded machine (another
 * process on this CPU, the other CPU's work) falls on all of them alike
 * and no PMD always runs right after the same one. Instruction counts
 * (callgrind) do not depend on the load: there each PMD runs its rounds
 * in a row, so that one profile holds one PMD.
 */
static void
run_case(const struct bench_opts *o, struct dp_port *ports,
	 const struct dp_shape *s, uint16_t burst,
	 struct dp_result *res[BENCH_PMD_COUNT])
{
	uint32_t rounds = RTE_MIN(o->rounds, (uint32_t)DP_MAX_ROUNDS);
	bool live[BENCH_PMD_COUNT];
	unsigned int pmd, k;
	uint32_t i;

	for (pmd = 0; pmd < BENCH_PMD_COUNT; pmd++) {
		live[pmd] = false;
		if (!ports[pmd].ready)
			continue;
#ifdef BENCH_HAVE_CALLGRIND
		if (dp_callgrind) {
			case_callgrind(o, rounds, &ports[pmd], s, burst,
				       res[pmd]);
			continue;
		}
#endif
		live[pmd] = case_warm(o, &ports[pmd], s, burst, res[pmd]);
	}
	for (i = 0; i < rounds; i++)
		for (k = 0; k < BENCH_PMD_COUNT; k++) {
			pmd = (i + k) % BENCH_PMD_COUNT;
			if (live[pmd])
				live[pmd] = case_round(o, &ports[pmd], s,
						       burst, res[pmd]);
		}
	for (pmd = 0; pmd < BENCH_PMD_COUNT; pmd++)
		if (live[pmd])
			case_finish(res[pmd]);
}

static int
setup_port(struct dp_port *p, bool fast_free, const char *profile)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nb_rxq = p->pmd == BENCH_PMD_RING ? 1 : 0;
	int ret;

	switch (p->pmd) {
	case BENCH_PMD_MLX5_TM:
		ret = bench_mlx5_tm_create("dp", "", &p->port_id);
		if (ret != 0)
			return ret;
		p->created = true;
		break;
	case BENCH_PMD_UPSTREAM:
		ret = bench_upstream_create(profile, &p->port_id);
		if (ret != 0)
			return ret;
		p->created = true;
		break;
	case BENCH_PMD_NULL:
		ret = rte_eth_dev_get_port_by_name("net_null0", &p->port_id);
		break;
	default:
		ret = rte_eth_dev_get_port_by_name("net_ring0", &p->port_id);
		break;
	}
	if (ret != 0)
		return ret;
	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_info_get(p->port_id, &info) != 0)
		memset(&info, 0, sizeof(info));
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	/* Every mbuf of a burst comes from one pool with refcnt 1. */
	if (fast_free &&
	    (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE))
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ret = rte_eth_dev_configure(p->port_id, nb_rxq, 1, &conf);
	if (ret != 0)
		return ret;
	if (nb_rxq > 0) {
		ret = rte_eth_rx_queue_setup(p->port_id, 0, DP_RING_DESC,
					     rte_eth_dev_socket_id(p->port_id),
					     NULL, dp_pool);
		if (ret != 0)
			return ret;
	}
	ret = rte_eth_tx_queue_setup(p->port_id, 0, DP_RING_DESC,
				     rte_eth_dev_socket_id(p->port_id), NULL);
	if (ret != 0)
		return ret;
	ret = rte_eth_dev_start(p->port_id);
	if (ret != 0)
		return ret;
	p->ready = true;
	return 0;
}

static void
teardown_port(struct dp_port *p)
{
	if (p->ready)
		drain(p);
	if (p->created && p->pmd == BENCH_PMD_UPSTREAM)
		bench_upstream_destroy(p->port_id);
	else if (p->created)
		bench_mlx5_tm_destroy(p->port_id);
	else if (p->ready)
		rte_eth_dev_stop(p->port_id);
	p->created = false;
	p->ready = false;
}

/*
 * After the cases: did @p p's device model (read by @p wire) send every
 * packet tx_burst took, without an error CQE? Recorded as
 * "<pmd>_check"; true when it did or @p p is not in the run.
 */
static bool
wire_check(struct bench_json *js, struct dp_port *p,
	   int (*wire)(uint16_t port_id, uint64_t *packets,
		       uint64_t *error_cqes))
{
	uint64_t packets = 0, errors = 0;
	char key[32];

	if (!p->ready)
		return true;
	drain(p);
	if (wire(p->port_id, &packets, &errors) != 0)
		return true;
	snprintf(key, sizeof(key), "%s_check", bench_pmd_name(p->pmd));
	bench_json_obj_begin(js, key);
	bench_json_int(js, "taken_by_tx_burst", p->sent);
	bench_json_int(js, "departed_on_wire", packets);
	bench_json_int(js, "error_cqes", errors);
	bench_json_obj_end(js);
	if (packets == p->sent && errors == 0)
		return true;
	fprintf(stderr, "datapath: %s took %" PRIu64 " packets, %" PRIu64
		" left, %" PRIu64 " error CQEs\n", bench_pmd_name(p->pmd),
		p->sent, packets, errors);
	return false;
}

/*
 * Median over rounds of @p a's cycles per packet over @p b's in the same
 * round (run one after the other), and the extremes of those ratios.
 */
static double
ratio(const struct dp_result *a, const struct dp_result *b, double *min,
      double *max)
{
	double r[DP_MAX_ROUNDS];
	uint32_t i, n;

	*min = NAN;
	*max = NAN;
	if (!a->valid || !b->valid)
		return NAN;
	n = RTE_MIN(a->rounds, b->rounds);
	for (i = 0; i < n; i++)
		r[i] = b->per_round[i] > 0 ?
		       a->per_round[i] / b->per_round[i] : NAN;
	return median(r, n, min, max);
}

static void
print_ratio(double r, const char *sep)
{
	if (isfinite(r))
		printf("%s%9.2f", sep, r);
	else
		printf("%s%9s", sep, "-");
}

static void
print_range(double lo, double hi, const char *fmt)
{
	char buf[32];

	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, sizeof(buf), fmt, lo, hi);
	else
		snprintf(buf, sizeof(buf), "-");
	printf(" %13s", buf);
}

/* The ratios of @p res[0] (mlx5-tm) to the references, in JSON. */
static void
record_ratio(struct bench_json *js, const char *key,
	     const struct dp_result *ours, const struct dp_result *ref)
{
	char k[48];
	double lo, hi, r = ratio(ours, ref, &lo, &hi);

	bench_json_num(js, key, r);
	snprintf(k, sizeof(k), "%s_min", key);
	bench_json_num(js, k, lo);
	snprintf(k, sizeof(k), "%s_max", key);
	bench_json_num(js, k, hi);
}

static void
print_and_record(const struct bench_opts *o, struct bench_json *js,
		 struct dp_result res[BENCH_PMD_COUNT][DP_NB_SHAPES][DP_NB_BURSTS])
{
	double ns = 1e9 / (double)rte_get_tsc_hz();
	unsigned int s, b, pmd;
	double lo, hi;

	printf("\nDatapath: TSC cycles per packet inside rte_eth_tx_burst on"
	       " the sending lcore\n(median of %u rounds of %u packets, the"
	       " rounds of the PMDs interleaved, ratios the median of the"
	       " ratios\n of the same round; %.1f cycles of timer overhead"
	       " removed per burst;\n bursts longer than %u us, preempted,"
	       " left out; the device model runs outside the measured"
	       " region)\n",
	       o->rounds, o->packets, dp_timer_overhead, DP_PREEMPT_US);
	printf("every PMD: one Tx queue of %u descriptors, the same mbuf pool"
	       " (%u mbufs, per-lcore cache %u) and the same packets\n",
	       DP_RING_DESC, DP_POOL_SIZE, DP_POOL_CACHE);
	printf("core clock: %.2f core cycles per TSC cycle (dependent adds):"
	       " multiply TSC cycles by it before dividing instructions\n",
	       dp_core_per_tsc);
	printf("upstream: net/mlx5's %s burst, compiled at build time from the"
	       " Debian DPDK source package (not in this repository)\n",
	       bench_upstream_variant());
	printf("%-6s %5s | %9s %9s %9s %9s | %9s %9s %9s\n", "shape", "burst",
	       "mlx5_tm", "null", "ring", "upstream", "ours/null", "ours/ring",
	       "ours/up");
	bench_json_arr_begin(js, "cases");
	for (s = 0; s < DP_NB_SHAPES; s++) {
		for (b = 0; b < DP_NB_BURSTS; b++) {
			if (!case_selected(o, s, b))
				continue;
			printf("%-6s %5u |", dp_shapes[s].name, dp_bursts[b]);
			for (pmd = 0; pmd < BENCH_PMD_COUNT; pmd++) {
				const struct dp_result *r = &res[pmd][s][b];

				if (r->valid)
					printf(" %9.1f", r->cycles_per_pkt);
				else
					printf(" %9s", "-");
				if (!r->valid)
					continue;
				bench_json_obj_begin(js, NULL);
				bench_json_str(js, "pmd", bench_pmd_name(pmd));
				bench_json_str(js, "shape", dp_shapes[s].name);
				bench_json_int(js, "burst", dp_bursts[b]);
				bench_json_int(js, "packets", r->packets);
				bench_json_num(js, "cycles_per_pkt",
					       r->cycles_per_pkt);
				bench_json_num(js, "cycles_per_pkt_min",
					       r->cycles_per_pkt_min);
				bench_json_num(js, "cycles_per_pkt_max",
					       r->cycles_per_pkt_max);
				bench_json_num(js, "ns_per_pkt",
					       r->cycles_per_pkt * ns);
				bench_json_int(js, "bursts", r->bursts);
				bench_json_int(js, "preempted_bursts",
					       r->preempted);
				bench_json_int(js, "short_bursts",
					       r->short_bursts);
				bench_json_obj_end(js);
			}
			print_ratio(ratio(&res[0][s][b],
					  &res[BENCH_PMD_NULL][s][b], &lo, &hi),
				    " | ");
			print_ratio(ratio(&res[0][s][b],
					  &res[BENCH_PMD_RING][s][b], &lo, &hi),
				    " ");
			print_ratio(ratio(&res[0][s][b],
					  &res[BENCH_PMD_UPSTREAM][s][b], &lo,
					  &hi), " ");
			printf("\n");
		}
	}
	bench_json_arr_end(js);
	printf("\nSpread over the rounds (lowest-highest): cycles per packet,"
	       " and the ratios of the same round\n");
	printf("%-6s %5s | %13s %13s %13s | %13s %13s\n", "shape", "burst",
	       "mlx5_tm", "null", "upstream", "ours/null", "ours/up");
	for (s = 0; s < DP_NB_SHAPES; s++) {
		for (b = 0; b < DP_NB_BURSTS; b++) {
			static const enum bench_pmd cols[] = {
				BENCH_PMD_MLX5_TM, BENCH_PMD_NULL,
				BENCH_PMD_UPSTREAM,
			};
			unsigned int c;

			if (!case_selected(o, s, b))
				continue;
			printf("%-6s %5u |", dp_shapes[s].name, dp_bursts[b]);
			for (c = 0; c < RTE_DIM(cols); c++) {
				const struct dp_result *r = &res[cols[c]][s][b];

				print_range(r->valid ? r->cycles_per_pkt_min :
						       NAN,
					    r->cycles_per_pkt_max,
					    "%.1f-%.1f");
			}
			printf(" |");
			ratio(&res[0][s][b], &res[BENCH_PMD_NULL][s][b], &lo,
			      &hi);
			print_range(lo, hi, "%.2f-%.2f");
			ratio(&res[0][s][b], &res[BENCH_PMD_UPSTREAM][s][b],
			      &lo, &hi);
			print_range(lo, hi, "%.2f-%.2f");
			printf("\n");
		}
	}
	bench_json_arr_begin(js, "ratios");
	for (s = 0; s < DP_NB_SHAPES; s++) {
		for (b = 0; b < DP_NB_BURSTS; b++) {
			if (!case_selected(o, s, b))
				continue;
			bench_json_obj_begin(js, NULL);
			bench_json_str(js, "shape", dp_shapes[s].name);
			bench_json_int(js, "burst", dp_bursts[b]);
			record_ratio(js, "ours_over_null", &res[0][s][b],
				     &res[BENCH_PMD_NULL][s][b]);
			record_ratio(js, "ours_over_ring", &res[0][s][b],
				     &res[BENCH_PMD_RING][s][b]);
			record_ratio(js, "ours_over_upstream", &res[0][s][b],
				     &res[BENCH_PMD_UPSTREAM][s][b]);
			bench_json_obj_end(js);
		}
	}
	bench_json_arr_end(js);
}

int
bench_datapath_run(const struct bench_opts *o, struct bench_json *js)
{
	static struct dp_result res[BENCH_PMD_COUNT][DP_NB_SHAPES][DP_NB_BURSTS];
	struct dp_port ports[BENCH_PMD_COUNT];
	unsigned int pmd, s, b, valid = 0;

	dp_callgrind = o->callgrind;
	memset(res, 0, sizeof(res));
	if (check_case_lists(o) != 0)
		return -EINVAL;
	if (dp_pool == NULL)
		dp_pool = rte_pktmbuf_pool_create("bench_dp", DP_POOL_SIZE,
						  DP_POOL_CACHE, 0,
						  RTE_MBUF_DEFAULT_BUF_SIZE,
						  SOCKET_ID_ANY);
	if (dp_pool == NULL) {
		fprintf(stderr, "datapath: no mbuf pool: %s\n",
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	build_header();
	dp_timer_overhead = timer_overhead();
#ifdef RTE_ARCH_X86_64
	dp_core_per_tsc = core_per_tsc();
#else
	dp_core_per_tsc = NAN;
#endif
	dp_preempt_cycles = rte_get_tsc_hz() / 1000000 * DP_PREEMPT_US;
#ifdef BENCH_HAVE_CALLGRIND
	if (dp_callgrind)
		callgrind_calibrate();
#endif
	bench_json_obj_begin(js, "datapath");
	bench_json_int(js, "packets_per_round", o->packets);
	bench_json_int(js, "rounds", o->rounds);
	bench_json_num(js, "timer_overhead_cycles", dp_timer_overhead);
	bench_json_int(js, "tx_ring_desc", DP_RING_DESC);
	bench_json_int(js, "pool_mbufs", DP_POOL_SIZE);
	bench_json_int(js, "pool_cache", DP_POOL_CACHE);
	bench_json_num(js, "core_cycles_per_tsc_cycle", dp_core_per_tsc);
	bench_json_int(js, "preempted_burst_us", DP_PREEMPT_US);
	bench_json_str(js, "mlx5_tm_wire",
		       "device model, clock=virtual, drained between bursts"
		       " outside the measured region");
	bench_json_str(js, "upstream",
		       "upstream net/mlx5 Tx burst (mlx5_tx.h) compiled at"
		       " build time from the Debian DPDK source package, not"
		       " committed; on its own device model like mlx5_tm");
	bench_json_str(js, "upstream_variant", bench_upstream_variant());
	bench_json_arr_begin(js, "unavailable");
	for (pmd = 0; pmd < BENCH_PMD_COUNT; pmd++) {
		int ret;

		ports[pmd] = (struct dp_port){ .pmd = pmd };
		ret = setup_port(&ports[pmd], o->fast_free, o->profile);
		if (ret != 0) {
			fprintf(stderr, "datapath: %s port unavailable: %s\n",
				bench_pmd_name(pmd), strerror(-ret));
			bench_json_str(js, NULL, bench_pmd_name(pmd));
			teardown_port(&ports[pmd]);
		}
	}
	bench_json_arr_end(js);
	for (s = 0; s < DP_NB_SHAPES; s++)
		for (b = 0; b < DP_NB_BURSTS; b++) {
			struct dp_result *r[BENCH_PMD_COUNT];

			if (!case_selected(o, s, b))
				continue;
			for (pmd = 0; pmd < BENCH_PMD_COUNT; pmd++)
				r[pmd] = &res[pmd][s][b];
			run_case(o, ports, &dp_shapes[s], dp_bursts[b], r);
			for (pmd = 0; pmd < BENCH_PMD_COUNT; pmd++)
				valid += r[pmd]->valid;
		}
	/* The wires must have carried every packet tx_burst took. */
	if (!wire_check(js, &ports[BENCH_PMD_MLX5_TM], bench_mlx5_tm_wire) ||
	    !wire_check(js, &ports[BENCH_PMD_UPSTREAM], bench_upstream_wire))
		valid = 0;
	for (pmd = 0; pmd < BENCH_PMD_COUNT; pmd++)
		teardown_port(&ports[pmd]);
	print_and_record(o, js, res);
	bench_json_obj_end(js);
	return valid > 0 ? 0 : -EIO;
}
