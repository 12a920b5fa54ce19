"""One table row of bench/bench_hub_strategies.sh: each side's best strategy on a space.

Usage: hub_strategies_row.py SPACE OURS.json KT.json SCORES.txt
OURS.json is `tuner simulate --json`, KT.json bench/kernel_tuner_simulate.py's summary, SCORES.txt
bench/methodology_package_score.py's table (strategy, the package's score, ours).
"""
import json
import sys


def package_scores(path):
    scores = {}
    with open(path, encoding="utf-8") as f:
        next(f)  # the header
        for line in f:
            name, package, ours = line.rstrip("\n").rsplit(None, 2)
            scores[name.strip()] = (float(package), None if ours == "-" else float(ours))
    return scores


def evaluations(mean, reached, runs):
    return f"{'-' if mean is None else f'{mean:.1f}'} ({reached}/{runs})"


def main(space, ours_path, kt_path, scores_path):
    sweep = json.load(open(ours_path, encoding="utf-8"))["sweeps"][0]
    kt = json.load(open(kt_path, encoding="utf-8"))["strategies"]
    scores = package_scores(scores_path)
    ours = {s["strategy"]: s for s in sweep["strategies"]}
    theirs = {s["strategy"]: s for s in kt}
    best_ours = max((n for n in ours if n in scores), key=lambda n: scores[n][0])
    best_kt = max((n for n in theirs if n in scores), key=lambda n: scores[n][0])
    o, k = ours[best_ours], theirs[best_kt]
    o_mean = o["evaluations_to_within_5pct"]["mean"]
    k_mean = k["mean_to_target"]
    score_met = scores[best_ours][0] >= scores[best_kt][0]
    evals_met = o_mean is not None and k_mean is not None and o_mean <= k_mean / 2
    print(f"| {space} | {sweep['candidates']} | {best_ours} ({scores[best_ours][0]:.3f}; "
          f"{'-' if scores[best_ours][1] is None else f'{scores[best_ours][1]:.3f}'}) "
          f"| {evaluations(o_mean, o['reached'], o['runs'])} | {best_kt[3:]} ({scores[best_kt][0]:.3f}) "
          f"| {evaluations(k_mean, k['reached'], k['runs'])} | {'met' if score_met else 'missed'} "
          f"| {'met' if evals_met else 'missed'} |")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
