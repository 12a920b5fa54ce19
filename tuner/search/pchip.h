// The piecewise cubic Hermite interpolant that keeps monotone data monotone (Fritsch and Carlson;
// the slopes as SciPy's PchipInterpolator takes them), with which the community's methodology
// smooths random search's expected curve (methodology_space.h).
#pragma once

#include <vector>

namespace tuner {

// The interpolant through (x[i], y[i]), x strictly ascending and at least two points, at each of
// `at` (each within [x.front(), x.back()]). Throws std::invalid_argument otherwise.
std::vector<double> PchipInterpolate(const std::vector<double>& x, const std::vector<double>& y,
                                     const std::vector<double>& at);

}  // namespace tuner
