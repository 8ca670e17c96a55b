/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * rte_flow on a port in companion mode: every call is made again through
 * rte_flow_*() on the companion's port id, never by handing our device to
 * the companion's own ops (they would read our private data as theirs).
 * Flow handles are the companion's, returned as they are. Queue indices
 * are the same on both ports (our Rx queue q is the companion's queue q);
 * port ids are not: items and actions naming our port are rewritten to
 * name the companion, which is the port that receives.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_flow.h>
#include <rte_flow_driver.h>

#include "mlx5_tm_ethdev.h"
#include "mlx5_tm_rx.h"

static int
no_companion(struct rte_flow_error *error)
{
	return -rte_flow_error_set(error, ENODEV,
				   RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
				   "net_mlx5_tm: the rx_port companion was removed");
}

/* A port-id conf of ours, rewritten (one kind per item/action type). */
union port_conf {
	struct rte_flow_item_port_id item_port_id;
	struct rte_flow_item_ethdev item_ethdev;
	struct rte_flow_action_port_id action_port_id;
	struct rte_flow_action_ethdev action_ethdev;
};

/* Rewrite an item's spec or last naming port @p ours into @p out. */
static const void *
item_conf(enum rte_flow_item_type type, const void *conf, uint16_t ours,
	  uint16_t comp, union port_conf *out)
{
	if (conf == NULL)
		return NULL;
	switch (type) {
	case RTE_FLOW_ITEM_TYPE_PORT_ID:
		out->item_port_id = *(const struct rte_flow_item_port_id *)conf;
		if (out->item_port_id.id != ours)
			return conf;
		out->item_port_id.id = comp;
		return out;
	case RTE_FLOW_ITEM_TYPE_PORT_REPRESENTOR:
	case RTE_FLOW_ITEM_TYPE_REPRESENTED_PORT:
		out->item_ethdev = *(const struct rte_flow_item_ethdev *)conf;
		if (out->item_ethdev.port_id != ours)
			return conf;
		out->item_ethdev.port_id = comp;
		return out;
	default:
		return conf;
	}
}

static const void *
action_conf(enum rte_flow_action_type type, const void *conf, uint16_t ours,
	    uint16_t comp, union port_conf *out)
{
	if (conf == NULL)
		return NULL;
	switch (type) {
	case RTE_FLOW_ACTION_TYPE_PORT_ID:
		out->action_port_id =
			*(const struct rte_flow_action_port_id *)conf;
		if (out->action_port_id.original ||
		    out->action_port_id.id != ours)
			return conf;
		out->action_port_id.id = comp;
		return out;
	case RTE_FLOW_ACTION_TYPE_PORT_REPRESENTOR:
	case RTE_FLOW_ACTION_TYPE_REPRESENTED_PORT:
		out->action_ethdev = *(const struct rte_flow_action_ethdev *)conf;
		if (out->action_ethdev.port_id != ours)
			return conf;
		out->action_ethdev.port_id = comp;
		return out;
	default:
		return conf;
	}
}

/* The rule as the companion must see it, in one allocation. */
struct rule {
	const struct rte_flow_item *pattern;
	const struct rte_flow_action *actions;
	void *mem;
};

static int
rule_translate(const struct rte_eth_dev *dev, uint16_t comp,
	       const struct rte_flow_item pattern[],
	       const struct rte_flow_action actions[], struct rule *r,
	       struct rte_flow_error *error)
{
	struct rte_flow_item *items;
	struct rte_flow_action *acts;
	union port_conf *confs;
	size_t ni = 0, na = 0, i;
	uint16_t ours = dev->data->port_id;

	r->pattern = pattern;
	r->actions = actions;
	r->mem = NULL;
	if (pattern == NULL || actions == NULL)
		return 0; /* The companion's rte_flow says what is wrong. */
	while (pattern[ni++].type != RTE_FLOW_ITEM_TYPE_END)
		;
	while (actions[na++].type != RTE_FLOW_ACTION_TYPE_END)
		;
	r->mem = malloc(ni * sizeof(*items) + na * sizeof(*acts) +
			(2 * ni + na) * sizeof(*confs));
	if (r->mem == NULL)
		return -rte_flow_error_set(error, ENOMEM,
					   RTE_FLOW_ERROR_TYPE_UNSPECIFIED,
					   NULL, "net_mlx5_tm: no memory");
	confs = r->mem;
	items = (void *)(confs + 2 * ni + na);
	acts = (void *)(items + ni);
	for (i = 0; i < ni; i++) {
		items[i] = pattern[i];
		items[i].spec = item_conf(pattern[i].type, pattern[i].spec,
					  ours, comp, &confs[2 * i]);
		items[i].last = item_conf(pattern[i].type, pattern[i].last,
					  ours, comp, &confs[2 * i + 1]);
	}
	for (i = 0; i < na; i++) {
		acts[i] = actions[i];
		acts[i].conf = action_conf(actions[i].type, actions[i].conf,
					   ours, comp, &confs[2 * ni + i]);
	}
	r->pattern = items;
	r->actions = acts;
	return 0;
}

static int
flow_validate(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
	      const struct rte_flow_item pattern[],
	      const struct rte_flow_action actions[],
	      struct rte_flow_error *error)
{
	int port = mlx5_tm_rx_companion(dev);
	struct rule r;
	int ret;

	if (port < 0)
		return no_companion(error);
	ret = rule_translate(dev, port, pattern, actions, &r, error);
	if (ret < 0)
		return ret;
	ret = rte_flow_validate(port, attr, r.pattern, r.actions, error);
	free(r.mem);
	return ret;
}

static struct rte_flow *
flow_create(struct rte_eth_dev *dev, const struct rte_flow_attr *attr,
	    const struct rte_flow_item pattern[],
	    const struct rte_flow_action actions[],
	    struct rte_flow_error *error)
{
	int port = mlx5_tm_rx_companion(dev);
	struct rte_flow *flow;
	struct rule r;

	if (port < 0) {
		no_companion(error);
		return NULL;
	}
	if (rule_translate(dev, port, pattern, actions, &r, error) < 0)
		return NULL;
	flow = rte_flow_create(port, attr, r.pattern, r.actions, error);
	free(r.mem);
	return flow;
}

static int
flow_destroy(struct rte_eth_dev *dev, struct rte_flow *flow,
	     struct rte_flow_error *error)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? no_companion(error) :
			  rte_flow_destroy(port, flow, error);
}

static int
flow_flush(struct rte_eth_dev *dev, struct rte_flow_error *error)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? no_companion(error) : rte_flow_flush(port, error);
}

static int
flow_query(struct rte_eth_dev *dev, struct rte_flow *flow,
	   const struct rte_flow_action *action, void *data,
	   struct rte_flow_error *error)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? no_companion(error) :
			  rte_flow_query(port, flow, action, data, error);
}

static int
flow_isolate(struct rte_eth_dev *dev, int set, struct rte_flow_error *error)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? no_companion(error) :
			  rte_flow_isolate(port, set, error);
}

static int
flow_dev_dump(struct rte_eth_dev *dev, struct rte_flow *flow, FILE *file,
	      struct rte_flow_error *error)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? no_companion(error) :
			  rte_flow_dev_dump(port, flow, file, error);
}

static int
flow_get_aged_flows(struct rte_eth_dev *dev, void **contexts, uint32_t n,
		    struct rte_flow_error *error)
{
	int port = mlx5_tm_rx_companion(dev);

	return port < 0 ? no_companion(error) :
			  rte_flow_get_aged_flows(port, contexts, n, error);
}

const struct rte_flow_ops mlx5_tm_rx_flow_ops = {
	.validate = flow_validate,
	.create = flow_create,
	.destroy = flow_destroy,
	.flush = flow_flush,
	.query = flow_query,
	.isolate = flow_isolate,
	.dev_dump = flow_dev_dump,
	.get_aged_flows = flow_get_aged_flows,
};
