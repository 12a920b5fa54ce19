// The shipped templates' lessons in hardware counters and energy, on a real GPU (skipped without one): each
// test tunes a shipped template narrowed to the candidates it compares, with counters for all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli_runner.h"
#include "db/speed_of_light.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::Replaced;
using testing::RunTuner;

std::string ReadShipped(const std::string& file) {
  std::ifstream in(std::string(TUNER_SHIPPED_TEMPLATES_DIR "/") + file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The shipped template `shipped` as `name` in `folder`, its description changed by `edits` (from, to).
void WriteNarrowed(const std::string& folder, const std::string& shipped, const std::string& name,
                   const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string description =
      Replaced(ReadShipped(shipped + ".toml"), "name = \"" + shipped + "\"", "name = \"" + name + "\"");
  if (description.find("source = ") != std::string::npos)
    description = Replaced(description, "source = \"" + shipped + ".cu\"", "source = \"" + name + ".cu\"");
  for (const auto& [from, to] : edits) description = Replaced(description, from, to);
  testing::WriteTemplateFiles(folder, name, description, ReadShipped(shipped + ".cu"));
}

// Tunes `kernel` from `folder` with counters for every candidate; the --json document.
nlohmann::json TuneWithCounters(const TempDir& dir, const std::string& kernel, const std::string& size,
                                const std::string& extra = "--counters all") {
  const auto run = RunTuner("tune " + kernel + " --size " + size + " " + extra + " --json --templates " +
                                dir.File("t") + " --db " + dir.File("t.db"),
                            "XDG_CACHE_HOME=" + dir.File("cache"));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("unavailable"), std::string::npos) << run.err;
  return nlohmann::json::parse(run.out);
}

// The candidate whose parameters include every (name, value) of `where`.
nlohmann::json Candidate(const nlohmann::json& doc, const std::map<std::string, int>& where) {
  for (const auto& c : doc.at("candidates")) {
    bool match = true;
    for (const auto& [name, value] : where) match &= c.at("params").at(name) == value;
    if (match) return c;
  }
  ADD_FAILURE() << "no candidate " << ::testing::PrintToString(where) << " in " << doc.dump();
  return nlohmann::json::object();
}

double Counter(const nlohmann::json& candidate, const std::string& key) {
  if (!candidate.contains("counters") || !candidate["counters"].is_object() || !candidate["counters"].contains(key)) {
    ADD_FAILURE() << "no counter " << key << " in " << candidate.dump();
    return -1;
  }
  return candidate["counters"][key].get<double>();
}

TEST(HardwareGpu, TransposePaddingRemovesBankConflicts) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  WriteNarrowed(dir.File("t"), "transpose", "transpose_pad",
                {{"values = [0, 1]\nlabels = [\"naive\", \"tiled\"]", "values = [1]\nlabels = [\"tiled\"]"},
                 {"values = [16, 32, 64]", "values = [32]"},
                 {"values = [4, 8, 16, 32]", "values = [8]"}});
  const nlohmann::json doc = TuneWithCounters(dir, "transpose_pad", "4096x4096");
  const double unpadded = Counter(Candidate(doc, {{"PAD", 0}}), "shared_bank_conflicts_per_request");
  const double padded = Counter(Candidate(doc, {{"PAD", 1}}), "shared_bank_conflicts_per_request");
  // A column of a 32x32 float tile lies in one bank: 31 conflicts per load; the stores are rows.
  EXPECT_GT(unpadded, 10.0);
  EXPECT_LT(padded, 0.5);
}

TEST(HardwareGpu, StridedLoadsTouchMoreSectorsPerRequest) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  WriteNarrowed(dir.File("t"), "coalescing", "coalescing_stride",
                {{"values = [0, 1]\nlabels = [\"offset\", \"stride\"]", "values = [1]\nlabels = [\"stride\"]"},
                 {"values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32]", "values = [0]"},
                 {"values = [1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 64]", "values = [1, 32]"},
                 {"values = [1, 4]", "values = [1]"}});
  const nlohmann::json doc = TuneWithCounters(dir, "coalescing_stride", "16777216");
  // 32 consecutive floats are 4 sectors of 32 bytes; 32 floats 128 bytes apart are 32 sectors.
  EXPECT_NEAR(Counter(Candidate(doc, {{"STRIDE", 1}}), "load_sectors_per_request"), 4.0, 0.5);
  EXPECT_NEAR(Counter(Candidate(doc, {{"STRIDE", 32}}), "load_sectors_per_request"), 32.0, 1.0);
}

TEST(HardwareGpu, TheDivergentReductionKeepsFewerThreadsBusy) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  WriteNarrowed(dir.File("t"), "reduction", "reduction_divergence",
                {{"values = [0, 1, 2, 3, 4]", "values = [0, 1]"},
                 {"labels = [\"interleaved_divergent\", \"interleaved\", \"sequential\", \"first_add_during_load\", "
                  "\"warp_shuffle\"]",
                  "labels = [\"interleaved_divergent\", \"interleaved\"]"},
                 {"values = [256, 128, 512, 1024]", "values = [1024]"},
                 {"values = [1, 2, 4, 8, 16]", "values = [1]"},
                 {"values = [1, 4]", "values = [1]"}});
  const nlohmann::json doc = TuneWithCounters(dir, "reduction_divergence", "16777216");
  const nlohmann::json divergent = Candidate(doc, {{"VARIANT", 0}}), uniform = Candidate(doc, {{"VARIANT", 1}});
  for (const char* key : {"warp_efficiency_pct", "predicated_on_pct", "shared_loads_all_off_pct", "passes"})
    std::cout << key << ": divergent " << divergent["counters"].value(key, -1.0) << ", uniform "
              << uniform["counters"].value(key, -1.0) << "\n";
  // NVRTC predicates both trees (no branch is left to diverge, so the active threads per warp
  // instruction are alike): the divergent one scatters its active threads over every warp, so its
  // warps issue the tree's shared loads with some thread on; the other packs them into a few warps
  // and the rest issue theirs with every thread off.
  EXPECT_GT(Counter(divergent, "warp_efficiency_pct"), 95.0) << "no divergent branch";
  EXPECT_LT(Counter(divergent, "shared_loads_all_off_pct") + 20, Counter(uniform, "shared_loads_all_off_pct"));
}

// The divergence lesson's template: a branch and trip counts that differ inside each warp keep
// fewer of a warp's threads busy per instruction than the same work grouped per warp.
TEST(HardwareGpu, ThreadsDivergingInsideAWarpLowerItsWarpEfficiency) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  WriteNarrowed(dir.File("t"), "divergence", "divergence_counters", {{"values = [256, 512, 1024]", "values = [256]"}});
  const nlohmann::json doc = TuneWithCounters(dir, "divergence_counters", "4194304x32");
  const nlohmann::json divergent = Candidate(doc, {{"BRANCH", 0}, {"TRIPS", 0}});
  const nlohmann::json grouped = Candidate(doc, {{"BRANCH", 1}, {"TRIPS", 1}});
  std::cout << "warp_efficiency_pct: divergent " << Counter(divergent, "warp_efficiency_pct") << ", grouped per warp "
            << Counter(grouped, "warp_efficiency_pct") << "\n";
  EXPECT_GT(Counter(grouped, "warp_efficiency_pct"), 90.0);
  EXPECT_LT(Counter(divergent, "warp_efficiency_pct") + 20, Counter(grouped, "warp_efficiency_pct"));
}

// Energy per launch from NVML's energy counter: the window ran the kernel it names back to back (its
// time per launch near the timed median: back to back, an 8192² transpose also writes back the last
// launch's output, 1.2-1.7x on an H100), at a power a GPU can draw, and the slower kernel moving the
// same bytes uses more energy per launch. (Its power is the counter's mean: NVML's power readings
// update as seldom as the counter, and over one window they were 25-43% off it.)
TEST(HardwareGpu, EnergyPerLaunchFollowsTheKernelsTimeAtAPlausiblePower) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  WriteNarrowed(dir.File("t"), "transpose", "transpose_energy",
                {{"values = [16, 32, 64]", "values = [32]"}, {"values = [4, 8, 16, 32]", "values = [8]"}});
  const nlohmann::json doc = TuneWithCounters(dir, "transpose_energy", "8192x8192");
  std::vector<nlohmann::json> measured;
  for (const auto& c : doc.at("candidates")) {
    if (c.at("energy_j").is_null()) continue;
    measured.push_back(c);
    const double energy_j = c["energy_j"], power_w = c.at("power_w"), launch_ms = c.at("energy_launch_ms");
    const double median_ms = c.at("time_ms");
    std::cout << c["params"].dump() << ": " << energy_j * 1e3 << " mJ per launch at " << power_w << " W, "
              << launch_ms << " ms a launch back to back; median " << median_ms << " ms\n";
    EXPECT_NEAR(energy_j, power_w * launch_ms * 1e-3, 0.01 * energy_j) << c.dump();
    EXPECT_GT(launch_ms, 0.9 * median_ms) << c.dump();
    EXPECT_LT(launch_ms, 2.5 * median_ms) << c.dump();
    EXPECT_GT(power_w, 50) << c.dump();
    EXPECT_LT(power_w, 1200) << c.dump();
    EXPECT_GT(c.at("perf_per_joule").get<double>(), 0) << c.dump();
  }
  ASSERT_GE(measured.size(), 2u) << "every correct candidate's energy";
  const auto by_time = [](const nlohmann::json& a, const nlohmann::json& b) {
    return a["time_ms"].get<double>() < b["time_ms"].get<double>();
  };
  const nlohmann::json fastest = *std::min_element(measured.begin(), measured.end(), by_time);
  const nlohmann::json slowest = *std::max_element(measured.begin(), measured.end(), by_time);
  if (slowest["time_ms"].get<double>() > 2 * fastest["time_ms"].get<double>()) {
    EXPECT_GT(slowest["energy_j"].get<double>(), fastest["energy_j"].get<double>()) << "the same bytes, moved slower";
  }
  // One request profiled every planned candidate in one CUPTI session and chained their energy windows.
  const nlohmann::json& pass = doc.at("hardware_pass");
  std::cout << "hardware pass: " << pass.dump() << "\n";
  EXPECT_EQ(pass.at("requests"), 1) << pass.dump();
  EXPECT_EQ(pass.at("energy"), static_cast<int>(measured.size())) << pass.dump();
  EXPECT_GE(pass.at("counters").get<int>(), static_cast<int>(measured.size())) << pass.dump();
}

// The default --counters winner: the winner and the few candidates its card compares it with, in
// one CUPTI session, and energy for the winner alone.
TEST(HardwareGpu, TheDefaultCountsTheWinnerAndAFewComparisonsInOneRequest) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  WriteNarrowed(dir.File("t"), "transpose", "transpose_default", {});
  const nlohmann::json doc = TuneWithCounters(dir, "transpose_default", "8192x8192", "");
  int counted = 0;
  std::vector<nlohmann::json> with_energy;
  for (const auto& c : doc.at("candidates")) {
    counted += c.contains("counters") && c["counters"].is_object() && !c["counters"].empty();
    if (!c.at("energy_j").is_null()) with_energy.push_back(c.at("params"));
  }
  std::cout << counted << " of " << doc["candidates"].size() << " candidates counted; hardware pass "
            << doc.at("hardware_pass").dump() << "\n";
  EXPECT_GE(counted, 2) << "the winner and at least one comparison";
  EXPECT_LE(counted, 6);
  ASSERT_EQ(with_energy.size(), 1u) << "energy for the winner only";
  EXPECT_EQ(with_energy[0], doc.at("best").at("params"));
  EXPECT_GT(Counter(Candidate(doc, doc["best"]["params"].get<std::map<std::string, int>>()), "dram_throughput_pct"), 0);
  EXPECT_EQ(doc["hardware_pass"].at("requests"), 1) << "one CUPTI session";
}

// The speed of light of a tuned run's winner, printed with its counters and the passes they took.
std::optional<db::SpeedOfLight> WinnersSpeedOfLight(const nlohmann::json& doc) {
  const nlohmann::json& counters = doc.at("best").at("counters");
  std::cout << "winner " << doc["best"]["params"].dump() << " (" << doc["best"]["perf"] << " "
            << doc["best"]["perf_unit"] << "): " << counters.dump() << "\nhardware pass " << doc["hardware_pass"].dump()
            << "\n";
  const auto sol = db::SpeedOfLightOf(counters.dump());
  if (sol) std::cout << db::HeadroomText(*sol) << " (" << db::SharesText(*sol) << ")\n";
  return sol;
}

// What `tuner query` prints of the stored winner of `kernel` (the summary's hardware lines).
std::string QueryText(const TempDir& dir, const std::string& kernel, const std::string& size) {
  const auto run =
      RunTuner("query " + kernel + " --size " + size + " --templates " + dir.File("t") + " --db " + dir.File("t.db"));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.out;
}

// A transpose moves every byte through DRAM and computes nothing: its winner is memory-bound, near the
// DRAM's peak (the speed of light). Its shares are taken over the timed launch: the
// profiled range of a 0.19 ms kernel lasts 0.3 ms (H100), over which DRAM read 52%.
TEST(HardwareGpu, TransposesWinnerIsMemoryBoundNearItsDramPeak) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  WriteNarrowed(dir.File("t"), "transpose", "transpose_sol", {});
  const nlohmann::json doc = TuneWithCounters(dir, "transpose_sol", "8192x8192", "");
  const auto sol = WinnersSpeedOfLight(doc);
  ASSERT_TRUE(sol) << "the winner's counters have the speed of light";
  EXPECT_EQ(sol->bound, db::Bound::kMemory) << db::SharesText(*sol);
  for (const db::UnitShare& share : sol->memory) {
    if (share.unit == "DRAM") {
      EXPECT_GE(share.pct, 70.0) << db::SharesText(*sol);
    }
  }
  const std::string query = QueryText(dir, "transpose_sol", "8192x8192");
  EXPECT_NE(query.find("speed of light: memory-bound: "), std::string::npos) << query;
  EXPECT_NE(query.find("DRAM "), std::string::npos) << query;
}

// A register-blocked SGEMM keeps the FMA pipes busy and reuses every byte many times: its winner is
// compute-bound, reported with its SM share, and far right of the ridge on the roofline.
TEST(HardwareGpu, MatmulsWinnerIsComputeBoundWithItsSmShare) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  WriteNarrowed(dir.File("t"), "matmul", "matmul_sol",
                {{"values = [0, 1, 2]\nlabels = [\"naive\", \"tiled\", \"register_blocked\"]",
                  "values = [2]\nlabels = [\"register_blocked\"]"},
                 {"values = [8, 16]", "values = [16]"},
                 {"values = [64, 32, 16, 128]", "values = [32]"}});
  const nlohmann::json doc = TuneWithCounters(dir, "matmul_sol", "4096x4096x4096", "");
  const auto sol = WinnersSpeedOfLight(doc);
  ASSERT_TRUE(sol) << "the winner's counters have the speed of light";
  EXPECT_EQ(sol->bound, db::Bound::kCompute) << db::SharesText(*sol);
  EXPECT_EQ(sol->limiting.unit, "SM") << "no tensor pipes in an FP32 FFMA kernel";
  const double sm_pct = sol->limiting.pct;  // the SM's share over the timed launch
  EXPECT_GE(sm_pct, 60.0);
  const std::string query = QueryText(dir, "matmul_sol", "4096x4096x4096");
  char share[64];
  std::snprintf(share, sizeof share, "compute-bound: SM %.0f%% of peak", std::floor(sm_pct));
  EXPECT_NE(query.find(std::string("speed of light: ") + share), std::string::npos) << query;
  // On the roofline: 2 M N K FP32 operations counted, far more operations per DRAM byte than the ridge.
  const auto point = db::RooflinePointOf(doc["best"]["counters"].dump());
  const auto roof = db::RoofOf(doc["best"]["counters"].dump(), "FP32");
  ASSERT_TRUE(point && roof);
  std::cout << "roofline: " << point->flop_per_byte << " FLOP/byte, " << point->gflops << " GFLOP/s; ridge "
            << roof->RidgeFlopPerByte() << " FLOP/byte, peak " << roof->peak_gflops << " GFLOP/s, DRAM "
            << roof->dram_gbps << " GB/s\n";
  EXPECT_NEAR(Counter(doc["best"], "fp32_flop_count"), 2.0 * 4096 * 4096 * 4096, 0.01 * 2.0 * 4096 * 4096 * 4096);
  EXPECT_GT(point->flop_per_byte, roof->RidgeFlopPerByte());
  EXPECT_LT(point->gflops, roof->peak_gflops);
  EXPECT_NEAR(point->gflops, doc["best"]["perf"].get<double>(), 0.02 * doc["best"]["perf"].get<double>())
      << "the rate over the timed launch";
}

}  // namespace
}  // namespace tuner
