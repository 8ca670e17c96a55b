/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "rte_pmd_mlx5_tm.h"
#include "tm_port.h"

struct rte_tm_error terr;

/* Ports probed so far: each new one has a name of its own. */
static unsigned int port_seq = 1;

const char *
tmsg(void)
{
	return terr.message != NULL ? terr.message : "(no message)";
}

int
tm_port_queues(uint16_t port, uint16_t nb_txq, uint16_t ring)
{
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, 0, nb_txq, &conf);
	for (q = 0; ret == 0 && q < nb_txq; q++)
		ret = rte_eth_tx_queue_setup(port, q, ring, rte_socket_id(),
					     NULL);
	return ret;
}

int
tm_port_setup(struct tm_port *p, uint16_t nb_txq, bool start)
{
	if (rte_eth_dev_get_port_by_name(p->name, &p->id) != 0 ||
	    tm_port_queues(p->id, nb_txq, TM_PORT_RING) != 0 ||
	    (p->emu = rte_pmd_mlx5_tm_emu(p->id)) == NULL ||
	    (start && rte_eth_dev_start(p->id) != 0)) {
		printf("cannot set up %s\n", p->name);
		return -1;
	}
	p->nb_txq = nb_txq;
	return 0;
}

int
tm_port_open(struct tm_port *p, const char *devargs, uint16_t nb_txq,
	     bool start)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "net_mlx5_tm%u", port_seq++);
	if (rte_vdev_init(p->name, devargs) != 0) {
		printf("cannot probe %s,%s\n", p->name, devargs);
		return -1;
	}
	return tm_port_setup(p, nb_txq, start);
}

void
tm_port_close(const struct tm_port *p)
{
	rte_eth_dev_stop(p->id);
	rte_eth_dev_close(p->id);
	rte_vdev_uninit(p->name);
}

int
tm_telemetry_connect(void)
{
	struct sockaddr_un addr;
	char greeting[1024];
	int fd;

	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0)
		return -1;
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	snprintf(addr.sun_path, sizeof(addr.sun_path),
		 "%s/dpdk_telemetry.v2", rte_eal_get_runtime_dir());
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
	    read(fd, greeting, sizeof(greeting)) <= 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int
tm_telemetry_ask(int fd, const char *cmd, char *buf, size_t len)
{
	ssize_t n;

	if (write(fd, cmd, strlen(cmd)) < 0)
		return -1;
	n = read(fd, buf, len - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

int
tm_telemetry_query(const char *cmd, char *buf, size_t len)
{
	int fd = tm_telemetry_connect();
	int ret;

	if (fd < 0)
		return -1;
	ret = tm_telemetry_ask(fd, cmd, buf, len);
	close(fd);
	return ret;
}

int
tm_json_u64_array(const char *json, const char *key, uint64_t *v, int max)
{
	char pat[64];
	const char *s;
	char *end;
	int n = 0;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	s = strstr(json, pat);
	if (s == NULL)
		return -1;
	s += strlen(pat);
	while (*s == ' ')
		s++;
	if (*s++ != '[')
		return -1;
	while (*s != ']') {
		if (n == max)
			return -1;
		v[n++] = strtoull(s, &end, 10);
		if (end == s)
			return -1;
		s = end;
		while (*s == ',' || *s == ' ')
			s++;
	}
	return n;
}
