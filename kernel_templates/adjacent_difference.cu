// out[0] = in[0], out[i] = in[i] - in[i - 1] (std::adjacent_difference), fp32.
// VARIANT 0 (naive): every thread reads both of its inputs from global memory, so each value is
//   loaded twice (the second load usually hits L1/L2).
// VARIANT 1 (shared): a block stages its ITEMS * BLOCK inputs plus the one before them in shared
//   memory with coalesced loads, then reads neighbours from there: each value is loaded once.
// Each thread handles ITEMS elements BLOCK apart (coalesced at every step).

// The reference: element i at thread i, the difference in double, rounded once to float.
extern "C" __global__ void adjacent_difference_reference(float* __restrict__ out, const float* __restrict__ in, long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)(i == 0 ? (double)in[0] : (double)in[i] - (double)in[i - 1]);
}

extern "C" __global__ void __launch_bounds__(BLOCK)
adjacent_difference(float* __restrict__ out, const float* __restrict__ in, long long n) {
  const long long first = (long long)blockIdx.x * BLOCK * ITEMS;
#if VARIANT == 0
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    long long i = first + (long long)j * BLOCK + threadIdx.x;
    if (i < n) out[i] = i > 0 ? in[i] - in[i - 1] : in[i];
  }
#else
  __shared__ float s[BLOCK * ITEMS + 1];  // s[k + 1] = in[first + k]; s[0] = in[first - 1]
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    int k = j * BLOCK + threadIdx.x;
    if (first + k < n) s[k + 1] = in[first + k];
  }
  if (threadIdx.x == 0) s[0] = first > 0 ? in[first - 1] : 0.0f;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    int k = j * BLOCK + threadIdx.x;
    long long i = first + k;
    if (i < n) out[i] = s[k + 1] - s[k];
  }
#endif
}
