// Every candidate of every shipped template compiles with NVRTC for sm_80 and sm_90 (no GPU); a
// space too large to compile in a test is compiled on a pairwise sample. The compiles go through a
// cubin cache that outlives the run (ShippedCubinCache), so a second run compiles only what changed.
#include "explore/explore.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "base/default_paths.h"
#include "cli_runner.h"
#include "db_test_util.h"
#include "occupancy/arch_table.h"
#include "pairwise_sample.h"
#include "template/template_library.h"

namespace tuner {
namespace {

struct Case {
  const char* kernel;
  const char* arch;
};

// Readable names in CTest's listing.
void PrintTo(const Case& c, std::ostream* out) { *out << c.kernel << " for " << c.arch; }

class ShippedTemplate : public ::testing::TestWithParam<Case> {};

// These compiles are most of the suite's CPU time, and the same on every run until a template, the
// NVRTC options or NVRTC change: each is kept in the content-addressed cache (its key covers the
// source, its headers, the parameters, the entry, the architecture, every NVRTC option and NVRTC's
// version; only successes are kept), in $TUNER_TEST_CUBIN_CACHE, else $XDG_CACHE_HOME/tuner/
// test-cubins, outside the build folder like ccache's, so a fresh clone benefits too. A hit stands
// for a compile of the very same input that succeeded; TUNER_TEST_CUBIN_CACHE=off compiles all, as
// does a machine whose cache folder cannot be written.
std::string ShippedCubinCache(const db::testing::TempDir& scratch) {
  const char* chosen = std::getenv("TUNER_TEST_CUBIN_CACHE");
  const std::string dir = chosen && *chosen ? chosen : CacheDir() + "/test-cubins";
  if (dir == "off") return scratch.File("cubins");
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  return ::access(dir.c_str(), W_OK) == 0 ? dir : scratch.File("cubins");
}

TEST_P(ShippedTemplate, EveryCandidateCompiles) {
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  const TemplateSpec& spec = library.Find(GetParam().kernel);
  const ProblemSize size = ParseProblemSize(spec, "");
  const std::vector<ParamValues> candidates = testing::CandidatesToCompile(spec, size);
  db::testing::TempDir dir;
  const auto threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const Exploration exploration = ExploreCandidates(spec, candidates, size, ArchLimits(GetParam().arch),
                                                    GetParam().arch, ShippedCubinCache(dir), threads, TUNER_EXECUTABLE);
  EXPECT_FALSE(exploration.explored.empty());
  EXPECT_EQ(exploration.explored.size(), exploration.candidates);
  EXPECT_FALSE(exploration.interrupted);
  for (const ExploredCandidate& c : exploration.explored) {
    EXPECT_TRUE(c.compiled) << ParamsJson(c.params) << "\n" << c.compile_log;
    EXPECT_EQ(c.invalid_reason, "") << ParamsJson(c.params);  // the constraints exclude what cannot launch
    if (c.compiled) {
      EXPECT_GT(c.info.regs_per_thread, 0) << ParamsJson(c.params);
    }
  }
}

// gemm_bf16 and gemm_fp16 are compiled on a pairwise sample by kernel_templates/gemm_bf16_test.cpp,
// which also expects sm_80 to refuse their largest stages (above its 163 KiB of shared memory).
std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const char* kernel :
       {"transpose", "matmul", "reduction", "conv1d", "coalescing", "coalescing_fp64", "adjacent_difference",
        "histogram", "gemm_large", "divergence", "streams", "unified_memory", "add_scale_bf16"})
    for (const char* arch : {"sm_80", "sm_90"}) cases.push_back({kernel, arch});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllShipped, ShippedTemplate, ::testing::ValuesIn(AllCases()),
                         [](const auto& info) { return std::string(info.param.kernel) + "_" + info.param.arch; });

// A compile log shown by explore is filtered as a stored one is: a terminal's escapes in a line the
// compiler quotes are escaped, its lines kept.
TEST(Explore, ACompileLogHasItsControlCharactersEscaped) {
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  TemplateSpec spec = library.Find("transpose");
  spec.source_text = "#error \x1b[2J\x1b[31mred\n";
  spec.headers.clear();
  const ProblemSize size = ParseProblemSize(spec, "");
  const std::vector<ParamValues> one = {testing::CandidatesToCompile(spec, size).front()};
  db::testing::TempDir dir;
  const Exploration exploration =
      ExploreCandidates(spec, one, size, ArchLimits("sm_90"), "sm_90", dir.File("cache"), 1, TUNER_EXECUTABLE);
  ASSERT_EQ(exploration.explored.size(), 1u);
  const ExploredCandidate& c = exploration.explored.front();
  ASSERT_TRUE(c.CompileFailed());
  EXPECT_EQ(c.compile_log.find('\x1b'), std::string::npos) << c.compile_log;
  EXPECT_NE(c.compile_log.find("\\x1b[31mred"), std::string::npos) << c.compile_log;
}

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

// The kernels (.cubin) of a cubin cache folder, by name: their keys.
std::set<std::string> CachedKernels(const std::string& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == ".cubin") names.insert(entry.path().filename().string());
  return names;
}

// --shard K/N compiles one task's share (a job array of compiles on nodes without a GPU): the shares
// are disjoint, cover the space, and fill one cache with the very entries of one unsharded run.
TEST(ExploreCli, ShardsCompileDisjointSharesThatFillTheCacheOfOneRun) {
  db::testing::TempDir dir;
  std::set<std::string> explored;
  std::size_t total = 0;
  for (const std::string shard : {"1/3", "2/3", "3/3"}) {
    const auto r = testing::RunTuner("explore transpose --arch sm_90 --json --shard " + shard,
                                     "XDG_CACHE_HOME=" + dir.File("shards"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc.at("candidates_total"), doc.at("candidates").size()) << shard;
    for (const auto& c : doc.at("candidates")) explored.insert(c.at("params").dump());
    total += doc.at("candidates").size();
  }
  EXPECT_EQ(total, 30u);
  EXPECT_EQ(explored.size(), 30u);
  const auto whole = testing::RunTuner("explore transpose --arch sm_90 --json", "XDG_CACHE_HOME=" + dir.File("one"));
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_EQ(CachedKernels(dir.File("shards/tuner/cubins")), CachedKernels(dir.File("one/tuner/cubins")));
  for (const std::string bad : {"0/3", "4/3", "3"}) {
    const auto r = testing::RunTuner("explore transpose --arch sm_90 --shard " + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--shard '" + bad + "'"), std::string::npos) << r.err;
  }
}

// A launch that cannot work is "invalid" with its reason, in the table and the JSON, and is not
// counted as a compile error (here a size whose grid is beyond the 2^31 - 1 blocks of axis x).
TEST(ExploreCli, CandidatesThatCannotLaunchAreCalledInvalidWithTheirReason) {
  db::testing::TempDir dir;
  const std::string env = "XDG_CACHE_HOME=" + dir.File("cache");
  const auto text = testing::RunTuner("explore transpose --arch sm_90 --size 9007199254740992", env);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find(": 30 candidates, 30 cannot launch (invalid), 0 compile error(s)"), std::string::npos)
      << text.out;
  EXPECT_NE(
      text.out.find(
          "invalid: in expression 'cdiv(W, TILE)': gives 562949953421312, above the limit of 2147483647 for axis x"),
      std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("compile error:"), std::string::npos) << text.out;
  const auto json = testing::RunTuner("explore transpose --arch sm_90 --size 9007199254740992 --json", env);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc.at("invalid"), 30);
  EXPECT_EQ(doc.at("compile_errors"), 0);
  for (const auto& c : doc.at("candidates")) {
    EXPECT_FALSE(c.at("compiled").get<bool>());
    EXPECT_NE(c.at("invalid_reason").get<std::string>().find("above the limit"), std::string::npos);
    EXPECT_FALSE(c.contains("compile_error"));
  }
}

// Ctrl-C pending as the command starts: nothing compiled, the (empty) table as JSON, one line on
// stderr, exit 130.
TEST(ExploreCli, InterruptAtTheStartSaysSoAndExits130) {
  db::testing::TempDir dir;
  testing::SpawnedTuner run({"explore", "transpose", "--arch", "sm_90", "--json"},
                            {{"XDG_CACHE_HOME", dir.File("cache")}}, true);
  const auto result = run.Wait();
  EXPECT_EQ(result.exit_code, 130) << result.err;
  const auto doc = nlohmann::json::parse(result.out);
  EXPECT_TRUE(doc.at("interrupted").get<bool>());
  EXPECT_EQ(doc.at("explored"), 0);
  EXPECT_EQ(doc.at("candidates_total"), 30);
  EXPECT_NE(result.err.find("tuner explore: interrupted; 0 of 30 candidates explored."), std::string::npos)
      << result.err;
}

bool HasAFile(const std::string& folder) {
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(folder, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error))
    if (it->is_regular_file()) return true;
  return false;
}

// Ctrl-C once the first cubin is in the cache: what was compiled is printed, the rest is not
// compiled, exit 130.
TEST(ExploreCli, InterruptMidwayPrintsWhatWasCompiled) {
  db::testing::TempDir dir;
  testing::SpawnedTuner run({"explore", "matmul", "--arch", "sm_90"}, {{"XDG_CACHE_HOME", dir.File("cache")}});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!HasAFile(dir.File("cache")) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(run.pid(), SIGINT);
  const auto result = run.Wait();
  EXPECT_EQ(result.exit_code, 130) << result.err;
  const std::size_t of = result.out.find(" of 146 candidates (interrupted)");
  ASSERT_NE(of, std::string::npos) << result.out;
  const std::size_t explored = std::stoul(result.out.substr(result.out.rfind(' ', of - 1) + 1));
  EXPECT_GE(explored, 1u);
  EXPECT_LT(explored, 146u);
  EXPECT_NE(result.err.find("tuner explore: interrupted; " + std::to_string(explored) + " of 146"), std::string::npos)
      << result.err;
}

}  // namespace
}  // namespace tuner
