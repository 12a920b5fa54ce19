// Deliberately broken variants of the shipped templates, the kind of bug a kernel author writes: an
// off-by-one bound, a dropped tail, a missing __syncthreads, a wrong index, a race. Each is a list of
// textual edits of the shipped source; every edit must match exactly once, so a change of the
// shipped source makes the mutation tests fail loudly instead of testing nothing. A missing barrier
// is made to show by delaying the other warps (__nanosleep) so that one warp reads shared memory
// before it is written, on every run. mutants_test.cpp compiles every mutant without a GPU;
// mutation_gpu_test.cpp tunes each through `tuner tune` and demands that every candidate it affects
// is wrong_result (or fault) and never best.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "template/template_spec.h"

namespace tuner::testing {

struct SourceEdit {
  std::string find;  // occurs exactly once in the shipped source
  std::string replace;
};

struct Mutant {
  std::string bug;  // what is wrong, in a few words
  std::vector<SourceEdit> edits;
  std::string size;     // --size, chosen so that the bug shows (partial tiles, tails)
  std::string affects;  // expression over the parameters: the candidates the bug reaches
  bool race = false;    // forced race: candidates outside `affects` may go either way
};

struct TemplateMutants {
  std::string name;  // shipped template
  std::vector<Mutant> mutants;
  // For a space too large to tune once per mutant: a constraint that the shipped template and its
  // mutants are tuned under (an added line of `constraints`); empty: every candidate.
  std::string sample = "";
};

// gtest names a parameterised test's cases by this.
inline void PrintTo(const TemplateMutants& mutants, std::ostream* out) { *out << mutants.name; }

// Replaces the one occurrence of `find` in `text`; throws naming `where` unless it occurs exactly once.
inline void ReplaceOnce(std::string& text, const std::string& find, const std::string& replace,
                        const std::string& where) {
  const std::size_t at = text.find(find);
  if (at == std::string::npos || text.find(find, at + 1) != std::string::npos)
    throw std::runtime_error(where + " does not have exactly one " + find);
  text.replace(at, find.size(), replace);
}

// The shipped source with the mutant's edits applied; throws naming the edit when it does not match
// exactly once.
inline std::string Mutate(const std::string& source, const Mutant& mutant) {
  std::string text = source;
  for (const SourceEdit& edit : mutant.edits)
    ReplaceOnce(text, edit.find, edit.replace, "the source of mutant '" + mutant.bug + "'");
  return text;
}

// Writes the mutant as a template of its own into `folder`: the shipped description renamed to
// `name` (still naming the shipped source file, so that the mutated copy beside it is the one
// compiled), with the `sample` constraint when there is one, and the mutated source.
inline void WriteMutant(const TemplateSpec& spec, const Mutant& mutant, const std::string& name,
                        const std::string& folder, const std::string& sample = "") {
  std::ifstream in(spec.description_path, std::ios::binary);
  std::string description((std::istreambuf_iterator<char>(in)), {});
  if (!sample.empty())
    ReplaceOnce(description, "\nconstraints = [\n", "\nconstraints = [\n  \"" + sample + "\",\n",
                spec.description_path);
  const std::string line = "name = \"" + spec.name + "\"\n";
  const std::size_t at = description.find(line);
  if (at == std::string::npos) throw std::runtime_error(spec.description_path + " has no line " + line);
  const std::string source = std::filesystem::path(spec.source_path).filename().string();
  const bool names_its_source = description.find("\nsource = ") != std::string::npos;
  description.replace(at, line.size(),
                      "name = \"" + name + "\"\n" + (names_its_source ? "" : "source = \"" + source + "\"\n"));
  std::filesystem::create_directories(folder);
  std::ofstream(folder + "/" + name + ".toml", std::ios::binary) << description;
  std::ofstream(folder + "/" + source, std::ios::binary) << Mutate(spec.source_text, mutant);
}

// A warp other than the first waits before it writes shared memory, so that a missing barrier
// shows on every run.
inline const std::string kOtherWarpsLate =
    "if (threadIdx.x >= 32) __nanosleep(20000);  // mutant: the other warps write late\n";

inline std::vector<Mutant> CoalescingMutants() {
  return {
      {"off-by-one: the wrap-around of OFFSET misses element 0 and writes one past the end",
       {{"e[j] = t + OFFSET >= n ? t + OFFSET - n", "e[j] = t + OFFSET > n ? t + OFFSET - n"}},
       "100003",
       "MODE == 0 && OFFSET > 0"},
      {"off-by-one bound: the strided run drops the last element",
       {{"    if (e[j] >= n) e[j] = -1;", "    if (e[j] >= n - 1) e[j] = -1;"}},
       "100003",
       "MODE == 1"},
      {"wrong index: every strided block reads column 0",
       {{"e[j] = row * STRIDE + blockIdx.y;", "e[j] = row * STRIDE;"}},
       "100003",
       "MODE == 1 && STRIDE > 1"},
      {"dropped tail: the last of ITEMS elements is never stored",
       {{"  for (int j = 0; j < ITEMS; ++j)\n    if (e[j] >= 0) out[e[j]]",
         "  for (int j = 0; j < ITEMS - 1; ++j)\n    if (e[j] >= 0) out[e[j]]"}},
       "100003",
       "1"},
  };
}

// gemm_bf16 and gemm_fp16 share their kernel (gemm_bf16.cu), and so its mutants. 512^3: every block
// tile divides it; 8 to 16 K slices, more than any STAGES.
inline std::vector<Mutant> GemmTensorCoreMutants() {
  return {
      {"dropped k-tile: the last K slice is never multiplied",
       {{"for (int kt = 0; kt < k_tiles; ++kt)", "for (int kt = 0; kt < k_tiles - 1; ++kt)"}},
       "512x512x512",
       "INSTR == 0"},
      {"wrong fragment index: A's pieces of rows 8-15 and of k 8-15 are swapped",
       {{"\"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3])", "\"r\"(a[0]), \"r\"(a[2]), \"r\"(a[1]), \"r\"(a[3])"}},
       "512x512x512",
       "INSTR == 0"},
      {"missing __syncthreads: a warp multiplies the slices before the other warps' copies land",
       {{"    __syncthreads();           // everyone's have;", "    // mutant: no barrier;"},
        {"  const int k_tiles = K / BLOCK_K;\n", "  const int k_tiles = K / BLOCK_K;\n  " + kOtherWarpsLate}},
       "512x512x512",
       "INSTR == 0",
       true},
      // At 512^3 the inputs stay in L2 and the copies may land before the reads (8-warp blocks
      // passed on an H100); at 4096^3 A and B (64 MiB) exceed its 50 MiB, and a slice read right
      // after its copies were issued is read before DRAM answers.
      {"missing cp.async.wait_group: the stage is read before this thread's own copies land",
       {{"    WaitGroups<STAGES - 2>();  // this thread's", "    // mutant: no wait;"}},
       "4096x4096x4096",
       "INSTR == 0",
       true},
      {"wrong layout: A's fragments are read from a dense, unswizzled tile, not where the copies put them",
       {{"    const unsigned int address = SharedAddress(sa + TileOffset<A_CHUNKS>(row, k16 * 2 + lane / 16));",
         "    const unsigned int address = SharedAddress(sa + row * A_CHUNKS * 8 + (k16 * 2 + lane / 16) * "
         "8);"}},
       "512x512x512",
       "INSTR == 0"},
      // wgmma (sm_90a):
      {"wrong descriptor stride: wgmma reads B's groups of 8 k rows 512 bytes apart, not 1024",
       {{"Descriptor(sb + j * 2 * PANEL_BYTES + s * 16 * ROW_BYTES, PANEL_BYTES, 1024)",
         "Descriptor(sb + j * 2 * PANEL_BYTES + s * 16 * ROW_BYTES, PANEL_BYTES, 512)"}},
       "512x512x512",
       "INSTR >= 1"},
      {"wrong descriptor address: A's 16-deep k steps start 16 bytes apart in its rows, not 32",
       {{"Descriptor(sa + warpgroup * 64 * ROW_BYTES + s * 32, 16, 1024)",
         "Descriptor(sa + warpgroup * 64 * ROW_BYTES + s * 16, 16, 1024)"}},
       "512x512x512",
       "INSTR >= 1"},
  };
}

// 9 of their 216 mma.sync candidates and 2 of their 20 wgmma ones (128 x 128 waiting, 128 x 256
// overlapping) at 512^3 and 4096^3, with every value of every parameter.
inline const std::string kGemmTensorCoreSample =
    "(INSTR == 0 && (BLOCK_M + 2 * BLOCK_N + 3 * BLOCK_K + 5 * WARP_M + 7 * WARP_N + 11 * STAGES + 13 * SWIZZLE) % "
    "23 == 0) || (INSTR == 1 && BLOCK_M == 128 && BLOCK_N == 128 && STAGES == 3) || "
    "(INSTR == 2 && BLOCK_M == 128 && BLOCK_N == 256 && STAGES == 4)";

inline const std::vector<TemplateMutants>& AllMutants() {
  static const std::vector<TemplateMutants> all = [] {
    std::vector<TemplateMutants> t;
    t.push_back(
        {"transpose",
         {
             {"off-by-one bound: the naive kernel drops the last column",
              {{"    if (x < w && y + j < h) out[", "    if (x < w - 1 && y + j < h) out["}},
              "1000x600",
              "VARIANT == 0"},
             {"missing __syncthreads between the tile's writes and reads",
              {{"  __syncthreads();\n  x = blockIdx.y * TILE + threadIdx.x;", "  x = blockIdx.y * TILE + threadIdx.x;"},
               {"  __shared__ float tile[TILE][TILE + PAD];\n",
                "  __shared__ float tile[TILE][TILE + PAD];\n  if (threadIdx.y * TILE + threadIdx.x >= 32) "
                "__nanosleep(100000);  // mutant: the other warps write late\n"}},
              "1000x600",
              "VARIANT == 1",
              true},
             {"wrong index: the tile is read back untransposed",
              {{"= tile[threadIdx.x][threadIdx.y + j];", "= tile[threadIdx.y + j][threadIdx.x];"}},
              "1000x600",
              "VARIANT == 1"},
             {"dropped tail: the last ROWS rows of each tile are never staged",
              {{"  for (int j = 0; j < TILE; j += ROWS)\n    if (x < w && y + j < h) tile[",
                "  for (int j = 0; j < TILE - ROWS; j += ROWS)\n    if (x < w && y + j < h) tile["}},
              "1000x600",
              "VARIANT == 1"},
             {"wrong bound: the tiled store checks the input's width and height",
              {{"    if (x < h && y + j < w) out[", "    if (x < w && y + j < h) out["}},
              "1000x600",
              "VARIANT == 1"},
         }});
    t.push_back({"matmul",
                 {
                     {"dropped tail: the naive kernel skips the last product",
                      {{"  for (int k = 0; k < K; ++k) sum += A[", "  for (int k = 0; k < K - 1; ++k) sum += A["}},
                      "200x152x76",
                      "VARIANT == 0"},
                     {"missing __syncthreads after staging the tiles",
                      {{"    __syncthreads();\n#pragma unroll\n    for (int k = 0; k < TILE_WIDTH; ++k)",
                        "#pragma unroll\n    for (int k = 0; k < TILE_WIDTH; ++k)"},
                       {"    As[ty][tx] = (row < M",
                        "    if (ty * TILE_WIDTH + tx >= 32) __nanosleep(20000);  // mutant: the other warps write "
                        "late\n    As[ty][tx] = (row < M"}},
                      "200x152x76",
                      "VARIANT == 1",
                      true},
                     {"wrong index: B's tile is read transposed",
                      {{"sum += As[ty][k] * Bs[k][tx];", "sum += As[ty][k] * Bs[tx][k];"}},
                      "200x152x76",
                      "VARIANT == 1"},
                     {"off-by-one bound: the tiled kernel never stores the last row",
                      {{"  if (row < M && col < N) C[", "  if (row < M - 1 && col < N) C["}},
                      "200x152x76",
                      "VARIANT == 1"},
                     {"missing __syncthreads after staging (register-blocked, single buffer)",
                      {{"    store_a(0);\n    store_b(0);\n    __syncthreads();\n",
                        "    " + kOtherWarpsLate + "    store_a(0);\n    store_b(0);\n"}},
                      "256x128x64",
                      "VARIANT == 2 && DB == 0",
                      true},
                     {"wrong buffer: the next K step's B tile overwrites the one being read",
                      {{"      store_b(buf ^ 1);\n", "      store_b(buf);\n"}},
                      "256x128x64",
                      "VARIANT == 2 && DB == 1"},
                     {"wrong index: the second float4 column of a thread tile is stored in the wrong place",
                      {{"        int c = b_col + j * WTC * 4;", "        int c = b_col + j * WTC;"}},
                      "256x128x64",
                      "VARIANT == 2 && TN == 8"},
                 }});
    t.push_back({"reduction",
                 {
                     {"dropped tail: the n % 4 values after the last float4 are never added",
                      {{"  if (blockIdx.x == 0 && threadIdx.x < n - n4 * 4) sum += in[n4 * 4 + threadIdx.x];\n", ""}},
                      "1000001",
                      "VEC == 4"},
                     {"off-by-one bound: the last value is never loaded",
                      {{"    v[j] = i < n ? in[i] : 0.0f;", "    v[j] = i < n - 1 ? in[i] : 0.0f;"}},
                      "1000001",
                      "VEC == 1"},
                     {"missing __syncthreads before the shared-memory tree",
                      {{"  sdata[tid] = sum;\n  __syncthreads();\n", "  " + kOtherWarpsLate + "  sdata[tid] = sum;\n"}},
                      "1000001",
                      "VARIANT >= 1 && VARIANT <= 3",
                      true},
                     {"off-by-one: the last warp's partial sum is dropped",
                      {{"    sum = tid < BLOCK / 32 ? warp_sums[tid] : 0.0f;",
                        "    sum = tid < BLOCK / 32 - 1 ? warp_sums[tid] : 0.0f;"}},
                      "1000001",
                      "VARIANT == 4"},
                     {"missing shuffle step: each warp adds only its first 16 lanes",
                      {{"  for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);\n  if (tid % "
                        "32 == 0)",
                        "  for (int o = 8; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);\n  if (tid % "
                        "32 == 0)"}},
                      "1000001",
                      "VARIANT == 4"},
                     // (A slot flushed one block early loses a total only when that block adds
                     // it after the flush: a race that on an H100 shows on about half of the
                     // candidates even with the check after the timed launches, so it is no
                     // mutant for a test that must kill every one; see bench/benchmarks.md.)
                     {"off-by-one: the last block of a slot is never recognised, so no slot total reaches the sum",
                      {{"if (atomicAdd(&slot_done[s * SLOT_STRIDE], 1u) == blocks_in_slot - 1) {",
                        "if (atomicAdd(&slot_done[s * SLOT_STRIDE], 1u) == blocks_in_slot) {"}},
                      "1000001",
                      "1"},
                 }});
    t.push_back(
        {"conv1d",
         {
             {"off-by-one: the global-memory kernels skip the last tap",
              {{"    for (; t < taps; ++t) {", "    for (; t < taps - 1; ++t) {"}},
              "10007x37",
              "VARIANT <= 1"},
             {"missing __syncthreads after staging the input span",
              {{"  __syncthreads();\n  if (first >= n) return;\n", "  if (first >= n) return;\n"},
               {"  for (int i = threadIdx.x; i < span_len + U; i += BLOCK)",
                "  " + kOtherWarpsLate + "  for (int i = threadIdx.x; i < span_len + U; i += BLOCK)"}},
              "10007x37",
              "VARIANT >= 2",
              true},
             {"wrong index: the global filter is read one tap ahead",
              {{"for (int u = 0; u < U; ++u) f[u] = p[t + u];", "for (int u = 0; u < U; ++u) f[u] = p[t + u + 1];"}},
              "10007x37",
              "VARIANT == 0"},
             {"wrong index: every constant-memory chunk reads the first taps",
              {{"f[u] = c_filter[t + u];", "f[u] = c_filter[u];"}},
              "10007x37",
              "(VARIANT == 1 || VARIANT == 2) && OUTS < 32"},
             {"off-by-one: the last, partial chunk of taps drops its last tap",
              {{"fc[u] = t + u < taps ? f(t + u) : 0.0f;", "fc[u] = t + u < taps - 1 ? f(t + u) : 0.0f;"}},
              "10007x37",
              "VARIANT >= 2"},
             {"off-by-one bound: the last thread's cut-short run drops the last output",
              {{"      if (first + j < n) out[first + j] = acc[j];",
                "      if (first + j < n - 1) out[first + j] = acc[j];"}},
              "10007x37",
              "OUTS > 1"},
         }});
    t.push_back({"coalescing", CoalescingMutants()});
    std::vector<Mutant> fp64 = CoalescingMutants();
    fp64.push_back({"float arithmetic in the double kernel",
                    {{"out[e[j]] = (REAL)2 * v[j] + (REAL)1;", "out[e[j]] = (REAL)(2.0f * (float)v[j] + 1.0f);"}},
                    "100003",
                    "1"});
    t.push_back({"coalescing_fp64", fp64});
    // 100003 elements: a tail of 3 past the last whole vector of 4 or 8, a partial last block.
    t.push_back({"add_scale_bf16",
                 {
                     {"off-by-one: the last element past the whole vectors is never written",
                      {{"i < n; i += BLOCK) out[i]", "i < n - 1; i += BLOCK) out[i]"}},
                      "100003",
                      "VEC_BYTES > 2"},
                     {"wrong index: a thread's vectors are consecutive, overlapping its neighbours'",
                      {{"const long long v = first + (long long)j * BLOCK;", "const long long v = first + j;"},
                       {"const long long w = first + (long long)j * BLOCK;", "const long long w = first + j;"}},
                      "100003",
                      "ITEMS > 1"},
                     {"wrong lane: every element adds the first bfloat16 of y's vector",
                      {{"AddScale(a[j].v[k], b[j].v[k], alpha)", "AddScale(a[j].v[k], b[j].v[0], alpha)"}},
                      "100003",
                      "VEC_BYTES > 2"},
                     {"off-by-one bound: the last whole vector is never stored",
                      {{"if (w >= vectors) continue;", "if (w >= vectors - 1) continue;"}},
                      "100003",
                      "1"},
                 }});
    t.push_back({"adjacent_difference",
                 {
                     {"off-by-one: the naive kernel copies element 1 instead of differencing it",
                      {{"out[i] = i > 0 ? in[i] - in[i - 1] : in[i];", "out[i] = i > 1 ? in[i] - in[i - 1] : in[i];"}},
                      "100003",
                      "VARIANT == 0"},
                     {"dropped halo: each block's first difference uses 0 for its left neighbour",
                      {{"s[0] = first > 0 ? in[first - 1] : 0.0f;", "s[0] = 0.0f;"}},
                      "100003",
                      "VARIANT == 1"},
                     {"missing __syncthreads after staging",
                      {{"  __syncthreads();\n", ""},
                       {"  __shared__ float s[BLOCK * ITEMS + 1];",
                        "  if (threadIdx.x < BLOCK - 32) __nanosleep(20000);  // mutant: all warps but the last write "
                        "late\n  __shared__ float s[BLOCK * ITEMS + 1];"}},
                      "100003",
                      "VARIANT == 1",
                      true},
                     {"off-by-one bound: the shared kernel never stores the last element",
                      {{"    if (i < n) out[i] = s[k + 1] - s[k];", "    if (i < n - 1) out[i] = s[k + 1] - s[k];"}},
                      "100003",
                      "VARIANT == 1"},
                 }});
    // BINS = 128 holds every random value ([0, 100)), so every value counts.
    t.push_back(
        {"histogram",
         {
             {"lost group count: a warp-aggregated group adds 1 instead of its size",
              {{"atomicAdd(&counters[value], (unsigned int)__popc(group));", "atomicAdd(&counters[value], 1u);"}},
              "100003x128",
              "VARIANT >= 2"},
             {"off-by-one bound: the last value is never counted",
              {{"count_value(counters, i < n ? __ldg(&data[i]) : ~0u, (unsigned int)nbins);",
                "count_value(counters, i < n - 1 ? __ldg(&data[i]) : ~0u, (unsigned int)nbins);"}},
              "100003x128",
              "1"},
             {"wrong index: a thread's values are consecutive, overlapping its neighbours'",
              {{"const long long i = base + (long long)k * BLOCK;", "const long long i = base + k;"}},
              "100003x128",
              "ITEMS > 1"},
             {"missing __syncthreads before the private histogram is added to the global one",
              {{"  __syncthreads();\n  for (int b = threadIdx.x; b < nbins; b += BLOCK)\n    if (local[b]",
                "  for (int b = threadIdx.x; b < nbins; b += BLOCK)\n    if (local[b]"},
               {"  unsigned int* counters = local;\n",
                "  unsigned int* counters = local;\n  if (threadIdx.x >= 32) __nanosleep(20000);  // mutant: all warps "
                "but the first count late\n"}},
              "100003x128",
              "VARIANT == 1 || VARIANT == 2",
              true},
         }});
    t.push_back(
        {"gemm_large",
         {
             {"missing __syncthreads after staging (single buffer)",
              {{"    fetch(s * TILE_K);\n    stash(0);\n    __syncthreads();\n",
                "    fetch(s * TILE_K);\n    " + kOtherWarpsLate + "    stash(0);\n"}},
              "200x152x76",
              "DB == 0",
              true},
             {"wrong buffer: the next K step's tiles overwrite the ones just read",
              {{"if (more) stash(buf ^ 1);", "if (more) stash(buf);"}},
              "200x152x76",
              "DB == 1"},
             {"dropped tail: the last, partial K step of A is read as zeros",
              {{"m0 + r < M && k0 + c < K);", "m0 + r < M && k0 + TILE_K <= K);"}},
              "200x152x76",
              "K % TILE_K != 0"},
             {"off-by-one bound: the last row of C is never stored",
              {{"if (r < M && c < N) C[", "if (r < M - 1 && c < N) C["}},
              "200x152x76",
              "1"},
             {"wrong index: strided columns are WORK_N apart instead of TILE_N / WORK_N",
              {{"STRIDE_N ? tn + j * THREADS_N :", "STRIDE_N ? tn + j * WORK_N :"}},
              "200x152x76",
              "STRIDE_N == 1 && WORK_N > 1 && TILE_N != WORK_N * WORK_N"},
             {"swapped lanes: a float4 load puts z and w in each other's place",
              {{"v[2] = x.z; v[3] = x.w;", "v[2] = x.w; v[3] = x.z;"}},
              "200x152x76",
              "VEC_A == 4 || VEC_B == 4"},
         },
         // 158 of the 12,064 candidates at 200x152x76, with every pair of parameter values.
         "(TILE_M + 2 * TILE_N + 3 * TILE_K + 5 * WORK_M + 7 * WORK_N + 11 * VEC_A + 13 * VEC_B + 17 * A_TRANSPOSED"
         " + 19 * PAD_A + 23 * STRIDE_N + 29 * UNROLL_K + 31 * DB) % 79 == 0"});
    t.push_back({"gemm_bf16", GemmTensorCoreMutants(), kGemmTensorCoreSample});
    t.push_back({"gemm_fp16", GemmTensorCoreMutants(), kGemmTensorCoreSample});
    t.push_back({"divergence",
                 {
                     {"wrong mapping: the per-warp mapping shifts the lane by 4 bits, so elements repeat and others "
                      "stay unwritten",
                      {{"return warp | (lane << 5);", "return warp | (lane << 4);"}},
                      "100000x4",
                      "BRANCH == 1 && TRIPS == 1"},
                     {"off-by-one bound: the last element is never written",
                      {{"    if (i < n) out[i] = divergent_work(", "    if (i < n - 1) out[i] = divergent_work("}},
                      "100000x4",
                      "1"},
                     {"wrong mapping: the step count comes from 3 warp bits, so elements repeat",
                      {{"((warp & 15) << 1)", "((warp & 7) << 1)"}},
                      "100000x4",
                      "BRANCH == 0 && TRIPS == 1"},
                     {"wrong mapping: the rest of the element takes lane bit 4 at bit 4, where the step count is",
                      {{"((lane >> 4) << 5)", "((lane >> 4) << 4)"}},
                      "100000x4",
                      "BRANCH == 1 && TRIPS == 0"},
                 }});
    t.push_back(
        {"streams",
         {
             {"off-by-one bound: the last element of every chunk is never written",
              {{"BLOCK + threadIdx.x;\n  if (i < n)", "BLOCK + threadIdx.x;\n  if (i < n - 1)"}},
              "1000000x8",
              "1"},
             {"one step short: the candidate runs ITERS - 1 steps",
              {{"BLOCK + threadIdx.x;\n  if (i < n) out[i] = steps(in[i], iters);",
                "BLOCK + threadIdx.x;\n  if (i < n) out[i] = steps(in[i], iters - 1);"}},
              "1000000x8",
              "1"},
             {"wrong index: a thread reads its neighbour's input",
              {{"BLOCK + threadIdx.x;\n  if (i < n) out[i] = steps(in[i], iters);",
                "BLOCK + threadIdx.x;\n  if (i < n) out[i] = steps(in[i + 1 < n ? i + 1 : i], iters);"}},
              "1000000x8",
              "1"},
             {"wrong block offset: blocks overlap by one element and the chunk's last elements stay unwritten",
              {{"(long long)blockIdx.x * BLOCK + threadIdx.x", "(long long)blockIdx.x * (BLOCK - 1) + threadIdx.x"}},
              "1000000x8",
              "1"},
         }});
    t.push_back({"unified_memory",
                 {
                     {"off-by-one bound: the last element of every chunk is never written",
                      {{"    if (k < n) out[k]", "    if (k < n - 1) out[k]"}},
                      "1000000",
                      "1"},
                     {"swapped operands: y * 2 + x",
                      {{"out[k] = __fmaf_rn(x[k], 2.0f, y[k]);", "out[k] = __fmaf_rn(y[k], 2.0f, x[k]);"}},
                      "1000000",
                      "1"},
                     {"wrong stride: a thread's elements are 32 apart instead of BLOCK",
                      {{"(long long)j * BLOCK;", "(long long)j * 32;"}},
                      "1000000",
                      "ITEMS > 1"},
                     {"dropped tail: a thread's last element is never computed",
                      {{"for (int j = 0; j < ITEMS; ++j)", "for (int j = 0; j < ITEMS - 1; ++j)"}},
                      "1000000",
                      "1"},
                 }});
    return t;
  }();
  return all;
}

}  // namespace tuner::testing
