#include "measure/gpu_session.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "measure/buffer_contents.h"
#include "measure/kernel_args.h"
#include "measure/kernel_signature.h"
#include "measure/launch_batch.h"
#include "measure/sample_stats.h"
#include "npy.h"

namespace tuner {

namespace {

using Clock = std::chrono::steady_clock;

std::string ReadBinary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read the compiled kernel " + path);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

int SelectDevice(int gpu) {
  TUNER_CUDA_CHECK(cudaSetDevice(gpu));
  return gpu;
}

std::set<std::string> SymbolSources(const SetupRequest& setup) {
  std::set<std::string> sources;
  for (const SymbolSpec& s : setup.symbols) sources.insert(s.from);
  return sources;
}

MeasureReply Judged(MeasureReply reply, CandidateStatus status, std::string reason) {
  reply.status = status;
  reply.reason = std::move(reason);
  return reply;
}

}  // namespace

GpuSession::GpuSession(const SetupRequest& setup, const SamplingPolicy& policy)
    : gpu_(setup.gpu),
      uuid_(setup.uuid),
      policy_(policy),
      symbols_(setup.symbols),
      reference_(setup.reference),
      utility_(SelectDevice(setup.gpu)),
      inputs_([this](const void* data, std::size_t bytes) { return utility_.Checksum(data, bytes); }),
      atol_(setup.atol),
      rtol_(setup.rtol),
      timing_(setup.timing),
      batch_launches_(setup.batch_launches),
      throttle_(ThrottleGuard::ForGpu(setup.uuid)),
      start_(MakeEvent()),
      stop_(MakeEvent()) {
  const std::set<std::string> symbol_sources = SymbolSources(setup);
  unsigned long long seed = setup.seed;
  for (const BufferDecl& decl : setup.buffers) {
    const std::size_t bytes = decl.count * SizeOf(decl.type);
    Buffer buffer{decl, DeviceAlloc(bytes), {}, {}, {}, {}};
    void* device = buffer.device.get();
    const unsigned long long buffer_seed = seed++;
    const bool from_file = decl.init == BufferInit::kFile;
    if (from_file)
      LoadFile(decl.file, device);
    else
      utility_.Fill(device, decl.type, decl.count, decl.init, buffer_seed);
    // An output that starts from contents of its own is read too: every launch starts from them.
    if (decl.output && StartsFromContents(decl.init)) buffer.initial_device = CopyOnDevice(device, bytes);
    // An overwritten input is filled again: from the seed, or read again from its file (rare).
    if (!decl.output)
      inputs_.Add("input '" + decl.name + "'", device, bytes, [this, device, decl, buffer_seed] {
        if (decl.init == BufferInit::kFile)
          LoadFile(decl.file, device);
        else
          utility_.Fill(device, decl.type, decl.count, decl.init, buffer_seed);
      });
    if (symbol_sources.count(decl.name)) {
      buffer.initial.resize(decl.count * SizeOf(decl.type));
      TUNER_CUDA_CHECK(
          cudaMemcpy(buffer.initial.data(), buffer.device.get(), buffer.initial.size(), cudaMemcpyDeviceToHost));
    }
    has_zeroed_outputs_ |= decl.output && (decl.init == BufferInit::kZero || StartsFromContents(decl.init));
    buffers_.emplace(decl.name, std::move(buffer));
  }
  if (timing_ != TimingMode::kIsolated && has_zeroed_outputs_)
    throw std::runtime_error(std::string("the timing mode ") + ToText(timing_) +
                             " repeats launches with nothing between them, but an output of this template is "
                             "reset before each launch (zero, a file or data of its own): time it isolated");
  int l2_bytes = 0;
  TUNER_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, setup.gpu));
  flush_bytes_ = static_cast<std::size_t>(l2_bytes) * 2;  // twice L2, so nothing of the inputs stays
  flush_buffer_ = DeviceAlloc(flush_bytes_);
  WarmUpClocks();
}

void GpuSession::RunReference(const ReferenceRequest& request) {
  const std::optional<KernelLaunch>& launch = request.launch ? request.launch : reference_;
  if (launch) {
    Loaded reference = Load(*launch);
    PrepareOutputs(true);
    TUNER_CUDA_CHECK(Launch(MakeReady(reference.kernel, *launch)));
    TUNER_CUDA_CHECK(cudaDeviceSynchronize());
    const std::string overwritten = inputs_.RestoreChanged();
    if (!overwritten.empty()) throw std::runtime_error("the reference kernel " + overwritten);
  }
  std::map<std::string, std::string>& outputs = group_references_[request.group];
  for (auto& [name, buffer] : buffers_) {
    if (!buffer.decl.output) continue;
    std::string& reference = outputs[name];
    reference.resize(buffer.decl.count * SizeOf(buffer.decl.type));
    if (launch)
      TUNER_CUDA_CHECK(cudaMemcpy(reference.data(), buffer.device.get(), reference.size(), cudaMemcpyDeviceToHost));
    if (!buffer.decl.expected.empty()) reference = TakeExpected(buffer.decl, reference, launch.has_value());
  }
  if (!reference_ready_) GuardReferences();
  reference_ready_ = true;
  active_group_ = "(none)";
  ActivateGroup(request.group);
}

// The reference outputs on the device, for the check: an out-of-bounds write of a candidate could
// land there and fail every later candidate, so they are guarded as the inputs are.
void GpuSession::GuardReferences() {
  for (auto& [name, buffer] : buffers_) {
    if (!buffer.decl.output) continue;
    const std::size_t bytes = buffer.decl.count * SizeOf(buffer.decl.type);
    buffer.reference.assign(bytes, '\0');
    buffer.reference_device = DeviceAlloc(bytes);
    TUNER_CUDA_CHECK(cudaMemset(buffer.reference_device.get(), 0, bytes));
    const Buffer* b = &buffer;
    inputs_.Add("the reference output '" + name + "'", b->reference_device.get(), b->reference.size(), [b] {
      TUNER_CUDA_CHECK(
          cudaMemcpy(b->reference_device.get(), b->reference.data(), b->reference.size(), cudaMemcpyHostToDevice));
    });
  }
}

// The group's reference outputs become the ones the checks compare with.
void GpuSession::ActivateGroup(const std::string& group) {
  if (group == active_group_) return;
  const auto found = group_references_.find(group);
  if (found == group_references_.end()) throw std::runtime_error("no reference has run for the candidates of " + group);
  for (auto& [name, buffer] : buffers_) {
    if (!buffer.decl.output) continue;
    buffer.reference = found->second.at(name);
    TUNER_CUDA_CHECK(cudaMemcpy(buffer.reference_device.get(), buffer.reference.data(), buffer.reference.size(),
                                cudaMemcpyHostToDevice));
    inputs_.Rebase(buffer.reference_device.get());
  }
  active_group_ = group;
}

// Streams a .npy file (checked by the supervisor) into device memory, 64 MiB at a time: a 1 GiB
// input costs one read per worker, not one per candidate, and no second host copy.
void GpuSession::LoadFile(const std::string& path, void* device) {
  std::size_t offset = 0;
  npy::ReadData(path, npy::ReadHeader(path), [&](const char* bytes, std::size_t size) {
    TUNER_CUDA_CHECK(cudaMemcpy(static_cast<char*>(device) + offset, bytes, size, cudaMemcpyHostToDevice));
    offset += size;
  });
}

DevicePointer GpuSession::CopyOnDevice(const void* device, std::size_t bytes) {
  DevicePointer copy = DeviceAlloc(bytes);
  TUNER_CUDA_CHECK(cudaMemcpy(copy.get(), device, bytes, cudaMemcpyDeviceToDevice));
  return copy;
}

// The expected file becomes the output's reference. A reference kernel, if there is one, must
// agree with it first: otherwise one of the two is wrong and no candidate could be judged.
std::string GpuSession::TakeExpected(const BufferDecl& decl, const std::string& computed, bool check_reference_kernel) {
  std::string expected = npy::ReadAll(decl.expected, npy::ReadHeader(decl.expected));
  if (check_reference_kernel) {
    const Comparison c = CompareBuffers(computed.data(), expected.data(), decl.type, decl.count, atol_, rtol_);
    if (!c.Passed())
      throw std::runtime_error("the reference kernel disagrees with the expected output " + decl.expected + ": " +
                               c.Describe(decl.name));
  }
  return expected;
}

template <typename Work>
double GpuSession::EventMs(const Work& work) {
  TUNER_CUDA_CHECK(cudaEventRecord(start_.get()));
  work();
  TUNER_CUDA_CHECK(cudaEventRecord(stop_.get()));
  TUNER_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
  float ms = 0;
  TUNER_CUDA_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  return ms;
}

void GpuSession::WarmUpClocks() {
  // Idle GPUs start at low clocks: keep the memory system busy until three memsets in a row take
  // the same time (within 2%), for at least 50 ms and at most 400 ms.
  const auto start = Clock::now();
  std::vector<double> recent;
  for (;;) {
    for (int i = 0; i < 4; ++i) FlushL2();
    recent.push_back(EventMs([this] { FlushL2(); }));
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed > 0.4) break;
    if (elapsed < 0.05 || recent.size() < 3) continue;
    const auto [lo, hi] = std::minmax_element(recent.end() - 3, recent.end());
    if (*hi <= *lo * 1.02) break;
  }
}

void GpuSession::FlushL2() { TUNER_CUDA_CHECK(cudaMemsetAsync(flush_buffer_.get(), 0, flush_bytes_)); }

void GpuSession::PrepareOutputs(bool poison) {
  for (auto& [name, buffer] : buffers_) {
    if (!buffer.decl.output) continue;
    if (buffer.initial_device.get()) {  // contents of its own (a file, random data): restored before every launch
      TUNER_CUDA_CHECK(cudaMemcpyAsync(buffer.device.get(), buffer.initial_device.get(),
                                       buffer.decl.count * SizeOf(buffer.decl.type), cudaMemcpyDeviceToDevice));
      continue;
    }
    // A checked launch starts from poison, so an element the kernel never writes cannot pass as the
    // zero it was reset to; only a kernel that adds into its output starts from zero.
    const bool zero = buffer.decl.init == BufferInit::kZero && (!poison || buffer.decl.accumulate);
    if (zero || poison)
      TUNER_CUDA_CHECK(
          cudaMemsetAsync(buffer.device.get(), zero ? 0 : 0xFF, buffer.decl.count * SizeOf(buffer.decl.type)));
  }
}

GpuSession::Loaded GpuSession::Load(const KernelLaunch& launch) {
  Loaded loaded{LoadLibrary(ReadBinary(launch.cubin_path)), nullptr};
  TUNER_CUDA_CHECK(cudaLibraryGetKernel(&loaded.kernel, loaded.library.get(), launch.kernel.c_str()));
  const std::string mismatch =
      SignatureMismatch(KernelParamBytes(reinterpret_cast<const void*>(loaded.kernel)), launch.args);
  if (!mismatch.empty()) throw std::runtime_error(mismatch);
  if (launch.geometry.shared_bytes > 48 * 1024)
    TUNER_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(loaded.kernel),
                                          cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(launch.geometry.shared_bytes)));
  CopySymbols(loaded.library.get());
  return loaded;
}

std::vector<void*> GpuSession::ArgPointers(const KernelLaunch& launch, std::vector<std::uint64_t>& storage) {
  storage.assign(launch.args.size(), 0);
  std::vector<void*> pointers;
  for (std::size_t i = 0; i < launch.args.size(); ++i) {
    const LaunchArg& arg = launch.args[i];
    if (arg.buffer.empty()) {
      StoreScalar(storage[i], arg.type, arg.value);
    } else {
      void* device = buffers_.at(arg.buffer).device.get();
      std::memcpy(&storage[i], &device, sizeof device);
    }
    pointers.push_back(&storage[i]);
  }
  return pointers;
}

void GpuSession::CopySymbols(cudaLibrary_t library) {
  for (const SymbolSpec& symbol : symbols_) {
    void* address = nullptr;
    std::size_t bytes = 0;
    const cudaError_t found = cudaLibraryGetGlobal(&address, &bytes, library, symbol.name.c_str());
    const std::string described = "[[symbol]] '" + symbol.name + "' (filled from argument '" + symbol.from + "')";
    if (found == cudaErrorSymbolNotFound || found == cudaErrorInvalidSymbol) {
      cudaGetLastError();
      throw std::runtime_error(described + ": the kernel file has no __constant__ or __device__ variable '" +
                               symbol.name + "'; declare it in the source or remove the [[symbol]]");
    }
    TUNER_CUDA_CHECK(found);
    const std::string& contents = buffers_.at(symbol.from).initial;
    if (contents.size() > bytes)
      throw std::runtime_error(described + ": argument '" + symbol.from + "' holds " + std::to_string(contents.size()) +
                               " bytes and the variable " + std::to_string(bytes) + "; make them the same size");
    TUNER_CUDA_CHECK(cudaMemcpy(address, contents.data(), std::min(bytes, contents.size()), cudaMemcpyHostToDevice));
  }
}

GpuSession::ReadyLaunch GpuSession::MakeReady(cudaKernel_t kernel, const KernelLaunch& launch) {
  ReadyLaunch ready;
  ready.kernel = kernel;
  const auto& g = launch.geometry;
  ready.grid = dim3(g.grid[0], g.grid[1], g.grid[2]);
  ready.block = dim3(g.block[0], g.block[1], g.block[2]);
  ready.shared_bytes = g.shared_bytes;
  ready.args = ArgPointers(launch, ready.storage);
  return ready;
}

cudaError_t GpuSession::Launch(const ReadyLaunch& ready, cudaStream_t stream) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(ready.kernel), ready.grid, ready.block,
                          const_cast<void**>(ready.args.data()), ready.shared_bytes, stream);
}

// One sample: L2 flushed and accumulators cleared first, outside the timed region.
double GpuSession::TimedLaunch(const ReadyLaunch& ready) {
  FlushL2();
  if (has_zeroed_outputs_) PrepareOutputs(false);
  return EventMs([&] { TUNER_CUDA_CHECK(Launch(ready)); });
}

std::function<double()> GpuSession::ModeSampler(const ReadyLaunch& ready, int& launches) {
  launches = 1;
  if (timing_ == TimingMode::kIsolated)
    return [this, &ready] { return throttle_.Sample([&] { return TimedLaunch(ready); }); };
  auto batch = std::make_shared<std::unique_ptr<LaunchBatch>>();
  return [this, &ready, &launches, batch] {
    if (!*batch) {
      launches = batch_launches_ > 0 ? batch_launches_ : BatchLaunches(policy_, BackToBackLaunchMs(ready));
      *batch = std::make_unique<LaunchBatch>(timing_, launches,
                                             [&ready](cudaStream_t stream) { return Launch(ready, stream); });
    }
    const LaunchBatch& b = **batch;
    return throttle_.Sample([&] { return EventMs([&] { b.Enqueue(); }) / b.launches(); });
  };
}

double GpuSession::BackToBackLaunchMs(const ReadyLaunch& ready) {
  constexpr int kMostLaunches = 1 << 15;
  for (int n = 1;; n *= 8) {
    const LaunchBatch batch(TimingMode::kBackToBack, n,
                            [&ready](cudaStream_t stream) { return Launch(ready, stream); });
    const double ms = EventMs([&] { batch.Enqueue(); });
    if (ms >= kCalibrationMs || n >= kMostLaunches) return ms / n;
  }
}

// The inputs a launch overwrote, named, after filling them again ("" when none); `when` ends the
// sentence.
std::string GpuSession::RestoredInputs(const char* when) {
  const std::string overwritten = inputs_.RestoreChanged();
  return overwritten.empty() ? "" : overwritten + when + "; restored for the next candidates";
}

std::string GpuSession::Verify() {
  std::string host;
  for (auto& [name, buffer] : buffers_) {
    if (!buffer.decl.output) continue;
    const Buffer& b = buffer;
    const std::uint64_t mismatches =
        utility_.CountMismatches(b.device.get(), b.reference_device.get(), b.decl.type, b.decl.count, atol_, rtol_);
    if (mismatches == 0) continue;
    // Only a failing output comes to the host, for the message naming the first bad element.
    host.resize(b.reference.size());
    TUNER_CUDA_CHECK(cudaMemcpy(host.data(), b.device.get(), host.size(), cudaMemcpyDeviceToHost));
    const Comparison result = CompareBuffers(host.data(), b.reference.data(), b.decl.type, b.decl.count, atol_, rtol_);
    if (!result.Passed()) return result.Describe(name);
    return std::to_string(mismatches) + " element(s) of '" + name + "' differ from the reference (GPU check)";
  }
  return "";
}

// The last timed launch's outputs checked as the first one's were (no launch more: outputs are
// cleared or restored before every sample, and the first check saw every element written): a
// kernel that keeps state between launches (a counter in __device__ memory left unreset) or races
// may be right only at first.
std::string GpuSession::RecheckAfterTiming() {
  const std::string mismatch = Verify();
  return mismatch.empty() ? "" : "right at the first launch, wrong after the timed ones: " + mismatch;
}

Samples GpuSession::TimeSamples(const std::function<double()>& sample, const MeasureRequest& request,
                                double checked_ms) {
  return TakeSamples(policy_, {checked_ms, request.best_ms, request.estimate_only}, sample);
}

MeasureReply GpuSession::Measure(const MeasureRequest& request) {
  if (!reference_ready_) throw std::runtime_error("a candidate was sent before the reference ran");
  ActivateGroup(request.reference_group);
  throttle_.TakeCount();  // the reply counts this request's samples only
  const KernelLaunch& launch = request.launch;
  Loaded loaded = Load(launch);
  const void* func = reinterpret_cast<const void*>(loaded.kernel);
  cudaFuncAttributes attributes{};
  TUNER_CUDA_CHECK(cudaFuncGetAttributes(&attributes, func));
  int blocks_per_sm = 0;
  TUNER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks_per_sm, func, static_cast<int>(launch.geometry.ThreadsPerBlock()), launch.geometry.shared_bytes));
  MeasureReply reply;
  reply.regs_per_thread = attributes.numRegs;
  reply.static_smem_bytes = static_cast<long long>(attributes.sharedSizeBytes);
  if (blocks_per_sm == 0)
    return Judged(reply, CandidateStatus::kInvalid, "the runtime reports 0 blocks per SM for this kernel and block");
  if (launch.pipeline.enabled) return MeasurePipeline(request, loaded, std::move(reply));
  PrepareOutputs(true);
  const ReadyLaunch ready = MakeReady(loaded.kernel, launch);
  TUNER_CUDA_CHECK(cudaEventRecord(start_.get()));
  cudaError_t status = Launch(ready);  // checked, and warms the kernel up
  if (status == cudaSuccess) status = cudaEventRecord(stop_.get());
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    if (IsStickyError(status)) throw CudaError(status, DescribeCudaError(status));
    cudaGetLastError();  // clear a non-sticky launch error
    return Judged(reply, CandidateStatus::kLaunchError, DescribeCudaError(status));
  }
  const std::string overwritten = RestoredInputs("");
  const std::string mismatch = Verify();
  if (!overwritten.empty() || !mismatch.empty())
    return Judged(reply, CandidateStatus::kWrongResult,
                  overwritten.empty() ? mismatch
                  : mismatch.empty()  ? overwritten
                                      : overwritten + "; " + mismatch);
  float checked_ms = 0;
  TUNER_CUDA_CHECK(cudaEventElapsedTime(&checked_ms, start_.get(), stop_.get()));
  int launches_per_sample = 1;
  const Samples samples = TimeSamples(ModeSampler(ready, launches_per_sample), request, checked_ms);
  const std::string overwritten_while_timed = RestoredInputs(" while it was timed");
  const std::string wrong_later = overwritten_while_timed.empty() ? RecheckAfterTiming() : "";
  if (!overwritten_while_timed.empty() || !wrong_later.empty())
    return Judged(reply, CandidateStatus::kWrongResult,
                  overwritten_while_timed.empty() ? wrong_later : overwritten_while_timed);
  reply.time_ms = Summarise(samples.times_ms);
  reply.time_ms.launches_per_sample = launches_per_sample;
  reply.throttle = throttle_.TakeCount();
  return Judged(reply, CandidateStatus::kOk, samples.note);
}

InterleaveReply GpuSession::Interleave(const std::vector<KernelLaunch>& launches, int rounds) {
  std::vector<Loaded> loaded;
  std::vector<ReadyLaunch> ready;
  std::vector<std::unique_ptr<HostPipeline>> pipelines;  // null for a kernel timed alone
  ready.reserve(launches.size());                        // the samplers keep references to their launch
  std::vector<std::function<double()>> sample;
  std::vector<int> launches_per_sample(launches.size(), 1);  // sized once: the samplers keep references
  for (const KernelLaunch& launch : launches) {
    loaded.push_back(Load(launch));
    ready.push_back(MakeReady(loaded.back().kernel, launch));
    pipelines.push_back(launch.pipeline.enabled
                            ? std::make_unique<HostPipeline>(PipelineBuffers(), loaded.back().kernel, launch)
                            : nullptr);
    HostPipeline* pipeline = pipelines.back().get();
    sample.push_back(pipeline ? std::function<double()>([this, pipeline] {
      return throttle_.Sample([&] { return PipelineSample(*pipeline); });
    })
                              : ModeSampler(ready.back(), launches_per_sample[sample.size()]));
  }
  throttle_.TakeCount();  // what the measures before counted is theirs
  std::vector<std::vector<double>> samples(launches.size());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t i = 0; i < launches.size(); ++i) samples[i].push_back(sample[i]());
  const std::string overwritten = RestoredInputs(" while the leaders were timed in turns");
  if (!overwritten.empty()) throw std::runtime_error("a leader " + overwritten);
  InterleaveReply reply;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    reply.time_ms.push_back(Summarise(samples[i]));
    reply.time_ms.back().launches_per_sample = launches_per_sample[i];
  }
  reply.throttle = throttle_.TakeCount();
  return reply;
}

std::vector<PipelineBuffer> GpuSession::PipelineBuffers() const {
  std::vector<PipelineBuffer> buffers;
  for (const auto& [name, buffer] : buffers_) buffers.push_back({buffer.decl, buffer.device.get()});
  return buffers;
}

// One sample of a pipeline: the L2 cache flushed first, as before a kernel's.
double GpuSession::PipelineSample(HostPipeline& pipeline) {
  FlushL2();
  return pipeline.Run(false);
}

// After a run: the host's outputs go to the session's output buffers and are checked there like a
// kernel's; the pipeline's copy of each input must still be the host's. "" when all is right.
std::string GpuSession::PipelineProblems(const HostPipeline& pipeline, const char* when) {
  std::map<std::string, void*> outputs;
  for (auto& [name, buffer] : buffers_)
    if (buffer.decl.output) outputs[name] = buffer.device.get();
  pipeline.CopyOutputsTo(outputs);
  std::string problems = RestoredInputs(when);
  for (const auto& [name, copy] : pipeline.KernelInputs()) {
    const Buffer& master = buffers_.at(name);
    const std::size_t bytes = master.decl.count * SizeOf(master.decl.type);
    if (utility_.Checksum(copy, bytes) == utility_.Checksum(master.device.get(), bytes)) continue;
    problems += std::string(problems.empty() ? "" : "; ") + "the kernel's copy of input '" + name +
                "' differs from the host's after the run" + when +
                ": the kernel wrote it, or a chunk of it was never copied in";
  }
  const std::string mismatch = *when ? RecheckAfterTiming() : Verify();  // `when` is said only after the samples
  if (!mismatch.empty()) problems += (problems.empty() ? "" : "; ") + mismatch;
  return problems;
}

// A pipeline candidate: checked and timed from host memory to host memory (HostPipeline). A CUDA
// error propagates as for a kernel: a sticky one is a fault, another a launch error, and the
// pipeline's buffers are freed on the way out.
MeasureReply GpuSession::MeasurePipeline(const MeasureRequest& request, const Loaded& loaded, MeasureReply reply) {
  const KernelLaunch& launch = request.launch;
  const std::string unfit = PipelineUnfitReason(launch.pipeline, PipelineBuffers());
  if (!unfit.empty()) return Judged(reply, CandidateStatus::kInvalid, unfit);
  HostPipeline pipeline(PipelineBuffers(), loaded.kernel, launch);
  pipeline.Run(true);
  const std::string wrong = PipelineProblems(pipeline, "");
  if (!wrong.empty()) return Judged(reply, CandidateStatus::kWrongResult, wrong);
  // The checked run is never the estimate: it may include loading the module and first touches.
  const Samples samples =
      TimeSamples([&] { return throttle_.Sample([&] { return PipelineSample(pipeline); }); }, request, 0);
  const std::string wrong_later = PipelineProblems(pipeline, " while it was timed");
  if (!wrong_later.empty()) return Judged(reply, CandidateStatus::kWrongResult, wrong_later);
  const std::string described = "pipeline: " + launch.pipeline.Describe();
  reply.time_ms = Summarise(samples.times_ms);
  reply.throttle = throttle_.TakeCount();
  return Judged(reply, CandidateStatus::kOk, samples.note.empty() ? described : described + "; " + samples.note);
}

StageTimes GpuSession::PipelineStages(const KernelLaunch& launch) {
  if (!launch.pipeline.enabled) throw std::runtime_error("not a pipeline candidate");
  Loaded loaded = Load(launch);
  HostPipeline pipeline(PipelineBuffers(), loaded.kernel, launch);
  return pipeline.TimeStagesAlone(10);
}

void GpuSession::WithCandidates(const std::vector<KernelLaunch>& launches, const CandidateUse& use) {
  std::vector<Loaded> loaded;
  std::vector<ReadyLaunch> ready;
  for (const KernelLaunch& launch : launches) {
    loaded.push_back(Load(launch));
    ready.push_back(MakeReady(loaded.back().kernel, launch));
  }
  use([this] { PrepareOutputs(false); }, [&ready](std::size_t i) { TUNER_CUDA_CHECK(Launch(ready.at(i))); });
  TUNER_CUDA_CHECK(cudaDeviceSynchronize());
  inputs_.RestoreChanged();
}

double GpuSession::CopyBandwidthGbps(std::size_t bytes) {
  DevicePointer source = DeviceAlloc(bytes), target = DeviceAlloc(bytes);
  TUNER_CUDA_CHECK(cudaMemset(source.get(), 1, bytes));
  std::vector<double> samples;
  for (int i = 0; i < 23; ++i) {
    const double ms = EventMs(
        [&] { TUNER_CUDA_CHECK(cudaMemcpyAsync(target.get(), source.get(), bytes, cudaMemcpyDeviceToDevice)); });
    if (i >= 3) samples.push_back(ms);  // the first copies warm up
  }
  return 2.0 * static_cast<double>(bytes) / (Summarise(samples).median * 1e6);
}

}  // namespace tuner
