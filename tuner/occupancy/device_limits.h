// The occupancy limits of a live GPU, read through the CUDA runtime (cudart_static; no libcuda link).
#pragma once

#include "occupancy/occupancy.h"

struct cudaDeviceProp;  // <cuda_runtime_api.h> stays out of this header

namespace tuner {

// Copies the fields the occupancy calculator needs; `name` is the GPU's product name.
DeviceLimits LimitsFromProperties(const cudaDeviceProp& properties);

// Limits of GPU `index` of this machine. Throws NoGpuError when no GPU or driver is usable (without a
// driver cudaGetDeviceCount fails with cudaErrorInsufficientDriver or cudaErrorNoDevice), UsageError
// for an index out of range, std::runtime_error naming the call when the runtime fails otherwise.
DeviceLimits LimitsFromGpu(int index);

}  // namespace tuner
