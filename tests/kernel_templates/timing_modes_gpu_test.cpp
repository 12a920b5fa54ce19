// The timing modes end to end on a real GPU (skipped without one): a
// tiny kernel (add_scale_bf16 at 65,536 elements, a few microseconds) tuned in each mode into one
// database gives plausible times (batched modes within a factor of isolated, graph below isolated,
// whose flushed launch pays the launch and the cold L2), each mode's rows are stored and queried
// apart, and the throttle accounting read NVML around the samples.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "tune_json.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::ExpectEveryCandidateOk;
using testing::RunTuner;
using testing::TuneJson;

const char* const kTiny = "add_scale_bf16 --size 65536 --counters off";

nlohmann::json QueryJson(const TempDir& dir, const std::string& args) {
  const auto r = RunTuner("query add_scale_bf16 --size 65536 --json --db " + dir.File("t.db") + args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

TEST(TimingModesGpu, EachModeTunesATinyKernelStoresItsModeAndIsQueriedApart) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  std::map<std::string, double> best_ms;
  for (const char* mode : {"isolated", "back_to_back", "graph"}) {
    const nlohmann::json doc = TuneJson(dir, std::string(kTiny) + " --timing " + mode);
    ASSERT_TRUE(doc.contains("best")) << mode;
    ExpectEveryCandidateOk(doc);
    EXPECT_EQ(doc.at("timing_mode"), mode);
    EXPECT_EQ(doc.at("already_stored"), 0) << mode << ": another mode's results are not this mode's";
    for (const auto& c : doc.at("candidates")) EXPECT_EQ(c.at("timing_mode"), mode) << c.dump();
    // The throttle accounting: NVML was read around the samples; discarded samples may be 0.
    const nlohmann::json& throttle = doc.at("throttle");
    EXPECT_TRUE(throttle.at("unavailable").is_null()) << throttle.dump();
    EXPECT_GT(throttle.at("nvml_reads").get<long long>(), 0) << mode;
    EXPECT_GE(throttle.at("discarded_samples").get<long long>(), 0) << mode;
    best_ms[mode] = doc.at("best").at("time_ms");
    EXPECT_GT(best_ms[mode], 0) << mode;
  }
  const double isolated = best_ms["isolated"];
  for (const char* mode : {"back_to_back", "graph"}) {
    EXPECT_LT(best_ms[mode], 1.5 * isolated) << mode << " " << best_ms[mode] << " ms, isolated " << isolated << " ms";
    EXPECT_GT(best_ms[mode], 0.05 * isolated) << mode << " " << best_ms[mode] << " ms, isolated " << isolated << " ms";
  }
  EXPECT_LT(best_ms["graph"], isolated) << "graph " << best_ms["graph"] << " ms, isolated " << isolated << " ms";

  for (const char* mode : {"isolated", "back_to_back", "graph"}) {
    const nlohmann::json q = QueryJson(dir, std::string(" --timing ") + mode);
    ASSERT_EQ(q.at("results").size(), 1u) << q.dump();
    EXPECT_EQ(q["results"][0].at("timing_mode"), mode);
    EXPECT_DOUBLE_EQ(q["results"][0].at("time_ms").at("median").get<double>(), best_ms[mode]) << mode;
  }
  EXPECT_EQ(QueryJson(dir, "").at("results")[0].at("timing_mode"), "graph") << "the mode tuned last";

  // Tuned again in isolated mode, the stored results of that mode are resumed, not measured again.
  const nlohmann::json again = TuneJson(dir, std::string(kTiny) + " --timing isolated");
  EXPECT_EQ(again.at("already_stored"), again.at("candidates_total")) << again.dump();
}

// A batch is a power of two (so fresh processes time the same batch), about 1 ms of launches of a
// few-microsecond kernel; --launches-per-sample pins it, as the reproducibility script does under ncu.
TEST(TimingModesGpu, ABatchIsAPowerOfTwoUnlessPinned) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const nlohmann::json chosen = TuneJson(dir, std::string(kTiny) + " --timing graph --budget 2");
  const int launches = chosen.at("best").at("launches_per_sample");
  std::cout << "graph of " << launches << " launches for a " << chosen["best"]["time_ms"].get<double>() * 1e3
            << " us kernel\n";
  EXPECT_EQ(launches & (launches - 1), 0) << launches;
  EXPECT_GE(launches, 64) << "a few-microsecond kernel is batched by its own time, not its launch latency";
  TempDir pinned_dir;
  const nlohmann::json pinned =
      TuneJson(pinned_dir, std::string(kTiny) + " --timing back_to_back --budget 2 --launches-per-sample 48");
  EXPECT_EQ(pinned.at("best").at("launches_per_sample"), 48) << pinned.dump();
}

TEST(TimingModesGpu, TheTemplatesDefaultModeAppliesAndTheSummarySaysIt) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const auto r = RunTuner(std::string("tune ") + kTiny + " --budget 4 --db " + dir.File("t.db"),
                          "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // add_scale_bf16 says graph.
  EXPECT_NE(r.out.find("timed graph; throttling accounted: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NVML read "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tuner
