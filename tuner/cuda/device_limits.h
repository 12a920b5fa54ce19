// What the occupancy calculator needs to know about a device: its identity (a GPU of this machine,
// or an architecture of the built-in table, named "sm_90" with no SMs or memory) and the limits of
// its SMs and blocks. A GPU of this machine is found with them (cuda/device.h), in one reading of
// its properties.
#pragma once

#include <cstddef>

#include "base/gpu_identity.h"

namespace tuner {

struct DeviceLimits : GpuIdentity {
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int regs_per_sm = 65536;
  int regs_per_block = 65536;
  std::size_t smem_per_sm_bytes = 0;
  std::size_t smem_per_block_bytes = 49152;  // without opt-in
  std::size_t smem_per_block_optin_bytes = 0;
  std::size_t reserved_smem_per_block_bytes = 0;
};

}  // namespace tuner
