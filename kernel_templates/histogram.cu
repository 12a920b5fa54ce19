// Histogram of n values into nbins counters (cleared before each launch); a value outside
// [0, nbins) is not counted. Speed depends on the data: atomics on one address serialise, so the
// more values share a bin (skew), the more privatisation and aggregation pay.
// VARIANT 0: global atomics, one per value
// VARIANT 1: shared-memory privatised: a block counts into its own shared histogram, then adds
//            its nonzero bins to the global one
// VARIANT 2: as 1, and a warp first combines the lanes that hold the same value (__match_any_sync),
//            so one lane adds the count of its group: a run of equal values costs one atomic
// VARIANT 3: warp-aggregated global atomics, no shared memory (large nbins)
// Block b covers the BLOCK * ITEMS consecutive values from b * BLOCK * ITEMS, loaded BLOCK apart
// (coalesced). BLOCK is a multiple of 32, so every lane of a warp runs the same iterations.

// Reference: one thread per value, one global atomic each; independent of the tuned code paths.
extern "C" __global__ void histogram_reference(unsigned int* bins, const unsigned int* data, int n, int nbins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] < (unsigned)nbins) atomicAdd(&bins[data[i]], 1u);
}

#ifndef VARIANT
#define VARIANT 1
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 4
#endif

// Adds `count` to counters[value] once per group of lanes holding the same value (VARIANT 2, 3),
// or once per lane. Every lane of the warp calls it; `value` is ~0u for lanes without a value.
__device__ __forceinline__ void count_value(unsigned int* counters, unsigned int value, unsigned int nbins) {
#if VARIANT >= 2
  const unsigned int group = __match_any_sync(0xffffffffu, value);
  const bool leader = (threadIdx.x & 31) == __ffs(group) - 1;
  if (leader && value < nbins) atomicAdd(&counters[value], (unsigned int)__popc(group));
#else
  if (value < nbins) atomicAdd(&counters[value], 1u);
#endif
}

extern "C" __global__ void __launch_bounds__(BLOCK)
histogram(unsigned int* __restrict__ bins, const unsigned int* __restrict__ data, int n, int nbins) {
#if VARIANT == 1 || VARIANT == 2
  extern __shared__ unsigned int local[];
  for (int b = threadIdx.x; b < nbins; b += BLOCK) local[b] = 0;
  __syncthreads();
  unsigned int* counters = local;
#else
  unsigned int* counters = bins;
#endif
  const long long base = (long long)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    const long long i = base + (long long)k * BLOCK;
    count_value(counters, i < n ? __ldg(&data[i]) : ~0u, (unsigned int)nbins);
  }
#if VARIANT == 1 || VARIANT == 2
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += BLOCK)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
#endif
}
