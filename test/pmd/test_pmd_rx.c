/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * PMD suite pmd_rx: Rx of a net_mlx5_tm port, Tx-only and through an
 * rx_port= companion, EAL in process.
 *
 * Companions: DPDK's net_ring (its rings are found by the names the ring
 * PMD gives them, ETH_RXTX<q>_<port name>, and fed directly) and net_rxfake,
 * a small companion driver defined here that records what reaches it
 * (promiscuous mode, MAC address, rte_flow calls, and on which device).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_flow.h>
#include <rte_flow_driver.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_tm.h>
#include <ethdev_driver.h>
#include <ethdev_vdev.h>
#include <bus_vdev_driver.h>

#include "mlx5_emu.h"
#include "rte_pmd_mlx5_tm.h"

#include "pmd_test_util.h"


#define POOL_SZ 2047
#define NB_PKTS 40

static struct rte_mempool *pool;

/* ---- net_rxfake: a companion that records what reaches it ---- */

#define FAKE_MAGIC 0x66616b65u

struct fake_priv {
	uint32_t magic;            /* Ours: a foreign device would differ. */
	struct rte_ether_addr mac;
	struct rte_ring *rx[2];    /* What its Rx queues receive. */
	unsigned int promisc_on, promisc_off, mac_set;
	unsigned int validates, creates, destroys, flushes;
	uint32_t last_port_item;   /* PORT_ID item of the last rule. */
	int flow;                  /* The handle create returns. */
};

static struct fake_priv *
fake_of(struct rte_eth_dev *dev)
{
	struct fake_priv *f = dev->data->dev_private;

	return f->magic == FAKE_MAGIC ? f : NULL;
}

static int fake_configure(struct rte_eth_dev *dev __rte_unused) { return 0; }
static int fake_start(struct rte_eth_dev *dev __rte_unused) { return 0; }
static int fake_stop(struct rte_eth_dev *dev __rte_unused) { return 0; }
static int fake_close(struct rte_eth_dev *dev __rte_unused) { return 0; }
static int fake_link(struct rte_eth_dev *dev __rte_unused, int w __rte_unused)
{
	return 0;
}

static int
fake_infos(struct rte_eth_dev *dev __rte_unused, struct rte_eth_dev_info *info)
{
	info->max_rx_queues = 2;
	info->max_tx_queues = 1;
	info->max_mac_addrs = 4;
	info->max_rx_pktlen = 9018;
	info->rx_desc_lim.nb_max = 4096;
	info->rx_desc_lim.nb_min = 16;
	info->rx_desc_lim.nb_align = 1;
	return 0;
}

static uint16_t
fake_rx(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	return rte_ring_dequeue_burst(q, (void **)pkts, n, NULL);
}

static int
fake_rxq_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb __rte_unused,
	       unsigned int socket __rte_unused,
	       const struct rte_eth_rxconf *c __rte_unused,
	       struct rte_mempool *mp __rte_unused)
{
	dev->data->rx_queues[qid] = fake_of(dev)->rx[qid];
	return 0;
}

static int
fake_promisc_on(struct rte_eth_dev *dev)
{
	fake_of(dev)->promisc_on++;
	return 0;
}

static int
fake_promisc_off(struct rte_eth_dev *dev)
{
	fake_of(dev)->promisc_off++;
	return 0;
}

static int
fake_mac_set(struct rte_eth_dev *dev, struct rte_ether_addr *a __rte_unused)
{
	fake_of(dev)->mac_set++;
	return 0;
}

/* Flow ops given a device that is not a net_rxfake one. */
static unsigned int fake_wrong_dev;

/* Every flow op checks it was given its own device. */
static struct fake_priv *
fake_flow_dev(struct rte_eth_dev *dev)
{
	static struct fake_priv none;
	struct fake_priv *f = fake_of(dev);

	if (f != NULL)
		return f;
	fake_wrong_dev++;
	return &none;
}

static void
fake_record_rule(struct fake_priv *f, const struct rte_flow_item *pattern)
{
	for (; pattern->type != RTE_FLOW_ITEM_TYPE_END; pattern++)
		if (pattern->type == RTE_FLOW_ITEM_TYPE_PORT_ID &&
		    pattern->spec != NULL)
			f->last_port_item = ((const struct rte_flow_item_port_id *)
					     pattern->spec)->id;
}

static int
fake_validate(struct rte_eth_dev *dev,
	      const struct rte_flow_attr *a __rte_unused,
	      const struct rte_flow_item pattern[],
	      const struct rte_flow_action actions[] __rte_unused,
	      struct rte_flow_error *e __rte_unused)
{
	struct fake_priv *f = fake_flow_dev(dev);

	f->validates++;
	fake_record_rule(f, pattern);
	return 0;
}

static struct rte_flow *
fake_create(struct rte_eth_dev *dev, const struct rte_flow_attr *a __rte_unused,
	    const struct rte_flow_item pattern[],
	    const struct rte_flow_action actions[] __rte_unused,
	    struct rte_flow_error *e __rte_unused)
{
	struct fake_priv *f = fake_flow_dev(dev);

	f->creates++;
	fake_record_rule(f, pattern);
	return (struct rte_flow *)&f->flow;
}

static int
fake_destroy(struct rte_eth_dev *dev, struct rte_flow *flow,
	     struct rte_flow_error *e)
{
	struct fake_priv *f = fake_flow_dev(dev);

	if (flow != (struct rte_flow *)&f->flow)
		return -rte_flow_error_set(e, EINVAL,
					   RTE_FLOW_ERROR_TYPE_HANDLE, flow,
					   "not a handle of net_rxfake");
	f->destroys++;
	return 0;
}

static int
fake_flush(struct rte_eth_dev *dev, struct rte_flow_error *e __rte_unused)
{
	fake_flow_dev(dev)->flushes++;
	return 0;
}

static const struct rte_flow_ops fake_flow_ops = {
	.validate = fake_validate,
	.create = fake_create,
	.destroy = fake_destroy,
	.flush = fake_flush,
};

static int
fake_flow_ops_get(struct rte_eth_dev *dev __rte_unused,
		  const struct rte_flow_ops **ops)
{
	*ops = &fake_flow_ops;
	return 0;
}

static const struct eth_dev_ops fake_ops = {
	.dev_configure = fake_configure,
	.dev_infos_get = fake_infos,
	.dev_start = fake_start,
	.dev_stop = fake_stop,
	.dev_close = fake_close,
	.link_update = fake_link,
	.rx_queue_setup = fake_rxq_setup,
	.promiscuous_enable = fake_promisc_on,
	.promiscuous_disable = fake_promisc_off,
	.mac_addr_set = fake_mac_set,
	.flow_ops_get = fake_flow_ops_get,
};

static int
fake_probe(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev;
	struct fake_priv *f;
	char name[RTE_RING_NAMESIZE];
	int q;

	dev = rte_eth_vdev_allocate(vdev, sizeof(*f));
	if (dev == NULL)
		return -ENOMEM;
	f = dev->data->dev_private;
	f->magic = FAKE_MAGIC;
	f->mac = (struct rte_ether_addr){ { 0x02, 0x66, 0x61, 0x6b, 0x65, 0x01 } };
	for (q = 0; q < 2; q++) {
		snprintf(name, sizeof(name), "rxfake%d_%u", q,
			 dev->data->port_id);
		f->rx[q] = rte_ring_create(name, 256, SOCKET_ID_ANY,
					   RING_F_SP_ENQ | RING_F_SC_DEQ);
	}
	dev->data->mac_addrs = &f->mac;
	dev->dev_ops = &fake_ops;
	dev->rx_pkt_burst = fake_rx;
	rte_eth_dev_probing_finish(dev);
	return 0;
}

static int
fake_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev = rte_eth_dev_allocated(
		rte_vdev_device_name(vdev));
	struct fake_priv *f;

	if (dev == NULL)
		return 0;
	f = dev->data->dev_private;
	rte_ring_free(f->rx[0]);
	rte_ring_free(f->rx[1]);
	dev->data->mac_addrs = NULL; /* Part of the private data. */
	return rte_eth_dev_release_port(dev);
}

static struct rte_vdev_driver fake_driver = {
	.probe = fake_probe,
	.remove = fake_remove,
};

RTE_PMD_REGISTER_VDEV(net_rxfake, fake_driver);

/* ---- helpers ---- */

static int
port_of(const char *name, uint16_t *port)
{
	return rte_eth_dev_get_port_by_name(name, port);
}

/* Whether RTE_ETH_FOREACH_DEV (what applications iterate) lists @p port. */
static bool
app_sees(uint16_t port)
{
	uint16_t p;

	RTE_ETH_FOREACH_DEV(p)
		if (p == port)
			return true;
	return false;
}

/* Configure @p nb_rxq Rx and 1 Tx queue, set them up, start. */
static int
setup_and_start(uint16_t port, uint16_t nb_rxq)
{
	struct rte_eth_conf conf = { 0 };
	uint16_t q;
	int ret;

	ret = rte_eth_dev_configure(port, nb_rxq, 1, &conf);
	for (q = 0; ret == 0 && q < nb_rxq; q++)
		ret = rte_eth_rx_queue_setup(port, q, 128, SOCKET_ID_ANY,
					     NULL, pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, 256, SOCKET_ID_ANY, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

static void
close_port(const char *name, uint16_t port)
{
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	rte_vdev_uninit(name);
}

/* @p n one-byte-tagged frames enqueued into @p r; returns how many. */
static unsigned int
feed(struct rte_ring *r, struct rte_mbuf **m, unsigned int n, uint8_t tag)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		m[i] = rte_pktmbuf_alloc(pool);
		if (m[i] == NULL)
			break;
		memset(rte_pktmbuf_append(m[i], 64), tag, 64);
	}
	return rte_ring_enqueue_burst(r, (void **)m, i, NULL);
}

/* ---- tests ---- */

struct refusal {
	const char *args;
	const char *expect[3];
};

static void
test_refusals(void)
{
	static const struct refusal cases[] = {
		{ "emu=cx6dx,rx_port=net_nowhere0",
		  { "bad value 'net_nowhere0' for devarg rx_port",
		    "ports available: ", "net_ring_ref0 (port" } },
		{ "emu=cx6dx,rx_port=4242",
		  { "bad value '4242' for devarg rx_port",
		    "must come before net_mlx5_tm_x on the command line" } },
		{ "emu=cx6dx,rx_port=", { "bad value '' for devarg rx_port",
					  "ethdev port name or port id" } },
		{ "emu=cx6dx,rx_port=net_mlx5_tm_tx",
		  { "cannot be the companion",
		    "net_mlx5_tm port, which does not receive" } },
		{ "emu=cx6dx,rx_port=net_ring_ref1",
		  { "cannot be the companion", "already owned by 'someone'" } },
	};
	struct rte_eth_dev_owner owner = { .name = "someone" };
	uint16_t ring1, tx, p;
	unsigned int i, k;

	CHECK(rte_vdev_init("net_ring_ref0", NULL) == 0, "ring");
	CHECK(rte_vdev_init("net_ring_ref1", NULL) == 0, "ring");
	CHECK(rte_vdev_init("net_mlx5_tm_tx", "emu=cx6dx") == 0, "tx port");
	CHECK(port_of("net_ring_ref1", &ring1) == 0 &&
	      port_of("net_mlx5_tm_tx", &tx) == 0, "ports");
	if (!test_ok)
		goto out;
	CHECK(rte_eth_dev_owner_new(&owner.id) == 0 &&
	      rte_eth_dev_owner_set(ring1, &owner) == 0, "owner");
	for (i = 0; i < RTE_DIM(cases); i++) {
		const char *log;
		int ret;

		log_capture_start();
		ret = rte_vdev_init("net_mlx5_tm_x", cases[i].args);
		log = log_capture_stop();
		CHECK(ret < 0, "devargs '%s' accepted", cases[i].args);
		if (ret == 0) {
			if (port_of("net_mlx5_tm_x", &p) == 0)
				close_port("net_mlx5_tm_x", p);
			continue;
		}
		for (k = 0; k < 3 && cases[i].expect[k] != NULL; k++)
			CHECK(strstr(log, cases[i].expect[k]) != NULL,
			      "devargs '%s': no '%s' in: %s", cases[i].args,
			      cases[i].expect[k], log);
	}
	/* Nothing kept: the refused companion is still the other owner's. */
	CHECK(rte_eth_dev_owner_get(ring1, &owner) == 0 &&
	      strcmp(owner.name, "someone") == 0, "owner changed");
	rte_eth_dev_owner_delete(owner.id);
out:
	rte_vdev_uninit("net_mlx5_tm_tx");
	rte_vdev_uninit("net_ring_ref1");
	rte_vdev_uninit("net_ring_ref0");
}

static void
test_tx_only(void)
{
	struct rte_mbuf *rx[4];
	const char *log;
	uint16_t port;
	int ret;

	CHECK(rte_vdev_init("net_mlx5_tm_t0", "emu=cx6dx") == 0, "probe");
	if (!test_ok || port_of("net_mlx5_tm_t0", &port) != 0)
		return;
	log_capture_start();
	ret = setup_and_start(port, 2);
	log = log_capture_stop();
	/* Accepted (testpmd pairs Rx with Tx queues), and it says why. */
	CHECK(ret == 0, "Tx-only port with Rx queues: %d", ret);
	CHECK(strstr(log, "never receive") != NULL &&
	      strstr(log, "rx_port=<ethdev name or port id>") != NULL,
	      "no hint how to receive: %s", log);
	CHECK(rte_eth_rx_burst(port, 1, rx, 4) == 0, "received");
	CHECK(rte_eth_promiscuous_enable(port) == -ENOTSUP,
	      "promiscuous on a Tx-only port");
	close_port("net_mlx5_tm_t0", port);
}

static void
test_ring_companion(void)
{
	struct rte_mbuf *in[2][NB_PKTS], *out[NB_PKTS * 2];
	struct rte_eth_dev_owner owner;
	struct rte_eth_stats st;
	struct rte_eth_link link;
	struct rte_ring *r[2];
	struct rte_tm_capabilities cap;
	struct rte_tm_error tmerr;
	struct mlx5_emu *emu;
	uint16_t ring, port, q, n;
	unsigned int fed[2], i, sent = 0;

	CHECK(rte_vdev_init("net_ring_c0", NULL) == 0, "ring");
	CHECK(rte_vdev_init("net_mlx5_tm_c0",
			    "emu=cx6dx,clock=virtual,rx_port=net_ring_c0") == 0,
	      "probe with rx_port");
	if (!test_ok)
		goto out;
	CHECK(port_of("net_ring_c0", &ring) == 0 &&
	      port_of("net_mlx5_tm_c0", &port) == 0, "ports");
	/* Owned: hidden from applications, and by us. */
	CHECK(!app_sees(ring), "applications see the companion");
	CHECK(app_sees(port), "applications do not see our port");
	CHECK(rte_eth_dev_owner_get(ring, &owner) == 0 &&
	      strcmp(owner.name, "net_mlx5_tm_c0") == 0,
	      "owner '%s'", owner.name);
	/* Take the model before start: this test drives virtual time. */
	emu = rte_pmd_mlx5_tm_emu(port);
	CHECK(emu != NULL, "device model");
	CHECK(setup_and_start(port, 2) == 0, "start");
	rte_eth_link_get_nowait(ring, &link);
	CHECK(link.link_status == RTE_ETH_LINK_UP, "companion not started");
	/* Started, whether or not the companion keeps queue states. */
	{
		struct rte_eth_rxq_info qi;

		CHECK(rte_eth_rx_queue_info_get(port, 1, &qi) == 0 &&
		      qi.queue_state == RTE_ETH_QUEUE_STATE_STARTED,
		      "Rx queue 1 state %u", qi.queue_state);
	}
	/* Packets fed into the companion come out of our Rx queues. */
	r[0] = rte_ring_lookup("ETH_RXTX0_net_ring_c0");
	r[1] = rte_ring_lookup("ETH_RXTX1_net_ring_c0");
	CHECK(r[0] != NULL && r[1] != NULL, "net_ring's rings");
	if (!test_ok)
		goto out;
	fed[0] = feed(r[0], in[0], NB_PKTS, 0xa0);
	fed[1] = feed(r[1], in[1], NB_PKTS / 2, 0xa1);
	CHECK(fed[0] == NB_PKTS && fed[1] == NB_PKTS / 2, "fed");
	for (q = 0; q < 2; q++) {
		n = rte_eth_rx_burst(port, q, out, RTE_DIM(out));
		CHECK(n == fed[q], "queue %u: %u of %u received", q, n,
		      fed[q]);
		for (i = 0; i < n && i < fed[q]; i++)
			CHECK(out[i] == in[q][i], "queue %u packet %u", q, i);
		/* Sent by us: Tx is ours. */
		for (i = 0; i < n;) {
			i += rte_eth_tx_burst(port, 0, out + i, n - i);
			if (emu != NULL)
				mlx5_emu_advance(emu, 100000);
		}
		sent += n;
	}
	if (emu != NULL)
		mlx5_emu_drain(emu);
	CHECK(rte_eth_rx_burst(port, 0, out, 4) == 0, "received from nowhere");
	/* One port's statistics: Rx from the companion, Tx from us. */
	CHECK(rte_eth_stats_get(port, &st) == 0, "stats");
	CHECK(st.ipackets == fed[0] + fed[1], "ipackets %" PRIu64,
	      st.ipackets);
	CHECK(st.q_ipackets[0] == fed[0] && st.q_ipackets[1] == fed[1],
	      "q_ipackets %" PRIu64 " %" PRIu64, st.q_ipackets[0],
	      st.q_ipackets[1]);
	CHECK(st.opackets == sent, "opackets %" PRIu64 " sent %u",
	      st.opackets, sent);
	CHECK(rte_eth_stats_reset(port) == 0 &&
	      rte_eth_stats_get(port, &st) == 0 && st.ipackets == 0 &&
	      st.opackets == 0, "stats after reset");
	/* rte_tm is ours. */
	CHECK(rte_tm_capabilities_get(port, &cap, &tmerr) == 0 &&
	      cap.n_nodes_max > 0, "rte_tm");
	CHECK(rte_eth_promiscuous_enable(port) == 0 &&
	      rte_eth_promiscuous_get(port) == 1 &&
	      rte_eth_promiscuous_get(ring) == 1, "promiscuous");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	rte_eth_link_get_nowait(ring, &link);
	CHECK(link.link_status == RTE_ETH_LINK_DOWN, "companion not stopped");
	CHECK(rte_eth_dev_close(port) == 0, "close");
	/* Given back: stopped, unowned, visible. */
	CHECK(app_sees(ring), "companion not given back");
	CHECK(rte_eth_dev_owner_get(ring, &owner) == 0 &&
	      owner.id == RTE_ETH_DEV_NO_OWNER, "still owned");
	CHECK(rte_mempool_in_use_count(pool) == 0, "%u mbufs in use",
	      rte_mempool_in_use_count(pool));
out:
	rte_vdev_uninit("net_mlx5_tm_c0");
	rte_vdev_uninit("net_ring_c0");
}

static void
test_companion_ops(void)
{
	struct rte_flow_attr attr = { .ingress = 1 };
	struct rte_flow_item_port_id pid;
	struct rte_flow_item pattern[] = {
		{ .type = RTE_FLOW_ITEM_TYPE_PORT_ID, .spec = &pid },
		{ .type = RTE_FLOW_ITEM_TYPE_ETH },
		{ .type = RTE_FLOW_ITEM_TYPE_END },
	};
	struct rte_flow_action_queue queue = { .index = 1 };
	struct rte_flow_action actions[] = {
		{ .type = RTE_FLOW_ACTION_TYPE_QUEUE, .conf = &queue },
		{ .type = RTE_FLOW_ACTION_TYPE_END },
	};
	struct rte_ether_addr mac, mac2 = { { 0x02, 0, 0, 0, 0, 0x42 } };
	struct rte_eth_dev_info info;
	struct rte_flow_error err;
	struct fake_priv *f;
	struct rte_flow *flow;
	uint16_t fake, port;
	unsigned int n;

	CHECK(rte_vdev_init("net_rxfake0", NULL) == 0, "fake companion");
	CHECK(port_of("net_rxfake0", &fake) == 0, "fake port");
	if (!test_ok)
		return;
	/* By port id this time. */
	{
		char args[64];

		snprintf(args, sizeof(args), "emu=cx6dx,rx_port=%u", fake);
		CHECK(rte_vdev_init("net_mlx5_tm_f0", args) == 0, "probe");
	}
	if (!test_ok || port_of("net_mlx5_tm_f0", &port) != 0)
		goto out;
	f = rte_eth_devices[fake].data->dev_private;
	/* The companion's MAC address and Rx limits. */
	CHECK(rte_eth_macaddr_get(port, &mac) == 0 &&
	      rte_is_same_ether_addr(&mac, &f->mac), "MAC address");
	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
	      info.max_rx_queues == 2 && info.max_mac_addrs == 4 &&
	      info.rx_desc_lim.nb_max == 4096 && info.max_rx_pktlen == 9018,
	      "Rx limits not the companion's");
	CHECK(info.max_tx_queues > 1, "Tx limits not ours");
	CHECK(setup_and_start(port, 2) == 0, "start");
	/* Each call reaches the companion once (starts replay them too). */
	n = f->promisc_on;
	CHECK(rte_eth_promiscuous_enable(port) == 0 && f->promisc_on == n + 1,
	      "promiscuous on: %u calls", f->promisc_on - n);
	n = f->promisc_off;
	CHECK(rte_eth_promiscuous_disable(port) == 0 &&
	      f->promisc_off == n + 1, "promiscuous off: %u calls",
	      f->promisc_off - n);
	n = f->mac_set;
	CHECK(rte_eth_dev_default_mac_addr_set(port, &mac2) == 0 &&
	      f->mac_set == n + 1, "MAC set: %u calls", f->mac_set - n);
	CHECK(rte_eth_macaddr_get(port, &mac) == 0 &&
	      rte_is_same_ether_addr(&mac, &mac2), "our MAC not updated");
	/* rte_flow: on the companion's device, our port id made its own. */
	pid.id = port;
	CHECK(rte_flow_validate(port, &attr, pattern, actions, &err) == 0,
	      "validate: %s", err.message ? err.message : "");
	CHECK(f->validates == 1 && f->last_port_item == fake,
	      "validate reached %u times, port item %u", f->validates,
	      f->last_port_item);
	flow = rte_flow_create(port, &attr, pattern, actions, &err);
	CHECK(flow != NULL && f->creates == 1, "create");
	CHECK(pid.id == port, "the application's rule was changed");
	CHECK(rte_flow_destroy(port, flow, &err) == 0 && f->destroys == 1,
	      "destroy");
	CHECK(rte_flow_flush(port, &err) == 0 && f->flushes == 1, "flush");
	CHECK(fake_wrong_dev == 0, "%u flow ops given another port's device",
	      fake_wrong_dev);
	close_port("net_mlx5_tm_f0", port);
out:
	rte_vdev_uninit("net_rxfake0");
}

/* The companion removed first (EAL cleanup order): no crash, no Rx. */
static void
test_companion_removed_first(void)
{
	struct rte_eth_stats st;
	const char *log;
	uint16_t port;

	CHECK(rte_vdev_init("net_ring_g0", NULL) == 0, "ring");
	CHECK(rte_vdev_init("net_mlx5_tm_g0", "emu=cx6dx,rx_port=net_ring_g0")
	      == 0, "probe");
	if (!test_ok || port_of("net_mlx5_tm_g0", &port) != 0)
		goto out;
	CHECK(setup_and_start(port, 1) == 0, "start");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	log_capture_start();
	rte_vdev_uninit("net_ring_g0");
	log = log_capture_stop();
	CHECK(strstr(log, "companion net_ring_g0") != NULL &&
	      strstr(log, "removed") != NULL, "not noticed: %s", log);
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.ipackets == 0,
	      "stats without a companion");
	CHECK(rte_eth_dev_configure(port, 1, 1, &(struct rte_eth_conf){ 0 })
	      < 0, "configured Rx without a companion");
	close_port("net_mlx5_tm_g0", port);
	return;
out:
	rte_vdev_uninit("net_mlx5_tm_g0");
	rte_vdev_uninit("net_ring_g0");
}

int
main(int argc __rte_unused, char **argv)
{
	static const struct pmd_test_env env = {
		.mem_mb = "256", .lcores = "0", .pmd_log = "info",
		.pool = "test_pmd_rx", .nb_mbufs = POOL_SZ, .cache = 0,
		.data_room = RTE_MBUF_DEFAULT_BUF_SIZE,
	};

	pool = pmd_test_setup(argv[0], &env);
	if (pool == NULL)
		return 1;
	run("rx_port refusals name the value and what is available",
	    test_refusals);
	run("Tx-only port: Rx queues accepted, never receive, say how",
	    test_tx_only);
	run("net_ring companion: Rx, merged stats, ownership, release",
	    test_ring_companion);
	run("companion ops: MAC, promiscuous, Rx limits, rte_flow",
	    test_companion_ops);
	run("companion removed before our port", test_companion_removed_first);
	return pmd_test_report(pool);
}
