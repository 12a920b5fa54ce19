#!/usr/bin/env bash
# What faults cost a sweep: a template of six candidates, one correct, one that faults (a write far
# outside any allocation), two that hang (spin on a flag never set), one that does not compile and
# one wrong, tuned with the default options (`tune faulty`, a fresh database and compile cache each
# run); the reference, in the same run, is the same template with only its correct, uncompilable
# and wrong candidates. Prints each run's wall time (this script's clock) and the candidates' statuses.
#
#   bench/bench_faults.sh [RUNS]     RUNS: default 3
#   TUNER=build/bin/tuner
set -uo pipefail
source "$(dirname "$0")/bench_common.sh"
BENCH_NAME=bench_faults
bench_positional_args "$@"
runs=${1:-3}
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || bench_usage "RUNS '$runs': expected a whole number of 1 or more"
T=$(realpath "${TUNER:-build/bin/tuner}")
bench_init bench_faults "$@"

write_template() {  # FOLDER VALUES
  mkdir -p "$1"
  cat >"$1/faulty.cu" <<'CU'
extern "C" __global__ void faulty(float* out, const float* in, int* flag, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
#if VARIANT == 1
  if (i == 0) *(volatile float*)(out - (1ll << 40)) = 1.0f;
#elif VARIANT == 2 || VARIANT == 5
  while (*(volatile int*)flag == 0) {}
#elif VARIANT == 3
  this does not compile;
#endif
  if (i < n) out[i] = in[i] * 2.0f + (VARIANT == 4 && i == 7 ? 1.0f : 0.0f);
}
CU
  cat >"$1/faulty.toml" <<TOML
name = "faulty"
kernel = "faulty"
[[size]]
name = "N"
default = 4096
[[param]]
name = "VARIANT"
values = [$2]
[launch]
grid = ["cdiv(N, 256)"]
block = [256]
[[arg]]
name = "out"
type = "float"
length = "N"
output = true
[[arg]]
name = "in"
type = "float"
length = "N"
init = "random"
[[arg]]
name = "flag"
type = "int"
length = 1
init = "zero"
[[arg]]
name = "n"
type = "int"
value = "N"
[check]
reference = "own_configuration"
params = { VARIANT = 0 }
[work]
bytes = "8 * N"
TOML
}

write_template "$work/faults" "0, 1, 2, 3, 4, 5"
write_template "$work/reference" "0, 3, 4"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1
for ((r = 1; r <= runs; r++)); do
  for what in faults reference; do
    start=$(date +%s.%N)
    XDG_CACHE_HOME=$work/cache-$what-$r "$T" tune faulty --templates "$work/$what" --json --db "$work/$what-$r.db" \
      >"$work/$what.json" 2>"$work/$what.err"
    rc=$?
    seconds=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
    statuses=$(python3 -c "
import json, sys
d = json.load(open('$work/$what.json'))
print(' '.join(f\"{c['params']['VARIANT']}:{c['status']}\" for c in sorted(d.get('candidates', []), key=lambda c: c['params']['VARIANT'])))")
    echo "run $r $what: exit $rc, $seconds s; $statuses"
    [ "$rc" -le 1 ] || { head -c 400 "$work/$what.err"; echo; }
  done
done
