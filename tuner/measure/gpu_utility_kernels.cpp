#include "measure/gpu_utility_kernels.h"

#include <nvrtc.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "cuda/nvrtc_program.h"
#include "base/gpu_identity.h"

namespace tuner {

namespace {

// Keep Fill and Checksum in step with FillBuffer and Checksum (buffer_contents.cpp): element i takes
// the (i+1)-th splitmix64 value of the seed.
const char* kSource = R"cuda(
__device__ unsigned long long Mix(unsigned long long z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
__device__ unsigned long long SplitMix(unsigned long long seed, unsigned long long i) {
  return Mix(seed + (i + 1) * 0x9E3779B97F4A7C15ULL);
}
__device__ double RandomInt(unsigned long long z) {
  const long long u = (long long)((z >> 32) % 65) - 32;
  const long long b = (z & 0xFFFFFFFFull) % 3 == 0;
  return (double)(1 + 3 * (u - b));
}
// init: 0 random, 1 zero, 2 one, 3 index, 4 random_int.
template <typename T>
__device__ void Fill(T* data, unsigned long long n, int init, unsigned long long seed, bool floating) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    double v = 0;
    if (init == 0) v = floating ? (double)(SplitMix(seed, i) >> 11) * 0x1.0p-52 - 1.0 : (double)(SplitMix(seed, i) % 100);
    else if (init == 2) v = 1;
    else if (init == 3) v = (double)i;
    else if (init == 4) v = RandomInt(SplitMix(seed, i));
    data[i] = floating ? (T)v : (T)(long long)v;
  }
}
extern "C" __global__ void checksum(const unsigned int* words, unsigned long long n, unsigned long long* sum) {
  unsigned long long local = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    local += Mix(i * 0x9E3779B97F4A7C15ULL + words[i]);
  for (int offset = 16; offset > 0; offset /= 2) local += __shfl_down_sync(0xFFFFFFFFu, local, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, local);
}
template <typename T>
__device__ void Compare(const T* out, const T* ref, unsigned long long n, double atol, double rtol,
                        unsigned long long* mismatches) {
  unsigned long long local = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    const double o = (double)out[i], r = (double)ref[i];
    local += !(isfinite(o) && fabs(o - r) <= atol + rtol * fabs(r));  // NaN fails every comparison
  }
  if (local) atomicAdd(mismatches, local);
}
#define KERNELS(NAME, T, FLOATING)                                                                  \
  extern "C" __global__ void fill_##NAME(T* d, unsigned long long n, int init, unsigned long long s) { \
    Fill<T>(d, n, init, s, FLOATING);                                                               \
  }                                                                                                 \
  extern "C" __global__ void compare_##NAME(const T* o, const T* r, unsigned long long n, double a,   \
                                            double t, unsigned long long* m) { Compare<T>(o, r, n, a, t, m); }
KERNELS(float, float, true)
KERNELS(double, double, true)
KERNELS(int, int, false)
KERNELS(uint, unsigned int, false)
KERNELS(int64, long long, false)
KERNELS(uint64, unsigned long long, false)
)cuda";

// The worker's GPU as NVRTC names it: two attributes, not the whole of its properties.
std::string ArchOf(int gpu) {
  int major = 0, minor = 0;
  TUNER_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, gpu));
  TUNER_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, gpu));
  return ArchName(major, minor);
}

dim3 GridFor(std::size_t count) {
  return dim3(static_cast<unsigned>(std::clamp<std::size_t>((count + 255) / 256, 1, 65536)));
}

}  // namespace

std::string CompileUtilityKernels(const std::string& arch) {
  NvrtcProgram program(kSource, "tuner_utility.cu");
  const nvrtcResult status = program.Compile({"-arch=" + arch, "-std=c++17"});
  if (status != NVRTC_SUCCESS)
    throw std::runtime_error(std::string("cannot compile the worker's own kernels: ") + nvrtcGetErrorString(status) +
                             "\n" + program.Log());
  return program.Cubin();
}

UtilityKernels::UtilityKernels(int gpu)
    : library_(LoadLibrary(CompileUtilityKernels(ArchOf(gpu)))), counter_(DeviceAlloc(sizeof(std::uint64_t))) {}

cudaKernel_t UtilityKernels::Kernel(const std::string& name) const {
  cudaKernel_t kernel = nullptr;
  TUNER_CUDA_CHECK(cudaLibraryGetKernel(&kernel, library_.get(), name.c_str()));
  return kernel;
}

void UtilityKernels::Fill(void* data, ScalarType type, std::size_t count, BufferInit init, unsigned long long seed) {
  if (init == BufferInit::kPoison) {
    TUNER_CUDA_CHECK(cudaMemset(data, 0xFF, count * SizeOf(type)));
    return;
  }
  unsigned long long n = count;
  int code = 0;
  switch (init) {
    case BufferInit::kRandom:
      code = 0;
      break;
    case BufferInit::kZero:
      code = 1;
      break;
    case BufferInit::kOne:
      code = 2;
      break;
    case BufferInit::kIndex:
      code = 3;
      break;
    case BufferInit::kRandomInt:
      code = 4;
      break;
    case BufferInit::kPoison:
      break;  // handled above
    case BufferInit::kFile:
      throw std::invalid_argument("a buffer from a file is read (GpuSession::LoadFile), not filled");
  }
  void* args[] = {&data, &n, &code, &seed};
  TUNER_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(Kernel("fill_" + ToString(type))), GridFor(count),
                                    dim3(256), args, 0, nullptr));
  TUNER_CUDA_CHECK(cudaDeviceSynchronize());
}

std::uint64_t UtilityKernels::Checksum(const void* data, std::size_t bytes) {
  TUNER_CUDA_CHECK(cudaMemset(counter_.get(), 0, sizeof(std::uint64_t)));
  unsigned long long n = bytes / 4;
  void* sum = counter_.get();
  void* args[] = {&data, &n, &sum};
  TUNER_CUDA_CHECK(
      cudaLaunchKernel(reinterpret_cast<const void*>(Kernel("checksum")), GridFor(n), dim3(256), args, 0, nullptr));
  std::uint64_t checksum = 0;
  TUNER_CUDA_CHECK(cudaMemcpy(&checksum, counter_.get(), sizeof checksum, cudaMemcpyDeviceToHost));
  return checksum;
}

std::uint64_t UtilityKernels::CountMismatches(const void* output, const void* reference, ScalarType type,
                                              std::size_t count, double atol, double rtol) {
  TUNER_CUDA_CHECK(cudaMemset(counter_.get(), 0, sizeof(std::uint64_t)));
  unsigned long long n = count;
  void* counter = counter_.get();
  void* args[] = {&output, &reference, &n, &atol, &rtol, &counter};
  TUNER_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(Kernel("compare_" + ToString(type))), GridFor(count),
                                    dim3(256), args, 0, nullptr));
  std::uint64_t mismatches = 0;
  TUNER_CUDA_CHECK(cudaMemcpy(&mismatches, counter_.get(), sizeof mismatches, cudaMemcpyDeviceToHost));
  return mismatches;
}

}  // namespace tuner
