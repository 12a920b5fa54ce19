#!/usr/bin/env bash
# Compile throughput (issue 5): every candidate of a template compiled cold, with NVRTC in one
# process per core (default) and in threads of one process (TUNER_COMPILE=threads).
# Usage: scripts/bench_compile.sh [path/to/tuner] [template ...]
set -euo pipefail
cd "$(dirname "$0")/.."
tuner=${1:-build/bin/tuner}
shift || true
templates=("${@:-transpose matmul}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| template | candidates | processes: wall s (ms/candidate) | threads: wall s (ms/candidate) | cores |"
echo "|---|---|---|---|---|"
for t in ${templates[*]}; do
  line="| $t"
  for mode in processes threads; do
    rm -rf "$work/cache"
    start=$(date +%s.%N)
    count=$(TUNER_COMPILE=$mode XDG_CACHE_HOME="$work/cache" "$tuner" explore "$t" --arch sm_90 --json |
            python3 -c "import json, sys; print(len(json.load(sys.stdin)['candidates']))")
    end=$(date +%s.%N)
    [ "$mode" = processes ] && line="$line | $count"
    line="$line | $(python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); print(f'{s:.2f} ({1000*s/int(sys.argv[3]):.1f})')" "$start" "$end" "$count")"
  done
  echo "$line | $(nproc) |"
done
