#!/usr/bin/env bash
# The application library's cost, which an application pays at start and per launch:
# TunedConfigs::Open, the first lookup of a kernel and repeated lookups, on a synthetic database of
# 30,720 measurements (db/synthetic_database.h). Open and first lookup are timed in fresh processes,
# as an application meets them; wall time, and CPU time, which a busy machine inflates less. CPU
# only: no GPU needed.
# Usage: bench/bench_lookup.sh [build-dir] [fresh processes] [repeated lookups]
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_lookup "$@"
bench_positional_args "$@"
build=${1:-build}
runs=${2:-50}
iterations=${3:-20000}
for count in "$runs" "$iterations"; do
  [[ $count =~ ^[1-9][0-9]*$ ]] || bench_usage "'$count' is not a positive count"
done
[ -d "$build" ] || bench_usage "no build folder '$build' (build with scripts/build.sh, or pass its path)"
cmake --build "$build" --target lookup_benchmark >/dev/null
echo "date $(date -u +%FT%TZ), host $(hostname), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
     "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: bench/bench_lookup.sh $build $runs $iterations"
"$build/bin/lookup_benchmark" --runs "$runs" --iterations "$iterations"
