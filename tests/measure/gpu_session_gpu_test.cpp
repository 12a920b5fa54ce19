// A half-precision buffer through the worker's session on a real GPU (skipped without one): read
// from a NumPy '<f2' file onto the GPU, written by the kernel, and checked against an expected '<f2'
// file in its own type, so that a right candidate passes and a wrong one is wrong_result.
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

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::RunTuner;

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
  const auto r = RunTuner("tune half_scale --templates " + kernels + " --json --db " + dir.File("t.db"),
                          "XDG_CACHE_HOME=" + dir.File("cache"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.at("candidates").size(), 4u) << r.out;
  for (const auto& c : doc.at("candidates"))
    EXPECT_EQ(c.at("status"), c.at("params").at("VARIANT") == 0 ? "ok" : "wrong_result") << c.dump();
}

}  // namespace
}  // namespace tuner
