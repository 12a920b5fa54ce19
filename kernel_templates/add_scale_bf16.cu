// out = (x + y) * alpha on bfloat16 arrays, each element computed in fp32 and rounded once to
// bfloat16: the memory-bound shape of the elementwise kernels around bf16 matrix products. Each
// thread moves ITEMS vectors of VEC_BYTES bytes of each array (VEC = VEC_BYTES / 2 elements),
// BLOCK vectors apart so that a warp's accesses are contiguous, every load issued before the first
// store. The elements past the last whole vector are done by the first block.
// Written without CUDA's headers (NVRTC finds none without the toolkit's include folder): a
// bfloat16 is its 16 bits, widened to fp32 by a shift and rounded by PTX's cvt.rn.bf16.f32 (sm_80 and
// newer; older GPUs round on the bits).

#define VEC (VEC_BYTES / 2)

typedef unsigned short bf16;  // the bits of __nv_bfloat16

struct __align__(VEC_BYTES) Vector {
  bf16 v[VEC];
};

__device__ __forceinline__ float Widen(bf16 b) { return __uint_as_float((unsigned int)b << 16); }

__device__ __forceinline__ bf16 Round(float f) {
#if __CUDA_ARCH__ >= 800
  unsigned short r;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(f));
  return r;
#else  // older GPUs have no bfloat16 conversion: ties to even on the bits
  const unsigned int u = __float_as_uint(f);
  return (u & 0x7FFFFFFFu) > 0x7F800000u ? (bf16)0x7FC0 : (bf16)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
#endif
}

__device__ __forceinline__ bf16 AddScale(bf16 x, bf16 y, float alpha) { return Round((Widen(x) + Widen(y)) * alpha); }

// The reference: element i at thread i, in double, rounded to float and then to bfloat16 with ties
// to even by integer arithmetic on the bits (no PTX conversion shared with the tuned kernel).
extern "C" __global__ void add_scale_bf16_reference(bf16* out, const bf16* x, const bf16* y, bf16 alpha, long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double exact = ((double)Widen(x[i]) + (double)Widen(y[i])) * (double)Widen(alpha);
  const unsigned int u = __float_as_uint((float)exact);
  out[i] = (u & 0x7FFFFFFFu) > 0x7F800000u ? (bf16)0x7FC0 : (bf16)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

extern "C" __global__ void __launch_bounds__(BLOCK)
add_scale_bf16(bf16* __restrict__ out, const bf16* __restrict__ x, const bf16* __restrict__ y, bf16 alpha_bits,
               long long n) {
  const float alpha = Widen(alpha_bits);
  const long long vectors = n / VEC;
  const long long first = (long long)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
  Vector a[ITEMS], b[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const long long v = first + (long long)j * BLOCK;
    if (v < vectors) {
      a[j] = reinterpret_cast<const Vector*>(x)[v];
      b[j] = reinterpret_cast<const Vector*>(y)[v];
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const long long w = first + (long long)j * BLOCK;
    if (w >= vectors) continue;
    Vector r;
#pragma unroll
    for (int k = 0; k < VEC; ++k) r.v[k] = AddScale(a[j].v[k], b[j].v[k], alpha);
    reinterpret_cast<Vector*>(out)[w] = r;
  }
  if (blockIdx.x == 0)
    for (long long i = vectors * VEC + threadIdx.x; i < n; i += BLOCK) out[i] = AddScale(x[i], y[i], alpha);
}
