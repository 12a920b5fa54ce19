// The space the methodology tests share: nine valid candidates, 5, 9, 1, 7, 3, 8, 2, 6 and 4 ms
// (candidates 0..8), each evaluation costing 10 ms (the median is 5, the optimum 1), scored at three
// points of time.
#pragma once

#include <optional>
#include <vector>

#include "search/methodology_space.h"

namespace tuner::testing {

inline const std::vector<std::optional<double>> kTimes = {5.0, 9.0, 1.0, 7.0, 3.0, 8.0, 2.0, 6.0, 4.0};
inline const std::vector<double> kCosts(9, 10.0);
inline const MethodologySettings kThreePoints{0.95, 0.01, 3};

}  // namespace tuner::testing
