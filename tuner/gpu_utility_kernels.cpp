#include "gpu_utility_kernels.h"

#include <nvrtc.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tuner {

namespace {

// Keep Fill in step with FillBuffer (buffer_contents.cpp): element i takes the (i+1)-th splitmix64
// value of the seed.
const char* kSource = R"cuda(
__device__ unsigned long long SplitMix(unsigned long long seed, unsigned long long i) {
  unsigned long long z = seed + (i + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
// init: 0 random, 1 zero, 2 one, 3 index (BufferInit order).
template <typename T>
__device__ void Fill(T* data, unsigned long long n, int init, unsigned long long seed, bool floating) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    double v = 0;
    if (init == 0) v = floating ? (double)(SplitMix(seed, i) >> 11) * 0x1.0p-52 - 1.0 : (double)(SplitMix(seed, i) % 100);
    else if (init == 2) v = 1;
    else if (init == 3) v = (double)i;
    data[i] = (T)v;
  }
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

std::string CompileUtilityKernels(int gpu) {
  cudaDeviceProp prop{};
  TUNER_CUDA_CHECK(cudaGetDeviceProperties(&prop, gpu));
  const std::string arch = "-arch=sm_" + std::to_string(prop.major * 10 + prop.minor);
  nvrtcProgram program = nullptr;
  nvrtcCreateProgram(&program, kSource, "tuner_utility.cu", 0, nullptr, nullptr);
  const char* options[] = {arch.c_str(), "-std=c++17"};
  const nvrtcResult status = nvrtcCompileProgram(program, 2, options);
  std::string cubin;
  std::size_t size = 0;
  if (status == NVRTC_SUCCESS && nvrtcGetCUBINSize(program, &size) == NVRTC_SUCCESS) {
    cubin.resize(size);
    nvrtcGetCUBIN(program, cubin.data());
  }
  nvrtcDestroyProgram(&program);
  if (cubin.empty()) throw std::runtime_error(std::string("cannot compile the worker's own kernels: ") + nvrtcGetErrorString(status));
  return cubin;
}

dim3 GridFor(std::size_t count) { return dim3(static_cast<unsigned>(std::clamp<std::size_t>((count + 255) / 256, 1, 65536))); }

}  // namespace

UtilityKernels::UtilityKernels(int gpu)
    : library_(LoadLibrary(CompileUtilityKernels(gpu))), counter_(DeviceAlloc(sizeof(std::uint64_t))) {}

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
  int code = init == BufferInit::kRandom ? 0 : init == BufferInit::kZero ? 1 : init == BufferInit::kOne ? 2 : 3;
  void* args[] = {&data, &n, &code, &seed};
  TUNER_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(Kernel("fill_" + ToString(type))), GridFor(count), dim3(256), args, 0, nullptr));
  TUNER_CUDA_CHECK(cudaDeviceSynchronize());
}

std::uint64_t UtilityKernels::CountMismatches(const void* output, const void* reference, ScalarType type,
                                              std::size_t count, double atol, double rtol) {
  TUNER_CUDA_CHECK(cudaMemset(counter_.get(), 0, sizeof(std::uint64_t)));
  unsigned long long n = count;
  void* counter = counter_.get();
  void* args[] = {&output, &reference, &n, &atol, &rtol, &counter};
  TUNER_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(Kernel("compare_" + ToString(type))), GridFor(count), dim3(256), args, 0, nullptr));
  std::uint64_t mismatches = 0;
  TUNER_CUDA_CHECK(cudaMemcpy(&mismatches, counter_.get(), sizeof mismatches, cudaMemcpyDeviceToHost));
  return mismatches;
}

}  // namespace tuner
