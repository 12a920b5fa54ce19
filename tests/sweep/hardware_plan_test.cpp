#include "sweep/hardware_plan.h"

#include <gtest/gtest.h>

#include "common/errors.h"

namespace tuner {
namespace {

db::MeasurementRecord Ok(const std::string& params, double time_ms) {
  db::MeasurementRecord r;
  r.params_json = params;
  r.status = db::CandidateStatus::kOk;
  r.time_ms_median = time_ms;
  return r;
}

// A: 2 values, B: 3 values; the fastest is A=1 B=1.
std::vector<db::MeasurementRecord> Records() {
  std::vector<db::MeasurementRecord> records = {Ok(R"({"A":0,"B":0})", 5), Ok(R"({"A":0,"B":1})", 2),
                                                Ok(R"({"A":0,"B":2})", 4), Ok(R"({"A":1,"B":0})", 6),
                                                Ok(R"({"A":1,"B":1})", 1), Ok(R"({"A":1,"B":2})", 7)};
  db::MeasurementRecord failed = Ok(R"({"A":2,"B":2})", 0);
  failed.status = db::CandidateStatus::kWrongResult;
  records.push_back(failed);
  return records;
}

std::vector<std::size_t> Indices(const std::vector<HardwareWork>& plan, bool HardwareWork::*what) {
  std::vector<std::size_t> indices;
  for (const HardwareWork& w : plan)
    if (w.*what) indices.push_back(w.index);
  return indices;
}

TEST(HardwarePlan, LeadersAndOneRepresentativeOfEachValue) {
  const auto plan = PlanHardware(Records(), {R"({"A":1,"B":1})", R"({"A":0,"B":1})", R"({"A":0,"B":2})"},
                                 CounterMode::kLeaders, db::Objective::kTime);
  // Leaders 4, 1, 2; the values' representatives are the fastest (A=1, B=1) and its neighbours
  // A=0 B=1 (A=0), A=1 B=0 (B=0), A=1 B=2 (B=2). A=0 B=0, the fastest of B=0 but no neighbour, pays nothing.
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(Indices(plan, &HardwareWork::energy), (std::vector<std::size_t>{1, 2, 4})) << "the leaders";
}

TEST(HardwarePlan, AFarCandidateThatExplainsNothingIsLeftOut) {
  std::vector<db::MeasurementRecord> records = Records();
  records.push_back(Ok(R"({"A":0,"B":0})", 50));  // a second A=0 B=0 (same values, slower): nothing new
  const auto plan = PlanHardware(records, {}, CounterMode::kLeaders, db::Objective::kTime);
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{1, 3, 4, 5}))
      << "the fastest and its neighbours";
  EXPECT_TRUE(Indices(plan, &HardwareWork::energy).empty());
}

TEST(HardwarePlan, AValueWithoutANeighbourIsRepresentedByItsFastest) {
  // The fastest is A=1 B=1; B=3 exists only with A=0, so its fastest represents it.
  std::vector<db::MeasurementRecord> records = Records();
  records.push_back(Ok(R"({"A":0,"B":3})", 9));
  records.push_back(Ok(R"({"A":0,"B":3})", 8));
  const auto plan = PlanHardware(records, {}, CounterMode::kLeaders, db::Objective::kTime);
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{1, 3, 4, 5, 8}));
}

TEST(HardwarePlan, AllMeansEveryCorrectCandidateWithEnergy) {
  const auto plan = PlanHardware(Records(), {}, CounterMode::kAll, db::Objective::kTime);
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(Indices(plan, &HardwareWork::energy), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
}

TEST(HardwarePlan, OffMeasuresNothingUnlessTheObjectiveNeedsEnergy) {
  EXPECT_TRUE(PlanHardware(Records(), {R"({"A":1,"B":1})"}, CounterMode::kOff, db::Objective::kTime).empty());
  const auto plan = PlanHardware(Records(), {}, CounterMode::kOff, db::Objective::kEdp);
  EXPECT_TRUE(Indices(plan, &HardwareWork::counters).empty());
  EXPECT_EQ(Indices(plan, &HardwareWork::energy).size(), 6u);
}

TEST(HardwarePlan, ModesAreSpelledExactly) {
  EXPECT_EQ(ParseCounterMode("all"), CounterMode::kAll);
  EXPECT_EQ(ParseCounterMode("leaders"), CounterMode::kLeaders);
  EXPECT_EQ(ParseCounterMode("off"), CounterMode::kOff);
  for (const char* bad : {"", "ALL", "on", "leader"}) {
    try {
      ParseCounterMode(bad);
      ADD_FAILURE() << bad;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--counters '" + std::string(bad) + "'"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace tuner
