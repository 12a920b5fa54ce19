#!/usr/bin/env bash
# The histogram on uniform and on skewed data, whose winner depends on the data: the example
# application captures its own launch on each data set (TUNER_CAPTURE), `tuner tune` tunes each
# capture against the captured output, and two Markdown tables follow the provenance header:
#   1. the fastest configuration of each variant on each data set;
#   2. each data set's winner timed on both data sets, against that data set's best.
# Each run starts from a fresh database and compile cache; exit 1 if a step fails.
#
#   bench/bench_histogram.sh [--tuner PATH] [--app PATH] [--n N] [--bins B] [--skew S] [--json-dir DIR]
# Defaults: build/bin/tuner, build/bin/histogram_app, 2^24 values, 256 bins, skew 0.9 (90% of the
# values in one bin).
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_histogram "$@"

tuner_path=build/bin/tuner app=build/bin/histogram_app n=16777216 bins=256 skew=0.9 json_dir=""
while (($#)); do
  case "$1" in
    --tuner) tuner_path=${2:?}; shift 2 ;;
    --app) app=${2:?}; shift 2 ;;
    --n) n=${2:?}; shift 2 ;;
    --bins) bins=${2:?}; shift 2 ;;
    --skew) skew=${2:?}; shift 2 ;;
    --json-dir) json_dir=${2:?}; shift 2 ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
bench_require_tuner "$tuner_path"
[ -x "$app" ] || bench_usage "no histogram_app at '$app' (build it with scripts/build.sh, or pass its path)"
bench_require_gpus 1
export XDG_CACHE_HOME=$work/cache
db=$(bench_database histogram)

for s in 0 "$skew"; do
  mkdir -p "$work/skew-$s"
  TUNER_CAPTURE=app_histogram TUNER_CAPTURE_DIR="$work/skew-$s" "$app" --n "$n" --bins "$bins" --skew "$s" --db "$db" >&2 ||
    bench_die "histogram_app --skew $s failed"
  "$tuner" tune app_histogram --templates "$work/skew-$s/capture-app_histogram" --db "$db" --json >"$work/skew-$s.json" ||
    bench_die "tuner tune on the capture of skew $s failed"
done
[ -z "$json_dir" ] || { mkdir -p "$json_dir"; cp "$work"/skew-*.json "$json_dir"/; }

bench_header
python3 - "$work/skew-0.json" "$work/skew-$skew.json" "$skew" "$n" "$bins" <<'PY'
import json, sys
uniform, skewed = (json.load(open(path)) for path in sys.argv[1:3])
skew, n, bins = sys.argv[3:6]
runs = [("uniform", uniform), (f"skewed ({float(skew):.0%} in one bin)", skewed)]
variants = ["global", "shared", "warp_shared", "warp_global"]

def ok(run):
    return [c for c in run["candidates"] if c["status"] == "ok"]

def time_of(run, params):
    times = [c["time_ms"] for c in ok(run) if c["params"] == params]
    return times[0] if times else None

print(f"{n} values into {bins} bins, tuned on a capture of each data set. Fastest configuration of each variant:")
print()
print("| variant | " + " | ".join(label for label, _ in runs) + " |")
print("|---|" + "---|" * len(runs))
for v, name in enumerate(variants):
    cells = []
    for _, run in runs:
        mine = [c for c in ok(run) if c["params"]["VARIANT"] == v]
        if not mine:
            cells.append("no correct candidate")
            continue
        c = min(mine, key=lambda c: c["time_ms"])
        cells.append(f"{c['time_ms']:.3f} ms, {c['perf']:.0f} GB/s (BLOCK={c['params']['BLOCK']} ITEMS={c['params']['ITEMS']})")
    print(f"| {name} | " + " | ".join(cells) + " |")
print()
print("Each data set's winner on both data sets (median ms; in brackets, against that data set's best):")
print()
print("| winner of | configuration | " + " | ".join(f"on {label}" for label, _ in runs) + " |")
print("|---|---|" + "---|" * len(runs))
for label, run in runs:
    params = run["best"]["params"]
    text = " ".join(f"{k}={v}" for k, v in params.items())
    cells = []
    for _, other in runs:
        t = time_of(other, params)
        cells.append("not correct" if t is None else f"{t:.3f} ms ({t / other['best']['time_ms']:.2f}x)")
    print(f"| {label} | {text} | " + " | ".join(cells) + " |")
PY
