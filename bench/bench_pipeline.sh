#!/usr/bin/env bash
# The lessons of the streams, divergence and unified_memory templates tuned on one GPU in one run,
# from a fresh database and compile cache:
#   1. streams: the tuned pipeline against one stream with one chunk (pageable and pinned), and
#      against its slowest stage alone: max(H2D, kernel, D2H), each timed alone on the whole problem
#      in the same run (`tune`'s pipeline_stages); targets: >= 1.8x faster, within 15% of the bound;
#   2. divergence: the fastest candidate of each mapping, and how much slower the divergent ones are;
#   3. unified_memory: on-demand paging against prefetching, per prefetch granularity.
# Exit 1 if a sweep fails or a reference cannot be measured (a target missed is reported, not fatal).
#
#   bench/bench_pipeline.sh [--tuner PATH] [--streams-size NxITERS] [--divergence-size NxTRIP_UNIT]
#                             [--unified-size N] [--json-dir DIR]
# Defaults: build/bin/tuner and the templates' default sizes. BENCH_DB=FILE keeps the database
# (for `tuner report`).
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_pipeline "$@"

tuner_path=build/bin/tuner streams_size="" divergence_size="" unified_size="" json_dir=""
while (($#)); do
  case "$1" in
    --tuner) tuner_path=${2:?}; shift 2 ;;
    --streams-size) streams_size=${2:?}; shift 2 ;;
    --divergence-size) divergence_size=${2:?}; shift 2 ;;
    --unified-size) unified_size=${2:?}; shift 2 ;;
    --json-dir) json_dir=${2:?}; shift 2 ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
bench_require_tuner "$tuner_path"
bench_require_gpus 1
export XDG_CACHE_HOME=$work/cache
db=$(bench_database lessons)

tune() {  # tune NAME SIZE: the sweep's JSON in $work/NAME.json
  local size_args=()
  [ -z "$2" ] || size_args=(--size "$2")
  local start end
  start=$(bench_now)
  "$tuner" tune "$1" --strategy brute_force "${size_args[@]}" --db "$db" --json >"$work/$1.json" || bench_die "tuner tune $1 failed"
  end=$(bench_now)
  echo "$1: swept in $(bench_seconds "$start" "$end") s" >&2
  [ -z "$json_dir" ] || { mkdir -p "$json_dir" && cp "$work/$1.json" "$json_dir/"; }
}
tune streams "$streams_size"
tune divergence "$divergence_size"
tune unified_memory "$unified_size"

bench_header
python3 - "$work" <<'PY' || bench_die "a reference could not be measured"
import json, sys
work = sys.argv[1]
def load(name):
    with open(f"{work}/{name}.json") as f:
        return json.load(f)
def fastest(doc, **wanted):
    times = [c["time_ms"] for c in doc["candidates"]
             if c["status"] == "ok" and all(c["params"].get(k) == v for k, v in wanted.items())]
    if not times:
        sys.exit(f"{doc['kernel']}: no candidate with {wanted} passed")
    return min(times)
def params(p):
    return " ".join(f"{k}={v}" for k, v in p.items())

s = load("streams")
n = int(s["size"].split("x")[0])
best = s["best"]["time_ms"]
stages = s.get("pipeline_stages")
if not stages:
    sys.exit("streams: the stages alone were not measured")
naive = fastest(s, STREAMS=1, CHUNK=67108864, MEMORY=0)
naive_pinned = fastest(s, STREAMS=1, CHUNK=67108864, MEMORY=1)
bound = stages["bound_ms"]
print(f"### streams {s['size']} on {s['gpu']['name']}\n")
print("| what | ms | |")
print("|---|---:|---|")
print(f"| 1 stream, 1 chunk, pageable (naive) | {naive:.3f} | |")
print(f"| 1 stream, 1 chunk, pinned | {naive_pinned:.3f} | |")
print(f"| tuned: {params(s['best']['params'])} | {best:.3f} | {naive / best:.2f}x faster than naive, {naive_pinned / best:.2f}x than pinned |")
print(f"| H2D alone (whole problem, {stages['pipeline'].split(', ')[-2]}) | {stages['h2d_ms']:.3f} | |")
print(f"| kernel alone (whole problem) | {stages['kernel_ms']:.3f} | |")
print(f"| D2H alone (whole problem) | {stages['d2h_ms']:.3f} | |")
print(f"| max(H2D, kernel, D2H) | {bound:.3f} | tuned = {best / bound:.3f}x the bound |")
print()
print(f"Targets: tuned >= 1.8x faster than one stream with one chunk: {'met' if naive / best >= 1.8 else 'MISSED'} "
      f"({naive / best:.2f}x); within 15% of max(H2D, kernel, D2H): {'met' if best <= 1.15 * bound else 'MISSED'} "
      f"({(best / bound - 1) * 100:+.1f}%).\n")

d = load("divergence")
print(f"### divergence {d['size']} on {d['gpu']['name']}\n")
print("| BRANCH | TRIPS | fastest ms | vs grouped per warp |")
print("|---|---|---:|---:|")
grouped = fastest(d, BRANCH=1, TRIPS=1)
labels = {0: "in_warp", 1: "per_warp"}
for b in (0, 1):
    for t in (0, 1):
        ms = fastest(d, BRANCH=b, TRIPS=t)
        print(f"| {labels[b]} | {labels[t]} | {ms:.3f} | {ms / grouped:.2f}x |")
print()

u = load("unified_memory")
print(f"### unified_memory {u['size']} on {u['gpu']['name']}\n")
print("| CHUNK (prefetch granularity) | on demand ms | prefetch ms | on demand / prefetch |")
print("|---:|---:|---:|---:|")
chunks = sorted({c["params"]["CHUNK"] for c in u["candidates"]}, reverse=True)
for chunk in chunks:
    od, pf = fastest(u, MEMORY=2, CHUNK=chunk), fastest(u, MEMORY=3, CHUNK=chunk)
    print(f"| {chunk} | {od:.3f} | {pf:.3f} | {od / pf:.2f}x |")
print(f"\nbest: {params(u['best']['params'])} {u['best']['time_ms']:.3f} ms; "
      f"the fastest on demand {fastest(u, MEMORY=2):.3f} ms, the fastest prefetched {fastest(u, MEMORY=3):.3f} ms.")
PY
