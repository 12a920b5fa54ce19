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

// "" gives the defaults; fewer numbers than variables are completed with defaults. Throws
// UsageError for anything else that is not positive integers joined by 'x'.
ProblemSize ParseProblemSize(const TemplateSpec& spec, const std::string& text);

}  // namespace tuner
