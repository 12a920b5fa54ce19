// The tensor-core GEMM (gemm_bf16, and gemm_fp16, its kernel for half inputs) without a GPU: its
// space is what the constraints promise (whole tiles, 4 to 8 warps for mma.sync, 1 to 4 warpgroups
// for wgmma, every stage in the opt-in shared memory), and a pairwise sample of its mma.sync
// candidates (every pair of values of block tile, warp tile, stages and layout) with every wgmma
// candidate compiles with NVRTC to plausible kernels: no spills and no stack frame (the accumulators
// stay in registers), at most 255 registers, all shared memory dynamic. On sm_90 every candidate
// launches, the wgmma ones compiled for sm_90a; on sm_80 the wgmma ones are invalid for needing
// sm_90a, and of the others exactly those above its 163 KiB, naming shared memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <utility>

#include "db_test_util.h"
#include "explore/explore.h"
#include "expression/expression.h"
#include "occupancy/arch_table.h"
#include "pairwise_sample.h"
#include "template/arch_specific.h"
#include "template/search_space.h"
#include "template/template_library.h"

namespace tuner {
namespace {

const TemplateSpec& Shipped(const std::string& name) {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library.Find(name);
}

const TemplateSpec& GemmBf16() { return Shipped("gemm_bf16"); }

long long Param(const ParamValues& params, const std::string& name) {
  for (const auto& [key, value] : params)
    if (key == name) return value;
  ADD_FAILURE() << "no parameter " << name;
  return 0;
}

long long SharedBytes(const ParamValues& params, const ProblemSize& size) {
  return static_cast<long long>(Evaluate(GemmBf16().launch.shared_bytes, MakeVariables(size, params)));
}

bool Wgmma(const ParamValues& params) { return Param(params, "INSTR") >= 1; }

TEST(GemmBf16, TheSpaceHoldsWholeTilesOfFourToEightWarpsInTheOptInSharedMemory) {
  const ProblemSize size = ParseProblemSize(GemmBf16(), "");
  const std::vector<ParamValues> candidates = EnumerateCandidates(GemmBf16(), size);
  EXPECT_EQ(candidates.size(), 236u);
  bool above_48k = false;
  std::size_t wgmma = 0;
  for (const ParamValues& c : candidates) {
    EXPECT_LE(SharedBytes(c, size), 227 * 1024);
    above_48k |= SharedBytes(c, size) > 48 * 1024;
    const long long threads = EvaluateLaunch(GemmBf16().launch, MakeVariables(size, c)).ThreadsPerBlock();
    if (Wgmma(c)) {  // 64-row warpgroups of m64n128k16 products on 64-deep slices, the rest held
      ++wgmma;
      EXPECT_EQ(threads, Param(c, "BLOCK_M") / 64 * 128);
      EXPECT_EQ(Param(c, "BLOCK_K"), 64);
      EXPECT_EQ(Param(c, "BLOCK_N") % 128, 0);
      EXPECT_LE(Param(c, "BLOCK_M") * Param(c, "BLOCK_N"), 128 * 256);
      EXPECT_EQ(Param(c, "WARP_M"), 64);  // mma.sync's parameters, held at their first values
      EXPECT_EQ(Param(c, "WARP_N"), 64);
      EXPECT_EQ(Param(c, "SWIZZLE"), 1);
      continue;
    }
    const long long warps = (Param(c, "BLOCK_M") / Param(c, "WARP_M")) * (Param(c, "BLOCK_N") / Param(c, "WARP_N"));
    EXPECT_EQ(threads, warps * 32);
    EXPECT_GE(warps, 4);
    EXPECT_LE(warps, 8);
  }
  EXPECT_EQ(wgmma, 20u);  // 5 block tiles (not 256 x 256) x 3 or 4 stages x waiting or overlapping
  EXPECT_TRUE(above_48k);
  // Sizes the tiles do not divide have no candidate at all rather than wrong ones.
  EXPECT_TRUE(EnumerateCandidates(GemmBf16(), ParseProblemSize(GemmBf16(), "1000x1024x1024")).empty());
  EXPECT_EQ(EnumerateCandidates(GemmBf16(), ParseProblemSize(GemmBf16(), "512x1024x768")).size(), 236u);
}

// Only the wgmma candidates (wgmma and wgmma_overlap) need sm_90a.
TEST(GemmBf16, TheWgmmaCandidatesNeedSm90a) {
  const ProblemSize size = ParseProblemSize(GemmBf16(), "");
  for (const ParamValues& c : EnumerateCandidates(GemmBf16(), size)) {
    const CandidateArch on_h100 = ArchOfCandidate(GemmBf16(), MakeVariables(size, c), "sm_90");
    EXPECT_EQ(on_h100.arch, Wgmma(c) ? "sm_90a" : "sm_90") << ParamsJson(c);
    const CandidateArch on_a100 = ArchOfCandidate(GemmBf16(), MakeVariables(size, c), "sm_80");
    EXPECT_EQ(on_a100.invalid_reason,
              Wgmma(c) ? "needs sm_90a (wgmma): this GPU is sm_80, and sm_90a code runs only on sm_90" : "")
        << ParamsJson(c);
  }
  EXPECT_FALSE(Wgmma(ReferenceParams(GemmBf16())));  // the reference compiles for every GPU
}

// gemm_fp16 is the same kernel and space for half inputs.
TEST(GemmBf16, TheHalfTemplateIsTheSameKernelAndSpace) {
  const TemplateSpec& half = Shipped("gemm_fp16");
  EXPECT_EQ(half.source_text, GemmBf16().source_text);
  EXPECT_EQ(half.args[0].type, ScalarType::kHalf);
  EXPECT_EQ(half.args[1].type, ScalarType::kHalf);
  EXPECT_EQ(GemmBf16().args[0].type, ScalarType::kBfloat16);
  const ProblemSize size = ParseProblemSize(half, "");
  EXPECT_EQ(EnumerateCandidates(half, size), EnumerateCandidates(GemmBf16(), size));
}

// (template, architecture)
class GemmBf16Compiles : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(GemmBf16Compiles, APairwiseSampleCompilesWithoutSpillsAndLaunchesWhereItsSharedMemoryFits) {
  const TemplateSpec& spec = Shipped(GetParam().first);
  const std::string arch = GetParam().second;
  const ProblemSize size = ParseProblemSize(spec, "1024x1024x1024");
  const std::vector<ParamValues> candidates = EnumerateCandidates(spec, size);
  std::vector<ParamValues> mma_sync, wgmma;
  for (const ParamValues& c : candidates) (Wgmma(c) ? wgmma : mma_sync).push_back(c);
  std::vector<ParamValues> sample = testing::PairwiseSample(mma_sync);
  ASSERT_LE(sample.size(), 24u);
  ASSERT_EQ(wgmma.size(), 20u);
  sample.insert(sample.end(), wgmma.begin(), wgmma.end());
  // and the one with the most shared memory (212 KiB: 4 stages of 256x128x64, padded)
  sample.push_back(*std::max_element(candidates.begin(), candidates.end(), [&](const auto& a, const auto& b) {
    return SharedBytes(a, size) < SharedBytes(b, size);
  }));
  db::testing::TempDir dir;
  const auto threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const DeviceLimits limits = ArchLimits(arch);
  const Exploration exploration =
      ExploreCandidates(spec, sample, size, limits, arch, dir.File("cubins"), threads, TUNER_EXECUTABLE);
  ASSERT_EQ(exploration.explored.size(), sample.size());
  std::size_t too_large = 0;
  for (const ExploredCandidate& c : exploration.explored) {
    const std::string name = ParamsJson(c.params);
    if (Wgmma(c.params) && arch == "sm_80") {
      EXPECT_FALSE(c.compiled) << name;
      EXPECT_NE(c.invalid_reason.find("needs sm_90a (wgmma): this GPU is sm_80"), std::string::npos) << name;
      continue;
    }
    const bool fits = SharedBytes(c.params, size) <= static_cast<long long>(limits.smem_per_block_optin_bytes);
    EXPECT_EQ(c.invalid_reason.empty(), fits) << name << ": " << c.invalid_reason;
    if (!fits) {
      ++too_large;
      EXPECT_NE(c.invalid_reason.find("shared memory"), std::string::npos) << name << ": " << c.invalid_reason;
      continue;
    }
    ASSERT_TRUE(c.compiled) << name << "\n" << c.compile_log;
    EXPECT_EQ(c.info.spill_bytes, 0) << name;
    EXPECT_EQ(c.info.stack_bytes, 0) << name;  // the accumulators and fragments stay in registers
    EXPECT_EQ(c.info.static_smem_bytes, 0) << name;
    EXPECT_GE(c.info.regs_per_thread, 64) << name;  // 32 to 128 fp32 accumulators per thread alone
    EXPECT_LE(c.info.regs_per_thread, 255) << name;
    EXPECT_GE(c.occupancy.blocks_per_sm, 1) << name;
  }
  EXPECT_EQ(too_large > 0, arch == "sm_80");  // 212 KiB: only sm_90 holds it
}

INSTANTIATE_TEST_SUITE_P(TemplatesAndArchs, GemmBf16Compiles,
                         ::testing::Values(std::make_pair("gemm_bf16", "sm_80"), std::make_pair("gemm_bf16", "sm_90"),
                                           std::make_pair("gemm_fp16", "sm_80"), std::make_pair("gemm_fp16", "sm_90")),
                         [](const auto& info) { return std::string(info.param.first) + "_" + info.param.second; });

}  // namespace
}  // namespace tuner
