/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef SPLITMIX64_H
#define SPLITMIX64_H

/*
 * The random numbers of the seeded tests (test/lib's random walk, the
 * fuzzer): splitmix64, so that a seed replays the same run whatever the
 * C library or EAL.
 */

#include <stdint.h>

/* The next number of the sequence whose state is @p state. */
static inline uint64_t
splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif /* SPLITMIX64_H */
