// A fraction written as a percentage, the one way every output of the tool writes one.
#pragma once

#include <string>

namespace tuner {

// With `decimals` digits after the point: PercentText(0.1234, 1) is "12.3%".
std::string PercentText(double fraction, int decimals);

// With at most `significant_digits` and no trailing zeros: PercentTextSignificant(0.5, 4) is "50%",
// PercentTextSignificant(0.123456, 4) is "12.35%".
std::string PercentTextSignificant(double fraction, int significant_digits);

// `part` as a percentage of `whole` with `decimals` digits after the point, or "-" where `whole` is
// not positive (nothing to be a share of).
std::string PercentOf(double part, double whole, int decimals);

}  // namespace tuner
