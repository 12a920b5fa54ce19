#!/usr/bin/env bash
# Our methodology score (tuner simulate) beside the `autotuning-methodology` package's (PyPI, 1.1.0),
# on the same runs: each benchmark_hub space named (its T4 file, KERNEL/GPU_T4.json.gz) is imported
# (tuner import t4), replayed by our strategies (tuner simulate --orders), and the same runs,
# configuration by configuration, are scored by the package (SearchspaceStatistics,
# RandomSearchCalculatedBaseline, StochasticOptimizationAlgorithm, with its default settings: cutoff
# 0.95, start 0.01, resolution 1000, every time key). The package fits its curve with a bagged
# ensemble (random), and charges each evaluation the framework's time too (about 2 ms a
# configuration) where ours charges the compile time and the timed runs: small differences are expected.
#
#   bench/compare_methodology_score.sh BENCHMARK_HUB [SPACE...]
#     BENCHMARK_HUB  a checkout of github.com/AutoTuningAssociation/benchmark_hub (its cachefiles/)
#     SPACE          kernel/GPU pairs, default convolution_milo/A100 dedispersion_milo/A100
#   RUNS=20 STRATEGIES=random,annealing,genetic,bayesian TUNER=build/bin/tuner
#   METHODOLOGY_VENV=~/.cache/tuner/methodology-venv (created with pip when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ ! -d "$1/cachefiles" ]; then
  echo "usage: $0 BENCHMARK_HUB [kernel/GPU ...]  (BENCHMARK_HUB: a benchmark_hub checkout with cachefiles/)" >&2
  exit 2
fi
hub=$1
shift
spaces=("$@")
((${#spaces[@]})) || spaces=(convolution_milo/A100 dedispersion_milo/A100)
tuner=${TUNER:-build/bin/tuner}
runs=${RUNS:-20}
strategies=${STRATEGIES:-random,annealing,genetic,bayesian}
venv=${METHODOLOGY_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/tuner/methodology-venv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

have_package=1
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import autotuning_methodology' 2>/dev/null; then
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q autotuning-methodology; } >"$work/pip.log" 2>&1; then
    have_package=0
    echo "compare_methodology_score: the autotuning-methodology package could not be installed into $venv" \
      "(no network or no pip; see below); printing our scores only" >&2
    tail -3 "$work/pip.log" >&2
  fi
fi

for space in "${spaces[@]}"; do
  kernel=${space%/*}
  gpu=${space#*/}
  t4=$hub/cachefiles/$kernel/${gpu}_T4.json.gz
  [ -f "$t4" ] || t4=$hub/cachefiles/$kernel/${gpu}_T4.json
  if [ ! -f "$t4" ]; then
    echo "compare_methodology_score: no T4 file $hub/cachefiles/$kernel/${gpu}_T4.json[.gz]; skipping $space" >&2
    continue
  fi
  db=$work/$kernel-$gpu.db
  "$tuner" import t4 "$t4" --template "$kernel" --gpu-model "$gpu" --size 1 --db "$db" >/dev/null 2>&1
  "$tuner" simulate "$kernel" --size 1 --db "$db" --strategy "$strategies" --runs "$runs" \
    --orders "$work/orders.jsonl" --json >"$work/ours.json" 2>"$work/simulate.log" || {
    cat "$work/simulate.log" >&2
    exit 1
  }
  echo "== $space: $(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["sweeps"][0]; print(s["candidates"], "candidates,", s["ok"], "ok")' "$work/ours.json")"
  if ((have_package)); then
    mkdir -p "$work/run"
    if [[ $t4 == *.gz ]]; then gzip -dc "$t4" >"$work/space_T4.json"; else cp "$t4" "$work/space_T4.json"; fi
    "$venv/bin/python" bench/methodology_package_score.py "$work/space_T4.json" "$kernel" "$gpu" "$work/orders.jsonl" \
      "$work/ours.json" "$work/run"
  else
    python3 -c 'import json,sys
for s in json.load(open(sys.argv[1]))["sweeps"][0]["strategies"]:
    print(f"{s[\"strategy\"]:<12} ours {s[\"methodology_score\"]:.3f}")' "$work/ours.json"
  fi
done
