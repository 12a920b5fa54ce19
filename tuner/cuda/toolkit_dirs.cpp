#include "cuda/toolkit_dirs.h"

#include <cstdlib>
#include <filesystem>

namespace tuner {

std::vector<std::string> ToolkitDirs() {
  std::vector<std::string> dirs;
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* value = std::getenv(variable); value && *value) dirs.push_back(value);
#ifdef TUNER_CUDA_TOOLKIT_DIR
  dirs.push_back(TUNER_CUDA_TOOLKIT_DIR);
#endif
  dirs.push_back("/usr/local/cuda");
  return dirs;
}

std::string ToolkitIncludeDir(const std::vector<std::string>& toolkit_dirs) {
  for (const std::string& dir : toolkit_dirs) {
    std::error_code error;
    if (std::filesystem::is_regular_file(dir + "/include/cuda_fp16.h", error)) return dir + "/include";
  }
  return "";
}

}  // namespace tuner
