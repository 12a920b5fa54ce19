#include "base/number_text.h"

#include <algorithm>
#include <climits>

namespace tuner {

std::optional<WholeNumberText> ReadWholeNumber(const std::string& text) {
  WholeNumberText number;
  std::size_t i = 0;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    number.negative = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return std::nullopt;
  unsigned long long value = 0;
  bool overflow = false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    const unsigned digit = static_cast<unsigned>(text[i] - '0');
    if (value > (ULLONG_MAX - digit) / 10)
      overflow = true;
    else
      value = value * 10 + digit;
  }
  if (!overflow) number.magnitude = value;
  return number;
}

namespace {

// One number of a size; `problem` stays kNone when it is one.
SizeReading::Problem ReadOneSize(const std::string& part, long long* size) {
  const bool digits_only = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
  if (!digits_only) return SizeReading::Problem::kNotWholeNumbers;
  const std::optional<WholeNumberText> number = ReadWholeNumber(part);
  if (!number->magnitude || *number->magnitude > static_cast<unsigned long long>(kMaxSize))
    return SizeReading::Problem::kTooLarge;
  *size = static_cast<long long>(*number->magnitude);
  return *size < 1 ? SizeReading::Problem::kBelowOne : SizeReading::Problem::kNone;
}

}  // namespace

SizeReading ReadSizes(const std::string& text) {
  SizeReading reading;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t x = std::min(text.find('x', start), text.size());
    const std::string part = text.substr(start, x - start);
    long long size = 0;
    reading.problem = ReadOneSize(part, &size);
    if (reading.problem != SizeReading::Problem::kNone) {
      reading.part = part;
      reading.sizes.clear();
      return reading;
    }
    reading.sizes.push_back(size);
    start = x + 1;
  }
  return reading;
}

std::vector<long long> ParseSizeKey(const std::string& key) { return ReadSizes(key).sizes; }

std::string SizeKey(const std::vector<long long>& sizes) {
  std::string key;
  for (long long size : sizes) key += (key.empty() ? "" : "x") + std::to_string(size);
  return key;
}

}  // namespace tuner
