// Occupancy through NVIDIA's cuda_occupancy.h: this file only translates our structures to the
// header's and its answer back; the formula (allocation granularities, sub-partitions, carveouts,
// barriers) is the header's, not re-derived here.
//
// Shared memory: our smem_bytes is static + dynamic per block, before the driver's reserve. The
// header adds reservedSharedMemPerBlock to cudaOccFuncAttributes::sharedSizeBytes, adds the dynamic
// size, rounds the sum up to the allocation granularity and checks it against the per-block limit
// (plus the reserve from 8.0 on) and against the SM's shared memory. Only the sum matters for the
// block count, so smem_bytes is passed as sharedSizeBytes with no dynamic part. With
// FUNC_SHMEM_LIMIT_OPTIN the per-block limit is the opt-in one once the block asks for more than the
// default 48 KiB: a kernel of ours that needs it opts in (cudaFuncAttributeMaxDynamicSharedMemorySize).
#include "occupancy/occupancy.h"

#include <cuda_occupancy.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace tuner {

namespace {

constexpr std::size_t kMaxSmemBytes = std::size_t{1} << 30;
constexpr int kMaxRegsPerThread = 1 << 16;

cudaOccDeviceProp ToOccProperties(const DeviceLimits& d) {
  cudaOccDeviceProp p;
  p.computeMajor = d.cc_major;
  p.computeMinor = d.cc_minor;
  p.maxThreadsPerBlock = d.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
  p.regsPerBlock = d.regs_per_block;
  p.regsPerMultiprocessor = d.regs_per_sm;
  p.warpSize = d.warp_size;
  p.sharedMemPerBlock = d.smem_per_block_bytes;
  p.sharedMemPerMultiprocessor = d.smem_per_sm_bytes;
  p.numSms = d.sm_count > 0 ? d.sm_count : 1;  // checked positive, never used for per-SM results
  p.sharedMemPerBlockOptin = std::max(d.smem_per_block_optin_bytes, d.smem_per_block_bytes);
  p.reservedSharedMemPerBlock = d.reserved_smem_per_block_bytes;
  return p;
}

cudaOccFuncAttributes ToOccAttributes(const KernelResources& k) {
  cudaOccFuncAttributes a;
  a.maxThreadsPerBlock = INT_MAX;  // the device's limit is what we check, not a __launch_bounds__
  a.numRegs = k.regs_per_thread;
  a.sharedSizeBytes = k.smem_bytes;
  a.partitionedGCConfig = PARTITIONED_GC_OFF;
  a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  a.maxDynamicSharedSizeBytes = 0;
  a.numBlockBarriers = 1;  // __syncthreads' barrier, as the header's cudaFuncAttributes conversion
  return a;
}

// "sm_90 (compute capability 9.0)"
std::string DeviceName(const DeviceLimits& d) {
  return d.name + " (compute capability " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor) + ")";
}

std::string OccErrorName(int status) {
  if (status == CUDA_OCC_ERROR_INVALID_INPUT) return "CUDA_OCC_ERROR_INVALID_INPUT";
  if (status == CUDA_OCC_ERROR_UNKNOWN_DEVICE) return "CUDA_OCC_ERROR_UNKNOWN_DEVICE";
  return "cudaOccError " + std::to_string(status);
}

std::string DeviceError(cudaOccError status, const DeviceLimits& d) {
  const std::string what = DeviceName(d);
  if (status == CUDA_OCC_ERROR_UNKNOWN_DEVICE)
    return "cuda_occupancy.h does not know " + what + "; use an --arch it knows";
  return "cuda_occupancy.h rejects the limits of " + what + ": every limit must be positive and " +
         std::to_string(d.smem_per_sm_bytes) + " bytes of shared memory per SM must not exceed the " +
         "largest carveout of the architecture";
}

// Most fundamental first: when the warp slots are full nothing else helps; when the block slots are
// full only bigger blocks help; then the kernel's own resources.
std::vector<Limiter> LimitersFromBits(unsigned bits) {
  std::vector<Limiter> out;
  if (bits & OCC_LIMIT_WARPS) out.push_back(Limiter::kWarps);
  if (bits & OCC_LIMIT_BLOCKS) out.push_back(Limiter::kBlocks);
  if (bits & OCC_LIMIT_REGISTERS) out.push_back(Limiter::kRegisters);
  if (bits & OCC_LIMIT_SHARED_MEMORY) out.push_back(Limiter::kSharedMemory);
  if (bits & OCC_LIMIT_BARRIERS) out.push_back(Limiter::kBarriers);
  return out;
}

// cuda_occupancy.h fixes blocks per SM by compute capability; a custom device with fewer is applied
// as one more minimum on top of the header's answer.
void ApplyBlockOverride(const DeviceLimits& d, cudaOccResult* r) {
  if (d.max_blocks_per_sm <= 0 || d.max_blocks_per_sm >= r->blockLimitBlocks) return;
  r->blockLimitBlocks = d.max_blocks_per_sm;
  if (r->activeBlocksPerMultiprocessor < d.max_blocks_per_sm) return;
  r->activeBlocksPerMultiprocessor = d.max_blocks_per_sm;
  unsigned bits = OCC_LIMIT_BLOCKS;
  if (r->blockLimitWarps == d.max_blocks_per_sm) bits |= OCC_LIMIT_WARPS;
  if (r->blockLimitRegs == d.max_blocks_per_sm) bits |= OCC_LIMIT_REGISTERS;
  if (r->blockLimitSharedMem == d.max_blocks_per_sm) bits |= OCC_LIMIT_SHARED_MEMORY;
  if (r->blockLimitBarriers == d.max_blocks_per_sm) bits |= OCC_LIMIT_BARRIERS;
  r->limitingFactors = bits;
}

// Inputs outside what the header's int arithmetic takes, or meaningless.
std::string OutOfRangeReason(const KernelResources& k) {
  if (k.threads_per_block <= 0) return "threads per block must be at least 1";
  if (k.regs_per_thread < 0) return "registers per thread must not be negative";
  if (k.regs_per_thread > kMaxRegsPerThread)
    return std::to_string(k.regs_per_thread) + " registers per thread exceed any device's";
  if (k.smem_bytes > kMaxSmemBytes)
    return std::to_string(k.smem_bytes) + " bytes of shared memory per block exceed any device's";
  return "";
}

void Append(std::string* reasons, const std::string& reason) { *reasons += (reasons->empty() ? "" : "; ") + reason; }

std::string InvalidReason(const DeviceLimits& d, const KernelResources& k, const OccupancyResult& r) {
  const cudaOccDeviceProp props = ToOccProperties(d);
  std::string reasons;
  if (k.threads_per_block > d.max_threads_per_block)
    Append(&reasons, std::to_string(k.threads_per_block) + " threads per block exceed the limit of " +
                         std::to_string(d.max_threads_per_block));
  int max_regs = 0;
  CheckOccupancyCall(cudaOccRegAllocationMaxPerThread(&max_regs, &props), "cudaOccRegAllocationMaxPerThread", d, k);
  if (k.regs_per_thread > max_regs)
    Append(&reasons, std::to_string(k.regs_per_thread) + " registers per thread exceed the maximum of " +
                         std::to_string(max_regs));
  else if (r.blocks_by_registers == 0)
    Append(&reasons, std::to_string(r.regs_allocated_per_block) + " registers per block (allocated) exceed the " +
                         "limit of " + std::to_string(d.regs_per_block));
  // The header's per-block limit counts the driver's reserve from 8.0 on; report it without.
  std::size_t smem_limit = 0;
  CheckOccupancyCall(
      cudaOccSMemPerBlock(&smem_limit, &props, FUNC_SHMEM_LIMIT_OPTIN, k.smem_bytes + d.reserved_smem_per_block_bytes),
      "cudaOccSMemPerBlock", d, k);
  const std::size_t reserve_in_limit = d.cc_major >= 8 ? d.reserved_smem_per_block_bytes : 0;
  if (r.smem_allocated_per_block_bytes > smem_limit)
    Append(&reasons, std::to_string(k.smem_bytes) + " bytes of shared memory per block exceed the " +
                         (d.cc_major >= 7 ? "opt-in " : "") + "limit of " +
                         std::to_string(smem_limit - reserve_in_limit));
  else if (r.blocks_by_shared_memory == 0)
    Append(&reasons, std::to_string(r.smem_allocated_per_block_bytes) + " bytes of shared memory per block " +
                         "(with the driver's reserve, rounded up) exceed the SM's " +
                         std::to_string(ConfiguredSmemPerSmBytes(d)));
  if (reasons.empty() && r.blocks_per_sm == 0) reasons = "no block fits on an SM";
  return reasons;
}

OccupancyResult FromOccResult(const DeviceLimits& d, const KernelResources& k, const cudaOccResult& r) {
  OccupancyResult out;
  out.blocks_per_sm = r.activeBlocksPerMultiprocessor;
  out.warps_per_block = (k.threads_per_block + d.warp_size - 1) / d.warp_size;
  out.warps_per_sm = out.blocks_per_sm * out.warps_per_block;
  out.max_warps_per_sm = d.max_threads_per_sm / d.warp_size;
  out.occupancy = out.max_warps_per_sm > 0 ? double(out.warps_per_sm) / out.max_warps_per_sm : 0.0;
  out.limiters = LimitersFromBits(r.limitingFactors);
  if (!out.limiters.empty()) out.limiter = out.limiters.front();
  out.blocks_by_warps = r.blockLimitWarps;
  out.blocks_by_registers = r.blockLimitRegs;
  out.blocks_by_shared_memory = r.blockLimitSharedMem;
  out.blocks_by_blocks = r.blockLimitBlocks;
  out.blocks_by_barriers = r.blockLimitBarriers;
  out.regs_allocated_per_block = r.allocatedRegistersPerBlock;
  out.smem_allocated_per_block_bytes = r.allocatedSharedMemPerBlock;
  return out;
}

}  // namespace

std::string ToString(Limiter limiter) {
  switch (limiter) {
    case Limiter::kWarps:
      return "warps";
    case Limiter::kRegisters:
      return "registers";
    case Limiter::kSharedMemory:
      return "shared_memory";
    case Limiter::kBlocks:
      return "blocks";
    case Limiter::kBarriers:
      return "barriers";
  }
  return "unknown";
}

void CheckOccupancyCall(int status, const char* call, const DeviceLimits& device, const KernelResources& kernel) {
  if (status == CUDA_OCC_SUCCESS) return;
  throw std::invalid_argument(std::string("cuda_occupancy.h: ") + call + " failed (" + OccErrorName(status) + ") for " +
                              DeviceName(device) + " and a block of " + std::to_string(kernel.threads_per_block) +
                              " threads, " + std::to_string(kernel.regs_per_thread) + " registers per thread, " +
                              std::to_string(kernel.smem_bytes) + " bytes of shared memory");
}

std::size_t ConfiguredSmemPerSmBytes(const DeviceLimits& device) {
  const cudaOccDeviceProp props = ToOccProperties(device);
  const cudaOccDeviceState state;
  std::size_t bytes = 0;
  cudaOccError status = cudaOccDevicePropCheck(&props);
  if (status == CUDA_OCC_SUCCESS) status = cudaOccSMemPerMultiprocessor(&bytes, &props, &state);
  if (status != CUDA_OCC_SUCCESS) throw std::invalid_argument(DeviceError(status, device));
  return bytes;
}

OccupancyResult ComputeOccupancy(const DeviceLimits& device, const KernelResources& kernel) {
  const std::string out_of_range = OutOfRangeReason(kernel);
  if (!out_of_range.empty()) {
    OccupancyResult invalid;
    invalid.invalid_reason = out_of_range;
    return invalid;
  }
  ConfiguredSmemPerSmBytes(device);  // the header's device checks, with a message of ours
  const cudaOccDeviceProp props = ToOccProperties(device);
  const cudaOccFuncAttributes attributes = ToOccAttributes(kernel);
  const cudaOccDeviceState state;
  cudaOccResult result{};
  const cudaOccError status =
      cudaOccMaxActiveBlocksPerMultiprocessor(&result, &props, &attributes, &state, kernel.threads_per_block, 0);
  if (status == CUDA_OCC_ERROR_INVALID_INPUT) {
    // The device passed its check, so the block's shared memory is over the largest carveout the
    // architecture has (only a custom opt-in limit above the real one gets here).
    OccupancyResult invalid;
    invalid.invalid_reason = std::to_string(kernel.smem_bytes) + " bytes of shared memory per block exceed " +
                             "the largest shared memory carveout of " + device.name;
    return invalid;
  }
  if (status != CUDA_OCC_SUCCESS) throw std::invalid_argument(DeviceError(status, device));
  ApplyBlockOverride(device, &result);
  OccupancyResult out = FromOccResult(device, kernel, result);
  out.invalid_reason = InvalidReason(device, kernel, out);
  return out;
}

}  // namespace tuner
