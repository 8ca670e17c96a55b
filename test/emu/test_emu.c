/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

/* Device-model tests: glue and mlx5_emu.h only, plain C, no DPDK. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_test_util.h"
#include "test_emu.h"

int
main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;

	mlx5_emu_set_log(t_quiet_log);
	if (only == NULL || strcmp(only, "config") == 0)
		test_emu_config();
	if (only == NULL || strcmp(only, "fw") == 0)
		test_emu_fw();
	if (only == NULL || strcmp(only, "rate_table") == 0)
		test_emu_rate_table();
	if (only == NULL || strcmp(only, "datapath") == 0)
		test_emu_datapath();
	if (only == NULL || strcmp(only, "sched") == 0)
		test_emu_sched();
	if (only == NULL || strcmp(only, "empw") == 0)
		test_emu_empw();
	if (only == NULL || strcmp(only, "golden") == 0)
		test_emu_golden();
	if (t_skipped != 0)
		printf("%u passed, %u failed, %u skipped\n", t_passed,
		       t_failed, t_skipped);
	else
		printf("%u passed, %u failed\n", t_passed, t_failed);
	return t_failed == 0 ? 0 : 1;
}
