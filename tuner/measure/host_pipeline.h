// One pipeline candidate on the GPU, inside the worker: the host's buffers of the candidate's kind,
// the device buffers its kernel runs on, its streams, and one run from host memory to host memory
// (kernel_templates/README.md, "Pipelines"). Every buffer, stream and event is freed by the
// destructor, on every path.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cuda/gpu_handles.h"
#include "measure/host_buffer.h"
#include "measure/worker_protocol.h"

namespace tuner {

inline constexpr char kCudaStreamDestroy[] = "cudaStreamDestroy";
using Stream = CudaHandle<cudaStream_t, cudaStreamDestroy, kCudaStreamDestroy>;

// A buffer of the problem as the session holds it: `contents` is its device buffer, whose contents
// an input's host buffer starts with.
struct PipelineBuffer {
  BufferDecl decl;
  const void* contents = nullptr;
};

// Why `run` cannot be made on the current device, or "": managed memory beyond half of what is
// free (oversubscribing managed memory can stall the whole GPU), or no concurrent managed access.
std::string PipelineUnfitReason(const PipelineRun& run, const std::vector<PipelineBuffer>& buffers);

class HostPipeline {
 public:
  // Allocates and fills the host's buffers (inputs from the session's device buffers) and, for
  // explicit copies, device buffers of the pipeline's own. `whole` is the candidate's launch on the
  // whole problem: its arguments, and the pipeline's run in `whole.pipeline`.
  HostPipeline(const std::vector<PipelineBuffer>& buffers, cudaKernel_t kernel, const KernelLaunch& whole);
  ~HostPipeline();
  HostPipeline(const HostPipeline&) = delete;
  HostPipeline& operator=(const HostPipeline&) = delete;

  // One run in milliseconds of the host's wall clock, from issuing the first copy to every stream's
  // end (and, with managed memory, the host's read of every output page). `poison`: the host's
  // outputs and the pipeline's device buffers are poisoned first, outside the timed region, so a
  // chunk never copied in or out shows. A CUDA error is thrown as CudaError.
  double Run(bool poison);

  // Copies the host's outputs into the session's device buffers named in `targets`, for the check.
  void CopyOutputsTo(const std::map<std::string, void*>& targets) const;

  // The inputs as the kernel read them (the pipeline's device copies, or the managed buffers).
  std::map<std::string, const void*> KernelInputs() const;

  // Copy in, kernel and copy out each alone on the whole problem, `repeats` times in turns; the
  // medians. Explicit copies only (pageable or pinned).
  StageTimes TimeStagesAlone(int repeats);

 private:
  struct Side {
    BufferDecl decl;
    HostBuffer host;
    DevicePointer device;    // explicit copies: what the kernel reads and writes
    long long per_item = 0;  // chunked: elements per element of the chunked size; 0: moved whole
    std::size_t Bytes() const;
    char* KernelData() const;  // the device buffer, or the managed one
  };
  struct Args {
    std::vector<std::uint64_t> storage;
    std::vector<void*> pointers;
  };

  Args MakeArgs(const KernelLaunch& whole, const std::vector<double>& scalars, long long first_item) const;
  void Reset(bool poison);
  void Issue();
  void CopyIn(long long chunk);
  void Compute(long long chunk);
  void CopyOut(long long chunk);
  void MoveWhole(bool in);
  void TouchOutputs();
  cudaStream_t StreamOf(long long chunk) const;
  void Move(const Side& side, std::size_t offset, std::size_t bytes, bool in, cudaStream_t stream) const;

  PipelineRun run_;
  cudaKernel_t kernel_ = nullptr;
  std::vector<Side> sides_;
  std::vector<Stream> streams_;
  Event inputs_ready_;
  std::vector<Event> streams_done_;
  LaunchGeometry whole_geometry_;
  Args whole_args_;
  std::vector<Args> per_chunk_;
  int device_ = 0;
  unsigned touched_ = 0;  // the host's reads of managed outputs land here, so they are not dropped
};

}  // namespace tuner
