// Kernels as people write them, tuned unchanged on a GPU (skipped without one): C++ linkage, a
// template in a namespace in a header whose template parameters are the tuning parameters, a
// reference overload chosen by a cast; and a templated kernel captured from an application through
// the capture library. Every candidate is checked against its reference.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "db/query/store.h"
#include "db_test_util.h"
#include "gpu_test_support.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using testing::CliResult;
using testing::RunCommand;
using testing::RunTuner;

constexpr const char* kStencilHeader = R"cuda(#pragma once

namespace smooth {

// A three-point average through a shared-memory tile of BLOCK values and their two neighbours.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) average3(float* out, const float* in, int n) {
  __shared__ float tile[BLOCK + 2];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x + 1] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0) tile[0] = i > 0 && i <= n ? in[i - 1] : 0.0f;
  if (threadIdx.x == BLOCK - 1) tile[BLOCK + 1] = i + 1 < n ? in[i + 1] : 0.0f;
  __syncthreads();
  const float sum = tile[threadIdx.x] + tile[threadIdx.x + 1] + tile[threadIdx.x + 2];
  if (i < n) out[i] = MULTIPLY ? sum * (1.0f / 3.0f) : sum / 3.0f;
}

}  // namespace smooth
)cuda";

constexpr const char* kStencilSource = R"cuda(#include "average3.cuh"

// The reference, in plain C++ linkage, with an overload for doubles beside it.
__global__ void average3_reference(float* out, const float* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float left = i > 0 ? in[i - 1] : 0.0f, right = i + 1 < n ? in[i + 1] : 0.0f;
  out[i] = (left + in[i] + right) / 3.0f;
}

__global__ void average3_reference(double* out, const double* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
)cuda";

constexpr const char* kStencilDescription = R"toml(name = "average3"
summary = "A three-point average written as a C++ template in a namespace"
kernel = "smooth::average3<BLOCK>"
[[size]]
name = "N"
default = 1000003
[[param]]
name = "BLOCK"
values = [64, 128, 256, 512, 1024]
[[param]]
name = "MULTIPLY"
values = [0, 1]
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
kernel = "static_cast<void (*)(float*, const float*, int)>(average3_reference)"
grid = ["cdiv(N, 256)"]
block = [256]
atol = 1e-6
rtol = 1e-6
[work]
bytes = "8 * N"
)toml";

void ExpectEveryCandidateChecked(const nlohmann::json& doc, std::size_t candidates) {
  ASSERT_EQ(doc.at("candidates").size(), candidates) << doc.dump();
  for (const auto& c : doc.at("candidates")) EXPECT_EQ(c.at("status"), "ok") << c.dump();
  ASSERT_FALSE(doc.at("best").is_null());
}

TEST(CxxKernelsGpu, TunesATemplateInANamespaceWithCppLinkageAgainstAnOverloadedReference) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  fs::create_directories(dir.File("templates"));
  std::ofstream(dir.File("templates/average3.cuh")) << kStencilHeader;
  std::ofstream(dir.File("templates/average3.cu")) << kStencilSource;
  std::ofstream(dir.File("templates/average3.toml")) << kStencilDescription;
  const CliResult tuned = RunTuner("tune average3 --templates " + dir.File("templates") + " --json --db " +
                                       dir.File("t.db"),
                                   "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  const auto doc = nlohmann::json::parse(tuned.out);
  ExpectEveryCandidateChecked(doc, 10);
  const CliResult query = RunTuner("query average3 --size 1000003 --db " + dir.File("t.db"));
  ASSERT_EQ(query.exit_code, 0) << query.err;
  EXPECT_EQ(query.out.find("_Z"), std::string::npos) << query.out;  // the name the user wrote, not the symbol
}

// Every candidate fails alike (the template's own static_assert, met only when it is instantiated,
// so the reference compiles): the sweep stops after a few candidates with the error and its fix.
TEST(CxxKernelsGpu, ASweepWhoseCandidatesAllFailAlikeStopsEarly) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  fs::create_directories(dir.File("templates"));
  std::string header = kStencilHeader;
  header.replace(header.find("  __shared__"), 0, "  static_assert(BLOCK < 0, \"BLOCK must be negative\");\n");
  std::ofstream(dir.File("templates/average3.cuh")) << header;
  std::ofstream(dir.File("templates/average3.cu")) << kStencilSource;
  std::ofstream(dir.File("templates/average3.toml")) << kStencilDescription;
  const CliResult tuned = RunTuner("tune average3 --templates " + dir.File("templates") + " --db " + dir.File("t.db"),
                                   "XDG_CACHE_HOME=" + dir.File("cache"));
  EXPECT_NE(tuned.exit_code, 0) << tuned.out << tuned.err;
  EXPECT_NE(tuned.err.find("compiled so far (4, whatever their parameters) failed alike, so the sweep stops: "
                           "compile: average3.cuh(8): error: static assertion failed"),
            std::string::npos)
      << tuned.err;  // BLOCK 64 and 128, MULTIPLY 0 and 1: every parameter failed with two values
  EXPECT_NE(tuned.err.find("BLOCK must be negative"), std::string::npos) << tuned.err;
  // The sweep's row ends failed, not running as if still under way (sweep/sweep_row.h).
  db::Store store = db::Store::Open(dir.File("t.db"), db::OpenMode::kReadOnly);
  const std::vector<db::MeasurementRow> rows = store.ListMeasurements({});
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].sweep.status, "failed");
  EXPECT_FALSE(rows[0].sweep.ended_at.empty());
}

// Runs `app` with the launch `name` captured into `dir` and expects it to say `correct`; returns the
// capture folder.
fs::path CaptureApplication(const TempDir& dir, const std::string& name, const std::string& app,
                            const std::string& correct) {
  const CliResult run = RunCommand("TUNER_CAPTURE=" + name + " TUNER_CAPTURE_DIR=" + dir.File("") + " " + app);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find(correct), std::string::npos) << run.out;
  return dir.File("capture-" + name);
}

// Tunes the capture `name` in `capture` and expects every one of `candidates` checked.
void TuneCapture(const TempDir& dir, const std::string& name, const fs::path& capture, std::size_t candidates) {
  const CliResult tuned =
      RunTuner("tune " + name + " --templates " + capture.string() + " --json --db " + dir.File("t.db"),
               "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  ExpectEveryCandidateChecked(nlohmann::json::parse(tuned.out), candidates);
}

// The application compiles app::scaled_sum<256, 4> and launches it through tuner::Launch; its
// capture names the kernel "app::scaled_sum<BLOCK, ITEMS>" and tunes as it is written.
TEST(CxxKernelsGpu, ATemplatedKernelCapturedFromAnApplicationTunesAsItIsWritten) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const fs::path capture =
      CaptureApplication(dir, "app_scaled_sum", TEMPLATED_APP, "scaled_sum of 1048576 values: correct");
  const std::string toml = db::testing::ReadBytes((capture / "app_scaled_sum.toml").string());
  EXPECT_NE(toml.find("kernel = \"app::scaled_sum<BLOCK, ITEMS>\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("source = \"scaled_sum.cuh\""), std::string::npos) << toml;
  TuneCapture(dir, "app_scaled_sum", capture, 16);
}

// bfloat16 through the capture library: the application launches the shipped add_scale_bf16 on
// __nv_bfloat16 buffers with a bfloat16 scalar; its capture holds bfloat16 files and a description of
// bfloat16 arguments whose check is the type's default tolerance, and every candidate passes it.
TEST(CxxKernelsGpu, ABfloat16LaunchIsCapturedAndTunedInBfloat16) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const fs::path capture =
      CaptureApplication(dir, "app_add_scale_bf16", BF16_APP, "add_scale_bf16 of 1048579 values: correct");
  const std::string toml = db::testing::ReadBytes((capture / "app_add_scale_bf16.toml").string());
  EXPECT_NE(toml.find("name = \"alpha\"\ntype = \"bfloat16\"\nvalue = \"1.5\""), std::string::npos) << toml;
  EXPECT_NE(toml.find("name = \"x\"\ntype = \"bfloat16\""), std::string::npos) << toml;
  EXPECT_EQ(toml.find("rtol ="), std::string::npos) << toml;  // the bfloat16 default
  EXPECT_NE(db::testing::ReadBytes((capture / "data/x.npy").string()).find("'descr': 'bfloat16'"), std::string::npos);
  TuneCapture(dir, "app_add_scale_bf16", capture, 18);  // VEC_BYTES 3 x ITEMS 3 x BLOCK 2
}

}  // namespace
}  // namespace tuner
