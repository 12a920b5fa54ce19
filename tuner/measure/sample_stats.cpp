#include "measure/sample_stats.h"

#include <algorithm>

namespace tuner {

namespace {

// Linear interpolation between the closest ranks of sorted samples.
double Quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

SampleStats Summarise(std::vector<double> samples) {
  SampleStats stats;
  if (samples.empty()) return stats;
  std::sort(samples.begin(), samples.end());
  stats.count = static_cast<int>(samples.size());
  stats.min = samples.front();
  stats.max = samples.back();
  stats.median = Quantile(samples, 0.5);
  stats.spread = stats.median > 0 ? (Quantile(samples, 0.75) - Quantile(samples, 0.25)) / stats.median : 0;
  return stats;
}

}  // namespace tuner
