// A batch of launches of one kernel timed as one sample, in the back_to_back and graph modes
// (base/timing_mode.h): back_to_back queues the launches one after another on the stream; graph
// captures them once into a CUDA graph (stream capture), instantiates it and replays it once to warm
// it up, and each sample is one replay. Nothing runs between the launches: no L2 flush, no reset of
// the outputs, so only a kernel whose launches may follow each other so is batched
// (template/timing_choice.h).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>

#include "base/timing_mode.h"
#include "cuda/gpu_handles.h"

namespace tuner {

class LaunchBatch {
 public:
  // `launch(stream)` queues one launch on `stream`. Throws CudaError when a launch, the capture or
  // the instantiation fails; std::logic_error for the isolated mode, which has no batch.
  using LaunchOn = std::function<cudaError_t(cudaStream_t)>;
  LaunchBatch(TimingMode mode, int launches, LaunchOn launch);
  ~LaunchBatch();
  LaunchBatch(const LaunchBatch&) = delete;
  LaunchBatch& operator=(const LaunchBatch&) = delete;

  int launches() const { return launches_; }
  // Queues the whole batch on the legacy default stream, where the session's events are recorded.
  void Enqueue() const;

 private:
  void Capture();

  TimingMode mode_;
  int launches_;
  LaunchOn launch_;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace tuner
