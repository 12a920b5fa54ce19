#!/usr/bin/env bash
# The tool with `tune` stood in for, for the Slurm test on machines without a GPU (tests/slurm/
# slurm_test.sh): every other command runs the real tool ($TUNER_REAL). `tune KERNEL --shard K/N --db
# DB ...` stores share K of the measurements of a stored sweep ($TUNER_TEST_ROWS, JSON lines of `db
# export`: the rows whose line number is K modulo N) one row at a time, as a sweep commits each record,
# and, like tune, only what DB lacks: a task requeued after its save resumes where it stopped.
set -euo pipefail
[ "${1:-}" = tune ] || exec "$TUNER_REAL" "$@"
shard="" db=""
while (($#)); do
  case $1 in
    --shard) shard=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    *) shift ;;
  esac
done
[[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] || { echo "tune_without_gpu: --shard K/N is needed" >&2; exit 2; }
k=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]}
mapfile -t share < <(awk -v k="$k" -v n="$n" '(NR - 1) % n == k - 1' "$TUNER_TEST_ROWS")
stored=0
[ ! -f "$db" ] || stored=$("$TUNER_REAL" db export --db "$db" 2>/dev/null | wc -l)
echo "tune_without_gpu: share $k/$n: ${#share[@]} measurements, $stored already stored"
for ((row = stored; row < ${#share[@]}; ++row)); do
  printf '%s\n' "${share[row]}" | "$TUNER_REAL" db import - --db "$db" >/dev/null
  echo "tune_without_gpu: stored $((row + 1)) of ${#share[@]}"
  sleep "${TUNER_TEST_ROW_S:-0.5}"
done
