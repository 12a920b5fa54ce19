// The hidden `tuner __worker` command: the process that drives one GPU for a sweep. It reads one
// JSON request per line on stdin and answers one JSON line on stdout. After a fault the CUDA
// context is lost, so it answers and exits; the supervisor starts a new one.
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

using nlohmann::json;

// Whether the context is lost: a sticky error, or one that is still reported once the last error
// has been cleared.
bool ContextLost(cudaError_t code) {
  if (IsStickyError(code)) return true;
  cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

// `idle_ms`: since the previous request was answered (the GPU had nothing to do).
json Handle(const json& request, std::unique_ptr<GpuSession>& session, HardwareProfiler& profiler, double idle_ms) {
  const std::string op = request.at("op");
  if (op == "setup") {
    session.reset();
    session = std::make_unique<GpuSession>(SetupFromJson(request));
    return {{"ok", true}};
  }
  if (!session) return {{"ok", false}, {"error", "the worker has not been set up"}};
  if (op == "warm_up") {
    session->WarmUpClocks();
    return {{"ok", true}};
  }
  if (op == "copy_bandwidth") return {{"ok", true}, {"gbps", session->CopyBandwidthGbps(request.at("bytes"))}};
  if (op == "interleave") {
    std::vector<KernelLaunch> launches;
    for (const json& launch : request.at("launches")) launches.push_back(LaunchFromJson(launch));
    return session->Interleave(launches, request.at("rounds"));
  }
  if (op == "pipeline_stages") return session->PipelineStages(LaunchFromJson(request.at("launch")));
  if (op == "prepare_profiler") {
    profiler.Prepare(request.at("gpu"));
    return {{"ok", true}};
  }
  if (op == "profile") return profiler.Profile(*session, ProfileFromJson(request), idle_ms);
  if (op == "measure") {
    json reply = session->Measure(MeasureFromJson(request));
    reply["ok"] = true;
    return reply;
  }
  return {{"ok", false}, {"error", "unknown request '" + op + "'"}};
}

}  // namespace

int RunWorker(int, char**) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the supervisor
  std::unique_ptr<GpuSession> session;
  HardwareProfiler profiler;
  auto answered = std::chrono::steady_clock::now();
  for (std::string line; std::getline(std::cin, line);) {
    const auto start = std::chrono::steady_clock::now();
    json request, reply;
    bool fatal = false;
    try {
      request = json::parse(line);
      if (request.value("op", "") == "quit") break;
      reply = Handle(request, session, profiler, std::chrono::duration<double, std::milli>(start - answered).count());
    } catch (const CudaError& e) {
      fatal = ContextLost(e.code);
      const bool measuring = request.value("op", "") == "measure";
      reply = {{"ok", measuring}, {"status", fatal ? "fault" : "launch_error"}, {"reason", e.what()}, {"error", e.what()}};
    } catch (const std::exception& e) {
      reply = {{"ok", false}, {"error", e.what()}};
    }
    reply[kWorkerSecondsKey] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << reply.dump() << "\n" << std::flush;
    answered = std::chrono::steady_clock::now();
    if (fatal) _exit(1);  // the context is lost; skip destructors that would touch it
  }
  return 0;
}

}  // namespace tuner
