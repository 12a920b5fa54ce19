// The baseline SGEMM of the sweep-speed benchmark, tuned by tuner and by Kernel Tuner 1.5.0
// from this same file (bench/bench_sweep_speed.sh), plus a reference.

extern "C" __global__ void __launch_bounds__((BM/TM)*(BN/TN)) sgemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  __shared__ float As[BK][BM + PAD];
  __shared__ float Bs[BK][BN + PAD];
  const int nthreads = (BM/TM)*(BN/TN);
  int tid = threadIdx.x;
  int tr = tid / (BN/TN), tc = tid % (BN/TN);
  int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float ra[TM], rb[TN];
  for (int k0 = 0; k0 < n; k0 += BK) {
    for (int i = tid; i < BM*BK; i += nthreads) { int r = i / BK, c = i % BK; As[c][r] = A[(size_t)(bm + r) * n + k0 + c]; }
    for (int i = tid; i < BK*BN; i += nthreads) { int r = i / BN, c = i % BN; Bs[r][c] = B[(size_t)(k0 + r) * n + bn + c]; }
    __syncthreads();
    #pragma unroll
    for (int k = 0; k < BK; ++k) {
      #pragma unroll
      for (int i = 0; i < TM; ++i) ra[i] = As[k][tr * TM + i];
      #pragma unroll
      for (int j = 0; j < TN; ++j) rb[j] = Bs[k][tc * TN + j];
      #pragma unroll
      for (int i = 0; i < TM; ++i)
        #pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
    }
    __syncthreads();
  }
  #pragma unroll
  for (int i = 0; i < TM; ++i)
    #pragma unroll
    for (int j = 0; j < TN; ++j) C[(size_t)(bm + tr * TM + i) * n + bn + tc * TN + j] = acc[i][j];
}

// Reference: one output per thread, accumulated in double.
extern "C" __global__ void sgemm_reference(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  double acc = 0;
  for (int k = 0; k < n; ++k) acc += (double)A[(size_t)row * n + k] * (double)B[(size_t)k * n + col];
  C[(size_t)row * n + col] = (float)acc;
}
