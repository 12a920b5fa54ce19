#include "exchange/imported_sweep.h"

#include <gtest/gtest.h>

#include "exchange/kernel_tuner_cache.h"
#include "template/search_space.h"

namespace tuner {
namespace {

const std::string kFixture = std::string(TUNER_FIXTURES_DIR) + "/results/vector_add_cache.json";

ImportTarget VectorAddTarget() {
  ImportTarget target;
  target.template_name = "vector_add";
  target.template_hash = "abc";
  target.size_key = "1000000";
  target.gpu_model = "NVIDIA A100-PCIE-40GB";
  target.params = {{"block_size_x", {32, 64, 128, 256, 512, 1024, 2048}, {}, false},
                   {"tile_size", {1, 2, 3, 4}, {}, false}};
  for (long long b : {32, 64, 128, 256, 512, 1024})
    for (long long t = 1; t <= 4; ++t)
      if (b * t <= 2048) target.candidates.insert(ParamsJson({{"block_size_x", b}, {"tile_size", t}}));
  return target;
}

TEST(ImportedSweep, EveryConfigurationIsARowOfOneImportedSweep) {
  const ImportedResults results = ReadKernelTunerCache(kFixture);
  const std::vector<db::MeasurementRow> rows = ImportedSweepRows(results, VectorAddTarget(), "hash1");
  ASSERT_EQ(rows.size(), 22u);
  const db::MeasurementRow& first = rows.front();
  EXPECT_EQ(first.gpu.uuid, "imported:NVIDIA A100-PCIE-40GB");
  EXPECT_EQ(first.gpu.name, "NVIDIA A100-PCIE-40GB");
  EXPECT_TRUE(IsImportedGpu(first.gpu));
  EXPECT_EQ(first.templ.name, "vector_add");
  EXPECT_EQ(first.sweep.strategy, "imported");
  EXPECT_EQ(first.sweep.tool_version, "Kernel Tuner cache");
  EXPECT_EQ(first.sweep.started_at, "2024-01-02T10:00:00Z");
  EXPECT_EQ(first.sweep.ended_at, "2024-01-02T10:00:21Z");
  EXPECT_EQ(first.size_key, "1000000");
  EXPECT_EQ(first.measurement.params_json, R"({"block_size_x":32,"tile_size":1})");
  EXPECT_DOUBLE_EQ(first.measurement.time_ms_median, 1.70015);
  EXPECT_DOUBLE_EQ(first.measurement.time_ms_min, 1.675);
  EXPECT_DOUBLE_EQ(first.measurement.time_ms_max, 1.7253);
  EXPECT_EQ(first.measurement.samples, 4);
  EXPECT_DOUBLE_EQ(first.measurement.compile_ms, 1000.0);
  EXPECT_EQ(rows[3].measurement.status, CandidateStatus::kCompileError);
  EXPECT_EQ(rows[3].measurement.time_ms_median, 0);
  for (const db::MeasurementRow& row : rows) EXPECT_EQ(row.sweep.uid, first.sweep.uid);
  // The same file, template and GPU model make the same sweep; another GPU model another one.
  EXPECT_EQ(ImportedSweepRows(results, VectorAddTarget(), "hash1").front().sweep.uid, first.sweep.uid);
  ImportTarget other = VectorAddTarget();
  other.gpu_model = "AMD MI250X";
  EXPECT_NE(ImportedSweepRows(results, other, "hash1").front().sweep.uid, first.sweep.uid);
}

std::string Refusal(const ImportedResults& results, const ImportTarget& target) {
  try {
    ImportedSweepRows(results, target, "h");
  } catch (const ImportedFileError& e) {
    return e.what();
  }
  return "";
}

TEST(ImportedSweep, RefusesConfigurationsThatAreNotTheTemplatesCandidates) {
  const ImportedResults results = ReadKernelTunerCache(kFixture);
  ImportTarget target = VectorAddTarget();
  target.candidates.erase(ParamsJson({{"block_size_x", 64}, {"tile_size", 2}}));
  EXPECT_NE(Refusal(results, target)
                .find("line 14 (\"64,2\"), field configuration: block_size_x=64 tile_size=2 is not a "
                      "candidate of template 'vector_add'"),
            std::string::npos)
      << Refusal(results, target);
  target = VectorAddTarget();
  target.params[1].name = "tile";
  EXPECT_NE(Refusal(results, target).find("line 9 (\"32,1\"), field tile: missing"), std::string::npos);
  ImportedResults doubled = results;
  doubled.configs.push_back(results.configs[0]);
  doubled.configs.back().place = "line 31";
  EXPECT_NE(Refusal(doubled, VectorAddTarget())
                .find("line 31, field configuration: block_size_x=32 tile_size=1 is listed twice"),
            std::string::npos);
}

TEST(ImportedSweep, StringValuesAreTheTemplatesLabels) {
  ImportedResults results = ReadKernelTunerCache(kFixture);
  results.configs.resize(1);
  results.configs[0].configuration["tile_size"] = "one";
  ImportTarget target = VectorAddTarget();
  target.candidates.clear();
  EXPECT_NE(
      Refusal(results, target).find("field tile_size: is \"one\", not a whole number of the template's parameter"),
      std::string::npos);
  target.params[1].labels = {"one", "two", "three", "four"};
  EXPECT_EQ(ImportedSweepRows(results, target, "h").front().measurement.params_json,
            R"({"block_size_x":32,"tile_size":1})");
}

TEST(ImportedSweep, WithoutTheTemplateTheFilesParametersAreTheSpace) {
  const ImportedResults results = ReadKernelTunerCache(kFixture);
  ImportTarget target = VectorAddTarget();
  target.params.clear();
  target.candidates.clear();
  EXPECT_EQ(ImportedSweepRows(results, target, "h").size(), 22u);
  EXPECT_EQ(ImportedSpaceHash(results), ImportedSpaceHash(results));
  ImportedResults fewer = results;
  fewer.configs.resize(20);  // 1024,1 and 1024,2 gone: 1024 is no value of the space
  EXPECT_NE(ImportedSpaceHash(fewer), ImportedSpaceHash(results));
}

}  // namespace
}  // namespace tuner
