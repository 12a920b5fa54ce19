#include "base/gpu_identity.h"

#include <cstdio>

namespace tuner {

std::string GpuIdentity::Arch() const { return ArchName(cc_major, cc_minor); }

std::string ArchName(int cc_major, int cc_minor) { return "sm_" + std::to_string(cc_major * 10 + cc_minor); }

std::string GpuUuidText(const char (&bytes)[16]) {
  std::string text = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(bytes[i]));
    text += hex;
  }
  return text;
}

}  // namespace tuner
