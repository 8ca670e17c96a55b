#!/bin/bash
# make test-tsan: test/tsan/race_tm (worker lcores in Tx bursts while the
# main lcore changes the hierarchy, reads stats and telemetry, and the
# device fails WQEs) built with ThreadSanitizer in its own build directory
# (BUILD_TSAN, default build-tsan), run with test/tsan.supp. Fails on any
# race report (TSan's exit code 66) or failed case.
#
#   bash scripts/tsan.sh [BUILD_TSAN]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build-tsan}
ROUNDS=${TSAN_ROUNDS:-200}

cd "$ROOT"
# -Wno-tsan: DPDK's rte_seqcount (the completion evidence) orders with
# atomic_thread_fence, which ThreadSanitizer does not model and GCC warns
# of (an error with the project's werror); the fields the count guards
# are relaxed atomics on both sides, so no race on them goes unseen.
TSAN_C_ARGS="-Wno-tsan"
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD" -Dbuildtype=debug -Db_sanitize=thread \
		-Db_lundef=false -Dc_args="$TSAN_C_ARGS"
else
	meson configure "$BUILD" -Dc_args="$TSAN_C_ARGS" >/dev/null
fi
ninja -C "$BUILD" test/tsan/race_tm
export TSAN_OPTIONS="${TSAN_OPTIONS:-suppressions=$ROOT/test/tsan.supp:halt_on_error=0:exitcode=66:second_deadlock_stack=1}"
# Four lcores as threads floating over the first two CPUs: three senders
# and the control lcore; the EAL's interrupt (alarm) and telemetry threads
# and the device model's realtime thread run beside them.
exec "$BUILD/test/tsan/race_tm" --no-huge --no-pci -m 512 --no-shconf \
	--file-prefix="tsan_$$" --lcores='(0-3)@(0-1)' \
	--log-level=lib.eal:error \
	--vdev net_mlx5_tm0,emu=cx6dx -- --rounds "$ROUNDS"
