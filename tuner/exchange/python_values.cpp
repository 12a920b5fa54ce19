#include "exchange/python_values.h"

#include <algorithm>
#include <cmath>

#include "common/input_limits.h"
#include "common/interrupt.h"
#include "expression/expression.h"

namespace tuner {

namespace {

using Node = PythonNode;
using NodePtr = PythonNodePtr;

constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53

[[noreturn]] void Fail(const std::string& problem) { throw PythonExpressionError(problem); }

// Every result is checked: doubles hold Python's integers exactly only below 2^53.
double Checked(double value) {
  if (std::isnan(value)) Fail("a value is not a real number (Python would give a complex one)");
  if (!std::isfinite(value) || std::fabs(value) >= kLargestExactInteger)
    Fail("a value is beyond 2^53, where tuner's numbers stop being exact");
  return value;
}

// CPython's float floor division: exact for whole numbers, and as Python rounds for others.
double FloorDivide(double a, double b) {
  if (b == 0) Fail("division by zero");
  const double mod = std::fmod(a, b);
  double quotient = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) quotient -= 1;
  double floored = std::floor(quotient);
  if (quotient - floored > 0.5) floored += 1;
  return floored;
}

// Python's remainder takes the sign of the divisor.
double Remainder(double a, double b) {
  if (b == 0) Fail("division by zero");
  const double r = std::fmod(a, b);
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

double Power(double base, double exponent) {
  if (base == 0 && exponent < 0) Fail("division by zero (0 to a negative power)");
  return std::pow(base, exponent);
}

bool IsWhole(double value) { return value == std::floor(value); }

const char* TypeName(PythonSequence::Type type) {
  switch (type) {
    case PythonSequence::kList:
      return "a list";
    case PythonSequence::kTuple:
      return "a tuple";
    case PythonSequence::kRange:
      return "a range";
    case PythonSequence::kGenerator:
      return "a generator";
  }
  return "a sequence";
}

// Evaluates the constant expressions of value lists: numbers, the operators, comparisons, and/or/not,
// conditionals, `in`, min/max/abs/int/float, and the sequences.
class Evaluator {
 public:
  explicit Evaluator(std::size_t max_values) : max_values_(std::min(max_values, LimitValue(InputLimit::kListValues))) {}

  double Number(const NodePtr& node, const PythonBindings& names) const {
    Step();
    switch (node->kind) {
      case Node::kNumber:
        return Checked(node->value);
      case Node::kName:
        return Bound(node->text, names);
      case Node::kNegate:
        return -Number(node->children[0], names);
      case Node::kBinary:
        return Checked(Binary(*node, names));
      case Node::kCompare:
        return Compare(node->text, Number(node->children[0], names), Number(node->children[1], names));
      case Node::kAnd:
      case Node::kOr: {  // Python's value: the left when it decides, else the right
        const double left = Number(node->children[0], names);
        return (left != 0) == (node->kind == Node::kOr) ? left : Number(node->children[1], names);
      }
      case Node::kNot:
        return Number(node->children[0], names) == 0;
      case Node::kConditional:
        return Number(node->children[Number(node->children[0], names) != 0 ? 1 : 2], names);
      case Node::kIn:
        return In(*node, names);
      case Node::kCall:
        return Call(*node, names);
      case Node::kSequence:
      case Node::kComprehension:
        Fail("a list where a number belongs");
      case Node::kProblemSize:
        Fail("ProblemSize in a list of values: the values must be numbers");
    }
    Fail("a value is not a number");
  }

  PythonSequence Sequence(const NodePtr& node, const PythonBindings& names) const {
    if (node->kind == Node::kSequence) {
      if (node->text == "{}") Fail("a set {...} has no order of its own; write a list [...]");
      PythonSequence sequence{node->text == "()" ? PythonSequence::kTuple : PythonSequence::kList, {}};
      for (const NodePtr& item : node->children) Add(sequence, Number(item, names));
      return sequence;
    }
    if (node->kind == Node::kComprehension) return Comprehension(*node, names);
    if (node->kind == Node::kBinary && node->text == "+") return Joined(*node, names);
    if (node->kind == Node::kCall && node->text == "range") return Range(*node, names);
    if (node->kind == Node::kCall && (node->text == "list" || node->text == "tuple") && node->children.size() <= 1) {
      PythonSequence sequence = node->children.empty() ? PythonSequence{} : Sequence(node->children[0], names);
      sequence.type = node->text == "list" ? PythonSequence::kList : PythonSequence::kTuple;
      return sequence;
    }
    Fail(
        "the values must be a list such as [1, 2, 4], a tuple, range(...), list(...), a comprehension "
        "[x for i in range(n)], or lists joined with '+'");
  }

 private:
  static double Bound(const std::string& name, const PythonBindings& names) {
    const auto it = names.find(name);
    if (it == names.end()) Fail("'" + name + "' in a list of values: the values must be numbers");
    return it->second;
  }

  static double Compare(const std::string& op, double a, double b) {
    if (op == "<") return a < b;
    if (op == ">") return a > b;
    if (op == "<=") return a <= b;
    if (op == ">=") return a >= b;
    if (op == "==") return a == b;
    return a != b;
  }

  double Binary(const Node& node, const PythonBindings& names) const {
    const double a = Number(node.children[0], names), b = Number(node.children[1], names);
    if (node.text == "+") return a + b;
    if (node.text == "-") return a - b;
    if (node.text == "*") return a * b;
    if (node.text == "**") return Power(a, b);
    if (node.text == "//") return FloorDivide(a, b);
    if (node.text == "%") return Remainder(a, b);
    if (b == 0) Fail("division by zero");
    return a / b;
  }

  double In(const Node& node, const PythonBindings& names) const {
    const double value = Number(node.children[0], names);
    const NodePtr& right = node.children[1];
    std::vector<double> items;
    if (right->kind == Node::kSequence)  // a set is a container too
      for (const NodePtr& item : right->children) items.push_back(Number(item, names));
    else
      items = Sequence(right, names).items;
    Step(items.size());
    const bool found = std::find(items.begin(), items.end(), value) != items.end();
    return found != (node.text == "not in");
  }

  double Call(const Node& node, const PythonBindings& names) const {
    const std::string& f = node.text;
    const auto& args = node.children;
    if ((f == "min" || f == "max") && !args.empty()) {
      std::vector<double> values;
      if (args.size() == 1)
        values = Sequence(args[0], names).items;
      else
        for (const NodePtr& arg : args) values.push_back(Number(arg, names));
      if (values.empty()) Fail(f + "() of an empty sequence");
      Step(values.size());
      return f == "min" ? *std::min_element(values.begin(), values.end())
                        : *std::max_element(values.begin(), values.end());
    }
    if (args.size() == 1 && (f == "abs" || f == "int" || f == "float")) {
      const double x = Number(args[0], names);
      return f == "abs" ? std::fabs(x) : f == "int" ? std::trunc(x) : x;
    }
    if (f == "range" || f == "list" || f == "tuple") Fail("a list where a number belongs");
    Fail("the function '" + f + "' is not supported (only min, max, abs, int, float, range, list and tuple)");
  }

  // Every operation and every item made or scanned is a step: a condition that builds a range for
  // each item of another (max(range(10**5)) in a comprehension) costs its items, not one step.
  void Step(std::size_t count = 1) const {
    const std::size_t before = steps_;
    steps_ += count;
    if (before / kStepsBetweenPolls != steps_ / kStepsBetweenPolls) ThrowIfInterrupted("computing a list of values");
    if (steps_ > max_steps_) Fail("the values take too long to compute: " + LimitMessage(InputLimit::kEvaluatorSteps));
  }

  void Add(PythonSequence& sequence, double value) const {
    Step();
    if (sequence.items.size() >= max_values_)
      Fail(max_values_ == LimitValue(InputLimit::kListValues) ? LimitMessage(InputLimit::kListValues)
                                                              : "more than " + std::to_string(max_values_) + " values");
    sequence.items.push_back(value);
  }

  PythonSequence Range(const Node& node, const PythonBindings& names) const {
    if (node.children.empty() || node.children.size() > 3) Fail("range() takes 1 to 3 whole numbers");
    std::vector<double> a;
    for (const NodePtr& arg : node.children) {
      a.push_back(Number(arg, names));
      if (!IsWhole(a.back())) Fail("range() takes whole numbers (it was given " + FormatNumber(a.back()) + ")");
    }
    const double start = a.size() == 1 ? 0 : a[0];
    const double stop = a.size() == 1 ? a[0] : a[1];
    const double step = a.size() == 3 ? a[2] : 1;
    if (step == 0) Fail("range() with a step of 0");
    PythonSequence sequence{PythonSequence::kRange, {}};
    for (double v = start; step > 0 ? v < stop : v > stop; v += step) Add(sequence, v);
    return sequence;
  }

  PythonSequence Comprehension(const Node& node, const PythonBindings& names) const {
    const std::string& variable = node.children[0]->text;
    PythonSequence result{node.text == "()" ? PythonSequence::kGenerator : PythonSequence::kList, {}};
    PythonBindings inner = names;
    for (const double item : Sequence(node.children[2], names).items) {
      inner[variable] = item;
      const bool kept = std::all_of(node.children.begin() + 3, node.children.end(),
                                    [&](const NodePtr& condition) { return Number(condition, inner) != 0; });
      if (kept) Add(result, Number(node.children[1], inner));
    }
    return result;
  }

  // Python's `+` joins a list to a list and a tuple to a tuple; anything else is its TypeError.
  PythonSequence Joined(const Node& node, const PythonBindings& names) const {
    PythonSequence left = Sequence(node.children[0], names);
    const PythonSequence right = Sequence(node.children[1], names);
    if (left.type != right.type || (left.type != PythonSequence::kList && left.type != PythonSequence::kTuple))
      Fail(std::string("'+' joins two lists or two tuples, not ") + TypeName(left.type) + " and " +
           TypeName(right.type) + " (write list(...) around a range)");
    for (const double item : right.items) Add(left, item);
    return left;
  }

  static constexpr std::size_t kStepsBetweenPolls = 1 << 16;
  std::size_t max_values_;
  const std::size_t max_steps_ = LimitValue(InputLimit::kEvaluatorSteps);
  mutable std::size_t steps_ = 0;
};

long long WholeNumber(double value) {
  if (!IsWhole(value))
    Fail("the value " + FormatNumber(value) + " is not a whole number; tuner's parameters are whole numbers");
  return static_cast<long long>(value);
}

}  // namespace

PythonSequence EvaluatePythonSequence(const PythonNodePtr& node, const PythonBindings& bindings,
                                      std::size_t max_values) {
  return Evaluator(max_values).Sequence(node, bindings);
}

std::vector<long long> EvaluatePythonIntegerList(const std::string& text, std::size_t max_values) {
  std::vector<long long> values;
  for (const double item : EvaluatePythonSequence(ParsePython(text), {}, max_values).items)
    values.push_back(WholeNumber(item));
  return values;
}

}  // namespace tuner
