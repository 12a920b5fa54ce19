#include "problem_size.h"

#include <regex>
#include <sstream>

#include "errors.h"

namespace tuner {

namespace {

std::string SizeNames(const TemplateSpec& spec) {
  std::string names;
  for (const SizeSpec& s : spec.sizes) names += (names.empty() ? "" : "x") + s.name;
  return names;
}

}  // namespace

std::string ProblemSize::Key() const {
  std::string key;
  for (const auto& [name, value] : values) key += (key.empty() ? "" : "x") + std::to_string(value);
  return key;
}

ProblemSize ParseProblemSize(const TemplateSpec& spec, const std::string& text) {
  std::vector<long long> numbers;
  if (!text.empty() && !std::regex_match(text, std::regex("[0-9]+(x[0-9]+)*")))
    throw UsageError("--size '" + text + "': expected positive integers joined by 'x' (" + spec.name + " takes " +
                     SizeNames(spec) + ")");
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, 'x');) {
    std::size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != part.size() || value <= 0)
      throw UsageError("--size '" + text + "': expected positive integers joined by 'x' (" + spec.name + " takes " +
                       SizeNames(spec) + ")");
    numbers.push_back(value);
  }
  if (numbers.size() > spec.sizes.size())
    throw UsageError("--size '" + text + "': " + spec.name + " has " + std::to_string(spec.sizes.size()) +
                     " size variable(s): " + SizeNames(spec));
  ProblemSize size;
  for (std::size_t i = 0; i < spec.sizes.size(); ++i)
    size.values.emplace_back(spec.sizes[i].name, i < numbers.size() ? numbers[i] : spec.sizes[i].default_value);
  return size;
}

}  // namespace tuner
