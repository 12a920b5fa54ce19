#include "exchange/t4_results.h"

#include <gtest/gtest.h>

#include <fstream>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gzip_test_util.h"
#include "template_fixtures.h"
#include "usage_refusal.h"

namespace tuner {
namespace {

using testing::Replaced;

std::string T4Refusal(const std::string& text) {
  return testing::UsageRefusal([&] { T4ResultsFromText(text, "t4.json"); });
}

const std::string kT4Fixture = std::string(TUNER_FIXTURES_DIR) + "/results/vector_add_t4.json";

TEST(T4Results, ReadsEveryResultWithItsValidityAndTimes) {
  const ImportedResults r = ReadT4Results(kT4Fixture);
  EXPECT_EQ(r.format, "T4 file");
  EXPECT_EQ(r.device_name, "");  // T4 results name no GPU unless the metadata does
  ASSERT_EQ(r.configs.size(), 22u);
  const ImportedConfig& first = r.configs.front();
  EXPECT_EQ(first.place, "line 7 (results[0])");
  EXPECT_EQ(first.status, CandidateStatus::kOk);
  EXPECT_DOUBLE_EQ(first.time_ms, 1.70015);
  EXPECT_DOUBLE_EQ(first.compile_ms, 1000.0);
  EXPECT_EQ(first.runtimes_ms.size(), 4u);
  EXPECT_EQ(first.measured_at, "2024-01-02T10:00:00Z");
  EXPECT_EQ(r.configs[3].status, CandidateStatus::kCompileError);
  EXPECT_EQ(r.configs[3].reason, "T4: compile");
  EXPECT_EQ(r.configs[21].status, CandidateStatus::kLaunchError);
}

TEST(T4Results, EachInvalidityHasItsStatus) {
  EXPECT_EQ(StatusOfT4Invalidity("correct"), CandidateStatus::kOk);
  EXPECT_EQ(StatusOfT4Invalidity("compile"), CandidateStatus::kCompileError);
  EXPECT_EQ(StatusOfT4Invalidity("runtime"), CandidateStatus::kLaunchError);
  EXPECT_EQ(StatusOfT4Invalidity("timeout"), CandidateStatus::kTimeout);
  EXPECT_EQ(StatusOfT4Invalidity("correctness"), CandidateStatus::kWrongResult);
  EXPECT_EQ(StatusOfT4Invalidity("constraints"), CandidateStatus::kInvalid);
  EXPECT_FALSE(StatusOfT4Invalidity("fine"));
}

TEST(T4Results, ReadsAGzippedFileAndTheDeviceNameOfItsMetadata) {
  db::testing::TempDir dir;
  nlohmann::json doc = nlohmann::json::parse(testing::ReadFileText(kT4Fixture));
  doc["metadata"]["environment"]["device_query"]["name"] = "NVIDIA A100-PCIE-40GB";
  std::ofstream(dir.File("A100_T4.json.gz"), std::ios::binary) << testing::Gzip(doc.dump(1));
  const ImportedResults r = ReadT4Results(dir.File("A100_T4.json.gz"));
  EXPECT_EQ(r.device_name, "NVIDIA A100-PCIE-40GB");
  EXPECT_EQ(r.configs.size(), 22u);
}

TEST(T4Results, RefusesAMalformedFileNamingTheLineAndField) {
  const std::string text = testing::ReadFileText(kT4Fixture);
  EXPECT_EQ(T4Refusal(Replaced(text, "\"invalidity\": \"correct\"", "\"invalidity\": \"fine\"")),
            "the T4 file 't4.json', line 7 (results[0]), field invalidity: is \"fine\", not one of correct, compile, "
            "runtime, timeout, correctness, constraints; nothing was imported");
  EXPECT_NE(T4Refusal(Replaced(text, "\"compilation\": 1000.0", "\"compilation\": \"long\""))
                .find("line 7 (results[0]), field times.compilation"),
            std::string::npos);
  EXPECT_NE(T4Refusal(Replaced(text, "\"value\": 1.70015", "\"value\": \"RuntimeFailedConfig\""))
                .find("field measurements (the objective)"),
            std::string::npos);
  EXPECT_NE(T4Refusal(Replaced(text, "\"configuration\": {", "\"config\": {")).find("field configuration: missing"),
            std::string::npos);
  EXPECT_NE(T4Refusal(Replaced(text, "\"results\": [", "\"results\": {")).find("not JSON"), std::string::npos);
}

// A value nested 100,000 deep once crashed the reader (the copy into the configuration recursed).
TEST(T4Results, AValueNestedDeeperThanTheLimitIsRefusedInOneShortLine) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string refusal = T4Refusal(Replaced(testing::ReadFileText(kT4Fixture), "\"configuration\": {",
                                                 "\"configuration\": {\"deep\": " + deep + ", "));
  EXPECT_NE(refusal.find("the T4 file 't4.json': line 9, column 93"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("more than 64 levels of nesting (the limit; raise it with TUNER_LIMIT_DEPTH=N)"),
            std::string::npos)
      << refusal;
  EXPECT_LT(refusal.size(), 300u);
}

}  // namespace
}  // namespace tuner
