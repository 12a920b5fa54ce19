// Resources recorded in a CUBIN's ELF sections. They are the authority on registers and static
// shared memory: NVRTC's log of ptxas's -v report is sometimes empty (seen with the GPU node's
// libnvrtc 13.0.88), and the report is only used for what the ELF does not say (spills).
#pragma once

#include <optional>
#include <string>

namespace tuner {

struct CubinResources {
  int regs_per_thread = 0;          // EIATTR_REGCOUNT of the kernel's symbol in .nv.info
  long long static_smem_bytes = 0;  // .nv.shared.<kernel>, less the system reserve it holds
  int barriers = 0;                 // EIATTR_NUM_BARRIERS of .nv.info.<kernel>
};

// nullopt when the bytes are not an ELF file or the kernel is not in it. `arch` is "sm_90".
std::optional<CubinResources> ReadCubinResources(const std::string& cubin, const std::string& lowered_name,
                                                 const std::string& arch);

}  // namespace tuner
