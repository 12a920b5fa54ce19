#include "base/median.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tuner {
namespace {

TEST(Median, TheMiddleValueOfAnOddCountInAnyOrder) {
  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({7}), 7);
}

TEST(Median, TheMeanOfTheTwoMiddleValuesOfAnEvenCount) {
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(Median({1, 100}), 50.5);
}

TEST(Median, AnEmptyListHasNone) { EXPECT_TRUE(std::isnan(Median({}))); }

}  // namespace
}  // namespace tuner
