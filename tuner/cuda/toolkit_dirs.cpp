#include "cuda/toolkit_dirs.h"

#include <dlfcn.h>
#include <nvrtc.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace tuner {

namespace fs = std::filesystem;

namespace {

bool IsFile(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

bool IsFolder(const fs::path& path) {
  std::error_code error;
  return fs::is_directory(path, error);
}

bool IsExecutable(const fs::path& path) { return IsFile(path) && access(path.c_str(), X_OK) == 0; }

// An include folder and, beside it, CCCL's (CUDA 13 moved <cuda/std/...>, <cub/...> there).
void AddWithCccl(const fs::path& include, std::vector<std::string>& dirs) {
  dirs.push_back(include.string());
  if (IsFolder(include / "cccl")) dirs.push_back((include / "cccl").string());
}

}  // namespace

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
  for (const std::string& dir : toolkit_dirs)
    if (IsFile(dir + "/include/cuda_fp16.h")) return dir + "/include";
  return "";
}

std::vector<std::string> ToolkitIncludeDirs(const std::vector<std::string>& toolkit_dirs,
                                            const std::string& nvrtc_dir) {
  std::vector<std::string> dirs;
  if (const std::string include = ToolkitIncludeDir(toolkit_dirs); !include.empty()) {
    AddWithCccl(include, dirs);
    return dirs;
  }
  if (nvrtc_dir.empty()) return dirs;
  const fs::path beside = fs::path(nvrtc_dir) / ".." / "include";
  if (IsFile(beside / "cuda_fp16.h")) {
    AddWithCccl(fs::weakly_canonical(beside), dirs);
    return dirs;
  }
  // NVIDIA's CUDA 12 wheels give each component a package of its own beside NVRTC's
  // (nvidia/cuda_nvrtc/lib): the runtime's headers in nvidia/cuda_runtime/include, CCCL's in
  // nvidia/cuda_cccl/include.
  const fs::path packages = fs::path(nvrtc_dir) / ".." / "..";
  if (!IsFile(packages / "cuda_runtime" / "include" / "cuda_fp16.h")) return dirs;
  dirs.push_back(fs::weakly_canonical(packages / "cuda_runtime" / "include").string());
  if (IsFolder(packages / "cuda_cccl" / "include"))
    dirs.push_back(fs::weakly_canonical(packages / "cuda_cccl" / "include").string());
  return dirs;
}

std::string LoadedNvrtcDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&nvrtcVersion), &info) == 0 || !info.dli_fname) return "";
  const fs::path library(info.dli_fname);
  // A statically linked NVRTC reports the executable itself: no library folder to look beside.
  if (library.filename().string().rfind("libnvrtc", 0) != 0) return "";
  return library.parent_path().string();
}

std::string FindNvcc() {
  if (const char* named = std::getenv("TUNER_NVCC")) {
    const std::string path = named;
    return path == "none" || !IsExecutable(path) ? "" : path;
  }
  for (const std::string& dir : ToolkitDirs())
    if (IsExecutable(fs::path(dir) / "bin" / "nvcc")) return (fs::path(dir) / "bin" / "nvcc").string();
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');)
    if (!folder.empty() && IsExecutable(fs::path(folder) / "nvcc")) return (fs::path(folder) / "nvcc").string();
  return "";
}

}  // namespace tuner
