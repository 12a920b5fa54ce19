#!/usr/bin/env bash
# Sweep speed against Kernel Tuner 1.5.0, side by side in one run on one GPU: full sweeps,
# every output verified, of the baseline spaces in bench/templates (transpose 8192x8192, 20
# configurations; SGEMM 4096, 135), each by
#   tuner, cold:  an empty compile cache and a fresh database;
#   tuner, warm:  the compile cache the cold run filled and another fresh database, so every
#                 candidate is checked and timed again and only compiling is saved;
#   Kernel Tuner: bench/kernel_tuner_baseline.py on the same source, values and constraints (CuPy
#                 backend, brute force, 7 iterations, output verified) with an empty CuPy kernel
#                 cache; the wall time of tune_kernel alone (its import is given apart).
# Each tool's best is shown as that tool timed it, and Kernel Tuner's pick also as tuner timed it in
# the cold run, so that the two picks are compared by one method.
#
# Kernel Tuner 1.5.0 is used when importable, else installed from the wheels in --wheels (default
# .whl; bench/fetch_kernel_tuner_wheels.sh fetches them where the network is). When it cannot be
# run the script fails, unless --quote-kernel-tuner: then its columns show the times recorded on
# an H100 on 2026-11-22, marked as quoted, not measured.
#
#   bench/bench_sweep_speed.sh [--tuner PATH] [--gpu N] [--wheels DIR] [--quote-kernel-tuner]
#                                [--counters MODE] [--json-dir DIR]
# --counters is passed to tuner tune (default off: Kernel Tuner reads no hardware counters and no
# energy, so like is compared with like; `winner`, tune's default, adds the hardware pass, which
# bench/bench_counters.sh measures). --json-dir keeps every run's JSON output. Exit 1 when anything could not be measured.
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_sweep_speed "$@"

tuner_path=build/bin/tuner gpu=0 wheels=.whl quote=0 json_dir="" counters=off
while (($#)); do
  case "$1" in
    --tuner) tuner_path=${2:?}; shift 2 ;;
    --gpu) gpu=${2:?}; shift 2 ;;
    --wheels) wheels=${2:?}; shift 2 ;;
    --quote-kernel-tuner) quote=1; shift ;;
    --json-dir) json_dir=${2:?}; shift 2 ;;
    --counters) counters=${2:?}; shift 2 ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
[[ "$gpu" =~ ^[0-9]+$ ]] || bench_usage "--gpu '$gpu': expected a GPU index"
bench_require_tuner "$tuner_path"
bench_require_gpus $((gpu + 1))

# Kernel Tuner 1.5.0 and CuPy importable, from the system or from the wheels; else exit 1.
setup_kernel_tuner() {
  local check='import cupy, kernel_tuner
from importlib.metadata import version
assert version("kernel_tuner") == "1.5.0", "kernel_tuner " + version("kernel_tuner") + ", not 1.5.0"'
  python3 -c "$check" 2>/dev/null && return
  compgen -G "$wheels/*.whl" >/dev/null ||
    bench_die "Kernel Tuner 1.5.0 is not importable and '$wheels' holds no wheels: run bench/fetch_kernel_tuner_wheels.sh where the network is and carry .whl here (or pass --quote-kernel-tuner)"
  if python3 -m pip --version >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --target "$work/kernel_tuner" "$wheels"/*.whl >"$work/pip.log" 2>&1 ||
      bench_die "installing the wheels of '$wheels' for $(python3 -V) failed: $(grep -v WARNING "$work/pip.log" | tail -3)"
  else  # no pip: a wheel is a zip of the files to import (the import check below says if they fit)
    for wheel in "$wheels"/*.whl; do python3 -m zipfile -e "$wheel" "$work/kernel_tuner"; done
  fi
  export PYTHONPATH="$work/kernel_tuner${PYTHONPATH:+:$PYTHONPATH}"
  python3 -c "$check" 2>"$work/import.log" || bench_die "Kernel Tuner 1.5.0 does not run here: $(tail -1 "$work/import.log")"
}
((quote)) || setup_kernel_tuner
bench_header

# tune SPACE SIZE RUN: one sweep into a fresh database with the space's cache; prints its wall time.
tune() {
  local start end
  start=$(bench_now)
  XDG_CACHE_HOME="$work/cache-$1" "$tuner" tune "baseline_$1" --strategy brute_force --size "$2" --gpu "$gpu" --templates bench/templates \
    --counters "$counters" --db "$work/$1-$3.db" --json >"$work/$1-$3.json" || bench_die "tuner tune baseline_$1 ($3) failed"
  end=$(bench_now)
  bench_seconds "$start" "$end"
}

echo "| space | configs (tuner / Kernel Tuner) | tuner cold | tuner warm | tuner's best | Kernel Tuner 1.5.0 | Kernel Tuner's best, its timing | the same, timed by tuner | speed-up cold / warm |"
echo "|---|---|---|---|---|---|---|---|---|"
for entry in transpose:8192x8192 sgemm:4096; do
  IFS=: read -r space size <<<"$entry"
  cold=$(tune "$space" "$size" cold)
  warm=$(tune "$space" "$size" warm)
  if ((quote)); then
    echo '{"quoted": true}' >"$work/$space-kt.json"
  else
    CUPY_CACHE_DIR="$work/cupy-$space" python3 bench/kernel_tuner_baseline.py "$space" --size "$size" --gpu "$gpu" \
      >"$work/$space-kt.json" 2>"$work/$space-kt.log" ||
      bench_die "Kernel Tuner failed on $space: $(grep -v Warning "$work/$space-kt.log" | tail -3)"
  fi
  python3 - "$work" "$space" "$cold" "$warm" <<'PY' || bench_die "the results of $space do not add up (see above)"
import json, sys
work, space, cold, warm = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
load = lambda run: json.load(open(f"{work}/{space}-{run}.json"))
tuner_cold, tuner_warm, kt = load("cold"), load("warm"), load("kt")
# Quoted only on request: Kernel Tuner 1.5.0 on the H100, 2026-11-22 (not measured in this run).
QUOTED = {"transpose": (20, 23.6, "TILE=64 PAD=1 ROWS=4: 2564 GB/s"), "sgemm": (135, 67.0, "BM=128 BN=128 TM=8 TN=8 BK=16: 27.8 TFLOP/s")}
total = tuner_cold["candidates_total"]
for run, doc in (("cold", tuner_cold), ("warm", tuner_warm)):
    if doc["measured_now"] != total or doc["best"] is None:
        sys.exit(f"tuner {run} run of {space} measured {doc['measured_now']} of {total} candidates")
def params_text(params):
    return " ".join(f"{k}={v}" for k, v in params.items())
def perf_text(perf, unit):
    return f"{perf / 1000:.2f} TFLOP/s" if unit == "GFLOP/s" else f"{perf:.0f} {unit}"
best = tuner_cold["best"]
tuner_best = f"{params_text(best['params'])}: {perf_text(best['perf'], best['perf_unit'])}"
if kt.get("quoted"):
    kt_configs, kt_wall, kt_best = QUOTED[space]
    configs = f"{total} / {kt_configs} (quoted)"
    kt_cell, kt_best_cell, kt_by_tuner = f"{kt_wall:.1f} s (quoted, H100, not measured in this run)", kt_best + " (quoted)", "-"
    against = " (against the quoted time)"
else:
    if kt["configs_timed"] != total:
        sys.exit(f"Kernel Tuner timed {kt['configs_timed']} of {kt['configs']} configurations of {space}; tuner has {total}")
    kt_wall, pick, against = kt["wall_s"], kt["best"], ""
    configs = f"{total} / {kt['configs']}"
    kt_cell = f"{kt_wall:.1f} s (+{kt['import_s']:.1f} s import)"
    kt_best_cell = f"{params_text(pick['params'])}: {perf_text(pick['perf'], pick['perf_unit'])}"
    same = [c for c in tuner_cold["candidates"] if all(c["params"].get(k) == v for k, v in pick["params"].items())]
    if len(same) != 1 or same[0]["status"] != "ok":
        sys.exit(f"Kernel Tuner's pick {pick['params']} is not an ok candidate of tuner's sweep")
    kt_by_tuner = perf_text(same[0]["perf"], same[0]["perf_unit"]) + (" (the same)" if same[0]["params"] == best["params"] else "")
print(f"| baseline_{space} {tuner_cold['size']} | {configs} | **{cold:.2f} s** | **{warm:.2f} s** | {tuner_best} | {kt_cell} | "
      f"{kt_best_cell} | {kt_by_tuner} | {kt_wall / cold:.1f}x / {kt_wall / warm:.1f}x{against} |")
PY
  [ -z "$json_dir" ] || { mkdir -p "$json_dir" && cp "$work/$space"-*.json "$json_dir"/; }
done
echo
echo "tuner ran with --counters $counters."
((quote)) || python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("\nKernel Tuner {version} with CuPy {cupy} on {device}, {iterations} iterations per configuration.".format(**d))' "$work/sgemm-kt.json"
