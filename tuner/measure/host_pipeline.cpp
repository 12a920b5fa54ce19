#include "measure/host_pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "cuda/cuda_check.h"
#include "cuda/release_log.h"
#include "measure/kernel_args.h"
#include "measure/sample_stats.h"

namespace tuner {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kHostPageBytes = 4096;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Event MakeSyncEvent() {
  cudaEvent_t event = nullptr;
  TUNER_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  return Event(event);
}

cudaMemLocation HostLocation() {
  cudaMemLocation location{};
  location.type = cudaMemLocationTypeHost;
  return location;
}

cudaMemLocation DeviceLocation(int device) {
  cudaMemLocation location{};
  location.type = cudaMemLocationTypeDevice;
  location.id = device;
  return location;
}

const ChunkedBuffer* FindChunked(const PipelineRun& run, const std::string& name) {
  const auto it =
      std::find_if(run.chunked.begin(), run.chunked.end(), [&](const ChunkedBuffer& b) { return b.name == name; });
  return it == run.chunked.end() ? nullptr : &*it;
}

std::string GiB(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

}  // namespace

std::string PipelineUnfitReason(const PipelineRun& run, const std::vector<PipelineBuffer>& buffers) {
  if (!IsManaged(run.memory)) return "";
  int device = 0, concurrent = 0;
  TUNER_CUDA_CHECK(cudaGetDevice(&device));
  TUNER_CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
  if (!concurrent)
    return "this device has no concurrent managed access (cudaDevAttrConcurrentManagedAccess): managed memory is not "
           "timed on it";
  double bytes = 0;
  for (const PipelineBuffer& b : buffers)
    bytes += static_cast<double>(b.decl.count) * static_cast<double>(SizeOf(b.decl.type));
  std::size_t free_bytes = 0, total_bytes = 0;
  TUNER_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > static_cast<double>(free_bytes) / 2)
    return "would need " + GiB(bytes) + " of managed memory, more than half of the " +
           GiB(static_cast<double>(free_bytes)) + " the device has free";
  return "";
}

std::size_t HostPipeline::Side::Bytes() const { return static_cast<std::size_t>(decl.count) * SizeOf(decl.type); }

char* HostPipeline::Side::KernelData() const { return device.get() ? static_cast<char*>(device.get()) : host.data(); }

HostPipeline::HostPipeline(const std::vector<PipelineBuffer>& buffers, cudaKernel_t kernel, const KernelLaunch& whole)
    : run_(whole.pipeline), kernel_(kernel), inputs_ready_(MakeSyncEvent()), whole_geometry_(whole.geometry) {
  TUNER_CUDA_CHECK(cudaGetDevice(&device_));
  const bool managed = IsManaged(run_.memory);
  for (const PipelineBuffer& buffer : buffers) {
    Side side{buffer.decl,
              HostBuffer(run_.memory, static_cast<std::size_t>(buffer.decl.count) * SizeOf(buffer.decl.type)),
              {},
              0};
    if (!managed) side.device = DeviceAlloc(side.Bytes());
    if (const ChunkedBuffer* chunked = FindChunked(run_, buffer.decl.name)) side.per_item = chunked->per_item;
    if (!side.decl.output)
      TUNER_CUDA_CHECK(cudaMemcpy(side.host.data(), buffer.contents, side.Bytes(), cudaMemcpyDefault));
    sides_.push_back(std::move(side));
  }
  for (int s = 0; s < run_.streams; ++s) {
    cudaStream_t stream = nullptr;
    TUNER_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    streams_.emplace_back(stream);
    streams_done_.push_back(MakeSyncEvent());
  }
  std::vector<double> whole_scalars;
  for (const LaunchArg& arg : whole.args) whole_scalars.push_back(arg.value);
  whole_args_ = MakeArgs(whole, whole_scalars, 0);
  for (long long c = 0; c < run_.Chunks(); ++c)
    per_chunk_.push_back(
        MakeArgs(whole, c + 1 == run_.Chunks() ? run_.tail.scalars : run_.chunk.scalars, c * run_.chunk_items));
}

// Whatever happened, nothing may still be using the memory about to be freed.
HostPipeline::~HostPipeline() { LogReleaseError("cudaDeviceSynchronize", cudaDeviceSynchronize()); }

HostPipeline::Args HostPipeline::MakeArgs(const KernelLaunch& whole, const std::vector<double>& scalars,
                                          long long first_item) const {
  Args args;
  args.storage.assign(whole.args.size(), 0);
  for (std::size_t i = 0; i < whole.args.size(); ++i) {
    const LaunchArg& arg = whole.args[i];
    if (arg.buffer.empty()) {
      StoreScalar(args.storage[i], arg.type, scalars.at(i));
    } else {
      const auto side =
          std::find_if(sides_.begin(), sides_.end(), [&](const Side& s) { return s.decl.name == arg.buffer; });
      if (side == sides_.end()) throw std::runtime_error("the pipeline has no buffer '" + arg.buffer + "'");
      void* pointer =
          side->KernelData() + static_cast<std::size_t>(first_item * side->per_item) * SizeOf(side->decl.type);
      std::memcpy(&args.storage[i], &pointer, sizeof pointer);
    }
    args.pointers.push_back(&args.storage[i]);
  }
  return args;
}

cudaStream_t HostPipeline::StreamOf(long long chunk) const {
  return streams_[static_cast<std::size_t>(chunk % run_.streams)].get();
}

// Copies (explicit memory) or prefetches (managed, prefetched) `bytes` of `side` at `offset` towards
// the device (`in`) or the host; managed memory on demand moves by itself.
void HostPipeline::Move(const Side& side, std::size_t offset, std::size_t bytes, bool in, cudaStream_t stream) const {
  if (run_.memory == HostMemory::kManaged || bytes == 0) return;
  if (run_.memory == HostMemory::kManagedPrefetch) {
    TUNER_CUDA_CHECK(cudaMemPrefetchAsync(side.host.data() + offset, bytes,
                                          in ? DeviceLocation(device_) : HostLocation(), 0, stream));
    return;
  }
  char* device = static_cast<char*>(side.device.get()) + offset;
  char* host = side.host.data() + offset;
  TUNER_CUDA_CHECK(cudaMemcpyAsync(in ? device : host, in ? host : device, bytes,
                                   in ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream));
}

// Outside the timed region: outputs cleared (zero) or poisoned (the checked run), and with managed
// memory every buffer back in host memory, where an application's data starts.
void HostPipeline::Reset(bool poison) {
  const bool managed = IsManaged(run_.memory);
  cudaStream_t stream = streams_[0].get();
  for (const Side& side : sides_) {
    if (managed) TUNER_CUDA_CHECK(cudaMemPrefetchAsync(side.host.data(), side.Bytes(), HostLocation(), 0, stream));
    const bool zero = side.decl.output && side.decl.init == BufferInit::kZero;
    if (!managed && (zero || poison))
      TUNER_CUDA_CHECK(cudaMemsetAsync(side.device.get(), zero ? 0 : 0xFF, side.Bytes(), stream));
  }
  TUNER_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (const Side& side : sides_) {
    const bool zero = side.decl.output && side.decl.init == BufferInit::kZero;
    if (side.decl.output && (poison || (managed && zero)))
      std::memset(side.host.data(), zero && managed ? 0 : 0xFF, side.Bytes());
  }
  TUNER_CUDA_CHECK(cudaDeviceSynchronize());
}

void HostPipeline::CopyIn(long long chunk) {
  const long long first = chunk * run_.chunk_items, items = std::min(run_.chunk_items, run_.items - first);
  for (const Side& side : sides_) {
    // Managed outputs are prefetched too, so that the kernel's writes do not fault.
    if (side.per_item == 0 || (side.decl.output && run_.memory != HostMemory::kManagedPrefetch)) continue;
    const std::size_t element = side.per_item * SizeOf(side.decl.type);
    Move(side, first * element, items * element, true, StreamOf(chunk));
  }
}

void HostPipeline::Compute(long long chunk) {
  const ChunkLaunch& launch = chunk + 1 == run_.Chunks() ? run_.tail : run_.chunk;
  const LaunchGeometry& g = launch.geometry;
  TUNER_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), dim3(g.grid[0], g.grid[1], g.grid[2]),
                                    dim3(g.block[0], g.block[1], g.block[2]), per_chunk_[chunk].pointers.data(),
                                    static_cast<std::size_t>(g.shared_bytes), StreamOf(chunk)));
}

void HostPipeline::CopyOut(long long chunk) {
  const long long first = chunk * run_.chunk_items, items = std::min(run_.chunk_items, run_.items - first);
  for (const Side& side : sides_) {
    if (side.per_item == 0 || !side.decl.output) continue;
    const std::size_t element = side.per_item * SizeOf(side.decl.type);
    Move(side, first * element, items * element, false, StreamOf(chunk));
  }
}

// Buffers that are not chunked: in before the first chunk (every stream waits for them), out after
// the last (once every stream is done).
void HostPipeline::MoveWhole(bool in) {
  cudaStream_t first = streams_[0].get();
  if (!in) {
    for (std::size_t s = 1; s < streams_.size(); ++s) {
      TUNER_CUDA_CHECK(cudaEventRecord(streams_done_[s].get(), streams_[s].get()));
      TUNER_CUDA_CHECK(cudaStreamWaitEvent(first, streams_done_[s].get(), 0));
    }
  }
  bool moved = false;
  for (const Side& side : sides_) {
    if (side.per_item != 0) continue;
    const bool wanted = in ? (!side.decl.output || run_.memory == HostMemory::kManagedPrefetch) : side.decl.output;
    if (!wanted) continue;
    Move(side, 0, side.Bytes(), in, first);
    moved = true;
  }
  if (!in || !moved) return;
  TUNER_CUDA_CHECK(cudaEventRecord(inputs_ready_.get(), first));
  for (std::size_t s = 1; s < streams_.size(); ++s)
    TUNER_CUDA_CHECK(cudaStreamWaitEvent(streams_[s].get(), inputs_ready_.get(), 0));
}

void HostPipeline::Issue() {
  MoveWhole(true);
  const long long chunks = run_.Chunks();
  if (run_.order == IssueOrder::kDepthFirst) {
    for (long long c = 0; c < chunks; ++c) {
      CopyIn(c);
      Compute(c);
      CopyOut(c);
    }
  } else {
    for (long long c = 0; c < chunks; ++c) CopyIn(c);
    for (long long c = 0; c < chunks; ++c) Compute(c);
    for (long long c = 0; c < chunks; ++c) CopyOut(c);
  }
  MoveWhole(false);
}

// Pages migrated on demand reach host memory only when the host touches them.
void HostPipeline::TouchOutputs() {
  for (const Side& side : sides_) {
    if (!side.decl.output) continue;
    const volatile char* data = side.host.data();
    for (std::size_t at = 0; at < side.Bytes(); at += kHostPageBytes) touched_ += static_cast<unsigned char>(data[at]);
  }
}

double HostPipeline::Run(bool poison) {
  Reset(poison);
  const auto start = Clock::now();
  Issue();
  for (const Stream& stream : streams_) TUNER_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
  if (IsManaged(run_.memory)) TouchOutputs();
  return MillisecondsSince(start);
}

void HostPipeline::CopyOutputsTo(const std::map<std::string, void*>& targets) const {
  for (const Side& side : sides_) {
    const auto target = targets.find(side.decl.name);
    if (side.decl.output && target != targets.end())
      TUNER_CUDA_CHECK(cudaMemcpy(target->second, side.host.data(), side.Bytes(), cudaMemcpyDefault));
  }
}

std::map<std::string, const void*> HostPipeline::KernelInputs() const {
  std::map<std::string, const void*> inputs;
  for (const Side& side : sides_)
    if (!side.decl.output) inputs[side.decl.name] = side.KernelData();
  return inputs;
}

StageTimes HostPipeline::TimeStagesAlone(int repeats) {
  if (IsManaged(run_.memory))
    throw std::runtime_error("the stages alone are timed for explicit copies, not managed memory");
  cudaStream_t stream = streams_[0].get();
  auto timed = [&](auto&& issue) {
    TUNER_CUDA_CHECK(cudaDeviceSynchronize());
    const auto start = Clock::now();
    issue();
    TUNER_CUDA_CHECK(cudaStreamSynchronize(stream));
    return MillisecondsSince(start);
  };
  auto copy_all = [&](bool in) {
    for (const Side& side : sides_)
      if (side.decl.output != in) Move(side, 0, side.Bytes(), in, stream);
  };
  const LaunchGeometry& g = whole_geometry_;
  std::vector<double> h2d, kernel, d2h;
  for (int i = 0; i < repeats; ++i) {
    h2d.push_back(timed([&] { copy_all(true); }));
    kernel.push_back(timed([&] {
      TUNER_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), dim3(g.grid[0], g.grid[1], g.grid[2]),
                                        dim3(g.block[0], g.block[1], g.block[2]), whole_args_.pointers.data(),
                                        static_cast<std::size_t>(g.shared_bytes), stream));
    }));
    d2h.push_back(timed([&] { copy_all(false); }));
  }
  return {Summarise(h2d).median, Summarise(kernel).median, Summarise(d2h).median};
}

}  // namespace tuner
