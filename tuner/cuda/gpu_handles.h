// Move-only RAII owners of CUDA runtime handles. Destructors never throw.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda/cuda_check.h"

namespace tuner {

template <typename Handle, cudaError_t (*Release)(Handle)>
class CudaHandle {
 public:
  CudaHandle() = default;
  explicit CudaHandle(Handle handle) : handle_(handle) {}
  ~CudaHandle() {
    if (handle_) Release(handle_);
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

using Event = CudaHandle<cudaEvent_t, cudaEventDestroy>;
using Library = CudaHandle<cudaLibrary_t, cudaLibraryUnload>;
using DevicePointer = CudaHandle<void*, cudaFree>;

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
