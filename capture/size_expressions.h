// What a capture of several sizes writes for a value that changes with the size (a buffer's
// length, a scalar): the expression over the size variables that gives the value seen at every
// captured size. No CUDA, so it is unit-tested on its own.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tuner::capture {

using SizeValues = std::vector<std::pair<std::string, long long>>;  // the sizes of one launch, in order

// A product of size variables, times a whole constant, equal to values[i] at sizes[i] for every i:
// "N", "BINS", "N * BINS", "4 * N", or a constant "256" when no variable is needed. Products
// without a constant come first, the fewest variables first (bins = 256 at BINS = 256 is "BINS").
// nullopt when no such product fits (then the capture says so in the description).
std::optional<std::string> ProductOfSizes(const std::vector<SizeValues>& sizes, const std::vector<long long>& values);

}  // namespace tuner::capture
