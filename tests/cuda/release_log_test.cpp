// A failed release is written to stderr once per call and error; a lost context's errors are not.
#include "cuda/release_log.h"

#include <gtest/gtest.h>

#include <string>

namespace tuner {
namespace {

std::string LoggedBy(void (*release)()) {
  testing::internal::CaptureStderr();
  release();
  return testing::internal::GetCapturedStderr();
}

TEST(ReleaseLog, EachCallAndErrorIsLoggedOnce) {
  EXPECT_EQ(LoggedBy([] {
              LogReleaseError("cudaTestFree", cudaErrorInvalidValue);
              LogReleaseError("cudaTestFree", cudaErrorInvalidValue);
            }),
            "tuner: cudaTestFree failed while releasing: cudaErrorInvalidValue: invalid argument\n");
  EXPECT_EQ(LoggedBy([] { LogReleaseError("cudaTestFree", cudaErrorInvalidResourceHandle); }),
            "tuner: cudaTestFree failed while releasing: cudaErrorInvalidResourceHandle: invalid resource handle\n");
  EXPECT_EQ(LoggedBy([] { LogReleaseError("nvrtcTestDestroy", "NVRTC_ERROR_INVALID_INPUT"); }),
            "tuner: nvrtcTestDestroy failed while releasing: NVRTC_ERROR_INVALID_INPUT\n");
}

TEST(ReleaseLog, SuccessALostContextAndAnUnloadedRuntimeAreNotLogged) {
  EXPECT_EQ(LoggedBy([] {
              LogReleaseError("cudaQuietFree", cudaSuccess);
              LogReleaseError("cudaQuietFree", cudaErrorIllegalAddress);
              LogReleaseError("cudaQuietFree", cudaErrorLaunchFailure);
              LogReleaseError("cudaQuietFree", cudaErrorCudartUnloading);
            }),
            "");
}

}  // namespace
}  // namespace tuner
