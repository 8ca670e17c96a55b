/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/*
 * cpu-line-transfer: how long one cache line takes to move from one CPU's
 * cache to another's, for the testpmd txonly figure (testpmd_txonly.py):
 * the device thread and the sender share lines per frame (the frame's
 * first line, the eMPW WQE's data segments), so the sender's time per
 * frame follows this latency, which on a virtual machine depends on where
 * the host places its vCPUs at the time. Two threads pinned to CPUs A and
 * B take turns writing one line; the figure is half a round trip, the
 * lowest of CHUNKS chunks (a chunk that a preemption hit is slower, never
 * faster).
 *
 * Usage: cpu-line-transfer [A B]   (default: CPUs 0 and 1)
 * Prints "cpu_line_transfer_ns A B NS"; exits 1 when a CPU cannot be used.
 */

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHUNKS 200u
#define ROUNDS 250u /* round trips per chunk */

static volatile uint64_t turn __attribute__((aligned(64)));
static volatile int failed;

static int
pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* The other CPU: answers each odd value with the next even one. */
static void *
answer(void *arg)
{
	uint64_t i;

	if (pin(*(int *)arg) != 0) {
		failed = 1;
		return NULL;
	}
	for (i = 1; i <= (uint64_t)CHUNKS * ROUNDS && !failed; i++) {
		while (turn != 2 * i - 1 && !failed)
			;
		turn = 2 * i;
	}
	return NULL;
}

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	int a = argc > 2 ? atoi(argv[1]) : 0;
	int b = argc > 2 ? atoi(argv[2]) : 1;
	double best = 1e18, t;
	uint64_t i = 1;
	unsigned int c, r;
	pthread_t th;

	if (pin(a) != 0 || pthread_create(&th, NULL, answer, &b) != 0) {
		fprintf(stderr, "cpu-line-transfer: CPU %d or %d not usable\n",
			a, b);
		return 1;
	}
	for (c = 0; c < CHUNKS && !failed; c++) {
		t = now_ns();
		for (r = 0; r < ROUNDS && !failed; r++, i++) {
			turn = 2 * i - 1;
			while (turn != 2 * i && !failed)
				;
		}
		t = (now_ns() - t) / (2.0 * ROUNDS);
		if (t < best)
			best = t;
	}
	pthread_join(th, NULL);
	if (failed) {
		fprintf(stderr, "cpu-line-transfer: CPU %d not usable\n", b);
		return 1;
	}
	printf("cpu_line_transfer_ns %d %d %.0f\n", a, b, best);
	return 0;
}
