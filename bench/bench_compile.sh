#!/usr/bin/env bash
# Compile throughput: every candidate of a template compiled cold for sm_90 by
# `tuner explore` (no GPU needed), with NVRTC in one process per core (default) and in threads of
# one process (TUNER_COMPILE=threads), each into an empty compile cache.
#
#   bench/bench_compile.sh [path/to/tuner] [template ...]      (default: transpose matmul)
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_compile "$@"
bench_positional_args "$@"
bench_require_tuner "${1:-build/bin/tuner}"
shift || true
templates=("$@")
((${#templates[@]})) || templates=(transpose matmul)
bench_header
echo "| template | candidates | processes: wall s (ms/candidate) | threads: wall s (ms/candidate) | cores |"
echo "|---|---|---|---|---|"
for t in "${templates[@]}"; do
  line="| $t"
  for mode in processes threads; do
    rm -rf "$work/cache"
    start=$(bench_now)
    count=$(TUNER_COMPILE=$mode XDG_CACHE_HOME="$work/cache" "$tuner" explore "$t" --arch sm_90 --json |
            python3 -c "import json, sys; print(len(json.load(sys.stdin)['candidates']))") || bench_die "tuner explore $t failed"
    seconds=$(bench_seconds "$start" "$(bench_now)")
    [ "$mode" = processes ] && line="$line | $count"
    line="$line | $seconds ($(python3 -c "import sys; print(f'{1000 * float(sys.argv[1]) / int(sys.argv[2]):.1f}')" "$seconds" "$count"))"
  done
  echo "$line | $(nproc) |"
done
