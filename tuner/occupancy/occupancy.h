// Occupancy of a kernel on an SM, computed with NVIDIA's cuda_occupancy.h from either a built-in
// architecture table (no GPU needed) or a live GPU's properties.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cuda/device_limits.h"

namespace tuner {

// What a kernel asks of an SM.
struct KernelResources {
  int threads_per_block = 0;
  int regs_per_thread = 0;
  std::size_t smem_bytes = 0;  // static + dynamic per block, before the driver's reserve
};

enum class Limiter { kWarps, kRegisters, kSharedMemory, kBlocks, kBarriers };

struct OccupancyResult {
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  double occupancy = 0.0;  // active warps / max warps per SM, 0..1
  Limiter limiter = Limiter::kWarps;
  // Blocks per SM each limit alone would allow.
  int blocks_by_warps = 0;
  int blocks_by_registers = 0;
  int blocks_by_shared_memory = 0;
  int blocks_by_blocks = 0;
  std::string invalid_reason;  // non-empty when the block cannot launch at all
  // Additions beyond the first API (cuda_occupancy.h's other outputs). A blocks_by_* count is
  // INT_MAX where that resource does not limit at all (0 registers, no shared memory).
  int blocks_by_barriers = 0;
  int warps_per_block = 0;
  int max_warps_per_sm = 0;
  int regs_allocated_per_block = 0;                // after the per-warp allocation granularity
  std::size_t smem_allocated_per_block_bytes = 0;  // with the driver's reserve, after granularity
  std::vector<Limiter> limiters;                   // every limit reached (ties), `limiter` first
};

// "warps", "registers", "shared_memory", "blocks", "barriers" (the JSON contract).
std::string ToString(Limiter limiter);

// The calculator is cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor); see occupancy.cpp
// for how DeviceLimits and KernelResources map onto its structures. A kernel that cannot launch gives
// blocks_per_sm 0 and an invalid_reason, not an exception. Throws std::invalid_argument when
// cuda_occupancy.h rejects the device itself: a compute capability it does not know, a non-positive
// limit, or shared memory per SM above the largest carveout the architecture has.
OccupancyResult ComputeOccupancy(const DeviceLimits& device, const KernelResources& kernel);

// Throws std::invalid_argument naming the cuda_occupancy.h call, its error and the configuration when
// `status` (a cudaOccError) is not CUDA_OCC_SUCCESS: "cuda_occupancy.h: cudaOccSMemPerBlock failed
// (CUDA_OCC_ERROR_UNKNOWN_DEVICE) for sm_90 (compute capability 9.0) and a block of 256 threads, 32
// registers per thread, 0 bytes of shared memory". For the calls whose error no message of ours explains.
void CheckOccupancyCall(int status, const char* call, const DeviceLimits& device, const KernelResources& kernel);

// The shared memory per SM the calculator actually uses: from compute capability 7.0 on,
// cuda_occupancy.h rounds smem_per_sm_bytes up to the next carveout size of the architecture
// (e.g. 20 KiB -> 32 KiB on sm_86). Throws std::invalid_argument as ComputeOccupancy does.
std::size_t ConfiguredSmemPerSmBytes(const DeviceLimits& device);

}  // namespace tuner
