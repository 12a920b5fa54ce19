#include "search/methodology_score.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The rank of a valid time among the valid times, fastest 0 (numpy's searchsorted, side left).
double RankOf(const std::vector<double>& ascending, double value) {
  return static_cast<double>(std::lower_bound(ascending.begin(), ascending.end(), value) - ascending.begin());
}

}  // namespace

std::vector<double> StrategyCurve(const MethodologySpace& space, const std::vector<std::optional<double>>& time_ms,
                                  const std::vector<double>& cost_ms, const std::vector<CandidateOrder>& runs) {
  const std::vector<double>& range = space.TimeRange();
  const std::vector<double>& ascending = space.ValidAscending();
  std::vector<double> x, ranks, last_times;
  for (const CandidateOrder& run : runs) {
    const Trace trace = TraceOf(time_ms, cost_ms, run);
    if (trace.time_ms.empty()) continue;
    last_times.push_back(trace.time_ms.back());
    // The points near the range (10% margin on both sides), as the package fits them.
    for (std::size_t i = 0; i < trace.time_ms.size(); ++i)
      if (trace.time_ms[i] >= range.front() * 0.9 && trace.time_ms[i] <= range.back() * 1.1) {
        x.push_back(trace.time_ms[i]);
        ranks.push_back(RankOf(ascending, trace.best_ms[i]));
      }
  }
  if (last_times.empty()) throw std::invalid_argument("no run found a valid candidate");
  if (x.empty()) {  // every run ended before the range: each is held at its last best
    for (const CandidateOrder& run : runs) {
      const Trace trace = TraceOf(time_ms, cost_ms, run);
      if (trace.time_ms.empty()) continue;
      x.push_back(trace.time_ms.back());
      ranks.push_back(RankOf(ascending, trace.best_ms.back()));
    }
  }
  const DecreasingIsotonicFit fit(x, ranks);
  const double stop_ms = Median(last_times);  // past the median run's end the curve is held
  std::vector<double> curve;
  std::optional<double> held;
  for (const double t : range) {
    const double rank = std::clamp(RoundHalfEven(fit.Predict(t)), 0.0, static_cast<double>(ascending.size() - 1));
    const double value = ascending[static_cast<std::size_t>(rank)];
    if (!held && t > stop_ms) held = value;
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
