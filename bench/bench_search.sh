#!/usr/bin/env bash
# Search strategies on a large stored sweep, as searching at scale meets them: the complete
# brute-force sweep of gemm_large on an H100 in bench/examples/ (12,064 candidates) is imported
# into a fresh database and replayed by `tuner simulate` (no GPU) with a budget of 5% of its
# candidates, 20 seeds per strategy. Prints, per strategy, how many seeds came within 5% of the
# optimum within the budget and the evaluations they needed (mean, median, range), and how long each
# ran before it stopped.
#
#   bench/bench_search.sh [--sweep bench/examples/gemm_large-h100.jsonl.xz] [--kernel gemm_large]
#                           [--runs 20] [--budget-percent 5] [--strategy all] [--tuner PATH]
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_search "$@"

tuner_path=build/bin/tuner sweep=bench/examples/gemm_large-h100.jsonl.xz kernel=gemm_large runs=20 percent=5 strategy=all
while (($#)); do
  case "$1" in
    --sweep) sweep=${2:?}; shift 2 ;;
    --kernel) kernel=${2:?}; shift 2 ;;
    --runs) runs=${2:?}; shift 2 ;;
    --budget-percent) percent=${2:?}; shift 2 ;;
    --strategy) strategy=${2:?}; shift 2 ;;
    --tuner) tuner_path=${2:?}; shift 2 ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
[ -f "$sweep" ] || bench_usage "--sweep '$sweep': no such file"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || bench_usage "--runs '$runs': expected a positive whole number"
[[ "$percent" =~ ^([1-9][0-9]?|100)$ ]] || bench_usage "--budget-percent '$percent': expected a whole number from 1 to 100"
bench_require_tuner "$tuner_path"

case "$sweep" in
  *.xz) xz -dc "$sweep" >"$work/sweep.jsonl" || bench_die "cannot decompress $sweep" ;;
  *) cp "$sweep" "$work/sweep.jsonl" ;;
esac
"$tuner" db import "$work/sweep.jsonl" --db "$work/sweep.db" >/dev/null || bench_die "importing $sweep failed"
candidates=$(python3 -c 'import sys; print(sum(1 for line in open(sys.argv[1]) if line.strip()))' "$work/sweep.jsonl")
budget=$((candidates * percent / 100))
((budget > 0)) || bench_die "$sweep holds too few candidates for a budget of $percent%"

bench_header
start=$(bench_now)
"$tuner" simulate "$kernel" --db "$work/sweep.db" --strategy "$strategy" --runs "$runs" --budget "$budget" --json \
  >"$work/simulate.json" || bench_die "tuner simulate $kernel failed"
seconds=$(bench_seconds "$start" "$(bench_now)")
python3 - "$work/simulate.json" "$budget" "$percent" "$seconds" <<'PY' || bench_die "the simulation's results cannot be read (see above)"
import json, sys
doc, budget, percent, seconds = json.load(open(sys.argv[1])), int(sys.argv[2]), sys.argv[3], sys.argv[4]
for sweep in doc["sweeps"]:
    print(f"{doc['kernel']} {doc['size']} on {sweep['gpu']['name']}: {sweep['candidates']} candidates, "
          f"{sweep['within_5pct']} within 5% of the optimum ({sweep['optimum']['time_ms']:.4f} ms); "
          f"budget {budget} evaluations ({percent}%), seeds {doc['seed']} to {doc['seed'] + doc['runs'] - 1}; "
          f"simulated in {seconds} s.\n")
    print("| strategy | seeds within 5% in the budget | evaluations to within 5%: mean | median | min – max | evaluations until it stopped (mean) |")
    print("|---|---|---|---|---|---|")
    fmt = lambda v, digits=1: "–" if v is None else (f"{v:.{digits}f}" if isinstance(v, float) else str(v))
    for s in sweep["strategies"]:
        e = s["evaluations_to_within_5pct"]
        spread = "–" if e["min"] is None else f"{e['min']} – {e['max']}"
        print(f"| {s['strategy']} | {s['reached']}/{s['runs']} | {fmt(e['mean'])} | {fmt(e['median'])} | {spread} | "
              f"{s['evaluations_mean']:.1f} |")
PY
