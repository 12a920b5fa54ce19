// Every benchmark script answers --help with its usage (exit 0) and refuses an unknown option with
// one line naming it (exit 2), before it builds, measures or looks for a GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.h"

namespace tuner {
namespace {

using testing::RunCommand;

std::vector<std::filesystem::path> BenchScripts() {
  std::vector<std::filesystem::path> scripts;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(TUNER_SOURCE_DIR) + "/bench")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("bench_", 0) == 0 && entry.path().extension() == ".sh" && name != "bench_common.sh")
      scripts.push_back(entry.path());
  }
  return scripts;
}

TEST(BenchScripts, HelpPrintsTheUsageAndAnUnknownOptionIsRefusedInOneLine) {
  const std::vector<std::filesystem::path> scripts = BenchScripts();
  ASSERT_GE(scripts.size(), 10u) << "the benchmark scripts were not found";
  for (const auto& script : scripts) {
    const std::string name = script.stem().string();
    const auto help = RunCommand("bash " + script.string() + " --help");
    EXPECT_EQ(help.exit_code, 0) << name << ": " << help.err;
    EXPECT_GT(help.out.size(), 100u) << name << " --help printed no usage";
    const auto bad = RunCommand("bash " + script.string() + " --no-such-option");
    EXPECT_EQ(bad.exit_code, 2) << name << ": " << bad.err;
    EXPECT_EQ(bad.err.rfind(name + ": ", 0), 0u) << name << " does not name itself: " << bad.err;
    EXPECT_NE(bad.err.find("--no-such-option"), std::string::npos) << name << " does not name the option: " << bad.err;
    EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << name << " said more than one line: " << bad.err;
  }
}

}  // namespace
}  // namespace tuner
