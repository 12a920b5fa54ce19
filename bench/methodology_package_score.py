"""The `autotuning-methodology` package's score (version 1.1.0's API) of runs `tuner simulate --orders` wrote.

Usage: methodology_package_score.py T4_FILE APPLICATION GPU ORDERS.jsonl OURS.json RUN_FOLDER
T4_FILE is the brute-forced space as a T4 results file (uncompressed), the package's "full search space
file". Each run's configurations are looked up in it and handed to the package as the results of a
tuning run (T4 evaluations with the file's times, in seconds as the package's runner converts them),
then scored as its get_strategy_scores scores them, with its default settings (cutoff 0.95, start 0.01,
resolution 1000, every time key); OURS.json (simulate --json) gives our score of the same runs.
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

TIME_KEYS = ["compilation", "runtimes", "framework", "search_algorithm", "validation"]


def in_seconds(times):
    return {k: ([x / 1000 for x in v] if isinstance(v, list) else v / 1000) for k, v in times.items()}


def main(t4_file, application, gpu, orders_path, ours_path, run_folder):
    with open(t4_file, encoding="utf-8") as f:
        results = json.load(f)["results"]
    names = list(results[0]["configuration"].keys())
    by_config = {}
    for r in results:
        evaluation = dict(r, times=in_seconds(r["times"]))
        for key in TIME_KEYS:
            evaluation["times"].setdefault(key, 0)
        by_config[tuple(r["configuration"][k] for k in names)] = evaluation
    runs = {}
    with open(orders_path, encoding="utf-8") as f:
        for line in f:
            run = json.loads(line)
            runs.setdefault(run["strategy"], []).append(
                [by_config[tuple(c[k] for k in names)] for c in run["configurations"]])
    with open(ours_path, encoding="utf-8") as f:
        ours = {s["strategy"]: s["methodology_score"] for s in json.load(f)["sweeps"][0]["strategies"]}

    stats = SearchspaceStatistics(application_name=application, device_name=gpu, minimization=True,
                                  objective_time_keys=TIME_KEYS, objective_performance_keys=["time"],
                                  full_search_space_file_path=Path(t4_file))
    _, _, start, end = stats.cutoff_point_fevals_time_start_end(0.01, 0.95)
    time_range = np.linspace(start, end, 1000)
    baseline = RandomSearchCalculatedBaseline(stats)
    dist = stats.objective_performances_total_sorted
    print(f"{'strategy':<12} {'package':>8} {'ours':>8}")
    for strategy, repeated in runs.items():
        description = ResultsDescription(Path(run_folder), application, gpu, strategy, strategy, True,
                                         objective_time_keys=TIME_KEYS, objective_performance_keys=["time"],
                                         minimization=True)
        write_results(repeated, description)
        curve = StochasticOptimizationAlgorithm(description)
        parts = curve.get_curve_over_time(time_range, dist=dist, confidence_level=0.95)
        values = np.concatenate([parts[2], parts[6]])
        standardised = baseline.get_standardised_curves(time_range, [values], x_type="time")[0]
        ours_score = ours.get(strategy)
        ours_text = "-" if ours_score is None else f"{ours_score:.3f}"
        print(f"{strategy:<12} {np.mean(standardised):8.3f} {ours_text:>8}")


if __name__ == "__main__":
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    main(*sys.argv[1:])
