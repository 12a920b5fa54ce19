// The templates of the streams, divergence and unified-memory lessons tuned end to end on a real GPU
// (skipped without one), through the command line: every candidate passes its check, the stored
// best is queried with its host parameters, and each lesson's naive variant loses.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "sweep/leader_summary.h"
#include "tune_json.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::RunTuner;

nlohmann::json Tune(const TempDir& dir, const std::string& args) { return testing::TuneJson(dir, args); }

// The fastest time among the candidates whose parameters include every one of `wanted`.
double FastestWith(const nlohmann::json& doc, const std::map<std::string, long long>& wanted) {
  double fastest = 0;
  for (const auto& c : doc.at("candidates")) {
    bool matches = c.at("status") == "ok";
    for (const auto& [name, value] : wanted) matches = matches && c.at("params").at(name).get<long long>() == value;
    if (matches && (fastest == 0 || c.at("time_ms").get<double>() < fastest)) fastest = c.at("time_ms");
  }
  return fastest;
}

using testing::ExpectEveryCandidateOk;

TEST(LessonTemplatesGpu, StreamsPipelineBeatsOneStreamAndOneChunk) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const nlohmann::json doc = Tune(dir, "streams --size 16777216x512");
  ExpectEveryCandidateOk(doc);
  for (const auto& c : doc.at("candidates")) {  // each says how it ran, unless it is a leader timed in turns
    const std::string reason = c.at("reason");
    if (reason.rfind(kConfirmedReasonPrefix, 0) != 0) {
      EXPECT_EQ(reason.rfind("pipeline: ", 0), 0u) << c.dump();
    }
  }
  const double naive = FastestWith(doc, {{"STREAMS", 1}, {"CHUNK", 67108864}, {"MEMORY", 0}});
  const double best = doc.at("best").at("time_ms");
  EXPECT_LT(best, 0.8 * naive) << "best " << best << " ms, one stream and one chunk of pageable memory " << naive
                               << " ms";
  ASSERT_TRUE(doc.contains("pipeline_stages")) << doc.dump();
  EXPECT_GT(doc["pipeline_stages"].at("bound_ms").get<double>(), 0.0);
  EXPECT_EQ(doc["pipeline_stages"].at("params"), doc["best"].at("params"));

  const auto query = RunTuner("query streams --size 16777216x512 --json --db " + dir.File("t.db"));
  ASSERT_EQ(query.exit_code, 0) << query.err;
  EXPECT_NE(query.out.find("\"STREAMS\""), std::string::npos) << query.out;  // host parameters are stored and queried
}

TEST(LessonTemplatesGpu, UnifiedMemoryPrefetchBeatsOnDemandPaging) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const nlohmann::json doc = Tune(dir, "unified_memory --size 16777216");
  ExpectEveryCandidateOk(doc);
  const double on_demand = FastestWith(doc, {{"MEMORY", 2}});
  const double prefetch = FastestWith(doc, {{"MEMORY", 3}});
  EXPECT_LT(prefetch, on_demand) << "prefetched " << prefetch << " ms, on demand " << on_demand << " ms";
  EXPECT_FALSE(doc.contains("pipeline_stages"));  // managed memory has no copies to time alone
}

TEST(LessonTemplatesGpu, DivergenceInsideAWarpIsSlower) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const nlohmann::json doc = Tune(dir, "divergence --size 8388608x32");
  ExpectEveryCandidateOk(doc);
  const double divergent = FastestWith(doc, {{"BRANCH", 0}, {"TRIPS", 0}});
  const double grouped = FastestWith(doc, {{"BRANCH", 1}, {"TRIPS", 1}});
  EXPECT_GT(divergent, 1.5 * grouped) << "diverging inside warps " << divergent << " ms, grouped per warp " << grouped
                                      << " ms";
  EXPECT_GT(FastestWith(doc, {{"BRANCH", 0}, {"TRIPS", 1}}),
            1.1 * grouped);  // the branch alone (1.27x at 2^25 on an H100)
  EXPECT_GT(FastestWith(doc, {{"BRANCH", 1}, {"TRIPS", 0}}), 1.1 * grouped);  // the trip counts alone (1.18x)
}

}  // namespace
}  // namespace tuner
