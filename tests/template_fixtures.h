// A small valid template for tests that need one on disk: kernel `k` checked against `k_reference`,
// one size N and one output buffer. Tests vary it with Replaced().
#pragma once

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "template/template_spec.h"

namespace tuner::testing {

inline const char* const kSmallDescription = R"toml(name = "small"
kernel = "k"
[[size]]
name = "N"
default = 1024
[launch]
grid = ["cdiv(N, 128)"]
block = [128]
[[arg]]
name = "out"
type = "float"
length = "N"
output = true
[check]
kernel = "k_reference"
[work]
bytes = "4 * N"
)toml";

inline const char* const kSmallSource =
    "extern \"C\" __global__ void k(float* o) {}\nextern \"C\" __global__ void k_reference(float* o) {}\n";

// `text` with its first `from` replaced by `to`; a `from` it lacks is the test's own mistake.
inline std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("the test's text has no '" + from + "'");
  return text.replace(at, from.size(), to);
}

// Writes folder/file.toml and, beside it, folder/file.cu; returns the description's path.
inline std::string WriteTemplateFiles(const std::string& folder, const std::string& file,
                                      const std::string& description, const std::string& source = kSmallSource) {
  std::filesystem::create_directories(folder);
  const std::filesystem::path base = std::filesystem::path(folder) / file;
  std::ofstream(base.string() + ".toml") << description;
  std::ofstream(base.string() + ".cu") << source;
  return base.string() + ".toml";
}

// The TemplateError that loading the description at `path` gives, or "(loaded without an error)".
inline std::string LoadErrorOf(const std::string& path) {
  try {
    LoadTemplateFile(path);
  } catch (const TemplateError& e) {
    return e.what();
  }
  return "(loaded without an error)";
}

}  // namespace tuner::testing
