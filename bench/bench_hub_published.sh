#!/usr/bin/env bash
# benchmark_hub's four kernels tuned on this GPU as a user would: each T1 description imported
# (`tuner import t1`), then the few lines the user changes in the imported description where the
# published file is inconsistent (never the kernel), then `tuner tune` with the default strategy,
# a fresh database and compile cache each. Prints, per kernel: exit code, wall time, candidates by
# status, the most common failure reasons, the best configuration.
#
#   bench/bench_hub_published.sh BENCHMARK_HUB_KERNELS [SECONDS]
#     BENCHMARK_HUB_KERNELS  the kernels/ folder of github.com/AutoTuningAssociation/benchmark_hub
#     SECONDS                --budget-seconds of each tune (default 90)
#   TUNER=build/bin/tuner; OUT=folder for each tune's JSON and stderr (default: a temporary one)
#
# What the user changes, and why (kernel_templates/README.md, "benchmark_hub's descriptions"):
#   hotspot       --output-depends-on temporal_tiling_factor (the number of time steps the kernel
#                 computes), and `temp` 4116*4116 floats: the kernel reads a halo of max_tfactor = 10
#                 around the 4096x4096 grid, the T1 file gives 4096*4096 (reads past the end); run
#                 again without the option (hotspot_unsaid), where the sweep should stop and name it
#   dedispersion  --kernel-file dedisp_milo/dedispersion.cu (the T1 file names the HIP port); the
#                 kernel takes `shifts` as a pointer (T1 says constant memory) of nr_channels = 1536
#                 floats and `input` as unsigned char, 1536 * (25000 + 650) of them (T1: 1 float)
#   gemm          a description of the user's own (the T1 file's Arguments are hotspot's and its
#                 kernel is five OpenCL files that Kernel Tuner's script joins): a .cu that includes
#                 them behind their CUDA header, with a double-precision reference kernel
set -uo pipefail
source "$(dirname "$0")/bench_common.sh"
BENCH_NAME=bench_hub_published  # for the refusals before bench_init
bench_positional_args "$@"
[ $# -ge 1 ] && [ -d "$1" ] || bench_usage "BENCHMARK_HUB_KERNELS missing or not a folder"
hub=$(cd "$1" && pwd)
seconds=${2:-90}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || bench_usage "SECONDS '$seconds': expected a whole number"
T=$(realpath "${TUNER:-build/bin/tuner}")
bench_init bench_hub_published "$@"
w=$work
out=${OUT:-$w}

summary() {  # NAME JSON DB: from the tune's document, or from the store when the sweep stopped on an error
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys, collections, sqlite3, os
name, path, db = sys.argv[1:4]
try:
    d = json.load(open(path))
except Exception as e:
    print(f"  no document ({e})"); sys.exit()
c = d.get("candidates", [])
if not c and os.path.exists(db):
    rows = sqlite3.connect(db).execute("SELECT params_json, status, reason FROM measurements").fetchall()
    c = [{"params": json.loads(p), "status": s, "reason": r} for p, s, r in rows]
    print(f"  (the sweep stopped: {len(c)} candidates stored before it did)")
by = collections.Counter(x["status"] for x in c)
best = d.get("best") or {}
t = d.get("time", {})
print(f"  {len(c)} candidates {dict(by)}; best {best.get('params')} {best.get('time_ms')} ms; "
      f"tool's wall {t.get('wall_s')} s, compile {t.get('compile_s')} s, gpu {t.get('gpu_s')} s")
reasons = collections.Counter(x.get("reason", "")[:300] for x in c if x["status"] != "ok")
for r, n in reasons.most_common(4): print(f"   {n} x {r}")
PY
}

tune() {  # NAME TEMPLATE_DIR
  local name=$1 dir=$2 start rc
  start=$(date +%s.%N)
  XDG_CACHE_HOME=$w/cache-$name "$T" tune "$name" --templates "$dir" --budget-seconds "$seconds" --json \
    --db "$w/$name.db" >"$out/$name.json" 2>"$out/$name.err"
  rc=$?
  echo "== $name: exit $rc, $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
  grep -v '^\s*$' "$out/$name.err" | tail -3 | cut -c1-400
  summary "$name" "$out/$name.json" "$w/$name.db"
}

edit() {  # FILE PYTHON: the description's lines the user changes
  python3 - "$1" "$2" <<'PY'
import re, sys
path, code = sys.argv[1], sys.argv[2]
text = open(path).read()
exec(code)
open(path, "w").write(text)
PY
}

"$T" import t1 "$hub/convolution_milo.json" --output "$w/convolution" >/dev/null
tune convolution_milo "$w/convolution"

"$T" import t1 "$hub/hotspot_milo.json" --output-depends-on temporal_tiling_factor --output "$w/hotspot" >/dev/null
edit "$w/hotspot/hotspot.toml" \
  'text = text.replace("name = \"temp\"\ntype = \"float\"\nlength = \"16777216\"", "name = \"temp\"\ntype = \"float\"\nlength = \"4116 * 4116\"")'
tune hotspot "$w/hotspot"

# The same without --output-depends-on: the sweep should stop within its first candidates and name
# temporal_tiling_factor.
"$T" import t1 "$hub/hotspot_milo.json" --name hotspot_unsaid --output "$w/hotspot_unsaid" >/dev/null
edit "$w/hotspot_unsaid/hotspot_unsaid.toml" \
  'text = text.replace("name = \"temp\"\ntype = \"float\"\nlength = \"16777216\"", "name = \"temp\"\ntype = \"float\"\nlength = \"4116 * 4116\"")'
tune hotspot_unsaid "$w/hotspot_unsaid"

"$T" import t1 "$hub/dedispersion_milo.json" --kernel-file "$hub/dedisp_milo/dedispersion.cu" \
  --output "$w/dedispersion" >/dev/null
edit "$w/dedispersion/dedispersion_milo.toml" '
text = text.replace("name = \"input_samples\"\ntype = \"float\"\nlength = \"1\"",
                    "name = \"input_samples\"\ntype = \"uint8\"\nlength = \"1536 * (25000 + 650)\"")
text = text.replace("name = \"shifts\"\ntype = \"float\"\nlength = \"1\"", "name = \"shifts\"\ntype = \"float\"\nlength = \"1536\"")
text = re.sub(r"\[\[symbol\]\]\nname = \"shifts\"\nfrom = \"shifts\"\n", "", text)'
tune dedispersion_milo "$w/dedispersion"

mkdir -p "$w/gemm"
cat >"$w/gemm/gemm.cu" <<'CU'
// benchmark_hub's GEMM (CLBlast's Xgemm, OpenCL made CUDA by CLTune's header), joined as Kernel
// Tuner's script joins it, and a reference of our own: C = alpha * A * B + beta * C, column-major
// A[k*M + m], B[k*N + n], C[n*M + m], the products summed in double.
#include "cl_to_cuda.h"
#include "common.opencl"
#include "xgemm_part1.opencl"
#include "xgemm_part2.opencl"
#include "xgemm_part3.opencl"
#include "xgemm_part4.opencl"

extern "C" __global__ void gemm_reference(int M, int N, int K, float alpha, float beta, const float* A,
                                          const float* B, float* C, int, int) {
  const int m = blockIdx.x * blockDim.x + threadIdx.x, n = blockIdx.y * blockDim.y + threadIdx.y;
  if (m >= M || n >= N) return;
  double sum = 0;
  for (int k = 0; k < K; ++k) sum += static_cast<double>(A[k * M + m]) * B[k * N + n];
  C[n * M + m] = static_cast<float>(alpha * sum + beta * C[n * M + m]);
}
CU
cat >"$w/gemm/gemm.toml" <<TOML
name = "gemm"
summary = "benchmark_hub's GEMM (CLBlast Xgemm), its T1 space (searchspace_set 2)"
kernel = "Xgemm"
options = ["-I$hub/gemm_milo"]
constraints = [
  "KWG % KWI == 0",
  "MWG % (MDIMC * VWM) == 0",
  "NWG % (NDIMC * VWN) == 0",
  "MWG % (MDIMA * VWM) == 0",
  "NWG % (NDIMB * VWN) == 0",
  "KWG % ((MDIMC * NDIMC) / MDIMA) == 0",
  "KWG % ((MDIMC * NDIMC) / NDIMB) == 0",
  "MWG != 128 || NWG != 128 || MDIMC != 8 || NDIMC != 8",
]
[[size]]
name = "M"
default = 4096
[[size]]
name = "N"
default = 4096
[[size]]
name = "K"
default = 4096
[[param]]
name = "GEMMK"
values = [0]
[[param]]
name = "MWG"
values = [16, 32, 64, 128]
[[param]]
name = "NWG"
values = [16, 32, 64, 128]
[[param]]
name = "KWG"
values = [16, 32]
[[param]]
name = "MDIMC"
values = [8, 16, 32]
[[param]]
name = "NDIMC"
values = [8, 16, 32]
[[param]]
name = "MDIMA"
values = [8, 16, 32]
[[param]]
name = "NDIMB"
values = [8, 16, 32]
[[param]]
name = "KWI"
values = [2]
[[param]]
name = "VWM"
values = [1, 2, 4, 8]
[[param]]
name = "VWN"
values = [1, 2, 4, 8]
[[param]]
name = "STRM"
values = [0, 1]
[[param]]
name = "STRN"
values = [0, 1]
[[param]]
name = "SA"
values = [0, 1]
[[param]]
name = "SB"
values = [0, 1]
[[param]]
name = "KREG"
values = [1]
[[param]]
name = "PRECISION"
values = [32]
[launch]
grid = ["M / MWG", "N / NWG"]
block = ["MDIMC", "NDIMC"]
[[arg]]
name = "kSizeM"
type = "int"
value = "M"
[[arg]]
name = "kSizeN"
type = "int"
value = "N"
[[arg]]
name = "kSizeK"
type = "int"
value = "K"
[[arg]]
name = "alpha"
type = "float"
value = "1"
[[arg]]
name = "beta"
type = "float"
value = "1"
[[arg]]
name = "A"
type = "float"
length = "M * K"
init = "random"
[[arg]]
name = "B"
type = "float"
length = "K * N"
init = "random"
[[arg]]
name = "C"
type = "float"
length = "M * N"
init = "zero"
output = true
accumulate = true          # beta = 1: the kernel adds into C, which starts at zero
[[arg]]
name = "b_offset"
type = "int"
value = "0"
[[arg]]
name = "c_offset"
type = "int"
value = "0"
[check]
kernel = "gemm_reference"
grid = ["cdiv(M, 16)", "cdiv(N, 16)"]
block = ["16", "16"]
atol = "2^-22 * K"
rtol = 0.0
[work]
flops = "2 * M * N * K"
bytes = "4 * (M * K + K * N + M * N)"
TOML
tune gemm "$w/gemm"
