/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * dpdk-tm-pace: paces Tx queues through rte_tm, keeps them busy and
 * measures the achieved rates. See pace_usage() for what it takes.
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "pace_meter.h"
#include "pace_report.h"
#include "pace_run.h"

/* Exit statuses (doc/guides/tm_pace.rst, pace_usage()). */
#define EXIT_TOLERANCE 1      /* a row is not a measure within tolerance */
#define EXIT_USAGE 2          /* bad arguments */
#define EXIT_REFUSED 3        /* the port refused the plan, or to start */
#define EXIT_CHANGE_REFUSED 4 /* a live change (--at) was refused */
#define EXIT_NO_MEMORY 5      /* the tool could not get its memory */
#define EXIT_OUTPUT 6         /* --json, --plot or pcap= not written */

static volatile sig_atomic_t interrupted;
/* --json and --plot files, open from before the run to its end. */
static struct pace_outputs outputs;
static int stop_senders;
/* Nap of a sender whose rings are all full, ns (0: never nap). */
static uint64_t idle_nap_ns;

/** Queues one lcore pushes. */
struct sender {
	struct pace_run *run;
	unsigned int idx[PACE_MAX_QUEUES];
	unsigned int n;
};

static void
on_signal(int sig __rte_unused)
{
	interrupted = 1;
}

static uint64_t
monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Device time on a virtual clock, the monotonic clock otherwise. */
static uint64_t
now_ns(const struct pace_run *run)
{
	return run->emu.virtual_clock ? pace_emu_now_ns(&run->emu) :
	       monotonic_ns();
}

/*
 * One burst per queue. When no ring took anything, nap a little: the
 * rings stay full for much longer than the nap, and the CPU goes to the
 * device (the emulated device's thread may share it) and to others.
 */
static void
push_all(const struct sender *s)
{
	unsigned int i, sent = 0;
	uint64_t nap;

	for (i = 0; i < s->n; i++)
		sent += pace_txq_push(&s->run->txq[s->idx[i]]);
	nap = __atomic_load_n(&idle_nap_ns, __ATOMIC_RELAXED);
	if (sent == 0 && nap > 0)
		rte_delay_us_sleep((unsigned int)(nap / 1000));
}

/*
 * Virtual time stands still while we send: fill every ring before the
 * clock moves, else a queue's rate would be capped by bursts per step.
 */
static void
fill_all(const struct sender *s, unsigned int max_bursts)
{
	unsigned int i;

	for (i = 0; i < s->n; i++)
		pace_txq_fill(&s->run->txq[s->idx[i]], max_bursts);
}

static int
sender_main(void *arg)
{
	const struct sender *s = arg;

	while (!__atomic_load_n(&stop_senders, __ATOMIC_ACQUIRE))
		push_all(s);
	return 0;
}

/*
 * --help or -h, before "--" or after it: the tool's own usage, without
 * starting EAL (which has a help of its own, printed for -h). --eal-help
 * before "--" becomes EAL's --help. Exits when it printed a help.
 */
static void
help_before_eal(int argc, char **argv)
{
	static char eal_help[] = "--help";
	bool tool_args = false;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			pace_usage(stdout, "dpdk-tm-pace");
			exit(0);
		}
		if (strcmp(argv[i], "--") == 0) {
			tool_args = true;
		} else if (strcmp(argv[i], "--eal-help") == 0) {
			if (tool_args) {
				fprintf(stderr, "tm-pace: --eal-help goes "
					"before --: %s --eal-help\n",
					argv[0]);
				exit(EXIT_USAGE);
			}
			argv[i] = eal_help;
		}
	}
}

static int
pick_port(struct pace_run *run)
{
	uint16_t pid;

	if (run->opt.port_given) {
		if (!rte_eth_dev_is_valid_port(run->opt.port_id)) {
			fprintf(stderr, "tm-pace: no port %u (%u ports)\n",
				run->opt.port_id, rte_eth_dev_count_avail());
			return -ENODEV;
		}
		run->port_id = run->opt.port_id;
		return 0;
	}
	RTE_ETH_FOREACH_DEV(pid) {
		run->port_id = pid;
		return 0;
	}
	fprintf(stderr, "tm-pace: no Ethernet port; give one, e.g. --vdev "
		"net_mlx5_tm0,emu=cx6dx (emulated ConnectX), --vdev "
		"net_mlx5_tm0,dev=mlx5_0 (hardware) or a PCI NIC\n");
	return -ENODEV;
}

static int
configure_port(struct pace_run *run)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nb_txd = run->opt.nb_txd, nb_rxd = 0, q, max_frame = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < run->opt.nb_queues; i++)
		if (run->opt.queues[i].queue >= run->nb_txq)
			run->nb_txq = run->opt.queues[i].queue + 1;
	ret = rte_eth_dev_info_get(run->port_id, &info);
	if (ret != 0) {
		fprintf(stderr, "tm-pace: port %u info: %s\n", run->port_id,
			strerror(-ret));
		return ret;
	}
	snprintf(run->driver, sizeof(run->driver), "%s", info.driver_name);
	rte_eth_dev_get_name_by_port(run->port_id, run->port_name);
	if (run->nb_txq > info.max_tx_queues) {
		fprintf(stderr, "tm-pace: the plan uses Tx queue %u, port %u "
			"(%s) has at most %u Tx queues\n", run->nb_txq - 1,
			run->port_id, run->driver, info.max_tx_queues);
		return -EINVAL;
	}
	memset(&conf, 0, sizeof(conf));
	/* Jumbo frames need an MTU to match (frame = MTU + Ethernet header). */
	for (i = 0; i < run->opt.nb_queues; i++)
		max_frame = RTE_MAX(max_frame, run->opt.queues[i].size_max);
	if (max_frame > RTE_ETHER_MAX_LEN - RTE_ETHER_CRC_LEN) {
		uint32_t mtu = max_frame - RTE_ETHER_HDR_LEN;

		if (mtu > info.max_mtu) {
			fprintf(stderr, "tm-pace: %u-byte frames need an MTU of "
				"%u; port %u (%s) allows at most %u\n",
				max_frame, mtu, run->port_id, run->driver,
				info.max_mtu);
			return -EINVAL;
		}
		conf.rxmode.mtu = mtu;
	}
	ret = rte_eth_dev_configure(run->port_id, 0, run->nb_txq, &conf);
	if (ret != 0) {
		fprintf(stderr, "tm-pace: configuring port %u with %u Tx "
			"queues: %s\n", run->port_id, run->nb_txq,
			strerror(-ret));
		return ret;
	}
	/* Some drivers keep their own MTU at configure: set it, then check. */
	if (conf.rxmode.mtu != 0) {
		uint16_t mtu = 0;

		ret = rte_eth_dev_get_mtu(run->port_id, &mtu);
		if (ret == 0 && mtu < conf.rxmode.mtu)
			ret = rte_eth_dev_set_mtu(run->port_id,
						  conf.rxmode.mtu);
		if (ret != 0) {
			fprintf(stderr, "tm-pace: %u-byte frames need an MTU "
				"of %u on port %u (%s): %s; the NIC would drop "
				"them\n", max_frame, conf.rxmode.mtu,
				run->port_id, run->driver, strerror(-ret));
			return ret;
		}
	}
	ret = rte_eth_dev_adjust_nb_rx_tx_desc(run->port_id, &nb_rxd, &nb_txd);
	if (ret == 0 && nb_txd != run->opt.nb_txd) {
		printf("port %u: %u Tx descriptors per queue (asked %u)\n",
		       run->port_id, nb_txd, run->opt.nb_txd);
		run->opt.nb_txd = nb_txd;
	}
	for (q = 0; q < run->nb_txq; q++) {
		ret = rte_eth_tx_queue_setup(run->port_id, q, nb_txd,
				rte_eth_dev_socket_id(run->port_id), NULL);
		if (ret != 0) {
			fprintf(stderr, "tm-pace: Tx queue %u setup: %s\n", q,
				strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int
create_traffic(struct pace_run *run)
{
	unsigned int i, nb_mbufs = 2u * run->opt.nb_txd + 4u *
		run->opt.tx_burst + 64u * rte_lcore_count();
	int socket = rte_eth_dev_socket_id(run->port_id);
	int ret;

	run->txq = rte_zmalloc("tm_pace_txq", sizeof(*run->txq) *
			       run->opt.nb_queues, RTE_CACHE_LINE_SIZE);
	if (run->txq == NULL) {
		fprintf(stderr, "tm-pace: no memory for the traffic state of "
			"%u queues (%zu bytes of EAL memory; raise -m)\n",
			run->opt.nb_queues,
			sizeof(*run->txq) * run->opt.nb_queues);
		return -ENOMEM;
	}
	for (i = 0; i < run->opt.nb_queues; i++) {
		const struct pace_queue_plan *qp = &run->opt.queues[i];

		ret = pace_txq_init(&run->txq[i], run->port_id, qp->queue,
				    qp->size_min, qp->size_max,
				    run->opt.tx_burst, nb_mbufs,
				    socket < 0 ? SOCKET_ID_ANY : socket);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void
free_traffic(struct pace_run *run)
{
	unsigned int i;

	if (run->txq == NULL)
		return;
	for (i = 0; i < run->opt.nb_queues; i++)
		if (run->txq[i].pool != NULL)
			pace_txq_free(&run->txq[i]);
	rte_free(run->txq);
	run->txq = NULL;
}

static int
plan_index(const struct pace_run *run, uint16_t queue)
{
	unsigned int i;

	for (i = 0; i < run->opt.nb_queues; i++)
		if (run->opt.queues[i].queue == queue)
			return (int)i;
	return -1;
}

/* The settings of the plan, as committed, and what they should give. */
static void
initial_state(struct pace_run *run)
{
	struct pace_state *st = &run->initial;
	unsigned int i;

	for (i = 0; i < run->opt.nb_queues; i++) {
		run->backstop_bps[i] = pace_hw_backstop_bps(run->port_id,
						run->opt.queues[i].queue);
		st->shaper[i] = run->opt.queues[i].shaper;
		st->weight[i] = run->opt.queues[i].place.weight;
		st->group[i] = run->opt.queues[i].place.group;
	}
	for (i = 0; i < run->opt.nb_groups; i++) {
		st->gshaper[i] = run->opt.groups[i].shaper;
		st->gweight[i] = run->opt.groups[i].place.weight;
	}
	pace_expect(run, st);
	run->now = *st;
}

static void
apply_change(struct pace_run *run, const struct pace_change *ch,
	     uint64_t t_ns)
{
	struct pace_applied_change *ac = &run->changes[run->nb_changes++];
	struct pace_state *st = &ac->after;
	int i = ch->is_group ? -1 : plan_index(run, ch->queue);
	unsigned int refusals = run->tm.nb_refusals, k;

	ac->t_ns = t_ns;
	ac->at_ns = ch->at_ns;
	ac->ch = ch;
	ac->plan_idx = i;
	ac->before = run->now;
	ac->after = run->now;
	if (!run->shaped) {
		ac->ret = -ENOTSUP;
		snprintf(ac->reason, sizeof(ac->reason), "the port has no "
			 "rte_tm hierarchy of the plan to change");
		return;
	}
	ac->ret = pace_tm_change(&run->tm, ch, run->opt.share, ac->call,
				 sizeof(ac->call));
	if (ac->ret != 0) {
		const struct pace_tm_failure *f = &run->tm.last_refusal;

		/* The refusal pace_tm printed, or the tool's own. */
		if (run->tm.nb_refusals > refusals)
			snprintf(ac->reason, sizeof(ac->reason),
				 "%s: %s (errno %d), %s: %s", f->call,
				 strerror(f->errnum), f->errnum,
				 pace_tm_error_type_name(f->type),
				 f->message[0] != '\0' ? f->message :
				 "(the driver gave no message)");
		else
			snprintf(ac->reason, sizeof(ac->reason), "%s: %s",
				 ac->call[0] != '\0' ? ac->call : "tm-pace",
				 strerror(-ac->ret));
		return;
	}
	if (ch->what & PACE_SET_SHAPER) {
		if (i >= 0)
			st->shaper[i] = ch->shaper;
		else
			st->gshaper[ch->group] = ch->shaper;
	}
	if (ch->what & PACE_SET_WEIGHT) {
		if (i >= 0)
			st->weight[i] = ch->weight;
		else
			st->gweight[ch->group] = ch->weight;
	}
	if (ch->what & PACE_SET_GROUP)
		st->group[i] = ch->new_group;
	for (k = 0; k < run->opt.nb_queues; k++)
		run->backstop_bps[k] = pace_hw_backstop_bps(run->port_id,
						run->opt.queues[k].queue);
	pace_expect(run, st);
	run->now = *st;
}

/* A quarter of the time the fastest queue needs to drain a full ring
 * (at most @p max): the clock step in virtual time, the idle nap in
 * real time, so that no ring runs dry.
 */
static uint64_t
ring_quarter_ns(const struct pace_run *run, uint64_t max)
{
	uint64_t step = max;
	unsigned int i;

	for (i = 0; i < run->opt.nb_queues; i++) {
		const struct pace_shaper *sh = &run->now.shaper[i];
		double rate = run->now.expected[i], ring_ns;

		if (!(rate > 0))
			continue;
		if (sh->packet_mode)
			ring_ns = 1e9 * run->opt.nb_txd / rate;
		else
			ring_ns = 1e9 * run->opt.nb_txd * 8.0 *
				  run->opt.queues[i].size_min / rate;
		if (ring_ns / 4 < (double)step)
			step = (uint64_t)(ring_ns / 4);
	}
	return RTE_MAX(step, (uint64_t)1000);
}

static uint64_t
virtual_step_ns(const struct pace_run *run)
{
	return ring_quarter_ns(run, run->opt.interval_ns / 10);
}

/* Naps shorter than a timer's slack are not worth it. */
static void
set_idle_nap(const struct pace_run *run)
{
	uint64_t nap = ring_quarter_ns(run, 200000);

	__atomic_store_n(&idle_nap_ns, nap >= 20000 ? nap / 2 : 0,
			 __ATOMIC_RELAXED);
}

/*
 * Send for the planned duration. In virtual time the main lcore sends
 * and moves the device clock; otherwise worker lcores send (the main
 * lcore too when it is alone) while the main lcore samples and applies
 * the changes.
 */
static void
run_traffic(struct pace_run *run)
{
	static struct sender senders[RTE_MAX_LCORE];
	struct sender *main_sender = &senders[rte_get_main_lcore()];
	unsigned int lcore, i, nb_workers = 0, next_change = 0;
	uint64_t t0, t, next_sample, step = 0;

	for (i = 0; i < RTE_MAX_LCORE; i++) {
		senders[i].run = run;
		senders[i].n = 0;
	}
	if (!run->emu.virtual_clock)
		nb_workers = rte_lcore_count() - 1;
	i = 0;
	if (nb_workers > 0) {
		RTE_LCORE_FOREACH_WORKER(lcore) {
			unsigned int k;

			for (k = i; k < run->opt.nb_queues; k += nb_workers)
				senders[lcore].idx[senders[lcore].n++] = k;
			i++;
		}
	} else {
		for (i = 0; i < run->opt.nb_queues; i++)
			main_sender->idx[main_sender->n++] = i;
	}
	if (run->emu.virtual_clock) {
		step = virtual_step_ns(run);
		if (rte_lcore_count() > 1)
			printf("virtual device time: one lcore sends and "
			       "drives the clock; the other lcores stay idle\n");
	}
	if (!run->emu.virtual_clock && run->shaped)
		set_idle_nap(run);
	t0 = now_ns(run);
	pace_meter_sample(run, 0);
	__atomic_store_n(&stop_senders, 0, __ATOMIC_RELEASE);
	if (nb_workers > 0) {
		RTE_LCORE_FOREACH_WORKER(lcore)
			rte_eal_remote_launch(sender_main, &senders[lcore],
					      lcore);
	}
	next_sample = run->opt.interval_ns;
	t = 0;
	for (;;) {
		if (run->emu.virtual_clock) {
			uint64_t ev = RTE_MIN(next_sample, run->opt.duration_ns);

			/* Land on samples and changes exactly. */
			if (next_change < run->opt.nb_changes)
				ev = RTE_MIN(ev,
					run->opt.changes[next_change].at_ns);
			fill_all(main_sender,
				 run->opt.nb_txd / run->opt.tx_burst + 2);
			pace_emu_advance(&run->emu, ev > t && ev - t < step ?
					 ev - t : step);
		} else if (main_sender->n > 0) {
			push_all(main_sender);
		}
		if (!run->emu.virtual_clock && main_sender->n == 0)
			rte_delay_us_sleep(500);
		t = now_ns(run) - t0;
		if (interrupted || t >= run->opt.duration_ns) {
			pace_meter_sample(run, t);
			run->run_ns = t;
			run->interrupted = interrupted;
			break;
		}
		/* A sample due now still belongs to the phase before a change. */
		if (t >= next_sample) {
			pace_meter_sample(run, t);
			pace_report_live(run);
			while (next_sample <= t)
				next_sample += run->opt.interval_ns;
		}
		while (next_change < run->opt.nb_changes &&
		       t >= run->opt.changes[next_change].at_ns) {
			apply_change(run, &run->opt.changes[next_change++], t);
			if (run->emu.virtual_clock)
				step = virtual_step_ns(run);
			else if (run->shaped)
				set_idle_nap(run);
		}
	}
	__atomic_store_n(&stop_senders, 1, __ATOMIC_RELEASE);
	rte_eal_mp_wait_lcore();
}

/*
 * The report files (opened before the run) and the device model's pcap=
 * capture; false if one could not be written.
 */
static bool
finish_reports(struct pace_run *run)
{
	bool ok = pace_report_json_file(run, &outputs) == 0;

	if (pace_report_plot(run, &outputs) != 0)
		ok = false;
	pace_outputs_discard(&outputs);
	if (pace_emu_pcap_end(&run->emu) != 0) {
		fprintf(stderr, "tm-pace: the device model's pcap= capture is "
			"incomplete (the model's message above says why)\n");
		ok = false;
	}
	return ok;
}

/* A sample every interval of the run, and a few to spare. */
static int
alloc_samples(struct pace_run *run)
{
	uint64_t n = run->opt.duration_ns / run->opt.interval_ns + 8;

	if (n <= UINT32_MAX)
		run->samples = calloc(n, sizeof(*run->samples));
	if (run->samples == NULL) {
		fprintf(stderr, "tm-pace: no memory for %" PRIu64 " samples "
			"of %zu bytes (--duration %.3fs / --interval %.6fs): "
			"give a longer --interval or a shorter --duration\n",
			n, sizeof(*run->samples),
			(double)run->opt.duration_ns / 1e9,
			(double)run->opt.interval_ns / 1e9);
		return -ENOMEM;
	}
	run->max_samples = (unsigned int)n;
	return 0;
}

static int
run_plan(struct pace_run *run)
{
	struct rte_eth_link link;
	unsigned int i;
	bool ok;
	int ret;

	ret = pick_port(run);
	if (ret == 0)
		ret = configure_port(run);
	if (ret != 0)
		return EXIT_REFUSED;
	pace_emu_attach(&run->emu, run->port_id);
	pace_hw_attach(&run->hw, run->port_id, run->opt.from_device);
	if (run->opt.tolerance_pct == 0)
		run->opt.tolerance_pct =
			pace_default_tolerance(run->emu.virtual_clock);
	printf("port %u: %s (driver %s), %u Tx queues, %s device time\n",
	       run->port_id, run->port_name, run->driver, run->nb_txq,
	       run->emu.virtual_clock ? "virtual" : "real");

	pace_tm_layout(&run->tm, run->port_id, run->nb_txq, &run->opt);
	run->tm_ret = pace_tm_build(&run->tm, &run->opt);
	run->shaped = run->tm_ret == 0;
	initial_state(run);
	if (!run->shaped) {
		fprintf(stderr, "tm-pace: port %u (%s) refused the rate plan%s\n",
			run->port_id, run->driver, run->opt.keep_going ?
			"; sending UNSHAPED traffic (--keep-going)" :
			"; nothing sent");
		if (!run->opt.keep_going)
			return finish_reports(run) ? EXIT_REFUSED : EXIT_OUTPUT;
	} else {
		printf("rte_tm hierarchy committed: %u shaper profile(s) for "
		       "%u planned queue(s)%s\n", run->tm.nb_profiles,
		       run->opt.nb_queues, run->opt.share ?
		       " (--share: identical shapers share a profile)" : "");
	}
	ret = create_traffic(run);
	if (ret < 0)
		return ret == -ENOMEM ? EXIT_NO_MEMORY : EXIT_REFUSED;
	ret = rte_eth_dev_start(run->port_id);
	if (ret != 0) {
		fprintf(stderr, "tm-pace: starting port %u: %s\n", run->port_id,
			strerror(-ret));
		return EXIT_REFUSED;
	}
	/* The line rate shares what no ceiling bounds: expect with it. */
	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(run->port_id, &link) == 0 &&
	    link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
	    link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
		run->line_bps = (uint64_t)link.link_speed * 1000000;
	/* And with what the started SQs hold (pace_hw_backstop_bps()). */
	initial_state(run);
	pace_meter_init(run);
	ret = alloc_samples(run);
	if (ret != 0) {
		rte_eth_dev_stop(run->port_id);
		return EXIT_NO_MEMORY;
	}
	run_traffic(run);
	rte_eth_dev_stop(run->port_id);
	ok = pace_report_summary(run);
	if (!finish_reports(run))
		return EXIT_OUTPUT;
	for (i = 0; i < run->nb_changes; i++)
		if (run->changes[i].ret != 0)
			return EXIT_CHANGE_REFUSED;
	return ok ? 0 : EXIT_TOLERANCE;
}

int
main(int argc, char **argv)
{
	static struct pace_run run;
	int ret, status;

	help_before_eal(argc, argv);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		/* Some EAL failures leave rte_errno 0 ("Success"). */
		fprintf(stderr, "tm-pace: EAL initialisation failed: %s\n",
			rte_errno != 0 ? rte_strerror(rte_errno) :
			"EAL's own message above says why");
		return EXIT_USAGE;
	}
	argc -= ret;
	argv += ret;
	ret = pace_options_parse(&run.opt, argc, argv);
	if (ret != 0) {
		rte_eal_cleanup();
		return ret > 0 ? 0 : EXIT_USAGE;
	}
	/* A report that cannot be written is refused before the run. */
	if (pace_outputs_open(&outputs, &run) != 0) {
		rte_eal_cleanup();
		return EXIT_USAGE;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	status = run_plan(&run);
	/* A run that ended early leaves no temporary report behind. */
	pace_outputs_discard(&outputs);

	if (run.nb_txq > 0) {
		pace_tm_teardown(&run.tm);
		rte_eth_dev_close(run.port_id);
	}
	free_traffic(&run);
	free(run.samples);
	rte_eal_cleanup();
	return status;
}
