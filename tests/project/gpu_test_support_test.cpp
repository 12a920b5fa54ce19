// The gate of the GPU tests (gpu_test_support.h): skip with the reason, or fail when
// TUNER_REQUIRE_GPU promises the GPUs; seen through a real GPU test binary with the GPUs hidden
// (CUDA_VISIBLE_DEVICES=""), so it runs the same with or without a GPU. And the list of skipped
// GPU tests with their reasons that ctest prints at the end.
#include "gpu_test_support.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "db_test_util.h"

namespace tuner::testing {
namespace {

GpuDiscovery Gpus(int count) {
  GpuDiscovery found;
  found.gpus.resize(count);
  if (count == 0) found.problem = "the NVIDIA driver reports no CUDA GPU";
  return found;
}

TEST(GpuTestGate, WithoutAPromiseAMissingGpuSkipsAndSaysWhy) {
  for (const char* require : {static_cast<const char*>(nullptr), "", "0"}) {
    const GpuGate gate = DecideGpuTest(1, Gpus(0), require);
    EXPECT_EQ(gate.verdict, GpuVerdict::kSkip);
    EXPECT_EQ(gate.message, "no usable GPU: the NVIDIA driver reports no CUDA GPU");
  }
  EXPECT_EQ(DecideGpuTest(1, Gpus(1), nullptr).verdict, GpuVerdict::kRun);
}

TEST(GpuTestGate, APromisedGpuThatIsMissingFails) {
  const GpuGate gate = DecideGpuTest(1, Gpus(0), "1");
  EXPECT_EQ(gate.verdict, GpuVerdict::kFail);
  EXPECT_EQ(gate.message, "no usable GPU: the NVIDIA driver reports no CUDA GPU (TUNER_REQUIRE_GPU=1 promised 1)");
  EXPECT_EQ(DecideGpuTest(1, Gpus(1), "1").verdict, GpuVerdict::kRun);
}

TEST(GpuTestGate, ATestNeedingMoreGpusThanPromisedStillSkips) {
  const GpuGate skip = DecideGpuTest(2, Gpus(1), "1");
  EXPECT_EQ(skip.verdict, GpuVerdict::kSkip);
  EXPECT_EQ(skip.message, "needs 2 GPUs; this machine has 1");
  EXPECT_EQ(DecideGpuTest(2, Gpus(1), "2").verdict, GpuVerdict::kFail);
  EXPECT_EQ(DecideGpuTest(2, Gpus(2), "2").verdict, GpuVerdict::kRun);
}

TEST(GpuTestGate, AValueThatIsNotACountFailsNamingIt) {
  for (const char* require : {"yes", "1x", "-1"}) {
    const GpuGate gate = DecideGpuTest(1, Gpus(1), require);
    EXPECT_EQ(gate.verdict, GpuVerdict::kFail) << require;
    EXPECT_EQ(gate.message, std::string("TUNER_REQUIRE_GPU='") + require + "' is not a number of GPUs (0 to 64)");
  }
}

struct ShellRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

ShellRun Shell(const std::string& command) {
  ShellRun run;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.output.append(buffer, n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// The child's output for a failure message, without gtest's "[  SKIPPED ]": CTest marks any test
// whose output holds it as skipped, which would hide this test's failure.
std::string WithoutSkipMarker(std::string output) {
  for (std::size_t at; (at = output.find("[  SKIPPED ]")) != std::string::npos;) output.replace(at, 12, "[ skipped ]");
  return output;
}

// `require`: TUNER_REQUIRE_GPU's value for the child, or "" to leave it unset. Its skips go to
// `record`, not to this build's list.
ShellRun RunGpuTestWithTheGpusHidden(const std::string& require, const std::string& record) {
  return Shell("env -u TUNER_REQUIRE_GPU CUDA_VISIBLE_DEVICES= TUNER_SKIP_RECORD=" + record + " " +
               (require.empty() ? "" : "TUNER_REQUIRE_GPU=" + require + " ") + GPU_TEST_BINARY +
               " --gtest_filter=UtilityKernelsGpu.FillMatchesTheHostDefinition");
}

TEST(GpuTestGate, AGpuTestBinaryWithTheGpusHiddenSkipsAndRecordsWhy) {
  db::testing::TempDir dir;
  const ShellRun run = RunGpuTestWithTheGpusHidden("", dir.File("skips.txt"));
  EXPECT_EQ(run.exit_code, 0) << WithoutSkipMarker(run.output);
  EXPECT_NE(run.output.find("[  SKIPPED ] UtilityKernelsGpu.FillMatchesTheHostDefinition"), std::string::npos)
      << WithoutSkipMarker(run.output);
  const std::string record = db::testing::ReadBytes(dir.File("skips.txt"));
  EXPECT_EQ(record.rfind("UtilityKernelsGpu.FillMatchesTheHostDefinition: no usable GPU: ", 0), 0u) << record;
  ASSERT_FALSE(record.empty());
  EXPECT_EQ(record.back(), '\n');
}

TEST(GpuTestGate, UnderTunerRequireGpuTheSameRunFails) {
  db::testing::TempDir dir;
  const ShellRun run = RunGpuTestWithTheGpusHidden("1", dir.File("skips.txt"));
  EXPECT_NE(run.exit_code, 0) << WithoutSkipMarker(run.output);
  EXPECT_NE(run.output.find("[  FAILED  ] UtilityKernelsGpu.FillMatchesTheHostDefinition"), std::string::npos)
      << WithoutSkipMarker(run.output);
  EXPECT_NE(run.output.find("no usable GPU: "), std::string::npos) << WithoutSkipMarker(run.output);
  EXPECT_NE(run.output.find("(TUNER_REQUIRE_GPU=1 promised 1)"), std::string::npos) << WithoutSkipMarker(run.output);
  EXPECT_FALSE(std::filesystem::exists(dir.File("skips.txt")));  // a failure, not a skip
}

TEST(GpuTestGate, AfterCtestEveryRecordedSkipIsListedOnce) {
  db::testing::TempDir dir;
  std::ofstream(dir.File("skips.txt")) << "Gpu.B: no usable GPU: no driver\nGpu.A: needs 2 GPUs; this machine has 1\n"
                                       << "Gpu.B: no usable GPU: no driver\n";
  const ShellRun run = Shell(std::string(PRINT_SKIPS_SCRIPT) + " " + dir.File("skips.txt"));
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.output,
            "GPU tests skipped, and why (TUNER_REQUIRE_GPU=1 turns such a skip into a failure):\n"
            "\tGpu.A: needs 2 GPUs; this machine has 1\n\tGpu.B: no usable GPU: no driver\n");
  const ShellRun none = Shell(std::string(PRINT_SKIPS_SCRIPT) + " " + dir.File("missing.txt"));
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(none.output, "");
}

}  // namespace
}  // namespace tuner::testing
