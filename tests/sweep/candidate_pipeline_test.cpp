// The candidates on their way to the GPU, with a fake NVRTC process: the occupancy check before
// any compile, the launch the worker gets, and the setup, whose reference kernel is compiled by a
// compile process like every candidate. No GPU.
#include "sweep/candidate_pipeline.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "fake_worker.h"
#include "template/search_space.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

using testing::FakeWorker;

// The small template and a pipeline whose NVRTC processes are `compiler`.
struct Pipeline {
  explicit Pipeline(const FakeWorker& compiler)
      : spec(LoadTemplateFile(testing::WriteTemplateFiles(dir.File("t"), "small", testing::kSmallDescription))),
        size(ParseProblemSize(spec, "")),
        pipeline(spec, size, testing::FakeGpu(), {2, dir.File("cache"), compiler.path()}, clock) {}
  struct InProcesses {
    InProcesses() { unsetenv("TUNER_COMPILE"); }  // NVRTC processes, not threads: before the compiler is made
  } in_processes;
  db::testing::TempDir dir;
  TemplateSpec spec;
  ProblemSize size;
  SweepClock clock;
  CandidatePipeline pipeline;
};

const char* const kCompileFails = R"({"ok":false,"log":"error: compiled by the NVRTC process"})";

TEST(CandidatePipeline, TheReferenceKernelIsCompiledByAnNvrtcProcess) {
  FakeWorker compiler(kCompileFails);
  Pipeline p(compiler);
  try {
    p.pipeline.Setup();
    FAIL() << "the reference compiled";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "the reference kernel 'k_reference' of small does not compile, so no candidate can be checked: "
                 "compile: error: compiled by the NVRTC process");
  }
  EXPECT_EQ(compiler.Starts(), 1);
}

TEST(CandidatePipeline, WithExpectedFilesOnlyTheSetupHasNoReferenceKernel) {
  FakeWorker compiler(kCompileFails);
  Pipeline p(compiler);
  p.spec.check.kernel = "";
  p.spec.check.expected["out"] = "expected/out.npy";
  const SetupRequest setup = p.pipeline.Setup();
  EXPECT_FALSE(setup.reference.has_value());
  EXPECT_EQ(setup.gpu, 3);
  EXPECT_EQ(setup.uuid, "GPU-5c1f0e8a");
  ASSERT_EQ(setup.buffers.size(), 1u);
  EXPECT_EQ(setup.buffers[0].name, "out");
  EXPECT_EQ(setup.buffers[0].count, 1024);
  EXPECT_TRUE(setup.buffers[0].output);
  EXPECT_EQ(setup.buffers[0].expected, "expected/out.npy");
  EXPECT_EQ(compiler.Starts(), 0);
}

TEST(CandidatePipeline, ACandidateThatCannotLaunchIsNeverCompiled) {
  FakeWorker compiler(kCompileFails);
  Pipeline p(compiler);
  p.spec.launch.shared_bytes = "1048576";  // more shared memory than any GPU has
  const Compiled compiled = p.pipeline.Compile(EnumerateCandidates(p.spec, p.size).at(0), 0);
  EXPECT_NE(compiled.invalid_reason, "");
  EXPECT_EQ(compiler.Starts(), 0);
}

TEST(CandidatePipeline, ACandidatesLaunchHasItsGeometryAndArguments) {
  FakeWorker compiler(kCompileFails);
  Pipeline p(compiler);
  Compiled compiled = p.pipeline.CompileNow(EnumerateCandidates(p.spec, p.size).at(0));
  EXPECT_FALSE(compiled.compile.result.ok);
  EXPECT_EQ(compiled.compile.result.log, "error: compiled by the NVRTC process");
  compiled.compile.cubin_path = "k.cubin";
  const KernelLaunch launch = p.pipeline.Launch(compiled);
  EXPECT_EQ(launch.cubin_path, "k.cubin");
  EXPECT_EQ(launch.geometry.grid[0], 8);  // cdiv(1024, 128)
  ASSERT_EQ(launch.args.size(), 1u);
  EXPECT_EQ(launch.args[0].buffer, "out");
}

}  // namespace
}  // namespace tuner
