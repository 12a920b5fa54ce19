// A compute-heavy element-wise kernel for the streams lesson: out[i] = ITERS dependent FMAs on in[i].
// At the default sizes its time on the GPU is near the time to copy its input in and its output out
// over PCIe, so how the host pipelines the copies decides the total: one stream and one chunk does
// copy in, compute, copy out one after the other; chunks over several streams overlap them (the
// [pipeline] of streams.toml, whose parameters are all the host's).
// A step is __fmaf_rn, one rounding, in the same order as the reference: bit for bit the same.

__device__ __forceinline__ float steps(float x, int iters) {
#pragma unroll 8
  for (int k = 0; k < iters; ++k) x = __fmaf_rn(x, 0.999f, 0.001f);
  return x;
}

extern "C" __global__ void streams_reference(float* __restrict__ out, const float* __restrict__ in, long long n, int iters) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = steps(in[i], iters);
}

// One element per thread; in a pipeline n is the chunk's length and the pointers its start.
extern "C" __global__ void __launch_bounds__(BLOCK)
streams(float* __restrict__ out, const float* __restrict__ in, long long n, int iters) {
  const long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = steps(in[i], iters);
}
