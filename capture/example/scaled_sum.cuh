// A kernel as applications write it: C++ linkage, a namespace, and its tuning knobs as template
// parameters. NVRTC compiles this header on its own (the capture names it as the source).
#pragma once

namespace app {

// out = alpha * a + b, ITEMS elements per thread, BLOCK threads per block.
template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) scaled_sum(float* out, const float* a, const float* b, float alpha, int n) {
  const int first = blockIdx.x * BLOCK * ITEMS + threadIdx.x;
#pragma unroll
  for (int item = 0; item < ITEMS; ++item) {
    const int i = first + item * BLOCK;
    if (i < n) out[i] = alpha * a[i] + b[i];
  }
}

}  // namespace app
