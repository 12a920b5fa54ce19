// Host memory of one kind for a pipeline candidate: pageable (the C++ heap), pinned
// (cudaMallocHost) or managed (cudaMallocManaged). Move-only; the destructor frees it on every
// path, so a candidate that fails, is refused or throws leaves nothing allocated.
#pragma once

#include <cstddef>

#include "template/pipeline_run.h"

namespace tuner {

class HostBuffer {
 public:
  HostBuffer() = default;
  // Throws CudaError (pinned, managed) or std::bad_alloc (pageable) when the memory is not there.
  HostBuffer(HostMemory kind, std::size_t bytes);
  ~HostBuffer() { Release(); }
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  char* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  HostMemory kind() const { return kind_; }

 private:
  void Release() noexcept;

  char* data_ = nullptr;
  std::size_t bytes_ = 0;
  HostMemory kind_ = HostMemory::kPageable;
};

// Bytes held by the HostBuffers of this process now: what a test of many candidates watches.
std::size_t LiveHostBufferBytes();

}  // namespace tuner
