#!/usr/bin/env bash
# The Slurm jobs tuner-slurm writes (docs/hpc.md), run by hand on the GPUs of one machine, no Slurm:
# the compile array's 2 tasks one after the other on this machine's CPUs (no GPU work), then the tune
# array's N tasks at once, task K on GPU K-1 alone (CUDA_VISIBLE_DEVICES), each into its own
# database, then the merge job; against one `tune --gpus all` on the same GPUs with a cold compile
# cache. N is the number of GPUs `tuner devices` finds (at least two). Prints each step's wall time,
# the share of each tune task's wall time spent waiting for compiles (tune --json's compile_s of
# wall_s; the target is under 10%), and whether the merged best is --gpus all's. Brute force, so
# both measure every candidate.
#
#   bench/bench_slurm_by_hand.sh [--tuner PATH] [--kernel matmul] [--size S] [--json-dir DIR]
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_slurm_by_hand "$@"

bench_sweep_options "$@"

# timed COMMAND...: runs it; prints its wall time.
timed() {
  local start
  start=$(bench_now)
  "$@" >/dev/null
  bench_seconds "$start" "$(bench_now)"
}

run=$work/run
size_option=()
((${#size_args[@]} == 0)) || size_option=(--size "${size_args[1]}")
"$BENCH_ROOT/packaging/tuner-slurm" "$kernel" "${size_option[@]}" --shards "$gpu_count" --compile-shards 2 \
  --arch "$("$tuner" devices --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["gpus"][0]["arch"])')" \
  --dir "$run" --tuner "$tuner" -- --strategy brute_force --json >/dev/null || bench_die "tuner-slurm failed"

compile_array() {
  local k
  for k in 1 2; do
    SLURM_ARRAY_TASK_ID=$k SLURM_JOB_ID=by-hand bash "$run/compile.sbatch" >"$work/compile-$k.log" ||
      bench_die "compile task $k failed (see $work/compile-$k.log)"
  done
}

tune_array() {
  local k pids=()
  for ((k = 1; k <= gpu_count; k++)); do
    SLURM_ARRAY_TASK_ID=$k SLURM_JOB_ID=by-hand CUDA_VISIBLE_DEVICES=$((k - 1)) bash "$run/tune.sbatch" \
      >"$work/tune-$k.log" 2>"$work/tune-$k.err" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || bench_die "a tune task failed (see $work/tune-*.err)"; done
}

tune_next() {
  XDG_CACHE_HOME=$run/cache "$tuner" tune "$kernel" "${size_args[@]}" --strategy brute_force --gpu 0 \
    --db "$run/tuner.db" --json >"$work/next.json" || bench_die "the tune after the merge failed"
}

all_gpus() {
  XDG_CACHE_HOME=$work/cold "$tuner" tune "$kernel" "${size_args[@]}" --strategy brute_force --gpus all \
    --db "$work/all.db" --json >"$work/all.json" || bench_die "tune --gpus all failed"
}

bench_header
compile_s=$(timed compile_array)
tune_s=$(timed tune_array)
merge_s=$(timed bash "$run/merge.sbatch")
"$tuner" query "$kernel" "${size_args[@]}" --db "$run/tuner.db" --json >"$work/merged.json" ||
  bench_die "tuner query of the merged database failed"
# the step after the merge (docs/hpc.md): the leaders timed in turns on one card, nothing new measured
next_s=$(timed tune_next)
all_s=$(timed all_gpus)
[ -z "$json_dir" ] || { mkdir -p "$json_dir" && cp "$work"/{all,merged,next}.json "$work"/tune-*.log "$json_dir"/; }

python3 - "$work" "$kernel" "$gpu_count" "$compile_s" "$tune_s" "$merge_s" "$next_s" "$all_s" <<'PY' ||
import json, sys
work, kernel, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
compile_s, tune_s, merge_s, next_s, all_s = map(float, sys.argv[4:9])

def tune_json(path):  # the task's log: its own lines, then tune --json's document, then the save's
    text = open(path).read()
    return json.JSONDecoder().raw_decode(text[text.index("{"):])[0]

def params_text(params):
    return " ".join(f"{k}={v}" for k, v in params.items())

def compiling(time):
    return f"{time['compile_s']:.2f} of {time['wall_s']:.2f} s ({100 * time['compile_s'] / time['wall_s']:.1f}%)"

every = json.load(open(f"{work}/all.json"))
every_best = next(iter(every["best_per_model"].values()))
merged = json.load(open(f"{work}/merged.json"))["results"][0]
nxt = json.load(open(f"{work}/next.json"))
tasks = [tune_json(f"{work}/tune-{k}.log") for k in range(1, n + 1)]
print("| step | wall | compile_s of wall_s (tune --json) | measured | best |")
print("|---|---|---|---|---|")
print(f"| compile.sbatch tasks 1, 2 one after the other (CPUs only) | {compile_s:.2f} s | | | |")
for k, t in enumerate(tasks, 1):
    print(f"| tune.sbatch task {k}/{n}, GPU {k - 1} | (all {n} at once: {tune_s:.2f} s) | {compiling(t['time'])} | "
          f"{t['measured_now']} of {t['shard_candidates']} | {params_text(t['best']['params'])}, "
          f"{t['best']['time_ms']:.4f} ms |")
print(f"| merge.sbatch | {merge_s:.2f} s | | | {params_text(merged['params'])}, "
      f"{merged['time_ms']['median']:.4f} ms |")
print(f"| next `tune {kernel} --gpu 0` on the merged database | {next_s:.2f} s | {compiling(nxt['time'])} | "
      f"{nxt['measured_now']} | {params_text(nxt['best']['params'])}, {nxt['best']['time_ms']:.4f} ms |")
print(f"| `tune {kernel} --gpus all`, cold cache | {all_s:.2f} s | "
      + "; ".join(compiling(s["time"]) for s in every["sweeps"])
      + f" | {sum(s['measured_now'] for s in every['sweeps'])} | {params_text(every_best['params'])}, "
      f"{every_best['time_ms']:.4f} ms |")
same = lambda params: "the same" if params == every_best["params"] else "another"
print(f"\nPrecompiled and sharded: {compile_s:.2f} s compiling on CPUs, then {tune_s + merge_s:.2f} s of GPU tasks and "
      f"merge against {all_s:.2f} s for --gpus all; the merged database's best is {same(merged['params'])} "
      f"configuration as --gpus all's, and after the next run on one card {same(nxt['best']['params'])}.")
PY
  bench_die "the tables could not be read (see above)"
