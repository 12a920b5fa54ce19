// One candidate measured on the worker and made its record. A candidate that kills its worker (a
// fault or a hang) is tried once more with a fresh one, since the fault may have been the GPU's,
// not the kernel's; each kill is committed before the retry, so that a crash of the tuner itself
// during the retry still counts it, and a candidate that killed two workers is not tried again.
#pragma once

#include <functional>
#include <optional>

#include "db/query/records.h"
#include "sweep/candidate_pipeline.h"
#include "sweep/candidate_record.h"
#include "sweep/sweep_stop.h"
#include "sweep/worker_client.h"

namespace tuner {

class CandidateMeasurer {
 public:
  using Commit = std::function<void(const db::MeasurementRecord&)>;
  // `commit` stores a kill's record before the retry. A candidate's deadline is never shorter than
  // `timeout_floor_s`.
  CandidateMeasurer(WorkerClient& worker, const CandidatePipeline& pipeline, const CandidateRecords& records,
                    const SweepStop& stop, Commit commit, double timeout_floor_s);

  // The record of `compiled`; none when the sweep stopped meanwhile (nothing of it is stored then).
  // `kills`: the workers it killed before (stored by an earlier run).
  std::optional<db::MeasurementRecord> Measure(const Compiled& compiled, bool estimate_only, int kills);

  // How long a request about a candidate may take: loading, checking and the most samples of one
  // far slower than the best so far.
  double CandidateTimeoutS() const;
  double best_ms() const { return best_ms_; }

 private:
  std::optional<db::MeasurementRecord> MeasureOnce(const Compiled& compiled, bool estimate_only);
  void TakeReply(const MeasureReply& reply, const Compiled& compiled, db::MeasurementRecord& record);

  WorkerClient& worker_;
  const CandidatePipeline& pipeline_;
  const CandidateRecords& records_;
  const SweepStop& stop_;
  Commit commit_;
  double timeout_floor_s_;
  double best_ms_ = 0;  // the best median so far, this run's
};

}  // namespace tuner
