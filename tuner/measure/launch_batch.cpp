#include "measure/launch_batch.h"

#include <stdexcept>

#include "cuda/release_log.h"

namespace tuner {

LaunchBatch::LaunchBatch(TimingMode mode, int launches, LaunchOn launch)
    : mode_(mode), launches_(launches), launch_(std::move(launch)) {
  if (mode_ == TimingMode::kIsolated) throw std::logic_error("an isolated launch is not batched");
  if (launches_ < 1) throw std::logic_error("a batch needs at least one launch");
  if (mode_ != TimingMode::kGraph) return;
  Capture();
  Enqueue();  // the warm-up replay: the first one uploads the graph to the GPU
}

LaunchBatch::~LaunchBatch() {
  if (exec_) LogReleaseError("cudaGraphExecDestroy", cudaGraphExecDestroy(exec_));
  if (graph_) LogReleaseError("cudaGraphDestroy", cudaGraphDestroy(graph_));
}

// The launches captured on a stream of their own (the legacy default stream cannot be captured),
// in thread-local mode so that nothing else of this thread is drawn into the capture.
void LaunchBatch::Capture() {
  cudaStream_t stream = nullptr;
  TUNER_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaError_t status = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  for (int i = 0; i < launches_ && status == cudaSuccess; ++i) status = launch_(stream);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);  // ends the capture even after a failed launch
  LogReleaseError("cudaStreamDestroy", cudaStreamDestroy(stream));
  if (status == cudaSuccess) status = ended;
  if (status == cudaSuccess) status = cudaGraphInstantiate(&exec_, graph, 0);
  if (status == cudaSuccess) {
    graph_ = graph;
    return;
  }
  if (graph) LogReleaseError("cudaGraphDestroy", cudaGraphDestroy(graph));  // the constructor throws: no destructor
  TUNER_CUDA_CHECK(status);
}

void LaunchBatch::Enqueue() const {
  if (mode_ == TimingMode::kGraph) {
    TUNER_CUDA_CHECK(cudaGraphLaunch(exec_, nullptr));
    return;
  }
  for (int i = 0; i < launches_; ++i) TUNER_CUDA_CHECK(launch_(nullptr));
}

}  // namespace tuner
