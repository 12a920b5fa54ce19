// C = A * B, fp32, row-major: A is M x K, B is K x N, C is M x N.
// VARIANT 0 (naive): one output per thread, every operand read from global memory.
// VARIANT 1 (tiled): TILE_WIDTH x TILE_WIDTH tiles of A and B staged in shared memory; one output
//   per thread. Wider tiles mean fewer global loads but more shared memory and threads per block.
// VARIANT 2 (register-blocked): a BM x BN block tile, a WM x WN tile per warp, a TM x TN tile per
//   thread held in registers; float4 global loads; A stored transposed in shared memory so both
//   operands are read as float4; DB = 1 double-buffers shared memory with a register prefetch of the
//   next K step (one barrier per step). Needs M % BM == N % BN == K % BK == 0 (see constraints).
// No host headers: NVRTC compiles this file with -DNAME=value for every parameter.

extern "C" __global__ void matmul_reference(const float* __restrict__ A, const float* __restrict__ B,
                                            float* __restrict__ C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double sum = 0.0;
  for (int k = 0; k < K; ++k) sum += (double)A[(size_t)row * K + k] * (double)B[(size_t)k * N + col];
  C[(size_t)row * N + col] = (float)sum;
}

#if VARIANT == 0

extern "C" __global__ void __launch_bounds__(TILE_WIDTH * TILE_WIDTH)
matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += A[(size_t)row * K + k] * B[(size_t)k * N + col];
  C[(size_t)row * N + col] = sum;
}

#elif VARIANT == 1

extern "C" __global__ void __launch_bounds__(TILE_WIDTH * TILE_WIDTH)
matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE_WIDTH + tx;
  int row = blockIdx.y * TILE_WIDTH + ty;
  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE_WIDTH) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[(size_t)row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE_WIDTH; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[(size_t)row * N + col] = sum;
}

#elif VARIANT == 2

#define NT (BM * BN / (TM * TN))      // threads per block
#define WN (32 * TM * TN / WM)        // warp tile columns
#define WTR (WM / TM)                 // thread rows in a warp
#define WTC (WN / TN)                 // thread columns in a warp
#define APAD 4                        // keeps float4 alignment, spreads the transposed stores
#define A_F4 (BM * BK / 4)            // float4s of A per K step
#define B_F4 (BK * BN / 4)
#define A_LOADS ((A_F4 + NT - 1) / NT)  // float4 loads per thread per K step
#define B_LOADS ((B_F4 + NT - 1) / NT)
#define NBUF (DB ? 2 : 1)
// Blocks per SM promised to the compiler: caps registers at 128 per thread (16 warps per SM), or at
// 168 for 8x8 thread tiles in blocks under 256 threads, which spill under the tighter cap.
#define MIN_BLOCKS ((TM * TN >= 64 && NT < 256) ? 384 / NT : 512 / NT)
// Stage the prefetch in two halves (A then B) when it holds more than two float4 per thread.
#define SPLIT (A_LOADS + B_LOADS > 2)

static_assert(WTR * WTC == 32, "warp tile must hold 32 thread tiles");
static_assert(BM % WM == 0 && BN % WN == 0, "block tile must be a whole number of warp tiles");
static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tile is read as float4");

extern "C" __global__ void __launch_bounds__(NT, MIN_BLOCKS)
matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[NBUF][BK][BM + APAD];
  __shared__ __align__(16) float Bs[NBUF][BK][BN];
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int wr = warp / (BN / WN), wc = warp % (BN / WN);
  const int tr = lane / WTC, tc = lane % WTC;
  const float* Ab = A + (size_t)blockIdx.y * BM * K;
  const float* Bb = B + (size_t)blockIdx.x * BN;

  float4 pa[A_LOADS], pb[B_LOADS];
  auto load_a = [&](int k0) {
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
      int f = tid + l * NT, r = f / (BK / 4), c = (f % (BK / 4)) * 4;
      if (A_F4 % NT != 0 && f >= A_F4) break;
      pa[l] = *reinterpret_cast<const float4*>(Ab + (size_t)r * K + k0 + c);
    }
  };
  auto load_b = [&](int k0) {
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l) {
      int f = tid + l * NT, r = f / (BN / 4), c = (f % (BN / 4)) * 4;
      if (B_F4 % NT != 0 && f >= B_F4) break;
      pb[l] = *reinterpret_cast<const float4*>(Bb + (size_t)(k0 + r) * N + c);
    }
  };
  auto store_a = [&](int buf) {
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
      int f = tid + l * NT, r = f / (BK / 4), c = (f % (BK / 4)) * 4;
      if (A_F4 % NT != 0 && f >= A_F4) break;
      As[buf][c + 0][r] = pa[l].x;
      As[buf][c + 1][r] = pa[l].y;
      As[buf][c + 2][r] = pa[l].z;
      As[buf][c + 3][r] = pa[l].w;
    }
  };
  auto store_b = [&](int buf) {
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l) {
      int f = tid + l * NT, r = f / (BN / 4), c = (f % (BN / 4)) * 4;
      if (B_F4 % NT != 0 && f >= B_F4) break;
      *reinterpret_cast<float4*>(&Bs[buf][r][c]) = pb[l];
    }
  };

  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

  const int a_col = wr * WM + tr * 4;  // first row of this thread's tile (As is transposed)
  const int b_col = wc * WN + tc * 4;
  int buf = 0;
#if DB
  load_a(0);
  load_b(0);
  store_a(0);
  store_b(0);
  __syncthreads();
#endif
  for (int k0 = 0; k0 < K; k0 += BK) {
#if DB
    // The next step's tiles are loaded into registers while this step computes. With SPLIT, A is in
    // flight during the first half of the K loop and B during the second, which halves the registers
    // the prefetch holds.
    const bool more = k0 + BK < K;
    if (more) {
      load_a(k0 + BK);
      if (!SPLIT) load_b(k0 + BK);
    }
#else
    load_a(k0);
    load_b(k0);
    store_a(0);
    store_b(0);
    __syncthreads();
#endif
#pragma unroll
    for (int k = 0; k < BK; ++k) {
#if DB
      if (SPLIT && k == BK / 2 && more) {
        store_a(buf ^ 1);  // buf ^ 1 was last read before the previous barrier
        load_b(k0 + BK);
      }
#endif
      float ra[TM], rb[TN];
#pragma unroll
      for (int i = 0; i < TM / 4; ++i) {
        float4 v = *reinterpret_cast<const float4*>(&As[buf][k][a_col + i * WTR * 4]);
        ra[i * 4 + 0] = v.x; ra[i * 4 + 1] = v.y; ra[i * 4 + 2] = v.z; ra[i * 4 + 3] = v.w;
      }
#pragma unroll
      for (int j = 0; j < TN / 4; ++j) {
        float4 v = *reinterpret_cast<const float4*>(&Bs[buf][k][b_col + j * WTC * 4]);
        rb[j * 4 + 0] = v.x; rb[j * 4 + 1] = v.y; rb[j * 4 + 2] = v.z; rb[j * 4 + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }
#if DB
    if (more) {
      if (!SPLIT) store_a(buf ^ 1);
      store_b(buf ^ 1);
    }
    __syncthreads();
    buf ^= 1;
#else
    __syncthreads();
#endif
  }

  float* Cb = C + (size_t)blockIdx.y * BM * N + (size_t)blockIdx.x * BN;
#pragma unroll
  for (int i = 0; i < TM / 4; ++i)
#pragma unroll
    for (int ii = 0; ii < 4; ++ii) {
      int r = a_col + i * WTR * 4 + ii;
#pragma unroll
      for (int j = 0; j < TN / 4; ++j) {
        int c = b_col + j * WTC * 4;
        float4 v = make_float4(acc[i * 4 + ii][j * 4 + 0], acc[i * 4 + ii][j * 4 + 1],
                               acc[i * 4 + ii][j * 4 + 2], acc[i * 4 + ii][j * 4 + 3]);
        *reinterpret_cast<float4*>(Cb + (size_t)r * N + c) = v;
      }
    }
}

#endif
