// The supervisor's side of one GPU's worker process (`tuner __worker`): started when a request
// needs it and set up first (buffers, reference), asked typed requests (measure/worker_protocol.h)
// under a deadline, killed when it hangs or the sweep stops, and started again by the next request
// after it died. Every call's time goes to the sweep's clock: the worker's own seconds are GPU
// work, the rest (starting it, pipes, a hang) waiting.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "common/worker_process.h"
#include "measure/worker_protocol.h"
#include "sweep/sweep_stop.h"
#include "sweep/sweep_time.h"

namespace tuner {

// The longest a setup (buffers, data files) or a request about the GPU may take.
constexpr double kSetupTimeoutS = 300;
// The longest the reference kernel may run by default (tune --reference-timeout).
constexpr double kReferenceTimeoutS = 120;

// A call's outcome: the reply's body when the worker did the request, else why not.
template <class Body>
struct WorkerAnswer {
  WorkerProcess::Outcome outcome = WorkerProcess::Outcome::kDied;
  std::optional<Body> body;  // replied and done
  std::string failure;       // otherwise: the worker's error, or how it died, hung or was stopped
  double worker_s = 0;       // the worker's own time for the request, when it replied
};

class WorkerClient {
 public:
  // `executable`: the tuner binary ("" for this process's own). `make_setup` is called at the first
  // start only (it compiles the reference kernel; its time counts as compile); `what` names the
  // template in the error of a worker that cannot be set up. A worker whose start `wants_profiler`
  // says so builds CUPTI's configuration in the background from its setup on.
  WorkerClient(const std::string& executable, std::function<SetupRequest()> make_setup, std::string what,
               SweepClock& clock, const SweepStop& stop, std::function<bool()> wants_profiler = {},
               double reference_timeout_s = kReferenceTimeoutS);

  // Starts and sets up a worker first unless one is running. kInterrupted when the sweep stopped
  // (the worker is killed then); throws when a worker cannot be set up.
  template <class Request>
  WorkerAnswer<typename Request::Reply> Call(const Request& request, double timeout_s);

  // Starts and sets up a worker unless one is running (the setup runs the reference kernel: a
  // worker set up is one the GPU serves); false when the sweep stopped meanwhile, throws when it
  // cannot be set up.
  bool EnsureRunning();
  // Starts and sets up a worker unless one is running, then has it run the reference of `group`
  // unless it has (`make` builds that run, compiling the reference: compile time); false when the
  // sweep stopped meanwhile, throws when the reference cannot run.
  bool EnsureReference(const std::string& group, const std::function<ReferenceRequest()>& make);
  // How many workers were started: the number of the one running or last run.
  int starts() const { return starts_; }
  // The worker's time for the slowest reference run so far (0 before any): the scale of a
  // candidate's first measure request, before any candidate has answered.
  double slowest_reference_s() const { return slowest_reference_s_; }

  // After a fault the worker exits by itself; this makes sure before the next start.
  void Kill();
  // At the end of the sweep: the worker ends (counted as waiting).
  void Stop();

 private:
  WorkerProcess::Reply Send(const WorkerRequest& request, double timeout_s);
  // A reference run under its own limit; throws when it fails or hangs.
  void RunReference(const ReferenceRequest& request);
  void Account(SweepClock::Clock::time_point start, double worker_s);

  std::string executable_;
  std::function<SetupRequest()> make_setup_;
  std::optional<SetupRequest> setup_;  // made once: a restarted worker gets the same
  std::string what_;
  std::function<bool()> wants_profiler_;
  double reference_timeout_s_;
  std::string slow_phase_;            // what the worker is doing that is said after 10 s (common/still_notice.h): "" for nothing
  std::set<std::string> references_;  // the groups whose reference the running worker has run
  SweepClock& clock_;
  const SweepStop& stop_;
  std::unique_ptr<WorkerProcess> process_;
  int starts_ = 0;
  double slowest_reference_s_ = 0;
};

template <class Request>
WorkerAnswer<typename Request::Reply> WorkerClient::Call(const Request& request, double timeout_s) {
  using Body = typename Request::Reply;
  if (stop_.Requested() || !EnsureRunning()) return {WorkerProcess::Outcome::kInterrupted, std::nullopt, "interrupted"};
  const auto start = SweepClock::Clock::now();
  const WorkerProcess::Reply raw = Send(request, timeout_s);
  WorkerAnswer<Body> answer{raw.outcome, std::nullopt, raw.detail};
  double worker_s = 0;
  if (raw.outcome == WorkerProcess::Outcome::kReplied) {
    WorkerReply<Body> reply = ReadReply<Body>(raw.body);
    worker_s = reply.worker_s;
    answer.worker_s = worker_s;
    answer.body = std::move(reply.body);
    answer.failure = reply.error;
  }
  Account(start, worker_s);
  return answer;
}

}  // namespace tuner
