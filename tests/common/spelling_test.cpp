#include "common/spelling.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(Spelling, EditDistanceCountsInsertionsDeletionsReplacementsAndSwaps) {
  EXPECT_EQ(EditDistance("constraints", "constraints"), 0u);
  EXPECT_EQ(EditDistance("constraintS", "constraints"), 0u);  // case is no edit
  EXPECT_EQ(EditDistance("constrains", "constraints"), 1u);
  EXPECT_EQ(EditDistance("lenght", "length"), 1u);  // one swap
  EXPECT_EQ(EditDistance("atoll", "atol"), 1u);
  EXPECT_EQ(EditDistance("grid", "block"), 5u);
  EXPECT_EQ(EditDistance("", "name"), 4u);
}

TEST(Spelling, SuggestsOnlyANearMiss) {
  const std::vector<std::string> keys = {"name", "kernel", "constraints", "options", "source", "summary"};
  EXPECT_EQ(DidYouMean("constraintS", keys), " (did you mean `constraints`?)");
  EXPECT_EQ(DidYouMean("kernal", keys), " (did you mean `kernel`?)");
  EXPECT_EQ(DidYouMean("sorce", keys), " (did you mean `source`?)");
  EXPECT_EQ(DidYouMean("colour", keys), "");
  EXPECT_EQ(DidYouMean("nm", keys), "");    // two edits in a short word is a different word
  EXPECT_EQ(DidYouMean("name", keys), "");  // the same name is no suggestion
}

}  // namespace
}  // namespace tuner
