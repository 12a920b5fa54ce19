// Every candidate of every shipped template compiles with NVRTC for sm_80 and sm_90 (no GPU).
#include "explore.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "cli_runner.h"
#include "db_test_util.h"
#include "template_library.h"

namespace tuner {
namespace {

struct Case {
  const char* kernel;
  const char* arch;
};

// Readable names in CTest's listing.
void PrintTo(const Case& c, std::ostream* out) { *out << c.kernel << " for " << c.arch; }

class ShippedTemplate : public ::testing::TestWithParam<Case> {};

TEST_P(ShippedTemplate, EveryCandidateCompiles) {
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  const TemplateSpec& spec = library.Find(GetParam().kernel);
  db::testing::TempDir dir;
  const auto threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const auto explored = ExploreTemplate(spec, ParseProblemSize(spec, ""), ArchLimits(GetParam().arch), GetParam().arch, dir.File("cubins"), threads, TUNER_EXECUTABLE);
  EXPECT_FALSE(explored.empty());
  for (const ExploredCandidate& c : explored) {
    EXPECT_TRUE(c.compiled) << ParamsJson(c.params) << "\n" << c.compile_log;
    if (c.compiled) {
      EXPECT_GT(c.info.regs_per_thread, 0) << ParamsJson(c.params);
    }
  }
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const char* kernel : {"transpose", "matmul", "reduction", "conv1d", "coalescing", "coalescing_fp64", "adjacent_difference"})
    for (const char* arch : {"sm_80", "sm_90"}) cases.push_back({kernel, arch});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllShipped, ShippedTemplate, ::testing::ValuesIn(AllCases()), [](const auto& info) {
  return std::string(info.param.kernel) + "_" + info.param.arch;
});

TEST(ExploreCli, ListsResourcesAndOccupancyAsJson) {
  db::testing::TempDir dir;
  const auto r = testing::RunTuner("explore transpose --arch sm_90 --json", "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("compile_errors"), 0);
  ASSERT_EQ(doc.at("candidates").size(), 30u);
  for (const auto& c : doc["candidates"]) {
    EXPECT_GT(c.at("regs_per_thread").get<int>(), 0);
    EXPECT_GT(c.at("blocks_per_sm").get<int>(), 0);
    EXPECT_FALSE(c.at("limiter").get<std::string>().empty());
  }
  EXPECT_EQ(testing::RunTuner("explore transpose --arch sm_13").exit_code, 2);
}

}  // namespace
}  // namespace tuner
