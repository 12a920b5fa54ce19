#include "measure/hardware_profiler.h"

#include <chrono>

#include "cuda/gpu_handles.h"
#include "profilers/metric_set.h"

namespace tuner {

namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The indices of the candidates that asked for `what`.
std::vector<std::size_t> Asking(const ProfileRequest& request, bool ProfileCandidate::*what) {
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < request.candidates.size(); ++i)
    if (request.candidates[i].*what) indices.push_back(i);
  return indices;
}

std::vector<KernelLaunch> LaunchesOf(const ProfileRequest& request, const std::vector<std::size_t>& indices) {
  std::vector<KernelLaunch> launches;
  for (std::size_t i : indices) launches.push_back(request.candidates[i].launch);
  return launches;
}

// Each asking candidate's result says why `what` cannot be measured in this process.
void MarkUnavailable(ProfileReply& reply, const std::vector<std::size_t>& asking, std::string ProfileResult::*what,
                     const std::string& reason) {
  for (std::size_t i : asking) reply.results[i].*what = reason;
}

}  // namespace

void HardwareProfiler::Prepare(int gpu, const std::string& uuid) {
  if (!counting_.profiler && !preparing_counting_.valid() && counters_unavailable_.empty()) {
    const CUcontext context = RangeProfiler::CurrentContext();
    preparing_counting_ = std::async(std::launch::async, [gpu, context] { return StartCounting(gpu, context); });
  }
  if (!energy_ && !preparing_energy_.valid() && energy_unavailable_.empty())
    preparing_energy_ = std::async(std::launch::async, [uuid] { return std::make_unique<EnergyMeter>(uuid); });
}

HardwareProfiler::Counting HardwareProfiler::StartCounting(int gpu, CUcontext context) {
  Counting counting;
  counting.cupti = std::make_unique<CuptiApi>(LoadCupti());
  counting.profiler = std::make_unique<RangeProfiler>(*counting.cupti, gpu, context, RawMetrics());
  return counting;
}

RangeProfiler& HardwareProfiler::Profiler(int gpu) {
  if (preparing_counting_.valid()) counting_ = preparing_counting_.get();  // rethrows what the background threw
  if (!counting_.profiler) counting_ = StartCounting(gpu, RangeProfiler::CurrentContext());
  return *counting_.profiler;
}

EnergyMeter& HardwareProfiler::Meter(const std::string& uuid) {
  if (preparing_energy_.valid()) energy_ = preparing_energy_.get();  // rethrows what the background threw
  if (!energy_) energy_ = std::make_unique<EnergyMeter>(uuid);
  return *energy_;
}

ProfileReply HardwareProfiler::Profile(GpuSession& session, const ProfileRequest& request, double idle_ms) {
  ProfileReply reply;
  reply.results.resize(request.candidates.size());
  const bool counted = !Asking(request, &ProfileCandidate::counters).empty();
  Counters(session, request, reply);
  Energy(session, request, counted ? 0 : idle_ms, reply);  // the counters' replays kept the GPU busy
  return reply;
}

// One session for every candidate that asked: each its own range, the metrics' passes replayed once.
void HardwareProfiler::Counters(GpuSession& session, const ProfileRequest& request, ProfileReply& reply) {
  const std::vector<std::size_t> asking = Asking(request, &ProfileCandidate::counters);
  if (asking.empty()) return;
  if (!counters_unavailable_.empty())
    return MarkUnavailable(reply, asking, &ProfileResult::counters_unavailable, counters_unavailable_);
  // A refusal (no CUPTI, no permission, an unsupported GPU) holds for the whole process.
  try {
    const auto setup = Clock::now();
    RangeProfiler& profiler = Profiler(session.gpu());
    reply.timing_ms["counters_setup"] = MsSince(setup);
    const auto start = Clock::now();
    std::vector<std::map<std::string, double>> raw;
    session.WithCandidates(LaunchesOf(request, asking), [&](const auto& prepare, const auto& launch) {
      reply.timing_ms["counters_load"] = MsSince(start);
      raw = profiler.Profile(asking.size(), prepare, launch);
    });
    reply.timing_ms["counters"] = MsSince(start);
    for (const auto& [part, ms] : profiler.timing_ms()) reply.timing_ms["counters_" + part] = ms;
    for (std::size_t j = 0; j < asking.size(); ++j) {
      nlohmann::json counters = DeriveCounters(raw[j]);
      counters["passes"] = profiler.passes();
      reply.results[asking[j]].counters_json = counters.dump();
    }
  } catch (const CuptiError& e) {
    counting_.profiler.reset();
    counters_unavailable_ = e.what();
    MarkUnavailable(reply, asking, &ProfileResult::counters_unavailable, counters_unavailable_);
  }
}

// Chained windows for every candidate that asked, a few batches queued so the GPU never waits.
void HardwareProfiler::Energy(GpuSession& session, const ProfileRequest& request, double idle_ms, ProfileReply& reply) {
  const std::vector<std::size_t> asking = Asking(request, &ProfileCandidate::energy);
  if (asking.empty()) return;
  if (!energy_unavailable_.empty())
    return MarkUnavailable(reply, asking, &ProfileResult::energy_unavailable, energy_unavailable_);
  try {
    const auto setup = Clock::now();
    EnergyMeter& meter = Meter(session.uuid());
    reply.timing_ms["energy_setup"] = MsSince(setup);
    const auto start = Clock::now();
    std::vector<double> launch_ms;
    for (std::size_t i : asking) launch_ms.push_back(request.candidates[i].launch_ms);
    std::vector<EnergyReading> readings;
    session.WithCandidates(LaunchesOf(request, asking), [&](const auto& prepare, const auto& launch) {
      // One event per queued batch, reused round the ring: a batch's event is waited for before the
      // ring comes back to it (BatchQueue's contract).
      std::vector<Event> done;
      for (std::size_t i = 0; i < kMostBatchesQueued; ++i) done.push_back(MakeEvent());
      std::size_t batches = 0;
      const BatchQueue queue{
          [&](std::size_t kernel, long long launches) {
            for (long long n = 0; n < launches; ++n) launch(kernel);
            TUNER_CUDA_CHECK(cudaEventRecord(done[batches++ % done.size()].get()));
          },
          [&](std::size_t unfinished) {
            if (batches > unfinished)
              TUNER_CUDA_CHECK(cudaEventSynchronize(done[(batches - 1 - unfinished) % done.size()].get()));
          }};
      prepare();
      readings = meter.Measure(queue, launch_ms, idle_ms);
    });
    reply.timing_ms["energy"] = MsSince(start);
    for (std::size_t j = 0; j < asking.size(); ++j) {
      const EnergyReading& r = readings[j];
      reply.results[asking[j]].energy = EnergyUse{r.joules_per_launch, r.power_w, r.launch_ms};
    }
  } catch (const NvmlError& e) {
    energy_unavailable_ = e.what();
    MarkUnavailable(reply, asking, &ProfileResult::energy_unavailable, energy_unavailable_);
  }
}

}  // namespace tuner
