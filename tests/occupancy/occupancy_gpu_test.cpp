// On a real GPU (skipped without one): for every candidate of every shipped template (of a large
// space, a pairwise sample), the explorer's blocks per SM (cuda_occupancy.h fed with the live
// limits and ptxas's resources) must equal cudaOccupancyMaxActiveBlocksPerMultiprocessor on the
// loaded kernel.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <thread>

#include "cli_runner.h"
#include "cuda/device.h"
#include "cuda/gpu_handles.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "explore/explore.h"
#include "pairwise_sample.h"
#include "template/arch_specific.h"
#include "template/template_library.h"

namespace tuner {
namespace {

std::string ReadFile(const std::string& path) { return db::testing::ReadBytes(path); }

TEST(OccupancyGpu, ExplorerAgreesWithTheRuntimeForEveryShippedCandidate) {
  TUNER_GPU_TEST(1);
  const GpuDiscovery found = DiscoverGpus();
  const DeviceLimits& limits = found.gpus[0];
  const std::string arch = found.gpus[0].Arch();
  db::testing::TempDir dir;
  const CubinCache cache(dir.File("cubins"));
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  const auto threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int checked = 0;
  for (const TemplateSpec& spec : library.templates) {
    const ProblemSize size = ParseProblemSize(spec, "");
    const Exploration exploration = ExploreCandidates(spec, testing::CandidatesToCompile(spec, size), size, limits,
                                                      arch, dir.File("cubins"), threads, TUNER_EXECUTABLE);
    for (const ExploredCandidate& c : exploration.explored) {
      ASSERT_TRUE(c.compiled) << spec.name << " " << ParamsJson(c.params);
      // A candidate that needs an arch-specific target (wgmma: sm_90a) is compiled for it, as tune does.
      const std::string target = ArchOfCandidate(spec, MakeVariables(size, c.params), arch).arch;
      const CachedCompile compiled = cache.Compile(spec, c.params, spec.kernel, target);
      Library library_handle = LoadLibrary(ReadFile(compiled.cubin_path));
      cudaKernel_t kernel = nullptr;
      ASSERT_EQ(cudaLibraryGetKernel(&kernel, library_handle.get(), compiled.result.lowered_name.c_str()), cudaSuccess);
      const void* func = reinterpret_cast<const void*>(kernel);
      if (c.geometry.shared_bytes > 48 * 1024)
        cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(c.geometry.shared_bytes));
      cudaFuncAttributes attributes{};
      ASSERT_EQ(cudaFuncGetAttributes(&attributes, func), cudaSuccess);
      int blocks = -1;
      ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                    &blocks, func, static_cast<int>(c.geometry.ThreadsPerBlock()), c.geometry.shared_bytes),
                cudaSuccess);
      const std::string where = spec.name + " " + ParamsJson(c.params);
      EXPECT_EQ(c.info.regs_per_thread, attributes.numRegs) << where;
      EXPECT_EQ(c.info.static_smem_bytes, static_cast<long long>(attributes.sharedSizeBytes)) << where;
      EXPECT_EQ(c.occupancy.blocks_per_sm, blocks) << where;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
  std::cout << "checked " << checked << " candidates on " << found.gpus[0].name << "\n";
}

// A GPU index this machine lacks: one message, whichever command reads the GPU.
TEST(OccupancyGpu, AGpuThisMachineLacksIsNamedAlikeByEveryCommand) {
  TUNER_GPU_TEST(1);
  const std::size_t gpus = DiscoverGpus().gpus.size();
  const std::string count = std::to_string(gpus);
  const std::string expected = "--gpu " + count + ": this machine has GPUs 0.." + std::to_string(gpus - 1);
  db::testing::TempDir dir;
  for (const std::string& command : {"occupancy --threads 256 --gpu " + count, "explore transpose --gpu " + count,
                                     "tune transpose --db " + dir.File("t.db") + " --gpu " + count}) {
    const testing::CliResult r = testing::RunTuner(command);
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_NE(r.err.find(expected), std::string::npos) << command << ": " << r.err;
  }
}

}  // namespace
}  // namespace tuner
