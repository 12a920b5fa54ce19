// The RAII handles release what they own exactly once, and a failed release is logged, not
// dropped: checked with a fake release function, so no GPU is needed.
#include "cuda/gpu_handles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace tuner {
namespace {

std::vector<int*> g_released;
cudaError_t g_release_result = cudaSuccess;

cudaError_t FakeRelease(int* handle) {
  g_released.push_back(handle);
  return g_release_result;
}

inline constexpr char kFakeRelease[] = "cudaFakeRelease";
using FakeHandle = CudaHandle<int*, FakeRelease, kFakeRelease>;

TEST(GpuHandles, EachHandleIsReleasedOnceAndAMovedFromOneNever) {
  int a = 0, b = 0;
  g_released.clear();
  g_release_result = cudaSuccess;
  testing::internal::CaptureStderr();
  {
    FakeHandle first(&a);
    FakeHandle second(std::move(first));
    FakeHandle third(&b);
    third = std::move(second);  // b now belongs to second, released with it
    EXPECT_EQ(third.get(), &a);
    FakeHandle empty;
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(g_released.size(), 2u);
  EXPECT_EQ(std::count(g_released.begin(), g_released.end(), &a), 1);
  EXPECT_EQ(std::count(g_released.begin(), g_released.end(), &b), 1);
}

TEST(GpuHandles, AFailedReleaseIsLoggedOnceToStderr) {
  int a = 0, b = 0;
  g_release_result = cudaErrorInvalidValue;
  testing::internal::CaptureStderr();
  { FakeHandle first(&a), second(&b); }
  const std::string logged = testing::internal::GetCapturedStderr();
  g_release_result = cudaSuccess;
  EXPECT_EQ(logged, "tuner: cudaFakeRelease failed while releasing: cudaErrorInvalidValue: invalid argument\n");
}

}  // namespace
}  // namespace tuner
