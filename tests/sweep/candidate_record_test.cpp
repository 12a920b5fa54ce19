// The stored record of a candidate before the GPU runs it: what a failed compile stores.
#include "sweep/candidate_record.h"

#include <gtest/gtest.h>

#include "occupancy/arch_table.h"
#include "template/template_library.h"

namespace tuner {
namespace {

TEST(CandidateRecord, ACompileErrorStoresTheFirstErrorLineAsItsReasonAndTheWholeLog) {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  const TemplateSpec& spec = library.Find("transpose");
  const DeviceLimits limits = ArchLimits("sm_90");
  const ProblemSize size = ParseProblemSize(spec, "");
  Compiled compiled{{{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}}, {}, {}, {}};
  compiled.geometry.block = {32, 8, 1};
  compiled.compile.result.log = spec.source_path + "(7): warning: unused\n" + spec.source_path +
                                "(12): error: identifier \"x\" is undefined\n\n1 error detected\n";
  const CandidateRecords::BaseRecord base = CandidateRecords(spec, limits, size).Base(compiled);
  EXPECT_FALSE(base.for_the_gpu);
  const db::MeasurementRecord& record = base.record;
  EXPECT_EQ(record.status, CandidateStatus::kCompileError);
  EXPECT_EQ(record.reason, "compile: transpose.cu(12): error: identifier \"x\" is undefined");
  EXPECT_EQ(record.error_text, compiled.compile.result.log);
}

// What NVRTC quoted from a file outside the template's folder is neither stored nor the reason.
TEST(CandidateRecord, ACompileErrorInAFileOutsideTheTemplatesFolderIsLeftOut) {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  const TemplateSpec& spec = library.Find("transpose");
  Compiled compiled{{{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}}, {}, {}, {}};
  compiled.geometry.block = {32, 8, 1};
  compiled.compile.result.log = "/etc/secret(1): error: identifier \"hunter2\" is undefined\n  hunter2\n\n" +
                                spec.source_path + "(3): error: expected a \";\"\n";
  const db::MeasurementRecord record =
      CandidateRecords(spec, ArchLimits("sm_90"), ParseProblemSize(spec, "")).Base(compiled).record;
  EXPECT_EQ(record.reason, "compile: transpose.cu(3): error: expected a \";\"");
  EXPECT_EQ(record.error_text.find("hunter2"), std::string::npos) << record.error_text;
  EXPECT_NE(record.error_text.find("(1 message about files outside the template's folder left out)"),
            std::string::npos)
      << record.error_text;
}

}  // namespace
}  // namespace tuner
