#!/usr/bin/env bash
# What hardware counters and energy cost a sweep: each KERNEL is tuned with `--counters off` and
# with the default `--counters leaders` (counters for the leaders, the winner's one-parameter
# neighbours and the fastest of each parameter value; energy for the leaders), from fresh databases
# in the same invocation, after a first sweep that fills the compile cache so both find it warm.
# Prints a Markdown table: wall times, the added share (the target: at most 30%), how many
# candidates got counters and energy, and where the pass went (tune --json's hardware_pass; the
# counters' time includes enabling CUPTI and the first pass's cuptiRangeProfilerStart, CUPTI's
# device-side setup, shown apart). Exits 1 when a sweep fails or counters or energy are
# unavailable (the figure would then not measure them).
#
#   scripts/bench_counters.sh [--tuner PATH] [KERNEL[:SIZE] ...]   (default: transpose:8192x8192 coalescing reduction matmul)
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_counters "$@"

tuner_path=build/bin/tuner
kernels=()
while (($#)); do
  case "$1" in
    --tuner) tuner_path=${2:?}; shift 2 ;;
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
echo "| kernel | size | candidates | --counters off (s) | --counters leaders (s) | added | with counters | with energy | the pass (s) | worker: CUPTI setup waited / enable / counters (of which the first pass's start) / energy (ms) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
for spec in "${kernels[@]}"; do
  kernel=${spec%%:*}
  size=""
  [[ $spec != *:* ]] || size=${spec#*:}
  sweep "$kernel-fill" "$kernel" "$size" off >/dev/null
  off=$(sweep "$kernel-off" "$kernel" "$size" off)
  on=$(sweep "$kernel-on" "$kernel" "$size" leaders)
  python3 - "$work/$kernel-on.json" "$kernel" "$off" "$on" <<'PY'
import json, sys
doc, kernel, off, on = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
cands = doc["candidates"]
counters = sum(1 for c in cands if c.get("counters"))
energy = sum(1 for c in cands if c.get("energy_j"))
hw = doc.get("hardware_pass") or {}
ms = hw.get("worker_ms", {})
part = lambda key: f"{ms.get(key, 0):.0f}"
parts = (f"{part('counters_setup')} / {part('counters_enable')} / {part('counters')} ({part('counters_replay_first_start')})"
         f" / {part('energy')}")
print(f"| {kernel} | {doc['size']} | {len(cands)} | {off:.2f} | {on:.2f} | {100 * (on - off) / off:+.1f}% | {counters} | {energy} "
      f"| {hw.get('wall_ms', 0) / 1e3:.2f} | {parts} |")
PY
done
