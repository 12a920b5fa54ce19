#include "common/option_values.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "base/errors.h"
#include "base/number_text.h"
#include "common/input_limits.h"

namespace tuner {

namespace {

constexpr long long kKiB = 1024;

std::string Prefix(const std::string& option, const std::string& text) {
  return "--" + option + " " + Quoted(text) + ": ";
}

std::string WithMeaning(const std::string& message, const std::string& meaning) {
  return meaning.empty() ? message : message + " (" + meaning + ")";
}

std::string RangeText(long long min, long long max) {
  if (max == LLONG_MAX) return "must be " + std::to_string(min) + " or more";
  return "must be between " + std::to_string(min) + " and " + std::to_string(max);
}

std::string Decimal(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

}  // namespace

std::string Printable(const std::string& text) {
  std::string quoted;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n')
      quoted += "\\n";
    else if (c == '\t')
      quoted += "\\t";
    else if (byte < 0x20 || byte == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\x%02x", byte);
      quoted += escape;
    } else {
      quoted += c;
    }
  }
  return quoted;
}

// At most ~200 characters of the value: a message never echoes a whole input.
std::string Quoted(const std::string& text) { return "'" + Excerpt(text) + "'"; }

long long ParseWholeNumber(const std::string& option, const std::string& text, long long min, long long max,
                           const std::string& meaning) {
  const std::optional<WholeNumberText> digits = ReadWholeNumber(text);
  if (!digits) throw UsageError(Prefix(option, text) + "not a whole number");
  const unsigned long long limit = digits->negative ? 1ULL << 63 : static_cast<unsigned long long>(LLONG_MAX);
  const bool representable = digits->magnitude && *digits->magnitude <= limit;
  const long long value = !representable     ? 0
                          : digits->negative ? static_cast<long long>(0ULL - *digits->magnitude)
                                             : static_cast<long long>(*digits->magnitude);
  if (!representable && !digits->negative && max == LLONG_MAX)
    throw UsageError(Prefix(option, text) + "too large; at most " + std::to_string(LLONG_MAX));
  if (!representable || value < min || value > max)
    throw UsageError(WithMeaning(Prefix(option, text) + RangeText(min, max), meaning));
  return value;
}

unsigned long long ParseSeed(const std::string& option, const std::string& text) {
  const std::optional<WholeNumberText> digits = ReadWholeNumber(text);
  if (!digits || !digits->magnitude || (digits->negative && *digits->magnitude != 0))
    throw UsageError(Prefix(option, text) + "must be a whole number from 0 to " + std::to_string(ULLONG_MAX));
  return *digits->magnitude;
}

long long ParseBytes(const std::string& option, const std::string& text, long long min, long long max,
                     const std::string& meaning) {
  std::string number = text;
  long long unit = 1;
  for (const char* suffix : {"KiB", "KB", "K", "k"}) {
    const std::string s = suffix;
    if (number.size() > s.size() && number.compare(number.size() - s.size(), s.size(), s) == 0) {
      number.resize(number.size() - s.size());
      unit = kKiB;
      break;
    }
  }
  const std::optional<WholeNumberText> digits = ReadWholeNumber(number);
  if (!digits) throw UsageError(Prefix(option, text) + "not a number of bytes (bytes may take a K suffix: 16K)");
  const bool in_range =
      digits->magnitude && !(digits->negative && *digits->magnitude != 0) &&
      *digits->magnitude <= static_cast<unsigned long long>(max) / static_cast<unsigned long long>(unit);
  const long long bytes = in_range ? static_cast<long long>(*digits->magnitude) * unit : -1;
  if (!in_range || bytes < min) {
    const std::string kibi = max % kKiB == 0 ? " = " + std::to_string(max / kKiB) + "K" : "";
    throw UsageError(WithMeaning(Prefix(option, text) + RangeText(min, max) + " bytes" + kibi, meaning));
  }
  return bytes;
}

double ParseSeconds(const std::string& option, const std::string& text, double min, double max,
                    const std::string& meaning) {
  // Plain decimals only: strtod alone would also take "nan", "inf", hex and leading blanks.
  const bool decimal = !text.empty() && text.find_first_not_of("0123456789.eE+-") == std::string::npos;
  char* end = nullptr;
  const double value = decimal ? std::strtod(text.c_str(), &end) : NAN;
  if (!decimal || end != text.c_str() + text.size() || !std::isfinite(value))
    throw UsageError(Prefix(option, text) + "not a finite number of seconds");
  if (value < min || value > max) {
    const std::string range = std::isinf(max) ? "must be " + Decimal(min) + " or more seconds"
                                              : "must be between " + Decimal(min) + " and " + Decimal(max) + " seconds";
    throw UsageError(WithMeaning(Prefix(option, text) + range, meaning));
  }
  return value;
}

int ParseGpuIndex(const std::string& option, const std::string& text) {
  // Beyond INT_MAX it is as absent from this machine as any other index it lacks.
  return static_cast<int>(std::min<long long>(ParseWholeNumber(option, text, 0, LLONG_MAX, "a GPU index"), INT_MAX));
}

}  // namespace tuner
