// The check's tolerances when a description gives none, derived from the outputs' element type: a
// result rounded to a type of epsilon e may differ from the reference's by a unit in the last place
// (e · |ref|), and once more where the two round at different points, so the default relative
// tolerance is 2e, at least the former default 1e-5 (fp32 and fp64 keep it), and atol is 0. Where
// [check] declares a reduction length R (the terms each output sums), the rounding of the sum adds
// up like a random walk over terms of magnitude up to 1, an absolute error that a sum cancelling to
// near zero cannot hide in rtol: atol = 2e · sqrt(R). Integers: rtol 1e-5, atol 0
// (kernel_templates/README.md).
#pragma once

#include <string>
#include <vector>

#include "template/template_spec.h"

namespace tuner {

inline constexpr double kDefaultRtolFloor = 1e-5;
inline constexpr double kEpsilonFactor = 2;

// The largest epsilon among the output buffers (0 when all are integers).
double CoarsestOutputEpsilon(const std::vector<ArgSpec>& args);

// The default expressions over the sizes; `reduction` is [check] reduction's expression or "".
std::string DefaultRtol(const std::vector<ArgSpec>& args);
std::string DefaultAtol(const std::vector<ArgSpec>& args, const std::string& reduction);

// The widest rtol a description may give: 0.1 (an output 10% off), or 2e of an fp8 output, whose
// own rounding is 6% (e4m3) or 12% (e5m2); below 1, at which an all-zero output would pass.
double MaxRtol(const std::vector<ArgSpec>& args);

}  // namespace tuner
