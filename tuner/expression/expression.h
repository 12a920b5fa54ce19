// Arithmetic expressions of a template description (constraints, launch geometry, lengths, work),
// evaluated over named integer variables (sizes and parameters). The syntax, functions and messages
// are muparser's, which the project used until it had to link only the C library and NVRTC
// dynamically (Debian ships muparser only as a shared library): our own parser compiles each
// expression once to a postfix program (expression_program.h).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/option_values.h"
#include "expression/expression_program.h"

namespace tuner {

using Variables = std::map<std::string, double>;

// The expression is malformed, refers to an unknown variable, or cannot be evaluated (division by
// zero). The message quotes it.
struct ExpressionError : std::runtime_error {
  ExpressionError(const std::string& expression, const std::string& problem)
      : std::runtime_error("in expression " + Quoted(expression) + ": " + problem), problem(problem) {}
  std::string problem;  // without the expression: "division by zero"
};

// Throws ExpressionError for a division by zero, a NaN or an infinity anywhere in the evaluation
// (only the branch `?:` takes is evaluated; `&&` and `||` evaluate both sides).
double Evaluate(const std::string& expression, const Variables& variables);

// An expression parsed once and evaluated many times over variables it reads by address: the
// constraints of a search space are evaluated millions of times, and parsing costs far more than
// evaluating. The storage behind `variables` must outlive it and keep its addresses.
class CompiledExpression {
 public:
  // Throws ExpressionError for a syntax error or a name that is not one of `variables`.
  CompiledExpression(const std::string& expression, const std::map<std::string, double*>& variables);

  // The value at the variables' current values; throws ExpressionError as Evaluate() does.
  double Evaluate();
  const std::string& text() const { return expression_; }
  // The variables it reads.
  const std::vector<std::string>& used_names() const { return used_names_; }

 private:
  std::string expression_;
  std::vector<std::string> used_names_;
  ExpressionProgram program_;
  std::vector<double> stack_;
};

// Evaluates and requires a whole number (grid and block extents, lengths, bytes).
long long EvaluateInteger(const std::string& expression, const Variables& variables);

// Parses the expression without evaluating it (variables are only checked by name), so a bad
// description is reported when it is loaded rather than in the middle of a sweep.
void CheckSyntax(const std::string& expression, const Variables& variables);

// The names an expression may call or use as a constant (`cdiv`, `min`, `sin`, `_pi`, ...), as the
// parser has them: a variable may not take one.
std::vector<std::string> ExpressionFunctionNames();

// 341.333333333, 1e+30, 8: a value in a message.
std::string FormatNumber(double value);

}  // namespace tuner
