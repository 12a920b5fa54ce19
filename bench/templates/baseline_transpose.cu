// The baseline transpose of the sweep-speed benchmark, tuned by tuner and by Kernel Tuner
// 1.5.0 from this same file (bench/bench_sweep_speed.sh), plus a reference.

extern "C" __global__ void transpose(float* __restrict__ out, const float* __restrict__ in, int w, int h) {
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
}

extern "C" __global__ void transpose_reference(float* __restrict__ out, const float* __restrict__ in, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[(size_t)x * h + y] = in[(size_t)y * w + x];
}
