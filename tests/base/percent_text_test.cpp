#include "base/percent_text.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(PercentText, FixedDecimalsRoundToNearest) {
  EXPECT_EQ(PercentText(0.1234, 1), "12.3%");
  EXPECT_EQ(PercentText(0.1235, 0), "12%");
  EXPECT_EQ(PercentText(0.9996, 1), "100.0%");
  EXPECT_EQ(PercentText(0.5, 2), "50.00%");
  EXPECT_EQ(PercentText(0.0, 1), "0.0%");
}

TEST(PercentText, SignificantDigitsDropTrailingZeros) {
  EXPECT_EQ(PercentTextSignificant(0.5, 4), "50%");
  EXPECT_EQ(PercentTextSignificant(0.123456, 4), "12.35%");
  EXPECT_EQ(PercentTextSignificant(0.005, 6), "0.5%");
  EXPECT_EQ(PercentTextSignificant(1.0 / 3, 6), "33.3333%");
}

TEST(PercentText, AShareOfNothingIsADash) {
  EXPECT_EQ(PercentOf(1, 4, 1), "25.0%");
  EXPECT_EQ(PercentOf(3, 2, 0), "150%");
  EXPECT_EQ(PercentOf(1, 0, 1), "-");
  EXPECT_EQ(PercentOf(1, -2, 0), "-");
}

}  // namespace
}  // namespace tuner
