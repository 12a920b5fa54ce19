#!/usr/bin/env bash
# What hardware counters and energy cost a sweep: each KERNEL is tuned with `--counters off` and
# with the default `--counters leaders` (counters for the leaders, the winner's one-parameter
# neighbours and the fastest of each parameter value; energy for the leaders), from fresh databases
# in the same invocation, after a first sweep that fills the compile cache so all find it warm.
# Each pair is run REPEAT times (default 3), off first in odd rounds and last in even ones, so a
# drift of the machine falls on both; the table shows medians.
# Prints a Markdown table: wall times, the added share (the target: at most 30%; its range over the
# pairs), how many candidates got counters and energy, where the pass went (tune --json's
# hardware_pass of the median run: CUPTI's setup and NVML's loading still waited for, the counters,
# of which the first pass's cuptiRangeProfilerStart, CUPTI's device-side setup, and the energy), and
# the GPU work the counters add outside the pass (the worker's time, less the pass, against the
# same without counters). Exits 1 when a sweep fails or counters or energy are unavailable (the
# figure would then not measure them).
#
#   scripts/bench_counters.sh [--tuner PATH] [--repeat N] [KERNEL[:SIZE] ...]
#   (default kernels: transpose:8192x8192 coalescing reduction matmul)
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_counters "$@"

tuner_path=build/bin/tuner
repeat=3
kernels=()
while (($#)); do
  case "$1" in
    --tuner) tuner_path=${2:?}; shift 2 ;;
    --repeat)
      [[ ${2:-} =~ ^[1-9][0-9]?$ ]] || bench_usage "--repeat wants a count from 1 to 99, not '${2:-}'"
      repeat=$2; shift 2 ;;
    -h|--help) bench_help; exit 0 ;;
    -*) bench_usage "unknown option '$1'" ;;
    *) kernels+=("$1"); shift ;;
  esac
done
((${#kernels[@]})) || kernels=(transpose:8192x8192 coalescing reduction matmul)
bench_require_tuner "$tuner_path"
bench_require_gpus 1
export XDG_CACHE_HOME=$work/cache

# sweep NAME KERNEL SIZE MODE: one tune with --json into a fresh database; prints its wall time.
sweep() {
  local name=$1 kernel=$2 size=$3 mode=$4 start
  local size_args=()
  [ -z "$size" ] || size_args=(--size "$size")
  start=$(bench_now)
  "$tuner" tune "$kernel" "${size_args[@]}" --counters "$mode" --db "$work/$name.db" --json >"$work/$name.json" \
    2>"$work/$name.err" || { cat "$work/$name.err" >&2; bench_die "tuner tune $kernel --counters $mode failed"; }
  ! grep -q unavailable "$work/$name.err" || { cat "$work/$name.err" >&2; bench_die "counters or energy unavailable"; }
  bench_seconds "$start" "$(bench_now)"
}

bench_header
echo "| kernel | size | candidates | --counters off (s) | --counters leaders (s) | added (range) | with counters | with energy | the pass (s) | worker: CUPTI / NVML waited, counters (of which the first pass's start), energy (ms) | GPU work added outside the pass (s) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"
for spec in "${kernels[@]}"; do
  kernel=${spec%%:*}
  size=""
  [[ $spec != *:* ]] || size=${spec#*:}
  sweep "$kernel-fill" "$kernel" "$size" off >/dev/null
  for ((round = 1; round <= repeat; ++round)); do
    order=(off leaders)
    ((round % 2)) || order=(leaders off)
    for mode in "${order[@]}"; do
      echo "$mode $round $(sweep "$kernel-$mode-$round" "$kernel" "$size" "$mode")" >>"$work/$kernel.walls"
    done
  done
  python3 - "$work" "$kernel" <<'PY'
import json, statistics, sys
work, kernel = sys.argv[1], sys.argv[2]
walls = {}
for line in open(f"{work}/{kernel}.walls"):
    mode, round_, seconds = line.split()
    walls[(mode, int(round_))] = float(seconds)
rounds = sorted({r for _, r in walls})
doc = lambda mode, r: json.load(open(f"{work}/{kernel}-{mode}-{r}.json"))
off = statistics.median(walls[("off", r)] for r in rounds)
on = statistics.median(walls[("leaders", r)] for r in rounds)
added = sorted(100 * (walls[("leaders", r)] - walls[("off", r)]) / walls[("off", r)] for r in rounds)
median_round = sorted(rounds, key=lambda r: walls[("leaders", r)])[(len(rounds) - 1) // 2]
shown = doc("leaders", median_round)
cands = shown["candidates"]
counters = sum(1 for c in cands if c.get("counters"))
energy = sum(1 for c in cands if c.get("energy_j"))
hw = shown.get("hardware_pass") or {}
ms = hw.get("worker_ms", {})
part = lambda key: f"{ms.get(key, 0):.0f}"
parts = (f"{part('counters_setup')} / {part('energy_setup')}, {part('counters')} ({part('counters_replay_first_start')}),"
         f" {part('energy')}")
def outside(r):  # the worker's time with counters, less their pass, against the worker's time without
    with_counters = doc("leaders", r)
    pass_s = (with_counters.get("hardware_pass") or {}).get("wall_ms", 0) / 1e3
    return with_counters["time"]["gpu_s"] - pass_s - doc("off", r)["time"]["gpu_s"]
span = f"{added[0]:+.0f}..{added[-1]:+.0f}%" if len(added) > 1 else "one pair"
print(f"| {kernel} | {shown['size']} | {len(cands)} | {off:.2f} | {on:.2f} | {100 * (on - off) / off:+.1f}% ({span}) "
      f"| {counters} | {energy} | {hw.get('wall_ms', 0) / 1e3:.2f} | {parts} "
      f"| {statistics.median(outside(r) for r in rounds):+.2f} |")
PY
done
