// Whole numbers and sizes read from text: the one reader behind every option, --size and the
// store's size keys.
#include "base/number_text.h"

#include <gtest/gtest.h>

#include <climits>

namespace tuner::db {
namespace {

TEST(WholeNumbers, DigitsAfterOneSign) {
  EXPECT_EQ(ReadWholeNumber("40")->magnitude, 40ULL);
  EXPECT_FALSE(ReadWholeNumber("40")->negative);
  EXPECT_TRUE(ReadWholeNumber("-7")->negative);
  EXPECT_EQ(ReadWholeNumber("-7")->magnitude, 7ULL);
  EXPECT_EQ(ReadWholeNumber("+7")->magnitude, 7ULL);
  EXPECT_EQ(ReadWholeNumber("18446744073709551615")->magnitude, ULLONG_MAX);
}

TEST(WholeNumbers, BeyondTwoToThe64IsAWholeNumberWithoutAValue) {
  const std::optional<WholeNumberText> huge = ReadWholeNumber("18446744073709551616");
  ASSERT_TRUE(huge);
  EXPECT_FALSE(huge->magnitude);
}

TEST(WholeNumbers, AnythingButDigitsIsRefused) {
  for (const char* text : {"", "-", "+", "1.5", " 1", "1 ", "0x10", "1e3", "--1", "12a"})
    EXPECT_FALSE(ReadWholeNumber(text)) << text;
}

TEST(Sizes, NumbersJoinedByX) {
  EXPECT_EQ(ReadSizes("8192x4096").sizes, (std::vector<long long>{8192, 4096}));
  EXPECT_EQ(ReadSizes("1024").sizes, (std::vector<long long>{1024}));
  EXPECT_EQ(ReadSizes("9007199254740992").sizes, (std::vector<long long>{kMaxSize}));
  EXPECT_EQ(ReadSizes("1024").problem, SizeReading::Problem::kNone);
}

TEST(Sizes, TheFirstPartAtFaultIsNamed) {
  const auto refused = [](const std::string& text) { return ReadSizes(text); };
  EXPECT_EQ(refused("").problem, SizeReading::Problem::kNotWholeNumbers);
  EXPECT_EQ(refused("8192x").problem, SizeReading::Problem::kNotWholeNumbers);
  EXPECT_EQ(refused("8192*8192").problem, SizeReading::Problem::kNotWholeNumbers);
  EXPECT_EQ(refused("+8x8").problem, SizeReading::Problem::kNotWholeNumbers);  // no sign in a size
  EXPECT_EQ(refused("0x8").problem, SizeReading::Problem::kBelowOne);
  EXPECT_EQ(refused("8x9007199254740993").problem, SizeReading::Problem::kTooLarge);
  EXPECT_EQ(refused("8x9007199254740993").part, "9007199254740993");
  EXPECT_EQ(refused("8x99999999999999999999999").problem, SizeReading::Problem::kTooLarge);
  EXPECT_EQ(refused("4xax0").part, "a");
  EXPECT_TRUE(refused("4xax0").sizes.empty());
}

TEST(SizeKeys, StoredKeysReadAsSizesAndBack) {
  EXPECT_EQ(ParseSizeKey("8192x4096"), (std::vector<long long>{8192, 4096}));
  EXPECT_TRUE(ParseSizeKey("").empty());
  EXPECT_TRUE(ParseSizeKey("0x8").empty());
  EXPECT_EQ(SizeKey({8192, 4096}), "8192x4096");
  EXPECT_EQ(SizeKey({}), "");
}

}  // namespace
}  // namespace tuner::db
