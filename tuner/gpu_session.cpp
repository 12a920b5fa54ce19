#include "gpu_session.h"

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

#include "buffer_contents.h"
#include "sample_stats.h"

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

// Errors after which the CUDA context is lost: the process must be replaced.
bool IsSticky(cudaError_t code) {
  switch (code) {
    case cudaErrorIllegalAddress: case cudaErrorLaunchFailure: case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress: case cudaErrorInvalidAddressSpace: case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError: case cudaErrorAssert: case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable: case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

std::string Describe(cudaError_t code) { return std::string(cudaGetErrorName(code)) + ": " + cudaGetErrorString(code); }

void StoreScalar(std::uint64_t& slot, ScalarType type, double value) {
  switch (type) {
    case ScalarType::kFloat: { const float v = static_cast<float>(value); std::memcpy(&slot, &v, sizeof v); break; }
    case ScalarType::kDouble: std::memcpy(&slot, &value, sizeof value); break;
    case ScalarType::kInt: { const auto v = static_cast<std::int32_t>(value); std::memcpy(&slot, &v, sizeof v); break; }
    case ScalarType::kUint: { const auto v = static_cast<std::uint32_t>(value); std::memcpy(&slot, &v, sizeof v); break; }
    case ScalarType::kInt64: { const auto v = static_cast<std::int64_t>(value); std::memcpy(&slot, &v, sizeof v); break; }
    case ScalarType::kUint64: { const auto v = static_cast<std::uint64_t>(value); std::memcpy(&slot, &v, sizeof v); break; }
  }
}

}  // namespace

GpuSession::GpuSession(const SetupRequest& setup) : atol_(setup.atol), rtol_(setup.rtol) {
  TUNER_CUDA_CHECK(cudaSetDevice(setup.gpu));
  unsigned long long seed = setup.seed;
  for (const BufferDecl& decl : setup.buffers) {
    Buffer buffer{decl, DeviceAlloc(decl.count * SizeOf(decl.type)), {}, {}};
    buffer.initial.resize(decl.count * SizeOf(decl.type));
    FillBuffer(buffer.initial.data(), decl.type, decl.count, decl.init, seed++);
    TUNER_CUDA_CHECK(cudaMemcpy(buffer.device.get(), buffer.initial.data(), buffer.initial.size(), cudaMemcpyHostToDevice));
    if (decl.output) buffer.initial.clear();  // outputs are re-initialised on the device
    has_zeroed_outputs_ |= decl.output && decl.init == BufferInit::kZero;
    buffers_.emplace(decl.name, std::move(buffer));
  }
  int l2_bytes = 0;
  TUNER_CUDA_CHECK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, setup.gpu));
  flush_bytes_ = static_cast<std::size_t>(l2_bytes) * 2;  // twice L2, so nothing of the inputs stays
  flush_buffer_ = DeviceAlloc(flush_bytes_);
  WarmUpClocks();

  Library library = LoadLibrary(ReadBinary(setup.reference.cubin_path));
  cudaKernel_t kernel = nullptr;
  TUNER_CUDA_CHECK(cudaLibraryGetKernel(&kernel, library.get(), setup.reference.kernel.c_str()));
  CopySymbols(setup.reference, library.get());
  PrepareOutputs(true);
  Launch(kernel, setup.reference);
  TUNER_CUDA_CHECK(cudaDeviceSynchronize());
  for (auto& [name, buffer] : buffers_) {
    if (!buffer.decl.output) continue;
    buffer.reference.resize(buffer.decl.count * SizeOf(buffer.decl.type));
    TUNER_CUDA_CHECK(cudaMemcpy(buffer.reference.data(), buffer.device.get(), buffer.reference.size(), cudaMemcpyDeviceToHost));
  }
}

void GpuSession::WarmUpClocks() {
  // Idle GPUs start at low clocks; keep the memory system busy until they have risen.
  const auto until = Clock::now() + std::chrono::milliseconds(300);
  while (Clock::now() < until) {
    for (int i = 0; i < 10; ++i) FlushL2();
    TUNER_CUDA_CHECK(cudaDeviceSynchronize());
  }
}

void GpuSession::FlushL2() { TUNER_CUDA_CHECK(cudaMemsetAsync(flush_buffer_.get(), 0, flush_bytes_)); }

void GpuSession::PrepareOutputs(bool poison) {
  for (auto& [name, buffer] : buffers_) {
    if (!buffer.decl.output) continue;
    const bool zero = buffer.decl.init == BufferInit::kZero;
    if (zero || poison)
      TUNER_CUDA_CHECK(cudaMemsetAsync(buffer.device.get(), zero ? 0 : 0xFF, buffer.decl.count * SizeOf(buffer.decl.type)));
  }
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

void GpuSession::CopySymbols(const KernelLaunch& launch, cudaLibrary_t library) {
  for (const SymbolSpec& symbol : launch.symbols) {
    void* address = nullptr;
    std::size_t bytes = 0;
    TUNER_CUDA_CHECK(cudaLibraryGetGlobal(&address, &bytes, library, symbol.name.c_str()));
    const std::string& contents = buffers_.at(symbol.from).initial;
    TUNER_CUDA_CHECK(cudaMemcpy(address, contents.data(), std::min(bytes, contents.size()), cudaMemcpyHostToDevice));
  }
}

void GpuSession::Launch(cudaKernel_t kernel, const KernelLaunch& launch) {
  std::vector<std::uint64_t> storage;
  std::vector<void*> args = ArgPointers(launch, storage);
  const auto& g = launch.geometry;
  const dim3 grid(g.grid[0], g.grid[1], g.grid[2]);
  const dim3 block(g.block[0], g.block[1], g.block[2]);
  TUNER_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args.data(), g.shared_bytes, nullptr));
}

std::string GpuSession::Verify() {
  std::string host;
  for (auto& [name, buffer] : buffers_) {
    if (!buffer.decl.output) continue;
    host.resize(buffer.reference.size());
    TUNER_CUDA_CHECK(cudaMemcpy(host.data(), buffer.device.get(), host.size(), cudaMemcpyDeviceToHost));
    const Comparison result = CompareBuffers(host.data(), buffer.reference.data(), buffer.decl.type, buffer.decl.count, atol_, rtol_);
    if (!result.Passed()) return result.Describe(name);
  }
  return "";
}

std::vector<double> GpuSession::TimeSamples(cudaKernel_t kernel, const KernelLaunch& launch, const MeasureRequest& request) {
  Event start = MakeEvent(), stop = MakeEvent();
  std::vector<double> samples;
  const auto deadline = Clock::now() + std::chrono::duration<double, std::milli>(request.time_cap_ms);
  for (int warm = 0; warm < 2; ++warm) Launch(kernel, launch);
  while (static_cast<int>(samples.size()) < request.max_samples) {
    FlushL2();
    if (has_zeroed_outputs_) PrepareOutputs(false);
    TUNER_CUDA_CHECK(cudaEventRecord(start.get()));
    Launch(kernel, launch);
    TUNER_CUDA_CHECK(cudaEventRecord(stop.get()));
    TUNER_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    TUNER_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    samples.push_back(ms);
    const int n = static_cast<int>(samples.size());
    if (n < request.min_samples) continue;
    if (request.stop_if_slower_than_ms > 0 && Summarise(samples).median > request.stop_if_slower_than_ms) break;
    if (Clock::now() > deadline) break;
    if (n >= 10 && Summarise(samples).spread < request.target_spread) break;
  }
  return samples;
}

nlohmann::json GpuSession::Measure(const MeasureRequest& request) {
  const KernelLaunch& launch = request.launch;
  Library library = LoadLibrary(ReadBinary(launch.cubin_path));
  cudaKernel_t kernel = nullptr;
  TUNER_CUDA_CHECK(cudaLibraryGetKernel(&kernel, library.get(), launch.kernel.c_str()));
  const void* func = reinterpret_cast<const void*>(kernel);
  const long long threads = launch.geometry.ThreadsPerBlock();
  if (launch.geometry.shared_bytes > 48 * 1024)
    TUNER_CUDA_CHECK(cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(launch.geometry.shared_bytes)));
  cudaFuncAttributes attributes{};
  TUNER_CUDA_CHECK(cudaFuncGetAttributes(&attributes, func));
  int blocks_per_sm = 0;
  TUNER_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, func, static_cast<int>(threads), launch.geometry.shared_bytes));
  nlohmann::json reply = {{"regs_per_thread", attributes.numRegs},
                          {"static_smem_bytes", attributes.sharedSizeBytes},
                          {"runtime_blocks_per_sm", blocks_per_sm}};
  if (blocks_per_sm == 0) {
    reply["status"] = "invalid";
    reply["reason"] = "the runtime reports 0 blocks per SM for this kernel and block";
    return reply;
  }
  CopySymbols(launch, library.get());
  PrepareOutputs(true);
  std::vector<std::uint64_t> storage;
  std::vector<void*> args = ArgPointers(launch, storage);
  const auto& g = launch.geometry;
  cudaError_t status = cudaLaunchKernel(func, dim3(g.grid[0], g.grid[1], g.grid[2]), dim3(g.block[0], g.block[1], g.block[2]),
                                        args.data(), g.shared_bytes, nullptr);
  if (status == cudaSuccess) status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    if (IsSticky(status)) throw CudaError(status, Describe(status));
    cudaGetLastError();  // clear a non-sticky launch error
    reply["status"] = "launch_error";
    reply["reason"] = Describe(status);
    return reply;
  }
  const std::string mismatch = Verify();
  if (!mismatch.empty()) {
    reply["status"] = "wrong_result";
    reply["reason"] = mismatch;
    return reply;
  }
  const SampleStats stats = Summarise(TimeSamples(kernel, launch, request));
  reply["status"] = "ok";
  reply["time_ms_median"] = stats.median;
  reply["time_ms_min"] = stats.min;
  reply["time_ms_max"] = stats.max;
  reply["time_ms_spread"] = stats.spread;
  reply["samples"] = stats.count;
  return reply;
}

double GpuSession::CopyBandwidthGbps(std::size_t bytes) {
  DevicePointer source = DeviceAlloc(bytes), target = DeviceAlloc(bytes);
  TUNER_CUDA_CHECK(cudaMemset(source.get(), 1, bytes));
  Event start = MakeEvent(), stop = MakeEvent();
  std::vector<double> samples;
  for (int i = 0; i < 23; ++i) {
    TUNER_CUDA_CHECK(cudaEventRecord(start.get()));
    TUNER_CUDA_CHECK(cudaMemcpyAsync(target.get(), source.get(), bytes, cudaMemcpyDeviceToDevice));
    TUNER_CUDA_CHECK(cudaEventRecord(stop.get()));
    TUNER_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    TUNER_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    if (i >= 3) samples.push_back(ms);  // the first copies warm up
  }
  return 2.0 * static_cast<double>(bytes) / (Summarise(samples).median * 1e6);
}

}  // namespace tuner
