// Problem sizes: `--size 8192x4096` mapped onto a template's size variables in declared order.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "template_spec.h"

namespace tuner {

struct ProblemSize {
  std::vector<std::pair<std::string, long long>> values;  // every size variable, declared order

  std::string Key() const;  // "8192x4096": the key results are stored under
};

// The largest size: sizes are variables of the template's expressions, which compute in double
// precision, exact for whole numbers up to 2^53.
constexpr long long kMaxSize = 1LL << 53;

// "8192x4096" -> {8192, 4096}: whole numbers from 1 to kMaxSize joined by 'x'. Throws UsageError
// naming --size and the value, also for "" (leaving --size out is how the defaults are asked for).
std::vector<long long> ParseSizeNumbers(const std::string& text);

// "" gives the defaults; fewer numbers than variables are completed with defaults. Throws
// UsageError for anything ParseSizeNumbers refuses and for more numbers than variables.
ProblemSize ParseProblemSize(const TemplateSpec& spec, const std::string& text);

}  // namespace tuner
