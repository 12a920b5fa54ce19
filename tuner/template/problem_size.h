// Problem sizes: `--size 8192x4096` mapped onto a template's size variables in declared order.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/number_text.h"
#include "template/template_spec.h"

namespace tuner {

struct ProblemSize {
  std::vector<std::pair<std::string, long long>> values;  // every size variable, declared order

  std::string Key() const;  // "8192x4096": the key results are stored under
};


// "8192x4096" -> {8192, 4096}: whole numbers from 1 to kMaxSize joined by 'x'. Throws UsageError
// naming --size and the value, also for "" (leaving --size out is how the defaults are asked for).
std::vector<long long> ParseSizeNumbers(const std::string& text);

// "" gives the defaults; fewer numbers than variables are completed with defaults. Throws
// UsageError for anything ParseSizeNumbers refuses and for more numbers than variables.
ProblemSize ParseProblemSize(const TemplateSpec& spec, const std::string& text);

// `--sizes 1024x256,4096x256`: sizes joined by commas, each as --size takes it, or `captured` (every
// size the template has data for). Checks the form only; throws UsageError naming --sizes and the item.
constexpr char kCapturedSizes[] = "captured";
void CheckSizeList(const std::string& list);

// Each size of a list (not `captured`) completed like ParseProblemSize; the same size given twice
// (also as 1024 and 1024x256 with the default 256) is a UsageError.
std::vector<ProblemSize> ParseProblemSizes(const TemplateSpec& spec, const std::string& list);

}  // namespace tuner
