#include "expression/expression_program.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tuner {

namespace {

[[noreturn]] void Fail(const char* problem) { throw ExpressionProblem(problem); }

// A division by zero would become inf or NaN, which a comparison, a condition or a function such as
// min or sign then turns into a silent 0 or 1: operators refuse it, and every function's value,
// operand and condition is checked, so that no NaN or infinity goes on.
inline double Operand(double value) {
  if (!std::isfinite(value))
    Fail(std::isnan(value) ? "a value is not a number (such as the square root of a negative)" : "a value is infinite");
  return value;
}

inline double Result(double value) {
  if (!std::isfinite(value)) Fail("a value overflows");
  return value;
}

inline double Divide(double a, double b) {
  if (Operand(b) == 0) Fail("division by zero");
  return Result(Operand(a) / b);
}

// `&&` and `||` decide on their left operand when they can: the right one is computed (a division
// by zero or a NaN in it is an error) but its value is not looked at.
inline double ApplyBinary(Operation operation, double a, double b) {
  switch (operation) {
    case Operation::kOr:
      return Operand(a) != 0 || Operand(b) != 0;
    case Operation::kAnd:
      return Operand(a) != 0 && Operand(b) != 0;
    case Operation::kLess:
      return Operand(a) < Operand(b);
    case Operation::kGreater:
      return Operand(a) > Operand(b);
    case Operation::kLessOrEqual:
      return Operand(a) <= Operand(b);
    case Operation::kGreaterOrEqual:
      return Operand(a) >= Operand(b);
    case Operation::kEqual:
      return Operand(a) == Operand(b);
    case Operation::kNotEqual:
      return Operand(a) != Operand(b);
    case Operation::kAdd:
      return Result(Operand(a) + Operand(b));
    case Operation::kSubtract:
      return Result(Operand(a) - Operand(b));
    case Operation::kMultiply:
      return Result(Operand(a) * Operand(b));
    case Operation::kDivide:
      return Divide(a, b);
    case Operation::kModulo:
      if (Operand(b) == 0) Fail("division by zero");
      return Result(std::fmod(Operand(a), b));
    case Operation::kPower:
      return Result(std::pow(Operand(a), Operand(b)));
    default:
      Fail("internal error: not a binary operator");
  }
}

bool IsBinary(Operation operation) { return operation >= Operation::kOr && operation <= Operation::kPower; }

double CeilDivide(double a, double b) { return std::ceil(Divide(a, b)); }
double Abs(double v) { return v >= 0 ? v : -v; }
double Sign(double v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }
double Rint(double v) { return std::floor(v + 0.5); }
double Log(double v) { return std::log(v); }
double Log2(double v) { return std::log(v) / std::log(2.0); }
double ASinh(double v) { return std::log(v + std::sqrt(v * v + 1)); }
double ACosh(double v) { return std::log(v + std::sqrt(v * v - 1)); }
double ATanh(double v) { return 0.5 * std::log((1 + v) / (1 - v)); }
double Sum(const double* values, int count) {
  double sum = 0;
  for (int i = 0; i < count; ++i) sum += values[i];
  return sum;
}
double Average(const double* values, int count) { return Sum(values, count) / count; }
double Min(const double* values, int count) {
  double min = values[0];
  for (int i = 0; i < count; ++i) min = std::min(min, values[i]);
  return min;
}
double Max(const double* values, int count) {
  double max = values[0];
  for (int i = 0; i < count; ++i) max = std::max(max, values[i]);
  return max;
}

ExpressionFunction One(const char* name, double (*function)(double)) { return {name, 1, function, nullptr, nullptr}; }
ExpressionFunction Two(const char* name, double (*function)(double, double)) {
  return {name, 2, nullptr, function, nullptr};
}
ExpressionFunction Many(const char* name, double (*function)(const double*, int)) {
  return {name, -1, nullptr, nullptr, function};
}

double Sin(double v) { return std::sin(v); }
double Cos(double v) { return std::cos(v); }
double Tan(double v) { return std::tan(v); }
double ASin(double v) { return std::asin(v); }
double ACos(double v) { return std::acos(v); }
double ATan(double v) { return std::atan(v); }
double ATan2(double y, double x) { return std::atan2(y, x); }
double Sinh(double v) { return std::sinh(v); }
double Cosh(double v) { return std::cosh(v); }
double Tanh(double v) { return std::tanh(v); }
double Log10(double v) { return std::log10(v); }
double Exp(double v) { return std::exp(v); }
double Sqrt(double v) { return std::sqrt(v); }

struct Spelling {
  const char* text;
  Operation operation;
};
// Two-character operators first, so that `<=` is not read as `<`.
constexpr Spelling kBinaryOperators[] = {
    {"||", Operation::kOr},          {"&&", Operation::kAnd},
    {"<=", Operation::kLessOrEqual}, {">=", Operation::kGreaterOrEqual},
    {"==", Operation::kEqual},       {"!=", Operation::kNotEqual},
    {"<", Operation::kLess},         {">", Operation::kGreater},
    {"+", Operation::kAdd},          {"-", Operation::kSubtract},
    {"*", Operation::kMultiply},     {"/", Operation::kDivide},
    {"%", Operation::kModulo},       {"^", Operation::kPower},
};

}  // namespace

const std::vector<ExpressionFunction>& ExpressionFunctions() {
  static const std::vector<ExpressionFunction> functions = {
      One("abs", Abs),     One("acos", ACos),   One("acosh", ACosh), One("asin", ASin),    One("asinh", ASinh),
      One("atan", ATan),   Two("atan2", ATan2), One("atanh", ATanh), Many("avg", Average), Two("cdiv", CeilDivide),
      One("cos", Cos),     One("cosh", Cosh),   One("exp", Exp),     One("ln", Log),       One("log", Log),
      One("log10", Log10), One("log2", Log2),   Many("max", Max),    Many("min", Min),     One("rint", Rint),
      One("sign", Sign),   One("sin", Sin),     One("sinh", Sinh),   One("sqrt", Sqrt),    Many("sum", Sum),
      One("tan", Tan),     One("tanh", Tanh),
  };
  return functions;
}

const ExpressionFunction* FindExpressionFunction(const std::string& name) {
  for (const ExpressionFunction& function : ExpressionFunctions())
    if (name == function.name) return &function;
  return nullptr;
}

bool FindExpressionConstant(const std::string& name, double& value) {
  if (name == "_pi")
    value = 3.141592653589;  // the value muparser had, so that results stay the same
  else if (name == "_e")
    value = 2.718281828459045235360287;
  else
    return false;
  return true;
}

bool MatchBinaryOperator(const char* text, Operation& operation, std::string& spelling) {
  for (const Spelling& candidate : kBinaryOperators) {
    if (std::strncmp(text, candidate.text, std::strlen(candidate.text)) != 0) continue;
    operation = candidate.operation;
    spelling = candidate.text;
    return true;
  }
  return false;
}

int Precedence(Operation operation) {
  switch (operation) {
    case Operation::kOr:
      return 1;
    case Operation::kAnd:
      return 2;
    case Operation::kAdd:
    case Operation::kSubtract:
      return 5;
    case Operation::kMultiply:
    case Operation::kDivide:
    case Operation::kModulo:
    case Operation::kNegate:
      return 6;
    case Operation::kPower:
      return 7;
    default:
      return 4;  // comparisons
  }
}

bool RightAssociative(Operation operation) { return operation == Operation::kPower; }

void ExpressionProgram::Push(const Instruction& instruction, int depth_change) {
  code_.push_back(instruction);
  depth_ += depth_change;
  if (depth_ < 0) well_formed_ = false;  // the parser reports what is wrong with the text first
  max_depth_ = std::max(max_depth_, static_cast<std::size_t>(depth_));
}

void ExpressionProgram::PushConstant(double value) {
  Instruction instruction{Operation::kConstant, 0, {}};
  instruction.value = value;
  Push(instruction, 1);
}

void ExpressionProgram::PushVariable(const double* address) {
  Instruction instruction{Operation::kVariable, 0, {}};
  instruction.address = address;
  Push(instruction, 1);
}

bool ExpressionProgram::TailIsConstant(int count) const {
  if (code_.size() < fold_barrier_ + count) return false;
  for (std::size_t i = code_.size() - count; i < code_.size(); ++i)
    if (code_[i].operation != Operation::kConstant) return false;
  return true;
}

void ExpressionProgram::Apply(Operation operation, int argument_count, const ExpressionFunction* function) {
  Instruction instruction{operation, argument_count, {}};
  int arguments = 1;
  if (IsBinary(operation) || operation == Operation::kFunction2) arguments = 2;
  if (operation == Operation::kFunction1) instruction.one = function->one;
  if (operation == Operation::kFunction2) instruction.two = function->two;
  if (operation == Operation::kVariadic) {
    instruction.many = function->many;
    arguments = argument_count;
  }
  if (operation != Operation::kVariadic && TailIsConstant(arguments)) {  // as muparser: variadic ones are not folded
    std::vector<double> stack;
    const std::size_t first = code_.size() - arguments;
    ExpressionProgram tail;
    for (std::size_t i = first; i < code_.size(); ++i) tail.PushConstant(code_[i].value);
    tail.Push(instruction, 1 - arguments);
    const double value = tail.Run(stack);
    code_.resize(first);
    depth_ -= arguments;
    PushConstant(value);
    return;
  }
  Push(instruction, 1 - arguments);
}

void ExpressionProgram::BeginIf() {
  open_ifs_.push_back(code_.size());
  Push({Operation::kJumpIfZero, 0, {}}, -1);
}

void ExpressionProgram::BeginElse() {
  if (open_ifs_.empty()) {
    well_formed_ = false;
    return;
  }
  open_elses_.push_back(code_.size());
  Push({Operation::kJump, 0, {}}, -1);  // the value of the branch taken stays; the other branch pushes its own
  code_[open_ifs_.back()].count = static_cast<int>(code_.size());
  open_ifs_.pop_back();
}

void ExpressionProgram::EndIf() {
  if (open_elses_.empty()) {
    well_formed_ = false;
    return;
  }
  code_[open_elses_.back()].count = static_cast<int>(code_.size());
  open_elses_.pop_back();
  fold_barrier_ = code_.size();
}

bool ExpressionProgram::WellFormed(std::size_t values) const {
  return well_formed_ && open_ifs_.empty() && open_elses_.empty() && depth_ == static_cast<int>(values);
}

double ExpressionProgram::Run(std::vector<double>& stack) const {
  if (stack.size() < max_depth_ + 1) stack.resize(max_depth_ + 1);
  double* values = stack.data();
  std::size_t top = 0;  // values[1..top] are in use
  const Instruction* code = code_.data();
  const std::size_t size = code_.size();
  for (std::size_t pc = 0; pc < size; ++pc) {
    const Instruction& instruction = code[pc];
    switch (instruction.operation) {
      case Operation::kConstant:
        values[++top] = instruction.value;
        break;
      case Operation::kVariable:
        values[++top] = *instruction.address;
        break;
      case Operation::kNegate:
        values[top] = -values[top];
        break;
      case Operation::kFunction1:
        values[top] = Operand(instruction.one(values[top]));
        break;
      case Operation::kFunction2:
        --top;
        values[top] = Operand(instruction.two(values[top], values[top + 1]));
        break;
      case Operation::kVariadic:
        top -= instruction.count - 1;
        values[top] = Operand(instruction.many(&values[top], instruction.count));
        break;
      case Operation::kJumpIfZero:
        if (Operand(values[top--]) == 0) pc = instruction.count - 1;
        break;
      case Operation::kJump:
        pc = instruction.count - 1;
        break;
      default:
        --top;
        values[top] = ApplyBinary(instruction.operation, values[top], values[top + 1]);
    }
  }
  return values[top];
}

}  // namespace tuner
