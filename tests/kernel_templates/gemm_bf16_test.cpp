// The tensor-core GEMM (gemm_bf16, and gemm_fp16, its kernel for half inputs) without a GPU: its
// space is what the constraints promise (whole tiles, 4 to 8 warps, every stage in the opt-in shared
// memory), and a pairwise sample of it (every pair of values of block tile, warp tile, stages and
// layout) compiles with NVRTC for sm_80 and sm_90 to plausible kernels: no spills and no stack frame
// (the accumulators stay in registers), at most 255 registers, all shared memory dynamic, and every
// candidate launches on sm_90 while on sm_80 exactly those above its 163 KiB are invalid, naming
// shared memory.
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

TEST(GemmBf16, TheSpaceHoldsWholeTilesOfFourToEightWarpsInTheOptInSharedMemory) {
  const ProblemSize size = ParseProblemSize(GemmBf16(), "");
  const std::vector<ParamValues> candidates = EnumerateCandidates(GemmBf16(), size);
  EXPECT_EQ(candidates.size(), 216u);
  bool above_48k = false;
  for (const ParamValues& c : candidates) {
    const long long warps = (Param(c, "BLOCK_M") / Param(c, "WARP_M")) * (Param(c, "BLOCK_N") / Param(c, "WARP_N"));
    EXPECT_GE(warps, 4);
    EXPECT_LE(warps, 8);
    EXPECT_LE(SharedBytes(c, size), 227 * 1024);
    above_48k |= SharedBytes(c, size) > 48 * 1024;
  }
  EXPECT_TRUE(above_48k);
  // Sizes the tiles do not divide have no candidate at all rather than wrong ones.
  EXPECT_TRUE(EnumerateCandidates(GemmBf16(), ParseProblemSize(GemmBf16(), "1000x1024x1024")).empty());
  EXPECT_EQ(EnumerateCandidates(GemmBf16(), ParseProblemSize(GemmBf16(), "512x1024x768")).size(), 216u);
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
  std::vector<ParamValues> sample = testing::PairwiseSample(candidates);
  ASSERT_LE(sample.size(), 24u);
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
