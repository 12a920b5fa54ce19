// How a sweep times its candidates after their first measurement. A planned sweep measures every
// candidate with a one-launch estimate first; the second pass times properly only those close to
// the best (or so short that timing them costs nothing): the others cannot win, and a far slower
// kernel would spend most of the sweep's GPU time. Then the few fastest (sweep/leaders.h, InTurns:
// the three fastest and any other that may tie with the fastest) are timed again in turns
// (A B C A B C ...), so that a drift of clocks or a neighbour on the GPU during the sweep cannot
// decide the winner.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sweep/candidate_measurer.h"
#include "sweep/leaders.h"
#include "sweep/stored_candidates.h"
#include "sweep/sweep_ledger.h"

namespace tuner {

// The entries of a first pass's estimates that the second pass times properly.
std::vector<std::size_t> CloseToBest(const std::vector<db::MeasurementRecord>& estimates);

// The reason of a leader whose median and spread now come from the rounds in turns alone.
std::string ConfirmedReason(int rounds, int own_samples);

class TimingPlan {
 public:
  // Measures and enters the candidate of these parameters, a leader that this run has not measured
  // (stored, or measured on another card of the model); false when the sweep stopped.
  using MeasureLeader = std::function<bool(const std::string& params_json)>;

  struct Parts {
    SweepLedger& ledger;
    CandidateMeasurer& measurer;
    WorkerClient& worker;
    const CandidatePipeline& pipeline;
    const CandidateRecords& records;
    const StoredCandidates& stored;
    const LeaderExchange& exchange;  // empty unless several cards of one model share the sweep
    const SweepStop& stop;
    SweepClock& clock;
  };

  TimingPlan(const Parts& parts, MeasureLeader measure_leader)
      : parts_(parts), measure_leader_(std::move(measure_leader)) {}

  // The second pass of a planned sweep, until the sweep stops or `out_of_time` says so.
  void TimeCloseCandidates(const std::function<bool()>& out_of_time);

  // A candidate timed alone may be faster than a leader's time in turns: the new fastest are timed
  // in turns again, a few times at most (once with several cards, which hand in their leaders
  // together).
  void ConfirmLeaders();

  // The throttle accounting of the leaders' rounds in turns.
  const ThrottleCount& throttle() const { return throttle_; }
  // The launches each sample of a leader's rounds in turns timed together (by params_json).
  const std::map<std::string, int>& launches_per_sample() const { return launches_per_sample_; }

 private:
  bool ConfirmLeadersOnce();
  std::vector<Leader> LeadersToTime() const;
  std::vector<std::size_t> MeasuredHere(const std::vector<Leader>& leaders);
  bool TimeInTurns(const std::vector<std::size_t>& entries);
  bool FastestAreConfirmed() const;

  Parts parts_;
  MeasureLeader measure_leader_;
  ThrottleCount throttle_;
  std::map<std::string, int> launches_per_sample_;
};

}  // namespace tuner
