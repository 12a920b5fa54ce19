// The median of a list of values: the middle one, or the mean of the two middle ones.
#pragma once

#include <vector>

namespace tuner {

// NaN for an empty list, which has no median.
double Median(std::vector<double> values);

}  // namespace tuner
