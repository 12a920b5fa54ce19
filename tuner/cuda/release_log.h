// Errors of calls that release something (cudaFree, cudaEventDestroy, nvrtcDestroyProgram, ...)
// happen where nothing may throw: in destructors. They are written to stderr, each call's error
// once per process, since one cause (a lost context) fails every release after it.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace tuner {

// "tuner: cudaFree failed while releasing: cudaErrorInvalidValue: invalid argument", the first time
// this call fails with this error in this process.
void LogReleaseError(const std::string& call, const std::string& error);
// The release's result: nothing for cudaSuccess, nor for an error that loses the context
// (IsStickyError: the candidate's fault says it) or cudaErrorCudartUnloading (releases at exit).
void LogReleaseError(const std::string& call, cudaError_t result);

}  // namespace tuner
