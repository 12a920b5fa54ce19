#!/usr/bin/env bash
# Compares the search strategies offline on every complete sweep stored in a results database:
# runs `tuner simulate KERNEL --size S --strategy all --runs N --json` for each stored (template,
# size) and prints a Markdown table of the evaluations each strategy needed to come within 5% of
# the optimum: mean / median over the runs that got there, and how many runs got there. No GPU.
# --warm-start adds a column per strategy but brute force started warm from the template's other
# stored sweeps (other GPU models, other sizes; `tuner simulate --warm-start`).
#
#   bench/compare_strategies.sh [--db PATH] [--runs N] [--budget N] [--seed S] [--device NAME]
#                                 [--templates DIR] [--json-dir DIR] [--warm-start]
# The tuner binary is $TUNER, else build/bin/tuner. A sweep that cannot be replayed (incomplete, or
# of another template version) is named on stderr; none at all is exit 1.
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init compare_strategies "$@"

db_args=() template_args=() runs=50 budget=0 seed=0 device="" json_dir="" warm_args=()
while (($#)); do
  case "$1" in
    --db) db_args=(--db "${2:?}"); shift 2 ;;
    --runs) runs=${2:?}; shift 2 ;;
    --budget) budget=${2:?}; shift 2 ;;
    --seed) seed=${2:?}; shift 2 ;;
    --device) device=${2:?}; shift 2 ;;
    --templates) template_args+=(--templates "${2:?}"); shift 2 ;;
    --json-dir) json_dir=${2:?}; shift 2 ;;
    --warm-start) warm_args=(--warm-start); shift ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
for number in "$runs" "$budget" "$seed"; do
  [[ "$number" =~ ^[0-9]+$ ]] || bench_usage "'$number': --runs, --budget and --seed take whole numbers"
done
bench_require_tuner "${TUNER:-build/bin/tuner}"
[ -z "$json_dir" ] || mkdir -p "$json_dir"

export_args=("${db_args[@]}")
[ -z "$device" ] || export_args+=(--device "$device")
pairs=$("$tuner" db export "${export_args[@]}" | python3 -c 'import json, sys
pairs = {(row["template"]["name"], row["size_key"]) for row in map(json.loads, sys.stdin)}
for name, size in sorted(pairs): print(f"{name}\t{size}")') || bench_die "'tuner db export' failed"
[ -n "$pairs" ] || bench_die "no stored results to replay"

# One table row per GPU of a `tuner simulate --json` document.
read -r -d '' format_rows <<'PY' || true
import json, sys
doc = json.load(sys.stdin)
columns = sys.argv[1].split(",")
for sweep in doc["sweeps"]:
    cells = []
    by_name = {s["strategy"]: s for s in sweep["strategies"]}
    for name in columns:
        s = by_name.get(name)
        if s is None:  # no other sweep to start warm from
            cells.append("-")
            continue
        e = s["evaluations_to_within_5pct"]
        got = "-" if e["mean"] is None else "{:g} / {:g}".format(round(e["mean"], 1), e["median"])
        cells.append("{} ({}/{})".format(got, s["reached"], s["runs"]))
    print("| {} | {} | {} | {} | {} | {} |".format(doc["kernel"], doc["size"], sweep["gpu"]["name"], sweep["candidates"],
                                             sweep["within_5pct"], " | ".join(cells)))
PY
strategies=(brute_force random annealing genetic bayesian)
if ((${#warm_args[@]})); then
  strategies=(brute_force random "random (warm)" annealing "annealing (warm)" genetic "genetic (warm)" bayesian
              "bayesian (warm)")
fi
echo "Evaluations to come within 5% of the optimum: mean / median over the runs that got there (runs that got there of $runs); budget ${budget/#0/none}, seeds $seed..$((seed + runs - 1))."
echo
printf '| template | size | GPU | candidates | within 5%% |'; printf ' %s |' "${strategies[@]}"; echo
printf '|---|---|---|---|---|'; printf -- '---|%.0s' "${strategies[@]}"; echo
replayed=0
while IFS=$'\t' read -r kernel size; do
  args=(simulate "$kernel" --size "$size" --strategy all --runs "$runs" --budget "$budget" --seed "$seed" --json
        "${db_args[@]}" "${template_args[@]}" "${warm_args[@]}")
  [ -z "$device" ] || args+=(--device "$device")
  if ! doc=$("$tuner" "${args[@]}" 2>"$work/simulate.err"); then
    echo "compare_strategies: $kernel $size skipped: $(tr '\n' ' ' <"$work/simulate.err")" >&2
    continue
  fi
  [ -z "$json_dir" ] || printf '%s\n' "$doc" >"$json_dir/${kernel}_${size}.json"
  python3 -c "$format_rows" "$(IFS=,; echo "${strategies[*]}")" <<<"$doc"
  replayed=$((replayed + 1))
done <<<"$pairs"
((replayed > 0)) || bench_die "no complete sweep could be replayed"
