#include "problem_size.h"

#include "errors.h"
#include "option_values.h"

namespace tuner {

namespace {

std::string SizeNames(const TemplateSpec& spec) {
  std::string names;
  for (const SizeSpec& s : spec.sizes) names += (names.empty() ? "" : "x") + s.name;
  return names;
}

long long ParseOneSize(const std::string& text, const std::string& part) {
  const std::string prefix = "--size " + Quoted(text) + ": ";
  if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
    throw UsageError(prefix + "expected whole numbers joined by 'x', e.g. 8192x8192");
  long long value = 0;
  for (const char digit : part) {
    value = value * 10 + (digit - '0');
    if (value > kMaxSize)
      throw UsageError(prefix + part + " is too large; a size is at most " + std::to_string(kMaxSize) +
                       " (2^53, the largest whole number the template's expressions hold exactly)");
  }
  if (value < 1) throw UsageError(prefix + "a size must be 1 or more");
  return value;
}

}  // namespace

std::string ProblemSize::Key() const {
  std::string key;
  for (const auto& [name, value] : values) key += (key.empty() ? "" : "x") + std::to_string(value);
  return key;
}

std::vector<long long> ParseSizeNumbers(const std::string& text) {
  if (text.empty())
    throw UsageError("--size '': empty; give sizes like 8192x8192, or leave --size out for the template's defaults");
  std::vector<long long> numbers;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t x = std::min(text.find('x', start), text.size());
    numbers.push_back(ParseOneSize(text, text.substr(start, x - start)));
    start = x + 1;
  }
  return numbers;
}

ProblemSize ParseProblemSize(const TemplateSpec& spec, const std::string& text) {
  std::vector<long long> numbers;
  try {
    if (!text.empty()) numbers = ParseSizeNumbers(text);
  } catch (const UsageError& e) {
    throw UsageError(std::string(e.what()) + " (" + spec.name + " takes " + SizeNames(spec) + ")");
  }
  if (numbers.size() > spec.sizes.size())
    throw UsageError("--size " + Quoted(text) + ": " + spec.name + " has " + std::to_string(spec.sizes.size()) +
                     " size variable(s): " + SizeNames(spec));
  ProblemSize size;
  for (std::size_t i = 0; i < spec.sizes.size(); ++i)
    size.values.emplace_back(spec.sizes[i].name, i < numbers.size() ? numbers[i] : spec.sizes[i].default_value);
  return size;
}

}  // namespace tuner
