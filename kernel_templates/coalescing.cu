// Effective bandwidth against misaligned (offset) and strided access. Thread t of the grid copies
// element e = perm(t) with out[e] = 2 * in[e] + 1; perm is a bijection of [0, n) for every OFFSET
// and STRIDE, so every candidate writes the same output and one reference checks them all;
// coalescing_reference below, the check's reference, shares nothing with the tuned kernel.
// MODE 0 (offset): e = (t + OFFSET) mod n: a warp's 32 accesses start OFFSET elements past a segment
//   boundary and straddle one more sector when OFFSET is not a multiple of the sector size.
// MODE 1 (stride): the array is viewed as a matrix of STRIDE columns read down its columns: block
//   (x, y) holds rows x * BLOCK * ITEMS .. (x + 1) * BLOCK * ITEMS - 1 of column y, so neighbouring
//   threads are STRIDE elements apart (a 2D grid avoids 64-bit division in a memory-bound kernel).
// Each thread handles ITEMS elements BLOCK apart, loads all issued before the first store: with
// ITEMS = 1 a 4-byte access per thread cannot keep enough bytes in flight to saturate HBM.
// The element type is REAL: float by default, -DREAL=double in coalescing_fp64.toml.

#ifndef REAL
#define REAL float
#endif

// The reference: element i at thread i, 2x + 1 in double, rounded once to REAL.
extern "C" __global__ void coalescing_reference(REAL* __restrict__ out, const REAL* __restrict__ in, long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (REAL)(2.0 * (double)in[i] + 1.0);
}

extern "C" __global__ void __launch_bounds__(BLOCK)
coalescing(REAL* __restrict__ out, const REAL* __restrict__ in, long long n) {
  const long long first = (long long)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
  long long e[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) {
#if MODE == 0
    const long long t = first + (long long)j * BLOCK;
    e[j] = t + OFFSET >= n ? t + OFFSET - n : t + OFFSET;
    if (t >= n) e[j] = -1;
#else
    const long long row = first + (long long)j * BLOCK;
    e[j] = row * STRIDE + blockIdx.y;
    if (e[j] >= n) e[j] = -1;
#endif
  }
  REAL v[ITEMS];
#pragma unroll
  for (int j = 0; j < ITEMS; ++j) v[j] = e[j] >= 0 ? in[e[j]] : (REAL)0;  // all loads in flight
#pragma unroll
  for (int j = 0; j < ITEMS; ++j)
    if (e[j] >= 0) out[e[j]] = (REAL)2 * v[j] + (REAL)1;
}
