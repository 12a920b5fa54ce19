#include "template/expression.h"

#include <muParser.h>

#include <cmath>
#include <sstream>

namespace tuner {

namespace {

constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53: above it doubles skip integers

[[noreturn]] void Fail(const std::string& problem) { throw mu::Parser::exception_type(problem); }

// muparser's own operators let a division by zero become inf or NaN, which a comparison then turns
// into a silent 0 or 1. Ours refuse it, and refuse any NaN or infinity on the way.
double Operand(double value) {
  if (std::isnan(value)) Fail("a value is not a number (such as the square root of a negative)");
  if (std::isinf(value)) Fail("a value is infinite");
  return value;
}

double Result(double value) {
  if (!std::isfinite(value)) Fail("a value overflows");
  return value;
}

double Add(double a, double b) { return Result(Operand(a) + Operand(b)); }
double Subtract(double a, double b) { return Result(Operand(a) - Operand(b)); }
double Multiply(double a, double b) { return Result(Operand(a) * Operand(b)); }
double Power(double a, double b) { return Result(std::pow(Operand(a), Operand(b))); }
double Divide(double a, double b) {
  if (Operand(b) == 0) Fail("division by zero");
  return Result(Operand(a) / b);
}
double Modulo(double a, double b) {
  if (Operand(b) == 0) Fail("division by zero");
  return Result(std::fmod(Operand(a), b));
}
double Less(double a, double b) { return Operand(a) < Operand(b); }
double Greater(double a, double b) { return Operand(a) > Operand(b); }
double LessOrEqual(double a, double b) { return Operand(a) <= Operand(b); }
double GreaterOrEqual(double a, double b) { return Operand(a) >= Operand(b); }
double Equal(double a, double b) { return Operand(a) == Operand(b); }
double NotEqual(double a, double b) { return Operand(a) != Operand(b); }
double And(double a, double b) { return Operand(a) != 0 && Operand(b) != 0; }
double Or(double a, double b) { return Operand(a) != 0 || Operand(b) != 0; }
double CeilDiv(double a, double b) { return std::ceil(Divide(a, b)); }

// Our functions and operators, with muparser's precedence and associativity. `?:` stays muparser's
// and evaluates only the branch taken, so `B == 0 ? 0 : N / B` is the way to guard a division.
void Configure(mu::Parser& parser) {
  parser.DefineFun("cdiv", CeilDiv);
  parser.EnableBuiltInOprt(false);
  parser.DefineOprt("||", Or, mu::prLOR, mu::oaLEFT, true);
  parser.DefineOprt("&&", And, mu::prLAND, mu::oaLEFT, true);
  parser.DefineOprt("<", Less, mu::prCMP, mu::oaLEFT, true);
  parser.DefineOprt(">", Greater, mu::prCMP, mu::oaLEFT, true);
  parser.DefineOprt("<=", LessOrEqual, mu::prCMP, mu::oaLEFT, true);
  parser.DefineOprt(">=", GreaterOrEqual, mu::prCMP, mu::oaLEFT, true);
  parser.DefineOprt("==", Equal, mu::prCMP, mu::oaLEFT, true);
  parser.DefineOprt("!=", NotEqual, mu::prCMP, mu::oaLEFT, true);
  parser.DefineOprt("+", Add, mu::prADD_SUB, mu::oaLEFT, true);
  parser.DefineOprt("-", Subtract, mu::prADD_SUB, mu::oaLEFT, true);
  parser.DefineOprt("*", Multiply, mu::prMUL_DIV, mu::oaLEFT, true);
  parser.DefineOprt("/", Divide, mu::prMUL_DIV, mu::oaLEFT, true);
  parser.DefineOprt("%", Modulo, mu::prMUL_DIV, mu::oaLEFT, true);
  parser.DefineOprt("^", Power, mu::prPOW, mu::oaRIGHT, true);
}

// muparser binds variables by address, so the values are copied into storage it can point at.
std::map<std::string, double*> Addresses(std::map<std::string, double>& storage) {
  std::map<std::string, double*> addresses;
  for (auto& [name, value] : storage) addresses[name] = &value;
  return addresses;
}

}  // namespace

struct CompiledExpression::Parser {
  mu::Parser parser;
};

CompiledExpression::CompiledExpression(const std::string& expression, const std::map<std::string, double*>& variables)
    : expression_(expression), parser_(std::make_unique<Parser>()) {
  mu::Parser& parser = parser_->parser;
  try {
    Configure(parser);
    for (const auto& [name, address] : variables) parser.DefineVar(name, address);
    parser.SetExpr(expression);
    // GetUsedVar parses without evaluating, and accepts names that were never defined: check them.
    for (const auto& used : parser.GetUsedVar()) {
      if (!variables.count(used.first)) throw ExpressionError(expression, "unknown name '" + used.first + "'");
      used_names_.push_back(used.first);
    }
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError(expression, e.GetMsg());
  }
}

CompiledExpression::~CompiledExpression() = default;
CompiledExpression::CompiledExpression(CompiledExpression&&) noexcept = default;
CompiledExpression& CompiledExpression::operator=(CompiledExpression&&) noexcept = default;

double CompiledExpression::Evaluate() {
  double value = 0;
  try {
    value = parser_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw ExpressionError(expression_, e.GetMsg());
  }
  if (!std::isfinite(value)) throw ExpressionError(expression_, "the value is not finite");
  return value;
}

std::string FormatNumber(double value) {
  std::ostringstream text;
  text.precision(12);
  text << value;
  return text.str();
}

double Evaluate(const std::string& expression, const Variables& variables) {
  std::map<std::string, double> storage(variables.begin(), variables.end());  // muparser needs addresses
  return CompiledExpression(expression, Addresses(storage)).Evaluate();
}

long long EvaluateInteger(const std::string& expression, const Variables& variables) {
  const double value = Evaluate(expression, variables);
  if (std::fabs(value) > kLargestExactInteger)
    throw ExpressionError(expression, "gives " + FormatNumber(value) + ", too large (the limit is 2^53)");
  if (value != std::floor(value))
    throw ExpressionError(expression, "gives " + FormatNumber(value) + ", not a whole number");
  return static_cast<long long>(value);
}

void CheckSyntax(const std::string& expression, const Variables& variables) {
  std::map<std::string, double> storage(variables.begin(), variables.end());
  CompiledExpression(expression, Addresses(storage));
}

std::vector<std::string> ExpressionFunctionNames() {
  mu::Parser parser;
  Configure(parser);
  std::vector<std::string> names;
  for (const auto& entry : parser.GetFunDef()) names.push_back(entry.first);
  for (const auto& entry : parser.GetConst()) names.push_back(entry.first);
  return names;
}

}  // namespace tuner
