#include "capture_folder.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>

namespace tuner::capture {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxNumberedNames = 1000;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaptureError(path + ": cannot read the kernel source: " + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Renames without replacing: an existing folder of that name (even an empty one) is never touched.
bool RenameNoReplace(const std::string& from, const std::string& to) {
  if (renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return true;
  if (errno == EEXIST) return false;
  throw CaptureError("cannot move the capture " + from + " to " + to + ": " + std::strerror(errno));
}

}  // namespace

CaptureFolder::CaptureFolder(const std::string& parent, const std::string& name) : parent_(parent), name_(name) {
  std::error_code error;
  if (!fs::is_directory(parent_, error)) throw CaptureError(parent_ + ": the capture folder's parent does not exist");
  std::string pattern = (fs::path(parent_) / (".capture-" + name_ + ".partial-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw CaptureError(parent_ + ": cannot create a folder: " + std::strerror(errno));
  temporary_ = pattern;
}

CaptureFolder::~CaptureFolder() {
  if (committed_) return;
  std::error_code ignored;
  fs::remove_all(temporary_, ignored);
}

std::string CaptureFolder::Path(const std::string& relative) const {
  return (fs::path(temporary_) / relative).string();
}

std::unique_ptr<npy::Writer> CaptureFolder::NewArray(const std::string& relative, const std::string& descr,
                                                     std::uint64_t count) {
  std::error_code error;
  fs::create_directories(fs::path(Path(relative)).parent_path(), error);
  if (error) throw CaptureError(Path(relative) + ": cannot create its folder: " + error.message());
  return std::make_unique<npy::Writer>(Path(relative), descr, count);
}

void CaptureFolder::Remove(const std::string& relative) { std::remove(Path(relative).c_str()); }

void CaptureFolder::WriteText(const std::string& relative, const std::string& text) {
  std::ofstream out(Path(relative), std::ios::binary);
  out << text;
  out.close();
  if (!out) throw CaptureError(Path(relative) + ": cannot write the file");
}

void CaptureFolder::CopyFile(const std::string& from, const std::string& relative) {
  std::error_code error;
  fs::create_directories(fs::path(Path(relative)).parent_path(), error);
  if (!fs::copy_file(from, Path(relative), error))
    throw CaptureError(from + ": cannot copy into the capture: " + error.message());
}

std::string CaptureFolder::CopySource(const std::string& source_path) {
  static const std::regex kQuotedInclude(R"re(^\s*#\s*include\s*"([^"]+)")re");
  const fs::path dir = fs::path(source_path).parent_path();
  const std::string file_name = fs::path(source_path).filename().string();
  std::set<std::string> copied;
  std::vector<std::string> pending = {file_name};
  while (!pending.empty()) {
    const std::string relative = pending.back();
    pending.pop_back();
    if (!copied.insert(relative).second) continue;
    const std::string from = (dir / relative).string();
    const std::string text = ReadText(from);
    CopyFile(from, relative);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      std::smatch match;
      // Headers found beside the including file travel with it; others are NVRTC's or -I's.
      if (std::regex_search(line, match, kQuotedInclude) &&
          fs::is_regular_file(dir / fs::path(relative).parent_path() / match[1].str()))
        pending.push_back((fs::path(relative).parent_path() / match[1].str()).lexically_normal().string());
    }
  }
  return file_name;
}

std::string CaptureFolder::CommitAs(const std::string& final_name) {
  const std::string target = (fs::path(parent_) / final_name).string();
  if (!RenameNoReplace(temporary_, target)) throw CaptureError(target + ": exists already; it is kept");
  committed_ = true;
  return target;
}

void ReplaceTextFile(const std::string& path, const std::string& text) {
  const fs::path target(path);
  const std::string partial = (target.parent_path() / ("." + target.filename().string() + ".partial")).string();
  std::ofstream out(partial, std::ios::binary);
  out << text;
  out.close();
  if (!out || std::rename(partial.c_str(), path.c_str()) != 0) {
    std::remove(partial.c_str());
    throw CaptureError(path + ": cannot write the file");
  }
}

void WriteZeroArray(const std::string& path, const std::string& descr, std::uint64_t count) {
  constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
  std::error_code error;
  fs::create_directories(fs::path(path).parent_path(), error);
  npy::Writer writer(path, descr, count);
  const std::string zeros(kChunkBytes, '\0');
  for (std::uint64_t left = count * std::stoul(descr.substr(2)); left > 0;) {
    const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(left, zeros.size()));
    writer.Write(zeros.data(), size);
    left -= size;
  }
  writer.Close();
}

std::string CaptureFolder::Commit() {
  const std::string base = (fs::path(parent_) / ("capture-" + name_)).string();
  for (int n = 1; n <= kMaxNumberedNames; ++n) {
    const std::string target = n == 1 ? base : base + "-" + std::to_string(n);
    if (RenameNoReplace(temporary_, target)) {
      committed_ = true;
      return target;
    }
  }
  throw CaptureError(base + ": " + std::to_string(kMaxNumberedNames) +
                     " captures of this name exist already; remove some");
}

}  // namespace tuner::capture
