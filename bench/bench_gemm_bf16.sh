#!/usr/bin/env bash
# The tensor-core GEMM against cuBLAS in the same run (issue 27, requirement 2): gemm_bf16 tuned at
# M = N = K (default 8192: every one of its 236 candidates, stopped after BENCH_SECONDS, default 240,
# so that the script ends within 6 minutes on an H100), against cuBLAS bf16 as PyTorch calls it
# (torch.mm on bfloat16 CUDA tensors, fp32 accumulation; median of 20 after 5 warm-ups, CUDA
# events). Both are in TFLOP/s of 2 M N K; the ratio targets >= 70%. The template's candidates use
# mma.sync (216) or, on sm_90, wgmma (20, compiled for sm_90a), as cuBLAS does on an H100.
# Every candidate is measured in this run (--force), into a fresh database unless BENCH_DB=PATH names
# one to keep. A reference that cannot be measured (PyTorch missing) ends the script with exit 1.
#
#   bench/bench_gemm_bf16.sh [path/to/tuner] [SIZE]     (default: build/bin/tuner 8192)
#   BENCH_GPU=N selects the GPU (default 0); BENCH_SECONDS=S the tuning time limit (default 240).
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_gemm_bf16 "$@"
bench_positional_args "$@"
bench_require_tuner "${1:-build/bin/tuner}"
n=${2:-8192}
[[ "$n" =~ ^[1-9][0-9]*$ ]] || bench_usage "SIZE '$n': expected a whole number (M = N = K)"
gpu=${BENCH_GPU:-0}
[[ "$gpu" =~ ^[0-9]+$ ]] || bench_usage "BENCH_GPU='$gpu': expected a GPU index"
seconds=${BENCH_SECONDS:-240}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || bench_usage "BENCH_SECONDS='$seconds': expected a whole number of seconds"
bench_require_gpus $((gpu + 1))
export XDG_CACHE_HOME=$work/cache
db=$(bench_database gemm_bf16)

cublas_gflops=$(bench_cublas_gflops "$gpu" bfloat16 "$n" 2>"$work/cublas.log") \
  || bench_die "the cuBLAS reference (PyTorch torch.mm in bfloat16 on GPU $gpu) could not be measured: $(tail -1 "$work/cublas.log")"

bench_header
start=$(bench_now)
"$tuner" tune gemm_bf16 --strategy brute_force --size "${n}x${n}x${n}" --gpu "$gpu" --force --budget-seconds "$seconds" --db "$db" --json \
  >"$work/gemm_bf16.json" || bench_die "tuner tune gemm_bf16 failed"
echo "gemm_bf16: swept in $(bench_seconds "$start" "$(bench_now)") s" >&2

python3 - "$work/gemm_bf16.json" "$cublas_gflops" <<'PY' || bench_die "no result to compare (see above)"
import json, sys
doc, cublas = json.load(open(sys.argv[1])), float(sys.argv[2]) / 1000
statuses = {}
for c in doc["candidates"]:
    statuses[c["status"]] = statuses.get(c["status"], 0) + 1
best = doc.get("best")
if not best:
    sys.exit(f"no candidate passed the check: {statuses}")

def find(node, key):  # the tensor pipes' share, wherever the record keeps its counters
    if isinstance(node, dict):
        if key in node: return node[key]
        node = list(node.values())
    if isinstance(node, list):
        for child in node:
            found = find(child, key)
            if found is not None: return found
    return None

tflops = best["perf"] / 1000
tensor = find(best, "tensor_pipe_pct")
params = " ".join(f"{k}={v}" for k, v in best["params"].items())
family = {0: "mma.sync", 1: "wgmma", 2: "wgmma, overlapped"}.get(best["params"].get("INSTR"), "?")  # the INSTR labels
print("| kernel | size | best configuration | best | cuBLAS bf16 (torch.mm, same run) | ratio | target | tensor pipes |")
print("|---|---|---|---|---|---|---|---|")
print(f"| gemm_bf16 ({family}) | {doc['size']} | {params} | {tflops:.1f} TFLOP/s | {cublas:.1f} TFLOP/s "
      f"| {100 * tflops / cublas:.1f}% | >= 70% | {'-' if tensor is None else f'{tensor:.0f}% busy'} |")
print(f"\ncandidates: {sum(statuses.values())} measured ({', '.join(f'{v} {k}' for k, v in sorted(statuses.items()))})")
PY
