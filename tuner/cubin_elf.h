// Resources recorded in a CUBIN's ELF sections, used to cross-check ptxas's -v report (NVRTC's
// log of a program compiled on one thread while others compile can miss it).
#pragma once

#include <optional>
#include <string>

namespace tuner {

struct CubinResources {
  int regs_per_thread = 0;         // EIATTR_REGCOUNT of the kernel's symbol in .nv.info
  long long shared_section_bytes = 0;  // size of .nv.shared.<kernel>: static shared memory, plus
                                       // the 1 KiB system reserve on sm_90 and newer
};

// nullopt when the bytes are not an ELF file or the kernel is not in it.
std::optional<CubinResources> ReadCubinResources(const std::string& cubin, const std::string& lowered_name);

}  // namespace tuner
