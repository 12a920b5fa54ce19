#!/usr/bin/env bash
# Search strategies compared in simulation: every complete stored sweep is replayed by
# `tuner simulate --strategy all` (bench/compare_strategies.sh), which needs no GPU. The sweeps:
#   --db PATH     a database you have: replayed as it is (no GPU);
#   --examples    the sweeps behind bench/examples/ (an H100 and an H200, 2026-11-22), rebuilt
#                 from bench/examples/h100-h200.csv and replayed against the template versions
#                 they measured (commit 74907e8 of this repository): no GPU, and the same table on
#                 any machine. A version that no longer loads is replayed without its description
#                 (the stored candidates are the space, values ascending), and its rows say so;
#   neither       new brute-force sweeps on --gpu N (default 0) of every shipped template at its
#                 default size and both baseline spaces (bench/templates), into a fresh database
#                 (--keep-db PATH keeps it; the path must not exist), then replayed.
#
#   bench/bench_strategies.sh [--db PATH | --examples] [--keep-db PATH] [--gpu N] [--runs 50]
#                               [--tuner PATH] [--warm-start]
# --warm-start: each strategy also from a warm start (the template's other GPU models and sizes).
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_strategies "$@"

examples_commit=74907e8
tuner_path=build/bin/tuner db="" examples=0 keep_db="" gpu=0 runs=50 warm=()
while (($#)); do
  case "$1" in
    --db) db=${2:?}; shift 2 ;;
    --examples) examples=1; shift ;;
    --warm-start) warm=(--warm-start); shift ;;
    --keep-db) keep_db=${2:?}; shift 2 ;;
    --gpu) gpu=${2:?}; shift 2 ;;
    --runs) runs=${2:?}; shift 2 ;;
    --tuner) tuner_path=${2:?}; shift 2 ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
[ -z "$db" ] || ((examples == 0)) || bench_usage "give --db or --examples, not both"
[ -z "$keep_db" ] || { [ -z "$db" ] && ((examples == 0)); } || bench_usage "--keep-db is for new sweeps, not with --db or --examples"
[ -z "$keep_db" ] || [ ! -e "$keep_db" ] || bench_usage "--keep-db '$keep_db' exists; give a new path (or replay it with --db)"
[ -z "$db" ] || [ -f "$db" ] || bench_usage "--db '$db': no such file"
[[ "$gpu" =~ ^[0-9]+$ ]] || bench_usage "--gpu '$gpu': expected a GPU index"
bench_require_tuner "$tuner_path"
replay_args=(--runs "$runs" "${warm[@]}")

# The example sweeps in a database of $work, and the template versions they were measured with.
import_examples() {
  local old=$work/templates-$examples_commit
  mkdir -p "$old"
  git archive "$examples_commit" kernel_templates | tar -x -C "$old" ||
    bench_die "needs this repository's history (commit $examples_commit) for the template versions of the examples"
  # A version that no longer loads (or hashes differently) is stored under another name, so that
  # simulate replays it without a description instead of refusing it as another version.
  local renames
  renames=$("$tuner" kernels --templates "$old/kernel_templates" --json | python3 -c '
import csv, json, sys
loaded = {t["name"]: t["hash"] for t in json.load(sys.stdin)["templates"]}
stored = {(r["kernel"], r["template_hash"]) for r in csv.DictReader(open(sys.argv[1], newline=""))}
for name, hash in sorted(stored):
    if loaded.get(name) != hash: print(f"--rename={name}={name}_at_{sys.argv[2]}")' bench/examples/h100-h200.csv "$examples_commit")
  python3 bench/examples_to_export.py bench/examples/h100-h200.csv $renames >"$work/examples.jsonl"
  "$tuner" db import "$work/examples.jsonl" --db "$work/examples.db" >/dev/null || bench_die "importing the examples failed"
  db=$work/examples.db
  replay_args+=(--templates "$old/kernel_templates")
  [ -z "$renames" ] || echo "Replayed without their descriptions (they no longer load): ${renames//--rename=/}" >&2
}

# New sweeps of every shipped template and both baseline spaces into a fresh database.
sweep_all() {
  bench_require_gpus $((gpu + 1))
  db=${keep_db:-$work/strategies.db}
  export XDG_CACHE_HOME=$work/cache
  local kernel
  for kernel in $("$tuner" kernels --json | python3 -c 'import json, sys
print(" ".join(t["name"] for t in json.load(sys.stdin)["templates"]))'); do
    "$tuner" tune "$kernel" --gpu "$gpu" --db "$db" --json >/dev/null || bench_die "tuner tune $kernel failed"
  done
  for kernel in baseline_transpose baseline_sgemm; do
    "$tuner" tune "$kernel" --templates bench/templates --gpu "$gpu" --db "$db" --json >/dev/null ||
      bench_die "tuner tune $kernel failed"
  done
  replay_args+=(--templates bench/templates)
}

if ((examples)); then import_examples; elif [ -z "$db" ]; then sweep_all; fi
bench_header
TUNER=$tuner bench/compare_strategies.sh --db "$db" "${replay_args[@]}"
