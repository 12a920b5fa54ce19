#!/usr/bin/env python3
"""Kernel Tuner 1.5.0 on one baseline space of the sweep-speed benchmark (bench/bench_sweep_speed.sh).

Tunes the same source file (bench/templates/baseline_SPACE.cu), the same parameter values and the
same constraints as `tuner tune baseline_SPACE`: CuPy backend, brute force, every configuration's
output verified against an answer computed here (a failed verification ends Kernel Tuner's run,
and so this script, with an error). Prints one JSON object: the wall time of tune_kernel alone,
the import time, how many configurations ran, and the best one.

    python3 bench/kernel_tuner_baseline.py transpose [--size 8192x8192] [--gpu 0]
    python3 bench/kernel_tuner_baseline.py sgemm [--size 4096] [--gpu 0]
"""
import argparse
import contextlib
import json
import pathlib
import sys
import time

started = time.perf_counter()
import numpy as np  # noqa: E402
import cupy as cp  # noqa: E402
import kernel_tuner  # noqa: E402
from importlib.metadata import version  # noqa: E402

IMPORT_S = time.perf_counter() - started
TEMPLATES = pathlib.Path(__file__).resolve().parent / "templates"
SEED = 20261122


def transpose_space(size):
    w, h = size if len(size) == 2 else (size[0], size[0])
    rng = np.random.default_rng(SEED)
    source = rng.uniform(-1, 1, (h, w)).astype(np.float32)
    out = np.zeros((w, h), np.float32)
    return {
        "kernel_name": "transpose",
        "file": "baseline_transpose.cu",
        "problem_size": (w, h),
        "arguments": [out, source, np.int32(w), np.int32(h)],
        "answer": [np.ascontiguousarray(source.T), None, None, None],
        "atol": 0.0,  # a transpose moves values: exact
        "tune_params": {"TILE": [16, 32, 64], "PAD": [0, 1], "ROWS": [4, 8, 16, 32]},
        "restrictions": ["ROWS <= TILE", "TILE * ROWS <= 1024", "TILE * (TILE + PAD) * 4 <= 49152"],
        "options": {"block_size_names": ["TILE", "ROWS"], "grid_div_x": ["TILE"], "grid_div_y": ["TILE"]},
        "work": ("GB/s", 2 * 4 * w * h / 1e9),
    }


def sgemm_space(size):
    n = size[0]
    rng = np.random.default_rng(SEED)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    # The answer in double precision on the GPU (no TF32), rounded once to float.
    answer = (cp.asarray(a, dtype=cp.float64) @ cp.asarray(b, dtype=cp.float64)).astype(cp.float32).get()
    threads = "(BM / TM) * (BN / TN)"
    return {
        "kernel_name": "sgemm",
        "file": "baseline_sgemm.cu",
        "problem_size": (n, n),
        "arguments": [a, b, np.zeros((n, n), np.float32), np.int32(n)],
        "answer": [None, None, answer, None],
        "atol": 1e-3,  # as the template's [check]; np.allclose adds rtol 1e-5
        # Kernel Tuner takes the block size from a parameter: one value per thread count, tied to
        # the tile sizes by the last constraint, so the space is the template's 135 configurations.
        # (Written without division: Kernel Tuner 1.5.0 with python-constraint2 2.9.0 finds no
        # solution for "block_size_x == (BM / TM) * (BN / TN)".)
        "tune_params": {"BM": [32, 64, 128], "BN": [32, 64, 128], "TM": [2, 4, 8], "TN": [2, 4, 8], "BK": [8, 16],
                        "PAD": [0], "block_size_x": [32, 64, 128, 256, 512, 1024]},
        "restrictions": [f"{threads} >= 32", f"{threads} <= 1024", f"(BM * BK) % ({threads}) == 0",
                         f"(BK * BN) % ({threads}) == 0", "block_size_x * TM * TN == BM * BN"],
        "options": {"grid_div_x": ["BN"], "grid_div_y": ["BM"]},
        "work": ("GFLOP/s", 2 * n**3 / 1e9),
    }


SPACES = {"transpose": transpose_space, "sgemm": sgemm_space}


def parse_size(text):
    try:
        size = [int(v) for v in text.lower().split("x")]
    except ValueError:
        size = []
    if not size or any(v <= 0 for v in size):
        raise SystemExit(f"kernel_tuner_baseline: --size '{text}': expected positive integers joined by 'x'")
    return size


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("space", choices=sorted(SPACES))
    parser.add_argument("--size", default="")
    parser.add_argument("--gpu", type=int, default=0)
    args = parser.parse_args()
    default_size = {"transpose": "8192x8192", "sgemm": "4096"}[args.space]
    cp.cuda.Device(args.gpu).use()
    space = SPACES[args.space](parse_size(args.size or default_size))
    source = (TEMPLATES / space["file"]).read_text()
    started = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):  # stdout carries the JSON alone
        results, env = kernel_tuner.tune_kernel(
            space["kernel_name"], source, space["problem_size"], space["arguments"], space["tune_params"],
            restrictions=space["restrictions"], answer=space["answer"], atol=space["atol"], lang="cupy",
            device=args.gpu, strategy="brute_force", iterations=7, quiet=True, **space["options"])
    wall_s = time.perf_counter() - started
    timed = [r for r in results if isinstance(r.get("time"), (int, float))]
    if not timed:
        raise SystemExit(f"kernel_tuner_baseline: no configuration of {args.space} ran ({len(results)} tried)")
    best = min(timed, key=lambda r: r["time"])
    unit, work = space["work"]
    params = {name: best[name] for name in space["tune_params"] if name != "block_size_x"}
    print(json.dumps({
        "tool": "kernel_tuner", "version": version("kernel_tuner"), "cupy": cp.__version__,
        "device": env.get("device_name", ""), "space": args.space, "size": list(space["problem_size"]),
        "configs": len(results), "configs_timed": len(timed), "iterations": env.get("iterations", 7),
        "wall_s": wall_s, "import_s": IMPORT_S,
        "best": {"params": params, "time_ms": best["time"], "perf": work / (best["time"] * 1e-3), "perf_unit": unit},
    }))


if __name__ == "__main__":
    sys.exit(main())
