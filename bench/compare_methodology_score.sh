#!/usr/bin/env bash
# Our methodology score (tuner simulate) beside the `autotuning-methodology` package's, on the same
# runs: each benchmark_hub Kernel Tuner cache named is imported (tuner import kernel-tuner-cache),
# replayed by our strategies (tuner simulate --orders), and the same runs, configuration by
# configuration, are scored by the package (its SearchspaceStatistics, RandomSearchCalculatedBaseline
# and StochasticOptimizationAlgorithm curve, with the paper's cutoff 0.96 and the package's default
# start 0.01 and resolution 10^4). The package draws its curve from a bagged ensemble (random) and
# charges each evaluation every time the cache records (compile, benchmark, framework, strategy,
# verification), where ours charges the compile time and the timed runs: small differences are expected.
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
  cache=$hub/cachefiles/$kernel/$gpu.json.gz
  [ -f "$cache" ] || cache=$hub/cachefiles/$kernel/$gpu.json
  if [ ! -f "$cache" ]; then
    echo "compare_methodology_score: no cache $hub/cachefiles/$kernel/$gpu.json[.gz]; skipping $space" >&2
    continue
  fi
  db=$work/$kernel-$gpu.db
  size=$("$tuner" import kernel-tuner-cache "$cache" --template "$kernel" --gpu-model "$gpu" --db "$db" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["size"])')
  "$tuner" simulate "$kernel" --size "$size" --db "$db" --strategy "$strategies" --runs "$runs" \
    --orders "$work/orders.jsonl" --json >"$work/ours.json"
  echo "== $space: $(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["sweeps"][0]; print(s["candidates"], "candidates,", s["ok"], "ok")' "$work/ours.json")"
  if ((have_package)); then
    mkdir -p "$work/caches/$kernel" "$work/visualizations"
    if [[ $cache == *.gz ]]; then gzip -dc "$cache" >"$work/caches/$kernel/$gpu.json"; else cp "$cache" "$work/caches/$kernel/$gpu.json"; fi
    "$venv/bin/python" bench/methodology_package_score.py "$work/caches" "$kernel" "$gpu" "$work/orders.jsonl" \
      "$work/ours.json" "$work/visualizations"
  else
    python3 -c 'import json,sys
for s in json.load(open(sys.argv[1]))["sweeps"][0]["strategies"]:
    print(f"{s[\"strategy\"]:<12} ours {s[\"methodology_score\"]:.3f}")' "$work/ours.json"
  fi
done
