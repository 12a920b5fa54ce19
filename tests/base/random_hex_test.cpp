#include "base/random_hex.h"

#include <gtest/gtest.h>

namespace tuner::db {
namespace {

TEST(RandomHex, LowercaseDigitsTwoPerByte) {
  const std::string text = RandomHex(16);
  EXPECT_EQ(text.size(), 32u);
  EXPECT_EQ(text.find_first_not_of("0123456789abcdef"), std::string::npos) << text;
  EXPECT_EQ(RandomHex(0), "");
}

TEST(RandomHex, FreshOnEveryCall) {
  EXPECT_NE(RandomHex(16), RandomHex(16));  // 2^-128 to fail by chance
}

}  // namespace
}  // namespace tuner::db
