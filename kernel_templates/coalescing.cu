// Effective bandwidth against misaligned (offset) and strided access. Thread t of the grid copies
// element e = perm(t) with out[e] = 2 * in[e] + 1; perm is a bijection of [0, n) for every OFFSET
// and STRIDE, so every candidate writes the same output and one reference checks them all.
// MODE 0 (offset): e = (t + OFFSET) mod n: a warp's 32 accesses start OFFSET elements past a segment
//   boundary and straddle one more sector when OFFSET is not a multiple of the sector size.
// MODE 1 (stride): the array is viewed as a matrix of STRIDE columns read down its columns: block
//   (x, y) holds rows x * BLOCK .. x * BLOCK + BLOCK - 1 of column y, so neighbouring threads are
//   STRIDE elements apart (a 2D grid avoids 64-bit division in a memory-bound kernel).
// The element type is REAL: float by default, -DREAL=double in coalescing_fp64.toml.

#ifndef REAL
#define REAL float
#endif

extern "C" __global__ void __launch_bounds__(BLOCK)
coalescing(REAL* __restrict__ out, const REAL* __restrict__ in, long long n) {
#if MODE == 0
  const long long t = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (t >= n) return;
  long long e = t + OFFSET;
  if (e >= n) e -= n;
#else
  const long long row = (long long)blockIdx.x * BLOCK + threadIdx.x;
  const long long e = row * STRIDE + blockIdx.y;
  if (e >= n) return;
#endif
  out[e] = (REAL)2 * in[e] + (REAL)1;
}
