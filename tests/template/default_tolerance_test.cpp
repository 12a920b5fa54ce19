// The check's default tolerances derive from the coarsest output type's epsilon and the declared
// reduction length; a description that gives its own keeps them.
#include "template/default_tolerance.h"

#include <gtest/gtest.h>

#include "expression/expression.h"

namespace tuner {
namespace {

std::vector<ArgSpec> Outputs(std::vector<ScalarType> types) {
  std::vector<ArgSpec> args;
  for (ScalarType type : types) {
    ArgSpec arg;
    arg.type = type;
    arg.is_buffer = arg.output = true;
    args.push_back(arg);
  }
  ArgSpec input;  // an input of a coarser type does not count
  input.type = ScalarType::kFp8E5m2;
  input.is_buffer = true;
  args.push_back(input);
  return args;
}

double Value(const std::string& expression, double k = 1) { return Evaluate(expression, {{"K", k}}); }

TEST(DefaultTolerance, TwoEpsilonOfTheCoarsestOutputAtLeastTheFormerDefault) {
  EXPECT_EQ(Value(DefaultRtol(Outputs({ScalarType::kFloat}))), 1e-5);
  EXPECT_EQ(Value(DefaultRtol(Outputs({ScalarType::kDouble}))), 1e-5);
  EXPECT_EQ(Value(DefaultRtol(Outputs({ScalarType::kInt8}))), 1e-5);
  EXPECT_EQ(Value(DefaultRtol(Outputs({ScalarType::kHalf}))), 0x1p-9);
  EXPECT_EQ(Value(DefaultRtol(Outputs({ScalarType::kFloat, ScalarType::kBfloat16}))), 0x1p-6);
  EXPECT_EQ(Value(DefaultRtol(Outputs({ScalarType::kFp8E4m3}))), 0x1p-2);
  EXPECT_EQ(Value(DefaultRtol(Outputs({ScalarType::kFp8E5m2}))), 0.5);
  EXPECT_EQ(DefaultAtol(Outputs({ScalarType::kBfloat16}), ""), "0");
}

TEST(DefaultTolerance, AReductionAddsAnAbsoluteToleranceGrowingWithTheSquareRootOfItsLength) {
  const auto bf16 = Outputs({ScalarType::kBfloat16});
  EXPECT_EQ(Value(DefaultAtol(bf16, "K"), 4096), 0x1p-6 * 64);
  EXPECT_EQ(Value(DefaultRtol(bf16)), 0x1p-6);  // the final rounding, whatever the length
  EXPECT_DOUBLE_EQ(Value(DefaultAtol(Outputs({ScalarType::kFloat}), "K"), 1 << 30), 0x1p-22 * 32768);
  EXPECT_EQ(DefaultAtol(Outputs({ScalarType::kInt}), "K"), "0");
}

TEST(DefaultTolerance, TheWidestRtolIsOneTenthOrTwoEpsilonOfAnFp8Output) {
  EXPECT_EQ(MaxRtol(Outputs({ScalarType::kBfloat16})), 0.1);
  EXPECT_EQ(MaxRtol(Outputs({ScalarType::kFp8E4m3})), 0.25);
  EXPECT_EQ(MaxRtol(Outputs({ScalarType::kFp8E5m2})), 0.5);
}

}  // namespace
}  // namespace tuner
