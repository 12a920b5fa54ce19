// The community's formats end to end on a GPU (skipped without one): the T1 fixtures (CUDA, and an
// OpenCL kernel through a compatibility header) are imported,
// tuned (every candidate must match the reference configuration), and the results exported as T4
// that follows the schema, one correct result per candidate.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "t4_schema_check.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using nlohmann::json;
using testing::CliResult;
using testing::ReadFileText;
using testing::RunTuner;
using testing::T4SchemaProblems;

class T1RoundTripGpu : public ::testing::TestWithParam<std::pair<const char*, std::size_t>> {
 protected:
  CliResult Tuner(const std::string& args) const {
    return RunTuner(args + " --db " + dir_.File("results.db"), "XDG_CACHE_HOME=" + dir_.File("cache"));
  }
  TempDir dir_;
};

TEST_P(T1RoundTripGpu, ImportTuneExport) {
  TUNER_GPU_TEST(1);
  const auto [name, candidates] = GetParam();
  const std::string kernels = dir_.File("kernels");
  const CliResult imported =
      RunTuner(std::string("import t1 ") + TUNER_FIXTURES_DIR + "/t1/" + name + ".json --output " + kernels);
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const CliResult tuned = Tuner(std::string("tune ") + name + " --templates " + kernels + " --json");
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const std::string t4_path = dir_.File("t4.json");
  const CliResult exported = Tuner(std::string("export t4 ") + name + " --templates " + kernels + " -o " + t4_path);
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const json t4 = json::parse(ReadFileText(t4_path));
  EXPECT_TRUE(T4SchemaProblems(t4).empty());
  ASSERT_EQ(t4["results"].size(), candidates);
  for (const json& result : t4["results"]) {
    EXPECT_EQ(result["invalidity"], "correct") << result.dump();
    EXPECT_GT(result["times"]["runtimes"][0].get<double>(), 0.0) << result.dump();
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, T1RoundTripGpu,
                         ::testing::Values(std::make_pair("vector_add", std::size_t{22}),
                                           std::make_pair("stencil", std::size_t{20}),
                                           // OpenCL, compiled as CUDA with its compatibility header first
                                           std::make_pair("scale_local", std::size_t{22})));

}  // namespace
}  // namespace tuner
