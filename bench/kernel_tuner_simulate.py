"""Kernel Tuner's strategies replayed on a brute-forced Kernel Tuner cache (its simulation mode: no GPU).

Usage: kernel_tuner_simulate.py CACHE T1_FILE T4_FILE STRATEGIES RUNS ORDERS.jsonl SUMMARY.json

CACHE is a Kernel Tuner cache file (.json or .json.gz) of the whole space, T1_FILE the space's T1
description (its Conditions are the restrictions), T4_FILE the same space as T4 results: the budget
is the `autotuning-methodology` package's (version 1.1.0) for that space with its default settings,
the time random search is expected to need to get 95% of the way to the optimum (from 1%), plus the
package's 10% margin, as its experiment runner gives Kernel Tuner (`time_limit`, charged in
simulated time: each evaluation's compile and run time from the cache). Each run is seeded (run i:
numpy and random seeded i). STRATEGIES is a comma-separated list of Kernel Tuner 1.5.0 strategy
names. Writes each run's configurations in order (ORDERS, JSON lines, strategy named "kt:NAME", as
`tuner simulate --orders` writes ours) and, per strategy, the evaluations needed to come within 5%
of the cache's optimum (SUMMARY).
"""
import gzip
import json
import random
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
from autotuning_methodology.searchspace_statistics import SearchspaceStatistics
from kernel_tuner import tune_kernel

TIME_KEYS = ["compilation", "runtimes", "framework", "search_algorithm", "validation"]


def read_json(path):
    opener = gzip.open if Path(path).suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def time_limit_s(t4_path, application, gpu):
    with tempfile.TemporaryDirectory() as folder:
        plain = Path(folder) / "space_T4.json"
        plain.write_text(json.dumps(read_json(t4_path)), encoding="utf-8")
        stats = SearchspaceStatistics(application_name=application, device_name=gpu, minimization=True,
                                      objective_time_keys=TIME_KEYS, objective_performance_keys=["time"],
                                      full_search_space_file_path=plain)
        _, _, _, end = stats.cutoff_point_fevals_time_start_end(0.01, 0.95)
    return end * 1.1


def valid_time(entry):
    t = entry.get("time")
    return t if isinstance(t, (int, float)) and np.isfinite(t) else None


def main(cache_path, t1_path, t4_path, strategies, runs, orders_path, summary_path):
    cache = read_json(cache_path)
    t1 = read_json(t1_path)
    keys = cache["tune_params_keys"]
    restrictions = [c["Expression"] for c in t1["ConfigurationSpace"].get("Conditions", [])]
    optimum = min(t for t in map(valid_time, cache["cache"].values()) if t is not None)
    limit = time_limit_s(t4_path, Path(t1_path).stem, cache.get("device_name", "gpu"))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as plain:
        json.dump(cache, plain)  # Kernel Tuner reads an uncompressed cache
    summary = {"optimum_ms": optimum, "time_limit_s": limit, "strategies": []}
    with open(orders_path, "w", encoding="utf-8") as orders:
        for strategy in strategies.split(","):
            to_target = []
            evaluations = []
            for run in range(int(runs)):
                np.random.seed(run)
                random.seed(run)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    results, _ = tune_kernel(cache["kernel_name"], "__global__ void %s() {}" % cache["kernel_name"],
                                             cache["problem_size"], [], cache["tune_params"],
                                             restrictions=restrictions, strategy=strategy, simulation_mode=True,
                                             cache=plain.name, lang="CUDA", strategy_options={"time_limit": limit},
                                             verbose=False, quiet=True)
                configurations = [{k: r[k] for k in keys} for r in results]
                orders.write(json.dumps({"strategy": "kt:" + strategy, "run": run, "configurations": configurations}) + "\n")
                evaluations.append(len(results))
                reached = next((i + 1 for i, r in enumerate(results)
                                if valid_time(r) is not None and valid_time(r) <= optimum * 1.05), None)
                if reached is not None:
                    to_target.append(reached)
            summary["strategies"].append({
                "strategy": "kt:" + strategy, "runs": int(runs), "reached": len(to_target),
                "mean_to_target": float(np.mean(to_target)) if to_target else None,
                "median_to_target": float(np.median(to_target)) if to_target else None,
                "evaluations_mean": float(np.mean(evaluations))})
            print(f"kt:{strategy}: {len(to_target)}/{runs} within 5%, mean "
                  f"{np.mean(to_target) if to_target else float('nan'):.1f} evaluations", file=sys.stderr)
    Path(plain.name).unlink()
    with open(summary_path, "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    main(*sys.argv[1:])
