#include "template/expression.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tuner {
namespace {

// The message of the ExpressionError that evaluating `expression` throws, or "" when it does not.
std::string ErrorOf(const std::string& expression, const Variables& vars, bool integer = false) {
  try {
    if (integer) EvaluateInteger(expression, vars);
    else Evaluate(expression, vars);
  } catch (const ExpressionError& e) {
    return e.what();
  }
  return "";
}

TEST(Expression, ArithmeticLogicAndCeilDivision) {
  const Variables vars = {{"W", 8192}, {"TILE", 48}, {"PAD", 1}};
  EXPECT_EQ(EvaluateInteger("cdiv(W, TILE)", vars), 171);
  EXPECT_EQ(EvaluateInteger("TILE * (TILE + PAD) * 4", vars), 9408);
  EXPECT_EQ(Evaluate("TILE <= 64 && PAD == 1", vars), 1.0);
  EXPECT_EQ(Evaluate("TILE > 64 || PAD == 0", vars), 0.0);
  EXPECT_EQ(Evaluate("PAD == 1 ? 7 : 9", vars), 7.0);
  EXPECT_EQ(Evaluate("min(W, TILE, 3)", vars), 3.0);
}

TEST(Expression, RejectsUnknownNamesAndFractions) {
  const Variables vars = {{"N", 10}};
  EXPECT_THROW(Evaluate("M + 1", vars), ExpressionError);
  EXPECT_THROW(Evaluate("N +", vars), ExpressionError);
  EXPECT_THROW(EvaluateInteger("N / 4", vars), ExpressionError);
  EXPECT_THROW(Evaluate("N / 0", vars), ExpressionError);
  EXPECT_EQ(ErrorOf("N * Q", vars), "in expression 'N * Q': unknown name 'Q'");
}

TEST(Expression, AnExpressionOfSeveralLinesIsQuotedOnOne) {  // found by scripts/fuzz_cli.py
  try {
    Evaluate("a\nb", {});
    FAIL() << "evaluated";
  } catch (const ExpressionError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("in expression 'a\\nb': ", 0), 0u) << e.what();
  }
}

TEST(Expression, DivisionByZeroIsAnErrorUnlessTheBranchIsNotTaken) {
  const Variables vars = {{"N", 10}, {"Z", 0}};
  EXPECT_EQ(ErrorOf("N / Z > 1", vars), "in expression 'N / Z > 1': division by zero");
  EXPECT_EQ(ErrorOf("N % Z == 0", vars), "in expression 'N % Z == 0': division by zero");
  EXPECT_NE(ErrorOf("Z == 0 || N % Z == 0", vars).find("division by zero"), std::string::npos);  // || evaluates both sides
  EXPECT_EQ(Evaluate("Z == 0 ? 1 : N % Z == 0", vars), 1.0);                      // ?: evaluates one branch
  EXPECT_NE(ErrorOf("sqrt(Z - N) < 1", vars).find("not a number"), std::string::npos);
}

TEST(Expression, OperatorsKeepTheirPrecedenceAndAssociativity) {
  const Variables vars = {{"A", 7}, {"B", 2}};
  EXPECT_EQ(Evaluate("2 + 3 * 4 ^ 2", vars), 50.0);
  EXPECT_EQ(Evaluate("2 ^ 3 ^ 2", vars), 512.0);  // right-associative
  EXPECT_EQ(Evaluate("-2 ^ 2", vars), -4.0);
  EXPECT_EQ(Evaluate("A - B - 1", vars), 4.0);
  EXPECT_EQ(Evaluate("A / B * 2", vars), 7.0);
  EXPECT_EQ(Evaluate("A % B + 1", vars), 2.0);
  EXPECT_EQ(Evaluate("A - -B", vars), 9.0);
  EXPECT_EQ(Evaluate("A > B == 1 && B >= 2 && A != B && B <= 2 && B < A || 0", vars), 1.0);
  EXPECT_EQ(Evaluate("0 && 1 || 1", vars), 1.0);
  EXPECT_EQ(Evaluate("1 || 0 && 0", vars), 1.0);  // && binds tighter
}

TEST(Expression, HugeValuesAreTooLargeNotFractions) {
  EXPECT_NE(ErrorOf("2^63", {}, true).find("too large"), std::string::npos) << ErrorOf("2^63", {}, true);
  EXPECT_NE(ErrorOf("10 / 4", {}, true).find("2.5, not a whole number"), std::string::npos) << ErrorOf("10 / 4", {}, true);
}

TEST(Expression, FunctionNamesComeFromTheParser) {
  const std::vector<std::string> names = ExpressionFunctionNames();
  for (const char* name : {"cdiv", "min", "max", "sin", "sqrt", "_pi"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
}

TEST(Expression, CheckSyntaxNeedsOnlyNames) {
  EXPECT_NO_THROW(CheckSyntax("cdiv(N, B) * 2", {{"N", 1}, {"B", 1}}));
  EXPECT_THROW(CheckSyntax("cdiv(N, B) * 2", {{"N", 1}}), ExpressionError);
}

TEST(Expression, ACompiledExpressionReadsItsVariablesWhereTheyAre) {
  double n = 10, b = 4;
  CompiledExpression compiled("N % B == 0 && B > 1", {{"N", &n}, {"B", &b}});
  EXPECT_EQ(compiled.Evaluate(), 0.0);
  n = 12;  // no new parse: the next evaluation reads the new value
  EXPECT_EQ(compiled.Evaluate(), 1.0);
  b = 0;
  try {
    compiled.Evaluate();
    FAIL() << "expected a division by zero";
  } catch (const ExpressionError& e) {
    EXPECT_EQ(std::string(e.what()), "in expression 'N % B == 0 && B > 1': division by zero");
  }
  std::vector<std::string> used = compiled.used_names();
  std::sort(used.begin(), used.end());
  EXPECT_EQ(used, (std::vector<std::string>{"B", "N"}));
}

TEST(Expression, ACompiledExpressionRefusesUnknownNamesWhenCompiled) {
  double n = 1;
  try {
    CompiledExpression("N * Q", {{"N", &n}});
    FAIL() << "expected an unknown name";
  } catch (const ExpressionError& e) {
    EXPECT_EQ(std::string(e.what()), "in expression 'N * Q': unknown name 'Q'");
  }
  EXPECT_THROW(CompiledExpression("N +", {{"N", &n}}), ExpressionError);
}

}  // namespace
}  // namespace tuner
