#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
#
# Compile-time guarantees of the PRM headers: each header builds alone,
# warning-free; the accessors refuse fields they cannot handle (wider than
# 32 bits for MLX5_SET/MLX5_GET, not a 64-bit aligned field for
# MLX5_SET64/MLX5_GET64) instead of silently reading the wrong bits; and
# the layout facts of test/prm/test_prm.c are build-time assertions: one
# wrong offset, size or constant there fails the build.
#
# Each check is one case: "N passed, N failed" counts cases.
#
# Usage: compile_checks.sh <source root>
set -u

SRC=${1:-.}
INC="$SRC/drivers/common/mlx5_tm"
CC=${CC:-cc}
CFLAGS="-std=gnu11 -Wall -Wextra -Werror -fsyntax-only -I$INC -I$SRC/test/prm"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

# check <name> <expect: ok|error> <C source>
check() {
	local name=$1 expect=$2 src=$3 got
	printf '%s\n' "$src" > "$TMP/t.c"
	if $CC $CFLAGS "$TMP/t.c" > "$TMP/log" 2>&1; then
		got=ok
	else
		got=error
	fi
	if [ "$got" = "$expect" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name: expected $expect, got $got"
		cat "$TMP/log"
	fi
}

check prm_alone ok '#include "mlx5_tm_prm.h"'
check wqe_alone ok '#include "mlx5_tm_wqe.h"'
check glue_alone ok '#include "mlx5_tm_glue.h"'
check prm_with_mlx5dv ok '#include <infiniband/mlx5dv.h>
#include "mlx5_tm_prm.h"'
check set_get_ok ok '#include "mlx5_tm_prm.h"
unsigned f(void *p);
unsigned f(void *p) { MLX5_SET(sqc, p, cqn, 1); return MLX5_GET(sqc, p, cqn); }'
check set64_get64_ok ok '#include "mlx5_tm_prm.h"
unsigned long f(void *p);
unsigned long f(void *p) { MLX5_SET64(wq, p, dbr_addr, 1); return MLX5_GET64(wq, p, dbr_addr); }'
check set_64bit_field error '#include "mlx5_tm_prm.h"
void f(void *p);
void f(void *p) { MLX5_SET(wq, p, dbr_addr, 1); }'
check get_64bit_field error '#include "mlx5_tm_prm.h"
unsigned f(void *p);
unsigned f(void *p) { return MLX5_GET(wq, p, dbr_addr); }'
check set64_24bit_field error '#include "mlx5_tm_prm.h"
void f(void *p);
void f(void *p) { MLX5_SET64(sqc, p, cqn, 1); }'
check get64_24bit_field error '#include "mlx5_tm_prm.h"
unsigned long f(void *p);
unsigned long f(void *p) { return MLX5_GET64(sqc, p, cqn); }'
check unknown_field error '#include "mlx5_tm_prm.h"
void f(void *p);
void f(void *p) { MLX5_SET(sqc, p, no_such_field, 1); }'

# test_prm.c with one fact made wrong by <sed expression> must not build;
# a fact no longer found counts as a failure (the check would be void).
wrong_fact() {
	local name=$1 expr=$2
	sed "$expr" "$SRC/test/prm/test_prm.c" > "$TMP/t.c"
	if cmp -s "$SRC/test/prm/test_prm.c" "$TMP/t.c"; then
		fail=$((fail + 1))
		echo "FAIL $name: '$expr' changes nothing in test_prm.c"
		return
	fi
	if $CC $CFLAGS "$TMP/t.c" > "$TMP/log" 2>&1; then
		fail=$((fail + 1))
		echo "FAIL $name: test_prm.c builds with a wrong fact ($expr)"
	elif grep -q "static assertion failed" "$TMP/log"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name: test_prm.c fails to build, not on the fact:"
		cat "$TMP/log"
	fi
}

check test_prm_builds ok "$(cat "$SRC/test/prm/test_prm.c")"
wrong_fact wrong_offset_fails_build \
	's/FIELD32(sqc, packet_pacing_rate_limit_index, 0x\([0-9a-f]*\),/FIELD32(sqc, packet_pacing_rate_limit_index, 0x1\1,/'
wrong_fact wrong_size_fails_build 's/^SIZE(sqc, 0x780);/SIZE(sqc, 0x7a0);/'
wrong_fact wrong_constant_fails_build \
	's/^STATIC_EQ(MLX5_CMD_OP_CREATE_SQ, 0x904);/STATIC_EQ(MLX5_CMD_OP_CREATE_SQ, 0x905);/'

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
