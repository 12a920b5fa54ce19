// The worker's session on a real GPU (skipped without one): a half-precision buffer read from a
// NumPy '<f2' file onto the GPU, written by the kernel, and checked against an expected '<f2' file
// in its own type, so that a right candidate passes and a wrong one is wrong_result; and an output
// the kernel reads too, started from random data before every launch, the reference's as well.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "npy.h"
#include "template/element_types.h"
#include "tune_json.h"

namespace tuner {
namespace {

using db::testing::TempDir;

// Tunes the template NAME written into dir/kernels; every candidate whose VARIANT is 0 must be ok,
// every other one wrong_result.
void ExpectOnlyVariantZeroRight(const TempDir& dir, const std::string& name, std::size_t candidates) {
  const nlohmann::json doc = testing::TuneJson(dir, name + " --templates " + dir.File("kernels"));
  ASSERT_EQ(doc.value("candidates", nlohmann::json::array()).size(), candidates) << doc.dump();
  for (const auto& c : doc.at("candidates"))
    EXPECT_EQ(c.at("status"), c.at("params").at("VARIANT") == 0 ? "ok" : "wrong_result") << c.dump();
}

// VARIANT 0 doubles each half value, VARIANT 1 (the wrong one) triples it; both in fp32 through
// PTX's half conversions, which need no CUDA header.
const char* kSource = R"cuda(
__device__ float Widen(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ unsigned short Round(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
extern "C" __global__ void half_scale(unsigned short* out, const unsigned short* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Round(Widen(in[i]) * (VARIANT == 0 ? 2.0f : 3.0f));
}
)cuda";

const char* kDescription = R"toml(name = "half_scale"
kernel = "half_scale"
[[size]]
name = "N"
default = 100003
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
type = "half"
length = "N"
output = true
[[arg]]
name = "in"
type = "half"
length = "N"
init = "file:in.npy"
[[arg]]
name = "n"
type = "int"
value = "N"
[check]
expected = { out = "out.npy" }
[work]
bytes = "4 * N"
)toml";

TEST(GpuSessionGpu, AHalfBufferFromAFileIsCheckedInHalf) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  constexpr std::size_t kCount = 100003;
  std::vector<std::uint16_t> in(kCount), out(kCount);
  for (std::size_t i = 0; i < kCount; ++i) {
    StoreElement(in.data(), ScalarType::kHalf, i, static_cast<double>(i % 2001) / 16 - 60);
    StoreElement(out.data(), ScalarType::kHalf, i, 2 * LoadElement(in.data(), ScalarType::kHalf, i));
  }
  const std::string kernels = dir.File("kernels");
  std::filesystem::create_directories(kernels);
  npy::WriteFile(kernels + "/in.npy", "<f2", in.data(), kCount);
  npy::WriteFile(kernels + "/out.npy", "<f2", out.data(), kCount);
  std::ofstream(kernels + "/half_scale.toml") << kDescription;
  std::ofstream(kernels + "/half_scale.cu") << kSource;
  ExpectOnlyVariantZeroRight(dir, "half_scale", 4);
}

// y += 2x in place: VARIANT 0 right, VARIANT 1 (wrong) ignores what y held. Every candidate and the
// reference must start from the same random y: a second candidate started from the first's result
// would add 2x twice, and a reference started elsewhere would fail them all.
const char* kInOutSource = R"cuda(
extern "C" __global__ void twice_into(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = (VARIANT == 0 ? y[i] : 0.0f) + 2.0f * x[i];
}
extern "C" __global__ void twice_into_reference(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += 2.0f * x[i];
}
)cuda";

const char* kInOutDescription = R"toml(name = "twice_into"
kernel = "twice_into"
[[size]]
name = "N"
default = 100003
[[param]]
name = "VARIANT"
values = [0, 1]
[[param]]
name = "BLOCK"
values = [128, 256, 512]
[launch]
grid = ["cdiv(N, BLOCK)"]
block = ["BLOCK"]
[[arg]]
name = "y"
type = "float"
length = "N"
output = true
init = "random"
[[arg]]
name = "x"
type = "float"
length = "N"
init = "random"
[[arg]]
name = "n"
type = "int"
value = "N"
[check]
kernel = "twice_into_reference"
atol = 0
rtol = 0
[work]
bytes = "12 * N"
)toml";

TEST(GpuSessionGpu, AnOutputReadAndWrittenStartsFromTheSameRandomDataEveryLaunch) {
  TUNER_GPU_TEST(1);
  TempDir dir;
  const std::string kernels = dir.File("kernels");
  std::filesystem::create_directories(kernels);
  std::ofstream(kernels + "/twice_into.toml") << kInOutDescription;
  std::ofstream(kernels + "/twice_into.cu") << kInOutSource;
  ExpectOnlyVariantZeroRight(dir, "twice_into", 6);
}

}  // namespace
}  // namespace tuner
