#include "expression/expression_program.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tuner {
namespace {

double Value(const ExpressionProgram& program) {
  std::vector<double> stack;
  return program.Run(stack);
}

std::string ProblemOf(const ExpressionProgram& program) {
  try {
    Value(program);
  } catch (const ExpressionProblem& e) {
    return e.what();
  }
  return "";
}

TEST(ExpressionProgram, ReadsVariablesWhereTheyAreAtEachRun) {
  double n = 6;
  ExpressionProgram program;  // N * 2 - 1
  program.PushVariable(&n);
  program.PushConstant(2);
  program.Apply(Operation::kMultiply);
  program.PushConstant(1);
  program.Apply(Operation::kSubtract);
  ASSERT_TRUE(program.WellFormed(1));
  EXPECT_EQ(Value(program), 11.0);
  n = 10;
  EXPECT_EQ(Value(program), 19.0);
  EXPECT_EQ(program.max_depth(), 2u);
}

TEST(ExpressionProgram, OperationsOnConstantsAreFoldedAndCheckedWhenBuilt) {
  ExpressionProgram program;
  program.PushConstant(3);
  program.PushConstant(4);
  program.Apply(Operation::kPower);
  EXPECT_EQ(program.max_depth(), 2u);
  EXPECT_EQ(Value(program), 81.0);
  ExpressionProgram division;
  division.PushConstant(1);
  division.PushConstant(0);
  EXPECT_THROW(division.Apply(Operation::kDivide), ExpressionProblem);
  ExpressionProgram variadic;  // min, max, sum and avg are never folded
  double n = 5;
  variadic.PushConstant(7);
  variadic.PushVariable(&n);
  variadic.Apply(Operation::kVariadic, 2, FindExpressionFunction("min"));
  EXPECT_EQ(Value(variadic), 5.0);
}

TEST(ExpressionProgram, AConditionalJumpsOverTheBranchNotTaken) {
  double c = 1, z = 0;
  ExpressionProgram program;  // C ? 7 : 1 / Z
  program.PushVariable(&c);
  program.BeginIf();
  program.PushConstant(7);
  program.BeginElse();
  program.PushConstant(1);
  program.PushVariable(&z);
  program.Apply(Operation::kDivide);
  program.EndIf();
  ASSERT_TRUE(program.WellFormed(1));
  EXPECT_EQ(Value(program), 7.0);
  c = 0;
  EXPECT_EQ(ProblemOf(program), "division by zero");
}

TEST(ExpressionProgram, OperatorsRefuseNotANumberInfinityAndOverflow) {
  double big = 1e300, nan = std::nan(""), inf = HUGE_VAL, zero = 0;
  auto binary = [](double* a, double* b, Operation operation) {
    ExpressionProgram program;
    program.PushVariable(a);
    program.PushVariable(b);
    program.Apply(operation);
    return ProblemOf(program);
  };
  EXPECT_EQ(binary(&big, &big, Operation::kMultiply), "a value overflows");
  EXPECT_EQ(binary(&nan, &big, Operation::kLess), "a value is not a number (such as the square root of a negative)");
  EXPECT_EQ(binary(&big, &inf, Operation::kEqual), "a value is infinite");
  EXPECT_EQ(binary(&big, &zero, Operation::kModulo), "division by zero");
  EXPECT_EQ(binary(&zero, &nan, Operation::kAnd), "");  // the left operand decides, as before
}

TEST(ExpressionProgram, AnOperatorWithoutOperandsIsNotWellFormed) {
  ExpressionProgram program;
  program.PushConstant(1);
  program.Apply(Operation::kAdd);
  EXPECT_FALSE(program.WellFormed(1));
}

TEST(ExpressionProgram, OperatorsMatchTheLongestSpelling) {
  Operation operation{};
  std::string spelling;
  ASSERT_TRUE(MatchBinaryOperator("<= 2", operation, spelling));
  EXPECT_EQ(operation, Operation::kLessOrEqual);
  EXPECT_EQ(spelling, "<=");
  EXPECT_FALSE(MatchBinaryOperator("= 2", operation, spelling));
  EXPECT_FALSE(MatchBinaryOperator("& 2", operation, spelling));
  EXPECT_GT(Precedence(Operation::kPower), Precedence(Operation::kNegate));
  EXPECT_GT(Precedence(Operation::kAnd), Precedence(Operation::kOr));
  EXPECT_TRUE(RightAssociative(Operation::kPower));
}

}  // namespace
}  // namespace tuner
