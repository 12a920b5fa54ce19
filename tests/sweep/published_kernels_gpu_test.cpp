// Kernel files as projects publish them, tuned on a real GPU through the command line (skipped
// without one): host code and standard headers compiled by nvcc, checked against an independent
// kernel of the same file; an output a candidate skips is caught; arguments and symbols that do not
// fit the kernel are refused before any launch, by name.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using testing::Replaced;
using testing::RunTuner;

const std::string kPublished = std::string(TUNER_FIXTURES_DIR) + "/published";

// `tune NAME --json` of a published fixture, its kernel file copied unchanged beside its description.
nlohmann::json TunePublished(const std::string& name, TempDir& dir) {
  for (const char* ending : {".toml", ".cu"}) fs::copy_file(kPublished + "/" + name + ending, dir.File(name + ending));
  const auto r =
      RunTuner("tune published_" + name + " --json --templates " + dir.File("") + " --db " + dir.File("t.db"),
               "XDG_CACHE_HOME=" + dir.File("cache"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(db::testing::ReadBytes(dir.File(name + ".cu")),
            db::testing::ReadBytes(kPublished + "/" + name + ".cu"));  // never edited
  return nlohmann::json::parse(r.out);
}

TEST(PublishedKernels, ALayernormFileWithHostCodeTunesUnchangedAgainstItsNaiveKernel) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const auto doc = TunePublished("layernorm", dir);
  ASSERT_EQ(doc.at("candidates").size(), 6u) << doc.dump();
  for (const auto& c : doc.at("candidates")) EXPECT_EQ(c.at("status"), "ok") << c.dump();
  ASSERT_FALSE(doc.at("best").is_null());
}

TEST(PublishedKernels, ATemplatedHalfSoftmaxWithLimitsAndCubTunesUnchangedAgainstADoubleReference) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const auto doc = TunePublished("softmax", dir);
  ASSERT_EQ(doc.at("candidates").size(), 20u) << doc.dump();
  for (const auto& c : doc.at("candidates")) EXPECT_EQ(c.at("status"), "ok") << c.dump();
  ASSERT_FALSE(doc.at("best").is_null());
}

// VARIANT 1 writes only the positive elements, leaving the rest as they were: right only when the
// output happened to start at zero.
const char* kReluSource = R"cuda(
extern "C" __global__ void relu(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
#if VARIANT == 1
  if (in[i] > 0.0f) out[i] = in[i];
#else
  out[i] = in[i] > 0.0f ? in[i] : 0.0f;
#endif
}
)cuda";

const char* kReluDescription = R"toml(
name = "relu"
kernel = "relu"
[[size]]
name = "N"
default = 100000
[[param]]
name = "VARIANT"
values = [0, 1]
[launch]
grid = ["cdiv(N, 256)"]
block = [256]
[[arg]]
name = "out"
type = "float"
length = "N"
output = true
init = "zero"
[[arg]]
name = "in"
type = "float"
length = "N"
init = "random"
[[arg]]
name = "n"
type = "int"
value = "N"
[check]
reference = "own_configuration"
params = { VARIANT = 0 }
[work]
bytes = "8 * N"
)toml";

struct Tuned {
  int exit_code = 0;
  std::string err;
  std::map<int, nlohmann::json> by_variant;
  nlohmann::json candidates = nlohmann::json::array();
};

Tuned Tune(const std::string& name, const std::string& description, const std::string& source,
           const std::string& options = "") {
  TempDir dir;
  std::ofstream(dir.File(name + ".toml")) << description;
  std::ofstream(dir.File(name + ".cu")) << source;
  const auto r =
      RunTuner("tune " + name + " --json --templates " + dir.File("") + " --db " + dir.File("t.db") + options,
               "XDG_CACHE_HOME=" + dir.File("cache"));
  Tuned tuned{r.exit_code, r.err, {}};
  const auto doc = nlohmann::json::parse(r.out, nullptr, false);
  if (!doc.is_discarded() && doc.contains("candidates")) tuned.candidates = doc.at("candidates");
  for (const auto& c : tuned.candidates) tuned.by_variant[c["params"]["VARIANT"]] = c;
  return tuned;
}

TEST(PublishedKernels, AnOutputThatStartsAtZeroStillCatchesACandidateThatSkipsElements) {
  TUNER_GPU_TEST(1);
  const Tuned tuned = Tune("relu", kReluDescription, kReluSource);
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  ASSERT_EQ(tuned.by_variant.size(), 2u) << tuned.err;
  EXPECT_EQ(tuned.by_variant.at(0)["status"], "ok") << tuned.by_variant.at(0).dump();
  EXPECT_EQ(tuned.by_variant.at(1)["status"], "wrong_result") << tuned.by_variant.at(1).dump();
}

TEST(PublishedKernels, AnArgumentOfAnotherSizeThanTheKernelsParameterIsRefusedByName) {
  TUNER_GPU_TEST(1);
  const std::string description =
      Replaced(kReluDescription, "name = \"n\"\ntype = \"int\"", "name = \"n\"\ntype = \"int64\"");
  const Tuned tuned = Tune("relu", description, kReluSource);
  EXPECT_NE(tuned.exit_code, 0);
  EXPECT_NE(tuned.err.find("argument 3 'n' (int64, 8 bytes) does not fit the kernel"), std::string::npos) << tuned.err;
  EXPECT_EQ(tuned.err.find(".cpp:"), std::string::npos) << tuned.err;  // no place in the tool's own source
}

TEST(PublishedKernels, AConstantMemorySymbolTheFileLacksIsRefusedByName) {
  TUNER_GPU_TEST(1);
  // As benchmark_hub's dedispersion says of `shifts`: a name the file has, as a parameter, not as a
  // __constant__ variable (a name the file lacks altogether is refused when the description is read).
  const std::string description = std::string(kReluDescription) + "[[symbol]]\nname = \"in\"\nfrom = \"in\"\n";
  const Tuned tuned = Tune("relu", description, kReluSource);
  EXPECT_NE(tuned.exit_code, 0);
  EXPECT_NE(tuned.err.find("[[symbol]] 'in' (filled from argument 'in'): the kernel file has no __constant__"),
            std::string::npos)
      << tuned.err;
  EXPECT_EQ(tuned.err.find(".cpp:"), std::string::npos) << tuned.err;
}

// A stencil whose parameter STEPS is the number of time steps it computes, as benchmark_hub's hotspot
// has one: the right output follows STEPS. VARIANT 1 is a bug worth catching within each STEPS.
const char* kStepsSource = R"cuda(
extern "C" __global__ void steps(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  for (int s = 0; s < STEPS; ++s) v = 0.5f * v + 1.0f;
#if VARIANT == 1
  if (i == n - 1) v += 1.0f;
#endif
  out[i] = v;
}
)cuda";

const char* kStepsDescription = R"toml(
name = "steps"
kernel = "steps"
[[size]]
name = "N"
default = 100000
[[param]]
name = "STEPS"
values = [1, 2, 4]
[[param]]
name = "VARIANT"
values = [0, 1]
[[param]]
name = "BLOCK"
values = [128, 256]
[launch]
grid = ["cdiv(N, BLOCK)"]
block = ["BLOCK"]
[[arg]]
name = "out"
type = "float"
length = "N"
output = true
[[arg]]
name = "in"
type = "float"
length = "N"
init = "random"
[[arg]]
name = "n"
type = "int"
value = "N"
[check]
reference = "own_configuration"
params = { STEPS = 1, VARIANT = 0, BLOCK = 128 }
output_depends_on = ["STEPS"]
[work]
bytes = "8 * N"
)toml";

// Each candidate's status by its configuration, from `tune --json`.
std::map<std::string, std::string> StatusByConfiguration(const std::string& description) {
  const Tuned tuned = Tune("steps", description, kStepsSource);
  EXPECT_EQ(tuned.exit_code, 0) << tuned.err;
  std::map<std::string, std::string> status;
  for (const auto& c : tuned.candidates)
    status["STEPS=" + c["params"]["STEPS"].dump() + " VARIANT=" + c["params"]["VARIANT"].dump() +
           " BLOCK=" + c["params"]["BLOCK"].dump()] = c["status"];
  return status;
}

TEST(PublishedKernels, AnOutputThatFollowsAParameterIsCheckedAgainstTheReferenceOfItsValue) {
  TUNER_GPU_TEST(1);
  const auto status = StatusByConfiguration(kStepsDescription);
  ASSERT_EQ(status.size(), 12u);
  for (const auto& [configuration, verdict] : status)
    EXPECT_EQ(verdict, configuration.find("VARIANT=1") != std::string::npos ? "wrong_result" : "ok") << configuration;
}

// Without saying so, every other value of STEPS differs from the reference: the sweep stops within
// its first candidates and names the parameter, instead of recording them all as wrong.
TEST(PublishedKernels, WithoutSayingSoTheSweepStopsAndNamesTheParameterTheWrongResultsFollow) {
  TUNER_GPU_TEST(1);
  const Tuned tuned =
      Tune("steps", Replaced(kStepsDescription, "output_depends_on = [\"STEPS\"]\n", ""), kStepsSource);
  EXPECT_NE(tuned.exit_code, 0);
  EXPECT_NE(tuned.err.find("whose STEPS differs from the reference's are wrong"), std::string::npos) << tuned.err;
  EXPECT_NE(tuned.err.find("output_depends_on = [\"STEPS\""), std::string::npos) << tuned.err;
}

TEST(PublishedKernels, AReferenceThatHangsIsStoppedAtItsLimitWithAMessageNamingIt) {
  TUNER_GPU_TEST(1);
  const std::string source = std::string(kReluSource) +
                             "extern \"C\" __global__ void relu_hang(float* out, const float* in, int n) {\n"
                             "  while (*(volatile const float*)in == *(volatile const float*)in) {}  // never NaN\n}\n";
  const std::string description = Replaced(
      kReluDescription, "reference = \"own_configuration\"\nparams = { VARIANT = 0 }", "kernel = \"relu_hang\"");
  const auto start = std::chrono::steady_clock::now();
  const Tuned tuned = Tune("relu", description, source, " --reference-timeout 3");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60);
  EXPECT_NE(tuned.exit_code, 0);
  EXPECT_NE(tuned.err.find("the reference kernel relu_hang (VARIANT=0) of relu ran past its time limit of 3 s"),
            std::string::npos)
      << tuned.err;
}

}  // namespace
}  // namespace tuner
