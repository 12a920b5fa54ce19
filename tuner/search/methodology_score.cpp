#include "search/methodology_score.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/median.h"
#include "search/isotonic_regression.h"

namespace tuner {

namespace {

constexpr double kNoRoom = 1e-9;  // relative: the smoothed random curve meets the optimum within rounding

// A run's evaluations as (tuning time so far, best valid time so far); none before its first valid one.
struct Trace {
  std::vector<double> time_ms, best_ms;
};

Trace TraceOf(const std::vector<std::optional<double>>& time_ms, const std::vector<double>& cost_ms,
              const CandidateOrder& run) {
  Trace trace;
  double spent = 0;
  std::optional<double> best;
  for (const std::size_t c : run) {
    spent += cost_ms.at(c);
    if (time_ms.at(c) && (!best || *time_ms[c] < *best)) best = time_ms[c];
    if (!best) continue;
    trace.time_ms.push_back(spent);
    trace.best_ms.push_back(*best);
  }
  return trace;
}

// The rank of a valid time among the valid times, fastest 0 (numpy's searchsorted, side left).
double RankOf(const std::vector<double>& ascending, double value) {
  return static_cast<double>(std::lower_bound(ascending.begin(), ascending.end(), value) - ascending.begin());
}

// The package's real stopping point: the first run end past the median run end (sorted); none
// when no run ends past it.
std::optional<double> StoppingPoint(std::vector<double> run_ends) {
  const double median = Median(run_ends);
  std::sort(run_ends.begin(), run_ends.end());
  for (const double end : run_ends)
    if (end > median) return end;
  return std::nullopt;
}

// The package's margin around the range: 10%, more when the runs have few evaluations in all
// (0.25 x runs / the cells of its evaluations-by-runs table, counted from the first evaluation
// at which some run has found a valid candidate).
double Margin(const std::vector<CandidateOrder>& runs, const std::vector<std::size_t>& first_valid) {
  std::size_t longest = 0, earliest = std::numeric_limits<std::size_t>::max();
  for (const CandidateOrder& run : runs) longest = std::max(longest, run.size());
  for (const std::size_t f : first_valid) earliest = std::min(earliest, f);
  const std::size_t rows = longest > earliest ? longest - earliest : 1;
  return 0.1 + 0.25 / static_cast<double>(rows);
}

}  // namespace

std::vector<double> StrategyCurve(const MethodologySpace& space, const std::vector<std::optional<double>>& time_ms,
                                  const std::vector<double>& cost_ms, const std::vector<CandidateOrder>& runs) {
  const std::vector<double>& range = space.TimeRange();
  const std::vector<double>& ascending = space.ValidAscending();
  std::vector<Trace> traces;
  std::vector<double> run_ends;
  std::vector<std::size_t> first_valid;
  for (const CandidateOrder& run : runs) {
    traces.push_back(TraceOf(time_ms, cost_ms, run));
    if (traces.back().time_ms.empty()) continue;
    run_ends.push_back(traces.back().time_ms.back());
    first_valid.push_back(run.size() - traces.back().time_ms.size());
  }
  if (run_ends.empty()) throw std::invalid_argument("no run found a valid candidate");
  const double margin = Margin(runs, first_valid);
  std::vector<double> x, ranks;
  for (const Trace& trace : traces)
    for (std::size_t i = 0; i < trace.time_ms.size(); ++i)
      if (trace.time_ms[i] >= range.front() * (1 - margin) && trace.time_ms[i] <= range.back() * (1 + margin)) {
        x.push_back(trace.time_ms[i]);
        ranks.push_back(RankOf(ascending, trace.best_ms[i]));
      }
  if (x.empty())
    throw std::invalid_argument("no run has an evaluation in the time range (the package refuses such runs too)");
  const DecreasingIsotonicFit fit(x, ranks);
  const std::optional<double> stop_ms = StoppingPoint(run_ends);  // past it the curve is held
  std::vector<double> curve;
  std::optional<double> held;
  for (const double t : range) {
    const double rank = std::clamp(RoundHalfEven(fit.Predict(t)), 0.0, static_cast<double>(ascending.size() - 1));
    const double value = ascending[static_cast<std::size_t>(rank)];
    if (!held && stop_ms && t > *stop_ms) held = value;
    curve.push_back(held ? *held : value);
  }
  return curve;
}

double MethodologyScore(const std::vector<std::optional<double>>& time_ms, const std::vector<double>& cost_ms,
                        const std::vector<CandidateOrder>& runs, const MethodologySettings& settings) {
  const MethodologySpace space(time_ms, cost_ms, settings);
  const std::vector<double> random = space.RandomCurve();
  const std::vector<double> strategy = StrategyCurve(space, time_ms, cost_ms, runs);
  double sum = 0;
  std::size_t points = 0;
  for (std::size_t i = 0; i < random.size(); ++i) {
    const double room = space.Optimum() - random[i];
    if (std::fabs(room) <= kNoRoom * std::fabs(space.Optimum())) continue;  // random has the optimum (to rounding)
    sum += (strategy[i] - random[i]) / room;
    ++points;
  }
  return points ? sum / static_cast<double>(points) : 1.0;
}

}  // namespace tuner
