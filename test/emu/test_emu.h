/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright 2026 The mlx5-tm authors
 */

#ifndef TEST_EMU_H
#define TEST_EMU_H

void test_emu_config(void);
void test_emu_fw(void);
void test_emu_rate_table(void);
void test_emu_datapath(void);
void test_emu_sched(void);
void test_emu_empw(void);
void test_emu_golden(void);

#endif /* TEST_EMU_H */
