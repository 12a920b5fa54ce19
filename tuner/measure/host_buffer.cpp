#include "measure/host_buffer.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <utility>

#include "cuda/cuda_check.h"
#include "cuda/release_log.h"

namespace tuner {

namespace {

std::atomic<std::size_t> g_live_bytes{0};

constexpr std::size_t kPageBytes = 4096;  // pageable buffers start on a page, as the others do

}  // namespace

HostBuffer::HostBuffer(HostMemory kind, std::size_t bytes) : bytes_(bytes), kind_(kind) {
  void* memory = nullptr;
  switch (kind) {
    case HostMemory::kPageable:
      memory = std::aligned_alloc(kPageBytes, (bytes + kPageBytes - 1) / kPageBytes * kPageBytes);
      if (!memory) throw std::bad_alloc();
      break;
    case HostMemory::kPinned:
      TUNER_CUDA_CHECK(cudaMallocHost(&memory, bytes));
      break;
    case HostMemory::kManaged:
    case HostMemory::kManagedPrefetch:
      TUNER_CUDA_CHECK(cudaMallocManaged(&memory, bytes, cudaMemAttachGlobal));
      break;
  }
  data_ = static_cast<char*>(memory);
  g_live_bytes += bytes_;
}

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)), kind_(other.kind_) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  std::swap(data_, other.data_);
  std::swap(bytes_, other.bytes_);
  std::swap(kind_, other.kind_);
  return *this;
}

void HostBuffer::Release() noexcept {
  if (!data_) return;
  switch (kind_) {
    case HostMemory::kPageable:
      std::free(data_);
      break;
    case HostMemory::kPinned:
      LogReleaseError("cudaFreeHost", cudaFreeHost(data_));
      break;
    case HostMemory::kManaged:
    case HostMemory::kManagedPrefetch:
      LogReleaseError("cudaFree", cudaFree(data_));
      break;
  }
  g_live_bytes -= bytes_;
  data_ = nullptr;
  bytes_ = 0;
}

std::size_t LiveHostBufferBytes() { return g_live_bytes; }

}  // namespace tuner
