// The Python-like expressions of the community's T1 format (constraints, launch sizes, buffer sizes,
// parameter value lists), translated into the template expression syntax
// (kernel_templates/README.md, "Expressions") with Python's meaning kept: `//` floors, `%` takes the
// sign of the divisor, `and`/`or` give Python's value and do not evaluate a right side that could
// fail when the left decides.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "exchange/python_syntax.h"

namespace tuner {

// What the names of an expression are.
struct PythonScope {
  std::map<std::string, std::vector<long long>> params;  // a tuning parameter -> its values
  std::vector<std::string> problem_sizes;                // ProblemSize[i] -> the size variable problem_sizes[i]
  // false where a value may depend on sizes only (buffer sizes): a parameter may then appear only
  // as min(P) or max(P), the smallest or largest of its values, as Kernel Tuner evaluates them.
  bool params_allowed = true;
};

// Where the expression is used: a condition is only tested for truth, so `and`/`or` become `&&`/`||`
// where that keeps Python's meaning; a value keeps Python's value of `a or b` (a, or b).
enum class PythonUse { kCondition, kValue };

// The expression in template syntax. Throws PythonExpressionError.
std::string TranslatePythonExpression(const std::string& text, const PythonScope& scope, PythonUse use);

}  // namespace tuner
