// What `tuner tune` shows of its sweeps, from outcomes made here (no GPU): the keys of `tune --json`,
// which scripts read, the text summary, the best of each model over several GPUs, one line per size.
#include "sweep/sweep_summary.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;

db::MeasurementRecord Record(int n, double time_ms, CandidateStatus status = CandidateStatus::kOk) {
  db::MeasurementRecord r;
  r.params_json = "{\"N\":" + std::to_string(n) + "}";
  r.launch_json = R"({"block":[128,1,1],"grid":[8,1,1],"shared_bytes":0})";
  r.status = status;
  r.time_ms_median = time_ms;
  r.perf_value = 100 / time_ms;
  r.perf_unit = "GB/s";
  return r;
}

GpuInfo Gpu(int index, std::int64_t memory_bytes = 80LL << 30) {
  GpuInfo gpu;
  gpu.index = index;
  gpu.name = "NVIDIA H100";
  gpu.uuid = "GPU-" + std::to_string(index);
  gpu.cc_major = 9;
  gpu.sm_count = 132;
  gpu.memory_bytes = memory_bytes;
  return gpu;
}

struct Summary : ::testing::Test {
  TempDir dir;
  TemplateSpec spec = LoadTemplateFile(testing::WriteTemplateFiles(dir.File("t"), "small", testing::kSmallDescription));

  SweepOutcome Outcome(const GpuInfo& gpu, std::vector<db::MeasurementRecord> stored) const {
    SweepOutcome out;
    out.gpu = gpu;
    out.size = ParseProblemSize(spec, "");
    out.stored = std::move(stored);
    out.measured = {out.stored.front()};
    out.candidates = out.stored.size();
    out.shard_candidates = out.candidates;
    out.already_stored = out.candidates - 1;
    out.copy_gbps = 200;
    return out;
  }
};

std::set<std::string> Keys(const nlohmann::json& doc) {
  std::set<std::string> keys;
  for (const auto& [key, value] : doc.items()) keys.insert(key);
  return keys;
}

TEST_F(Summary, TheJsonOfASweepKeepsItsContractKeys) {
  const SweepOutcome out =
      Outcome(Gpu(0), {Record(1, 2.0), Record(2, 1.0), Record(3, 0, CandidateStatus::kWrongResult)});
  const nlohmann::json doc = OutcomeJson(spec, out, db::Objective::kTime);
  EXPECT_EQ(Keys(doc),
            (std::set<std::string>{"kernel", "size", "template_hash", "gpu", "copy_gbps", "candidates_total",
                                   "measured_now", "already_stored", "strategy", "interrupted", "time", "candidates",
                                   "best", "objective", "counters_unavailable", "energy_unavailable", "hardware_pass",
                                   "leaders", "winner_vs_runner_up", "timing_mode", "throttle", "tie"}));
  EXPECT_TRUE(doc["tie"].is_null());
  EXPECT_EQ(doc["gpu"], (nlohmann::json{{"index", 0}, {"name", "NVIDIA H100"}, {"uuid", "GPU-0"}, {"arch", "sm_90"}}));
  EXPECT_EQ(doc["size"], "1024");
  ASSERT_EQ(doc["candidates"].size(), 3u);
  EXPECT_EQ(doc["candidates"][0]["params"], (nlohmann::json{{"N", 2}}));  // the fastest first
  EXPECT_EQ(doc["best"]["time_ms"], 1.0);
  EXPECT_EQ(doc["best"]["launches_per_sample"], nullptr);  // stored before, not timed by this run
  EXPECT_DOUBLE_EQ(doc["best"]["fraction_of_copy"].get<double>(), 0.5);
  EXPECT_EQ(doc["counters_unavailable"], nullptr);
  EXPECT_EQ(doc["hardware_pass"], nullptr);
  EXPECT_FALSE(doc.contains("shard"));
}

// The batch this run timed the best in (not stored), for a profiler's time of a whole graph replay.
TEST_F(Summary, TheBestSaysHowManyLaunchesEachOfThisRunsSamplesSpanned) {
  const db::MeasurementRecord best = Record(2, 1.0);
  SweepOutcome out = Outcome(Gpu(0), {best, Record(1, 2.0)});
  out.launches_per_sample[best.params_json] = 500;
  EXPECT_EQ(OutcomeJson(spec, out, db::Objective::kTime)["best"]["launches_per_sample"], 500);
}

// A kernel measured in GB/s that its counters call compute-bound is far from the copy bandwidth by
// nature: neither the text nor the JSON compares it with the copy.
TEST_F(Summary, AComputeBoundBestIsNotComparedWithTheCopy) {
  db::MeasurementRecord best = Record(2, 1.0);
  best.counters_json = R"({"sm_throughput_pct":91,"dram_throughput_pct":12,"l2_throughput_pct":20})";
  const SweepOutcome out = Outcome(Gpu(0), {Record(1, 2.0), best});
  EXPECT_FALSE(OutcomeJson(spec, out, db::Objective::kTime)["best"].contains("fraction_of_copy"));
  std::ostringstream text;
  ReportSweep(spec, out, false, db::Objective::kTime, text);
  EXPECT_EQ(text.str().find("of device-to-device copy"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("compute-bound: SM 91% of peak"), std::string::npos) << text.str();
}

// The mode the sweep timed in, and its throttle accounting: discarded samples and NVML's readings,
// or why there were none.
TEST_F(Summary, TheTimingModeAndTheThrottleAccountingAreShown) {
  SweepOutcome out = Outcome(Gpu(0), {Record(1, 2.0), Record(2, 1.0)});
  out.timing = TimingMode::kGraph;
  out.throttle = {412, 3, ""};
  const nlohmann::json doc = OutcomeJson(spec, out, db::Objective::kTime);
  EXPECT_EQ(doc["timing_mode"], "graph");
  EXPECT_EQ(doc["throttle"], (nlohmann::json{{"discarded_samples", 3}, {"nvml_reads", 412}, {"unavailable", nullptr}}));
  std::ostringstream text;
  ReportSweep(spec, out, false, db::Objective::kTime, text);
  EXPECT_NE(text.str().find("\ntimed graph; throttling accounted: 3 sample(s) discarded and taken again "
                            "(NVML read 412 times)\n"),
            std::string::npos)
      << text.str();
  out.throttle = {0, 0, "NVML (libnvidia-ml.so.1, part of the NVIDIA driver) was not found"};
  EXPECT_EQ(OutcomeJson(spec, out, db::Objective::kTime)["throttle"]["unavailable"], out.throttle.unavailable);
  std::ostringstream without;
  ReportSweep(spec, out, false, db::Objective::kTime, without);
  EXPECT_NE(without.str().find("timed graph; throttling not accounted: NVML (libnvidia-ml.so.1"), std::string::npos)
      << without.str();
}

TEST_F(Summary, TheTextNamesTheGpuTheCandidatesAndTheBest) {
  std::ostringstream text;
  const SweepOutcome out = Outcome(Gpu(3), {Record(1, 2.0), Record(2, 1.0)});
  EXPECT_TRUE(ReportSweep(spec, out, false, db::Objective::kTime, text));
  EXPECT_EQ(text.str().rfind("small 1024 on GPU 3 (NVIDIA H100, sm_90): 2 candidates, 1 measured now, 1 already "
                             "stored\ntimed isolated; throttling accounted: 0 sample(s) discarded and taken "
                             "again (NVML read 0 times)\n\n",
                             0),
            0u)
      << text.str();
  EXPECT_NE(text.str().find("\nbest: N=2  1.0000 ms  100.0 GB/s = 50.0% of device-to-device copy (200 GB/s, same "
                            "run)\n"),
            std::string::npos)
      << text.str();
}

TEST_F(Summary, WithoutACorrectCandidateThereIsNoBest) {
  std::ostringstream json;
  const SweepOutcome out = Outcome(Gpu(0), {Record(1, 0, CandidateStatus::kWrongResult)});
  EXPECT_FALSE(ReportSweep(spec, out, true, db::Objective::kTime, json));
  EXPECT_EQ(nlohmann::json::parse(json.str())["best"], nullptr);
}

// Cards of one model pool their shares; models of one name whose memory differs are told apart by bytes.
TEST_F(Summary, SeveralGpusGetTheBestOfEachModel) {
  const std::vector<SweepOutcome> outcomes = {Outcome(Gpu(0), {Record(1, 2.0)}), Outcome(Gpu(1), {Record(2, 1.0)}),
                                              Outcome(Gpu(2, (80LL << 30) + 1), {Record(3, 3.0)})};
  std::ostringstream json;
  EXPECT_TRUE(ReportSweeps(spec, outcomes, true, db::Objective::kTime, json));
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["sweeps"].size(), 3u);
  const std::string model = "NVIDIA H100 sm_90 132 SMs 80 GiB";
  EXPECT_EQ(Keys(doc["best_per_model"]),
            (std::set<std::string>{model + " (85899345920 bytes)", model + " (85899345921 bytes)"}));
  EXPECT_EQ(doc["best_per_model"][model + " (85899345920 bytes)"]["params"], (nlohmann::json{{"N", 2}}));
  std::ostringstream text;
  ReportSweeps(spec, {outcomes[0], outcomes[1]}, false, db::Objective::kTime, text);
  EXPECT_NE(text.str().find("\nbest on " + model + ": N=2  1.0000 ms  100.0 GB/s\n"), std::string::npos) << text.str();
}

TEST_F(Summary, SeveralSizesGetOneLineEach) {
  SweepOutcome first = Outcome(Gpu(0), {Record(1, 2.0)});
  first.measured.front().compile_ms = 5;  // compiled by this run; the second size's came from the cache
  const std::vector<SweepOutcome> outcomes = {first, Outcome(Gpu(0), {Record(1, 0, CandidateStatus::kWrongResult)})};
  std::ostringstream json;
  EXPECT_FALSE(ReportSizes(spec, outcomes, true, db::Objective::kTime, json));  // the second size has no best
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(Keys(doc), (std::set<std::string>{"kernel", "sizes", "compiled_candidates"}));
  EXPECT_EQ(doc["sizes"][0]["compiled_now"], 1);
  EXPECT_EQ(doc["sizes"][1]["from_compile_cache"], 1);
  std::ostringstream text;
  ReportSizes(spec, outcomes, false, db::Objective::kTime, text);
  EXPECT_NE(text.str().find("small at 2 sizes:\n"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("none passed"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace tuner
