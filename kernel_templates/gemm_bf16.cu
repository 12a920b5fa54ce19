// C = A · B on the tensor cores: A (M x K) and B (K x N) row-major 16-bit floats, bfloat16 (or half
// with -DFP16=1, the gemm_fp16 description), C (M x N) row-major fp32, accumulated in fp32.
//
// Two instruction families (INSTR): mma.sync on every GPU from sm_80 on, below; wgmma on sm_90a,
// whose section explains it. With mma.sync each block computes a BLOCK_M x BLOCK_N tile of C; its
// warps each a WARP_M x WARP_N part of it, as (WARP_M / 16) x (WARP_N / 8) mma.sync.m16n8k16
// tiles. The K loop streams BLOCK_K-deep slices of A and B through STAGES shared-memory buffers
// with cp.async: STAGES - 1 slices are in flight while the warps multiply the oldest. Fragments go
// from shared memory to registers with ldmatrix, whose 8-row reads must hit 8 different 16-byte
// bank groups: rows are padded by 16 bytes (SWIZZLE = 0) or their 16-byte chunks XOR-permuted
// (SWIZZLE = 1).
// The values are handled as their 16 bits: the tensor cores take them as they are, and only the
// reference widens them (by a shift for bfloat16, cvt for half).

#ifndef FP16
#define FP16 0
#endif
#if FP16
#define MMA_TYPE "f16"
#else
#define MMA_TYPE "bf16"
#endif

typedef unsigned short element;  // the bits of a __nv_bfloat16 (or __half)

constexpr int GROUP_M = 8;  // tile rows per group of blocks (TileOfBlock)

// ---- Reference: one output per thread, products and sum in double ------------------------------

__device__ double WidenReference(element e) {
#if FP16
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(e));
  return f;
#else
  return __uint_as_float((unsigned int)e << 16);
#endif
}

extern "C" __global__ void gemm_tc_reference(const element* A, const element* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double sum = 0.0;
  for (int k = 0; k < K; ++k)
    sum += WidenReference(A[(long long)row * K + k]) * WidenReference(B[(long long)k * N + col]);
  C[(long long)row * N + col] = (float)sum;
}

// ---- Shared memory and cp.async ---------------------------------------------------------------

__device__ __forceinline__ unsigned int SharedAddress(const element* p) {
  return (unsigned int)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void CopyChunk(element* shared, const element* global) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(SharedAddress(shared)), "l"(global));
}

__device__ __forceinline__ void CommitGroup() { asm volatile("cp.async.commit_group;\n" ::); }

// Waits until at most `PENDING` of this thread's committed groups are still in flight.
template <int PENDING>
__device__ __forceinline__ void WaitGroups() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}

// ---- The order of blocks ----------------------------------------------------------------------

// The tile of C this block computes. Blocks run in order of their index, GROUP_M tile rows at a
// time, column after column: consecutive blocks share A's rows and B's columns while they are in
// L2 (a plain row-major order would stream all of B per row of tiles, 128 MiB at 8192^3).
__device__ __forceinline__ void TileOfBlock(int& tile_m, int& tile_n) {
  const int tiles_m = gridDim.y, tiles_n = gridDim.x;
  const int block = blockIdx.y * tiles_n + blockIdx.x;
  const int first_m = block / (GROUP_M * tiles_n) * GROUP_M;
  const int rows = min(tiles_m - first_m, GROUP_M);
  const int in_group = block % (GROUP_M * tiles_n);
  tile_m = first_m + in_group % rows;
  tile_n = in_group / rows;
}

#if INSTR >= 1

// ---- The wgmma path (INSTR = 1 or 2, sm_90a only) --------------------------------------------

// Hopper's warpgroup products, which read both operands from shared memory through matrix
// descriptors, asynchronously.
//
// Each block computes a BLOCK_M x BLOCK_N tile of C with BLOCK_M / 64 warpgroups (4 warps each),
// warpgroup g the rows 64 g to 64 g + 63, all BLOCK_N columns, as BLOCK_N / 128
// wgmma.m64n128k16 products per 16-deep k step. The K loop is the mma.sync path's: BLOCK_K = 64
// slices (one 128-byte row of 16-bit values) through STAGES buffers with cp.async, STAGES - 1 in
// flight (STAGES - 2 for wgmma_overlap, below). Shared memory holds each slice in the layouts a
// descriptor with 128-byte swizzle describes (PTX ISA, "Shared Memory Matrix Layout"): 16-byte
// chunk c of a 128-byte row r sits at chunk c ^ (r % 8) of that row, rows dense, the tile
// 1024-byte aligned (the hardware swizzles by address bits 4-6 ^ 7-9).
//   A (K-major): row m of the slice at byte 128 m; 8-row groups 1024 bytes apart (the stride byte
//     offset); k step s starts 32 s bytes into the rows.
//   B (MN-major, transposed by the instruction): panels of 64 columns, each 64 k rows of 128 bytes
//     (8 KiB); k row k of panel p at byte 8192 p + 128 k; 8-row groups 1024 bytes apart (the stride
//     byte offset), panels 8192 apart (the leading byte offset); k step s starts 2048 s bytes in.

constexpr int WARPGROUPS = BLOCK_M / 64;
constexpr int WG_THREADS = WARPGROUPS * 128;
constexpr int WG_N = BLOCK_N / 128;          // n128 products per warpgroup and k step
constexpr int ROW_BYTES = 128;               // a 64-deep row of 16-bit values
constexpr int PANEL_BYTES = 64 * ROW_BYTES;  // B: 64 columns x 64 k rows
constexpr int A_STAGE_BYTES = BLOCK_M * ROW_BYTES;
constexpr int B_STAGE_BYTES = BLOCK_N / 64 * PANEL_BYTES;
constexpr int STAGE_BYTES = A_STAGE_BYTES + B_STAGE_BYTES;
// wgmma (INSTR = 1) waits for a slice's products before the next slice; wgmma_overlap (INSTR = 2)
// leaves them running while it waits for the next slice's copies and issues its products, and
// so keeps one slice fewer of copies in flight (its stage is still being read).
constexpr int PENDING_PRODUCTS = INSTR - 1;           // wgmma groups left running at the end of a slice
constexpr int AHEAD = STAGES - 1 - PENDING_PRODUCTS;  // slices whose copies are in flight

static_assert(BLOCK_K == 64, "wgmma's tiles are one 128-byte swizzled row deep");
static_assert(BLOCK_M % 64 == 0 && BLOCK_N % 128 == 0, "whole m64n128 products");

// Byte offset of 16-byte chunk `chunk` of 128-byte row `row` in a 128-byte-swizzled tile.
__device__ __forceinline__ int SwizzledOffset(int row, int chunk) {
  return row * ROW_BYTES + ((chunk ^ (row % 8)) * 16);
}

__device__ __forceinline__ void CopyChunkTo(unsigned int shared_address, const element* global) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address), "l"(global));
}

// One slice: A's BLOCK_M x 64 tile at (m0, k0) and B's 64 x BLOCK_N tile at (k0, n0), at the shared
// addresses sa and sb. Consecutive threads copy consecutive chunks of a row of global memory.
__device__ __forceinline__ void LoadSlice(unsigned int sa, unsigned int sb, const element* A, const element* B, int m0,
                                          int n0, int k0, int N, int K) {
#pragma unroll
  for (int j = 0; j < BLOCK_M * 8 / WG_THREADS; ++j) {
    const int i = threadIdx.x + j * WG_THREADS;
    const int row = i / 8, chunk = i % 8;
    CopyChunkTo(sa + SwizzledOffset(row, chunk), A + (long long)(m0 + row) * K + k0 + chunk * 8);
  }
  constexpr int CHUNKS = BLOCK_N / 8;  // of one k row of B's tile
#pragma unroll
  for (int j = 0; j < 64 * CHUNKS / WG_THREADS; ++j) {
    const int i = threadIdx.x + j * WG_THREADS;
    const int row = i / CHUNKS, chunk = i % CHUNKS;
    CopyChunkTo(sb + chunk / 8 * PANEL_BYTES + SwizzledOffset(row, chunk % 8),
                B + (long long)(k0 + row) * N + n0 + chunk * 8);
  }
}

// A shared-memory matrix descriptor: start address, leading and stride byte offsets (each >> 4,
// 14 bits), base offset 0 (the tiles are 1024-byte aligned), 128-byte swizzle (1 in bits 62-63).
__device__ __forceinline__ unsigned long long Descriptor(unsigned int address, unsigned int leading_bytes,
                                                         unsigned int stride_bytes) {
  return (unsigned long long)((address & 0x3FFFF) >> 4) | (unsigned long long)((leading_bytes >> 4) & 0x3FFF) << 16 |
         (unsigned long long)((stride_bytes >> 4) & 0x3FFF) << 32 | 1ull << 62;
}

// d (64 x 128 fp32 of the warpgroup: warp w of it holds rows 16 w to 16 w + 15; lane l rows
// l / 4 and l / 4 + 8, columns 8 i + 2 (l % 4) and the next in d[4 i], d[4 i + 1] and d[4 i + 2],
// d[4 i + 3]) += A (64 x 16, K-major) * B (16 x 128, MN-major: imm-trans-b = 1).
__device__ __forceinline__ void Wgmma(float d[64], unsigned long long a, unsigned long long b) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32." MMA_TYPE "." MMA_TYPE
      " {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63},"
      " %64, %65, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b), "r"(1));
}

// Keeps the compiler from moving reads or writes of the accumulators across the asynchronous
// products (their registers are the instructions' until wgmma.wait_group says they are done).
__device__ __forceinline__ void FenceAccumulators(float acc[WG_N][64]) {
#pragma unroll
  for (int j = 0; j < WG_N; ++j)
#pragma unroll
    for (int i = 0; i < 64; ++i) asm volatile("" : "+f"(acc[j][i])::"memory");
}

// The warpgroup's products of one slice: 4 k steps of WG_N m64n128k16 products, then waits for them.
__device__ __forceinline__ void MultiplySlice(float acc[WG_N][64], unsigned int sa, unsigned int sb, int warpgroup) {
  FenceAccumulators(acc);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    const unsigned long long a = Descriptor(sa + warpgroup * 64 * ROW_BYTES + s * 32, 16, 1024);
#pragma unroll
    for (int j = 0; j < WG_N; ++j)
      Wgmma(acc[j], a, Descriptor(sb + j * 2 * PANEL_BYTES + s * 16 * ROW_BYTES, PANEL_BYTES, 1024));
  }
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING_PRODUCTS) : "memory");
  FenceAccumulators(acc);
}

__device__ __forceinline__ void StoreWarpgroupTile(float* C, const float acc[WG_N][64], int row0, int col0, int N) {
  const int warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
  const int row = row0 + warp * 16 + lane / 4;
#pragma unroll
  for (int j = 0; j < WG_N; ++j)
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const int col = col0 + j * 128 + i * 8 + (lane % 4) * 2;
      *reinterpret_cast<float2*>(C + (long long)row * N + col) = make_float2(acc[j][4 * i], acc[j][4 * i + 1]);
      *reinterpret_cast<float2*>(C + (long long)(row + 8) * N + col) =
          make_float2(acc[j][4 * i + 2], acc[j][4 * i + 3]);
    }
}

// M, N and K are whole multiples of the block tile (the description's constraints); the dynamic
// shared memory is 1024 bytes more than the stages, to align them.
extern "C" __global__ void __launch_bounds__(WG_THREADS)
    gemm_tc(const element* __restrict__ A, const element* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  extern __shared__ __align__(1024) unsigned char shared_bytes[];
  const unsigned int base = (SharedAddress((const element*)shared_bytes) + 1023) / 1024 * 1024;
  int tile_m, tile_n;
  TileOfBlock(tile_m, tile_n);
  const int m0 = tile_m * BLOCK_M, n0 = tile_n * BLOCK_N;
  const int warpgroup = threadIdx.x / 128;
  float acc[WG_N][64] = {};
  const int slices = K / 64;

  // Prologue: the first AHEAD slices in flight, one commit group each (empty past the end, so that
  // group t is always slice t).
#pragma unroll
  for (int s = 0; s < AHEAD; ++s) {
    if (s < slices)
      LoadSlice(base + s * STAGE_BYTES, base + s * STAGE_BYTES + A_STAGE_BYTES, A, B, m0, n0, s * 64, N, K);
    CommitGroup();
  }
  for (int kt = 0; kt < slices; ++kt) {
    WaitGroups<AHEAD - 1>();  // slice kt of this thread has landed
    // cp.async wrote through the generic proxy, wgmma reads through the async proxy.
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();  // every thread's copies of slice kt have landed; the products of the refilled stage are done
    const int next = kt + AHEAD;  // into the stage of slice kt - 1 - PENDING_PRODUCTS, whose products are done
    const unsigned int refill = base + next % STAGES * STAGE_BYTES;
    if (next < slices) LoadSlice(refill, refill + A_STAGE_BYTES, A, B, m0, n0, next * 64, N, K);
    CommitGroup();
    const unsigned int stage = base + kt % STAGES * STAGE_BYTES;
    MultiplySlice(acc, stage, stage + A_STAGE_BYTES, warpgroup);
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  FenceAccumulators(acc);
  StoreWarpgroupTile(C, acc, m0 + warpgroup * 64, n0, N);
}

#else  // INSTR == 0: mma.sync

// ---- The mma.sync path (INSTR = 0) ------------------------------------------------------------

constexpr int WARPS_M = BLOCK_M / WARP_M;
constexpr int WARPS_N = BLOCK_N / WARP_N;
constexpr int THREADS = WARPS_M * WARPS_N * 32;
constexpr int MMA_M = WARP_M / 16;                      // m16n8k16 tiles of a warp, down
constexpr int MMA_N = WARP_N / 8;                       // and across
constexpr int A_CHUNKS = BLOCK_K / 8;                   // 16-byte chunks (8 elements) in a row of A's tile
constexpr int B_CHUNKS = BLOCK_N / 8;                   // and of B's
constexpr int ROW_PAD = SWIZZLE ? 0 : 8;                // elements added to each row of a padded tile
constexpr int A_STAGE = BLOCK_M * (BLOCK_K + ROW_PAD);  // elements of one stage of A's tile
constexpr int B_STAGE = BLOCK_K * (BLOCK_N + ROW_PAD);

// ---- Shared-memory layout ----------------------------------------------------------------------

// Element offset of 16-byte chunk `chunk` of row `row` in a tile of CHUNKS chunks per row.
// ldmatrix reads one chunk of 8 consecutive rows; shared memory serves 8 chunks (128 bytes) at once
// when they lie in 8 different positions of a 128-byte line. Padding shifts each row by one chunk;
// the swizzle XORs the chunk index with the row's line number (rows of 64 bytes share a line in
// pairs), which keeps rows dense and the cp.async writes of a row whole.
template <int CHUNKS>
__device__ __forceinline__ int TileOffset(int row, int chunk) {
#if SWIZZLE
  constexpr int ROWS_PER_LINE = CHUNKS >= 8 ? 1 : 8 / CHUNKS;
  constexpr int LINE_MASK = (CHUNKS >= 8 ? 8 : CHUNKS) - 1;
  return row * CHUNKS * 8 + (chunk ^ ((row / ROWS_PER_LINE) & LINE_MASK)) * 8;
#else
  return row * (CHUNKS * 8 + ROW_PAD) + chunk * 8;
#endif
}

// One stage: A's BLOCK_M x BLOCK_K tile at (m0, k0) and B's BLOCK_K x BLOCK_N tile at (k0, n0).
// Consecutive threads copy consecutive chunks of a row, so a warp reads whole 128-byte lines.
__device__ __forceinline__ void LoadStage(element* sa, element* sb, const element* A, const element* B, int m0, int n0,
                                          int k0, int N, int K) {
#pragma unroll
  for (int j = 0; j < BLOCK_M * A_CHUNKS / THREADS; ++j) {
    const int i = threadIdx.x + j * THREADS;
    const int row = i / A_CHUNKS, chunk = i % A_CHUNKS;
    CopyChunk(sa + TileOffset<A_CHUNKS>(row, chunk), A + (long long)(m0 + row) * K + k0 + chunk * 8);
  }
#pragma unroll
  for (int j = 0; j < BLOCK_K * B_CHUNKS / THREADS; ++j) {
    const int i = threadIdx.x + j * THREADS;
    const int row = i / B_CHUNKS, chunk = i % B_CHUNKS;
    CopyChunk(sb + TileOffset<B_CHUNKS>(row, chunk), B + (long long)(k0 + row) * N + n0 + chunk * 8);
  }
}

// ---- Shared to registers: ldmatrix -------------------------------------------------------------

// A's fragments for one 16-deep k step. mma's A operand is four 8x8 pieces: rows 0-7 and 8-15 at
// k 0-7, then the same rows at k 8-15. ldmatrix.x4 loads piece i from the rows whose addresses
// lanes 8i..8i+7 give, so lane l points at row l % 16, k half l / 16.
__device__ __forceinline__ void LoadFragmentsA(unsigned int a[MMA_M][4], const element* sa, int warp_m0, int k16,
                                               int lane) {
#pragma unroll
  for (int i = 0; i < MMA_M; ++i) {
    const int row = warp_m0 + i * 16 + lane % 16;
    const unsigned int address = SharedAddress(sa + TileOffset<A_CHUNKS>(row, k16 * 2 + lane / 16));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3])
                 : "r"(address));
  }
}

// B's fragments for one 16-deep k step. B's tile is k-major (rows of k), mma's B operand is k-pairs
// of one column: .trans transposes each 8x8 piece on the way. One x4 load covers two 8-wide column
// blocks: pieces k 0-7 and 8-15 of the first, then of the second, so lane l points at k row l % 16,
// column block l / 16.
__device__ __forceinline__ void LoadFragmentsB(unsigned int b[MMA_N][2], const element* sb, int warp_n0, int k16,
                                               int lane) {
#pragma unroll
  for (int j = 0; j < MMA_N / 2; ++j) {
    const int row = k16 * 16 + lane % 16;
    const int chunk = (warp_n0 + j * 16) / 8 + lane / 16;
    const unsigned int address = SharedAddress(sb + TileOffset<B_CHUNKS>(row, chunk));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(b[2 * j][0]), "=r"(b[2 * j][1]), "=r"(b[2 * j + 1][0]), "=r"(b[2 * j + 1][1])
                 : "r"(address));
  }
}

// ---- The tensor cores --------------------------------------------------------------------------

// c (16x8, fp32: lane l holds rows l / 4 and l / 4 + 8, columns 2 (l % 4) and the next) += a · b.
// Not volatile: it has no effect but its outputs, so the compiler may schedule it between loads.
__device__ __forceinline__ void Mma(float c[4], const unsigned int a[4], const unsigned int b[2]) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32." MMA_TYPE "." MMA_TYPE
      ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// The warp's part of one stage: BLOCK_K / 16 steps of fragments and MMA_M x MMA_N products.
__device__ __forceinline__ void MultiplyStage(float acc[MMA_M][MMA_N][4], const element* sa, const element* sb,
                                              int warp_m0, int warp_n0, int lane) {
#pragma unroll
  for (int k16 = 0; k16 < BLOCK_K / 16; ++k16) {
    unsigned int a[MMA_M][4], b[MMA_N][2];
    LoadFragmentsA(a, sa, warp_m0, k16, lane);
    LoadFragmentsB(b, sb, warp_n0, k16, lane);
#pragma unroll
    for (int i = 0; i < MMA_M; ++i)
#pragma unroll
      for (int j = 0; j < MMA_N; ++j) Mma(acc[i][j], a[i], b[j]);
  }
}

// ---- The kernel --------------------------------------------------------------------------------

__device__ __forceinline__ void StoreTile(float* C, const float acc[MMA_M][MMA_N][4], int row0, int col0, int N,
                                          int lane) {
#pragma unroll
  for (int i = 0; i < MMA_M; ++i)
#pragma unroll
    for (int j = 0; j < MMA_N; ++j) {
      const int row = row0 + i * 16 + lane / 4, col = col0 + j * 8 + (lane % 4) * 2;
      *reinterpret_cast<float2*>(C + (long long)row * N + col) = make_float2(acc[i][j][0], acc[i][j][1]);
      *reinterpret_cast<float2*>(C + (long long)(row + 8) * N + col) = make_float2(acc[i][j][2], acc[i][j][3]);
    }
}

// M, N and K are whole multiples of the block tile (the description's constraints).
extern "C" __global__ void __launch_bounds__(THREADS)
    gemm_tc(const element* __restrict__ A, const element* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  extern __shared__ __align__(128) element shared[];
  element* sa = shared;                     // STAGES tiles of A
  element* sb = shared + STAGES * A_STAGE;  // then STAGES tiles of B
  int tile_m, tile_n;
  TileOfBlock(tile_m, tile_n);
  const int m0 = tile_m * BLOCK_M, n0 = tile_n * BLOCK_N;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m0 = warp / WARPS_N * WARP_M, warp_n0 = warp % WARPS_N * WARP_N;
  float acc[MMA_M][MMA_N][4] = {};
  const int k_tiles = K / BLOCK_K;

  // Prologue: the first STAGES - 1 slices in flight, one commit group each (empty past the end, so
  // that group t is always slice t).
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < k_tiles) LoadStage(sa + s * A_STAGE, sb + s * B_STAGE, A, B, m0, n0, s * BLOCK_K, N, K);
    CommitGroup();
  }
  for (int kt = 0; kt < k_tiles; ++kt) {
    WaitGroups<STAGES - 2>();  // this thread's copies of slice kt have landed
    __syncthreads();           // everyone's have; and no warp still reads the stage refilled below
    const int next = kt + STAGES - 1;
    const int refill = next % STAGES;  // the stage slice kt - 1 was in
    if (next < k_tiles) LoadStage(sa + refill * A_STAGE, sb + refill * B_STAGE, A, B, m0, n0, next * BLOCK_K, N, K);
    CommitGroup();
    const int stage = kt % STAGES;
    MultiplyStage(acc, sa + stage * A_STAGE, sb + stage * B_STAGE, warp_m0, warp_n0, lane);
  }
  StoreTile(C, acc, m0 + warp_m0, n0 + warp_n0, N, lane);
}

#endif  // INSTR
