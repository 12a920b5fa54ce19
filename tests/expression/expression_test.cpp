#include "expression/expression.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace tuner {
namespace {

// The message of the ExpressionError that evaluating `expression` throws, or "" when it does not.
std::string ErrorOf(const std::string& expression, const Variables& vars, bool integer = false) {
  try {
    if (integer)
      EvaluateInteger(expression, vars);
    else
      Evaluate(expression, vars);
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
  EXPECT_NE(ErrorOf("Z == 0 || N % Z == 0", vars).find("division by zero"),
            std::string::npos);                               // || evaluates both sides
  EXPECT_EQ(Evaluate("Z == 0 ? 1 : N % Z == 0", vars), 1.0);  // ?: evaluates one branch
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

TEST(Expression, PrefixSignsComparisonsAndConditionalsGroupAsBefore) {
  const Variables vars = {{"N", 10}, {"B", 4}};
  EXPECT_EQ(Evaluate("-N ^ 2", vars), -100.0);  // the sign applies after ^
  EXPECT_EQ(Evaluate("-N * 2", vars), -20.0);
  EXPECT_EQ(Evaluate("2 * -B", vars), -8.0);
  EXPECT_EQ(Evaluate("N - +B", vars), 6.0);
  EXPECT_EQ(Evaluate("N - -B", vars), 14.0);
  EXPECT_EQ(Evaluate("N > 3 > 1", vars), 0.0);                    // (N > 3) > 1
  EXPECT_EQ(Evaluate("N < B + 7", vars), 1.0);                    // + binds tighter than <
  EXPECT_EQ(Evaluate("N == B ? 1 : B == 4 ? 2 : 3", vars), 2.0);  // ?: groups to the right
  EXPECT_EQ(Evaluate("N ? B ? 1 : 2 : 3", vars), 1.0);
  EXPECT_EQ(Evaluate("1 ? 2 : 3 * 4", vars), 2.0);  // the branch takes the whole product
  EXPECT_EQ(Evaluate("(0 ? 2 : 3) * 4", vars), 12.0);
  EXPECT_EQ(Evaluate("N > B && B > 1 ? N % B : 0", vars), 2.0);  // ?: binds loosest
  EXPECT_EQ(Evaluate("1, N + B", vars), 14.0);                   // comma-separated: the last
  EXPECT_EQ(Evaluate("1.5e1 + .5 + 5.", vars), 20.5);
}

TEST(Expression, EveryFunctionAndConstant) {
  const Variables vars = {{"X", 0.5}, {"Y", 2}};
  const std::pair<const char*, double> cases[] = {
      {"abs(-X)", 0.5},
      {"acos(X)", std::acos(0.5)},
      {"acosh(Y)", std::acosh(2.0)},
      {"asin(X)", std::asin(0.5)},
      {"asinh(Y)", std::asinh(2.0)},
      {"atan(X)", std::atan(0.5)},
      {"atan2(X, Y)", std::atan2(0.5, 2.0)},
      {"atanh(X)", std::atanh(0.5)},
      {"avg(1, Y, 6)", 3},
      {"cdiv(7, Y)", 4},
      {"cos(X)", std::cos(0.5)},
      {"cosh(X)", std::cosh(0.5)},
      {"exp(Y)", std::exp(2.0)},
      {"ln(Y)", std::log(2.0)},
      {"log(Y)", std::log(2.0)},
      {"log10(100)", 2},
      {"log2(8)", 3},
      {"max(1, Y, -3)", 2},
      {"min(1, Y, -3)", -3},
      {"rint(X)", 1},
      {"rint(-2.5)", -2},
      {"sign(-Y)", -1},
      {"sign(0)", 0},
      {"sin(X)", std::sin(0.5)},
      {"sinh(X)", std::sinh(0.5)},
      {"sqrt(Y)", std::sqrt(2.0)},
      {"sum(1, Y, 3)", 6},
      {"tan(X)", std::tan(0.5)},
      {"tanh(X)", std::tanh(0.5)},
      {"_pi", 3.141592653589},
      {"_e", std::exp(1.0)},
  };
  for (const auto& [expression, expected] : cases)
    EXPECT_NEAR(Evaluate(expression, vars), expected, 1e-12) << expression;
  for (const std::string& name : ExpressionFunctionNames()) {  // each name has a case
    const bool tested = std::any_of(std::begin(cases), std::end(cases), [&](const auto& c) {
      return std::string(c.first).rfind(name + (name[0] == '_' ? "" : "("), 0) == 0;
    });
    EXPECT_TRUE(tested) << name;
  }
}

TEST(Expression, OnlyTheBranchTakenIsEvaluated) {
  double z = 0, n = 10;
  CompiledExpression guarded("Z == 0 ? 0 : N / Z", {{"Z", &z}, {"N", &n}});
  EXPECT_EQ(guarded.Evaluate(), 0.0);
  z = 4;
  EXPECT_EQ(guarded.Evaluate(), 2.5);
  CompiledExpression other_side("Z != 0 ? N / Z : sqrt(-N) > 1", {{"Z", &z}, {"N", &n}});
  EXPECT_EQ(other_side.Evaluate(), 2.5);
  z = 0;
  EXPECT_NE(ErrorOf("Z == 0 ? 1 / Z : 0", {{"Z", 0}}).find("division by zero"), std::string::npos);
}

TEST(Expression, OperationsOnConstantsAloneAreCheckedWhenCompiled) {
  double n = 1;
  // folded into a constant as muparser did: refused before any evaluation, in either branch
  EXPECT_THROW(CompiledExpression("N > 0 ? 1 : 1 / 0", {{"N", &n}}), ExpressionError);
  EXPECT_THROW(CheckSyntax("N + 1e308 * 10", {{"N", 1}}), ExpressionError);
  EXPECT_NO_THROW(CompiledExpression("N > 0 ? 1 : 1 / N", {{"N", &n}}));
}

TEST(Expression, SyntaxErrorsSayWhatAndWhere) {
  const Variables vars = {{"N", 10}, {"B", 4}};
  const std::pair<const char*, const char*> cases[] = {
      {"N +", "Unexpected end of expression at position 4"},
      {"N B", "Unexpected variable \"B\" found at position 2"},
      {"N (B)", "Unexpected parenthesis \"(\" at position 2"},
      {"N)", "Unexpected parenthesis \")\" at position 1"},
      {"(N", "Missing parenthesis"},
      {"N sin(1)", "Unexpected function \"sin\" at position 2"},
      {"1.5.3", "Unexpected value \".3\" found at position 3"},
      {"--N", "Unexpected operator \"-\" found at position 2"},
      {"*3", "Unexpected token \"*3 \" found at position 0."},
      {"N = 3", "Unexpected token \"= 3 \" found at position 2."},
      {"N & B", "Unexpected token \"& B \" found at position 2."},
      {"sin(1, 2)", "Too many parameters for function \"sin\" at expression position 8"},
      {"cdiv(1)", "Too few parameters for function \"cdiv\" at expression position 6"},
      {"min()", "Too few parameters for function \"min\" at expression position 5"},
      {"(1, 2)", "Function arguments used without a function (position: 6)"},
      {"N,,B", "Unexpected argument separator at position 2"},
      {"1 ? 2", "If-then-else operator is missing an else clause"},
      {"1 : 2", "Misplaced colon at position 3"},
      {"? 1", "The \"?\" operator must be preceded by a closing bracket."},
      {"", "Expression is empty."},
      {"\"a\"", "Strings must only be used as function arguments!"},
      {"N\x0f", "Invalid non printable characters found in expression/identifer!"},
      {"-", "an operator or function has no operand"},                  // muparser said "Internal error"
      {"N, -", "an operator after a comma has no operand of its own"},  // muparser gave an arbitrary value
      {"Q + P", "unknown name 'P'"},
      {"sin", "unknown name 'sin'"},
  };
  for (const auto& [expression, problem] : cases) {
    try {
      CheckSyntax(expression, vars);
      ADD_FAILURE() << expression << " parsed";
    } catch (const ExpressionError& e) {
      EXPECT_EQ(e.problem, problem) << expression;
    }
  }
  EXPECT_EQ(ErrorOf(std::string(20000, '1'), {}).substr(0, 20), "in expression '11111");
  EXPECT_NE(ErrorOf(std::string(20000, '1'), {}).find("Expression too long."), std::string::npos);
}

TEST(Expression, NotANumberAndInfinityAreRefusedByOperatorsAndAtTheEnd) {
  const Variables vars = {{"Z", 0}, {"NEG", -3}, {"BIG", 1e200}};
  const std::string not_a_number = "a value is not a number (such as the square root of a negative)";
  EXPECT_EQ(ErrorOf("sqrt(NEG)", vars), "in expression 'sqrt(NEG)': " + not_a_number);
  EXPECT_EQ(ErrorOf("1 + log(Z)", vars), "in expression '1 + log(Z)': a value is infinite");
  EXPECT_EQ(ErrorOf("BIG * BIG", vars), "in expression 'BIG * BIG': a value overflows");
  EXPECT_EQ(ErrorOf("Z / Z", vars), "in expression 'Z / Z': division by zero");
  EXPECT_EQ(ErrorOf("sqrt(NEG) > 0", vars), "in expression 'sqrt(NEG) > 0': " + not_a_number);
}

// Each of these once gave a silent answer: a NaN condition took the first branch, sign gave 0 and
// min and max dropped the NaN when it was not their first argument.
TEST(Expression, NotANumberNeverBecomesAConditionOrAFunctionsAnswer) {
  const Variables vars = {{"NEG", -3}, {"BIG", 1e200}};
  for (const char* expression : {"sqrt(NEG) ? 1 : 2", "sign(sqrt(NEG))", "min(3, sqrt(NEG))", "max(3, sqrt(NEG))",
                                 "1 || sqrt(NEG)", "0 && sqrt(NEG)", "sqrt(-1) ? 1 : 2"})
    EXPECT_NE(ErrorOf(expression, vars).find("not a number"), std::string::npos) << expression;
  EXPECT_NE(ErrorOf("atan(exp(BIG))", vars).find("infinite"), std::string::npos);
  EXPECT_EQ(ErrorOf("NEG < 0 ? 1 : sqrt(NEG)", vars), "");  // the branch not taken is not evaluated
}

TEST(Expression, HugeValuesAreTooLargeNotFractions) {
  EXPECT_NE(ErrorOf("2^63", {}, true).find("too large"), std::string::npos) << ErrorOf("2^63", {}, true);
  EXPECT_NE(ErrorOf("10 / 4", {}, true).find("2.5, not a whole number"), std::string::npos)
      << ErrorOf("10 / 4", {}, true);
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
