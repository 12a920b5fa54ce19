#include "template/reserved_names.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(ReservedNames, IdentifiersAreLettersDigitsAndUnderscores) {
  for (const char* name : {"TILE", "tile_2", "_x", "N"}) EXPECT_TRUE(IsIdentifier(name)) << name;
  for (const char* name : {"", "2D", "TI LE", "a-b", "../x", "$(x)", "a\nb", "ä"})
    EXPECT_FALSE(IsIdentifier(name)) << name;
}

TEST(ReservedNames, KeywordsTypesBuiltinsAndExpressionFunctions) {
  EXPECT_EQ(WhyReserved("int"), "a C++ keyword");
  EXPECT_EQ(WhyReserved("if"), "a C++ keyword");
  EXPECT_EQ(WhyReserved("defined"), "a C++ keyword");
  EXPECT_EQ(WhyReserved("size_t"), "a built-in type");
  EXPECT_EQ(WhyReserved("float4"), "a CUDA vector type");
  EXPECT_EQ(WhyReserved("threadIdx"), "a CUDA built-in");
  EXPECT_EQ(WhyReserved("sin"), "an expression function");
  EXPECT_EQ(WhyReserved("cdiv"), "an expression function");
  EXPECT_EQ(WhyReserved("min"), "an expression function");
  EXPECT_EQ(WhyReserved("_pi"), "an expression function");
  EXPECT_NE(WhyReserved("__X"), "");
  EXPECT_NE(WhyReserved("_Tile"), "");
}

TEST(ReservedNames, OrdinaryNamesAreFree) {
  for (const char* name : {"TILE", "BLOCK", "N", "M", "K", "VARIANT", "tile", "_x", "W", "H", "TAPS"})
    EXPECT_EQ(WhyReserved(name), "") << name;
}

}  // namespace
}  // namespace tuner
