/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_mbuf.h>

#include "pmd_test_util.h"
#include "test_eal.h"

bool test_ok;
unsigned int n_pass, n_fail;
const char *test_only;

static char *log_buf;
static size_t log_len;
static FILE *log_stream;

void
run(const char *name, void (*fn)(void))
{
	if (test_only != NULL && strstr(name, test_only) == NULL)
		return;
	test_ok = true;
	printf("%s\n", name);
	fflush(stdout);
	fn();
	if (test_ok)
		n_pass++;
	else
		n_fail++;
	printf("  %s\n", test_ok ? "ok" : "FAILED");
	fflush(stdout);
}

void
log_capture_start(void)
{
	free(log_buf);
	log_buf = NULL;
	log_len = 0;
	log_stream = open_memstream(&log_buf, &log_len);
	rte_openlog_stream(log_stream);
}

const char *
log_capture_stop(void)
{
	rte_openlog_stream(NULL);
	fclose(log_stream);
	log_stream = NULL;
	return log_buf != NULL ? log_buf : "";
}

void
log_capture_free(void)
{
	free(log_buf);
	log_buf = NULL;
	log_len = 0;
}

struct rte_mempool *
pmd_test_setup(char *prog, const struct pmd_test_env *env)
{
	char pmd_log[64], prefix[48];
	char *eal_argv[] = {
		prog, "--no-huge", "--no-pci", "-m", (char *)env->mem_mb,
		"-l", (char *)env->lcores, "--no-shconf", prefix,
		"--log-level", "lib.eal:error", "--log-level", pmd_log, NULL,
	};
	struct rte_mempool *pool;

	snprintf(pmd_log, sizeof(pmd_log), "pmd.net.mlx5_tm:%s", env->pmd_log);
	/* A prefix of its own, whose runtime directory it removes. */
	snprintf(prefix, sizeof(prefix), "--file-prefix=pmd_%d",
		 (int)getpid());
	if (rte_eal_init(RTE_DIM(eal_argv) - 1, eal_argv) < 0) {
		printf("EAL init failed: %s\n", rte_strerror(rte_errno));
		printf("0 passed, 1 failed\n");
		return NULL;
	}
	pool = rte_pktmbuf_pool_create(env->pool, env->nb_mbufs, env->cache,
				       0, env->data_room, SOCKET_ID_ANY);
	if (pool == NULL) {
		printf("no mempool: %s\n", rte_strerror(rte_errno));
		printf("0 passed, 1 failed\n");
	}
	return pool;
}

int
pmd_test_report(struct rte_mempool *pool)
{
	rte_mempool_free(pool);
	test_eal_cleanup();
	log_capture_free();
	printf("%u passed, %u failed\n", n_pass, n_fail);
	return n_fail == 0 ? 0 : 1;
}
