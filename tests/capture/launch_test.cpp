// tuner::Launch (capture/launch.*) without a GPU: a launch that is not captured costs no
// allocation and touches no file; a capture that fails leaves nothing and the launch goes on.
#include "launch.h"

#include "example/nvrtc_kernel.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <string_view>

namespace {

std::atomic<long> g_allocations{0};

// Set before the library first reads them (at the first launch).
const std::string kCaptureDir = std::filesystem::temp_directory_path() / ("launch-test-" + std::to_string(getpid()));
const bool kEnvironment = [] {
  setenv("TUNER_CAPTURE", "other_kernel,launch_test_capture", 1);
  setenv("TUNER_CAPTURE_DIR", kCaptureDir.c_str(), 1);
  return true;
}();

}  // namespace

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace tuner {
namespace {

namespace fs = std::filesystem;

bool GpuPresent() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

// With a GPU the runtime looks the kernel up, so it must be a real one (empty: the pointers it is
// given are never read); without one, any address fails alike.
const void* TestKernel() {
  static const void* kernel =
      GpuPresent() ? static_cast<const void*>(example::CompileKernel("extern \"C\" __global__ void k() {}", "k", {}))
                   : reinterpret_cast<const void*>(0x3000);
  return kernel;
}

class LaunchTest : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(kCaptureDir); }
  void TearDown() override { fs::remove_all(kCaptureDir); }
  static bool CaptureDirEmpty() { return fs::is_empty(kCaptureDir); }

  float* out_ = reinterpret_cast<float*>(0x1000);
  const float* in_ = reinterpret_cast<const float*>(0x2000);
  const void* kernel_ = TestKernel();
};

TEST_F(LaunchTest, AnUncapturedLaunchAllocatesNothingAndWritesNothing) {
  cudaLaunchKernel(kernel_, dim3(1), dim3(1), nullptr, 0, nullptr);  // the runtime's own first-call work
  Launch("first", kernel_, dim3(1), dim3(1)).Run();  // the first launch in a process reads TUNER_CAPTURE
  const long before = g_allocations;
  Launch launch("not_requested", kernel_, dim3(4), dim3(256), 0, nullptr);
  launch.Out("out", out_, 1024).In("in", in_, 1024).Scalar("n", 1024).Scalar("scale", 2.0f);
  launch.Source("kernel.cu", "k")
      .Size("N", 1024)
      .Param("BLOCK", 256, {128, 256})
      .Geometry({"cdiv(N, BLOCK)"}, {"BLOCK"});
  launch.Constraint("BLOCK >= 128").Option("-use_fast_math").Tolerance(0, 1e-6);
  EXPECT_EQ(g_allocations - before, 0);

  // Run adds nothing to what a plain cudaLaunchKernel allocates (without a driver, that fails alike).
  void* args[] = {&out_, &in_};
  const long plain_before = g_allocations;
  const cudaError_t plain = cudaLaunchKernel(kernel_, dim3(4), dim3(256), args, 0, nullptr);
  const long plain_allocations = g_allocations - plain_before;
  const long run_before = g_allocations;
  const cudaError_t status = launch.Run();
  EXPECT_EQ(g_allocations - run_before, plain_allocations);
  if (!GpuPresent()) {
    EXPECT_EQ(status, plain);
  }
  EXPECT_TRUE(CaptureDirEmpty());
}

// Every element type of the tool is a buffer's and a scalar's, under the .npy code its capture writes.
TEST_F(LaunchTest, TheNarrowTypesAreElementTypes) {
  static_assert(std::string_view(Launch::TypeCodeOf<__half>()) == "<f2");
  static_assert(std::string_view(Launch::TypeCodeOf<__nv_bfloat16>()) == "bfloat16");
  static_assert(std::string_view(Launch::TypeCodeOf<__nv_fp8_e4m3>()) == "float8_e4m3fn");
  static_assert(std::string_view(Launch::TypeCodeOf<__nv_fp8_e5m2>()) == "float8_e5m2");
  static_assert(std::string_view(Launch::TypeCodeOf<std::int8_t>()) == "|i1");
  static_assert(std::string_view(Launch::TypeCodeOf<std::uint8_t>()) == "|u1");
  static_assert(std::string_view(Launch::TypeCodeOf<std::int16_t>()) == "<i2");
  static_assert(std::string_view(Launch::TypeCodeOf<std::uint16_t>()) == "<u2");
  static_assert(Launch::TypeCodeOf<char*>() == nullptr);
  Launch launch("not_requested", kernel_, dim3(1), dim3(1));
  launch.Out("h", reinterpret_cast<__half*>(0x1000), 4)
      .In("b", reinterpret_cast<const __nv_bfloat16*>(0x2000), 4)
      .InOut("e", reinterpret_cast<__nv_fp8_e4m3*>(0x3000), 4)
      .In("i", reinterpret_cast<const std::int8_t*>(0x4000), 4)
      .Scalar("alpha", __float2bfloat16(1.5f))
      .Scalar("s", std::uint16_t{7});
  launch.Run();
  EXPECT_TRUE(CaptureDirEmpty());
}

TEST_F(LaunchTest, AFailedCaptureLeavesNothingAndTheLaunchGoesOn) {
  if (GpuPresent()) GTEST_SKIP() << "a GPU is present: the capture would succeed (capture_gpu_test covers it)";
  std::ofstream(kCaptureDir + "/kernel.cu") << "extern \"C\" __global__ void k(float* out, const float* in) {}\n";
  ::testing::internal::CaptureStderr();
  Launch launch("launch_test_capture", kernel_, dim3(1), dim3(32));
  launch.Out("out", out_, 32).In("in", in_, 32).Source((kCaptureDir + "/kernel.cu").c_str(), "k");
  const cudaError_t status = launch.Run();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(status, cudaSuccess);  // the launch itself was attempted and its error returned
  EXPECT_NE(err.find("tuner capture: launch_test_capture: not captured: cudaStreamSynchronize"), std::string::npos)
      << err;
  EXPECT_EQ(std::distance(fs::directory_iterator(kCaptureDir), {}),
            1);  // only kernel.cu: no capture, no partial folder
}

TEST_F(LaunchTest, ACaptureWithoutASourceSaysWhatIsMissing) {
  ::testing::internal::CaptureStderr();
  Launch launch("other_kernel", kernel_, dim3(1), dim3(32));
  launch.Out("out", out_, 32);
  launch.Run();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("not captured: the launch call gives no kernel source (.Source(path, kernel))"), std::string::npos)
      << err;
  EXPECT_TRUE(CaptureDirEmpty());
}

}  // namespace
}  // namespace tuner
