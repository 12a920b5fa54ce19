#!/usr/bin/env bash
# The histogram on uniform and on skewed data (issue 13): the example application captures its own
# launch on each data set (TUNER_CAPTURE), `tuner tune` tunes each capture against the captured
# output, and two Markdown tables are printed with the device, date and commands:
#   1. the fastest configuration of each variant on each data set;
#   2. each data set's winner timed on both data sets, against that data set's best.
#
#   scripts/bench_histogram.sh [--n N] [--bins B] [--skew S] [--keep DIR]
# Defaults: 2^24 values, 256 bins, skew 0.9 (90% of the values in one bin). Binaries from build/bin.
# Needs jq and a GPU.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tuner="$root/build/bin/tuner" app="$root/build/bin/histogram_app"
n=16777216 bins=256 skew=0.9 keep=""
while (($#)); do
  case "$1" in
    --n) n="$2"; shift 2 ;;
    --bins) bins="$2"; shift 2 ;;
    --skew) skew="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "bench_histogram: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for binary in "$tuner" "$app"; do
  [ -x "$binary" ] || { echo "bench_histogram: no $binary (scripts/build.sh)" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "bench_histogram: jq is needed" >&2; exit 2; }
work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
db="$work/results.db"
export XDG_CACHE_HOME="$work/cache"

declare -A label=([0]="uniform" [$skew]="skewed ($skew in one bin)")
for s in 0 "$skew"; do
  mkdir -p "$work/skew-$s"
  TUNER_CAPTURE=app_histogram TUNER_CAPTURE_DIR="$work/skew-$s" "$app" --n "$n" --bins "$bins" --skew "$s" --db "$db" >&2
  "$tuner" tune app_histogram --templates "$work/skew-$s/capture-app_histogram" --db "$db" --json > "$work/skew-$s.json"
done
uniform="$work/skew-0.json" skewed="$work/skew-$skew.json"

echo "Device: $(jq -r '.gpu.name' "$uniform"), $(date -u '+%Y-%m-%d %H:%M UTC'); $n values, $bins bins."
echo "Commands: TUNER_CAPTURE=app_histogram build/bin/histogram_app --n $n --bins $bins --skew S; build/bin/tuner tune app_histogram --templates capture-app_histogram (scripts/bench_histogram.sh)"
echo
echo "Fastest configuration of each variant (median ms, GB/s):"
echo
echo "| variant | ${label[0]} | ${label[$skew]} |"
echo "|---|---|---|"
best_of_variant='[.candidates[] | select(.status == "ok" and .params.VARIANT == $v)] | min_by(.time_ms) // empty
  | "\(.time_ms * 1000 | round / 1000) ms, \(.perf | round) GB/s (BLOCK=\(.params.BLOCK) ITEMS=\(.params.ITEMS))"'
for v in 0 1 2 3; do
  name=$(echo "global shared warp_shared warp_global" | cut -d' ' -f$((v + 1)))
  echo "| $name | $(jq -r --argjson v $v "$best_of_variant" "$uniform") | $(jq -r --argjson v $v "$best_of_variant" "$skewed") |"
done
echo
echo "Each data set's winner on both data sets (median ms; in brackets: against that data set's best):"
echo
echo "| winner of | configuration | on ${label[0]} | on ${label[$skew]} |"
echo "|---|---|---|---|"
time_on='(.best.time_ms) as $best | [.candidates[] | select(.params == $p and .status == "ok")][0]
  | "\(.time_ms * 1000 | round / 1000) ms (\(.time_ms / $best * 100 | round / 100)x)"'
for s in 0 "$skew"; do
  params=$(jq -c '.best.params' "$work/skew-$s.json")
  echo "| ${label[$s]} | $(echo "$params" | jq -r 'to_entries | map("\(.key)=\(.value)") | join(" ")') |" \
       "$(jq -r --argjson p "$params" "$time_on" "$uniform") | $(jq -r --argjson p "$params" "$time_on" "$skewed") |"
done
