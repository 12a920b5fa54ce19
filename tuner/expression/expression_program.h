// A parsed expression as a compact postfix program over a value stack, built once and run many
// times over variables it reads by address. Operators check their operands as they apply; an
// operator or function whose operands are all constants is applied while the program is built
// (so `1 / 0` is refused when the expression is compiled, wherever it stands).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tuner {

// A value the rules refuse (division by zero, NaN, infinity): the problem alone, without the
// expression, which the caller adds.
struct ExpressionProblem : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Operation : std::uint8_t {
  kConstant,
  kVariable,
  // binary operators: kOr to kPower, the range IsBinary() tests
  kOr,
  kAnd,
  kLess,
  kGreater,
  kLessOrEqual,
  kGreaterOrEqual,
  kEqual,
  kNotEqual,
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kModulo,
  kPower,
  kNegate,
  kFunction1,
  kFunction2,
  kVariadic,
  kJumpIfZero,
  kJump,  // the two halves of `?:`
};

// A function an expression may call: `arity` arguments, or any number from one on (arity -1).
struct ExpressionFunction {
  const char* name;
  int arity;
  double (*one)(double);
  double (*two)(double, double);
  double (*many)(const double*, int);
};

// The functions, sorted by name, then the constants.
const std::vector<ExpressionFunction>& ExpressionFunctions();
const ExpressionFunction* FindExpressionFunction(const std::string& name);
// `_pi` and `_e`; false for any other name.
bool FindExpressionConstant(const std::string& name, double& value);

// The binary operator at the start of `text` (the longest that matches), or false.
bool MatchBinaryOperator(const char* text, Operation& operation, std::string& spelling);
// Precedence as the grammar has it: || 1, && 2, comparisons 4, + - 5, * / % and unary minus 6, ^ 7.
int Precedence(Operation operation);
bool RightAssociative(Operation operation);

class ExpressionProgram {
 public:
  void PushConstant(double value);
  void PushVariable(const double* address);
  // Applies an operator or function to the values on top of the stack: folded into a constant
  // when they all are constants (throws ExpressionProblem as running it would).
  void Apply(Operation operation, int argument_count = 0, const ExpressionFunction* function = nullptr);
  // `condition ? a : b`: after the condition, between a and b, after b.
  void BeginIf();
  void BeginElse();
  void EndIf();

  // Whether every operator found its operands and `values` are left: the parser checks it once the
  // text parses, before the program may run.
  bool WellFormed(std::size_t values) const;

  // The value left on top (the last of several comma-separated ones). Throws ExpressionProblem.
  double Run(std::vector<double>& stack) const;
  std::size_t max_depth() const { return max_depth_; }

 private:
  struct Instruction {
    Operation operation;
    int count;  // arguments of a variadic function; jump target
    union {
      double value;
      const double* address;
      double (*one)(double);
      double (*two)(double, double);
      double (*many)(const double*, int);
    };
  };
  bool TailIsConstant(int count) const;
  void Push(const Instruction& instruction, int depth_change);

  std::vector<Instruction> code_;
  std::vector<std::size_t> open_ifs_, open_elses_;
  std::size_t fold_barrier_ = 0;  // no folding across the end of a `?:`
  int depth_ = 0;
  std::size_t max_depth_ = 0;
  bool well_formed_ = true;
};

}  // namespace tuner
