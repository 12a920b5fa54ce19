// A sweep's tie (sweep/sweep_tie.h): among this run's leaders timed in turns, the rule's choice is
// stamped on the members with their place in the template's order; leaders not timed in turns by
// this run, or told apart, make none.
#include "sweep/sweep_tie.h"

#include <gtest/gtest.h>

#include "db_test_util.h"
#include "sweep/timing_plan.h"

namespace tuner {
namespace {

std::vector<ParamValues> Enumeration() {
  std::vector<ParamValues> all;
  for (long long tile : {8, 16, 32, 64}) all.push_back({{"TILE", tile}, {"ROWS", 4}});
  return all;
}

// TILE `tile` timed in turns: median `time_ms`, spread 2%, `regs` registers.
db::MeasurementRecord Confirmed(long long tile, double time_ms, int regs) {
  db::MeasurementRecord r = db::testing::SampleMeasurement(static_cast<int>(tile), time_ms);
  r.params_json = ParamsJson({{"TILE", tile}, {"ROWS", 4}});
  r.time_ms_spread = 0.02;
  r.regs_per_thread = regs;
  r.reason = ConfirmedReason(10, 20);
  return r;
}

std::vector<Leader> LeadersOf(const std::vector<db::MeasurementRecord>& records) {
  return FastestLeaders(records, {}, kLeaders);
}

TEST(SweepTie, TheRulesChoiceIsStampedOnTheMembers) {
  // 64 is the fastest, 16 and 32 within the noise; equal registers and shared memory for 16 and 32:
  // the template's order picks 16.
  const std::vector<db::MeasurementRecord> measured = {Confirmed(8, 2.0, 16), Confirmed(16, 1.01, 32),
                                                       Confirmed(32, 1.02, 32), Confirmed(64, 1.0, 40)};
  const auto stamped = StampedTie(measured, LeadersOf(measured), Enumeration());
  ASSERT_EQ(stamped.size(), 3u);
  EXPECT_EQ(stamped[0].first, 1u);  // the entry of TILE 16 in `measured`
  EXPECT_EQ(stamped[0].second.tie_rank, 1);
  EXPECT_DOUBLE_EQ(stamped[0].second.tie_ms, 1.0);
  EXPECT_EQ(stamped[1].first, 2u);
  EXPECT_EQ(stamped[2].first, 3u);
  EXPECT_EQ(stamped[2].second.tie_rank, 3);
}

TEST(SweepTie, NoTieWithoutLeadersTimedInTurnsOrWithinNoise) {
  std::vector<db::MeasurementRecord> measured = {Confirmed(16, 1.01, 32), Confirmed(64, 1.0, 40)};
  measured[0].reason = "";  // timed alone: not compared with the others
  EXPECT_TRUE(StampedTie(measured, LeadersOf(measured), Enumeration()).empty());
  const std::vector<db::MeasurementRecord> apart = {Confirmed(16, 1.2, 32), Confirmed(64, 1.0, 40)};
  EXPECT_TRUE(StampedTie(apart, LeadersOf(apart), Enumeration()).empty());
}

TEST(SweepTie, ALeaderNotTimedInTurnsStaysOutOfTheTieUnlessItIsFaster) {
  // TILE 8 became a leader only through the times in turns (timed alone): the tie of 16, 32 and 64
  // stands without it while it is slower, and none is made once it is the fastest.
  std::vector<db::MeasurementRecord> measured = {Confirmed(8, 1.015, 16), Confirmed(16, 1.01, 32),
                                                 Confirmed(32, 1.02, 32), Confirmed(64, 1.0, 40)};
  measured[0].reason = "";
  const std::vector<Leader> leaders = InTurns(FastestLeaders(measured, {}, kMostLeadersInTurns));
  const auto stamped = StampedTie(measured, leaders, Enumeration());
  ASSERT_EQ(stamped.size(), 3u);
  for (const auto& [entry, member] : stamped) EXPECT_NE(entry, 0u) << member.params_json;
  measured[0].time_ms_median = 0.9;
  EXPECT_TRUE(StampedTie(measured, InTurns(FastestLeaders(measured, {}, kMostLeadersInTurns)), Enumeration()).empty());
}

}  // namespace
}  // namespace tuner
