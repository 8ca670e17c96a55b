#!/bin/bash
# Runs the benchmarks of mlx5-tm (test/bench/mlx5-tm-bench) and writes
# BUILD/bench/results.json.
#
#   bash scripts/bench.sh [BUILD]        (make bench does this with build)
#
# 1. timing run: datapath cycles per packet beside net_null and net_ring,
#    control-path costs, memory;
# 2. when valgrind is installed, the datapath again under callgrind with a
#    reduced packet count: instructions per packet, and the hottest lines
#    of the PMD's burst function (BUILD/bench/annotate.txt has the full
#    callgrind_annotate --auto=yes listing);
# 3. when valgrind is installed, the commits of the control part under
#    callgrind (--only control, one repetition): instructions and
#    first-level data cache misses per leaf of each commit case;
# 4. when valgrind is installed, the device model's instructions per
#    64-byte frame (mlx5-tm-bench --only model under callgrind:
#    deterministic, whatever the load);
# 5. end to end: Debian's dpdk-testpmd txonly, 64-byte frames on one queue,
#    mlx5-tm on the device model (real time) and net_null, one after the
#    other (test/bench/testpmd_txonly.py; BUILD/bench/txonly.json).
#
# Environment: BENCH_ARGS (more mlx5-tm-bench options for the timing run),
# BENCH_CG_PACKETS (packets per case under callgrind, default 4096),
# BENCH_NO_CALLGRIND=1 to skip steps 2 to 4, BENCH_CG_MODEL_FRAMES (frames
# of step 4, default 40000), BENCH_NO_TXONLY=1 to skip step 5,
# BENCH_TXONLY_SECONDS (measured window of step 5, default 5).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build}" && pwd)
BIN="$BUILD/test/bench/mlx5-tm-bench"
OUT="$BUILD/bench"
PY=/usr/bin/python3

if [ ! -x "$BIN" ]; then
	echo "bench: $BIN not built (ninja -C $BUILD first)" >&2
	exit 1
fi
mkdir -p "$OUT"
rm -f "$OUT"/timing.json "$OUT"/callgrind.json "$OUT"/results.json \
	"$OUT"/callgrind.out.* "$OUT"/annotate.txt "$OUT"/txonly.json \
	"$OUT"/model.callgrind.* "$OUT"/control.callgrind.*

echo "== mlx5-tm-bench (timing) =="
# shellcheck disable=SC2086
"$BIN" --json "$OUT/timing.json" ${BENCH_ARGS:-} | tee "$OUT/timing.txt"

if [ "${BENCH_NO_CALLGRIND:-0}" != 1 ] && command -v valgrind >/dev/null; then
	echo
	echo "== mlx5-tm-bench --callgrind (valgrind, datapath only) =="
	valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$OUT/callgrind.out.%p" \
		"$BIN" --callgrind --only datapath --rounds 1 \
		--packets "${BENCH_CG_PACKETS:-4096}" \
		--json "$OUT/callgrind.json" > "$OUT/callgrind.log" 2>&1 || {
		echo "bench: callgrind run failed, see $OUT/callgrind.log" >&2
		exit 1
	}
	echo
	echo "== mlx5-tm-bench --callgrind --only control (commits, per leaf) =="
	valgrind --tool=callgrind --collect-atstart=no --cache-sim=yes \
		--callgrind-out-file="$OUT/control.callgrind.out.%p" \
		"$BIN" --callgrind --only control --reps 1 --updates 10 \
		> "$OUT/control.callgrind.log" 2>&1 || {
		echo "bench: callgrind run failed, see $OUT/control.callgrind.log" >&2
		exit 1
	}
	"$PY" "$ROOT/test/bench/bench_callgrind.py" --timing "$OUT/timing.json" \
		--dumps "$OUT/callgrind.out." \
		--dumps "$OUT/control.callgrind.out." --out "$OUT/results.json" \
		--annotate "$OUT/annotate.txt" --src-root "$ROOT" \
		--build-dir "$BUILD" \
		| tee "$OUT/callgrind.txt"
	echo
	echo "== mlx5-tm-bench --callgrind --only model (device model per frame) =="
	valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$OUT/model.callgrind.%p" \
		"$BIN" --callgrind --only model \
		--packets "${BENCH_CG_MODEL_FRAMES:-40000}" \
		> "$OUT/model.callgrind.log" 2>&1 || {
		echo "bench: callgrind run failed, see $OUT/model.callgrind.log" >&2
		exit 1
	}
	"$PY" "$ROOT/test/bench/bench_model_cg.py" \
		--dumps "$OUT/model.callgrind." --results "$OUT/results.json" \
		| tee -a "$OUT/callgrind.txt"
else
	echo "bench: valgrind not installed (or BENCH_NO_CALLGRIND=1):" \
		"no instruction counts"
	cp "$OUT/timing.json" "$OUT/results.json"
fi

if [ "${BENCH_NO_TXONLY:-0}" != 1 ]; then
	echo
	echo "== testpmd txonly (end to end, device model in real time) =="
	"$PY" "$ROOT/test/bench/testpmd_txonly.py" "$BUILD" \
		--seconds "${BENCH_TXONLY_SECONDS:-5}" \
		--json "$OUT/txonly.json" | tee "$OUT/txonly.txt"
fi
echo
echo "bench: results in $OUT/results.json (testpmd txonly: $OUT/txonly.json)"
