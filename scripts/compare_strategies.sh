#!/usr/bin/env bash
# Compares the search strategies offline on every complete sweep stored in a results database:
# runs `tuner simulate KERNEL --size S --strategy all --runs N --json` for each stored (template,
# size) and prints a Markdown table of the evaluations each strategy needed to come within 5% of
# the optimum: mean / median over the runs that got there, and how many runs got there.
#
#   scripts/compare_strategies.sh [--db PATH] [--runs N] [--budget N] [--seed S] [--device NAME]
#                                 [--templates DIR] [--json-dir DIR]
# The tuner binary is $TUNER, else build/bin/tuner. Needs jq.
set -euo pipefail

tuner="${TUNER:-$(cd "$(dirname "$0")/.." && pwd)/build/bin/tuner}"
db_args=() template_args=() runs=50 budget=0 seed=0 device="" json_dir=""
while (($#)); do
  case "$1" in
    --db) db_args=(--db "$2"); shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --budget) budget="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --device) device="$2"; shift 2 ;;
    --templates) template_args+=(--templates "$2"); shift 2 ;;
    --json-dir) json_dir="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "compare_strategies: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$tuner" ] || { echo "compare_strategies: no tuner binary at $tuner (build it, or set TUNER)" >&2; exit 2; }
command -v jq >/dev/null || { echo "compare_strategies: jq is needed" >&2; exit 2; }
[ -z "$json_dir" ] || mkdir -p "$json_dir"

export_args=("${db_args[@]}")
[ -z "$device" ] || export_args+=(--device "$device")
pairs=$("$tuner" db export "${export_args[@]}" 2>/dev/null | jq -r '[.template.name, .size_key] | @tsv' | sort -u)
[ -n "$pairs" ] || { echo "compare_strategies: no stored results to replay" >&2; exit 1; }

strategies=(brute_force random annealing genetic)
echo "Evaluations to come within 5% of the optimum: mean / median over the runs that got there (runs that got there of $runs); budget ${budget/#0/none}, seeds $seed..$((seed + runs - 1))."
echo
printf '| template | size | GPU | candidates | within 5%% |'; printf ' %s |' "${strategies[@]}"; echo
printf '|---|---|---|---|---|'; printf -- '---|%.0s' "${strategies[@]}"; echo
replayed=0
while IFS=$'\t' read -r kernel size; do
  args=(simulate "$kernel" --size "$size" --strategy all --runs "$runs" --budget "$budget" --seed "$seed" --json "${db_args[@]}" "${template_args[@]}")
  [ -z "$device" ] || args+=(--device "$device")
  if ! doc=$("$tuner" "${args[@]}" 2>/tmp/compare_strategies.$$.err); then
    echo "compare_strategies: $kernel $size skipped: $(tr '\n' ' ' </tmp/compare_strategies.$$.err)" >&2
    continue
  fi
  [ -z "$json_dir" ] || printf '%s\n' "$doc" >"$json_dir/${kernel}_${size}.json"
  jq -r '.kernel as $k | .size as $s | .sweeps[] |
    "| \($k) | \($s) | \(.gpu.name) | \(.candidates) | \(.within_5pct) | " +
    ([.strategies[] | .evaluations_to_within_5pct as $e |
      (if $e.mean == null then "-" else "\($e.mean * 10 | round / 10) / \($e.median)" end) +
      " (\(.reached)/\(.runs))"] | join(" | ")) + " |"' <<<"$doc"
  replayed=$((replayed + 1))
done <<<"$pairs"
rm -f /tmp/compare_strategies.$$.err
((replayed > 0)) || { echo "compare_strategies: no complete sweep could be replayed" >&2; exit 1; }
