#include "db/objective.h"

#include <gtest/gtest.h>

#include "base/errors.h"

namespace tuner::db {
namespace {

MeasurementRecord Record(const std::string& params, double time_ms, double energy_j, const std::string& status = "ok") {
  MeasurementRecord r;
  r.params_json = params;
  r.status = CandidateStatusFromText(status);
  r.time_ms_median = time_ms;
  r.energy_j = energy_j;
  r.perf_value = 1000;  // GB/s
  r.perf_unit = "GB/s";
  return r;
}

const std::vector<MeasurementRecord> kRecords = {Record("fast", 1.0, 0.50),    // EDP 0.50e-3
                                                 Record("frugal", 1.5, 0.30),  // EDP 0.45e-3
                                                 Record("fastest_unmeasured", 0.9, 0),
                                                 Record("wrong", 0.1, 0.01, "wrong_result")};

TEST(Objective, TimeEnergyAndTheirProduct) {
  EXPECT_EQ(BestBy(kRecords, Objective::kTime)->params_json, "fastest_unmeasured");
  EXPECT_EQ(BestBy(kRecords, Objective::kEnergy)->params_json, "frugal");
  EXPECT_EQ(BestBy(kRecords, Objective::kEdp)->params_json, "frugal");
  EXPECT_DOUBLE_EQ(*ObjectiveValue(kRecords[0], Objective::kEdp), 0.5 * 1.0e-3);
}

TEST(Objective, WithoutEnergyTheEnergyObjectivesHaveNoBest) {
  EXPECT_FALSE(BestBy({Record("a", 1, 0)}, Objective::kEnergy));
  EXPECT_FALSE(ObjectiveValue(kRecords[3], Objective::kTime)) << "only ok counts";
}

TEST(Objective, WorkPerJoule) {
  EXPECT_DOUBLE_EQ(PerfPerJoule(kRecords[0]), 1000 * 1.0e-3 / 0.5);  // 1 GB per launch over 0.5 J
  EXPECT_DOUBLE_EQ(PerfPerJoule(kRecords[2]), 0);
  EXPECT_EQ(PerJouleUnit("GB/s"), "GB/J");
  EXPECT_EQ(PerJouleUnit("GFLOP/s"), "GFLOP/J");
}

TEST(Objective, NamesAreSpelledExactly) {
  for (Objective o : {Objective::kTime, Objective::kEnergy, Objective::kEdp}) EXPECT_EQ(ParseObjective(ToString(o)), o);
  try {
    ParseObjective("power");
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--objective 'power' is not one of time, energy, edp");
  }
}

}  // namespace
}  // namespace tuner::db
