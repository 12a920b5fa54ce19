#include "db/row_check.h"

#include <gtest/gtest.h>

#include "db/query/imported_gpu.h"
#include "db_test_util.h"

namespace tuner::db {
namespace {

MeasurementRow SampleRow() {
  MeasurementRow row;
  row.gpu = testing::SampleGpu();
  row.templ = {"transpose", "hash-a", "2026-11-20T00:00:00Z"};
  row.size_key = "8192x8192";
  row.sweep = testing::SampleSweep();
  row.measurement = testing::SampleMeasurement(32, 1.0);
  return row;
}

// The field a problem names, its first word.
std::string FieldOf(const std::string& problem) { return problem.substr(0, problem.find(' ')); }

TEST(RowCheck, TheToolsOwnRowPasses) { EXPECT_EQ(RowProblem(SampleRow()), ""); }

// A database holding an imported sweep merges, exports and imports again.
TEST(RowCheck, AnImportedGpuIsItsNameAlone) {
  MeasurementRow row = SampleRow();
  row.gpu = ImportedGpu("NVIDIA H200");
  EXPECT_EQ(RowProblem(row), "");
  row.gpu.cc_major = 9;  // an imported GPU that claims an architecture
  EXPECT_EQ(FieldOf(RowProblem(row)), "gpu.cc_major");
  row.gpu = ImportedGpu("NVIDIA H200");
  row.gpu.uuid = "imported:NVIDIA H100";  // another model's
  EXPECT_EQ(FieldOf(RowProblem(row)), "gpu.uuid");
  for (const std::string& name : {std::string("A\nB"), std::string("\x1b[31mred"), std::string(100'000, 'A')}) {
    row.gpu = ImportedGpu(name);
    const std::string problem = RowProblem(row);
    EXPECT_EQ(FieldOf(problem), "gpu.name");
    EXPECT_LT(problem.size(), 400u) << "a long name is shortened in the message";
  }
}

TEST(RowCheck, AnOkTimeIsFromOneNanosecondToADay) {
  for (const double time_ms : {0.0, 1e-300, 1e-7, 1e9}) {
    MeasurementRow row = SampleRow();
    row.measurement.time_ms_median = time_ms;
    EXPECT_EQ(FieldOf(RowProblem(row)), "measurement.time_ms_median") << time_ms;
  }
  for (const double time_ms : {kMinPlausibleMs, 0.333, kMaxPlausibleMs}) {
    MeasurementRow row = SampleRow();
    row.measurement.time_ms_median = row.measurement.time_ms_min = row.measurement.time_ms_max = time_ms;
    EXPECT_EQ(RowProblem(row), "") << time_ms;
  }
}

TEST(RowCheck, ATimeStampIsADayThatExists) {
  for (const char* stamp : {"2023-02-29T00:00:00Z", "2023-04-31T00:00:00Z", "0000-01-01T00:00:00Z",
                            "9999-12-31T23:59:59Z", "2023-13-01T00:00:00Z", "2150-01-01T00:00:00Z"}) {
    MeasurementRow row = SampleRow();
    row.measurement.measured_at = stamp;
    EXPECT_EQ(FieldOf(RowProblem(row)), "measurement.measured_at") << stamp;
  }
  MeasurementRow row = SampleRow();
  row.measurement.measured_at = "2024-02-29T23:59:60Z";
  EXPECT_EQ(RowProblem(row), "");
}

TEST(RowCheck, ATemplateNameIsNoPathAndNoLine) {
  for (const char* name : {"../../evil", "a\nb", "1st", ""}) {
    EXPECT_NE(TemplateNameProblem(name), "") << name;
    MeasurementRow row = SampleRow();
    row.templ.name = name;
    EXPECT_EQ(FieldOf(RowProblem(row)), "template.name") << name;
  }
  EXPECT_EQ(TemplateNameProblem("vector_add"), "");
  EXPECT_NE(TemplateNameProblem(std::string(129, 'a')), "");
}

}  // namespace
}  // namespace tuner::db
