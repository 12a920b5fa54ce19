// Host buffers without a GPU: pageable memory is counted while it lives and given back on every
// path (pinned and managed memory: host_pipeline_gpu_test.cpp).
#include "measure/host_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace tuner {
namespace {

TEST(HostBuffer, PageableMemoryIsCountedWhileItLives) {
  const std::size_t before = LiveHostBufferBytes();
  {
    HostBuffer buffer(HostMemory::kPageable, 10000);
    EXPECT_EQ(LiveHostBufferBytes(), before + 10000);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.data()) % 4096, 0u);  // on a page, as pinned memory is
    std::memset(buffer.data(), 1, buffer.bytes());
    HostBuffer moved = std::move(buffer);
    EXPECT_EQ(buffer.data(), nullptr);
    EXPECT_EQ(moved.bytes(), 10000u);
    EXPECT_EQ(LiveHostBufferBytes(), before + 10000);  // moved, not copied
    moved = HostBuffer(HostMemory::kPageable, 500);    // the first is freed when the second takes its place
    moved = HostBuffer();
  }
  EXPECT_EQ(LiveHostBufferBytes(), before);
}

TEST(HostBuffer, AnExceptionFreesWhatWasAllocated) {
  const std::size_t before = LiveHostBufferBytes();
  try {
    HostBuffer first(HostMemory::kPageable, 1 << 20);
    HostBuffer second(HostMemory::kPageable, 1 << 20);
    throw std::runtime_error("a candidate failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(LiveHostBufferBytes(), before);
}

}  // namespace
}  // namespace tuner
