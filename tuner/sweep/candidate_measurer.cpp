#include "sweep/candidate_measurer.h"

#include <algorithm>

#include "search/retry_policy.h"

namespace tuner {

CandidateMeasurer::CandidateMeasurer(WorkerClient& worker, CandidatePipeline& pipeline, const CandidateRecords& records,
                                     const SweepStop& stop, Commit commit, double timeout_floor_s, bool tightens)
    : worker_(worker),
      pipeline_(pipeline),
      records_(records),
      stop_(stop),
      commit_(std::move(commit)),
      deadline_(timeout_floor_s, tightens) {}

std::optional<db::MeasurementRecord> CandidateMeasurer::Measure(const Compiled& compiled, bool estimate_only,
                                                                int kills) {
  for (;;) {
    std::optional<db::MeasurementRecord> measured = MeasureOnce(compiled, estimate_only);
    // A worker killed by the stop is not the candidate's fault: nothing is counted or stored.
    if (!measured || stop_.Requested()) return std::nullopt;
    db::MeasurementRecord& record = *measured;
    record.worker_kills = kills;  // kept when the retry passes: the earlier kill stays on record
    if (!KillsWorker(record.status)) {
      if (kills > 0 && IsOk(record.status)) record.reason = "passed after killing its worker once; " + record.reason;
      return measured;
    }
    record.worker_kills = ++kills;
    if (record.status == CandidateStatus::kTimeout && kills < kMaxWorkerKills && HangWasTheCandidates()) {
      record.worker_kills = kMaxWorkerKills;
      record.reason +=
          " (its worker had answered before and a fresh one set up after it: the hang is the "
          "candidate's; not tried again)";
      return measured;
    }
    if (stop_.Requested()) return std::nullopt;
    if (kills >= kMaxWorkerKills) {
      record.reason += " (killed its worker " + std::to_string(kills) + " times; not tried again)";
      return measured;
    }
    commit_(record);
  }
}

// Whether the worker that hung had answered before and a fresh one sets up now (then the retry
// finds it running).
bool CandidateMeasurer::HangWasTheCandidates() {
  return hung_answering_worker_ && !stop_.Requested() && worker_.EnsureRunning();
}

std::optional<db::MeasurementRecord> CandidateMeasurer::MeasureOnce(const Compiled& compiled, bool estimate_only) {
  CandidateRecords::BaseRecord base = records_.Base(compiled);
  db::MeasurementRecord& record = base.record;
  if (!base.for_the_gpu) return record;
  if (stop_.Requested()) return std::nullopt;
  MeasureRequest request;
  request.launch = pipeline_.Launch(compiled);
  request.reference_group = ReferenceGroup(pipeline_.spec(), compiled.params);
  if (!worker_.EnsureReference(request.reference_group, [&] { return pipeline_.ReferenceFor(compiled.params); }))
    return std::nullopt;
  deadline_.Answered(worker_.slowest_reference_s());
  request.best_ms = best_ms_;
  request.estimate_only = estimate_only;
  const WorkerAnswer<MeasureReply> answer = worker_.Call(request, deadline_.MeasureS(best_ms_));
  hung_answering_worker_ =
      answer.outcome == WorkerProcess::Outcome::kTimedOut && answered_by_worker_ == worker_.starts();
  if (answer.outcome == WorkerProcess::Outcome::kReplied) answered_by_worker_ = worker_.starts();
  if (answer.body) deadline_.Answered(answer.worker_s);
  switch (answer.outcome) {
    case WorkerProcess::Outcome::kInterrupted:
      return std::nullopt;
    case WorkerProcess::Outcome::kTimedOut:
      record.status = CandidateStatus::kTimeout;
      record.reason = answer.failure;
      return record;
    case WorkerProcess::Outcome::kDied:
      record.status = CandidateStatus::kFault;
      record.reason = answer.failure;
      return record;
    case WorkerProcess::Outcome::kReplied:
      break;
  }
  if (!answer.body) {  // the worker could not take the candidate up (a file it cannot read, memory)
    record.status = CandidateStatus::kLaunchError;
    record.reason = answer.failure;
    return record;
  }
  TakeReply(*answer.body, compiled, record);
  return record;
}

void CandidateMeasurer::TakeReply(const MeasureReply& reply, const Compiled& compiled, db::MeasurementRecord& record) {
  // The loaded kernel's own attributes are the authority on its resources.
  if (reply.regs_per_thread > 0)
    records_.FillResources(record, compiled, reply.regs_per_thread, reply.static_smem_bytes);
  record.status = reply.status;
  record.reason = reply.reason;
  AddThrottle(throttle_, reply.throttle);
  if (record.status == CandidateStatus::kFault) worker_.Kill();  // it exits by itself; make sure before restarting
  if (!IsOk(record.status)) return;
  record.time_ms_median = reply.time_ms.median;
  record.time_ms_min = reply.time_ms.min;
  record.time_ms_max = reply.time_ms.max;
  record.time_ms_spread = reply.time_ms.spread;
  record.samples = reply.time_ms.count;
  launches_per_sample_[record.params_json] = reply.time_ms.launches_per_sample;
  records_.FillPerformance(record);
  if (best_ms_ == 0 || record.time_ms_median < best_ms_) best_ms_ = record.time_ms_median;
}

}  // namespace tuner
