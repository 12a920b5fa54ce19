#include "profilers/metric_set.h"

#include <gtest/gtest.h>

#include <set>

namespace tuner {
namespace {

TEST(MetricSet, HardwareCountersOnlyEachOnce) {
  const auto metrics = RawMetrics();
  EXPECT_EQ(std::set<std::string>(metrics.begin(), metrics.end()).size(), metrics.size()) << "a metric twice";
  for (const std::string& m : metrics) {
    EXPECT_NE(m.find("__"), std::string::npos) << m;
    EXPECT_EQ(m.find("sass"), std::string::npos) << m << ": SASS metrics patch every module";
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
