#include "db/speed_of_light.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tuner::db {
namespace {

// Counters as the worker stores them, with the shares given.
std::string Counters(double sm, double dram, double l2, double l1, double tensor = 0, double memory = -1) {
  nlohmann::json c = {{"sm_throughput_pct", sm},
                      {"dram_throughput_pct", dram},
                      {"l2_throughput_pct", l2},
                      {"l1_throughput_pct", l1},
                      {"tensor_pipe_pct", tensor},
                      {"passes", 15},
                      {"memory_throughput_pct", memory < 0 ? std::max({dram, l2, l1}) : memory}};
  return c.dump();
}

std::string Headroom(const std::string& counters_json) {
  const auto sol = SpeedOfLightOf(counters_json);
  return sol ? HeadroomText(*sol) : "(none)";
}

TEST(SpeedOfLight, AMemoryBoundKernelNearItsDramPeak) {
  const auto sol = SpeedOfLightOf(Counters(21.4, 93.2, 48, 35));
  ASSERT_TRUE(sol);
  EXPECT_EQ(sol->bound, Bound::kMemory);
  EXPECT_EQ(sol->limiting.unit, "DRAM");
  EXPECT_EQ(HeadroomText(*sol), "memory-bound: DRAM 93% of peak, at the limit");
  EXPECT_EQ(SharesText(*sol), "SM 21%, DRAM 93%, L2 48%, L1 35%") << "unused tensor pipes left out";
}

// An H100's transpose 8192² winner (2026-11-27): the profiled range lasted 0.305 ms, the timed
// launch 0.188 ms. Over the range it reads latency-bound; over the timed launch, DRAM at 85% of peak,
// which its timed 2850 GB/s over the DRAM's 3352 GB/s says too.
TEST(SpeedOfLight, TheHardwarePassTakesTheElapsedSharesOverTheTimedLaunch) {
  const std::string range =
      nlohmann::json{{"sm_throughput_pct", 33.17}, {"dram_throughput_pct", 52.30},   {"l2_throughput_pct", 46.77},
                     {"l1_throughput_pct", 22.0},  {"memory_throughput_pct", 52.30}, {"profiled_ms", 0.305312}}
          .dump();
  EXPECT_EQ(Headroom(range), "latency-bound: SM 33% and DRAM 52% of peak, both below 60%");
  const std::string timed = OverTimedLaunch(range, 0.18837);
  const auto stored = nlohmann::json::parse(timed);
  EXPECT_EQ(stored["timed_ms"], 0.18837);
  EXPECT_NEAR(stored["dram_throughput_pct"].get<double>(), 52.30 * 0.305312 / 0.18837, 1e-9)
      << "stored over the launch, so the counters' line reads the same share";
  EXPECT_NEAR(stored["sm_throughput_pct"].get<double>(), 33.17 * 0.305312 / 0.18837, 1e-9);
  EXPECT_EQ(stored["l1_throughput_pct"], 22.0) << "a share of active cycles stands";
  EXPECT_EQ(stored[kOverProfiledRangeKey]["dram_throughput_pct"], 52.30) << "the range's value is kept";
  EXPECT_FALSE(stored[kOverProfiledRangeKey].contains("l1_throughput_pct"));
  EXPECT_EQ(Headroom(timed), "memory-bound: DRAM 84% of peak, at the limit");
  EXPECT_EQ(OverTimedLaunch("", 0.2), "") << "no counters, nothing added";
  EXPECT_EQ(OverTimedLaunch(range, 0), range) << "no timed launch, the range stands";
  EXPECT_EQ(nlohmann::json::parse(OverTimedLaunch(R"({"dram_throughput_pct":50})", 2.0)),
            nlohmann::json::parse(R"({"dram_throughput_pct":50,"timed_ms":2.0})"))
      << "without the profiled duration nothing is scaled";
}

TEST(SpeedOfLight, ASharePastThePeakOverTheTimedLaunchIsThePeak) {
  nlohmann::json c = nlohmann::json::parse(Counters(10, 90, 40, 30));
  c["profiled_ms"] = 0.3;
  EXPECT_EQ(Headroom(OverTimedLaunch(c.dump(), 0.2)), "memory-bound: DRAM 100% of peak, at the limit");
}

TEST(SpeedOfLight, AComputeBoundKernelWithItsSmShare) {
  EXPECT_EQ(Headroom(Counters(68.2, 12, 30, 41)), "compute-bound: SM 68% of peak");
  EXPECT_EQ(Headroom(Counters(91, 12, 30, 41)), "compute-bound: SM 91% of peak, at the limit");
}

TEST(SpeedOfLight, TheTensorPipesWhereUsed) {
  const auto sol = SpeedOfLightOf(Counters(70, 20, 30, 40, 88));
  ASSERT_TRUE(sol);
  EXPECT_EQ(sol->bound, Bound::kCompute);
  EXPECT_EQ(HeadroomText(*sol), "compute-bound: tensor pipes 88% of peak, at the limit");
  EXPECT_EQ(SharesText(*sol), "SM 70%, tensor pipes 88%, DRAM 20%, L2 30%, L1 40%");
}

TEST(SpeedOfLight, LatencyBoundWhenBothSidesAreBelowSixtyPercent) {
  const auto sol = SpeedOfLightOf(Counters(31, 22, 18, 40));
  ASSERT_TRUE(sol);
  EXPECT_EQ(sol->bound, Bound::kLatency);
  EXPECT_EQ(sol->limiting.unit, "L1") << "the busier side's busiest unit";
  EXPECT_EQ(HeadroomText(*sol), "latency-bound: SM 31% and L1 40% of peak, both below 60%");
  EXPECT_EQ(Headroom(Counters(59.9, 20, 20, 20)), "latency-bound: SM 59% and DRAM 20% of peak, both below 60%");
  EXPECT_EQ(Headroom(Counters(60, 20, 20, 20)), "compute-bound: SM 60% of peak");
}

TEST(SpeedOfLight, AnotherMemoryUnitBusierThanTheNamedOnes) {
  EXPECT_EQ(Headroom(Counters(40, 30, 35, 50, 0, 85)), "memory-bound: memory pipelines 85% of peak, at the limit");
  EXPECT_EQ(Headroom(Counters(40, 30, 35, 80.5, 0, 85)), "memory-bound: L1 80% of peak, at the limit")
      << "within five points of L1: L1 is the busiest (the units' counters differ a little)";
}

TEST(SpeedOfLight, NoneWithoutTheSmShare) {
  EXPECT_FALSE(SpeedOfLightOf(""));
  EXPECT_FALSE(SpeedOfLightOf("{not json"));
  // An older version's counters: DRAM throughput alone says nothing of the compute side.
  EXPECT_FALSE(SpeedOfLightOf(R"({"dram_throughput_pct":93.0,"load_sectors_per_request":4.0})"));
  EXPECT_FALSE(SpeedOfLightOf(R"({"sm_throughput_pct":50.0})")) << "no memory share";
}

TEST(SpeedOfLight, TheCeilingOfTheBoundThatApplies) {
  const std::string compute_bound = Counters(75, 10, 20, 30), memory_bound = Counters(20, 90, 40, 30);
  EXPECT_FALSE(CeilingApplies("GB/s", compute_bound)) << "point-in-polygon: not a copy";
  EXPECT_TRUE(CeilingApplies("GB/s", memory_bound));
  EXPECT_TRUE(CeilingApplies("GFLOP/s", compute_bound));
  EXPECT_FALSE(CeilingApplies("GFLOP/s", memory_bound));
  EXPECT_TRUE(CeilingApplies("GB/s", Counters(30, 20, 20, 20))) << "latency-bound: either ceiling";
  EXPECT_TRUE(CeilingApplies("GB/s", "")) << "not counted";
}

TEST(SpeedOfLight, ARooflinePointFromCountedOperationsAndBytes) {
  const std::string counters = R"({"fp32_flop_count":1.37e11,"fp64_flop_count":0,"dram_bytes":4.0e8,"profiled_ms":3.0,)"
                               R"("fp32_peak_gflops":66908,"fp64_peak_gflops":33454,"dram_peak_gbps":3352})";
  const auto point = RooflinePointOf(counters);
  ASSERT_TRUE(point);
  EXPECT_EQ(point->precision, "FP32");
  EXPECT_DOUBLE_EQ(point->flop_per_byte, 342.5);
  EXPECT_NEAR(point->gflops, 45667, 1);
  const auto roof = RoofOf(counters, point->precision);
  ASSERT_TRUE(roof);
  EXPECT_DOUBLE_EQ(roof->peak_gflops, 66908);
  EXPECT_NEAR(roof->RidgeFlopPerByte(), 19.96, 0.01);
  EXPECT_DOUBLE_EQ(RoofOf(counters, "FP64")->peak_gflops, 33454);
}

TEST(SpeedOfLight, NoRooflinePointWithoutOperationsBytesOrTime) {
  EXPECT_FALSE(RooflinePointOf(R"({"fp32_flop_count":0,"dram_bytes":4.0e8,"profiled_ms":3.0})"));
  EXPECT_FALSE(RooflinePointOf(R"({"fp32_flop_count":1e9,"dram_bytes":0,"profiled_ms":3.0})"));
  EXPECT_FALSE(RooflinePointOf(R"({"fp32_flop_count":1e9,"dram_bytes":4.0e8})"));
  EXPECT_EQ(
      RooflinePointOf(R"({"fp32_flop_count":1e9,"fp64_flop_count":2e9,"dram_bytes":1e9,"profiled_ms":1})")->precision,
      "FP64");
  EXPECT_FALSE(RoofOf(R"({"fp32_peak_gflops":66908})", "FP32")) << "no DRAM peak";
}

}  // namespace
}  // namespace tuner::db
