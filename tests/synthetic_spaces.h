// Synthetic search spaces for the strategies' tests: every combination of some values that a
// constraint keeps, a smooth landscape over them, and a driver that answers a strategy's proposals.
#pragma once

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "search/search_strategy.h"

namespace tuner {
namespace testing {

using TimeFunction = std::function<std::optional<double>(const std::vector<long long>&)>;

// Every combination of the parameters' values (last fastest) that `allowed` keeps.
struct Space {
  std::vector<ParamSpec> params;
  std::vector<ParamValues> candidates;
};

inline Space MakeSpace(const std::vector<std::vector<long long>>& values,
                       const std::function<bool(const std::vector<long long>&)>& allowed = nullptr) {
  Space space;
  for (std::size_t d = 0; d < values.size(); ++d) space.params.push_back({"P" + std::to_string(d), values[d], {}});
  std::vector<std::size_t> index(values.size(), 0);
  for (bool more = true; more;) {
    std::vector<long long> point;
    ParamValues params;
    for (std::size_t d = 0; d < values.size(); ++d) {
      point.push_back(values[d][index[d]]);
      params.emplace_back(space.params[d].name, point.back());
    }
    if (!allowed || allowed(point)) space.candidates.push_back(params);
    more = false;
    for (std::size_t d = values.size(); d-- > 0;) {
      if (++index[d] < values[d].size()) {
        more = true;
        break;
      }
      index[d] = 0;
    }
  }
  return space;
}

inline std::vector<long long> Point(const ParamValues& params) {
  std::vector<long long> point;
  for (const auto& [name, value] : params) point.push_back(value);
  return point;
}

// Runs a strategy to its end against `time`; returns the proposals in order.
inline std::vector<std::size_t> Drive(SearchStrategy& strategy, const Space& space, const TimeFunction& time,
                                      std::vector<Evaluation> history = {}) {
  std::vector<std::size_t> proposed;
  while (const auto next = strategy.Next(history)) {
    proposed.push_back(*next);
    const std::optional<double> t = time(Point(space.candidates.at(*next)));
    history.push_back({*next, t.has_value(), t.value_or(0)});
  }
  return proposed;
}

inline std::vector<std::size_t> RunStrategy(const std::string& name, const Space& space, const TimeFunction& time,
                                            unsigned long long seed = 0, std::size_t budget = 0) {
  const auto strategy = MakeStrategy({name, budget, seed, nullptr}, space.candidates, space.params);
  return Drive(*strategy, space, time);
}

// A smooth bowl with its minimum (1 ms) far from the start of enumeration order.
inline std::optional<double> Bowl(const std::vector<long long>& p) {
  double t = 1;
  const std::vector<double> centre = {6, 5, 2, 3};
  for (std::size_t d = 0; d < p.size(); ++d) t *= 1 + 0.25 * std::pow(static_cast<double>(p[d]) - centre[d], 2);
  return t;
}

inline const Space& BowlSpace() {  // 8 x 8 x 6 x 6 = 2304 points, 1 in 7 left out by a "constraint"
  static const Space space =
      MakeSpace({{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5}},
                [](const std::vector<long long>& p) { return (p[0] + 2 * p[1] + 3 * p[2] + p[3]) % 7 != 3; });
  return space;
}

}  // namespace testing
}  // namespace tuner
