// A sweep's row in the store: ended by an exception, it is marked failed, not left running.
#include "sweep/sweep_row.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "db_test_util.h"
#include "sweep/same_compile_error.h"

namespace tuner {
namespace {

using db::testing::SampleGpu;
using db::testing::SampleMeasurement;
using db::testing::SampleSweep;

struct StartedSweep {
  StartedSweep() : store(db::Store::Open(dir.File("t.db"), db::OpenMode::kReadWrite)) {
    const std::int64_t gpu_id = store.EnsureGpu(SampleGpu()), template_id = store.EnsureTemplate({"conv", "hash", ""});
    sweep_id = store.StartSweep(gpu_id, template_id, SampleSweep());
    store.AddMeasurement(sweep_id, SampleMeasurement(16, 0, "compile_error"));  // a row to read the sweep through
  }
  db::SweepRecord Stored() {
    const std::vector<db::MeasurementRow> rows = store.ListMeasurements({});
    if (rows.size() != 1) throw std::logic_error("expected the one measurement of the sweep");
    return rows[0].sweep;
  }
  db::testing::TempDir dir;
  db::Store store;
  std::int64_t sweep_id = 0;
};

// Every candidate failing to compile alike (sweep/same_compile_error.h) ends the sweep by throwing.
void StopOnTheSameCompileError() {
  TemplateSpec spec;
  spec.name = "conv";
  spec.source_path = "/t/conv.cu";
  spec.params = {{"BLOCK", {64, 128}, {}, false}};
  SameCompileError same(spec, 2);
  for (long long block : {64, 128}) {
    Compiled failed;
    failed.params = {{"BLOCK", block}};
    failed.compile.result.log = "/t/conv.cu(3): error: expected a \",\" or \">\"\n";
    same.Add(failed);
  }
  same.StopIfConfirmed();
}

TEST(SweepRow, ASweepEndedByAnExceptionIsMarkedFailedWithItsEndTime) {
  StartedSweep s;
  EXPECT_EQ(s.Stored().status, "running");
  EXPECT_THROW(
      {
        SweepRow row(s.store, s.sweep_id);
        StopOnTheSameCompileError();
      },
      SameCompileErrorStop);
  EXPECT_EQ(s.Stored().status, "failed");
  EXPECT_FALSE(s.Stored().ended_at.empty());
}

TEST(SweepRow, AFinishedSweepKeepsItsStatus) {
  for (const char* status : {"done", "interrupted"}) {
    StartedSweep s;
    { SweepRow(s.store, s.sweep_id).Finish(status); }
    EXPECT_EQ(s.Stored().status, status);
    EXPECT_FALSE(s.Stored().ended_at.empty());
  }
}

}  // namespace
}  // namespace tuner
