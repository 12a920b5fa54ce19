#include "template/problem_size.h"

#include <gtest/gtest.h>

#include "base/errors.h"

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

std::string Refusal(const std::string& text) {
  try {
    ParseProblemSize(TwoSizes(), text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(ProblemSize, TooLargeSaysSoAndTheLimit) {
  EXPECT_EQ(ParseProblemSize(TwoSizes(), "9007199254740992").Key(), "9007199254740992x4096");  // 2^53
  for (const char* huge : {"9223372036854775807x8", "9007199254740993", "8x99999999999999999999999"}) {
    const std::string message = Refusal(huge);
    EXPECT_NE(message.find("is too large; a size is at most 9007199254740992"), std::string::npos) << message;
    EXPECT_EQ(message.find("whole numbers joined"), std::string::npos) << message;
  }
  EXPECT_EQ(ParseProblemSize(TwoSizes(), "0016x0032").Key(), "16x32");
}

TEST(ProblemSize, AnEmptySizeGivenIsRefusedNotTakenAsTheDefaults) {
  EXPECT_THROW(ParseSizeNumbers(""), UsageError);
  EXPECT_EQ(ParseSizeNumbers("3x5"), (std::vector<long long>{3, 5}));
  EXPECT_NE(Refusal("0x4").find("1 or more"), std::string::npos);
  EXPECT_NE(Refusal("4x4x4").find("t has 2 size variable(s): WxH"), std::string::npos);
  EXPECT_NE(Refusal("8x").find("(t takes WxH)"), std::string::npos);
}

}  // namespace
}  // namespace tuner
