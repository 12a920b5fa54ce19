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
// How an element is stored: a plain C++ type, or the bits of a narrow float (half, bfloat16, fp8)
// encoded and decoded as narrow_float.cpp does on the host (round to nearest even; fp8 saturates),
// so that no CUDA header is needed and host and GPU fills agree bit for bit.
template <typename T>
struct Plain {
  typedef T Storage;
  static __device__ double Load(T v) { return (double)v; }
  static __device__ T Store(double v, bool floating) { return floating ? (T)v : (T)(long long)v; }
};
__device__ double LargestFinite(int e, int m, bool inf) {
  const int bias = (1 << (e - 1)) - 1, top = (1 << e) - 1;
  return inf ? ldexp((double)((2 << m) - 1), top - 1 - bias - m) : ldexp((double)((2 << m) - 2), top - bias - m);
}
__device__ unsigned int EncodeNarrow(double value, int e, int m, bool inf, bool saturate) {
  const unsigned int sign = signbit(value) ? 1u << (e + m) : 0u, all_exponent = ((1u << e) - 1) << m;
  const unsigned int nan = inf ? all_exponent | (1u << (m - 1)) : all_exponent | ((1u << m) - 1);
  const unsigned int overflow = saturate ? (inf ? all_exponent - 1 : nan - 1) : (inf ? all_exponent : nan);
  if (isnan(value)) return sign | nan;
  const double magnitude = fabs(value);
  if (isinf(magnitude)) return sign | overflow;
  if (magnitude == 0) return sign;
  const int bias = (1 << (e - 1)) - 1;
  int exponent = max(ilogb(magnitude), 1 - bias);
  const double units = rint(ldexp(magnitude, m - exponent));
  if (ldexp(units, exponent - m) > LargestFinite(e, m, inf)) return sign | overflow;
  unsigned int whole = (unsigned int)units;
  if (whole >> (m + 1)) { whole >>= 1; ++exponent; }
  if (whole < (1u << m)) return sign | whole;
  return sign | ((unsigned int)(exponent + bias) << m) | (whole & ((1u << m) - 1));
}
__device__ double DecodeNarrow(unsigned int bits, int e, int m, bool inf) {
  const double sign = bits & (1u << (e + m)) ? -1.0 : 1.0;
  const unsigned int biased = (bits >> m) & ((1u << e) - 1), mantissa = bits & ((1u << m) - 1);
  const int bias = (1 << (e - 1)) - 1;
  const double infinity = __longlong_as_double(0x7FF0000000000000LL), quiet_nan = __longlong_as_double(0x7FF8000000000000LL);
  if (inf && biased == (1u << e) - 1) return mantissa ? quiet_nan : sign * infinity;
  if (!inf && biased == (1u << e) - 1 && mantissa == (1u << m) - 1) return quiet_nan;
  if (biased == 0) return sign * ldexp((double)mantissa, 1 - bias - m);
  return sign * ldexp((double)((1u << m) | mantissa), (int)biased - bias - m);
}
template <typename B, int E, int M, bool INF, bool SATURATE>
struct Narrow {
  typedef B Storage;
  static __device__ double Load(B v) { return DecodeNarrow(v, E, M, INF); }
  static __device__ B Store(double v, bool) { return (B)EncodeNarrow((float)v, E, M, INF, SATURATE); }
};
// init: 0 random, 1 zero, 2 one, 3 index, 4 random_int.
template <typename Codec>
__device__ void Fill(typename Codec::Storage* data, unsigned long long n, int init, unsigned long long seed,
                     bool floating) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    double v = 0;
    if (init == 0) v = floating ? (double)(SplitMix(seed, i) >> 11) * 0x1.0p-52 - 1.0 : (double)(SplitMix(seed, i) % 100);
    else if (init == 2) v = 1;
    else if (init == 3) v = (double)i;
    else if (init == 4) v = RandomInt(SplitMix(seed, i));
    data[i] = Codec::Store(v, floating);
  }
}
extern "C" __global__ void checksum(const unsigned int* words, unsigned long long bytes, unsigned long long* sum) {
  const unsigned long long n = bytes / 4;
  unsigned long long local = 0;
  if (bytes % 4 && blockIdx.x == 0 && threadIdx.x == 0) {  // the last word, padded with zero bytes
    unsigned int last = 0;
    for (unsigned int b = 0; b < bytes % 4; ++b) last |= (unsigned int)((const unsigned char*)words)[n * 4 + b] << (8 * b);
    local = Mix(n * 0x9E3779B97F4A7C15ULL + last);
  }
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    local += Mix(i * 0x9E3779B97F4A7C15ULL + words[i]);
  for (int offset = 16; offset > 0; offset /= 2) local += __shfl_down_sync(0xFFFFFFFFu, local, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, local);
}
template <typename Codec>
__device__ void Compare(const typename Codec::Storage* out, const typename Codec::Storage* ref, unsigned long long n,
                        double atol, double rtol, unsigned long long* mismatches) {
  unsigned long long local = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    const double o = Codec::Load(out[i]), r = Codec::Load(ref[i]);
    local += !(isfinite(o) && fabs(o - r) <= atol + rtol * fabs(r));  // NaN fails every comparison
  }
  if (local) atomicAdd(mismatches, local);
}
#define KERNELS(NAME, CODEC, FLOATING)                                                                 \
  extern "C" __global__ void fill_##NAME(CODEC::Storage* d, unsigned long long n, int init,            \
                                         unsigned long long s) { Fill<CODEC>(d, n, init, s, FLOATING); } \
  extern "C" __global__ void compare_##NAME(const CODEC::Storage* o, const CODEC::Storage* r,          \
                                            unsigned long long n, double a, double t,                  \
                                            unsigned long long* m) { Compare<CODEC>(o, r, n, a, t, m); }
KERNELS(float, Plain<float>, true)
KERNELS(double, Plain<double>, true)
KERNELS(int, Plain<int>, false)
KERNELS(uint, Plain<unsigned int>, false)
KERNELS(int64, Plain<long long>, false)
KERNELS(uint64, Plain<unsigned long long>, false)
KERNELS(int8, Plain<signed char>, false)
KERNELS(uint8, Plain<unsigned char>, false)
KERNELS(int16, Plain<short>, false)
KERNELS(uint16, Plain<unsigned short>, false)
typedef Narrow<unsigned short, 5, 10, true, false> Half;
typedef Narrow<unsigned short, 8, 7, true, false> Bfloat16;
typedef Narrow<unsigned char, 4, 3, false, true> Fp8E4m3;
typedef Narrow<unsigned char, 5, 2, true, true> Fp8E5m2;
KERNELS(half, Half, true)
KERNELS(bfloat16, Bfloat16, true)
KERNELS(fp8_e4m3, Fp8E4m3, true)
KERNELS(fp8_e5m2, Fp8E5m2, true)
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
  unsigned long long n = bytes;
  void* sum = counter_.get();
  void* args[] = {&data, &n, &sum};
  TUNER_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(Kernel("checksum")), GridFor(bytes / 4 + 1),
                                    dim3(256), args, 0, nullptr));
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
