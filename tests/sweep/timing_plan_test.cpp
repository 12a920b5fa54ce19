// The timing plan's choices: which first-pass estimates are timed properly, and the reason a
// leader timed in turns carries.
#include "sweep/timing_plan.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

db::MeasurementRecord Estimate(double time_ms, const std::string& status = "ok") {
  db::MeasurementRecord r;
  r.time_ms_median = time_ms;
  r.status = CandidateStatusFromText(status);
  return r;
}

TEST(TimingPlan, TheSecondPassTimesTheCandidatesCloseToTheBestAndTheCheapOnes) {
  // Best 2 ms: within 1.5x (3 ms) or under 1 ms is timed; a failure never is.
  const std::vector<db::MeasurementRecord> estimates = {
      Estimate(2.0), Estimate(3.0), Estimate(3.1), Estimate(0.5, "wrong_result"), Estimate(9.0), Estimate(2.5)};
  EXPECT_EQ(CloseToBest(estimates), (std::vector<std::size_t>{0, 1, 5}));
  EXPECT_EQ(CloseToBest({Estimate(0.2), Estimate(0.9), Estimate(1.1)}), (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(CloseToBest({Estimate(1, "fault")}).empty());
}

TEST(TimingPlan, ALeaderTimedInTurnsSaysSoAndKeepsItsOwnSamplesInWords) {
  EXPECT_EQ(ConfirmedReason(10, 37),
            "confirmed: median of 10 samples timed in turns with the other leaders (after 37 of its own)");
}

}  // namespace
}  // namespace tuner
