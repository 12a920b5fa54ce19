// The GPU side of a sweep, inside the worker process: the buffers of one problem, the reference
// output, and loading, checking and timing one candidate.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cuda/gpu_handles.h"
#include "measure/gpu_utility_kernels.h"
#include "measure/host_pipeline.h"
#include "measure/input_guard.h"
#include "measure/sampling_policy.h"
#include "measure/throttle_guard.h"
#include "measure/worker_protocol.h"

namespace tuner {

class GpuSession {
 public:
  // Allocates and fills the buffers. Throws when the setup's timing mode batches launches of a
  // kernel whose outputs must be reset before each launch. Candidates are sampled as `policy` says.
  explicit GpuSession(const SetupRequest& setup, const SamplingPolicy& policy = {});

  // Runs a reference (the setup's unless the request names another launch) once and keeps its
  // outputs (or the expected files') as the request's group's, before any candidate of the group.
  // Throws if the reference writes one of its inputs, or its arguments do not fit the kernel.
  void RunReference(const ReferenceRequest& request = {});

  int gpu() const { return gpu_; }
  const std::string& uuid() const { return uuid_; }

  // Status "ok", "wrong_result", "launch_error" or "invalid", with time statistics and the loaded
  // kernel's registers and static shared memory. A sticky CUDA error (a fault) is thrown as
  // CudaError: the process is then unusable and the supervisor restarts it. A candidate that wrote
  // one of its inputs or the reference's outputs (checked after its checked launch and after its
  // samples, never inside one) is wrong_result, and the buffer is written again.
  MeasureReply Measure(const MeasureRequest& request);

  // Times several candidates again in turns (A B C A B C ...), so that a change of clocks or a
  // neighbour on the GPU affects them alike. Throws when one of them wrote an input.
  InterleaveReply Interleave(const std::vector<KernelLaunch>& launches, int rounds);

  // Keeps the memory system busy until the clocks settle (50 to 400 ms): after setup, and before
  // timing again after the GPU sat idle.
  void WarmUpClocks();

  // Device-to-device cudaMemcpy of `bytes`, reported as (read + written bytes) / time in GB/s.
  double CopyBandwidthGbps(std::size_t bytes);

  // A pipeline candidate's copy in, kernel and copy out, each alone on the whole problem: the bound
  // a pipeline's overlap approaches. Throws for a candidate that is no pipeline.
  StageTimes PipelineStages(const KernelLaunch& launch);

  // For counters and energy, never inside a timed sample: loads candidates (already checked) and
  // hands `use` a function that prepares the outputs as before a sample and one that launches
  // candidate i once without waiting. Inputs the launches overwrote are written again afterwards.
  using CandidateUse =
      std::function<void(const std::function<void()>& prepare, const std::function<void(std::size_t)>& launch)>;
  void WithCandidates(const std::vector<KernelLaunch>& launches, const CandidateUse& use);

 private:
  struct Buffer {
    BufferDecl decl;
    DevicePointer device;
    std::string initial;             // host copy of the initial contents, for symbol sources only
    DevicePointer
        initial_device;  // outputs with contents of their own (StartsFromContents), restored before each launch
    std::string reference;           // outputs: the reference result, on the host (for messages)
    DevicePointer reference_device;  // and on the device (for the check)
  };
  struct Loaded {
    Library library;
    cudaKernel_t kernel = nullptr;
  };
  // A launch with its argument array built: timing it does no host work between the events.
  // Move-only, since `args` points into `storage`.
  struct ReadyLaunch {
    cudaKernel_t kernel = nullptr;
    dim3 grid, block;
    std::size_t shared_bytes = 0;
    std::vector<std::uint64_t> storage;
    std::vector<void*> args;
    ReadyLaunch() = default;
    ReadyLaunch(ReadyLaunch&&) = default;
    ReadyLaunch& operator=(ReadyLaunch&&) = default;
    ReadyLaunch(const ReadyLaunch&) = delete;
  };

  void LoadFile(const std::string& path, void* device);
  DevicePointer CopyOnDevice(const void* device, std::size_t bytes);
  std::string TakeExpected(const BufferDecl& decl, const std::string& computed, bool check_reference_kernel);
  void GuardReferences();
  Loaded Load(const KernelLaunch& launch);
  void PrepareOutputs(bool poison);
  std::vector<void*> ArgPointers(const KernelLaunch& launch, std::vector<std::uint64_t>& storage);
  void CopySymbols(cudaLibrary_t library);
  ReadyLaunch MakeReady(cudaKernel_t kernel, const KernelLaunch& launch);
  static cudaError_t Launch(const ReadyLaunch& ready, cudaStream_t stream = nullptr);
  double TimedLaunch(const ReadyLaunch& ready);
  // One sample in the session's timing mode, per launch, taken again while throttling lowered the
  // clock: isolated, the flushed launch alone; back_to_back and graph, one batch's time over its
  // launches, the batch made at the first sample: the session's batch_launches, else BatchLaunches
  // of the time a launch takes back to back (BackToBackLaunchMs); `launches` is set
  // to the launches a sample spans once the first is taken. `ready` and `launches` must outlive the
  // sampler.
  std::function<double()> ModeSampler(const ReadyLaunch& ready, int& launches);
  // A launch's time back to back: n launches queued together, n growing eightfold from 1 until they
  // take kCalibrationMs (sampling_policy.h), so the launch's own latency does not count.
  double BackToBackLaunchMs(const ReadyLaunch& ready);
  // The GPU's milliseconds for what `work()` queues, between the session's two events (waited for).
  template <typename Work>
  double EventMs(const Work& work);
  std::string Verify();
  std::string RecheckAfterTiming();
  Samples TimeSamples(const std::function<double()>& sample, const MeasureRequest& request, double checked_ms);
  MeasureReply MeasurePipeline(const MeasureRequest& request, const Loaded& loaded, MeasureReply reply);
  std::vector<PipelineBuffer> PipelineBuffers() const;
  std::string PipelineProblems(const HostPipeline& pipeline, const char* when);
  double PipelineSample(HostPipeline& pipeline);
  void FlushL2();

  std::string RestoredInputs(const char* when);

  int gpu_;
  std::string uuid_;
  SamplingPolicy policy_;
  std::vector<SymbolSpec> symbols_;  // filled in every loaded kernel
  std::optional<KernelLaunch> reference_;
  bool reference_ready_ = false;
  // Each group's reference outputs on the host (group -> output -> bytes); the active group's are
  // also in the buffers' `reference` and `reference_device`, which the checks compare with.
  std::map<std::string, std::map<std::string, std::string>> group_references_;
  std::string active_group_;
  void ActivateGroup(const std::string& group);
  std::map<std::string, Buffer> buffers_;
  UtilityKernels utility_;
  InputGuard inputs_;
  double atol_ = 0;
  double rtol_ = 0;
  DevicePointer flush_buffer_;
  std::size_t flush_bytes_ = 0;
  bool has_zeroed_outputs_ = false;
  TimingMode timing_ = TimingMode::kIsolated;
  int batch_launches_ = 0;  // back_to_back and graph: launches a sample (0: chosen per candidate)
  ThrottleGuard throttle_;
  Event start_, stop_;
};

}  // namespace tuner
