#!/usr/bin/env bash
# Runs every GPU test binary of a build on this machine's GPU, none allowed to skip
# (TUNER_REQUIRE_GPU), the slow mutation tests in parallel shards; one log per binary in LOG_DIR.
# For a GPU machine that has the built binaries but not CMake's test files (ctest -L gpu needs them).
#   scripts/gpu_tests.sh [--build DIR] [--logs DIR] [--shards N]
set -uo pipefail
build=build logs=gpu-test-logs shards=4
while (($#)); do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    --shards) shards=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu_tests.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$logs"
export TUNER_REQUIRE_GPU=${TUNER_REQUIRE_GPU:-1}  # 2 on a node of two GPUs: the two-GPU tests may not skip either
failed=0
run() {  # NAME BINARY ARGS...: one binary, its log, its verdict
  local name=$1; shift
  local start=$SECONDS
  if "$@" >"$logs/$name.log" 2>&1; then echo "PASS $name ($((SECONDS - start)) s)"; return 0; fi
  echo "FAIL $name ($((SECONDS - start)) s): $logs/$name.log"
  grep -E "^\[  FAILED  \]|Failure|error" "$logs/$name.log" | head -20
  return 1
}
for binary in "$build"/bin/*_gpu_test; do
  name=$(basename "$binary")
  if [ "$name" = kernel_templates_gpu_test ]; then
    run "$name" "$binary" --gtest_filter='-*MutationGpu*' || failed=1
    pids=()
    for ((i = 0; i < shards; i++)); do
      GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
        run "mutation_shard_$i" "$binary" --gtest_filter='*MutationGpu*' &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  else
    run "$name" "$binary" || failed=1
  fi
done
exit $failed
