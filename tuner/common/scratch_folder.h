// A folder of its own under the system's temporary folder ($TMPDIR, else /tmp), made atomically
// with a name no other process has (mkdtemp) and removed with everything in it when its owner goes.
#pragma once

#include <filesystem>
#include <string>

namespace tuner {

class ScratchFolder {
 public:
  // `prefix` starts the folder's name: "tuner-nvcc" gives /tmp/tuner-nvcc-XXXXXX. Throws when the
  // folder cannot be made.
  explicit ScratchFolder(const std::string& prefix);
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace tuner
