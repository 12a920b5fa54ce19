#!/usr/bin/env bash
# Tuned shipped kernels against references measured in the same run, each with the ratio it targets:
#   transpose 8192^2, reduction 2^28 and add_scale_bf16 2^27 (and every memory-bound template)
#   against the device-to-device cudaMemcpy bandwidth each sweep's worker measures (256 MiB, read +
#   written); add_scale_bf16's perf is its [work] bytes (x and y read, out written: 6 N) per second;
#   matmul 4096^3 against cuBLAS SGEMM (torch.mm, fp32, TF32 off, median of 20 after 5 warm-ups);
#   conv1d 2^24 x 100 taps against its naive variant (filter in global memory, one output per
#   thread: the simplest kernel, where the template starts), and against cuBLAS's FP32 rate.
# Every sweep measures every candidate in this run (--force), into a fresh database unless
# BENCH_DB=PATH names one to keep (its stored results of these kernels are then replaced). A
# reference that cannot be measured (PyTorch missing, no copy bandwidth, no naive conv1d) ends the
# script with exit 1: no ratio is printed against a missing reference.
#
#   bench/bench_kernels.sh [path/to/tuner] [kernel ...]     (default: transpose reduction add_scale_bf16 matmul conv1d)
#   BENCH_GPU=N selects the GPU (default 0).
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_kernels "$@"
bench_positional_args "$@"
bench_require_tuner "${1:-build/bin/tuner}"
shift || true
kernels=("$@")
((${#kernels[@]})) || kernels=(transpose reduction add_scale_bf16 matmul conv1d)
gpu=${BENCH_GPU:-0}
[[ "$gpu" =~ ^[0-9]+$ ]] || bench_usage "BENCH_GPU='$gpu': expected a GPU index"
bench_require_gpus $((gpu + 1))
export XDG_CACHE_HOME=$work/cache
db=$(bench_database kernels)

# cuBLAS SGEMM 4096^3 in GFLOP/s, for matmul and conv1d; exit 1 when it cannot be measured.
cublas_gflops=0
if [[ " ${kernels[*]} " == *" matmul "* || " ${kernels[*]} " == *" conv1d "* ]]; then
  cublas_gflops=$(bench_cublas_gflops "$gpu" float32 4096 2>"$work/cublas.log") \
    || bench_die "the cuBLAS reference (PyTorch torch.mm on GPU $gpu) could not be measured: $(tail -1 "$work/cublas.log")"
fi

bench_header
for kernel in "${kernels[@]}"; do
  start=$(bench_now)
  "$tuner" tune "$kernel" --strategy brute_force --gpu "$gpu" --force --db "$db" --json >"$work/$kernel.json" || bench_die "tuner tune $kernel failed"
  echo "$kernel: swept in $(bench_seconds "$start" "$(bench_now)") s" >&2
done

python3 - "$work" "$cublas_gflops" "${kernels[@]}" <<'PY' || bench_die "a reference is missing (see above)"
import json, sys
work, cublas = sys.argv[1], float(sys.argv[2])
TARGETS = {"transpose": ">= 95%", "reduction": ">= 90%", "add_scale_bf16": ">= 90%", "matmul": ">= 80%",
           "conv1d": ">= 3x"}

def against_copy(doc, perf):
    if doc["copy_gbps"] <= 0:
        sys.exit(f"{doc['kernel']}: the sweep measured no copy bandwidth")
    return f"cudaMemcpy D2D {doc['copy_gbps']:.0f} GB/s", f"{100 * perf / doc['copy_gbps']:.1f}%"

def against_naive_conv1d(doc, perf):
    ok = [c for c in doc["candidates"] if c["status"] == "ok" and c["params"].get("VARIANT") == 0]
    naive = [c["perf"] for c in ok if c["params"].get("OUTS") == 1]
    if not naive:
        sys.exit("conv1d: no naive candidate (VARIANT=0 OUTS=1) passed, so there is no reference")
    blocked = max(c["perf"] for c in ok)
    ref = (f"naive global filter, 1 output/thread {max(naive):.0f} GFLOP/s (global filter with register "
           f"blocking: {blocked:.0f}, {perf / blocked:.2f}x); {100 * perf / cublas:.1f}% of cuBLAS's FP32 rate")
    return ref, f"{perf / max(naive):.2f}x"

print("| kernel | size | best configuration | best | reference (same run) | ratio | target |")
print("|---|---|---|---|---|---|---|")
for kernel in sys.argv[3:]:
    doc = json.load(open(f"{work}/{kernel}.json"))
    best = doc["best"]
    params = " ".join(f"{k}={v}" for k, v in best["params"].items())
    perf, unit = best["perf"], best["perf_unit"]
    if unit == "GB/s":
        ref, ratio = against_copy(doc, perf)
    elif kernel == "matmul":
        ref, ratio = f"cuBLAS SGEMM {cublas:.0f} GFLOP/s", f"{100 * perf / cublas:.1f}%"
    elif kernel == "conv1d":
        ref, ratio = against_naive_conv1d(doc, perf)
    else:
        ref, ratio = "none", "-"
    print(f"| {kernel} | {doc['size']} | {params} | {perf:.1f} {unit} | {ref} | {ratio} | {TARGETS.get(kernel, '')} |")
PY
