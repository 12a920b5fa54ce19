#include "problem_size.h"

#include <gtest/gtest.h>

#include "errors.h"

namespace tuner {
namespace {

TemplateSpec TwoSizes() {
  TemplateSpec spec;
  spec.name = "t";
  spec.sizes = {{"W", 8192}, {"H", 4096}};
  return spec;
}

TEST(ProblemSize, DefaultsAndCompletion) {
  EXPECT_EQ(ParseProblemSize(TwoSizes(), "").Key(), "8192x4096");
  EXPECT_EQ(ParseProblemSize(TwoSizes(), "1024").Key(), "1024x4096");
  EXPECT_EQ(ParseProblemSize(TwoSizes(), "16x32").Key(), "16x32");
  EXPECT_EQ(ParseProblemSize(TwoSizes(), "16x32").values[1].first, "H");
}

TEST(ProblemSize, RejectsMalformedSizes) {
  for (const char* bad : {"8x", "x8", "0x4", "-4", "4x4x4", "4 x4", "abc", "4X4"})
    EXPECT_THROW(ParseProblemSize(TwoSizes(), bad), UsageError) << bad;
}

}  // namespace
}  // namespace tuner
