#include "expression/expression.h"

#include <cmath>
#include <set>
#include <sstream>

#include "expression/expression_tokens.h"

namespace tuner {

namespace {

constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53: above it doubles skip integers

// An operator that finds no operand, such as a lone `-` (muparser said "Internal error").
constexpr const char* kMalformed = "an operator or function has no operand";
constexpr const char* kStringArgument = "String value used where a numerical argument is expected.";

[[noreturn]] void Fail(const std::string& problem) { throw ExpressionProblem(problem); }

// Operator precedence parsing over an operator stack: the operators, `(`, `?` and `:` wait on it
// until an operator of lower precedence, a `)`, `,` or the end applies them. Its order of checks,
// and so which message a malformed expression gets, is muparser's.
class Parser {
 public:
  Parser(const std::string& expression, const std::map<std::string, double*>& variables)
      : tokens_(expression), variables_(variables) {
    argument_counts_.push_back(1);  // the top level: `a, b` is allowed and gives b
    for (;;) {
      const ExpressionToken token = tokens_.Next();
      Take(token);
      previous_ = token.kind;
      if (token.kind == TokenKind::kEnd) break;
    }
    Finish();
  }

  ExpressionProgram program;
  std::set<std::string> names;  // every name read as a variable's, known or not

 private:
  void Take(const ExpressionToken& token) {
    switch (token.kind) {
      case TokenKind::kString:
        return TakeString();
      case TokenKind::kName:
        return TakeName(token.text);
      case TokenKind::kNumber:
        values_.push_back(false);
        return program.PushConstant(token.number);
      case TokenKind::kElse:
        return TakeElse(token);
      case TokenKind::kComma:
        if ((!pending_.empty() && pending_.back().kind == TokenKind::kIf) || argument_counts_.empty())
          Fail("Unexpected argument separator" + Here());
        ++argument_counts_.back();
        return ApplyPending();
      case TokenKind::kEnd:
        return ApplyPending();
      case TokenKind::kClose:
        return TakeClose();
      case TokenKind::kIf:
        ++open_ifs_;
        argument_counts_.push_back(1);
        ApplyOperatorsBefore(token);
        if (!values_.empty() && values_.back()) Fail(kStringArgument);
        program.BeginIf();
        return pending_.push_back(token);
      case TokenKind::kBinary:
        ApplyOperatorsBefore(token);
        return pending_.push_back(token);
      case TokenKind::kOpen:
        argument_counts_.push_back(1);
        return pending_.push_back(token);
      case TokenKind::kPrefix:
      case TokenKind::kFunction:
        return pending_.push_back(token);
    }
  }

  void TakeString() {
    if (pending_.empty()) Fail("Strings must only be used as function arguments!");
    values_.push_back(true);
  }

  void TakeName(const std::string& name) {
    names.insert(name);
    const auto known = variables_.find(name);
    values_.push_back(false);
    program.PushVariable(known == variables_.end() ? &unknown_ : known->second);
  }

  void TakeElse(const ExpressionToken& token) {
    if (argument_counts_.empty()) Fail("Misplaced colon" + Here());
    if (argument_counts_.back() > 1) Fail("Unexpected argument separator" + Here());
    argument_counts_.pop_back();
    if (--open_ifs_ < 0) Fail("Misplaced colon" + Here());
    ApplyPending();
    program.BeginElse();
    pending_.push_back(token);
  }

  void TakeClose() {
    if (argument_counts_.empty()) Fail(kMalformed);
    if (previous_ == TokenKind::kOpen) --argument_counts_.back();  // `f()` has no argument
    ApplyPending();
    if (pending_.empty() || pending_.back().kind != TokenKind::kOpen) return;
    const int count = argument_counts_.back();
    argument_counts_.pop_back();
    pending_.pop_back();
    const bool after_function = !pending_.empty() && pending_.back().kind == TokenKind::kFunction;
    if (count > 1 && !after_function) Fail("Function arguments used without a function (position: " + Position() + ")");
    if (after_function) ApplyTop(count);
  }

  // Before a binary operator or `?`: what binds at least as tightly (more tightly for `^`, which
  // groups to the right).
  void ApplyOperatorsBefore(const ExpressionToken& token) {
    const int precedence = token.kind == TokenKind::kIf ? 0 : PrecedenceOf(token);
    while (!pending_.empty() && Waits(pending_.back().kind)) {
      const ExpressionToken& top = pending_.back();
      const bool both_binary = top.kind == TokenKind::kBinary && token.kind == TokenKind::kBinary;
      const bool to_the_right = both_binary && RightAssociative(token.operation);
      if (to_the_right ? PrecedenceOf(top) <= precedence : PrecedenceOf(top) < precedence) break;
      ApplyTop(top.kind == TokenKind::kBinary ? 2 : 1);
    }
  }

  // Everything back to the innermost `(` or `?`.
  void ApplyPending() {
    while (!pending_.empty() && pending_.back().kind != TokenKind::kOpen && pending_.back().kind != TokenKind::kIf) {
      if (pending_.back().kind == TokenKind::kElse)
        ApplyConditionals();
      else if (pending_.back().kind == TokenKind::kFunction)
        Fail(kMalformed);
      else
        ApplyTop(pending_.back().kind == TokenKind::kBinary ? 2 : 1);
    }
  }

  static int PrecedenceOf(const ExpressionToken& token) {
    return Precedence(token.kind == TokenKind::kPrefix ? Operation::kNegate : token.operation);
  }

  static bool Waits(TokenKind kind) {
    return kind != TokenKind::kOpen && kind != TokenKind::kElse && kind != TokenKind::kIf;
  }

  // The operator or function on top of the stack, over `count` values.
  void ApplyTop(int count) {
    const ExpressionToken top = pending_.back();
    pending_.pop_back();
    const int required = top.kind == TokenKind::kFunction ? top.function->arity : count;
    if (required >= 0 && count > required) Fail(TooMany("many", top.text, tokens_.position() - 1));
    if (count < required) Fail(TooMany("few", top.text, tokens_.position() - 1));
    PopNumbers(count);
    if (required < 0 && count == 0) Fail(TooMany("few", top.text, tokens_.position()));
    if (top.kind == TokenKind::kFunction) {
      const Operation operation = required == 1   ? Operation::kFunction1
                                  : required == 2 ? Operation::kFunction2
                                                  : Operation::kVariadic;
      program.Apply(operation, count, top.function);
    } else if (top.operation != Operation::kConstant) {  // a prefix `+` does nothing
      program.Apply(top.operation);
    }
    values_.push_back(false);
  }

  // `c ? a : b` for each `:` on top of the stack.
  void ApplyConditionals() {
    while (!pending_.empty() && pending_.back().kind == TokenKind::kElse) {
      pending_.pop_back();
      if (values_.size() < 3) Fail(kMalformed);
      if (values_.back() || values_[values_.size() - 2]) Fail("Unexpected string token found" + Here() + ".");
      if (values_[values_.size() - 3]) Fail(kStringArgument);
      values_.resize(values_.size() - 2);
      if (pending_.empty() || pending_.back().kind != TokenKind::kIf) Fail("Misplaced colon" + Here());
      pending_.pop_back();
      program.EndIf();
    }
  }

  void PopNumbers(int count) {
    for (int i = 0; i < count; ++i) {
      if (values_.empty()) Fail(kMalformed);
      if (values_.back()) Fail(kStringArgument);
      values_.pop_back();
    }
  }

  void Finish() {
    if (open_ifs_ > 0) Fail("If-then-else operator is missing an else clause");
    if (argument_counts_.size() != 1 || argument_counts_.back() == 0) Fail(kMalformed);
    if (values_.empty()) Fail("Expression is empty.");
    // `a, -` or `a, ? b : c`, which muparser evaluated to whatever its stack held
    if (values_.size() != static_cast<std::size_t>(argument_counts_.back()))
      Fail("an operator after a comma has no operand of its own");
    for (const bool is_string : values_)
      if (is_string) Fail("Strings must only be used as function arguments!");
    if (!program.WellFormed(values_.size())) Fail(kMalformed);
  }

  std::string Position() const { return std::to_string(tokens_.position()); }
  std::string Here() const { return " at position " + Position(); }
  static std::string TooMany(const std::string& many, const std::string& function, int position) {
    return "Too " + many + " parameters for function \"" + function + "\" at expression position " +
           std::to_string(position);
  }

  ExpressionTokens tokens_;
  const std::map<std::string, double*>& variables_;
  std::vector<ExpressionToken> pending_;  // operators, functions, `(`, `?` and `:` not yet applied
  std::vector<bool> values_;              // the operands so far: true for a string
  std::vector<int> argument_counts_;      // per open `(` or `?`: the values separated by commas
  int open_ifs_ = 0;
  TokenKind previous_ = TokenKind::kEnd;
  double unknown_ = 0;  // what an unknown name reads while the expression is checked
};

// Variables given by value are copied into storage the compiled expression can point at.
std::map<std::string, double*> Addresses(std::map<std::string, double>& storage) {
  std::map<std::string, double*> addresses;
  for (auto& [name, value] : storage) addresses[name] = &value;
  return addresses;
}

}  // namespace

CompiledExpression::CompiledExpression(const std::string& expression, const std::map<std::string, double*>& variables)
    : expression_(expression) {
  try {
    Parser parser(expression, variables);
    for (const std::string& name : parser.names) {
      if (!variables.count(name)) throw ExpressionError(expression, "unknown name '" + name + "'");
      used_names_.push_back(name);
    }
    program_ = std::move(parser.program);
  } catch (const ExpressionProblem& e) {
    throw ExpressionError(expression, e.what());
  }
}

double CompiledExpression::Evaluate() {
  double value = 0;
  try {
    value = program_.Run(stack_);
  } catch (const ExpressionProblem& e) {
    throw ExpressionError(expression_, e.what());
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
  std::map<std::string, double> storage(variables.begin(), variables.end());
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
  std::vector<std::string> names;
  for (const ExpressionFunction& function : ExpressionFunctions()) names.push_back(function.name);
  names.insert(names.end(), {"_e", "_pi"});
  return names;
}

}  // namespace tuner
