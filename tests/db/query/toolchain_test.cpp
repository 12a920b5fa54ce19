// A result's toolchain (db/query/toolchain.h): its text, and the note on a result measured with
// another driver, runtime or NVRTC than the current one.
#include "db/query/toolchain.h"

#include <gtest/gtest.h>

namespace tuner::db {
namespace {

TEST(Toolchain, TextReadsBack) {
  const Toolchain toolchain{"13.0", "12.9", "12.8"};
  EXPECT_EQ(ToText(toolchain), "driver 13.0, runtime 12.9, nvrtc 12.8");
  const Toolchain read = ParseToolchain(ToText(toolchain));
  EXPECT_EQ(read.driver, "13.0");
  EXPECT_EQ(read.runtime, "12.9");
  EXPECT_EQ(read.nvrtc, "12.8");
  EXPECT_EQ(ToText({"", "", "12.8"}), "nvrtc 12.8");
  EXPECT_EQ(ParseToolchain("nvrtc 12.8").driver, "");
}

TEST(Toolchain, OnlyPartsBothKnowAreCompared) {
  EXPECT_TRUE(ToolchainChanges({"13.0", "12.9", "12.9"}, {"13.0", "12.9", "12.9"}).empty());
  EXPECT_TRUE(ToolchainChanges({"", "", "12.9"}, {"13.0", "12.9", "12.9"}).empty());      // an old row
  EXPECT_TRUE(ToolchainChanges({"13.0", "12.9", "12.9"}, {"", "12.9", "12.9"}).empty());  // no driver here
  EXPECT_EQ(ToolchainChanges({"12.8", "12.9", "12.8"}, {"13.0", "12.9", "12.9"}),
            (std::vector<std::string>{"driver 12.8 -> 13.0", "nvrtc 12.8 -> 12.9"}));
}

TEST(Toolchain, TheNoteNamesWhatChanged) {
  EXPECT_EQ(ToolchainNote("driver 13.0, runtime 12.9, nvrtc 12.9", {"13.0", "12.9", "12.9"}), "");
  const std::string note = ToolchainNote("driver 12.8, runtime 12.9, nvrtc 12.9", {"13.0", "12.9", "12.9"});
  EXPECT_NE(note.find("another toolchain (driver 12.8 -> 13.0)"), std::string::npos) << note;
  EXPECT_NE(note.find("tuner db revalidate"), std::string::npos) << note;
}

}  // namespace
}  // namespace tuner::db
