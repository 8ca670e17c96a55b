#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright 2026 The mlx5-tm authors
#
# The mlx5-tm demo: dpdk-tm-pace paces 18 Tx queues of an emulated
# ConnectX-6 Dx through rte_tm (9 on their own, 9 in groups of the NIC's
# scheduling hierarchy, one with two subgroups) for about 10 seconds of
# real time and prints what each queue and group achieved; the JSON
# report, the chart and the plan land in BUILD_DIR/demo/.
#
#   usage: scripts/demo.sh [BUILD_DIR]     (make demo runs it)
#
# Environment: DEMO_DURATION (default 10s; more than the 5s of the change),
# DEMO_PROFILE (default cx6dx; a profile without WQE-rate pacing or the NIC
# scheduling hierarchy, cx5, runs the plan without its packet-mode queue
# or its groups),
# DEMO_CLOCK (realtime, default, or virtual: exact whatever the load),
# DEMO_LCORES (EAL -l list; default: ONE lcore, which sends and measures,
# allowed on every cpu, so that the device model's real-time thread, which
# inherits its cpus, and the sender end up on different cores of a
# 2-core machine).
set -u

BUILD=$(cd "${1:-build}" 2>/dev/null && pwd) || {
	echo "demo: build directory '${1:-build}' not found; run make build" >&2
	exit 2
}
OUT="$BUILD/demo"
DURATION=${DEMO_DURATION:-10s}
PROFILE=${DEMO_PROFILE:-cx6dx}
CLOCK=${DEMO_CLOCK:-realtime}
case $CLOCK in
realtime|virtual) ;;
*) echo "demo: DEMO_CLOCK must be realtime or virtual" >&2; exit 2 ;;
esac
if [ -n "${DEMO_LCORES:-}" ]; then
	LCORE_ARGS=(-l "$DEMO_LCORES")
else
	LCORE_ARGS=(--lcores "0@(0-$(($(nproc) - 1)))")
fi
mkdir -p "$OUT"

TOOL=""
for t in "$BUILD/app/dpdk-tm-pace" "$BUILD/app/tm-pace/dpdk-tm-pace"; do
	[ -x "$t" ] && TOOL=$t && break
done
PMD="$BUILD/drivers/librte_net_mlx5_tm.so"

# What the profile can do, from the device model's profiles (mlx5-tm-plan
# reads them through the model's API): packet mode needs WQE-rate pacing,
# groups the NIC scheduling hierarchy (cx5 has neither).
PLANNER="$BUILD/app/pace-plan/mlx5-tm-plan"
caps=$("$PLANNER" --list-caps 2>/dev/null | grep -E "^${PROFILE}[[:space:]]") || {
	echo "demo: DEMO_PROFILE=$PROFILE is not a profile of the device" \
		"model ($("$PLANNER" --list-caps 2>/dev/null |
			awk '/^[a-z]/ { printf "%s%s", s, $1; s = ", " }'))" >&2
	exit 2
}
WQE_RATE=1
SCHED=1
grep -q "no WQE-rate pacing" <<< "$caps" && WQE_RATE=0
grep -q "no NIC scheduling hierarchy" <<< "$caps" && SCHED=0

# The plan: 8 byte-mode queues from 10 Mbit/s to 10 Gbit/s (queues 4 and
# 5 identical: with --share one profile, one pacing entry), a
# packet-mode queue, a group of three queues sharing a 400 Mbit/s ceiling
# by weight, a pair with committed rates under 300 Mbit/s, a group whose
# capped subgroup and capped weighted queue leave their surplus to their
# siblings, and two live changes half-way through: queue 2's rate, queue
# 11's weight. The two fastest queues send 9000-byte frames: the
# real-time device model then has 350,000 departures a second to compute
# instead of 1.4 million; the groups add 1,000 Mbit/s of 1500-byte frames
# (83,000 a second), modest for a loaded 2-core machine. A profile without
# WQE-rate pacing gets no packet-mode queue, one without the NIC
# scheduling hierarchy no group.
{
cat <<'PLAN'
# dpdk-tm-pace plan of the mlx5-tm demo.
# peak= is in bits/s (K, M, G = 10^3, 10^6, 10^9): rte_tm gets bytes/s.
0:peak=10M
1:peak=50M
2:peak=200M                   # raised to 800M at 5s, below
3:peak=500M
4:peak=1G                     # 4 and 5: the same shaper, with --share
5:peak=1G                     #   one profile and one pacing entry
6:peak=2.5G,burst=64K,size=9000  # jumbo frames: fewer packets to
7:peak=10G,size=9000             #   send and to emulate
PLAN
[ "$WQE_RATE" = 1 ] && cat <<'PLAN'
8:pps=20K,size=64             # packet mode: 20,000 frames/s of 64 bytes
PLAN
[ "$SCHED" = 1 ] && cat <<'PLAN'
# A group (a non-leaf node: a scheduling element of the NIC) with a
# 400 Mbit/s ceiling, shared 1:2:5 by queues with no shaper of their own:
# 50, 100 and 250 Mbit/s.
group shared:peak=400M
9:group=shared,weight=1
10:group=shared,weight=2
11:group=shared,weight=5      # weight 1 at 5s, below: 100, 200, 100
# Committed rates under a 300 Mbit/s ceiling: each gets its committed rate
# and half of the 50 Mbit/s they leave: 225 and 75 Mbit/s.
group committed:peak=300M
12:peak=300M,cir=200M,group=committed
13:peak=300M,cir=50M,group=committed
# A group with a capped subgroup and a capped weighted queue: tiers shares
# 300 Mbit/s 3:1 between low, capped at 60 Mbit/s (below its 225), and
# high, which gets the rest: 240 Mbit/s.
group tiers:peak=300M
group low:parent=tiers,peak=60M,weight=3
14:group=low                  # 30 Mbit/s each
15:group=low
group high:parent=tiers,weight=1
16:group=high,weight=1        # 200 Mbit/s: its share and queue 17's surplus
17:group=high,weight=2,peak=40M  # capped at 40 Mbit/s, below its 160
PLAN
echo "at 5s:queue 2:peak=800M"
[ "$SCHED" = 1 ] && echo "at 5s:queue 11:weight=1"
} > "$OUT/plan.txt"
LEFT_OUT=""
[ "$WQE_RATE" = 0 ] && LEFT_OUT="the packet-mode queue (no WQE-rate pacing)"
[ "$SCHED" = 0 ] && LEFT_OUT="${LEFT_OUT:+$LEFT_OUT and }the groups (no NIC scheduling hierarchy)"

have_pmd() {
	[ -n "$TOOL" ] && [ -f "$PMD" ]
}

if ! have_pmd; then
	echo "demo: the PMD ($PMD) or dpdk-tm-pace is not built;" \
		"run make demo (it builds them)" >&2
	exit 2
fi

# A tool linked with the PMD registers net_mlx5_tm itself; otherwise load
# the .so with -d from a private directory (EAL refuses -d for files
# under a world-writable directory such as /tmp): the suites' own
# (test/private_dir.py: the build directory, $XDG_RUNTIME_DIR, ~/.cache).
EAL_D=()
PRIV=""
if ! ldd "$TOOL" 2>/dev/null | grep -q librte_net_mlx5_tm; then
	PRIV=$(python3 "$(dirname "$0")/../test/private_dir.py" "$BUILD" \
		mlx5-tm-demo.) || exit 2
	# The device model, which the PMD loads from beside itself for emu=.
	cp "$PMD" "$(dirname "$PMD")/librte_net_mlx5_tm_emu.so" "$PRIV/"
	EAL_D=(-d "$PRIV/librte_net_mlx5_tm.so")
fi
PREFIX="mlx5tm-demo-$$"
# shellcheck source=scripts/eal_runtime.sh
. "$(dirname "$0")/eal_runtime.sh"
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	if [ -n "$PRIV" ]; then
		rm -rf "$PRIV"
	fi
	eal_runtime_remove "$PREFIX"
}
trap cleanup EXIT

echo "demo: dpdk-tm-pace on an emulated ConnectX ($PROFILE), $CLOCK clock," \
	"$DURATION; plan $OUT/plan.txt"
if [ -n "$LEFT_OUT" ]; then
	echo "demo: $PROFILE: the plan leaves out $LEFT_OUT"
fi
"$TOOL" --no-huge --no-pci -m 512 "${LCORE_ARGS[@]}" --no-telemetry --log-level=lib.eal:error \
	--file-prefix "$PREFIX" "${EAL_D[@]}" \
	--vdev "net_mlx5_tm0,emu=$PROFILE,clock=$CLOCK" -- \
	--plan "$OUT/plan.txt" --share --duration "$DURATION" --interval 1s \
	--tolerance 2 \
	--json "$OUT/report.json" --plot "$OUT/rates.png"
rc=$?
case $rc in
0) echo "demo: every queue within tolerance; report $OUT/report.json," \
	"chart $OUT/rates.png" ;;
1) echo "demo: some queue missed its tolerance (see the status column);" \
	"report $OUT/report.json" ;;
*) echo "demo: dpdk-tm-pace failed (exit $rc)" ;;
esac
exit $rc
