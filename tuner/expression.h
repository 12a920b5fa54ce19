// Arithmetic expressions of a template description (constraints, launch geometry, lengths, work),
// evaluated with muparser over named integer variables (sizes and parameters).
#pragma once

#include <map>
#include <stdexcept>
#include <string>

namespace tuner {

using Variables = std::map<std::string, double>;

// The expression is malformed or refers to an unknown variable. The message quotes it.
struct ExpressionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double Evaluate(const std::string& expression, const Variables& variables);

// Evaluates and requires a whole number (grid and block extents, lengths, bytes).
long long EvaluateInteger(const std::string& expression, const Variables& variables);

// Parses the expression without evaluating it (variables are only checked by name), so a bad
// description is reported when it is loaded rather than in the middle of a sweep.
void CheckSyntax(const std::string& expression, const Variables& variables);

}  // namespace tuner
