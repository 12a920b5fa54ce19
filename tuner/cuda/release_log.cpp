#include "cuda/release_log.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <utility>

#include "cuda/cuda_check.h"

namespace tuner {

void LogReleaseError(const std::string& call, const std::string& error) {
  static std::mutex mutex;
  static std::set<std::pair<std::string, std::string>> logged;
  std::lock_guard<std::mutex> lock(mutex);
  if (!logged.insert({call, error}).second) return;
  // stdio, not iostreams: this runs in destructors, possibly during static destruction.
  std::fprintf(stderr, "tuner: %s failed while releasing: %s\n", call.c_str(), error.c_str());
  std::fflush(stderr);
}

// A lost context (a kernel's fault) fails every release after it, and the candidate that lost it is
// already reported with its fault; at exit the runtime may be unloaded before the last releases.
void LogReleaseError(const std::string& call, cudaError_t result) {
  if (result == cudaSuccess || IsStickyError(result) || result == cudaErrorCudartUnloading) return;
  LogReleaseError(call, DescribeCudaError(result));
}

}  // namespace tuner
