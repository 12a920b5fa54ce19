// One candidate of the small template, compiled as far as the supervisor cares, with everything
// that measures it through a fake worker (tests/fake_worker.h): the pieces of a sweep without a GPU.
#pragma once

#include <vector>

#include "fake_worker.h"
#include "sweep/candidate_measurer.h"
#include "template/search_space.h"
#include "template_fixtures.h"

namespace tuner::testing {

inline const char* const kOkReply =
    R"(echo '{"ok":true,"worker_s":0.001,"status":"ok","reason":"","regs_per_thread":40,"static_smem_bytes":0,)"
    R"("time_ms":{"median":2.0,"min":1.5,"max":3.0,"spread":0.01,"count":12},)"
    R"("throttle":{"reads":24,"discarded":1,"unavailable":""}}')";

// The small template's one candidate, compiled as far as the measurer cares, measured through `fake`.
struct Measuring {
  explicit Measuring(const FakeWorker& fake)
      : spec(LoadTemplateFile(WriteTemplateFiles(dir.File("t"), "small", kSmallDescription))),
        size(ParseProblemSize(spec, "")),
        gpu(FakeGpu()),
        records(spec, gpu, size),
        pipeline(spec, size, gpu, {1, dir.File("cache"), TUNER_EXECUTABLE}, clock),
        worker(
            fake.path(), [] { return SetupRequest{}; }, "small", clock, stop),
        measurer(
            worker, pipeline, records, stop, [this](const db::MeasurementRecord& r) { committed.push_back(r); }, 10) {
    compiled.params = EnumerateCandidates(spec, size).at(0);
    compiled.geometry = EvaluateLaunch(spec.launch, MakeVariables(size, compiled.params));
    compiled.compile.result.ok = true;
    compiled.compile.cubin_path = dir.File("k.cubin");
  }
  db::testing::TempDir dir;
  TemplateSpec spec;
  ProblemSize size;
  GpuInfo gpu;
  SweepClock clock;
  SweepStop stop;
  CandidateRecords records;
  CandidatePipeline pipeline;
  WorkerClient worker;
  std::vector<db::MeasurementRecord> committed;
  CandidateMeasurer measurer;
  Compiled compiled;
};

}  // namespace tuner::testing
