#include "profilers/metric_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace tuner {
namespace {

TEST(MetricSet, HardwareCountersOnlyEachOnce) {
  const auto metrics = RawMetrics();
  EXPECT_EQ(std::set<std::string>(metrics.begin(), metrics.end()).size(), metrics.size()) << "a metric twice";
  for (const std::string& m : metrics) {
    EXPECT_NE(m.find("__"), std::string::npos) << m;
    EXPECT_NE(m.rfind("sass__", 0), 0u) << m << ": SASS metrics patch every module";
    EXPECT_EQ(m.find("l1tex__t_requests"), std::string::npos) << m << ": each L1TEX request counter costs a replay";
  }
}

TEST(MetricSet, RatiosPerRequestAndPerWarpInstruction) {
  const nlohmann::json c = DeriveCounters({{"dram__throughput.avg.pct_of_peak_sustained_elapsed", 81.5},
                                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 3200},
                                           {"smsp__inst_executed_op_global_ld.sum", 100},
                                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 400},
                                           {"smsp__inst_executed_op_global_st.sum", 100},
                                           {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 3100},
                                           {"smsp__inst_executed_op_shared_ld.sum", 100},
                                           {"smsp__inst_executed_op_shared_st.sum", 100},
                                           {"sm__warps_active.avg.pct_of_peak_sustained_active", 62.5},
                                           {"smsp__thread_inst_executed.sum", 1600},
                                           {"smsp__thread_inst_executed_pred_on.sum", 800},
                                           {"smsp__inst_executed.sum", 100},
                                           {"smsp__inst_executed_op_shared_ld_pred_off_all.sum", 30},
                                           {"gpu__time_duration.sum", 2500}});
  EXPECT_DOUBLE_EQ(c.at("dram_throughput_pct"), 81.5);
  EXPECT_DOUBLE_EQ(c.at("load_sectors_per_request"), 32);
  EXPECT_DOUBLE_EQ(c.at("store_sectors_per_request"), 4);
  EXPECT_DOUBLE_EQ(c.at("shared_bank_conflicts_per_request"), 15.5);  // loads and stores together
  EXPECT_DOUBLE_EQ(c.at("achieved_occupancy_pct"), 62.5);
  EXPECT_DOUBLE_EQ(c.at("warp_efficiency_pct"), 50);
  EXPECT_DOUBLE_EQ(c.at("predicated_on_pct"), 25);
  EXPECT_DOUBLE_EQ(c.at("shared_loads_all_off_pct"), 30);
  EXPECT_DOUBLE_EQ(c.at("profiled_ms"), 0.0025);
}

TEST(MetricSet, SpeedOfLightAsNsightComputeNamesIt) {
  const auto metrics = RawMetrics();
  for (const char* name : {"sm__throughput.avg.pct_of_peak_sustained_elapsed",
                           "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
                           "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                           "lts__throughput.avg.pct_of_peak_sustained_elapsed",
                           "l1tex__throughput.avg.pct_of_peak_sustained_active"})
    EXPECT_NE(std::find(metrics.begin(), metrics.end(), name), metrics.end()) << name;
  const nlohmann::json c = DeriveCounters({{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 58.5},
                                           {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", 0},
                                           {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 40},
                                           {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 30},
                                           {"l1tex__throughput.avg.pct_of_peak_sustained_active", 40}});
  EXPECT_DOUBLE_EQ(c.at("sm_throughput_pct"), 58.5);
  EXPECT_DOUBLE_EQ(c.at("tensor_pipe_pct"), 0);
  EXPECT_DOUBLE_EQ(c.at("memory_throughput_pct"), 40);
  EXPECT_DOUBLE_EQ(c.at("l2_throughput_pct"), 30);
  EXPECT_DOUBLE_EQ(c.at("l1_throughput_pct"), 40);
}

TEST(MetricSet, RooflineCountsAnFmaAsTwoOperations) {
  const nlohmann::json c = DeriveCounters({{"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 10},
                                           {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 20},
                                           {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 100},
                                           {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", 0},
                                           {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", 0},
                                           {"dram__bytes.sum", 4096},
                                           {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", 16896},
                                           {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained", 8448},
                                           {"sm__cycles_elapsed.avg.per_second", 1.98e9},
                                           {"dram__bytes.sum.peak_sustained", 1024},
                                           {"dram__cycles_elapsed.avg.per_second", 3.2e9}});
  EXPECT_DOUBLE_EQ(c.at("fp32_flop_count"), 230);
  EXPECT_FALSE(c.contains("fp64_flop_count")) << "the DFMAs were not measured";
  EXPECT_DOUBLE_EQ(c.at("dram_bytes"), 4096);
  // An H100 SXM's 132 SMs x 128 lanes at 1.98 GHz: 66.9 TFLOP/s; 1024 bytes per DRAM cycle at 3.2 GHz.
  EXPECT_NEAR(c.at("fp32_peak_gflops"), 66908, 1);
  EXPECT_NEAR(c.at("fp64_peak_gflops"), 33454, 1);
  EXPECT_NEAR(c.at("dram_peak_gbps"), 3276.8, 0.01);
}

TEST(MetricSet, ARatioWithoutRequestsIsLeftOut) {
  const nlohmann::json c = DeriveCounters({{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 0},
                                           {"smsp__inst_executed_op_global_st.sum", 0},
                                           {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 0},
                                           {"smsp__inst_executed_op_shared_ld.sum", 0}});
  EXPECT_FALSE(c.contains("store_sectors_per_request"));
  EXPECT_FALSE(c.contains("shared_bank_conflicts_per_request")) << "the stores were not measured";
}

TEST(MetricSet, TheThreeLargestStallsFirst) {
  const nlohmann::json c =
      DeriveCounters({{"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", 0.5},
                      {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 4.0},
                      {"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio", 1.0},
                      {"smsp__average_warps_issue_stalled_membar_per_issue_active.ratio", 0.0},
                      {"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio", 2.0}});
  EXPECT_EQ(c.at("stalls"), nlohmann::json::parse(R"([["long_scoreboard",4.0],["mio_throttle",2.0],["wait",1.0]])"));
}

}  // namespace
}  // namespace tuner
