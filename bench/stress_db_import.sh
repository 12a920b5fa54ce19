#!/usr/bin/env bash
# Simultaneous writers of one database (issue 32, item 5): COUNT `tuner db import`s, each of one
# row of its own, started at once into one new database. Every import must succeed, every row must
# be stored, and once all have exited the file must be one file in rollback-journal mode (no -wal,
# -shm or -journal beside it). Prints one line with the figures.
#
# Usage: bench/stress_db_import.sh [--count N] [--tuner PATH]   (defaults: 800, build/bin/tuner)
# Exit 0 when everything held; 1 otherwise, with the first failures' messages; 2 for bad usage.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench_common.sh"
bench_init stress_db_import "$@"

count=800
tuner_path=build/bin/tuner
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=${2:-}; shift 2 || bench_usage "--count needs a value" ;;
    --tuner) tuner_path=${2:-}; shift 2 || bench_usage "--tuner needs a value" ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
[[ $count =~ ^[1-9][0-9]{0,4}$ ]] || bench_usage "--count must be a whole number from 1 to 99999, not '$count'"
bench_require_tuner "$tuner_path"

# One export line per import, each a candidate (and sweep) of its own.
python3 - "$work" "$count" <<'EOF'
import json, sys
work, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    row = {
        "gpu": {"uuid": "GPU-stress", "name": "NVIDIA H100 80GB HBM3", "cc_major": 9, "cc_minor": 0,
                "sm_count": 132, "memory_bytes": 85000000000, "driver_version": "13.0", "cuda_version": "13.0",
                "sm_clock_mhz": 1980},
        "template": {"name": "transpose", "hash": "stress", "first_seen": "2026-11-26T00:00:00Z"},
        "sweep": {"uid": f"stress-{i}", "command": "stress", "strategy": "brute_force", "budget": 0,
                  "size_key": "8192x8192", "status": "done", "tool_version": "0", "nvrtc_version": "",
                  "started_at": "2026-11-26T00:00:00Z", "ended_at": "2026-11-26T00:00:01Z", "copy_gbps": 0},
        "size_key": "8192x8192",
        "measurement": {"params_json": json.dumps({"TILE": i + 1}, separators=(",", ":")), "launch_json": "",
                        "status": "ok", "reason": "", "time_ms_median": 1.0 + i, "time_ms_min": 1.0 + i,
                        "time_ms_max": 1.0 + i, "time_ms_spread": 0, "samples": 10, "perf_value": 1,
                        "perf_unit": "GB/s", "regs_per_thread": 32, "smem_bytes": 0, "spill_bytes": 0,
                        "blocks_per_sm": 8, "occupancy": 1, "limiter": "warps", "compile_ms": 1, "error_text": "",
                        "measured_at": "2026-11-26T00:00:01Z"},
    }
    with open(f"{work}/row-{i}.jsonl", "w") as out:
        out.write(json.dumps(row) + "\n")
EOF

# Every import waits on a shared lock of a file this script holds exclusively, so all start together.
db=$work/stress.db
exec 8>"$work/start"
flock -x 8
for ((i = 0; i < count; i++)); do
  (
    flock -s 9
    status=0
    "$tuner" db import "$work/row-$i.jsonl" --db "$db" >/dev/null 2>"$work/err-$i" || status=$?
    echo "$status" >"$work/rc-$i"
  ) 9<"$work/start" &
done
sleep 1
flock -u 8
wait

passed=$(cat "$work"/rc-* | grep -cx 0 || true)
rows=$("$tuner" db export --db "$db" 2>/dev/null | wc -l)
side_files=0
for suffix in -wal -shm -journal; do [ ! -e "$db$suffix" ] || side_files=$((side_files + 1)); done
journal=$(python3 -c "import sys; h = open(sys.argv[1], 'rb').read(20); print('wal' if h[18] == 2 else 'rollback')" "$db")
echo "$passed of $count simultaneous imports succeeded; $rows of $count rows stored; at rest: $journal mode," \
  "$side_files side file(s)"
if [ "$passed" -ne "$count" ]; then
  for ((i = 0; i < count; i++)); do
    [ "$(cat "$work/rc-$i")" = 0 ] || echo "import $i: exit $(cat "$work/rc-$i"): $(head -c 300 "$work/err-$i")"
  done | head -5 >&2
fi
[ "$passed" -eq "$count" ] && [ "$rows" -eq "$count" ] && [ "$side_files" -eq 0 ] && [ "$journal" = rollback ]
