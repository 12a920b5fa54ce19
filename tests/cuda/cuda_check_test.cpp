#include "cuda/cuda_check.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(CudaCheck, FaultsInKernelsAreSticky) {
  for (cudaError_t code : {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorMisalignedAddress,
                           cudaErrorIllegalInstruction, cudaErrorHardwareStackError, cudaErrorAssert})
    EXPECT_TRUE(IsStickyError(code)) << cudaGetErrorName(code);
}

TEST(CudaCheck, LaunchConfigurationErrorsAreNot) {
  for (cudaError_t code : {cudaErrorInvalidConfiguration, cudaErrorInvalidValue, cudaErrorLaunchOutOfResources,
                           cudaErrorInvalidDeviceFunction, cudaErrorNoKernelImageForDevice, cudaSuccess})
    EXPECT_FALSE(IsStickyError(code)) << cudaGetErrorName(code);
}

TEST(CudaCheck, MessageNamesTheCallTheLineAndTheError) {
  try {
    TUNER_CUDA_CHECK(cudaErrorInvalidConfiguration);
    FAIL() << "expected a CudaError";
  } catch (const CudaError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.code, cudaErrorInvalidConfiguration);
    EXPECT_NE(message.find("cudaErrorInvalidConfiguration failed at"), std::string::npos) << message;
    EXPECT_NE(message.find("at cuda_check_test.cpp:"), std::string::npos) << message;
    EXPECT_EQ(message.find('/'), std::string::npos) << message;  // no folder of the machine that built it
    EXPECT_NE(message.find("invalid configuration argument"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace tuner
