#include "db/counters.h"

#include <gtest/gtest.h>

namespace tuner::db {
namespace {

const char* const kCounters =
    R"({"shared_bank_conflicts_per_request":15.5,"load_sectors_per_request":4.0,"stalls":[["barrier",2.5],["wait",0.5]],"passes":8})";

TEST(Counters, ValuesByKey) {
  EXPECT_EQ(CounterValue(kCounters, "shared_bank_conflicts_per_request"), 15.5);
  EXPECT_FALSE(CounterValue(kCounters, "dram_throughput_pct"));
  EXPECT_FALSE(CounterValue("", "load_sectors_per_request")) << "not measured";
  EXPECT_FALSE(CounterValue("{not json", "load_sectors_per_request"));
  EXPECT_EQ(TopStalls(kCounters), (std::vector<std::pair<std::string, double>>{{"barrier", 2.5}, {"wait", 0.5}}));
}

TEST(Counters, EveryFieldHasALabelAndAUnit) {
  for (const CounterField& f : CounterFields()) {
    EXPECT_EQ(FindCounterField(f.key), &f);
    EXPECT_FALSE(std::string(f.label).empty());
    EXPECT_FALSE(std::string(f.unit).empty());
  }
  EXPECT_EQ(FindCounterField("passes"), nullptr);
}

TEST(Counters, JsonAndTextOfARecord) {
  MeasurementRecord r;
  r.perf_unit = "GB/s";
  EXPECT_EQ(HardwareText(r, "  "), "");
  EXPECT_TRUE(HardwareJson(r).at("counters").is_null());
  EXPECT_TRUE(HardwareJson(r).at("energy_j").is_null());
  r.counters_json = kCounters;
  r.energy_j = 0.000412;
  r.power_w = 301;
  r.energy_launch_ms = 1.4;
  r.perf_per_joule = 6.114;
  const nlohmann::json json = HardwareJson(r);
  EXPECT_EQ(json.at("counters").at("passes"), 8);
  EXPECT_EQ(json.at("perf_per_joule_unit"), "GB/J");
  EXPECT_EQ(HardwareText(r, "  "),
            "  counters: global load sectors per request 4.0 sectors, shared-memory bank conflicts per request 15.5 "
            "conflicts, top stalls (warps per issued instruction) barrier 2.50, wait 0.50\n"
            "  energy: 0.412 mJ per launch at 301 W, 6.11 GB/J\n");
}

TEST(Counters, TheSpeedOfLightLineOfACountedRecord) {
  MeasurementRecord r;
  r.counters_json =
      R"({"sm_throughput_pct":21.4,"dram_throughput_pct":93.2,"l2_throughput_pct":48.0,"l1_throughput_pct":35.9,)"
      R"("tensor_pipe_pct":0.0,"memory_throughput_pct":93.2})";
  EXPECT_EQ(HardwareText(r, "  "),
            "  counters: DRAM throughput 93.2 % of peak\n"
            "  speed of light: memory-bound: DRAM 93% of peak, at the limit (SM 21%, DRAM 93%, L2 48%, L1 35%)\n");
}

}  // namespace
}  // namespace tuner::db
