#include "sweep/hardware_plan.h"

#include <gtest/gtest.h>


#include "base/errors.h"

namespace tuner {
namespace {

db::MeasurementRecord Ok(const std::string& params, double time_ms) {
  db::MeasurementRecord r;
  r.params_json = params;
  r.status = CandidateStatus::kOk;
  r.time_ms_median = time_ms;
  return r;
}

// A: 2 values, B: 3 values; the fastest is A=1 B=1.
std::vector<db::MeasurementRecord> Records() {
  std::vector<db::MeasurementRecord> records = {Ok(R"({"A":0,"B":0})", 5), Ok(R"({"A":0,"B":1})", 2),
                                                Ok(R"({"A":0,"B":2})", 4), Ok(R"({"A":1,"B":0})", 6),
                                                Ok(R"({"A":1,"B":1})", 1), Ok(R"({"A":1,"B":2})", 7)};
  db::MeasurementRecord failed = Ok(R"({"A":2,"B":2})", 0);
  failed.status = CandidateStatus::kWrongResult;
  records.push_back(failed);
  return records;
}

std::vector<std::size_t> Indices(const std::vector<HardwareWork>& plan, bool HardwareWork::*what) {
  std::vector<std::size_t> indices;
  for (const HardwareWork& w : plan)
    if (w.*what) indices.push_back(w.index);
  return indices;
}

const std::vector<std::string> kLeaderIdentities = {R"({"A":1,"B":1})", R"({"A":0,"B":1})", R"({"A":0,"B":2})"};

TEST(HardwarePlan, TheWinnerItsRunnersUpAndItsNeighboursWithEnergyForTheWinnerOnly) {
  const auto plan = PlanHardware(Records(), kLeaderIdentities, CounterMode::kWinner, db::Objective::kTime);
  // The winner 4, the runners-up 1 and 2, the neighbours 1 (A=0), 5 and 3 (B=2, B=0). A=0 B=0 is neither.
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(Indices(plan, &HardwareWork::energy), (std::vector<std::size_t>{4})) << "the winner only";
}

// A: 3 values, B: 9 values; the winner is A=1 B=4, the runner-up A=1 B=5.
std::vector<db::MeasurementRecord> ManyNeighbours() {
  std::vector<db::MeasurementRecord> records;
  for (int b = 0; b < 9; ++b) records.push_back(Ok(R"({"A":1,"B":)" + std::to_string(b) + "}", 10 + b));
  records[4].time_ms_median = 1;
  records[5].time_ms_median = 2;
  records.push_back(Ok(R"({"A":0,"B":4})", 3));   // 9: A's neighbour, faster than every B neighbour
  records.push_back(Ok(R"({"A":2,"B":4})", 30));  // 10: A's slowest neighbour
  records.push_back(Ok(R"({"A":0,"B":0})", 50));  // 11: no neighbour
  return records;
}

TEST(HardwarePlan, TheWinnerCountsSixAtMostInTurnsOverTheParameters) {
  const auto plan = PlanHardware(ManyNeighbours(), {R"({"A":1,"B":4})", R"({"A":1,"B":5})"}, CounterMode::kWinner,
                                 db::Objective::kTime);
  // 4 and 5 (leaders); first turn: A=2 (30 ms) and B=8 (18 ms), the slowest of each parameter;
  // second turn: B=7 (17 ms) before A=0 (3 ms), and the sixth place is full.
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{4, 5, 7, 8, 9, 10}));
  EXPECT_EQ(Indices(plan, &HardwareWork::energy), (std::vector<std::size_t>{4}));
}

TEST(HardwarePlan, ExplainAddsOneRepresentativeOfEachValue) {
  const auto plan = PlanHardware(Records(), kLeaderIdentities, CounterMode::kExplain, db::Objective::kTime);
  // Besides the winner's set, the values' representatives are the winner (A=1, B=1) and its
  // neighbours A=0 B=1 (A=0), A=1 B=0 (B=0), A=1 B=2 (B=2). A=0 B=0, the fastest of B=0 but no neighbour, pays nothing.
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(Indices(plan, &HardwareWork::energy), (std::vector<std::size_t>{4})) << "the winner only";
}

TEST(HardwarePlan, ExplainIsNotCappedAndRepresentsEveryValue) {
  const auto plan = PlanHardware(ManyNeighbours(), {}, CounterMode::kExplain, db::Objective::kTime);
  std::vector<std::size_t> every = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};  // all but 11, which represents nothing new
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), every);
}

TEST(HardwarePlan, AConfigurationMeasuredTwiceIsCountedOnce) {
  std::vector<db::MeasurementRecord> records = ManyNeighbours();
  records.push_back(Ok(R"({"A":2,"B":4})", 31));  // 12: A=2 again, now A's slowest neighbour
  const auto plan = PlanHardware(records, {}, CounterMode::kWinner, db::Objective::kTime);
  // Turns: A=2 (12) and B=8; A=2 again (10, skipped) and B=7; A=0 and B=6.
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{4, 6, 7, 8, 9, 12}));
}

TEST(HardwarePlan, AFarCandidateThatExplainsNothingIsLeftOut) {
  std::vector<db::MeasurementRecord> records = Records();
  records.push_back(Ok(R"({"A":0,"B":0})", 50));  // a second A=0 B=0 (same values, slower): nothing new
  const auto plan = PlanHardware(records, {}, CounterMode::kExplain, db::Objective::kTime);
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{1, 3, 4, 5}))
      << "the winner and its neighbours";
  EXPECT_EQ(Indices(plan, &HardwareWork::energy), (std::vector<std::size_t>{4}));
}

TEST(HardwarePlan, AValueWithoutANeighbourIsRepresentedByItsFastest) {
  // The winner is A=1 B=1; B=3 exists only with A=0, so its fastest represents it.
  std::vector<db::MeasurementRecord> records = Records();
  records.push_back(Ok(R"({"A":0,"B":3})", 9));
  records.push_back(Ok(R"({"A":0,"B":3})", 8));
  const auto plan = PlanHardware(records, {}, CounterMode::kExplain, db::Objective::kTime);
  EXPECT_EQ(Indices(plan, &HardwareWork::counters), (std::vector<std::size_t>{1, 3, 4, 5, 8}));
}

TEST(HardwarePlan, NoCorrectCandidateMeansNoWork) {
  std::vector<db::MeasurementRecord> records = Records();
  for (auto& r : records) r.status = CandidateStatus::kWrongResult;
  EXPECT_TRUE(PlanHardware(records, kLeaderIdentities, CounterMode::kWinner, db::Objective::kTime).empty());
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
  EXPECT_EQ(ParseCounterMode("winner"), CounterMode::kWinner);
  EXPECT_EQ(ParseCounterMode("explain"), CounterMode::kExplain);
  EXPECT_EQ(ParseCounterMode("off"), CounterMode::kOff);
  for (const char* bad : {"", "ALL", "on", "leader", "leaders", "Winner"}) {
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
