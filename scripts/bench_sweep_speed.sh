#!/usr/bin/env bash
# Sweep speed (issue 5): wall time of full sweeps, verification on, of the two baseline spaces of
# shared/MEASURED.md (bench/templates), first cold (nothing compiled or stored) and then again with
# everything cached and stored. Kernel Tuner 1.5.0 took 23.6 s and 67.0 s on the H100 for the same
# spaces (shared/MEASURED.md; it cannot be installed on the GPU machine, so its figures are quoted).
# Usage: scripts/bench_sweep_speed.sh [path/to/tuner]
set -euo pipefail
cd "$(dirname "$0")/.."
tuner=${1:-build/bin/tuner}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache

seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$@"; }

echo "| space | configs | cold wall s | warm wall s | best | Kernel Tuner 1.5.0 (H100) | speed-up |"
echo "|---|---|---|---|---|---|---|"
for entry in baseline_transpose:8192x8192:23.6 baseline_sgemm:4096:67.0; do
  IFS=: read -r name size peer <<<"$entry"
  args=(tune "$name" --size "$size" --templates bench/templates --db "$work/bench.db" --json)
  t0=$(date +%s.%N); "$tuner" "${args[@]}" >"$work/$name.json"; t1=$(date +%s.%N)
  "$tuner" "${args[@]}" >"$work/$name.warm.json"; t2=$(date +%s.%N)
  cold=$(seconds "$t0" "$t1"); warm=$(seconds "$t1" "$t2")
  python3 - "$work/$name.json" "$name" "$cold" "$warm" "$peer" <<'PY'
import json, sys
doc, name, cold, warm, peer = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
best = doc["best"]
params = " ".join(f"{k}={v}" for k, v in best["params"].items())
print(f"| {name} | {doc['candidates_total']} | {cold:.2f} | {warm:.2f} | {params}: {best['perf']:.0f} {best['perf_unit']} | {peer:.1f} s | {peer / cold:.1f}x |")
PY
done
