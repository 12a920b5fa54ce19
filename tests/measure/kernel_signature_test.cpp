// The description's arguments against the kernel's own parameter sizes, before any launch.
#include "measure/kernel_signature.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

const std::vector<LaunchArg> kArgs = {{"out", ScalarType::kFloat, 0, "out"},
                                      {"in", ScalarType::kHalf, 0, "in"},
                                      {"", ScalarType::kInt64, 4096, "classes"}};

TEST(KernelSignature, ArgumentsThatFitTheParametersPass) { EXPECT_EQ(SignatureMismatch({8, 8, 8}, kArgs), ""); }

TEST(KernelSignature, AScalarOfAnotherSizeIsNamedWithBothSizes) {
  const std::string why = SignatureMismatch({8, 8, 4}, kArgs);
  EXPECT_NE(why.find("argument 3 'classes' (int64, 8 bytes)"), std::string::npos) << why;
  EXPECT_NE(why.find("parameter 3 is 4 bytes"), std::string::npos) << why;
}

TEST(KernelSignature, ABufferWhereTheKernelTakesAScalarIsNamed) {
  const std::string why = SignatureMismatch({8, 4, 8}, kArgs);
  EXPECT_NE(why.find("argument 2 'in' (a buffer of half, a pointer)"), std::string::npos) << why;
}

TEST(KernelSignature, AnExtraArgumentSuchAsAConstantMemoryArrayIsRefused) {
  const std::string why = SignatureMismatch({8, 8}, kArgs);
  EXPECT_NE(why.find("argument 3 'classes'"), std::string::npos) << why;
  EXPECT_NE(why.find("one more than the kernel takes (2 parameters)"), std::string::npos) << why;
}

TEST(KernelSignature, AMissingArgumentSaysWhichParameterLacksOne) {
  const std::string why = SignatureMismatch({8, 8, 8, 4}, kArgs);
  EXPECT_NE(why.find("takes 4 parameters and the description gives 3"), std::string::npos) << why;
  EXPECT_NE(why.find("parameter 4 (4 bytes)"), std::string::npos) << why;
}

}  // namespace
}  // namespace tuner
