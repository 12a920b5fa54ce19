#include "expression.h"

#include <muParser.h>

#include <cmath>

namespace tuner {

namespace {

double CeilDiv(double a, double b) { return std::ceil(a / b); }
double Modulo(double a, double b) { return std::fmod(a, b); }

// muparser binds variables by address, so the values are copied into storage it can point at.
double Run(const std::string& expression, const Variables& variables, bool evaluate) {
  mu::Parser parser;
  std::map<std::string, double> storage(variables.begin(), variables.end());
  try {
    parser.DefineFun("cdiv", CeilDiv);
    parser.DefineOprt("%", Modulo, mu::prMUL_DIV, mu::oaLEFT, true);
    for (auto& [name, value] : storage) parser.DefineVar(name, &value);
    parser.SetExpr(expression);
    if (evaluate) return parser.Eval();
    // GetUsedVar parses without evaluating, and accepts names that were never defined: check them.
    for (const auto& used : parser.GetUsedVar())
      if (!variables.count(used.first)) throw ExpressionError("in expression '" + expression + "': unknown name '" + used.first + "'");
    return 0.0;
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError("in expression '" + expression + "': " + e.GetMsg());
  }
}

}  // namespace

double Evaluate(const std::string& expression, const Variables& variables) {
  const double value = Run(expression, variables, true);
  if (!std::isfinite(value)) throw ExpressionError("expression '" + expression + "' is not finite");
  return value;
}

long long EvaluateInteger(const std::string& expression, const Variables& variables) {
  const double value = Evaluate(expression, variables);
  if (value != std::floor(value) || std::fabs(value) > 9.0e15)
    throw ExpressionError("expression '" + expression + "' gives " + std::to_string(value) +
                          ", not a whole number");
  return static_cast<long long>(value);
}

void CheckSyntax(const std::string& expression, const Variables& variables) {
  Run(expression, variables, false);
}

}  // namespace tuner
