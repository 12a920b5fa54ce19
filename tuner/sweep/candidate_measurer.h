// One candidate measured on the worker and made its record. A candidate that kills its worker (a
// fault or a hang) is tried once more with a fresh one, since the fault may have been the GPU's,
// not the kernel's; each kill is committed before the retry, so that a crash of the tuner itself
// during the retry still counts it, and a candidate that killed two workers is not tried again.
// A hang of a worker that had answered a candidate before, when a fresh worker sets up after it
// (its reference kernel runs), was the candidate's: it is final at once (kMaxWorkerKills), not
// paid for twice. Deadlines: sweep/candidate_deadline.h.
#pragma once

#include <functional>
#include <map>
#include <optional>

#include "db/query/records.h"
#include "sweep/candidate_deadline.h"
#include "sweep/candidate_pipeline.h"
#include "sweep/candidate_record.h"
#include "sweep/sweep_stop.h"
#include "sweep/worker_client.h"

namespace tuner {

class CandidateMeasurer {
 public:
  using Commit = std::function<void(const db::MeasurementRecord&)>;
  // `commit` stores a kill's record before the retry. A candidate's deadline is `timeout_floor_s`
  // until one answered; then it tightens where kernels take milliseconds unless `tightens` is false.
  CandidateMeasurer(WorkerClient& worker, CandidatePipeline& pipeline, const CandidateRecords& records,
                    const SweepStop& stop, Commit commit, double timeout_floor_s, bool tightens = true);

  // The record of `compiled`; none when the sweep stopped meanwhile (nothing of it is stored then).
  // `kills`: the workers it killed before (stored by an earlier run).
  std::optional<db::MeasurementRecord> Measure(const Compiled& compiled, bool estimate_only, int kills);

  // How long a request about a candidate's counters or turns may take: loading, checking and the
  // most samples of one far slower than the best so far (the generous deadline).
  double CandidateTimeoutS() const { return deadline_.GenerousS(best_ms_); }
  double best_ms() const { return best_ms_; }
  // The throttle accounting of every candidate measured so far.
  const ThrottleCount& throttle() const { return throttle_; }
  // The launches each sample of a candidate timed together (by params_json; not stored).
  const std::map<std::string, int>& launches_per_sample() const { return launches_per_sample_; }

 private:
  std::optional<db::MeasurementRecord> MeasureOnce(const Compiled& compiled, bool estimate_only);
  void TakeReply(const MeasureReply& reply, const Compiled& compiled, db::MeasurementRecord& record);
  bool HangWasTheCandidates();

  WorkerClient& worker_;
  CandidatePipeline& pipeline_;
  const CandidateRecords& records_;
  const SweepStop& stop_;
  Commit commit_;
  CandidateDeadline deadline_;
  double best_ms_ = 0;                  // the best median so far, this run's
  int answered_by_worker_ = -1;         // WorkerClient::starts() of the worker that answered last
  bool hung_answering_worker_ = false;  // the last request hung a worker that had answered before
  ThrottleCount throttle_;
  std::map<std::string, int> launches_per_sample_;
};

}  // namespace tuner
