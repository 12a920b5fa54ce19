// The timing modes' texts: what the store, the options, the worker protocol and the JSON hold.
#include "base/timing_mode.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(TimingMode, EachModeReadsBackFromItsText) {
  for (TimingMode mode : kAllTimingModes) EXPECT_EQ(TimingModeFromText(ToText(mode)), mode);
  EXPECT_STREQ(ToText(TimingMode::kIsolated), "isolated");
  EXPECT_STREQ(ToText(TimingMode::kBackToBack), "back_to_back");
  EXPECT_STREQ(ToText(TimingMode::kGraph), "graph");
}

TEST(TimingMode, OtherTextsNameNoMode) {
  for (const char* text : {"", "Graph", "cuda_graph", "back-to-back", "isolated "})
    EXPECT_FALSE(TimingModeFromText(text).has_value()) << text;
  EXPECT_EQ(TimingModeChoices(), "isolated, back_to_back or graph");
}

}  // namespace
}  // namespace tuner
