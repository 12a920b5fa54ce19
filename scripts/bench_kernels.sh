#!/usr/bin/env bash
# Tuned shipped kernels against references measured in the same run (issue 3 targets):
#   transpose 8192^2 and reduction 2^28 against device-to-device cudaMemcpy bandwidth,
#   matmul 4096^3 against cuBLAS SGEMM (fp32, TF32 off, through PyTorch where present),
#   conv1d 2^24 x 100 taps against its naive global-memory-filter variant.
#   The naive conv1d is the seeds' kernel: filter in global memory, one output per thread.
# Usage: scripts/bench_kernels.sh [path/to/tuner] [kernel ...]; BENCH_DB=path keeps the database.
set -euo pipefail
cd "$(dirname "$0")/.."
tuner=${1:-build/bin/tuner}
shift || true
kernels=("${@:-transpose reduction matmul conv1d}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache
db=${BENCH_DB:-$work/bench.db}

cublas_gflops=$(python3 - <<'PY' 2>/dev/null || echo 0
import torch
torch.backends.cuda.matmul.allow_tf32 = False
a = torch.rand(4096, 4096, device="cuda"); b = torch.rand(4096, 4096, device="cuda")
for _ in range(5): torch.mm(a, b)
start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
times = []
for _ in range(20):
    start.record(); torch.mm(a, b); stop.record(); torch.cuda.synchronize(); times.append(start.elapsed_time(stop))
times.sort()
print(2 * 4096**3 / (times[len(times) // 2] * 1e6))
PY
)

for kernel in ${kernels[*]}; do
  start=$(date +%s)
  "$tuner" tune "$kernel" --db "$db" --json >"$work/$kernel.json"
  echo "$kernel: swept in $(( $(date +%s) - start )) s" >&2
done

python3 - "$work" "$cublas_gflops" ${kernels[*]} <<'PY'
import json, sys
work, cublas = sys.argv[1], float(sys.argv[2])
print("| kernel | size | best configuration | best | reference (same run) | ratio | target |")
print("|---|---|---|---|---|---|---|")
for kernel in sys.argv[3:]:
    doc = json.load(open(f"{work}/{kernel}.json"))
    best = doc["best"]
    if best is None:
        print(f"| {kernel} | {doc['size']} | no candidate passed | | | | |"); continue
    params = " ".join(f"{k}={v}" for k, v in best["params"].items())
    perf, unit = best["perf"], best["perf_unit"]
    ref, target = "", ""
    if unit == "GB/s":
        copy = doc["copy_gbps"]
        ref, ratio = f"cudaMemcpy D2D {copy:.0f} GB/s", perf / copy
        target = {"transpose": ">= 95%", "reduction": ">= 90%"}.get(kernel, "")
    elif kernel == "matmul":
        ref, ratio, target = (f"cuBLAS SGEMM {cublas:.0f} GFLOP/s", perf / cublas, ">= 80%") if cublas else ("cuBLAS not measured", 0, ">= 80%")
    elif kernel == "conv1d":
        ok = [c for c in doc["candidates"] if c["status"] == "ok" and c["params"].get("VARIANT") == 0]
        naive = [c["perf"] for c in ok if c["params"].get("OUTS") == 1]
        naive_best = max(naive) if naive else 0
        blocked = max((c["perf"] for c in ok), default=0)
        ref, ratio, target = f"naive global filter, 1 output/thread {naive_best:.0f} GFLOP/s", perf / naive_best if naive_best else 0, ">= 3x"
        ref += f" (global filter with register blocking: {blocked:.0f}, {perf / blocked:.2f}x)" if blocked else ""
        if cublas: ref += f"; {100 * perf / cublas:.1f}% of cuBLAS's FP32 rate"
    else:
        ratio = 0
    shown = f"{ratio:.2f}x" if kernel == "conv1d" else f"{100 * ratio:.1f}%"
    print(f"| {kernel} | {doc['size']} | {params} | {perf:.1f} {unit} | {ref} | {shown} | {target} |")
PY
