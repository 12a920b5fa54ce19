#include "exchange/python_expression.h"

#include <gtest/gtest.h>

#include "expression/expression.h"
#include "python_eval.h"

namespace tuner {
namespace {

// a and b take negative values too, so that no shortcut for non-negative operands is taken.
PythonScope SignedScope() {
  PythonScope scope;
  scope.params = {{"a", {-7, -3, 0, 2, 3, 6, 7}}, {"b", {-3, -2, 0, 2, 3, 5}}};
  return scope;
}

std::string Condition(const std::string& text, const PythonScope& scope) {
  return TranslatePythonExpression(text, scope, PythonUse::kCondition);
}

std::string ErrorOf(const std::string& text, const PythonScope& scope = SignedScope()) {
  try {
    TranslatePythonExpression(text, scope, PythonUse::kCondition);
  } catch (const PythonExpressionError& e) {
    return e.what();
  }
  return "";
}

struct Case {
  const char* python;
  int a;
  int b;
  double value;  // what Python 3 gives
};

// Each expected value is Python 3's own (eval with a and b bound): the translation must agree for
// negative operands (floor division, the remainder's sign), for `and`/`or` as values, and must
// not evaluate a right side that Python skips (b == 0 below).
const Case kCases[] = {
    {"a // b", 7, 2, 3.0},
    {"a // b", -7, 2, -4.0},
    {"a // b", 7, -3, -3.0},
    {"a // b", -7, -3, 2.0},
    {"a // b", 0, 5, 0.0},
    {"a // b", 6, 3, 2.0},
    {"a // b", 2, -2, -1.0},
    {"a % b", 7, 2, 1.0},
    {"a % b", -7, 2, 1.0},
    {"a % b", 7, -3, -2.0},
    {"a % b", -7, -3, -1.0},
    {"a % b", 0, 5, 0.0},
    {"a % b", 6, 3, 0.0},
    {"a % b", 2, -2, 0.0},
    {"-a // b", 7, 2, -4.0},
    {"-a // b", -7, 2, 3.0},
    {"-a // b", 7, -3, 2.0},
    {"-a // b", -7, -3, -3.0},
    {"-a // b", 0, 5, 0.0},
    {"-a // b", 6, 3, -2.0},
    {"-a // b", 2, -2, 1.0},
    {"a % b == 0", 7, 2, 0.0},
    {"a % b == 0", -7, 2, 0.0},
    {"a % b == 0", 7, -3, 0.0},
    {"a % b == 0", -7, -3, 0.0},
    {"a % b == 0", 0, 5, 1.0},
    {"a % b == 0", 6, 3, 1.0},
    {"a % b == 0", 2, -2, 1.0},
    {"a ** 2 - b", 7, 2, 47.0},
    {"a ** 2 - b", -7, 2, 47.0},
    {"a ** 2 - b", 7, -3, 52.0},
    {"a ** 2 - b", -7, -3, 52.0},
    {"a ** 2 - b", 0, 5, -5.0},
    {"a ** 2 - b", 3, 0, 9.0},
    {"a ** 2 - b", 6, 3, 33.0},
    {"a ** 2 - b", 2, -2, 6.0},
    {"not a", 7, 2, 0.0},
    {"not a", -7, 2, 0.0},
    {"not a", 7, -3, 0.0},
    {"not a", -7, -3, 0.0},
    {"not a", 0, 5, 1.0},
    {"not a", 3, 0, 0.0},
    {"not a", 6, 3, 0.0},
    {"not a", 2, -2, 0.0},
    {"a in (1, 2, -3)", 7, 2, 0.0},
    {"a in (1, 2, -3)", -7, 2, 0.0},
    {"a in (1, 2, -3)", 7, -3, 0.0},
    {"a in (1, 2, -3)", -7, -3, 0.0},
    {"a in (1, 2, -3)", 0, 5, 0.0},
    {"a in (1, 2, -3)", 3, 0, 0.0},
    {"a in (1, 2, -3)", 6, 3, 0.0},
    {"a in (1, 2, -3)", 2, -2, 1.0},
    {"a not in [1, 2]", 7, 2, 1.0},
    {"a not in [1, 2]", -7, 2, 1.0},
    {"a not in [1, 2]", 7, -3, 1.0},
    {"a not in [1, 2]", -7, -3, 1.0},
    {"a not in [1, 2]", 0, 5, 1.0},
    {"a not in [1, 2]", 3, 0, 1.0},
    {"a not in [1, 2]", 6, 3, 1.0},
    {"a not in [1, 2]", 2, -2, 0.0},
    {"1 < a <= 3", 7, 2, 0.0},
    {"1 < a <= 3", -7, 2, 0.0},
    {"1 < a <= 3", 7, -3, 0.0},
    {"1 < a <= 3", -7, -3, 0.0},
    {"1 < a <= 3", 0, 5, 0.0},
    {"1 < a <= 3", 3, 0, 1.0},
    {"1 < a <= 3", 6, 3, 0.0},
    {"1 < a <= 3", 2, -2, 1.0},
    {"a if b > 0 else -a", 7, 2, 7.0},
    {"a if b > 0 else -a", -7, 2, -7.0},
    {"a if b > 0 else -a", 7, -3, -7.0},
    {"a if b > 0 else -a", -7, -3, 7.0},
    {"a if b > 0 else -a", 0, 5, 0.0},
    {"a if b > 0 else -a", 3, 0, -3.0},
    {"a if b > 0 else -a", 6, 3, 6.0},
    {"a if b > 0 else -a", 2, -2, -2.0},
    {"abs(a - 5)", 7, 2, 2.0},
    {"abs(a - 5)", -7, 2, 12.0},
    {"abs(a - 5)", 7, -3, 2.0},
    {"abs(a - 5)", -7, -3, 12.0},
    {"abs(a - 5)", 0, 5, 5.0},
    {"abs(a - 5)", 3, 0, 2.0},
    {"abs(a - 5)", 6, 3, 1.0},
    {"abs(a - 5)", 2, -2, 3.0},
    {"int(a / 3)", 7, 2, 2.0},
    {"int(a / 3)", -7, 2, -2.0},
    {"int(a / 3)", 7, -3, 2.0},
    {"int(a / 3)", -7, -3, -2.0},
    {"int(a / 3)", 0, 5, 0.0},
    {"int(a / 3)", 3, 0, 1.0},
    {"int(a / 3)", 6, 3, 2.0},
    {"int(a / 3)", 2, -2, 0.0},
    {"max(a, b) - min(a, b, 0)", 7, 2, 7.0},
    {"max(a, b) - min(a, b, 0)", -7, 2, 9.0},
    {"max(a, b) - min(a, b, 0)", 7, -3, 10.0},
    {"max(a, b) - min(a, b, 0)", -7, -3, 4.0},
    {"max(a, b) - min(a, b, 0)", 0, 5, 5.0},
    {"max(a, b) - min(a, b, 0)", 3, 0, 3.0},
    {"max(a, b) - min(a, b, 0)", 6, 3, 6.0},
    {"max(a, b) - min(a, b, 0)", 2, -2, 4.0},
    {"b != 0 and a % b == 0", 7, 2, 0.0},
    {"b != 0 and a % b == 0", -7, 2, 0.0},
    {"b != 0 and a % b == 0", 7, -3, 0.0},
    {"b != 0 and a % b == 0", -7, -3, 0.0},
    {"b != 0 and a % b == 0", 0, 5, 1.0},
    {"b != 0 and a % b == 0", 3, 0, 0.0},
    {"b != 0 and a % b == 0", 6, 3, 1.0},
    {"b != 0 and a % b == 0", 2, -2, 1.0},
    {"b == 0 or a // b > 1", 7, 2, 1.0},
    {"b == 0 or a // b > 1", -7, 2, 0.0},
    {"b == 0 or a // b > 1", 7, -3, 0.0},
    {"b == 0 or a // b > 1", -7, -3, 1.0},
    {"b == 0 or a // b > 1", 0, 5, 0.0},
    {"b == 0 or a // b > 1", 3, 0, 1.0},
    {"b == 0 or a // b > 1", 6, 3, 1.0},
    {"b == 0 or a // b > 1", 2, -2, 0.0},
    {"(a and b) + 1", 7, 2, 3.0},
    {"(a and b) + 1", -7, 2, 3.0},
    {"(a and b) + 1", 7, -3, -2.0},
    {"(a and b) + 1", -7, -3, -2.0},
    {"(a and b) + 1", 0, 5, 1.0},
    {"(a and b) + 1", 3, 0, 1.0},
    {"(a and b) + 1", 6, 3, 4.0},
    {"(a and b) + 1", 2, -2, -1.0},
    {"(a or b) * 2", 7, 2, 14.0},
    {"(a or b) * 2", -7, 2, -14.0},
    {"(a or b) * 2", 7, -3, 14.0},
    {"(a or b) * 2", -7, -3, -14.0},
    {"(a or b) * 2", 0, 5, 10.0},
    {"(a or b) * 2", 3, 0, 6.0},
    {"(a or b) * 2", 6, 3, 12.0},
    {"(a or b) * 2", 2, -2, 4.0},
    {"not (a > 0 and b > 0)", 7, 2, 0.0},
    {"not (a > 0 and b > 0)", -7, 2, 1.0},
    {"not (a > 0 and b > 0)", 7, -3, 1.0},
    {"not (a > 0 and b > 0)", -7, -3, 1.0},
    {"not (a > 0 and b > 0)", 0, 5, 1.0},
    {"not (a > 0 and b > 0)", 3, 0, 1.0},
    {"not (a > 0 and b > 0)", 6, 3, 0.0},
    {"not (a > 0 and b > 0)", 2, -2, 1.0},
    {"a // 2 * 2 == a", 7, 2, 0.0},
    {"a // 2 * 2 == a", -7, 2, 0.0},
    {"a // 2 * 2 == a", 7, -3, 0.0},
    {"a // 2 * 2 == a", -7, -3, 0.0},
    {"a // 2 * 2 == a", 0, 5, 1.0},
    {"a // 2 * 2 == a", 3, 0, 0.0},
    {"a // 2 * 2 == a", 6, 3, 1.0},
    {"a // 2 * 2 == a", 2, -2, 1.0},
    {"-(a // -3)", 7, 2, 3.0},
    {"-(a // -3)", -7, 2, -2.0},
    {"-(a // -3)", 7, -3, 3.0},
    {"-(a // -3)", -7, -3, -2.0},
    {"-(a // -3)", 0, 5, 0.0},
    {"-(a // -3)", 3, 0, 1.0},
    {"-(a // -3)", 6, 3, 2.0},
    {"-(a // -3)", 2, -2, 1.0},
    {"(a + b) % 4", 7, 2, 1.0},
    {"(a + b) % 4", -7, 2, 3.0},
    {"(a + b) % 4", 7, -3, 0.0},
    {"(a + b) % 4", -7, -3, 2.0},
    {"(a + b) % 4", 0, 5, 1.0},
    {"(a + b) % 4", 3, 0, 3.0},
    {"(a + b) % 4", 6, 3, 1.0},
    {"(a + b) % 4", 2, -2, 0.0},
    {"a // b // 2", 7, 2, 1.0},
    {"a // b // 2", -7, 2, -2.0},
    {"a // b // 2", 7, -3, -2.0},
    {"a // b // 2", -7, -3, 1.0},
    {"a // b // 2", 0, 5, 0.0},
    {"a // b // 2", 6, 3, 1.0},
    {"a // b // 2", 2, -2, -1.0},
    {"a < b == True", 7, 2, 0.0},
    {"a < b == True", -7, 2, 0.0},
    {"a < b == True", 7, -3, 0.0},
    {"a < b == True", -7, -3, 0.0},
    {"a < b == True", 0, 5, 0.0},
    {"a < b == True", 3, 0, 0.0},
    {"a < b == True", 6, 3, 0.0},
    {"a < b == True", 2, -2, 0.0},
    {"a in range(0, 10, 3)", 7, 2, 0.0},
    {"a in range(0, 10, 3)", -7, 2, 0.0},
    {"a in range(0, 10, 3)", 7, -3, 0.0},
    {"a in range(0, 10, 3)", -7, -3, 0.0},
    {"a in range(0, 10, 3)", 0, 5, 1.0},
    {"a in range(0, 10, 3)", 3, 0, 1.0},
    {"a in range(0, 10, 3)", 6, 3, 1.0},
    {"a in range(0, 10, 3)", 2, -2, 0.0},
};

TEST(PythonExpression, TranslationsEvaluateAsPythonDoes) {
  const PythonScope scope = SignedScope();
  for (const Case& c : kCases) {
    for (const PythonUse use : {PythonUse::kCondition, PythonUse::kValue}) {
      const std::string translated = TranslatePythonExpression(c.python, scope, use);
      const double value = Evaluate(translated, {{"a", c.a}, {"b", c.b}});
      if (use == PythonUse::kValue)
        EXPECT_EQ(value, c.value) << c.python << " -> " << translated << " at a=" << c.a << " b=" << c.b;
      else
        EXPECT_EQ(value != 0, c.value != 0) << c.python << " -> " << translated << " at a=" << c.a << " b=" << c.b;
    }
  }
}

// Generated conditions (chained comparisons, and/or/not, //, %, **, min/max/abs, True/False, `in`
// over lists, tuples, ranges, comprehensions and joined lists), each at several values of a and b,
// against Python's own eval: the same value, or an error where Python raises one.
TEST(PythonExpression, GeneratedConditionsEvaluateAsPythonsEval) {
  const PythonScope scope = SignedScope();
  testing::PythonGenerator generator(20261126, {"a", "b"});
  std::vector<testing::PythonCase> cases;
  std::vector<std::string> translations[2];
  std::size_t refused = 0;
  const std::pair<int, int> points[] = {{7, 2}, {-7, 3}, {0, 5}, {3, 0}, {-3, -2}, {2, 2}};
  for (int i = 0; i < 400; ++i) {
    const std::string python = i % 4 == 0 ? generator.Integer(2) : generator.Condition(2);
    // A constant part that fails (3 // 0) is refused when the import translates it (a constant list)
    // or when the template loads it (the template computes its constants once, in either branch of
    // a `?:`), even where Python's short circuit would not reach it; nothing else may be refused.
    for (const PythonUse use : {PythonUse::kCondition, PythonUse::kValue}) {
      std::string translated, refusal;
      try {
        translated = TranslatePythonExpression(python, scope, use);
        CheckSyntax(translated, {{"a", 1}, {"b", 1}});  // reads no variable: only constants are computed
      } catch (const PythonExpressionError& e) {
        refusal = e.what();
      } catch (const ExpressionError& e) {
        refusal = e.problem;
      }
      if (!refusal.empty()) {
        translated.clear();
        ++refused;
        EXPECT_TRUE(refusal == "division by zero" || refusal == "division by zero (0 to a negative power)" ||
                    refusal == "a value is infinite")
            << python << ": " << refusal;
      }
      translations[use == PythonUse::kValue].push_back(translated);
    }
    for (const auto& [a, b] : points) cases.push_back({python, {{"a", a}, {"b", b}}});
  }
  const std::vector<testing::PythonResult> python = testing::EvalInPython(cases);
  ASSERT_EQ(python.size(), cases.size());
  std::size_t errors = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Variables variables = {{"a", cases[i].names.at("a")}, {"b", cases[i].names.at("b")}};
    for (int value_use = 0; value_use < 2; ++value_use) {
      const std::string& translated = translations[value_use][i / std::size(points)];
      const std::string where = cases[i].expression + " -> " + translated + " at a=" +
                                FormatNumber(variables.at("a")) + " b=" + FormatNumber(variables.at("b"));
      if (translated.empty()) continue;  // refused above
      if (!python[i].error.empty()) {
        EXPECT_THROW(Evaluate(translated, variables), ExpressionError) << where << ": Python raised " << python[i].error;
        errors += value_use;
        continue;
      }
      double value = 0;
      ASSERT_NO_THROW(value = Evaluate(translated, variables)) << where;
      if (value_use)
        EXPECT_EQ(value, python[i].number) << where;
      else
        EXPECT_EQ(value != 0, python[i].number != 0) << where;
    }
  }
  EXPECT_GT(errors, 10u);  // the cases include divisions by zero
  EXPECT_LT(errors, cases.size() / 2);
  EXPECT_LT(refused, 40u);  // of 800 translations
}

TEST(PythonExpression, ADivisionByZeroThatPythonEvaluatesIsAnError) {
  const std::string translated = Condition("a // b > 1", SignedScope());
  EXPECT_THROW(Evaluate(translated, {{"a", 3}, {"b", 0}}), ExpressionError);
}

TEST(PythonExpression, ReadableWhereTheMeaningAllows) {
  PythonScope scope;
  scope.params = {{"use_padding", {0, 1}}, {"block_size_x", {16, 32, 48}}, {"block_size_y", {1, 2}}};
  EXPECT_EQ(Condition("use_padding==0 or block_size_x % 32 != 0", scope), "use_padding == 0 || block_size_x % 32 != 0");
  EXPECT_EQ(Condition("block_size_x*block_size_y<=1024", scope), "block_size_x * block_size_y <= 1024");
  EXPECT_EQ(Condition("not (use_padding and block_size_y > 1)", scope), "(use_padding && block_size_y > 1) == 0");
  EXPECT_EQ(Condition("block_size_x in (16, 48)", scope), "block_size_x == 16 || block_size_x == 48");
  EXPECT_EQ(Condition("16 <= block_size_x < 48", scope), "16 <= block_size_x && block_size_x < 48");
  EXPECT_EQ(Condition("block_size_x ** 2 >= 2 ** 10", scope), "block_size_x^2 >= 2^10");
  // The remainder of a value that may be negative keeps Python's sign.
  EXPECT_EQ(Condition("(block_size_y - 2) % 4 == 1", scope), "((block_size_y - 2) % 4 + 4) % 4 == 1");
  // A right side that may divide by zero is evaluated only when Python would.
  EXPECT_EQ(Condition("block_size_y == 1 or block_size_x % block_size_y == 0", scope),
            "block_size_y == 1 ? 1 : block_size_x % block_size_y == 0");
}

TEST(PythonExpression, FloorDivisionOfAFloorDivisionHasNoDoubleMinus) {
  PythonScope scope;
  scope.params = {{"bx", {16, 32}}, {"tx", {1, 2}}};
  const std::string translated = TranslatePythonExpression("(262144 // bx) // tx", scope, PythonUse::kValue);
  EXPECT_EQ(translated, "-cdiv(cdiv(-262144, bx), tx)");
  EXPECT_EQ(Evaluate(translated, {{"bx", 48}, {"tx", 5}}), 262144 / 48 / 5);
}

TEST(PythonExpression, ProblemSizesAndParameterRangesInSizes) {
  PythonScope scope;
  scope.params = {{"filter_width", {3, 15, 7}}};
  scope.problem_sizes = {"ProblemSize_0", "ProblemSize_1"};
  scope.params_allowed = false;
  EXPECT_EQ(
      TranslatePythonExpression("(ProblemSize[0]+max(filter_width)-1) * ProblemSize[1]", scope, PythonUse::kValue),
      "(ProblemSize_0 + 15 - 1) * ProblemSize_1");
  EXPECT_EQ(TranslatePythonExpression("min(filter_width)", scope, PythonUse::kValue), "3");
  EXPECT_NE(ErrorOf("ProblemSize[0] * filter_width", scope).find("'filter_width' is a tuning parameter"),
            std::string::npos);
  EXPECT_EQ(ErrorOf("ProblemSize[2]", scope), "ProblemSize[2]: the description gives 2 problem size(s)");
  EXPECT_NE(ErrorOf("ProblemSize * 2", scope).find("ProblemSize[0]"), std::string::npos);
}

TEST(PythonExpression, WhatHasNoCounterpartIsNamed) {  // syntax errors: python_syntax_test
  EXPECT_EQ(ErrorOf("c > 1"), "unknown name 'c': it is not a tuning parameter");
  EXPECT_EQ(ErrorOf("round(a)"), "the function 'round' is not supported (only min, max, abs, int and float)");
  EXPECT_EQ(ErrorOf("a in b"), "the right of 'in' must be a list, a tuple, a range or a comprehension of values");
  EXPECT_EQ(ErrorOf("[a, b]"), "a list, a tuple or a comprehension is a value only on the right of 'in'");
  EXPECT_EQ(ErrorOf("[i for i in range(3)] == 1"),
            "a list, a tuple or a comprehension is a value only on the right of 'in'");
  EXPECT_EQ(ErrorOf("a in [i * b for i in range(3)]"), "'b' in a list of values: the values must be numbers");
  EXPECT_EQ(ErrorOf("min(c)"), "min(c): 'c' is not a tuning parameter");
  EXPECT_EQ(Condition("min(a) < 0", SignedScope()), "(-7) < 0");  // a negative operand is always parenthesised
  EXPECT_EQ(ErrorOf("max(a + b)"), "max() takes two or more values, or one tuning parameter");
}

// abs() and `or` as a value repeat their operand: a nest of them is refused before it grows the
// translation (or the time to make it) exponentially.
TEST(PythonExpression, ATranslationThatWouldExplodeIsRefused) {
  std::string nested = "a";
  for (int i = 0; i < 40; ++i) nested = "abs(" + nested + " - 1)";
  EXPECT_NE(ErrorOf(nested + " > 0").find("the translation would be longer than 100000 characters"),
            std::string::npos);
  std::string values = "a";
  for (int i = 0; i < 60; ++i) values = "(" + values + " or b) + 1";
  EXPECT_NE(ErrorOf(values + " > 0").find("translat"), std::string::npos) << ErrorOf(values + " > 0");
}

}  // namespace
}  // namespace tuner
