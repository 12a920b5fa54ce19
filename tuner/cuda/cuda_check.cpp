#include "cuda/cuda_check.h"

namespace tuner {

void ThrowCudaError(cudaError_t code, const char* call, const char* file, int line) {
  // The file's name without the folder it was built in, which is nobody's business at run time.
  const std::string path = file;
  const std::string name = path.substr(path.find_last_of('/') + 1);
  throw CudaError(
      code, std::string(call) + " failed at " + name + ":" + std::to_string(line) + ": " + DescribeCudaError(code));
}

bool IsStickyError(cudaError_t code) {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

std::string DescribeCudaError(cudaError_t code) {
  return std::string(cudaGetErrorName(code)) + ": " + cudaGetErrorString(code);
}

}  // namespace tuner
