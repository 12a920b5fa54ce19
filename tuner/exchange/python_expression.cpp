#include "exchange/python_expression.h"

#include "common/input_limits.h"
#include "exchange/python_syntax.h"
#include "exchange/python_values.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace tuner {

namespace {

using Node = PythonNode;
using NodePtr = PythonNodePtr;

constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53
constexpr std::size_t kMaxMembers = 4096;                    // the values on the right of one `in`
constexpr std::size_t kMaxEmitted = 1000000;                 // translations of subexpressions
constexpr std::size_t kMaxTranslationChars = 100000;

[[noreturn]] void Fail(const std::string& problem) { throw PythonExpressionError(problem); }

// ---- translation -----------------------------------------------------------------------------

// Precedence of the template syntax, loosest first. A negation is parenthesised wherever it is an
// operand, and a power takes only atoms, so no reading of `-a^b` or `a^-b` is ever relied on.
enum Precedence { kTernary, kOr, kAnd, kCompare, kAdd, kMultiply, kPower, kAtom };
constexpr int kNegation = kOr;

struct Text {
  Text(std::string text, int precedence, std::string negation_of = "")
      : text(std::move(text)), precedence(precedence), negation_of(std::move(negation_of)) {}
  std::string text;
  int precedence;
  std::string negation_of;  // "-X" with X an atom: X, so that -(-X) is written X
};

std::string Wrap(const Text& t, int needed) { return t.precedence < needed ? "(" + t.text + ")" : t.text; }

Text Negation(const std::string& atom) { return {"-" + atom, kNegation, atom}; }

// -t, written without a double minus.
std::string Negated(const Text& t) { return t.negation_of.empty() ? "-" + Wrap(t, kAtom) : t.negation_of; }

std::string FormatLiteral(double value) {
  if (std::fabs(value) >= kLargestExactInteger) Fail("the number " + std::to_string(value) + " is beyond 2^53");
  char buffer[64];
  if (value == std::floor(value)) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

class Translator {
 public:
  explicit Translator(const PythonScope& scope) : scope_(scope) {}

  // Python's `and`/`or` as values, abs() and the remainder repeat their operands: a bound on the work
  // and the text keeps a nest of them from growing the translation exponentially.
  Text Emit(const NodePtr& node, bool boolean) const {
    if (++emitted_ > kMaxEmitted) Fail("the expression is too large to translate (it repeats itself too often)");
    Text text = EmitNode(node, boolean);
    if (text.text.size() > kMaxTranslationChars)
      Fail("the translation would be longer than " + std::to_string(kMaxTranslationChars) + " characters");
    return text;
  }

 private:
  Text EmitNode(const NodePtr& node, bool boolean) const {
    switch (node->kind) {
      case Node::kNumber:
        return node->value < 0 ? Negation(FormatLiteral(-node->value)) : Text(FormatLiteral(node->value), kAtom);
      case Node::kName:
        return {Name(node->text), kAtom};
      case Node::kProblemSize:
        return {ProblemSize(node->value), kAtom};
      case Node::kNegate:
        return Negation(Wrap(Emit(node->children[0], false), kAtom));
      case Node::kBinary:
        return Binary(*node);
      case Node::kAnd:
      case Node::kOr:
        return Logical(*node, boolean);
      case Node::kNot:
        return {Wrap(Emit(node->children[0], true), kAdd) + " == 0", kCompare};
      case Node::kCompare:
        return {Wrap(Emit(node->children[0], false), kAdd) + " " + node->text + " " +
                    Wrap(Emit(node->children[1], false), kAdd),
                kCompare};
      case Node::kIn:
        return Membership(*node);
      case Node::kConditional:
        return {Wrap(Emit(node->children[0], true), kOr) + " ? " + Wrap(Emit(node->children[1], boolean), kOr) + " : " +
                    Wrap(Emit(node->children[2], boolean), kOr),
                kTernary};
      case Node::kCall:
        return Call(*node);
      case Node::kSequence:
      case Node::kComprehension:
        Fail("a list, a tuple or a comprehension is a value only on the right of 'in'");
    }
    Fail("unsupported expression");
  }

 public:
  // Whether evaluating the node can fail (a division by a value that may be zero, a power that may
  // not be real): Python's `and`/`or` then must not evaluate it when the left side decides.
  static bool MayFail(const NodePtr& node) {
    if (node->kind == Node::kBinary) {
      const NodePtr& right = node->children[1];
      const bool literal_divisor = right->kind == Node::kNumber && right->value != 0;
      if ((node->text == "/" || node->text == "//" || node->text == "%") && !literal_divisor) return true;
      if (node->text == "**" &&
          !(right->kind == Node::kNumber && right->value >= 0 && right->value == std::floor(right->value)))
        return true;
    }
    return std::any_of(node->children.begin(), node->children.end(), MayFail);
  }

 private:
  std::string Name(const std::string& name) const {
    if (name == "ProblemSize") Fail("'ProblemSize' is a list: write ProblemSize[0], ProblemSize[1] or ProblemSize[2]");
    if (!scope_.params.count(name)) Fail("unknown name '" + Excerpt(name) + "': it is not a tuning parameter");
    if (!scope_.params_allowed)
      Fail("'" + name + "' is a tuning parameter, and this value may depend on the problem size only (max(" + name +
           ") is the largest of its values)");
    return name;
  }

  std::string ProblemSize(double index) const {
    const auto i = static_cast<std::size_t>(index);
    if (i >= scope_.problem_sizes.size())
      Fail("ProblemSize[" + std::to_string(i) + "]: the description gives " +
           std::to_string(scope_.problem_sizes.size()) + " problem size(s)");
    return scope_.problem_sizes[i];
  }

  bool NonNegative(const NodePtr& node) const {
    const auto all = [&](std::size_t first) {
      return std::all_of(node->children.begin() + static_cast<std::ptrdiff_t>(first), node->children.end(),
                         [&](const NodePtr& child) { return NonNegative(child); });
    };
    switch (node->kind) {
      case Node::kNumber:
        return node->value >= 0;
      case Node::kName: {
        const auto param = scope_.params.find(node->text);
        return param != scope_.params.end() &&
               std::all_of(param->second.begin(), param->second.end(), [](long long v) { return v >= 0; });
      }
      case Node::kProblemSize:
      case Node::kNot:
      case Node::kCompare:
      case Node::kIn:
        return true;
      case Node::kBinary:
        return node->text != "-" && (node->text == "**" ? NonNegative(node->children[0]) : all(0));
      case Node::kAnd:
        return NonNegative(node->children[1]);
      case Node::kOr:
        return all(0);
      case Node::kConditional:
        return all(1);
      case Node::kCall:
        return node->text == "abs" ||
               (node->children.size() == 1 && IsParameterRange(*node) ? Extreme(*node) >= 0 : all(0));
      case Node::kNegate:
      case Node::kSequence:
      case Node::kComprehension:
        return false;
    }
    return false;
  }

  Text Binary(const Node& node) const {
    const NodePtr& a = node.children[0];
    const NodePtr& b = node.children[1];
    const std::string op = node.text;
    if (op == "+" || op == "-")
      return {Wrap(Emit(a, false), kAdd) + " " + op + " " + Wrap(Emit(b, false), kMultiply), kAdd};
    if (op == "*" || op == "/")
      return {Wrap(Emit(a, false), kMultiply) + " " + op + " " + Wrap(Emit(b, false), kPower), kMultiply};
    if (op == "**") return {Wrap(Emit(a, false), kAtom) + "^" + Wrap(Emit(b, false), kAtom), kPower};
    const std::string divisor = Wrap(Emit(b, false), kAtom);
    if (op == "//")  // floor(a / b) = -ceil(-a / b)
      return Negation("cdiv(" + Negated(Emit(a, false)) + ", " + Wrap(Emit(b, false), kOr) + ")");
    // %: the template's remainder takes the sign of the dividend, Python's that of the divisor.
    const std::string remainder = Wrap(Emit(a, false), kMultiply) + " % " + divisor;
    if (NonNegative(a) && NonNegative(b)) return {remainder, kMultiply};
    return {"(" + remainder + " + " + divisor + ") % " + divisor, kMultiply};
  }

  // Python's `a and b` is a when a is false, else b; `a or b` is a when a is true, else b.
  Text Logical(const Node& node, bool boolean) const {
    const bool is_and = node.kind == Node::kAnd;
    const NodePtr& a = node.children[0];
    const NodePtr& b = node.children[1];
    const int level = is_and ? kAnd : kOr;
    if (boolean && !MayFail(b))
      return {Wrap(Emit(a, true), level) + (is_and ? " && " : " || ") + Wrap(Emit(b, true), level + 1), level};
    const std::string test = Wrap(Emit(a, true), kOr);
    const std::string right = Wrap(Emit(b, boolean), kOr);
    if (is_and) return {test + " ? " + right + " : 0", kTernary};
    return {test + " ? " + (boolean ? "1" : Wrap(Emit(a, false), kOr)) + " : " + right, kTernary};
  }

  Text Membership(const Node& node) const {
    const std::vector<NodePtr> items = Items(node.children[1]);
    const std::string value = Wrap(Emit(node.children[0], false), kAdd);
    const bool negated = node.text == "not in";
    const char* compare = negated ? " != " : " == ";
    const char* join = negated ? " && " : " || ";
    if (items.empty()) return {negated ? "1" : "0", kAtom};
    std::string text;
    for (const NodePtr& item : items)
      text += (text.empty() ? "" : join) + value + compare + Wrap(Emit(item, false), kAdd);
    return {text, items.size() == 1 ? kCompare : negated ? kAnd : kOr};
  }

  // The items of a list or tuple as written (they may use parameters); those of range(...),
  // list(...), a comprehension or a `+` of lists as constants.
  static std::vector<NodePtr> Items(const NodePtr& sequence) {
    if (sequence->kind == Node::kSequence) return sequence->children;
    const bool constant = sequence->kind == Node::kComprehension ||
                          (sequence->kind == Node::kBinary && sequence->text == "+") ||
                          (sequence->kind == Node::kCall &&
                           (sequence->text == "range" || sequence->text == "list" || sequence->text == "tuple"));
    if (!constant) Fail("the right of 'in' must be a list, a tuple, a range or a comprehension of values");
    std::vector<NodePtr> items;
    for (const double v : EvaluatePythonSequence(sequence, {}, kMaxMembers).items) items.push_back(PythonNumber(v));
    return items;
  }

  static bool IsParameterRange(const Node& call) {
    return (call.text == "min" || call.text == "max") && call.children.size() == 1 &&
           call.children[0]->kind == Node::kName;
  }

  double Extreme(const Node& call) const {
    const auto param = scope_.params.find(call.children[0]->text);
    if (param == scope_.params.end())
      Fail(call.text + "(" + call.children[0]->text + "): '" + call.children[0]->text + "' is not a tuning parameter");
    const auto& v = param->second;
    return static_cast<double>(call.text == "min" ? *std::min_element(v.begin(), v.end())
                                                  : *std::max_element(v.begin(), v.end()));
  }

  Text Call(const Node& node) const {
    const std::string& f = node.text;
    const auto& args = node.children;
    if (IsParameterRange(node)) return Emit(PythonNumber(Extreme(node)), false);
    if ((f == "min" || f == "max") && args.size() >= 2) {
      std::string text = f + "(";
      for (std::size_t i = 0; i < args.size(); ++i) text += (i ? ", " : "") + Wrap(Emit(args[i], false), kOr);
      return {text + ")", kAtom};
    }
    if (args.size() == 1 && (f == "abs" || f == "int" || f == "float")) {
      const std::string x = Wrap(Emit(args[0], false), kAtom);
      if (f == "abs") return {x + " < 0 ? -" + x + " : " + x, kTernary};
      if (f == "int") return {x + " - " + x + " % 1", kAdd};  // truncation, as Python's int()
      return Emit(args[0], false);
    }
    if (f == "min" || f == "max") Fail(f + "() takes two or more values, or one tuning parameter");
    Fail("the function '" + f + "' is not supported (only min, max, abs, int and float)");
  }

  const PythonScope& scope_;
  mutable std::size_t emitted_ = 0;
};

}  // namespace

std::string TranslatePythonExpression(const std::string& text, const PythonScope& scope, PythonUse use) {
  const NodePtr tree = ParsePython(text);
  return Translator(scope).Emit(tree, use == PythonUse::kCondition).text;
}

}  // namespace tuner
