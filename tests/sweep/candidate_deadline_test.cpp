// A candidate's deadline: the floor until a request answered (the reference's too), then tighter
// where kernels take milliseconds, never longer than the generous rule; a floor the user set stays
// a floor. No GPU.
#include "sweep/candidate_deadline.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(CandidateDeadline, TheFloorHoldsUntilARequestAnswered) {
  CandidateDeadline deadline(10, true);
  EXPECT_EQ(deadline.MeasureS(0), 10);
  EXPECT_EQ(deadline.MeasureS(0.5), 10) << "a best time alone, without an answered request";
  deadline.Answered(0);
  EXPECT_EQ(deadline.MeasureS(0), 10) << "no answer yet";
}

// A hang among the first candidates cost the 10 s floor twice; the reference's answer gives the scale.
TEST(CandidateDeadline, BeforeABestTimeTheReferencesAnswerAndTheSamplingCapSetIt) {
  CandidateDeadline deadline(10, true);
  deadline.Answered(0.05);  // the reference: a fast kernel
  EXPECT_EQ(deadline.MeasureS(0), 2) << "3 x 0.05 s + 0.3 s of sampling is under 2 s";
  deadline.Answered(1.2);  // a slow reference (a naive kernel in double)
  EXPECT_DOUBLE_EQ(deadline.MeasureS(0), 3 * 1.2 + 0.3);
  deadline.Answered(5);
  EXPECT_EQ(deadline.MeasureS(0), 10) << "never longer than the generous rule";
}

TEST(CandidateDeadline, MillisecondKernelsGetTwoSeconds) {
  CandidateDeadline deadline(10, true);
  deadline.Answered(0.05);
  deadline.Answered(0.3);
  deadline.Answered(0.1);
  EXPECT_EQ(deadline.MeasureS(0.5), 2) << "3 x 0.3 s and 1 s + 1000 x 0.5 ms are both under 2 s";
  deadline.Answered(1.5);
  EXPECT_DOUBLE_EQ(deadline.MeasureS(0.5), 4.5) << "three times the slowest answer";
  EXPECT_DOUBLE_EQ(deadline.MeasureS(6), 7) << "1 s plus a thousand best times";
}

TEST(CandidateDeadline, NeverLongerThanTheGenerousRule) {
  CandidateDeadline deadline(10, true);
  deadline.Answered(8);
  EXPECT_EQ(deadline.MeasureS(1), 10);
  EXPECT_DOUBLE_EQ(deadline.MeasureS(20), 24) << "three times the slowest answer, under the generous 81 s";
  deadline.Answered(30);
  EXPECT_DOUBLE_EQ(deadline.GenerousS(20), 1 + 20e-3 * 20 * 200) << "20 best times for each of 200 samples";
  EXPECT_DOUBLE_EQ(deadline.MeasureS(20), 81);
}

TEST(CandidateDeadline, AFloorTheUserSetIsKept) {
  CandidateDeadline deadline(10, false);
  deadline.Answered(0.1);
  EXPECT_EQ(deadline.MeasureS(0.5), 10);
  CandidateDeadline short_floor(0.5, true);
  short_floor.Answered(0.01);
  EXPECT_DOUBLE_EQ(short_floor.MeasureS(0.1), 1.4) << "the generous rule's 20 best times per sample, under 2 s";
}

}  // namespace
}  // namespace tuner
