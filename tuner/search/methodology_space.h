// A brute-forced space as the community's methodology sees it (Willemsen, van Nieuwpoort and van
// Werkhoven, "A methodology for comparing optimization algorithms for auto-tuning", 2024; the
// `autotuning-methodology` package's SearchspaceStatistics and RandomSearchCalculatedBaseline):
// the valid configurations' times, what each evaluation costs (its compile and run time), the range
// of tuning time a strategy is scored over, and the curve random search is expected to follow.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace tuner {

// The package's default settings (its experiments_defaults.json, version 1.1.0): the time range
// runs from where random search is expected to reach `cutoff_start` of the way from the median to
// the optimum to where it reaches `cutoff`.
struct MethodologySettings {
  double cutoff = 0.95;           // cutoff_percentile
  double cutoff_start = 0.01;     // cutoff_percentile_start
  std::size_t resolution = 1000;  // points in the time range
};

class MethodologySpace {
 public:
  // time_ms[c]: candidate c's objective, nullopt when it failed; cost_ms[c]: what evaluating it took
  // (compile and run). Throws std::invalid_argument when no candidate succeeded, the lengths differ,
  // or the median cost is not above 0 (a space whose costs are unknown cannot be scored).
  MethodologySpace(const std::vector<std::optional<double>>& time_ms, const std::vector<double>& cost_ms,
                   const MethodologySettings& settings = {});

  const std::vector<double>& ValidAscending() const { return valid_ascending_; }
  double Optimum() const { return valid_ascending_.front(); }
  // The tuning times (ms) a strategy is scored at: `resolution` points, evenly spaced.
  const std::vector<double>& TimeRange() const { return time_range_; }
  // Random search's expected best time at each point of TimeRange().
  std::vector<double> RandomCurve() const;
  // Evaluations random search needs, in expectation, to reach `fraction` of the way from the
  // median to the optimum (the package's cutoff_point: one time fewer where that point is the
  // optimum itself, unless `fraction` is 1). Throws std::invalid_argument where the first
  // evaluation would be the optimum.
  std::size_t EvaluationsToCutoff(double fraction) const;

 private:
  double MeanCostPerEvaluation(const std::vector<std::optional<double>>& time_ms,
                               const std::vector<double>& cost_ms) const;
  double RandomDraw(double evaluations) const;
  void SetTimeRange(const MethodologySettings& settings);

  std::vector<double> valid_ascending_;
  double median_cost_ms_ = 0;
  double cost_per_evaluation_ms_ = 0;
  std::vector<double> time_range_;
};

// Python's round(): halves to even, as the package rounds.
double RoundHalfEven(double value);

}  // namespace tuner
