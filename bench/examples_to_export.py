#!/usr/bin/env python3
"""Turns a `tuner report --format csv` file back into `tuner db export` lines (for `tuner db import`).

    python3 bench/examples_to_export.py bench/examples/h100-h200.csv [--rename NAME=NEW ...] > rows.jsonl

Used by bench/bench_strategies.sh --examples to replay the sweeps behind bench/examples/ without
a GPU. The CSV lacks what replaying does not need: the GPUs' memory size and clock, and the sweeps'
command lines; every sweep there was a complete brute-force sweep. --rename stores a template
under another name (a version whose description no longer loads is replayed without it).
"""
import argparse
import csv
import json
import sys

# The CSV has no memory size, and an import takes none below one byte: every GPU gets this one, so
# cards of one name stay one model.
UNKNOWN_MEMORY = 1
FLOATS = ("time_ms_median", "time_ms_min", "time_ms_max", "time_ms_spread", "perf_value", "occupancy", "compile_ms")
INTS = ("samples", "regs_per_thread", "smem_bytes", "spill_bytes", "blocks_per_sm")
TEXTS = ("params_json", "launch_json", "status", "reason", "perf_unit", "limiter", "error_text", "measured_at")
# Columns of schemas 4 and 6 that CSVs made before the field table (db/query/measurement_fields.h) lack.
LATER = {"worker_kills": int, "counters_json": str, "energy_j": float, "power_w": float, "energy_launch_ms": float,
         "perf_per_joule": float}


def export_line(row, renames):
    cc = row["arch"].removeprefix("sm_")
    measurement = {key: row[key] for key in TEXTS}
    measurement.update({key: float(row[key] or 0) for key in FLOATS})
    measurement.update({key: int(float(row[key] or 0)) for key in INTS})
    measurement.update({key: kind(row.get(key) or kind()) for key, kind in LATER.items()})
    copy_gbps = float(row["ceiling_value"] or 0) if row["perf_unit"] == "GB/s" else 0.0
    return {
        "gpu": {"uuid": row["gpu_uuid"], "name": row["gpu_name"], "cc_major": int(cc[:-1]), "cc_minor": int(cc[-1]),
                "sm_count": int(row["sm_count"]), "memory_bytes": UNKNOWN_MEMORY, "driver_version": row["driver_version"],
                "cuda_version": row["cuda_version"], "sm_clock_mhz": 0},
        "template": {"name": renames.get(row["kernel"], row["kernel"]), "hash": row["template_hash"],
                     "first_seen": row["sweep_started_at"]},
        "sweep": {"uid": row["sweep_uid"], "command": "tuner tune (brute force; see bench/examples/README.md)",
                  "strategy": "brute_force", "budget": 0, "size_key": row["size"], "status": "done",
                  "tool_version": row["tool_version"], "nvrtc_version": row["nvrtc_version"],
                  "started_at": row["sweep_started_at"], "ended_at": "", "copy_gbps": copy_gbps},
        "size_key": row["size"],
        "measurement": measurement,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--rename", action="append", default=[], metavar="NAME=NEW")
    args = parser.parse_args()
    renames = dict(item.split("=", 1) for item in args.rename)
    with open(args.csv, newline="") as f:
        for row in csv.DictReader(f):
            print(json.dumps(export_line(row, renames)))


if __name__ == "__main__":
    sys.exit(main())
