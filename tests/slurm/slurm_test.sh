#!/usr/bin/env bash
# docs/hpc.md's commands on a real Slurm: a single-host cluster (Debian's slurmctld, slurmd and munged,
# scripts/install-deps.sh) started here with its own configuration, key, ports and spool folders, and
# stopped on exit. It runs what a user runs: tuner-slurm, then submit.sh, whose jobs are a compile
# array on the CPU partition (the real `tuner explore --shard`), a tune array on the GPU partition (two
# GRES "gpu:h200" with no GPU behind them, so `tune` is stood in for by tests/slurm/tune_without_gpu.sh,
# which stores a stored sweep's rows instead of measuring) and the merge, afterok. One compile task
# and one tune task are requeued while they run. Checked: the requeued tasks resume (no cache entry
# compiled again, no row stored twice), the cache holds what one machine's `explore` compiles, and
# the merged database what one machine's import of every row holds.
#
# Usage: slurm_test.sh TUNER SOURCE_DIR. Exit 77 (CTest: skipped) when not root, except under CI=true.
# TUNER_SLURM_TEST_KEEP=1 keeps its folder (configuration, logs, jobs) and says where.
set -euo pipefail
tuner=$(readlink -f "$1")
source_dir=$(readlink -f "$2")
started=$SECONDS

if [ "$(id -u)" -ne 0 ]; then
  if [ "${CI:-}" = true ]; then
    echo "slurm_test: FAILED: under CI the Slurm test must run (it starts slurmctld, slurmd and munged as root)" >&2
    exit 1
  fi
  echo "slurm_test: SKIPPED: starting slurmctld, slurmd and munged needs root (run the suite as root to include it)"
  exit 77
fi
for program in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol scancel xz; do
  command -v "$program" >/dev/null ||
    { echo "slurm_test: FAILED: $program is missing; scripts/install-deps.sh installs it" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tuner-slurm-test.XXXXXX")
chmod 755 "$work"  # munged wants every folder above its socket searchable
daemons=()
export SLURM_CONF=$work/slurm.conf

stop_all() {
  local status=$?
  if [ -f "$SLURM_CONF" ] && ((${#daemons[@]} > 1)); then
    scancel --full --quiet --user=root 2>/dev/null || true
    for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  for ((i = ${#daemons[@]} - 1; i >= 0; --i)); do kill -TERM "${daemons[i]}" 2>/dev/null || true; done
  for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null || true; done
  if ((status != 0)); then
    echo "slurm_test: failed after $((SECONDS - started)) s; the logs:" >&2
    for log in "$work"/*.log "$work"/run/logs/*; do [ -f "$log" ] && { echo "== $log" >&2; tail -n 25 "$log" >&2; }; done
  fi
  if [ -n "${TUNER_SLURM_TEST_KEEP:-}" ]; then echo "slurm_test: kept $work" >&2; else rm -rf "$work"; fi
}
trap stop_all EXIT
trap 'echo "slurm_test: FAILED at line $LINENO: $BASH_COMMAND" >&2' ERR

fail() {
  echo "slurm_test: FAILED: $*" >&2
  exit 1
}

# Waits until the shell condition $2 holds, for at most $1 seconds.
wait_for() {
  local deadline=$((SECONDS + $1))
  until eval "$2"; do
    ((SECONDS < deadline)) || fail "after $1 s, still not: $2"
    sleep 0.2
  done
}

job_state() { squeue -h -j "$1" -o %T 2>/dev/null | head -n 1; }

# --- a cluster of one node: 2 CPUs, two GPUs of type h200 in GRES (device files that are no GPUs)
host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
mkdir -p "$work/state" "$work/spool"
mungekey --create --keyfile="$work/munge.key" 2>/dev/null || head -c 1024 /dev/urandom >"$work/munge.key"
chmod 600 "$work/munge.key"
munged --foreground --socket="$work/munge.sock" --key-file="$work/munge.key" --pid-file="$work/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munged.seed" 2>>"$work/munged.log" &
daemons+=($!)
cat >"$SLURM_CONF" <<EOF
ClusterName=tunertest
# with its address: a container's host name may resolve to nothing
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
# cred_expire: a requeued job waits this long before it may start again (default 120 s)
AuthInfo=socket=$work/munge.sock,cred_expire=5
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
KillWait=10
SlurmdParameters=config_overrides
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 Gres=gpu:h200:2 State=UNKNOWN
PartitionName=cpu Nodes=$host Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=$host MaxTime=INFINITE State=UP
EOF
printf 'Name=gpu Type=h200 File=/dev/null\nName=gpu Type=h200 File=/dev/zero\n' >"$work/gres.conf"
wait_for 10 '[ -S "$work/munge.sock" ]'
slurmctld -D -i -f "$SLURM_CONF" >>"$work/slurmctld.out.log" 2>&1 &
daemons+=($!)
slurmd -D -f "$SLURM_CONF" >>"$work/slurmd.out.log" 2>&1 &
daemons+=($!)
wait_for 60 '[ "$(sinfo -h -p cpu -o %T 2>/dev/null)" = idle ]'
echo "slurm_test: Slurm up in $((SECONDS - started)) s"

# --- what a user runs (docs/hpc.md): tuner-slurm, then submit.sh
xz -dc "$source_dir/bench/examples/gemm_large-h100.jsonl.xz" | sed -n '1,24p' >"$work/rows.jsonl"
export TUNER_REAL=$tuner TUNER_TEST_ROWS=$work/rows.jsonl TUNER_TEST_ROW_S=0.5
"$source_dir/packaging/tuner-slurm" reduction --shards 3 --compile-shards 2 --arch sm_90 --gpu-model h200 \
  --partition gpu --compile-partition cpu --cpus-per-task 1 --compile-cpus 1 --time 00:10:00 \
  --compile-time 00:10:00 --merge-time 00:05:00 --dir "$work/run" --tuner "$source_dir/tests/slurm/tune_without_gpu.sh"
submitted=$("$work/run/submit.sh")
echo "slurm_test: $submitted"
[[ $submitted =~ ^compile\ ([0-9]+),\ tune\ ([0-9]+),\ merge\ ([0-9]+): ]] || fail "submit.sh said: $submitted"
compile=${BASH_REMATCH[1]} tune=${BASH_REMATCH[2]} merge=${BASH_REMATCH[3]}
[[ $(squeue -h -j "$tune" -o %E | head -n 1) == afterok:${compile}_\** ]] || fail "the tune array is not afterok the compiles"
[[ $(squeue -h -j "$merge" -o %E) == afterok:${tune}_\** ]] || fail "the merge is not afterok the tune array"

# --- compile task 2 requeued while it compiles; what the cache held then is never compiled again
cubins=$work/run/cache/tuner/cubins
wait_for 60 '[ "$(job_state "${compile}_2")" = RUNNING ] && [ "$(ls "$cubins" 2>/dev/null | grep -c "\.cubin$")" -ge 4 ]'
scontrol requeue "${compile}_2"
held=$(cd "$cubins" && stat -c '%n %i' -- *.cubin | sort)
echo "slurm_test: compile task 2 requeued with $(wc -l <<<"$held") kernels in the cache"

# --- tune task 1 requeued once it stored 3 rows of its 8
wait_for 120 'grep -q "stored 3 of" "$work/run/logs/tune-1.log" 2>/dev/null'
scontrol requeue "${tune}_1"
echo "slurm_test: tune task 1 requeued"

wait_for 150 '[ -z "$(squeue -h)" ]'
echo "slurm_test: every job ended after $((SECONDS - started)) s"

# --- the requeued tasks ran twice and resumed
grep -q "compile share 2/2 on .*, start 2" "$work/run/logs/compile-2.log" || fail "compile task 2 did not start again"
grep -q "tune share 1/3 on .*, start 2" "$work/run/logs/tune-1.log" || fail "tune task 1 did not start again"
# its second start found the rows the first stored (at least 3) and stored only the rest
second_start=$(sed -n '/tune share 1\/3 on .*, start 2/,$p' "$work/run/logs/tune-1.log")
[[ $second_start =~ share\ 1/3:\ 8\ measurements,\ ([0-9]+)\ already\ stored ]] || fail "tune task 1 did not say what it resumed from"
resumed=${BASH_REMATCH[1]}
((resumed >= 3)) || fail "tune task 1 resumed from $resumed rows, not the 3 or more its first start stored"
(($(grep -c '^tune_without_gpu: stored ' <<<"$second_start") == 8 - resumed)) || fail "tune task 1 stored a row twice"
now=$(cd "$cubins" && stat -c '%n %i' -- *.cubin | sort)
[ -z "$(comm -23 <(echo "$held") <(echo "$now"))" ] || fail "a kernel cached before the requeue was compiled again"

# --- the same work on one machine
XDG_CACHE_HOME=$work/one "$tuner" explore reduction --arch sm_90 >/dev/null
diff <(ls "$work/one/tuner/cubins" | grep '\.cubin$') <(ls "$cubins" | grep '\.cubin$') ||
  fail "the compile array's cache differs from one machine's explore"
"$tuner" db import "$work/rows.jsonl" --db "$work/one.db" >/dev/null
[ -f "$work/run/tuner.db" ] || fail "the merge wrote no database: $(cat "$work/run/logs/merge.log")"
diff <("$tuner" db export --db "$work/one.db" | sort) <("$tuner" db export --db "$work/run/tuner.db" | sort) >/dev/null ||
  fail "the merged database differs from one machine's"
echo "slurm_test: passed in $((SECONDS - started)) s: $(wc -l <<<"$now") kernels compiled by 2 tasks," \
  "$(wc -l <"$work/rows.jsonl") measurements of 3 tasks merged, one task of each requeued and resumed"
