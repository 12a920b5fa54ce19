// One error macro for the CUDA runtime: the message carries the call, file:line, the error's
// name and its text.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace tuner {

struct CudaError : std::runtime_error {
  CudaError(cudaError_t code, const std::string& message) : std::runtime_error(message), code(code) {}
  cudaError_t code;
};

[[noreturn]] void ThrowCudaError(cudaError_t code, const char* call, const char* file, int line);

// Errors after which the CUDA context is lost (a fault in a kernel): only a new process recovers.
bool IsStickyError(cudaError_t code);

// "cudaErrorIllegalAddress: an illegal memory access was encountered"
std::string DescribeCudaError(cudaError_t code);

}  // namespace tuner

#define TUNER_CUDA_CHECK(call)                                                                                     \
  do {                                                                                                             \
    const cudaError_t tuner_cuda_status_ = (call);                                                                 \
    if (tuner_cuda_status_ != cudaSuccess) ::tuner::ThrowCudaError(tuner_cuda_status_, #call, __FILE__, __LINE__); \
  } while (0)
