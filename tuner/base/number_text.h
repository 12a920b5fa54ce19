// Whole numbers and problem sizes read from text, one way for the whole tool: the options of every
// command (tuner/common/option_values, tuner/template/problem_size) and the store's size keys are
// read here. Nothing here throws: the callers word the message, naming their option or file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tuner {

// Decimal digits after at most one sign ('+' or '-'): nothing else, not even blanks.
struct WholeNumberText {
  bool negative = false;
  std::optional<unsigned long long> magnitude;  // empty beyond 2^64 - 1
};
std::optional<WholeNumberText> ReadWholeNumber(const std::string& text);

// The largest size: sizes are variables of the templates' expressions, which compute in double
// precision, exact for whole numbers up to 2^53.
constexpr long long kMaxSize = 1LL << 53;

// "8192x4096" -> {8192, 4096}: whole numbers from 1 to kMaxSize (digits only) joined by 'x'.
struct SizeReading {
  enum class Problem { kNone, kNotWholeNumbers, kTooLarge, kBelowOne };
  std::vector<long long> sizes;  // every number when `problem` is kNone
  Problem problem = Problem::kNone;
  std::string part;  // the first number at fault
};
SizeReading ReadSizes(const std::string& text);

// A stored size key read as ReadSizes does; empty when it refuses it. And back.
std::vector<long long> ParseSizeKey(const std::string& key);
std::string SizeKey(const std::vector<long long>& sizes);

}  // namespace tuner
