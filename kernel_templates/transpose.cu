// Matrix transpose, out = in^T for a W x H row-major input.
// VARIANT 0 (naive): each thread reads a row element and writes a column element; the writes are
//   strided by H and not coalesced.
// VARIANT 1 (tiled): a TILE x TILE tile is staged in shared memory so both the reads and the writes
//   are coalesced. With PAD 0 the column reads of the tile hit one bank 32 times (a 32-way bank
//   conflict); PAD 1 shifts each row by one bank and removes it.
// A block of TILE x ROWS threads walks the tile in steps of ROWS rows.

extern "C" __global__ void __launch_bounds__(TILE * ROWS)
transpose(float* __restrict__ out, const float* __restrict__ in, int w, int h) {
#if VARIANT == 0
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h) out[(size_t)x * h + y + j] = in[(size_t)(y + j) * w + x];
#else
  __shared__ float tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < h && y + j < w) out[(size_t)(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
#endif
}

// The reference: one element per thread, no tricks.
extern "C" __global__ void transpose_reference(float* __restrict__ out, const float* __restrict__ in, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[(size_t)x * h + y] = in[(size_t)y * w + x];
}
