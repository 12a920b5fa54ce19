// Sum of n fp32 values into *out (cleared before each launch); block totals are added with atomics
// (see add_block_total), so every block size and variant produces the same output up to rounding.
// VARIANT 0: interleaved addressing, divergent branch (tid % (2s) == 0)
// VARIANT 1: interleaved addressing without divergence (strided index, bank conflicts)
// VARIANT 2: sequential addressing (conflict-free, no divergence within active warps)
// VARIANT 3: first add during load: each thread adds ITEMS >= 2 values while loading, then the tree of 2
// VARIANT 4: ITEMS loads per thread in flight at once, then warp shuffles (no shared-memory tree)
// VEC = 4 reads float4 (the n % 4 tail is added by block 0).
// Block b covers the BLOCK * ITEMS * VEC consecutive values from b * BLOCK * ITEMS * VEC.

// Reference: block partial sums in double, added in double; the last block to finish writes *out
// (and resets the accumulators, so the module can be launched again).
__device__ double ref_sum;
__device__ unsigned int ref_blocks_done;

extern "C" __global__ void __launch_bounds__(256)
reduction_reference(const float* __restrict__ in, float* __restrict__ out, long long n) {
  __shared__ double partial[256];
  double sum = 0.0;
  for (long long i = (long long)blockIdx.x * 256 + threadIdx.x; i < n; i += (long long)gridDim.x * 256) sum += in[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(&ref_sum, partial[0]);
    __threadfence();
    if (atomicAdd(&ref_blocks_done, 1u) == gridDim.x - 1) {
      double total = atomicAdd(&ref_sum, 0.0);
      *out = (float)total;
      ref_sum = 0.0;
      ref_blocks_done = 0;
    }
  }
}

__device__ __forceinline__ float thread_sum(const float* __restrict__ in, long long n) {
  float sum = 0.0f;
#if VEC == 4
  const float4* in4 = reinterpret_cast<const float4*>(in);
  const long long n4 = n / 4;
  const long long base = (long long)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
  float4 v[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {  // all loads issued before any add
    long long i = base + (long long)j * BLOCK;
    v[j] = i < n4 ? in4[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) sum += (v[j].x + v[j].y) + (v[j].z + v[j].w);
  if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4) sum += in[n4 * 4 + threadIdx.x];
#else
  const long long base = (long long)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
  float v[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
    long long i = base + (long long)j * BLOCK;
    v[j] = i < n ? in[i] : 0.0f;
  }
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) sum += v[j];
#endif
  return sum;
}

// Block totals reach *out in two steps so that no single address takes one atomic per block
// (same-address atomics serialise in L2 at ~2 ns each, which would cap the classic one-value-per-
// thread variants at ~550 GB/s): block b adds its total to slot b % SLOTS; the last block of a slot
// to finish adds the slot's total to *out and clears the slot for the next launch.
#define SLOTS 32
#define SLOT_STRIDE 32  // one 128-byte line per slot
__device__ float slot_sum[SLOTS * SLOT_STRIDE];
__device__ unsigned int slot_done[SLOTS * SLOT_STRIDE];

__device__ __forceinline__ void add_block_total(float* out, float total) {  // thread 0 only
  const unsigned int s = blockIdx.x % SLOTS;
  const unsigned int blocks_in_slot = (gridDim.x - s + SLOTS - 1) / SLOTS;
  atomicAdd(&slot_sum[s * SLOT_STRIDE], total);
  __threadfence();
  if (atomicAdd(&slot_done[s * SLOT_STRIDE], 1u) == blocks_in_slot - 1) {
    atomicAdd(out, atomicExch(&slot_sum[s * SLOT_STRIDE], 0.0f));
    slot_done[s * SLOT_STRIDE] = 0;
  }
}

extern "C" __global__ void __launch_bounds__(BLOCK)
reduction(const float* __restrict__ in, float* __restrict__ out, long long n) {
  const int tid = threadIdx.x;
  float sum = thread_sum(in, n);
#if VARIANT <= 3
  __shared__ float sdata[BLOCK];
  sdata[tid] = sum;
  __syncthreads();
#if VARIANT == 0
  for (int s = 1; s < BLOCK; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
#elif VARIANT == 1
  for (int s = 1; s < BLOCK; s *= 2) {
    int index = 2 * s * tid;
    if (index < BLOCK) sdata[index] += sdata[index + s];
    __syncthreads();
  }
#else
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
#endif
  if (tid == 0) add_block_total(out, sdata[0]);
#else
  __shared__ float warp_sums[BLOCK / 32];
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
  if (tid % 32 == 0) warp_sums[tid / 32] = sum;
  __syncthreads();
  if (tid < 32) {
    sum = tid < BLOCK / 32 ? warp_sums[tid] : 0.0f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (tid == 0) add_block_total(out, sum);
  }
#endif
}
