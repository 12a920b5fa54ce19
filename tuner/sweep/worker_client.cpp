#include "sweep/worker_client.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <stdexcept>

#include "base/default_paths.h"
#include "common/still_notice.h"
#include "expression/expression.h"

namespace tuner {

WorkerClient::WorkerClient(const std::string& executable, std::function<SetupRequest()> make_setup, std::string what,
                           SweepClock& clock, const SweepStop& stop, std::function<bool()> wants_profiler,
                           double reference_timeout_s)
    : executable_(executable.empty() ? SelfExecutable() : executable),
      make_setup_(std::move(make_setup)),
      what_(std::move(what)),
      wants_profiler_(std::move(wants_profiler)),
      reference_timeout_s_(reference_timeout_s),
      clock_(clock),
      stop_(stop) {}

void WorkerClient::Stop() {
  const auto stopping = clock_.Time(SweepClock::Part::kWaiting);
  process_.reset();
}

void WorkerClient::Kill() {
  if (process_) process_->Kill();
}

bool WorkerClient::EnsureRunning() {
  if (process_ && process_->Alive()) return true;
  {
    const auto starting = clock_.Time(SweepClock::Part::kWaiting);
    process_ = std::make_unique<WorkerProcess>(executable_, std::vector<std::string>{"__worker"});
    ++starts_;
  }
  if (!setup_) {
    const auto compiling = clock_.Time(SweepClock::Part::kCompile);  // the reference kernel
    setup_ = make_setup_();
  }
  slow_phase_ = "setting up its buffers and data on the GPU";
  const WorkerAnswer<Done> setup = Call(*setup_, kSetupTimeoutS);
  slow_phase_.clear();
  if (setup.outcome == WorkerProcess::Outcome::kInterrupted) return false;
  if (!setup.body) throw std::runtime_error("the GPU worker could not set up " + what_ + ": " + setup.failure);
  if (wants_profiler_ && wants_profiler_())
    Call(PrepareProfilerRequest{}, kSetupTimeoutS);  // a failure shows at the first profile
  references_.clear();
  ReferenceRequest setup_reference;  // its launch is the setup's
  setup_reference.group = setup_->reference_group;
  setup_reference.label = setup_->reference_label;
  RunReference(setup_reference);
  return !stop_.Requested();
}

bool WorkerClient::EnsureReference(const std::string& group, const std::function<ReferenceRequest()>& make) {
  if (stop_.Requested() || !EnsureRunning()) return false;
  if (references_.count(group)) return true;
  ReferenceRequest request;
  {
    const auto compiling = clock_.Time(SweepClock::Part::kCompile);
    request = make();
  }
  RunReference(request);
  return !stop_.Requested();
}

void WorkerClient::RunReference(const ReferenceRequest& request) {
  const std::string reference = request.label.empty() ? "the reference" : request.label;
  slow_phase_ = "running " + reference;
  const WorkerAnswer<Done> done = Call(request, reference_timeout_s_);
  slow_phase_.clear();
  if (done.body) {
    references_.insert(request.group);
    slowest_reference_s_ = std::max(slowest_reference_s_, done.worker_s);
  }
  if (done.outcome == WorkerProcess::Outcome::kTimedOut)
    throw std::runtime_error(reference + " of " + what_ + " ran past its time limit of " +
                             FormatNumber(reference_timeout_s_) + " s" +
                             " and was stopped; if it needs longer, raise the limit with tune --reference-timeout");
  if (done.outcome != WorkerProcess::Outcome::kInterrupted && !done.body)
    throw std::runtime_error(reference + " of " + what_ + " could not run: " + done.failure);
}

WorkerProcess::Reply WorkerClient::Send(const WorkerRequest& request, double timeout_s) {
  StillNotice notice("tuner tune: " + what_);
  return process_->Call(ToJson(request), timeout_s, [&] {
    if (!slow_phase_.empty()) notice.Tick([&] { return slow_phase_; });
    return stop_.Requested();
  });
}

void WorkerClient::Account(SweepClock::Clock::time_point start, double worker_s) {
  clock_.AddWorkerCall(SweepClock::SecondsSince(start), worker_s);
}

}  // namespace tuner
