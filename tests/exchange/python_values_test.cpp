#include "exchange/python_values.h"

#include <gtest/gtest.h>

#include "limit_override.h"
#include "python_eval.h"

namespace tuner {
namespace {

using Values = std::vector<long long>;

std::string ErrorOf(const std::string& text, std::size_t max_values = 1000) {
  try {
    EvaluatePythonIntegerList(text, max_values);
  } catch (const PythonExpressionError& e) {
    return e.what();
  }
  return "";
}

TEST(PythonValues, TheFormsT1FilesUse) {
  Values expected = {1, 2, 4, 8, 16};
  for (long long v = 32; v <= 1024; v += 32) expected.push_back(v);
  EXPECT_EQ(EvaluatePythonIntegerList("[1, 2, 4, 8, 16] + list(range(32, 1024+1, 32))", 1000), expected);
  EXPECT_EQ(EvaluatePythonIntegerList("[2**i for i in range(0, 6)]", 100), (Values{1, 2, 4, 8, 16, 32}));
  EXPECT_EQ(EvaluatePythonIntegerList("[i for i in range(1, 11)]", 100), (Values{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(EvaluatePythonIntegerList("[16, 32, 2**6]", 100), (Values{16, 32, 64}));
  EXPECT_EQ(EvaluatePythonIntegerList("(1, -2,)", 100), (Values{1, -2}));
  EXPECT_EQ(EvaluatePythonIntegerList("range(8, 0, -4)", 100), (Values{8, 4}));
  EXPECT_EQ(EvaluatePythonIntegerList("[i * 32 for i in range(1, 9) if i % 2 == 0 if i != 4]", 100),
            (Values{64, 192, 256}));
  EXPECT_EQ(EvaluatePythonIntegerList("list(i for i in (3, 1))", 100), (Values{3, 1}));
  EXPECT_EQ(EvaluatePythonIntegerList("[max(1, 7 // 2), min([4, 2]), abs(-3), int(7 / 2), True]", 100),
            (Values{3, 2, 3, 3, 1}));
}

TEST(PythonValues, WhatPythonRefusesOrTunerCannotTakeIsNamed) {
  EXPECT_EQ(ErrorOf("[1] + range(3)"),
            "'+' joins two lists or two tuples, not a list and a range (write list(...) around a range)");
  EXPECT_EQ(ErrorOf("[1] + (2,)"),
            "'+' joins two lists or two tuples, not a list and a tuple (write list(...) around a range)");
  EXPECT_EQ(ErrorOf("[1.5, 2]"), "the value 1.5 is not a whole number; tuner's parameters are whole numbers");
  EXPECT_EQ(ErrorOf("[2**i for i in range(-1, 2)]"),
            "the value 0.5 is not a whole number; tuner's parameters are whole numbers");
  EXPECT_EQ(ErrorOf("range(0, 10, 0)"), "range() with a step of 0");
  EXPECT_EQ(ErrorOf("range(1000)", 100), "more than 100 values");
  EXPECT_EQ(ErrorOf("[i for i in range(10**9)]"), "more than 1000 values");
  EXPECT_NE(ErrorOf("['a', 'b']").find("strings"), std::string::npos);
  EXPECT_EQ(ErrorOf("[x for x in range(3)] + [y]"), "'y' in a list of values: the values must be numbers");
  EXPECT_EQ(ErrorOf("[1 // 0]"), "division by zero");
  EXPECT_EQ(ErrorOf("[2**60]"), "a value is beyond 2^53, where tuner's numbers stop being exact");
  EXPECT_EQ(ErrorOf("{1, 2}"), "a set {...} has no order of its own; write a list [...]");
  EXPECT_EQ(ErrorOf("[i for i, j in range(3)]"),
            "a comprehension's 'for' over several names is not supported; use one name");
  EXPECT_EQ(ErrorOf("[i for i in range(3) for j in range(2)]"),
            "a comprehension with more than one 'for' is not supported");
  EXPECT_EQ(ErrorOf("sorted([2, 1])"),
            "the values must be a list such as [1, 2, 4], a tuple, range(...), list(...), a comprehension "
            "[x for i in range(n)], or lists joined with '+'");
  EXPECT_EQ(ErrorOf("[len([1])]"),
            "the function 'len' is not supported (only min, max, abs, int, float, range, list and tuple)");
}

// Generated value lists (literals, ranges with negative steps, list(...), comprehensions with and
// without `if`, joined lists) against Python's own eval: the same whole numbers in the same order,
// or an error where Python raises one or gives a value that is not whole.
TEST(PythonValues, GeneratedListsEvaluateAsPythonsEval) {
  testing::PythonGenerator generator(20261126, {});
  std::vector<testing::PythonCase> cases;
  for (int i = 0; i < 1500; ++i) cases.push_back({generator.Sequence(1), {}});
  const std::vector<testing::PythonResult> python = testing::EvalInPython(cases);
  ASSERT_EQ(python.size(), cases.size());
  std::size_t refused = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string& text = cases[i].expression;
    bool whole = python[i].error.empty();
    for (const double v : python[i].items) whole = whole && v == static_cast<double>(static_cast<long long>(v));
    if (!whole) {
      ++refused;
      EXPECT_THROW(EvaluatePythonIntegerList(text, 100000), PythonExpressionError) << text;
      continue;
    }
    Values expected;
    for (const double v : python[i].items) expected.push_back(static_cast<long long>(v));
    Values values;
    ASSERT_NO_THROW(values = EvaluatePythonIntegerList(text, 100000)) << text;
    EXPECT_EQ(values, expected) << text;
  }
  EXPECT_GT(refused, 10u);  // divisions by zero, 2**i of a negative i
  EXPECT_LT(refused, cases.size() / 3);
}

TEST(PythonValues, WorkIsBounded) {
  const std::string too_long =
      "the values take too long to compute: more than 10000000 evaluation steps (the limit; raise it with "
      "TUNER_LIMIT_STEPS=N)";
  EXPECT_EQ(ErrorOf("[i for i in range(100000) if i in [k for k in range(100000)]]", 100000), too_long);
  // Each item a range or max builds is a step, not only each evaluation: this once ran past a minute.
  EXPECT_EQ(ErrorOf("[x for x in range(100000) if x < max(range(100000))]", 100000), too_long);
  const testing::LimitOverride steps(InputLimit::kEvaluatorSteps, "1000");
  EXPECT_EQ(ErrorOf("[x for x in range(10) if x < max(range(10))]", 100), "");
  EXPECT_NE(ErrorOf("list(range(2000))", 100000).find("more than 1000 evaluation steps"), std::string::npos);
}

TEST(PythonValues, AListLongerThanTheLimitIsRefusedNamingIt) {
  const testing::LimitOverride values(InputLimit::kListValues, "50");
  EXPECT_EQ(ErrorOf("list(range(50))", 100000), "");
  EXPECT_EQ(ErrorOf("list(range(51))", 100000),
            "more than 50 values in one list (the limit; raise it with TUNER_LIMIT_LIST_VALUES=N)");
}

}  // namespace
}  // namespace tuner
