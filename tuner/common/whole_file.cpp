#include "common/whole_file.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "common/option_values.h"

namespace tuner {

void WriteWholeFile(const std::string& path, const std::string& contents) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path folder = fs::path(path).parent_path();
  if (!folder.empty()) fs::create_directories(folder, error);
  const std::string temporary = path + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << contents;
    if (!out.flush()) {
      std::remove(temporary.c_str());
      throw std::runtime_error("cannot write " + Quoted(path));
    }
  }
  fs::rename(temporary, path, error);
  if (error) {
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write " + Quoted(path) + ": " + error.message());
  }
}

}  // namespace tuner
