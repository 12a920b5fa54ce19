// The occupancy engine against NVIDIA's cuda_occupancy.h called directly (how the engine feeds it),
// the built-in table and hand-worked results against the documentation (independent of both), the
// worked example of docs/guide/occupancy.md, invalid kernels, and the `tuner occupancy` command line (no GPU needed).
#include "occupancy/occupancy.h"

#include <cuda_occupancy.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <sys/wait.h>
#include "cli_runner.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "base/errors.h"
#include "occupancy/arch_table.h"

namespace tuner {
namespace {

cudaDeviceProp PropertiesOf(const DeviceLimits& d) {
  cudaDeviceProp p{};
  p.major = d.cc_major;
  p.minor = d.cc_minor;
  p.multiProcessorCount = 132;
  p.warpSize = d.warp_size;
  p.maxThreadsPerBlock = d.max_threads_per_block;
  p.maxThreadsPerMultiProcessor = d.max_threads_per_sm;
  p.maxBlocksPerMultiProcessor = d.max_blocks_per_sm;
  p.regsPerMultiprocessor = d.regs_per_sm;
  p.regsPerBlock = d.regs_per_block;
  p.sharedMemPerMultiprocessor = d.smem_per_sm_bytes;
  p.sharedMemPerBlock = d.smem_per_block_bytes;
  p.sharedMemPerBlockOptin = d.smem_per_block_optin_bytes;
  p.reservedSharedMemPerBlock = d.reserved_smem_per_block_bytes;
  return p;
}

// The reference: the header fed the way an application feeds it (its own conversions from
// cudaDeviceProp and cudaFuncAttributes), with the shared memory split into static and dynamic.
cudaOccResult Reference(const DeviceLimits& d, int threads, int regs, std::size_t smem) {
  const cudaOccDeviceProp props = PropertiesOf(d);
  cudaFuncAttributes function{};
  function.maxThreadsPerBlock = d.max_threads_per_block;
  function.numRegs = regs;
  function.sharedSizeBytes = smem / 3;
  function.maxDynamicSharedSizeBytes = static_cast<int>(d.smem_per_block_optin_bytes);
  const cudaOccFuncAttributes attributes = function;
  const cudaOccDeviceState state;
  cudaOccResult result{};
  EXPECT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&result, &props, &attributes, &state, threads, smem - smem / 3),
            CUDA_OCC_SUCCESS);
  return result;
}

unsigned BitsOf(const OccupancyResult& r) {
  unsigned bits = 0;
  for (Limiter l : r.limiters)
    bits |= l == Limiter::kWarps          ? OCC_LIMIT_WARPS
            : l == Limiter::kRegisters    ? OCC_LIMIT_REGISTERS
            : l == Limiter::kSharedMemory ? OCC_LIMIT_SHARED_MEMORY
            : l == Limiter::kBlocks       ? OCC_LIMIT_BLOCKS
                                          : OCC_LIMIT_BARRIERS;
  return bits;
}

TEST(Occupancy, AgreesWithCudaOccupancyHeaderOnEveryBuiltInArchitecture) {
  const int threads[] = {1, 32, 33, 64, 96, 128, 160, 192, 256, 288, 384, 512, 640, 768, 1024, 1025};
  const int regs[] = {0, 1, 16, 24, 32, 37, 40, 48, 56, 64, 72, 96, 128, 168, 200, 255};
  const std::size_t smem[] = {0,         1,          1000,       2048,       4096,       8000,
                              12288,     16384,      32768,      48000,      49152,      65536,
                              99 * 1024, 100 * 1024, 163 * 1024, 200 * 1024, 227 * 1024, 228 * 1024};
  int compared = 0;
  for (const std::string& arch : KnownArchs()) {
    const DeviceLimits d = ArchLimits(arch);
    for (int t : threads)
      for (int r : regs)
        for (std::size_t s : smem) {
          SCOPED_TRACE(arch + " threads " + std::to_string(t) + " regs " + std::to_string(r) + " smem " +
                       std::to_string(s));
          const cudaOccResult expected = Reference(d, t, r, s);
          const OccupancyResult got = ComputeOccupancy(d, {t, r, s});
          ASSERT_EQ(got.blocks_per_sm, expected.activeBlocksPerMultiprocessor);
          ASSERT_EQ(got.blocks_by_warps, expected.blockLimitWarps);
          ASSERT_EQ(got.blocks_by_registers, expected.blockLimitRegs);
          ASSERT_EQ(got.blocks_by_shared_memory, expected.blockLimitSharedMem);
          ASSERT_EQ(got.blocks_by_blocks, expected.blockLimitBlocks);
          ASSERT_EQ(got.blocks_by_barriers, expected.blockLimitBarriers);
          ASSERT_EQ(BitsOf(got), expected.limitingFactors & ~unsigned(OCC_LIMIT_VIRTUAL_RESOURCES));
          ASSERT_EQ(got.limiter, got.limiters.front());
          const int warps = got.blocks_per_sm * ((t + 31) / 32);
          ASSERT_EQ(got.warps_per_sm, warps);
          ASSERT_DOUBLE_EQ(got.occupancy, double(warps) / (d.max_threads_per_sm / 32));
          ASSERT_EQ(got.blocks_per_sm == 0, !got.invalid_reason.empty()) << got.invalid_reason;
          ++compared;
        }
  }
  EXPECT_GT(compared, 50000);
}

// The built-in table against the CUDA C++ Programming Guide, typed in again from its table
// "Technical Specifications per Compute Capability" (CUDA 13.0), not from arch_table.cpp: maximum
// resident warps and blocks per SM, 32-bit registers per thread block, shared memory per SM and
// per block (opt-in from 7.0), shared memory the driver reserves per block. Every architecture
// has 1024 threads per block, 64 K registers per SM, 48 KiB per block without opt-in, warps of 32.
struct GuideColumn {
  const char* arch;
  int warps_per_sm, blocks_per_sm, regs_per_block_k, smem_per_sm_kib, smem_per_block_kib, reserved_kib;
};
constexpr GuideColumn kGuide[] = {
    {"sm_50", 64, 32, 64, 64, 48, 0},    {"sm_52", 64, 32, 64, 96, 48, 0},   {"sm_53", 64, 32, 32, 64, 48, 0},
    {"sm_60", 64, 32, 64, 64, 48, 0},    {"sm_61", 64, 32, 64, 96, 48, 0},   {"sm_62", 64, 32, 32, 64, 48, 0},
    {"sm_70", 64, 32, 64, 96, 96, 0},    {"sm_72", 64, 32, 64, 96, 96, 0},   {"sm_75", 32, 16, 64, 64, 64, 0},
    {"sm_80", 64, 32, 64, 164, 163, 1},  {"sm_86", 48, 16, 64, 100, 99, 1},  {"sm_87", 48, 16, 64, 164, 163, 1},
    {"sm_89", 48, 24, 64, 100, 99, 1},   {"sm_90", 64, 32, 64, 228, 227, 1}, {"sm_100", 64, 32, 64, 228, 227, 1},
    {"sm_103", 64, 32, 64, 228, 227, 1}, {"sm_120", 48, 24, 64, 100, 99, 1}, {"sm_121", 48, 24, 64, 100, 99, 1},
};

TEST(Occupancy, BuiltInTableMatchesTheProgrammingGuide) {
  std::vector<std::string> guide_archs;
  for (const GuideColumn& g : kGuide) {
    SCOPED_TRACE(g.arch);
    guide_archs.push_back(g.arch);
    const DeviceLimits d = ArchLimits(g.arch);
    EXPECT_EQ(d.max_threads_per_sm, g.warps_per_sm * 32);
    EXPECT_EQ(d.max_blocks_per_sm, g.blocks_per_sm);
    EXPECT_EQ(d.regs_per_sm, 65536);
    EXPECT_EQ(d.regs_per_block, g.regs_per_block_k * 1024);
    EXPECT_EQ(d.smem_per_sm_bytes, std::size_t(g.smem_per_sm_kib) * 1024);
    EXPECT_EQ(d.smem_per_block_bytes, 48u * 1024);
    EXPECT_EQ(d.smem_per_block_optin_bytes, std::size_t(g.smem_per_block_kib) * 1024);
    EXPECT_EQ(d.reserved_smem_per_block_bytes, std::size_t(g.reserved_kib) * 1024);
    EXPECT_EQ(d.max_threads_per_block, 1024);
    EXPECT_EQ(d.warp_size, 32);
  }
  EXPECT_EQ(KnownArchs(), guide_archs);  // no architecture without its column in the guide
}

// Occupancy worked out by hand with the rules of NVIDIA's occupancy calculator, not by the code
// under test: warps per block = ceil(threads / 32); registers are allocated per warp in units of
// 256 (regs x 32 rounded up), and each of the SM's 4 schedulers holds a quarter of its registers,
// so warps by registers = 4 x floor(16384 / per-warp allocation); a block's registers must fit the
// per-block limit; shared memory is allocated per block, with the driver's reserve, in units of 256
// bytes (up to 7.x) or 128 bytes (8.0 on), and must fit the per-block opt-in limit.
struct HandWorked {
  const char* arch;
  int threads, regs;
  std::size_t smem;
  int blocks, warps;
  std::vector<Limiter> limiters;  // empty: cannot launch
  std::size_t smem_allocated;     // per block, reserve included (0: not asserted)
};

const std::vector<HandWorked>& HandWorkedCases() {
  using L = Limiter;
  static const std::vector<HandWorked> cases = {
      // 8 warps: 64/8 = 8 by warps; 1024 regs/warp, 4 x 16 = 64 warps = 8 blocks; 5120 B -> 233472/5120 = 45.
      {"sm_90", 256, 32, 4096, 8, 64, {L::kWarps, L::kRegisters}, 5120},
      // 1536 regs/warp: 4 x floor(16384/1536 = 10.7) = 40 warps = 5 blocks; by warps 8.
      {"sm_90", 256, 48, 0, 5, 40, {L::kRegisters}, 1024},
      // 2048 regs/warp: 4 x 8 = 32 warps = 1 block of 32 warps; by warps 2.
      {"sm_90", 1024, 64, 0, 1, 32, {L::kRegisters}, 0},
      // 2304 regs/warp x 32 warps = 73728 > 65536 per block: cannot launch.
      {"sm_90", 1024, 72, 0, 0, 0, {}, 0},
      // 1 warp: 64 by warps, 128 by registers, 233472/1024 = 228 by the reserve alone; 32 blocks per SM.
      {"sm_90", 32, 16, 0, 32, 32, {L::kBlocks}, 1024},
      // 49152 + 1024 = 50176 B (392 x 128): 233472/50176 = 4.65 -> 4; by warps 16.
      {"sm_90", 128, 32, 49152, 4, 16, {L::kSharedMemory}, 50176},
      // 227 KiB + 1 KiB reserve = 228 KiB: exactly one block.
      {"sm_90", 256, 32, 227 * 1024, 1, 8, {L::kSharedMemory}, 228 * 1024},
      // 228 KiB is above the 227 KiB per-block opt-in: cannot launch.
      {"sm_90", 256, 32, 228 * 1024, 0, 0, {}, 0},
      // 1025 threads is above 1024 per block: cannot launch.
      {"sm_90", 1025, 32, 0, 0, 0, {}, 0},
      // 100 KiB of shared memory (163 KiB opt-in): 103424 B -> 167936/103424 = 1.6 -> 1; no registers.
      {"sm_80", 256, 0, 100 * 1024, 1, 8, {L::kSharedMemory}, 103424},
      // 48 warps per SM: 48/8 = 6 blocks; 64 warps by registers = 8; 102400/1024 = 100.
      {"sm_86", 256, 32, 0, 6, 48, {L::kWarps}, 1024},
      // 24576 + 1024 = 25600 B: 102400/25600 = 4; by warps 12. 16 of 48 warps.
      {"sm_86", 128, 32, 24576, 4, 16, {L::kSharedMemory}, 25600},
      // 24 blocks per SM on 8.9: 1-warp blocks stop at 24 (48 by warps).
      {"sm_89", 32, 16, 0, 24, 24, {L::kBlocks}, 1024},
      // 255 regs -> 8192 per warp: 4 x floor(16384/8192) = 8 warps = 4 blocks of 2 warps; by warps 24.
      {"sm_120", 64, 255, 0, 4, 8, {L::kRegisters}, 1024},
      // 32 warps per SM on 7.5: 4 by warps; 2048 regs/warp: 4 x 8 = 32 warps = 4; no reserve.
      {"sm_75", 256, 64, 0, 4, 32, {L::kWarps, L::kRegisters}, 0},
      // 3 warps: 32/3 = 10 by warps; 1280 regs/warp: 4 x 12 = 48 warps = 16; 5000 -> 5120 B (256s): 12.
      {"sm_75", 96, 40, 5000, 10, 30, {L::kWarps}, 5120},
      // 6 warps: 10 by warps; 37 x 32 = 1184 -> 1280 regs/warp: 48 warps = 8 blocks; 3000 -> 3072 B: 21.
      {"sm_50", 192, 37, 3000, 8, 48, {L::kRegisters}, 3072},
      // 1280 regs/warp x 32 warps = 40960, within 64 K per block: 48 warps by registers = 1 block.
      {"sm_50", 1024, 40, 0, 1, 32, {L::kRegisters}, 0},
      // The same block on 5.3 (32 K registers per block): 40960 > 32768, cannot launch...
      {"sm_53", 1024, 40, 0, 0, 0, {}, 0},
      // ...while 32 registers (32768) fit: 64 warps by registers and by warps = 2 blocks.
      {"sm_53", 1024, 32, 0, 2, 64, {L::kWarps, L::kRegisters}, 0},
  };
  return cases;
}

TEST(Occupancy, MatchesOccupancyWorkedOutByHandFromTheCalculatorRules) {
  for (const HandWorked& c : HandWorkedCases()) {
    SCOPED_TRACE(std::string(c.arch) + " threads " + std::to_string(c.threads) + " regs " + std::to_string(c.regs) +
                 " smem " + std::to_string(c.smem));
    const DeviceLimits d = ArchLimits(c.arch);
    const OccupancyResult r = ComputeOccupancy(d, {c.threads, c.regs, c.smem});
    EXPECT_EQ(r.blocks_per_sm, c.blocks);
    EXPECT_EQ(r.invalid_reason.empty(), c.blocks > 0) << r.invalid_reason;
    if (c.blocks == 0) continue;
    EXPECT_EQ(r.warps_per_sm, c.warps);
    EXPECT_DOUBLE_EQ(r.occupancy, double(c.warps) / (d.max_threads_per_sm / 32));
    std::vector<Limiter> limiters = r.limiters;
    std::sort(limiters.begin(), limiters.end());
    EXPECT_EQ(limiters, c.limiters);
    EXPECT_EQ(r.limiter, r.limiters.front());
    if (c.smem_allocated) {
      EXPECT_EQ(r.smem_allocated_per_block_bytes, c.smem_allocated);
    }
  }
}

TEST(Occupancy, H100Example) {
  const OccupancyResult r = ComputeOccupancy(ArchLimits("sm_90"), {256, 32, 4096});
  EXPECT_EQ(r.blocks_per_sm, 8);
  EXPECT_EQ(r.warps_per_sm, 64);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(ToString(r.limiter), "warps");
  EXPECT_EQ(r.limiters, (std::vector<Limiter>{Limiter::kWarps, Limiter::kRegisters}));
  EXPECT_EQ(r.blocks_by_shared_memory, 45);  // 228 KiB / (4 KiB + 1 KiB reserved)
  EXPECT_EQ(r.smem_allocated_per_block_bytes, 5120u);
  const OccupancyResult more_regs = ComputeOccupancy(ArchLimits("sm_90"), {256, 48, 4096});
  EXPECT_EQ(more_regs.blocks_per_sm, 5);
  EXPECT_EQ(more_regs.limiter, Limiter::kRegisters);
}

// docs/guide/occupancy.md's worked example: a tiled matrix multiplication on a device with 16 KB of shared memory
// and 1536 threads per SM (an sm_86 with a 16 KB carveout and no driver reserve).
DeviceLimits SeedsDevice() {
  DeviceLimits d = ArchLimits("sm_86");
  d.max_threads_per_sm = 1536;
  d.smem_per_sm_bytes = 16 * 1024;
  d.reserved_smem_per_block_bytes = 0;
  return d;
}

TEST(Occupancy, SeedsTiledMatmulTileWidth16FillsTheSm) {
  const OccupancyResult r = ComputeOccupancy(SeedsDevice(), {16 * 16, 32, 2 * 16 * 16 * 4});  // 2 KB
  EXPECT_EQ(r.blocks_per_sm, 6);
  EXPECT_EQ(r.blocks_by_shared_memory, 8);
  EXPECT_EQ(r.warps_per_sm * 32, 1536);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limiter, Limiter::kWarps);
}

TEST(Occupancy, SeedsTiledMatmulTileWidth32LeavesAThirdOfTheThreadSlotsUnused) {
  const OccupancyResult r = ComputeOccupancy(SeedsDevice(), {32 * 32, 32, 2 * 32 * 32 * 4});  // 8 KB
  EXPECT_EQ(r.blocks_per_sm, 1);
  EXPECT_EQ(r.blocks_by_shared_memory, 2);
  EXPECT_EQ(r.warps_per_sm * 32, 1024);
  EXPECT_NEAR(1.0 - r.occupancy, 1.0 / 3.0, 1e-12);
  EXPECT_EQ(r.limiter, Limiter::kWarps);
}

TEST(Occupancy, InvalidKernelsSayWhy) {
  const DeviceLimits h100 = ArchLimits("sm_90");
  auto reason = [](const DeviceLimits& d, KernelResources k) {
    const OccupancyResult r = ComputeOccupancy(d, k);
    EXPECT_EQ(r.blocks_per_sm, 0);
    return r.invalid_reason;
  };
  EXPECT_NE(reason(h100, {1025, 32, 0}).find("1025 threads per block exceed the limit of 1024"), std::string::npos);
  EXPECT_NE(reason(h100, {256, 32, 227 * 1024 + 1}).find("opt-in limit of 232448"), std::string::npos);
  EXPECT_NE(reason(h100, {256, 300, 0}).find("300 registers per thread exceed"), std::string::npos);
  EXPECT_NE(reason(ArchLimits("sm_53"), {1024, 64, 0}).find("registers per block"), std::string::npos);
  EXPECT_NE(reason(ArchLimits("sm_61"), {256, 32, 49153}).find("limit of 49152"), std::string::npos);
  EXPECT_NE(reason(h100, {0, 32, 0}).find("at least 1"), std::string::npos);
  DeviceLimits small = ArchLimits("sm_61");
  small.smem_per_sm_bytes = 16 * 1024;
  EXPECT_NE(reason(small, {256, 32, 20000}).find("exceed the SM's 16384"), std::string::npos);
  EXPECT_TRUE(ComputeOccupancy(h100, {1024, 64, 227 * 1024}).invalid_reason.empty());
}

// A calculator call whose failure no message of ours explains names itself, its error and the
// configuration: here the header's register limit of a compute capability it does not know.
TEST(Occupancy, AFailedCalculatorCallNamesTheCallAndTheConfiguration) {
  DeviceLimits unknown = ArchLimits("sm_90");
  unknown.name = "custom";
  unknown.cc_major = 4;
  cudaOccDeviceProp props;
  props.computeMajor = unknown.cc_major;
  int max_regs = 0;
  const cudaOccError refused = cudaOccRegAllocationMaxPerThread(&max_regs, &props);
  ASSERT_EQ(refused, CUDA_OCC_ERROR_UNKNOWN_DEVICE);
  try {
    CheckOccupancyCall(refused, "cudaOccRegAllocationMaxPerThread", unknown, {256, 32, 1024});
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "cuda_occupancy.h: cudaOccRegAllocationMaxPerThread failed (CUDA_OCC_ERROR_UNKNOWN_DEVICE) for custom "
                 "(compute capability 4.0) and a block of 256 threads, 32 registers per thread, 1024 bytes of shared "
                 "memory");
  }
  EXPECT_NO_THROW(CheckOccupancyCall(CUDA_OCC_SUCCESS, "cudaOccSMemPerBlock", ArchLimits("sm_90"), {256, 32, 0}));
}

TEST(Occupancy, DevicesTheHeaderRejectsThrow) {
  DeviceLimits unknown = ArchLimits("sm_90");
  unknown.cc_major = 4;
  EXPECT_THROW(ComputeOccupancy(unknown, {256, 32, 0}), std::invalid_argument);
  DeviceLimits too_much = ArchLimits("sm_90");
  too_much.smem_per_sm_bytes = 300 * 1024;
  EXPECT_THROW(ComputeOccupancy(too_much, {256, 32, 0}), std::invalid_argument);
  DeviceLimits zero = ArchLimits("sm_90");
  zero.regs_per_sm = 0;
  EXPECT_THROW(ComputeOccupancy(zero, {256, 32, 0}), std::invalid_argument);
}

TEST(Occupancy, CarveoutRoundsSharedMemoryPerSmUp) {
  DeviceLimits d = ArchLimits("sm_86");
  d.smem_per_sm_bytes = 20 * 1024;
  EXPECT_EQ(ConfiguredSmemPerSmBytes(d), 32u * 1024);
  EXPECT_EQ(ConfiguredSmemPerSmBytes(ArchLimits("sm_90")), 228u * 1024);
}

TEST(Occupancy, FewerBlocksPerSmOnACustomDevice) {
  DeviceLimits d = ArchLimits("sm_90");
  d.max_blocks_per_sm = 4;
  const OccupancyResult r = ComputeOccupancy(d, {32, 0, 0});
  EXPECT_EQ(r.blocks_per_sm, 4);
  EXPECT_EQ(r.blocks_by_blocks, 4);
  EXPECT_EQ(r.limiter, Limiter::kBlocks);
}

bool GpuUsable() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

// The command line, through the built binary.
testing::CliResult RunTuner(const std::string& arguments) { return testing::RunTuner("occupancy " + arguments); }

TEST(OccupancyCli, JsonHasTheContractKeys) {
  const testing::CliResult run = RunTuner("--arch sm_90 --threads 256 --regs 32 --smem 4096 --json");
  ASSERT_EQ(run.exit_code, 0);
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["blocks_per_sm"], 8);
  EXPECT_EQ(doc["warps_per_sm"], 64);
  EXPECT_DOUBLE_EQ(doc["occupancy"].get<double>(), 1.0);
  EXPECT_EQ(doc["limiter"], "warps");
  EXPECT_EQ(doc["valid"], true);
  EXPECT_TRUE(doc["suggestions"].is_array());
}

TEST(OccupancyCli, SeedsExampleFromTheHelp) {
  const testing::CliResult help = RunTuner("--help");
  ASSERT_EQ(help.exit_code, 0);
  const std::string example =
      "--arch sm_86 --threads-per-sm 1536 --smem-per-sm 16K --reserved-smem 0 "
      "--threads 1024 --regs 32 --smem 8K";
  ASSERT_NE(help.out.find(example), std::string::npos) << help.out;
  const nlohmann::json tile32 = nlohmann::json::parse(RunTuner(example + " --json").out);
  EXPECT_EQ(tile32["blocks_per_sm"], 1);
  EXPECT_NEAR(tile32["occupancy"].get<double>(), 2.0 / 3.0, 1e-9);
  const nlohmann::json tile16 = nlohmann::json::parse(
      RunTuner("--arch sm_86 --threads-per-sm 1536 --smem-per-sm 16K --reserved-smem 0 --threads 256 --regs 32 "
               "--smem 2K --json")
          .out);
  EXPECT_EQ(tile16["blocks_per_sm"], 6);
  EXPECT_DOUBLE_EQ(tile16["occupancy"].get<double>(), 1.0);
}

TEST(OccupancyCli, SuggestsFewerRegisters) {
  const testing::CliResult run = RunTuner("--arch sm_90 --threads 256 --regs 48 --smem 4096");
  ASSERT_EQ(run.exit_code, 0);
  EXPECT_NE(run.out.find("≤ 40 registers per thread gives 6 blocks per SM"), std::string::npos) << run.out;
}

TEST(OccupancyCli, BadInputExitsWithTwoAndWritesNothing) {
  const std::string svg = ::testing::TempDir() + "occupancy_cli_bad.svg";
  std::remove(svg.c_str());
  EXPECT_EQ(RunTuner("--arch sm_90 --threads 256 --bogus 1").exit_code, 2);
  EXPECT_EQ(RunTuner("--arch sm_91 --threads 256").exit_code, 2);
  EXPECT_EQ(RunTuner("--arch sm_90").exit_code, 2);
  EXPECT_EQ(RunTuner("--arch sm_90 --threads 0").exit_code, 2);
  EXPECT_EQ(RunTuner("--arch sm_90 --threads 256 --smem lots").exit_code, 2);
  EXPECT_EQ(RunTuner("--arch sm_90 --threads 256 --smem-per-sm 300K").exit_code, 2);
  EXPECT_EQ(RunTuner("--arch sm_90 --gpu 0 --threads 256").exit_code, 2);
  EXPECT_EQ(RunTuner("--arch sm_90 --threads 256 --vary bananas --svg " + svg).exit_code, 2);
  EXPECT_EQ(RunTuner("--arch sm_90 --threads 256 --svg " + svg).exit_code, 2);
  EXPECT_FALSE(std::ifstream(svg).good());
}

TEST(OccupancyCli, VaryWritesTheCurveAndAnSvg) {
  const std::string svg = ::testing::TempDir() + "occupancy_cli_regs.svg";
  const testing::CliResult run = RunTuner("--arch sm_90 --threads 256 --regs 48 --vary regs --svg " + svg + " --json");
  ASSERT_EQ(run.exit_code, 0);
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["curve"]["input"], "regs_per_thread");
  EXPECT_EQ(doc["curve"]["points"].size(), 256u);
  std::ifstream file(svg);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("<svg", 0), 0u);
  EXPECT_NE(text.find("this kernel: 48"), std::string::npos);
}

// --kernel compiles the template with NVRTC (no GPU needed): the worked example's tiled matmul for real.
TEST(OccupancyCli, KernelTakesRegistersAndSharedMemoryFromTheCubin) {
  const std::string seeds = " --arch sm_86 --threads-per-sm 1536 --smem-per-sm 16K --reserved-smem 0 --json";
  const testing::CliResult tile32 = RunTuner("--kernel matmul --param VARIANT=1 --param TILE_WIDTH=32" + seeds);
  ASSERT_EQ(tile32.exit_code, 0) << tile32.out;
  const nlohmann::json doc = nlohmann::json::parse(tile32.out);
  EXPECT_EQ(doc["kernel"]["threads_per_block"], 1024);
  EXPECT_EQ(doc["kernel"]["smem_bytes"], 8192);  // two 32x32 float tiles
  EXPECT_GT(doc["kernel"]["regs_per_thread"].get<int>(), 0);
  EXPECT_EQ(doc["template"]["arch"], "sm_86");
  EXPECT_EQ(doc["blocks_per_sm"], 1);
  const nlohmann::json tile16 =
      nlohmann::json::parse(RunTuner("--kernel matmul --param VARIANT=1 --param TILE_WIDTH=16" + seeds).out);
  EXPECT_EQ(tile16["kernel"]["smem_bytes"], 2048);
  EXPECT_EQ(tile16["blocks_per_sm"], 6);
  EXPECT_EQ(RunTuner("--kernel matmul --param NOPE=1 --arch sm_90").exit_code, 2);
  EXPECT_EQ(RunTuner("--kernel matmul --param VARIANT --arch sm_90").exit_code, 2);
  EXPECT_EQ(RunTuner("--kernel matmul --threads 256 --arch sm_90").exit_code, 2);
  EXPECT_EQ(RunTuner("--kernel no_such_kernel --arch sm_90").exit_code, 2);
  EXPECT_EQ(RunTuner("--kernel matmul --arch sm_61").exit_code, 2);
}

// --param takes a declared value, as the number or the label 'tuner kernels' shows.
TEST(OccupancyCli, ParamTakesDeclaredValuesOrTheirLabels) {
  const testing::CliResult run =
      RunTuner("--kernel transpose --arch sm_90 --param VARIANT=tiled --param TILE=32 --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["template"]["params"]["VARIANT"], 1);
  EXPECT_EQ(doc["template"]["params"]["TILE"], 32);
  const testing::CliResult undeclared = RunTuner("--kernel transpose --arch sm_90 --param VARIANT=2");
  EXPECT_EQ(undeclared.exit_code, 2);
  EXPECT_NE(undeclared.err.find("--param 'VARIANT=2': transpose's VARIANT takes 0 (naive), 1 (tiled)"),
            std::string::npos)
      << undeclared.err;
}

// A template that does not compile is bad input: exit 2 with NVRTC's first error on one line.
TEST(OccupancyCli, ATemplateThatDoesNotCompileIsOneLineAndExitTwo) {
  const std::string dir = ::testing::TempDir() + "occupancy_broken_template";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/broken.toml")
      << "name = \"broken\"\nsummary = \"does not compile\"\nkernel = \"k\"\n"
         "[[param]]\nname = \"N\"\nvalues = [1]\n"
         "[launch]\ngrid = [\"1\"]\nblock = [\"32\"]\n[[arg]]\nname = \"x\"\n"
         "type = \"float\"\nlength = \"32\"\noutput = true\n"
         "[check]\nkernel = \"r\"\ngrid = [\"1\"]\nblock = [\"32\"]\n[work]\nbytes = \"128\"\n";
  std::ofstream(dir + "/broken.cu") << "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] = undeclared; }\n"
                                       "extern \"C\" __global__ void r(float* x) { x[threadIdx.x] = 0; }\n";
  const testing::CliResult run = RunTuner("--kernel broken --arch sm_90 --templates " + dir);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find("--kernel broken: NVRTC could not compile it for sm_90 with {\"N\":1}: "), std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("undeclared"), std::string::npos) << run.err;
  std::filesystem::remove_all(dir);
}

// sm_90a is its own compile target with sm_90's limits; --list-archs names every value --arch takes.
TEST(OccupancyCli, ArchVariantsCompileForTheirOwnTarget) {
  const testing::CliResult run = RunTuner("--kernel transpose --arch sm_90a --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["template"]["arch"], "sm_90a");
  EXPECT_EQ(doc["device"]["name"], "sm_90a");
  const testing::CliResult list = RunTuner("--list-archs");
  EXPECT_NE(list.out.find("\nsm_90\nsm_90a\nsm_100\nsm_100a\nsm_100f\n"), std::string::npos) << list.out;
  EXPECT_EQ(list.out.find("sm_80a"), std::string::npos);
  const testing::CliResult upper = RunTuner("--arch SM_90 --threads 256");
  EXPECT_EQ(upper.exit_code, 2);
  EXPECT_NE(upper.err.find("written like sm_90"), std::string::npos) << upper.err;
}

TEST(OccupancyCli, GpuWithoutDriverExitsWithThree) {
  if (GpuUsable()) GTEST_SKIP() << "a GPU is present";
  const testing::CliResult r = RunTuner("--threads 256");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("needs a CUDA GPU"), std::string::npos) << r.err;  // the message of every command
  EXPECT_NE(r.err.find("--arch sm_XY"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tuner
