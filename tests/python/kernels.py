"""Kernels the Python tests tune: sources as a user of tune() writes them."""

SCALE = r'''
extern "C" __global__ void scale(float* out, const float* x, float a, int n) {
  int i = blockIdx.x * BLOCK * ITEMS + threadIdx.x;
  for (int k = 0; k < ITEMS; ++k, i += BLOCK)
    if (i < n) out[i] = a * x[i];
}
'''

# bfloat16 through CUDA's header, as a PyTorch extension writes it: out = a * x + y.
AXPY_BF16 = r'''
#include <cuda_bf16.h>
extern "C" __global__ void axpy_bf16(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* y,
                                     float a, int n) {
  int i = (blockIdx.x * BLOCK + threadIdx.x) * ITEMS;
  for (int k = 0; k < ITEMS; ++k, ++i)
    if (i < n) out[i] = __float2bfloat16(a * __bfloat162float(x[i]) + __bfloat162float(y[i]));
}
'''

# A C++ template in a namespace, its parameter passed through the name, with a header beside it.
TEMPLATED = r'''
#include "square.cuh"
namespace demo {
template <int BLOCK>
__global__ void squares(float* out, const float* x, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = square(x[i]);
}
}
'''
SQUARE_HEADER = "__device__ inline float square(float v) { return v * v; }\n"

# Wrong for ITEMS > 1: the last item of each thread is dropped.
SCALE_DROPS_ITEMS = SCALE.replace("for (int k = 0; k < ITEMS;", "for (int k = 0; k < (ITEMS > 1 ? ITEMS - 1 : 1);")
