#include "sweep/candidate_deadline.h"

#include <algorithm>

#include "measure/sampling_policy.h"

namespace tuner {

void CandidateDeadline::Answered(double worker_s) { slowest_answer_s_ = std::max(slowest_answer_s_, worker_s); }

double CandidateDeadline::GenerousS(double best_ms) const {
  constexpr double kSlowerThanBest = 20;
  return std::max(floor_s_, 1.0 + best_ms * 1e-3 * kSlowerThanBest * SamplingPolicy{}.max_samples);
}

double CandidateDeadline::MeasureS(double best_ms) const {
  const double generous = GenerousS(best_ms);
  if (!tightens_ || !(slowest_answer_s_ > 0)) return generous;
  constexpr double kLeastS = 2, kSlowestAnswers = 3, kBestTimes = 1000;
  // A candidate far slower than the best gets one sample (SamplingPolicy::far_slower) after its
  // checked launch: a thousand best times leave room for a few launches of one 100 times slower.
  // Before any best time, the reference's answer gives the scale, and the sampling its time cap.
  const double by_best = best_ms > 0 ? 1.0 + best_ms * 1e-3 * kBestTimes
                                     : kSlowestAnswers * slowest_answer_s_ + SamplingPolicy{}.time_cap_ms * 1e-3;
  return std::min(generous, std::max({kLeastS, kSlowestAnswers * slowest_answer_s_, by_best}));
}

}  // namespace tuner
