// The command line as a user meets it: help everywhere, exit codes, no GPU needed.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db_test_util.h"
#include "device.h"

namespace tuner {
namespace {

using testing::RunTuner;

int CountLines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

TEST(Cli, HelpForTheToolAndEveryCommand) {
  const auto top = RunTuner("--help");
  EXPECT_EQ(top.exit_code, 0);
  for (const char* command : {"devices", "kernels", "occupancy", "tune", "query"}) {
    EXPECT_NE(top.out.find(command), std::string::npos) << command;
    const auto help = RunTuner(std::string(command) + " --help");
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_NE(help.out.find("Usage: tuner " + std::string(command)), std::string::npos) << help.out;
  }
}

TEST(Cli, BadUsageIsOneLineAndExitTwo) {
  for (const char* args : {"", "bogus", "tune --bogus", "kernels --json extra", "tune transpose --size 8x",
                           "tune nosuch", "kernels --templates /no/such/folder", "tune transpose --strategy bogus",
                           "tune transpose --gpus 0,x", "tune transpose --gpus 0 --gpu 1",
                           "tune transpose --gpus all --strategy annealing",
                           "explore transpose --size 0"}) {
    const auto r = RunTuner(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    if (*args) {
      EXPECT_EQ(CountLines(r.err), 1) << args << ": " << r.err;
    }
  }
}

TEST(Cli, DevicesWorksWithOrWithoutAGpu) {
  const auto text = RunTuner("devices");
  EXPECT_EQ(text.exit_code, 0) << text.err;
  const auto json = RunTuner("devices --json");
  ASSERT_EQ(json.exit_code, 0);
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_TRUE(doc.at("gpus").is_array());
  if (doc["gpus"].empty()) {
    EXPECT_FALSE(doc.at("problem").get<std::string>().empty());
  }
}

TEST(Cli, KernelsListsTemplatesWithParametersAndSizes) {
  const auto r = RunTuner("kernels --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& t : doc.at("templates")) {
    if (t.at("name") != "transpose") continue;
    found = true;
    EXPECT_EQ(t.at("sizes").size(), 2u);
    EXPECT_EQ(t.at("params").size(), 4u);
  }
  EXPECT_TRUE(found);
  EXPECT_NE(RunTuner("kernels transpose").out.find("TILE: 16 32 64"), std::string::npos);
}

TEST(Cli, GpuCommandWithoutAGpuExitsThreeAndCreatesNothing) {
  if (!DiscoverGpus().gpus.empty()) GTEST_SKIP() << "a GPU is present";
  db::testing::TempDir dir;
  const auto r = RunTuner("tune transpose --db " + dir.File("t.db"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("needs a CUDA GPU"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

TEST(Cli, BadSizeCreatesNoDatabase) {
  db::testing::TempDir dir;
  EXPECT_EQ(RunTuner("tune transpose --size 0x4 --db " + dir.File("t.db")).exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

}  // namespace
}  // namespace tuner
