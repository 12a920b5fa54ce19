// A pipeline candidate inside the worker's GpuSession, on a real GPU (skipped without one): many
// candidates of every host memory kind, right, wrong and failing, leave no host memory behind; a
// chunk never copied is seen; managed memory beyond half of the free memory is refused.
#include "measure/host_pipeline.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "compile/cubin_cache.h"
#include "cuda/device.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "measure/gpu_session.h"
#include "template/pipeline_spec.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using db::testing::TempDir;

const TemplateSpec& Streams() {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library.Find("streams");
}

constexpr long long kItems = 1 << 22;  // 16 MiB per buffer
constexpr long long kIters = 16;

Variables VariablesOf(const ParamValues& params) {
  Variables vars = {{"N", kItems}, {"ITERS", kIters}};
  for (const auto& [name, value] : params) vars[name] = static_cast<double>(value);
  return vars;
}

KernelLaunch LaunchOf(const CachedCompile& compile, const LaunchGeometry& geometry, const Variables& vars) {
  KernelLaunch launch{compile.cubin_path, compile.result.lowered_name, geometry, {}, {}};
  for (const ArgSpec& arg : Streams().args)
    launch.args.push_back(arg.is_buffer ? LaunchArg{arg.name, arg.type, 0, arg.name}
                                        : LaunchArg{"", arg.type, Evaluate(arg.value, vars), arg.name});
  return launch;
}

// The streams template at kItems x kIters in a session of this process.
class StreamsSession {
 public:
  explicit StreamsSession(const std::string& cache_dir) : cache_(cache_dir), arch_(RequireGpu(0).Arch()) {
    const ParamValues reference_params = ReferenceParams(Streams());
    const Variables vars = VariablesOf(reference_params);
    SetupRequest setup;
    setup.seed = 7;
    for (const ArgSpec& arg : Streams().args)
      if (arg.is_buffer)
        setup.buffers.push_back({arg.name, arg.type, EvaluateInteger(arg.length, vars), arg.init, arg.output, "", ""});
    const CachedCompile reference = cache_.Compile(Streams(), reference_params, Streams().check.kernel, arch_);
    setup.reference = LaunchOf(reference, EvaluateLaunch(Streams().check.launch, vars), vars);
    SamplingPolicy few;
    few.max_samples = 3;
    session_ = std::make_unique<GpuSession>(setup, few);
    session_->RunReference();
  }

  // A candidate's launch; `edit` may break its plan before it is sent.
  KernelLaunch Candidate(long long streams, long long chunk, HostMemory memory, long long order) const {
    const ParamValues params = {{"BLOCK", 256},
                                {"STREAMS", streams},
                                {"CHUNK", chunk},
                                {"MEMORY", static_cast<long long>(memory)},
                                {"ORDER", order}};
    const Variables vars = VariablesOf(params);
    KernelLaunch launch = LaunchOf(cache_.Compile(Streams(), params, Streams().kernel, arch_),
                                   EvaluateLaunch(Streams().launch, vars), vars);
    launch.pipeline = PlanPipeline(Streams(), vars);
    return launch;
  }

  MeasureReply Measure(const KernelLaunch& launch) {
    MeasureRequest request;
    request.launch = launch;
    return session_->Measure(request);
  }
  GpuSession& session() { return *session_; }

 private:
  CubinCache cache_;
  std::string arch_;
  std::unique_ptr<GpuSession> session_;
};

std::size_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

TEST(HostPipelineGpu, EveryMemoryKindAndOrderIsRightFromHostToHost) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  StreamsSession s(dir.File("cubins"));
  for (HostMemory memory :
       {HostMemory::kPageable, HostMemory::kPinned, HostMemory::kManaged, HostMemory::kManagedPrefetch})
    for (long long order : {0, 1}) {
      const MeasureReply reply = s.Measure(s.Candidate(4, 1000000, memory, order));  // 5 chunks, the last short
      EXPECT_EQ(reply.status, CandidateStatus::kOk) << ToString(memory) << " " << order << ": " << reply.reason;
      EXPECT_EQ(reply.reason.rfind("pipeline: 4 streams, 5 chunks of 1000000, " + ToString(memory), 0), 0u)
          << reply.reason;
      EXPECT_GT(reply.time_ms.median, 0.0);
    }
}

TEST(HostPipelineGpu, AChunkNeverCopiedIsAWrongResult) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  StreamsSession s(dir.File("cubins"));
  KernelLaunch broken = s.Candidate(2, 1 << 20, HostMemory::kPinned, 0);
  broken.pipeline.items -= 1000;  // a plan that forgets the last 1000 elements
  const MeasureReply reply = s.Measure(broken);
  EXPECT_EQ(reply.status, CandidateStatus::kWrongResult) << reply.reason;
  const std::string reason = reply.reason;
  EXPECT_NE(reason.find("the kernel's copy of input 'in' differs from the host's after the run"), std::string::npos)
      << reason;
  EXPECT_NE(reason.find("'out'"), std::string::npos) << reason;  // and the output's unwritten tail
  EXPECT_EQ(s.Measure(s.Candidate(2, 1 << 20, HostMemory::kPinned, 0)).status,
            CandidateStatus::kOk);  // the session goes on
}

// Many candidates, right, wrong and failing, of every kind: the host memory they take is given back
// each time, counted by the buffers and measured as the process's resident memory.
TEST(HostPipelineGpu, ManyCandidatesLeaveNoHostMemoryBehind) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  StreamsSession s(dir.File("cubins"));
  auto one_round = [&] {
    for (HostMemory memory :
         {HostMemory::kPageable, HostMemory::kPinned, HostMemory::kManaged, HostMemory::kManagedPrefetch}) {
      EXPECT_EQ(s.Measure(s.Candidate(4, 1 << 20, memory, 1)).status, CandidateStatus::kOk);
      KernelLaunch wrong = s.Candidate(2, 1 << 20, memory, 0);
      wrong.pipeline.tail.scalars[2] -= 1000;  // the last chunk's kernel stops 1000 elements short
      EXPECT_EQ(s.Measure(wrong).status, CandidateStatus::kWrongResult);
      KernelLaunch failing = s.Candidate(2, 1 << 20, memory, 0);
      failing.pipeline.chunk.geometry.block = {2048, 1, 1};  // no such block: the launch fails mid-pipeline
      EXPECT_THROW(s.Measure(failing), CudaError);
      cudaGetLastError();
      EXPECT_EQ(LiveHostBufferBytes(), 0u) << ToString(memory);
    }
  };
  one_round();  // the runtime's own pools and caches settle in the first round
  const std::size_t before = ResidentBytes();
  for (int round = 0; round < 4; ++round) one_round();
  const std::size_t after = ResidentBytes();
  // Each round allocates 2 x 16 MiB per candidate, 12 candidates: a leak of one would be 384 MiB.
  EXPECT_LT(after, before + (64u << 20)) << "resident memory grew from " << before << " to " << after << " bytes";
}

TEST(HostPipelineGpu, StagesAloneAreTimed) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  StreamsSession s(dir.File("cubins"));
  const StageTimes stages = s.session().PipelineStages(s.Candidate(1, kItems, HostMemory::kPinned, 0));
  EXPECT_GT(stages.h2d_ms, 0.0);
  EXPECT_GT(stages.kernel_ms, 0.0);
  EXPECT_GT(stages.d2h_ms, 0.0);
}

TEST(HostPipelineGpu, ManagedMemoryBeyondHalfOfTheFreeMemoryIsRefused) {
  TUNER_GPU_TEST(1);
  PipelineRun run;
  run.memory = HostMemory::kManaged;
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  const long long floats = static_cast<long long>(free_bytes / 4 / 2) + (1 << 20);  // just over half, never allocated
  const std::vector<PipelineBuffer> buffers = {
      {{"big", ScalarType::kFloat, floats, BufferInit::kRandom, false, "", ""}, nullptr}};
  EXPECT_NE(PipelineUnfitReason(run, buffers).find("of managed memory, more than half of the"), std::string::npos);
  const std::vector<PipelineBuffer> small = {
      {{"small", ScalarType::kFloat, 1 << 20, BufferInit::kRandom, false, "", ""}, nullptr}};
  EXPECT_EQ(PipelineUnfitReason(run, small), "");
  run.memory = HostMemory::kPinned;
  EXPECT_EQ(PipelineUnfitReason(run, buffers), "");  // only managed memory is limited so
}

}  // namespace
}  // namespace tuner
