// One GPU as the tool, its store and the application library name it: the model (name, compute
// capability, SMs, memory), the card (UUID) and the architecture text NVRTC compiles for. The
// structs that say more of a GPU (its stored row, its occupancy limits, a card of this machine)
// derive from this one, so its fields are defined here only. Installed beside <tuner/tuned_config.h>.
#pragma once

#include <cstdint>
#include <string>

namespace tuner {

struct GpuIdentity {
  std::string name;  // "NVIDIA H100 80GB HBM3"; an architecture of the built-in table: "sm_90"
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;               // 0: unknown (an architecture of the table)
  std::int64_t memory_bytes = 0;  // as the driver reports it; 0: unknown
  std::string uuid;               // "GPU-xxxxxxxx-…"; empty: any card of the model

  std::string Arch() const;  // "sm_90"
};

// "sm_90": the one spelling of a compute capability as an architecture.
std::string ArchName(int cc_major, int cc_minor);

// A GPU's UUID as nvidia-smi writes it and the database keys a card: "GPU-" and its 16 bytes in
// hex, grouped 8-4-4-4-12. The tuner stores what this gives, so a lookup finds the exact card.
std::string GpuUuidText(const char (&bytes)[16]);

// From a cudaDeviceProp (any CUDA runtime: this library does not link CUDA).
template <typename DeviceProp>
GpuIdentity GpuFromProperties(const DeviceProp& prop) {
  GpuIdentity gpu;
  gpu.name = prop.name;
  gpu.cc_major = prop.major;
  gpu.cc_minor = prop.minor;
  gpu.sm_count = prop.multiProcessorCount;
  gpu.memory_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  gpu.uuid = GpuUuidText(prop.uuid.bytes);
  return gpu;
}

}  // namespace tuner
