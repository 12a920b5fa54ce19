"""The `autotuning-methodology` package's score of runs that `tuner simulate --orders` wrote.

Usage: methodology_package_score.py CACHES KERNEL GPU ORDERS.jsonl OURS.json VISUALIZATIONS
CACHES/KERNEL/GPU.json is the brute-forced Kernel Tuner cache (uncompressed). Each run's configurations
are looked up in it and handed to the package as the results of a Kernel Tuner run (T4 evaluations with
the cache's times), then scored as its get_strategy_scores scores them; OURS.json (simulate --json)
gives our score of the same runs, printed beside it.
"""
import json
import sys
from pathlib import Path

import numpy as np
from autotuning_methodology.baseline import RandomSearchCalculatedBaseline
from autotuning_methodology.caching import ResultsDescription
from autotuning_methodology.curves import StochasticOptimizationAlgorithm
from autotuning_methodology.runner import write_results
from autotuning_methodology.searchspace_statistics import SearchspaceStatistics

TIME_KEYS = ["compilation", "benchmark", "framework", "search_algorithm", "validation"]
CACHE_KEYS = {"compilation": "compile_time", "benchmark": "benchmark_time", "framework": "framework_time",
              "search_algorithm": "strategy_time", "validation": "verification_time"}
ERRORS = {"CompilationFailedConfig": "compile", "RuntimeFailedConfig": "runtime", "InvalidConfig": "constraints"}


def evaluation(entry):
    """A cache entry as the T4 evaluation a Kernel Tuner run reports."""
    value = entry["time"]
    invalidity = ERRORS.get(value, "runtime") if isinstance(value, str) else "correct"
    return {"invalidity": invalidity,
            "times": {key: entry.get(CACHE_KEYS[key], 0) for key in TIME_KEYS},
            "measurements": [{"name": "time", "value": value, "unit": "ms"}]}


def main(caches, kernel, gpu, orders_path, ours_path, visualizations):
    with open(Path(caches) / kernel / f"{gpu}.json", encoding="utf-8") as f:
        data = json.load(f)
    keys = data["tune_params_keys"]
    by_params = {tuple(e[k] for k in keys): e for e in data["cache"].values()}
    runs = {}
    with open(orders_path, encoding="utf-8") as f:
        for line in f:
            run = json.loads(line)
            runs.setdefault(run["strategy"], []).append(
                [evaluation(by_params[tuple(c[k] for k in keys)]) for c in run["configurations"]])
    ours = {s["strategy"]: s["methodology_score"] for s in json.load(open(ours_path))["sweeps"][0]["strategies"]}

    stats = SearchspaceStatistics(kernel_name=kernel, device_name=gpu, minimization=True,
                                  objective_time_keys=TIME_KEYS, objective_performance_keys=["time"],
                                  bruteforced_caches_path=Path(caches))
    _, _, end = stats.cutoff_point_fevals_time(0.96)
    _, _, start = stats.cutoff_point_fevals_time(0.01)
    time_range = np.linspace(start, end, 10000)
    baseline = RandomSearchCalculatedBaseline(stats)
    dist = stats.objective_performances_total_sorted
    print(f"{'strategy':<12} {'package':>8} {'ours':>8}")
    for strategy, repeated in runs.items():
        description = ResultsDescription("compare", kernel, gpu, strategy, strategy, True,
                                         objective_time_keys=TIME_KEYS, objective_performance_keys=["time"],
                                         minimization=True, visualization_caches_path=Path(visualizations))
        write_results(repeated, description)
        curve = StochasticOptimizationAlgorithm(description)
        parts = curve.get_curve_over_time(time_range, dist=dist, confidence_level=0.95)
        values = np.concatenate([parts[2], parts[6]]) if parts[5].ndim > 0 else parts[2]
        standardised = baseline.get_standardised_curves(time_range, [values], x_type="time")[0]
        ours_score = ours.get(strategy)
        print(f"{strategy:<12} {np.mean(standardised):8.3f} {ours_score if ours_score is None else f'{ours_score:8.3f}'}")


if __name__ == "__main__":
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    main(*sys.argv[1:])
