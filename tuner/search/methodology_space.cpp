#include "search/methodology_space.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <stdexcept>

#include "base/median.h"
#include "search/pchip.h"

namespace tuner {

namespace {

double Mean(const std::vector<double>& values) {
  double sum = 0;
  for (const double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

std::vector<double> Linspace(double first, double last, std::size_t count) {
  std::vector<double> points(count);
  for (std::size_t i = 0; i < count; ++i)
    points[i] = count == 1 ? first : first + (last - first) * static_cast<double>(i) / static_cast<double>(count - 1);
  if (count > 1) points.back() = last;
  return points;
}

}  // namespace

double RoundHalfEven(double value) {
  const int mode = std::fegetround();
  std::fesetround(FE_TONEAREST);
  const double rounded = std::nearbyint(value);
  std::fesetround(mode);
  return rounded;
}

MethodologySpace::MethodologySpace(const std::vector<std::optional<double>>& time_ms,
                                   const std::vector<double>& cost_ms, const MethodologySettings& settings) {
  if (time_ms.size() != cost_ms.size()) throw std::invalid_argument("a cost for every candidate is needed");
  for (const auto& t : time_ms)
    if (t) valid_ascending_.push_back(*t);
  if (valid_ascending_.empty()) throw std::invalid_argument("no candidate succeeded: nothing to score against");
  std::sort(valid_ascending_.begin(), valid_ascending_.end());
  median_cost_ms_ = Median(cost_ms);
  if (!(median_cost_ms_ > 0))
    throw std::invalid_argument("the stored sweep records no compile or run times: its tuning time is unknown");
  cost_per_evaluation_ms_ = MeanCostPerEvaluation(time_ms, cost_ms);
  SetTimeRange(settings);
}

// The package's cutoff_point_fevals_time_start_end: at least two evaluations apart.
void MethodologySpace::SetTimeRange(const MethodologySettings& settings) {
  std::size_t start = EvaluationsToCutoff(settings.cutoff_start), end = EvaluationsToCutoff(settings.cutoff);
  if (end < start + 2) {
    // (The package takes the smaller of this and cutoff_point(1.0)[0], the optimum's time rather
    // than the evaluations to it, apparently by mistake; the evaluations are meant.)
    const std::size_t to_optimum = EvaluationsToCutoff(1.0);
    if (start == 0) {
      end = std::min(to_optimum, end + 2);
    } else {
      end = std::min(to_optimum, end + 1);
      --start;
    }
  }
  if (end == start) throw std::invalid_argument("the time range is empty: random search finds the optimum at once");
  const double start_ms = settings.cutoff_start > 0 ? static_cast<double>(start) * median_cost_ms_ : 0.0;
  time_range_ =
      Linspace(start_ms, static_cast<double>(end) * median_cost_ms_, std::max<std::size_t>(settings.resolution, 2));
}

// The package's "mean_per_feval": the valid ones' mean cost plus the share of failures times theirs.
double MethodologySpace::MeanCostPerEvaluation(const std::vector<std::optional<double>>& time_ms,
                                               const std::vector<double>& cost_ms) const {
  std::vector<double> valid, failed;
  for (std::size_t c = 0; c < time_ms.size(); ++c) (time_ms[c] ? valid : failed).push_back(cost_ms[c]);
  if (failed.empty()) return Mean(valid);
  const double failed_share = static_cast<double>(failed.size()) / static_cast<double>(time_ms.size());
  return Mean(valid) + failed_share * Mean(failed);
}

std::size_t MethodologySpace::EvaluationsToCutoff(double fraction) const {
  const double optimum = Optimum(), median = Median(valid_ascending_);
  const double target = optimum + (median - optimum) * (1 - fraction);
  const std::size_t n = valid_ascending_.size();
  // i: how many valid times lie above the target (the first at or below it, slowest first).
  std::size_t i = 0;
  while (i < n && valid_ascending_[n - 1 - i] > target) ++i;
  if (fraction != 1.0 && valid_ascending_[n - 1 - i] == optimum) {
    if (i == 0) throw std::invalid_argument("every valid candidate is the optimum: nothing to search for");
    --i;
  }
  return static_cast<std::size_t>(std::ceil(static_cast<double>(i) / static_cast<double>(n + 1 - i)));
}

// The expected best of `evaluations` draws without replacement: the value at the expected rank.
double MethodologySpace::RandomDraw(double evaluations) const {
  const double n = static_cast<double>(valid_ascending_.size());
  const double index = std::min(n - 1, RoundHalfEven(evaluations * (n + 1) / (evaluations + 1)));
  return valid_ascending_[valid_ascending_.size() - 1 - static_cast<std::size_t>(index)];  // slowest first
}

std::vector<double> MethodologySpace::RandomCurve() const {
  std::vector<double> evaluations, draws;
  for (const double t : time_range_) evaluations.push_back(RoundHalfEven(std::max(t / cost_per_evaluation_ms_, 1.0)));
  for (const double e : evaluations) draws.push_back(RandomDraw(e));
  if (evaluations.size() <= 2) return draws;
  // Smoothed as the package smooths it: a monotone cubic through the first draw of each count.
  std::vector<double> x, y;
  for (std::size_t i = 0; i < evaluations.size(); ++i)
    if (x.empty() || evaluations[i] > x.back()) {
      x.push_back(evaluations[i]);
      y.push_back(draws[i]);
    }
  if (x.size() < 2) return draws;
  return PchipInterpolate(x, y, Linspace(evaluations.front(), evaluations.back(), evaluations.size()));
}

}  // namespace tuner
