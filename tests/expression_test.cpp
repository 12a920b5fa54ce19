#include "expression.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

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
  try {
    Evaluate("N * Q", vars);
  } catch (const ExpressionError& e) {
    EXPECT_NE(std::string(e.what()).find("'N * Q'"), std::string::npos) << e.what();
  }
}

TEST(Expression, CheckSyntaxNeedsOnlyNames) {
  EXPECT_NO_THROW(CheckSyntax("cdiv(N, B) * 2", {{"N", 1}, {"B", 1}}));
  EXPECT_THROW(CheckSyntax("cdiv(N, B) * 2", {{"N", 1}}), ExpressionError);
}

}  // namespace
}  // namespace tuner
