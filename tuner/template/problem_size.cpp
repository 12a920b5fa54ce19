#include "template/problem_size.h"

#include <algorithm>

#include "base/errors.h"
#include "common/option_values.h"
#include "base/number_text.h"

namespace tuner {

namespace {

std::string SizeNames(const TemplateSpec& spec) {
  std::string names;
  for (const SizeSpec& s : spec.sizes) names += (names.empty() ? "" : "x") + s.name;
  return names;
}

// Why `text` is not a size, with the part at fault.
std::string SizeRefusal(const std::string& text, const SizeReading& reading) {
  const std::string prefix = "--size " + Quoted(text) + ": ";
  switch (reading.problem) {
    case SizeReading::Problem::kNone:
      break;
    case SizeReading::Problem::kNotWholeNumbers:
      return prefix + "expected whole numbers joined by 'x', e.g. 8192x8192";
    case SizeReading::Problem::kTooLarge:
      return prefix + reading.part + " is too large; a size is at most " + std::to_string(kMaxSize) +
             " (2^53, the largest whole number the template's expressions hold exactly)";
    case SizeReading::Problem::kBelowOne:
      return prefix + "a size must be 1 or more";
  }
  return prefix;
}

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> items;
  for (std::size_t start = 0; start <= list.size();) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    items.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

// "--size '1024x': expected ..." said of an item of --sizes.
UsageError SizesError(const std::string& list, const UsageError& e) {
  std::string what = e.what();
  if (what.rfind("--size ", 0) == 0) what.erase(0, 7);
  return UsageError("--sizes " + Quoted(list) + ": " + what);
}

}  // namespace

std::string ProblemSize::Key() const {
  std::vector<long long> numbers;
  for (const auto& [name, value] : values) numbers.push_back(value);
  return SizeKey(numbers);
}

std::vector<long long> ParseSizeNumbers(const std::string& text) {
  if (text.empty())
    throw UsageError("--size '': empty; give sizes like 8192x8192, or leave --size out for the template's defaults");
  const SizeReading reading = ReadSizes(text);
  if (reading.problem != SizeReading::Problem::kNone) throw UsageError(SizeRefusal(text, reading));
  return reading.sizes;
}

void CheckSizeList(const std::string& list) {
  if (list.empty())
    throw UsageError("--sizes '': empty; give sizes joined by commas, e.g. 1024x256,4096x256, or 'captured'");
  if (list == kCapturedSizes) return;
  for (const std::string& item : SplitList(list)) {
    if (item.empty())
      throw UsageError("--sizes " + Quoted(list) +
                       ": an empty item; give sizes joined by commas, e.g. 1024x256,4096x256, or 'captured'");
    try {
      ParseSizeNumbers(item);
    } catch (const UsageError& e) {
      throw SizesError(list, e);
    }
  }
}

std::vector<ProblemSize> ParseProblemSizes(const TemplateSpec& spec, const std::string& list) {
  CheckSizeList(list);
  std::vector<ProblemSize> sizes;
  std::vector<std::string> items;
  for (const std::string& item : SplitList(list)) {
    try {
      sizes.push_back(ParseProblemSize(spec, item));
    } catch (const UsageError& e) {
      throw SizesError(list, e);
    }
    for (std::size_t i = 0; i + 1 < sizes.size(); ++i)
      if (sizes[i].Key() == sizes.back().Key())
        throw UsageError("--sizes " + Quoted(list) + ": " + Quoted(items[i]) + " and " + Quoted(item) +
                         " are both the size " + sizes.back().Key() + "; give each size once");
    items.push_back(item);
  }
  return sizes;
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
