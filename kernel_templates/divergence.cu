// Warp divergence: the same work, mapped onto threads so that the lanes of a warp disagree or agree.
// out[i] = f(in[i], i): element i takes path A or B by its parity (i & 1) and runs
// TRIP_UNIT * (1 + ((i >> 1) & 15)) steps of its path, 1 to 16 units by bits 1..4 of i.
// The elements of a tile of 1024 are given to its 1024 thread slots (BLOCK threads, 1024 / BLOCK
// steps) by how the slot's lane (5 bits) and warp (5 bits) become the element's bits:
// BRANCH 0 (in_warp): the parity comes from the lane: odd and even lanes of every warp take
//   different paths, and the warp runs both one after the other (the naive bound check or branch).
// BRANCH 1 (per_warp): the parity comes from the warp: a warp takes one path.
// TRIPS 0 (in_warp): the step count comes from the lane: a warp runs as long as its longest lane.
// TRIPS 1 (per_warp): the step count comes from the warp: its lanes finish together.
// Every element is computed once whatever the mapping, with the same float operations in the same
// order, so every candidate's output equals the reference's bit for bit.

#define TILE 1024

__device__ __forceinline__ float divergent_work(float x, long long i, int trip_unit) {
  const int steps = trip_unit * (1 + (int)((i >> 1) & 15));
  if (i & 1) {
    for (int s = 0; s < steps; ++s) x = __fmaf_rn(x, -0.998f, 0.002f);  // path B
  } else {
    for (int s = 0; s < steps; ++s) x = __fmaf_rn(x, 0.999f, 0.001f);   // path A
  }
  return x;
}

// The reference: element i at thread i, the element function written once.
extern "C" __global__ void divergence_reference(float* __restrict__ out, const float* __restrict__ in, long long n, int trip_unit) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = divergent_work(in[i], i, trip_unit);
}

// The element (0..1023 within the tile) of thread slot `lane` of warp `warp`.
__device__ __forceinline__ int element_of(int lane, int warp) {
#if BRANCH == 0 && TRIPS == 0
  return lane | (warp << 5);  // parity and steps from the lane: both diverge inside each warp
#elif BRANCH == 1 && TRIPS == 1
  return warp | (lane << 5);  // parity and steps from the warp: no lane of a warp differs
#elif BRANCH == 0
  // parity from lane bit 0, steps from warp bits 0..3; the rest from lane bits 1..4 and warp bit 4
  return (lane & 1) | ((warp & 15) << 1) | ((lane >> 1) << 5) | ((warp >> 4) << 9);
#else
  // parity from warp bit 0, steps from lane bits 0..3; the rest from lane bit 4 and warp bits 1..4
  return (warp & 1) | ((lane & 15) << 1) | ((lane >> 4) << 5) | ((warp >> 1) << 6);
#endif
}

extern "C" __global__ void __launch_bounds__(BLOCK)
divergence(float* __restrict__ out, const float* __restrict__ in, long long n, int trip_unit) {
  const long long base = (long long)blockIdx.x * TILE;
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int step = 0; step < TILE / BLOCK; ++step) {
    const int warp = step * (BLOCK / 32) + (threadIdx.x >> 5);
    const long long i = base + element_of(lane, warp);
    if (i < n) out[i] = divergent_work(in[i], i, trip_unit);
  }
}
