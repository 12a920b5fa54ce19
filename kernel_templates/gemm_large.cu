// C = A * B, fp32, row-major: A is M x K, B is K x N, C is M x N. Any M, N and K (K % VEC_A == 0
// and N % VEC_B == 0 for the vector loads): partial tiles are filled with zeros on loading and
// clipped on storing.
//
// A block of NT = (TILE_M / WORK_M) * (TILE_N / WORK_N) threads computes a TILE_M x TILE_N tile of C;
// thread (tm, tn) of the THREADS_M x THREADS_N grid keeps WORK_M x WORK_N of it in registers. Per
// step of TILE_K the block stages a TILE_M x TILE_K tile of A and a TILE_K x TILE_N tile of B in
// shared memory, every thread loading the same number of vectors of VEC_A (VEC_B) floats.
//   A_TRANSPOSED: A's tile is kept k-major ([TILE_K][TILE_M + PAD_A]), so that the threads of a
//     warp read one row of it, instead of as in memory ([TILE_M][TILE_K + PAD_A]), where they read
//     a column; PAD_A = 1 shifts each row by a bank.
//   STRIDE_N: a thread's columns are THREADS_N apart, so that neighbouring threads read and write
//     neighbouring elements, instead of WORK_N adjacent ones (a thread's rows are always adjacent).
//   UNROLL_K: 0 unrolls the loop over the TILE_K step fully, 1 not at all.
//   DB = 1: two shared buffers; the next step's tiles are loaded into registers while this step
//     computes and stored into the other buffer afterwards, so one barrier per step suffices.
// No host headers: NVRTC compiles this file with -DNAME=value for every parameter.

extern "C" __global__ void gemm_large_reference(const float* __restrict__ A, const float* __restrict__ B,
                                                float* __restrict__ C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double sum = 0.0;
  for (int k = 0; k < K; ++k) sum += (double)A[(size_t)row * K + k] * (double)B[(size_t)k * N + col];
  C[(size_t)row * N + col] = (float)sum;
}

#define THREADS_M (TILE_M / WORK_M)
#define THREADS_N (TILE_N / WORK_N)
#define NT (THREADS_M * THREADS_N)
#define A_VECS_PER_ROW (TILE_K / VEC_A)          // vectors of A per row of its tile
#define B_VECS_PER_ROW (TILE_N / VEC_B)
#define A_LOADS (TILE_M * TILE_K / VEC_A / NT)  // vectors each thread loads per step
#define B_LOADS (TILE_K * TILE_N / VEC_B / NT)
#define NBUF (DB ? 2 : 1)

static_assert(TILE_M % WORK_M == 0 && TILE_N % WORK_N == 0, "a thread tile must divide the block tile");
static_assert(A_LOADS * VEC_A * NT == TILE_M * TILE_K, "A's tile must split evenly into vector loads");
static_assert(B_LOADS * VEC_B * NT == TILE_K * TILE_N, "B's tile must split evenly into vector loads");
static_assert(TILE_K % VEC_A == 0 && TILE_N % VEC_B == 0, "a vector must not straddle two rows");

// W floats from global memory in one load (p is aligned to W floats), or zeros.
template <int W>
__device__ __forceinline__ void LoadVector(float (&v)[W], const float* p, bool inside);
template <>
__device__ __forceinline__ void LoadVector<1>(float (&v)[1], const float* p, bool inside) {
  v[0] = inside ? *p : 0.0f;
}
template <>
__device__ __forceinline__ void LoadVector<2>(float (&v)[2], const float* p, bool inside) {
  const float2 x = inside ? *reinterpret_cast<const float2*>(p) : make_float2(0.0f, 0.0f);
  v[0] = x.x; v[1] = x.y;
}
template <>
__device__ __forceinline__ void LoadVector<4>(float (&v)[4], const float* p, bool inside) {
  const float4 x = inside ? *reinterpret_cast<const float4*>(p) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  v[0] = x.x; v[1] = x.y; v[2] = x.z; v[3] = x.w;
}

// A thread's j-th column within the block tile.
__device__ __forceinline__ int ColOf(int tn, int j) { return STRIDE_N ? tn + j * THREADS_N : tn * WORK_N + j; }

extern "C" __global__ void __launch_bounds__(NT)
gemm_large(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
#if A_TRANSPOSED
  __shared__ float As[NBUF][TILE_K][TILE_M + PAD_A];
#define A_TILE(buf, m, k) As[buf][k][m]
#else
  __shared__ float As[NBUF][TILE_M][TILE_K + PAD_A];
#define A_TILE(buf, m, k) As[buf][m][k]
#endif
  __shared__ float Bs[NBUF][TILE_K][TILE_N];

  const int tid = threadIdx.x;
  const int tm = tid / THREADS_N, tn = tid % THREADS_N;
  const int m0 = blockIdx.y * TILE_M, n0 = blockIdx.x * TILE_N;

  float a_next[A_LOADS][VEC_A], b_next[B_LOADS][VEC_B];  // one step's tiles on their way to shared memory
  auto fetch = [&](int k0) {
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
      const int v = tid + l * NT, r = v / A_VECS_PER_ROW, c = v % A_VECS_PER_ROW * VEC_A;
      LoadVector<VEC_A>(a_next[l], A + (size_t)(m0 + r) * K + k0 + c, m0 + r < M && k0 + c < K);
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l) {
      const int v = tid + l * NT, r = v / B_VECS_PER_ROW, c = v % B_VECS_PER_ROW * VEC_B;
      LoadVector<VEC_B>(b_next[l], B + (size_t)(k0 + r) * N + n0 + c, k0 + r < K && n0 + c < N);
    }
  };
  auto stash = [&](int buf) {
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
      const int v = tid + l * NT, r = v / A_VECS_PER_ROW, c = v % A_VECS_PER_ROW * VEC_A;
#pragma unroll
      for (int e = 0; e < VEC_A; ++e) A_TILE(buf, r, c + e) = a_next[l][e];
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l) {
      const int v = tid + l * NT, r = v / B_VECS_PER_ROW, c = v % B_VECS_PER_ROW * VEC_B;
#pragma unroll
      for (int e = 0; e < VEC_B; ++e) Bs[buf][r][c + e] = b_next[l][e];
    }
  };

  float acc[WORK_M][WORK_N];
#pragma unroll
  for (int i = 0; i < WORK_M; ++i)
#pragma unroll
    for (int j = 0; j < WORK_N; ++j) acc[i][j] = 0.0f;

  auto multiply = [&](int buf) {
    constexpr int kUnroll = UNROLL_K == 0 ? TILE_K : UNROLL_K;
#pragma unroll kUnroll
    for (int k = 0; k < TILE_K; ++k) {
      float a[WORK_M], b[WORK_N];
#pragma unroll
      for (int i = 0; i < WORK_M; ++i) a[i] = A_TILE(buf, tm * WORK_M + i, k);
#pragma unroll
      for (int j = 0; j < WORK_N; ++j) b[j] = Bs[buf][k][ColOf(tn, j)];
#pragma unroll
      for (int i = 0; i < WORK_M; ++i)
#pragma unroll
        for (int j = 0; j < WORK_N; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
  };

  const int steps = (K + TILE_K - 1) / TILE_K;
#if DB
  fetch(0);
  stash(0);
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    const int buf = s & 1;
    const bool more = s + 1 < steps;
    if (more) fetch((s + 1) * TILE_K);
    multiply(buf);
    if (more) stash(buf ^ 1);  // buf ^ 1 was last read before the previous barrier
    __syncthreads();
  }
#else
  for (int s = 0; s < steps; ++s) {
    fetch(s * TILE_K);
    stash(0);
    __syncthreads();
    multiply(0);
    __syncthreads();
  }
#endif

#pragma unroll
  for (int i = 0; i < WORK_M; ++i) {
    const int r = m0 + tm * WORK_M + i;
#pragma unroll
    for (int j = 0; j < WORK_N; ++j) {
      const int c = n0 + ColOf(tn, j);
      if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
    }
  }
}
