// One sweep per GPU model: the rows of several cards of one model as one sweep, each candidate's
// result from the card that measured it, one rule where several did.
#include "db/model_sweep.h"

#include <gtest/gtest.h>

#include "db_test_util.h"

namespace tuner::db {
namespace {

using testing::SampleGpu;
using testing::SampleMeasurement;

MeasurementRow Row(const GpuRecord& gpu, int tile, double time_ms, std::int64_t id, const std::string& status = "ok",
                   const std::string& size_key = "8192x8192") {
  MeasurementRow row;
  row.gpu = gpu;
  row.templ.hash = "h1";
  row.size_key = size_key;
  row.measurement = SampleMeasurement(tile, time_ms, status);
  row.measurement.id = id;
  return row;
}

const MeasurementRow* Find(const ModelSweep& sweep, int tile) {
  for (const MeasurementRow& row : sweep.rows)
    if (row.measurement.params_json == SampleMeasurement(tile, 1).params_json) return &row;
  return nullptr;
}

// Two cards of one model split a sweep: one sweep of the union, whichever card measured a candidate.
TEST(ModelSweep, TwoCardsOfOneModelAreOneSweep) {
  const GpuRecord a = SampleGpu("GPU-aaaa"), b = SampleGpu("GPU-bbbb");
  const std::vector<ModelSweep> sweeps =
      SweepsPerModel({Row(a, 8, 3.0, 1), Row(b, 16, 2.0, 2), Row(a, 32, 1.0, 3), Row(b, 64, 4.0, 4, "compile_error")});
  ASSERT_EQ(sweeps.size(), 1u);
  EXPECT_EQ(sweeps[0].rows.size(), 4u);
  EXPECT_EQ(sweeps[0].cards, (std::vector<std::string>{"GPU-aaaa", "GPU-bbbb"}));
  EXPECT_TRUE(sweeps[0].gpu.uuid.empty()) << "the model's, not one card's";
  EXPECT_EQ(sweeps[0].gpu.name, a.name);
  EXPECT_EQ(Find(sweeps[0], 16)->gpu.uuid, "GPU-bbbb");
  EXPECT_EQ(Find(sweeps[0], 32)->gpu.uuid, "GPU-aaaa");
  EXPECT_EQ(CardsText(sweeps[0].cards), "2 cards: GPU-aaaa, GPU-bbbb");
}

TEST(ModelSweep, ACandidateBothCardsMeasuredTakesTheResultThatStandsFirst) {
  const GpuRecord a = SampleGpu("GPU-aaaa"), b = SampleGpu("GPU-bbbb");
  const auto sweep = [&](std::vector<MeasurementRow> rows) { return SweepsPerModel(rows).at(0); };
  const ModelSweep both = sweep({Row(a, 8, 2.0, 1), Row(b, 8, 1.5, 2)});
  EXPECT_EQ(Find(both, 8)->gpu.uuid, "GPU-bbbb") << "the faster";
  ASSERT_EQ(both.set_aside.size(), 1u) << "the other card's result is kept aside";
  EXPECT_EQ(both.set_aside[0].gpu.uuid, "GPU-aaaa");
  EXPECT_EQ(Find(sweep({Row(a, 8, 2.0, 1), Row(b, 8, 2.0, 2)}), 8)->gpu.uuid, "GPU-aaaa") << "equal: the earlier";
  EXPECT_EQ(Find(sweep({Row(a, 8, 2.0, 1), Row(b, 8, 1.0, 2, "fault")}), 8)->gpu.uuid, "GPU-aaaa") << "ok first";
  EXPECT_EQ(Find(sweep({Row(a, 8, 0, 1, "timeout"), Row(b, 8, 0, 2, "fault")}), 8)->gpu.uuid, "GPU-bbbb")
      << "of failures, the one stored last";
  EXPECT_EQ(Find(sweep({Row(a, 8, 0, 3, "skipped"), Row(b, 8, 0, 2, "fault")}), 8)->gpu.uuid, "GPU-bbbb")
      << "skipped is no outcome";
}

TEST(ModelSweep, OtherModelsVersionsAndSizesAreSweepsOfTheirOwn) {
  const GpuRecord h100 = SampleGpu("GPU-aaaa"), h200 = SampleGpu("GPU-cccc", "NVIDIA H200");
  MeasurementRow other_version = Row(h100, 8, 1.0, 4);
  other_version.templ.hash = "h2";
  const std::vector<ModelSweep> sweeps = SweepsPerModel(
      {Row(h100, 8, 1.0, 1), Row(h200, 8, 1.0, 2), Row(h100, 8, 1.0, 3, "ok", "4096x4096"), other_version});
  ASSERT_EQ(sweeps.size(), 4u);
  for (const ModelSweep& s : sweeps) {
    EXPECT_EQ(s.rows.size(), 1u);
    EXPECT_EQ(s.cards.size(), 1u);
    EXPECT_FALSE(s.gpu.uuid.empty()) << "one card holds it all: that card";
  }
  EXPECT_EQ(sweeps[1].gpu.name, "NVIDIA H200");
  EXPECT_EQ(sweeps[2].size_key, "4096x4096");
  EXPECT_EQ(sweeps[3].template_hash, "h2");
  EXPECT_EQ(CardsText(sweeps[0].cards), "GPU-aaaa");
}

TEST(ModelSweep, ACardApartIsASweepOfItsOwn) {
  const GpuRecord a = SampleGpu("GPU-aaaa"), published = SampleGpu("imported-1");
  const auto apart = [](const GpuRecord& gpu) { return gpu.uuid.rfind("imported-", 0) == 0; };
  const std::vector<ModelSweep> sweeps = SweepsPerModel({Row(a, 8, 1.0, 1), Row(published, 16, 1.0, 2)}, apart);
  ASSERT_EQ(sweeps.size(), 2u);
  EXPECT_EQ(sweeps[1].gpu.uuid, "imported-1");
  EXPECT_EQ(SweepsPerModel({Row(a, 8, 1.0, 1), Row(published, 16, 1.0, 2)}).size(), 1u) << "without: one model";
}

TEST(ModelSweep, ParametersSpacedDifferentlyAreOneCandidate) {
  const GpuRecord a = SampleGpu("GPU-aaaa"), b = SampleGpu("GPU-bbbb");
  MeasurementRow spaced = Row(b, 8, 1.0, 2);
  spaced.measurement.params_json = "{\"TILE\": 8, \"ROWS\": 4}";
  EXPECT_EQ(SweepsPerModel({Row(a, 8, 2.0, 1), spaced}).at(0).rows.size(), 1u);
}

}  // namespace
}  // namespace tuner::db
