#!/bin/bash
# make fuzz: the control-path fuzzer (test/fuzz/fuzz_tm) under the
# ASan/UBSan build, FUZZ_OPS operations (default 1,000,000) over seeds of
# FUZZ_OPS_PER_SEED operations each (default 20,000), from seed FUZZ_SEED
# (default: the time, printed). A violation prints its seed and step and
# how to replay it; the run fails on any violation, leak or sanitizer
# report.
#
# Then incremental planning against the whole plan (test/tm/test_tm_incr):
# FUZZ_INCR_STEPS random live changes (default 200,000) of seed FUZZ_SEED,
# each re-planned both ways and compared; a disagreement prints its seed,
# step and replay.
#
# Then the rate oracle (test/oracle/test_oracle, doc/guides/rate_oracle.rst)
# on the same build: ORACLE_TREES random hierarchies (default 1,000) of
# seed FUZZ_SEED, each measured on the device model in virtual time and
# checked within 1% of the max-min solver; a failed tree prints itself and
# its replay (--seed S --tree N). The run fails if any part fails.
#
#   bash scripts/fuzz.sh [BUILD_SAN]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${1:-build-san}" && pwd)
BIN="$BUILD/test/fuzz/fuzz_tm"
INCR="$BUILD/test/tm/test_tm_incr"
INCR_STEPS=${FUZZ_INCR_STEPS:-200000}
ORACLE="$BUILD/test/oracle/test_oracle"
TREES=${ORACLE_TREES:-1000}
OPS=${FUZZ_OPS:-1000000}
PER_SEED=${FUZZ_OPS_PER_SEED:-20000}
SEED=${FUZZ_SEED:-$(date +%s)}
SEEDS=$(( (OPS + PER_SEED - 1) / PER_SEED ))

for b in "$BIN" "$INCR" "$ORACLE"; do
	if [ ! -x "$b" ]; then
		echo "fuzz: $b not built (ninja -C $BUILD first)" >&2
		exit 1
	fi
done
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:detect_odr_violation=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$ROOT/test/lsan.supp:print_suppressions=0}"
echo "fuzz: $SEEDS seeds from $SEED, $PER_SEED operations each ($BUILD)"
status=0
"$BIN" --no-huge --no-pci -m 256 --no-shconf \
	--file-prefix="fuzz_$$" --log-level=lib.eal:error -- \
	--seed "$SEED" --seeds "$SEEDS" --ops "$PER_SEED" || status=1
echo "fuzz: incremental planning, $INCR_STEPS live changes of seed $SEED ($BUILD)"
"$INCR" --seed "$SEED" --steps "$INCR_STEPS" || status=1
echo "fuzz: rate oracle, $TREES trees of seed $SEED ($BUILD)"
"$ORACLE" --no-huge --no-pci -m 512 --no-shconf \
	--file-prefix="fuzz_oracle_$$" --log-level=lib.eal:error \
	--log-level=pmd.net.mlx5_tm:error -- \
	--seed "$SEED" --trees "$TREES" || status=1
exit $status
