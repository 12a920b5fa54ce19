#!/usr/bin/env bash
# What hardware counters and energy cost a sweep: each KERNEL is tuned with `--counters off`, with the
# default `--counters winner` (counters for the winner, the runners-up and the winner's one-parameter
# neighbours, six at most, in one CUPTI session; energy for the winner) and with `--counters explain`
# (those and one representative of each parameter value), from fresh databases in the same
# invocation, after a first sweep that fills the compile cache so all find it warm.
# Each round runs the three modes in a rotated order (REPEAT rounds, default 3), so a drift of the
# machine falls on all; the table shows medians.
# Prints a Markdown table: wall times, what winner and explain add (their range over the rounds), the
# target of the default (at most 0.5 s + 5% of the `off` sweep: met or not), how many candidates got
# counters and energy, where the default's pass went (tune --json's hardware_pass of its median run:
# CUPTI's setup and NVML's loading still waited for, the counters, of which the first pass's
# cuptiRangeProfilerStart, CUPTI's device-side setup, and the energy), and the GPU work the default's
# counters add outside the pass (the worker's time, less the pass, against the same without
# counters). Exits 1 when a sweep fails or counters or energy are unavailable (the figure would then
# not measure them).
#
#   bench/bench_counters.sh [--tuner PATH] [--repeat N] [KERNEL[:SIZE] ...]
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

modes=(off winner explain)
bench_header
echo "| kernel | size | candidates | off (s) | winner (s) | winner adds (range) | target: 0.5 s + 5% | explain (s) | explain adds (range) | with counters: winner / explain | with energy: winner / explain | winner's pass (s) | winner's worker: CUPTI / NVML waited, counters (of which the first pass's start), energy (ms) | winner's GPU work added outside the pass (s) |"
echo "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---:|"
for spec in "${kernels[@]}"; do
  kernel=${spec%%:*}
  size=""
  [[ $spec != *:* ]] || size=${spec#*:}
  sweep "$kernel-fill" "$kernel" "$size" off >/dev/null
  for ((round = 1; round <= repeat; ++round)); do
    shift_by=$(((round - 1) % ${#modes[@]}))
    order=("${modes[@]:shift_by}" "${modes[@]:0:shift_by}")
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
median = lambda mode: statistics.median(walls[(mode, r)] for r in rounds)
median_round = lambda mode: sorted(rounds, key=lambda r: walls[(mode, r)])[(len(rounds) - 1) // 2]
off = median("off")
def adds(mode):  # the median's added seconds and share, and the share's range over the rounds
    shares = sorted(100 * (walls[(mode, r)] - walls[("off", r)]) / walls[("off", r)] for r in rounds)
    span = f"{shares[0]:+.0f}..{shares[-1]:+.0f}%" if len(shares) > 1 else "one round"
    return median(mode) - off, f"{median(mode) - off:+.2f} s, {100 * (median(mode) - off) / off:+.1f}% ({span})"
def counted(mode):
    cands = doc(mode, median_round(mode))["candidates"]
    return sum(1 for c in cands if c.get("counters")), sum(1 for c in cands if c.get("energy_j"))
shown = doc("winner", median_round("winner"))
hw = shown.get("hardware_pass") or {}
ms = hw.get("worker_ms", {})
part = lambda key: f"{ms.get(key, 0):.0f}"
parts = (f"{part('counters_setup')} / {part('energy_setup')}, {part('counters')} ({part('counters_replay_first_start')}),"
         f" {part('energy')}")
def outside(r):  # the worker's time with counters, less their pass, against the worker's time without
    with_counters = doc("winner", r)
    pass_s = (with_counters.get("hardware_pass") or {}).get("wall_ms", 0) / 1e3
    return with_counters["time"]["gpu_s"] - pass_s - doc("off", r)["time"]["gpu_s"]
winner_s, winner_text = adds("winner")
budget_s = 0.5 + 0.05 * off
target = f"{'met' if winner_s <= budget_s else 'MISSED'} ({winner_s:+.2f} of {budget_s:.2f} s)"
(cw, ew), (cx, ex) = counted("winner"), counted("explain")
print(f"| {kernel} | {shown['size']} | {len(shown['candidates'])} | {off:.2f} | {median('winner'):.2f} | {winner_text} "
      f"| {target} | {median('explain'):.2f} | {adds('explain')[1]} | {cw} / {cx} | {ew} / {ex} "
      f"| {hw.get('wall_ms', 0) / 1e3:.2f} | {parts} | {statistics.median(outside(r) for r in rounds):+.2f} |")
PY
done
