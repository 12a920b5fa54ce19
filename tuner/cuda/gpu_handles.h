// Move-only RAII owners of CUDA runtime handles. Destructors never throw: a failed release is
// logged (cuda/release_log.h).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda/cuda_check.h"
#include "cuda/release_log.h"

namespace tuner {

// `kReleaseName` names `Release` in the log.
template <typename Handle, cudaError_t (*Release)(Handle), const char* kReleaseName>
class CudaHandle {
 public:
  CudaHandle() = default;
  explicit CudaHandle(Handle handle) : handle_(handle) {}
  ~CudaHandle() {
    if (handle_) LogReleaseError(kReleaseName, Release(handle_));
  }
  CudaHandle(CudaHandle&& other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
  CudaHandle& operator=(CudaHandle&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  CudaHandle(const CudaHandle&) = delete;
  CudaHandle& operator=(const CudaHandle&) = delete;
  Handle get() const { return handle_; }

 private:
  Handle handle_{};
};

inline constexpr char kCudaEventDestroy[] = "cudaEventDestroy";
inline constexpr char kCudaLibraryUnload[] = "cudaLibraryUnload";
inline constexpr char kCudaFree[] = "cudaFree";
using Event = CudaHandle<cudaEvent_t, cudaEventDestroy, kCudaEventDestroy>;
using Library = CudaHandle<cudaLibrary_t, cudaLibraryUnload, kCudaLibraryUnload>;
using DevicePointer = CudaHandle<void*, cudaFree, kCudaFree>;

inline Event MakeEvent() {
  cudaEvent_t event = nullptr;
  TUNER_CUDA_CHECK(cudaEventCreate(&event));
  return Event(event);
}

inline DevicePointer DeviceAlloc(std::size_t bytes) {
  void* pointer = nullptr;
  TUNER_CUDA_CHECK(cudaMalloc(&pointer, bytes));
  return DevicePointer(pointer);
}

inline Library LoadLibrary(const std::string& cubin) {
  cudaLibrary_t library = nullptr;
  TUNER_CUDA_CHECK(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  return Library(library);
}

}  // namespace tuner
