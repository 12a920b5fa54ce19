#!/usr/bin/env python3
"""cuda_tuner.tune() from PyTorch tensors against the same sweep from the command line, in one run
(issue 42): the bf16 axpy of packaging/python/examples/tune_axpy_bf16.py at 2^24 elements, brute
force, each with a fresh database and compile cache. The Python figure is the whole call (checking
the arguments, the reference run once on copies, the .npy files written, the tool's sweep); the
command line's is `tuner tune` on the very folder the call wrote. Prints a Markdown table.

    TUNER_BINARY=build/bin/tuner PYTHONPATH=packaging/python python3 bench/bench_python.py [--runs N]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import torch

import cuda_tuner

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "packaging", "python", "examples"))
from tune_axpy_bf16 import KERNEL  # noqa: E402  (the example's kernel, not a copy)


def python_run(n: int, folder: str, db: str) -> float:
    x = torch.rand(n, device="cuda").to(torch.bfloat16)
    y = torch.rand(n, device="cuda").to(torch.bfloat16)
    out = torch.empty_like(x)
    start = time.perf_counter()
    cuda_tuner.tune(KERNEL, "axpy_bf16", {"out": out, "x": x, "y": y, "a": 0.5, "n": n},
                    params={"BLOCK": [64, 128, 256, 512, 1024], "ITEMS": [1, 2, 4, 8]},
                    constraints=["BLOCK * ITEMS <= 4096"], grid="cdiv(N, BLOCK * ITEMS)", block="BLOCK",
                    sizes={"N": n}, outputs="out", reference=lambda out, x, y, a, n: torch.add(y, x, alpha=a),
                    timing="graph", work_bytes="3 * 2 * N", strategy="brute_force", db=db, folder=folder,
                    echo=open(os.devnull, "w"))
    return time.perf_counter() - start


def command_line_run(folder: str, db: str, cache: str) -> float:
    start = time.perf_counter()
    subprocess.run([os.environ["TUNER_BINARY"], "tune", "axpy_bf16", "--templates", folder, "--db", db,
                    "--strategy", "brute_force", "--json"], check=True, capture_output=True,
                   env=dict(os.environ, XDG_CACHE_HOME=cache))
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    n = 1 << 24
    print("| run | cuda_tuner.tune() | tuner tune, same folder | ratio |\n|---|---|---|---|")
    for run in range(1, runs + 1):
        with tempfile.TemporaryDirectory() as work:
            os.environ["XDG_CACHE_HOME"] = os.path.join(work, "cache-python")
            folder = os.path.join(work, "axpy")
            python_s = python_run(n, folder, os.path.join(work, "python.db"))
            cli_s = command_line_run(folder, os.path.join(work, "cli.db"), os.path.join(work, "cache-cli"))
            print(f"| {run} | {python_s:.2f} s | {cli_s:.2f} s | {python_s / cli_s:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
