#!/usr/bin/env bash
# Several nodes (`tune --shard K/N`), played on the GPUs of one machine:
# one sweep of KERNEL on GPU 0, then N shards at once, shard K on GPU K-1 in its own process and
# its own database (as the tasks of a job array would run), merged with `tuner db merge`, then the
# next run on GPU 0 on the merged database, which must measure nothing new but the leaders other
# cards measured, and a further run, which must measure nothing. N is the number of GPUs `tuner
# devices` finds (at least two, else exit 1 saying what it found). A first sweep on GPU 0 fills
# the compile cache; the timed runs all find it warm.
#
#   bench/bench_shards.sh [--tuner PATH] [--kernel matmul] [--size S] [--json-dir DIR]
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_shards "$@"

bench_sweep_options "$@"

# tune NAME DB ARGS...: one tune command with --json into DB, its JSON in $work/NAME.json.
tune() {
  local name=$1 db=$2
  shift 2
  "$tuner" tune "$kernel" --strategy brute_force "${size_args[@]}" --db "$db" --json "$@" >"$work/$name.json" || bench_die "tuner tune $kernel $* failed"
}

# timed COMMAND...: runs it; prints its wall time.
timed() {
  local start
  start=$(bench_now)
  "$@"
  bench_seconds "$start" "$(bench_now)"
}

shards() {
  local k pids=()
  for ((k = 1; k <= gpu_count; k++)); do
    tune "shard$k" "$work/shard$k.db" --gpu $((k - 1)) --shard "$k/$gpu_count" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || bench_die "a shard failed"; done
}

merge() {
  local k
  for ((k = 1; k <= gpu_count; k++)); do
    "$tuner" db merge "$work/shard$k.db" --db "$work/merged.db" >/dev/null || bench_die "db merge of shard $k failed"
  done
}

bench_header
tune fill "$work/fill.db" --gpu 0
full_s=$(timed tune full "$work/full.db" --gpu 0)
shards_s=$(timed shards)
merge_s=$(timed merge)
next_s=$(timed tune next "$work/merged.db" --gpu 0)
tune again "$work/merged.db" --gpu 0
[ -z "$json_dir" ] || { mkdir -p "$json_dir" && cp "$work"/{full,shard*,next,again}.json "$json_dir"/; }

python3 - "$work" "$kernel" "$gpu_count" "$full_s" "$shards_s" "$merge_s" "$next_s" <<'PY' || bench_die "the sharded sweep does not agree (see above)"
import json, sys
work, kernel, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
full_s, shards_s, merge_s, next_s = map(float, sys.argv[4:8])
load = lambda name: json.load(open(f"{work}/{name}.json"))
full, nxt, again = load("full"), load("next"), load("again")
shards = [load(f"shard{k}") for k in range(1, n + 1)]

def params_text(params):
    return " ".join(f"{k}={v}" for k, v in params.items())

if sum(s["shard_candidates"] for s in shards) != full["candidates_total"]:
    sys.exit("the shards' shares do not add up to the candidates")
if again["measured_now"]:
    sys.exit(f"the run after the next measured {again['measured_now']} candidates; it should measure nothing")
shares = " + ".join(f"{s['measured_now']}" for s in shards)
print("| step | wall | candidates measured | best | time |")
print("|---|---|---|---|---|")
print(f"| `tune {kernel} --gpu 0` (one node) | {full_s:.2f} s | {full['measured_now']} | "
      f"{params_text(full['best']['params'])} | {full['best']['time_ms']:.4f} ms |")
for k, s in enumerate(shards, 1):
    best = f"{params_text(s['best']['params'])} | {s['best']['time_ms']:.4f} ms" if s["best"] else "- | -"
    print(f"| `tune {kernel} --shard {k}/{n} --gpu {k - 1}` | (all {n} at once: {shards_s:.2f} s) | "
          f"{s['measured_now']} of {s['shard_candidates']} | {best} |")
print(f"| `db merge` x {n} | {merge_s:.2f} s | | | |")
print(f"| next `tune {kernel} --gpu 0` on the merged database | {next_s:.2f} s | {nxt['measured_now']} "
      f"(the model's leaders, timed in turns here) | {params_text(nxt['best']['params'])} | {nxt['best']['time_ms']:.4f} ms |")
print(f"| the same again | | {again['measured_now']} | | |")
same = "the same" if nxt["best"]["params"] == full["best"]["params"] else "another"
print(f"\nSharded: {shards_s + merge_s + next_s:.2f} s in all ({shares} measured) against {full_s:.2f} s on one GPU; "
      f"{same} best as the one-node sweep.")
PY
