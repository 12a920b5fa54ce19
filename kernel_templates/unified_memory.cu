// Unified memory: out[i] = x[i] * 2 + y[i] on managed buffers that start in host memory
// (unified_memory.toml's [pipeline] with memory 2 or 3). Without a prefetch the kernel's first
// touch of every page faults, and the driver migrates pages on demand; with cudaMemPrefetchAsync
// the host moves each chunk (the prefetch granularity) before its kernel runs and its results back
// after. A step is __fmaf_rn, one rounding, as in the reference: bit for bit the same.

extern "C" __global__ void unified_memory_reference(float* __restrict__ out, const float* __restrict__ x,
                                                    const float* __restrict__ y, long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __fmaf_rn(x[i], 2.0f, y[i]);
}

// ITEMS elements per thread, BLOCK apart; in a pipeline n is the chunk's length.
extern "C" __global__ void __launch_bounds__(BLOCK)
unified_memory(float* __restrict__ out, const float* __restrict__ x, const float* __restrict__ y, long long n) {
  const long long first = (long long)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    const long long k = first + (long long)j * BLOCK;
    if (k < n) out[k] = __fmaf_rn(x[k], 2.0f, y[k]);
  }
}
