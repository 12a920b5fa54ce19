# Shared by the benchmark scripts (sourced, not run): the repository root, a scratch folder removed
# on exit, the tuner binary, the GPU check, wall-clock timing, the provenance header every table
# starts with, and failing loudly. Needs bash and python3 (no jq: GPU nodes may lack it).

# bench_init NAME "$@": cd to the repository root and make $work (removed on exit); NAME starts
# messages, and the command line is kept for the header.
bench_init() {
  BENCH_NAME=$1
  shift
  BENCH_COMMAND="$0${*:+ $*}"
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  BENCH_ROOT=$(pwd)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

# The work could not be done, or a reference could not be measured: exit 1.
bench_die() {
  echo "$BENCH_NAME: $*" >&2
  exit 1
}

# Bad usage: exit 2, nothing run.
bench_usage() {
  echo "$BENCH_NAME: $* (see --help)" >&2
  exit 2
}

# Prints the comment block at the top of the calling script (its usage).
bench_help() {
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

# bench_positional_args "$@": for the scripts whose arguments are all positional: --help prints the
# usage, any other option is refused (exit 2) rather than taken for a path.
bench_positional_args() {
  case "${1:-}" in
    -h|--help) bench_help; exit 0 ;;
    -*) bench_usage "unknown option '$1'" ;;
  esac
}

# bench_require_tuner PATH: the binary must exist; sets $tuner to its absolute path.
bench_require_tuner() {
  [ -x "$1" ] || bench_usage "no tuner binary at '$1' (build it with scripts/build.sh, or pass its path)"
  tuner=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
}

# bench_require_gpus N: at least N GPUs must be usable, else exit 1 saying what `tuner devices` found.
# Sets $gpu_count and $gpu_names (one line per GPU: "INDEX NAME").
bench_require_gpus() {
  local found
  found=$("$tuner" devices --json) || bench_die "'tuner devices' failed"
  gpu_count=$(python3 -c 'import json, sys; print(len(json.load(sys.stdin)["gpus"]))' <<<"$found")
  gpu_names=$(python3 -c 'import json, sys
for g in json.load(sys.stdin)["gpus"]: print(g["index"], g["name"])' <<<"$found")
  if ((gpu_count < $1)); then
    local problem
    problem=$(python3 -c 'import json, sys; print(json.load(sys.stdin).get("problem") or "")' <<<"$found")
    bench_die "needs $1 GPU(s); 'tuner devices' found $gpu_count${problem:+ ($problem)}${gpu_names:+: $gpu_names}"
  fi
}

bench_now() { date +%s.%N; }

# bench_seconds START END: the difference, two decimals.
bench_seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$2"; }

# bench_header: where and when the table below was measured, and how to measure it again.
bench_header() {
  # TUNER_COMMIT: where the checkout travelled without its git history (a copy on a GPU node).
  local commit=${TUNER_COMMIT:-}
  if [ -z "$commit" ]; then
    commit=$(git -C "$BENCH_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
    git -C "$BENCH_ROOT" diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
  fi
  local gpus=${gpu_names:-no GPU used}
  echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname) (${gpus//$'\n'/, }); tuner at commit $commit."
  echo "Command: $BENCH_COMMAND"
  echo
}

# bench_database NAME: $BENCH_DB when given (the caller's, kept), else a fresh file in $work.
bench_database() { echo "${BENCH_DB:-$work/$1.db}"; }

# bench_sweep_options "$@": the options of the scripts that tune one kernel on several GPUs
# ([--tuner PATH] [--kernel matmul] [--size S] [--json-dir DIR]); sets $tuner, $kernel, $size_args,
# $json_dir, needs two GPUs, and keeps the compile cache in $work.
bench_sweep_options() {
  local tuner_path=build/bin/tuner size=""
  kernel=matmul json_dir=""
  while (($#)); do
    case "$1" in
      --tuner) tuner_path=${2:?}; shift 2 ;;
      --kernel) kernel=${2:?}; shift 2 ;;
      --size) size=${2:?}; shift 2 ;;
      --json-dir) json_dir=${2:?}; shift 2 ;;
      -h|--help) bench_help; exit 0 ;;
      *) bench_usage "unknown argument '$1'" ;;
    esac
  done
  bench_require_tuner "$tuner_path"
  bench_require_gpus 2
  export XDG_CACHE_HOME=$work/cache
  size_args=()
  [ -z "$size" ] || size_args=(--size "$size")
}

# bench_cublas_gflops GPU DTYPE N: cuBLAS's rate for an N^3 matrix product as PyTorch calls it
# (torch.mm on CUDA tensors of DTYPE, float32 with TF32 off, or bfloat16 with fp32 accumulation;
# inputs uniform in [-1, 1)), in GFLOP/s of 2 N^3: the median of 20 after 5 warm-ups, CUDA events.
# Fails (with PyTorch's message on stderr) where it cannot be measured.
bench_cublas_gflops() {
  CUDA_VISIBLE_DEVICES=$1 python3 - "$2" "$3" <<'PY'
import sys, torch
dtype, n = getattr(torch, sys.argv[1]), int(sys.argv[2])
torch.backends.cuda.matmul.allow_tf32 = False
a = (torch.rand(n, n, device="cuda") * 2 - 1).to(dtype)
b = (torch.rand(n, n, device="cuda") * 2 - 1).to(dtype)
for _ in range(5): torch.mm(a, b)
start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
times = []
for _ in range(20):
    start.record(); torch.mm(a, b); stop.record(); torch.cuda.synchronize(); times.append(start.elapsed_time(stop))
times.sort()
print(2 * n**3 / (times[len(times) // 2] * 1e6))
PY
}

# bench_gpu_model CACHE: the GPU model a Kernel Tuner cache names (its device_name), else its file's
# name (MI250X.json.gz: "MI250X").
bench_gpu_model() {
  python3 -c 'import gzip, json, os, sys
print(json.load(gzip.open(sys.argv[1])).get("device_name") or os.path.basename(sys.argv[1]).removesuffix(".json.gz"))' "$1"
}

# bench_import_hub BENCHMARK_HUB KERNEL DIR: benchmark_hub's T1 file of KERNEL imported as a
# template into DIR/templates (tuner import t1) and every GPU's Kernel Tuner cache of it into
# DIR/hub.db, each as a sweep of the GPU model the cache names (bench_gpu_model). A cache of another
# version of the space (A6000_original lacks a parameter) is left out, and said.
bench_import_hub() {
  local hub=$1 kernel=$2 dir=$3 cache
  mkdir -p "$dir"
  "$tuner" import t1 "$hub/kernels/$kernel.json" -o "$dir/templates" >/dev/null 2>&1 ||
    bench_die "tuner import t1 $hub/kernels/$kernel.json failed"
  for cache in "$hub/cachefiles/$kernel"/*.json.gz; do
    [[ $cache == *_T4.json.gz ]] && continue
    "$tuner" import kernel-tuner-cache "$cache" --template "$kernel" --templates "$dir/templates" \
      --gpu-model "$(bench_gpu_model "$cache")" --db "$dir/hub.db" >/dev/null 2>"$dir/import.err" ||
      echo "$BENCH_NAME: $cache left out: $(tail -1 "$dir/import.err")" >&2
  done
}
