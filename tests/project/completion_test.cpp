// The bash completion (packaging/tuner-completion.bash) offers the tool's commands, a command's
// options and the kernel names, all read from the built tool.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.h"

namespace {

// What completing the last of `words` offers, one line: COMP_WORDS as bash would set them.
std::string Complete(const std::string& words) {
  const std::string script = "source '" TUNER_SOURCE_DIR "/packaging/tuner-completion.bash'; COMP_WORDS=('" TUNER_EXECUTABLE
                             "' " + words + "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _tuner; echo \"${COMPREPLY[*]}\"";
  const auto result = tuner::testing::RunCommand("env -u TUNER_TEMPLATES bash -c \"$(cat <<'END'\n" + script + "\nEND\n)\"");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  return result.out.substr(0, result.out.find('\n'));
}

TEST(Completion, Commands) {
  EXPECT_EQ(Complete("tu"), "tune");
  EXPECT_EQ(Complete("ex"), "explore export");
}

TEST(Completion, OptionsOfTheCommand) {
  EXPECT_EQ(Complete("explore --ar"), "--arch");
  EXPECT_EQ(Complete("tune --strat"), "--strategy");
  EXPECT_EQ(Complete("occupancy --thr"), "--threads --threads-per-sm");
}

TEST(Completion, KernelNamesWhereAKernelIsExpected) {
  EXPECT_EQ(Complete("tune transp"), "transpose");
  EXPECT_EQ(Complete("explore --arch sm_90 mat"), "matmul");
  EXPECT_EQ(Complete("tune transpose mat"), "");  // one kernel per command
  EXPECT_EQ(Complete("tune --force transpose mat"), "");  // --force takes no value
}

TEST(Completion, SubcommandsOfDb) { EXPECT_EQ(Complete("db me"), "merge"); }

}  // namespace
