#!/usr/bin/env bash
# Several GPUs (`tune --gpus`): one sweep of KERNEL on GPU 0 against `--gpus all` on every GPU that
# `tuner devices` finds (at least two, else exit 1 saying what it found), then the same command
# again with the GPUs in reverse order on the --gpus database, which must measure nothing (a resume
# across cards). A first sweep on GPU 0 fills the compile cache; the timed runs all find it warm,
# and each of the first two starts from a fresh database.
#
#   bench/bench_multi_gpu.sh [--tuner PATH] [--kernel matmul] [--size S] [--json-dir DIR]
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_multi_gpu "$@"

bench_sweep_options "$@"
reversed=$(seq $((gpu_count - 1)) -1 0 | paste -sd, -)  # the GPUs in reverse order, for the resume

# run NAME DB ARGS...: one tune command with --json into DB; prints its wall time.
run() {
  local name=$1 db=$2 start
  shift 2
  start=$(bench_now)
  "$tuner" tune "$kernel" --strategy brute_force "${size_args[@]}" --db "$db" --json "$@" >"$work/$name.json" || bench_die "tuner tune $kernel $* failed"
  bench_seconds "$start" "$(bench_now)"
}

bench_header
run fill "$work/fill.db" --gpu 0 >/dev/null
one=$(run one "$work/one.db" --gpu 0)
all=$(run all "$work/all.db" --gpus all)
again=$(run again "$work/all.db" --gpus "$reversed")
[ -z "$json_dir" ] || { mkdir -p "$json_dir" && cp "$work"/{one,all,again}.json "$json_dir"/; }

python3 - "$work" "$kernel" "$one" "$all" "$again" "$reversed" <<'PY' || bench_die "the sweeps do not agree (see above)"
import json, sys
work, kernel, one_s, all_s, again_s, reversed_gpus = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:6]), sys.argv[6]
one, several, again = (json.load(open(f"{work}/{name}.json")) for name in ("one", "all", "again"))

def params_text(params):
    return " ".join(f"{k}={v}" for k, v in params.items())

def measured(doc):
    return " + ".join(f"{s['measured_now']} on GPU {s['gpu']['index']}" for s in doc["sweeps"])

def times_of(doc, params):  # the model's best as each card timed it
    found = []
    for s in doc["sweeps"]:
        for c in s["candidates"]:
            if c["params"] == params and c["status"] == "ok":
                found.append(f"{c['time_ms']:.4f} ms (GPU {s['gpu']['index']})")
    return ", ".join(found)

if any(s["measured_now"] for s in again["sweeps"]):
    sys.exit(f"the resume with --gpus {reversed_gpus} measured {measured(again)}; it should measure nothing")
print("| command | wall | candidates measured | best | time |")
print("|---|---|---|---|---|")
print(f"| `tuner tune {kernel} --gpu 0` | {one_s:.2f} s | {one['measured_now']} on GPU 0 | "
      f"{params_text(one['best']['params'])} | {one['best']['time_ms']:.4f} ms |")
for model, best in several["best_per_model"].items():
    stored = {json.dumps(c["params"], sort_keys=True) for s in several["sweeps"] for c in s["candidates"]}
    print(f"| `tuner tune {kernel} --gpus all` | **{all_s:.2f} s** ({one_s / all_s:.2f}x) | {measured(several)}; "
          f"{len(stored)} distinct of {several['sweeps'][0]['candidates_total']} | {params_text(best['params'])} "
          f"(best of {model}) | {times_of(several, best['params'])} |")
print(f"| the same again, `--gpus {reversed_gpus}` (resume) | {again_s:.2f} s | {measured(again)} | | |")
PY
