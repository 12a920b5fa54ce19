#include "exchange/t4_export.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "t4_schema_check.h"

namespace tuner {
namespace {

using db::testing::SampleGpu;
using db::testing::SampleMeasurement;
using db::testing::SampleSweep;
using db::testing::TempDir;
using nlohmann::json;
using testing::ReadFileText;
using testing::RunCommand;
using testing::T4SchemaProblems;

TEST(T4SchemaCheck, FindsWhatTheSchemaForbids) {  // the checker itself can fail
  EXPECT_TRUE(T4SchemaProblems(json::parse(R"({"schema_version": "1.0.0", "results": []})")).empty());
  EXPECT_EQ(T4SchemaProblems(json::parse(R"({"schema_version": "1.0", "results": []})")).size(), 1u);
  const json result =
      json::parse(R"({"configuration": {}, "times": {"runtimes": [1.0]}, "invalidity": "correct", "correctness": 1})");
  json doc = {{"results", {result}}};
  EXPECT_TRUE(T4SchemaProblems(doc).empty());
  for (const char* key : {"configuration", "times", "invalidity", "correctness"}) {
    json broken = doc;
    broken["results"][0].erase(key);
    EXPECT_EQ(T4SchemaProblems(broken), std::vector<std::string>{std::string("results[0] has no ") + key});
  }
  doc["results"][0]["invalidity"] = "wrong";
  EXPECT_EQ(T4SchemaProblems(doc).size(), 1u);
  doc["results"][0]["invalidity"] = "correct";
  doc["results"][0]["measurements"] = {{{"name", "time"}, {"value", true}}};
  EXPECT_EQ(T4SchemaProblems(doc).size(), 1u);
}

TEST(T4Export, InvalidityOfEachStatus) {
  EXPECT_EQ(T4Invalidity(CandidateStatusFromText("ok")), "correct");
  EXPECT_EQ(T4Invalidity(CandidateStatusFromText("wrong_result")), "correctness");
  EXPECT_EQ(T4Invalidity(CandidateStatusFromText("compile_error")), "compile");
  EXPECT_EQ(T4Invalidity(CandidateStatusFromText("invalid")), "constraints");
  EXPECT_EQ(T4Invalidity(CandidateStatusFromText("launch_error")), "runtime");
  EXPECT_EQ(T4Invalidity(CandidateStatusFromText("fault")), "runtime");
  EXPECT_EQ(T4Invalidity(CandidateStatusFromText("timeout")), "timeout");
  EXPECT_THROW(T4Invalidity(CandidateStatusFromText("skipped")), std::invalid_argument);
}

db::MeasurementRow Row(const db::GpuRecord& gpu, const db::MeasurementRecord& m) {
  db::MeasurementRow row;
  row.gpu = gpu;
  row.templ = {"t4_demo", "hash-1", "2026-11-22T00:00:00Z"};
  row.sweep = SampleSweep("64x64");
  row.size_key = "64x64";
  row.measurement = m;
  return row;
}

TEST(T4Export, OneResultPerCandidateItsNewestMeasurement) {
  db::MeasurementRecord old_timing = SampleMeasurement(32, 2.0);
  db::MeasurementRecord new_timing = SampleMeasurement(32, 1.5);
  new_timing.measured_at = "2026-11-22T02:00:00Z";  // the same candidate on the model's second card, later
  db::MeasurementRecord wrong = SampleMeasurement(16, 0, "wrong_result");
  wrong.reason = "out[3] = 7 instead of 8";
  const db::MeasurementRecord skipped = SampleMeasurement(8, 0, "skipped");
  const json doc = T4Document({Row(SampleGpu("GPU-1"), old_timing), Row(SampleGpu("GPU-2"), new_timing),
                               Row(SampleGpu("GPU-1"), wrong), Row(SampleGpu("GPU-1"), skipped)});
  EXPECT_TRUE(T4SchemaProblems(doc).empty()) << doc.dump(2);
  EXPECT_EQ(doc["schema_version"], "1.0.0");
  ASSERT_EQ(doc["results"].size(), 2u);
  const json& best = doc["results"][0];
  EXPECT_EQ(best["configuration"], json::parse(R"({"TILE": 32, "ROWS": 4})"));
  EXPECT_EQ(best["invalidity"], "correct");
  EXPECT_EQ(best["times"]["runtimes"], json::array({1.5}));
  EXPECT_EQ(best["measurements"][0], json::parse(R"({"name": "time", "value": 1.5, "unit": "ms"})"));
  EXPECT_EQ(best["objectives"], json::array({"time"}));
  const json& failed = doc["results"][1];
  EXPECT_EQ(failed["invalidity"], "correctness");
  EXPECT_EQ(failed["correctness"], 0);
  EXPECT_EQ(failed["times"]["runtimes"], json::array());
  EXPECT_EQ(failed["measurements"][0]["value"], "out[3] = 7 instead of 8");
  EXPECT_EQ(doc["metadata"]["tuner"]["skipped_left_out"], 1);
  EXPECT_EQ(doc["metadata"]["environment"]["device_query"]["name"], "NVIDIA H100 80GB HBM3");
}

// The command reads a database written by the store, as `tune` writes it.
class T4ExportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = dir_.File("results.db");
    db::Store store = db::Store::Open(db_, db::OpenMode::kReadWrite);
    const std::int64_t templ = store.EnsureTemplate({"t4_demo", "hash-1", ""});
    Sweep(store, templ, SampleGpu("GPU-1", "NVIDIA H100 80GB HBM3"),
          {SampleMeasurement(32, 1.0), SampleMeasurement(64, 0.5), SampleMeasurement(16, 0, "compile_error")});
  }
  void Sweep(db::Store& store, std::int64_t templ, const db::GpuRecord& gpu,
             const std::vector<db::MeasurementRecord>& ms) {
    const std::int64_t sweep = store.StartSweep(store.EnsureGpu(gpu), templ, SampleSweep("64x64"));
    for (const db::MeasurementRecord& m : ms) store.AddMeasurement(sweep, m);
  }
  testing::CliResult Export(const std::string& args, const std::string& size = "64x64") const {
    return RunCommand(std::string(TUNER_EXECUTABLE) + " export t4 t4_demo --size " + size + " --db " + db_ + " " +
                      args);
  }
  TempDir dir_;
  std::string db_;
};

TEST_F(T4ExportCommand, WritesASchemaConformingFile) {
  const std::string out = dir_.File("t4.json");
  const auto result = Export("-o " + out);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("exported 3 result(s) of t4_demo at 64x64 on NVIDIA H100 80GB HBM3"), std::string::npos)
      << result.err;
  const json doc = json::parse(ReadFileText(out));
  EXPECT_TRUE(T4SchemaProblems(doc).empty()) << doc.dump(2);
  ASSERT_EQ(doc["results"].size(), 3u);
  EXPECT_EQ(doc["results"][2]["invalidity"], "compile");
  EXPECT_EQ(json::parse(Export("").out), doc);  // stdout by default
}

TEST_F(T4ExportCommand, OneModelPerFile) {
  {
    db::Store store = db::Store::Open(db_, db::OpenMode::kReadWrite);
    db::GpuRecord h200 = SampleGpu("GPU-3", "NVIDIA H200");
    h200.memory_bytes = 150'000'000'000;
    Sweep(store, store.EnsureTemplate({"t4_demo", "hash-1", ""}), h200, {SampleMeasurement(32, 0.8)});
  }
  const auto both = Export("");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_EQ(both.err,
            "tuner export: results of 2 GPU models match ('NVIDIA H100 80GB HBM3', 'NVIDIA H200'); a T4 file holds "
            "one: choose it with --device\n");
  const auto h200 = Export("--device H200");
  ASSERT_EQ(h200.exit_code, 0) << h200.err;
  EXPECT_EQ(json::parse(h200.out)["results"].size(), 1u);
}

TEST_F(T4ExportCommand, BadRequestsWriteNothing) {
  const std::string out = dir_.File("t4.json");
  for (const auto& [args, size] : {std::pair<std::string, std::string>{"", "128x128"}, {"--device A100", "64x64"}}) {
    const auto result = Export(args + " -o " + out, size);  // nothing stored there
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(result.err.find("no results of the current version of 't4_demo' at size"), std::string::npos)
        << result.err;
  }
  EXPECT_EQ(Export("-o " + dir_.File("no/such/folder/t4.json")).exit_code, 2);
  const auto format = RunCommand(std::string(TUNER_EXECUTABLE) + " export t3 t4_demo --db " + db_);
  EXPECT_EQ(format.exit_code, 2);
  EXPECT_EQ(format.err, "tuner export: 't3' is not a format tuner exports (t4)\n");
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace tuner
