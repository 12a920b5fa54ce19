"""One table row of bench/bench_hub_strategies.sh: our default strategy beside Kernel Tuner's best on a space.

Usage: hub_strategies_row.py SPACE OURS.json KT.json SCORES.txt
OURS.json is `tuner simulate --json` (with the strategies `auto` and, where the store holds the
space's other GPUs, `auto (warm)`), KT.json bench/kernel_tuner_simulate.py's summary, SCORES.txt
bench/methodology_package_score.py's table (strategy, the package's score, ours).

Our default is what `tune` runs as a user gets it: `--strategy auto` with `--warm-start auto`, so
warm where the store holds other sweeps of the template, else cold. The targets are judged on it:
its score at least Kernel Tuner's best's, and its mean evaluations to within 5% at most half of
Kernel Tuner's best's, reaching 5% in at least as many runs. Where Kernel Tuner's best never comes
within 5% in the budget, the evaluations target is met when our default reaches it in every run.
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


def evaluations(summary):
    mean = summary["mean"]
    return f"{'-' if mean is None else f'{mean:.1f}'} ({summary['reached']}/{summary['runs']})"


def ours_summary(s):
    return {"mean": s["evaluations_to_within_5pct"]["mean"], "reached": s["reached"], "runs": s["runs"]}


def kt_summary(s):
    return {"mean": s["mean_to_target"], "reached": s["reached"], "runs": s["runs"]}


def score_text(scores, name):
    package, ours = scores[name]
    return f"{package:.3f}" + ("" if ours is None else f"; {ours:.3f}")


def targets(default, kt, scores, default_name, kt_name):
    """The two targets for one of our strategies: (score, evaluations), each 'met' or 'missed'."""
    score = "met" if scores[default_name][0] >= scores[kt_name][0] else "missed"
    if kt["reached"] == 0:
        met = default["reached"] == default["runs"]
        return score, ("met" if met else "missed") + " (Kernel Tuner never within 5%)"
    met = (default["mean"] is not None and default["mean"] <= kt["mean"] / 2
           and default["reached"] >= kt["reached"])
    return score, "met" if met else "missed"


def main(space, ours_path, kt_path, scores_path):
    sweep = json.load(open(ours_path, encoding="utf-8"))["sweeps"][0]
    kt = json.load(open(kt_path, encoding="utf-8"))["strategies"]
    scores = package_scores(scores_path)
    ours = {s["strategy"]: ours_summary(s) for s in sweep["strategies"]}
    theirs = {s["strategy"]: kt_summary(s) for s in kt}
    best_kt = max((n for n in theirs if n in scores), key=lambda n: scores[n][0])
    default = "auto (warm)" if "auto (warm)" in ours else "auto"
    cold = ours["auto"]
    best_ours = max((n for n in ours if n in scores), key=lambda n: scores[n][0])
    score_target, evals_target = targets(ours[default], theirs[best_kt], scores, default, best_kt)
    cold_score, cold_evals = targets(cold, theirs[best_kt], scores, "auto", best_kt)
    warm_cells = (f"{score_text(scores, default)} | {evaluations(ours[default])}" if default != "auto"
                  else "no other GPU stored | -")
    print(f"| {space} | {sweep['candidates']} | {best_kt[3:]} ({scores[best_kt][0]:.3f}) "
          f"| {evaluations(theirs[best_kt])} | {warm_cells} | {score_text(scores, 'auto')} | {evaluations(cold)} "
          f"| {score_target} | {evals_target} | {cold_score}, {cold_evals.split(' (')[0]} "
          f"| {best_ours} ({score_text(scores, best_ours)}; {evaluations(ours[best_ours])}) |")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
