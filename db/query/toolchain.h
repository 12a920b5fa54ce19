// The toolchain a result was measured with: the driver, the CUDA runtime and NVRTC. An upgrade of
// any of them can change the best configuration, so every stored measurement keeps its toolchain
// (the `toolchain` column, schema version kTrustSchemaVersion) and `tuner query` and the library
// say when a result comes from another toolchain than the current one.
#pragma once

#include <string>
#include <vector>

namespace tuner::db {

struct Toolchain {
  std::string driver;   // "13.0" (cudaDriverGetVersion)
  std::string runtime;  // "12.9" (cudaRuntimeGetVersion)
  std::string nvrtc;    // "12.9" (nvrtcVersion)
};

// "driver 13.0, runtime 12.9, nvrtc 12.9"; a part that is unknown ("") is left out.
std::string ToText(const Toolchain& toolchain);
// The inverse of ToText; unknown words are ignored, a missing part stays "".
Toolchain ParseToolchain(const std::string& text);

// The parts that both know and that differ, as "driver 12.8 -> 13.0" (empty: the same toolchain,
// as far as both know).
std::vector<std::string> ToolchainChanges(const Toolchain& stored, const Toolchain& current);

// One line for the user, "" when `stored_text` is not from another toolchain than `current`:
// "measured with another toolchain (driver 12.8 -> 13.0); run 'tuner db revalidate'".
std::string ToolchainNote(const std::string& stored_text, const Toolchain& current);

}  // namespace tuner::db
