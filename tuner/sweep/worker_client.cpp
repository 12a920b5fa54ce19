#include "sweep/worker_client.h"

#include <stdexcept>

#include "base/default_paths.h"

namespace tuner {

WorkerClient::WorkerClient(const std::string& executable, std::function<SetupRequest()> make_setup, std::string what,
                           SweepClock& clock, const SweepStop& stop, std::function<bool()> wants_profiler)
    : executable_(executable.empty() ? SelfExecutable() : executable),
      make_setup_(std::move(make_setup)),
      what_(std::move(what)),
      wants_profiler_(std::move(wants_profiler)),
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
  const WorkerAnswer<Done> setup = Call(*setup_, kSetupTimeoutS);
  if (setup.outcome == WorkerProcess::Outcome::kInterrupted) return false;
  if (!setup.body)
    throw std::runtime_error("the GPU worker could not set up " + what_ + " (buffers and reference): " + setup.failure);
  if (wants_profiler_ && wants_profiler_())
    Call(PrepareProfilerRequest{}, kSetupTimeoutS);  // a failure shows at the first profile
  return true;
}

WorkerProcess::Reply WorkerClient::Send(const WorkerRequest& request, double timeout_s) {
  return process_->Call(ToJson(request), timeout_s, [this] { return stop_.Requested(); });
}

void WorkerClient::Account(SweepClock::Clock::time_point start, double worker_s) {
  clock_.AddWorkerCall(SweepClock::SecondsSince(start), worker_s);
}

}  // namespace tuner
