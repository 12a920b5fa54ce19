// The hidden `tuner __worker` command: the process that drives one GPU for a sweep. It reads one
// request per line on stdin and answers one line on stdout (worker_protocol.h); it ends when its
// stdin closes. After a fault the CUDA context is lost, so it answers and exits; the supervisor
// starts a new one.
#include "measure/worker.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <iostream>
#include <memory>

#include "measure/gpu_session.h"
#include "measure/hardware_profiler.h"
#include "measure/worker_protocol.h"

namespace tuner {

namespace {

using Clock = std::chrono::steady_clock;

// Whether the context is lost: a sticky error, or one that is still reported once the last error
// has been cleared.
bool ContextLost(cudaError_t code) {
  if (IsStickyError(code)) return true;
  cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

// The worker between requests: the session of the last setup, CUPTI and NVML once loaded, when it
// last answered, and whether the context is lost.
class Worker {
 public:
  // The reply line to one request line.
  std::string Answer(const std::string& line);
  bool context_lost() const { return context_lost_; }

 private:
  WorkerReplyBody Handle(const SetupRequest& request);
  WorkerReplyBody Handle(const ReferenceRequest& request);
  WorkerReplyBody Handle(const WarmUpRequest&);
  WorkerReplyBody Handle(const CopyBandwidthRequest& request);
  WorkerReplyBody Handle(const MeasureRequest& request);
  WorkerReplyBody Handle(const InterleaveRequest& request);
  WorkerReplyBody Handle(const PipelineStagesRequest& request);
  WorkerReplyBody Handle(const PrepareProfilerRequest&);
  WorkerReplyBody Handle(const ProfileRequest& request);
  GpuSession& Session();

  std::unique_ptr<GpuSession> session_;
  HardwareProfiler profiler_;
  Clock::time_point answered_ = Clock::now();
  double idle_ms_ = 0;  // before the request in hand: since the previous one was answered (the GPU had nothing to do)
  bool context_lost_ = false;
};

std::string Worker::Answer(const std::string& line) {
  const auto start = Clock::now();
  idle_ms_ = std::chrono::duration<double, std::milli>(start - answered_).count();
  const auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::string reply;
  try {
    const WorkerRequest request = ParseRequest(line);
    const WorkerReplyBody body = std::visit([this](const auto& r) { return Handle(r); }, request);
    reply = ReplyLine(body, seconds());
  } catch (const CudaError& e) {
    context_lost_ = ContextLost(e.code);
    reply = FailureLine(e.what(), seconds());
  } catch (const std::exception& e) {
    reply = FailureLine(e.what(), seconds());
  }
  answered_ = Clock::now();
  return reply;
}

GpuSession& Worker::Session() {
  if (!session_) throw std::runtime_error("the worker has not been set up");
  return *session_;
}

WorkerReplyBody Worker::Handle(const SetupRequest& request) {
  session_.reset();
  session_ = std::make_unique<GpuSession>(request);
  return Done{};
}

WorkerReplyBody Worker::Handle(const ReferenceRequest& request) {
  Session().RunReference(request);
  return Done{};
}

WorkerReplyBody Worker::Handle(const WarmUpRequest&) {
  Session().WarmUpClocks();
  return Done{};
}

WorkerReplyBody Worker::Handle(const CopyBandwidthRequest& request) {
  return CopyBandwidthReply{Session().CopyBandwidthGbps(request.bytes)};
}

// A CUDA error of the candidate is its result: a fault (the context is lost) or a launch error.
WorkerReplyBody Worker::Handle(const MeasureRequest& request) {
  GpuSession& session = Session();
  try {
    return session.Measure(request);
  } catch (const CudaError& e) {
    context_lost_ = ContextLost(e.code);
    MeasureReply reply;
    reply.status = context_lost_ ? CandidateStatus::kFault : CandidateStatus::kLaunchError;
    reply.reason = e.what();
    return reply;
  }
}

WorkerReplyBody Worker::Handle(const InterleaveRequest& request) {
  return Session().Interleave(request.launches, request.rounds);
}

WorkerReplyBody Worker::Handle(const PipelineStagesRequest& request) {
  return Session().PipelineStages(request.launch);
}

WorkerReplyBody Worker::Handle(const PrepareProfilerRequest&) {
  profiler_.Prepare(Session().gpu(), Session().uuid());
  return Done{};
}

WorkerReplyBody Worker::Handle(const ProfileRequest& request) {
  return profiler_.Profile(Session(), request, idle_ms_);
}

}  // namespace

int RunWorker(int, char**) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the supervisor
  Worker worker;
  for (std::string line; std::getline(std::cin, line);) {
    std::cout << worker.Answer(line) << "\n" << std::flush;
    if (worker.context_lost()) _exit(1);  // skip destructors that would touch the lost context
  }
  return 0;
}

}  // namespace tuner
