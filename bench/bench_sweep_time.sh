#!/usr/bin/env bash
# Where a sweep's wall time goes: `tuner tune` of the baseline SGEMM space (135 candidates, or
# --kernel K with --templates DIR) with the compile cache warm (a first sweep fills it) into a
# fresh database, its wall time split by the kernel time the stored results account for:
#   first pass    every candidate's checked launch, plus one sample where that took 2 ms or less;
#   second pass   the candidates timed properly: the checked launch again and their own samples;
#   leaders       the three fastest, 10 samples each in turns;
#   the rest      worker start, buffers, reference, clock warm-up, copy bandwidth, module loads,
#                 L2 flushes between samples, launch gaps and the tuner's own work.
# Kernel times are each candidate's stored median times its launches (a failed candidate's one
# launch is not timed), so the split is an estimate; the wall time is measured. The last column is
# the sweep's own account of its time (`time` in `tune --json`; docs/concepts/timing.md, "Where the time goes"):
# compile / GPU work / waiting / overhead, which add up to the sweep's wall time.
#
#   bench/bench_sweep_time.sh [--tuner PATH] [--gpu N] [--kernel baseline_sgemm]
#                               [--templates bench/templates] [--size S] [--runs 1]
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_sweep_time "$@"

tuner_path=build/bin/tuner gpu=0 kernel=baseline_sgemm templates=bench/templates size="" runs=1
while (($#)); do
  case "$1" in
    --tuner) tuner_path=${2:?}; shift 2 ;;
    --gpu) gpu=${2:?}; shift 2 ;;
    --kernel) kernel=${2:?}; shift 2 ;;
    --templates) templates=${2:?}; shift 2 ;;
    --size) size=${2:?}; shift 2 ;;
    --runs) runs=${2:?}; shift 2 ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
[[ "$gpu" =~ ^[0-9]+$ ]] || bench_usage "--gpu '$gpu': expected a GPU index"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || bench_usage "--runs '$runs': expected a positive whole number"
bench_require_tuner "$tuner_path"
bench_require_gpus $((gpu + 1))
export XDG_CACHE_HOME=$work/cache
args=(tune "$kernel" --gpu "$gpu" --json)
[ -z "$templates" ] || args+=(--templates "$templates")
[ -z "$size" ] || args+=(--size "$size")

bench_header
"$tuner" "${args[@]}" --db "$work/fill.db" >/dev/null || bench_die "tuner tune $kernel failed (filling the cache)"
echo "| run | wall | first pass | second pass | leaders in turns | the rest | the sweep's account: compile / GPU work / waiting / overhead |"
echo "|---|---|---|---|---|---|---|"
for ((run = 1; run <= runs; run++)); do
  start=$(bench_now)
  "$tuner" "${args[@]}" --db "$work/run$run.db" >"$work/run$run.json" || bench_die "tuner tune $kernel failed"
  wall=$(bench_seconds "$start" "$(bench_now)")
  python3 - "$work/run$run.json" "$run" "$wall" <<'PY' || bench_die "the results of run $run cannot be split (see above)"
import json, re, sys
doc, run, wall = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3])
ESTIMATE_ONLY, LONG_CHECK_MS, ROUNDS = "estimated from one launch", 2.0, 10
parts = {"first": [0, 0.0], "second": [0, 0.0], "leaders": [0, 0.0]}
def add(part, launches, ms):
    parts[part][0] += launches
    parts[part][1] += launches * ms / 1000
ok = [c for c in doc["candidates"] if c["status"] == "ok"]
for c in ok:
    ms, reason = c["time_ms"], c["reason"]
    add("first", 1 if ms > LONG_CHECK_MS else 2, ms)
    if reason.startswith(ESTIMATE_ONLY):
        continue
    own = c["samples"]
    if reason.startswith("confirmed:"):
        found = re.search(r"after (\d+) of its own", reason)
        if not found:
            sys.exit(f"a leader's reason does not say how many samples it had before: {reason}")
        own = int(found.group(1))
        add("leaders", ROUNDS, ms)
    add("second", 1 + own, ms)
failed = len(doc["candidates"]) - len(ok)
cell = lambda part: f"{parts[part][1]:.2f} s ({parts[part][0]} launches)"
rest = wall - sum(p[1] for p in parts.values())
t = doc["time"]
account = " / ".join(f"{t[k]:.2f}" for k in ("compile_s", "gpu_s", "waiting_s", "overhead_s"))
print(f"| {run} | **{wall:.2f} s** | {cell('first')}{f', and {failed} failed' if failed else ''} | {cell('second')} | "
      f"{cell('leaders')} | {rest:.2f} s | {account} s of {t['wall_s']:.2f} s ({t['bound_by']}) |")
PY
done
