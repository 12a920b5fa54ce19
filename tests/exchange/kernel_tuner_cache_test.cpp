#include "exchange/kernel_tuner_cache.h"

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

std::string Refusal(const std::string& text) {
  return testing::UsageRefusal([&] { KernelTunerCacheFromText(text, "c.json"); });
}

const std::string kCacheFixture = std::string(TUNER_FIXTURES_DIR) + "/results/vector_add_cache.json";

std::string FixtureText() { return testing::ReadFileText(kCacheFixture); }

TEST(KernelTunerCache, ReadsEveryConfigurationWithItsOutcomeAndTimes) {
  const ImportedResults r = ReadKernelTunerCache(kCacheFixture);
  EXPECT_EQ(r.format, "Kernel Tuner cache");
  EXPECT_EQ(r.device_name, "NVIDIA Test GPU");
  EXPECT_EQ(r.problem_size, std::vector<long long>{1000000});
  ASSERT_EQ(r.configs.size(), 22u);
  const ImportedConfig& first = r.configs.front();
  EXPECT_EQ(first.place, "line 9 (\"32,1\")");
  EXPECT_EQ(first.configuration.dump(), R"({"block_size_x":32,"tile_size":1})");
  EXPECT_EQ(first.status, CandidateStatus::kOk);
  EXPECT_DOUBLE_EQ(first.time_ms, 1.70015);
  EXPECT_EQ(first.runtimes_ms.size(), 4u);
  EXPECT_DOUBLE_EQ(first.compile_ms, 1000.0);
  EXPECT_EQ(first.measured_at, "2024-01-02T10:00:00Z");
  const ImportedConfig& compile_failed = r.configs[3];  // 32,4
  EXPECT_EQ(compile_failed.status, CandidateStatus::kCompileError);
  EXPECT_EQ(compile_failed.reason, "Kernel Tuner: CompilationFailedConfig");
  EXPECT_DOUBLE_EQ(compile_failed.compile_ms, 900.0);
  EXPECT_EQ(r.configs[21].status, CandidateStatus::kLaunchError);  // 1024,2: RuntimeFailedConfig
  EXPECT_EQ(r.configs[21].place, "line 30 (\"1024,2\")");
}

TEST(KernelTunerCache, ReadsAGzippedCacheByItsMagicBytes) {
  db::testing::TempDir dir;
  std::ofstream(dir.File("A100.json"), std::ios::binary) << testing::Gzip(FixtureText());
  const ImportedResults r = ReadKernelTunerCache(dir.File("A100.json"));
  ASSERT_EQ(r.configs.size(), 22u);
  EXPECT_EQ(r.configs[21].place, "line 30 (\"1024,2\")");
}

TEST(KernelTunerCache, ReadsAnUnfinishedCacheAsKernelTunerDoes) {
  std::string text = FixtureText();
  text = text.substr(0, text.rfind("}\n}")) + ",\n";  // the last entry's comma, nothing closed
  EXPECT_EQ(KernelTunerCacheFromText(text, "c.json").configs.size(), 22u);
}

TEST(KernelTunerCache, InvalidConfigIsInvalid) {
  const std::string text = Replaced(FixtureText(), "\"time\": \"RuntimeFailedConfig\"", "\"time\": \"InvalidConfig\"");
  EXPECT_EQ(KernelTunerCacheFromText(text, "c.json").configs[21].status, CandidateStatus::kInvalid);
}

TEST(KernelTunerCache, RefusesAMalformedFileNamingTheLineAndField) {
  const std::string text = FixtureText();
  EXPECT_EQ(Refusal(Replaced(text, "\"time\": 1.70015", "\"time\": \"fast\"")),
            "the Kernel Tuner cache 'c.json', line 9 (\"32,1\"), field time: is \"fast\", not a number of "
            "milliseconds; nothing was imported");
  EXPECT_NE(Refusal(Replaced(text, "\"compile_time\": 1010.0", "\"compile_time\": -1"))
                .find("line 10 (\"32,2\"), field compile_time"),
            std::string::npos);
  EXPECT_NE(Refusal(Replaced(text, "\"block_size_x\": 64, \"tile_size\": 1,", "\"block_size_x\": 64,"))
                .find(", field tile_size: missing"),
            std::string::npos);
  EXPECT_NE(
      Refusal(Replaced(text, "\"timestamp\": \"2024-01-02 10:00:00.000000+00:00\"", "\"timestamp\": \"yesterday\""))
          .find("line 9 (\"32,1\"), field timestamp"),
      std::string::npos);
  EXPECT_NE(Refusal(Replaced(text, "\"times\": [1.675,", "\"times\": [\"a\",")).find("field times[0]"),
            std::string::npos);
  EXPECT_NE(Refusal(Replaced(text, "\"tune_params_keys\"", "\"keys\"")).find("field tune_params_keys"),
            std::string::npos);
  EXPECT_NE(Refusal(Replaced(text, "\"cache\": {", "\"cache\": [")).find("c.json': line 9, column 7: not JSON"),
            std::string::npos);
  EXPECT_NE(Refusal("{\"tune_params_keys\": [], \"cache\": {}}").find("holds no configuration"), std::string::npos);
}

// A JSON reader keeps one of two equal keys silently; the cache that says two things of one
// configuration (or of one field) is refused, naming the line of the second.
TEST(KernelTunerCache, RefusesAKeyHeldTwiceByOneObject) {
  const std::string text = FixtureText();
  const std::string entry = "\"32,1\": {";
  const std::size_t first = text.find(entry);
  const std::string line = text.substr(first, text.find('\n', first) + 1 - first);
  EXPECT_EQ(Refusal(Replaced(text, line, line + line)),
            "the Kernel Tuner cache 'c.json': line 10, column 6: the key \"32,1\" is given twice in one object");
  EXPECT_NE(Refusal(Replaced(text, "\"time\": 1.70015", "\"time\": 1.70015, \"time\": 0.1")).find("the key \"time\""),
            std::string::npos);
}

TEST(KernelTunerCache, RefusesATimeStampOfADayThatDoesNotExist) {
  const std::string stamp = "\"2024-01-02 10:00:00.000000+00:00\"";
  EXPECT_NE(Refusal(Replaced(FixtureText(), stamp, "\"2023-02-29 10:00:00+00:00\""))
                .find("line 9 (\"32,1\"), field timestamp: is \"2023-02-29 10:00:00+00:00\", a time that does not "
                      "exist"),
            std::string::npos);
  EXPECT_NE(Refusal(Replaced(FixtureText(), stamp, "\"2150-01-02 10:00:00+00:00\"")).find("a time to come"),
            std::string::npos);
}

}  // namespace
}  // namespace tuner
